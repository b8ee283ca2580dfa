"""Exact arithmetic in Q(alpha) and roots of polynomials over it (exactdp.algebra.number_field): the lifting
step over an algebraic sample point, against closed forms."""

import pytest
import sympy
from flint import fmpq, fmpq_poly

from exactdp.algebra.algebraic import real_roots
from exactdp.algebra.number_field import NumberField

a, x = sympy.symbols("a x", real=True)


def _root(coeffs_low_first, k):
    return real_roots(fmpq_poly(coeffs_low_first))[k]


SQRT2 = lambda: _root([-2, 0, 1], 1)  # noqa: E731
SQRT3 = lambda: _root([-3, 0, 1], 1)  # noqa: E731


def test_signs_of_field_elements_are_exact():
    K = NumberField(SQRT2())
    assert K.sign(fmpq_poly([-1, 1])) == 1                       # sqrt2 - 1 > 0
    assert K.sign(fmpq_poly([fmpq(-1414214, 1000000), 1])) == -1  # sqrt2 - 1.414214 < 0
    assert K.sign(fmpq_poly([-2, 0, 1])) == 0                     # alpha^2 - 2 = 0 exactly
    inv = K.inverse(fmpq_poly([1, 1]))                            # 1/(1 + sqrt2) = sqrt2 - 1
    assert K.reduce(inv - fmpq_poly([-1, 1])).is_zero()


def test_roots_over_sqrt2_are_the_closed_forms():
    K = NumberField(SQRT2())
    roots = K.real_roots(x**2 - 2 * a * x - 1, a, x)  # x = sqrt2 -+ sqrt3
    got = [r.as_sympy() for r in roots]
    expected = [sympy.sqrt(2) - sympy.sqrt(3), sympy.sqrt(2) + sympy.sqrt(3)]
    assert len(got) == 2 and all(sympy.minimal_polynomial(g - e, x) == x for g, e in zip(got, expected))
    assert all(sympy.simplify(g**2 - 2 * sympy.sqrt(2) * g - 1) == 0 for g in got)
    # a conjugate's root is not a root over sqrt2: x = -sqrt2 solves x^2 + 2 a x + 2 = 0 only for a = sqrt2
    assert [r.as_sympy() for r in K.real_roots(x**2 + 2 * a * x + 2, a, x)] == [-sympy.sqrt(2)]
    assert K.real_roots(x**2 - a * x + 1, a, x) == []  # discriminant 2 - 4 < 0


@pytest.mark.parametrize("f, sign", [
    (a * x - 1, 1),                 # sqrt6 - 1
    (a + x - sympy.Rational(3146, 1000), 1),   # sqrt2 + sqrt3 = 3.14626...
    (a + x - sympy.Rational(3147, 1000), -1),
    (x**2 - a**2 - 1, 0),          # 3 - 2 - 1
    (a**2 * x**2 - 6, 0),
    ((a * x) ** 2 - 6 * a + 2 * x, 1),   # 6 - 6 sqrt2 + 2 sqrt3 = 0.9788...
    ((a * x) ** 2 - 7 * a + 2 * x, -1),  # 6 - 7 sqrt2 + 2 sqrt3 = -0.4354...
])
def test_signs_at_two_algebraic_coordinates(f, sign):
    K = NumberField(SQRT2())
    assert K.sign_at(f, a, x, SQRT3()) == sign
    exact = f.subs({a: sympy.sqrt(2), x: sympy.sqrt(3)})
    assert (sympy.sign(sympy.nsimplify(sympy.expand(exact))) if sign else sympy.expand(exact)) == sign


def test_primitive_element_of_sqrt2_and_sqrt3():
    from exactdp.algebra.number_field import primitive_element

    theta, A, B = primitive_element(SQRT2(), SQRT3())
    assert list(theta.poly.coeffs()) == [1, 0, -10, 0, 1]  # minimal polynomial of sqrt2 + sqrt3
    K = NumberField(theta)
    assert K.sign(A * A - 2) == 0 and K.sign(B * B - 3) == 0 and K.sign(A) == 1 and K.sign(B) == 1


def test_primitive_element_of_conjugates_needs_a_second_multiplier():
    """alpha = sqrt2, beta = -sqrt2: theta = beta + alpha = 0 does not generate Q(sqrt2); k = 2 does."""
    from exactdp.algebra.number_field import primitive_element

    theta, A, B = primitive_element(SQRT2(), _root([-2, 0, 1], 0))
    K = NumberField(theta)
    assert K.sign(A * A - 2) == 0 and K.sign(A) == 1 and K.sign(B + A) == 0
