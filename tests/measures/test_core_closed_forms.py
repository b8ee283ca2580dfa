"""Closed forms of the exact core (issue 2): values from the literature and claims.md, asserted exactly."""

import pytest
import sympy
from flint import fmpq

from exactdp import (
    Distribution,
    Kernel,
    chi2,
    eta_hockey_stick,
    eta_hockey_stick_witness,
    eta_tv,
    eta_tv_witness,
    f_divergence,
    hellinger2,
    hockey_stick,
    is_ldp,
    kl,
    ldp_epsilon,
    ldp_ratio,
    ldp_ratio_witness,
    max_leakage,
    max_leakage_ratio,
    pml,
    pml_epsilon,
    pml_ratio,
    pml_ratio_witness,
    privacy_profile,
    tv,
)
from exactdp.mechanisms import (
    binary_randomized_response,
    disjoint_rows_witness,
    grosse_binary_mechanism,
    grosse_example2_K1,
    grosse_intro_K1,
    grosse_intro_K2,
    grosse_pml_mechanism,
    optimal_binary_approx_ldp,
    optimized_unary_encoding,
    randomized_response,
    symmetric_unary_encoding,
)
from exactdp.numbers.infinity import INF
from exactdp.numbers.truth import Truth

Q = fmpq
R = sympy.Rational
GAMMAS = [Q(1), Q(2), Q(7, 3), Q(10), Q(101, 100)]


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("g", GAMMAS)
def test_eta_tv_of_k_ary_rr(k, g):
    """η_TV of k-ary randomized response is (γ−1)/(γ+k−1) (B-4 for k = 2)."""
    K = randomized_response(k, g)
    assert eta_tv(K) == (g - 1) / (g + k - 1)
    assert ldp_ratio(K) == g


@pytest.mark.parametrize("g", GAMMAS)
def test_hockey_stick_values_of_binary_rr(g):
    """Binary RR with e^ε = g: E_s(K_0‖K_1) = (g − s)₊/(g+1) for s ≥ 1; exactly ε-LDP, not better."""
    K = binary_randomized_response(g)
    for s in (Q(1), Q(3, 2), Q(2), g, g + 1, Q(5)):
        expected = max(g - s, Q(0)) / (g + 1)
        assert hockey_stick(K.row(0), K.row(1), s) == expected
        assert eta_hockey_stick(K, s) == expected
    assert eta_hockey_stick(K, 1) == eta_tv(K) == (g - 1) / (g + 1)
    assert is_ldp(K, t=g) is Truth.TRUE
    if g > 1:
        s = (g + 1) / 2
        assert is_ldp(K, t=s) is Truth.FALSE
        # the least δ at level s is E_s exactly
        assert is_ldp(K, t=s, delta=(g - s) / (g + 1)) is Truth.TRUE
        assert is_ldp(K, t=s, delta=(g - s) / (g + 1) - Q(1, 10**6)) is Truth.FALSE


def test_binary_rr_hockey_stick_numbers():
    K = randomized_response(2, 3)  # rows (3/4, 1/4), (1/4, 3/4)
    assert [eta_hockey_stick(K, s) for s in (0, "1/2", 1, 2, 3, 4)] == [1, Q(5, 8), Q(1, 2), Q(1, 4), 0, 0]


@pytest.mark.parametrize("g,c", [(Q(3), Q(1, 4)), (Q(2), Q(1, 2)), (Q(1), Q(1, 3)), (Q(5, 2), Q(1, 5)),
                                 (Q(4), Q(1, 4)), (Q(10), Q(1, 100))])
def test_grosse_binary_mechanism_pml_ratio_is_gamma(g, c):
    """[G] Example 1: the binary (ε,c)-PML mechanism has PML ratio exactly γ, η_TV = (γ−1)/(γ(1−2c)+1)."""
    K = grosse_binary_mechanism(g, c)
    assert pml_ratio(K, c) == g
    assert eta_tv(K) == (g - 1) / (g * (1 - 2 * c) + 1)


def test_grosse_pml_mechanism_attains_xi():
    """[G] Thm 3 construction: η_TV = M − m = Ξ(ε,c) and the PML ratio is γ."""
    for N, g, c in ((4, Q(2), Q(1, 8)), (3, Q(3, 2), Q(1, 6)), (6, Q(2), Q(1, 12))):
        K = grosse_pml_mechanism(N, g, c)
        assert eta_tv(K) == min((g - 1) / (g * (1 - N * c) + 1), Q(1))
        assert pml_ratio(K, c) == g


