r"""F-G9 (docs/claims.md §6): data of [G] not in the stored text.

Not stored: N in Example 2; K₂ of Example 2; Fig. 1's axes and curves; Example 3's family and loss; the
defining sentence of Γ_max and Γ_min; the text of Remark 1.  Nothing can be checked against them.
"""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

register(Claim(
    id="findings.fg09_missing_data",
    catalogue=("F-G9",),
    source=Source(GROSSE2026, "Examples 2-3, Fig. 1, Remark 1", section="III-IV"),
    title="Missing data of [G]: Example 2's N and K2, Fig. 1, Example 3's family, Gamma definition, Remark 1",
    statement=r"\text{(not stored)}",
    hypotheses="—",
    checks=(Check("missing data", lambda ctx: not_checkable(
        "N and K2 of Example 2, Fig. 1, Example 3's family and loss, the Gamma_max/Gamma_min definition and "
        "Remark 1 are not in the stored text")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="finding",
))
