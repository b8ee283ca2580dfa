"""recheck's own cylindrical decomposition (:mod:`exactdp.recheck_cad`): exact signs at points with real
algebraic coordinates, integer sample points, and statements false at a single irrational point."""

from __future__ import annotations

from fractions import Fraction

import pytest
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


def _decided(claim, conditions):
    from exactdp.recheck import Recheck, decide

    r = Recheck("test", "symbolic-statements")
    decide(claim, conditions, r, "claim")
    return r


w, z = sympy.symbols("w z", real=True)
BOX = [w >= 0, x >= 0, y >= 0, z >= 0, w <= 1, x <= 1, y <= 1, z <= 1]


def test_a_sum_of_squares_in_four_variables_is_found_zero_at_its_one_point():
    e = (w - sympy.Rational(1, 7)) ** 2 + (x - sympy.Rational(2, 9)) ** 2 + y**2 + (z - 1) ** 2
    assert find_point(lambda p: sign_at(e, p) <= 0, [e], [w, x, y, z]) == {
        w: Fraction(1, 7), x: Fraction(2, 9), y: Fraction(0), z: Fraction(1)}


@pytest.mark.slow
def test_four_parameters_are_decided_exactly_when_well_oriented():
    """wxyz <= 1 on the unit box holds (every cell of the decomposition sampled); wx + yz <= 19/10 fails near the
    corner (1, 1, 1, 1), at a point off any grid of the box's simple fractions."""
    from exactdp.recheck import OK, REJECTED

    assert _decided(w * x * y * z <= 1, BOX).status == OK
    r = _decided(w * x + y * z <= sympy.Rational(19, 10), BOX)
    assert r.status == REJECTED and "fails at" in r.reasons[0]


def test_a_set_that_is_not_well_oriented_is_refused_not_decided():
    """x z^2 + y (a factor of the third level) vanishes identically over x = y = 0: the lifting above that line
    is not covered by McCallum's theorem, so the decomposition refuses (UNDECIDED), never answers."""
    from exactdp.recheck_cad import Unsupported

    g = x * z**2 + y
    with pytest.raises(Unsupported, match="not well oriented"):
        find_point(lambda p: False, [g * w**2 + 1, g, w], [x, y, z, w])


def test_roots_and_exponentials_are_rewritten_exactly():
    """sqrt(xy) <= (x + y)/2 on x, y >= 0 holds (AM-GM); sqrt(x) <= x fails at x = 1/4; sqrt(x) >= 0 on x >= -1 is
    undefined at x = -1 (REJECTED, the root's argument is negative there); e^(2 eps) >= e^eps holds for eps >= 0
    and e^(eps/2) <= e^eps fails for eps <= 0 (at e^(eps/2) = 1/2); e^eps >= 1 + eps is outside the fragment."""
    from exactdp.recheck import OK, REJECTED, UNDECIDED

    eps = sympy.Symbol("eps", real=True)
    assert _decided(sympy.sqrt(x * y) <= (x + y) / 2, [x >= 0, y >= 0]).status == OK
    r = _decided(sympy.sqrt(x) <= x, [x >= 0])
    assert r.status == REJECTED and "x = 1/4" in r.reasons[0]
    r = _decided(sympy.sqrt(x) >= 0, [x >= -1])
    assert r.status == REJECTED and "x = -1" in r.reasons[0]
    assert _decided(sympy.exp(2 * eps) >= sympy.exp(eps), [eps >= 0]).status == OK
    r = _decided(sympy.exp(eps / 2) <= sympy.exp(eps), [-eps >= 0])
    assert r.status == REJECTED and "= 1/2" in r.reasons[0]
    assert _decided(sympy.exp(eps) >= 1 + eps, [eps >= 0]).status == UNDECIDED
