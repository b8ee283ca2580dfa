"""Properties of the exact core (issue 2), checked by hypothesis over exact random objects.

Each test names the proposition it checks; strategies come from :mod:`exactdp.testing`.
"""

import itertools

import sympy
from flint import fmpq
from hypothesis import given
from hypothesis import strategies as st

from exactdp import (
    chi2,
    eta_hockey_stick,
    eta_tv,
    hockey_stick,
    is_ldp,
    pml_ratio,
    privacy_profile,
    tv,
)
from exactdp.numbers.truth import Truth
from exactdp.testing import composable_kernels, distribution_pairs, exact_kernels, exact_rationals, gammas

ZERO = fmpq(0)


@given(distribution_pairs())
def test_tv_between_zero_and_one(pair):
    """0 ≤ TV(P,Q) ≤ 1, TV(P,P) = 0 (D-2)."""
    P, R = pair
    assert ZERO <= tv(P, R) <= 1
    assert tv(P, P) == 0
    assert tv(P, R) == tv(R, P)


@given(distribution_pairs(), gammas(), gammas())
def test_hockey_stick_non_increasing_in_gamma(pair, g1, g2):
    """E_γ is non-increasing in γ, and 0 ≤ E_γ ≤ TV for γ ≥ 1 (D-2)."""
    P, R = pair
    lo, hi = min(g1, g2), max(g1, g2)
    assert hockey_stick(P, R, lo) >= hockey_stick(P, R, hi)
    if hi >= 1:
        assert ZERO <= hockey_stick(P, R, hi) <= tv(P, R)


@given(distribution_pairs())
def test_e1_is_tv(pair):
    """E_1(P‖Q) = TV(P,Q) = ½‖P−Q‖₁ (D-2)."""
    P, R = pair
    half_l1 = sum((abs(p - q) for p, q in zip(P, R)), ZERO) / 2
    assert hockey_stick(P, R, 1) == tv(P, R) == half_l1


@st.composite
def kernel_and_inputs(draw):
    K = draw(exact_kernels(max_size=4))
    from exactdp.testing import exact_distributions

    return K, draw(exact_distributions(n=K.N)), draw(exact_distributions(n=K.N))


@given(kernel_and_inputs(), gammas())
def test_data_processing(kp, g):
    """Data processing: D(K∘P‖K∘Q) ≤ D(P‖Q) for TV, E_γ and χ² (D-2, D-3: η ≤ 1)."""
    K, P, R = kp
    KP, KR = K.apply(P), K.apply(R)
    assert tv(KP, KR) <= tv(P, R)
    assert hockey_stick(KP, KR, g) <= hockey_stick(P, R, g)
    before, after = chi2(P, R), chi2(KP, KR)
    if before is not sympy.oo:
        assert after is not sympy.oo and after <= before


@given(kernel_and_inputs(), gammas(min_value=1))
def test_two_point_formula_bounds_every_input_pair(kp, g):
    """The two-point value bounds every input pair: E_γ(K∘P‖K∘Q) ≤ η_γ(K)·E_γ(P‖Q) for γ ≥ 1 (B-2)."""
    K, P, R = kp
    assert hockey_stick(K.apply(P), K.apply(R), g) <= eta_hockey_stick(K, g) * hockey_stick(P, R, g)
    assert tv(K.apply(P), K.apply(R)) <= eta_tv(K) * tv(P, R)


@given(composable_kernels())
def test_dobrushin_submultiplicative(KL):
    """η_TV(K @ L) ≤ η_TV(K)·η_TV(L) (D-4)."""
    K, L = KL
    assert eta_tv(K @ L) <= eta_tv(K) * eta_tv(L)


@given(exact_kernels(max_size=3), gammas(min_value=1, max_value=4))
def test_eta_non_decreasing_over_tensor_powers(K, g):
    """η(K^{⊗n}) is non-decreasing in n, for TV and E_γ (fix the other coordinates); B-9 upper bound."""
    powers = [K, K.tensor(K)]
    if K.N * K.M <= 4:
        powers.append(powers[-1].tensor(K))
    etas = [eta_tv(P) for P in powers]
    assert etas == sorted(etas)
    hs = [eta_hockey_stick(P, g) for P in powers]
    assert hs == sorted(hs)
    e = etas[0]
    for n, v in enumerate(etas, start=1):
        assert v <= 1 - (1 - e) ** n  # B-9: tensorization of Dobrushin


@given(exact_kernels(max_size=4), st.lists(gammas(max_value=12), min_size=1, max_size=6))
def test_privacy_profile_agrees_with_eta(K, gs):
    """δ(γ) from privacy_profile equals η_{E_γ}(K) at random γ and exactly at every breakpoint."""
    prof = privacy_profile(K)
    for g in [*gs, *prof.breakpoints]:
        assert prof(g) == eta_hockey_stick(K, g)
    for a, b in zip(prof.breakpoints, prof.breakpoints[1:]):
        assert a < b
        mid = (a + b) / 2
        assert prof(mid) == eta_hockey_stick(K, mid)


@given(exact_kernels(max_size=3), gammas(min_value=1, max_value=6), exact_rationals(0, 1, 20))
def test_is_ldp_agrees_with_the_subset_definition(K, g, d):
    """is_ldp(K, γ, δ) ⟺ K(A|x) ≤ γK(A|x') + δ for every A ⊆ Y and x, x' (D-6, [A] Thm 1)."""
    subsets = itertools.chain.from_iterable(itertools.combinations(range(K.M), r) for r in range(K.M + 1))
    holds = all(sum((K[x, y] for y in A), ZERO) <= g * sum((K[x2, y] for y in A), ZERO) + d
                for A in subsets for x in range(K.N) for x2 in range(K.N))
    assert is_ldp(K, t=g, delta=d) is Truth.of(holds)


@given(exact_kernels(max_size=4), st.integers(1, 20), st.integers(1, 20))
def test_pml_ratio_non_increasing_in_c(K, a, b):
    """C(K, Q_X(c)) is non-increasing in c (G-11), and never exceeds 1/c (G-11 (b))."""
    c1, c2 = fmpq(1, K.N * a), fmpq(1, K.N * b)
    lo, hi = min(c1, c2), max(c1, c2)
    assert pml_ratio(K, lo) >= pml_ratio(K, hi)
    assert pml_ratio(K, hi) <= 1 / hi
