"""Exact suprema over privacy classes (exactdp.theory.extremal): claims.md §7 tables, closed forms, brute
force over grid kernels, and the paper constructions."""

import json

import pytest
import sympy
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import eta_tv, gamma_max, gamma_min, ldp_ratio, pml_ratio, sup_eta_hockey_stick, sup_eta_tv
from exactdp.errors import CoercionError, ParameterError
from exactdp.mechanisms import (
    grosse_integer_q,
    grosse_middle_row_mechanism,
    grosse_optimal_mechanism,
    grosse_pml_mechanism,
    optimal_binary_approx_ldp,
)
from exactdp.theory.extremal import (
    corollary_coefficients,
    corollary_limits_c0,
    gamma_max_closed_form,
    lemma4_bound,
    max_mass_with_zeros,
    merge_to_binary,
)
from exactdp.formulas import xi
from exactdp.verification.instances import grid_kernels, random_kernel

Q = fmpq

#: claims.md §7, "[G] Thm 1 by exact LP": (N, E, c, eta_TV(eps, c))
THM1_TABLE = [
    (2, "3", "1/4", "4/5"), (2, "2", "1/3", "3/5"), (3, "2", "1/4", "2/3"), (3, "5/2", "1/4", "12/13"),
    (3, "21/8", "1/4", "52/53"), (3, "66/25", "1/4", "82/83"), (3, "8/3", "1/4", "1"), (3, "3", "1/4", "1"),
    (3, "33/10", "1/5", "115/116"), (3, "10/3", "1/5", "1"), (4, "3/2", "1/8", "2/7"), (4, "3", "1/8", "4/5"),
    (4, "5", "1/8", "1"), (4, "3", "1/1000", "500/997"), (5, "2", "1/10", "1/2"), (5, "19/5", "1/10", "28/29"),
    (5, "99/25", "1/10", "148/149"), (5, "4", "1/10", "1"), (4, "6/5", "1/4", "1/5"), (3, "11/10", "1/3", "1/10"),
]

#: claims.md §7, "Exact Gamma_max": (N, E, c, exact, Lemma 4)
GAMMA_TABLE = [
    (2, "3", "1/4", "7/3", "5/2"), (3, "2", "1/10", "15/8", "12/5"), (4, "3/2", "1/8", "7/5", "7/4"),
    (4, "3", "1/8", "5/2", "5/2"), (5, "13/10", "1/20", "41/32", "79/40"),
]


@pytest.mark.parametrize("N,t,c,value", THM1_TABLE)
def test_thm1_table_lp_value_equals_xi(N, t, c, value):
    r = sup_eta_tv(N, t=t, c=c)
    assert str(r.value) == value
    assert r.value == xi(t, c, N)
    assert r.failures() == []  # certificates, value = max dual bound, kernel re-checked
    assert pml_ratio(r.kernel, c) <= Q(t)
    assert eta_tv(r.kernel) == r.value


@pytest.mark.parametrize("N,t,c,value", THM1_TABLE[::3])
@pytest.mark.parametrize("M", [3, 4])
def test_lemma3_more_outputs_do_not_help(N, t, c, value, M):
    r = sup_eta_tv(N, M, t=t, c=c)
    assert str(r.value) == value and r.kernel.M == M and r.failures() == []


@pytest.mark.parametrize("N,t,c,value", THM1_TABLE[1::4])
def test_row_reduction_gives_the_same_supremum(N, t, c, value):
    r = sup_eta_tv(N, 3, t=t, c=c, reduce_rows=True)
    assert str(r.value) == value and r.failures() == []


def test_brute_force_over_grid_kernels_never_beats_the_lp():
    """Independent route: every 2×2 and 3×2 kernel with entries k/10 in M(eps, c) has eta_TV <= LP value,
    and the grid attains it where the optimum lies on the grid (E = 3, c = 1/4: rows 9/10, 1/10)."""
    for N, t, c in ((2, Q(3), Q(1, 4)), (3, Q(2), Q(1, 4))):
        sup = sup_eta_tv(N, t=t, c=c).value
        best = max(eta_tv(K) for K in grid_kernels(N, 2, 10) if pml_ratio(K, c) <= t)
        assert best <= sup
        if N == 2:
            assert best == sup == Q(4, 5)


@pytest.mark.parametrize("t", ["1", "3/2", "3", "10"])
@pytest.mark.parametrize("delta", ["0", "1/100", "1/3", "1"])
def test_b4_tight_approximate_ldp_supremum(t, delta):
    t, d = Q(t), Q(delta)
    r = sup_eta_tv(3, 3, t=t, delta=d)
    assert r.value == (t - 1 + 2 * d) / (t + 1)
    assert r.failures() == []
    assert eta_tv(optimal_binary_approx_ldp(t, d)) == r.value
    phi = 1 - (1 - d) / t
    assert phi - r.value == (1 - d) * (t - 1) / (t * (t + 1))  # F-A2 gap


