r"""[G] Theorem 4 (G-22), Corollary 1 (G-25, KL) and Corollary 2 (G-26, H²): Binette-based SDPIs.

Statement: for K ∈ M(ε,c), P_X, Q_X ∈ Q_X(c) ([RECON] hypothesis, F-G5) and δ = TV(P_X, Q_X):
           D_f(K∘P‖K∘Q) ≤ Ξ(ε,c)[f(Γ_min)/(1−Γ_min) + f(Γ_max)/(Γ_max−1)]δ with Lemma 4's
           Γ_max = (1−Nc)e^ε + 1, Γ_min = 1/Γ_max; Cor 1: D ≤ Ξ log((1−Nc)e^ε+1) δ;
           Cor 2: H² ≤ Ξ (2 − 4/(√((1−Nc)e^ε+1) + 1)) δ (H² without ½, F-G6).
Checked:   random exact kernels (half with zeros), c ∈ (0, 1/N), e^ε = the kernel's exact PML level, random
           input pairs in Q_X(c) and the extreme vertex pairs; KL, H² (and χ², TV for Thm 4) certified in
           ball arithmetic against the exact right sides.
Not shown: the exact Γ_max variant (extremal module, grosse2026.lem4); Γ = 1 at c = 1/N.
"""

import sympy
from flint import fmpq

from exactdp.measures.divergences import tv
from exactdp.measures.privacy import pml_ratio
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.formulas import binette_coefficient, lemma4_gamma_max, xi

_t = sympy.Symbol("t", positive=True)
CHI2_F = sympy.Lambda(_t, (_t - 1) ** 2)
TV_F = sympy.Lambda(_t, sympy.Abs(_t - 1) / 2)


def _instances(ctx, salt, count):
    rng = ctx.rng(salt)
    for k in range(ctx.size(*count)):
        N = 2 + k % 3
        K = inst.random_kernel_with_zeros(rng, N, 2 + k % 3) if k % 2 else inst.random_kernel(rng, N, 2 + k % 3)
        c = inst.random_rational(rng, fmpq(1, 30), fmpq(1, N) - fmpq(1, 30 * N), 30)
        if k % 3 == 0:
            V = inst.prior_vertices(N, c)
            P, Q = V[0], V[1]
        else:
            P, Q = inst.random_prior_in_Q(rng, N, c), inst.random_prior_in_Q(rng, N, c)
        yield K, c, P, Q


def bound_check(divergence, coefficient, name, salt, count=(12, 100)):
    """D(KP‖KQ) ≤ Ξ(ε,c)·coefficient(Γ_max)·δ on instances."""

    def run(ctx):
        def test(x):
            K, c, P, Q = x
            g = pml_ratio(K, c)
            G = lemma4_gamma_max(g, c, K.N)
            lhs = divergence(K.apply(P), K.apply(Q))
            rhs = to_sympy(xi(g, c, K.N)) * coefficient(G) * to_sympy(tv(P, Q))
            return decide_le(lhs, rhs), exact_data(K=K, c=c, P=P, Q=Q, e_eps=g, Gamma_max=G, lhs=lhs, rhs=rhs,
                                                   lhs_enclosure=enclosure(lhs), rhs_enclosure=enclosure(rhs))

        return check_instances([("random K in M(eps,c), P, Q in Q_X(c)", _instances(ctx, salt, count))], test,
                               claim=f"{name} bound")
    return run


def binette_at(F):
    return lambda G: binette_coefficient(F, 1 / to_sympy(G), G)
