"""Independent routes for the core quantities (issue 2, "Brute force").

* E_γ(P‖Q) against the max over all 2^M output subsets A of P(A) − γQ(A)  (D-2);
* η_TV / η_{E_γ} against the max over all ordered row pairs, in plain fmpq  (D-4, B-2);
* (ε,δ)-LDP against the subset definition K(A|x) ≤ γK(A|x') + δ  (D-6);
* pml_ratio against an exact LP over Q_X(c) (sympy's rational simplex) and against the vertices
  c·𝟙 + (1−Nc)e_x  (D-9);
* the integer fast paths (int32, int64) and the Python-int fallback against the same plain fmpq sums.
"""

import itertools
import random

import numpy as np
import pytest
import sympy
from flint import fmpq
from sympy.solvers.simplex import lpmin

from exactdp import (
    Kernel,
    eta_hockey_stick,
    eta_hockey_stick_witness,
    eta_tv,
    hockey_stick,
    is_ldp,
    ldp_ratio,
    max_leakage_ratio,
    pml_ratio,
    pml_ratio_witness,
    privacy_profile,
    tv,
)
from exactdp.measures import pairwise_hockey_stick
from exactdp.numbers import float_filter, linalg
from exactdp.numbers.truth import Truth
from exactdp.verification.instances import random_distribution, random_kernel

Q = fmpq
ZERO = Q(0)
GAMMAS = [Q(0), Q(1, 3), Q(1, 2), Q(1), Q(6, 5), Q(3, 2), Q(2), Q(5, 2), Q(4), Q(17)]


# -- plain references (no shared code with the library) -----------------------------------------

def subsets(M):
    return itertools.chain.from_iterable(itertools.combinations(range(M), r) for r in range(M + 1))


def ref_hockey_stick_subsets(P, R, g):
    return max(sum((P[y] for y in A), ZERO) - g * sum((R[y] for y in A), ZERO) for A in subsets(len(P)))


def ref_eta(K, g):
    rows = [list(r) for r in K.rows]
    vals = [sum((max(a - g * b, ZERO) for a, b in zip(rows[i], rows[j])), ZERO)
            for i in range(K.N) for j in range(K.N) if i != j]
    return max(vals, default=ZERO)


def ref_ldp(K):
    best = Q(1)
    for y in range(K.M):
        col = [K[x, y] for x in range(K.N)]
        if max(col) == 0:
            continue
        if min(col) == 0:
            return sympy.oo
        best = max(best, max(col) / min(col))
    return best


def ref_pml_vertices(K, c):
    """max over y and over the vertices P = c·1 + (1−Nc)e_v of max_x K(y|x) / (K∘P)(y)."""
    best = None
    for y in range(K.M):
        col = [K[x, y] for x in range(K.N)]
        if max(col) == 0:
            continue
        for v in range(K.N):
            out = sum((c * col[x] for x in range(K.N)), ZERO) + (1 - K.N * c) * col[v]
            r = max(col) / out
            best = r if best is None or r > best else best
    return best


def lp_pml(K, c):
    """max_y max_x K(y|x) / min_{P ∈ Q_X(c)} (K∘P)(y), the inner minimum by sympy's exact simplex."""
    p = sympy.symbols(f"p0:{K.N}")
    cs = sympy.Rational(int(c.p), int(c.q))
    cons = [pi >= cs for pi in p] + [sympy.Eq(sum(p), 1)]
    best = None
    for y in range(K.M):
        col = [sympy.Rational(int(K[x, y].p), int(K[x, y].q)) for x in range(K.N)]
        if max(col) == 0:
            continue
        low, _ = lpmin(sum(a * pi for a, pi in zip(col, p)), cons)
        r = max(col) / low
        best = r if best is None or r > best else best
    return Q(int(best.p), int(best.q))


def kernels_for_tests(seed=7):
    rng = random.Random(seed)
    out = []
    for N, M in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 5), (5, 4), (2, 6), (6, 2)]:
        for full in (False, True):
            for _ in range(3):
                out.append(random_kernel(rng, N, M, max_den=12, full_support=full))
    return out


KERNELS = kernels_for_tests()


# -- E_γ and the contraction coefficients ------------------------------------------------------

def test_hockey_stick_equals_max_over_subsets():
    rng = random.Random(1)
    for M in range(1, 7):
        for _ in range(8):
            P, R = random_distribution(rng, M, 10), random_distribution(rng, M, 10)
            for g in GAMMAS:
                assert hockey_stick(P, R, g) == ref_hockey_stick_subsets(P, R, g)
            assert tv(P, R) == ref_hockey_stick_subsets(P, R, Q(1))


@pytest.fixture(params=["fmpq loops", "vectorized integers"])
def route(request, monkeypatch):
    """Run a test through both routes of the pairwise maximum (small kernels use plain fmpq loops)."""
    from exactdp.measures import contraction

    monkeypatch.setattr(contraction, "SMALL_PAIRWISE", 10**9 if request.param == "fmpq loops" else 0)
    return request.param


