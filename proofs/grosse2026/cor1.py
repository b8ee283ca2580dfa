"""The claim ``grosse2026.cor1``; its checks and instance families are in
``grosse2026/_thm4_corollaries.py``."""

import sympy

from exactdp.measures.divergences import kl
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import to_sympy
from exactdp.verification.claims import Check, Claim, Verdict, register

from exactdp.formulas import KL_F
from exactdp.numbers.formula_text import written_step as step

from ._thm4_corollaries import _coefficient_identities, bound_check, proof_check
from .._cited_steps import KL_CONVEX
from .._statements import binette_at, binette_kl, gamma_max_bound, pml_pair_bound, tv_at_most_one

register(Claim(
    written=(gamma_max_bound("grosse2026.cor1"), pml_pair_bound("grosse2026.cor1"), tv_at_most_one("grosse2026.cor1"), *binette_at("grosse2026.cor1", "Gamma", which=(binette_kl,))),
    id="grosse2026.cor1",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-25",),
    source=Source(GROSSE2026, "Corollary 1", section="IV"),
    title="Corollary 1 (KL): Thm 4 at f = x log x, coefficient log Gamma",
    statement=r"D(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\log\big((1-Nc)e^\varepsilon+1\big)\,\delta",
    hypotheses="`K` in `M(eps, c)`, `P_X`, `Q_X` in `Q_X(c)`, `c < 1/N`",
    checks=(proof_check((step("Corollary 1 is Thm 4 at `f(x) = x*log(x)` (KL): its coefficient at (1/Gamma, Gamma) "
                              "is `log(Gamma)` (identity certificate below); Binette's lemma needs f convex: for "
                              "`x*log(x)` its convexity instances are cited (" + KL_CONVEX + ")"),),
                        (KL_CONVEX,), lambda: _coefficient_identities(KL_F, sympy.log, "KL")),
            Check("certified instances", bound_check(kl, lambda G: sympy.log(to_sympy(G)), "Cor 1", "cor1"),
                  supporting=True)),
    expected=Verdict.PROVED_MODULO,
    reconstructed=True,
    kind="corollary",
    notes=("Rests on the reconstructed hypothesis P_X, Q_X in Q_X(c) and Lemma 4's (reconstructed) Gamma, as Thm 4; "
           "Thm 4's certificates are carried here, and the convexity of x log x is cited."),
    related=("grosse2026.thm4", "findings.fg05_missing_hypothesis"),
    formulas=("D(K_P, K_Q) <= Xi(eps, c)*log((1 - N*c)*exp(eps) + 1)*delta",),
))
