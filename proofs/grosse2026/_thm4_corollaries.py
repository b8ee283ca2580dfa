r"""[G] Theorem 4 (G-22), Corollary 1 (G-25, KL) and Corollary 2 (G-26, H²): Binette-based SDPIs.

Statement: for K ∈ M(ε,c), P_X, Q_X ∈ Q_X(c) ([RECON] hypothesis, F-G5) and δ = TV(P_X, Q_X):
           D_f(K∘P‖K∘Q) ≤ Ξ(ε,c)[f(Γ_min)/(1−Γ_min) + f(Γ_max)/(Γ_max−1)]δ with Lemma 4's
           Γ_max = (1−Nc)e^ε + 1, Γ_min = 1/Γ_max; Cor 1: D ≤ Ξ log((1−Nc)e^ε+1) δ;
           Cor 2: H² ≤ Ξ (2 − 4/(√((1−Nc)e^ε+1) + 1)) δ (H² without ½, F-G6).
Checked:   random exact kernels (half with zeros), c ∈ (0, 1/N), e^ε = the kernel's exact PML level, random
           input pairs in Q_X(c) and the extreme vertex pairs; KL, H² (and χ², TV for Thm 4) certified in
           ball arithmetic against the exact right sides.
Proved:    Lemma 4's ratio bound and TV(KP, KQ) ≤ Ξ·TV(P, Q) are certificates for all N, M
           (:mod:`exactdp.theory.class_certificates`, the latter through the same two-point step as
           grosse2026.thm3); Binette's inequality is the structural lemma
           :data:`exactdp.theory.structural_lemmas.BINETTE` (per output a two-point convexity instance of f — Thm
           4's hypothesis "f convex, f(1) = 0" — times Q′(y), summed by the finite-sum rules), applied at
           m = 1/Γ, M = Γ by :func:`thm4_step`; Cor 1 and 2 are Thm 4 at f = x log x and f = (√x − 1)², whose
           Binette coefficients at (1/Γ, Γ) are log Γ and 2 − 4/(√Γ + 1) (identities).  For H² the convexity
           instances are the lemma's checked chord statements, so Cor 2 is proved; for KL they are instances of
           the convexity of x log x, which no certificate checks (logs are outside the prover's fragment): Cor 1
           is proved modulo that textbook fact (:data:`proofs._cited_steps.KL_CONVEX`).
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
from exactdp.numbers.formula_text import DerivationStep, marked
from exactdp.verification.claims import Check, proved
from exactdp.formulas import binette_coefficient, lemma4_gamma_max, xi

from exactdp.theory import structural_lemmas as SL

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


#: the scope of the certificates: every N, M, every level and c below 1/N
SCOPE = "all N, M; t >= 1, 0 < c < 1/N"

THM4_CHAIN = (
    DerivationStep("for K in M(ε, c) and P, Q in Q_X(c): every output ratio (KP)(y)/(KQ)(y) lies in [1/Γ, Γ] "
                   "with {0} (Lemma 4's ratio certificate below, all N, M)", ("Gamma = (1 - N*c)*exp(eps) + 1",),
                   inline=True),
    DerivationStep("Binette's inequality (the structural lemma '" + SL.BINETTE.name + "', its certificates carried by "
                   "the outcome): D_f(P'‖Q') ≤ {0} · TV(P', Q') when every ratio P'/Q' lies in [m, M] and f is convex "
                   "with f(1) = 0 (the hypothesis of Thm 4), the coefficient ≥ 0; here with {1} and {2}",
                   ("f(m)/(1 - m) + f(M)/(M - 1)", "m = 1/Gamma", "M = Gamma"), inline=True),
    DerivationStep("{0} with {1} for every K in M(ε, c): the (ε, c)-PML Dobrushin bound and η_TV ≤ 1 certificates below "
                   "(all N, M), through their two-point step (KP − KQ)(A) = TV(P, Q) Σ μ(x) ν(x') (K_x(A) − "
                   "K_x'(A)), the same step as grosse2026.thm3",
                   ("TV(K*P, K*Q) <= Xi(eps, c)*TV(P, Q)", "TV(P, Q) = delta"), inline=True),
    DerivationStep("{0}: the Binette bound with the TV bound (step certificate below), B the coefficient at "
                   "(1/Γ, Γ), Ξ = Ξ(ε, c)", ("D_f(K_P, K_Q) <= B*Xi*delta",), inline=True),
)


def thm4_step():
    """The last step of Thm 4: D_f(KP‖KQ) ≤ B·TV(KP, KQ) (Binette at m = 1/Γ, M = Γ, ratio range by Lemma 4's
    certificate) and TV(KP, KQ) ≤ Ξ·δ give D_f(KP‖KQ) ≤ B·Ξ·δ."""
    from exactdp.theory import class_certificates as CC

    Xi, delta = sympy.symbols("Xi delta", real=True)
    return SL.binette_step(
        "[G] Thm 4: D_f(KP||KQ) <= B Xi delta", "TV(KP, KQ) <= Xi TV(P, Q) = Xi delta: the (eps,c)-PML Dobrushin "
        "bound and eta_TV <= 1 (Xi their minimum; certificates of this proof)", Xi * delta, (Xi, delta),
        (Xi >= 0, delta >= 0), uses=(CC.pml_tv().name, CC.trivial_tv().name, CC.lemma4_ratio().name))


def _coefficient_identities(F, value, label):
    """The ``symbolic-statements`` certificate: Binette's coefficient of f at (1/Γ, Γ) equals ``value(Γ)``."""
    from exactdp.algebra.certificates.statements import SymbolicStatements, statement

    G = sympy.Symbol("Gamma", positive=True)
    return SymbolicStatements(
        name=f"Binette coefficient of {label} at (1/Gamma, Gamma)", parameters=("Gamma",),
        assumptions=(("Gamma", "positive"),), region=("Gamma > 1",), scope="all Gamma > 1",
        statements=(statement(f"{label}: f(1/G)/(1 - 1/G) + f(G)/(G - 1) = {value(G)}",
                              sympy.Eq(binette_coefficient(F, 1 / G, G), value(G), evaluate=False)),))


def proof_check(chain=(), rests_on=(), identity=None) -> Check:
    """PROVED (PROVED_MODULO ``rests_on``): Thm 4's chain with Binette's lemma (and a corollary's coefficient
    ``identity`` certificate builder), every certificate re-checked on every run."""

    def run(ctx):
        from exactdp.algebra.certificates import check
        from exactdp.theory import class_certificates as CC

        certs = (CC.lemma4_ratio(), CC.pml_tv(), CC.trivial_tv(), thm4_step()) + ((identity(),) if identity else ())
        steps = THM4_CHAIN + tuple(chain) + tuple(marked(c.name, s) for c in certs for s in check(c).steps)
        modulo = "; modulo " + ", ".join(rests_on) if rests_on else ""
        return proved("Lemma 4, eta_TV <= Xi and Binette's inequality by certificates" + modulo, certs, SCOPE,
                      derivation=steps, rests_on=rests_on)

    cites = "; cites " + ", ".join(rests_on) if rests_on else ""
    return Check("proof", run, "Lemma 4's ratio bound, eta_TV <= Xi and Binette's inequality by certificates "
                 "(all N, M)" + cites)


def binette_at(F):
    return lambda G: binette_coefficient(F, 1 / to_sympy(G), G)
