r"""[G] Theorem 2 for total variation (G-16, the part proved without citing a theorem).

Statement: for all N ≥ 2, M ≥ 2, t = e^ε ≥ 1 and 0 < c ≤ 1/N:
           (witness) t·Nc ≥ 2 ⟹ sup_{K∈M(ε,c)} η_TV(K) = 1, attained by a kernel with two rows of disjoint
           support (rows (1,0), (0,1), every other row (½,½));
           (converse) t·Nc < 2 ⟹ no K ∈ M(ε,c) has two rows of disjoint support.
Proved:    for all N, M by the certificates of :mod:`exactdp.theory.class_certificates` (the same proof check as
           ``grosse2026.thm2``; see that module's docstring for the derivation).  ``grosse2026.thm2`` states the
           theorem for every f; its f ≠ TV part rests on the data-processing inequality, so it is proved modulo
           that inequality, while this claim — the statement restricted to η_TV — is proved outright.
"""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from .thm2 import _witness, converse_check, proof_check
from .._statements import pml_disjoint_rows, pml_pair_bound, tv_at_most_one, xi_regimes

register(Claim(
    written=(pml_disjoint_rows("grosse2026.thm2_tv"), tv_at_most_one("grosse2026.thm2_tv"), pml_pair_bound("grosse2026.thm2_tv"), xi_regimes("grosse2026.thm2_tv")),
    id="grosse2026.thm2_tv",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-16",),
    source=Source(GROSSE2026, "Theorem 2 (total variation)", section="III"),
    title="Theorem 2 for eta_TV: sup eta_TV = 1 for eps >= log(2/(Nc)) (disjoint-rows witness); converse",
    statement=(r"\varepsilon\ge\log\frac{2}{Nc}\Longrightarrow\sup_{K\in\mathcal M(\varepsilon,c)}\eta_{\mathrm{TV}}(K)=1"
               r"\text{ (attained, disjoint rows)};\ \varepsilon<\log\frac{2}{Nc}\Longrightarrow"
               r"\text{no }K\in\mathcal M(\varepsilon,c)\text{ has two disjoint rows}"),
    hypotheses="`N >= 2`, `M >= 2`, `0 < c <= 1/N`",
    checks=(Check("proof", proof_check, "witness and converse for all N, M (certificates)"),
            Check("witness", _witness, supporting=True), Check("converse", converse_check(), supporting=True)),
    expected=Verdict.PROVED,
    kind="theorem",
    related=("grosse2026.thm2", "findings.fg04_thm2_scope"),
    formulas=("eps >= log(2/(N*c)) ⟹ eta_tv(eps, c) = 1", "eps < log(2/(N*c)) ⟹ disjoint_rows(eps, c) = 0"),
))
