"""Certified brackets of crossovers (claims.md F-A3, G-29), checked against mpmath.findroot at 60 digits."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from flint import fmpq

from exactdp import ParameterError
from exactdp.certified import certified_bracket, certified_sign, phi
from exactdp.numbers.truth import Sign

R = sympy.Rational


def _contains(bracket, root_mp) -> bool:
    with mpmath.workdps(60):
        lo = mpmath.mpf(int(bracket.lo.p)) / int(bracket.lo.q)
        hi = mpmath.mpf(int(bracket.hi.p)) / int(bracket.hi.q)
        return lo <= root_mp <= hi


def test_fa3_crossover_phi_vs_4eps2():
    """F-A3: φ(ε,0) = 1 − e^{−ε} is below 4ε² only for ε > 0.22398."""
    b = certified_bracket(lambda e: 1 - sympy.exp(-e) - 4 * e**2, "1/10", "1/2", digits=12)
    with mpmath.workdps(60):
        root = mpmath.findroot(lambda e: 1 - mpmath.exp(-e) - 4 * e**2, mpmath.mpf("0.22"))
    assert _contains(b, root)
    assert b.evalf(5) == "0.22398" and b.sign_lo is Sign.POSITIVE and b.sign_hi is Sign.NEGATIVE
    # and phi itself (the stable evaluator) agrees on both sides of the bracket
    assert certified_sign(phi(eps=b.lo, delta=0) - 4 * R(int(b.lo.p), int(b.lo.q)) ** 2).sign is Sign.POSITIVE
    assert certified_sign(phi(eps=b.hi, delta=0) - 4 * R(int(b.hi.p), int(b.hi.q)) ** 2).sign is Sign.NEGATIVE


def test_fa3_crossover_phi_vs_4_expm1_squared():
    b = certified_bracket(lambda e: 1 - sympy.exp(-e) - 4 * (sympy.exp(e) - 1) ** 2, "1/10", "1/2", digits=10)
    with mpmath.workdps(60):
        root = mpmath.findroot(
            lambda e: 1 - mpmath.exp(-e) - 4 * (mpmath.exp(e) - 1) ** 2, mpmath.mpf("0.19")
        )
    assert _contains(b, root) and b.evalf(5) == "0.18823"


def test_g29_crossover_is_exactly_1_over_113():
    """G-29(c): (7/8) log((16 − 8u)/(1 + 7u)) < (7/8) log 15 iff u > 1/113; the root is rational."""

    def f(u):
        return sympy.log((16 - 8 * u) / (1 + 7 * u)) - sympy.log(15)

    assert certified_sign(f(R(1, 113))).sign is Sign.ZERO  # an exact tie, decided by the exact layer
    b = certified_bracket(f, 0, "1/2", width=R(1, 10**12))
    assert b.lo <= fmpq(1, 113) <= b.hi and b.width <= fmpq(1, 10**12)
    exact = certified_bracket(f, "1/113", "1/2")
    assert exact.exact and exact.lo == fmpq(1, 113)


def test_no_sign_change_is_refused():
    with pytest.raises(ParameterError, match="no certified sign change"):
        certified_bracket(lambda x: x**2 + 1, -1, 1)
