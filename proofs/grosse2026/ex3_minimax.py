r"""Grosse et al. 2026 §IV, Example 3 — a minimax lower bound from Cor 1 (docs/claims.md G-28, F-G8).

Stored: D(K∘P_{θ₀}‖K∘P_{θ₁}) ≤ Ξ(ε,c)·log((1−4c)e^ε+1)·δ (Cor 1 with N = 4, δ = TV(P_{θ₀},P_{θ₁})).
**Reconstructed** (the family, loss and final bound are not stored): Le Cam + Bretagnolle–Huber with n
privatized samples, inf_ψ max_i P_i(ψ ≠ i) ≥ (1 − TV(M₀ⁿ,M₁ⁿ))/2 ≥ ¼·exp(−n·D(M₀‖M₁))
≥ ¼·exp(−n·Ξ·log((1−4c)e^ε+1)·δ).

Checked (certified; TV of n-fold products exact): P_{θ₀}, P_{θ₁} random in Q_X(c) on 4 points, K the [G] intro
kernel with zeros (at its exact PML level e^ε = 1/(3c)) and the Thm 3 construction of [G] at N = 4, n ≤ 3:
each link of the chain.  Not shown: [G]'s own family and loss; the paraphrase of summary 002 (F-G8) — the
sample-size factor is 1/[Ξ·log((1−4c)e^ε+1)], not 1/Ξ.
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp import mechanisms, pml_ratio
from exactdp.measures.divergences import kl, tv
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.truth import Truth
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import compare
from exactdp.theory.estimation import grosse_kl_bound, product_tv
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register


def _in_qx(rng, c):
    free = [rng.randint(0, 6) for _ in range(4)]
    s = sum(free) or 1
    return [c + (1 - 4 * c) * fmpq(f, s) for f in free] if sum(free) else [fmpq(1, 4)] * 4


def _chain(ctx):
    rng, count = ctx.rng("g28"), 0
    for k in range(ctx.size(4, 12)):
        c = (fmpq(1, 8), fmpq(1, 16), fmpq(1, 5))[k % 3]
        K = mechanisms.grosse_intro_K1() if k % 2 == 0 else mechanisms.grosse_pml_mechanism(4, fmpq(3, 2), c)
        t = pml_ratio(K, c)
        P0, P1 = _in_qx(rng, c), _in_qx(rng, c)
        if P0 == P1:
            continue
        M0, M1 = K.apply(P0), K.apply(P1)
        d_one = kl(M0, M1)
        bound = grosse_kl_bound(t, c, tv(P0, P1)).value
        links = [compare(d_one, bound)]
        for n in (1, 2, 3):
            err = (1 - product_tv(M0, M1, n)) / 2
            links.append(compare(sympy.exp(-n * d_one) / 4, qq_to_sympy(err)))
            links.append(compare(sympy.exp(-n * bound) / 4, sympy.exp(-n * d_one) / 4))
        if Truth.FALSE in links:
            return Outcome(Verdict.REFUTED, "a link of the Example 3 chain fails", counterexample={
                "K": K.as_strings(), "c": str(c), "P0": [str(p) for p in P0], "P1": [str(p) for p in P1]})
        if Truth.UNKNOWN in links:
            return Outcome(Verdict.UNDECIDED, "not certified", reason="a comparison is undecided at 128 bits")
        count += 1
    return Outcome(Verdict.VERIFIED, "KL <= Xi log((1-4c)e^eps+1) TV and the Le Cam/Bretagnolle-Huber chain, "
                   "certified for n <= 3", instances=count,
                   families=(("4-point P0, P1 in Q_X(c); intro K1 and the Thm 3 kernel", count),))


register(Claim(
    id="grosse2026.ex3_minimax", catalogue=("G-28", "F-G8"),
    source=Source(GROSSE2026, "Example 3", "§IV"),
    title="Example 3: minimax lower bound with the PML KL corollary",
    statement=r"\inf_{\hat\theta}\max_i\mathbb E_i\ell\ge\frac{\ell(\theta_0,\theta_1)}{8}"
              r"\exp\bigl(-n\,\Xi(\varepsilon,c)\log((1-4c)e^\varepsilon+1)\,\delta\bigr)",
    hypotheses=("`K` in `M(eps, c)`, `P_theta_0`, `P_theta_1` in `Q_X(c)` on `N = 4` points, `TV(P_theta_0, "
                "P_theta_1) <= delta`"),
    checks=(Check("chain", _chain, "each link certified"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="example",
    formulas=("minimax_risk >= ell(theta0, theta1)/8*exp(-n*Xi(eps, c)*log((1 - 4*c)*exp(eps) + 1)*delta)",),
))
