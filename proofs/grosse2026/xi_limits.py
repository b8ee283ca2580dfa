r"""[G] Theorem 1's closed form Ξ(ε,c) — limits and threshold (D-11, G-15, G-19, F-G1; claims.md §7).

Statements, with Ξ₁(t,c) = (t−1)/(t(1−Nc)+1), Ξ = min{Ξ₁, 1}, t = e^ε:
* Ξ₁ at t = 2/(Nc) equals 1 (the formula is continuous at the threshold of Theorem 2);
* Ξ₁ at c = 0 equals (t−1)/(t+1) (the LDP value, eq. (13));
* Ξ₁ at c = 1/N equals t − 1 (F-G1: so Ξ = e^ε − 1 only for ε ≤ log 2);
* for N = 2..5: Ξ₁ ≤ 1 ⟺ t ≤ 2/(Nc) on t ≥ 1, 0 < c ≤ 1/N (both directions decided exactly, with the
  crossing curve Nct = 2), and Ξ ≤ φ(ε,0) exactly when Nct ≤ 1 (crossing at t = 1/(Nc));
* for N = 2..5: Ξ₁ is non-decreasing in t and in c below the threshold (derivatives ≥ 0, decided
  exactly), and at c = 1/N, Ξ = e^ε − 1 exactly for e^ε ≤ 2 and 1 beyond (F-G1).
Checked: identities with symbolic N; inequalities per N by the exact two-parameter prover.
Not shown: N > 5 for the inequalities (the identities hold for symbolic N).
"""

import sympy

from exactdp.sources import GROSSE2026, Source
from exactdp.bounds import N, c, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, symbolic_check

xi1 = (t - 1) / (t * (1 - N * c) + 1)


def _per_n(k):
    x = xi1.subs(N, k)
    region = (t >= 1, c <= sympy.Rational(1, k))
    return [
        Statement(f"N={k}: Xi1 <= 1 where N c t <= 2", x <= 1, region + (k * c * t <= 2,)),
        Statement(f"N={k}: Xi1 > 1 where N c t > 2", x > 1, region + (k * c * t > 2,)),
        Statement(f"N={k}: Xi1 <= phi(eps,0) where N c t <= 1", x <= 1 - 1 / t, region + (k * c * t <= 1,)),
        Statement(f"N={k}: Xi1 > phi(eps,0) where N c t > 1 (and Xi1 <= 1)", x > 1 - 1 / t,
                  region + (k * c * t > 1, k * c * t <= 2)),
    ]


def _monotone(k):
    x = xi1.subs(N, k)
    region = (t >= 1, c <= sympy.Rational(1, k), k * c * t <= 2)  # where Xi = Xi1 (below the threshold)
    return [
        Statement(f"N={k}: d Xi1/dt >= 0", sympy.diff(x, t) >= 0, region),
        Statement(f"N={k}: d Xi1/dc >= 0", sympy.diff(x, c) >= 0, region),
        Statement(f"N={k}: Xi1(c = 1/N) = t - 1 <= 1 iff t <= 2", x.subs(c, sympy.Rational(1, k)) <= 1, (t >= 1, t <= 2)),
        Statement(f"N={k}: Xi1(c = 1/N) > 1 for t > 2", x.subs(c, sympy.Rational(1, k)) > 1, (t > 2,)),
    ]


register(Claim(
    id="grosse2026.xi_limits",
    catalogue=("D-11", "G-15", "G-19", "F-G1", "X-1"),
    source=Source(GROSSE2026, "Theorem 1 and the limits after Theorem 3", "III"),
    title="Xi(eps, c): value 1 at the threshold, LDP limit at c = 0, e^eps - 1 at c = 1/N",
    statement=r"\Xi(\varepsilon,c)=\min\Big\{\frac{e^{\varepsilon}-1}{e^{\varepsilon}(1-Nc)+1},1\Big\}",
    hypotheses="N >= 2, 0 < c <= 1/N, eps >= 0",
    checks=(
        symbolic_check("limits", [
            Statement("Xi1(t = 2/(Nc)) = 1", Eq(xi1.subs(t, 2 / (N * c)), 1)),
            Statement("Xi1(c = 0) = (t-1)/(t+1)", Eq(xi1.subs(c, 0), (t - 1) / (t + 1))),
            Statement("Xi1(c = 1/N) = t - 1", Eq(xi1.subs(c, 1 / N), t - 1)),
        ]),
        symbolic_check("threshold and comparison with phi, N = 2..5",
                       [s for k in range(2, 6) for s in _per_n(k)]),
        symbolic_check("monotone in eps and in c; c = 1/N gives min{e^eps - 1, 1} (F-G1), N = 2..5",
                       [s for k in range(2, 6) for s in _monotone(k)]),
    ),
    expected=Verdict.PROVED, kind="theorem",
))
