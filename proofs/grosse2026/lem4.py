"""The claim ``grosse2026.lem4``; its checks and instance families are in
``grosse2026/_lem4_gamma_bounds.py``."""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._lem4_gamma_bounds import check_closed_form, check_gap_formula, check_validity

register(Claim(
    id="grosse2026.lem4",
    catalogue=("G-23",),
    source=Source(GROSSE2026, "Lemma 4", section="IV"),
    title="Gamma_max <= (1-Nc)e^eps + 1 and Gamma_min >= its inverse",
    statement=r"\Gamma_{\max}(\varepsilon,c)\le(1-Nc)e^\varepsilon+1,\quad"
              r"\Gamma_{\min}(\varepsilon,c)\ge\big((1-Nc)e^\varepsilon+1\big)^{-1}",
    hypotheses="c in (0, 1/N], 0 <= eps <= -log c; Gamma as in D-12 [RECON]",
    checks=(Check("validity", check_validity, "exact LP Gamma vs Lemma 4"),
            Check("closed_form", check_closed_form, "LP = two-branch closed form"),
            Check("gap_formula", check_gap_formula, "symbolic gap")),
    expected=Verdict.VERIFIED,
    reconstructed=True,
))
