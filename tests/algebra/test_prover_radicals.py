"""Square roots of parameters in the prover (v = w², w ≥ 0)."""

import sympy

from exactdp.numbers.truth import Truth
from exactdp import bounds as B
from exactdp.algebra.prover import Region, decide

t = sympy.Symbol("t", positive=True)
x = sympy.Symbol("x", real=True)


def test_am_gm_with_a_square_root():
    assert decide(sympy.sqrt(t) <= (t + 1) / 2, Region.of(t >= 0)).truth is Truth.TRUE
    D = decide(sympy.sqrt(t) < (t + 1) / 2, Region.of(t >= 0))
    assert D.truth is Truth.FALSE and D.counterexample == {t: 1}  # equality at t = 1, mapped back from w = 1


def test_counterexamples_and_crossings_are_mapped_back():
    D = decide(sympy.sqrt(t) <= t, Region.of(t >= 0))
    assert D.truth is Truth.FALSE
    v = D.counterexample[t]
    assert sympy.sqrt(v) > v
    assert {t: 1} in D.crossings
    assert decide(sympy.sqrt(t) <= t, Region.of(t >= 2)).truth is Truth.TRUE  # sqrt 2 is not rational: w^2 >= 2


def test_zamanlooy_asoodeh_h2_coefficient_vs_the_tv_coefficient():
    """2(sqrt E - 1)^2/(E + 1) <= (E - 1)/(E + 1) fails for large E (H^2 can exceed TV; H^2 <= 2 TV holds)."""
    za = B.get("zamanlooy_asoodeh_h2").expr
    D = decide(za <= (t - 1) / (t + 1), Region.of(t >= 1))
    assert D.truth is Truth.FALSE
    v = D.counterexample[t]
    assert za.subs(t, v) > (v - 1) / (v + 1)
    assert decide(za <= 2 * (t - 1) / (t + 1), Region.of(t >= 1)).truth is Truth.TRUE


def test_binette_h2_below_chi2_coefficient():
    cmp = B.get("binette_h2").compare(B.get("binette_chi2"), at={"m": 0})
    assert cmp.le.truth is Truth.TRUE and cmp.ge.truth is Truth.FALSE


def test_square_root_of_a_possibly_negative_parameter_is_undecided():
    assert decide(sympy.sqrt(x) <= x + 1, Region.of(x >= -1)).truth is Truth.UNKNOWN
