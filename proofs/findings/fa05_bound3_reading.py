"""The claim ``findings.fa05_bound3_reading``; its checks and instance families are in
``findings/_estimation_findings.py``."""

from ._estimation_findings import _fa5, _finding

_finding("fa05_bound3_reading", ("F-A5", "A-15"),
         "Reading bound (3) as (15), Thm 2 is tighter only for small eps",
         r"\text{Thm 2}>(15)\text{ for }\varepsilon\le2,\ <\text{ at }\varepsilon=3", _fa5,
         formulas=("eps <= 2 ⟹ thm2_bound(eps) > bound15(eps)", "thm2_bound(3) < bound15(3)"))
