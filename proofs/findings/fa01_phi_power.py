r"""Finding F-A1 — φⁿ(ε,δ) is a label, not a power: η_TV(K^{⊗n}) ≤ φ(ε,δ)ⁿ is FALSE.

Statement (the power reading, refuted): for an (ε,δ)-LDP K, η_TV(K^{⊗n}) ≤ φ(ε,δ)ⁿ = (1 − e^{−ε}(1−δ))ⁿ.
Checked:   the exact η_TV(RR^{⊗n}) of binary randomized response with e^ε = 3 for n = 1, 2, 3, 5 against
           docs/claims.md §7 (1/2, 1/2, 11/16, 203/256), the power reading (2/3)ⁿ and the label reading
           φⁿ = 1 − 3^{−n}; the witness n = 2 (1/2 > 4/9) is re-checkable with
           ``exactdp analyze`` on the explicit 4×4 kernel RR⊗RR.  The label reading holds at every entry.
Not shown: anything about the papers' intended meaning beyond the two readings.
"""

from __future__ import annotations

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.tensor import eta_tv_tensor_power, phi_n
from exactdp.mechanisms import randomized_response
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

TABLE = {1: fmpq(1, 2), 2: fmpq(1, 2), 3: fmpq(11, 16), 5: fmpq(203, 256)}  # docs/claims.md §7


def _power_reading(ctx):
    K = randomized_response(2, 3)
    phi = 1 - fmpq(1, 3)
    rows = {}
    for n, expected in TABLE.items():
        eta = eta_tv_tensor_power(K, n)
        if eta != expected:
            return Outcome(Verdict.UNDECIDED, "table mismatch", reason=f"eta_TV(RR^(x {n})) = {eta}, docs/claims.md §7 says {expected}")
        rows[str(n)] = {"eta_tv": str(eta), "phi^n label": str(phi_n(3, 0, n)), "phi(eps,0)^n power": str(phi**n)}
    explicit = eta_tv(K.tensor(K))  # independent route for the witness
    witness = {"K": K.tensor(K).as_strings(), "n": "2", "eta_tv(RR (x) RR)": str(explicit),
               "power reading phi(eps,0)^2": str(phi**2), "label reading phi^2(eps,0)": str(phi_n(3, 0, 2)),
               "mechanism": "binary randomized response, e^eps = 3, delta = 0"}
    if explicit > phi**2:
        return Outcome(Verdict.REFUTED, "power reading fails: eta_TV(RR (x) RR) = 1/2 > (2/3)^2 = 4/9",
                       instances=len(TABLE), counterexample=witness, details={"docs/claims.md §7 table": rows})
    return Outcome(Verdict.VERIFIED, "power reading holds on the table", instances=len(TABLE))


def _label_reading(ctx):
    K = randomized_response(2, 3)
    ns = (1, 2, 3, 5, 10, 100) + (() if ctx.quick else (1000,))
    for n in ns:
        if eta_tv_tensor_power(K, n) > phi_n(3, 0, n):
            return Outcome(Verdict.REFUTED, "label reading fails", instances=n,
                           counterexample={"n": str(n), "eta_tv": str(eta_tv_tensor_power(K, n))})
    return Outcome(Verdict.VERIFIED, f"label reading eta_TV(RR^(x n)) <= 1 - 3^-n holds for n in {ns}",
                   instances=len(ns), families=(("binary RR e^eps = 3", len(ns)),))


register(Claim(
    id="findings.fa01_phi_power",
    catalogue=("F-A1", "A-8", "D-13"),
    source=Source(ASOODEH2021, "F-A1: notation of phi^n", section="III; appendix p.16"),
    title="phi^n(eps,delta) is not phi(eps,delta) to the power n",
    statement=r"\eta_{TV}(K^{\otimes n})\le\varphi(\varepsilon,\delta)^n\ \text{(power reading)}",
    hypotheses="`K` (`eps`, `delta`)-LDP",
    checks=(Check("power reading against the exact eta_TV(RR^(x n))", _power_reading),
            Check("label reading 1 - e^(-n eps)(1-delta)^n", _label_reading)),
    expected=Verdict.REFUTED,
    kind="finding",
    notes="The paper's phi^n is 1 - e^(-n eps)(1-delta)^n; the power reading is false already at n = 2.",
    formulas=("eta_tv(K_n) <= phi(eps, delta)^n",),
))
