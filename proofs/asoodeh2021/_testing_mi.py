r"""Asoodeh et al. 2021 §VI–VII — private hypothesis testing (A-18) and mutual information under LDP (A-19).

**Reconstructed** (docs/claims.md A-18, A-19, F-A12): the corollaries' formulas are not stored.
* A-18: −log β_n^{ε,δ}(α) ≤ (nφ(ε,δ)·D(P₀‖P₁) + log 2)/(1 − α), β over non-interactive mechanisms (F-A9).
* A-19: sup_{K ∈ Q_{ε,δ}} I(X;Z) ≤ φ(ε,δ)·H(X).

Checked: for binary P₀, P₁ and the B-4 optimal binary (ε,δ)-LDP kernels and randomized response, β_n(α) of the
privatized samples is computed exactly by Neyman–Pearson over type classes (randomized tests), and
−log β ≤ bound is certified (β^{ε,δ} ≤ β_K, so the bound must hold for each K).  For A-19, I(X;Z) ≤ φ·H(X)
is certified for k-ary randomized response, the optimal binary kernels and random kernels at δ = δ_K(t); the
pure-LDP bound I(X;Z) ≤ ε is certified alongside.
Not shown: the asymptotic exponent (class X); optimality of the mechanisms; interactive protocols.
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp import privacy_profile
from exactdp.measures.divergences import kl
from exactdp.mechanisms import optimal_binary_approx_ldp, randomized_response
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.truth import Truth
from exactdp.numbers.rb import compare
from exactdp.theory.estimation import (
    chernoff_stein_bound,
    mi_upper_bound,
    mutual_information,
    neyman_pearson_beta,
)
from exactdp.verification.claims import Outcome, Verdict
from exactdp.verification.instances import random_distribution, random_kernel

PAIRS = ((["1/2", "1/2"], ["1/5", "4/5"]), (["9/10", "1/10"], ["1/2", "1/2"]), (["1/3", "2/3"], ["3/4", "1/4"]))
PRIV = ((fmpq(2), fmpq(0)), (fmpq(3), fmpq(1, 10)), (fmpq(3, 2), fmpq(1, 100)), (fmpq(5), fmpq(0)))


def _testing(ctx):
    count = 0
    ns = (1, 3) if ctx.quick else (1, 2, 4, 8)
    for P0, P1 in PAIRS:
        for t, d in PRIV:
            K = optimal_binary_approx_ldp(t, d)
            for n in ns:
                for alpha in (fmpq(0), fmpq(1, 10), fmpq(1, 2)):
                    beta = neyman_pearson_beta(K.apply(P0), K.apply(P1), n, alpha)
                    bound = chernoff_stein_bound(alpha, n, t, d, kl(P0, P1)).value
                    verdict = compare(-sympy.log(qq_to_sympy(beta)), bound)
                    if verdict is Truth.FALSE:
                        return Outcome(Verdict.REFUTED, "-log beta exceeds the bound", counterexample={
                            "P0": P0, "P1": P1, "t": str(t), "delta": str(d), "n": n, "alpha": str(alpha),
                            "beta": str(beta)})
                    if verdict is Truth.UNKNOWN:
                        return Outcome(Verdict.UNDECIDED, "not certified", reason="comparison undecided")
                    count += 1
    return Outcome(Verdict.VERIFIED, "-log beta_n(alpha) <= (n phi D + log 2)/(1 - alpha) with exact NP beta",
                   instances=count, families=(("binary P0/P1, optimal binary (eps,delta) kernels", count),))


def _mi(ctx):
    rng, count = ctx.rng("a19"), 0
    cases = []
    for t in (fmpq(2), fmpq(3), fmpq(5)):
        cases.append((randomized_response(3, t), t, fmpq(0)))
        cases.append((optimal_binary_approx_ldp(t, fmpq(1, 10)), t, fmpq(1, 10)))
    for k in range(ctx.size(4, 16)):
        K = random_kernel(rng, 3, 3, 10)
        t = (fmpq(2), fmpq(3))[k % 2]
        cases.append((K, t, privacy_profile(K)(t)))
    for K, t, d in cases:
        P = random_distribution(rng, K.N, 10, full_support=True)
        I = mutual_information(P, K)
        verdicts = [compare(I, mi_upper_bound(t, d, P).value)]
        if d == 0:
            verdicts.append(compare(I, sympy.log(qq_to_sympy(t))))
        if Truth.FALSE in verdicts:
            return Outcome(Verdict.REFUTED, "I(X;Z) exceeds phi H(X) (or eps)", counterexample={
                "K": K.as_strings(), "P": P.as_strings(), "t": str(t), "delta": str(d)})
        if Truth.UNKNOWN in verdicts:
            return Outcome(Verdict.UNDECIDED, "not certified", reason="comparison undecided")
        count += 1
    return Outcome(Verdict.VERIFIED, "I(X;Z) <= phi(eps,delta) H(X) (and <= eps at delta = 0), certified",
                   instances=count, families=(("RR_3, optimal binary, random 3x3 at delta_K(t)", count),))
