"""n-fold products by type classes (issue 7): exact values, and agreement with the explicit K^{⊗n}."""

import random
from math import comb

import pytest
from flint import fmpq

from exactdp import (
    CoercionError,
    Kernel,
    ParameterError,
    delta_tensor_power,
    eta_hockey_stick,
    eta_hockey_stick_tensor_power,
    eta_hockey_stick_tensor_product,
    eta_tv,
    eta_tv_tensor_power,
    hockey_stick,
    hockey_stick_product,
    privacy_profile,
    privacy_profile_tensor_power,
)
from exactdp.measures.tensor import (
    eta_hockey_stick_tensor_product_witness,
    pair_classes,
    phi_n,
)
from exactdp.mechanisms import optimal_binary_approx_ldp, randomized_response
from exactdp.verification.instances import random_kernel


def _gamma(rng):
    g = fmpq(rng.randint(1, 9), rng.randint(1, 4))
    return g if g >= 1 else 1 / g


# -- the F-A1 table (claims.md §7) and closed forms ------------------------------------------------

def test_binary_rr_e3_table_of_claims_section_7():
    K = randomized_response(2, 3)
    assert [eta_tv_tensor_power(K, n) for n in (1, 2, 3, 5)] == [
        fmpq(1, 2), fmpq(1, 2), fmpq(11, 16), fmpq(203, 256)]
    # the power reading phi(eps,0)^n = (2/3)^n is below the n = 2 value: F-A1's witness
    assert eta_tv_tensor_power(K, 2) > fmpq(2, 3) ** 2
    assert phi_n(3, 0, 2) == fmpq(8, 9)


def test_binary_rr_matches_binomial_formula_at_n_1000():
    """E_γ(RR^{⊗n}) = Σ_k C(n,k) (a^k b^(n−k) − γ b^k a^(n−k))_+ with a = t/(t+1), b = 1/(t+1)."""
    t, n = fmpq(3, 2), 1000
    a, b = t / (t + 1), 1 / (t + 1)
    for g in (fmpq(1), fmpq(2), fmpq(5)):
        expected = sum((comb(n, k) * (a**k * b ** (n - k) - g * b**k * a ** (n - k))
                        for k in range(n + 1) if a**k * b ** (n - k) > g * b**k * a ** (n - k)), fmpq(0))
        assert eta_hockey_stick_tensor_power(randomized_response(2, t), n, g) == expected


def test_rr_pure_composition_is_exact_at_gamma_power_n():
    """B-10 with δ = 0: the n-fold product of an e^ε-LDP RR is exactly (nε, 0)-LDP, not better."""
    for k, t in ((2, fmpq(3)), (3, fmpq(5, 2)), (4, fmpq(2))):
        K = randomized_response(k, t)
        for n in (1, 7, 40):
            assert delta_tensor_power(K, n, t**n) == 0
            assert delta_tensor_power(K, n, t**n * fmpq(99, 100)) > 0


# -- agreement with the explicit tensor power (n ≤ 6) ---------------------------------------------

@pytest.mark.parametrize("shape,nmax", [((2, 2), 6), ((2, 3), 4), ((3, 2), 4), ((3, 3), 3), ((4, 2), 3)])
def test_agrees_with_explicit_tensor_power_on_random_kernels(shape, nmax):
    rng = random.Random(f"tensor-{shape}")
    for _ in range(6):
        K = random_kernel(rng, *shape, max_den=9)
        for n in range(1, nmax + 1):
            Kn = K.tensor_power(n)
            for g in (fmpq(1), _gamma(rng)):
                assert eta_hockey_stick_tensor_power(K, n, g) == eta_hockey_stick(Kn, g), (K, n, g)


def test_profile_agrees_with_explicit_tensor_power():
    rng = random.Random("tensor-profile")
    for _ in range(8):
        K = random_kernel(rng, rng.randint(2, 3), rng.randint(2, 3), max_den=7)
        for n in (1, 2, 3):
            assert privacy_profile_tensor_power(K, n) == privacy_profile(K.tensor_power(n)), (K, n)


