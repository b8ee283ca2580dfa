"""The claim ``asoodeh2021.a15_xu_raginsky``; its checks and instance families are in
``asoodeh2021/_bayes.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory.discrete_bayes import discrete_xu_raginsky_bound
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._bayes import _validity

register(Claim(
    id="asoodeh2021.a15_xu_raginsky", catalogue=("A-15", "F-A5"),
    source=Source(ASOODEH2021, "bound (15), private [44, Thm 1]", "§V", "6", "(15)"),
    title="Private Xu-Raginsky Bayes risk lower bound",
    statement=r"R_B\ge\sup_\zeta\zeta\Bigl[1-\frac{\varphi^n(\varepsilon,\delta)I(\theta;X^n)+\log2}{\log(1/L(\zeta))}\Bigr]",
    hypotheses="non-interactive (eps,delta)-LDP mechanisms",
    checks=(Check("discrete_validity", _validity(discrete_xu_raginsky_bound, "a15"), "certified R_B >= bound"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="corollary",
))
