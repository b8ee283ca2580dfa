r"""B-5 (Duchi–Jordan–Wainwright, JASA 2018 Thm 1; [G] §II-C): the symmetrized KL bound for ε-LDP.

Statement: for ε-LDP K, D(KP‖KQ) + D(KQ‖KP) ≤ min{4, e^{2ε}}(e^ε − 1)² TV²(P,Q) (hence the one-sided
           version [G] quotes).
Checked:   random full-support exact kernels (ε = LDP(K), e^ε rational) and random input pairs, with the
           left side certified in ball arithmetic against the exact rational right side.
Not shown: tightness (not claimed); the proof.
"""

from exactdp.measures.divergences import kl, tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.sources import DUCHI2018, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("b5")

    def test(k):
        K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 3, 10, full_support=True)
        P, Q = inst.random_distribution(rng, K.N), inst.random_distribution(rng, K.N)
        E = ldp_ratio(K)
        lhs = kl(K.apply(P), K.apply(Q)) + kl(K.apply(Q), K.apply(P))
        rhs = min(4, E * E) * (E - 1) ** 2 * tv(P, Q) ** 2
        return decide_le(lhs, rhs), exact_data(K=K, P=P, Q=Q, e_eps=E, lhs=lhs, rhs=rhs, lhs_enclosure=enclosure(lhs))

    return check_instances([("random eps-LDP kernels x input pairs", range(ctx.size(15, 150)))], test,
                           claim="symmetrized KL <= min{4, e^2eps}(e^eps - 1)^2 TV^2")


register(Claim(
    id="background.b05_duchi",
    catalogue=("B-5",),
    source=Source(DUCHI2018, "Theorem 1"),
    title="Duchi-Jordan-Wainwright KL bound for eps-LDP (certified instances)",
    statement=r"D(K\circ P\|K\circ Q)+D(K\circ Q\|K\circ P)\le\min\{4,e^{2\varepsilon}\}(e^\varepsilon-1)^2\,\mathrm{TV}^2(P,Q)",
    hypotheses="`K` `eps`-LDP",
    checks=(Check("certified instances", _run),),
    expected=Verdict.VERIFIED,
    kind="background",
    formulas=("D(K_P, K_Q) + D(K_Q, K_P) <= Min(4, exp(2*eps))*(exp(eps) - 1)^2*TV(P, Q)^2",),
))
