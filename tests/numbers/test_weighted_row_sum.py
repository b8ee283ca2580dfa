"""The exact sum behind max_leakage_ratio (exactdp/numbers/linalg.py ``weighted_row_sum``, the column maxima of
``column_extreme``) against plain fmpq sums and a brute-force Σ_y max_x K(y|x), on every integer route: int64 rows
whose group sums fit int64, int64 rows near 2^63 (the Python-integer groups), and rows beyond int64 (object arrays,
the Python-integer tournament); with repeated (row, column) pairs, zero entries, rows sharing a denominator, exact
ties a/d = 2a/2d and near ties D/(D + 1) < (D + 1)/(D + 2) that no float separates."""

import random

import numpy as np
import pytest
from flint import fmpq

from exactdp import Kernel, max_leakage_ratio
from exactdp.numbers import linalg
from exactdp.numbers.linalg import IntRows

Q = fmpq
ZERO = Q(0)


def composition(rng, M, d):
    """M non-negative integers summing to d, with zeros."""
    cuts = sorted(rng.randrange(0, d + 1) for _ in range(M - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, d])]


def tied_rows(seed, N, M, lo, hi):
    """``(nums, dens)``: N random rows over denominators in [lo, hi); row N − 1 is row 0 over twice its denominator
    (an exact tie in every column), row N − 2 is row 1 over the same denominator, and rows 2, 3 put D/(D + 1) and
    (D + 1)/(D + 2) (D = lo) in column 0."""
    rng = random.Random(seed)
    dens = [rng.randrange(lo, hi) for _ in range(N)]
    nums = [composition(rng, M, d) for d in dens]
    nums[-1], dens[-1] = [2 * a for a in nums[0]], 2 * dens[0]
    nums[-2], dens[-2] = list(nums[1]), dens[1]
    for x, (a, d) in ((2, (lo, lo + 1)), (3, (lo + 1, lo + 2))):
        nums[x] = [a] + [0] * (M - 2) + [d - a]
        dens[x] = d
    return nums, dens


CASES = {
    "int64-12digits": (10**11, 10**12),
    "int64-near-2^63": (2**62 - 2**40, 2**62),  # twice a denominator (the tie) is just below 2^63
    "object-25digits": (10**24, 10**25),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("N,M", [(9, 7), (40, 33)])
def test_the_sum_of_column_maxima_equals_brute_force(name, N, M):
    """max_leakage_ratio of a new kernel is Σ_y max_x K(y|x) by plain fmpq comparisons and sums; the first exact
    column maximizers are the Python-integer tournament's (rows 0 and N − 1 tie: row 0 is taken)."""
    lo, hi = CASES[name]
    nums, dens = tied_rows(N * M, N, M, lo, hi)
    rows = [[Q(a, d) for a in row] for row, d in zip(nums, dens)]
    brute = sum((max(r[y] for r in rows) for y in range(M)), ZERO)
    R = IntRows(nums, dens)
    assert (R.A.dtype == object) == (name == "object-25digits")
    got = linalg.column_extreme(R, "max")
    assert got.tolist() == linalg._object_tournament(R.A, R.d, "max").tolist()
    assert (N - 1) not in got.tolist()  # row 0 wins every tie with its copy over twice the denominator
    assert linalg.weighted_row_sum(R, got, np.arange(M)) == brute
    K = Kernel.from_exact_rows([tuple(r) for r in rows], int_rows=IntRows(nums, dens))
    assert max_leakage_ratio(K) == brute and max_leakage_ratio(K) == brute  # the kept value


@pytest.mark.parametrize("name", CASES)
def test_weighted_row_sum_of_any_entries(name):
    """Σ_i A[rows[i]][cols[i]] / d[rows[i]] for arbitrary (row, column) pairs — repeated pairs, rows repeated with
    other columns, zero entries, rows sharing a denominator — equals the plain fmpq sum, and a sum of zero entries only is 0."""
    lo, hi = CASES[name]
    nums, dens = tied_rows(5, 12, 10, lo, hi)
    R = IntRows(nums, dens)
    rng = random.Random(name)
    for k in (1, 2, 12, 50):
        rows = [rng.randrange(12) for _ in range(k)]
        cols = [rng.randrange(10) for _ in range(k)]
        plain = sum((Q(nums[x][y], dens[x]) for x, y in zip(rows, cols)), ZERO)
        assert linalg.weighted_row_sum(R, rows, np.array(cols)) == plain
    zero_cols = [y for y in range(10) if nums[2][y] == 0]
    assert linalg.weighted_row_sum(R, [2] * len(zero_cols), np.array(zero_cols)) == 0
