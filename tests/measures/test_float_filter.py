"""The float64 filters of exact maxima (exactdp/numbers/float_filter.py, exactdp/measures/candidate_filter.py)
and their 128-bit products against plain exact references: values *and* first maximizers, on kernels with large
row denominators, zero entries and exact ties (repeated rows and columns) that no float bound can separate."""

import random

import numpy as np
import pytest
from flint import fmpq

from exactdp import Kernel, eta_hockey_stick, eta_tv
from exactdp.measures.contraction import eta_hockey_stick_witness, eta_tv_witness
from exactdp.measures import pairwise_hockey_stick
from exactdp.measures import candidate_filter
from exactdp.numbers import float_filter, linalg
from exactdp.numbers.linalg import IntRows
from exactdp.numbers.wide import mul_wide, products_ge, products_gt

Q = fmpq
ZERO = Q(0)


def ref_eta_witness(K, g):
    """The first pair (lexicographic; i < j for γ = 1) of the largest E_γ, by plain fmpq sums."""
    rows = [list(r) for r in K.rows]
    best, arg = None, None
    for i in range(K.N):
        for j in range(i + 1 if g == 1 else 0, K.N):
            if i == j:
                continue
            v = sum((max(a - g * b, ZERO) for a, b in zip(rows[i], rows[j])), ZERO)
            if best is None or v > best:
                best, arg = v, (i, j)
    return best, *arg


def parts(rng, M, den, zeros):
    """M non-negative integers summing to den, about a fraction ``zeros`` of them 0."""
    w = [0 if rng.random() < zeros else rng.randint(1, 10**6) for _ in range(M)]
    if not any(w):
        w[0] = 1
    tot = sum(w)
    out = [den * x // tot for x in w]
    out[max(range(M), key=lambda y: w[y])] += den - sum(out)
    return out


def kernel(nums, dens):
    rows = [tuple(Q(a, d) for a in row) for row, d in zip(nums, dens)]
    return Kernel.from_exact_rows(rows, int_rows=IntRows(nums, dens))


def big_kernels(seed=11):
    rng = random.Random(seed)
    for digits in (9, 12, 15, 18):
        for zeros in (0.0, 0.3):
            N, M = rng.randint(6, 16), rng.randint(6, 20)
            dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
            yield kernel([parts(rng, M, d, zeros) for d in dens], dens)
        base = [parts(rng, 5, 10**digits + 3, 0.2) for _ in range(3)]
        nums = [[row[y % 5] for y in range(10)] for row in base + base[::-1] + base]
        yield kernel(nums, [2 * (10**digits + 3)] * 9)  # repeated rows and columns: exact ties


BIG = list(big_kernels())


def test_wide_products_are_exact():
    rng = random.Random(5)
    edge = [0, 1, 2**31, 2**32 - 1, 2**32, 2**62, 2**63 - 1]
    xs = edge + [rng.randrange(2**63) for _ in range(500)] + [rng.randrange(2**33) for _ in range(100)]
    ys = edge[::-1] + [rng.randrange(2**63) for _ in range(500)] + [rng.randrange(2**33) for _ in range(100)]
    x, y = np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64)
    hi, lo = mul_wide(x, y)
    assert [(int(a) << 64) + int(b) for a, b in zip(hi, lo)] == [a * b for a, b in zip(xs, ys)]
    assert products_ge(x, y, y, x).all() and not products_gt(x, y, y, x).any()  # equal products
    a, b = np.array([2**62 + 1], dtype=np.int64), np.array([2**62], dtype=np.int64)
    assert products_gt(a, a, b, a)[0] and not products_ge(b, a, a, a)[0]  # differ only in the low limb


