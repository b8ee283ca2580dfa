"""Unit tests of exactdp.theory.estimation / bernoulli / packing: closed forms and independent routes."""

from __future__ import annotations

import itertools

import mpmath
import pytest
import sympy
from flint import arb, ctx, fmpq

from exactdp import is_ldp, tv
from exactdp.errors import CoercionError, ParameterError
from exactdp.mechanisms import binary_randomized_response, optimal_binary_approx_ldp
from exactdp.numbers.truth import Truth
from exactdp.numbers.rb import arb_eval, compare, rounds_to
from exactdp.theory.bernoulli import (
    bernoulli_e_gamma_information,
    bernoulli_mutual_information,
    integrated_binomial_entropy,
)
from exactdp.theory.estimation import (
    SPECS,
    bayes_e_gamma,
    chernoff_stein_bound,
    entropy,
    fano,
    grosse_example3_minimax,
    grosse_kl_bound,
    le_cam_kl,
    le_cam_tv,
    mean_estimation_as_reported,
    mean_estimation_tv_route,
    mi_upper_bound,
    mutual_information,
    neyman_pearson_beta,
    product_tv,
    reveal_mechanism,
    reveal_mechanism_risk,
    reveal_mechanism_risk_bound,
    sample_mean_risk,
    xu_raginsky,
)
from exactdp.parameters import t_value
from exactdp.formulas import phi_n, xi
from exactdp.theory.packing import gv_size, l1, plotkin_crossover, sign_packing
from tests.exact import ball as exact_ball

th = sympy.Symbol("theta", positive=True)


# -- the Bernoulli information quantities -----------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
def test_integrated_entropy_matches_sympy_integral(n):
    """Closed form of ∫H(Bin(n,θ))dθ against sympy's own integration of −Σ b_s log b_s, with
    log b_s = log C(n,s) + s log θ + (n−s) log(1−θ) and ∫ b_s log(1−θ) = ∫ b_{n−s} log θ (θ ↦ 1−θ)."""
    def b(s):
        return sympy.binomial(n, s) * th**s * (1 - th) ** (n - s)

    def int_log(s):
        return sympy.integrate(sympy.expand(b(s)) * sympy.log(th), (th, 0, 1))
    direct = -sum(sympy.log(sympy.binomial(n, s)) * sympy.integrate(b(s), (th, 0, 1))
                  + s * int_log(s) + (n - s) * int_log(n - s) for s in range(n + 1))
    assert sympy.simplify(direct - integrated_binomial_entropy(n)) == 0


def test_mutual_information_n1_exact():
    assert sympy.simplify(bernoulli_mutual_information(1) - (sympy.log(2) - sympy.Rational(1, 2))) == 0


@pytest.mark.parametrize("g", ["1", "4/3", "3/2", "7/4", "2", "3"])
def test_e_gamma_information_n1_closed_form(g):
    """n = 1: ∫(θ − γ/2)₊ + ∫(1 − θ − γ/2)₊ = (1 − γ/2)₊²."""
    gq = fmpq(*map(int, g.split("/"))) if "/" in g else fmpq(int(g))
    expected = max(1 - gq / 2, fmpq(0)) ** 2
    assert bernoulli_e_gamma_information(1, g).contains(exact_ball(expected))


def _e_gamma_by_sympy_roots(n, g):
    """Independent route: exact real roots (sympy CRootOf) and exact polynomial integration."""
    total = 0
    level = sympy.Rational(g) / (n + 1)
    for s in range(n + 1):
        f = sympy.binomial(n, s) * th**s * (1 - th) ** (n - s) - level
        pts = sorted({r for r in sympy.Poly(f, th).real_roots() if 0 <= r <= 1} | {sympy.Integer(0), sympy.Integer(1)})
        F = sympy.integrate(sympy.expand(f), th)
        for a, b in itertools.pairwise(pts):
            if f.subs(th, (a + b) / 2) > 0:
                total += F.subs(th, b) - F.subs(th, a)
    return sympy.N(total, 40)


