"""The claim ``findings.x04_reference_title``; its checks and instance families are in
``findings/_cross_paper.py``."""

from ._cross_paper import _qualitative

_qualitative("findings.x04_reference_title", "X-4", "[G]'s reference [6] mis-titles [A]",
             "bibliographic; the reference list is not part of the checked mathematics")
