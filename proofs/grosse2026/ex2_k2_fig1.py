"""The claim ``grosse2026.ex2_k2_fig1``; its checks and instance families are in ``grosse2026/_ex2.py``."""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

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
    formulas=("cor1_bound(K1, c) = Xi(eps, c)*log((1 - N*c)*exp(eps) + 1)*delta",
              "cor2_bound(K2, c) = Xi(eps, c)*(2 - 4/(√((1 - N*c)*exp(eps) + 1) + 1))*delta"),
))