@pytest.mark.parametrize("n,g", [(2, "1"), (3, "6/5"), (4, "3/2"), (5, "1")])
def test_e_gamma_information_against_exact_roots(n, g):
    ball = bernoulli_e_gamma_information(n, g)
    ref = _e_gamma_by_sympy_roots(n, g)
    with ctx.workprec(128):
        assert ball.overlaps(arb(str(ref)))
        assert ball.rad() < arb("1e-20")


def test_e_gamma_information_vanishes_for_large_gamma_and_is_monotone():
    assert bernoulli_e_gamma_information(4, 5).is_zero()
    a, b, c = (bernoulli_e_gamma_information(20, g) for g in ("1", "11/10", "2"))
    assert a > b > c > 0


def test_e_gamma_information_irrational_gamma_is_certified():
    """γ = e^{1/100} (irrational): the ball is narrow and lies between the rational neighbours' balls."""
    ball = bernoulli_e_gamma_information(20, t_value(eps="0.01"))
    assert ball.rad() < arb("1e-15")
    assert bernoulli_e_gamma_information(20, "101/100") > ball > bernoulli_e_gamma_information(20, "102/100")


def test_floats_refused():
    with pytest.raises(CoercionError, match="float"):
        bernoulli_e_gamma_information(20, 1.01)
    with pytest.raises(CoercionError, match="float"):
        t_value(eps=0.01)
    with pytest.raises(CoercionError, match="float"):
        phi_n(3, 0.1)
    with pytest.raises(CoercionError, match="float"):
        reveal_mechanism_risk(3, 0.5)
    with pytest.raises(ParameterError, match="n"):
        bernoulli_mutual_information(0)
    with pytest.raises(ParameterError, match="delta"):
        phi_n(3, "3/2")
    with pytest.raises(ParameterError, match="t"):
        phi_n("1/2", 0)
    with pytest.raises(ParameterError, match="tv_in"):
        le_cam_tv(1, "3/2", 1, 2, 0)
    with pytest.raises(ParameterError, match="c"):
        xi(2, "1/3", 4)
    with pytest.raises(ParameterError, match="size"):
        fano(1, 0, 1, 1, 2, 0)


# -- privacy parameters ----------------------------------------------------------------------------

def test_varphi_values_and_composition_identity():
    assert phi_n(3, 0) == fmpq(2, 3) and phi_n(3, 0, 2) == fmpq(8, 9)
    assert phi_n(1, "1/10") == fmpq(1, 10)  # ε = 0: φ = δ
    E, d, n = sympy.symbols("E delta n", positive=True)
    lhs = 1 - (1 - d) ** n / E**n  # φⁿ(ε,δ)
    rhs = 1 - (1 - (1 - (1 - d) ** n)) / E**n  # φ(nε, 1−(1−δ)ⁿ)
    assert sympy.simplify(lhs - rhs) == 0
    assert xi(3, "1/8", 4) == fmpq(4, 5) and xi(5, "1/8", 4) == 1


# -- minimax bounds --------------------------------------------------------------------------------

def test_le_cam_and_fano_exact_values():
    # Φ(t) = 1, TV = 1/4, n = 2, t = 3, δ = 0: φ = 2/3, nφTV = 1/3 → (1/2)(2/3) = 1/3
    assert le_cam_tv(1, "1/4", 2, 3, 0).value == fmpq(1, 3)
    # non-interactive: 1 − (1 − φTV)ⁿ = 1 − (5/6)² = 11/36 → (1/2)(25/36)
    assert le_cam_tv(1, "1/4", 2, 3, 0, interactive=False).value == fmpq(25, 72)
    assert le_cam_tv(1, 1, 10, 3, 0).value == 0  # clipped at 0
    kl_route = le_cam_kl(1, "3/4", 1, 3, 0)  # 1/2 (1 − sqrt(1/4)) = 1/4
    assert kl_route.value == fmpq(1, 4)
    f = fano(1, sympy.log(2), 4, 1, 3, 0)  # 1 − (2/3 log2 + log2)/log 4 = 1/6
    assert sympy.simplify(f.value - sympy.Rational(1, 6)) == 0
    assert fano(1, 1, 2, 10, 3, 0).value == 0  # vacuous: clipped at 0
    assert SPECS["fano"].reconstructed and SPECS["le_cam_tv"].source.paper.key == "asoodeh2021"


