"""A Max of Mins against a bound is decided as the Boolean formula it is (exactdp.algebra.prover.minmax_formula):
"some region's conditions all hold" — the coverage of a domain by closed regions — in one cylindrical
decomposition instead of a case split with one conjunction per choice of the maximal argument."""

from __future__ import annotations

import itertools

import sympy

from exactdp.algebra.prover import Region, decide, minmax_formula
from exactdp.numbers.truth import Truth

x, y, z = sympy.symbols("x y z", real=True)
Max, Min, Or, And = sympy.Max, sympy.Min, sympy.Or, sympy.And


def test_the_formula_is_or_of_ands_and_its_mirror():
    rel = sympy.GreaterThan(Max(Min(x, y), Min(1 - x, z)), 0, evaluate=False)
    assert minmax_formula(rel) == Or(And(x >= 0, y >= 0), And(1 - x >= 0, z >= 0))
    mirrored = sympy.LessThan(0, Max(Min(x, y), Min(1 - x, z)), evaluate=False)
    assert minmax_formula(mirrored) == minmax_formula(rel)
    below = sympy.StrictLessThan(Max(Min(x, y), z), 2, evaluate=False)  # a Max below a bound: every argument
    assert minmax_formula(below) == And(Or(x < 2, y < 2), z < 2)


def test_only_nested_trees_of_both_kinds_against_a_plain_bound_are_rewritten():
    for rel in (sympy.GreaterThan(Max(x, y), 0, evaluate=False),  # one kind: the case split is small
                sympy.GreaterThan(Max(Min(x, y), z) + 1, 0, evaluate=False),  # not at the top
                sympy.GreaterThan(Max(Min(x, y), z), Min(x, 1), evaluate=False),  # a Min in the bound
                sympy.GreaterThan(Max(Min(x, y) * 2, z), 0, evaluate=False),  # a Min inside a product
                sympy.Eq(Max(Min(x, y), z), 0)):
        assert minmax_formula(rel) is None, rel


def test_a_cover_of_the_unit_cube_by_three_closed_regions_is_true_and_a_gap_is_an_exact_point():
    """{x + y <= 1}, {x + y >= 1, z <= 1/2} and {z >= 1/2, x + y >= 1} cover the cube [0, 1]^3; with
    {z >= 1/2, x*y >= 1/4} as the third they leave a gap, e.g. (1/8, 1, 1): x + y > 1, z > 1/2, x*y = 1/8."""
    cube = Region.of(x >= 0, x <= 1, y >= 0, y <= 1, z >= 0, z <= 1)
    first, second = Min(1 - x - y), Min(x + y - 1, sympy.Rational(1, 2) - z)
    covered = sympy.GreaterThan(Max(first, second, Min(z - sympy.Rational(1, 2), x + y - 1)), 0, evaluate=False)
    d = decide(covered, cube)
    assert d.truth is Truth.TRUE
    gap = sympy.GreaterThan(Max(first, second, Min(z - sympy.Rational(1, 2), x * y - sympy.Rational(1, 4))), 0,
                            evaluate=False)
    d = decide(gap, cube)
    assert d.truth is Truth.FALSE
    p = d.counterexample
    assert all(0 <= p[v] <= 1 for v in (x, y, z))
    # the point is in no region: checked exactly, condition by condition
    assert p[x] + p[y] > 1 and p[z] > sympy.Rational(1, 2) and p[x] * p[y] < sympy.Rational(1, 4)


def test_the_decision_agrees_with_a_grid_in_two_parameters():
    """Or of Ands of linear and quadratic conditions on [-2, 2]^2: TRUE only if it holds at every grid point (quarters),
    and a FALSE answer's counterexample fails the statement."""
    box = Region.of(x >= -2, x <= 2, y >= -2, y <= 2)
    grid = [sympy.Rational(k, 4) for k in range(-8, 9)]
    cases = [Max(Min(x - y, x + y), Min(y - x, 1 - x * x), Min(x * y + 1, -x)),
             Max(Min(x, y), Min(-x, -y), Min(x * y, 1)),
             Max(Min(x, y), Min(-x, -y))]
    for e in cases:
        d = decide(sympy.GreaterThan(e, 0, evaluate=False), box)
        fails = [(a, b) for a, b in itertools.product(grid, grid) if e.xreplace({x: a, y: b}) < 0]
        if d.truth is Truth.TRUE:
            assert not fails, e
        else:
            assert d.truth is Truth.FALSE, e
            assert e.xreplace(d.counterexample) < 0
