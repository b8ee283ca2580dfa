"""The claim ``grosse2026.cor1``; its checks and instance families are in
``grosse2026/_thm4_corollaries.py``."""

import sympy

from exactdp.measures.divergences import kl
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import to_sympy
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._thm4_corollaries import bound_check

register(Claim(
    id="grosse2026.cor1",
    catalogue=("G-25",),
    source=Source(GROSSE2026, "Corollary 1", section="IV"),
    title="Corollary 1 (KL) on certified instances",
    statement=r"D(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\log\big((1-Nc)e^\varepsilon+1\big)\,\delta",
    hypotheses="K in M(eps,c), P_X, Q_X in Q_X(c), c < 1/N",
    checks=(Check("certified instances", bound_check(kl, lambda G: sympy.log(to_sympy(G)), "Cor 1", "cor1")),),
    expected=Verdict.VERIFIED,
    kind="corollary",
))
