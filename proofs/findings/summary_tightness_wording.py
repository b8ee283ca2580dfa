"""The claim ``findings.summary_tightness_wording``; its checks and instance families are in
``findings/_summaries.py``."""

from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._summaries import SRC, _tv_tight

register(Claim(
    id="findings.summary_tightness_wording",
    catalogue=("S-3",),
    source=SRC,
    title="Summary 002's 'tight': attained for TV; the f-divergence bounds are not tight (F-G2)",
    statement=r"\eta_{TV}(K)=\Xi(\varepsilon,c)\ \text{for the Example 1 kernel}",
    hypotheses="`N = 2`",
    checks=(Check("TV attained", _tv_tight),
            Check("f-divergences", lambda ctx: not_checkable("looseness of the corollaries is findings.fg02_lemma4_loose"))),
    expected=Verdict.VERIFIED,
    kind="finding",
    related=("findings.fg02_lemma4_loose",),
    formulas=("eta_tv(K_ex1) = Xi(eps, c)",),
))
