r"""Grosse et al. 2026, Lemma 3 — binary outputs suffice for η_TV(ε,c).

Statement (G-17): sup_{K∈M(ε,c)} η_TV(K) is attained within M(ε,c) ∩ S_{N,2}.

Checked:
* ``certificates`` (PROVED for every N and M, t ≥ 1, c ∈ (0, 1/N]) — the certificates of grosse2026.thm1:
  every kernel of M(ε,c), whatever M, has η_TV ≤ Ξ (the class certificates, all N, M), and the attaining
  kernels (:mod:`exactdp.theory.pml_attainment`: the middle-row achiever for t·Nc ≤ 2, the disjoint-rows
  witness beyond) have two outputs.  So sup over M(ε,c) ∩ S_{N,2} = Ξ = sup over M(ε,c).
* ``lp_more_outputs`` (supporting) — the exact LP supremum over N×3 and N×4 kernels equals the one over N×2 kernels on
  the [G] grid (N = 2..5, both sides of t = 2/(Nc)), each with dual certificates.
* ``merging`` (supporting) — random exact kernels with 3–5 outputs (zeros allowed): merging the outputs into
  {A, Aᶜ}, A = {y : K_x(y) > K_x'(y)} for a Dobrushin-optimal pair, keeps η_TV exactly and does not raise
  the (ε,c)-PML level (pml_ratio, several c) — the post-processing argument of the proof.

* ``merging_lemma`` (PROVED for every N and M) — the paper's own proof (docs/claims.md G-17), from the structural
  lemma *merging outputs keeps eta_TV and the class* (:data:`exactdp.theory.structural_lemmas.MERGING`): η_TV(K)
  is attained at rows x, x′ and a set A; merging the outputs into {A, Aᶜ} gives a binary-output kernel of
  M(ε,c) (each PML constraint of a merged output is the sum of those merged into it; the entries add up) with
  the same η_TV.  So the supremum over M(ε,c) is one over M(ε,c) ∩ S_{N,2}, without Theorem 1.
"""

from __future__ import annotations

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.theory.class_certificates import ALL_N_M
from exactdp.theory.extremal import merge_to_binary, sup_eta_tv
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register
from exactdp.verification.instances import random_kernel
from exactdp.numbers.formula_text import written_step as step

from ._instances import pml_grid
from .thm1 import equality_outcome
from .._statements import middle_row_achiever, pml_pair_bound, tv_at_most_one, xi_regimes


def check_certificates(ctx: CheckContext) -> Outcome:
    return equality_outcome(ctx, "sup of eta_TV over binary-output kernels of M(eps,c) equals Xi(eps,c), which "
                            "bounds eta_TV of every kernel of M(eps,c) with any number M of outputs", ALL_N_M)


def check_merging_lemma(ctx: CheckContext) -> Outcome:
    """PROVED for every N and M from the merging lemma's certificates (module docstring)."""
    from exactdp.theory.structural_lemmas import MERGING

    return proved(
        "every kernel of M(eps,c) has a binary-output kernel of M(eps,c) with the same eta_TV (merge its outputs "
        "into {A, A^c} at a set A attaining eta_TV), so sup eta_TV over M(eps,c) is attained within S_{N,2}, "
        "every N and M", MERGING.certificates, ALL_N_M, derivation=(
            step("the TV coefficient is the largest `K_x(A) - K_xp(A)` over rows x, x' and output sets A: take a "
                 "maximizing (x, x', A)"),
            step("[lemma: merging outputs keeps eta_TV and the class] the kernel L with the two outputs A and its "
                 "complement (`L_x(0) = K_x(A)`) has non-negative entries (sums of non-negative entries), "
                 "satisfies (eps,c)-PML at both outputs (the sum of the PML constraints of the outputs merged into "
                 "each: multipliers 1) and has `eta_tv(L) = eta_tv(K)` (a set of its outputs is a set of K's "
                 "outputs, and `L_x(0) - L_xp(0) = K_x(A) - K_xp(A)`)"),
            step("so the supremum of `eta_tv(K)` over the class is at most its supremum over the class's "
                 "two-output kernels, which is at most the former: equality")))


def check_lp_more_outputs(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in pml_grid(ctx.quick):
        base = sup_eta_tv(N, 2, t=t, c=c).value
        for M in (3, 4):
            r = sup_eta_tv(N, M, t=t, c=c)
            bad = r.failures()
            if r.value != base or bad:
                return Outcome(Verdict.REFUTED, f"M = {M} outputs beat binary outputs", counterexample={
                    "N": str(N), "M": str(M), "t": str(t), "c": str(c), "sup_M": str(r.value),
                    "sup_2": str(base), "kernel": r.kernel.as_strings(), "problems": bad})
            n += 1
    return Outcome(Verdict.VERIFIED, f"sup with M = 3, 4 equals sup with M = 2 at {n} points", instances=n,
                   families=(("[G] grid, M = 3, 4", n),))


def check_merging(ctx: CheckContext) -> Outcome:
    rng = ctx.rng("lem3-merging")
    count = ctx.size(150, 1500)
    for k in range(count):
        N, M = rng.randint(2, 5), rng.randint(3, 5)
        K = random_kernel(rng, N, M, 12, full_support=k % 3 == 0)
        B, A = merge_to_binary(K)
        for c in (fmpq(1, N), fmpq(1, 2 * N), fmpq(1, 10 * N)):
            if eta_tv(B) != eta_tv(K) or pml_ratio(B, c) > pml_ratio(K, c):
                return Outcome(Verdict.REFUTED, "merging outputs changed eta_TV or raised the PML level",
                               counterexample={"kernel": K.as_strings(), "A": list(A), "c": str(c),
                                               "merged": B.as_strings()})
    return Outcome(Verdict.VERIFIED, f"{count} random kernels: merged binary kernel keeps eta_TV, PML level "
                   "not increased (3 values of c each)", instances=count,
                   families=(("random exact kernels, N 2-5, M 3-5", count),))


CLAIM = register(Claim(
    written=(pml_pair_bound("grosse2026.lem3"), tv_at_most_one("grosse2026.lem3"), xi_regimes("grosse2026.lem3"), middle_row_achiever("grosse2026.lem3")),
    id="grosse2026.lem3",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-17",),
    source=Source(GROSSE2026, "Lemma 3", section="III"),
    title="Binary outputs suffice for the Dobrushin coefficient under (eps,c)-PML",
    statement=r"\eta_{TV}(\varepsilon,c)=\sup_{K\in\mathcal M(\varepsilon,c)\cap\mathcal S_{N,2}}\eta_{TV}(K)",
    hypotheses="`N >= 2`, `0 < c <= 1/N`, `eps >= 0`",
    checks=(Check("certificates", check_certificates, "grosse2026.thm1's certificates: sup over N x 2 = Xi >= all M"),
            Check("merging_lemma", check_merging_lemma, "the paper's proof: the merging lemma's certificates, every N, M"),
            Check("lp_more_outputs", check_lp_more_outputs, "exact LP, M = 3, 4 vs 2", supporting=True),
            Check("merging", check_merging, "post-processing argument on random kernels", supporting=True)),
    expected=Verdict.PROVED,
    related=("grosse2026.thm1",),
    formulas=("eta_tv(eps, c) = sup_eta_tv_binary(eps, c)",),
))
