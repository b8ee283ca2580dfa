r"""Asoodeh et al. 2021 §IV — private minimax risk: Le Cam (A-10), Fano (A-12), packing (A-13), framework (A-9).

**Reconstructed** (docs/claims.md A-10, A-12, F-A12): the formulas of the Le Cam and Fano corollaries are not
stored; what is checked is the catalogue's reconstruction, built from [A]'s tools (φ-contraction, A-7/A-8):

* Le Cam, TV route: TV(M₁ⁿ, M₂ⁿ) ≤ min{1, nφ·TV(P₁,P₂)} and, non-interactively, ≤ 1 − (1 − φ·TV(P₁,P₂))ⁿ,
  where Mᵢ = K∘Pᵢ and K is (ε,δ)-LDP; KL route: D(K∘P₁‖K∘P₂) ≤ φ·D(P₁‖P₂) (η_KL ≤ η_TV ≤ φ).
* Fano: I(V;Z) ≤ φ·I(V;X) for V → X → Z with an (ε,δ)-LDP K (single letter; the n-sample bound sums it).
* Packing: a set in {±1}^k with pairwise ℓ₁ ≥ k/2 and ⌈e^{k/16}⌉ elements (k ≤ 40, constructed and checked).

Checked: exact (TV inequalities, rationals) and certified (KL, MI with arb) on seeded random kernels K with
δ := δ_K(t) read off K's exact privacy profile (so K is (log t, δ)-LDP by construction).  Not shown: the
minimax rates themselves (constants unspecified, class X), sequential interaction (only products are built).
A-10's "strengthens 4ε²n for small ε" is its own claim below; it is refuted (F-A3).
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp import privacy_profile
from exactdp.measures.divergences import kl
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Truth
from exactdp.numbers.rb import compare
from exactdp.theory.estimation import effective_sample_size_crossovers, mutual_information, product_tv
from exactdp.formulas import phi_n
from exactdp.theory.packing import gv_size, l1, sign_packing
from exactdp.verification.claims import Outcome, Verdict
from exactdp.verification.instances import random_distribution, random_kernel

TS = (fmpq(1), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(5))


def _instances(ctx, salt, count):
    rng = ctx.rng(salt)
    for k in range(count):
        M = 2 + k % 2
        K = random_kernel(rng, 2, M, 10)
        t = TS[k % len(TS)]
        d = privacy_profile(K)(t)
        yield K, t, d, random_distribution(rng, 2, 10), random_distribution(rng, 2, 10)


def _le_cam_tv(ctx):
    count = 0
    for K, t, d, P1, P2 in _instances(ctx, "a10-tv", ctx.size(15, 60)):
        ph, T = phi_n(t, d), product_tv(P1, P2, 1)
        for n in (1, 2, 3):
            out = product_tv(K.apply(P1), K.apply(P2), n)
            if out > min(fmpq(1), n * ph * T) or out > 1 - (1 - ph * T) ** n:
                return Outcome(Verdict.REFUTED, "TV(M1^n, M2^n) exceeds the reconstructed Le Cam bound",
                               counterexample={"K": K.as_strings(), "t": str(t), "delta": str(d), "n": n,
                                               "P1": P1.as_strings(), "P2": P2.as_strings(), "tv_out": str(out)})
            count += 1
    return Outcome(Verdict.VERIFIED, "TV(M1^n,M2^n) <= min{1, n phi TV} and <= 1-(1-phi TV)^n, exactly",
                   instances=count, families=(("random 2xM kernels, t in {1,3/2,2,3,5}, n <= 3", count),))


def _le_cam_kl(ctx):
    count = 0
    for K, t, d, P1, P2 in _instances(ctx, "a10-kl", ctx.size(10, 40)):
        if P2.min_mass() == 0:
            continue
        verdict = compare(kl(K.apply(P1), K.apply(P2)), as_expr(phi_n(t, d)) * kl(P1, P2))
        if verdict is Truth.FALSE:
            return Outcome(Verdict.REFUTED, "D(KP1||KP2) > phi D(P1||P2)",
                           counterexample={"K": K.as_strings(), "t": str(t), "delta": str(d)})
        if verdict is Truth.UNKNOWN:
            return Outcome(Verdict.UNDECIDED, "not certified", reason="KL comparison undecided at 128 bits")
        count += 1
    return Outcome(Verdict.VERIFIED, "D(K P1 || K P2) <= phi(eps,delta) D(P1||P2), certified", instances=count,
                   families=(("random kernels, full-support P2", count),))


def _fano(ctx):
    rng, count = ctx.rng("a12"), 0
    for k in range(ctx.size(10, 40)):
        V = random_distribution(rng, 3, 10, full_support=True)
        X = random_kernel(rng, 3, 3, 10)
        K = random_kernel(rng, 3, 2 + k % 2, 10)
        t = TS[k % len(TS)]
        d = privacy_profile(K)(t)
        lhs, rhs = mutual_information(V, X @ K), as_expr(phi_n(t, d)) * mutual_information(V, X)
        verdict = compare(lhs, rhs)
        if verdict is Truth.FALSE:
            return Outcome(Verdict.REFUTED, "I(V;Z) > phi I(V;X)", counterexample={
                "V": V.as_strings(), "X": X.as_strings(), "K": K.as_strings(), "t": str(t)})
        if verdict is Truth.UNKNOWN:
            return Outcome(Verdict.UNDECIDED, "not certified", reason="MI comparison undecided at 128 bits")
        count += 1
    return Outcome(Verdict.VERIFIED, "I(V;Z) <= phi(eps,delta) I(V;X), certified", instances=count,
                   families=(("V uniform-ish on 3, random 3x3 X|V, random K", count),))


def _packing(ctx):
    ks = (16, 24, 32) if ctx.quick else (16, 24, 32, 40)
    for k in ks:
        code = sign_packing(k, seed=ctx.seed)
        if len(code) < gv_size(k) or any(2 * l1(v, w) < k for i, v in enumerate(code) for w in code[i + 1:]):
            return Outcome(Verdict.UNDECIDED, f"greedy packing fell short at k = {k}",
                           reason="the greedy search is not exhaustive; a shortfall is not a counterexample")
    return Outcome(Verdict.VERIFIED, "packings in {+-1}^k with l1 >= k/2 and size ceil(e^(k/16)) built and checked",
                   instances=len(ks), families=(("k in " + str(ks), len(ks)),))


def _small_eps(ctx):
    x = effective_sample_size_crossovers()
    eps = fmpq(1, 10)
    phi = 1 - sympy.exp(-sympy.Rational(1, 10))
    if compare(4 * sympy.Rational(1, 100), phi) is Truth.TRUE:
        return Outcome(Verdict.REFUTED, "at eps = 1/10 the effective sample size phi n exceeds 4 eps^2 n "
                       "(a weaker lower bound, not a stronger one)",
                       counterexample={"eps": str(eps), "phi(eps,0)": "1 - exp(-1/10)", "4 eps^2": "1/25",
                                       "crossover_4eps2": x["phi_vs_4eps^2"].str(8),
                                       "crossover_4(e^eps-1)^2": str(x["phi_vs_4(e^eps-1)^2"])})
    return Outcome(Verdict.UNDECIDED, "could not certify the witness", reason="comparison undecided")