@pytest.mark.parametrize("K", BIG, ids=lambda K: f"{K.N}x{K.M}-{K.int_rows().max_den.bit_length()}bits")
def test_pairwise_maximum_on_large_denominators(K):
    R = K.int_rows()
    assert float_filter.usable(R)
    for g in (Q(1), Q(3, 2), Q(7), Q(1, 3)):
        assert eta_hockey_stick_witness(K, g) == ref_eta_witness(K, g)
    assert eta_tv_witness(K) == ref_eta_witness(K, Q(1))
    assert eta_tv(K) == ref_eta_witness(K, Q(1))[0] and eta_hockey_stick(K, 2) == ref_eta_witness(K, Q(2))[0]


@pytest.mark.parametrize("K", BIG, ids=lambda K: f"{K.N}x{K.M}")
@pytest.mark.parametrize("few", [0, float_filter._FEW])
def test_column_extremes_match_the_integer_tournament(K, few, monkeypatch):
    """Undecided columns by the vectorized 128-bit tournament (``few`` = 0) and one by one (the default)."""
    monkeypatch.setattr(float_filter, "_FEW", few)
    R = K.int_rows()
    for sense in ("max", "min"):
        exact = linalg._object_tournament(R.A, R.d, sense)
        assert float_filter.column_argext(R, sense=sense).tolist() == exact.tolist()
        assert float_filter.column_tournament(R.A, R.d, sense).tolist() == exact.tolist()
        cols = np.arange(K.M)[::2]
        assert float_filter.column_argext(R, cols, sense=sense).tolist() == exact[cols].tolist()


def ref_pml(K, c):
    """max over y of max_x K / (c S_y + (1 − Nc) min_x K), plain fmpq (D-9), the first worst column kept."""
    best = None
    for y in range(K.M):
        col = [K[x, y] for x in range(K.N)]
        if max(col) == 0:
            continue
        r = max(col) / (c * sum(col, ZERO) + (1 - K.N * c) * min(col))
        best = r if best is None or r > best else best
    return best


@pytest.mark.parametrize("K", BIG, ids=lambda K: f"{K.N}x{K.M}")
def test_pml_and_max_leakage_on_large_denominators(K):
    """Column sums on the product tree of the row denominators (exactdp/numbers/fraction_sum.py), the float
    filter's candidate columns and extremes: equal to plain fmpq sums, on a fresh kernel (cold) and again
    (the cached sums), for several c (ties: the repeated rows and columns)."""
    from exactdp import max_leakage_ratio, pml_ratio

    leak = sum((max(K[x, y] for x in range(K.N)) for y in range(K.M)), ZERO)
    fresh = kernel(K.int_rows().A.tolist(), K.int_rows().d.tolist())
    assert max_leakage_ratio(fresh) == leak and max_leakage_ratio(fresh) == leak
    for c in (Q(1, K.N), Q(1, 2 * K.N), Q(1, 10**12), Q(3, 7 * K.N)):
        assert pml_ratio(fresh, c) == ref_pml(K, c)
        assert pml_ratio(K, str(c)) == ref_pml(K, c)
    sums = linalg.column_sums(K.int_rows())
    assert sums == [sum((K[x, y] for x in range(K.N)), ZERO) for y in range(K.M)]


def bench_like_kernels(seed=53):
    """64 × 64 kernels like the benchmark's ``denD`` rows (each row a random composition of its own D-digit
    denominator, D = 3 with zero entries, 12 without), with exact ties: row 0 again over twice its denominator,
    row 1 again over its own, and a column whose two largest entries D/(D + 1) and (D + 1)/(D + 2),
    D = 10^digits, differ by less than any float resolves."""
    rng = random.Random(seed)
    for digits in (3, 12):
        N = M = 64
        dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
        nums = []
        for d in dens:
            cuts = sorted(rng.randrange(0, d + 1) for _ in range(M - 1))
            nums.append([b - a for a, b in zip([0, *cuts], [*cuts, d])])
        nums[-1], dens[-1] = [2 * a for a in nums[0]], 2 * dens[0]
        nums[-2], dens[-2] = list(nums[1]), dens[1]
        nums[2] = [0] * M
        nums[2][0], nums[2][1], dens[2] = 1, 10**digits, 10**digits + 1
        nums[3] = [0] * M
        nums[3][0], nums[3][1], dens[3] = 1, 10**digits + 1, 10**digits + 2
        yield kernel(nums, dens)


