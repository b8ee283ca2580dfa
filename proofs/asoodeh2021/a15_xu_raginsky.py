"""The claim ``asoodeh2021.a15_xu_raginsky``; its checks and instance families are in
``asoodeh2021/_bayes.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory.discrete_bayes import discrete_xu_raginsky_bound
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._bayes import _validity
from ._phi_chain import PHI_STEP, SDPI_MI, SDPI_MI_STEP, phi_chain_check, phi_n_identity
from .._statements import phi_contraction

XU_RAGINSKY = "Xu-Raginsky [44, Thm 1]"

register(Claim(
    written=(phi_contraction("asoodeh2021.a15_xu_raginsky"),),
    id="asoodeh2021.a15_xu_raginsky", catalogue=("A-15", "F-A5"),
    domain=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"),
    source=Source(ASOODEH2021, "bound (15), private [44, Thm 1]", "§V", "6", "(15)"),
    title="Private Xu-Raginsky Bayes risk lower bound",
    statement=r"R_B\ge\sup_\zeta\zeta\Bigl[1-\frac{\varphi^n(\varepsilon,\delta)I(\theta;X^n)+\log2}{\log(1/L(\zeta))}\Bigr]",
    hypotheses="non-interactive (`eps`, `delta`)-LDP mechanisms",
    checks=(phi_chain_check((
                step(XU_RAGINSKY + ": `R_B >= zeta*(1 - (I(theta, Z_n) + log(2))/log(1/L(zeta)))`, Z_n the n private "
                     "outputs"),
                step(SDPI_MI_STEP + ", for the n-fold product kernel K_n: "
                     "`I(theta, Z_n) <= eta_kl(K_n)*I(theta, X_n)`"),
                step("`eta_kl(K_n) <= eta_tv(K_n)` (background.b03_eta_f_le_eta_tv)"),
                step("`eta_tv(K_n) <= phi(eps, delta)^n` (asoodeh2021.a08_tensorization)"), PHI_STEP),
                ("asoodeh2021.a08_tensorization", "background.b03_eta_f_le_eta_tv", SDPI_MI, XU_RAGINSKY),
                extra=(phi_n_identity,)),
            Check("discrete_validity", _validity(discrete_xu_raginsky_bound, "a15"), "certified R_B >= bound",
                  supporting=True),),
    expected=Verdict.PROVED_MODULO, reconstructed=True, kind="corollary",
    related=("asoodeh2021.a08_tensorization", "background.b03_eta_f_le_eta_tv"),
    formulas=("R_B >= zeta*(1 - (phi_n(eps, delta)*I(theta, X_n) + log(2))/log(1/L(zeta)))",),
))
