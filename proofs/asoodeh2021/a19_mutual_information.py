"""The claim ``asoodeh2021.a19_mutual_information``; its checks and instance families are in
``asoodeh2021/_testing_mi.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._phi_chain import PHI_STEP, SDPI_MI, SDPI_MI_STEP, phi_chain_check
from ._testing_mi import _mi
from .._statements import phi_contraction

register(Claim(
    written=(phi_contraction("asoodeh2021.a19_mutual_information"),),
    id="asoodeh2021.a19_mutual_information", catalogue=("A-19",),
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    source=Source(ASOODEH2021, "MI bound (label unknown)", "§VII", "9"),
    title="Mutual information of (eps,delta)-LDP mechanisms",
    statement=r"\sup_{K\in\mathcal Q_{\varepsilon,\delta}}I(X;Z)\le\varphi(\varepsilon,\delta)H(X)",
    hypotheses="discrete `X`, `eps >= 0`, `0 <= delta <= 1`",
    checks=(phi_chain_check((
        step(SDPI_MI_STEP + ", with U = X: `I(X, Z) <= eta_kl(K)*I(X, X)` and `I(X, X) = H(X)`"),
                step("`eta_kl(K) <= eta_tv(K)` (background.b03_eta_f_le_eta_tv)"), PHI_STEP),
                ("background.b03_eta_f_le_eta_tv", SDPI_MI)),
            Check("instances", _mi, "certified on RR, optimal binary and random kernels", supporting=True),),
    expected=Verdict.PROVED_MODULO, reconstructed=True, kind="corollary",
    related=("background.b03_eta_f_le_eta_tv",),
    formulas=("sup_I(X, Z) <= phi(eps, delta)*H(X)",),
))
