"""The claim ``asoodeh2021.a17_fig1``; its checks and instance families are in ``asoodeh2021/_bayes.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._bayes import _fig1_table

register(Claim(
    id="asoodeh2021.a17_fig1", catalogue=("A-17",),
    source=Source(ASOODEH2021, "Fig. 1", "§V", "7-8"),
    title="Fig. 1: Theorem 2 has an advantage over (15) for small eps",
    statement=r"\text{Thm 2}(\varepsilon)>(15)(\varepsilon)\ \text{for small }\varepsilon;\ n=20,\ \delta=10^{-4}",
    hypotheses="the Bernoulli example", checks=(Check("table", _fig1_table, "the A-17 table, certified"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="example",
    formulas=("thm2_bound(eps) > bound15(eps)", "n = 20", "delta = 10^(-4)"),
))
