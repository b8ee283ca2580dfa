r"""[A] φ-contraction lemma (A-7; appendix A-21(b)): η_TV(K) ≤ φ(ε,δ) = 1 − e^{−ε}(1 − δ) for (ε,δ)-LDP K.

Statement: for (ε,δ)-LDP K (any N, M), η_f(K) ≤ η_TV(K) ≤ 1 − e^{−ε}(1−δ) for every convex f.
Scope:     η_TV(K) ≤ φ is proved (no citation); η_f(K) ≤ φ for every f is proved modulo B-3
           (η_f ≤ η_TV, Cohen–Kemperman–Zbaganu 1998; the claim background.b03_eta_f_le_eta_tv only samples it),
           so the claim's verdict is proved-modulo that published theorem.
Proved:    for all N, M, t = e^ε ≥ 1 (real), δ ∈ [0, 1] (``proof``): the Farkas certificate
           :func:`exactdp.theory.class_certificates.ldp_tv` — the (ε,δ)-LDP constraints on A (rows x, x′)
           and on Aᶜ (rows x′, x), multipliers 1/(t+1), give K_x(A) − K_{x′}(A) ≤ (t − 1 + 2δ)/(t + 1) — and
           the statement certificate φ ≥ (t − 1 + 2δ)/(t + 1) (φ from the registry, decided on the region);
           the two-point formula at γ = 1 ([A] Thm 3's certificates, carried by the proof) turns the pair bound
           into η_TV.
Supporting (instances, exactly): random kernels at random rational γ = e^ε with δ = δ*(γ) (the least δ),
           kernels with zeros, and the extremal family (binary kernels of B-4 attaining the tight value
           (γ − 1 + 2δ)/(γ + 1)) on a grid including γ = 1 and δ ∈ {0, 1}; the key step
           E_γ(P‖Q) ≥ γ·TV(P,Q) − (γ − 1) on random pairs.  η_f ≤ η_TV is B-3.  The bound φ is a
           parameter of the check so the soundness suite can feed it wrong variants.
Not shown: tightness — φ is not tight (findings.fa02_phi_not_tight; the tight value is B-4).
"""

from flint import fmpq

from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.measures.divergences import hockey_stick, tv
from exactdp.mechanisms import optimal_binary_approx_ldp
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import class_certificates
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.formulas import phi
from exactdp.numbers.formula_text import written_step as step

from .._statements import phi_contraction

GRID_G = (fmpq(1), fmpq(11, 10), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(7))
GRID_D = (fmpq(0), fmpq(1, 100), fmpq(1, 10), fmpq(1, 2), fmpq(1))


def phi_bound_check(bound=phi):
    """η_TV(K) ≤ bound(γ, δ) for (ε,δ)-LDP K (bound = φ is the claim)."""

    def run(ctx):
        rng = ctx.rng("a7")

        def random_family():
            for k in range(ctx.size(30, 300)):
                K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 3) if k % 4 else inst.random_kernel_with_zeros(rng, 3, 3)
                g = inst.random_rational(rng, 1, 5, 6)
                yield K, g, eta_hockey_stick(K, g)

        def extremal_family():
            for g in GRID_G:
                for d in GRID_D:
                    yield optimal_binary_approx_ldp(g, d), g, d

        def test(x):
            K, g, d = x
            e, b = eta_tv(K), bound(g, d)
            return e <= b, exact_data(K=K, gamma=g, delta=d, eta_tv=e, bound=b)

        return check_instances([("random kernels, delta = delta*(gamma)", random_family()),
                                ("extremal binary kernels (B-4) on a grid", extremal_family()),
                                ("mechanism catalogue", ((K, g, eta_hockey_stick(K, g)) for K in inst.catalogue_kernels()
                                                         for g in (fmpq(1), fmpq(2), fmpq(5))))], test,
                               claim="eta_TV(K) <= phi(eps, delta)")
    return run


def _certificates() -> tuple:
    """The pair bound (filed under the written statement, :func:`exactdp_proofs._statements.phi_contraction`), phi >=
    the tight value, and the two-point formula at gamma = 1 (all N, M)."""
    return (class_certificates.ldp_tv(), class_certificates.ldp_statements(),
            *EG.thm3_certificates())


