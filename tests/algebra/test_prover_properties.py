"""Property tests of the prover: TRUE is never contradicted on a rational grid, every FALSE carries a
point that violates the claim, on random polynomial claims in one and two parameters."""

import itertools

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.numbers.truth import Truth
from exactdp.algebra.prover import Region, decide

x, y = sympy.symbols("x y", real=True)
R = sympy.Rational
coeff = st.integers(min_value=-4, max_value=4)


def _holds(expr, point, strict):
    v = expr.subs(point)
    return v > 0 if strict else v >= 0


@settings(max_examples=40, deadline=None)
@given(st.lists(coeff, min_size=1, max_size=5), st.booleans())
def test_univariate_claims_agree_with_a_rational_grid(cs, strict):
    P = sum(cf * x**k for k, cf in enumerate(cs))
    region = Region.of(x >= -2, x <= 3)
    D = decide(P > 0 if strict else P >= 0, region)
    grid = [R(k, 8) for k in range(-16, 25)]
    if D.truth is Truth.TRUE:
        assert all(_holds(P, {x: g}, strict) for g in grid)
    elif D.truth is Truth.FALSE:
        pt = D.counterexample
        assert -2 <= pt[x] <= 3
        assert not _holds(P, pt, strict)
    else:  # a polynomial claim in one parameter is always decided
        raise AssertionError(D.reason)


@settings(max_examples=25, deadline=None)
@given(st.lists(coeff, min_size=6, max_size=6))
def test_bivariate_claims_agree_with_a_rational_grid(cs):
    monos = [1, x, y, x * y, x**2, y**2]
    P = sum(cf * m for cf, m in zip(cs, monos))
    region = Region.of(x >= -1, x <= 2, y >= 0, y <= 2, x + y <= 3)
    D = decide(P >= 0, region)
    grid = [(R(a, 4), R(b, 4)) for a, b in itertools.product(range(-4, 9), range(9)) if R(a, 4) + R(b, 4) <= 3]
    if D.truth is Truth.TRUE:
        assert all(_holds(P, {x: a, y: b}, False) for a, b in grid)
    elif D.truth is Truth.FALSE:
        pt = D.counterexample
        vals = {k: v for k, v in pt.items()}
        assert vals[x] + vals[y] <= 3 and -1 <= vals[x] <= 2 and 0 <= vals[y] <= 2
        assert sympy.simplify(P.subs(vals)) < 0
