"""The prover's remembered answers (exactdp.algebra.prover.decide, Region.with_conditions, projection.to_flint):
each is a pure function of its inputs and the limits in force; a TRUE / FALSE decision is given again as a fresh
object with the same derivation, an UNKNOWN one is decided again."""

from __future__ import annotations

import pytest
import sympy

from exactdp.algebra import projection, prover, regions
from exactdp.algebra.prover import Region, decide
from exactdp.limits import limits
from exactdp.numbers.memo import Memo
from exactdp.numbers.truth import Truth

t = sympy.Symbol("t", positive=True)
x = sympy.Symbol("x", real=True)


@pytest.fixture
def memo(monkeypatch):
    fresh: Memo = Memo()
    monkeypatch.setattr(prover, "_DECISIONS", fresh)
    return fresh


def test_a_decision_is_given_again_as_a_fresh_copy(memo):
    rel, region = (t - 1) / (t + 1) <= 1 - 1 / t, Region.of(t >= 1)
    first = decide(rel, region)
    first.steps.append("a caller's own line")
    second = decide(rel, region)
    assert len(memo) == 1 and first.truth is second.truth is Truth.TRUE
    assert second.steps == first.steps[:-1] and second.crossings == [{t: 1}]


def test_a_false_decision_keeps_its_counterexample(memo):
    d1 = decide(x**2 >= 1, Region.of(x >= 0))
    d1.counterexample[x] = sympy.Integer(99)
    d2 = decide(x**2 >= 1, Region.of(x >= 0))
    assert d2.truth is Truth.FALSE and d2.counterexample != d1.counterexample
    assert (d2.counterexample[x] ** 2 < 1) and d2.counterexample[x] >= 0


def test_an_unknown_decision_is_not_remembered(memo):
    d = decide(sympy.log(t) <= t, Region.of(t >= 1))
    assert d.truth is Truth.UNKNOWN and len(memo) == 0


def test_other_limits_are_another_question(memo):
    rel, region = t**2 + 1 > 0, Region.of(t >= 1)
    assert decide(rel, region).truth is Truth.TRUE
    with limits(max_work=10**6):
        assert decide(rel, region).truth is Truth.TRUE
    assert len(memo) == 2


def test_regions_are_built_once_and_tell_assumptions_apart(monkeypatch):
    monkeypatch.setattr(regions, "_REGIONS", Memo())
    c = sympy.Symbol("c")
    r1, r2 = Region.of(t >= 1, c * t <= 1), Region.of(t >= 1, c * t <= 1)
    assert r1 is r2 and r1.constraints == ((1 - c * t, False),) and r1.bounds(t).lo == 1
    s = sympy.Symbol("t")  # no sign assumption: another region
    other = Region.of(s >= 1, c * s <= 1)
    assert s in other.variables and t not in other.variables and other is not r1


def test_flint_conversions_are_new_objects_with_remembered_coefficients(monkeypatch):
    monkeypatch.setattr(projection, "_COEFFICIENTS", Memo())
    p = 3 * x**2 - sympy.Rational(1, 2)
    a = projection.to_flint(p, x)
    a[0] = 7  # the caller's own polynomial
    b = projection.to_flint(p, x)
    assert [str(v) for v in b.coeffs()] == ["-1/2", "0", "3"] and a is not b


def test_a_decision_without_crossings_has_the_same_truth_and_derivation(memo):
    """decide(..., crossings=False) (the certificate checks) skips only the list of points where a = b."""
    rel, region = (t - 1) / (t + 1) <= 1 - 1 / t, Region.of(t >= 1)
    full, bare = decide(rel, region), decide(rel, region, crossings=False)
    assert full.crossings == [{t: 1}] and bare.crossings == []
    assert bare.truth is full.truth is Truth.TRUE and bare.steps == full.steps and len(memo) == 2
    false = decide(x**2 >= 1, Region.of(x >= 0), crossings=False)
    assert false.truth is Truth.FALSE and false.counterexample[x] ** 2 < 1
