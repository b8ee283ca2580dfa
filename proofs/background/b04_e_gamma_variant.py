r"""Background B-4 / B-7 — the E_γ variant of the tight LDP coefficient (split from background.b04_tight_ldp).

Statement: sup over ε-LDP kernels of η_{E_γ} = (t − γ)₊/(t + 1) (the Zamanlooy–Asoodeh E_γ coefficient of
           B-7 is attained), and sup over (ε,δ)-LDP kernels of η_{E_t} = δ ([A] Thm 1: the class is exactly
           {η_{E_t} ≤ δ}, and the bound is attained).
Checked:   exact LP suprema with dual certificates (N, M ∈ {2, 3}) on a grid of rational t, γ, δ
           (``check_e_gamma`` of background.b04_tight_ldp).
Not shown: all N, M (no class certificate for E_γ yet); irrational t.
"""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from .b04_tight_ldp import check_e_gamma

register(Claim(
    id="background.b04_e_gamma_variant",
    catalogue=("B-4", "B-7"),
    source=Source(ASOODEH2021, "E_gamma variant of the tight LDP coefficient (docs/claims.md B-4, B-7)", section="III"),
    title="sup of eta_{E_gamma} over eps-LDP is (e^eps - gamma)_+/(e^eps + 1); over (eps,delta)-LDP eta_{E_t} = delta",
    statement=r"\sup_{K\ \varepsilon\text{-LDP}}\eta_{E_\gamma}(K)=\frac{(e^\varepsilon-\gamma)_+}{e^\varepsilon+1},\quad"
              r"\sup_{K\ (\varepsilon,\delta)\text{-LDP}}\eta_{E_{e^\varepsilon}}(K)=\delta",
    hypotheses="`eps >= 0`, `gamma >= 1`, `0 <= delta <= 1`",
    checks=(Check("e_gamma", check_e_gamma, "E_gamma variant: B-7 coefficient and [A] Thm 1 attained"),),
    expected=Verdict.VERIFIED,
    kind="background",
    related=("background.b04_tight_ldp",),
    formulas=("sup_eta_gamma(eps, gamma) = Max(exp(eps) - gamma, 0)/(exp(eps) + 1)",
              "sup_eta_gamma(eps, delta, exp(eps)) = delta"),
))