def proof_check(ctx):
    """Proved for all N, M: eta_TV <= (t-1+2 delta)/(t+1) <= phi (two certificates)."""
    certs = _certificates()
    return proved("eta_TV(K) <= (t-1+2 delta)/(t+1) <= phi(eps, delta) for every (eps,delta)-LDP K", certs,
                  class_certificates.ALL_N_M + "; t >= 1, 0 <= delta <= 1 (eta_TV)", derivation=(
                      step("[(eps,delta)-LDP Dobrushin bound] for rows x, x' and a set A, with a and b the masses the rows give "
                           "A: `(t*b + delta - a) + (t*(1-a) + delta - (1-b))`, each bracket non-negative by D-6 "
                           "and weighted `1/(t+1)`, is `(t-1+2*delta)/(t+1) - (a - b)` identically"),
                      step("the TV coefficient is the largest `K_x(A) - K_xp(A)` over rows x, x' and sets A: the two-point formula "
                           "at `gamma = 1` ([A] Thm 3, B-1; the certificates of thm3_certificates, checked with the "
                           "others)"),
                      step("[(eps,delta)-LDP: phi and the attaining binary kernel] `phi(eps, delta) = 1 - (1-delta)/t`, at "
                           "least `(t-1+2*delta)/(t+1)` where `t >= 1` and `0 <= delta <= 1` (prover)"),
                      step("hence `eta_tv(K) <= phi(eps, delta)`, for every N, M and every real `eps >= 0`")))


#: the published theorem behind the eta_f half (B-3), cited by name
ETA_F_LE_ETA_TV = "eta_f(K) <= eta_TV(K) for every convex f (Cohen-Kemperman-Zbaganu 1998, B-3)"
#: the same, its formula marked for :func:`written_step`
ETA_F_LE_ETA_TV_STEP = "`eta_f(K) <= eta_tv(K)` for every convex f (Cohen-Kemperman-Zbaganu 1998, B-3)"


def eta_f_check(ctx):
    """eta_f <= phi for every f: the eta_TV certificates and the cited B-3."""
    certs = _certificates()
    return proved("eta_f(K) <= eta_TV(K) <= phi(eps, delta) for every convex f, modulo B-3 (cited)", certs,
                  class_certificates.ALL_N_M + ", every convex f (eta_f, modulo B-3)",
                  rests_on=(ETA_F_LE_ETA_TV,), derivation=(
                      step(ETA_F_LE_ETA_TV_STEP + " (cited, not proved here)"),
                          step("`eta_tv(K) <= phi(eps, delta)`: the certificates of the check 'proof'")))


def key_step_check(ctx):
    rng = ctx.rng("a7s")

    def test(k):
        M = 2 + k % 4
        P, Q = inst.random_distribution(rng, M), inst.random_distribution(rng, M)
        g = inst.random_rational(rng, 1, 6, 7)
        lhs, rhs = hockey_stick(P, Q, g), g * tv(P, Q) - (g - 1)
        return lhs >= rhs, exact_data(P=P, Q=Q, gamma=g, E_gamma=lhs, gamma_TV_minus=rhs)

    return check_instances([("random pairs", range(ctx.size(40, 400)))], test,
                           claim="E_gamma(P||Q) >= gamma TV(P,Q) - (gamma - 1)")


register(Claim(
    id="asoodeh2021.a07_phi_lemma",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    written=(phi_contraction("asoodeh2021.a07_phi_lemma"),),
    catalogue=("A-7",),
    source=Source(ASOODEH2021, "phi-contraction lemma", section="III", page="4"),
    title="eta_f(K) <= eta_TV(K) <= phi(eps,delta) = 1 - e^{-eps}(1-delta) for (eps,delta)-LDP K "
          "(eta_TV: proved, all N, M; eta_f: modulo B-3)",
    statement=r"\eta_f(K)\le\eta_{TV}(K)\le\varphi(\varepsilon,\delta)=1-e^{-\varepsilon}(1-\delta)",
    hypotheses="`K` (`eps`, `delta`)-LDP with any `N`, `M`; `eps >= 0`, `0 <= delta <= 1`",
    checks=(Check("proof", proof_check, "eta_TV: Farkas certificate + phi >= tight value, all N, M"),
            Check("eta_f, every f", eta_f_check, "eta_TV's certificates and B-3 (cited)"),
            Check("instances", phi_bound_check(), supporting=True),
            Check("key step", key_step_check, "[A]'s route: E_gamma >= gamma TV - (gamma - 1)", supporting=True)),
    expected=Verdict.PROVED_MODULO,
    notes="Valid but not tight: the tight value is (e^eps - 1 + 2 delta)/(e^eps + 1) (findings.fa02_phi_not_tight). "
          "eta_TV <= phi is proved for all N, M; [A]'s eta_f(K) <= eta_TV(K) is B-3 (background.b03_eta_f_le_eta_tv), "
          "cited, not proved here, so the eta_f half is proved modulo it.",
    related=("asoodeh2021.a07_phi_vs_tight", "findings.fa02_phi_not_tight", "background.b03_eta_f_le_eta_tv"),
    formulas=("eta_f(K) <= eta_tv(K)",
              "eta_tv(K) <= phi(eps, delta)",
              "phi(eps, delta) = 1 - exp(-eps)*(1 - delta)"),
))
