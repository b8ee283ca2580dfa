r"""Finding F-A7 — φⁿ → 1: the n-sample contraction bound is vacuous for nε ≫ 1.

Statement: for n = 20 and every ε ≥ 0.2, δ ∈ [0, 1]: φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ > 0.98.
Checked:   PROVED by exact rational arithmetic: φⁿ is non-decreasing in ε and δ, so φ²⁰(ε,δ) ≥ 1 − e^{−4};
           e⁴ ≥ Σ_{k≤8} 4^k/k! (positive series) and that partial sum is an exact rational > 50, hence
           1 − e^{−4} > 49/50.  VERIFIED: at γ = 5/4 ≥ e^{0.2} (e^x ≤ 1/(1−x) for 0 ≤ x < 1), φ²⁰ = 1 − (4/5)²⁰
           > 49/50 exactly, while the exact η_TV of the binary and 3-ary randomized response (and the
           optimal binary (ε,δ) kernel) at that level, n = 20, is far below — the bound says nothing there.
Not shown: how the downstream Bayes/Fano bounds (A-12, A-14) degrade (see the estimation claims).
"""

from __future__ import annotations

from math import factorial

import sympy
from flint import fmpq

from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.tensor import eta_tv_tensor_power, phi_n
from exactdp.mechanisms import optimal_binary_approx_ldp, randomized_response
from exactdp.sources import ASOODEH2021, Source
from exactdp.numbers.qq import qq_to_sympy
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Statement, statements_certificate
from exactdp.numbers.formula_text import written_step as step

from ..asoodeh2021._tensor_instances import approx


def _proof(ctx):
    partial = sum((fmpq(4**k, factorial(k)) for k in range(9)), fmpq(0))
    if not partial > 50:
        return Outcome(Verdict.UNDECIDED, "series bound too weak", reason=f"sum_(k<=8) 4^k/k! = {partial} <= 50")
    w = sympy.Symbol("w", nonnegative=True)  # w = e^(-20 eps)(1-delta)^20 <= e^(-4) <= 1/partial
    cert = statements_certificate("fa07 phi^20 bound", (
        Statement("sum_(k<=8) 4^k/k! > 50", sympy.StrictGreaterThan(qq_to_sympy(partial), 50, evaluate=False)),
        Statement("1 - w > 49/50 for 0 <= w <= 1/sum_(k<=8) 4^k/k!", 1 - w > sympy.Rational(49, 50),
                  (w <= 1 / qq_to_sympy(partial),))), scope="all eps >= 1/5, delta in [0, 1]")
    return proved("phi^20(eps, delta) > 0.98 for every eps >= 0.2 and delta in [0, 1]", (cert,), cert.scope,
                   derivation=(
                        step("`phi(eps, delta)^n = 1 - exp(-n*eps)*(1-delta)^n` is non-decreasing in `eps >= 0` and in delta on "
                             "[0, 1]"),
                        step("so for `n = 20` and `eps >= 1/5`: `phi(eps, delta)^20 >= 1 - exp(-4)`"),
                        step(f"the exponential series of `exp(4)` is at least its terms up to k = 8, which sum to "
                             f"`{partial}`, and `{partial} > 50` (exact rational)"),
                        step("hence `exp(-4) < 1/50` and `phi(eps, delta)^20 > 49/50`, i.e. above 0.98")),
                   details={"sum_(k<=8) 4^k/k!": str(partial)})


def _instances(ctx):
    g = fmpq(5, 4)  # >= e^(1/5) because e^x <= 1/(1-x) on [0, 1)
    kernels = [("RR_2", randomized_response(2, g)), ("RR_3", randomized_response(3, g)),
               ("OptBin(5/4, 1/100)", optimal_binary_approx_ldp(g, fmpq(1, 100)))]
    rows, count = {}, 0
    for name, K in kernels:
        d = eta_hockey_stick(K, g)
        for n in (20, 100) + (() if ctx.quick else (1000,)):
            bound, eta = phi_n(g, d, n), eta_tv_tensor_power(K, n)
            count += 1
            if not (bound > fmpq(49, 50) and eta <= bound):
                return Outcome(Verdict.REFUTED, "phi^n not above 0.98 at eps >= 0.2, n >= 20", instances=count,
                               counterexample={"K": K.as_strings(), "n": str(n), "gamma": str(g), "delta": str(d),
                                               "phi_n": str(bound)})
            rows[f"{name} n={n}"] = f"phi^n={approx(bound)} vs exact eta_TV={approx(eta)}"
    return Outcome(Verdict.VERIFIED, f"at gamma = 5/4 >= e^0.2: phi^n > 0.98 on {count} instances, exact eta_TV far below",
                   instances=count, families=(("RR_2, RR_3, OptBin at gamma = 5/4", count),),
                   details={"phi^n vs exact eta_TV(K^(x n))": rows})


register(Claim(
    id="findings.fa07_vacuity",
    catalogue=("F-A7", "A-8"),
    source=Source(ASOODEH2021, "F-A7: phi^n -> 1", section="III"),
    title="The n-sample contraction bound phi^n is vacuous for n eps >> 1",
    statement=r"n=20,\ \varepsilon\ge0.2:\ \varphi^{n}(\varepsilon,\delta)=1-e^{-n\varepsilon}(1-\delta)^n>0.98",
    hypotheses="`eps >= 1/5`, `0 <= delta <= 1`",
    checks=(Check("exact rational proof", _proof), Check("instances with the exact eta_TV", _instances)),
    expected=Verdict.VERIFIED,
    kind="finding",
    formulas=("n = 20",
              "eps >= 0.2",
              "phi_n(eps, delta) = 1 - exp(-n*eps)*(1 - delta)^n",
              "1 - exp(-n*eps)*(1 - delta)^n > 0.98"),
))