@pytest.mark.parametrize("c", [Q(1, 4), Q(1, 5), Q(1, 8), Q(1, 100), Q(3, 1000)])
def test_grosse_intro_kernels(c):
    """claims.md G-2: K1 has e^C = 1/(3c), η_TV = 1/3; K2 = I_4 has e^C = 1/c, η_TV = 1; both LDP = ∞."""
    K1, K2 = grosse_intro_K1(), grosse_intro_K2()
    assert pml_ratio(K1, c) == 1 / (3 * c)
    assert pml_ratio(K2, c) == 1 / c
    assert eta_tv(K1) == Q(1, 3)
    assert eta_tv(K2) == 1
    # +∞ of a rational kernel is the project's exact INF (no sympy needed), equal to sympy.oo
    assert ldp_ratio(K1) is INF and ldp_ratio(K2) is INF and ldp_ratio(K1) == sympy.oo
    assert ldp_epsilon(K1) is sympy.oo


def test_grosse_intro_epsilons_at_uniform_prior():
    """At c = 1/4: ε1 = log(4/3), ε2 = log 4 (G-2)."""
    assert pml_epsilon(grosse_intro_K1(), "1/4") == sympy.log(R(4, 3))
    assert pml_epsilon(grosse_intro_K2(), "1/4") == sympy.log(4)


@pytest.mark.parametrize("N", [2, 4, 10])
def test_grosse_example2_K1(N):
    """claims.md G-27: LDP ratio 15, e^C = 15/(1+7Nc), η_TV = 7/8, for N ∈ {2, 4, 10} and several c."""
    K = grosse_example2_K1(N)
    assert ldp_ratio(K) == 15
    assert ldp_epsilon(K) == sympy.log(15)
    assert eta_tv(K) == Q(7, 8)
    for c in (Q(1, N), Q(1, 2 * N), Q(1, 10 * N), Q(1, 1000)):
        assert pml_ratio(K, c) == 15 / (1 + 7 * N * c)


@pytest.mark.parametrize("g", [Q(1), Q(2), Q(3), Q(9, 4)])
@pytest.mark.parametrize("d", [Q(0), Q(1, 10), Q(1, 2), Q(1)])
def test_optimal_binary_approx_ldp(g, d):
    """B-4: rows (a, 1−a), (b, 1−b), a = (γ+δ)/(γ+1), b = (1−δ)/(γ+1): η_TV = (γ−1+2δ)/(γ+1), (ε,δ)-LDP."""
    K = optimal_binary_approx_ldp(g, d)
    assert eta_tv(K) == (g - 1 + 2 * d) / (g + 1)
    assert eta_hockey_stick(K, g) == d
    assert is_ldp(K, t=g, delta=d) is Truth.TRUE


def test_unary_encodings():
    """SUE with γ = s² and OUE: exact LDP ratios p(1−q)/((1−p)q)."""
    K = symmetric_unary_encoding(3, 4)  # p = 2/3, q = 1/3
    assert ldp_ratio(K) == 4
    K = optimized_unary_encoding(3, 3)  # p = 1/2, q = 1/4
    assert ldp_ratio(K) == 3
    assert K.M == 8


@pytest.mark.parametrize("N", [3, 4, 6])
def test_disjoint_rows_witness(N):
    """[G] Thm 2's witness: column 0 is (1, 0, 1/2, ...), S_0 = N/2, so e^C = 2/(Nc); η_TV = 1."""
    K = disjoint_rows_witness(N)
    for c in (Q(1, N), Q(1, 10 * N)):
        assert pml_ratio(K, c) == 2 / (N * c)
    assert eta_tv(K) == 1


def test_witnesses():
    K = Kernel([["1/2", "1/2", "0"], ["1/2", "1/4", "1/4"], ["0", "1/2", "1/2"]])
    assert eta_tv_witness(K) == (Q(1, 2), 0, 2)
    v, x, x2 = eta_hockey_stick_witness(K, 2)
    assert hockey_stick(K.row(x), K.row(x2), 2) == v == Q(1, 2)
    assert ldp_ratio_witness(Kernel([["1/2", "1/2"], ["1/3", "2/3"]])) == (Q(3, 2), 0, 0, 1)


