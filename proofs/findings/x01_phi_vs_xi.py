"""The claim ``findings.x01_phi_vs_xi``; its checks and instance families are in
``findings/_cross_paper.py``."""

from exactdp.verification.claims import Check, Claim, Verdict, register

from ._cross_paper import SRC, _ratio_range, ratio_identity_check
from .._statements import phi_over_xi

register(Claim(
    written=(phi_over_xi("findings.x01_phi_vs_xi"),),
    id="findings.x01_phi_vs_xi",
    domain=(),
    catalogue=("X-1",),
    source=SRC,
    title="phi(eps,0) / Xi(eps,0) = 1 + e^-eps in (1, 2]",
    statement=r"\frac{\varphi(\varepsilon,0)}{\Xi(\varepsilon,0)}=1+e^{-\varepsilon}\in(1,2]",
    hypotheses="`eps > 0`",
    checks=(Check("ratio identity", ratio_identity_check()), Check("range", _ratio_range)),
    expected=Verdict.PROVED,
    kind="finding",
    formulas=("phi(eps, 0)/Xi(eps, 0) = 1 + exp(-eps)", "1 < 1 + exp(-eps) <= 2"),
))
