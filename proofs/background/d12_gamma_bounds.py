r"""D-12 ([G] §IV): Γ_max(ε,c) and Γ_min(ε,c) — the defining sentence is not in the stored text.

Statement ([RECON]): Γ_max(ε,c) = sup_{K∈M(ε,c)} sup_{P,Q∈Q_X(c)} max_y (K∘P)(y)/(K∘Q)(y), Γ_min = 1/Γ_max.
Checked:   nothing — the definition cannot be checked against a text that is not available.  Lemma 4's
           bound under this reconstruction is checked in grosse2026.lem4 (extremal module).
"""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

register(Claim(
    id="background.d12_gamma_bounds",
    catalogue=("D-12",),
    source=Source(GROSSE2026, "Gamma_max, Gamma_min", section="IV"),
    title="Gamma_max / Gamma_min: definition not stored",
    statement=r"\Gamma_{\max}(\varepsilon,c)=\sup_{K\in\mathcal M(\varepsilon,c)}\sup_{P,Q\in\mathcal Q_{\mathcal X}(c)}\max_y\frac{(K\circ P)(y)}{(K\circ Q)(y)}",
    hypotheses="reconstruction",
    checks=(Check("definition", lambda ctx: not_checkable(
        "the defining sentence of Gamma_max and Gamma_min is not in the stored text (docs/claims.md D-12, F-G9); "
        "the reconstruction is used by grosse2026.lem4")),),
    expected=Verdict.NOT_CHECKABLE,
    reconstructed=True,
    kind="definition",
    related=("grosse2026.lem4",),
    formulas=("Gamma_max(eps, c) = sup_ratio_KP_KQ(eps, c)",),
))
