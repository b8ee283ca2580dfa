"""The claim ``findings.fa12_missing_statements``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from exactdp.verification.claims import Verdict

from ._estimation_findings import _finding, _nc

_finding("fa12_missing_statements", ("F-A12",), "The formulas of [A]'s §IV-VII corollaries are not stored",
         r"\text{(text)}", _nc("missing text; every such formula is marked reconstructed"), Verdict.NOT_CHECKABLE)
