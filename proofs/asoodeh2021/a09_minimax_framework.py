"""The claim ``asoodeh2021.a09_minimax_framework``; its checks and instance families are in
``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register

register(Claim(
    id="asoodeh2021.a09_minimax_framework", catalogue=("A-9",),
    source=Source(ASOODEH2021, "private minimax risk (framework)", "§IV", "4-5"),
    title="Private minimax risk via Le Cam and Fano",
    statement=r"\mathcal M_n(\theta(\mathcal P),\Phi\circ\rho,\varepsilon,\delta)=\inf_{K\in\mathcal Q_{\varepsilon,\delta}}"
              r"\inf_\psi\sup_P\mathbb E\,\Phi(\rho(\psi(Z^n),\theta(P)))",
    hypotheses="framework description", kind="definition", expected=Verdict.NOT_CHECKABLE,
    checks=(Check("framework", lambda ctx: Outcome(Verdict.NOT_CHECKABLE, "framework",
                                                   reason="a description of the method, not a statement")),),
    formulas=("M_n(eps, delta) = inf_K_inf_psi_sup_P_risk(eps, delta)",),
))
