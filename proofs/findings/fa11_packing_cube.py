"""The claim ``findings.fa11_packing_cube``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from ._estimation_findings import _fa11, _finding

_finding("fa11_packing_cube", ("F-A11", "A-13"), "A {0,1}^k packing of size e^(k/16) with l1 >= k/2 is impossible "
         "for k >= 82", r"\lceil e^{k/16}\rceil>2k\ \ (k\ge82)", _fa11,
         formulas=("ceiling(exp(k/16)) > 2*k", "k >= 82"))
