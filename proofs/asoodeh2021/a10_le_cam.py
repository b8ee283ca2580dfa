"""The claim ``asoodeh2021.a10_le_cam``; its checks and instance families are in
``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._minimax import _le_cam_kl, _le_cam_tv

register(Claim(
    id="asoodeh2021.a10_le_cam", catalogue=("A-10",),
    source=Source(ASOODEH2021, "Le Cam corollary (label unknown)", "§IV-A", "5"),
    title="Locally private Le Cam (TV and KL routes)",
    statement=r"\mathcal M_n\ge\frac{\Phi(t)}{2}\bigl(1-\min\{1,n\varphi(\varepsilon,\delta)\mathrm{TV}(P_1,P_2)\}\bigr)",
    hypotheses="K (eps,delta)-LDP (sequential or non-interactive); rho(theta1,theta2) >= 2t",
    checks=(Check("tv_route", _le_cam_tv, "exact TV of n-fold products against the bound"),
            Check("kl_route", _le_cam_kl, "certified KL contraction by phi")),
    expected=Verdict.VERIFIED, reconstructed=True, kind="corollary",
))
