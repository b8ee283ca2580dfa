"""Four and more parameters (projection and lifting in any number of variables, exactdp.algebra.cylindrical 4.)
and square roots of non-parameter expressions (exactdp.algebra.radicals.eliminate) in the prover, against
closed forms and exact substitution into the original statements."""

import itertools

import pytest
import sympy

from exactdp import Truth
from exactdp.algebra.boolean import decide_formula
from exactdp.algebra.cylindrical import cells, projection_sets
from exactdp.algebra.prover import Region, decide
from exactdp.algebra.regions import Bounds
from exactdp.limits import ResourceLimitError, limits

v, w, x, y, z = sympy.symbols("v w x y z", real=True)
Q = sympy.Rational


def _holds_exactly(statement, point) -> bool:
    value = statement.subs(point)
    assert value in (sympy.true, sympy.false), (statement, point, value)
    return value is sympy.true


def test_a_four_parameter_sum_of_squares_plus_one_is_positive():
    """(wx - yz)^2 + 1 > 0, expanded so that sympy's assumptions do not settle it: TRUE from a complete
    decomposition in four variables."""
    claim = sympy.expand((w * x - y * z) ** 2) + 1 > 0
    assert claim not in (sympy.true, sympy.false)
    d = decide(claim, Region.of(variables=(w, x, y, z)))
    assert d.truth is Truth.TRUE, d.reason
    assert any("one in every cell" in str(s) for s in d.steps)


def test_a_four_parameter_sum_of_squares_is_false_only_at_its_centre():
    """Its projections have rational roots (the squares of (w - 1/7), ...): the lifting over rational samples
    reaches the one failing point, a 0-dimensional cell."""
    centre = {w: Q(1, 7), x: Q(2, 9), y: Q(1, 5), z: Q(1, 5)}
    claim = sum((s - c) ** 2 for s, c in centre.items()) > 0
    d = decide(claim, Region.of(variables=(w, x, y, z)))
    assert d.truth is Truth.FALSE and d.counterexample == centre
    assert decide(sum((s - c) ** 2 for s, c in centre.items()) >= 0, Region.of(variables=(w, x, y, z))).truth \
        is Truth.TRUE


def test_a_four_parameter_open_failure_is_refuted_at_a_rational_point():
    """wxyz <= 1 on [0, 2]^4 fails on the open set {wxyz > 1}: a full-dimensional cell's rational sample."""
    box = [c for s in (w, x, y, z) for c in (s >= 0, s <= 2)]
    d = decide(w * x * y * z <= 1, Region.of(*box, variables=(w, x, y, z)))
    assert d.truth is Truth.FALSE
    ce = d.counterexample
    assert all(val.is_Rational and 0 <= val <= 2 for val in ce.values()) and ce[w] * ce[x] * ce[y] * ce[z] > 1
    assert decide(w * x * y * z <= 16, Region.of(*box, variables=(w, x, y, z))).truth is Truth.TRUE  # 2^4


def test_five_parameters_on_a_box():
    """v + w + x + y + z >= -5 on [-1, 1]^5, equality only at the corner: TRUE, and > -5 FALSE there."""
    box = [c for s in (v, w, x, y, z) for c in (s >= -1, s <= 1)]
    assert decide_formula(v + w + x + y + z >= -5, Region.of(*box)).truth is Truth.TRUE
    d = decide_formula(v + w + x + y + z > -5, Region.of(*box))
    assert d.truth is Truth.FALSE and d.counterexample == {s: -1 for s in (v, w, x, y, z)}


def test_four_parameters_agree_with_a_rational_grid():
    """Random small claims in four variables on [-1, 1]^4: a FALSE answer's point fails exactly, and a TRUE answer
    has no failing point on the grid {-1, -1/2, 0, 1/2, 1}^4."""
    grid = [Q(k, 2) for k in range(-2, 3)]
    box = [c for s in (w, x, y, z) for c in (s >= -1, s <= 1)]
    claims = [w * x + y * z >= -2, w * x - y * z <= Q(3, 2), w**2 + x * y + z >= -Q(5, 4), w * x * y + z <= 2,
              w**2 + x**2 + y**2 + z**2 >= 2 * (w * x + y * z), w + x * y * z > -2, w * x * y * z >= -Q(1, 2)]
    for claim in claims:
        d = decide(claim, Region.of(*box, variables=(w, x, y, z)))
        assert d.truth in (Truth.TRUE, Truth.FALSE), (claim, d.reason)
        grid_fails = [p for p in itertools.product(grid, repeat=4) if not _holds_exactly(claim, dict(zip((w, x, y, z), p)))]
        if d.truth is Truth.TRUE:
            assert grid_fails == [], claim
        else:
            assert not _holds_exactly(claim, d.counterexample), (claim, d.counterexample)
            assert all(-1 <= d.counterexample[s] <= 1 for s in (w, x, y, z))


def test_a_nullified_factor_below_the_top_is_a_gap():
    """x*z - y*w (in z, over (w, x, y)) vanishes identically over the line x = y = 0 of its base, a cell of
    positive dimension in four variables: McCallum's projection does not certify the cells above it."""
    box = {s: Bounds() for s in (v, w, x, y, z)}
    C = cells([v * (x * z - y * w) - 1], [w, x, y, z, v], box)
    assert any("vanishes identically" in g for g in C.gaps)
    sets = projection_sets([v * (x * z - y * w) - 1], [w, x, y, z, v], box)
    assert len(sets) == 4 and all(p.free_symbols <= {w, x, y, z} for p in sets[-1])


