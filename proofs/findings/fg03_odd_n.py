"""The claim ``findings.fg03_odd_n``; its checks and instance families are in
``grosse2026/_achieving_mechanisms.py``."""

from exactdp.sources import CATALOGUE, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ..grosse2026._achieving_mechanisms import check_odd_n_gap

register(Claim(
    id="findings.fg03_odd_n",
    catalogue=("F-G3",),
    source=Source(CATALOGUE, "F-G3", section="6"),
    title="Odd N: the integer-q construction covers only t <= 2/((N+1)c); Thm 1 is still attained",
    statement=r"N\text{ odd},\ \frac{2}{(N+1)c}<e^\varepsilon<\frac{2}{Nc}\Rightarrow\nexists q\in\mathbb Z"
              r"\text{ feasible, yet }\eta_{TV}(\varepsilon,c)=\Xi(\varepsilon,c)",
    hypotheses="`N >= 3` odd, `0 < c <= 1/(N + 1)`",
    checks=(Check("odd_n_gap", check_odd_n_gap, "integer q infeasible; LP and middle row attain Xi"),),
    expected=Verdict.VERIFIED,
    kind="finding",
    formulas=("2/((N + 1)*c) < exp(eps) < 2/(N*c)", "eta_tv(eps, c) = Xi(eps, c)"),
))
