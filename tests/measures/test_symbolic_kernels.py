"""Parametric kernels: the public measures return closed forms, cross-checked against the rational
computation at several rational parameter points (issue 4)."""

import pytest
import sympy
from flint import fmpq

from exactdp import (
    InvalidKernelError,
    Kernel,
    eta_hockey_stick,
    eta_hockey_stick_witness,
    eta_tv,
    ldp_ratio,
    pml_ratio,
    privacy_profile,
    tv,
)
from exactdp.mechanisms import (
    grosse_binary_mechanism,
    grosse_pml_mechanism,
    optimal_binary_approx_ldp,
    optimized_unary_encoding,
    randomized_response,
    unary_encoding,
)
from exactdp.numbers.sr import as_sympy
from exactdp.symbolic import assuming, declare_region, validity_region

#: symbolic kernels through every measure: in the full run, not the quick one
pytestmark = pytest.mark.slow

t = sympy.Symbol("t", positive=True)
c = sympy.Symbol("c", positive=True)
delta = sympy.Symbol("delta", nonnegative=True)
gamma = sympy.Symbol("gamma", positive=True)
R = sympy.Rational


def same(a, b) -> bool:
    """Exact equality of closed forms (cancellation) or of rational values."""
    return sympy.cancel(sympy.together(as_sympy(a) - as_sympy(b))) == 0


def at(expr, **values):
    """Evaluate a closed form (possibly Piecewise) at exact rational values."""
    subs = {sym: R(v) for sym in sympy.sympify(expr).free_symbols for k, v in values.items() if sym.name == k}
    return sympy.piecewise_fold(sympy.sympify(expr).subs(subs))


GAMMAS = (R(1), R(3, 2), R(2), R(7, 3), R(5))


@pytest.mark.parametrize("k", [2, 3, 4])
def test_randomized_response_eta_tv_and_hockey_stick(k):
    K = randomized_response(k, t)
    assert same(eta_tv(K), (t - 1) / (t + k - 1))
    e2 = eta_hockey_stick(K, 2)  # (t-2)_+/(t+k-1)
    assert e2 == sympy.Piecewise((0, t <= 2), ((t - 2) / (t + k - 1), True))  # (t-2)_+/(t+k-1)
    for g in GAMMAS:
        Kq = randomized_response(k, g)
        assert as_sympy(eta_tv(Kq)) == at(eta_tv(K), t=g)
        assert as_sympy(eta_hockey_stick(Kq, 2)) == at(e2, t=g)
        assert as_sympy(ldp_ratio(Kq)) == at(ldp_ratio(K), t=g)
    assert same(ldp_ratio(K), t)


def test_randomized_response_symbolic_gamma_profile():
    K = randomized_response(2, t)
    prof = privacy_profile(K)
    assert prof.to_sympy() == sympy.Piecewise(((t - gamma) / (t + 1), gamma < t), (0, True))
    for g in GAMMAS:
        Kq = randomized_response(2, g)
        pq = privacy_profile(Kq)
        for gg in (R(1), R(6, 5), R(2), R(3)):
            assert as_sympy(pq(fmpq(int(gg.p), int(gg.q)))) == at(prof.to_sympy(), t=g, gamma=gg)


def test_grosse_binary_mechanism_closed_forms_G21():
    K = grosse_binary_mechanism(t, c)
    assert same(eta_tv(K), (t - 1) / (t * (1 - 2 * c) + 1))
    assert pml_ratio(K, c) == t  # exactly e^eps
    ldp = ldp_ratio(K)
    assert isinstance(ldp, sympy.Piecewise)
    assert ldp.args[0] == (sympy.oo, sympy.Eq(c * t, 1))
    assert same(ldp.args[1][0], t * (1 - c) / (1 - t * c))
    for g, cc in ((R(3), R(1, 4)), (R(2), R(1, 3)), (R(3, 2), R(1, 2)), (R(4), R(1, 4))):
        Kq = grosse_binary_mechanism(g, cc)
        assert as_sympy(eta_tv(Kq)) == at(eta_tv(K), t=g, c=cc)
        assert as_sympy(pml_ratio(Kq, cc)) == g
        assert as_sympy(ldp_ratio(Kq)) == at(ldp, t=g, c=cc)


