"""The claim ``asoodeh2021.a10_small_eps_strengthening``; its checks and instance families are in
``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._minimax import _small_eps

register(Claim(
    id="asoodeh2021.a10_small_eps_strengthening", catalogue=("A-10", "F-A3"),
    source=Source(ASOODEH2021, "effective sample size remark", "§IV-A", "5"),
    title="phi(eps,0) n strengthens the 4 eps^2 n effective sample size for sufficiently small eps",
    statement=r"\varphi(\varepsilon,0)\,n\le 4\varepsilon^2 n\ \text{for all sufficiently small }\varepsilon>0",
    hypotheses="`delta = 0`", checks=(Check("witness", _small_eps, "certified comparison at eps = 1/10"),),
    expected=Verdict.REFUTED, reconstructed=True, kind="finding",
    notes="Direction reversed: phi n < 4 eps^2 n only for eps > 0.22398 (F-A3).",
    formulas=("phi(eps, 0)*n <= 4*eps^2*n", "eps > 0"),
))
