r"""[G] §III (G-10) and D-9: Q_X(c), the PML capacity C(K, Q_X(c)) and its closed form.

Statement: e^{C(K,Q_X(c))} = sup_{P∈Q_X(c)} max_y max_{x∈supp P} K(y|x)/(K∘P)(y)
           = max_y max_x K(y|x) / (c S_y + (1 − Nc) min_x K(y|x)),  S_y = Σ_x K(y|x), 0 < c ≤ 1/N
           ([DERIVED] closed form; all-zero columns skipped).  Q_X(c) ≠ ∅ iff c ≤ 1/N and Q_X(1/N) = {U}.
Checked:   the closed form (``pml_ratio``) against the maximum over the N vertices c𝟙 + (1−Nc)e_x of
           Q_X(c) using the PML of [G] Prop. 1 at each vertex; random interior priors never exceed it;
           c = 1/N gives the uniform prior's PML.  The closed form is a parameter of the check so the
           soundness suite can feed it wrong variants.
Not shown: c = 0 (LDP; see grosse2026.eq2_ldp_sup_pml).
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.privacy import pml, pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import pml_ratio_by_vertices


def closed_form_check(closed_form=pml_ratio):
    """Compare ``closed_form(K, c)`` with the vertex maximum (``pml_ratio`` is the claim)."""

    def run(ctx):
        rng = ctx.rng("d9")

        def instances():
            for k in range(ctx.size(25, 250)):
                N = 2 + k % 4
                K = inst.random_kernel(rng, N, 2 + k % 3) if k % 3 else inst.random_kernel_with_zeros(rng, N, 2 + k % 3)
                c = fmpq(1, N) if k % 7 == 0 else inst.random_rational(rng, fmpq(1, 50), fmpq(1, N), 40)
                if c <= 0:
                    c = fmpq(1, 2 * N)
                yield K, c

        def test(x):
            K, c = x
            a, b = closed_form(K, c), pml_ratio_by_vertices(K, c)
            return a == b, exact_data(K=K, c=c, closed_form=a, vertex_max=b)

        def grid():
            for K in inst.small_grid_kernels(ctx.quick) + inst.catalogue_kernels():
                for c in (fmpq(1, K.N), fmpq(1, 2 * K.N), fmpq(1, 7 * K.N)):
                    yield K, c

        return check_instances([("random kernels (some with zeros), c in (0, 1/N]", instances()),
                                ("catalogue and exhaustive small grids", grid())], test,
                               claim="closed form = max over the vertices of Q_X(c)")
    return run


def _interior(ctx):
    rng = ctx.rng("d9i")

    def test(k):
        N = 2 + k % 3
        K = inst.random_kernel(rng, N, 2 + k % 3)
        c = inst.random_rational(rng, fmpq(1, 40), fmpq(1, N), 30)
        bound = pml_ratio(K, c)
        P = inst.random_prior_in_Q(rng, N, c)
        worst = max(pml(K, P, y).ratio for y in range(K.M) if K.apply(P)[y] != 0)
        uniform_ok = True
        if k % 5 == 0:
            U = Distribution.uniform(N)
            uniform_ok = pml_ratio(K, fmpq(1, N)) == max(pml(K, U, y).ratio for y in range(K.M) if K.apply(U)[y] != 0)
        return worst <= bound and uniform_ok, exact_data(K=K, c=c, P=P, pml=worst, closed_form=bound)

    return check_instances([("random (K, c, P in Q_X(c))", range(ctx.size(25, 250)))], test,
                           claim="interior priors stay below the closed form; c = 1/N is the uniform prior")


register(Claim(
    id="grosse2026.pml_capacity_closed_form",
    catalogue=("D-9", "G-10"),
    source=Source(GROSSE2026, "Q_X(c) and C(K, P)", section="III"),
    title="PML capacity over Q_X(c): closed form vs vertices",
    statement=r"e^{C(K,\mathcal Q_{\mathcal X}(c))}=\max_y\frac{\max_x K(y|x)}{c\,S_y+(1-Nc)\min_x K(y|x)}",
    hypotheses="`0 < c <= 1/N`, finite rational kernels",
    checks=(Check("vertices", closed_form_check()), Check("interior priors", _interior)),
    expected=Verdict.VERIFIED,
    kind="definition",
    notes="The closed form is [DERIVED] in docs/claims.md (not printed in [G]); the definition is [G]'s.",
    related=("grosse2026.eq2_ldp_sup_pml",),
    formulas=("exp(C(K, c)) = max_y_ratio(K, c)", "ratio_y = max_x_K_y/(c*S_y + (1 - N*c)*min_x_K_y)"),
))
