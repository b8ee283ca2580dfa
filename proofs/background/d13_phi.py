r"""D-13 ([A] §III): φ(ε,δ) = 1 − e^{−ε}(1 − δ) and the label φⁿ(ε,δ) = 1 − e^{−nε}(1 − δ)ⁿ.

Statement: for ε ≥ 0, δ ∈ [0,1], n ≥ 1: 0 ≤ φ ≤ φⁿ ≤ 1, φ¹ = φ, and φⁿ(ε,δ) = φ(nε, 1 − (1 − δ)ⁿ) ([DERIVED]).
Checked:   exactly on a grid of rational e^ε, δ and n ≤ 6 (the composition identity as an exact rational
           equality at each point).
Not shown: the identity for all parameters (symbolic module: background.phi_n_identity); that φⁿ is
           not a power (findings.fa01_phi_power, tensor module).
"""

from flint import fmpq

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import phi, phi_n

GS = (fmpq(1), fmpq(21, 20), fmpq(3, 2), fmpq(3), fmpq(20))
DS = (fmpq(0), fmpq(1, 10000), fmpq(1, 3), fmpq(1))


def _run(ctx):
    def test(x):
        g, d, n = x
        p, pn = phi(g, d), phi_n(g, d, n)
        ok = 0 <= p <= pn <= 1 and phi_n(g, d, 1) == p and pn == phi(g ** n, 1 - (1 - d) ** n)
        return ok, exact_data(e_eps=g, delta=d, n=n, phi=p, phi_n=pn)

    return check_instances([("e^eps x delta x n grid", [(g, d, n) for g in GS for d in DS for n in range(1, 7)])],
                           test, claim="0 <= phi <= phi^n <= 1 and phi^n(eps,delta) = phi(n eps, 1-(1-delta)^n)")


register(Claim(
    id="background.d13_phi",
    catalogue=("D-13",),
    source=Source(ASOODEH2021, "phi and phi^n", section="III"),
    title="phi and the label phi^n: range, phi^1 = phi, composition form",
    statement=r"\varphi(\varepsilon,\delta)=1-e^{-\varepsilon}(1-\delta),\quad \varphi^{n}(\varepsilon,\delta)=1-e^{-n\varepsilon}(1-\delta)^n=\varphi(n\varepsilon,1-(1-\delta)^n)",
    hypotheses="`eps >= 0`, `0 <= delta <= 1`, `n >= 1`",
    checks=(Check("grid", _run),),
    expected=Verdict.VERIFIED,
    kind="definition",
    related=("background.phi_n_identity", "findings.fa01_phi_power"),
    formulas=("phi(eps, delta) = 1 - exp(-eps)*(1 - delta)",
              "phi_n(eps, delta) = 1 - exp(-n*eps)*(1 - delta)^n",
              "phi_n(eps, delta) = phi(n*eps, 1 - (1 - delta)^n)"),
))