@pytest.mark.parametrize("N", [2, 3, 4])
def test_grosse_pml_mechanism_pml_level_is_exactly_t_and_eta_is_xi(N):
    K = grosse_pml_mechanism(N, t, c)
    assert pml_ratio(K, c) == t
    xi1 = (t - 1) / (t * (1 - N * c) + 1)
    assert same(eta_tv(K), xi1)
    q = N // 2
    for g, cc in ((R(2), R(1, 10)), (R(3, 2), R(1, 8)), (R(5, 4), R(1, N))):
        if g * cc * max(q, N - q) > 1:
            continue
        Kq = grosse_pml_mechanism(N, g, cc)
        assert as_sympy(pml_ratio(Kq, cc)) == g
        assert as_sympy(eta_tv(Kq)) == xi1.subs({t: g, c: cc})
        assert as_sympy(ldp_ratio(Kq)) == at(ldp_ratio(K), t=g, c=cc)


def test_pml_ratio_with_rational_c_on_parametric_kernel():
    K = grosse_pml_mechanism(4, t, c)
    v = pml_ratio(K, R(1, 10))  # c fixed after construction: a closed form in t and c
    for g in (R(2), R(5, 2)):
        Kq = grosse_pml_mechanism(4, g, R(1, 8))
        assert as_sympy(pml_ratio(Kq, R(1, 10))) == at(v, t=g, c=R(1, 8))


def test_optimal_binary_approx_ldp_B4():
    K = optimal_binary_approx_ldp(t, delta)
    assert same(eta_tv(K), (t - 1 + 2 * delta) / (t + 1))
    for g, d in ((R(2), R(0)), (R(3), R(1, 10)), (R(3, 2), R(1, 2))):
        assert as_sympy(eta_tv(optimal_binary_approx_ldp(g, d))) == ((g - 1 + 2 * d) / (g + 1))


def test_unary_encodings():
    K = optimized_unary_encoding(2, t)
    assert same(eta_tv(K), (t - 1) / (2 * (t + 1)))
    assert same(ldp_ratio(K), t)
    for g in GAMMAS:
        Kq = optimized_unary_encoding(2, g)
        assert as_sympy(eta_tv(Kq)) == at(eta_tv(K), t=g)
        assert as_sympy(ldp_ratio(Kq)) == g
    s = sympy.Symbol("s", positive=True)  # symmetric UE with s = sqrt(e^eps)
    K = declare_region(unary_encoding(2, s / (s + 1), 1 / (s + 1)), s >= 1)
    assert same(eta_tv(K), (s - 1) / (s + 1))
    assert same(ldp_ratio(K), s**2)
    p, q = sympy.symbols("p q", positive=True)
    K = declare_region(unary_encoding(2, p, q), p > q, p < 1)
    assert same(eta_tv(K), p - q)
    assert same(ldp_ratio(K), p * (1 - q) / ((1 - p) * q))
    Kq = unary_encoding(2, R(3, 4), R(1, 3))
    assert as_sympy(eta_tv(Kq)) == R(3, 4) - R(1, 3)
    assert as_sympy(ldp_ratio(Kq)) == R(3, 4) * R(2, 3) / (R(1, 4) * R(1, 3))


def test_witness_pair_and_row_divergence():
    K = randomized_response(3, t)
    v, x, x2 = eta_hockey_stick_witness(K, 1)
    assert (x, x2) == (0, 1) and same(v, (t - 1) / (t + 2))
    with assuming(t >= 1):  # the public tv between symbolic rows uses the scoped region
        assert same(tv(K.row(0), K.row(2)), (t - 1) / (t + 2))
    assert tv(K.row(0), K.row(2)) == sympy.Piecewise(((t - 1) / (t + 2), t > 1), ((1 - t) / (t + 2), True)) or \
        at(tv(K.row(0), K.row(2)), t=R(1, 2)) == R(1, 5)
    from exactdp.measures.divergences import row_divergence

    assert same(row_divergence(K, 0, 2, "tv"), (t - 1) / (t + 2))
    assert row_divergence(K, 0, 2, "hockey_stick", 2) == sympy.Piecewise(((t - 2) / (t + 2), t > 2), (0, True))


