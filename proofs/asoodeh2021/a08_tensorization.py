r"""[A] §III (appendix p.16), A-8 — tensorized contraction: η_TV(K₁⊗…⊗K_n) ≤ φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ.

Statement: for (ε,δ)-LDP kernels K_i, η_f(K₁⊗…⊗K_n) ≤ η_TV(K₁⊗…⊗K_n) ≤ φⁿ(ε,δ); the appendix writes
           η_{e^ε}(P_{Z^n|X^n}) ≤ φⁿ(ε,δ).  With γ = e^ε rational, φⁿ = 1 − γ^{−n}(1−δ)ⁿ is rational.
Checked:   the exact η_TV(K^{⊗n}) and η_{E_γ}(K^{⊗n}) (type classes with an exact pair-type search,
           :mod:`exactdp.measures.tensor`) against φⁿ at the exact levels (γ, δ = η_{E_γ}(K)) of every
           catalogue kernel (LDP ratio with δ = 0, and a midpoint γ with its tight δ), n ≤ 1000, and of
           seeded random kernels (n ≤ 100; n = 1000 for one 2×2 kernel in full mode); heterogeneous
           products K₁^{⊗a} ⊗ K₂^{⊗b} against φ^{a+b} at the common level.  Tightness is reported as the
           slack factor (1 − η_TV)/(γ^{−n}(1−δ)ⁿ) ≥ 1 (1 = tight) at the largest n.
Not shown: sequentially interactive mechanisms; general f (only via B-3, not re-checked here); kernels
           with more than 3 inputs/outputs at large n (the pair-type search grows as O(n^D) per type).
"""

from __future__ import annotations

from exactdp.measures.tensor import eta_hockey_stick_tensor_power, eta_hockey_stick_tensor_product, phi_n
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

from ._phi_chain import PHI_STEP, phi_chain_check, phi_n_identity
from ._tensor_instances import (
    approx,
    catalogue_items,
    common_level_products,
    leveled,
    random_items,
)


def _check_family(items, label):
    """η_{E_γ}(K^{⊗n}) ≤ η_TV(K^{⊗n}) ≤ φⁿ over ``(name, K, ns)`` items; REFUTED at the first violation."""
    count, slack = 0, {}
    for name, K, g, d, n, last in leveled(items):
        eta = eta_hockey_stick_tensor_power(K, n, 1)
        eta_g = eta_hockey_stick_tensor_power(K, n, g)
        bound = phi_n(g, d, n)
        count += 1
        if not (eta_g <= eta <= bound):
            return Outcome(Verdict.REFUTED, f"{label}: eta(K^(x n)) > phi^n(eps, delta)", instances=count,
                           counterexample={"K": K.as_strings(), "n": str(n), "gamma": str(g), "delta": str(d),
                                           "eta_tv": str(eta), "eta_gamma": str(eta_g), "phi_n": str(bound)})
        if last:
            slack[f"{name} gamma={g} delta={d} n={n}"] = approx((1 - eta) / ((1 - d) / g) ** n)
    return Outcome(Verdict.VERIFIED, f"eta_E_gamma(K^(x n)) <= eta_TV(K^(x n)) <= phi^n on {count} {label} instances; "
                   "slack factor (1-eta_TV)/(gamma^-n (1-delta)^n) at the largest n in details",
                   instances=count, families=((f"{label} kernels x levels x n", count),),
                   details={"slack factor (1 = tight)": slack})


def _catalogue(ctx):
    return _check_family(catalogue_items(ctx), "catalogue")


def _random(ctx):
    return _check_family(random_items(ctx, "a8"), "random")


def _heterogeneous(ctx):
    count = 0
    for K1, K2, g, d, a, b in common_level_products(ctx, "a8-het", gammas=(2,), splits=((1, 1), (2, 3), (5, 5))):
        eta = eta_hockey_stick_tensor_product([(K1, a), (K2, b)], 1)
        count += 1
        if eta > phi_n(g, d, a + b):
            return Outcome(Verdict.REFUTED, "heterogeneous product exceeds phi^n", instances=count,
                           counterexample={"K1": K1.as_strings(), "K2": K2.as_strings(), "a": str(a), "b": str(b),
                                           "gamma": str(g), "delta": str(d), "eta_tv": str(eta)})
    return Outcome(Verdict.VERIFIED, f"eta_TV(K1^(x a) (x) K2^(x b)) <= phi^(a+b) at the common level on {count} products",
                   instances=count, families=(("random pairs x (a, b)", count),))


register(Claim(
    id="asoodeh2021.a08_tensorization",
    catalogue=("A-8", "D-13"),
    source=Source(ASOODEH2021, "tensorized contraction", section="III", page="4, 16"),
    title="n-fold products of (eps,delta)-LDP kernels contract TV by at most phi^n(eps,delta)",
    statement=r"\eta_{e^\varepsilon}(K^{\otimes n})\le\eta_{TV}(K_1\otimes\cdots\otimes K_n)\le\varphi^{n}(\varepsilon,\delta)"
              r"=1-e^{-n\varepsilon}(1-\delta)^n",
    hypotheses="each K_i (eps,delta)-LDP; gamma = e^eps rational; non-interactive",
    checks=(phi_chain_check((
                "the product K_1 (x) ... (x) K_n of (eps,delta)-LDP kernels is (n eps, 1 - (1 - delta)^n)-LDP "
                "(composition, background.b10_composition)",
                PHI_STEP + ", applied at the level (n eps, 1 - (1 - delta)^n)",
                "phi(n eps, 1 - (1 - delta)^n) = phi^n(eps, delta) (certificate below, every n >= 1)",
                "eta_{e^eps} <= eta_TV: both are maxima over pairs of rows (two-point formulas, "
                "asoodeh2021.thm3_two_point and D-4) and E_gamma <= TV for gamma >= 1"),
                ("background.b10_composition", "asoodeh2021.thm3_two_point"), extra=(phi_n_identity,)),
            Check("catalogue kernels, n <= 1000", _catalogue, supporting=True),
            Check("random kernels, exact pair-type search", _random, supporting=True),
            Check("heterogeneous products", _heterogeneous, supporting=True)),
    expected=Verdict.PROVED_MODULO,
    kind="lemma",
    notes="phi^n is a label, not a power (F-A1).  The bound is far from tight for large n: see the slack factors.",
    related=("findings.fa01_phi_power", "background.b10_composition", "asoodeh2021.thm3_two_point"),
))
