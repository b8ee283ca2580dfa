r"""[G] Def. 3 (G-13) and D-10: the Dobrushin coefficient of (ε,c)-PML mechanisms, η_TV(ε,c).

Statement: η_TV(ε,c) := sup_{K∈M(ε,c)} η_TV^{Q_X(c)}(K)  (= sup_{K∈M(ε,c)} η_TV(K) by Lemma 2, eq. (8)).
Proved:    for all N, M, t ≥ 1, 0 < c ≤ 1/N: every member K of M(ε,c) has η_TV(K) ≤ Ξ(ε,c) — the Farkas
           certificates of :mod:`exactdp.theory.class_certificates` (``pml_tv``: the PML constraints summed over
           an output set A and its complement give K_x(A) − K_x′(A) ≤ (t−1)/(t(1−Nc)+1); ``trivial_tv``: ≤ 1;
           ``xi_statements``: the registry's Ξ is the min of the two), the same proof as grosse2026.thm3.
Supporting: for random exact kernels K and c < 1/N, K ∈ M(ε_K, c) with e^{ε_K} = pml_ratio(K, c) and
           η_TV(K) ≤ Ξ(ε_K, c) exactly.
Not shown: the sup itself (the exact LP is grosse2026.thm1/thm3, owned by the extremal module);
           c = 1/N, where Def. 3's restricted form is a sup over an empty set (findings.fg07_degenerate_c).
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.formulas import xi
from exactdp.numbers.formula_text import written_step as step
from .._statements import pml_pair_bound, tv_at_most_one, xi_regimes


def _certificate(ctx):
    """Every member of M(eps,c) has eta_TV <= Xi(eps,c), all N, M (class certificates)."""
    cc = class_certificates
    return proved("for every (eps,c)-PML kernel K: eta_TV(K) <= Xi(eps,c)",
                  (cc.pml_tv(), cc.trivial_tv(), cc.xi_statements()), cc.ALL_N_M, derivation=(
                       step("[(eps,c)-PML Dobrushin bound] rows x, x' and an output set A: "
                            "`K_x(A) - K_xp(A) <= (t-1)/(t*(1-N*c)+1)`"),
                       step("[eta_TV <= 1] `K_x(A) - K_xp(A) <= 1`"),
                       step("[Xi and the Theorem 3 regime] the registry's `Xi(eps, c)` is the smaller of the two"),
                       step("the TV coefficient is the largest `K_x(A) - K_xp(A)` over rows x, x' and sets A (the "
                            "lemma 'two-point bound', whose certificates the outcome carries), so "
                            "`eta_tv(K) <= Xi(eps, c)` for every member of M(eps,c)")))


def _members(ctx):
    rng = ctx.rng("d10")

    def test(k):
        N = 2 + k % 4
        K = inst.random_kernel(rng, N, 2 + k % 3) if k % 2 else inst.random_kernel_with_zeros(rng, N, 2 + k % 3)
        c = inst.random_rational(rng, fmpq(1, 60), fmpq(1, N) - fmpq(1, 60 * N), 60)
        g = pml_ratio(K, c)
        e, bound = eta_tv(K), xi(g, c, N)
        return e <= bound, exact_data(K=K, c=c, pml_ratio=g, eta_tv=e, Xi=bound)

    return check_instances([("random kernels, c < 1/N", range(ctx.size(40, 400)))], test,
                           claim="eta_TV(K) <= Xi(eps_K, c) for K in M(eps_K, c)")


register(Claim(
    written=(pml_pair_bound("grosse2026.def3_eta_tv_eps_c"), tv_at_most_one("grosse2026.def3_eta_tv_eps_c"), xi_regimes("grosse2026.def3_eta_tv_eps_c")),
    id="grosse2026.def3_eta_tv_eps_c",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-13", "D-10"),
    source=Source(GROSSE2026, "Definition 3", section="III", equation="7"),
    title="eta_TV(eps,c): members of M(eps,c) stay below Xi",
    statement=r"\eta_{TV}(\varepsilon,c)=\sup_{K\in\mathcal M(\varepsilon,c)}\eta_{TV}^{\mathcal Q_{\mathcal X}(c)}(K)",
    hypotheses="`0 < c < 1/N`, `N >= 2`",
    checks=(Check("certificate", _certificate, "eta_TV <= Xi for every member, all N, M (class certificates)"),
            Check("members below Xi", _members, supporting=True)),
    expected=Verdict.PROVED,
    kind="definition",
    related=("findings.fg07_degenerate_c", "grosse2026.thm1", "grosse2026.thm3"),
    formulas=("eta_tv(eps, c) = sup_eta_tv_Q(eps, c)",),
))