def test_validity_region_reports_missing_conditions():
    z = t * (1 - 2 * c) + 1
    K = Kernel([[t * (1 - c) / z, (1 - t * c) / z], [(1 - t * c) / z, t * (1 - c) / z]])
    v = validity_region(K)
    assert v.conditions  # without a declared region the entries need conditions
    with assuming(t >= 1, c <= R(1, 2), t * c <= 1):
        assert validity_region(K).conditions == ()
    v = validity_region(K, assumptions=(t >= 1, c <= R(1, 2)))
    assert len(v.conditions) == 1 and v.conditions[0].subs({t: 3, c: R(1, 2)}) is sympy.false


def test_rows_not_summing_to_one_name_the_row():
    with pytest.raises(InvalidKernelError, match="row 1"):
        Kernel([[t / (t + 1), 1 / (t + 1)], [t / (t + 1), t / (t + 1)]])


def test_declare_region_refuses_non_relations():
    K = randomized_response(2, t)
    with pytest.raises(TypeError):
        declare_region(K, "t >= 1")


def test_is_ldp_and_max_leakage_on_parametric_kernels():
    from exactdp import Truth, is_ldp, max_leakage_ratio

    K = randomized_response(3, t)
    assert is_ldp(K, t=t) is Truth.TRUE  # for every t >= 1
    assert is_ldp(K, t=2) is Truth.FALSE  # fails for t > 2
    assert is_ldp(K, t=2, delta=R(1, 2)) is Truth.FALSE
    assert is_ldp(K, t=t + 1) is Truth.TRUE
    assert same(max_leakage_ratio(K), 3 * t / (t + 2))
    for g in GAMMAS:
        Kq = randomized_response(3, g)
        assert as_sympy(max_leakage_ratio(Kq)) == 3 * g / (g + 2)
        assert bool(is_ldp(Kq, t=2)) == (g <= 2)


def test_pml_ratio_with_symbolic_c_on_ldp_mechanisms():
    """e^{C(K,Q_X(c))} of RR_k and OUE_k in closed form, against the rational value at sample points."""
    for make, closed in ((lambda g: randomized_response(4, g), t / (1 + c * (t - 1))),
                         (lambda g: optimized_unary_encoding(3, g), t / (1 + c * (t - 1)))):
        v = pml_ratio(make(t), c)
        assert same(v, closed)
        for g, cc in ((R(3), R(1, 10)), (R(2), R(1, 4)), (R(5, 2), R(1, 3))):
            if cc > R(1, 4) and make(g).N == 4:
                continue
            assert as_sympy(pml_ratio(make(g), cc)) == closed.subs({t: g, c: cc})


def test_one_parameter_kernel_with_irrational_breakpoints():
    """A 2x3 kernel whose LDP ratio changes formula at t = 5 sqrt(3)/14 - 1/2 (an exact algebraic cut)."""
    spec = [[(1, 1), (1, 3), (4, 3)], [(4, 3), (4, 1), (3, 3)]]
    rows = [[sympy.cancel((a + b * t) / sum(a2 + b2 * t for a2, b2 in forms)) for a, b in forms] for forms in spec]
    K = Kernel(rows)
    v = ldp_ratio(K)
    assert isinstance(v, sympy.Piecewise) and v.args[0][1] == (t <= 5 * sympy.sqrt(3) / 14 - R(1, 2))
    for g in (R(1, 10), R(1, 8), R(1, 7), R(1, 2), R(1), R(4)):  # 5 sqrt 3/14 - 1/2 = 0.1186...
        assert at(v, t=g) == as_sympy(ldp_ratio(K.subs({t: g})))
        assert at(eta_tv(K), t=g) == as_sympy(eta_tv(K.subs({t: g})))


def test_ldp_ratio_infinite_at_a_closed_end_of_the_region():
    """A column entry vanishing at t = 2 (a closed end of 1 <= t <= 2) makes LDP infinite exactly there."""
    K = declare_region(Kernel([[(2 - t) / 2, t / 2], [R(1, 2), R(1, 2)]]), t >= 1, t <= 2)
    v = ldp_ratio(K)
    assert v == sympy.Piecewise((sympy.oo, sympy.Eq(t, 2)), (1 / (2 - t), True))
    for g in (R(1), R(3, 2), R(7, 4), R(2)):
        assert at(v, t=g) == as_sympy(ldp_ratio(K.subs({t: g})))
