"""The levels ``exactdp analyze`` prints, log r of a rational r, without sympy: :class:`exactdp.numbers.loglin.LogLin`
prints as sympy prints ``log(Rational(r))`` and :func:`exactdp.numbers.digits.evalf_log` gives the same certified
digits as :func:`exactdp.numbers.digits.evalf` of the sympy expression (issue 24 item 3)."""

import random

import sympy
from flint import fmpq

import pytest

from exactdp.errors import ParameterError
from exactdp.numbers.digits import evalf, evalf_log
from exactdp.numbers.loglin import LogLin, log_of


def _rationals():
    rng = random.Random(24)
    out = [fmpq(3, 2), fmpq(1, 4), fmpq(8), fmpq(1, 8), fmpq(4, 9), fmpq(27, 8), fmpq(1, 10**40), fmpq(10**30 + 7, 3)]
    out += [fmpq(rng.randrange(1, 10**rng.randrange(1, 25)), rng.randrange(1, 10**rng.randrange(1, 25)))
            for _ in range(200)]
    return [r for r in out if r != 1]


def test_log_of_a_rational_prints_as_sympy_prints_it():
    for r in _rationals():
        v = log_of(r)
        assert isinstance(v, LogLin) and v.single_log() == r
        assert str(v) == str(sympy.log(sympy.Rational(int(r.p), int(r.q))))


def test_log_digits_equal_those_of_the_sympy_expression():
    for r in _rationals()[:60]:
        exact = sympy.log(sympy.Rational(int(r.p), int(r.q)))
        for digits in (1, 12, 30):
            assert evalf_log(r, digits) == evalf(exact, digits)
    assert evalf_log(fmpq(2), 12) == "0.693147180560"  # ln 2 = 0.69314718055994…
    assert evalf_log("3/2", 12) == "0.405465108108"  # ln 3/2 = 0.40546510810816…
    for bad in (1, 0, "-1/2"):
        with pytest.raises(ParameterError, match="r: log r needs a rational r > 0 other than 1"):
            evalf_log(bad, 12)


def test_a_combination_still_prints_through_sympy():
    v = LogLin(fmpq(1, 2), ((fmpq(2), fmpq(3)),))
    assert v.single_log() is None
    assert str(v) == str(sympy.Rational(1, 2) + 3 * sympy.log(2))


def test_rationals_round_without_an_rb():
    assert evalf(fmpq(1, 3), 5) == "0.33333" and evalf(fmpq(0), 3) == "0" and evalf(7, 2) == "7.0"
