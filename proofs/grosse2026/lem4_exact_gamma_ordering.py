r"""[G] Lemma 4 against the two-branch closed form of Γ_max (G-23, F-G2): a proved ordering, exact crossing.

Γ here is the reconstructed D-12 (sup over K ∈ M(ε,c) and P, Q ∈ Q_X(c) of the output likelihood ratio;
the paper does not define it — hence "reconstructed statement").  Its closed form G-23 [DERIVED] is the
registry's ``gamma_max_exact``: Γ₁ = (t(1−Nc)+c)/(1−(N−1)c) for (N−1)ct < 1, Lemma 4's (1−Nc)t + 1 beyond.

Statement (t = e^ε, every N ≥ 2, 0 < c ≤ 1/N, 1 ≤ t ≤ 1/c):
  closed form ≤ (1−Nc)t + 1 (Lemma 4), with equality exactly when t ≥ 1/((N−1)c) or c = 1/N; below the
  branch point and for c < 1/N Lemma 4 is strictly loose.  The branches agree at t = 1/((N−1)c) (both
  (1−c)/((N−1)c)), and at c = 1/N both are 1.
Checked: identities with symbolic N (exact cancellation); the inequalities in (t, c, N) with N real ≥ 2
by the three-parameter cylindrical decision — scope: all parameters.
That the closed form *is* Γ_max is proved for every N and M in grosse2026.lem4_gamma_max_closed_form; this
claim orders the closed form against Lemma 4.
"""

from exactdp.bounds import N, c, gamma_max_first, gamma_max_l4, t  # the branches of gamma_max_exact
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_check
from .._statements import ordering_gamma

SCOPE = "all parameters"
at_branch = 1 / ((N - 1) * c)
DOMAIN = (t >= 1, N >= 2, N * c <= 1, t * c <= 1)  # N real >= 2 contains every integer N >= 2


register(Claim(
    written=(ordering_gamma("grosse2026.lem4_exact_gamma_ordering"),),
    id="grosse2026.lem4_exact_gamma_ordering",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-23", "F-G2"),
    source=Source(GROSSE2026, "Lemma 4", "IV"),
    title="The closed form of the exact Gamma_max is below Lemma 4's (1 - Nc)e^eps + 1, strictly when "
          "e^eps < 1/((N-1)c) and c < 1/N",
    statement=r"\Gamma^{\mathrm{G\text{-}23}}_{\max}(\varepsilon,c)\leq(1-Nc)e^{\varepsilon}+1",
    hypotheses=("`N >= 2`, `0 < c <= 1/N`, `1 <= e^eps <= 1/c`; `Gamma` as in D-12 [RECON], its closed form "
                "G-23 [DERIVED]"),
    checks=(
        symbolic_check("branch point and c = 1/N", [
            Statement("branches agree at t = 1/((N-1)c)",
                      Eq(at(gamma_max_first, (t, at_branch)), at(gamma_max_l4, (t, at_branch)))),
            Statement("common value (1-c)/((N-1)c)", Eq(at(gamma_max_l4, (t, at_branch)), (1 - c) / ((N - 1) * c))),
            Statement("at c = 1/N the first branch is 1", Eq(at(gamma_max_first, (c, 1 / N)), 1)),
            Statement("at c = 1/N Lemma 4 is 1", Eq(at(gamma_max_l4, (c, 1 / N)), 1)),
        ], scope=SCOPE),
        symbolic_check("ordering in (t, c, N), N real >= 2 (three-parameter decision)", [
            Statement("first branch <= Lemma 4 where (N-1) c t < 1 (beyond, the closed form is Lemma 4's value)",
                      gamma_max_first <= gamma_max_l4, DOMAIN + ((N - 1) * c * t < 1,)),
            Statement("first branch < Lemma 4 where (N-1) c t < 1, c < 1/N", gamma_max_first < gamma_max_l4,
                      DOMAIN + ((N - 1) * c * t < 1, N * c < 1)),
        ], scope=SCOPE),
    ),
    expected=Verdict.PROVED, kind="lemma", reconstructed=True,
    notes="Orders the G-23 closed form, proved for all N; that the closed form is Gamma_max is "
          "grosse2026.lem4_gamma_max_closed_form (all N, M).",
    related=("grosse2026.lem4", "grosse2026.lem4_gamma_max_closed_form"),
    formulas=("Gamma_max_G23(eps, c) <= (1 - N*c)*exp(eps) + 1",),
))
