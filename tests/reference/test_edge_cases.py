r"""The edge cases floats get wrong — each with its exact or certified value, and the float64 failure.

Every case states the exact/certified expectation (checked by an independent route: exact rationals or
mpmath at 150 digits inside ``mpmath.workdps``) and, where float64 fails, a test showing how.  None of
the boundary decisions below may be UNKNOWN at the default precision cap.
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy
from flint import fmpq

from exactdp import Kernel, eta_tv, is_ldp, kl, ldp_ratio
from exactdp.certified import (
    certified_compare,
    certified_sign,
    evalf,
    phi_n,
    phi_n_complement,
    xi,
    xi_regime,
    xi_threshold,
)
from exactdp.mechanisms import randomized_response
from exactdp.numbers.truth import Truth
from tests.certified_support import assert_encloses

R = sympy.Rational
mpf = mpmath.mpf
TINY = R(1, 10**20)


def _float_ldp(rows, eps: float, delta: float = 0.0) -> bool:
    """The float64 decision a numerical library would make: max_{x,x'} E_{e^eps}(K_x‖K_x') <= delta."""
    g = math.exp(eps)
    eta = max(sum(max(a - g * b, 0.0) for a, b in zip(r, s)) for r in rows for s in rows)
    return eta <= delta


# -- 1. kernels exactly on the (eps, delta)-LDP boundary, and perturbed by 1e-20 ------------------------


def test_binary_rr_on_the_boundary_eps_log3_and_perturbed():
    K = randomized_response(2, 3)  # rows (3/4, 1/4), (1/4, 3/4): LDP level exactly log 3
    K_pert = Kernel([[R(3, 4) + TINY, R(1, 4) - TINY], [R(1, 4), R(3, 4)]])
    assert is_ldp(K, eps=sympy.log(3)) is Truth.TRUE
    assert is_ldp(K_pert, eps=sympy.log(3)) is Truth.FALSE
    assert ldp_ratio(K_pert) == fmpq(3, 4) / (fmpq(1, 4) - fmpq(1, 10**20))  # column 1: 3/(1 - 4e-20)
    # float64: the perturbation vanishes (0.75 + 1e-20 == 0.75), so both look private
    f, f_pert = [[0.75, 0.25], [0.25, 0.75]], [[0.75 + 1e-20, 0.25 - 1e-20], [0.25, 0.75]]
    assert _float_ldp(f, math.log(3)) == _float_ldp(f_pert, math.log(3)) is True  # wrong for f_pert


def test_approximate_ldp_boundary_delta_exact():
    # B-4 kernel with E = 3, delta = 1/10: a = (E+δ)/(E+1), b = (1−δ)/(E+1); eta_{E}(K) = δ exactly
    E, d = R(3), R(1, 10)
    a, b = (E + d) / (E + 1), (1 - d) / (E + 1)
    K = Kernel([[a, 1 - a], [b, 1 - b]])
    assert is_ldp(K, eps=sympy.log(3), delta=d) is Truth.TRUE
    assert is_ldp(K, eps=sympy.log(3), delta=d - TINY) is Truth.FALSE
    # float64: delta and delta - 1e-20 are the same double; the two questions get one answer
    rows = [[float(a), float(1 - a)], [float(b), float(1 - b)]]
    assert _float_ldp(rows, math.log(3), 0.1) == _float_ldp(rows, math.log(3), 0.1 - 1e-20)


def test_boundary_with_irrational_eps():
    # RR with gamma = e^{1/2}: exactly (1/2)-LDP; a decimal eps one unit in the 28th digit below is not
    K = randomized_response(2, sympy.exp(R(1, 2)))
    assert is_ldp(K, eps="0.5") is Truth.TRUE
    assert is_ldp(K, eps="0.4999999999999999999999999999") is Truth.FALSE
    # and the float literal of log 3 (1.0986122886681098 > log 3) makes RR(3) private, 1.0986122886681096 not
    K3 = randomized_response(2, 3)
    assert is_ldp(K3, eps="1.0986122886681098") is Truth.TRUE
    assert is_ldp(K3, eps="1.0986122886681096") is Truth.FALSE
    # float64's log 3 is that literal: a float pipeline passing eps=math.log(3) asks about a larger eps
    assert math.log(3) == 1.0986122886681098


# -- 2. extreme eps ----------------------------------------------------------------------------------


def test_eps_1e_minus_30():
    # e^{1e-30} = 1 + 1e-30 + 5e-61 + ...: ratio 1 + 1e-30 is private, ratio 1 + 2e-30 is not
    ok, bad = randomized_response(2, 1 + R(1, 10**30)), randomized_response(2, 1 + R(2, 10**30))
    assert is_ldp(ok, eps="1e-30") is Truth.TRUE
    assert is_ldp(bad, eps="1e-30") is Truth.FALSE
    # float64: exp(1e-30) == 1.0 and both kernels round to all-1/2 rows
    assert math.exp(1e-30) == 1.0
    assert float(bad[0, 0]) == 0.5 and _float_ldp([[0.5, 0.5], [0.5, 0.5]], 1e-30) is True  # wrong for bad


def test_eps_700_ratio_one_part_in_1e20_above():
    with mpmath.workdps(400):
        r = R(int(mpmath.floor(mpmath.exp(700) * (1 + mpf(10) ** -20))))  # just above e^700
    assert is_ldp(randomized_response(2, r), eps=700) is Truth.FALSE
    assert is_ldp(randomized_response(2, r * (1 - R(2, 10**20))), eps=700) is Truth.TRUE
    # float64: both kernels round to the same rows (1.0, 9.8597e-305), judged private (wrong for r)
    for rr in (r, r * (1 - R(2, 10**20))):
        rows = [[float(rr / (rr + 1)), float(1 / (rr + 1))], [float(1 / (rr + 1)), float(rr / (rr + 1))]]
        assert _float_ldp(rows, 700) is True


def test_eps_5000():
    with mpmath.workdps(2300):
        below = R(int(mpmath.floor(mpmath.exp(5000))))
        assert_encloses(sympy.exp(5000), lambda: mpmath.exp(5000))
    assert is_ldp(randomized_response(2, below), eps=5000) is Truth.TRUE
    assert is_ldp(randomized_response(2, below + 1), eps=5000) is Truth.FALSE
    assert evalf(sympy.exp(5000), 6) == "2.96763e+2171"
    with pytest.raises(OverflowError):
        math.exp(5000)
    with pytest.raises(OverflowError):
        float(int(below))


# -- 3. c near 0 and near 1/N; the regime switch of [G] at eps = log(2/(Nc)) --------------------------


@pytest.mark.parametrize("N, c", [(3, R(1, 10**50)), (2, R(1, 4)), (3, R(1, 4)), (4, R(1, 8)), (3, R(1, 3))])
def test_regime_switch_from_both_sides_and_exactly(N, c):
    t = xi_threshold(c, N)  # log(2/(Nc))
    h = R(1, 10**30)
    assert xi_regime(eps=t, c=c, N=N) is Truth.TRUE
    assert xi_regime(eps=t + h, c=c, N=N) is Truth.TRUE
    assert xi_regime(eps=t - h, c=c, N=N) is Truth.FALSE
    assert certified_compare(xi(eps=t, c=c, N=N), "==", 1) is Truth.TRUE
    assert certified_compare(xi(eps=t - h, c=c, N=N), "<", 1) is Truth.TRUE
    assert certified_compare(xi(eps=t + h, c=c, N=N), "==", 1) is Truth.TRUE
    with mpmath.workdps(200):
        E = 2 / (N * mpf(c.p) / c.q) * mpmath.exp(-(mpf(10) ** -30))
        ref = (E - 1) / (E * (1 - N * mpf(c.p) / c.q) + 1)
    assert_encloses(xi(eps=t - h, c=c, N=N), lambda: ref)
    # float64: t ± 1e-30 is the same double, so no float computation can tell the regimes apart
    tf = math.log(2 / (N * float(c)))
    assert tf + 1e-30 == tf - 1e-30 == tf


def test_c_exactly_one_over_n_and_just_below():
    N = 3
    assert_encloses(xi(eps="1/2", c=R(1, 3), N=N), lambda: mpmath.expm1(mpf(1) / 2))  # Xi = e^eps - 1
    c = (1 - R(1, 10**30)) / N  # 1 - Nc = 1e-30
    x = xi(eps=sympy.log(2), c=c, N=N)  # threshold log(2/(1 - 1e-30)) is just above log 2: contraction regime
    assert xi_regime(eps=sympy.log(2), c=c, N=N) is Truth.FALSE
    assert certified_compare(x, "<", 1) is Truth.TRUE
    assert_encloses(x, lambda: 1 / (1 + 2 * mpf(10) ** -30))
    # float64: 1 - N*c == 0.0, so the float formula returns exactly 1 (wrong regime)
    cf = (1 - 1e-30) / 3
    assert 1 - 3 * cf == 0.0 and (2.0 - 1) / (2.0 * (1 - 3 * cf) + 1) == 1.0


def test_c_1e_minus_50():
    x = xi(eps="1/2", c=R(1, 10**50), N=3)
    with mpmath.workdps(200):
        e = mpmath.exp(mpf(1) / 2)
        ref = (e - 1) / (e * (1 - 3 * mpf(10) ** -50) + 1)
        lim = (e - 1) / (e + 1)
    assert_encloses(x, lambda: ref)
    assert certified_compare(x, ">", (sympy.exp(R(1, 2)) - 1) / (sympy.exp(R(1, 2)) + 1)) is Truth.TRUE
    assert float(1 - 3 * 1e-50) == 1.0 and ref > lim  # float64 cannot see c at all


# -- 4. delta = 0 and delta = 1 - 1e-30 -------------------------------------------------------------


def test_delta_one_minus_1e_minus_30():
    I2 = Kernel.identity(2)  # disjoint rows: eta_{gamma} = 1 for every gamma
    d = 1 - R(1, 10**30)
    assert is_ldp(I2, eps="1/2", delta=d) is Truth.FALSE
    assert is_ldp(I2, eps="1/2", delta=1) is Truth.TRUE
    assert is_ldp(I2, eps=sympy.log(3), delta=0) is Truth.FALSE
    assert _float_ldp([[1.0, 0.0], [0.0, 1.0]], 0.5, 1 - 1e-30) is True  # float64: 1 - 1e-30 == 1.0


# -- 5. n = 10^6 in phi^n ------------------------------------------------------------------------------


@pytest.mark.parametrize("delta", [R(0), R(1, 10**30)])
def test_phi_n_tiny_eps_huge_n(delta):
    n, eps = 10**6, R(1, 10**30)
    with mpmath.workdps(200):
        ref = -mpmath.expm1(n * (mpmath.log1p(-mpf(delta.p) / delta.q) - mpf(eps.p) / eps.q))
    x = phi_n(eps=eps, delta=delta, n=n)
    assert_encloses(x, lambda: ref)
    assert certified_compare(x, ">", R(1, 10**25)) is Truth.TRUE
    naive = 1 - math.exp(-n * 1e-30) * (1 - float(delta)) ** n
    assert naive == 0.0  # float64 loses every digit


def test_phi_n_delta_near_one_huge_n():
    n, d = 10**6, 1 - R(1, 10**30)
    x = phi_n(eps="1e-30", delta=d, n=n)
    with mpmath.workdps(100):
        gap = mpmath.exp(-n * mpf(10) ** -30) * (mpf(10) ** -30) ** n  # 1 - phi^n, about 10^-30000000
    assert certified_compare(x, "<", 1) is Truth.UNKNOWN  # no ball around phi^n separates it from 1 ...
    gap_rb = phi_n_complement(eps="1e-30", delta=d, n=n)
    assert certified_sign(gap_rb).sign > 0  # ... but its complement is certified positive
    assert_encloses(gap_rb, lambda: gap)
    assert evalf(gap_rb, 5) == "1.0000e-30000000"  # (1 - 1e-24) * 10^-30000000
    assert 1 - math.exp(-n * 1e-30) * (1 - (1 - 1e-30)) ** n == 1.0  # float64: exactly 1


# -- 6. entries 1e-300 and 1 - 1e-300 --------------------------------------------------------------


def test_entries_near_zero_and_one():
    u = R(1, 10**300)
    K = Kernel([[u, 1 - u], [2 * u, 1 - 2 * u]])
    assert eta_tv(K) == fmpq(1, 10**300)
    assert ldp_ratio(K) == 2
    assert is_ldp(K, eps=sympy.log(2)) is Truth.TRUE
    assert is_ldp(K, eps=sympy.log(2) - R(1, 10**30)) is Truth.FALSE
    # float64: 1 - 1e-300 == 1.0, so the float TV is half the truth
    rows = [[1e-300, 1 - 1e-300], [2e-300, 1 - 2e-300]]
    tv_float = 0.5 * sum(abs(a - b) for a, b in zip(*rows))
    assert tv_float == 5e-301


def test_kl_with_entries_near_zero_and_one_float_gives_a_negative_divergence():
    u = R(1, 10**300)
    value = kl([u, 1 - u], [2 * u, 1 - 2 * u])
    with mpmath.workdps(700):
        U = mpf(10) ** -300
        ref = U * mpmath.log(U / (2 * U)) + (1 - U) * mpmath.log((1 - U) / (1 - 2 * U))
    assert_encloses(value, lambda: ref)
    assert certified_compare(value, ">", 0) is Truth.TRUE  # about 1e-300 (1 - log 2)
    assert evalf(value, 5) == "3.0685e-301"
    float_kl = 1e-300 * math.log(0.5) + (1 - 1e-300) * math.log((1 - 1e-300) / (1 - 2e-300))
    assert float_kl < 0  # float64: KL < 0, impossible
