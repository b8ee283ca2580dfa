r"""[G] Lemma 4's quantity, exactly: the closed form of Γ_max(ε,c) (docs/claims.md G-23 [DERIVED]) for every N.

Statement (G-23 exact value; Γ as in D-12 [RECON]): for c ∈ (0, 1/N] and 1 ≤ t = e^ε ≤ 1/c,

    Γ_max(ε,c) = (t(1−Nc) + c)/(1 − (N−1)c)   if t(N−1)c < 1   (no zeros allowed, Lemma 1 with l = 1),
    Γ_max(ε,c) = (1−Nc)t + 1                   if 1/((N−1)c) ≤ t ≤ 1/c,

the registry's ``gamma_max_exact``; beyond t = 1/c every kernel qualifies and Γ_max = (1 − (N−1)c)/c.

Proved (``certificates``, every N ≥ 2 and M ≥ 2, every real t ≥ 1 and c ∈ (0, 1/N]), with the certificates of
:mod:`exactdp.theory.pml_attainment` (u = Nc):
* upper bounds for every kernel, column y and P, Q ∈ Q_X(c), from p = (KP)(y) ≤ cS_y + (1−Nc)max_x K(y|x),
  q = (KQ)(y) ≥ cS_y + (1−Nc)min_x K(y|x): the first-branch Farkas certificate (q/p ≤ Γ₁ for every t), Lemma 4's
  (``class_certificates.lemma4_ratio``) and the every-kernel bound (1 − (N−1)c)/c;
* attainment on each range of t by an N×2 witness kernel whose (ε,c)-PML constraints are decided at the
  extreme pair of each column (then every pair satisfies them: ``extreme_pair``), with P, Q the vertices
  c𝟙 + (1−Nc)e_x of Q_X(c) at the rows of the column's largest and smallest entry: the ratio is the branch;
* the registry's branches (in N) at N = u/c are the certificates' expressions.

Supporting: ``parametric_lp`` — the ``parametric-lp`` certificate of the Charnes–Cooper LP over N×2 kernels
(:func:`exactdp.theory.parametric.gamma_max`) agrees with the branches at N = 2 on the whole domain.
Γ_min = 1/Γ_max is grosse2026.lem4's remark.
"""

from __future__ import annotations

from exactdp.sources import GROSSE2026, Source
from exactdp.theory import class_certificates, pml_attainment
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step

from ._parametric import GAMMA_N, cross_check, gamma_certificates
from .._statements import gamma_max_bound, gamma_max_closed


def check_certificates(ctx: CheckContext) -> Outcome:
    PA = pml_attainment
    first, second, third = PA.gamma_witnesses()
    certs = (PA.gamma_first_bound(), class_certificates.lemma4_ratio(), PA.gamma_beyond_bound(), PA.extreme_pair(),
             first, *PA.gamma_first_witness_facts(), second, third, PA.gamma_beyond_witness_output1(),
             PA.gamma_registry_statements())
    return proved(
        "Gamma_max(eps,c) = (t(1-Nc)+c)/(1-(N-1)c) for t < 1/((N-1)c), (1-Nc)t + 1 for 1/((N-1)c) <= t <= 1/c, "
        "and (1-(N-1)c)/c beyond 1/c, for every N and M", certs, class_certificates.ALL_N_M, derivation=(
             step("for a kernel K, an output y and P, Q in Q_X(c): P is c on every input plus a non-negative part "
                  "of mass `1 - N*c`, so `KP(y) <= c*S_y + (1-N*c)*K_max(y)` and "
                  "`KQ(y) >= c*S_y + (1-N*c)*K_min(y)` (the largest and smallest entry of column y), with "
                  "equality at the vertices that put the extra mass on the row of the largest / smallest entry"),
             step("[[G] Gamma_max first-branch bound] `(t*(1-N*c)+c)*q - (1-(N-1)*c)*p >= 0` for every t (the "
                  "column sum is at most `(N-1)*K_max(y) + K_min(y)`, PML between the extreme rows); [[G] Lemma 4 "
                  "ratio bound] `((1-N*c)*t+1)*q - p >= 0`; [[G] Gamma_max bound of every kernel] "
                  "`(1-(N-1)*c)*q - c*p >= 0` (the column sum is at least `K_max(y) + (N-1)*K_min(y)`); so "
                  "Gamma_max is at most each of the three values"),
             step("[[G] Gamma_max witness, t (N-1) c < 1] attains `(t*(1-N*c)+c)/(1-(N-1)*c)`, its entries in "
                  "[0, 1], both PML constraints and `KQ(0) >= c/(t*(1-N*c)+1)`, which is positive, being the "
                  "certificates [[G] Gamma_max witness, t (N-1) c < 1: ...]; [[G] Gamma_max witness, "
                  "1/((N-1)c) <= t < 1/c] attains `(1-N*c)*t + 1`; [[G] Gamma_max witness, t >= 1/c] attains "
                  "`(1-(N-1)*c)/c` (at `t = 1/c` it equals `(1-N*c)*t + 1`); each is an (eps,c)-PML kernel by "
                  "[PML at the extreme pair of a column]"),
             step("[[G] G-23 branches in u = N*c] the registry's gamma_max_exact branches, in `u = N*c`, are these values; zero "
                  "columns pad the witnesses with N rows and 2 outputs to any M")))


def check_parametric_lp(ctx: CheckContext) -> Outcome:
    """Cross-check at N = 2: the parametric Charnes–Cooper LP's optimum is G-23's branches on the whole domain."""
    return cross_check(GAMMA_N[ctx.quick], gamma_certificates, "parametric Gamma_max LP over N x 2 kernels = G-23")


register(Claim(
    written=(*gamma_max_closed("grosse2026.lem4_gamma_max_closed_form"), gamma_max_bound("grosse2026.lem4_gamma_max_closed_form")),
    id="grosse2026.lem4_gamma_max_closed_form",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-23",),
    source=Source(GROSSE2026, "Lemma 4", section="IV"),
    title="Exact Gamma_max(eps,c): the two-branch closed form of G-23 (all N, M)",
    statement=r"\Gamma_{\max}(\varepsilon,c)=\begin{cases}\frac{e^\varepsilon(1-Nc)+c}{1-(N-1)c},&"
              r"e^\varepsilon<\frac{1}{(N-1)c}\\(1-Nc)e^\varepsilon+1,&\frac{1}{(N-1)c}\le e^\varepsilon\le\frac1c"
              r"\end{cases}",
    hypotheses=("`N >= 2`, `0 < c <= 1/N`, `0 <= eps <= -log(c)` (beyond: `(1 - (N - 1)*c)/c`); `Gamma` as "
                "in D-12 [RECON]"),
    checks=(Check("certificates", check_certificates, "Farkas upper bounds and witness kernels, every N"),
            Check("parametric_lp", check_parametric_lp, "parametric-LP cross-check, N = 2", supporting=True)),
    expected=Verdict.PROVED,
    reconstructed=True,
    related=("grosse2026.lem4", "grosse2026.lem4_exact_gamma_ordering", "grosse2026.lem1"),
    formulas=("exp(eps) < 1/((N - 1)*c) ⟹ Gamma_max(eps, c) = (exp(eps)*(1 - N*c) + c)/(1 - (N - 1)*c)",
              "1/((N - 1)*c) <= exp(eps) <= 1/c ⟹ Gamma_max(eps, c) = (1 - N*c)*exp(eps) + 1"),
))
