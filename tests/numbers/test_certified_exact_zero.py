"""The exact layer: ties that balls cannot separate, decided by theorems, never by numerics."""

from __future__ import annotations

import pytest
import sympy

from exactdp.numbers.exact_zero import coprime_basis, is_zero, rational_value
from exactdp.numbers.truth import Truth

R = sympy.Rational
E = sympy.exp


@pytest.mark.parametrize(
    "expr, expected, rule",
    [
        (sympy.log(6) - sympy.log(2) - sympy.log(3), Truth.TRUE, "log"),
        (sympy.log(R(9, 4)) - 2 * sympy.log(R(3, 2)), Truth.TRUE, "log"),
        (sympy.log(12) - 2 * sympy.log(2) - sympy.log(3) + R(1, 10**50), Truth.FALSE, "log"),
        (sympy.log(3) - R(11, 10), Truth.FALSE, "Lindemann"),  # e^{11/10} = 3 is impossible
        (sympy.log(2) / 3 + sympy.log(5) / 7 - sympy.log(3), Truth.FALSE, "log"),
        (E(R(1, 2)) - R(33, 20), Truth.FALSE, "Lindemann-Weierstrass"),  # e^eps vs a rational
        (E(R(1, 2)) ** 2 - sympy.E, Truth.TRUE, "rational"),
        (3 * E(R(1, 10**30)) - 3, Truth.FALSE, "Lindemann-Weierstrass"),
        (sympy.sqrt(3) * E(R(1, 2)) - sympy.sqrt(3) * E(R(1, 2)), Truth.TRUE, "rational"),
        (sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6)), Truth.TRUE, "algebraic"),
        (sympy.sqrt(2) - R(14142135623730950488, 10**19), Truth.FALSE, "algebraic"),
        (E(R(1, 2)) / (E(R(1, 2)) + 1) - E(R(1, 2)) / (1 + E(R(1, 2))), Truth.TRUE, "rational"),
        ((E(1) - 1) / (E(1) + 1) - sympy.tanh(R(1, 2)), Truth.TRUE, "simplify"),
    ],
)
def test_is_zero(expr, expected, rule):
    truth, reason = is_zero(expr)
    assert truth is expected, reason


def test_unknown_when_no_rule_applies():
    truth, _ = is_zero(sympy.log(2) * sympy.log(3) - sympy.log(6) ** 2 / 4)  # a quadratic form in logs
    assert truth is not Truth.TRUE  # never claims zero; the value is -0.0226..., not decided here


def test_rational_value_of_cancelling_logs():
    assert rational_value(sympy.log(10) - sympy.log(2) - sympy.log(5) + R(1, 7)) == R(1, 7)
    assert rational_value(sympy.log(3)) is None


def test_coprime_basis_factors_everything():
    basis = coprime_basis([12, 18, 10**30, 7, 1])
    assert all(sympy.gcd(a, b) == 1 for a in basis for b in basis if a != b)
    for n in (12, 18, 10**30, 7):
        m = n
        for b in basis:
            while m % b == 0:
                m //= b
        assert m == 1
