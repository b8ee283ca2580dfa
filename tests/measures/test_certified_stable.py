"""Stable certified evaluators: φⁿ ([A] D-13), Ξ ([G] D-11, Thm 1), e^ε, the tight LDP value (B-4)."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from flint import fmpq

from exactdp import ParameterError
from exactdp.certified import (
    certified_compare,
    exp_eps,
    phi,
    phi_n,
    tight_ldp_eta,
    xi,
    xi_regime,
    xi_threshold,
)
from exactdp.numbers.truth import Truth
from tests.certified_support import assert_encloses
from tests.exact import mp

R = sympy.Rational
mpf = mpmath.mpf


@pytest.mark.parametrize(
    "eps, delta, n",
    [
        ("1/2", "0", 1),
        ("1/2", "1/10", 1),
        ("1", "1e-4", 1),
        ("2", "3/10", 1),
        ("1e-30", "0", 10**6),
        ("1e-30", "1e-30", 10**6),
        ("1/100", "1e-4", 20),
        ("700", "0", 3),
        ("1e-30", "0.999999999999999999999999999999", 10**6),
    ],
)
def test_phi_n_encloses_the_direct_formula(eps, delta, n):
    def direct():
        e, d = mp(eps), mp(delta)
        return 1 - mpmath.exp(-n * e) * (1 - d) ** n

    with mpmath.workdps(400):  # the naive formula needs many digits when it cancels
        ref = direct()
    assert_encloses(phi_n(eps=eps, delta=delta, n=n), lambda: ref, min_bits=90)


def test_phi_table_of_claims_md():
    # A-7 test vectors (claims.md): phi(0.5, 0) = 0.39347, phi(0.5, 0.1) = 0.45412, phi(2, 0.3) = 0.90527
    assert phi(eps="0.5", delta=0).evalf(5) == "0.39347"
    assert phi(eps="0.5", delta="0.1").evalf(5) == "0.45412"
    assert phi(eps=1, delta="1e-4").evalf(5) == "0.63216"
    assert phi(eps=2, delta="0.3").evalf(5) == "0.90527"
    assert tight_ldp_eta(eps="0.5", delta=0).evalf(5) == "0.24492"
    assert tight_ldp_eta(eps="0.5", delta="0.1").evalf(5) == "0.32043"
    assert tight_ldp_eta(eps=2, delta="0.3").evalf(5) == "0.83312"


def test_phi_n_exact_values():
    assert_encloses(phi_n(eps=sympy.log(3), delta=0, n=2), exact=fmpq(8, 9))  # F-A1: phi^2 = 8/9
    assert_encloses(phi_n(eps=sympy.log(3), delta=0, n=3), exact=fmpq(26, 27))
    assert phi_n(eps="1/2", delta=1, n=5).evalf(5) == "1.0000"  # delta = 1: exactly 1
    assert certified_compare(phi_n(eps=sympy.log(3), delta=0, n=2), "==", R(8, 9)) is Truth.TRUE


@pytest.mark.parametrize(
    "E, c, N, expected",
    # claims.md §7: the exact LP values of eta_TV(eps, c) = Xi at rational E = e^eps
    [
        (3, "1/4", 2, fmpq(4, 5)),
        (2, "1/3", 2, fmpq(3, 5)),
        (fmpq(5, 2), "1/4", 3, fmpq(12, 13)),
        (fmpq(8, 3), "1/4", 3, fmpq(1)),
        (3, "1/1000", 4, fmpq(500, 997)),
        (fmpq(6, 5), "1/4", 4, fmpq(1, 5)),
        (fmpq(11, 10), "1/3", 3, fmpq(1, 10)),
        (fmpq(19, 5), "1/10", 5, fmpq(28, 29)),
    ],
)
def test_xi_table_of_claims_md(E, c, N, expected):
    eps = sympy.log(sympy.Rational(int(E.p), int(E.q))) if isinstance(E, fmpq) else sympy.log(E)
    assert_encloses(xi(eps=eps, c=c, N=N), exact=expected)
    assert certified_compare(xi(eps=eps, c=c, N=N), "==", expected) is Truth.TRUE


def test_xi_limits():
    # c -> 0: (e^eps - 1)/(e^eps + 1) (eq. (13)); c = 1/N: min(e^eps - 1, 1); eps -> 0: ~ eps/(2 - Nc)
    with mpmath.workdps(200):
        e = mpmath.exp(mpf(1) / 2)
        ref = (e - 1) / (e * (1 - 3 * mpf(10) ** -50) + 1)
    assert_encloses(xi(eps="1/2", c="1e-50", N=3), lambda: ref)
    assert_encloses(xi(eps="1/2", c="1/3", N=3), lambda: mpmath.expm1(mpf(1) / 2))
    assert_encloses(
        xi(eps="1e-30", c="1/8", N=4), lambda: mpmath.expm1(mpf(10) ** -30) / (mpmath.exp(mpf(10) ** -30) / 2 + 1)
    )


def test_xi_regime_and_threshold():
    assert xi_threshold("1/4", 3) == sympy.log(R(8, 3))
    assert xi_threshold(0, 3) is sympy.oo
    t = xi_threshold("1/4", 3)
    assert xi_regime(eps=t, c="1/4", N=3) is Truth.TRUE
    assert xi_regime(eps=t - R(1, 10**40), c="1/4", N=3) is Truth.FALSE
    assert xi_regime(eps=t + R(1, 10**40), c="1/4", N=3) is Truth.TRUE
    assert xi_regime(eps=100, c=0, N=3) is Truth.FALSE


def test_exp_eps_large_and_bad_input():
    assert exp_eps(5000).evalf(12) == "2.96762838402e+2171"
    with pytest.raises(ParameterError, match="eps"):
        exp_eps(-1)
    with pytest.raises(ParameterError, match="delta"):
        phi_n(eps=1, delta=2, n=3)
    with pytest.raises(ParameterError, match="n"):
        phi_n(eps=1, delta=0, n=0)
    with pytest.raises(ParameterError, match="c"):
        xi(eps=1, c="1/2", N=3)


def test_evaluate_at_matches_the_stable_evaluator():
    from exactdp import CoercionError
    from exactdp.certified import evaluate_at

    e, c, N = sympy.symbols("epsilon c N", positive=True)
    Xi_expr = (sympy.exp(e) - 1) / (sympy.exp(e) * (1 - N * c) + 1)  # the contraction-regime branch
    v = evaluate_at(Xi_expr, epsilon="1/2", c="1/10", N=3)
    assert certified_compare(v, "==", xi(eps="1/2", c="1/10", N=3)) is Truth.TRUE
    with mpmath.workdps(200):
        E = mpmath.exp(mpf(1) / 2)
        ref = (E - 1) / (E * (1 - mpf(3) / 10) + 1)
    assert_encloses(v, lambda: ref)
    with pytest.raises(ParameterError, match="N"):
        evaluate_at(Xi_expr, epsilon="1/2", c="1/10")
    with pytest.raises(CoercionError, match="float"):
        evaluate_at(Xi_expr, epsilon=0.5, c="1/10", N=3)
