"""And / Or / Not of sign conditions decided exactly (exactdp.algebra.boolean), against brute force."""

import itertools
import random

import pytest
import sympy

from exactdp import Truth
from exactdp.algebra.boolean import And, Implies, Not, Or, covers, decide_formula
from exactdp.algebra.prover import decide
from exactdp.algebra.regions import Region

x, y = sympy.symbols("x y", real=True)
t, c = sympy.symbols("t c", positive=True)
Q = sympy.Rational
BOX = Region.of(x >= -2, x <= 2, y >= -2, y <= 2)
GRID = [Q(k, 4) for k in range(-8, 9)]


def _holds(formula, point) -> bool:
    v = formula.subs(point)
    assert v in (sympy.true, sympy.false), (formula, point, v)
    return v is sympy.true


def _in_box(point) -> bool:
    return all(-2 <= point[s] <= 2 for s in (x, y))


def _check_against_grid(formula, d):
    """TRUE: holds at every grid point; FALSE: the counterexample is in the box and violates it exactly."""
    if d.truth is Truth.TRUE:
        for a, b in itertools.product(GRID, GRID):
            assert _holds(formula, {x: a, y: b}), (formula, a, b)
    elif d.truth is Truth.FALSE:
        ce = d.counterexample
        assert _in_box(ce) and not _holds(formula, ce), (formula, ce)


@pytest.mark.parametrize("formula, truth", [
    (Or(x**2 + y**2 <= 1, x**2 + y**2 >= 1), Truth.TRUE),
    (Or(x**2 + y**2 < 1, x**2 + y**2 > 1), Truth.FALSE),             # fails exactly on the circle
    (Or(x**2 + y**2 <= 1, y > x), Truth.FALSE),
    (Implies(x**2 + y**2 <= 1, x + y <= Q(142, 100)), Truth.TRUE),    # max of x + y on the disc is sqrt 2
    (Implies(x**2 + y**2 <= 1, x + y < Q(141, 100)), Truth.FALSE),    # ... which exceeds 1.41
    (Not(And(x > 1, y > 1, x + y < 2)), Truth.TRUE),
    (And(x * y <= 4, Or(x <= 2, y >= -2)), Truth.TRUE),
    (Implies(x**2 + y**2 <= 2, x * y < 1), Truth.FALSE),              # x = y = 1
    (Implies(x**2 + y**2 <= 2, x * y <= 1), Truth.TRUE),              # strict atom, tangency at x = y = 1
    (Implies(x**2 + y**2 < 3, x * y < Q(3, 2)), Truth.TRUE),          # critical abscissae +-sqrt 3: lifted in Q(sqrt 3)
    (Implies(x**2 + y**2 <= 3, x * y < Q(3, 2)), Truth.FALSE),        # fails at x = y = sqrt(3/2) only
])
def test_known_formulas_on_the_box(formula, truth):
    d = decide_formula(formula, BOX)
    assert d.truth is truth, d
    _check_against_grid(formula, d)


def test_irrational_counterexample_is_exact():
    d = decide_formula(Implies(x**2 + y**2 <= 3, x * y < Q(3, 2)), BOX)
    ce = d.counterexample
    assert sympy.simplify(ce[x] ** 2 - Q(3, 2)) == 0 and sympy.simplify(ce[x] * ce[y] - Q(3, 2)) == 0


def test_counterexample_on_a_circle_is_exact():
    d = decide_formula(Or(x**2 + y**2 < 1, x**2 + y**2 > 1), BOX)
    assert (d.counterexample[x] ** 2 + d.counterexample[y] ** 2) == 1


