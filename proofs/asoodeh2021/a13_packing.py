"""The claim ``asoodeh2021.a13_packing``; its checks and instance families are in
``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._minimax import _packing

register(Claim(
    id="asoodeh2021.a13_packing", catalogue=("A-13",),
    source=Source(ASOODEH2021, "high-dimensional mean estimation, packing", "§IV-B, appendix", "6, 14-15"),
    title="Gilbert-Varshamov packing in {-1,+1}^k",
    statement=r"\exists\,\mathcal V\subset\{\pm1\}^k:\ \|v-v'\|_1\ge k/2,\ |\mathcal V|\ge\lceil e^{k/16}\rceil",
    hypotheses="`k >= 1`", checks=(Check("greedy_packing", _packing, "seeded greedy construction, k <= 40"),),
    expected=Verdict.VERIFIED, kind="lemma",
    notes="The rate of the high-dimensional bound is not stored (class X); see F-A11 for {0,1}^k.",
    related=("findings.fa11_packing_cube",),
    formulas=("dist_1(v, vp) >= k/2", "card_V >= ceiling(exp(k/16))"),
))
