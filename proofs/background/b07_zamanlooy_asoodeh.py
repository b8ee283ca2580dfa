r"""B-7 (Zamanlooy–Asoodeh ISIT 2023, [G] [38]): SDPIs for ε-LDP mechanisms — statements [RECON].

Statement ([RECON]): for ε-LDP K and γ ≥ 1,
           E_γ(KP‖KQ) ≤ (e^ε − γ)⁺/(e^ε + 1)·TV(P,Q),
           D_f(KP‖KQ) ≤ (f(e^ε) + e^ε f(e^{−ε}))/(e^ε + 1)·TV(P,Q)  (KL: ε(e^ε−1)/(e^ε+1); H²: 2(√e^ε−1)²/(e^ε+1)).
Proved:    the E_γ form for every N, M, t = e^ε ≥ 1 and γ ≥ 1, by the certificates of
           :mod:`exactdp.theory.ldp_sdpi_certificates` (P − Q split into positive and negative parts, the
           per-pair bound K_x(A) − γK_x′(A) ≤ (t − γ)₊/(t + 1) from ε-LDP on A and its complement in the two
           cases γ ≤ t and γ ≥ t, summed over pairs weighted by the parts), filed under this claim's statement on
           its domain t ≥ 1, γ ≥ 1 (``Claim.domain``).  The claim stays "verified" with the scope "proved for
           all N, M; ... (the E_gamma form); instances beyond".
Checked:   random full-support kernels with e^ε = ldp_ratio(K) (rational): the E_γ form exactly for random
           rational γ, the KL and H² forms certified; tightness of both at binary randomized response with
           point-mass inputs (exact equality).
Not shown: the f-divergence form for all kernels (it rests on Binette's inequality, B-6, verified only); the
           original statements (not stored), other f.
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.divergences import hellinger2, hockey_stick, kl, tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import binary_randomized_response
from exactdp.sources import ZAMANLOOY2023, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, sign, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory.ldp_sdpi_certificates import e_gamma_form_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.formulas import H2_F, KL_F, za_hockey_stick_coefficient


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

    def test(x):
        name, K, P, Q, g = x
        E, d = ldp_ratio(K), tv(P, Q)
        KP, KQ = K.apply(P), K.apply(Q)
        if name == "E_gamma":
            lhs, rhs = hockey_stick(KP, KQ, g), za_hockey_stick_coefficient(E, g) * d
        elif name == "KL":
            lhs, rhs = kl(KP, KQ), f_coefficient(KL_F, E) * to_sympy(d)
        else:
            lhs, rhs = hellinger2(KP, KQ), f_coefficient(H2_F, E) * to_sympy(d)
        return decide_le(lhs, rhs), exact_data(form=name, K=K, P=P, Q=Q, gamma=g, e_eps=E, lhs=lhs, rhs=rhs,
                                               lhs_enclosure=enclosure(lhs), rhs_enclosure=enclosure(rhs))

    return check_instances([("random eps-LDP kernels x pairs x {E_gamma, KL, H2}", instances())], test,
                           claim="Zamanlooy-Asoodeh bounds")


def _tight(ctx):
    def test(E):
        K = binary_randomized_response(E)
        P, Q = Distribution.point(2, 0), Distribution.point(2, 1)
        KP, KQ = K.apply(P), K.apply(Q)
        ok = all(hockey_stick(KP, KQ, g) == za_hockey_stick_coefficient(E, g) for g in (fmpq(1), (1 + E) / 2, E))
        ok = ok and sign(kl(KP, KQ) - f_coefficient(KL_F, E)) == 0
        ok = ok and sign(to_sympy(hellinger2(KP, KQ)) - f_coefficient(H2_F, E)) == 0
        return ok, exact_data(e_eps=E)

    return check_instances([("binary RR, point masses", [fmpq(2), fmpq(3), fmpq(9, 4), fmpq(10)])], test,
                           claim="equality at binary randomized response")


def _e_gamma_proof(ctx):
    """The E_γ form for every ε-LDP kernel, every N, M, t ≥ 1 and γ ≥ 1, from the certificates."""
    return proved("E_gamma(KP||KQ) <= (t - gamma)_+/(t + 1) TV(P, Q) for every eps-LDP K, every N, M, t >= 1, "
                  "gamma >= 1", e_gamma_form_certificates(), "all N, M; t >= 1, gamma >= 1 (the E_gamma form)")


register(Claim(
    id="background.b07_zamanlooy_asoodeh",
    catalogue=("B-7",),
    source=Source(ZAMANLOOY2023, "SDPI for LDP mechanisms"),
    title="Zamanlooy-Asoodeh non-multiplicative SDPIs for eps-LDP (E_gamma form proved, all N, M; KL, H2 certified)",
    statement=r"E_\gamma(K\circ P\|K\circ Q)\le\frac{(e^\varepsilon-\gamma)^+}{e^\varepsilon+1}\mathrm{TV}(P,Q),\quad D_f(K\circ P\|K\circ Q)\le\frac{f(e^\varepsilon)+e^\varepsilon f(e^{-\varepsilon})}{e^\varepsilon+1}\mathrm{TV}(P,Q)",
    hypotheses="`K` `eps`-LDP, `gamma >= 1`",
    checks=(Check("E_gamma proof", _e_gamma_proof, "certificates: the E_gamma form, all N, M"),
            Check("random instances", _random), Check("tightness", _tight)),
    expected=Verdict.VERIFIED,
    reconstructed=True,
    kind="background",
    formulas=("E(gamma, K_P, K_Q) <= Max(exp(eps) - gamma, 0)/(exp(eps) + 1)*TV(P, Q)",
              "D_f(K_P, K_Q) <= (f(exp(eps)) + exp(eps)*f(exp(-eps)))/(exp(eps) + 1)*TV(P, Q)"),
    #: eps >= 0 and gamma >= 1 (docs/claims.md B-7): the E_gamma certificates are filed under the claim there
    domain=("t >= 1", "gamma >= 1"),
))
