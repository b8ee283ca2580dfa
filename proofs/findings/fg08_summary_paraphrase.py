r"""F-G8 (docs/claims.md §6, G-28): summary 002's paraphrase of Example 3.

Statement checked (and refuted): "the sample complexity coincides with the non-private one when the
           coefficient is 1", i.e. at Ξ = 1 Example 3's bound Ξ·log((1−4c)e^ε+1)·δ equals the non-private
           KL D(P_θ₀‖P_θ₁).
Witness:   N = 4, c = 1/8, K = I₄ (e^ε = 1/c = 8, Ξ = 1), P = (1/2, 1/4, 1/8, 1/8), Q = (1/4, 1/2, 1/8, 1/8):
           the bound is log(5)·(1/4) ≈ 0.402 but D(P‖Q) = log(2)/4 ≈ 0.173 (certified, not equal).  The factor
           is 1/[Ξ·log((1−4c)e^ε+1)], not 1/Ξ.
"""

import sympy
from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures.divergences import kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import sign, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import lemma4_gamma_max, xi


def _run(ctx):
    def test(x):
        P, Q = x
        N, c, K = 4, fmpq(1, 8), Kernel.identity(4)
        g = pml_ratio(K, c)
        bound = to_sympy(xi(g, c, N)) * sympy.log(to_sympy(lemma4_gamma_max(g, c, N))) * to_sympy(tv(P, Q))
        nonprivate = kl(P, Q)
        s = sign(to_sympy(bound) - to_sympy(nonprivate))
        from exactdp.numbers.truth import Truth
        truth = Truth.UNKNOWN if s is None else Truth.of(s == 0)
        return truth, exact_data(N=N, c=c, e_eps=g, Xi=xi(g, c, N), P=P, Q=Q, bound=bound, nonprivate_kl=nonprivate,
                                 bound_enclosure=enclosure(bound), kl_enclosure=enclosure(nonprivate))

    P = Distribution(["1/2", "1/4", "1/8", "1/8"])
    Q = Distribution(["1/4", "1/2", "1/8", "1/8"])
    return check_instances([("identity at Xi = 1", [(P, Q)])], test,
                           claim="at Xi = 1 the bound equals the non-private KL")


register(Claim(
    id="findings.fg08_summary_paraphrase",
    catalogue=("F-G8", "G-28"),
    source=Source(GROSSE2026, "Example 3 (summary 002 paraphrase)", section="IV"),
    title="Summary 002: 'equals the non-private sample complexity when the coefficient is 1' is wrong",
    statement=r"\Xi=1\Longrightarrow\Xi\log\big((1-4c)e^\varepsilon+1\big)\,\delta=D(P_{\theta_0}\|P_{\theta_1})",
    hypotheses="paraphrase of summary 002",
    checks=(Check("identity witness", _run),),
    expected=Verdict.REFUTED,
    kind="finding",
    formulas=("Xi = 1 ⟹ (Xi*log((1 - 4*c)*exp(eps) + 1)*delta = D(P_theta0, P_theta1))",),
))
