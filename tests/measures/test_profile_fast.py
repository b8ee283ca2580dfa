"""The privacy profile's hull sweep and the O(NM) ratio paths against slow exact references (issue 15).

* ``privacy_profile`` (the vectorized hull sweep of :func:`exactdp.measures.profile_front.profile_front`) against
  the previous implementation (the per-row exact Pareto front, kept as :func:`exactdp.testing.reference_profile_front`),
  the all-points fmpq route and a brute force over every output subset, on small and degenerate kernels;
* ``ldp_ratio``, ``pml_ratio``, ``max_leakage_ratio`` (and witnesses) against plain fmpq loops.
"""

import itertools
import random

import numpy as np
import pytest
import sympy
from flint import fmpq

from exactdp import Kernel, ldp_ratio, max_leakage_ratio, pml_ratio, privacy_profile
from exactdp.measures import privacy
from exactdp.measures.privacy import (
    _pair_lines,
    ldp_ratio_witness,
    pml_ratio_witness,
    profile_from_lines,
)
from exactdp.measures import profile_front
from exactdp.numbers import float_filter
from exactdp.numbers.linalg import IntRows
from exactdp.testing import reference_profile_front
from exactdp.verification.instances import random_kernel

Q = fmpq
ZERO = Q(0)


# -- references -----------------------------------------------------------------------------------


def old_profile(K):
    front = reference_profile_front(K.int_rows())
    if front is not None:
        return profile_from_lines((Q(pa, dp), Q(qa, dq)) for qa, dq, pa, dp in front)
    return plain_profile(K)


def plain_profile(K):
    """Every top-k line of every ordered pair, in fmpq."""
    if K.N == 1:
        return profile_from_lines([(ZERO, ZERO)])
    return profile_from_lines(line for i in range(K.N) for j in range(K.N) if i != j
                              for line in _pair_lines(K[i], K[j]))


def subset_profile(K):
    """Every output subset A of every ordered pair (M ≤ 7)."""
    lines = [(ZERO, ZERO)]
    for i in range(K.N):
        for j in range(K.N):
            if i == j:
                continue
            for r in range(K.M + 1):
                for A in itertools.combinations(range(K.M), r):
                    lines.append((sum((K[i, y] for y in A), ZERO), sum((K[j, y] for y in A), ZERO)))
    return profile_from_lines(lines)


def kernel_from_ints(nums, dens, *, attach=True):
    """An exact kernel with rows nums[i]/dens[i] (the integer form attached as given when ``attach``)."""
    rows = [tuple(Q(a, d) for a in row) for row, d in zip(nums, dens)]
    return Kernel.from_exact_rows(rows, int_rows=IntRows(nums, dens) if attach else None)