def test_mean_rates_and_witnesses():
    # φ = 1 (δ = 1): as reported n^{-1/2} at k = 2, TV route 1/n
    assert sympy.simplify(mean_estimation_as_reported(16, 1, 1, 2).value - sympy.Rational(1, 4)) == 0
    assert mean_estimation_tv_route(16, 1, 1, 2).value == fmpq(1, 16)
    assert mean_estimation_as_reported(16, 1, 1, "oo").value == fmpq(1, 16)
    assert sample_mean_risk(16) == fmpq(1, 16)
    # reveal mechanism: exact risk against a brute-force sum, and its (0, δ)-LDP guarantee
    d = fmpq(1, 3)
    brute = sum(sympy.binomial(5, r) * sympy.Rational(1, 3) ** r * sympy.Rational(2, 3) ** (5 - r) / r
                for r in range(1, 6)) + sympy.Rational(2, 3) ** 5
    assert str(reveal_mechanism_risk(5, d)) == str(brute)
    for n in range(1, 15):  # the closed-form certificate dominates the exact risk
        for dd in ("1/3", "1/10", "1"):
            assert reveal_mechanism_risk_bound(n, dd) >= reveal_mechanism_risk(n, dd)
    K = reveal_mechanism(d, [-1, 1])
    assert is_ldp(K, 1, d) is Truth.TRUE and is_ldp(K, 1, fmpq(1, 4)) is Truth.FALSE


# -- Bayes bounds ----------------------------------------------------------------------------------

def test_bayes_e_gamma_nonprivate_n1_is_two_27ths():
    """n = 1, δ = 1 (ψ₁ = 1), γ = 4/3 (the optimum of γ(1−γ/4)²/8): I_γ = 1/9 → 2/27 exactly."""
    Ig = fmpq(1, 9)
    assert bayes_e_gamma(Ig, "4/3", 1, 1).value == fmpq(2, 27)
    ball = bayes_e_gamma(bernoulli_e_gamma_information(1, "4/3"), "4/3", 1, 1).value
    assert ball.contains(exact_ball(fmpq(2, 27)))


def test_xu_raginsky_closed_form_is_the_sup():
    """The closed-form optimum beats every ζ on a grid and equals the objective at ζ* = e^{−u*}/2."""
    I = bernoulli_mutual_information(20)
    best = arb_eval(xu_raginsky(I, t_value(eps="0.1"), "1e-4", 20).value)
    a = arb_eval(phi_n(t_value(eps="0.1"), "1e-4", 20) * I + sympy.log(2))
    for k in range(1, 50):
        z = arb(fmpq(k, 100))
        with ctx.workprec(128):
            val = z * (1 - a / (1 / (2 * z)).log())
        assert val < best


# -- testing ---------------------------------------------------------------------------------------

def _beta_bruteforce(P0, P1, n, alpha):
    """Independent route: every deterministic test on sequences, mixed pairwise (lower convex envelope)."""
    seqs = list(itertools.product(range(len(P0)), repeat=n))

    def prob(P, s):
        out = fmpq(1)
        for y in s:
            out *= fmpq(*P[y])
        return out
    pts = []
    for mask in range(2 ** len(seqs)):
        rej = [s for i, s in enumerate(seqs) if mask >> i & 1]
        a = sum((prob(P0, s) for s in rej), fmpq(0))
        b = 1 - sum((prob(P1, s) for s in rej), fmpq(0))
        pts.append((a, b))
    best = None
    for (a1, b1), (a2, b2) in itertools.product(pts, repeat=2):
        if a1 <= alpha <= a2:
            v = b1 if a1 == a2 else b1 + (b2 - b1) * (alpha - a1) / (a2 - a1)
            best = v if best is None or v < best else best
    return best