@pytest.mark.parametrize("t", ["1", "2", "7/2"])
def test_eps_ldp_is_the_c_zero_class(t):
    t = Q(t)
    a = sup_eta_tv(4, t=t, c=0)
    b = sup_eta_tv(4, t=t)
    assert a.value == b.value == (t - 1) / (t + 1)
    assert ldp_ratio(a.kernel) <= t and a.failures() == []


@pytest.mark.parametrize("gamma", ["1", "3/2", "2", "3", "4"])
def test_hockey_stick_supremum_under_ldp_is_zamanlooy_asoodeh(gamma):
    """sup over eps-LDP of eta_{E_gamma} = (t − gamma)_+/(t + 1) (B-7, E_gamma form; t = 3)."""
    g, t = Q(gamma), Q(3)
    for N, M in ((2, 2), (3, 3)):
        r = sup_eta_hockey_stick(N, M, gamma=g, t=t)
        assert r.value == max(t - g, Q(0)) / (t + 1) and r.failures() == []


@pytest.mark.parametrize("N,t,c,exact,lemma4", GAMMA_TABLE)
def test_gamma_max_table_and_closed_form(N, t, c, exact, lemma4):
    g, gm = gamma_max(N, t, c), gamma_min(N, t, c)
    assert str(g.value) == exact and g.value == gamma_max_closed_form(N, t, c)
    assert str(lemma4_bound(N, t, c)) == lemma4
    assert gm.value == 1 / g.value
    assert g.failures() == [] and gm.failures() == []
    assert gamma_max(N, t, c, M=3).value == g.value


def test_gamma_max_beyond_one_over_c_is_the_identity_ratio():
    # t > 1/c: every kernel is (eps, c)-PML, so Gamma_max = (1 − (N−1)c)/c (the identity kernel)
    assert gamma_max(3, 5, "1/4").value == Q(1 - 2 * Q(1, 4)) / Q(1, 4) == gamma_max_closed_form(3, 5, "1/4")


def test_lemma4_tight_iff_threshold():
    N, c = 4, Q(1, 8)  # threshold 1/((N−1)c) = 8/3
    for t in (Q(3, 2), Q(5, 2), Q(8, 3), Q(3), Q(8)):
        gap = lemma4_bound(N, t, c) - gamma_max(N, t, c).value
        assert (gap == 0) == (t >= Q(8, 3)) and gap >= 0


def test_corollary_limits_recover_zamanlooy_asoodeh():
    lim = corollary_limits_c0()
    t = lim["t"]
    assert lim["gamma_exact"] == t and lim["gamma_lemma4"] == t + 1
    assert lim["kl_exact_minus_za"] == 0 and lim["h2_exact_minus_za"] == 0
    assert sympy.simplify(lim["kl_lemma4"] - (t - 1) / (t + 1) * sympy.log(t + 1)) == 0


def test_corollary_coefficients_instance():
    co = corollary_coefficients(2, 3, "1/4")
    assert co["xi"] == Q(4, 5) and co["gamma_exact"] == Q(7, 3) and co["gamma_lemma4"] == Q(5, 2)
    assert co["kl_exact"] == sympy.Rational(4, 5) * sympy.log(sympy.Rational(7, 3))
    assert (co["kl_lemma4"] - co["kl_exact"]).is_positive


@pytest.mark.parametrize("N,z,c", [(3, 1, "1/4"), (4, 1, "1/8"), (4, 2, "1/8"), (5, 3, "1/10")])
def test_lemma1_zero_threshold_by_lp(N, z, c):
    c = Q(c)
    thr = 1 / ((N - z) * c)
    below = max_mass_with_zeros(N, z, t=thr - Q(1, 100), c=c)
    at = max_mass_with_zeros(N, z, t=thr, c=c)
    assert below.value == 0 and below.failures() == []
    assert at.value > 0 and at.failures() == []


def test_merge_to_binary_keeps_eta_and_privacy():
    for seed in range(15):
        K = random_kernel(seed, 3, 4, 9, full_support=seed % 2 == 0)
        B, A = merge_to_binary(K)
        assert B.M == 2 and eta_tv(B) == eta_tv(K)
        assert all(B[x, 0] == sum((K[x, y] for y in A), Q(0)) for x in range(K.N))
        assert pml_ratio(B, Q(1, 4)) <= pml_ratio(K, Q(1, 4))


@pytest.mark.parametrize("N,t,c,value", THM1_TABLE)
def test_grosse_optimal_mechanism_attains_xi(N, t, c, value):
    K = grosse_optimal_mechanism(N, t, c)
    assert str(eta_tv(K)) == value and pml_ratio(K, c) <= Q(t)


def test_odd_n_integer_q_gap_f_g3():
    # N = 3, c = 1/4: integer q covers t <= 2/((N+1)c) = 2 only; the regime runs to 8/3
    assert grosse_integer_q(3, 2, "1/4") == (1, 2)
    assert grosse_integer_q(3, "5/2", "1/4") == ()
    K = grosse_middle_row_mechanism(3, "5/2", "1/4")
    assert K.rows[1] == (Q(1, 2), Q(1, 2)) and eta_tv(K) == Q(12, 13) and pml_ratio(K, "1/4") == Q(5, 2)
    with pytest.raises(ParameterError, match=r"t: the construction needs t\*c\*q <= 1"):
        grosse_pml_mechanism(3, "5/2", "1/4", q=1)


