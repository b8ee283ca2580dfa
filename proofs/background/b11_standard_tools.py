r"""B-11: standard tools used by both papers — Pinsker and Bretagnolle–Huber.

Statement: TV(P,Q) ≤ √(D(P‖Q)/2) (Pinsker); TV(P,Q) ≤ 1 − ½e^{−D(P‖Q)} (Bretagnolle–Huber, [G] [11]).
Checked:   random exact pairs (including near-disjoint ones), certified in ball arithmetic.
Not shown: Le Cam, Fano, Xu–Raginsky, Chernoff–Stein and Gilbert–Varshamov (used, and checked where
           instantiated, by the estimation module's claims).
"""

import sympy

from exactdp.measures.divergences import kl, tv
from exactdp.sources import CATALOGUE, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("b11")

    def instances():
        for k in range(ctx.size(20, 200)):
            M = 2 + k % 4
            P = inst.random_distribution(rng, M, 16)
            Q = inst.random_distribution(rng, M, 16, full_support=True)
            yield "Pinsker", P, Q
            yield "Bretagnolle-Huber", P, Q

    def test(x):
        name, P, Q = x
        d, D = to_sympy(tv(P, Q)), kl(P, Q)
        rhs = sympy.sqrt(to_sympy(D) / 2) if name == "Pinsker" else 1 - sympy.exp(-to_sympy(D)) / 2
        if name == "Pinsker":  # compare squares: TV^2 <= D/2 (both sides >= 0)
            return decide_le(d ** 2, to_sympy(D) / 2), exact_data(tool=name, P=P, Q=Q, TV=d, KL=D)
        return decide_le(d, rhs), exact_data(tool=name, P=P, Q=Q, TV=d, KL=D)

    return check_instances([("random pairs", instances())], test, claim="Pinsker and Bretagnolle-Huber")


register(Claim(
    id="background.b11_standard_tools",
    catalogue=("B-11",),
    source=Source(CATALOGUE, "B-11 standard tools"),
    title="Pinsker and Bretagnolle-Huber inequalities (certified instances)",
    statement=r"\mathrm{TV}\le\sqrt{D/2},\qquad \mathrm{TV}\le1-\tfrac12e^{-D}",
    hypotheses="`P` absolutely continuous with respect to `Q`, finite alphabets",
    checks=(Check("certified instances", _run),),
    expected=Verdict.VERIFIED,
    kind="background",
    formulas=("TV <= √(D/2)", "TV <= 1 - exp(-D)/2"),
))
