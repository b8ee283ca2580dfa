"""Soundness: deliberately wrong variants of registered claims must come out REFUTED with a valid
counterexample (re-checked here independently), never PROVED or VERIFIED.

Variants: a constant changed (1 + e^-eps -> 1 + 2e^-eps; log(Gamma) -> log(Gamma - 1)), a sign
(phi with 1 + delta), 1 - Nc replaced by 1 - c (PML capacity closed form), an exponent n replaced by n - 1
(LDP of product kernels), a strict inequality made non-strict at a tight point (Thm 2's converse).
"""

import pytest
import sympy
from exactdp_proofs.asoodeh2021.a07_phi_lemma import phi_bound_check
from exactdp_proofs.background.d07_product_kernels import power_ratio_check
from exactdp_proofs.findings._cross_paper import E, ratio_identity_check
from exactdp_proofs.grosse2026._thm4_corollaries import bound_check
from exactdp_proofs.grosse2026.pml_capacity_closed_form import closed_form_check
from exactdp_proofs.grosse2026.thm2 import converse_check
from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.measures.contraction import eta_tv
from exactdp.measures.divergences import kl, tv
from exactdp.measures.privacy import is_ldp, ldp_ratio, pml_ratio
from exactdp.numbers.linalg import column_extremes, column_sums
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.verification.claims import CheckContext, Verdict
from exactdp.formulas import lemma4_gamma_max, xi
from exactdp.verification.quantities import pml_ratio_by_vertices
from tests.exact import q

SEEDS = (0, 1)


def _refuted(outcome):
    assert outcome.verdict is Verdict.REFUTED, (outcome.verdict, outcome.summary)
    assert outcome.counterexample
    return outcome.counterexample


def _K(rows):
    return Kernel(rows)


@pytest.mark.parametrize("seed", SEEDS)
def test_constant_changed_in_x1_identity(seed):
    ce = _refuted(ratio_identity_check(1 + 2 / E)(CheckContext(seed=seed, quick=True)))
    g = sympy.Rational(ce["E"])
    assert g > 1 and (1 - 1 / g) / ((g - 1) / (g + 1)) != 1 + 2 / g
    assert sympy.Rational(ce["lhs_minus_rhs"]) == (1 - 1 / g) / ((g - 1) / (g + 1)) - (1 + 2 / g)


@pytest.mark.parametrize("seed", SEEDS)
def test_sign_flipped_in_phi(seed):
    wrong = lambda g, d: 1 - (1 + d) / g
    ce = _refuted(phi_bound_check(wrong)(CheckContext(seed=seed, quick=True)))
    K, g, d = _K(ce["K"]), q(ce["gamma"]), q(ce["delta"])
    assert bool(is_ldp(K, t=g, delta=d))  # a genuine (eps,delta)-LDP kernel ...
    assert eta_tv(K) > wrong(g, d)  # ... above the wrong bound
    assert eta_tv(K) <= 1 - (1 - d) / g  # and below the true phi


def _one_minus_c(K, c):
    """The wrong closed form with (1 - c) in place of (1 - Nc)."""
    R = K.int_rows()
    amax, amin = column_extremes(R)
    S = column_sums(R)
    best = None
    for y in range(K.M):
        hi = K[int(amax[y]), y]
        if hi == 0:
            continue
        r = hi / (c * S[y] + (1 - c) * K[int(amin[y]), y])
        best = r if best is None or r > best else best
    return best


@pytest.mark.parametrize("seed", SEEDS)
def test_one_minus_c_instead_of_one_minus_Nc(seed):
    ce = _refuted(closed_form_check(_one_minus_c)(CheckContext(seed=seed, quick=True)))
    K, c = _K(ce["K"]), q(ce["c"])
    assert _one_minus_c(K, c) != pml_ratio_by_vertices(K, c) == pml_ratio(K, c)


@pytest.mark.parametrize("seed", SEEDS)
def test_exponent_n_minus_one(seed):
    ce = _refuted(power_ratio_check(lambda n: n - 1)(CheckContext(seed=seed, quick=True)))
    K, n = _K(ce["K"]), int(ce["n"])
    assert ldp_ratio(K.tensor_power(n)) == ldp_ratio(K) ** n != ldp_ratio(K) ** (n - 1)


@pytest.mark.parametrize("seed", SEEDS)
def test_strict_made_non_strict_at_tight_point(seed):
    ce = _refuted(converse_check(strict=False)(CheckContext(seed=seed, quick=True)))
    K, c = _K(ce["K"]), q(ce["c"])
    assert pml_ratio(K, c) == 2 / (K.N * c)  # exactly on the threshold: the witness


@pytest.mark.parametrize("seed", SEEDS)
def test_constant_dropped_in_corollary_1(seed):
    wrong = lambda G: sympy.log(to_sympy(G) - 1)
    ce = _refuted(bound_check(kl, wrong, "Cor 1 variant", "cor1")(CheckContext(seed=seed, quick=True)))
    K, c = _K(ce["K"]), q(ce["c"])
    P, Q = [q(v) for v in ce["P"]], [q(v) for v in ce["Q"]]
    g = pml_ratio(K, c)
    lhs = kl(K.apply(P), K.apply(Q))
    rhs = to_sympy(xi(g, c, K.N)) * wrong(lemma4_gamma_max(g, c, K.N)) * to_sympy(tv(P, Q))
    assert not bool(decide_le(lhs, rhs))
    assert min(P) >= c and min(Q) >= c


def test_correct_versions_are_not_refuted():
    ctx = CheckContext(seed=0, quick=True)
    assert ratio_identity_check()(ctx).verdict is Verdict.PROVED
    for check in (phi_bound_check(), closed_form_check(), power_ratio_check(), converse_check()):
        assert check(ctx).verdict is Verdict.VERIFIED


@pytest.mark.parametrize("seed", SEEDS)
def test_constant_changed_in_theorem_1(seed):
    """'(eps,delta)-LDP iff eta_{e^eps}(K) <= delta' with the coefficient halved must be refuted."""
    from exactdp_proofs.asoodeh2021.thm1 import equivalence_check

    from exactdp.measures.contraction import eta_hockey_stick_witness
    from exactdp.verification.quantities import is_ldp_by_subsets

    def halved(K, g):
        v, a, b = eta_hockey_stick_witness(K, g)
        return v / 2, a, b

    ce = _refuted(equivalence_check(halved)(CheckContext(seed=seed, quick=True)))
    K, g, d = _K(ce["K"]), q(ce["gamma"]), q(ce["delta"])
    true_star = eta_hockey_stick_witness(K, g)[0]
    assert d < true_star and not is_ldp_by_subsets(K, g, d)  # halved value is not a valid LDP level


def test_two_point_value_scaled_down_is_refuted_with_an_lp_witness():
    """η_γ(K) = (9/10)·(two-point value) must be refuted; the LP's (P, Q) violate the contraction directly."""
    from exactdp_proofs.background.b01_dobrushin import lp_check

    from exactdp.measures.contraction import eta_hockey_stick
    from exactdp.measures.divergences import hockey_stick

    check = lp_check((fmpq(1), fmpq(2)), "b2", (2, 2), value=lambda K, g: eta_hockey_stick(K, g) * fmpq(9, 10))
    ce = _refuted(check(CheckContext(seed=0, quick=True)))
    K, g, t = _K(ce["K"]), q(ce["gamma"]), q(ce["t"])
    P, Q = [q(v) for v in ce["lp_P"]], [q(v) for v in ce["lp_Q"]]
    assert hockey_stick(K.apply(P), K.apply(Q), g) > t * hockey_stick(P, Q, g)
