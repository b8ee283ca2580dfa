r"""[A] Theorem 1 (A-6; proof A-21(a)): K is (ε,δ)-LDP ⟺ η_{e^ε}(K) ≤ δ.

Statement: for ε ≥ 0, δ ∈ [0,1] and any kernel K: K is (ε,δ)-LDP (events, D-6) iff
           E_{e^ε}(PK‖QK) ≤ δ·E_{e^ε}(P‖Q) for all P, Q (i.e. η_{e^ε}(K) ≤ δ).
Checked:   both directions, exactly, with δ*(γ) = max_{x,x'} E_γ(K_x‖K_{x'}):
           (⇒) δ ∈ {δ*, δ* + 1/7 ∧ 1, 1}: the events-LDP decision is TRUE and random input pairs satisfy the
               contraction inequality; (⇐, contrapositive) δ ∈ {δ* − 1/97, 0} below δ*: the events decision
               is FALSE and the point masses at the maximizing pair violate the contraction inequality;
           (boundary) at δ = δ* the point masses attain equality.  Families: random kernels, kernels with
           zeros, edge cases (identity, constant rows, unequal output sizes), the mechanism catalogue and
           exhaustive grids of 2×2 (denominator 6) and 2×3 (denominator 3) kernels, γ ∈ {1, random in [1, 4]}.
           The two-point formula behind it is certified by LP in asoodeh2021.thm3_two_point.
Not shown: irrational e^ε.
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_hockey_stick_witness
from exactdp.measures.divergences import hockey_stick
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import is_ldp_by_subsets


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


register(Claim(
    id="asoodeh2021.thm1",
    catalogue=("A-6", "A-21"),
    source=Source(ASOODEH2021, "Theorem 1", section="III", page="3"),
    title="(eps,delta)-LDP iff eta_{e^eps}(K) <= delta",
    statement=r"K\ \text{is}\ (\varepsilon,\delta)\text{-LDP}\iff\eta_{e^\varepsilon}(K)\le\delta",
    hypotheses="eps >= 0 (e^eps rational), delta in [0,1], any finite kernel",
    checks=(Check("both directions and boundary", equivalence_check()),),
    expected=Verdict.VERIFIED,
    notes="The 'or equivalently' display is cut off in the stored text; its reconstruction is the contraction form.",
    related=("asoodeh2021.thm3_two_point",),
))
