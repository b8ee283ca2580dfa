r"""F-G12 (docs/claims.md §6): the floor class Q(c₁c₂) over K₁ ⊗ K₂ does not compose multiplicatively.

Statement checked (and refuted): the PML level of K₁ ⊗ K₂ over Q(c₁c₂) (every prior on the product alphabet
           with least mass ≥ c₁c₂, [G] Def. 2 at c = c₁c₂) is at most t₁·t₂, t_i the (ε, c_i)-PML level of K_i.
Witness:   binary randomized response at e^ε = 3 twice, c₁ = c₂ = 1/4: t₁ = t₂ = 2, so t₁t₂ = 4 (the level over
           the product priors, findings.fg11_product_prior_pml), while the correlated prior
           (1/16, 1/16, 1/16, 13/16) of Q(1/16) gives 36/7 > 4 (exact).  Random pairs exceed t₁t₂ as well.
           The product class sits inside the floor class (P₁(x₁)P₂(x₂) ≥ c₁c₂), so the floor level is always
           ≥ t₁t₂; the witness shows it is not ≤.
"""

from flint import fmpq

from exactdp.measures.privacy import pml_ratio, pml_ratio_witness
from exactdp.mechanisms import randomized_response
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    def cases():
        for t, c in ((3, fmpq(1, 4)), (2, fmpq(1, 3)), (3, fmpq(1, 2))):
            K = randomized_response(2, t)
            yield K, K, c, c

    def test(x):
        K1, K2, c1, c2 = x
        level, y, prior = pml_ratio_witness(K1.tensor(K2), c1 * c2)
        t1, t2 = pml_ratio(K1, c1), pml_ratio(K2, c2)
        return level <= t1 * t2, exact_data(K1=K1, K2=K2, c1=c1, c2=c2, floor=c1 * c2, floor_level=level,
                                            output=y, prior=prior, t1=t1, t2=t2, product=t1 * t2)

    return check_instances([("binary randomized response twice", cases())], test,
                           claim="PML level of K1 (x) K2 over Q(c1 c2) <= t1 t2")


register(Claim(
    id="findings.fg12_floor_class_composition",
    catalogue=("F-G12", "G-11"),
    source=Source(GROSSE2026, "Definition 2 (PML class) applied to product kernels", section="III"),
    title="The floor class Q(c1 c2) over K1 (x) K2 does not compose: its PML level exceeds t1*t2",
    statement=r"\sup_{P\in\mathcal Q(c_1c_2)}\max_y e^{\ell_{K_1\otimes K_2\times P}(X\to y)}"
              r"\le e^{\varepsilon_1^*(c_1)}\,e^{\varepsilon_2^*(c_2)}",
    hypotheses="`0 < c_i <= 1/N_i`",
    checks=(Check("witness", _run, "binary randomized response, exact levels"),),
    expected=Verdict.REFUTED,
    kind="finding",
    related=("findings.fg11_product_prior_pml",),
    formulas=("pml_floor(K1, K2, c1*c2) <= t1*t2",),
))
