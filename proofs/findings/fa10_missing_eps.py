"""The claim ``findings.fa10_missing_eps``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from ._estimation_findings import _fa10, _finding

_finding("fa10_missing_eps", ("F-A10", "A-16"), "The reconstruction reproduces 0.08 / 0.03 at eps = 0.02 only",
         r"\text{Thm 2}=0.08,\ (15)=0.03\ \text{at }\varepsilon=0.02", _fa10,
         formulas=("thm2_bound(eps) = 0.08", "bound15(eps) = 0.03", "eps = 0.02"))
