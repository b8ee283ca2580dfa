r"""B-9 — tensorization of the Dobrushin coefficient (coupling argument; Polyanskiy–Wu).

Statement: max_i η_TV(K_i) ≤ η_TV(K₁⊗…⊗K_n) ≤ 1 − ∏_i (1 − η_TV(K_i)).
Checked:   exactly, on seeded random pairs K₁⊗K₂ by two independent routes (the explicit Kronecker
           product with the two-point formula, and the type-class pair-type search of
           :mod:`exactdp.measures.tensor`, which must agree); on heterogeneous products
           K₁^{⊗a}⊗K₂^{⊗b} and tensor powers K^{⊗n} (n ≤ 1000 for catalogue kernels) by the type-class route.
Not shown: infinite alphabets; the coupling proof itself (an instance check, not a proof).
"""

from __future__ import annotations

from exactdp.measures.contraction import eta_tv
from exactdp.measures.tensor import eta_hockey_stick_tensor_product, eta_tv_tensor_power
from exactdp.sources import CATALOGUE, Source
from exactdp.verification import instances as inst
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

from ..asoodeh2021._tensor_instances import CATALOGUE_N, approx, catalogue_kernels


def _refute(what, **data):
    return Outcome(Verdict.REFUTED, f"B-9 fails: {what}", instances=1,
                   counterexample={k: (v.as_strings() if hasattr(v, "as_strings") else str(v)) for k, v in data.items()})


def _pairs(ctx):
    rng = ctx.rng("b9-pairs")
    count = 0
    for k in range(ctx.size(10, 60)):
        K1 = inst.random_kernel(rng, 2 + k % 2, 2 + (k // 2) % 2, 9)
        K2 = inst.random_kernel(rng, 2 + (k // 3) % 2, 2 + k % 2, 9)
        e1, e2 = eta_tv(K1), eta_tv(K2)
        explicit = eta_tv(K1.tensor(K2))
        typed = eta_hockey_stick_tensor_product([(K1, 1), (K2, 1)], 1)
        count += 1
        if explicit != typed:
            return _refute("explicit and type-class routes disagree", K1=K1, K2=K2, explicit=explicit, typed=typed)
        if not (max(e1, e2) <= explicit <= 1 - (1 - e1) * (1 - e2)):
            return _refute("bounds", K1=K1, K2=K2, eta1=e1, eta2=e2, eta_product=explicit)
    return Outcome(Verdict.VERIFIED, f"max(eta1, eta2) <= eta_TV(K1 (x) K2) <= 1-(1-eta1)(1-eta2) on {count} random pairs, "
                   "explicit Kronecker product = type classes", instances=count, families=(("random pairs", count),))


def _products(ctx):
    rng = ctx.rng("b9-products")
    count = 0
    for k in range(ctx.size(6, 20)):
        K1 = inst.random_kernel(rng, 2, 2 + k % 2, 9, full_support=True)
        K2 = inst.random_kernel(rng, 2 + k % 2, 2, 9, full_support=True)
        e1, e2 = eta_tv(K1), eta_tv(K2)
        for a, b in ((2, 1), (3, 4), (10, 10)):
            eta = eta_hockey_stick_tensor_product([(K1, a), (K2, b)], 1)
            count += 1
            if not (max(e1, e2) <= eta <= 1 - (1 - e1) ** a * (1 - e2) ** b):
                return _refute("heterogeneous product", K1=K1, K2=K2, a=a, b=b, eta_product=eta)
    margins = {}
    for name, K in catalogue_kernels():
        e = eta_tv(K)
        for n in CATALOGUE_N[0 if ctx.quick else 1]:
            eta = eta_tv_tensor_power(K, n)
            count += 1
            if not (e <= eta <= 1 - (1 - e) ** n):
                return _refute("tensor power", K=K, n=n, eta=e, eta_power=eta)
        margins[f"{name} n={n}"] = approx((1 - eta) / (1 - e) ** n)
    return Outcome(Verdict.VERIFIED, f"B-9 bounds hold on {count} heterogeneous products and catalogue tensor powers",
                   instances=count, families=(("random K1^a (x) K2^b", 3 * ctx.size(6, 20)),
                                              ("catalogue K^(x n)", count - 3 * ctx.size(6, 20))),
                   details={"(1-eta_TV(K^n))/(1-eta_TV(K))^n at the largest n (1 = tight)": margins})


register(Claim(
    id="background.b09_dobrushin_tensorization",
    catalogue=("B-9",),
    source=Source(CATALOGUE, "B-9 (coupling argument; Polyanskiy-Wu)", section="2"),
    title="Tensorization of the Dobrushin coefficient",
    statement=r"\max_i\eta_{TV}(K_i)\le\eta_{TV}(K_1\otimes\cdots\otimes K_n)\le1-\prod_i(1-\eta_{TV}(K_i))",
    hypotheses="finite kernels",
    checks=(Check("random pairs, two routes", _pairs), Check("products and tensor powers", _products)),
    expected=Verdict.VERIFIED,
    kind="background",
    formulas=("max_eta_tv_i <= eta_tv(K_n)", "eta_tv(K_n) <= 1 - prod_1_minus_eta_tv_i"),
))
