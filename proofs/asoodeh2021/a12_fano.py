"""The claim ``asoodeh2021.a12_fano``; its checks and instance families are in ``asoodeh2021/_minimax.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._minimax import _fano
from ._phi_chain import PHI_STEP, SDPI_MI, SDPI_MI_STEP, phi_chain_check
from .._statements import phi_contraction

FANO = "Fano's method"

register(Claim(
    written=(phi_contraction("asoodeh2021.a12_fano"),),
    id="asoodeh2021.a12_fano", domain=("t >= 1", "delta >= 0", "delta <= 1"), catalogue=("A-12",),
    source=Source(ASOODEH2021, "Fano corollary (label unknown)", "§IV-B", "5-6"),
    title="Locally private Fano (non-interactive)",
    statement=r"\mathcal M_n\ge\Phi(t)\Bigl(1-\frac{n\varphi(\varepsilon,\delta)I(V;X)+\log2}{\log|\mathcal V|}\Bigr)",
    hypotheses="non-interactive (`eps`, `delta`)-LDP `K`; `2*t`-separated family indexed by `V`",
    checks=(phi_chain_check((
                step(FANO + ": `M_n >= Phi(t)*(1 - (I(V, Z_n) + log(2))/log(V_size))` for a 2t-separated family of "
                     "V_size members, Z_n the n private outputs"),
                step("non-interactive: the outputs are independent given V, so I(V, Z_n) is at most the sum of the "
                     "single outputs' `I(V, Z_i)`"),
                step(SDPI_MI_STEP), step("`eta_kl(K) <= eta_tv(K)` (background.b03_eta_f_le_eta_tv)"), PHI_STEP),
                ("background.b03_eta_f_le_eta_tv", SDPI_MI, FANO)),
            Check("mi_contraction", _fano, "certified I(V;Z) <= phi I(V;X)", supporting=True),),
    expected=Verdict.PROVED_MODULO, reconstructed=True, kind="corollary",
    related=("background.b03_eta_f_le_eta_tv",),
    formulas=("M_n >= Phi(t)*(1 - (n*phi(eps, delta)*I(V, X) + log(2))/log(card_V))",),
))
