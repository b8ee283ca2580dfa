r"""[G] Appendices A and C (G-30): PML properties used in the proofs — post-processing.

Statement: M(ε,c) is closed under post-processing: K ∈ M(ε,c) ⟹ K∘L ∈ M(ε,c) for every kernel L.
Checked:   exactly: e^{C(KL, Q_X(c))} ≤ e^{C(K, Q_X(c))} for random K, L (with zeros) and c; the same for the
           LDP ratio.
Not shown: the proofs of the appendices (omitted in the stored text).
"""

import sympy
from flint import fmpq

from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("g30")

    def test(k):
        N = 2 + k % 3
        K = inst.random_kernel(rng, N, 2 + k % 3) if k % 2 else inst.random_kernel_with_zeros(rng, N, 2 + k % 3)
        L = inst.random_kernel(rng, K.M, 2 + k % 4)
        c = inst.random_rational(rng, fmpq(1, 40), fmpq(1, N), 40)
        a, b = pml_ratio(K @ L, c), pml_ratio(K, c)
        la, lb = ldp_ratio(K @ L), ldp_ratio(K)
        ldp_ok = lb == sympy.oo or (la != sympy.oo and la <= lb)
        return a <= b and ldp_ok, exact_data(K=K, L=L, c=c, pml_KL=a, pml_K=b)

    return check_instances([("random K, L, c", range(ctx.size(30, 300)))], test,
                           claim="post-processing never increases the PML level")


register(Claim(
    id="grosse2026.appendix_post_processing",
    catalogue=("G-30",),
    source=Source(GROSSE2026, "Appendices A and C", section="appendix"),
    title="M(eps,c) is closed under post-processing",
    statement=r"K\in\mathcal M(\varepsilon,c)\Longrightarrow K L\in\mathcal M(\varepsilon,c)",
    hypotheses="any kernel L on the outputs",
    checks=(Check("instances", _run),),
    expected=Verdict.VERIFIED,
))
