r"""[G] Theorem 2 (G-16): no contraction for ε ≥ log(2/(Nc)), with a disjoint-rows witness; converse.

Statement: ε ≥ log(2/(Nc)) ⟹ sup_{K∈M(ε,c)} η_f(K) = 1 for every f, attained by a K with two rows of
           disjoint support.  Converse ([DERIVED]): for ε < log(2/(Nc)) no K ∈ M(ε,c) has two disjoint rows.
Proved:    for all N ≥ 2, M ≥ 2, real t ≥ 1, 0 < c ≤ 1/N (``proof``):
           * witness — the statement certificate
             :func:`exactdp.theory.class_certificates.disjoint_rows_witness_statements`: the kernel with rows
             (1,0), (0,1) and (½,½) has column sums N/2 and satisfies every (ε,c)-PML constraint
             K(y|x) ≤ t(c N/2 + (1−Nc)K(y|x₀)) exactly when t·Nc ≥ 2; its rows x₁, x₂ are disjoint, so
             η_TV = 1, and on inputs supported on {x₁, x₂} it relabels them, so D_f(KP‖KQ) = D_f(P‖Q);
           * converse — the Farkas certificate ``pml_tv`` gives K_x(A) − K_{x′}(A) ≤ (t−1)/(t(1−Nc)+1), which
             is < 1 when t·Nc < 2 (``xi_statements``); two disjoint rows have K_x(A) − K_{x′}(A) = 1 for
             A = supp K_x, so they are impossible there.
           η_f ≤ 1 for f ≠ TV is the data-processing inequality (cited): for every f the verdict is proved
           modulo it (``every_f``); for TV, η_TV ≤ 1 is the certificate ``trivial_tv``.
Supporting: witness (rows (1,0), (0,1), the rest (½,½)) for N = 2..7 and a grid of c: its PML ratio is exactly
           2/(Nc), η_TV = 1, and on inputs supported on {x₁, x₂} it is a bijection (K∘P = P exactly, so
           D_f(KP‖KQ) = D_f(P‖Q) for every f); converse: random kernels with two disjoint rows (any M) and
           random c have PML ratio ≥ 2/(Nc), i.e. they are in M(ε,c) only when e^ε ≥ 2/(Nc) — the
           inequality is tight at the witness, so the threshold cannot be made non-strict.
           Derivation of the converse: merge outputs to the support of row x₁ (post-processing keeps
           M(ε,c)); the binary constraints give 1 ≤ e^ε c S₀ and 1 ≤ e^ε c S₁ with S₀ + S₁ = N.
Not shown: the restricted η_f^{Q_X(c)} (f ≠ TV) of the witness is < 1 (findings.fg04_thm2_scope).
"""

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import disjoint_rows_witness
from exactdp.numbers.formula_text import written_step as step
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from .._statements import pml_disjoint_rows, pml_pair_bound, tv_at_most_one, xi_regimes

CS = (fmpq(1, 2), fmpq(1, 3), fmpq(1, 4), fmpq(1, 7), fmpq(1, 10), fmpq(1, 50))


def _witness(ctx):
    def instances():
        for N in range(2, 8):
            for c in CS:
                if c <= fmpq(1, N):
                    yield N, c

    def test(x):
        N, c = x
        W = disjoint_rows_witness(N)
        r = pml_ratio(W, c)
        P = Distribution([fmpq(1, 3), fmpq(2, 3)] + [0] * (N - 2))
        bij = W.apply(P).probs == (fmpq(1, 3), fmpq(2, 3))
        return r == 2 / (N * c) and eta_tv(W) == 1 and bij, exact_data(N=N, c=c, pml_ratio=r, threshold=2 / (N * c))

    return check_instances([("witness, N = 2..7, c grid", instances())], test,
                           claim="witness is in M(log 2/(Nc), c) with eta = 1 and bijective on {x1, x2}")


