"""The claim ``findings.fa03_small_eps_direction``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from exactdp.verification.claims import Verdict

from ._estimation_findings import _fa3, _finding

_finding("fa03_small_eps_direction", ("F-A3", "A-10"),
         "phi n is below 4 eps^2 n only for eps > eps* = 0.2239807... (direction of [A]'s comparison reversed)",
         r"\varphi(\varepsilon,0)<4\varepsilon^2\iff\varepsilon>\varepsilon^*,\ "
         r"1-e^{-\varepsilon^*}=4{\varepsilon^*}^2,\ \varepsilon^*\in(0.22398,0.22399),\quad"
         r"\varphi(\varepsilon,0)<4(e^\varepsilon-1)^2\iff\varepsilon>\log\tfrac{1+\sqrt2}{2}", _fa3, Verdict.VERIFIED,
         formulas=("phi(eps, 0) < 4*eps^2 ⟺ eps > eps_star", "1 - exp(-eps_star) = 4*eps_star^2",
                   "0.22398 < eps_star < 0.22399", "phi(eps, 0) < 4*(exp(eps) - 1)^2 ⟺ eps > log((1+√2)/2)"))
