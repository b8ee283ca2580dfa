"""The estimation functions and the bounds registry (exactdp.bounds) state the same formulas:
evaluated at the same exact point they agree.  Skipped until the registry is merged into this tree."""

from __future__ import annotations

import pytest
import sympy

from exactdp.formulas import phi_n, xi
from exactdp.theory.estimation import (
    SPECS,
    chernoff_stein_bound,
    fano,
    grosse_example3_minimax,
    grosse_kl_bound,
    le_cam_kl,
    le_cam_tv,
    mean_estimation_as_reported,
    mean_estimation_tv_route,
    mi_upper_bound,
)

bounds = pytest.importorskip("exactdp.bounds")


def _registry_value(name, **values):
    b = bounds.REGISTRY[name]
    subs = {getattr(bounds, k): sympy.sympify(v) for k, v in values.items()}
    return sympy.simplify(b.expr.subs(subs))


def test_names_exist_in_registry():
    for spec in SPECS.values():
        if spec.registry:
            assert spec.registry in bounds.REGISTRY, spec.registry


def test_same_values():
    pt = {"t": 3, "delta": sympy.Rational(1, 10), "n": 2}
    assert sympy.simplify(_registry_value("phi", t=3, delta=sympy.Rational(1, 10))
                          - sympy.sympify(str(phi_n(3, "1/10")))) == 0
    assert sympy.simplify(_registry_value("lecam_private_tv", Phi=1, TV=sympy.Rational(1, 4), **pt)
                          - sympy.sympify(str(le_cam_tv(1, "1/4", 2, 3, "1/10").value))) == 0
    kl_reg = _registry_value("lecam_private_kl", Phi=1, I=sympy.Rational(3, 8), **pt)
    assert sympy.simplify(sympy.Max(0, kl_reg) - sympy.sympify(le_cam_kl(1, "3/8", 2, 3, "1/10").value)) == 0
    f_reg = _registry_value("fano_private", Phi=1, I=sympy.log(2), V=8, **pt)
    assert sympy.simplify(f_reg - fano(1, sympy.log(2), 8, 2, 3, "1/10").value) == 0
    mi = _registry_value("mutual_information_ldp", t=3, delta=sympy.Rational(1, 10), I=sympy.log(2))
    assert sympy.simplify(mi - mi_upper_bound(3, "1/10", ["1/2", "1/2"]).value) == 0


def test_estimation_block_of_the_registry():
    """The four bounds issue 8 added to the registry agree with the estimation functions."""
    pt = {"t": 3, "delta": sympy.Rational(1, 10), "n": 4}
    cs = _registry_value("chernoff_stein_private", alpha=sympy.Rational(1, 10), I=sympy.Rational(1, 2), **pt)
    assert sympy.simplify(cs - chernoff_stein_bound("1/10", 4, 3, "1/10", "1/2").value) == 0
    for k in (2, 3):
        rep = _registry_value("mean_estimation_reported", k=k, **pt)
        assert sympy.simplify(rep - sympy.sympify(str(mean_estimation_as_reported(4, 3, "1/10", k).value))) == 0
        tvr = _registry_value("mean_estimation_tv_route", k=k, **pt)
        assert sympy.simplify(tvr - sympy.sympify(str(mean_estimation_tv_route(4, 3, "1/10", k).value))) == 0
    ex3 = _registry_value("grosse_example3_minimax", Phi=1, N=4, c=sympy.Rational(1, 8), TV=sympy.Rational(1, 4),
                          t=3, n=2)
    assert sympy.simplify(ex3 - grosse_example3_minimax(1, 2, 3, "1/8", "1/4").value) == 0
    assert sympy.simplify(_registry_value("xi", t=3, c=sympy.Rational(1, 8), N=4) - sympy.sympify(str(xi(3, "1/8", 4)))) == 0
    kl_reg = _registry_value("grosse_cor1_kl", t=3, c=sympy.Rational(1, 8), N=4)
    assert sympy.simplify(kl_reg - grosse_kl_bound(3, "1/8", 1).value) == 0
