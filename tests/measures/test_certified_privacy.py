"""Certified η_{E_γ} and (ε,δ)-LDP with irrational γ = e^ε ([A] Thm 1, B-2, D-6).

Independent route: brute force over all output subsets A of max_{x≠x'} K_x(A) − γ K_{x'}(A), in mpmath
at 150 digits; decisions with a margin far above mpmath's error are compared with it.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from flint import fmpq

import exactdp
from exactdp import Kernel, ParameterError, UndecidedError, eta_hockey_stick, is_ldp
from exactdp.certified import eta_hockey_stick_certified, is_ldp_certified
from exactdp.mechanisms import randomized_response
from exactdp.numbers.truth import Truth
from tests.certified_support import assert_encloses

R = sympy.Rational


def _random_kernel(rng: random.Random, N: int, M: int, den: int = 12) -> Kernel:
    rows = []
    for _ in range(N):
        cuts = sorted(rng.randint(0, den) for _ in range(M - 1))
        b = [0, *cuts, den]
        rows.append([fmpq(b[k + 1] - b[k], den) for k in range(M)])
    return Kernel(rows)


def _mp(v):
    return mpmath.mpf(int(v.p)) / int(v.q)


def _brute_eta(K: Kernel, gamma_mp):
    best = mpmath.mpf(-1)
    for i, j in itertools.permutations(range(K.N), 2):
        for r in range(K.M + 1):
            for A in itertools.combinations(range(K.M), r):
                best = max(best, sum((_mp(K[i, y]) - gamma_mp * _mp(K[j, y]) for y in A), mpmath.mpf(0)))
    return best


GAMMAS = [
    (sympy.exp(R(1, 2)), lambda: mpmath.exp(mpmath.mpf(1) / 2)),
    (sympy.exp(R(1, 10)), lambda: mpmath.exp(mpmath.mpf(1) / 10)),
    (sympy.sqrt(2), lambda: mpmath.sqrt(2)),
    (sympy.exp(sympy.log(2) + R(1, 10**25)), lambda: 2 * mpmath.exp(mpmath.mpf(10) ** -25)),
]


@pytest.mark.parametrize("gamma, gamma_mp", GAMMAS)
def test_eta_matches_brute_force_over_subsets(gamma, gamma_mp):
    rng = random.Random(5)
    for _ in range(6):
        K = _random_kernel(rng, rng.randint(2, 4), rng.randint(2, 4))
        value, x, x2 = eta_hockey_stick_certified(K, gamma)
        with mpmath.workdps(150):
            brute = _brute_eta(K, gamma_mp())
        if brute == 0:
            assert value == 0
        else:
            assert_encloses(value, lambda b=brute: b, min_bits=60)
        # the witness pair attains the value: E_γ(K_x‖K_x') recomputed exactly
        assert (
            exactdp.certified.certified_compare(value, "==", exactdp.hockey_stick(K.row(x), K.row(x2), gamma))
            is Truth.TRUE
        )


def test_eta_public_entry_point_and_exact_value():
    K = randomized_response(2, 3)
    g = sympy.exp(R(1, 2))
    assert eta_hockey_stick(K, g) == R(3, 4) - g / 4
    assert eta_hockey_stick_certified(K, g) == (R(3, 4) - g / 4, 0, 1)
    # a γ beyond every likelihood ratio: the positive sets are empty
    assert eta_hockey_stick(K, sympy.exp(2)) == 0


def test_eta_with_gamma_on_a_ratio_is_exact_tie():
    # γ = exp(log 3) is rational 3; γ = 3·e^{10^-40} is just above the ratio 3 of RR(3): positive set empty
    K = randomized_response(2, 3)
    assert eta_hockey_stick(K, 3 * sympy.exp(R(1, 10**40))) == 0
    v = eta_hockey_stick(K, 3 * sympy.exp(-R(1, 10**40)))
    assert v == R(3, 4) - 3 * sympy.exp(-R(1, 10**40)) / 4
    assert exactdp.certified.certified_sign(v).sign > 0


@pytest.mark.parametrize("eps", ["1/2", "0.5", Fraction(1, 2), R(1, 2), sympy.Rational(5, 10)])
def test_is_ldp_with_every_exact_spelling_of_eps(eps):
    K = randomized_response(2, 3)  # LDP level log 3 = 1.0986...
    assert is_ldp(K, eps=eps) is Truth.FALSE
    eta = 0.75 - mpmath.exp(0.5) / 4  # only to pick deltas on both sides, far from the boundary
    assert is_ldp(K, eps=eps, delta="0.3379") is Truth.TRUE
    assert is_ldp(K, eps=eps, delta="0.3378") is Truth.FALSE
    assert 0.3378 < eta < 0.3379


def test_is_ldp_with_symbolic_eps():
    K = randomized_response(2, 3)
    assert is_ldp(K, eps=sympy.log(3)) is Truth.TRUE
    assert is_ldp(K, eps=sympy.log(3) - R(1, 10**30)) is Truth.FALSE
    assert is_ldp(K, eps=sympy.log(3) + R(1, 10**30)) is Truth.TRUE
    assert is_ldp(K, eps=sympy.log(2) + sympy.log(R(3, 2))) is Truth.TRUE


def test_is_ldp_irrational_kernel_on_its_own_boundary():
    K = randomized_response(2, sympy.exp(R(1, 2)))  # entries e^{1/2}/(1+e^{1/2}): exactly e^{1/2}-LDP
    assert is_ldp(K, eps=R(1, 2)) is Truth.TRUE
    assert is_ldp(K, eps="0.4999999999999999999999999999") is Truth.FALSE
    assert is_ldp_certified(K, sympy.exp(R(1, 2)), 0) is Truth.TRUE


def test_is_ldp_certified_undecided_below_cap_is_unknown():
    # γ within 2^-128 of the ratio 3 but not equal: the cap 64 cannot decide, and says so
    K = randomized_response(2, 3)
    g = 3 * sympy.exp(R(1, 10**45))
    assert is_ldp_certified(K, g, 0, max_prec=64) is Truth.UNKNOWN
    assert is_ldp_certified(K, g, 0) is Truth.TRUE
    with pytest.raises(UndecidedError, match="gamma"):
        eta_hockey_stick_certified(K, 3 * sympy.exp(-R(1, 10**45)), max_prec=64)


def test_bad_input():
    K = randomized_response(2, 3)
    with pytest.raises(exactdp.CoercionError, match="float"):
        is_ldp(K, eps=0.5)
    with pytest.raises(ParameterError, match="free symbols"):
        eta_hockey_stick_certified(K, sympy.exp(sympy.Symbol("e")))
    with pytest.raises(ParameterError, match="delta"):
        is_ldp_certified(K, sympy.exp(R(1, 2)), 2)
    with pytest.raises(ParameterError, match="gamma"):
        eta_hockey_stick_certified(K, -sympy.sqrt(2))


def test_transcendental_privacy_quantities_are_evaluated_with_certainty():
    from exactdp import Distribution, ldp_epsilon, max_leakage, pml
    from exactdp.certified import certified_compare, evalf
    from tests.certified_support import assert_encloses

    K = randomized_response(3, R(5, 2))
    eps = ldp_epsilon(K)
    assert certified_compare(eps, "==", sympy.log(5) - sympy.log(2)) is Truth.TRUE
    assert_encloses(eps, lambda: mpmath.log(mpmath.mpf(5) / 2))
    leak = pml(K, Distribution(["1/2", "1/4", "1/4"]), 0)
    assert certified_compare(leak, "<", eps) is Truth.TRUE  # PML at a full-support prior is below LDP
    assert_encloses(leak.nats, lambda: mpmath.log(mpmath.mpf(int(leak.ratio.p)) / int(leak.ratio.q)))
    assert evalf(max_leakage(K), 12) == evalf(sympy.log(R(5, 2) * 3 / R(9, 2)), 12)


def test_a_bound_evaluated_at_parameters():
    # Zamanlooy-Asoodeh KL coefficient (B-7) eps (e^eps - 1)/(e^eps + 1) at eps = 1/2, against Xi(eps, 0) * eps
    from exactdp.certified import RB, certified_compare, xi

    e = sympy.Symbol("epsilon", positive=True)
    bound = e * (sympy.exp(e) - 1) / (sympy.exp(e) + 1)
    at = bound.subs(e, R(1, 2))
    assert certified_compare(at, "==", RB(xi(eps=R(1, 2), c=0, N=2)) * R(1, 2)) is Truth.TRUE
    with mpmath.workdps(200):
        ref = mpmath.tanh(mpmath.mpf(1) / 4) / 2
    from tests.certified_support import assert_encloses

    assert_encloses(at, lambda: ref)


def test_int64_and_python_int_paths_agree():
    from exactdp.measures.irrational_gamma import _eta_qq_parts, _Gamma, _window_ints

    rng = random.Random(11)
    for gamma in (sympy.exp(R(1, 2)), 2 * sympy.exp(R(1, 10**25)), sympy.sqrt(3)):
        g = _Gamma(gamma, None)
        for _ in range(5):
            K = _random_kernel(rng, rng.randint(2, 6), rng.randint(2, 6), den=60)
            assert _window_ints(K.int_rows(), g)[0] is np.int64
            assert _eta_qq_parts(K, g) == _eta_qq_parts(K, g, dtype=object)
