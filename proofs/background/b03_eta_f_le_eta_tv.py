r"""B-3 (Cohen–Kemperman–Zbaganu 1998; [G] footnote 2): η_f(K) ≤ η_TV(K) for every f.

Statement: D_f(KP‖KQ) ≤ η_TV(K)·D_f(P‖Q) for all P, Q, every convex f with f(1) = 0.
Checked:   on random exact kernels and random full-support input pairs: χ² exactly; KL and H² with
           certified ball arithmetic (three-valued; a straddling ball would be UNDECIDED).
Not shown: a proof (the result is used as an oracle); other f; the sup over inputs is only sampled.
"""

from exactdp.measures.contraction import eta_tv
from exactdp.measures.divergences import chi2, hellinger2, kl
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("b3")

    def instances():
        for k in range(ctx.size(12, 100)):
            K = inst.random_kernel(rng, 2 + k % 2, 2 + k % 3, 8)
            P = inst.random_distribution(rng, K.N, 8, full_support=True)
            Q = inst.random_distribution(rng, K.N, 8, full_support=True)
            for name, D in (("chi2", chi2), ("KL", kl), ("H2", hellinger2)):
                yield name, D, K, P, Q

    def test(x):
        name, D, K, P, Q = x
        eta = eta_tv(K)
        lhs, rhs = D(K.apply(P), K.apply(Q)), to_sympy(eta) * to_sympy(D(P, Q))
        return decide_le(lhs, rhs), exact_data(f=name, K=K, P=P, Q=Q, eta_tv=eta, lhs=lhs, rhs=rhs,
                                               lhs_enclosure=enclosure(lhs), rhs_enclosure=enclosure(rhs))

    return check_instances([("random (K, P, Q) x {chi2, KL, H2}", instances())], test,
                           claim="D_f(KP||KQ) <= eta_TV(K) D_f(P||Q)")


register(Claim(
    id="background.b03_eta_f_le_eta_tv",
    catalogue=("B-3",),
    source=Source(GROSSE2026, "footnote 2 (Cohen et al. 1998)", section="II-A"),
    title="eta_f <= eta_TV (sampled inputs; chi2 exact, KL and H2 certified)",
    statement=r"D_f(K\circ P\|K\circ Q)\le\eta_{TV}(K)\,D_f(P\|Q)",
    hypotheses="`f` convex, `f(1) = 0`; here the chi-square, KL and squared Hellinger divergences",
    checks=(Check("sampled inputs", _run),),
    expected=Verdict.VERIFIED,
    kind="background",
    formulas=("D_f(K_P, K_Q) <= eta_tv(K)*D_f(P, Q)",),
))