def test_coverage_of_the_pml_domain_by_theorem_1_regions():
    """Ξ's two branches N c t <= 2 and N c t > 2 cover t >= 1, 0 < c <= 1/3 (N = 3); one branch does not."""
    domain = Region.of(t >= 1, c <= Q(1, 3))
    assert covers([3 * c * t <= 2, 3 * c * t > 2], domain).truth is Truth.TRUE  # (sympy folds this Or to True)
    three = [3 * c * t <= 1, And(3 * c * t >= 1, 3 * c * t <= 2), 3 * c * t >= 2]
    assert covers(three, domain).truth is Truth.TRUE
    assert covers(three[:2] + [3 * c * t > 2], domain).truth is Truth.TRUE
    curved = [3 * c * t <= 1, And(3 * c * t >= 1, (t - 1) * (1 - 3 * c) <= 1), 3 * c * t + t * c >= 2]
    d = covers(curved, domain)
    assert d.truth is Truth.FALSE  # a point with 3ct > 1, (t-1)(1-3c) > 1 and 4ct < 2 exists (t = 4, c = 1/10)
    ce = d.counterexample
    assert 3 * ce[c] * ce[t] > 1 and (ce[t] - 1) * (1 - 3 * ce[c]) > 1 and 4 * ce[c] * ce[t] < 2
    gap = covers([3 * c * t < 2, 3 * c * t > 2], domain)
    assert gap.truth is Truth.FALSE and 3 * gap.counterexample[c] * gap.counterexample[t] == 2
    part = covers([Region.of(t >= 1, t <= 2), Region.of(t >= 2, c <= Q(1, 6))], domain)
    assert part.truth is Truth.FALSE
    ce = part.counterexample
    assert ce[t] > 2 and Q(1, 6) < ce[c] <= Q(1, 3)


def test_min_and_piecewise_are_split_into_cases():
    xi = sympy.Min((t - 1) / (t * (1 - 3 * c) + 1), 1)
    d = decide_formula(Implies(3 * c * t >= 2, sympy.Eq(xi, 1)), Region.of(t >= 1, c <= Q(1, 3)))
    assert d.truth is Truth.TRUE
    d = decide_formula(Implies(3 * c * t >= 1, sympy.Eq(xi, 1)), Region.of(t >= 1, c <= Q(1, 3)))
    assert d.truth is Truth.FALSE and 1 <= 3 * d.counterexample[c] * d.counterexample[t] < 2


def test_irrational_coefficients_and_transcendental_terms_are_unknown():
    assert decide_formula(x + y <= sympy.sqrt(2), BOX).truth is Truth.UNKNOWN
    assert decide_formula(sympy.exp(x) >= x + 1, BOX).truth is Truth.UNKNOWN


def _random_atom(rng):
    coeffs = {m: rng.randint(-2, 2) for m in (1, x, y, x * y, x**2, y**2)}
    p = sum(k * m for m, k in coeffs.items())
    if not p.free_symbols:
        p += x
    return rng.choice([p > 0, p >= 0, p < 0, p <= 0])


def _random_formula(rng, depth=2):
    if depth == 0 or rng.random() < 0.3:
        return _random_atom(rng)
    op = rng.choice([And, Or, Not])
    if op is Not:
        return Not(_random_formula(rng, depth - 1))
    return op(_random_formula(rng, depth - 1), _random_formula(rng, depth - 1))


@pytest.mark.parametrize("seed", range(40))
def test_random_formulas_against_grid_brute_force(seed):
    rng = random.Random(seed)
    formula = _random_formula(rng)
    if formula in (sympy.true, sympy.false):
        return
    d = decide_formula(formula, BOX)
    assert d.truth is not Truth.UNKNOWN, d  # two parameters, polynomial atoms: always decided
    _check_against_grid(formula, d)
    grid_fails = any(not _holds(formula, {x: a, y: b}) for a, b in itertools.product(GRID, GRID))
    if grid_fails:  # a failure on the grid is a failure: the decision must not say TRUE (nor UNKNOWN)
        assert d.truth is Truth.FALSE, (formula, d)


@pytest.mark.parametrize("seed", range(12))
def test_single_inequalities_agree_with_the_sector_route_of_decide(seed):
    """Two implementations, one answer: the prover's two-parameter sector route and the cell route."""
    rng = random.Random(1000 + seed)
    atom = _random_atom(rng)
    region = Region.of(x >= -2, x <= 2, y >= -2, y <= 2, _random_atom(rng))
    a = decide(atom, region).truth
    b = decide_formula(atom, region).truth
    assert b is not Truth.UNKNOWN
    assert a is Truth.UNKNOWN or a is b, (atom, region, a, b)