@pytest.mark.parametrize("alpha", ["0", "1/10", "1/4", "1/2"])
def test_neyman_pearson_against_bruteforce(alpha):
    P0, P1 = [(3, 4), (1, 4)], [(1, 3), (2, 3)]
    a = fmpq(*map(int, alpha.split("/"))) if "/" in alpha else fmpq(int(alpha))
    got = neyman_pearson_beta([f"{p}/{q}" for p, q in P0], [f"{p}/{q}" for p, q in P1], 2, alpha)
    assert got == _beta_bruteforce(P0, P1, 2, a)


@pytest.mark.parametrize("P0,P1", [([(0, 1), (1, 1)], [(1, 2), (1, 2)]), ([(1, 1), (0, 1)], [(1, 3), (2, 3)])])
def test_neyman_pearson_with_zero_masses_against_bruteforce(P0, P1):
    for alpha in ("0", "1/8", "1/2"):
        a = fmpq(*map(int, alpha.split("/"))) if "/" in alpha else fmpq(int(alpha))
        got = neyman_pearson_beta([f"{p}/{q}" for p, q in P0], [f"{p}/{q}" for p, q in P1], 2, alpha)
        assert got == _beta_bruteforce(P0, P1, 2, a)


def test_neyman_pearson_regression_null_types():
    """Found by hypothesis: types null under both hypotheses broke the comparison sort (β = 1 instead of 0)."""
    assert neyman_pearson_beta(["0", "1/2", "1/2"], ["1", "0", "0"], 2, "1/2") == 0
    assert neyman_pearson_beta(["0", "1/2", "1/2"], ["1", "0", "0"], 2, "0") == 0


def test_testing_bound_holds_for_optimal_binary_mechanism():
    """−log β_K ≤ (nφD(P₀‖P₁) + log 2)/(1−α) for the B-4 mechanism (β^{ε,δ} ≤ β_K)."""
    from exactdp.measures.divergences import kl

    P0, P1 = ["1/2", "1/2"], ["1/5", "4/5"]
    for t, d, n in [(2, 0, 3), (3, "1/10", 4), (3, 0, 6)]:
        K = optimal_binary_approx_ldp(t, d)
        beta = neyman_pearson_beta(K.apply(P0), K.apply(P1), n, "1/10")
        bound = chernoff_stein_bound("1/10", n, t, d, kl(P0, P1)).value
        assert compare(-sympy.log(sympy.Rational(int(beta.p), int(beta.q))), bound) is Truth.TRUE


def test_product_tv():
    P, Q = ["1/2", "1/2"], ["1/4", "3/4"]
    assert product_tv(P, Q, 1) == tv(P, Q)
    assert product_tv(P, Q, 2) == fmpq(5, 16)  # ½(|1/4−1/16| + 2|1/4−3/16| + |1/4−9/16|) = ½·(3+2+5)/16


# -- mutual information ----------------------------------------------------------------------------

def test_mutual_information_of_rr_and_phi_bound():
    K = binary_randomized_response(3)  # rows (3/4, 1/4), (1/4, 3/4)
    I = mutual_information(["1/2", "1/2"], K)
    h = -(sympy.Rational(3, 4) * sympy.log(sympy.Rational(3, 4)) + sympy.Rational(1, 4) * sympy.log(sympy.Rational(1, 4)))
    assert sympy.simplify(I - (sympy.log(2) - h)) == 0
    assert compare(I, mi_upper_bound(3, 0, ["1/2", "1/2"]).value) is Truth.TRUE
    assert compare(I, sympy.log(3)) is Truth.TRUE  # I ≤ ε for pure LDP
    assert sympy.simplify(entropy(["1/2", "1/4", "1/4"]) - sympy.Rational(3, 2) * sympy.log(2)) == 0


# -- [G] Example 3 ---------------------------------------------------------------------------------

