r"""[G] Appendices A and C (G-30): PML properties used in the proofs — post-processing.

Statement: M(ε,c) is closed under post-processing: K ∈ M(ε,c) ⟹ K∘L ∈ M(ε,c) for every kernel L.
Proved:    for all N, M, M′ (any kernels K: X → Y, L: Y → Z), t ≥ 1, 0 < c ≤ 1/N.  K ∈ M(ε,c) means, for
           every output y and inputs x, x₀ (D-9; the min over x₀ of the prior-weighted denominator is attained at
           a vertex of Q_X(c)):  g_y := t(c·S_y + (1 − Nc)·K(y|x₀)) − K(y|x) ≥ 0, S_y = Σ_x K(y|x).  For an output
           z of L, multiply g_y by w_y = L(z|y) ≥ 0 and sum over y: Σ_y w_y K(y|x) = (KL)(z|x),
           Σ_y w_y S_y = S′_z (the column sum of KL) and Σ_y w_y K(y|x₀) = (KL)(z|x₀), so
           t(c·S′_z + (1 − Nc)(KL)(z|x₀)) − (KL)(z|x) = Σ_y w_y g_y ≥ 0 for every x, x₀: KL ∈ M(ε,c).  The
           certificate checks the per-output term exactly (a Farkas certificate with multiplier w ≥ 0; the sum
           over y is linearity, the same for every M); ε-LDP (K(y|x) ≤ t·K(y|x₀)) is the same argument.
Supporting: exactly: e^{C(KL, Q_X(c))} ≤ e^{C(K, Q_X(c))} for random K, L (with zeros) and c; the same for the
           LDP ratio.
Not shown: the proofs of the appendices (omitted in the stored text).
"""

import sympy
from flint import fmpq

from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.theory import structural_lemmas as SL
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step
from .._statements import post_processing

t, c, u, w = sympy.symbols("t c u w", real=True)  # u = N*c, w = L(z|y)
k, k0, S = sympy.symbols("k k0 S", real=True)  # K(y|x), K(y|x0), S_y

_SUM = ("summed over the outputs y with the weights `L(z, y)`: the weighted row entries of K give those of KL, the "
        "weighted column sums of K give the column sum of KL; a sum of the nonnegative per-output conclusions is "
        "nonnegative (the lemma "
        f"'{SL.AGGREGATION.name}': the forms are additive, every M)")


def _pml_term() -> LinearCombination:
    return LinearCombination.build(
        name="(eps,c)-PML post-processing, one output", parameters=(t, c, u, w), variables=(k, k0, S),
        constraints=[("PML ([G] D-9) at output y, inputs (x, x0): t*(c*S + (1 - u)*k0) - k >= 0", t * (c * S + (1 - u) * k0) - k)],
        multipliers=[w], conclusion=t * (c * (w * S) + (1 - u) * (w * k0)) - w * k,
        region=(t >= 1, c > 0, u <= 1, w >= 0), scope="all N, M, M'; t >= 1, 0 < c <= 1/N (u = N*c)",
        uses=SL.AGGREGATION.uses)


def _ldp_term() -> LinearCombination:
    return LinearCombination.build(
        name="eps-LDP post-processing, one output", parameters=(t, w), variables=(k, k0),
        constraints=[("eps-LDP (K(y|x) <= t K(y|x0)) at output y, inputs (x, x0): t*k0 - k >= 0", t * k0 - k)],
        multipliers=[w], conclusion=t * (w * k0) - w * k, region=(t >= 1, w >= 0),
        scope="all N, M, M'; t >= 1", uses=SL.AGGREGATION.uses)


def _certificate(ctx):
    """M(eps,c) and eps-LDP are closed under post-processing, all N, M, M' (one Farkas term per output)."""
    return proved("for every K in M(eps,c) (resp. eps-LDP) and every kernel L: KL is in M(eps,c) (resp. eps-LDP)",
                  (_pml_term(), _ldp_term()), "all N, M", derivation=(
                      step("[(eps,c)-PML post-processing, one output] `w*g_y >= 0` for the weight `w = L(z, y)`, non-negative "
                           "(exact identity, multiplier sign decided)"),
                      step(f"[sum over y] {_SUM}"),
                      step("so `t*(c*S_z + (1 - N*c)*KL(z, x0)) - KL(z, x) >= 0` for all z, x, x0 (S_z the column "
                           "sum of KL): KL is in M(eps,c)"),
                      step("[eps-LDP post-processing, one output] likewise `KL(z, x) <= t*KL(z, x0)`")))


def _run(ctx):
    rng = ctx.rng("g30")

    def test(k):
        N = 2 + k % 3
        K = inst.random_kernel(rng, N, 2 + k % 3) if k % 2 else inst.random_kernel_with_zeros(rng, N, 2 + k % 3)
        L = inst.random_kernel(rng, K.M, 2 + k % 4)
        c = inst.random_rational(rng, fmpq(1, 40), fmpq(1, N), 40)
        a, b = pml_ratio(K @ L, c), pml_ratio(K, c)
        la, lb = ldp_ratio(K @ L), ldp_ratio(K)
        ldp_ok = lb == sympy.oo or (la != sympy.oo and la <= lb)
        return a <= b and ldp_ok, exact_data(K=K, L=L, c=c, pml_KL=a, pml_K=b)

    return check_instances([("random K, L, c", range(ctx.size(30, 300)))], test,
                           claim="post-processing never increases the PML level")


register(Claim(
    written=post_processing("grosse2026.appendix_post_processing"),
    id="grosse2026.appendix_post_processing",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-30",),
    source=Source(GROSSE2026, "Appendices A and C", section="appendix"),
    title="M(eps,c) is closed under post-processing",
    statement=r"K\in\mathcal M(\varepsilon,c)\Longrightarrow K L\in\mathcal M(\varepsilon,c)",
    hypotheses="any kernel `L` on the outputs",
    checks=(Check("certificate", _certificate, "post-processing, all N, M, M' (Farkas term per output, summed)"),
            Check("instances", _run, supporting=True)),
    expected=Verdict.PROVED,
    formulas=("in_M(K, eps, c) ⟹ in_M(K_L, eps, c)",),
))
