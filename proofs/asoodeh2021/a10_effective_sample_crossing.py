r"""[A] §IV-A, the effective sample size φ(ε,0)n against Duchi et al.'s 4(e^ε−1)²n (A-10, F-A3).

Statement (t = e^ε ≥ 1): φ(ε,0) = 1 − 1/t ≥ 4(t−1)² exactly when t ≤ (1+√2)/2, i.e.
ε ≤ log((1+√2)/2) ≈ 0.18823, and ≤ beyond; the crossing points are t = 1 and t = (1+√2)/2 exactly.
So [A]'s φ-route gives the *larger* effective sample size (a weaker lower bound) for small ε — the
direction of "strengthens for sufficiently small ε" is reversed (F-A3).
Checked: exact one-parameter decisions with exact algebraic crossing points (Sturm isolation).
Not shown: the 4ε²n comparison (crossing 0.22398, transcendental: certified numerics elsewhere).
"""

import sympy

from exactdp.sources import CATALOGUE, Source
from exactdp.bounds import t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, symbolic_check
from .._statements import sample_size_crossing

phi0 = 1 - 1 / t
duchi = 4 * (t - 1) ** 2
T = sympy.Rational(1, 2) + sympy.sqrt(2) / 2  # (1 + sqrt 2)/2, the root of 4t(t-1) = 1 above 1

register(Claim(
    written=(sample_size_crossing("asoodeh2021.a10_effective_sample_crossing"),),
    id="asoodeh2021.a10_effective_sample_crossing",
    domain=("t >= 1",),
    catalogue=("A-10", "F-A3"),
    source=Source(CATALOGUE, "A-10 / F-A3 [DERIVED]"),
    title="phi(eps,0) n >= 4(e^eps - 1)^2 n iff e^eps <= (1 + sqrt 2)/2",
    statement=r"1-e^{-\varepsilon}\geq 4(e^{\varepsilon}-1)^{2}\iff e^{\varepsilon}\leq\frac{1+\sqrt{2}}{2}",
    hypotheses="`eps >= 0`",
    checks=(symbolic_check("crossing", [
        Statement("phi >= 4(t-1)^2 on 1 <= t <= 1.2071 (below the crossing, rational end 6/5)", phi0 >= duchi,
                  (t >= 1, t <= sympy.Rational(6, 5))),
        Statement("phi < 4(t-1)^2 for t >= 5/4 (above the crossing)", phi0 < duchi, (t >= sympy.Rational(5, 4),)),
        Statement("(1+sqrt 2)/2 is the root of 4t(t-1) = 1 (so the crossing in (6/5, 5/4))",
                  Eq(4 * T * (T - 1), 1)),
        Statement("phi >= 4(t-1)^2 exactly up to the crossing", phi0 >= duchi, (t >= 1, 4 * t * (t - 1) <= 1)),
        Statement("phi < 4(t-1)^2 strictly beyond it", phi0 < duchi, (4 * t * (t - 1) > 1, t >= 1)),
    ]),),
    expected=Verdict.PROVED, kind="finding",
    notes="the exact crossing points are also returned by exactdp.algebra.prover.decide (t = 1, (1+sqrt2)/2)",
    formulas=("1 - exp(-eps) >= 4*(exp(eps) - 1)^2 ⟺ exp(eps) <= (1 + √2)/2",),
))
