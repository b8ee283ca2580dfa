r"""F-G11 (docs/claims.md §6): PML composes multiplicatively over product priors.

Statement: for kernels K₁, K₂ and floors c_i ∈ (0, 1/N_i], the PML level of K₁ ⊗ K₂ over the product priors
           P₁ ⊗ P₂, P_i ∈ Q(c_i) ([G] Def. 2 with the class ProductPrior(c₁, c₂) in place of Q_X(c)), is
           t₁·t₂ with t_i = e^{ε_i*} the (ε, c_i)-PML level of K_i: sup_P max_y ℓ_{K₁⊗K₂×P}(X→y) = t₁t₂.
Proved:    every N₁, N₂, M₁, M₂ by the certificates of :mod:`exactdp.theory.product_pml_certificates` (the output
           probability and the largest entry of a product factor, so the leakage of (y₁, y₂) is r₁r₂ with
           r_i ≤ t_i, and the worst outputs and priors of the factors attain t₁t₂).
Supporting: the exact level over the product class from the definition
           (:func:`exactdp.measures.product_prior.pml_ratio_product_priors`: the explicit product kernel at
           every product of vertices) equals pml_ratio(K₁, c₁)·pml_ratio(K₂, c₂) on random kernels, zero
           entries included.
Not shown: the floor class Q(c₁c₂) (correlated priors): it does not compose so, F-G12
           (findings.fg12_floor_class_composition).
"""

from flint import fmpq

from .._statements import product_prior_level

from exactdp.measures.privacy import pml_ratio
from exactdp.measures.product_prior import ProductPrior, pml_ratio_product_priors
from exactdp.sources import GROSSE2026, Source
from exactdp.theory.product_pml_certificates import product_pml_certificates
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, proved, register


def _proof(ctx):
    return proved("PML of K1 (x) K2 over product priors P1 (x) P2, P_i in Q(c_i): the level is t1*t2, every N, M",
                  product_pml_certificates(), "all N, M (each factor); t1, t2 >= 1")


def _instances(ctx):
    rng = ctx.rng("fg11")

    def instances():
        for k in range(ctx.size(12, 60)):
            K1 = inst.random_kernel(rng, 2 + k % 2, 2 + k % 3, 6)
            K2 = inst.random_kernel(rng, 2 + (k // 2) % 2, 2 + (k // 3) % 2, 6)
            c1 = fmpq(1, K1.N + rng.randint(0, 2 * K1.N))
            c2 = fmpq(1, K2.N + rng.randint(0, 2 * K2.N))
            yield K1, K2, c1, c2

    def test(x):
        K1, K2, c1, c2 = x
        r = pml_ratio_product_priors([K1, K2], ProductPrior((K1.N, K2.N), (c1, c2)))
        t1, t2 = pml_ratio(K1, c1), pml_ratio(K2, c2)
        return r.ratio == t1 * t2, exact_data(K1=K1, K2=K2, c1=c1, c2=c2, product_level=r.ratio, t1=t1, t2=t2)

    return check_instances([("random pairs of kernels, floors in (0, 1/N]", instances())], test,
                           claim="PML level over product priors = t1 t2")


register(Claim(
    id="findings.fg11_product_prior_pml",
    catalogue=("F-G11", "G-11"),
    source=Source(GROSSE2026, "Definition 2 (PML class) applied to product kernels", section="III"),
    title="PML of K1 (x) K2 over product priors P1 (x) P2 (P_i in Q(c_i)) is the product t1*t2 of the levels",
    statement=r"\sup_{P_1\otimes P_2,\ P_i\in\mathcal Q(c_i)}\max_y e^{\ell_{K_1\otimes K_2\times P}(X\to y)}"
              r"=e^{\varepsilon_1^*(c_1)}\,e^{\varepsilon_2^*(c_2)}",
    hypotheses="`0 < c_i <= 1/N_i`",
    checks=(Check("proof", _proof, "certificates: the product factors; all N, M"),
            Check("instances", _instances, "exact level over the product class vs t1 t2", supporting=True)),
    expected=Verdict.PROVED,
    kind="finding",
    related=("findings.fg12_floor_class_composition",),
    formulas=("pml_product(K1, K2, c1, c2) = t1*t2",),
    domain=("t1 >= 1", "t2 >= 1"),
    written=(product_prior_level("findings.fg11_product_prior_pml"),),
))
