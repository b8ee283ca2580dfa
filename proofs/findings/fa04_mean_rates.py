"""The claim ``findings.fa04_mean_rates``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from ._estimation_findings import _fa4, _finding

_finding("fa04_mean_rates", ("F-A4", "A-11"),
         "The reported mean-estimation rates exceed achievable risks; the TV-route rate does not",
         r"c_\ell/(\delta\sqrt n)>\mathbb E[1/R;R\ge1]+(1-\delta)^n\ \text{at }\varepsilon=0,\ n=400,\ \delta=\tfrac12", _fa4,
         formulas=("c_l/(delta*√n) > E_inv_R + (1 - delta)^n", "eps = 0", "n = 400", "delta = 1/2"))
