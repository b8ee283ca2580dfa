"""The claim ``asoodeh2021.a10_le_cam``; its checks and instance families are in
``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._minimax import _le_cam_kl, _le_cam_tv
from ._phi_chain import PHI_STEP, TV_PRODUCTS, TV_PRODUCTS_STEP, phi_chain_check
from .._statements import phi_contraction

LE_CAM = "Le Cam's two-point method"

register(Claim(
    written=(phi_contraction("asoodeh2021.a10_le_cam"),),
    id="asoodeh2021.a10_le_cam", domain=("t >= 1", "delta >= 0", "delta <= 1"), catalogue=("A-10",),
    source=Source(ASOODEH2021, "Le Cam corollary (label unknown)", "§IV-A", "5"),
    title="Locally private Le Cam (TV and KL routes)",
    statement=r"\mathcal M_n\ge\frac{\Phi(t)}{2}\bigl(1-\min\{1,n\varphi(\varepsilon,\delta)\mathrm{TV}(P_1,P_2)\}\bigr)",
    hypotheses="`K` (`eps`, `delta`)-LDP (sequential or non-interactive); `rho(theta_1, theta_2) >= 2*t`",
    checks=(phi_chain_check((
                step(LE_CAM + ": `M_n >= Phi(t)/2*(1 - TV(M_1n, M_2n))` for a 2t-separated pair, with M_1n, M_2n the "
                     "laws of the n private samples"),
                step(TV_PRODUCTS_STEP + " (non-interactive: the laws are products of K P_1 and of K P_2)"),
                step("`TV(KP_1, KP_2) <= eta_tv(K)*TV(P_1, P_2)` (Dobrushin's two-point formula, "
                     "background.b01_dobrushin)"),
                PHI_STEP,
                step("KL route: `D(KP_1, KP_2) <= eta_kl(K)*D(P_1, P_2) <= eta_tv(K)*D(P_1, P_2)` "
                     "(background.b03_eta_f_le_eta_tv)")),
                ("background.b01_dobrushin", "background.b03_eta_f_le_eta_tv", LE_CAM, TV_PRODUCTS)),
            Check("tv_route", _le_cam_tv, "exact TV of n-fold products against the bound", supporting=True),
            Check("kl_route", _le_cam_kl, "certified KL contraction by phi", supporting=True)),
    expected=Verdict.PROVED_MODULO, reconstructed=True, kind="corollary",
    related=("background.b01_dobrushin", "background.b03_eta_f_le_eta_tv"),
    formulas=("M_n >= Phi(t)/2*(1 - Min(1, n*phi(eps, delta)*TV(P1, P2)))",),
))
