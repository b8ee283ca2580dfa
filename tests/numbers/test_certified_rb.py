"""RB, the certified real on arb balls: containment, three-valued decisions, scoped precision, evalf."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from flint import ctx, fmpq

from exactdp import CoercionError, ParameterError, UndecidedError
from exactdp.numbers.digits import evalf, round_significant
from exactdp.numbers.rb import RB, current_cap, precision_cap
from exactdp.numbers.truth import Sign, Truth
from tests.certified_support import assert_encloses

R = sympy.Rational
mpf = mpmath.mpf

with mpmath.workdps(200):  # e^{1/2} truncated to 130 decimals: 0 < e^{1/2} - _BELOW_SQRT_E < 10^-130
    _BELOW_SQRT_E = R(int(mpmath.floor(mpmath.exp(mpf(1) / 2) * mpf(10) ** 130)), 10**130)
    _GAP = mpmath.exp(mpf(1) / 2) - mpf(_BELOW_SQRT_E.p) / mpf(_BELOW_SQRT_E.q)


@pytest.mark.parametrize(
    "expr, compute",
    [
        (sympy.exp(R(1, 2)), lambda: mpmath.exp(mpf(1) / 2)),
        (sympy.log(3), lambda: mpmath.log(3)),
        (sympy.sqrt(2), lambda: mpmath.sqrt(2)),
        (R(2) ** R(1, 3), lambda: mpmath.cbrt(2)),
        (R(3, 7) ** R(5, 4), lambda: (mpf(3) / 7) ** (mpf(5) / 4)),
        (sympy.exp(5000), lambda: mpmath.exp(5000)),
        (sympy.exp(-5000), lambda: mpmath.exp(-5000)),
        (sympy.log(R(1, 10**300)), lambda: -300 * mpmath.log(10)),
        (sympy.exp(R(1, 10**30)) - 1, lambda: mpmath.expm1(mpf(10) ** -30)),
        (sympy.log(1 + R(1, 10**40)), lambda: mpmath.log1p(mpf(10) ** -40)),
        (sympy.pi * sympy.E, lambda: mpmath.pi * mpmath.e),
        (R(1, 3), lambda: mpf(1) / 3),
    ],
)
def test_balls_enclose_mpmath_at_150_digits(expr, compute):
    assert_encloses(expr, compute)


def test_precision_is_scoped_never_global():
    before = ctx.prec
    RB(sympy.log(3)).ball(1000)
    with precision_cap(128):
        assert current_cap() == 128
        RB(sympy.exp(R(1, 2))).sign()
    assert ctx.prec == before
    assert current_cap() == 8192


def test_floats_are_refused():
    with pytest.raises(CoercionError, match="float"):
        RB(0.5)
    with pytest.raises(CoercionError, match="float"):
        RB(sympy.exp(sympy.Float(0.5)))
    with pytest.raises(ParameterError, match="free symbols"):
        RB(sympy.Symbol("x") + 1)


def test_signs_and_ties():
    assert RB(sympy.log(3) - R(1098612288668109691, 10**18)).sign().sign is Sign.POSITIVE
    assert RB(sympy.log(3) - R(1098612288668109692, 10**18)).sign().sign is Sign.NEGATIVE
    # exact ties, which no ball can separate
    tie = RB(sympy.log(6) - sympy.log(2) - sympy.log(3)).sign()
    assert tie.sign is Sign.ZERO and "exact" in tie.reason
    assert RB(sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))).sign().sign is Sign.ZERO
    # a difference of 10^-3000 behind a cancelling log form: decided by the exact layer
    assert RB(sympy.log(6) - sympy.log(2) - sympy.log(3) + R(1, 10**3000)).sign().sign is Sign.POSITIVE


def test_undecided_is_unknown_never_a_guess():
    x = RB(sympy.exp(R(1, 2)) - _BELOW_SQRT_E)
    with precision_cap(128):
        res = x.sign()
    assert res.sign is None and not res.decided
    assert (res.truth(Sign.POSITIVE)) is Truth.UNKNOWN
    with pytest.raises(TypeError):
        bool(res)
    with precision_cap(128), pytest.raises(UndecidedError):
        bool(x > 0)
    assert x.sign().sign is Sign.POSITIVE  # the default cap decides it


def test_comparison_operators_return_truth():
    a, b = RB(sympy.exp(1)), RB(sympy.pi)
    assert (a < b) is Truth.TRUE and (a >= b) is Truth.FALSE and a.eq(a) is Truth.TRUE
    assert RB(sympy.sqrt(2)).compare_rational("1.4142135623730950488") is Sign.POSITIVE
    assert RB(sympy.exp(sympy.log(3) / 2)).compare_rational(3) is Sign.NEGATIVE  # sqrt(3) < 3


@pytest.mark.parametrize(
    "expr, digits, compute",
    [
        (sympy.log(3), 40, lambda: mpmath.log(3)),
        (sympy.exp(R(1, 2)), 25, lambda: mpmath.exp(mpf(1) / 2)),
        (sympy.exp(5000), 15, lambda: mpmath.exp(5000)),
        (sympy.exp(R(1, 10**30)) - 1, 20, lambda: mpmath.expm1(mpf(10) ** -30)),
        (sympy.sqrt(2) / 10**7, 30, lambda: mpmath.sqrt(2) / 10**7),
    ],
)
def test_evalf_digits_are_the_correctly_rounded_digits(expr, digits, compute):
    got = evalf(expr, digits)
    with mpmath.workdps(digits + 60):
        ref = mpmath.nstr(compute(), digits, strip_zeros=False)
    assert mpmath.mpf(got.replace("e+", "e")) == mpmath.mpf(ref.replace("e+", "e")) or got == ref
    with mpmath.workdps(digits + 60):
        assert abs(mpmath.mpf(got) / compute() - 1) <= mpf(10) ** (1 - digits)


def test_evalf_exact_rationals_and_special_values():
    assert evalf(R(1, 3), 5) == "0.33333"
    assert evalf(fmpq(1, 8), 2) == "0.12"  # half to even
    assert evalf(fmpq(3, 8), 2) == "0.38"
    assert evalf(123456, 3) == "1.23e+5"
    assert evalf("1e-300", 3) == "1.00e-300"
    assert evalf(sympy.oo) == "inf"
    assert evalf(sympy.log(6) - sympy.log(2) - sympy.log(3)) == "0"
    assert round_significant(fmpq(-2, 3), 4) == "-0.6667"
    with pytest.raises(ParameterError):
        evalf(sympy.log(3), 0)


def test_evalf_refuses_to_print_uncertified_digits():
    x = sympy.exp(R(1, 2)) - _BELOW_SQRT_E
    with pytest.raises(UndecidedError, match="not certified"):
        evalf(x, 5, max_prec=128)
    with mpmath.workdps(200):
        assert evalf(x, 3) == mpmath.nstr(_GAP, 3)  # the default cap certifies the gap


def test_arithmetic_keeps_exact_side():
    x = RB(sympy.log(2)) + RB(sympy.log(3))
    assert x.eq(sympy.log(6)) is Truth.TRUE
    y = (RB(sympy.sqrt(2)) * RB(sympy.sqrt(2))) - 2
    assert y.sign().sign is Sign.ZERO
    assert_encloses(RB(sympy.log(2)) / RB(sympy.log(3)), lambda: mpmath.log(2) / mpmath.log(3))


def test_exact_tie_against_a_rational_even_below_the_exact_layer_precision():
    x = RB(sympy.log(6) - sympy.log(2) - sympy.log(3) + 1)  # exactly 1, but not structurally rational
    assert x.compare_rational(1, max_prec=64) is Sign.ZERO
    assert x.compare_rational(R(999, 1000), max_prec=64) is Sign.POSITIVE
    assert RB(sympy.exp(R(1, 2))).compare_rational(R(33, 20), max_prec=64) is Sign.NEGATIVE  # 1.6487 < 1.65
