"""The claim ``grosse2026.cor2``; its checks and instance families are in
``grosse2026/_thm4_corollaries.py``."""

import sympy

from exactdp.measures.divergences import hellinger2
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import to_sympy
from exactdp.verification.claims import Check, Claim, Verdict, register

from exactdp.formulas import H2_F
from exactdp.numbers.formula_text import written_step as step

from ._thm4_corollaries import _coefficient_identities, bound_check, proof_check
from .._statements import binette_at, binette_h2, gamma_max_bound, pml_pair_bound, tv_at_most_one

register(Claim(
    written=(gamma_max_bound("grosse2026.cor2"), pml_pair_bound("grosse2026.cor2"), tv_at_most_one("grosse2026.cor2"), *binette_at("grosse2026.cor2", "Gamma", which=(binette_h2,))),
    id="grosse2026.cor2",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-26",),
    source=Source(GROSSE2026, "Corollary 2", section="IV"),
    title="Corollary 2 (squared Hellinger, no 1/2): Thm 4 at f = (sqrt x - 1)^2",
    statement=r"H^2(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\Big(2-\frac{4}{\sqrt{(1-Nc)e^\varepsilon+1}+1}\Big)\delta",
    hypotheses=("`K` in `M(eps, c)`, `P_X`, `Q_X` in `Q_X(c)`, `c < 1/N`; the squared Hellinger distance "
                "`H^2` is the sum of `(sqrt(p) - sqrt(q))^2`"),
    checks=(proof_check((step("Corollary 2 is Thm 4 at `f(x) = (sqrt(x) - 1)^2` (squared Hellinger without 1/2): its "
                              "coefficient at (1/Gamma, Gamma) is `2 - 4/(sqrt(Gamma) + 1)` (identity certificate "
                              "below); Binette's lemma needs f convex: for `(sqrt(x) - 1)**2` its two chord "
                              "inequalities are the lemma's checked H2 chord statements, so no hypothesis on f "
                              "remains"),),
                        (),
                        lambda: _coefficient_identities(H2_F, lambda G: 2 - 4 / (sympy.sqrt(G) + 1), "H2")),
            Check("certified instances", bound_check(
                hellinger2, lambda G: 2 - 4 / (sympy.sqrt(to_sympy(G)) + 1), "Cor 2", "cor2"), supporting=True)),
    expected=Verdict.PROVED,
    reconstructed=True,
    kind="corollary",
    notes=("Rests on the reconstructed hypothesis P_X, Q_X in Q_X(c) and Lemma 4's (reconstructed) Gamma, as Thm 4; "
           "Thm 4's certificates are carried here."),
    related=("grosse2026.thm4", "findings.fg06_hellinger_convention"),
    formulas=("H2(K_P, K_Q) <= Xi(eps, c)*(2 - 4/(√((1 - N*c)*exp(eps) + 1) + 1))*delta",),
))
