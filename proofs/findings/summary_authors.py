"""The claim ``findings.summary_authors``; its checks and instance families are in
``findings/_summaries.py``."""

from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._summaries import SRC

register(Claim(
    id="findings.summary_authors",
    catalogue=("S-1",),
    source=SRC,
    title="Summary 001 lists one author; the HTML lists four",
    statement=r"\text{(bibliographic)}",
    hypotheses="—",
    checks=(Check("authors", lambda ctx: not_checkable("bibliographic inconsistency between summaries")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="finding",
))
