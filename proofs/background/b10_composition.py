r"""B-10 — composition: n (ε,δ)-LDP mechanisms compose to an (nε, 1−(1−δ)ⁿ)-LDP mechanism.

Statement: if K is (ε,δ)-LDP then K^{⊗n} (and K₁⊗…⊗K_n) is (nε, 1−(1−δ)ⁿ)-LDP; with D-13,
           φ(nε, 1−(1−δ)ⁿ) = φⁿ(ε,δ).  With γ = e^ε: δ_n(γⁿ) ≤ 1 − (1−δ)ⁿ, δ_n = the exact privacy
           profile of the n-fold product (:func:`exactdp.delta_tensor_power`).
Proved:    for every n ≥ 1, every size of every factor and real levels, heterogeneous ones included
           ((ε_i, δ_i)-LDP factors give (Σε_i, 1 − Π(1 − δ_i))-LDP), by
           :mod:`exactdp.theory.composition_certificates`: the two-fold lemma (P_i = min(P_i, t_iQ_i) +
           (P_i − t_iQ_i)₊, min-parts dominated by t₁t₂Q₁⊗Q₂, so E_{t₁t₂}(P₁⊗P₂‖Q₁⊗Q₂) ≤ 1 − (1−e₁)(1−e₂))
           and the induction on n with symbolic n (base C(0), step C(n) ⇒ C(n+1) a Farkas certificate,
           invariants Γ_n ≥ 1 and Π(1−δ_i) ∈ [0, 1]); the φ identity with symbolic n.
Supporting (exactly): at the levels (γ, δ = η_{E_γ}(K)) of the catalogue kernels (n ≤ 1000) and of seeded
           random kernels (pair-type search), heterogeneous pairs at a common level, and the identity
           φ(nε, 1−(1−δ)ⁿ) = φⁿ(ε,δ) at the same rational points.  Reported: the exact δ_n(γⁿ) against the
           bound (for pure LDP both are 0: the composition theorem is tight at δ = 0).
Not shown: the optimal composition theorem (Kairouz–Oh–Viswanath) beyond its i = 0 term; interactive
           (adaptive) composition.
"""

from __future__ import annotations

from exactdp.measures.tensor import delta_tensor_power, eta_hockey_stick_tensor_product, phi_n
from exactdp.sources import CATALOGUE, Source
from exactdp.theory import composition_certificates as CC
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step

from ..asoodeh2021._phi_chain import phi_n_identity
from ..asoodeh2021._tensor_instances import (
    approx,
    catalogue_items,
    common_level_products,
    leveled,
    random_items,
)
from .._statements import composition, phi_n_levels


def _composition(items, label):
    """δ_n(γⁿ) ≤ 1 − (1−δ)ⁿ and φ(nε, 1−(1−δ)ⁿ) = φⁿ(ε,δ) over ``(name, K, ns)`` items."""
    count, report = 0, {}
    for name, K, g, d, n, last in leveled(items):
        exact, bound = delta_tensor_power(K, n, g**n), 1 - (1 - d) ** n
        count += 1
        if not (exact <= bound and phi_n(g**n, bound, 1) == phi_n(g, d, n)):
            return Outcome(Verdict.REFUTED, f"{label}: delta_n(gamma^n) > 1-(1-delta)^n", instances=count,
                           counterexample={"K": K.as_strings(), "n": str(n), "gamma": str(g), "delta": str(d),
                                           "delta_n": str(exact), "bound": str(bound)})
        if last:
            shown = [approx(v) if v else "0" for v in (exact, bound)]
            report[f"{name} gamma={g} delta={d} n={n}"] = f"delta_n={shown[0]} vs bound {shown[1]}"
    return Outcome(Verdict.VERIFIED, f"delta_n(gamma^n) <= 1-(1-delta)^n on {count} {label} instances",
                   instances=count, families=((f"{label} kernels x levels x n", count),),
                   details={"exact delta_n(gamma^n) vs 1-(1-delta)^n at the largest n": report})


def _catalogue(ctx):
    return _composition(catalogue_items(ctx), "catalogue")


def _random(ctx):
    return _composition(random_items(ctx, "b10"), "random")


