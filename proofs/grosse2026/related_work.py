r"""[G] §II-C related work (G-9): Duchi's KL bound, eq. (13) η_TV ≤ (e^ε−1)/(e^ε+1) for ε-LDP, citations.

Statement: (a) Duchi et al.'s KL bound (B-5); (b) eq. (13): for ε-LDP K, η_TV(K) ≤ (e^ε−1)/(e^ε+1);
           (c) mentions of related work without formulas.
Proved:    (b) for all N, M and t = e^ε ≥ 1 — the (ε,δ)-LDP Farkas certificate
           :func:`exactdp.theory.class_certificates.ldp_tv` (a ≤ tb + δ and 1 − b ≤ t(1 − a) + δ, each with
           multiplier 1/(t+1), give K_x(A) − K_x′(A) ≤ (t − 1 + 2δ)/(t + 1) for all δ ∈ [0, 1]) at δ = 0.
Supporting: (b) exactly on random full-support kernels with e^ε = ldp_ratio(K) and on binary randomized
           response (equality).  (a) is background.b05_duchi; (c) not checkable (no formulas).
Not shown: the sup in (b) for every size (tightness is background.b04_tight_ldp, extremal module).
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import randomized_response
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data, not_checkable
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step
from .._statements import ldp_tv_eq13


def _certificate(ctx):
    """eq. (13) for every eps-LDP kernel, all N, M: the (eps,delta)-LDP certificate at delta = 0."""
    cc = class_certificates
    return proved("for every eps-LDP kernel K: eta_TV(K) <= (e^eps - 1)/(e^eps + 1)", (cc.ldp_tv(),), cc.ALL_N_M,
                  derivation=(
                       step("[(eps,delta)-LDP Dobrushin bound] rows x, x' and an output set A, `0 <= delta <= 1`: "
                            "`K_x(A) - K_xp(A) <= (t - 1 + 2*delta)/(t + 1)`"),
                       step("pure LDP is `delta = 0`: `K_x(A) - K_xp(A) <= (t - 1)/(t + 1)`"),
                       step("the TV coefficient is the largest `K_x(A) - K_xp(A)` over rows x, x' and sets A (the "
                            "lemma 'two-point bound', whose certificates the outcome carries), so "
                            "`eta_tv(K) <= (exp(eps) - 1)/(exp(eps) + 1)`")))


def _eq13(ctx):
    rng = ctx.rng("g9")

    def test(K):
        E = ldp_ratio(K)
        e, b = eta_tv(K), (E - 1) / (E + 1)
        return e <= b, exact_data(K=K, e_eps=E, eta_tv=e, bound=b)

    rr = [randomized_response(2, g) for g in (fmpq(1), fmpq(2), fmpq(7, 3), fmpq(15))]
    return check_instances([("random eps-LDP kernels", (inst.random_kernel(rng, 2 + k % 3, 2 + k % 4, 10, full_support=True)
                                                        for k in range(ctx.size(40, 400)))),
                            ("binary randomized response", rr)], test, claim="eta_TV <= (e^eps-1)/(e^eps+1)")


register(Claim(
    written=(ldp_tv_eq13("grosse2026.related_work"),),
    id="grosse2026.related_work",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    catalogue=("G-9",),
    source=Source(GROSSE2026, "related work", section="II-C", equation="13"),
    title="Related work: eq. (13) eta_TV <= (e^eps-1)/(e^eps+1) for eps-LDP",
    statement=r"K\ \varepsilon\text{-LDP}\Longrightarrow\eta_{TV}(K)\le\frac{e^\varepsilon-1}{e^\varepsilon+1}",
    hypotheses="`K` `eps`-LDP",
    checks=(Check("eq. (13) certificate", _certificate, "eq. (13) for all N, M (the LDP certificate at delta = 0)"),
            Check("eq. (13)", _eq13, supporting=True),
            Check("citations without formulas", lambda ctx: not_checkable(
                "(c) mentions related work without formulas; (a) is background.b05_duchi"))),
    expected=Verdict.PROVED,
    related=("background.b04_tight_ldp", "background.b05_duchi"),
    formulas=("LDP(K) <= eps ⟹ eta_tv(K) <= (exp(eps) - 1)/(exp(eps) + 1)",),
))
