r"""D-15 ([A] §IV–VI): private minimax risk, private Bayes risk, small-ball probability, β_n^{ε,δ}(α).

Statement ([RECON]): 𝓜_n = inf_{K∈Q_{ε,δ}} inf_ψ sup_P E[Φ(ρ(ψ(Zⁿ), θ(P)))], R_B = inf_K inf_ψ E[ℓ(θ, ψ(Zⁿ))], ...
Checked:   nothing: these are operational definitions over all estimators and mechanisms (class X).  The
           bounds built on them are checked by the estimation module's claims (A-9 ... A-19).
"""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.checking import not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register

register(Claim(
    id="background.d15_risks",
    catalogue=("D-15",),
    source=Source(ASOODEH2021, "risk definitions", section="IV-VI"),
    title="Private minimax and Bayes risks (definitions)",
    statement=r"\mathcal M_n=\inf_{K\in\mathcal Q_{\varepsilon,\delta}}\inf_\psi\sup_{P\in\mathcal P}\mathbb E[\Phi(\rho(\psi(Z^n),\theta(P)))]",
    hypotheses="reconstruction",
    checks=(Check("definition", lambda ctx: not_checkable(
        "operational definitions over all estimators and mechanisms (class X); their formulas are "
        "reconstructed; bounds using them are checked in the estimation claims")),),
    expected=Verdict.NOT_CHECKABLE,
    reconstructed=True,
    kind="definition",
    formulas=("M_n = inf_K_inf_psi_sup_P_risk(eps, delta)",),
))