@pytest.mark.parametrize("K", list(bench_like_kernels()), ids=lambda K: f"{K.int_rows().max_den.bit_length()}bits")
def test_first_calls_on_benchmark_like_kernels_equal_the_slow_route(K):
    """ldp_ratio, max_leakage, pml_ratio (three c), eta_tv and eta_hockey_stick (γ = 3/2) on a new kernel (its
    integer form only, as bench_core's cold calls) equal the plain fmpq loops of the number domain QQ: the same
    fmpq values and witnesses."""
    from exactdp import ldp_ratio, max_leakage_ratio, pml_ratio
    from exactdp.measures.privacy import ldp_ratio_in, max_leakage_in, pml_ratio_in
    from exactdp.numbers.domain import QQ

    def fresh():
        return kernel(K.int_rows().A.tolist(), K.int_rows().d.tolist())

    assert ldp_ratio(fresh()) == ldp_ratio_in(QQ, K)[0]
    assert max_leakage_ratio(fresh()) == max_leakage_in(QQ, K)
    for c in (Q(1, 2 * K.N), Q(1, K.N), Q(2, 5 * K.N)):
        assert pml_ratio(fresh(), c) == pml_ratio_in(QQ, K, c)[0]
    assert eta_tv_witness(fresh()) == ref_eta_witness(K, 1)
    assert eta_hockey_stick_witness(fresh(), Q(3, 2)) == ref_eta_witness(K, Q(3, 2))


def test_float_route_equals_the_integer_route_on_small_denominators():
    """The same (value, pair) as the fixed-width integer route, forcing the float route on kernels where both
    apply: random rows, randomized response (every pair ties) and identical rows (every value 0)."""
    from exactdp.mechanisms import randomized_response
    from exactdp.verification.instances import random_kernel

    kernels = [random_kernel(s, 12, 16, max_den=1000, full_support=s % 2 == 0) for s in range(4)]
    kernels += [randomized_response(9, 3), Kernel.from_exact_rows([tuple(Q(1, 8) for _ in range(8))] * 6)]
    for K in kernels:
        R = K.int_rows()
        for g, h in ((1, 1), (3, 2), (5, 1)):
            sym = g == h
            fast = candidate_filter.filtered_max_pairwise_hockey_stick(R, g, h, symmetric=sym)
            num, den, i, j = pairwise_hockey_stick.max_pairwise_hockey_stick(R, g, h, symmetric=sym)
            assert (Q(fast[0], fast[1]), fast[2], fast[3]) == (Q(num, den), i, j)


def test_float_route_refuses_what_its_bounds_do_not_cover():
    rows = IntRows([[1, 2], [2, 1]], [3, 3])
    assert candidate_filter.filtered_max_pairwise_hockey_stick(rows, 2**1000, 1) is None  # γ beyond the float range
    assert candidate_filter.pml_columns(rows, 1, 2**1000) is None  # c below 2^-900
    huge = IntRows([[1, 10**30 - 1], [10**30 - 1, 1]], [10**30, 10**30])
    assert not float_filter.usable(huge)  # object rows: the callers' Python-integer routes


def tied_kernels(seed=29):
    """Random kernels whose rows have 3- to 12-digit denominators, with zero entries, and exact ties written
    with different denominators: a row repeated as (2a)/(2d), columns repeated, a row of a column's maximum."""
    rng = random.Random(seed)
    for digits in (3, 6, 9, 12):
        for zeros in (0.0, 0.4):
            N, M = rng.randint(5, 12), rng.randint(5, 14)
            dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
            nums = [parts(rng, M, d, zeros) for d in dens]
            nums = [[row[y] for y in range(M)] + [row[0], row[M - 1]] for row in nums]  # repeated columns
            nums.append([2 * a for a in nums[0]])  # row 0 again, as (2a)/(2d)
            dens.append(2 * dens[0])
            yield kernel(nums, dens)


