"""Property tests of the certified layer: two independent routes must agree, decisions are never wrong."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactdp import hockey_stick, is_ldp, ldp_epsilon
from exactdp.certified import certified_compare, eta_hockey_stick_certified, is_ldp_certified
from exactdp.numbers.truth import Truth
from exactdp.testing import exact_kernels, exact_rationals

R = sympy.Rational


@given(exact_kernels(max_size=4), exact_rationals(min_value=0, max_value=3, max_den=20))
def test_pure_ldp_by_hockey_stick_equals_ldp_functional(K, eps):
    """[A] Thm 1 at δ = 0 vs D-5: η_{E_{e^ε}}(K) = 0 ⟺ LDP(K) ≤ ε — hockey-stick route vs log-ratio route."""
    by_eta = is_ldp(K, eps=R(int(eps.p), int(eps.q)))
    by_ratio = certified_compare(ldp_epsilon(K), "<=", eps)
    assert by_eta is not Truth.UNKNOWN and by_ratio is not Truth.UNKNOWN
    assert by_eta is by_ratio


@given(exact_kernels(max_size=4), st.sampled_from([R(1, 2), R(1, 3), R(7, 5), sympy.log(3) / 2]))
def test_certified_eta_is_the_max_of_pairwise_hockey_sticks(K, eps):
    """B-2 two-point formula: η_{E_γ}(K) = max_{x≠x'} E_γ(K_x‖K_{x'}), every pair ≤ the value, one equal."""
    gamma = sympy.exp(eps)
    value, x, x2 = eta_hockey_stick_certified(K, gamma)
    if K.N == 1:
        return
    pairs = [hockey_stick(K.row(i), K.row(j), gamma) for i, j in itertools.permutations(range(K.N), 2)]
    assert all(certified_compare(p, "<=", value) is Truth.TRUE for p in pairs)
    assert certified_compare(hockey_stick(K.row(x), K.row(x2), gamma), "==", value) is Truth.TRUE


@given(exact_kernels(max_size=3), exact_rationals(min_value=0, max_value=1, max_den=10))
def test_is_ldp_monotone_in_delta_and_agrees_with_the_ball_route(K, delta):
    """(ε,δ)-LDP is monotone in δ; the exact route and the ball-enclosure fallback never disagree."""
    from exactdp.measures.irrational_gamma import _Gamma, _is_ldp_balls

    gamma = sympy.exp(R(1, 2))
    exact = is_ldp_certified(K, gamma, delta)
    assert exact is not Truth.UNKNOWN
    if exact is Truth.TRUE:
        assert is_ldp_certified(K, gamma, 1) is Truth.TRUE
    balls = _is_ldp_balls(K, _Gamma(gamma, None), delta, None)
    assert balls is Truth.UNKNOWN or balls is exact


@given(
    st.fractions(min_value=R(1, 10**6), max_value=10**6, max_denominator=10**6),
    st.integers(1, 40),
    st.sampled_from(["log", "exp", "sqrt"]),
)
def test_evalf_digits_are_mpmaths_correctly_rounded_digits(q, digits, fn):
    """evalf(f(q), n) is the correctly rounded n-digit value (mpmath at n + 80 digits as the oracle)."""
    from exactdp.certified import evalf

    x = R(q.numerator, q.denominator)
    expr = {"log": sympy.log, "exp": sympy.exp, "sqrt": sympy.sqrt}[fn](x)
    if expr.is_Rational:
        return
    got = evalf(expr, digits)
    with mpmath.workdps(digits + 80):
        v = getattr(mpmath, fn)(mpmath.mpf(q.numerator) / q.denominator)
        # the correctly rounded n-digit decimals of v, via exact integer rounding
        e = int(mpmath.floor(mpmath.log10(abs(v))))
        m = int(mpmath.nint(abs(v) / mpmath.mpf(10) ** (e - digits + 1)))
    if m == 10**digits:
        m, e = m // 10, e + 1
    sign = -1 if v < 0 else 1
    assert Fraction(got) == sign * m * Fraction(10) ** (e - digits + 1)
