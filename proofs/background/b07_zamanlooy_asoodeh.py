r"""B-7 (Zamanlooy–Asoodeh ISIT 2023, [G] [38]): SDPIs for ε-LDP mechanisms — statements [RECON].

Statement ([RECON], docs/claims.md B-7): for ε-LDP K, t = e^ε ≥ 1 and γ ≥ 1,
           E_γ(KP‖KQ) ≤ (e^ε − γ)⁺/(e^ε + 1)·TV(P,Q),
           D_f(KP‖KQ) ≤ (f(e^ε) + e^ε f(e^{−ε}))/(e^ε + 1)·TV(P,Q)  (KL: ε(e^ε−1)/(e^ε+1); H²: 2(√e^ε−1)²/(e^ε+1);
           χ²: (e^ε−1)²/e^ε).
Proved:    the E_γ form for every N, M, t ≥ 1 and γ ≥ 1, by the certificates of
           :mod:`exactdp.theory.ldp_sdpi_certificates` (P − Q split into positive and negative parts, the
           per-pair bound K_x(A) − γK_x′(A) ≤ (t − γ)₊/(t + 1) from ε-LDP on A and its complement in the two
           cases γ ≤ t and γ ≥ t, summed over pairs weighted by the parts), filed under the written statement
           :func:`proofs._statements.za_e_gamma_bound`.
Proved:    the f form for every N, M, t ≥ 1 and every convex f with f(1) = 0 (KL, H² and χ² in closed form):
           (1) every ratio (KP)(y)/(KQ)(y) lies in [1/t, t]
           (:func:`~exactdp.theory.ldp_sdpi_certificates.ratio_bound`); (2) TV(KP, KQ) ≤ (t − 1)/(t + 1)·TV(P, Q)
           ([A]'s tight η_TV bound at δ = 0, :func:`exactdp.theory.class_certificates.ldp_tv`, with the two-point
           lemma — the certificates of asoodeh2021.a07_phi_lemma's proved η_TV part); (3) Binette's inequality
           D_f(P′‖Q′) ≤ (f(m)/(1 − m) + f(M)/(M − 1))·TV(P′, Q′) for m ≤ dP′/dQ′ ≤ M at m = 1/t, M = t (t > 1):
           the structural lemma :data:`exactdp.theory.structural_lemmas.BINETTE` (a convexity instance of f per
           output, the claim's hypothesis, summed by the finite-sum rules), combined with (2) by
           :func:`~exactdp.theory.ldp_sdpi_certificates.binette_with_tv`;
           (4) (t − 1)/(t + 1)·(f(1/t)/(1 − 1/t) + f(t)/(t − 1)) = (f(t) + t f(1/t))/(t + 1) identically in f,
           and its KL, H², χ² closed forms (:func:`~exactdp.theory.ldp_sdpi_certificates.f_form_coefficients`).
           At t = 1, (2) gives KP = KQ, so D_f = f(1) = 0, the coefficient's value there.  The claim is
           proved with the scope "all N, M; t >= 1, gamma >= 1"; it rests on no cited result.
Checked (supporting): random full-support kernels with e^ε = ldp_ratio(K) (rational): the E_γ and χ² forms
           exactly (random rational γ), the KL and H² forms certified; tightness of all four at binary randomized
           response with point-mass inputs (exact equality).
Not shown: the original statements (not stored); background.b06_binette_instances samples Binette's inequality
           as published (the lemma proves the form used here).
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.divergences import chi2, hellinger2, hockey_stick, kl, tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import binary_randomized_response
from exactdp.sources import ZAMANLOOY2023, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, sign, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory.ldp_sdpi_certificates import binette_with_tv, e_gamma_form_certificates, f_form_certificates
from exactdp.numbers.formula_text import marked, written_step as step
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.formulas import H2_F, KL_F, za_hockey_stick_coefficient

from exactdp.theory import structural_lemmas as SL

from .._cited_steps import TWO_POINT
from .._statements import ldp_ratio_bound, ldp_tv_eq13, za_e_gamma_bound, za_f_coefficients


CID = "background.b07_zamanlooy_asoodeh"


def f_coefficient(F, E):
    """(f(E) + E f(1/E))/(E + 1)."""
    E = to_sympy(E)
    return (F(E) + E * F(1 / E)) / (E + 1)


def _random(ctx):
    rng = ctx.rng("b7")

    def instances():
        for k in range(ctx.size(12, 120)):
            K = inst.random_kernel(rng, 2 + k % 2, 2 + k % 3, 9, full_support=True)
            P, Q = inst.random_distribution(rng, K.N), inst.random_distribution(rng, K.N)
            yield "E_gamma", K, P, Q, inst.random_rational(rng, 1, 4, 5)
            yield "KL", K, P, Q, None
            yield "H2", K, P, Q, None
            yield "chi2", K, P, Q, None

    def test(x):
        name, K, P, Q, g = x
        E, d = ldp_ratio(K), tv(P, Q)
        KP, KQ = K.apply(P), K.apply(Q)
        if name == "E_gamma":
            lhs, rhs = hockey_stick(KP, KQ, g), za_hockey_stick_coefficient(E, g) * d
        elif name == "chi2":  # exact: both sides rational
            lhs, rhs = chi2(KP, KQ), (E - 1) ** 2 / E * d
        elif name == "KL":
            lhs, rhs = kl(KP, KQ), f_coefficient(KL_F, E) * to_sympy(d)
        else:
            lhs, rhs = hellinger2(KP, KQ), f_coefficient(H2_F, E) * to_sympy(d)
        return decide_le(lhs, rhs), exact_data(form=name, K=K, P=P, Q=Q, gamma=g, e_eps=E, lhs=lhs, rhs=rhs,
                                               lhs_enclosure=enclosure(lhs), rhs_enclosure=enclosure(rhs))

    return check_instances([("random eps-LDP kernels x pairs x {E_gamma, KL, H2, chi2}", instances())], test,
                           claim="Zamanlooy-Asoodeh bounds")


def _tight(ctx):
    def test(E):
        K = binary_randomized_response(E)
        P, Q = Distribution.point(2, 0), Distribution.point(2, 1)
        KP, KQ = K.apply(P), K.apply(Q)
        ok = all(hockey_stick(KP, KQ, g) == za_hockey_stick_coefficient(E, g) for g in (fmpq(1), (1 + E) / 2, E))
        ok = ok and sign(kl(KP, KQ) - f_coefficient(KL_F, E)) == 0
        ok = ok and sign(to_sympy(hellinger2(KP, KQ)) - f_coefficient(H2_F, E)) == 0
        ok = ok and chi2(KP, KQ) == (E - 1) ** 2 / E
        return ok, exact_data(e_eps=E)

    return check_instances([("binary RR, point masses", [fmpq(2), fmpq(3), fmpq(9, 4), fmpq(10)])], test,
                           claim="equality at binary randomized response")


#: the claim's scope: both forms, every N, M
SCOPE = "all N, M; t >= 1, gamma >= 1"


def _e_gamma_proof(ctx):
    """The E_γ form for every ε-LDP kernel, every N, M, t ≥ 1 and γ ≥ 1, from the certificates."""
    return proved("E_gamma(KP||KQ) <= (t - gamma)_+/(t + 1) TV(P, Q) for every eps-LDP K, every N, M, t >= 1, "
                  "gamma >= 1", e_gamma_form_certificates(), SCOPE)


F_FORM_CHAIN = (
    step("[B-7: (KP)(y) <= t (KQ)(y) for eps-LDP K] for every P, Q and output y, `p <= t*q` with p = (KP)(y), "
         "q = (KQ)(y), and `q <= t*p` with P and Q exchanged: every ratio (KP)(y)/(KQ)(y) lies in [1/t, t] "
         "(q = 0 forces p = 0)"),
    step("[(eps,delta)-LDP Dobrushin bound] at `delta = 0`: `a - b <= (t - 1)/(t + 1)` for every pair of rows and "
         "set A ([A]'s tight eta_TV bound, the proved part of asoodeh2021.a07_phi_lemma); by " + TWO_POINT),
    step("Binette's inequality (the structural lemma '" + SL.BINETTE.name + "', its certificates carried by the "
         "outcome): `D_f(P1, Q1) <= (f(m)/(1 - m) + f(M)/(M - 1))*TV(P1, Q1)` when every ratio P1/Q1 lies in [m, M] "
         "and f is convex with f(1) = 0 (the claim's hypothesis), here with P1 = KP, Q1 = KQ, `m = 1/t`, `M = t` "
         "(t > 1); with step 2 (step certificate below) `D_f(K_P, K_Q) <= B*(t - 1)/(t + 1)*TV(P, Q)`, B the "
         "coefficient"),
    step("[B-7: the f-form coefficient is (t - 1)/(t + 1) times Binette's at (1/t, t)] "
         "`(t - 1)/(t + 1)*(f(1/t)/(1 - 1/t) + f(t)/(t - 1)) = (f(t) + t*f(1/t))/(t + 1)` for every f, so "
         "`D_f(K_P, K_Q) <= (f(t) + t*f(1/t))/(t + 1)*TV(P, Q)`; KL `log(t)*(t - 1)/(t + 1)`, H2 "
         "`2*(sqrt(t) - 1)**2/(t + 1)`, chi2 `(t - 1)**2/t`"),
    step("at `t = 1` the bound of step 2 is `a - b <= 0`, so KP = KQ and `D_f(K_P, K_Q) = f(1)`, which is 0, the "
         "coefficient at t = 1 (`(f(1) + f(1))/2 = 0`; the closed forms' values at t = 1 are certified)"),
)


def _f_form_proof(ctx):
    """The f form for every ε-LDP kernel, every N, M and t ≥ 1, with Binette's inequality the structural lemma."""
    from exactdp.algebra.certificates import check

    from exactdp.claim_statement import step_of

    # Binette's lemma is used at t > 1 (m = 1/t < 1 < t = M); t = 1 is the last step of the chain
    certs = tuple(c.states(step_of(CID), "t > 1") if c.name == binette_with_tv().name else c
                  for c in f_form_certificates())
    steps = F_FORM_CHAIN + tuple(marked(c.name, s) for c in certs for s in check(c).steps)
    return proved("D_f(KP||KQ) <= (f(t) + t f(1/t))/(t + 1) TV(P, Q) for every eps-LDP K and convex f with f(1) = 0, "
                  "every N, M, t >= 1: the ratio range, eta_TV <= (t - 1)/(t + 1) and Binette's inequality by "
                  "certificates", certs, SCOPE, derivation=steps)


