r"""[A] §I contributions list (A-2) and appendix derivations (A-21).

Statement: (1) minimax/Bayes bounds for all ε, δ ≥ 0, "slightly stronger than [10] at δ = 0";
           (2) (ε,δ)-LDP ⟺ η_{e^ε}(K) ≤ δ; (3) (ε,δ)-LDP kernels contract every f-divergence by ≤ φ(ε,δ).
Checked:   (2) and (3) by re-running the instance checks of asoodeh2021.thm1 and asoodeh2021.a07_phi_lemma
           (appendix derivations A-21(a), (b)); (1) is qualitative — see findings.fa03_small_eps_direction,
           which shows the comparison with 4ε²n goes the other way for small ε.
Not shown: item (1); A-21(c)–(e) are covered by the tensorization and estimation modules.
"""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

from .a07_phi_lemma import key_step_check, phi_bound_check
from .thm1 import equivalence_check

register(Claim(
    id="asoodeh2021.a02_contributions",
    catalogue=("A-2", "A-21"),
    source=Source(ASOODEH2021, "contributions", section="I", page="1-2"),
    title="Contributions list: (2) and (3) hold on instances; (1) is qualitative",
    statement=r"\text{(2) } (\varepsilon,\delta)\text{-LDP}\iff\eta_{e^\varepsilon}(K)\le\delta;\quad \text{(3) } \eta_f(K)\le1-e^{-\varepsilon}(1-\delta)",
    hypotheses="`eps >= 0`, `0 <= delta <= 1`",
    checks=(Check("(1) stronger than [10] at delta = 0", lambda ctx: not_checkable(
                "qualitative comparison with unspecified constants; see findings.fa03_small_eps_direction for "
                "the direction of the effective-sample-size comparison")),
            Check("(2) Theorem 1", equivalence_check()),
            Check("(3) phi contraction", phi_bound_check()),
            Check("A-21(b) key step", key_step_check)),
    expected=Verdict.VERIFIED,
    notes="Item (1) is not checkable; the verdict covers items (2) and (3).",
    related=("asoodeh2021.a07_phi_lemma", "asoodeh2021.thm1", "findings.fa03_small_eps_direction"),
    formulas=("delta_K(eps) <= delta ⟺ eta_E(exp(eps), K) <= delta",
              "eta_f(K) <= 1 - exp(-eps)*(1 - delta)"),
))
