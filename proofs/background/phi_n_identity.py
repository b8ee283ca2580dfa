"""The claim ``background.phi_n_identity``; its checks and instance families are in
``background/_identities_phi.py``."""

import sympy

from exactdp.sources import ASOODEH2021, Source
from exactdp.bounds import delta, n, phi, phi_n, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_check
from .._statements import phi_n_levels

register(Claim(
    written=(phi_n_levels("background.phi_n_identity"),),
    id="background.phi_n_identity",
    domain=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"),
    catalogue=("D-13", "B-10", "A-8", "F-A1"),
    source=Source(ASOODEH2021, "phi^n (tensorized contraction)", "III", "4"),
    title="phi^n(eps, delta) = phi(n eps, 1 - (1 - delta)^n)",
    statement=r"\varphi^{n}(\varepsilon,\delta) = 1-e^{-n\varepsilon}(1-\delta)^{n} = \varphi(n\varepsilon, 1-(1-\delta)^{n})",
    hypotheses="`eps >= 0`, `0 <= delta <= 1`, `n >= 1` (`t = e^eps`)",
    checks=(symbolic_check("identity", [
        Statement("phi(n eps, 1-(1-delta)^n) = phi^n", Eq(at(phi, (delta, 1 - (1 - delta) ** n), (t, t**n)), phi_n)),
        Statement("phi^n at n = 1 is phi", Eq(at(phi_n, (n, 1)), phi)),
    ]),),
    expected=Verdict.PROVED, kind="background",
    formulas=("phi_n(eps, delta) = 1 - exp(-n*eps)*(1 - delta)^n",
              "phi_n(eps, delta) = phi(n*eps, 1 - (1 - delta)^n)"),
))
