r"""B-10 — composition: n (ε,δ)-LDP mechanisms compose to an (nε, 1−(1−δ)ⁿ)-LDP mechanism.

Statement: if K is (ε,δ)-LDP then K^{⊗n} (and K₁⊗…⊗K_n) is (nε, 1−(1−δ)ⁿ)-LDP; with D-13,
           φ(nε, 1−(1−δ)ⁿ) = φⁿ(ε,δ).  With γ = e^ε: δ_n(γⁿ) ≤ 1 − (1−δ)ⁿ, δ_n = the exact privacy
           profile of the n-fold product (:func:`exactdp.delta_tensor_power`).
Checked:   exactly at the levels (γ, δ = η_{E_γ}(K)) of the catalogue kernels (n ≤ 1000) and of seeded random
           kernels (pair-type search), heterogeneous pairs at a common level, and the identity
           φ(nε, 1−(1−δ)ⁿ) = φⁿ(ε,δ) at the same rational points.  Reported: the exact δ_n(γⁿ) against the
           bound (for pure LDP both are 0: the composition theorem is tight at δ = 0).
Not shown: the optimal composition theorem (Kairouz–Oh–Viswanath) beyond its i = 0 term.
"""

from __future__ import annotations

from exactdp.measures.tensor import delta_tensor_power, eta_hockey_stick_tensor_product, phi_n
from exactdp.sources import CATALOGUE, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

from ..asoodeh2021._tensor_instances import (
    approx,
    catalogue_items,
    common_level_products,
    leveled,
    random_items,
)


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


register(Claim(
    id="background.b10_composition",
    catalogue=("B-10", "D-13"),
    source=Source(CATALOGUE, "B-10 (Kairouz-Oh-Viswanath 2015, i = 0 term)", section="2"),
    title="n-fold composition of (eps,delta)-LDP is (n eps, 1-(1-delta)^n)-LDP",
    statement=r"K\ (\varepsilon,\delta)\text{-LDP}\Rightarrow K^{\otimes n}\ (n\varepsilon,1-(1-\delta)^n)\text{-LDP};\quad"
              r"\varphi(n\varepsilon,1-(1-\delta)^n)=\varphi^n(\varepsilon,\delta)",
    hypotheses="gamma = e^eps rational, delta in [0, 1]; non-interactive",
    checks=(Check("catalogue kernels, exact profile of K^(x n)", _catalogue),
            Check("random kernels, exact profile of K^(x n)", _random),
            Check("heterogeneous products", _heterogeneous)),
    expected=Verdict.VERIFIED,
    kind="background",
))
