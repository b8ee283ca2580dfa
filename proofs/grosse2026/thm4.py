"""The claim ``grosse2026.thm4``; its checks and instance families are in
``grosse2026/_thm4_corollaries.py``."""

from exactdp.measures.divergences import chi2, hellinger2, kl, tv
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import H2_F, KL_F

from ._thm4_corollaries import CHI2_F, TV_F, binette_at, bound_check, proof_check
from .._statements import gamma_max_bound, pml_pair_bound, tv_at_most_one

register(Claim(
    written=(gamma_max_bound("grosse2026.thm4"), pml_pair_bound("grosse2026.thm4"), tv_at_most_one("grosse2026.thm4")),
    id="grosse2026.thm4",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-22",),
    source=Source(GROSSE2026, "Theorem 4", section="IV"),
    title="Theorem 4: Binette-based SDPI under (eps,c)-PML (Lemma 4's Gamma)",
    statement=r"D_f(K\circ P_X\|K\circ Q_X)\le\eta_{TV}(\varepsilon,c)\Big[\frac{f(\Gamma_{\min})}{1-\Gamma_{\min}}+\frac{f(\Gamma_{\max})}{\Gamma_{\max}-1}\Big]\delta",
    hypotheses=("`K` in `M(eps, c)`, `P_X`, `Q_X` in `Q_X(c)` [RECON], `TV(P_X, Q_X) <= delta`, `c < 1/N`; `f` convex "
                "with `f(1) = 0`"),
    checks=(proof_check(),) + tuple(
        Check(f"f = {n}", bound_check(D, binette_at(F), f"Thm 4 ({n})", f"thm4-{n}", (5, 40)), supporting=True)
        for n, D, F in (("KL", kl, KL_F), ("H2", hellinger2, H2_F), ("chi2", chi2, CHI2_F), ("TV", tv, TV_F))),
    expected=Verdict.PROVED,
    reconstructed=True,
    notes="Hypotheses reconstructed: P_X, Q_X in Q_X(c) is necessary (findings.fg05_missing_hypothesis).",
    related=("findings.fg05_missing_hypothesis", "background.b06_binette_instances", "background.b01_dobrushin"),
    formulas=("D_f(K_P, K_Q)"
               " <= eta_tv(eps, c)*(f(Gamma_min)/(1 - Gamma_min) + f(Gamma_max)/(Gamma_max - 1))*delta",),
))
