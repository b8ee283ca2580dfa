"""η_χ²(P, K), η_χ²(K) = η_KL(K): closed forms, an independent high-precision SVD optimisation, brute force."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import fmpq

from exactdp import Kernel
from exactdp.errors import InputError
from exactdp.measures.chi2_contraction import compare, eta_chi2, eta_chi2_prior, eta_kl
from exactdp.measures.contraction import eta_tv


def _q(x) -> sympy.Rational:
    return sympy.Rational(int(x.p), int(x.q))


@pytest.mark.parametrize("p", ["0", "1/10", "1/4", "1/3", "2/5", "1/2", "7/9"])
def test_bsc_is_one_minus_two_p_squared(p):
    p = Fraction(p)
    r = eta_chi2(Kernel([[str(1 - p), str(p)], [str(p), str(1 - p)]]))
    assert r.exact and r.as_sympy() == sympy.Rational(1 - 2 * p) ** 2
    assert r.alpha.lo == fmpq(1, 2) or p == Fraction(1, 2)


@pytest.mark.parametrize("e", ["0", "1/5", "1/2", "9/10", "1"])
def test_bec_is_one_minus_erasure(e):
    e = Fraction(e)
    r = eta_kl(Kernel([[str(1 - e), "0", str(e)], ["0", str(1 - e), str(e)]]))
    assert r.as_sympy() == 1 - sympy.Rational(e)


@pytest.mark.parametrize("a,b", [("1/2", "1/4"), ("3/4", "1/3"), ("9/10", "1/10"), ("1/3", "1/5")])
def test_two_by_two_closed_form(a, b):
    """1 − (√(ab) + √((1−a)(1−b)))² when the maximising prior is interior."""
    r = eta_chi2(Kernel([[a, str(1 - Fraction(a))], [b, str(1 - Fraction(b))]]))
    A, B = sympy.Rational(a), sympy.Rational(b)
    closed = 1 - (sympy.sqrt(A * B) + sympy.sqrt((1 - A) * (1 - B))) ** 2
    assert sympy.simplify(r.as_sympy() - closed) == 0
    assert r.alpha.compare_rational(fmpq(0)) > 0 and r.alpha.compare_rational(fmpq(1)) < 0


def test_z_channel_supremum_at_an_end():
    """Rows (1, 0), (q, 1 − q): g(α) = 1 − q/(α + (1−α)q) increases to 1 − q at the point mass α → 1."""
    r = eta_chi2(Kernel([["1", "0"], ["1/3", "2/3"]]))
    assert r.as_sympy() == sympy.Rational(2, 3) and r.alpha.lo == 1


def _sigma2_sq(rows, prior, dps=60):
    """Squared second singular value of D_P^{1/2} K D_PK^{-1/2}, by mpmath's SVD (independent route)."""
    with mpmath.workdps(dps):
        N, M = len(rows), len(rows[0])
        out = [mpmath.fsum(prior[x] * rows[x][y] for x in range(N)) for y in range(M)]
        B = mpmath.matrix(N, M)
        for x in range(N):
            for y in range(M):
                B[x, y] = mpmath.sqrt(prior[x]) * rows[x][y] / mpmath.sqrt(out[y]) if out[y] else 0
        s = sorted(mpmath.svd_r(B, compute_uv=False), reverse=True)
        return s[1] ** 2 if len(s) > 1 else mpmath.mpf(0)


def _sigma2_sq_two_inputs(rows, a):
    """The same squared singular value for two inputs: the smaller eigenvalue of the 2×2 Gram matrix BBᵀ,
    (tr − √(tr² − 4 det)) / 2 (independent of the module's ratio-class formula)."""
    prior = [a, 1 - a]
    out = [prior[0] * rows[0][y] + prior[1] * rows[1][y] for y in range(len(rows[0]))]
    G = [[mpmath.fsum(mpmath.sqrt(prior[i] * prior[j]) * rows[i][y] * rows[j][y] / out[y]
                      for y in range(len(out)) if out[y]) for j in range(2)] for i in range(2)]
    tr, det = G[0][0] + G[1][1], G[0][0] * G[1][1] - G[0][1] * G[1][0]
    return (tr - mpmath.sqrt(tr * tr - 4 * det)) / 2


