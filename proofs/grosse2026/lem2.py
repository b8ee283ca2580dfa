r"""[G] Lemma 2 (G-14): the restriction to Q_X(c) does not change the Dobrushin coefficient.

Statement: for K ∈ M(ε,c), η_TV^{Q_X(c)}(K) = η_TV(K) (eq. (8)), with the hypothesis c < 1/N added
           (at c = 1/N the left side is a sup over the empty set: findings.fg07_degenerate_c).
Proved:    for all N ≥ 2, M ≥ 2, every kernel K and 0 < c < 1/N (``proof``): the statement certificate
           :func:`exactdp.theory.class_certificates.lemma2_statements` — P, Q = U ± (s/2)(e_x − e_{x′}),
           s = 1/N − c > 0, lie in Q_X(c) and TV(P, Q) = s; KP − KQ = s(K_x − K_{x′}) (linearity), so their
           ratio is TV(K_x, K_{x′}) for every pair and the restricted sup is ≥ max_{x,x′} TV(K_x, K_{x′});
           that maximum is η_TV(K) (class_certificates.TWO_POINT), and the restricted sup is ≤ η_TV(K) (a sup
           over fewer pairs).
Supporting: exactly, for random kernels and c < 1/N: the pair P, Q = U ± (1/N − c)(e_x − e_{x'}) lies in
           Q_X(c) and its TV ratio equals η_TV(K) (x, x' the maximizing pair); random pairs in Q_X(c) never
           exceed η_TV(K).
Not shown: —
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv_witness
from exactdp.measures.divergences import tv
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.verification.quantities import lemma2_pair
from exactdp.numbers.formula_text import written_step as step
from .._cited_steps import TWO_POINT
from .._statements import restricted_pair


def proof_check(ctx):
    """eta_TV restricted to Q_X(c) equals eta_TV for c < 1/N: an explicit pair in Q_X(c) for every x, x'."""
    cert = class_certificates.lemma2_statements()
    return proved("for c < 1/N and every kernel, the pair U +- (1/N - c)(e_x - e_x')/2 lies in Q_X(c) and attains "
                  "TV(K_x, K_x'); so the restricted coefficient equals eta_TV(K)", (cert,), class_certificates.ALL_N_M, derivation=(
                      step("[[G] Lemma 2 pair in Q_X(c)] `s = 1/N - c`, positive; `P(xp) = 1/N - s/2` and `Q(x) = 1/N - s/2`, at least c, the other "
                           "entries `1/N >= c`, P sums to 1, `TV(P, Q) = s`"),
                      step("by linearity `K*P - K*Q = s*(K_x - K_xp)`, so "
                           "`TV(K*P, K*Q)/TV(P, Q) = TV(K_x, K_xp)`"),
                      step("the restricted supremum is therefore at least the largest `TV(K_x, K_xp)`, which is "
                           "`eta_tv(K)` (" + TWO_POINT + "), and at most `eta_tv(K)` as a "
                           "supremum over a subset of pairs")))


def _run(ctx):
    rng = ctx.rng("lem2")

    def test(k):
        N = 2 + k % 4
        K = inst.random_kernel(rng, N, 2 + k % 3) if k % 2 else inst.random_kernel_with_zeros(rng, N, 2 + k % 3)
        c = inst.random_rational(rng, fmpq(1, 60), fmpq(1, N) - fmpq(1, 100 * N), 100)
        eta, x, x2 = eta_tv_witness(K)
        P, Q = lemma2_pair(N, c, x, x2)
        ratio = tv(K.apply(P), K.apply(Q)) / tv(P, Q)
        ok = min(P.probs) >= c and min(Q.probs) >= c and ratio == eta
        for _ in range(3):
            A, B = inst.random_prior_in_Q(rng, N, c), inst.random_prior_in_Q(rng, N, c)
            if tv(A, B) > 0 and tv(K.apply(A), K.apply(B)) > eta * tv(A, B):
                return False, exact_data(K=K, c=c, P=A, Q=B, eta_tv=eta)
        return ok, exact_data(K=K, c=c, P=P, Q=Q, ratio=ratio, eta_tv=eta)

    return check_instances([("random kernels, 0 < c < 1/N", range(ctx.size(30, 300)))], test,
                           claim="restricted TV ratio attains eta_TV(K) inside Q_X(c)")


register(Claim(
    written=(restricted_pair("grosse2026.lem2"),),
    id="grosse2026.lem2",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-14",),
    source=Source(GROSSE2026, "Lemma 2", section="III", equation="8"),
    title="Lemma 2: restricting inputs to Q_X(c) keeps eta_TV (c < 1/N)",
    statement=r"\eta_{TV}^{\mathcal Q_{\mathcal X}(c)}(K)=\eta_{TV}(K)\qquad(c<1/N)",
    hypotheses="`K` in `M(eps, c)`, `0 < c < 1/N` (hypothesis `c < 1/N` added, F-G7)",
    checks=(Check("proof", proof_check, "explicit attaining pair in Q_X(c), all N, M"),
            Check("attaining pair inside Q_X(c)", _run, supporting=True)),
    expected=Verdict.PROVED,
    kind="lemma",
    related=("findings.fg07_degenerate_c",),
    formulas=("eta_tv_Q(K, c) = eta_tv(K)", "c < 1/N"),
))