TIED = list(tied_kernels())


@pytest.mark.parametrize("K", TIED, ids=lambda K: f"{K.N}x{K.M}-{K.int_rows().max_den.bit_length()}bits")
def test_first_calls_equal_the_exact_slow_route(K):
    """ldp_ratio, max_leakage and pml_ratio (values and witnesses) on a new kernel (a float32 image formed for
    one call and dropped: only column vectors and candidates kept; the column maxima of max_leakage from the
    float32 image) and on one whose image is kept (as the pairwise filter of η keeps it), against the plain fmpq
    loops of the number domain QQ (exactdp/measures/privacy.py); the candidates of the kept image are those of
    the whole image."""
    from exactdp.measures.privacy import (ldp_ratio_in, ldp_ratio_witness, max_leakage_in, max_leakage_ratio,
                                          pml_ratio_in, pml_ratio_witness)
    from exactdp.numbers.domain import QQ

    cs = (Q(1, K.N), Q(1, 3 * K.N), Q(2, 5 * K.N))
    ldp_ref = ldp_ratio_in(QQ, K)
    leak_ref = max_leakage_in(QQ, K)
    pml_ref = [pml_ratio_in(QQ, K, c) for c in cs]
    for image_kept in (False, True):
        fresh = kernel(K.int_rows().A.tolist(), K.int_rows().d.tolist())
        R = fresh.int_rows()
        if image_kept:
            float_filter.float_image(R)
        assert ldp_ratio_witness(fresh) == ldp_ref
        assert max_leakage_ratio(fresh) == leak_ref
        for c, ref in zip(cs, pml_ref):
            ratio, y, prior = pml_ratio_witness(fresh, c)
            assert (ratio, y) == ref[:2]
            assert prior.probs[ref[3]] == c + 1 - K.N * c  # the worst prior puts its mass on the argmin row
        # the column max and min came from the float32 image on the new kernel, from the kept one otherwise
        eps = float_filter.column_error(R, ("max", "min"))  # (sum: kernels of more than 64 entries only)
        assert eps == (float_filter.EPS if image_kept else float_filter.EPS32)
        if not image_kept:  # the column maxima came from the float32 image, not a kept float64 image
            assert "float_cand_max" not in R._views
            continue
        F = float_filter.float_image(R)
        expected = np.flatnonzero(F >= F.max(axis=0) * (1 - 4 * float_filter.EPS))
        assert R._views["float_cand_max"].tolist() == expected.tolist()


def keyed_kernels(seed=31):
    """Kernels for the float32 image of the column maxima: 3- to 18-digit row denominators, zero entries, an
    all-zero column (the last), a column maximum tied across rows with different denominators (row 0 again as
    2a/2d and 3a/3d), and a column M whose only non-zero entries are 1/d1 and 1/d0."""
    rng = random.Random(seed)
    for digits in (3, 6, 9, 12, 18):
        N, M = rng.randint(6, 14), rng.randint(6, 16)
        dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
        nums = [parts(rng, M, d, 0.3) + [0, 0, 0] for d in dens]  # columns M, M + 1, M + 2 zero so far
        y = max(range(M), key=lambda k: nums[1][k])
        nums[1][y] -= 1
        nums[1][M] = 1  # 1/d1 in column M
        d0 = dens[0]
        nums += [[2 * a for a in nums[0]], [3 * a for a in nums[0]]]  # row 0 again, twice
        dens += [2 * d0, 3 * d0]
        near = [0] * (M + 3)
        near[M], near[M + 1] = 1, d0 - 1  # 1/d0 in column M
        nums.append(near)
        dens.append(d0)
        yield kernel(nums, dens)


