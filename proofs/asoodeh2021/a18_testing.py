"""The claim ``asoodeh2021.a18_testing``; its checks and instance families are in
``asoodeh2021/_testing_mi.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._testing_mi import _testing

register(Claim(
    id="asoodeh2021.a18_testing", catalogue=("A-18", "F-A9"),
    source=Source(ASOODEH2021, "testing corollary (label unknown)", "§VI", "8"),
    title="Private hypothesis testing: phi(eps,delta) n is the effective sample size",
    statement=r"-\log\beta_n^{\varepsilon,\delta}(\alpha)\le\frac{n\varphi(\varepsilon,\delta)D(P_0\|P_1)+\log2}{1-\alpha}",
    hypotheses="non-interactive (eps,delta)-LDP mechanisms, type-I error <= alpha < 1",
    checks=(Check("exact_neyman_pearson", _testing, "exact beta_n, certified comparison"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="corollary",
))
