r"""F-G7 (docs/claims.md §6, G-14, D-3): at c = 1/N, Q_X(c) = {uniform} and the restricted coefficient is undefined.

Statement checked (and refuted): Lemma 2 as stated for c ∈ (0, 1/N]: η_TV^{Q_X(c)}(K) = η_TV(K).
Witness:   c = 1/N: every vertex c𝟙 + (1 − Nc)e_x of Q_X(1/N) is the uniform distribution, so no pair
           P ≠ Q exists and the restricted coefficient is a sup over the empty set, while η_TV(I_N) = 1.
           With c < 1/N the statement holds (grosse2026.lem2).
"""

from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.measures.contraction import eta_tv
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    def test(x):
        N, c = x
        distinct = {tuple(str(v) for v in P.probs) for P in inst.prior_vertices(N, c)}
        return len(distinct) >= 2, exact_data(N=N, c=c, distinct_points_of_Q_X_c=len(distinct),
                                              eta_tv_identity=eta_tv(Kernel.identity(N)),
                                              restricted_coefficient="sup over the empty set (undefined)")

    return check_instances([("c < 1/N and c = 1/N", [(3, fmpq(1, 4)), (2, fmpq(1, 3)), (2, fmpq(1, 2)),
                                                     (4, fmpq(1, 4))])], test,
                           claim="Q_X(c) has two distinct points, so eta^{Q_X(c)} is defined")


register(Claim(
    id="findings.fg07_degenerate_c",
    catalogue=("F-G7", "G-14", "D-3"),
    source=Source(GROSSE2026, "Lemma 2 / Definition 3", section="III"),
    title="At c = 1/N the restricted coefficient of Lemma 2 / Def. 3 is a sup over the empty set",
    statement=r"\eta_{TV}^{\mathcal Q_{\mathcal X}(c)}(K)=\eta_{TV}(K)\ \ \text{for } c\in(0,1/N]",
    hypotheses="as stated, including `c = 1/N`",
    checks=(Check("Q_X(1/N) is a singleton", _run),),
    expected=Verdict.REFUTED,
    kind="finding",
    related=("grosse2026.lem2",),
    formulas=("eta_tv_Q(K, c) = eta_tv(K)", "0 < c <= 1/N"),
))
