r"""B-6 (Binette 2019, [G] [10]): the reverse Pinsker inequality on random instances.

Statement: if P ≪ Q with m ≤ dP/dQ ≤ M, 0 ≤ m < 1 < M, then D_f(P‖Q) ≤ (f(m)/(1−m) + f(M)/(M−1))·TV(P,Q).
Checked:   random full-support pairs with m, M the exact extreme likelihood ratios, f ∈ {χ², KL, H²}:
           χ² exactly, KL and H² certified.  (The specialisations m = 1/M are the symbolic module's
           background.b06_binette_specialisations.)
Not shown: optimality; m = 0.  (For 0 < m < 1 < M, the form [G] Thm 4 and B-7 use, the inequality is proved as
           the structural lemma :data:`exactdp.theory.structural_lemmas.BINETTE`; this claim stays the sampled
           check of the published statement.)
"""

import sympy

from exactdp.measures.divergences import chi2, hellinger2, kl, tv
from exactdp.numbers.reader import as_expr
from exactdp.sources import BINETTE2019, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import H2_F, KL_F, binette_coefficient

_t = sympy.Symbol("t", positive=True)
CHI2_F = sympy.Lambda(_t, (_t - 1) ** 2)
FS = (("chi2", chi2, CHI2_F), ("KL", kl, KL_F), ("H2", hellinger2, H2_F))


def _run(ctx):
    rng = ctx.rng("b6")

    def instances():
        n = 0
        while n < ctx.size(12, 100):
            M_ = 2 + n % 4
            P = inst.random_distribution(rng, M_, 12, full_support=True)
            Q = inst.random_distribution(rng, M_, 12, full_support=True)
            if P == Q:
                continue
            n += 1
            for f in FS:
                yield f, P, Q

    def test(x):
        (name, D, F), P, Q = x
        ratios = [p / q for p, q in zip(P, Q)]
        m, M = min(ratios), max(ratios)
        rhs = binette_coefficient(F, m, M) * as_expr(tv(P, Q))
        lhs = D(P, Q)
        return decide_le(lhs, rhs), exact_data(f=name, P=P, Q=Q, m=m, M=M, lhs=lhs, rhs=rhs,
                                               lhs_enclosure=enclosure(lhs), rhs_enclosure=enclosure(rhs))

    return check_instances([("random pairs x {chi2, KL, H2}", instances())], test,
                           claim="D_f <= Binette coefficient x TV")


register(Claim(
    id="background.b06_binette_instances",
    catalogue=("B-6",),
    source=Source(BINETTE2019, "reverse Pinsker inequality"),
    title="Binette's reverse Pinsker inequality on random instances",
    statement=r"D_f(P\|Q)\le\Big(\frac{f(m)}{1-m}+\frac{f(M)}{M-1}\Big)\mathrm{TV}(P,Q)",
    hypotheses="`m <= dP/dQ <= M`, `0 < m < 1 < M`",
    checks=(Check("certified instances", _run),),
    expected=Verdict.VERIFIED,
    kind="background",
    related=("background.b06_binette_specialisations",),
    formulas=("D_f(P, Q) <= (f(m)/(1 - m) + f(M)/(M - 1))*TV(P, Q)",),
))
