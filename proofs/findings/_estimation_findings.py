r"""Findings about [A]'s statistical applications (docs/claims.md §6: F-A3, F-A4, F-A5, F-A8, F-A9, F-A10, F-A11, F-A12).

Each claim states the project's finding (so the expected verdict is VERIFIED, or NOT_CHECKABLE for a statement
about missing or ambiguous text).  All of [A]'s formulas involved are **reconstructions** (F-A12): the paper's
full text was not available; a web search for it returned abstracts only.

* F-A3 — φ(ε,0) = 1 − e^{−ε} is below 4(e^ε−1)² only for ε > log((1+√2)/2) = 0.18823 (exact) and below 4ε² only
  for ε > 0.22398 (certified root): for small ε the φn effective sample size is the *weaker* one.
* F-A4 — the reported mean-estimation rates exceed achievable risks (sample mean at φ = 1; the (0,δ) reveal
  mechanism at ε = 0, exact risk E[1/R; R ≥ 1] + (1−δ)ⁿ), while the TV-route rate does not.
* F-A5 — reading "bound (3)" as the private Xu–Raginsky bound (15), Thm 2 is tighter only for small ε: it
  wins at ε ∈ {0.01, 0.1, 1, 2} and loses at ε = 3 (certified, Bernoulli example).
* F-A10 — the reconstruction reproduces 0.08 / 0.03 at ε = 0.02, and not at ε = 0.01 or 0.03.
* F-A11 — ⌈e^{k/16}⌉ > 2k (Plotkin's limit for {0,1}^k codes with Hamming ≥ k/2) from k = 82 on.
* F-A8, F-A9, F-A12 — statements about ranges, setup and missing text: not mechanically checkable.
Not shown: anything about the PDF's actual wording.
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.numbers.formula_text import DerivationStep
from exactdp.numbers.truth import Truth
from exactdp.sources import CATALOGUE, Source
from exactdp.numbers.rb import compare, rounds_to
from exactdp.theory.estimation import (
    bernoulli_bayes_point,
    effective_sample_size_crossovers,
    mean_estimation_as_reported,
    mean_estimation_tv_route,
    reveal_mechanism_risk,
    reveal_mechanism_risk_bound,
    sample_mean_risk,
)
from exactdp.theory.packing import gv_size, plotkin_crossover
from exactdp.algebra.certificates import check
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Eq, Statement, at, statements_certificate


def _fa3(ctx):
    """F-A3 as stated with the exact crossover ε* of 4ε² (not the rounded 0.22398, below which it lies: the "⇔"
    with 0.22398 is false on (0.22398, ε*]).  The 4(e^ε−1)² comparison is decided exactly for every t = e^ε ≥ 1
    (certificate: sign of 4t² − 4t − 1 on each side of its root (1+√2)/2); the 4ε² one rests on a certified
    bracket of ε* and a concavity argument in words, so the finding is VERIFIED, not proved."""
    x = effective_sample_size_crossovers()
    a, b = x["phi_vs_4(e^eps-1)^2"], x["phi_vs_4eps^2"]
    ok = rounds_to(a, "0.18823") is Truth.TRUE and rounds_to(b, "0.22398") is Truth.TRUE
    T = sympy.Symbol("t", positive=True)
    q = 4 * T**2 - 4 * T - 1  # 1 - 1/t - 4(t-1)^2 = -(t-1) q / t
    cert = statements_certificate("F-A3: phi(eps,0) against 4(e^eps-1)^2", (
        Statement("4t^2 - 4t - 1 = 0 at t = (1+sqrt 2)/2", Eq(at(q, (T, (1 + sympy.sqrt(2)) / 2)), 0)),
        Statement("phi(eps,0) < 4(e^eps-1)^2 where 4t^2 - 4t - 1 > 0", 1 - 1 / T < 4 * (T - 1) ** 2, (T >= 1, q > 0)),
        Statement("phi(eps,0) >= 4(e^eps-1)^2 where 4t^2 - 4t - 1 <= 0", 1 - 1 / T >= 4 * (T - 1) ** 2,
                  (T >= 1, q <= 0)),
    ))
    exact = check(cert).truth is Truth.TRUE
    if ok and exact:
        return Outcome(Verdict.VERIFIED, "phi(eps,0) < 4(e^eps-1)^2 iff eps > log((1+sqrt2)/2) = 0.18823 (proved for "
                       "every eps >= 0); phi(eps,0) < 4 eps^2 iff eps > eps* = " + b.str(10) + " (certified "
                       "bracket; one positive root by concavity, not certified)", certificates=(cert,),
                       derivation=(
                           DerivationStep("{0} with {1}, and {2}: the sign of {3} decides, its root {4} (certificate)",
                                          ("phi(eps, 0) = 1 - 1/t", "t = exp(eps)",
                                           "phi(eps, 0) - 4*(t - 1)^2 = -(t - 1)*(4*t^2 - 4*t - 1)/t",
                                           "4*t^2 - 4*t - 1", "t = (1 + √2)/2"), inline=True),
                           DerivationStep("{0} is concave with {1} and derivative 1 at 0: one positive root ε*, "
                                          "bracketed by certified bisection: " + b.str(10) + "; the rounded 0.22398 "
                                          "is below ε*, so the statement with 0.22398 in place of ε* is false for ε "
                                          "in (0.22398, ε*]", ("f(eps) = phi(eps, 0) - 4*eps^2", "f(0) = 0"),
                                          inline=True)),
                       instances=1, details={"exact": str(a), "certified": b.str(12)})
    return Outcome(Verdict.UNDECIDED, "crossovers not reproduced", reason="rounding or exact check failed")


def _fa4(ctx):
    n, d, c_l = 400, fmpq(1, 2), fmpq(1, 10)
    risk = reveal_mechanism_risk(n, d)
    reported = c_l**2 / (d**2 * n)  # (c_l / (delta sqrt n))^2 at eps = 0, k = 2 (phi = delta)
    tv_route = mean_estimation_tv_route(n, 1, d, 2, c_l).value  # c_l (n delta)^{-1}
    exceeds = reported > risk**2
    consistent = tv_route <= risk and mean_estimation_tv_route(n, 1, 1, 2).value <= sample_mean_risk(n)
    at_phi_one = compare(mean_estimation_as_reported(n, 1, 1, 2).value, sample_mean_risk(n)) is Truth.FALSE
    # bounded data (k = oo) at eps = 0, delta = 1/100, n = 20000: reported c_l min{1, 1/(n delta^2)} = 1/20
    # versus an achievable risk <= 2/((n+1) delta) + (1-delta)^n ~ 1/100
    n2, d2 = 20000, fmpq(1, 100)
    bounded = mean_estimation_as_reported(n2, 1, d2, "oo", c_l).value > reveal_mechanism_risk_bound(n2, d2)
    if exceeds and consistent and at_phi_one and bounded:
        return Outcome(Verdict.VERIFIED, "reported rates (k = 2 and k = oo) exceed the reveal mechanism's and the "
                       "sample mean's exact risks; the TV-route rate does not", instances=3,
                       details={"n": str(n), "delta": str(d), "c_l": str(c_l), "reveal_risk": str(risk),
                                "reported_bound_squared": str(reported), "tv_route_bound": str(tv_route)})
    return Outcome(Verdict.UNDECIDED, "witnesses did not behave as expected",
                   reason=f"exceeds={exceeds}, consistent={consistent}, at_phi_one={at_phi_one}, bounded={bounded}")


def _fa5(ctx):
    order = []
    for eps in ("0.01", "0.1", "1", "2", "3"):
        p = bernoulli_bayes_point(eps, "1e-4", 20, bits=60)
        order.append(p.thm2 > p.xu_raginsky if eps != "3" else p.thm2 < p.xu_raginsky)
    if all(order):
        return Outcome(Verdict.VERIFIED, "Thm 2 > (15) at eps in {0.01, 0.1, 1, 2}; Thm 2 < (15) at eps = 3",
                       instances=5)
    return Outcome(Verdict.UNDECIDED, "ordering not certified", reason=str(order))


def _fa10(ctx):
    hits = {}
    for eps in ("0.01", "0.02", "0.03"):
        p = bernoulli_bayes_point(eps, "1e-4", 20, bits=60)
        hits[eps] = (rounds_to(p.thm2, "0.08"), rounds_to(p.xu_raginsky, "0.03"))
    if hits["0.02"] == (Truth.TRUE, Truth.TRUE) and all(Truth.FALSE in hits[e] for e in ("0.01", "0.03")):
        return Outcome(Verdict.VERIFIED, "0.08 / 0.03 reproduced at eps = 0.02, not at 0.01 or 0.03", instances=3)
    return Outcome(Verdict.UNDECIDED, "not reproduced as expected", reason=str(hits))


def _fa11(ctx):
    k = plotkin_crossover()
    if k == 82 and gv_size(81) <= 2 * 81 and gv_size(82) > 2 * 82:
        return Outcome(Verdict.VERIFIED, "ceil(e^(k/16)) > 2k from k = 82 on: a {0,1}^k packing of that size "
                       "with Hamming >= k/2 is impossible (Plotkin); {+-1}^k packings exist (asoodeh2021.a13_packing)",
                       instances=2, details={"k": "82", "ceil_e^(82/16)": str(gv_size(82))})
    return Outcome(Verdict.UNDECIDED, "unexpected crossover", reason=f"k = {k}")


def _nc(reason):
    return lambda ctx: Outcome(Verdict.NOT_CHECKABLE, "statement about the text", reason=reason)


def _finding(id, items, title, statement, check, expected=Verdict.VERIFIED, label="finding", formulas=()):
    register(Claim(id=f"findings.{id}", catalogue=items, source=Source(CATALOGUE, f"§6 {items[0]}", "§6"),
                   title=title, statement=statement, hypotheses="as in docs/claims.md §6",
                   checks=(Check(id, check),), expected=expected, reconstructed=True, kind="finding",
                   formulas=formulas))
