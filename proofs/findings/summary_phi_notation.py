"""The claim ``findings.summary_phi_notation``; its checks and instance families are in
``findings/_summaries.py``."""

from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._summaries import SRC

register(Claim(
    id="findings.summary_phi_notation",
    catalogue=("S-2", "F-A1"),
    source=SRC,
    title="Summary 000 writes phi^n and 'phi n' for the same quantity (a label, not a power)",
    statement=r"\varphi^n(\varepsilon,\delta)=1-e^{-n\varepsilon}(1-\delta)^n",
    hypotheses="—",
    checks=(Check("notation", lambda ctx: not_checkable(
        "notation in the summaries; the mathematics (power reading false) is findings.fa01_phi_power")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="finding",
    related=("findings.fa01_phi_power",),
    formulas=("phi_n(eps, delta) = 1 - exp(-n*eps)*(1 - delta)^n",),
))
