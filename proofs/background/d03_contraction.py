r"""D-3, D-4 and [G] §II-A (G-5): contraction coefficients and Dobrushin's coefficient.

Statement: η_TV(K) = sup_{P≠Q} TV(KP,KQ)/TV(P,Q) = max_{x,x'} TV(K_x,K_{x'}) ∈ [0,1] (D-4), and
           η_f ∈ [0,1]; the restricted coefficient η^𝒫 takes the sup over P, Q ∈ 𝒫 only.
Checked:   on random exact kernels, every sampled input pair has ratio ≤ the two-point value, the
           point masses at the maximizing pair attain it, and it lies in [0, 1].  (The exact LP proof of
           the supremum is background.b01_dobrushin.)
Not shown: the sup over all pairs here (see background.b01_dobrushin); η^𝒫 for singleton 𝒫 is undefined
           (findings.fg07_degenerate_c).
"""

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_tv_witness
from exactdp.measures.divergences import tv
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _ratios(ctx):
    rng = ctx.rng("d3")

    def test(k):
        K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 4)
        eta, x, x2 = eta_tv_witness(K)
        ok = 0 <= eta <= 1 and tv(K.apply(Distribution.point(K.N, x)), K.apply(Distribution.point(K.N, x2))) == eta
        data = exact_data(K=K, eta_tv=eta)
        for _ in range(5):
            P, Q = inst.random_distribution(rng, K.N), inst.random_distribution(rng, K.N)
            d = tv(P, Q)
            if d > 0 and tv(K.apply(P), K.apply(Q)) > eta * d:
                return False, exact_data(K=K, P=P, Q=Q, eta_tv=eta, ratio=tv(K.apply(P), K.apply(Q)) / d)
        return ok, data

    return check_instances([("random kernels x 5 input pairs", range(ctx.size(30, 300)))], test,
                           claim="TV ratio <= max pairwise TV, attained at point masses")


register(Claim(
    id="background.d03_contraction",
    catalogue=("D-3", "D-4", "G-5"),
    source=Source(GROSSE2026, "contraction coefficients", section="II-A"),
    title="Contraction coefficients; Dobrushin's coefficient as the max pairwise TV",
    statement=r"\eta_{TV}(K)=\sup_{P\ne Q}\frac{\mathrm{TV}(K\circ P,K\circ Q)}{\mathrm{TV}(P,Q)}=\max_{x,x'}\mathrm{TV}(K_x,K_{x'})\in[0,1]",
    hypotheses="finite alphabets",
    checks=(Check("ratios and attainment", _ratios),),
    expected=Verdict.VERIFIED,
    kind="definition",
    related=("background.b01_dobrushin", "findings.fg07_degenerate_c"),
    formulas=("eta_tv(K) = sup_TV_ratio(K)", "sup_TV_ratio(K) = max_TV_rows(K)", "0 <= eta_tv(K) <= 1"),
))