def test_ldp_ratio_ignores_all_zero_columns():
    K = Kernel([["1/2", "0", "1/2"], ["1/4", "0", "3/4"]])
    assert ldp_ratio(K) == 2
    assert pml_ratio(K, "1/4") == Q(8, 5)
    assert max_leakage_ratio(K) == Q(5, 4)
    assert max_leakage(K) == sympy.log(R(5, 4))


def test_pml_witness_prior_attains_the_ratio():
    """The returned worst prior lies in Q_X(c) and attains the ratio at the returned output (D-9)."""
    K = Kernel([["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"], ["1/7", "2/7", "4/7"]])
    for c in (Q(1, 3), Q(1, 5), Q(1, 100)):
        r, y, P = pml_ratio_witness(K, c)
        assert min(P.probs) >= c and sum(P.probs, Q(0)) == 1
        assert pml(K, P, y).ratio == r


def test_pml_ratio_tends_to_ldp_ratio_as_c_vanishes():
    """G-3: C(K, Q_X(c)) → LDP(K) as c → 0 (full-support kernel): increasing to the LDP ratio."""
    K = Kernel([["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"], ["1/7", "2/7", "4/7"]])
    values = [pml_ratio(K, Q(1, 10**k)) for k in (1, 2, 4, 8)]
    assert values == sorted(values) and values[-1] < ldp_ratio(K)
    assert ldp_ratio(K) - values[-1] < Q(1, 10**6)


def test_pml_point():
    K = randomized_response(2, 3)
    leak = pml(K, ["1/2", "1/2"], 0)
    assert leak.ratio == Q(3, 2)
    assert leak.nats == sympy.log(R(3, 2))
    assert pml(K, ["1", "0"], 1).ratio == 1  # the max is over supp P only (Prop. 1)


def test_divergence_values():
    P, S = ["1/2", "1/2"], ["1/4", "3/4"]
    assert tv(P, S) == Q(1, 4)
    assert chi2(P, S) == Q(1, 3)
    assert chi2(["1/2", "1/2"], ["1", "0"]) is sympy.oo
    assert sympy.simplify(kl(P, S) - (R(1, 2) * sympy.log(2) + R(1, 2) * sympy.log(R(2, 3)))) == 0
    assert kl(["1", "0"], ["1/2", "1/2"]) == sympy.log(2)
    assert kl(["1/2", "1/2"], ["1", "0"]) is sympy.oo
    assert sympy.simplify(hellinger2(P, S) - (2 - sympy.sqrt(2) / 2 - sympy.sqrt(6) / 2)) == 0
    assert hellinger2(["1", "0"], ["0", "1"]) == 2


def test_privacy_profile_of_binary_rr():
    """δ(γ) of binary RR with e^ε = 3: (3 − γ)/4 on [1, 3], 0 from γ = 3 on, 1 at γ = 0."""
    prof = privacy_profile(randomized_response(2, 3))
    assert prof("2") == Q(1, 4) and prof(3) == 0 and prof(100) == 0 and prof(0) == 1
    assert prof("1/3") == Q(2, 3)
    assert prof.gamma_for(0) == 3
    assert prof.gamma_for(Q(1, 4)) == 2
    assert prof.epsilon_for(0) == sympy.log(3)
    assert prof.epsilon_for(1) == 0


def test_privacy_profile_with_zeros_has_positive_delta_at_infinity():
    """A column with a zero makes δ(γ) > 0 for every γ: δ(∞) = max_{x,x'} K_x(supp K_x'ᶜ) = 2/3 here.

    δ(γ) = max(1/2 + (1/2 − γ/3)₊, 2/3 + (1/3 − γ/2)₊): it reaches 2/3 exactly at γ = 1.
    """
    K = Kernel([["1/2", "1/2", "0"], ["0", "1/3", "2/3"]])
    prof = privacy_profile(K)
    assert prof(10**9) == Q(2, 3)
    assert prof.gamma_for(Q(1, 2)) is INF and prof.gamma_for(Q(1, 2)) == sympy.oo
    assert prof.epsilon_for(Q(1, 2)) is sympy.oo
    assert prof.gamma_for(Q(2, 3)) == 1
    assert prof(Q(1, 2)) == max(Q(1, 2) + Q(1, 2) - Q(1, 6), Q(2, 3) + Q(1, 3) - Q(1, 4))


