r"""[G] Theorem 1's closed form Ξ(ε,c) — limits and threshold (D-11, G-15, G-19, F-G1; docs/claims.md §7).

Statements, with Ξ₁(t,c) = (t−1)/(t(1−Nc)+1) (the registry's ``xi_raw``), Ξ = min{Ξ₁, 1}, t = e^ε, for
every N ≥ 2, t ≥ 1, 0 < c ≤ 1/N:
* Ξ₁ at t = 2/(Nc) equals 1 (the formula is continuous at the threshold of Theorem 2);
* Ξ₁ at c = 0 equals (t−1)/(t+1) (the LDP value, eq. (13));
* Ξ₁ at c = 1/N equals t − 1 (F-G1: so Ξ = e^ε − 1 only for ε ≤ log 2);
* Ξ₁ ≤ 1 ⟺ t ≤ 2/(Nc) (both directions, crossing curve Nct = 2), and Ξ ≤ φ(ε,0) exactly when Nct ≤ 1;
* Ξ₁ is non-decreasing in t and in c below the threshold; at c = 1/N, Ξ = e^ε − 1 for e^ε ≤ 2 and 1 beyond.

Proof, for all N at once — reduction u = Nc: Ξ₁ depends on (N, c) only through u = Nc (an identity), and
c ∈ (0, 1/N] is exactly u ∈ (0, 1]; ∂Ξ₁/∂c = N·∂Ξ₁/∂u with N > 0 (chain rule, an identity).  So every
inequality above is a statement in (t, u) on t ≥ 1, 0 < u ≤ 1, decided by the exact two-parameter prover.
Cross-check: the same inequalities in (t, c, N) with N real ≥ 2, decided by the three-parameter
cylindrical decision (projection and lifting, :mod:`exactdp.algebra.boolean`).
Scope: all parameters (every real N ≥ 2, hence every integer N ≥ 2; t ≥ 1; 0 < c ≤ 1/N).
"""

import sympy

from exactdp.bounds import N, c, delta, phi, t, xi_raw
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_check
from .._statements import xi_threshold_and_limits

u = sympy.Symbol("u", positive=True)  # u = N c
xi1 = xi_raw
xi_u = xi_raw.subs(c, u / N)  # Ξ₁ as a function of (t, u): N cancels
phi0 = phi.subs(delta, 0)  # φ(ε, 0) = 1 − 1/t
SCOPE = "all parameters"


def _in_u():
    """The threshold, φ-comparison and monotonicity statements in (t, u) on t >= 1, 0 < u <= 1."""
    dom = (t >= 1, u <= 1)
    below = dom + (u * t <= 2,)
    return [
        Statement("Xi1 <= 1 where u t <= 2", xi_u <= 1, dom + (u * t <= 2,)),
        Statement("Xi1 > 1 where u t > 2", xi_u > 1, dom + (u * t > 2,)),
        Statement("Xi1 <= phi(eps,0) where u t <= 1", xi_u <= phi0, dom + (u * t <= 1,)),
        Statement("Xi1 > phi(eps,0) where 1 < u t <= 2", xi_u > phi0, dom + (u * t > 1, u * t <= 2)),
        Statement("d Xi1/dt >= 0 below the threshold", sympy.diff(xi_u, t) >= 0, below),
        Statement("d Xi1/du >= 0 below the threshold", sympy.diff(xi_u, u) >= 0, below),
        Statement("Xi1(u = 1) = t - 1 <= 1 for t <= 2", xi_u.subs(u, 1) <= 1, (t >= 1, t <= 2)),
        Statement("Xi1(u = 1) > 1 for t > 2", xi_u.subs(u, 1) > 1, (t > 2,)),
    ]


def _in_t_c_n():
    """The same inequalities in (t, c, N), N real >= 2: the three-parameter decision."""
    dom = (t >= 1, N >= 2, N * c <= 1)
    return [
        Statement("Xi1 <= 1 where N c t <= 2", xi1 <= 1, dom + (N * c * t <= 2,)),
        Statement("Xi1 > 1 where N c t > 2", xi1 > 1, dom + (N * c * t > 2,)),
        Statement("Xi1 <= phi(eps,0) where N c t <= 1", xi1 <= phi0, dom + (N * c * t <= 1,)),
        Statement("Xi1 > phi(eps,0) where 1 < N c t <= 2", xi1 > phi0, dom + (N * c * t > 1, N * c * t <= 2)),
        Statement("d Xi1/dt >= 0 below the threshold", sympy.diff(xi1, t) >= 0, dom + (N * c * t <= 2,)),
        Statement("d Xi1/dc >= 0 below the threshold", sympy.diff(xi1, c) >= 0, dom + (N * c * t <= 2,)),
    ]


register(Claim(
    written=xi_threshold_and_limits("grosse2026.xi_limits"),
    id="grosse2026.xi_limits",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("D-11", "G-15", "G-19", "F-G1", "X-1"),
    source=Source(GROSSE2026, "Theorem 1 and the limits after Theorem 3", "III"),
    title="Xi(eps, c): value 1 at the threshold, LDP limit at c = 0, e^eps - 1 at c = 1/N",
    statement=r"\Xi(\varepsilon,c)=\min\Big\{\frac{e^{\varepsilon}-1}{e^{\varepsilon}(1-Nc)+1},1\Big\}",
    hypotheses="`N >= 2`, `0 < c <= 1/N`, `eps >= 0`",
    checks=(
        symbolic_check("limits", [
            Statement("Xi1(t = 2/(Nc)) = 1", Eq(at(xi1, (t, 2 / (N * c))), 1)),
            Statement("Xi1(c = 0) = (t-1)/(t+1)", Eq(at(xi1, (c, 0)), (t - 1) / (t + 1))),
            Statement("Xi1(c = 1/N) = t - 1", Eq(at(xi1, (c, 1 / N)), t - 1)),
        ], scope=SCOPE),
        symbolic_check("reduction to u = N c", [
            Statement("Xi1(t, c) = Xi1(t, u) at u = N c", Eq(xi1, at(xi_u, (u, N * c)))),
            Statement("d Xi1/dc = N d Xi1/du at u = N c", Eq(sympy.diff(xi1, c), N * at(sympy.diff(xi_u, u), (u, N * c)))),
        ], "N and c enter Xi1 only through u = Nc; c in (0, 1/N] is u in (0, 1]", scope=SCOPE),
        symbolic_check("threshold, comparison with phi, monotonicity and c = 1/N in (t, u) (all N)", _in_u(),
                       scope=SCOPE),
        symbolic_check("the same in (t, c, N), N real >= 2 (three-parameter decision)", _in_t_c_n(), scope=SCOPE),
    ),
    expected=Verdict.PROVED, kind="theorem",
    formulas=("Xi(eps, c) = Min((exp(eps) - 1)/(exp(eps)*(1 - N*c) + 1), 1)",),
))
