"""Random parametric kernels: every closed form agrees with the rational computation at rational points.

Rows are normalized positive linear forms in t ((α_j + β_j t)/Σ_k(α_k + β_k t), α, β ≥ 0 integers),
so the kernel is valid for every t > 0; closed forms are evaluated at t ∈ {1/3, 1, 2, 7/2, 10}."""

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Kernel, eta_hockey_stick, eta_tv, ldp_ratio, pml_ratio
from exactdp.numbers.sr import as_sympy

t = sympy.Symbol("t", positive=True)
R = sympy.Rational
POINTS = (R(1, 3), R(1), R(2), R(7, 2), R(10))


def _rows(spec):
    rows = []
    for forms in spec:
        total = sum(a + b * t for a, b in forms)
        rows.append([sympy.cancel((a + b * t) / total) for a, b in forms])
    return rows


def value_at(expr, v):
    return sympy.piecewise_fold(sympy.sympify(as_sympy(expr)).subs(t, v))


linear = st.tuples(st.integers(1, 4), st.integers(0, 3))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(2, 3).flatmap(lambda M: st.lists(st.lists(linear, min_size=M, max_size=M),
                                                    min_size=2, max_size=2)))
def test_closed_forms_match_rational_values(spec):
    K = Kernel(_rows(spec))
    closed = {"eta_tv": eta_tv(K), "eta_2": eta_hockey_stick(K, 2), "ldp": ldp_ratio(K),
              "pml": pml_ratio(K, R(1, 4) if K.N <= 4 else R(1, K.N))}
    for v in POINTS:
        Kq = K.subs({t: v})
        assert value_at(closed["eta_tv"], v) == as_sympy(eta_tv(Kq))
        assert value_at(closed["eta_2"], v) == as_sympy(eta_hockey_stick(Kq, 2))
        assert value_at(closed["ldp"], v) == as_sympy(ldp_ratio(Kq))
        assert value_at(closed["pml"], v) == as_sympy(pml_ratio(Kq, R(1, 4)))
