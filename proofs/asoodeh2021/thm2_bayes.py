"""The claim ``asoodeh2021.thm2_bayes``; its instance checks are in ``asoodeh2021/_bayes.py``, its proof's
certificates in :mod:`exactdp.theory.bayes_certificates` (Markov summand-wise, the event form of E_γ, the small-ball
bound, the strong data processing step with ψ₁ = δ from [A] Thm 1 and ψ_n = φⁿ from A-8, and the combination).
The statement is the catalogue's reconstruction (docs/claims.md A-14), so the verdict is for that statement."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory import bayes_certificates as BC
from exactdp.theory import e_gamma_certificates as EG
from exactdp.theory.discrete_bayes import discrete_thm2_bound
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step

from ._bayes import _validity
from .a08_tensorization import tensorization_certificates
from .._statements import bayes_risk


def proof_check(ctx):
    """R_B >= zeta [1 - e^eps L(zeta) - psi_n I_{e^eps}(theta; X^n)] for every finite problem and n, from certificates."""
    certs = tuple(dict.fromkeys((*BC.thm2_certificates(), *EG.contraction_certificates(),
                                 *tensorization_certificates())))
    return proved("R_B >= zeta [1 - e^eps L(zeta) - psi_n I_{e^eps}(theta; X^n)], psi_1 = delta, psi_n = phi^n, "
                  "every finite problem and n", certs, BC.SCOPE, derivation=(
                      step("Markov summand-wise: `R >= zeta*(1 - G)`, where R is the risk of the estimator and G the joint "
                           "probability of the event A that the loss is below zeta"),
                      step("event form of E_t (`t = exp(eps)`): `G <= t*G_0 + I_t`, where G_0 is the probability of "
                           "A under the product of the marginals, at most `L(zeta)`, and I_t the E_t-information "
                           "between the parameter and the n outputs"),
                      step("by homogeneity the E_t-information of the outputs is at most `eta_t(K_n)` times that "
                           "of the inputs; `eta_t(K) <= delta` ([A] Thm 1's certificates, n = 1) and "
                           "`eta_t(K_n) <= phi^n` for the n-fold product (A-8's certificates)"),
                      step("the combination (multipliers 1, `zeta`, `zeta*t` and `zeta`) gives the bound for every "
                           "deterministic estimator; randomized estimators are finite mixtures of them")))


register(Claim(
    written=(bayes_risk("asoodeh2021.thm2_bayes"),),
    id="asoodeh2021.thm2_bayes", domain=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"), catalogue=("A-14",),
    source=Source(ASOODEH2021, "Theorem 2", "§V", "6-7", "(17)"),
    title="Private Bayes risk lower bound via E_gamma (Theorem 2)",
    statement=r"R_B\ge\zeta\bigl[1-e^{\varepsilon}L(\zeta)-\psi_n I_{e^\varepsilon}(\theta;X^n)\bigr],"
              r"\ \psi_1=\delta,\ \psi_n=\varphi^n(\varepsilon,\delta)",
    hypotheses="non-interactive (`eps`, `delta`)-LDP mechanisms, nonnegative loss, `zeta > 0`",
    checks=(Check("proof", proof_check, "certificates: Markov, event form, SDPI, combination; every finite problem"),
            Check("discrete_validity", _validity(discrete_thm2_bound, "a14"), "exact R_B >= bound", supporting=True)),
    expected=Verdict.PROVED, reconstructed=True,
    related=("asoodeh2021.thm1", "asoodeh2021.a08_tensorization"),
    formulas=("R_B >= zeta*(1 - exp(eps)*L(zeta) - psi_n*I_gamma(theta, X_n))",
              "psi_1 = delta",
              "psi_n = phi_n(eps, delta)"),
))
