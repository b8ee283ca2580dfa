"""The claim ``asoodeh2021.a12_fano``; its checks and instance families are in ``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._minimax import _fano

register(Claim(
    id="asoodeh2021.a12_fano", catalogue=("A-12",),
    source=Source(ASOODEH2021, "Fano corollary (label unknown)", "§IV-B", "5-6"),
    title="Locally private Fano (non-interactive)",
    statement=r"\mathcal M_n\ge\Phi(t)\Bigl(1-\frac{n\varphi(\varepsilon,\delta)I(V;X)+\log2}{\log|\mathcal V|}\Bigr)",
    hypotheses="non-interactive (eps,delta)-LDP K; 2t-separated family indexed by V",
    checks=(Check("mi_contraction", _fano, "certified I(V;Z) <= phi I(V;X)"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="corollary",
))
