"""recheck's own cylindrical decomposition (:mod:`exactdp.recheck_cad`): exact signs at points with real
algebraic coordinates, integer sample points, and statements false at a single irrational point."""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactdp.recheck_cad import Root, find_point, real_roots, samples, sign_at

x, y = sympy.symbols("x y", real=True)
N = sympy.Symbol("N", integer=True)


def _root(expr, k):
    """The k-th real root (from the left) of the irreducible ``expr`` in x."""
    return [r for r in real_roots([sympy.Poly(expr, x)], x) if isinstance(r, Root)][k]


def test_signs_at_two_algebraic_coordinates():
    """At (sqrt 2, sqrt 3): xy - 2 > 0, xy - 49/20 < 0 (sqrt 6 = 2.4494...), x^2 y^2 - 6 = 0 (decided by the norm's
    root-separation radius, not by interval width alone), x + y - 22/7 > 0 (3.1462... > 3.1428...)."""
    point = {x: _root(x**2 - 2, 1), y: _root(x**2 - 3, 1)}
    assert sign_at(x * y - 2, point) == 1
    assert sign_at(x * y - sympy.Rational(49, 20), point) == -1
    assert sign_at(x**2 * y**2 - 6, point) == 0
    assert sign_at((x + y) ** 2 - 5 - 2 * x * y, point) == 0
    assert sign_at(x + y - sympy.Rational(22, 7), point) == 1
    assert sign_at(x - 1, {x: _root(x**2 - 2, 0)}) == -1  # -sqrt 2


def test_integer_samples_take_one_integer_per_cell_that_has_one():
    sqrt10 = _root(x**2 - 10, 1)
    assert samples([Fraction(5, 2), sqrt10], integer=True) == [2, 3, 4]
    assert samples([Fraction(7, 3), Fraction(5, 2)], integer=True) == [2, 3]  # (7/3, 5/2) holds no integer
    assert samples([Fraction(2), Fraction(5)], integer=True) == [1, 2, 3, 5, 6]


def test_a_polynomial_positive_except_at_one_irrational_point_is_found():
    e = (x**2 - 2) ** 2 + (y - x) ** 2  # zero only at x = y = +-sqrt 2
    point = find_point(lambda p: sign_at(e, p) <= 0, [e], [x, y])
    assert point is not None and all(isinstance(v, Root) for v in point.values())
    assert sign_at(x**2 - 2, point) == 0 and sign_at(y - x, point) == 0
    assert find_point(lambda p: sign_at(e + 1, p) <= 0, [e + 1], [x, y]) is None


def test_an_integer_bottom_variable_is_decided_at_integers():
    """(2N - 9)^2 > 0 holds at every integer N (its real zero 9/2 is none); (N - 9)^2 > 0 fails at N = 9."""
    assert find_point(lambda p: sign_at((2 * N - 9) ** 2, p) <= 0, [(2 * N - 9) ** 2], [N], integer=True) is None
    assert find_point(lambda p: sign_at((N - 9) ** 2, p) <= 0, [(N - 9) ** 2], [N], integer=True) == {N: 9}
