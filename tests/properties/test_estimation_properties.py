"""Properties of the exact testing and Bayes machinery (hypothesis; strategies from exactdp.testing)."""

from __future__ import annotations

from flint import fmpq
from hypothesis import given
from hypothesis import strategies as st

from exactdp.testing import exact_distributions, exact_rationals
from exactdp.theory.bernoulli import bernoulli_e_gamma_information
from exactdp.theory.estimation import (
    neyman_pearson_beta,
    product_tv,
    reveal_mechanism_risk,
    reveal_mechanism_risk_bound,
)


@given(exact_distributions(n=2, max_den=12), exact_distributions(n=2, max_den=12), st.integers(1, 3),
       exact_rationals(0, 1, 12))
def test_neyman_pearson_le_cam_floor(P0, P1, n, alpha):
    """Any test has α + β ≥ 1 − TV(P₀ⁿ,P₁ⁿ); the NP β attains it at some α and is ≤ 1 − α (trivial test)."""
    beta = neyman_pearson_beta(P0, P1, n, alpha)
    assert alpha + beta >= 1 - product_tv(P0, P1, n)
    assert beta <= 1 - alpha and beta >= 0


@given(exact_distributions(n=3, max_den=8), exact_distributions(n=3, max_den=8), exact_rationals(0, 1, 8),
       exact_rationals(0, 1, 8))
def test_neyman_pearson_convex_nonincreasing(P0, P1, a, b):
    """β(α) is non-increasing and convex: β((a+b)/2) ≤ (β(a) + β(b))/2."""
    lo, hi = min(a, b), max(a, b)
    f = lambda x: neyman_pearson_beta(P0, P1, 2, x)
    assert f(hi) <= f(lo)
    assert 2 * f((lo + hi) / 2) <= f(lo) + f(hi)


@given(st.integers(1, 30), exact_rationals(0, 1, 20).filter(lambda d: d > 0))
def test_reveal_risk_bound_dominates(n, d):
    assert reveal_mechanism_risk(n, d) <= reveal_mechanism_risk_bound(n, d)


@given(st.integers(1, 6), exact_rationals(1, 4, 6), exact_rationals(1, 4, 6))
def test_e_gamma_information_nonincreasing_in_gamma(n, g1, g2):
    """E_γ is non-increasing in γ, hence so is I_γ (the balls are ordered or overlap)."""
    lo, hi = min(g1, g2), max(g1, g2)
    a, b = bernoulli_e_gamma_information(n, lo, bits=60), bernoulli_e_gamma_information(n, hi, bits=60)
    assert not (b > a)
    assert a >= 0 and b <= 1 - fmpq(0)


@given(exact_distributions(max_size=3, max_den=10), st.integers(1, 3), st.data())
def test_product_tv_against_explicit_product(P, n, data):
    """Type-class summation equals TV of the explicitly built product distributions."""
    import itertools

    from exactdp.measures.divergences import tv

    Q = data.draw(exact_distributions(n=len(P), max_den=10))

    def power(D):
        out = []
        for seq in itertools.product(range(len(D)), repeat=n):
            v = fmpq(1)
            for y in seq:
                v *= D[y]
            out.append(v)
        return out
    assert product_tv(P, Q, n) == tv(power(P), power(Q))
