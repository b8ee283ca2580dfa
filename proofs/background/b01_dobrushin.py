r"""B-1: Dobrushin's two-point formula, η_TV(K) = max_{x,x'} TV(K_x, K_{x'}) (γ = 1 case of B-2).

Statement: sup_{P≠Q} TV(KP,KQ)/TV(P,Q) = max_{x,x'} TV(K_x,K_{x'}).
Checked:   an exact LP certificate (one LP per output set B) that
           TV(KP,KQ) ≤ t·TV(P,Q) for all P, Q with t = the two-point value, and attainment of t by the
           point masses at the maximizing pair, on random exact kernels up to 4×4 and edge cases; every LP
           is solved by the exact simplex of exactdp.algebra.lp and its primal/dual certificate re-checked.
Not shown: larger kernels (the LP count is 2^M per kernel).
"""

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_hockey_stick_witness
from exactdp.measures.divergences import hockey_stick
from exactdp.sources import Paper, Source
from exactdp.verification import instances as inst
from exactdp.verification.certificates import SOLVER, two_point_lp_certificate
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register

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


register(Claim(
    id="background.b01_dobrushin",
    catalogue=("B-1",),
    source=Source(DOBRUSHIN, "two-point formula"),
    title="Dobrushin's two-point formula, by exact LP certificate",
    statement=r"\eta_{TV}(K)=\sup_{P\ne Q}\frac{\mathrm{TV}(KP,KQ)}{\mathrm{TV}(P,Q)}=\max_{x,x'}\mathrm{TV}(K_x,K_{x'})",
    hypotheses="finite kernels",
    checks=(Check("LP certificate", lp_check((1,), "b1", (3, 10))),),
    expected=Verdict.VERIFIED,
    kind="background",
))
