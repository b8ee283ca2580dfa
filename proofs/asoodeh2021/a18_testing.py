"""The claim ``asoodeh2021.a18_testing``; its checks and instance families are in
``asoodeh2021/_testing_mi.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._phi_chain import PHI_STEP, phi_chain_check
from ._testing_mi import _testing
from .._statements import phi_contraction

CONVERSE = "the testing converse (data processing)"
KL_ADDITIVE = "KL additivity over product measures"

register(Claim(
    written=(phi_contraction("asoodeh2021.a18_testing"),),
    id="asoodeh2021.a18_testing", domain=("t >= 1", "delta >= 0", "delta <= 1"), catalogue=("A-18", "F-A9"),
    source=Source(ASOODEH2021, "testing corollary (label unknown)", "§VI", "8"),
    title="Private hypothesis testing: phi(eps,delta) n is the effective sample size",
    statement=r"-\log\beta_n^{\varepsilon,\delta}(\alpha)\le\frac{n\varphi(\varepsilon,\delta)D(P_0\|P_1)+\log2}{1-\alpha}",
    hypotheses="non-interactive (`eps`, `delta`)-LDP mechanisms, type-I error at most `alpha`, `alpha < 1`",
    checks=(phi_chain_check((
                step(CONVERSE + ": `-log(beta_n(alpha)) <= (D(Q_0, Q_1) + log(2))/(1 - alpha)`, with Q_i the n-fold "
                     "product of K P_i for non-interactive mechanisms"),
                step(KL_ADDITIVE + ": `D(Q_0n, Q_1n) = n*D(Q_0, Q_1)` for the n-fold products Q_0n, Q_1n"),
                step("`D(KP_0, KP_1) <= eta_kl(K)*D(P_0, P_1) <= eta_tv(K)*D(P_0, P_1)` "
                     "(background.b03_eta_f_le_eta_tv)"), PHI_STEP),
                ("background.b03_eta_f_le_eta_tv", CONVERSE, KL_ADDITIVE)),
            Check("exact_neyman_pearson", _testing, "exact beta_n, certified comparison", supporting=True),),
    expected=Verdict.PROVED_MODULO, reconstructed=True, kind="corollary",
    related=("background.b03_eta_f_le_eta_tv",),
    formulas=("-log(beta_n(alpha, eps, delta)) <= (n*phi(eps, delta)*D(P0, P1) + log(2))/(1 - alpha)",),
))
