"""The claim ``grosse2026.cor2``; its checks and instance families are in
``grosse2026/_thm4_corollaries.py``."""

import sympy

from exactdp.measures.divergences import hellinger2
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import to_sympy
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._thm4_corollaries import bound_check

register(Claim(
    id="grosse2026.cor2",
    catalogue=("G-26",),
    source=Source(GROSSE2026, "Corollary 2", section="IV"),
    title="Corollary 2 (squared Hellinger, no 1/2) on certified instances",
    statement=r"H^2(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\Big(2-\frac{4}{\sqrt{(1-Nc)e^\varepsilon+1}+1}\Big)\delta",
    hypotheses="K in M(eps,c), P_X, Q_X in Q_X(c), c < 1/N; H^2 = sum (sqrt p - sqrt q)^2",
    checks=(Check("certified instances", bound_check(
        hellinger2, lambda G: 2 - 4 / (sympy.sqrt(to_sympy(G)) + 1), "Cor 2", "cor2")),),
    expected=Verdict.VERIFIED,
    kind="corollary",
))
