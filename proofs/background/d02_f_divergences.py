r"""D-2 and [A] §II-A (A-3): f-divergences and the hockey-stick divergence E_γ.

Statement: E_γ(P‖Q) = Σ_y (P(y) − γQ(y))⁺ = sup_A [P(A) − γQ(A)] for γ ≥ 1; E₁ = TV; E_γ is
           non-increasing in γ, 0 ≤ E_γ ≤ TV, E_γ = 0 iff P ≤ γQ; f_γ(t) = (t − γ)⁺ has f_γ(1) = 0 iff
           γ ≥ 1 (A-3); the generic D_f with f = (t−1)² is χ², with f = t log t is KL.
Checked:   the sum formula against brute force over all 2^M events on random exact pairs and random
           rational γ; the order facts on the same pairs; f_γ(1) = 0 ⟺ γ ≥ 1 symbolically; the generic
           f-divergence against the named χ² (exactly) and KL (sympy simplification to 0).
Not shown: non-discrete alphabets.
"""

import sympy
from flint import fmpq

from exactdp.measures.divergences import (
    F_CHI2,
    F_KL,
    chi2,
    f_divergence,
    f_hockey_stick,
    hockey_stick,
    kl,
    tv,
)
from exactdp.numbers.reader import as_expr
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_outcome
from exactdp.verification.quantities import hockey_stick_by_subsets
from exactdp.numbers.formula_text import math_text, written_step as step


def _pairs(ctx, salt, count):
    rng = ctx.rng(salt)
    for k in range(count):
        M = 2 + k % 4
        P, Q = inst.random_distribution(rng, M), inst.random_distribution(rng, M)
        g = inst.random_rational(rng, 1, 5, 6)
        yield P, Q, g


def _subsets(ctx):
    def test(x):
        P, Q, g = x
        a, b = hockey_stick(P, Q, g), hockey_stick_by_subsets(P, Q, g)
        return a == b, exact_data(P=P, Q=Q, gamma=g, sum_formula=a, subsets_max=b)

    return check_instances([("random pairs, gamma in [1,5]", _pairs(ctx, "d2", ctx.size(40, 400)))], test,
                           claim="E_gamma sum formula = max over events")


def _order(ctx):
    def test(x):
        P, Q, g = x
        e, e2, t = hockey_stick(P, Q, g), hockey_stick(P, Q, g + fmpq(1, 3)), tv(P, Q)
        zero_iff = (e == 0) == all(p <= g * q for p, q in zip(P, Q))
        ok = hockey_stick(P, Q, 1) == t and 0 <= e <= t and e2 <= e and zero_iff
        return ok, exact_data(P=P, Q=Q, gamma=g, E=e, E_next=e2, TV=t)

    return check_instances([("random pairs", _pairs(ctx, "d2o", ctx.size(40, 400)))], test,
                           claim="E_1 = TV, 0 <= E_gamma <= TV, non-increasing, zero iff P <= gamma Q")


def _f_gamma_one(ctx):
    g = sympy.Symbol("gamma", positive=True)
    val = f_hockey_stick(g).subs(sympy.Symbol("t", positive=True), 1)
    s = sympy.Symbol("s", nonnegative=True)
    above = sympy.simplify(val.subs(g, 1 + s))  # gamma >= 1
    below = sympy.simplify(val.subs(g, 1 / (1 + s)) - s / (1 + s))  # gamma = 1/(1+s) < 1 when s > 0
    if above == 0 and below == 0:
        out = symbolic_outcome([Statement("gamma = 1 + s, s >= 0: f_gamma(1) = 0", Eq(at(val, (g, 1 + s)), 0)),
                                Statement("gamma = 1/(1+s), s > 0: f_gamma(1) = s/(1+s)",
                                          Eq(at(val, (g, 1 / (1 + s))), s / (1 + s))),
                                Statement("s/(1+s) > 0 for s > 0", s / (1 + s) > 0, (s > 0,))],
                               "f_gamma(1)", scope="all gamma > 0")
        if out.verdict is Verdict.PROVED:
            return proved("f_gamma(1) = max(1 - gamma, 0) is 0 iff gamma >= 1", out.certificates, out.scope,
derivation=(step(f"`f_gamma(1) = {math_text(val)}`"),) + out.derivation)
        return out
    return Outcome(Verdict.UNDECIDED, "simplification failed", reason=f"{above}, {below}")


def _generic(ctx):
    rng = ctx.rng("d2g")

    def test(k):
        M = 2 + k % 3
        P = inst.random_distribution(rng, M, full_support=True)
        Q = inst.random_distribution(rng, M, full_support=True)
        a, b = f_divergence(P, Q, F_CHI2), chi2(P, Q)
        ok = a == b
        if k < 4:  # KL through sympy simplification (slower)
            ok = ok and sympy.simplify(as_expr(f_divergence(P, Q, F_KL)) - as_expr(kl(P, Q))) == 0
        return ok, exact_data(P=P, Q=Q, generic_chi2=a, chi2=b)

    return check_instances([("random full-support pairs", range(ctx.size(6, 24)))], test,
                           claim="generic D_f equals the named chi^2 and KL")


register(Claim(
    id="background.d02_f_divergences",
    catalogue=("D-2", "A-3"),
    source=Source(ASOODEH2021, "f-divergences", section="II-A", page="2"),
    title="f-divergences and E_gamma: sum formula, events, order facts",
    statement=r"E_\gamma(P\|Q)=\sum_y (P(y)-\gamma Q(y))^+=\sup_A\,[P(A)-\gamma Q(A)],\quad E_1=\mathrm{TV},\quad f_\gamma(1)=0\iff\gamma\ge1",
    hypotheses="finite alphabets; `gamma >= 1` rational",
    checks=(Check("events", _subsets), Check("order facts", _order), Check("f_gamma(1)", _f_gamma_one),
            Check("generic f", _generic)),
    expected=Verdict.VERIFIED,
    kind="definition",
    formulas=("E(gamma, P, Q) = sum_y_plus(P, Q, gamma)",
              "sum_y_plus(P, Q, gamma) = sup_A(P, Q, gamma)",
              "E(1, P, Q) = TV(P, Q)",
              "f_gamma(1) = 0 ⟺ gamma >= 1"),
))
