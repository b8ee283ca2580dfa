"""Properties of the exact n-fold products (hypothesis; each names the statement it checks)."""

from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import eta_hockey_stick, eta_hockey_stick_tensor_power, eta_tv, eta_tv_tensor_power
from exactdp.measures.tensor import eta_hockey_stick_tensor_product, phi_n
from exactdp.testing import exact_kernels, exact_rationals

small_kernels = st.integers(2, 3).flatmap(lambda N: exact_kernels(N=N, M=2, max_den=10))
gammas = exact_rationals(1, 6, 12)


@settings(max_examples=30)
@given(small_kernels, st.integers(1, 12))
def test_data_processing_monotone_in_n(K, n):
    """Dropping a factor is post-processing: η_TV(K^{⊗n}) ≤ η_TV(K^{⊗(n+1)})."""
    assert eta_tv_tensor_power(K, n) <= eta_tv_tensor_power(K, n + 1)


@settings(max_examples=30)
@given(small_kernels, st.integers(1, 10), gammas, gammas)
def test_monotone_in_gamma(K, n, g1, g2):
    """E_γ is non-increasing in γ, so is η_{E_γ}(K^{⊗n}); η_{E_γ} ≤ η_TV."""
    lo, hi = min(g1, g2), max(g1, g2)
    assert eta_hockey_stick_tensor_power(K, n, hi) <= eta_hockey_stick_tensor_power(K, n, lo) <= eta_tv_tensor_power(K, n)


@settings(max_examples=30)
@given(small_kernels, st.integers(1, 15), gammas)
def test_tensorization_bound_a8(K, n, g):
    """A-8: η_TV(K^{⊗n}) ≤ φⁿ at the tight level (γ, η_{E_γ}(K))."""
    assert eta_tv_tensor_power(K, n) <= phi_n(g, eta_hockey_stick(K, g), n)


@settings(max_examples=30)
@given(small_kernels, small_kernels, st.integers(1, 4), st.integers(1, 4))
def test_dobrushin_tensorization_b9(K1, K2, a, b):
    """B-9: max η_i ≤ η_TV(K1^{⊗a} ⊗ K2^{⊗b}) ≤ 1 − (1−η1)^a (1−η2)^b."""
    e1, e2 = eta_tv(K1), eta_tv(K2)
    eta = eta_hockey_stick_tensor_product([(K1, a), (K2, b)], 1)
    assert max(e1, e2) <= eta <= 1 - (1 - e1) ** a * (1 - e2) ** b


@settings(max_examples=20)
@given(small_kernels, st.integers(1, 8), gammas)
def test_composition_b10(K, n, g):
    """B-10: δ_n(γⁿ) ≤ 1 − (1 − δ₁(γ))ⁿ."""
    d = eta_hockey_stick(K, g)
    assert eta_hockey_stick_tensor_power(K, n, g**n) <= 1 - (fmpq(1) - d) ** n
