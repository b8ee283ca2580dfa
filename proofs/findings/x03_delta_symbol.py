"""The claim ``findings.x03_delta_symbol``; its checks and instance families are in
``findings/_cross_paper.py``."""

from ._cross_paper import _qualitative

_qualitative("findings.x03_delta_symbol", "X-3", "the symbol delta: LDP slack in [A], TV between inputs in [G]",
             "notation (the code keeps delta_ldp and tv_in apart)")
