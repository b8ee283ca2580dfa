r"""[G] Example 2 and Fig. 1 (G-27): the kernel K₁ (rows (15/16, 1/16) and (1/16, 15/16)); K₂ and Fig. 1.

Statement ([DERIVED] facts): for even N and u = Nc ∈ (0, 1]: LDP(K₁) = log 15, e^{C(K₁,Q(c))} = 15/(1+7u),
           η_TV(K₁) = 7/8 = Ξ(ε_c, c) for every c (K₁ is Dobrushin-optimal), Lemma 4's Γ = 8(2−u)/(1+7u).
Checked:   every fact exactly for N ∈ {2, 4, 10} and a grid of c; K₂, N and Fig. 1 are not stored
           (grosse2026.ex2_k2_fig1 is NOT_CHECKABLE).
Not shown: the curves of Fig. 1.
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.mechanisms import grosse_example2_K1
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data, not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.formulas import lemma4_gamma_max, xi

US = (fmpq(1, 10**6), fmpq(1, 10), fmpq(1, 4), fmpq(1, 2), fmpq(3, 4), fmpq(1))


def _facts(ctx):
    def instances():
        for N in (2, 4, 10):
            for u in US:
                yield N, u / N

    def test(x):
        N, c = x
        K = grosse_example2_K1(N)
        u = N * c
        r = pml_ratio(K, c)
        ok = (ldp_ratio(K) == 15 and r == 15 / (1 + 7 * u) and eta_tv(K) == fmpq(7, 8)
              and xi(r, c, N) == fmpq(7, 8) and lemma4_gamma_max(r, c, N) == 8 * (2 - u) / (1 + 7 * u))
        return ok, exact_data(N=N, c=c, pml_ratio=r, Xi=xi(r, c, N), Lemma4_Gamma=lemma4_gamma_max(r, c, N))

    return check_instances([("N in {2,4,10} x u grid", instances())], test, claim="K1 exact facts")


register(Claim(
    id="grosse2026.ex2_k1",
    catalogue=("G-27",),
    source=Source(GROSSE2026, "Example 2", section="IV"),
    title="Example 2: K1 has eta_TV = 7/8 = Xi(eps_c, c) for every c",
    statement=r"e^{C(K_1,\mathcal Q(c))}=\frac{15}{1+7Nc},\quad \eta_{TV}(K_1)=\frac78=\Xi(\varepsilon_c,c),\quad \Gamma^{\mathrm{L4}}=\frac{8(2-Nc)}{1+7Nc}",
    hypotheses="N even, 0 < c <= 1/N",
    checks=(Check("exact facts", _facts),),
    expected=Verdict.VERIFIED,
    kind="example",
))

register(Claim(
    id="grosse2026.ex2_k2_fig1",
    catalogue=("G-27", "F-G9"),
    source=Source(GROSSE2026, "Example 2 / Figure 1", section="IV"),
    title="Example 2's K2 and Fig. 1: not stored",
    statement=r"\text{Fig. 1: the bounds of Corollaries 1--2 for } K_1 \text{ and } K_2",
    hypotheses="—",
    checks=(Check("K2 and figure", lambda ctx: not_checkable(
        "K2, N and the axes/curves of Fig. 1 are not in the stored text (F-G9)")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="example",
))