@pytest.mark.parametrize("K", KERNELS[::2])
def test_eta_equals_max_over_ordered_pairs(K, route):
    assert eta_tv(K) == ref_eta(K, Q(1))
    for g in GAMMAS:
        v, x, x2 = eta_hockey_stick_witness(K, g)
        assert v == ref_eta(K, g)
        if K.N > 1:
            assert x != x2 and hockey_stick(K.row(x), K.row(x2), g) == v


@pytest.mark.parametrize("K", KERNELS[1::3])
def test_is_ldp_agrees_with_the_subset_definition(K):
    """D-6: K(A|x) ≤ γK(A|x') + δ for all A, x, x'  ⟺  is_ldp(K, γ, δ) is TRUE."""
    for g in (Q(1), Q(3, 2), Q(2), Q(4), Q(10)):
        for d in (Q(0), Q(1, 10), Q(1, 3), Q(1)):
            by_subsets = all(
                sum((K[x, y] for y in A), ZERO) <= g * sum((K[x2, y] for y in A), ZERO) + d
                for A in subsets(K.M) for x in range(K.N) for x2 in range(K.N))
            assert is_ldp(K, t=g, delta=d) is Truth.of(by_subsets)


# -- the privacy profile -----------------------------------------------------------------------

@pytest.mark.parametrize("K", KERNELS[::2])
def test_privacy_profile_agrees_with_eta_everywhere(K, route):
    """δ(γ) = η_{E_γ}(K) at the breakpoints, between and beyond them, and for γ < 1."""
    prof = privacy_profile(K)
    points = set(GAMMAS) | set(prof.breakpoints)
    for b in prof.breakpoints:
        points |= {b + Q(1, 997), max(b - Q(1, 997), ZERO), b * 2}
    for y in range(K.M):  # the likelihood ratios of the kernel
        for x in range(K.N):
            for x2 in range(K.N):
                if K[x2, y] != 0:
                    points.add(K[x, y] / K[x2, y])
    for g in points:
        assert prof(g) == eta_hockey_stick(K, g), (K, g)
    assert list(prof.breakpoints) == sorted(set(prof.breakpoints))


def test_privacy_profile_integer_front_and_plain_route_agree(monkeypatch):
    """The vectorized Pareto front (int64 order keys) and the all-points fmpq route give one profile."""
    from exactdp.measures import privacy

    fast = [privacy_profile(K) for K in KERNELS]
    monkeypatch.setattr(privacy, "profile_front", lambda R: None)
    plain = [privacy_profile(K) for K in KERNELS]
    assert fast == plain
    assert len({len(p.pieces) for p in fast}) > 2  # the instances have profiles of varied shape


@pytest.mark.parametrize("K", KERNELS[::3])
def test_privacy_profile_inverse(K):
    """gamma_for(δ) is the least γ with δ(γ) ≤ δ: it satisfies the bound and nothing smaller does."""
    prof = privacy_profile(K)
    for d in (Q(0), Q(1, 100), Q(1, 7), Q(1, 3), Q(1, 2), Q(99, 100), Q(1)):
        g = prof.gamma_for(d)
        if g == sympy.oo:
            assert eta_hockey_stick(K, 10**12) > d
            continue
        assert eta_hockey_stick(K, g) <= d
        if g > 0:
            assert eta_hockey_stick(K, g - Q(1, 10**9)) > d
        if g >= 1:
            assert is_ldp(K, t=g, delta=d) is Truth.TRUE


# -- PML -------------------------------------------------------------------------------------

@pytest.mark.parametrize("K", KERNELS[::10])
def test_pml_ratio_equals_the_exact_lp_and_the_vertices(K):
    for c in (Q(1, K.N + 1), Q(1, 50)):
        r = pml_ratio(K, c)
        assert r == lp_pml(K, c)
        assert r == ref_pml_vertices(K, c)


@pytest.mark.parametrize("K", KERNELS[1::2])
def test_pml_ratio_equals_the_vertex_maximum(K):
    for c in (Q(1, K.N), Q(1, 2 * K.N), Q(1, 1000)):
        assert pml_ratio(K, c) == ref_pml_vertices(K, c)


def test_ldp_ratio_matches_reference():
    for K in KERNELS:
        assert ldp_ratio(K) == ref_ldp(K)


# -- integer paths: int32, int64 and the Python-int fallback ------------------------------------

def _huge_kernel(rng, N, M, scale):
    """Rows with denominators near ``scale`` (e.g. 10**30): forces the object (Python int) path."""
    rows = []
    for _ in range(N):
        den = scale + rng.randint(1, scale)
        cuts = sorted(rng.randint(0, den) for _ in range(M - 1))
        b = [0, *cuts, den]
        rows.append([Q(b[k + 1] - b[k], den) for k in range(M)])
    return Kernel(rows)