def test_bad_input():
    with pytest.raises(CoercionError, match="float"):
        sup_eta_tv(2, t=2.5, c="1/4")
    with pytest.raises(ParameterError, match="c: must lie"):
        sup_eta_tv(3, t=2, c="1/2")
    with pytest.raises(ParameterError, match="delta"):
        sup_eta_tv(3, t=2, c="1/4", delta="1/10")
    with pytest.raises(ParameterError, match=r"t: t = e\^eps must be >= 1"):
        gamma_max(3, "1/2", "1/4")
    with pytest.raises(ParameterError, match="N"):
        sup_eta_tv(1, t=2)


def test_cli_extremal(capsys):
    from exactdp.cli import main

    assert main(["extremal", "sup", "--N", "3", "--t", "5/2", "--c", "1/4", "--format", "json"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    assert (r["value"], r["xi"], r["certified"], r["problems"]) == ("12/13", "12/13", True, [])  # [G] Thm 1
    assert main(["extremal", "gamma", "--N", "4", "--t", "3/2", "--c", "1/8"]) == 0
    out = capsys.readouterr().out
    assert "value: 7/5" in out and "Lemma 4: 7/4" in out
    assert main(["extremal", "sup", "--N", "3", "--t", "2", "--c", "1/2"]) == 2
    assert "c: must lie" in capsys.readouterr().err


@st.composite
def pml_params(draw):
    """(N, t, c): N 2..5, c = 1/N · p/q ∈ (0, 1/N], t ∈ [1, 2/c] rational (both regimes of Thm 1)."""
    N = draw(st.integers(2, 5))
    c = Q(1, N) * Q(draw(st.integers(1, 12)), 12)
    t = 1 + (2 / c - 1) * Q(draw(st.integers(0, 40)), 40)
    return N, t, c


@settings(max_examples=40)
@given(pml_params())
def test_thm1_equality_for_random_rational_parameters(p):
    N, t, c = p
    r = sup_eta_tv(N, t=t, c=c)
    assert r.value == xi(t, c, N) and r.failures() == []


@settings(max_examples=40)
@given(pml_params())
def test_gamma_max_closed_form_for_random_rational_parameters(p):
    N, t, c = p
    t = min(t, 1 / c)
    g = gamma_max(N, t, c)
    assert g.value == gamma_max_closed_form(N, t, c) <= lemma4_bound(N, t, c)
    assert g.failures() == []


def test_hockey_stick_under_pml_can_stay_large():
    """Unlike eps-LDP (sup eta_{E_t} = 0), (eps,c)-PML allows zeros: sup eta_{E_3} = 4/5 at N = 3, c = 1/6, t = 3."""
    r = sup_eta_hockey_stick(3, gamma=3, t=3, c="1/6")
    assert r.value == Q(4, 5) and r.failures() == [] and r.certificate == r.lps
    assert any(v == 0 for row in r.kernel.rows for v in row)
    assert sup_eta_hockey_stick(3, gamma=3, t=3, c=0).value == 0


def test_middle_row_mechanism_with_integer_q_is_the_paper_construction():
    for N, t, c, q in ((4, "3", "1/8", 2), (5, "2", "1/10", 2), (3, "2", "1/4", 1)):
        assert grosse_middle_row_mechanism(N, t, c, q=q).rows == grosse_pml_mechanism(N, t, c, q).rows
    with pytest.raises(CoercionError, match="float"):
        grosse_middle_row_mechanism(3, "5/2", "1/4", q=1.5)
    with pytest.raises(ParameterError, match="q: must lie"):
        grosse_middle_row_mechanism(3, "2", "1/4", q="1/2")


@settings(max_examples=30)
@given(st.integers(0, 30), st.integers(0, 20), st.integers(2, 3), st.integers(2, 3))
def test_b4_formula_for_random_rational_parameters(a, b, N, M):
    t, d = 1 + Q(a, 6), Q(b, 20)
    r = sup_eta_tv(N, M, t=t, delta=d)
    assert r.value == (t - 1 + 2 * d) / (t + 1) and r.failures() == []


def test_lp_values_agree_with_the_bounds_registry():
    """Independent route: the sympy expressions of exactdp.bounds (Xi, Lemma 4, the G-23 closed form)
    evaluated exactly, against the LP values and this module's QQ closed forms."""
    from exactdp import bounds

    for N, t, c, exact, _ in GAMMA_TABLE + [(3, "5/2", "1/4", None, None), (5, "19/5", "1/10", None, None)]:
        vals = {"N": N, "t": t, "c": c}
        assert bounds.get("xi").evaluate(**vals) == xi(t, c, N) == sup_eta_tv(N, t=t, c=c).value
        assert bounds.get("gamma_max_lemma4").evaluate(**vals) == lemma4_bound(N, t, c)
        g = gamma_max(N, t, c).value
        assert bounds.get("gamma_max_exact").evaluate(**vals) == g == gamma_max_closed_form(N, t, c)