def test_grosse_example3_values():
    """N = 4, t = 3, c = 1/8: Ξ = 4/5, (1−4c)t + 1 = 5/2 → (4/5)·log(5/2)·δ."""
    b = grosse_kl_bound(3, "1/8", "1/4").value
    assert sympy.simplify(b - sympy.Rational(1, 5) * sympy.log(sympy.Rational(5, 2))) == 0
    m = grosse_example3_minimax(1, 2, 3, "1/8", "1/4").value
    assert sympy.simplify(m - sympy.exp(-2 * b) / 8) == 0


# -- packing (A-13, F-A11) -------------------------------------------------------------------------

def test_packing_size_and_distance():
    for k in (16, 24, 40):
        code = sign_packing(k)
        assert len(code) >= gv_size(k)
        assert all(4 * l1(v, w) >= 2 * k for v, w in itertools.combinations(code, 2))  # ℓ₁ ≥ k/2
    assert gv_size(16) == 3 and gv_size(40) == 13
    assert plotkin_crossover() == 82


def test_compare_is_exact_on_rationals_and_three_valued_otherwise():
    assert compare(fmpq(1, 3), sympy.Rational(1, 3)) is Truth.TRUE  # equal rationals: exact, not a ball
    assert compare(fmpq(1, 3), fmpq(1, 4)) is Truth.FALSE
    assert compare(sympy.log(2), sympy.log(2)) is Truth.TRUE  # balls overlap, sympy shows the difference is 0
    assert compare(sympy.log(4) / 2, sympy.log(2)) is Truth.TRUE
    assert compare(arb_eval(sympy.log(2)), sympy.log(2)) is Truth.UNKNOWN  # a ball alone cannot show equality
    assert compare(sympy.log(2), sympy.Rational(7, 10)) is Truth.TRUE


def test_rounds_to_is_three_valued():
    assert rounds_to(sympy.log(2), "0.693") is Truth.TRUE
    assert rounds_to(sympy.log(2), "0.69") is Truth.TRUE
    assert rounds_to(sympy.log(2), "0.694") is Truth.FALSE
    assert rounds_to(arb("0.6935", "0.001"), "0.693") is Truth.UNKNOWN


def test_bernoulli_point_at_eps_zero_finishes_and_matches_mpmath():
    """ε = 0 makes φⁿ rational: sympy used to rewrite exp(−u) into an exact root of a 70-digit integer and
    never finish.  The point now evaluates, and bound (15) equals an independent mpmath evaluation of
    e^{−u*}(1 − a/u*)/κ with a = φⁿ·I(θ;X²⁰) + log 2, u* = (a + √(a² + 4a))/2, κ = 2, where
    I(θ;Xⁿ) = log(n+1) + (1/(n+1)) Σ_s [log C(n,s) + s(ψ(s+1) − ψ(n+2)) + (n−s)(ψ(n−s+1) − ψ(n+2))]
    (θ ~ U[0,1]; A-16 prints 1.14721 for n = 20)."""
    from exactdp.theory.estimation import bernoulli_bayes_point

    p = bernoulli_bayes_point("0", "1/10000", 20, bits=40)
    n = 20
    with mpmath.workdps(60):
        psi = lambda k: mpmath.psi(0, k)  # noqa: E731
        I = mpmath.log(n + 1) + sum(mpmath.log(mpmath.binomial(n, s)) + s * (psi(s + 1) - psi(n + 2))
                                    + (n - s) * (psi(n - s + 1) - psi(n + 2)) for s in range(n + 1)) / (n + 1)
        assert mpmath.nstr(I, 6) == "1.14721"
        phi = 1 - (1 - mpmath.mpf(1) / 10000) ** n
        a = phi * I + mpmath.log(2)
        u = (a + mpmath.sqrt(a * a + 4 * a)) / 2
        ref_text = mpmath.nstr(mpmath.exp(-u) * (1 - a / u) / 2, 40)
    assert p.xu_raginsky.overlaps(arb(ref_text)), (p.xu_raginsky, ref_text)
    assert p.xu_raginsky.rad() < arb("1e-15")