@pytest.mark.parametrize("scale,expected", [(10**2, np.int32), (10**5, np.int64), (10**6, np.int64),
                                            (10**7, np.int64), (10**30, object)])
def test_integer_paths_agree_with_plain_fmpq(scale, expected):
    rng = random.Random(scale % 1000 + 3)
    for N, M in ((2, 2), (3, 4), (5, 3), (6, 6)):
        K = _huge_kernel(rng, N, M, scale)
        R = K.int_rows()
        assert pairwise_hockey_stick._hockey_stick_dtypes(R, 3, 2)[0] is expected
        assert float_filter.usable(R) == (scale < 10**30)  # int64 rows: the float64 filter of the ratios
        _, acc, sum_bound = pairwise_hockey_stick._hockey_stick_dtypes(R, 3, 2)
        keys_ok = acc is not object and (sum_bound << 2 * R.max_den.bit_length()) < 2**63
        assert keys_ok == (scale == 10**2)  # 10**5..10**7: cross-multiplied argmax (int64 or Python ints)
        for g in (Q(1), Q(3, 2), Q(1, 2), Q(7)):
            assert eta_hockey_stick(K, g) == ref_eta(K, g)
        assert eta_tv(K) == ref_eta(K, Q(1))
        assert ldp_ratio(K) == ref_ldp(K)
        for c in (Q(1, N), Q(1, 10**40)):
            assert pml_ratio(K, c) == ref_pml_vertices(K, c)
        assert max_leakage_ratio(K) == sum((max(K[x, y] for x in range(N)) for y in range(M)), ZERO)
        assert R.to_fmpq_rows() == [list(r) for r in K.rows]
        prof = privacy_profile(K)  # the plain fmpq route when the int64 keys are not proven safe
        for g in (Q(0), Q(1, 2), Q(1), Q(7, 5), *prof.breakpoints):
            assert prof(g) == ref_eta(K, g)


def test_tiny_entries_one_over_ten_to_the_30():
    """Entries 1/10^30 next to ordinary ones: the object path, checked against hand values."""
    e = Q(1, 10**30)
    K = Kernel([[e, 1 - e], [Q(1, 2), Q(1, 2)], [1 - e, e]])
    assert K.int_rows().A.dtype == object
    assert eta_tv(K) == 1 - 2 * e
    assert ldp_ratio(K) == (1 - e) / e
    assert eta_hockey_stick(K, 2) == (1 - e) - 2 * e
    assert pml_ratio(K, Q(1, 3)) == ref_pml_vertices(K, Q(1, 3))


def test_large_gamma_moves_to_wider_integers():
    """A γ with a huge numerator leaves the fixed-width range; results stay exact."""
    K = random_kernel(5, 4, 4, 50)
    for g in (Q(10**20 + 1, 10**20), Q(10**25, 3)):
        assert eta_hockey_stick(K, g) == ref_eta(K, g)


def test_order_keys_are_an_exact_order_embedding():
    """Fractions with denominators ≤ D differ by ≥ 1/D², so ⌊a·2^k/b⌋ with 2^k ≥ D² orders them exactly."""
    D = 37
    fracs = sorted({Q(a, b) for b in range(1, D + 1) for a in range(b + 1)})
    nums = np.array([int(f.p) for f in fracs], dtype=np.int64)
    dens = np.array([int(f.q) for f in fracs], dtype=np.int64)
    keys = linalg.order_keys(nums, dens, D, D)
    assert (np.diff(keys) > 0).all()  # strictly increasing along the sorted distinct fractions
    same = linalg.order_keys(np.array([1, 2, 3]), np.array([3, 6, 9]), 3, 9)
    assert len(set(same.tolist())) == 1
    assert linalg.order_keys(nums, dens, 2**60, D) is None


def test_argmax_fraction_ties_and_objects():
    n = np.array([1, 2, 2, 3, 7], dtype=np.int64)
    d = np.array([3, 3, 3, 9, 9], dtype=np.int64)
    assert linalg.argmax_fraction(n, d) == 4
    assert linalg.argmax_fraction(n[:4], d[:4]) == 1  # 2/3 twice: the first
    n2 = np.array([1, 2, 2], dtype=object)
    d2 = np.array([3, 3, 3], dtype=object)
    assert linalg.argmax_fraction(n2, d2) == 1  # first index on ties


def test_column_sums_exact():
    K = random_kernel(11, 9, 5, 40)
    sums = linalg.column_sums(K.int_rows())
    assert sums == [sum((K[x, y] for x in range(K.N)), ZERO) for y in range(K.M)]
    assert sum(sums, ZERO) == K.N


def test_pml_witness_prior_is_a_vertex_of_the_prior_set():
    for K in KERNELS[::5]:
        c = Q(1, 2 * K.N)
        _, _, P = pml_ratio_witness(K, c)
        assert sorted(P.probs)[: K.N - 1] == [c] * (K.N - 1)