def test_heterogeneous_product_agrees_with_explicit():
    rng = random.Random("tensor-hetero")
    for _ in range(10):
        K1 = random_kernel(rng, rng.randint(2, 3), rng.randint(2, 3), max_den=8)
        K2 = random_kernel(rng, rng.randint(2, 3), rng.randint(2, 3), max_den=8)
        explicit = K1.tensor_power(2).tensor(K2)
        for g in (fmpq(1), _gamma(rng)):
            assert eta_hockey_stick_tensor_product([(K1, 2), (K2, 1)], g) == eta_hockey_stick(explicit, g)


def test_branch_and_bound_agrees_with_exhaustive():
    rng = random.Random("tensor-bb")
    for _ in range(12):
        K = random_kernel(rng, rng.randint(2, 3), rng.randint(2, 3), max_den=8, full_support=True)
        n, g = rng.randint(2, 7), _gamma(rng)
        a = eta_hockey_stick_tensor_product_witness([(K, n)], g, exhaustive_limit=0)
        b = eta_hockey_stick_tensor_product_witness([(K, n)], g)
        assert a.value == b.value


# -- structure: equal coordinates, mixed maximizers, dominance ---------------------------------------

def test_equal_coordinates_do_not_change_hockey_stick():
    """E_γ(P⊗R‖Q⊗R) = E_γ(P‖Q) for every γ ≥ 0 (the identity the search is built on)."""
    rng = random.Random("tensor-equal")
    for _ in range(20):
        K = random_kernel(rng, 3, rng.randint(2, 4), max_den=9)
        P, Q, R = K.rows
        for g in (fmpq(0), fmpq(1, 2), fmpq(1), _gamma(rng)):
            assert hockey_stick_product([(P, Q, 1), (R, R, 2)], g) == hockey_stick(P, Q, g)


def test_maximizer_can_mix_directions():
    """η_TV(K^{⊗3}) for K = ((2/9,7/9),(1/2,1/2)) is attained at x = (0,1,1), x' = (1,0,0), not at a corner."""
    K = Kernel([["2/9", "7/9"], ["1/2", "1/2"]])
    w = eta_hockey_stick_tensor_product_witness([(K, 3)], 1)
    assert w.value == fmpq(5, 12) == eta_tv(K.tensor_power(3))
    assert sorted(c for *_, c in w.composition) == [1, 2]
    corner = hockey_stick_product([(K[0], K[1], 3)], 1)
    assert corner == fmpq(545, 1458) < w.value
    x, xp = w.input_sequences([(K, 3)])
    row = lambda seq: [K[seq[0]][a] * K[seq[1]][b] * K[seq[2]][c]
                       for a in range(2) for b in range(2) for c in range(2)]
    assert hockey_stick(row(x), row(xp), 1) == fmpq(5, 12)


def test_symmetric_kernels_have_one_pair_class():
    assert len(pair_classes(randomized_response(4, 3))) == 1
    assert len(pair_classes(optimal_binary_approx_ldp(2, "1/10"))) == 1
    w = eta_hockey_stick_tensor_product_witness([(randomized_response(3, 2), 500)], 1)
    assert w.evaluations == 1


def test_garbled_pair_classes_are_dropped():
    # row 2 is the midpoint of rows 0 and 1: (0,2) is a garbling of (0,1), etc.
    K = Kernel([["3/4", "1/4"], ["1/4", "3/4"], ["1/2", "1/2"]])
    # six ordered pairs, three loss classes by symmetry: (0,1)~(1,0), (0,2)~(1,2), (2,0)~(2,1)
    assert len(pair_classes(K, prune_dominated=False)) == 3
    assert [(c.x, c.x_prime) for c in pair_classes(K)] == [(0, 1)]
    for n in (1, 2, 3):
        assert eta_tv_tensor_power(K, n) == eta_tv(K.tensor_power(n))


def test_constant_kernel_and_single_row():
    K = Kernel([["1/3", "2/3"], ["1/3", "2/3"]])
    assert eta_tv_tensor_power(K, 50) == 0
    assert eta_tv_tensor_power(Kernel([["1/2", "1/2"]]), 3) == 0
    assert privacy_profile_tensor_power(K, 2) == privacy_profile(K.tensor_power(2))


