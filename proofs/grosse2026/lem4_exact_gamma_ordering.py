r"""[G] Lemma 4 against the exact Γ_max (G-23, F-G2): a proved ordering with its exact crossing.

Statement (t = e^ε, N = 2..5, 0 < c ≤ 1/N, 1 ≤ t ≤ 1/c):
  Γ_max^exact(ε,c) ≤ (1−Nc)e^ε + 1 (Lemma 4), with equality exactly when t ≥ 1/((N−1)c); below that
  Lemma 4 is strictly loose for c < 1/N (the first branch (t(1−Nc)+c)/(1−(N−1)c) is strictly smaller;
  at c = 1/N both are 1 — the prover found this boundary case).
  The branches of the exact value agree at t = 1/((N−1)c) (both (1−c)/((N−1)c)).
Checked: exact two-parameter decisions per N and an identity at the branch point (symbolic N).
Not shown: that the exact value is the supremum (an LP claim of another module).
"""

import sympy

from exactdp.sources import GROSSE2026, Source
from exactdp.bounds import N, c, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, symbolic_check

branch1 = (t * (1 - N * c) + c) / (1 - (N - 1) * c)
lemma4 = (1 - N * c) * t + 1


def _per_n(k):
    b1, l4 = branch1.subs(N, k), lemma4.subs(N, k)
    base = (t >= 1, c < sympy.Rational(1, k), t * c <= 1)  # at c = 1/N both sides are 1
    return [Statement(f"N={k}: first branch < Lemma 4 where (N-1) c t < 1, c < 1/N", b1 < l4, base + ((k - 1) * c * t < 1,))]


register(Claim(
    id="grosse2026.lem4_exact_gamma_ordering",
    catalogue=("G-23", "F-G2"),
    source=Source(GROSSE2026, "Lemma 4", "IV"),
    title="The exact Gamma_max is below Lemma 4's (1 - Nc)e^eps + 1, strictly when e^eps < 1/((N-1)c)",
    statement=r"\Gamma_{\max}(\varepsilon,c)\leq(1-Nc)e^{\varepsilon}+1",
    hypotheses="N >= 2, 0 < c <= 1/N, 1 <= e^eps <= 1/c",
    checks=(
        symbolic_check("branch point", [
            Statement("branches agree at t = 1/((N-1)c)",
                      Eq(branch1.subs(t, 1 / ((N - 1) * c)), lemma4.subs(t, 1 / ((N - 1) * c)))),
            Statement("common value (1-c)/((N-1)c)", Eq(lemma4.subs(t, 1 / ((N - 1) * c)), (1 - c) / ((N - 1) * c))),
        ]),
        symbolic_check("strict gap below the branch point, N = 2..5", [s for k in range(2, 6) for s in _per_n(k)]),
    ),
    expected=Verdict.PROVED, kind="lemma",
))