def _random_row(rng, M, den):
    w = [rng.randint(1, den) for _ in range(M)]
    return [Fraction(v, sum(w)) for v in w]


def _independent_sup(rows, grid=64, steps=200):
    """sup over α of :func:`_sigma2_sq_two_inputs` by a dense grid and golden-section refinement at 60 digits.

    Uses neither the module's ratio classes nor its concavity: the grid's best cell and its neighbours are
    refined by golden section (which converges to the maximum of the unimodal function there; 200 steps
    shrink the bracket by 0.618^200 < 10^-41)."""
    with mpmath.workdps(60):
        mp_rows = [[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in rows]
        f = lambda a: _sigma2_sq_two_inputs(mp_rows, a)  # noqa: E731
        pts = [mpmath.mpf(i) / grid for i in range(1, grid)]
        k = max(range(len(pts)), key=lambda i: f(pts[i]))
        lo, hi = mpmath.mpf(k) / grid, mpmath.mpf(k + 2) / grid
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(steps):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(c) < f(d):
                lo = c
            else:
                hi = d
        return f((lo + hi) / 2)


@pytest.mark.slow
def test_binary_input_against_independent_optimisation():
    """The acceptance numbers: 200 random rational 2×M kernels (M = 2..5, seeded): the certified enclosure
    of η_χ²(K) (the exact value's isolating interval, refined) has width ≤ 10⁻³⁰ and contains the value of an
    independent 60-digit optimisation over the prior (:func:`_independent_sup`: the Gram-matrix eigenvalue,
    a dense grid and golden section), up to that optimisation's own error (≤ 10⁻⁴⁰: a bracket of width
    < 10⁻⁴¹ in α, 60-digit arithmetic)."""
    rng = random.Random(7)
    tol = mpmath.mpf(10) ** -40
    Ms = []
    for _ in range(200):
        M = rng.randint(2, 5)
        Ms.append(M)
        rows = [_random_row(rng, M, 9), _random_row(rng, M, 9)]
        r = eta_chi2(Kernel([[str(v) for v in row] for row in rows]))
        lo, hi = r.enclosure(fmpq(1, 10**30))
        assert r.lower <= lo <= hi <= r.upper and hi - lo <= fmpq(1, 10**30)
        best = _independent_sup(rows)
        with mpmath.workdps(60):
            assert mpmath.mpf(int(lo.p)) / int(lo.q) - tol <= best
            assert best <= mpmath.mpf(int(hi.p)) / int(hi.q) + tol
    assert set(Ms) == {2, 3, 4, 5}


def test_prior_dependent_value_against_svd():
    rng = random.Random(3)
    for _ in range(20):
        N, M = rng.randint(2, 3), rng.randint(2, 4)
        rows = [_random_row(rng, M, 7) for _ in range(N)]
        prior = _random_row(rng, N, 5)
        v = eta_chi2_prior([str(p) for p in prior], [[str(x) for x in row] for row in rows])
        with mpmath.workdps(50):
            mp_rows = [[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in rows]
            s = _sigma2_sq(mp_rows, [mpmath.mpf(p.numerator) / p.denominator for p in prior], 50)
            while v.hi - v.lo > fmpq(1, 10**30):
                v.refine(8)
            assert mpmath.mpf(int(v.lo.p)) / int(v.lo.q) - mpmath.mpf(10) ** -40 <= s
            assert s <= mpmath.mpf(int(v.hi.p)) / int(v.hi.q) + mpmath.mpf(10) ** -40


def test_binary_prior_matches_the_input_free_formula_at_the_optimum():
    """η_χ²((α*, 1 − α*), K) at a rational optimum equals η_χ²(K) (the BSC's α* = 1/2)."""
    K = Kernel([["3/5", "2/5"], ["2/5", "3/5"]])
    assert compare(eta_chi2_prior(["1/2", "1/2"], K), eta_chi2(K).value) == 0


def test_three_inputs_enclosure_contains_priors_and_is_below_eta_tv():
    rng = random.Random(11)
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/3", "1/3"]])
    loose = eta_chi2(K, 1)  # width 1: no branch and bound, [best two-input prior, eta_TV]
    assert not loose.exact and loose.upper == eta_tv(K) == fmpq(1, 3) and loose.boxes == 0
    r = eta_chi2(K, "1/1000")  # the branch and bound (chi2_branch_bound)
    assert not r.exact and r.upper - r.lower <= fmpq(1, 1000) and r.boxes > 0
    assert loose.lower <= r.lower <= r.upper <= loose.upper
    for _ in range(30):
        prior = _random_row(rng, 3, 20)
        v = eta_chi2_prior([str(p) for p in prior], K)
        assert v.lo <= r.upper


def test_asoodeh_zhang_bound_on_binary_ldp_kernels():
    """B-8 for N = 2: η_χ²(K) ≤ ((t − 1)/(t + 1))² for t-LDP binary-input kernels; RR attains it."""
    rng = random.Random(5)
    for _ in range(60):
        t = Fraction(rng.randint(11, 40), 10)
        M = rng.randint(2, 4)
        while True:
            rows = [_random_row(rng, M, 12), _random_row(rng, M, 12)]
            if all(a <= t * b and b <= t * a for a, b in zip(*rows)):
                break
        r = eta_chi2(Kernel([[str(v) for v in row] for row in rows]))
        bound = ((t - 1) / (t + 1)) ** 2
        assert r.value.compare_rational(fmpq(bound.numerator, bound.denominator)) <= 0
    t = Fraction(3)
    rr = eta_chi2(Kernel([["3/4", "1/4"], ["1/4", "3/4"]]))
    assert rr.as_sympy() == sympy.Rational((t - 1) / (t + 1)) ** 2


def test_refusals():
    with pytest.raises(InputError, match="P has 3 entries"):
        eta_chi2_prior(["1/3", "1/3", "1/3"], Kernel([["1/2", "1/2"], ["1/4", "3/4"]]))
    a = sympy.Symbol("a", positive=True)
    with pytest.raises(InputError, match="rational entries"):
        eta_chi2(Kernel([[a, 1 - a], ["1/2", "1/2"]]).with_region([a < 1]))
    with pytest.raises(InputError, match="enclosure"):
        eta_chi2(Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/3", "1/3"]]), 1).as_sympy()


def test_enclosure_refines_exact_values_and_keeps_enclosures():
    r = eta_chi2(Kernel([["1/2", "1/2"], ["1/4", "3/4"]]))
    lo, hi = r.enclosure("1/10^40")
    assert 0 < hi - lo <= fmpq(1, 10**40) and r.value.compare_rational(lo) >= 0 and r.value.compare_rational(hi) <= 0
    assert eta_chi2(Kernel([["3/4", "1/4"], ["1/4", "3/4"]])).enclosure("1/10^30") == (fmpq(1, 4), fmpq(1, 4))
    K3 = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/3", "1/3"]])
    r3 = eta_chi2(K3, 1)  # the loose enclosure stays as it is
    assert r3.enclosure("1/10^30") == (r3.lower, r3.upper)
    lo, hi = eta_chi2(K3, "1/100").enclosure("1/1000")  # the branch and bound runs again, narrower
    assert hi - lo <= fmpq(1, 1000) and r3.lower <= lo and hi <= r3.upper
    with pytest.raises(InputError, match="width must be > 0, got 0"):
        r.enclosure("0")
