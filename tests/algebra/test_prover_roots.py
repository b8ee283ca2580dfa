"""Exact real root isolation (Sturm sequences over Q) used by the prover."""

import sympy
from flint import fmpq, fmpq_poly

from exactdp.algebra.algebraic import count_roots, real_roots, sample_points, sturm_sequence


def poly(*coeffs_low_first):
    return fmpq_poly([fmpq(c) for c in coeffs_low_first])


def test_sturm_counts_roots_of_x2_minus_2():
    p = poly(-2, 0, 1)
    seq = sturm_sequence(p)
    assert count_roots(seq, None, None) == 2
    assert count_roots(seq, fmpq(0), None) == 1
    assert count_roots(seq, fmpq(3, 2), fmpq(2)) == 0


def test_real_roots_exact_values_and_order():
    # (x^2 - 2)(x - 1)(x^5 + x^3 - 1): roots -sqrt 2 < CRootOf(...) < 1 < sqrt 2
    p = poly(-2, 0, 1) * poly(-1, 1) * poly(-1, 0, 0, 1, 0, 1)
    roots = real_roots(p)
    values = [r.as_sympy() for r in roots]
    assert values[0] == -sympy.sqrt(2)
    assert values[2] == 1 and values[3] == sympy.sqrt(2)
    x = sympy.Symbol("x")
    assert values[1] == sympy.CRootOf(x**5 + x**3 - 1, 0)


def test_real_roots_respects_open_and_closed_ends():
    p = poly(-1, 1) * poly(-3, 1)  # roots 1 and 3
    assert [r.as_sympy() for r in real_roots(p, fmpq(1), fmpq(3))] == []
    assert [r.as_sympy() for r in real_roots(p, fmpq(1), fmpq(3), lo_open=False, hi_open=False)] == [1, 3]


def test_sign_of_polynomial_at_algebraic_root():
    (r,) = real_roots(poly(-2, 0, 1), fmpq(0), None)
    assert r.sign_of(poly(-2, 0, 1)) == 0  # x^2 - 2 at sqrt 2
    assert r.sign_of(poly(-3, 0, 1)) == -1  # 2 - 3
    assert r.sign_of(poly(-1, 0, 1)) == 1
    assert r.sign_of(poly(fmpq(-141421356, 100000000), 1)) == 1  # sqrt 2 > 1.41421356
    assert r.sign_of(poly(fmpq(-141421357, 100000000), 1)) == -1


def test_sample_points_fall_strictly_inside_each_cell():
    roots = real_roots(poly(-2, 0, 1) * poly(0, 1), fmpq(-2), fmpq(2))
    pts = sample_points(roots, fmpq(-2), fmpq(2))
    assert len(pts) == 4
    vals = [-sympy.sqrt(2), 0, sympy.sqrt(2)]
    edges = [-2] + vals + [2]
    for p, lo, hi in zip(pts, edges, edges[1:]):
        x = sympy.Rational(int(p.p), int(p.q))
        assert bool(lo < x) and bool(x < hi)
