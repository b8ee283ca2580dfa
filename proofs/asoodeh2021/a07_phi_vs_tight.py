"""The claim ``asoodeh2021.a07_phi_vs_tight``; its checks and instance families are in
``background/_identities_phi.py``."""

from exactdp.sources import CATALOGUE, Source
from exactdp.bounds import delta, phi, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, symbolic_check

from ..background._identities_phi import gap, tight
from .._statements import phi_exceeds_tight

register(Claim(
    written=(phi_exceeds_tight("asoodeh2021.a07_phi_vs_tight"),),
    id="asoodeh2021.a07_phi_vs_tight",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    catalogue=("A-7", "B-4", "F-A2", "X-1"),
    source=Source(CATALOGUE, "A-7 check 2 [DERIVED]"),
    title="phi exceeds the tight (eps, delta)-LDP Dobrushin value by (1-delta)(E-1)/(E(E+1)) >= 0",
    statement=r"\varphi(\varepsilon,\delta)-\frac{e^{\varepsilon}-1+2\delta}{e^{\varepsilon}+1}"
              r"=\frac{(1-\delta)(e^{\varepsilon}-1)}{e^{\varepsilon}(e^{\varepsilon}+1)}\geq 0",
    hypotheses="`t = e^eps`, `eps >= 0`, `0 <= delta <= 1`",
    checks=(symbolic_check("gap identity and sign", [
        Statement("phi - tight = gap", Eq(phi - tight, gap)),
        Statement("tight <= phi", tight <= phi, (t >= 1, delta <= 1)),
        Statement("gap > 0 for t > 1, delta < 1", gap > 0, (t > 1, delta < 1)),
    ]),),
    expected=Verdict.PROVED, kind="lemma",
    formulas=("phi(eps, delta) - (exp(eps) - 1 + 2*delta)/(exp(eps) + 1)"
               " = (1 - delta)*(exp(eps) - 1)/(exp(eps)*(exp(eps) + 1))",
              "(1 - delta)*(exp(eps) - 1)/(exp(eps)*(exp(eps) + 1)) >= 0"),
))