def proof_check(ctx):
    """sup eta_TV = 1 for t Nc >= 2 (witness) and no disjoint rows for t Nc < 2 (converse), all N, M."""
    cc = class_certificates
    certs = (cc.disjoint_rows_witness_statements(), cc.trivial_tv(), cc.pml_tv(), cc.xi_statements())
    return proved("t Nc >= 2: the disjoint-rows witness is in M(eps,c) and has eta_TV = 1 (the maximum); t Nc < 2: "
                  "no kernel of M(eps,c) has two disjoint rows", certs, class_certificates.ALL_N_M,
                  derivation=(
                      step("[Thm 2 disjoint-rows witness] column sums `N/2`; every PML constraint holds iff "
                           "`t*N*c >= 2`"),
                      step("the witness's rows x1 = (1, 0) and x2 = (0, 1) have total variation 1, so "
                           "`eta_tv(K) = 1`; [eta_TV <= 1] bounds every kernel, so the supremum over TV is 1 and "
                           "attained"),
                      step("[(eps,c)-PML Dobrushin bound] `K_x(A) - K_xp(A) <= (t-1)/(t*(1-N*c)+1)` for every "
                           "kernel of the class; [Xi and the Theorem 3 regime] that is below 1 when `t*N*c < 2`"),
                      step("two disjoint rows give `K_x(A) - K_xp(A) = 1` with A the support of K_x: impossible "
                           "when `t*N*c < 2`")))


def every_f_check(ctx):
    """sup eta_f = 1 for every f: the witness relabels {x1, x2} (eta_f >= 1); eta_f <= 1 is the DPI (cited)."""
    cert = class_certificates.disjoint_rows_witness_statements()
    return proved("t Nc >= 2: for every f, eta_f of the witness is 1 (it relabels inputs x1, x2), and eta_f <= 1 "
                  "by the data-processing inequality", (cert,), class_certificates.ALL_N_M,
                  rests_on=(DPI,), derivation=(
                      step("[Thm 2 disjoint-rows witness] the witness is in M(eps,c) for `t*N*c >= 2`"),
                      step("for P, Q supported on {x1, x2} the witness copies P and Q (its rows x1, x2 are disjoint "
                           "point masses), so `D_f(K*P, K*Q) = D_f(P, Q)` and `eta_f(K) >= 1`"),
                      step(f"`eta_f(K) <= 1` for every K and f: {DPI} (cited, not proved here)")))


#: the cited theorem the every-f part rests on
DPI = "data-processing inequality for f-divergences (Csiszar 1967)"


def converse_check(strict: bool = True):
    """Kernels with two disjoint rows have PML ratio ≥ 2/(Nc) (strict=True: the theorem's ε < threshold);
    ``strict=False`` is the wrong variant "≤ threshold also excludes them" (ratio > 2/(Nc))."""

    def run(ctx):
        rng = ctx.rng("thm2c")

        def instances():
            for k in range(ctx.size(30, 300)):
                N = 2 + k % 5
                K = inst.random_kernel_with_disjoint_rows(rng, N, 2 + k % 4)
                yield K, inst.random_rational(rng, fmpq(1, 40), fmpq(1, N), 40)
            for N in (2, 3, 5):  # the tight point: the witness itself
                yield disjoint_rows_witness(N), fmpq(1, 2 * N)

        def test(x):
            K, c = x
            r, t = pml_ratio(K, c), 2 / (K.N * c)
            return (r >= t) if strict else (r > t), exact_data(K=K, c=c, pml_ratio=r, threshold=t)

        return check_instances([("kernels with two disjoint rows, and the witness", instances())], test,
                               claim="two disjoint rows force e^eps >= 2/(Nc)")
    return run


register(Claim(
    written=(pml_disjoint_rows("grosse2026.thm2"), tv_at_most_one("grosse2026.thm2"), pml_pair_bound("grosse2026.thm2"), xi_regimes("grosse2026.thm2")),
    id="grosse2026.thm2",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-16",),
    source=Source(GROSSE2026, "Theorem 2", section="III"),
    title="Theorem 2: eta_f = 1 for eps >= log(2/(Nc)); witness and converse",
    statement=r"\varepsilon\ge\log\frac{2}{Nc}\Longrightarrow\sup_{K\in\mathcal M(\varepsilon,c)}\eta_f(K)=1",
    hypotheses="`N >= 2`, `0 < c <= 1/N`",
    checks=(Check("proof", proof_check, "witness and converse for all N, M (certificates)"),
            Check("every_f", every_f_check, "eta_f = 1 for every f, modulo the data-processing inequality"),
            Check("witness", _witness, supporting=True), Check("converse", converse_check(), supporting=True)),
    expected=Verdict.PROVED_MODULO,
    related=("findings.fg04_thm2_scope", "grosse2026.thm2_tv"),
    formulas=("eps >= log(2/(N*c)) ⟹ sup_eta_f(eps, c) = 1",),
))
