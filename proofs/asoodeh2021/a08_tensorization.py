r"""[A] §III (appendix p.16), A-8 — tensorized contraction: η_TV(K₁⊗…⊗K_n) ≤ φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ.

Statement: for (ε,δ)-LDP kernels K_i, η_f(K₁⊗…⊗K_n) ≤ η_TV(K₁⊗…⊗K_n) ≤ φⁿ(ε,δ); the appendix writes
           η_{e^ε}(P_{Z^n|X^n}) ≤ φⁿ(ε,δ).  With γ = e^ε rational, φⁿ = 1 − γ^{−n}(1−δ)ⁿ is rational.
Proved:    η_{e^ε}(⊗K_i) ≤ η_TV(⊗K_i) ≤ φⁿ(ε,δ) for every n ≥ 1, all sizes, real t = e^ε ≥ 1, δ ∈ [0, 1], from
           certificates only: the product is (nε, 1 − (1−δ)ⁿ)-LDP (composition for every n,
           :mod:`exactdp.theory.composition_certificates`, the claim background.b10_composition), with level
           tⁿ ≥ 1 and 1 − (1−δ)ⁿ ∈ [0, 1] (the induction's invariants); the φ-lemma at that level
           (class_certificates.ldp_tv and ldp_statements, the claim asoodeh2021.a07_phi_lemma);
           φ(nε, 1 − (1−δ)ⁿ) = φⁿ(ε,δ) with symbolic n; η_{e^ε} ≤ η_TV from the two-point formulas at γ = e^ε and
           γ = 1 (:mod:`exactdp.theory.e_gamma_certificates`, asoodeh2021.thm3_two_point) and E_γ ≤ TV summand-wise.
Supporting (exactly): the exact η_TV(K^{⊗n}) and η_{E_γ}(K^{⊗n}) (type classes with an exact pair-type
           search, :mod:`exactdp.measures.tensor`) against φⁿ at the exact levels (γ, δ = η_{E_γ}(K)) of every
           catalogue kernel (LDP ratio with δ = 0, and a midpoint γ with its tight δ), n ≤ 1000, and of
           seeded random kernels (n ≤ 100; n = 1000 for one 2×2 kernel in full mode); heterogeneous
           products K₁^{⊗a} ⊗ K₂^{⊗b} against φ^{a+b} at the common level.  Tightness is reported as the
           slack factor (1 − η_TV)/(γ^{−n}(1−δ)ⁿ) ≥ 1 (1 = tight) at the largest n.
Not shown: sequentially interactive mechanisms; the first inequality for a general f (η_f ≤ η_TV is B-3,
           background.b03_eta_f_le_eta_tv, cited; the claim's statement is the E_{e^ε} form).
"""

from __future__ import annotations

from exactdp.measures.tensor import eta_hockey_stick_tensor_power, eta_hockey_stick_tensor_product, phi_n
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

from exactdp.theory import class_certificates as CC
from exactdp.theory import composition_certificates as CompC
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification.claims import proved
from exactdp.numbers.formula_text import written_step as step

from ._phi_chain import phi_n_identity
from ._tensor_instances import (
    approx,
    catalogue_items,
    common_level_products,
    leveled,
    random_items,
)
from .._statements import composition, phi_contraction, phi_n_levels


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


SCOPE = "all n >= 1, all N, M; t = e^eps >= 1, 0 <= delta <= 1"


def tensorization_certificates() -> tuple:
    """Every certificate of the chain eta_{e^eps}(K^(x n)) <= eta_TV <= phi^n (each once)."""
    certs = (*CompC.composition_certificates(), CC.ldp_tv(), CC.ldp_statements(), phi_n_identity(),
             *EG.thm3_certificates(), EG.e_gamma_below_tv())
    return tuple(dict.fromkeys(certs))


def proof_check(ctx):
    """Every n and size, from certificates: composition, the phi-lemma at the composed level, the phi^n identity and
    the two-point formulas with E_gamma <= TV."""
    return proved("eta_{e^eps}(K^(x n)) <= eta_TV(K_1 (x) ... (x) K_n) <= phi^n(eps, delta) for every n, from certificates",
                  tensorization_certificates(), SCOPE, derivation=(
                      step("composition (every n, induction with symbolic n): the product of n kernels is LDP with ε level "
                           "`n*eps` and δ level `1 - (1 - delta)^n`, with `t^n >= 1` and `0 <= 1 - (1 - delta)^n <= 1` "
                           "(invariants)"),
                      step("phi-lemma at that level (every N, M): `eta_tv <= (T - 1 + 2*D)/(T + 1)`, at most "
                           "`1 - (1 - D)/T`, which is phi at that level, with `T = t^n` and "
                           "`D = 1 - (1 - delta)^n`"),
                      step("`phi(n*eps, 1 - (1 - delta)^n) = phi(eps, delta)^n` (symbolic n, the registry's phi "
                           "substituted)"),
                      step("eta_t and eta_TV are the largest E_t and TV between two rows (two-point formula, "
                           "`gamma = t` and `gamma = 1`), and `E_t <= TV` for `t >= 1` summand-wise: "
                           "`eta_t <= eta_tv`")))


register(Claim(
    written=(phi_contraction("asoodeh2021.a08_tensorization"), *composition("asoodeh2021.a08_tensorization"), phi_n_levels("asoodeh2021.a08_tensorization")),
    id="asoodeh2021.a08_tensorization",
    domain=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"),
    catalogue=("A-8", "D-13"),
    source=Source(ASOODEH2021, "tensorized contraction", section="III", page="4, 16"),
    title="n-fold products of (eps,delta)-LDP kernels contract TV by at most phi^n(eps,delta)",
    statement=r"\eta_{e^\varepsilon}(K^{\otimes n})\le\eta_{TV}(K_1\otimes\cdots\otimes K_n)\le\varphi^{n}(\varepsilon,\delta)"
              r"=1-e^{-n\varepsilon}(1-\delta)^n",
    hypotheses=("each `K_i` (`eps`, `delta`)-LDP; `gamma = e^eps`, `eps >= 0` real (instances: `gamma` "
                "rational); non-interactive"),
    checks=(Check("proof", proof_check, "certificates: composition, phi-lemma, phi^n identity, two-point formulas"),
            Check("catalogue kernels, n <= 1000", _catalogue, supporting=True),
            Check("random kernels, exact pair-type search", _random, supporting=True),
            Check("heterogeneous products", _heterogeneous, supporting=True)),
    expected=Verdict.PROVED,
    kind="lemma",
    notes="phi^n is a label, not a power (F-A1).  The bound is far from tight for large n: see the slack factors.",
    related=("findings.fa01_phi_power", "background.b10_composition", "asoodeh2021.thm3_two_point",
             "asoodeh2021.a07_phi_lemma", "background.b03_eta_f_le_eta_tv"),
    formulas=("eta_E(exp(eps), K_n) <= eta_tv(K_n)",
              "eta_tv(K_n) <= phi_n(eps, delta)",
              "phi_n(eps, delta) = 1 - exp(-n*eps)*(1 - delta)^n"),
))
