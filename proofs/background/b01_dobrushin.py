r"""B-1: Dobrushin's two-point formula, η_TV(K) = max_{x,x'} TV(K_x, K_{x'}) (γ = 1 case of B-2).

Statement: sup_{P≠Q} TV(KP,KQ)/TV(P,Q) = max_{x,x'} TV(K_x,K_{x'}).
Proved:    for all N, M as the case γ = 1 of [A] Thm 3 (TV = E_1): the certificates of
           :func:`exactdp.theory.e_gamma_certificates.thm3_certificates`, whose region t ≥ 1 contains t = 1
           (every kernel is (0, δ*)-LDP with δ* the two-point value, the E_1 contraction of [A] Thm 1 (⇒), and
           the point masses for the lower bound).
Supporting: an exact LP certificate (one LP per output set B) that
           TV(KP,KQ) ≤ t·TV(P,Q) for all P, Q with t = the two-point value, and attainment of t by the
           point masses at the maximizing pair, on random exact kernels up to 4×4 and edge cases; every LP
           is solved by the exact simplex of exactdp.algebra.lp and its primal/dual certificate re-checked.
Not shown: nothing within the statement.
"""

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_hockey_stick_witness
from exactdp.measures.divergences import hockey_stick
from exactdp.sources import Paper, Source
from exactdp.verification import instances as inst
from exactdp.verification.certificates import SOLVER, two_point_lp_certificate
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step
from .._statements import e_gamma_contraction, rows_bound

DOBRUSHIN = Paper("dobrushin1956", "R. L. Dobrushin", "Central limit theorem for nonstationary Markov chains",
                  "Theory Probab. Appl. 1956")


def lp_check(gammas, salt, count, value=lambda K, g: eta_hockey_stick_witness(K, g)[0]):
    """LP certificate that η_γ(K) ≤ value(K, γ) and attainment by point masses (value = two-point is the claim)."""

    def run(ctx):
        rng = ctx.rng(salt)

        def instances():
            ks = [inst.random_kernel(rng, 2 + k % 3, 2 + (k // 3) % 3, 8) for k in range(10 * ctx.size(*count))]
            ks += [inst.edge_kernels()[3], inst.edge_kernels()[4]]
            for k, K in enumerate(ks):
                yield K, gammas[k % len(gammas)]

        def test(x):
            K, g = x
            t = value(K, g)
            cert = two_point_lp_certificate(K, g, t)
            _, a, b = eta_hockey_stick_witness(K, g)
            attained = hockey_stick(K.apply(Distribution.point(K.N, a)), K.apply(Distribution.point(K.N, b)), g) == t
            return cert.value <= 0 and attained and cert.certified, exact_data(
                K=K, gamma=g, t=t, lp_max=cert.value, lp_output_set=list(cert.B), lp_P=list(cert.P),
                lp_Q=list(cert.Q), attained_by_point_masses=attained,
                dual_certificates_rechecked=cert.certified)

        return check_instances([("random kernels <= 4x4 and edge cases", instances())], test,
                               claim=f"exact LP [{SOLVER}]: E_gamma(KP||KQ) <= t E_gamma(P||Q) for all P, Q; "
                                     f"t attained")
    return run


def proof_check(ctx):
    """The case gamma = 1 of [A] Thm 3's certificates (all N, M)."""
    return proved("eta_TV(K) = max over pairs of rows of TV(K_x, K_x'), every N, M (gamma = 1 of [A] Thm 3)",
                  EG.thm3_certificates(), "all N, M; gamma = 1 (TV = E_1)", derivation=(
                      step("TV is E_1; the certificates of [A] Thm 3 hold where `t >= 1`, in particular at `t = 1`"),
                       step("(<=) K is (0, delta_star)-LDP with delta_star the largest `TV(K_x, K_xp)` over pairs "
                            "of rows (event form), and the E_1 contraction certificate gives "
                            "`TV(KP, KQ) <= delta_star*TV(P, Q)`"),
                       step("(>=) the point masses at distinct x, x' have total variation 1 and are mapped to the "
                            "rows, whose total variation is `TV(K_x, K_xp)`")))


register(Claim(
    written=(*e_gamma_contraction("background.b01_dobrushin"), rows_bound("background.b01_dobrushin")),
    id="background.b01_dobrushin",
    domain=("t >= 1",),
    catalogue=("B-1",),
    source=Source(DOBRUSHIN, "two-point formula"),
    title="Dobrushin's two-point formula (all N, M)",
    statement=r"\eta_{TV}(K)=\sup_{P\ne Q}\frac{\mathrm{TV}(KP,KQ)}{\mathrm{TV}(P,Q)}=\max_{x,x'}\mathrm{TV}(K_x,K_{x'})",
    hypotheses="finite kernels",
    checks=(Check("proof", proof_check, "[A] Thm 3's certificates at gamma = 1, all N, M"),
            Check("LP certificate", lp_check((1,), "b1", (3, 10)), supporting=True)),
    expected=Verdict.PROVED,
    kind="background",
    related=("asoodeh2021.thm3_two_point",),
    formulas=("eta_tv(K) = sup_TV_ratio(K)", "sup_TV_ratio(K) = max_TV_rows(K)"),
))