def test_kernel_algebra():
    K = randomized_response(2, 3)
    L = Kernel([["1", "0"], ["1/2", "1/2"]])
    assert (K @ L).rows == ((Q(7, 8), Q(1, 8)), (Q(5, 8), Q(3, 8)))
    T = K.tensor(L)
    assert T.shape == (4, 4)
    assert T[1, 2] == K[0, 1] * L[1, 0] == Q(1, 8)
    assert K.tensor_power(3).shape == (8, 8)
    assert K.tensor_power(1) == K
    assert eta_tv(K.tensor_power(2)) == Q(1, 2)  # claims.md A-8: η_TV(RR⊗RR) = 1/2 at E = 3
    assert K.apply(["1/3", "2/3"]) == Distribution(["5/12", "7/12"])
    assert Kernel.identity(3) @ Kernel.identity(3) == Kernel.identity(3)


def test_from_floats_uses_the_exact_binary_value():
    K = Kernel.from_floats([[0.5, 0.5], [0.25, 0.75]])
    assert K[1, 0] == Q(1, 4)
    assert Distribution.from_floats([0.125, 0.875])[0] == Q(1, 8)


def test_f_divergence_matches_the_named_divergences_with_zero_masses():
    """D-2 conventions: 0·f(0/0) = 0; Q(y) = 0 < P(y) contributes P(y)·f′(∞); P(y) = 0 < Q(y) gives Q(y)·f(0)."""
    from exactdp.measures.divergences import F_CHI2, F_KL, F_TV, f_hockey_stick

    cases = [(["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"]), (["1/2", "1/2", "0"], ["1", "0", "0"]),
             (["1/3", "0", "2/3"], ["1/3", "0", "2/3"]), (["1", "0"], ["0", "1"])]
    for P, S in cases:
        assert f_divergence(P, S, F_TV) == tv(P, S)
        for g in (1, 2, "5/2"):
            assert f_divergence(P, S, f_hockey_stick(g)) == hockey_stick(P, S, g)
        assert f_divergence(P, S, F_CHI2) == chi2(P, S)
        ref = kl(P, S)
        got = f_divergence(P, S, F_KL)
        assert got is sympy.oo if ref is sympy.oo else sympy.simplify(got - ref) == 0
    t = sympy.Symbol("s", positive=True)
    # reverse KL, f(t) = −log t: P = 0 < Q makes it infinite through f(0) = +∞
    assert f_divergence(["1", "0"], ["1/2", "1/2"], -sympy.log(t)) is sympy.oo
    # TV slope at infinity is 1/2: a mass 1/2 where Q = 0 contributes 1/4
    assert f_divergence(["1/2", "1/2"], ["1", "0"], sympy.Abs(t - 1) / 2) == Q(1, 2)
    lam = sympy.Lambda(t, (t - 1) ** 2)
    assert f_divergence(["1/2", "1/2"], ["1/4", "3/4"], lam) == Q(1, 3)


def test_is_ldp_with_eps_given_exactly():
    """ε instead of γ: e^{log 3} = 3 is rational, decided exactly."""
    K = randomized_response(2, 3)
    assert is_ldp(K, eps=sympy.log(3)) is Truth.TRUE
    assert is_ldp(K, eps=sympy.log(2)) is Truth.FALSE
    assert is_ldp(K, eps=sympy.log(2), delta=Q(1, 4)) is Truth.TRUE  # E_2 = 1/4
    assert is_ldp(K, eps=0, delta=Q(1, 2)) is Truth.TRUE  # E_1 = TV = 1/2


def test_truth_is_three_valued():
    from exactdp import UndecidedError

    T, F, U = Truth.TRUE, Truth.FALSE, Truth.UNKNOWN
    assert bool(T) and not bool(F)
    with pytest.raises(UndecidedError, match="UNKNOWN truth value was used as a bool"):
        bool(U)
    assert (T & U) is U and (F & U) is F and (T | U) is T and (F | U) is U and ~U is U and ~T is F
    assert (T & True) is T and (False | F) is F
