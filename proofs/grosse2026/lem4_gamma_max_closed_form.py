r"""[G] Lemma 4's quantity, exactly: the closed form of Γ_max(ε,c) (claims.md G-23 [DERIVED]) for N = 2..6.

Statement (G-23 exact value; Γ as in D-12 [RECON]): for c ∈ (0, 1/N] and 1 ≤ t = e^ε ≤ 1/c,

    Γ_max(ε,c) = (t(1−Nc) + c)/(1 − (N−1)c)   if t(N−1)c < 1   (no zeros allowed, Lemma 1 with l = 1),
    Γ_max(ε,c) = (1−Nc)t + 1                   if 1/((N−1)c) ≤ t ≤ 1/c,

the registry's ``gamma_max_exact``; beyond t = 1/c every kernel qualifies and Γ_max = (1 − (N−1)c)/c.

Proved (``certificates``, N = 2..6, all M, every real t ≥ 1 and c ∈ (0, 1/N]; quick runs N = 2):
* the reduction to one LP (:mod:`exactdp.theory.extremal`): for fixed K and output y,
  sup_{P∈Q_X(c)} (KP)(y) = c S_y + (1−Nc) max_x K(y|x) and inf_{Q∈Q_X(c)} (KQ)(y) = c S_y + (1−Nc) min_x K(y|x)
  (P = c𝟙 + P′, P′ ≥ 0 of mass 1 − Nc); input and output permutations map M(ε,c) to itself, so x = 0,
  x′ = 1, y = 0; merging the outputs other than y is post-processing (the PML constraints are linear in a
  column, so their sum over the merged outputs is the merged column's constraint — the aggregation lemma of
  :mod:`exactdp.theory.class_certificates`), so M = 2; the Charnes–Cooper substitution makes the
  linear-fractional program the LP of :func:`exactdp.theory.extremal.gamma_max`;
* for each N the ``parametric-lp`` certificate of that LP on t ≥ 1, 0 < c ≤ 1/N
  (:func:`exactdp.theory.parametric.gamma_max`): per region a lifted optimal (u, τ) — the kernel u/τ and the
  vertex inputs attain the value — and dual multipliers bounding every feasible point, the regions covering
  the domain; a statements certificate identifies the optimum with the branches above on every region.

Not shown: N > 6 (the route is the same; bench budget).  Γ_min = 1/Γ_max is grosse2026.lem4's remark.
"""

from __future__ import annotations

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register

from ._parametric import GAMMA_N, gamma_certificates, n_scope


def check_certificates(ctx: CheckContext) -> Outcome:
    ns = GAMMA_N[ctx.quick]
    certs = tuple(cert for N in ns for cert in gamma_certificates(N))
    regions = {N: len(gamma_certificates(N)[0].region_value) for N in ns}
    return proved(
        "Gamma_max(eps,c) = (t(1-Nc)+c)/(1-(N-1)c) for t < 1/((N-1)c), (1-Nc)t + 1 for 1/((N-1)c) <= t <= 1/c, "
        "and (1-(N-1)c)/c beyond 1/c", certs, n_scope(ns), derivation=(
            "for fixed K and y, sup over P in Q_X(c) of (KP)(y) = c S_y + (1-Nc) max_x K(y|x) and the inf over Q "
            "is c S_y + (1-Nc) min_x K(y|x) (P = c 1 + P', P' >= 0 of mass 1 - Nc)",
            "input and output permutations preserve M(eps,c): x = 0, x' = 1, y = 0; merging the other outputs is "
            "post-processing (aggregation lemma: the PML constraints are linear in a column), so M = 2",
            "Charnes-Cooper: u = tau K, tau = 1/(c S_0 + (1-Nc) K(0|1)) turns the ratio into the LP of "
            "exactdp.theory.extremal.gamma_max",
            *(f"N = {N}: [Gamma_max over {N}x2 (eps,c)-PML kernels (Charnes-Cooper LP)] {regions[N]} regions cover "
              f"t >= 1, 0 < c <= 1/{N}, each with a lifted optimal point and dual multipliers checked on the region; "
              f"[the N = {N} Gamma_max LP optimum is G-23] the optimum equals the G-23 branches on every region"
              for N in ns)),
        details={"regions": regions})


CLAIM = register(Claim(
    id="grosse2026.lem4_gamma_max_closed_form",
    catalogue=("G-23",),
    source=Source(GROSSE2026, "Lemma 4", section="IV"),
    title="Exact Gamma_max(eps,c): the two-branch closed form of G-23 (N = 2..6, all M)",
    statement=r"\Gamma_{\max}(\varepsilon,c)=\begin{cases}\frac{e^\varepsilon(1-Nc)+c}{1-(N-1)c},&"
              r"e^\varepsilon<\frac{1}{(N-1)c}\\(1-Nc)e^\varepsilon+1,&\frac{1}{(N-1)c}\le e^\varepsilon\le\frac1c"
              r"\end{cases}",
    hypotheses="N = 2..6, c in (0, 1/N], 0 <= eps <= -log c (beyond: (1-(N-1)c)/c); Gamma as in D-12 [RECON]",
    checks=(Check("certificates", check_certificates, "parametric-LP certificates of the Charnes-Cooper LP, N = 2..6"),),
    expected=Verdict.PROVED,
    reconstructed=True,
    related=("grosse2026.lem4", "grosse2026.lem4_exact_gamma_ordering", "grosse2026.lem1"),
))
