r"""F-G5 (docs/claims.md §6, G-22/G-25): Theorem 4 and the corollaries need P_X, Q_X ∈ Q_X(c).

Statement checked (and refuted): Corollary 1 without the hypothesis P_X, Q_X ∈ Q_X(c), i.e. for all inputs.
Witness:   the identity I_N is in M(−log c, c) (e^{C} = 1/c); for the point masses P = e₀, Q = e₁ the left
           side D(I P‖I Q) is +∞ while the right side Ξ·log((1−Nc)/c + 1)·1 is finite.
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures.divergences import kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import lemma4_gamma_max, xi


def _run(ctx):
    import sympy

    def test(x):
        N, c = x
        K = Kernel.identity(N)
        P, Q = Distribution.point(N, 0), Distribution.point(N, 1)
        g = pml_ratio(K, c)
        lhs = kl(K.apply(P), K.apply(Q))
        rhs = to_sympy(xi(g, c, N)) * sympy.log(to_sympy(lemma4_gamma_max(g, c, N))) * to_sympy(tv(P, Q))
        return decide_le(lhs, rhs), exact_data(N=N, c=c, K=K, P=P, Q=Q, e_eps=g, lhs=lhs, rhs=rhs)

    return check_instances([("identity, point masses", [(2, fmpq(1, 4)), (4, fmpq(1, 8))])], test,
                           claim="Corollary 1 for inputs outside Q_X(c)")


register(Claim(
    id="findings.fg05_missing_hypothesis",
    catalogue=("F-G5", "G-22", "G-25"),
    source=Source(GROSSE2026, "Theorem 4 / Corollary 1", section="IV"),
    title="Without P_X, Q_X in Q_X(c) Corollary 1 fails (identity, point masses: KL = inf)",
    statement=r"D(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\log\big((1-Nc)e^\varepsilon+1\big)\mathrm{TV}(P_X,Q_X)\ \ \forall P_X,Q_X",
    hypotheses="`K` in `M(eps, c)`; inputs unrestricted (the hypothesis missing from the stored display)",
    checks=(Check("identity witness", _run),),
    expected=Verdict.REFUTED,
    kind="finding",
    formulas=("D(K_P, K_Q) <= Xi(eps, c)*log((1 - N*c)*exp(eps) + 1)*TV(P, Q)",),
))
