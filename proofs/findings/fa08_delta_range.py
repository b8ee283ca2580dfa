"""The claim ``findings.fa08_delta_range``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from exactdp.verification.claims import Verdict

from ._estimation_findings import _finding, _nc

_finding("fa08_delta_range", ("F-A8",), "The Fano example's open range delta in (0,1) versus [0,1] elsewhere",
         r"\delta\in(0,1)\ \text{vs}\ [0,1]", _nc("a range stated in prose; the reconstructed Fano bound is "
                                                   "defined for delta in [0,1]"), Verdict.NOT_CHECKABLE,
                                                   formulas=("0 < delta < 1", "0 <= delta <= 1"))
