"""The claim ``grosse2026.ex2_k1``; its checks and instance families are in ``grosse2026/_ex2.py``."""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._ex2 import _facts, _table

register(Claim(
    id="grosse2026.ex2_k1",
    catalogue=("G-27",),
    source=Source(GROSSE2026, "Example 2", section="IV"),
    title="Example 2: K1 has eta_TV = 7/8 = Xi(eps_c, c) for every c",
    statement=r"e^{C(K_1,\mathcal Q(c))}=\frac{15}{1+7Nc},\quad \eta_{TV}(K_1)=\frac78=\Xi(\varepsilon_c,c),\quad \Gamma^{\mathrm{L4}}=\frac{8(2-Nc)}{1+7Nc}",
    hypotheses="`N` even, `0 < c <= 1/N`",
    checks=(Check("exact facts", _facts), Check("divergence table", _table)),
    expected=Verdict.VERIFIED,
    kind="example",
    formulas=("exp(C(K1, c)) = 15/(1 + 7*N*c)",
              "eta_tv(K1) = 7/8",
              "Xi(eps_c, c) = 7/8",
              "Gamma_L4 = 8*(2 - N*c)/(1 + 7*N*c)"),
))
