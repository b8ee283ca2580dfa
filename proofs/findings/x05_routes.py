"""The claim ``findings.x05_routes``; its checks and instance families are in ``findings/_cross_paper.py``."""

from exactdp.verification.claims import Check, Claim, Verdict, register

from ._cross_paper import SRC, _phi_route, _za_h2, _za_kl

register(Claim(
    id="findings.x05_routes",
    catalogue=("X-5",),
    source=SRC,
    title="[G]'s route with exact Gamma reproduces Zamanlooy-Asoodeh at c = 0; [A]'s phi route does not",
    statement=r"\Xi(\varepsilon,0)\Big[\frac{f(e^{-\varepsilon})}{1-e^{-\varepsilon}}+\frac{f(e^\varepsilon)}{e^\varepsilon-1}\Big]=\frac{f(e^\varepsilon)+e^\varepsilon f(e^{-\varepsilon})}{e^\varepsilon+1}",
    hypotheses="the KL or squared Hellinger divergence, `eps > 0`",
    checks=(Check("KL", _za_kl), Check("H2", _za_h2), Check("phi route", _phi_route)),
    expected=Verdict.VERIFIED,
    kind="finding",
    formulas=("Xi(eps, 0)*(f(exp(-eps))/(1 - exp(-eps)) + f(exp(eps))/(exp(eps) - 1))"
               " = (f(exp(eps)) + exp(eps)*f(exp(-eps)))/(exp(eps) + 1)",),
))
