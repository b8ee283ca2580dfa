r"""F-G4 (docs/claims.md §6, G-16): Theorem 2's "η_f = 1" is the unrestricted coefficient.

Statement: for N > 2 and f = KL, the Thm 2 witness W (rows (1,0), (0,1), the rest (½,½)) contracts strictly
           on inputs restricted to Q_X(c): D(WP‖WQ) < D(P‖Q) for P ≠ Q in Q_X(c) (while η_KL(W) = 1 over all
           inputs, attained on {x₁, x₂}).
Checked:   certified strict inequality on random pairs and on all vertex pairs of Q_X(c), N ∈ {3, 4, 5}.
Not shown: that the restricted supremum itself is < 1 (only sampled pairs, not the sup).
"""

from flint import fmpq

from exactdp.measures.divergences import kl
from exactdp.mechanisms import disjoint_rows_witness
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_lt
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def _run(ctx):
    rng = ctx.rng("fg4")

    def instances():
        for N in (3, 4, 5):
            for c in (fmpq(1, 2 * N), fmpq(1, 10 * N)):
                V = inst.prior_vertices(N, c)
                for i in range(N):
                    for j in range(N):
                        if i != j:
                            yield N, c, V[i], V[j]
                for _ in range(ctx.size(3, 20)):
                    P, Q = inst.random_prior_in_Q(rng, N, c), inst.random_prior_in_Q(rng, N, c)
                    if P != Q:
                        yield N, c, P, Q

    def test(x):
        N, c, P, Q = x
        W = disjoint_rows_witness(N)
        lhs, rhs = kl(W.apply(P), W.apply(Q)), kl(P, Q)
        return decide_lt(lhs, rhs), exact_data(N=N, c=c, P=P, Q=Q, lhs=enclosure(lhs), rhs=enclosure(rhs))

    return check_instances([("witness, pairs in Q_X(c)", instances())], test,
                           claim="KL strictly contracts on Q_X(c) for the Thm 2 witness")


register(Claim(
    id="findings.fg04_thm2_scope",
    catalogue=("F-G4", "G-16"),
    source=Source(GROSSE2026, "Theorem 2", section="III"),
    title="Thm 2's eta_f = 1 is unrestricted: on Q_X(c) the witness contracts KL strictly (sampled)",
    statement=r"D(W\circ P\|W\circ Q)<D(P\|Q)\quad(P\ne Q\in\mathcal Q_{\mathcal X}(c),\ N>2)",
    hypotheses="`N > 2`, `c < 1/N`",
    checks=(Check("certified strict contraction", _run),),
    expected=Verdict.VERIFIED,
    kind="finding",
    formulas=("D(W_P, W_Q) < D(P, Q)", "N > 2"),
))
