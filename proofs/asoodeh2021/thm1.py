r"""[A] Theorem 1 (A-6; proof A-21(a)): K is (ε,δ)-LDP ⟺ η_{e^ε}(K) ≤ δ.

Statement: for ε ≥ 0, δ ∈ [0,1] and any kernel K: K is (ε,δ)-LDP (events, D-6) iff
           E_{e^ε}(PK‖QK) ≤ δ·E_{e^ε}(P‖Q) for all P, Q (i.e. η_{e^ε}(K) ≤ δ).
Proved:    both directions for all N, M, real t = e^ε ≥ 1 and δ ∈ [0, 1]
           (:mod:`exactdp.theory.e_gamma_certificates`).  (⇒) With e = E_t(P‖Q), p = (P − tQ)₊, n = (tQ − P)₊
           (masses e and e + t − 1) and k(x) = K_x(A): (KP)(A) − t(KQ)(A) = Σ p k − Σ n k, and the
           (ε,δ)-LDP constraints of all pairs weighted p(x) n(x′) sum to L ≥ 0; the multipliers 1/(e + t − 1)
           and (t − 1)(1 − e)/(e + t − 1) on L and Σ n k ≥ 0 give (KP)(A) − t(KQ)(A) ≤ δe for every A (e = 0
           separately), and E_t(KP‖KQ) is that difference at A* = {KP > t·KQ}.  Every sum is reduced to
           its summand by a checked statement.  (⇐) The point masses at x ≠ x′ have E_t = 1, so
           K_x(A) − tK_{x′}(A) ≤ E_t(K_x‖K_{x′}) ≤ η_t(K) ≤ δ.
Supporting (instances, exactly), with δ*(γ) = max_{x,x'} E_γ(K_x‖K_{x'}):
           (⇒) δ ∈ {δ*, δ* + 1/7 ∧ 1, 1}: the events-LDP decision is TRUE and random input pairs satisfy the
               contraction inequality; (⇐, contrapositive) δ ∈ {δ* − 1/97, 0} below δ*: the events decision
               is FALSE and the point masses at the maximizing pair violate the contraction inequality;
           (boundary) at δ = δ* the point masses attain equality.  Families: random kernels, kernels with
           zeros, edge cases (identity, constant rows, unequal output sizes), the mechanism catalogue and
           exhaustive grids of 2×2 (denominator 6) and 2×3 (denominator 3) kernels, γ ∈ {1, random in [1, 4]}.
Not shown: nothing within the statement (ε ≥ 0, finite kernels).
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_hockey_stick_witness
from exactdp.measures.divergences import hockey_stick
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.verification.quantities import is_ldp_by_subsets
from exactdp.numbers.formula_text import written_step as step
from .._statements import e_gamma_contraction, ldp_from_contraction


def _kernels(ctx, salt):
    rng = ctx.rng(salt)
    n = ctx.size(12, 100)
    ks = [inst.random_kernel(rng, 2 + k % 3, 2 + k % 4) for k in range(n)]
    ks += [inst.random_kernel_with_zeros(rng, 3, 3) for _ in range(n // 4)] + inst.edge_kernels()
    ks += inst.catalogue_kernels() + inst.small_grid_kernels(ctx.quick)
    for K in ks:
        if K.N < 2:
            continue
        for g in (fmpq(1), inst.random_rational(rng, 1, 4, 6)):
            yield rng, K, g


def equivalence_check(coefficient=lambda K, g: eta_hockey_stick_witness(K, g)):
    """Both directions of Thm 1 with δ* = coefficient(K, γ)[0] (the two-point value is the claim)."""

    def run(ctx):
        def test(x):
            rng, K, g = x
            star, a, b = coefficient(K, g)
            pa, pb = Distribution.point(K.N, a), Distribution.point(K.N, b)
            at_points = hockey_stick(K.apply(pa), K.apply(pb), g)
            for d in sorted({star, min(star + fmpq(1, 7), fmpq(1)), fmpq(1)}):
                if not is_ldp_by_subsets(K, g, d):
                    return False, exact_data(K=K, gamma=g, delta=d, delta_star=star, direction="=>",
                                             events_ldp=False)
                for _ in range(3):
                    P, Q = inst.random_distribution(rng, K.N), inst.random_distribution(rng, K.N)
                    lhs, rhs = hockey_stick(K.apply(P), K.apply(Q), g), d * hockey_stick(P, Q, g)
                    if lhs > rhs:
                        return False, exact_data(K=K, gamma=g, delta=d, P=P, Q=Q, lhs=lhs, rhs=rhs, direction="=>")
            for d in sorted({max(star - fmpq(1, 97), fmpq(0)), fmpq(0)}):
                if d >= star:
                    continue
                if is_ldp_by_subsets(K, g, d) or not at_points > d:
                    return False, exact_data(K=K, gamma=g, delta=d, delta_star=star, direction="<=",
                                             point_mass_value=at_points)
            return at_points == star, exact_data(K=K, gamma=g, delta_star=star, boundary_value=at_points)

        return check_instances([("kernels x gamma (random, zeros, edge cases, catalogue, exhaustive 2x2/2x3 grids)", _kernels(ctx, "thm1"))], test,
                               claim="(eps,delta)-LDP iff eta_{e^eps}(K) <= delta, both sides and on the boundary")
    return run


def proof_check(ctx):
    """Both directions for every N, M from the certificates of :mod:`exactdp.theory.e_gamma_certificates`."""
    return proved("(eps,delta)-LDP iff eta_{e^eps}(K) <= delta, both directions, every N, M, real eps >= 0",
                  EG.thm1_certificates(), EG.SCOPE, derivation=(
                      step("(=>) fix P, Q, a set A and `t = exp(eps)`; let `e = E_t(P, Q)`, p the positive part of P - tQ and "
                           "n that of tQ - P (p sums to e, n to `e + t - 1`), k the masses the rows give A: "
                           "`KP(A) - t*KQ(A) = A_p - A_n` with A_p, A_n the sums of p k and n k (summand "
                           "statements)"),
                      step("L, the sum over pairs of p(x) n(x') (delta + t k(x') - k(x)), is non-negative: each "
                           "summand is a product of non-negatives ((eps,delta)-LDP on A, [A] D-6), and "
                           "`L = delta*e*(e + t - 1) + t*e*A_n - (e + t - 1)*A_p` (summand identity summed over "
                           "pairs)"),
                      step("when `e > 0`: `L/(e + t - 1) + (t - 1)*(1 - e)/(e + t - 1)*A_n = delta*e - (A_p - A_n)` "
                           "(Farkas certificate), so `KP(A) - t*KQ(A) <= delta*e`; when `e = 0`: `A_p = 0` and "
                           "the difference is `-A_n`, at most 0"),
                      step("`E_t(KP, KQ)` is the difference at the set where KP exceeds t KQ (event form), so "
                           "`E_t(KP, KQ) <= delta*E_t(P, Q)` for all P, Q: `eta_t(K) <= delta`"),
                      step("(<=) for distinct rows x, x' the point masses have E_t equal to 1, so "
                           "`K_x(A) - t*K_xp(A) <= E_t(row_x, row_xp)`, at most `eta_t(K)`, at most delta, for every "
                           "set A: (eps,delta)-LDP")))


register(Claim(
    written=(*e_gamma_contraction("asoodeh2021.thm1"), ldp_from_contraction("asoodeh2021.thm1")),
    id="asoodeh2021.thm1",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    catalogue=("A-6", "A-21"),
    source=Source(ASOODEH2021, "Theorem 1", section="III", page="3"),
    title="(eps,delta)-LDP iff eta_{e^eps}(K) <= delta",
    statement=r"K\ \text{is}\ (\varepsilon,\delta)\text{-LDP}\iff\eta_{e^\varepsilon}(K)\le\delta",
    hypotheses="`eps >= 0` real (instances: `e^eps` rational), `0 <= delta <= 1`, any finite kernel",
    checks=(Check("proof", proof_check, "both directions, certificates, all N, M"),
            Check("both directions and boundary", equivalence_check(), supporting=True)),
    expected=Verdict.PROVED,
    notes="The 'or equivalently' display is cut off in the stored text; its reconstruction is the contraction form.",
    related=("asoodeh2021.thm3_two_point",),
    formulas=("delta_K(eps) <= delta ⟺ eta_E(exp(eps), K) <= delta",),
))
