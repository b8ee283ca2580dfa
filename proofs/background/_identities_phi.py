r"""[A] §III — the φ and φⁿ identities (D-13, B-10, A-7, A-8; claims.md §7 "Symbolic identities").

Statements (t = e^ε ≥ 1, δ ∈ [0, 1], n ≥ 1):
* ``background.phi_n_identity``: φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ equals φ(nε, 1−(1−δ)ⁿ), i.e. tensorization
  and KOV composition give the same constant; φⁿ is a label, not a power (F-A1).
* ``asoodeh2021.a7_phi_vs_tight``: φ(ε,δ) − (e^ε−1+2δ)/(e^ε+1) = (1−δ)(e^ε−1)/(e^ε(e^ε+1)) ≥ 0, with
  equality exactly on t = 1 or δ = 1 (the crossing curves reported by the prover).
Checked: exact identities (cancellation in ℚ(t, δ) with symbolic n) and the exact two-parameter
decision of the inequality on t ≥ 1, 0 ≤ δ ≤ 1.
Not shown: that the tight value (B-4) is the supremum (that is an LP claim of another module).
"""


from exactdp.sources import ASOODEH2021, CATALOGUE, Source
from exactdp.theory.bounds import delta, n, phi, phi_n, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, symbolic_check

tight = (t - 1 + 2 * delta) / (t + 1)
gap = (1 - delta) * (t - 1) / (t * (t + 1))

register(Claim(
    id="background.phi_n_identity",
    catalogue=("D-13", "B-10", "A-8", "F-A1"),
    source=Source(ASOODEH2021, "phi^n (tensorized contraction)", "III", "4"),
    title="phi^n(eps, delta) = phi(n eps, 1 - (1 - delta)^n)",
    statement=r"\varphi^{n}(\varepsilon,\delta) = 1-e^{-n\varepsilon}(1-\delta)^{n} = \varphi(n\varepsilon, 1-(1-\delta)^{n})",
    hypotheses="eps >= 0, delta in [0, 1], n >= 1 (t = e^eps)",
    checks=(symbolic_check("identity", [
        Statement("phi(n eps, 1-(1-delta)^n) = phi^n", Eq(phi.subs({t: t**n, delta: 1 - (1 - delta) ** n},
                                                                          simultaneous=True), phi_n)),
        Statement("phi^n at n = 1 is phi", Eq(phi_n.subs(n, 1), phi)),
    ]),),
    expected=Verdict.PROVED, kind="background",
))

register(Claim(
    id="asoodeh2021.a7_phi_vs_tight",
    catalogue=("A-7", "B-4", "F-A2", "X-1"),
    source=Source(CATALOGUE, "A-7 check 2 [DERIVED]"),
    title="phi exceeds the tight (eps, delta)-LDP Dobrushin value by (1-delta)(E-1)/(E(E+1)) >= 0",
    statement=r"\varphi(\varepsilon,\delta)-\frac{e^{\varepsilon}-1+2\delta}{e^{\varepsilon}+1}"
              r"=\frac{(1-\delta)(e^{\varepsilon}-1)}{e^{\varepsilon}(e^{\varepsilon}+1)}\geq 0",
    hypotheses="t = e^eps >= 1, delta in [0, 1]",
    checks=(symbolic_check("gap identity and sign", [
        Statement("phi - tight = gap", Eq(phi - tight, gap)),
        Statement("tight <= phi", tight <= phi, (t >= 1, delta <= 1)),
        Statement("gap > 0 for t > 1, delta < 1", gap > 0, (t > 1, delta < 1)),
    ]),),
    expected=Verdict.PROVED, kind="lemma",
))