def _heterogeneous(ctx):
    count = 0
    for K1, K2, g, d, a, b in common_level_products(ctx, "b10-het"):
        exact = eta_hockey_stick_tensor_product([(K1, a), (K2, b)], g ** (a + b))
        count += 1
        if exact > 1 - (1 - d) ** (a + b):
            return Outcome(Verdict.REFUTED, "heterogeneous composition exceeds 1-(1-delta)^n", instances=count,
                           counterexample={"K1": K1.as_strings(), "K2": K2.as_strings(), "a": str(a),
                                           "b": str(b), "gamma": str(g), "delta": str(d), "delta_n": str(exact)})
    return Outcome(Verdict.VERIFIED, f"K1^(x a) (x) K2^(x b) is ((a+b) eps, 1-(1-delta)^(a+b))-LDP on {count} products",
                   instances=count, families=(("random pairs x gamma x (a, b)", count),))


def proof_check(ctx):
    """Every n, every size, heterogeneous levels: the certificates of :mod:`exactdp.theory.composition_certificates`."""
    return proved("K_1 (x) ... (x) K_n of (eps_i, delta_i)-LDP kernels is (sum eps_i, 1 - prod (1 - delta_i))-LDP, "
                  "every n (induction with symbolic n)", (*CC.composition_certificates(), phi_n_identity()), CC.SCOPE,
                  derivation=(
                       step("two-fold lemma: each P_i splits into its part below t_i Q_i, of mass `1 - e_i`, and the rest r_i, of "
                            "mass e_i; the product of the parts below is below t1 t2 times the product of the Q_i, "
                            "so `E_t1t2 <= 1 - (1 - e_1)*(1 - e_2)` (summand statements, summed)"),
                       step("C(n): the E-divergence at the product Gamma_n of the t_i between the products of the "
                            "P_i and of the Q_i is at most `1 - pi_n` whenever each pair has E at most delta_i, "
                            "with pi_n the product of the `1 - delta_i`; C(0): `E_1 = 0` and `pi_0 = 1`"),
                       step("C(n) implies C(n + 1): the two-fold lemma at Gamma_n and the next t, and the Farkas "
                            "step with multipliers 1, `1 - e_n1` and pi_n; `Gamma_n1 >= 1` and "
                            "`0 <= pi_n1 <= 1` (invariants); by induction, C(n) for every n"),
                       step("for the product kernel the pairs are the rows at x_i and x'_i, whose E-divergence is at "
                            "most delta_i by LDP on the attaining event; the bound for every pair of rows gives LDP "
                            "at the summed levels on every event (event form); equal levels: "
                            "`pi_n = (1 - delta)^n` and `Gamma_n = t^n`"),
                       step("`phi(n*eps, 1 - (1 - delta)^n) = phi(eps, delta)^n`, symbolic n (the registry's phi, "
                            "substituted)")))


register(Claim(
    written=(*composition("background.b10_composition"), phi_n_levels("background.b10_composition")),
    id="background.b10_composition",
    domain=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"),
    catalogue=("B-10", "D-13"),
    source=Source(CATALOGUE, "B-10 (Kairouz-Oh-Viswanath 2015, i = 0 term)", section="2"),
    title="n-fold composition of (eps,delta)-LDP is (n eps, 1-(1-delta)^n)-LDP",
    statement=r"K\ (\varepsilon,\delta)\text{-LDP}\Rightarrow K^{\otimes n}\ (n\varepsilon,1-(1-\delta)^n)\text{-LDP};\quad"
              r"\varphi(n\varepsilon,1-(1-\delta)^n)=\varphi^n(\varepsilon,\delta)",
    hypotheses=("`gamma = e^eps`, `eps >= 0` real (instances: `gamma` rational), `0 <= delta <= 1`; "
                "non-interactive"),
    checks=(Check("proof", proof_check, "certificates, every n, every size, heterogeneous levels"),
            Check("catalogue kernels, exact profile of K^(x n)", _catalogue, supporting=True),
            Check("random kernels, exact profile of K^(x n)", _random, supporting=True),
            Check("heterogeneous products", _heterogeneous, supporting=True)),
    expected=Verdict.PROVED,
    kind="background",
    formulas=("delta_K(eps) <= delta ⟹ delta_K_n(n*eps) <= 1 - (1 - delta)^n",
              "phi(n*eps, 1 - (1 - delta)^n) = phi_n(eps, delta)"),
))