def test_a_too_big_problem_is_refused_with_the_limit_named():
    """The work is estimated before the lifting (and each projection): a cubic cyclic form in four variables and
    a product of three factors in five are refused under the default limit, naming max_work and how to raise it
    (cells raises; the decision answers UNKNOWN with that message as its reason, never TRUE or FALSE)."""
    cyclic = w**2 * x + w * z**2 + x**2 * y + y**2 * z + 7
    box = {s: Bounds() for s in (w, x, y, z)}
    with pytest.raises(ResourceLimitError, match=r"lifting a cylindrical decomposition in 4 variables.*max_work.*"
                                                 r"EXACTDP_MAX_WORK"):
        cells([cyclic], [w, x, y, z], box)
    d = decide(cyclic >= 0, Region.of(variables=(w, x, y, z)))
    assert d.truth is Truth.UNKNOWN and "exceeds the limit max_work" in d.reason and "EXACTDP_MAX_WORK" in d.reason
    five = (w * x + y * z - 1) * (w**2 + x * y * z - 2) * (v * w - x**2 + y * z**2) > 0
    d = decide(five, Region.of(variables=(v, w, x, y, z)))
    assert d.truth is Truth.UNKNOWN and "in 5 variables" in d.reason and "max_work" in d.reason
    claim = sympy.expand((w * x - y * z) ** 2) + 1 > 0  # decided under the default limit (above)
    with limits(max_work=10**4):
        d = decide(claim, Region.of(variables=(w, x, y, z)))
    assert d.truth is Truth.UNKNOWN and "max_work = 10000" in d.reason


# -- square roots of expressions that are not parameters ----------------------------------------------------------

def test_a_square_root_claim_that_is_true_on_all_reals():
    """sqrt(x^2 + 1) >= x (and > x, and >= |x| squared: x^2 + 1 > x^2) on every real x; 1/sqrt(x^2 + 1) <= 1."""
    for claim in (sympy.sqrt(x**2 + 1) >= x, sympy.sqrt(x**2 + 1) > x, 1 / sympy.sqrt(x**2 + 1) <= 1,
                  sympy.sqrt(x**2 + y**2) >= x):
        d = decide(claim, Region.of(variables=sorted(claim.free_symbols, key=str)))
        assert d.truth is Truth.TRUE, (claim, d.reason)
        assert any("eliminated" in str(s) for s in d.steps)


def test_a_nested_square_root():
    """sqrt(sqrt(x^2 + 1) + 3) >= 2 (the inner root is >= 1), and > 2 fails exactly at x = 0."""
    assert decide(sympy.sqrt(sympy.sqrt(x**2 + 1) + 3) >= 2, Region.of(variables=[x])).truth is Truth.TRUE
    d = decide(sympy.sqrt(sympy.sqrt(x**2 + 1) + 3) > 2, Region.of(variables=[x]))
    assert d.truth is Truth.FALSE and d.counterexample == {x: 0}


def test_a_square_root_claim_false_at_an_algebraic_point():
    """sqrt(x^4 - 4x^2 + 4) = |x^2 - 2| > 0 fails exactly at x = +-sqrt 2 (nowhere else): the counterexample is
    that algebraic point, and it fails in the original statement."""
    claim = sympy.sqrt(x**4 - 4 * x**2 + 4) > 0
    d = decide(claim, Region.of(variables=[x]))
    assert d.truth is Truth.FALSE and d.counterexample[x] in (sympy.sqrt(2), -sympy.sqrt(2))
    assert claim.subs(d.counterexample) is sympy.false


def test_a_square_root_far_out():
    """sqrt(x^2 + 1) > x + 10^-6 fails exactly for x >= (1 - 10^-12)/(2*10^-6) = 999999999999/2000000."""
    claim = sympy.sqrt(x**2 + 1) > x + Q(1, 10**6)
    d = decide(claim, Region.of(variables=[x]))
    assert d.truth is Truth.FALSE and d.counterexample[x] >= Q(999999999999, 2000000)
    assert claim.subs(d.counterexample) is sympy.false
    assert decide(claim, Region.of(x <= Q(999999999999, 2000000) - Q(1, 10**9))).truth is Truth.TRUE


def test_a_root_that_is_not_real_on_the_region_is_unknown_never_true():
    """sqrt(x^2 - 1) >= 0 is not a statement about |x| < 1: UNKNOWN, naming a point where the radicand is < 0;
    on |x| >= 1 it is TRUE."""
    d = decide(sympy.sqrt(x**2 - 1) >= 0, Region.of(variables=[x]))
    assert d.truth is Truth.UNKNOWN and "not real on the whole region" in d.reason
    assert decide(sympy.sqrt(x**2 - 1) >= 0, Region.of(x >= 1)).truth is Truth.TRUE
    assert decide(sympy.sqrt(1 - x**2) <= 1, Region.of(x >= -1, x <= 1)).truth is Truth.TRUE


def test_a_root_of_a_non_rational_radicand_is_left_unknown():
    """sqrt(log(x^2 + 2)): the radicand is not a rational function, so no variable r^2 = A is introduced."""
    d = decide(sympy.sqrt(sympy.log(x**2 + 2)) <= x**2 + 1, Region.of(variables=[x]))
    assert d.truth is Truth.UNKNOWN and "not a rational function" in d.reason
