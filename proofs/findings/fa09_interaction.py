"""The claim ``findings.fa09_interaction``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from exactdp.verification.claims import Verdict

from ._estimation_findings import _finding, _nc

_finding("fa09_interaction", ("F-A9",), "The testing trade-off is defined over non-interactive mechanisms only",
         r"\beta_n^{\varepsilon,\delta}\ \text{over non-interactive }K", _nc("a setup statement; the A-18 check "
                                                                           "uses non-interactive products"),
         Verdict.NOT_CHECKABLE,
         formulas=("beta_n(alpha, eps, delta) = inf_noninteractive_K(alpha, eps, delta)",))