def random_parts(rng, M, den, zeros=0.0, top=50):
    w = [0 if rng.random() < zeros else rng.randint(1, top) for _ in range(M)]
    if not any(w):
        w[rng.randrange(M)] = 1
    # exact split of den proportional to w (largest remainder), keeping zeros at zero
    tot = sum(w)
    parts = [den * x // tot for x in w]
    rest = den - sum(parts)
    for y in sorted(range(M), key=lambda y: -w[y])[:rest]:
        parts[y] += 1
    return parts


def degenerate_kernels():
    rng = random.Random(15)
    out = [
        Kernel([["1"]]),  # N = 1, M = 1
        Kernel([["1"], ["1"], ["1"]]),  # M = 1
        Kernel([["1/3", "2/3"]]),  # N = 1
        Kernel([["1/2", "1/2"], ["1/2", "1/2"]]),  # identical rows
        Kernel([["1", "0"], ["0", "1"]]),  # disjoint supports
        Kernel([["1", "0", "0"], ["1/2", "1/2", "0"], ["0", "0", "1"]]),
        Kernel([["1/4", "3/4", "0"], ["1/4", "3/4", "0"], ["0", "1/2", "1/2"]]),
        Kernel([["0", "0", "1"], ["0", "1", "0"], ["0", "0", "1"]]),  # all-zero column
    ]
    for k in range(40):
        N, M = rng.randint(1, 6), rng.randint(1, 7)
        zeros = rng.choice([0.0, 0.3, 0.6])
        dens = [rng.randint(1, 40) for _ in range(N)]
        nums = [random_parts(rng, M, d, zeros) for d in dens]
        if N > 2 and k % 3 == 0:
            nums[1], dens[1] = list(nums[0]), dens[0]  # a repeated row
        if k % 4 == 0:  # not in lowest terms: a common factor in a row's integer form
            nums = [[3 * a for a in row] for row in nums]
            dens = [3 * d for d in dens]
        out.append(kernel_from_ints(nums, dens))
    # entries near the int64 bound and denominators beyond it (the fmpq routes)
    big = 2**62 - 57
    out.append(Kernel.from_exact_rows([(Q(1, big), Q(big - 1, big)), (Q(big - 1, big), Q(1, big))]))
    huge = 2**70 + 3
    out.append(Kernel.from_exact_rows([(Q(5, huge), Q(huge - 5, huge)), (Q(1, 3), Q(2, 3)),
                                       (Q(1, 2**40), Q(2**40 - 1, 2**40))]))
    out.append(Kernel.from_exact_rows([(Q(1, 2**33), Q(2**33 - 1, 2**33), ZERO), (Q(1, 3), Q(1, 3), Q(1, 3)),
                                       (Q(7, 2**33), ZERO, Q(2**33 - 7, 2**33))]))
    return out


DEGENERATE = degenerate_kernels()


# -- the profile ----------------------------------------------------------------------------------

@pytest.mark.parametrize("K", DEGENERATE, ids=lambda K: f"{K.N}x{K.M}")
def test_profile_equals_old_plain_and_subsets(K):
    fast = privacy_profile(K)
    assert fast == plain_profile(K) == old_profile(K)
    if K.M <= 7:
        assert fast == subset_profile(K)
    assert list(fast.breakpoints) == sorted(set(fast.breakpoints))


@pytest.mark.parametrize("seed", range(12))
def test_profile_equals_old_on_random_kernels(seed):
    rng = random.Random(seed)
    N, M = rng.randint(2, 40), rng.randint(2, 40)
    K = random_kernel(seed, N, M, max_den=rng.choice([M, 60, 1000, 5000]), full_support=seed % 2 == 0)
    assert privacy_profile(K) == old_profile(K)
    if N * N * M <= 20000:
        assert privacy_profile(K) == plain_profile(K)


@pytest.mark.parametrize("scale_bits", [2, 8, 15, 16, 17, 24])
def test_coarse_fixed_point_scales_keep_the_profile(scale_bits):
    """Coarser filters keep more candidates, never fewer than needed: the hull is the same."""
    for seed in range(6):
        K = random_kernel(100 + seed, 9, 11, max_den=300)
        R = K.int_rows()
        assert profile_front.profile_front(R, scale_bits=scale_bits) == profile_front.profile_front(R)
    assert profile_front.profile_front(R) == [t for t in _old_hull(R)]


def _old_hull(R):
    """The hull vertices of the old Pareto front (the same envelope as the sweep's hull)."""
    pts = [(Q(qa, dq), Q(pa, dp)) for qa, dq, pa, dp in reference_profile_front(R)]
    return [(int(a.p), int(a.q), int(b.p), int(b.q)) for a, b in profile_front.upper_hull(pts)]


def test_int64_key_route_and_wide_rank_table(monkeypatch):
    """Many distinct numerators: int64 ranks (> 2^16 fraction classes), and the key route without a table."""
    rng = random.Random(7)
    nums = [random_parts(rng, 400, 10**7, 0.1, top=10**4) for _ in range(3)]
    K = kernel_from_ints(nums, [10**7] * 3)
    V = np.unique(K.int_rows().A)
    assert profile_front._ratio_ranks(V).dtype == np.int64
    ref = plain_profile(K)
    assert privacy_profile(K) == ref  # 3·2·400 ratio keys, fewer than the table's V² entries: the key route
    table = profile_front._ratio_sort_keys

    def always_table(A, max_num, pairs=None):
        return table(A, max_num)

    with monkeypatch.context() as m:  # the int64 rank table on the same kernel
        m.setattr(profile_front, "_ratio_sort_keys", always_table)
        assert privacy_profile(K) == ref
    monkeypatch.setattr(profile_front, "_RANK_TABLE_MAX", 2)
    assert privacy_profile(K) == ref
    for K in DEGENERATE[:20]:
        assert privacy_profile(K) == plain_profile(K)


def test_fallback_when_no_int64_route():
    K = DEGENERATE[-2]  # a 2^70 denominator: object arrays
    assert K.int_rows().A.dtype == object and profile_front.profile_front(K.int_rows()) is None
    assert privacy_profile(K) == subset_profile(K)


def test_profile_at_a_moderate_size_matches_old():
    K = random_kernel(2026, 64, 64, max_den=1000)
    assert privacy_profile(K) == old_profile(K)


# -- ldp_ratio, pml_ratio, max_leakage_ratio -----------------------------------------------------------

def ref_ldp_witness(K):
    """The previous loop: first column with the largest max/min ratio, first rows on ties."""
    best, arg = Q(1), (0, 0, 0)
    for y in range(K.M):
        col = [K[x, y] for x in range(K.N)]
        hi, lo = max(col), min(col)
        xh, xl = col.index(hi), col.index(lo)
        if hi == 0:
            continue
        if lo == 0:
            return sympy.oo, y, xh, xl
        if hi / lo > best:
            best, arg = hi / lo, (y, xh, xl)
    return best, *arg


def ref_pml_witness(K, c):
    c = Q(c)
    best, arg = None, None
    for y in range(K.M):
        col = [K[x, y] for x in range(K.N)]
        hi = max(col)
        if hi == 0:
            continue
        r = hi / (c * sum(col, ZERO) + (1 - K.N * c) * min(col))
        if best is None or r > best:
            best, arg = r, y
    col = [K[x, arg] for x in range(K.N)]
    x0 = col.index(min(col))
    prior = tuple(c + (1 - K.N * c if x == x0 else ZERO) for x in range(K.N))
    return best, arg, prior


def ref_max_leakage(K):
    return sum((max(K[x, y] for x in range(K.N)) for y in range(K.M)), ZERO)


def ratio_kernels():
    out = list(DEGENERATE)
    for seed in range(10):
        rng = random.Random(seed)
        N, M = rng.randint(2, 30), rng.randint(1, 30)
        out.append(random_kernel(seed, N, M, max_den=rng.choice([M, 50, 1000, 40000]), full_support=seed % 3 != 0))
    out.append(random_kernel(3, 64, 64, max_den=1000, full_support=True))
    out.append(Kernel.from_exact_rows([tuple(Q(1, 5) for _ in range(5))] * 4))  # every column ties
    rng = random.Random(99)
    nums = [random_parts(rng, 40, 10**7, 0.0, top=10**4) for _ in range(5)]  # B = max_num·max_den > 2^20
    out.append(kernel_from_ints(nums, [10**7] * 5))
    nums = [random_parts(rng, 5, 16000, 0.0, top=10**4) for _ in range(4)]  # B ≥ 2^20: the tournament
    out.append(kernel_from_ints(nums, [16000] * 4))
    nums = [random_parts(rng, 6, 2**40, 0.0, top=10**4) for _ in range(4)]  # beyond the key bounds
    out.append(kernel_from_ints(nums, [2**40] * 4))
    out.extend(large_denominator_kernels())
    assert all(sum(row) == 1 for K in out for row in K.rows)
    return out


def large_denominator_kernels(seed=7):
    """Rows with random 9-, 12- and 15-digit denominators (the float64 filter, 128-bit exact decisions), with
    zero entries, repeated rows and repeated columns (exact ties the floats cannot separate)."""
    rng = random.Random(seed)
    out = []
    for digits in (9, 12, 15):
        for zeros in (0.0, 0.2):
            N, M = rng.randint(8, 24), rng.randint(8, 30)
            dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
            nums = [random_parts(rng, M, d, zeros, top=10**6) for d in dens]
            out.append(kernel_from_ints(nums, dens))
        base = [random_parts(rng, 6, 10**digits + 7, 0.0, top=10**6) for _ in range(3)]
        nums = [[row[y % 6] for y in range(12)] for row in base + base]  # repeated rows and columns
        out.append(kernel_from_ints(nums, [2 * (10**digits + 7)] * 6))  # each row sums to 2·den over 2·den
    return out


RATIO_KERNELS = ratio_kernels()


@pytest.mark.parametrize("K", RATIO_KERNELS, ids=lambda K: f"{K.N}x{K.M}")
def test_ldp_pml_and_leakage_equal_the_plain_loops(K):
    r, y, xh, xl = ldp_ratio_witness(K)
    assert (r, y, xh, xl) == ref_ldp_witness(K) and ldp_ratio(K) == r
    assert max_leakage_ratio(K) == ref_max_leakage(K)
    for c in {Q(1, K.N), Q(1, 2 * K.N), Q(1, 7 * K.N), Q(2, 3 * K.N), Q(1, 10**9 * K.N)}:
        v, y, prior = pml_ratio_witness(K, c)
        rv, ry, rprior = ref_pml_witness(K, c)
        assert (v, y, tuple(prior.probs)) == (rv, ry, rprior)
        assert pml_ratio(K, c) == v


def test_float_filter_routes_match_the_fallbacks(monkeypatch):
    """The same values and witnesses when the float64 filter is switched off (Python-integer tournaments and
    the fmpq loop of the LDP ratio), on fresh kernels so that no cached extreme is reused."""
    def values(kernels):
        return [(ldp_ratio_witness(K), max_leakage_ratio(K), pml_ratio_witness(K, Q(1, 2 * K.N))[:2])
                for K in kernels]

    fast = values(RATIO_KERNELS)
    monkeypatch.setattr(float_filter, "usable", lambda R: False)
    slow = values([Kernel.from_exact_rows(K.rows) for K in RATIO_KERNELS])
    assert fast == slow


def test_structured_kernels_with_ties():
    """Randomized response and block kernels: many points exactly on the hull and long runs of equal ratios."""
    from exactdp.mechanisms import randomized_response

    block = Kernel.from_exact_rows([tuple(Q(2 if (x // 3) == (y // 3) else 1, 3 * 2 + 9 - 3) for y in range(9))
                                    for x in range(9)])
    for K in (randomized_response(24, 3), randomized_response(7, Q(5, 2)), block):
        assert privacy_profile(K) == old_profile(K) == plain_profile(K)
