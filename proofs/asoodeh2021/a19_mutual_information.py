"""The claim ``asoodeh2021.a19_mutual_information``; its checks and instance families are in
``asoodeh2021/_testing_mi.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._testing_mi import _mi

register(Claim(
    id="asoodeh2021.a19_mutual_information", catalogue=("A-19",),
    source=Source(ASOODEH2021, "MI bound (label unknown)", "§VII", "9"),
    title="Mutual information of (eps,delta)-LDP mechanisms",
    statement=r"\sup_{K\in\mathcal Q_{\varepsilon,\delta}}I(X;Z)\le\varphi(\varepsilon,\delta)H(X)",
    hypotheses="discrete X, eps >= 0, delta in [0,1]",
    checks=(Check("instances", _mi, "certified on RR, optimal binary and random kernels"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="corollary",
))