@pytest.mark.parametrize("K", list(keyed_kernels()), ids=lambda K: f"{K.N}x{K.M}-{K.int_rows().max_den.bit_length()}bits")
def test_float32_image_of_the_column_maxima(K):
    """The first exact maximizer of every column from the float32 image's candidates (no float64 image) equals the
    Python-integer tournament's, for any denominator size (18 digits; 10^18 against 10^18 − 1)."""
    R = K.int_rows()
    fresh = kernel(R.A.tolist(), R.d.tolist()).int_rows()
    got = float_filter.column_argext(fresh, sense="max")
    assert "float_cand_max" not in fresh._views  # the float32 image was used, not a float64 one
    assert got.tolist() == linalg._object_tournament(R.A, R.d, "max").tolist()
    assert got[K.M - 1] == 0  # the all-zero column: its first row
    huge = IntRows([[1, 10**18 - 1], [10**18 - 1, 1]], [10**18, 10**18])
    assert float_filter.column_argext(huge, sense="max").tolist() == [1, 0]


def near_tie_kernels(seed=41):
    """96 × 96 kernels of 3- and 12-digit rows (random compositions of each row's denominator, zero entries at 3
    digits) with exact and near ties of column maxima: ``few`` — in four columns a second row one unit below the
    maximum over a denominator one larger (D/(D + 1) against (D + 1)/(D + 2), D = 10^digits: no float separates
    them) and one exact tie written as (2a)/(2d); ``many`` — every row repeated over twice its denominator, so
    every column ties (2 · 96 candidates)."""
    rng = random.Random(seed)
    for digits in (3, 12):
        N = M = 96
        for kind in ("few", "many"):
            dens = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(N)]
            nums = []
            for d in dens:
                cuts = sorted(rng.randrange(0, d + 1) for _ in range(M - 1))
                nums.append([b - a for a, b in zip([0, *cuts], [*cuts, d])])
            if kind == "many":
                half = N // 2
                nums[half:] = [[2 * a for a in row] for row in nums[:half]]
                dens[half:] = [2 * d for d in dens[:half]]
            else:
                D = 10**digits
                for k, y in enumerate((5, 17, 40, 88)):  # rows 2k, 2k + 1: D/(D + 1) then (D + 1)/(D + 2)
                    for x, (a, dd) in ((2 * k, (D, D + 1)), (2 * k + 1, (D + 1, D + 2))):
                        nums[x] = [0] * M
                        nums[x][y], nums[x][(y + 1) % M], dens[x] = a, 1, dd
                nums[-1], dens[-1] = [2 * a for a in nums[20]], 2 * dens[20]
            yield kind, kernel(nums, dens)


@pytest.mark.parametrize("kind,K", list(near_tie_kernels()),
                         ids=lambda v: v if isinstance(v, str) else f"{v.int_rows().max_den.bit_length()}bits")
def test_column_maxima_with_near_ties_take_both_routes(kind, K, monkeypatch):
    """A few candidates beyond one per column are decided one by one in Python integers (``_decide_few``), many by
    the vectorized tournament; either way the first exact maximizers equal the Python-integer tournament's and
    max_leakage, ldp_ratio and pml_ratio of a new kernel equal the plain fmpq loops of QQ."""
    from exactdp import ldp_ratio, max_leakage_ratio, pml_ratio
    from exactdp.measures.privacy import ldp_ratio_in, max_leakage_in, pml_ratio_in
    from exactdp.numbers.domain import QQ

    calls = []
    decide_few = float_filter._decide_few
    monkeypatch.setattr(float_filter, "_decide_few", lambda *a: calls.append(len(a[2])) or decide_few(*a))
    R = K.int_rows()
    fresh = kernel(R.A.tolist(), R.d.tolist())
    got = linalg.column_extreme(fresh.int_rows(), "max")
    assert got.tolist() == linalg._object_tournament(R.A, R.d, "max").tolist()
    if kind == "few":
        assert calls and 0 < calls[0] <= float_filter._FEW
    else:
        assert not calls  # 192 candidates in 96 columns: the tournament
    assert max_leakage_ratio(fresh) == max_leakage_in(QQ, K)
    assert ldp_ratio(kernel(R.A.tolist(), R.d.tolist())) == ldp_ratio_in(QQ, K)[0]
    c = Q(1, 2 * K.N)
    assert pml_ratio(kernel(R.A.tolist(), R.d.tolist()), c) == pml_ratio_in(QQ, K, c)[0]


