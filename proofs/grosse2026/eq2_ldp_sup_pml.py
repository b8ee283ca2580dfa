r"""[G] eq. (2) and §II-B (G-3, G-8): LDP(K) = sup_{P_X} sup_y ℓ_{K×P_X}(X→y).

Statement: LDP(K) = sup_y sup_{P_X ∈ 𝒫(𝒳)} ℓ_{K×P_X}(X→y) (a sup over full-support priors, not attained).
Checked:   exactly, on random kernels (with and without zeros): along c_k = 1/(N·10^k), k = 1..6, the
           PML capacity e^{C(K,Q_X(c_k))} is non-decreasing, never above the LDP ratio, and within the
           certified gap LDP·c·S_y/min_y of it (so it converges to LDP); when LDP = ∞ it grows at least like
           max_y/(c S_y) → ∞; a random full-support prior stays strictly below a finite LDP > 0 (the sup is not
           attained).
Not shown: —
"""

import sympy
from flint import fmpq

from exactdp.measures.privacy import ldp_ratio_witness, pml, pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("eq2")

    def instances():
        for k in range(ctx.size(20, 200)):
            N = 2 + k % 3
            yield inst.random_kernel_with_zeros(rng, N, 2 + k % 3) if k % 3 == 0 else \
                inst.random_kernel(rng, N, 2 + k % 3, full_support=True)

    def test(K):
        r, y, _, _ = ldp_ratio_witness(K)
        col = K.column(y)
        S = sum(col, fmpq(0))
        prev = None
        for k in range(1, 7):
            c = fmpq(1, K.N * 10 ** k)
            v = pml_ratio(K, c)
            if prev is not None and v < prev:
                return False, exact_data(K=K, c=c, value=v, previous=prev, issue="not monotone")
            prev = v
            if r == sympy.oo:
                if v < max(col) / (c * S):
                    return False, exact_data(K=K, c=c, value=v, issue="does not diverge")
            elif v > r or (min(col) > 0 and r - v > r * c * S / min(col)):
                return False, exact_data(K=K, c=c, value=v, ldp_ratio=r, issue="gap")
        if r != sympy.oo and r > 1:  # not attained: a full-support prior stays strictly below LDP
            P = inst.random_distribution(rng, K.N, 12, full_support=True)
            out = K.apply(P)
            top = max(pml(K, P, z).ratio for z in range(K.M) if out[z] != 0)
            if not top < r:
                return False, exact_data(K=K, P=P, pml=top, ldp_ratio=r, issue="attained")
        return True, exact_data(K=K, ldp_ratio=r, last=prev)

    return check_instances([("random kernels (1/3 with zeros)", instances())], test,
                           claim="e^{C(K,Q(c))} increases to e^{LDP(K)} as c -> 0")


register(Claim(
    id="grosse2026.eq2_ldp_sup_pml",
    catalogue=("G-3", "G-8"),
    source=Source(GROSSE2026, "eq. (2)", section="I, II-B", equation="2"),
    title="LDP is the supremum of PML over all priors",
    statement=r"\mathrm{LDP}(K)=\sup_y\sup_{P_X\in\mathcal P(\mathcal X)}\ell_{K\times P_X}(X\to y)",
    hypotheses="finite kernels",
    checks=(Check("c -> 0 limit", _run),),
    expected=Verdict.VERIFIED,
    formulas=("LDP(K) = sup_pml(K)",),
))
