r"""D-14 ([A] appendix, Bayes proof): E_γ-information and its data-processing inequalities.

Statement ([RECON]): I_γ(θ;X) = E_γ(P_{θX} ‖ P_θ⊗P_X); along θ → X → Z (Z ~ K(·|X)),
           I_γ(θ;Z) ≤ I_γ(θ;X) (DPI) and I_γ(θ;Z) ≤ η_γ(K)·I_γ(θ;X) (SDPI with the E_γ coefficient).
Checked:   exactly, on random joint distributions of (θ, X) on small alphabets, random kernels K and
           rational γ ≥ 1: both inequalities with η_γ(K) = max_{x,x'} E_γ(K_x‖K_{x'}).
Not shown: continuous θ; the statement itself is a reconstruction (not printed in the stored text).
"""


from exactdp.measures.contraction import eta_hockey_stick
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import e_gamma_information, push_joint


def _dpi(ctx):
    rng = ctx.rng("d14")

    def test(k):
        T, X = 2 + k % 2, 2 + k % 3
        flat = inst.random_distribution(rng, T * X, 24).probs
        joint = [list(flat[a * X:(a + 1) * X]) for a in range(T)]
        K = inst.random_kernel(rng, X, 2 + k % 3)
        g = inst.random_rational(rng, 1, 3, 4)
        ix, iz, eta = e_gamma_information(joint, g), e_gamma_information(push_joint(joint, K), g), eta_hockey_stick(K, g)
        return iz <= ix and iz <= eta * ix, exact_data(joint=joint, K=K, gamma=g, I_X=ix, I_Z=iz, eta_gamma=eta)

    return check_instances([("random joints, kernels, gamma in [1,3]", range(ctx.size(30, 300)))], test,
                           claim="I_gamma(theta;Z) <= eta_gamma(K) I_gamma(theta;X) <= I_gamma(theta;X)")


register(Claim(
    id="background.d14_e_gamma_information",
    catalogue=("D-14",),
    source=Source(ASOODEH2021, "E_gamma-information (Bayes proof)", section="appendix", page="15-16"),
    title="E_gamma-information: DPI and SDPI with eta_gamma",
    statement=r"I_\gamma(\theta;Z)\le\eta_\gamma(P_{Z|X})\,I_\gamma(\theta;X)\le I_\gamma(\theta;X),\qquad I_\gamma(\theta;X)=E_\gamma(P_{\theta X}\|P_\theta\otimes P_X)",
    hypotheses="the Markov chain of `theta`, `X` and `Z`, `gamma >= 1`, finite alphabets",
    checks=(Check("DPI and SDPI", _dpi),),
    expected=Verdict.VERIFIED,
    reconstructed=True,
    kind="definition",
    formulas=("I_gamma(theta, Z) <= eta_gamma(P_ZX)*I_gamma(theta, X)",
              "eta_gamma(P_ZX)*I_gamma(theta, X) <= I_gamma(theta, X)",
              "I_gamma(theta, X) = E(gamma, P_thetaX, P_theta_P_X)"),
))
