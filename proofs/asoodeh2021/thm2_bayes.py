"""The claim ``asoodeh2021.thm2_bayes``; its checks and instance families are in ``asoodeh2021/_bayes.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory.discrete_bayes import discrete_thm2_bound
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._bayes import _validity

register(Claim(
    id="asoodeh2021.thm2_bayes", catalogue=("A-14",),
    source=Source(ASOODEH2021, "Theorem 2", "§V", "6-7", "(17)"),
    title="Private Bayes risk lower bound via E_gamma (Theorem 2)",
    statement=r"R_B\ge\zeta\bigl[1-e^{\varepsilon}L(\zeta)-\psi_n I_{e^\varepsilon}(\theta;X^n)\bigr],"
              r"\ \psi_1=\delta,\ \psi_n=\varphi^n(\varepsilon,\delta)",
    hypotheses="non-interactive (eps,delta)-LDP mechanisms, loss >= 0, zeta > 0",
    checks=(Check("discrete_validity", _validity(discrete_thm2_bound, "a14"), "exact R_B >= bound"),),
    expected=Verdict.VERIFIED, reconstructed=True,
))
