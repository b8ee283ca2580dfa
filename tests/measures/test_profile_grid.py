"""The certified privacy profile on a grid of ε (exactdp/measures/profile_grid.py) against the exact profile at small
n: every interval contains the exact δ_n(e^ε) — the whole enumerated profile (``privacy_profile_tensor_power``) at
rational e^ε, the exact A − B·e^ε (``delta_tensor_power_eps``) at irrational e^ε, decided by certified comparisons."""

from __future__ import annotations

import pytest
import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.measures.profile_grid import certified_profile
from exactdp.measures.tensor import delta_tensor_power_eps, eta_hockey_stick_tensor_product
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.rb import RB

ASYM = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
K23 = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
RR = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
GRID = ["0", "1/3", "log(2)", "1", "log(5)/2", "2"]


def _inside(lo: fmpq, exact: sympy.Expr, hi: fmpq) -> bool:
    """lo ≤ exact ≤ hi for an exact real, by certified ball comparisons (exact when the value is rational)."""
    a = RB(exact - qq_to_sympy(lo), "lo").compare_rational(fmpq(0))
    b = RB(qq_to_sympy(hi) - exact, "hi").compare_rational(fmpq(0))
    assert a is not None and b is not None
    return a.value >= 0 and b.value >= 0


@pytest.mark.parametrize("K, n", [(ASYM, 9), (K23, 6), (RR, 12)])
def test_grid_points_contain_the_exact_profile(K, n):
    pr = certified_profile((K, n), GRID)
    assert [str(p.epsilon) for p in pr.points] == ["0", "1/3", "log(2)", "log(5)/2", "1", "2"]  # sorted by ε
    for p in pr.points:
        exact = delta_tensor_power_eps(K, n, p.epsilon)
        assert _inside(p.lower, exact, p.upper)
        if p.gamma_lo == p.gamma_hi:  # e^ε rational (ε = 0, log 2): the search at the grid point is exact here
            assert p.exact and qq_to_sympy(p.lower) == exact
        assert p.gamma_lo <= p.gamma_hi and p.upper - p.lower <= fmpq(1, 10**30) * max(p.upper, fmpq(1))


@pytest.mark.parametrize("K, n", [(ASYM, 9), (K23, 6)])
def test_bounds_between_grid_points_contain_the_exact_profile(K, n):
    pr = certified_profile((K, n), GRID)
    for eps in ["1/10", "1/2", "3/4", "log(3)", "3/2", "19/10"]:
        lo, hi = pr.bounds(eps)
        assert lo <= hi
        assert _inside(lo, delta_tensor_power_eps(K, n, sympy.Rational(eps) if "log" not in eps else sympy.log(3)), hi)


@pytest.mark.parametrize("K, n", [(ASYM, 9), (K23, 6)])
def test_pieces_contain_the_exact_profile_between_grid_points(K, n):
    pr = certified_profile((K, n), GRID)
    pieces = pr.pieces()
    assert [(str(c.eps_lo), str(c.eps_hi)) for c in pieces] == list(zip(
        ["0", "1/3", "log(2)", "log(5)/2", "1"], ["1/3", "log(2)", "log(5)/2", "1", "2"]))
    for c, eps in zip(pieces, ["1/10", "1/2", "3/4", "9/10", "3/2"]):  # one ε inside each piece
        e = sympy.Rational(eps)
        upper = qq_to_sympy(c.a) - qq_to_sympy(c.b) * sympy.exp(e)  # the piece's upper bound at e^ε, exact
        assert c.b >= 0 and _inside(c.lower, delta_tensor_power_eps(K, n, e), fmpq(1))
        d = RB(upper - delta_tensor_power_eps(K, n, e), "chord").compare_rational(fmpq(0))
        assert d is not None and d.value >= 0
    # the chord is no weaker than the constant upper bound of its left grid point at that point's gamma_lo
    for c, p in zip(pieces, pr.points):
        assert c.a - c.b * p.gamma_lo <= p.upper


def test_product_of_two_kernels_on_a_grid():
    factors = [(RR, 2), (K23, 2)]
    pr = certified_profile(factors, ["0", "log(2)", "log(6)"])
    for p, g in zip(pr.points, (1, 2, 6)):
        assert p.exact and p.lower == eta_hockey_stick_tensor_product(factors, g)


def test_bad_grid_is_refused():
    with pytest.raises(ParameterError, match="eps"):
        certified_profile((ASYM, 3), ["-1"])
    with pytest.raises(ParameterError, match="eps_values"):
        certified_profile((ASYM, 3), [])
    pr = certified_profile((ASYM, 3), ["1/2", "1"])
    with pytest.raises(ParameterError, match="outside the grid"):
        pr.bounds("2")
