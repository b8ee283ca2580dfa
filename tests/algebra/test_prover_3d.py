"""Three-parameter decisions (projection and lifting, exactdp.algebra.cylindrical / boolean), against
brute-force sign evaluation on rational grids and known statements of [G] with symbolic N."""

import itertools
import random

import pytest
import sympy

from exactdp import Truth
from exactdp.algebra.boolean import And, Implies, Or, decide_formula
from exactdp.algebra.prover import Region, decide
from exactdp.bounds import N, c, delta, gamma_max_exact, gamma_max_first, gamma_max_l4, phi, t, xi_raw

x, y, z = sympy.symbols("x y z", real=True)
Q = sympy.Rational
BOX = (x >= -1, x <= 1, y >= -1, y <= 1, z >= -1, z <= 1)  # the first four: x, y in [-1, 1]
GRID = [Q(k, 3) for k in range(-3, 4)]
DOMAIN = (t >= 1, N >= 2, N * c <= 1)  # [G]'s (eps, c)-PML domain with N real >= 2


def _holds(rel, point) -> bool:
    v = rel.subs(point)
    assert v in (sympy.true, sympy.false), (rel, point, v)
    return v is sympy.true


def _in_region(region_conds, point) -> bool:
    return all(_holds(r, point) for r in region_conds)


@pytest.mark.parametrize("rel, extra, truth", [
    (xi_raw <= 1, (N * c * t <= 2,), Truth.TRUE),                      # threshold of Thm 2, all N
    (xi_raw > 1, (N * c * t > 2,), Truth.TRUE),
    (xi_raw <= 1, (N * c * t <= 3,), Truth.FALSE),
    (xi_raw <= phi.subs(delta, 0), (N * c * t <= 1,), Truth.TRUE),
    (xi_raw < phi.subs(delta, 0), (N * c * t <= 1,), Truth.FALSE),    # equality on N c t = 1
    (sympy.diff(xi_raw, c) >= 0, (N * c * t <= 2,), Truth.TRUE),
    (gamma_max_exact <= gamma_max_l4, (t * c <= 1,), Truth.TRUE),      # Lemma 4 vs the exact Gamma (G-23)
    (gamma_max_first < gamma_max_l4, (t * c <= 1, (N - 1) * c * t < 1), Truth.FALSE),  # c = 1/N: equal
    (gamma_max_first < gamma_max_l4, (t * c <= 1, (N - 1) * c * t < 1, N * c < 1), Truth.TRUE),
])
def test_grosse_statements_with_symbolic_n(rel, extra, truth):
    conds = DOMAIN + extra
    d = decide(rel, Region.of(*conds, variables=(t, c, N)))
    assert d.truth is truth, d
    if truth is Truth.FALSE:
        ce = d.counterexample
        assert _in_region(conds, ce) and not _holds(rel, ce), ce


def test_four_parameters_are_decided():
    """The sum of four coordinates of [-1, 1]^4 is >= -4, with equality only at the corner (-1, -1, -1, -1)."""
    w = sympy.Symbol("w", real=True)
    assert decide_formula(x + y + z + w >= -4, Region.of(*BOX, w >= -1, w <= 1)).truth is Truth.TRUE
    d = decide_formula(x + y + z + w > -4, Region.of(*BOX, w >= -1, w <= 1))
    assert d.truth is Truth.FALSE and d.counterexample == {x: -1, y: -1, z: -1, w: -1}


def _random_poly(rng):
    monomials = [1, x, y, z, x * y, y * z, x * z, x**2, y**2, z**2]
    p = sum(rng.randint(-2, 2) * m for m in rng.sample(monomials, 4))
    return p if len(p.free_symbols) == 3 else p + x * y * z


def _grid_points():
    return [{x: a, y: b, z: e} for a, b, e in itertools.product(GRID, GRID, GRID)]


def _check(rel, cond, d):
    """TRUE: no grid point of the region fails; FALSE: the counterexample is exact; a grid failure forces FALSE."""
    pts = [pt for pt in _grid_points() if _in_region(cond, pt)]
    fails = [pt for pt in pts if not _holds(rel, pt)]
    if d.truth is Truth.TRUE:
        assert not fails, (rel, cond, fails[:3])
    elif d.truth is Truth.FALSE:
        ce = d.counterexample
        assert _in_region(BOX + cond, ce) and not _holds(rel, ce), (rel, cond, ce)
    else:
        assert d.reason
    if fails:
        assert d.truth is Truth.FALSE, (rel, cond, d)
    return fails


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s in (1, 11, 13) else s
                                  for s in range(16) if s != 7])  # the marked ones take 3-5 s each, 7 about 15 s
def test_random_three_variable_lower_bounds_against_grid(seed):
    """p >= (grid minimum of p) - k/4: TRUE near the true minimum, FALSE below it (checked exactly)."""
    rng = random.Random(seed)
    p, g = _random_poly(rng), _random_poly(rng)
    cond = (g > 0,) if seed % 2 else ()
    pts = [pt for pt in _grid_points() if _in_region(cond, pt)]
    if not pts:
        return
    m = min(p.subs(pt) for pt in pts)
    rel = p >= m - Q(seed % 3, 4)
    d = decide_formula(rel, Region.of(*BOX, *cond, variables=(x, y, z)))
    _check(rel, cond, d)
    if seed % 3 == 0 and not cond:
        assert d.truth is not Truth.UNKNOWN  # a closed claim on the closed box is always decided


@pytest.mark.slow
@pytest.mark.parametrize("seed", [s for s in range(12) if s not in (1, 4)])  # 1 and 4 take 10-30 s each
def test_random_three_variable_formulas_against_grid(seed):
    rng = random.Random(seed)
    p, g = _random_poly(rng), _random_poly(rng)
    rel = rng.choice([p >= 0, p > 0, p <= 1, Or(p >= 0, g > 0), And(p > -3, g <= 3)])
    cond = (g >= 0,) if seed % 3 == 0 else (g > -1,) if seed % 3 == 1 else ()
    _check(rel, cond, decide_formula(rel, Region.of(*BOX, *cond, variables=(x, y, z))))


def test_formula_with_a_strict_atom_needs_the_full_lifting():
    """x^2 + y^2 <= 2z => xy <= z (AM-GM): the implication has a strict atom in negation normal form, so it
    is decided on every cell, including those over two algebraic coordinates (lifted in Q(theta))."""
    box = Region.of(*BOX[:4], z >= -2, z <= 2)
    assert decide_formula(Implies(x**2 + y**2 <= 2 * z, x * y <= z), box).truth is Truth.TRUE
    d = decide_formula(Implies(x**2 + y**2 <= 2 * z, x * y < z), box)  # equality at x = y = z = 0 (and x = y = z = 1)
    assert d.truth is Truth.FALSE and d.counterexample[x] * d.counterexample[y] == d.counterexample[z]


@pytest.mark.slow
def test_sphere_and_product():
    """On the ball of radius sqrt 3, xyz <= 1 with equality at (1, 1, 1) and its sign changes."""
    box = Region.of(*BOX[:4], z >= -2, z <= 2)
    assert decide_formula(Implies(x**2 + y**2 + z**2 <= 3, x * y * z <= 1), box).truth is Truth.TRUE
    d = decide_formula(Implies(x**2 + y**2 + z**2 <= 3, x * y * z < 1), box)
    assert d.truth is Truth.FALSE and [abs(v) for v in d.counterexample.values()] == [1, 1, 1]
