"""The claim ``findings.x02_relaxations``; its checks and instance families are in
``findings/_cross_paper.py``."""

from ._cross_paper import _qualitative

_qualitative("findings.x02_relaxations", "X-2", "delta-relaxation vs restricted priors are not comparable",
             "qualitative comparison of two relaxations")
