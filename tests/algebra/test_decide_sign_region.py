"""decide_sign (the sign step of every linear-combination check) first decides on the conditions in the
expression's own parameters (a superset of the region); when that leaves the sign undecided or false, it decides
again on the whole region — an (eps,c)-PML multiplier t/(t - 1) is defined and >= 0 on a region that excludes
t = 1 only through a condition in c as well."""

import pytest
import sympy

from exactdp.algebra.certificates import decide_sign
from exactdp.numbers.truth import Truth

pytest.importorskip("exactdp.algebra.prover")

t, c = sympy.symbols("t c", real=True)


def test_a_condition_in_another_parameter_decides_the_sign():
    region = [t >= 1, c > 0, t - 1 - c >= 0]  # t >= 1 + c > 1
    truth, text = decide_sign(t / (t - 1), region)
    assert truth is Truth.TRUE and "on the whole region" in text
    # on the superset t >= 1 alone the denominator vanishes: undecided there, and never TRUE
    assert decide_sign(t / (t - 1), [t >= 1])[0] is not Truth.TRUE


def test_a_sign_false_on_the_whole_region_is_false_with_a_point():
    truth, text = decide_sign(2 - t, [t >= 1, c > 0, t - 1 - c >= 0])
    assert truth is Truth.FALSE and "counterexample" in text


def test_a_sign_that_holds_only_outside_the_region_is_not_true():
    # 1 - t + c >= 0 needs t <= 1 + c: false at t = 3, c = 1 inside t >= 1 + c
    assert decide_sign(1 - t + c, [t >= 1, c > 0, t - 1 - c >= 0])[0] is Truth.FALSE
