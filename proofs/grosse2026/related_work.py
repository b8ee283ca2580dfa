r"""[G] §II-C related work (G-9): Duchi's KL bound, eq. (13) η_TV ≤ (e^ε−1)/(e^ε+1) for ε-LDP, citations.

Statement: (a) Duchi et al.'s KL bound (B-5); (b) eq. (13): for ε-LDP K, η_TV(K) ≤ (e^ε−1)/(e^ε+1);
           (c) mentions of related work without formulas.
Checked:   (b) exactly on random full-support kernels with e^ε = ldp_ratio(K) and on binary randomized
           response (equality); (a) is background.b05_duchi; (c) not checkable (no formulas).
Not shown: the sup in (b) for every size (tightness is background.b04_tight_ldp, extremal module).
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import randomized_response
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data, not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register


def _eq13(ctx):
    rng = ctx.rng("g9")

    def test(K):
        E = ldp_ratio(K)
        e, b = eta_tv(K), (E - 1) / (E + 1)
        return e <= b, exact_data(K=K, e_eps=E, eta_tv=e, bound=b)

    rr = [randomized_response(2, g) for g in (fmpq(1), fmpq(2), fmpq(7, 3), fmpq(15))]
    return check_instances([("random eps-LDP kernels", (inst.random_kernel(rng, 2 + k % 3, 2 + k % 4, 10, full_support=True)
                                                        for k in range(ctx.size(40, 400)))),
                            ("binary randomized response", rr)], test, claim="eta_TV <= (e^eps-1)/(e^eps+1)")


register(Claim(
    id="grosse2026.related_work",
    catalogue=("G-9",),
    source=Source(GROSSE2026, "related work", section="II-C", equation="13"),
    title="Related work: eq. (13) eta_TV <= (e^eps-1)/(e^eps+1) for eps-LDP",
    statement=r"K\ \varepsilon\text{-LDP}\Longrightarrow\eta_{TV}(K)\le\frac{e^\varepsilon-1}{e^\varepsilon+1}",
    hypotheses="K eps-LDP",
    checks=(Check("eq. (13)", _eq13),
            Check("citations without formulas", lambda ctx: not_checkable(
                "(c) mentions related work without formulas; (a) is background.b05_duchi"))),
    expected=Verdict.VERIFIED,
    related=("background.b04_tight_ldp", "background.b05_duchi"),
))