register(Claim(
    id="background.b07_zamanlooy_asoodeh",
    written=(za_e_gamma_bound(CID), ldp_ratio_bound(CID), ldp_tv_eq13(CID), za_f_coefficients(CID)),
    catalogue=("B-7",),
    source=Source(ZAMANLOOY2023, "SDPI for LDP mechanisms"),
    title="Zamanlooy-Asoodeh non-multiplicative SDPIs for eps-LDP (E_gamma and f forms proved; all N, M)",
    statement=r"E_\gamma(K\circ P\|K\circ Q)\le\frac{(e^\varepsilon-\gamma)^+}{e^\varepsilon+1}\mathrm{TV}(P,Q),\quad D_f(K\circ P\|K\circ Q)\le\frac{f(e^\varepsilon)+e^\varepsilon f(e^{-\varepsilon})}{e^\varepsilon+1}\mathrm{TV}(P,Q)",
    hypotheses="`K` `eps`-LDP, `gamma >= 1`; `f` convex with `f(1) = 0`",
    checks=(Check("E_gamma proof", _e_gamma_proof, "certificates: the E_gamma form, all N, M"),
            Check("f form", _f_form_proof,
                  "ratio range [1/t, t], eta_TV <= (t - 1)/(t + 1) and Binette's inequality by certificates (all N, "
                  "M), the coefficient identities"),
            Check("random instances", _random, supporting=True), Check("tightness", _tight, supporting=True)),
    expected=Verdict.PROVED,
    reconstructed=True,
    kind="background",
    related=("background.b06_binette_instances", "background.b06_binette_specialisations",
             "asoodeh2021.a07_phi_lemma"),
    formulas=("E(gamma, K_P, K_Q) <= Max(exp(eps) - gamma, 0)/(exp(eps) + 1)*TV(P, Q)",
              "D_f(K_P, K_Q) <= (f(exp(eps)) + exp(eps)*f(exp(-eps)))/(exp(eps) + 1)*TV(P, Q)"),
    #: eps >= 0 and gamma >= 1 (docs/claims.md B-7): the certificates are filed under the claim there
    domain=("t >= 1", "gamma >= 1"),
))