def shared_denominator_kernels(seed=37):
    """Kernels whose rows share denominators (3-digit rows drawn from a few values, and 12-digit rows repeated
    as a/d and 2a/2d), with zero entries and exact column ties: the sums of the column maxima and the column sums
    add equal denominators first (exactdp/numbers/linalg.py ``_by_denominator``)."""
    rng = random.Random(seed)
    for digits, N, M in ((3, 40, 30), (3, 64, 64), (12, 24, 20)):
        pool = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(4)]
        dens = [rng.choice(pool) for _ in range(N)]
        nums = [parts(rng, M, d, 0.4) for d in dens]
        nums[-1], dens[-1] = [2 * a for a in nums[0]], 2 * dens[0]  # row 0 again, another denominator
        nums[-2], dens[-2] = list(nums[1]), dens[1]  # row 1 again, the same denominator
        yield kernel(nums, dens)


@pytest.mark.parametrize("K", list(shared_denominator_kernels()), ids=lambda K: f"{K.N}x{K.M}")
def test_sums_over_shared_denominators_equal_the_slow_route(K):
    """max_leakage and pml_ratio on a new kernel equal the plain fmpq loops of QQ; the grouped sum of the column
    maxima has fewer terms than rows taken (denominators shared) and the same value as their plain sum."""
    from exactdp import max_leakage_ratio, pml_ratio
    from exactdp.measures.privacy import max_leakage_in, pml_ratio_in
    from exactdp.numbers.domain import QQ

    R = K.int_rows()
    rows = linalg.column_extreme(R, "max")
    plain = sum((Q(int(R.A[x, y]), int(R.d[x])) for y, x in enumerate(rows.tolist())), ZERO)
    assert plain == max_leakage_in(QQ, K)
    n = np.zeros(K.N, dtype=np.int64)
    np.add.at(n, rows, R.A[rows, np.arange(K.M)])
    taken = np.flatnonzero(n)
    nums, dens = linalg._by_denominator(n[taken].tolist(), R.d[taken].tolist())
    assert len(set(dens)) == len(dens) < len(taken)
    assert sum((Q(a, b) for a, b in zip(nums, dens)), ZERO) == plain
    fresh = kernel(R.A.tolist(), R.d.tolist())
    assert max_leakage_ratio(fresh) == plain
    for c in (Q(1, K.N), Q(1, 3 * K.N)):
        assert pml_ratio(fresh, c) == pml_ratio_in(QQ, K, c)[0]
    assert linalg.column_sums(fresh.int_rows()) == [sum((K[x, y] for x in range(K.N)), ZERO) for y in range(K.M)]


@pytest.mark.parametrize("K", list(shared_denominator_kernels()) + BIG[:4], ids=lambda K: f"{K.N}x{K.M}")
def test_one_column_sum_without_the_tree(K):
    """The first column sum asked of a new kernel is added alone over its non-zero entries (no tree of every
    row's denominator is built); later columns take the tree; both equal the plain fmpq sums."""
    R = K.int_rows()
    plain = [sum((K[x, y] for x in range(K.N)), ZERO) for y in range(K.M)]
    fresh = kernel(R.A.tolist(), R.d.tolist()).int_rows()
    y = K.M // 2
    assert linalg.column_sums(fresh, [y]) == [plain[y]]
    assert "den_groups" not in fresh._views
    assert linalg.column_sums(fresh, [0, y, K.M - 1]) == [plain[0], plain[y], plain[K.M - 1]]
    assert "den_groups" in fresh._views
    assert linalg.column_sums(fresh) == plain


