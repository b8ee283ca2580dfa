"""The prover's sign of a fraction from its factors' signs (prover._by_factors), in three parameters.

A certificate of the every-N (eps,c)-PML synthesis (issue 25) has a region cut out by its multipliers' numerators;
deciding a multiplier p/q >= 0 there as one cylindrical decomposition of p, q and every region constraint took
40-60 s per multiplier.  The factors are settled one by one instead: a numerator that is itself a region
constraint needs no decision, each other factor is decided > 0 or < 0 on the box, on the box with one constraint,
or on the whole region.  Nothing is TRUE that the whole decision would not give: the claims below are
cross-checked at exact points, and a changed region gives FALSE (with a point) or UNKNOWN, never TRUE."""

import itertools

import pytest
import sympy

from exactdp.algebra.certificates import decide_sign
from exactdp.algebra.prover import Region, decide
from exactdp.numbers.truth import Truth

t, c, u = sympy.symbols("t c u", real=True)
DOM = [t >= 1, c > 0, u >= 2 * c, u <= 1]
#: the region of the lifted basis (0, 2, 5) of the two-point LP of (eps,c)-PML with u = N*c, gamma = 2, and its
#: slack condition against the branch 2(u - 2c)t + (t - 2 + (u - c)t)/(t(1 - u) + 1) of PML_ZA_PLUS
PIECE = DOM + [3 * c * t - 2 * t * u + 2 * t - 1 >= 0, 3 * c * t - t * u + t - 2 >= 0,
               (u - 2 * c) * (-4 * c * t ** 2 * u + 4 * c * t ** 2 + 5 * c * t + 2 * t ** 2 * u ** 2 - 4 * t ** 2 * u
                              + 2 * t ** 2 - 3) >= 0]
#: (t(1 - u) + 1)(t(1 - u) + 2ct - 1), not factored: the denominator of the basis's multipliers
DEN = -2 * c * t ** 2 * u + 2 * c * t ** 2 + 2 * c * t + t ** 2 * u ** 2 - 2 * t ** 2 * u + t ** 2 - 1
MULTIPLIERS = [(3 * c * t - 2 * t * u + 2 * t - 1) / DEN, (3 * c * t - t * u + t - 2) / DEN,
               -t / (-2 * c * t + t * u - t + 1)]


def _points(conditions):
    """Exact rational points of the region: t from 1 to 10, u and c on a grid."""
    ts = [sympy.Rational(v) for v in ("1", "9/8", "3/2", "2", "3", "5", "10")]
    us = [sympy.Rational(k, 12) for k in range(1, 13)]
    out = []
    for tv, uv, f in itertools.product(ts, us, (1, sympy.Rational(1, 2), sympy.Rational(1, 5))):
        p = {t: tv, u: uv, c: uv * f / 2}
        if all(bool(r.xreplace(p)) for r in conditions):
            out.append(p)
    return out


@pytest.mark.parametrize("k", range(len(MULTIPLIERS)))
def test_the_piece_multipliers_are_decided_by_their_factors(k):
    truth, text = decide_sign(MULTIPLIERS[k], PIECE)
    assert truth is Truth.TRUE, text
    pts = _points(PIECE)
    assert len(pts) > 20
    assert all(MULTIPLIERS[k].xreplace(p) >= 0 for p in pts)  # the claim holds where it can be evaluated


def test_the_step_names_the_factor_signs():
    d = decide(MULTIPLIERS[2] >= 0, Region.of(*PIECE, variables=[c, t, u]), crossings=False)
    assert d.truth is Truth.TRUE
    assert any("from its factors' signs" in str(s) for s in d.steps)


def test_a_numerator_that_is_a_constraint_with_a_denominator_changing_sign_is_not_true():
    region = DOM + [3 * c * t - t * u + t - 2 >= 0]
    e = (3 * c * t - t * u + t - 2) / (2 * c * t - 1)  # 2ct - 1 changes sign on the region
    assert decide_sign(e, region)[0] is not Truth.TRUE
    inside = [p for p in _points(region) if (2 * c * t - 1).xreplace(p) < 0 and (3 * c * t - t * u + t - 2).xreplace(p) > 0]
    assert inside and e.xreplace(inside[0]) < 0  # a region point where the fraction is negative


def test_a_tampered_region_gives_false_with_a_point_of_it():
    """The numerator's condition flipped: the multiplier is negative somewhere in the region."""
    region = DOM + [-(3 * c * t - t * u + t - 2) >= 0]
    e = (3 * c * t - t * u + t - 2) / (t * (1 - u) + 1)
    truth, text = decide_sign(e, region)
    assert truth is Truth.FALSE, text
    d = decide(e >= 0, Region.of(*region, variables=[c, t, u]), crossings=False)
    p = d.counterexample
    assert p is not None and all(bool(r.xreplace(p)) for r in region) and e.xreplace(p) < 0


def test_a_product_numerator_that_is_a_constraint_as_a_whole():
    region = DOM + [(u - 2 * c) * (1 - 2 * c * t) >= 0]
    e = (u - 2 * c) * (1 - 2 * c * t) / (t * (1 - u) + 1)
    assert decide_sign(e, region)[0] is Truth.TRUE
    assert all(e.xreplace(p) >= 0 for p in _points(region))
    # without the constraint the same fraction is negative somewhere (u > 2c, ct > 1/2)
    truth, _ = decide_sign(e, DOM)
    assert truth is Truth.FALSE
    assert e.xreplace({t: 3, u: sympy.Rational(1, 2), c: sympy.Rational(1, 5)}) < 0