def test_disjoint_supports_give_one():
    K = Kernel([["1", "0"], ["0", "1"]])
    assert eta_tv_tensor_power(K, 10) == 1
    assert eta_hockey_stick_tensor_power(K, 10, 7) == 1


# -- bad input ------------------------------------------------------------------------------------------

def test_errors():
    K = randomized_response(2, 3)
    with pytest.raises(CoercionError, match="float"):
        eta_hockey_stick_tensor_power(K, 3, 1.5)
    with pytest.raises(CoercionError, match="float"):
        hockey_stick_product([([0.5, 0.5], ["1/2", "1/2"], 1)], 1)
    with pytest.raises(ParameterError, match="n: must be a positive integer"):
        eta_tv_tensor_power(K, 0)
    with pytest.raises(ParameterError, match="gamma: must be >= 1"):
        eta_hockey_stick_tensor_power(K, 2, "1/2")
    with pytest.raises(ParameterError, match="max_evaluations"):
        eta_hockey_stick_tensor_product_witness([(Kernel([["1/2", "1/2"], ["1/4", "3/4"]]), 40)], 1,
                                                max_evaluations=5, filtered=False)  # the filter needs 1
    with pytest.raises(ParameterError, match="max_compositions"):
        privacy_profile_tensor_power(Kernel([["1/2", "1/2"], ["1/4", "3/4"]]), 40, max_compositions=10)
    with pytest.raises(ParameterError, match="multiplicity"):
        hockey_stick_product([(["1/2", "1/2"], ["1/2", "1/2"], -1)], 1)


def test_heterogeneous_with_a_constant_factor_and_witness_sequences():
    """A factor with identical rows adds nothing: η(C^{⊗3} ⊗ RR^{⊗2}) = η(RR^{⊗2}); the witness is explicit."""
    C = Kernel([["1/3", "2/3"], ["1/3", "2/3"]])
    K = randomized_response(2, 3)
    w = eta_hockey_stick_tensor_product_witness([(C, 3), (K, 2)], 2)
    assert w.value == eta_hockey_stick_tensor_power(K, 2, 2) == eta_hockey_stick(C.tensor_power(3).tensor(K.tensor(K)), 2)
    assert w.input_sequences([(C, 3), (K, 2)]) == ((0, 0, 0, 0, 0), (0, 0, 0, 1, 1))


def test_delta_at_irrational_gamma_is_the_linear_piece():
    """δ_n(e^ε) = A − B e^ε exactly; at a rational γ in the same linear piece the rational route agrees."""
    import sympy

    from exactdp import delta_tensor_power_eps

    K = randomized_response(2, 3)
    expr = delta_tensor_power_eps(K, 5, "1/2")  # e^(1/2) ≈ 1.6487; breakpoints are powers of 3
    x = sympy.Symbol("x")
    linear = expr.subs(sympy.exp(sympy.Rational(1, 2)), x)
    for g in (fmpq(33, 20), fmpq(8, 5), fmpq(2)):
        assert linear.subs(x, sympy.Rational(int(g.p), int(g.q))) == sympy.Rational(str(delta_tensor_power(K, 5, g)))
    assert delta_tensor_power_eps(K, 5, 0) == sympy.Rational(203, 256)  # e^0 = 1 is rational: η_TV
    # asymmetric kernel, two classes: the maximum over pair types is decided by certified comparisons
    A = Kernel([["2/9", "7/9"], ["1/2", "1/2"]])
    expr = delta_tensor_power_eps(A, 3, sympy.log(2) / 3)  # e^eps = 2^(1/3), irrational
    for g in (fmpq(126, 100), fmpq(1259921, 1000000)):
        # the piece is found at 2^(1/3) ≈ 1.259921; nearby rationals on the same piece give the same line
        val = expr.subs(sympy.Pow(2, sympy.Rational(1, 3)), sympy.Rational(int(g.p), int(g.q)))
        assert val == sympy.Rational(str(delta_tensor_power(A, 3, g)))
    with pytest.raises(ParameterError, match="eps"):
        delta_tensor_power_eps(K, 2, "-1/2")
    with pytest.raises(CoercionError, match="float"):
        delta_tensor_power_eps(K, 2, 0.5)