def block_kernels(seed=43):
    """Kernels for the block maxima of the float32 image: N a multiple of the block and not (1, 5, 16, 17, 33, 100
    rows: the last block padded), N ≠ M, 1-digit and 15-digit row denominators (1-digit rows share denominators),
    zero entries, an all-zero column, an all-equal column (every row 1/2 of its denominator: N tied rows), and a
    column maximum tied across rows as a/d and 2a/2d."""
    rng = random.Random(seed)
    for digits in (1, 15):
        for N, M in ((1, 4), (5, 9), (16, 7), (17, 17), (33, 20), (100, 41)):
            dens = [2 * rng.randrange(max(1, 10 ** (digits - 1) // 2), 10**digits // 2) for _ in range(N)]
            nums = [[d // 2] + parts(rng, M - 3, d // 2, 0.3) + [0, 0] for d in dens]  # column 0: every row 1/2
            if N > 2:
                nums[-1], dens[-1] = [2 * a for a in nums[1]], 2 * dens[1]  # row 1 again as 2a/2d
            for row, d in zip(nums, dens):  # column M - 2: one unit of the last column moved here, in some rows
                if rng.random() < 0.5 and row[1] > 0:
                    row[1] -= 1
                    row[M - 2] += 1
            yield kernel(nums, dens)


BLOCKS = list(block_kernels())


@pytest.mark.parametrize("K", BLOCKS, ids=lambda K: f"{K.N}x{K.M}-{K.int_rows().max_den.bit_length()}bits")
def test_block_maxima_keep_the_candidates_of_a_compare_pass(K, monkeypatch):
    """The candidates from the block maxima are exactly the entries of the float32 image at least their column's
    threshold (the compare pass over the whole matrix they replace), none in an all-zero column; the first exact
    maximizers equal the Python-integer tournament's and max_leakage of a new kernel equals the plain fmpq loop of
    QQ, the block route having run."""
    from exactdp import max_leakage_ratio
    from exactdp.measures.privacy import max_leakage_in
    from exactdp.numbers.domain import QQ

    R = K.int_rows()
    x, j = float_filter._f32_candidates_max(kernel(R.A.tolist(), R.d.tolist()).int_rows())
    G = R.A.astype(np.float32) * (1.0 / R.d.astype(np.float64)).astype(np.float32)[:, None]
    g = G.max(axis=0)
    thr = g * np.float32(1 - 2.0**-19)
    expected = sorted(zip(*np.nonzero((G >= thr) & (g > 0))))
    assert sorted(zip(j.tolist(), x.tolist())) == sorted((int(b), int(a)) for a, b in expected)
    for col in np.unique(j):  # rows increasing within each column
        rows = x[j == col]
        assert (np.diff(rows) > 0).all()
    assert K.M - 1 not in j.tolist()  # the all-zero column
    if K.N > 1:
        assert (j == 0).sum() == K.N  # the all-equal column: every row a candidate
    calls = []
    candidates = float_filter._f32_candidates_max
    monkeypatch.setattr(float_filter, "_f32_candidates_max", lambda R: calls.append(R.shape) or candidates(R))
    fresh = kernel(R.A.tolist(), R.d.tolist())
    got = linalg.column_extreme(fresh.int_rows(), "max")
    assert calls == [(K.N, K.M)]
    assert got.tolist() == linalg._object_tournament(R.A, R.d, "max").tolist()
    assert got[0] == 0 and got[K.M - 1] == 0  # all-equal and all-zero columns: the first row
    assert max_leakage_ratio(fresh) == max_leakage_in(QQ, K)
    plain = sum((K[x, y] for y, x in enumerate(got.tolist())), ZERO)
    assert max_leakage_ratio(kernel(R.A.tolist(), R.d.tolist())) == plain
