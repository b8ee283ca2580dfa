r"""Grosse et al. 2026, Theorem 3 — the contraction regime ε < log(2/(Nc)).

Statement (G-18): if t = e^ε < 2/(Nc) then η_TV(ε,c) ≤ (t−1)/(t(1−Nc)+1) (< 1).

Checked:
* ``certificate`` (PROVED for all N, M; t ≥ 1, 0 < c ≤ 1/N) — the Farkas certificate
  :func:`exactdp.theory.class_certificates.pml_tv`: for rows x, x′ and any output set A, with
  a = K_x(A), b = K_{x′}(A), S = Σ_x K_x(A), the (ε,c)-PML constraints summed over y ∈ A (rows (x, x′))
  and over y ∈ Aᶜ (rows (x′, x)) with multipliers 1/(1 + t(1−Nc)) give exactly
  a − b ≤ (t−1)/(t(1−Nc)+1); η_TV(K) is the maximum of a − b (B-1), so no reduction to binary outputs is
  needed.  The statements certificate adds Ξ = min{that, 1} (the registry's formula) and
  "< 1 exactly when t·Nc < 2".
* ``lp`` (supporting) — on the grid below the switch, the exact LP supremum (M = 2, 3) equals the
  bound < 1, with dual certificates.

Not shown: —  (irrational t are covered: the certificate's region is real.)
"""

from __future__ import annotations

from exactdp.claim_statement import ClaimStatement
from exactdp.sources import GROSSE2026, Source
from exactdp import bounds
from exactdp.theory import class_certificates
from exactdp.theory.extremal import sup_eta_tv
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register
from exactdp.verification.engine import instantiating
from exactdp.numbers.formula_text import written_step as step

from ._instances import pml_grid

XI = bounds.REGISTRY["xi"]


#: Theorem 3 in machine form: for every N >= 2, (eps,c)-PML kernel, rows x, x' and set A, with a = K_x(A),
#: b = K_x'(A), S = sum_x K_x(A) and the PML constraints summed over A and A^c (its hypotheses),
#: a - b <= (t-1)/(t(1-Nc)+1) when t*N*c < 2 (in N: carried by pml_tv's instantiation at u = N*c); the bound 1 for
#: every kernel; the contraction value < 1 in the regime (in N: carried by xi_statements' instantiation at u = N*c,
#: its condition t*u < 2 substituted)
STATEMENTS = (
    ClaimStatement(claim="grosse2026.thm3", sizes="all N, M", parameters=("t", "c", "N"), variables=("a", "b", "S"),
                   domain=("t >= 1", "c > 0", "N >= 2", "N*c <= 1", "t*N*c < 2"),
                   hypotheses=("a <= t*(c*S + (1 - N*c)*b)", "1 - b <= t*(N*c - c*S + (1 - N*c)*(1 - a))"),
                   conclusions=("a - b <= (t - 1)/(t*(1 - N*c) + 1)",)),
    ClaimStatement(claim="grosse2026.thm3", sizes="all N, M", variables=("a", "b"), hypotheses=("a <= 1", "b >= 0"),
                   conclusions=("a - b <= 1",)),
    ClaimStatement(claim="grosse2026.thm3", parameters=("t", "c", "N"),
                   domain=("t >= 1", "c > 0", "N >= 2", "N*c <= 1", "t*N*c < 2"),
                   conclusions=("(t - 1)/(t*(1 - N*c) + 1) < 1",)),
)


def check_certificate(ctx: CheckContext) -> Outcome:
    """Proved for all N, M: the PML Farkas certificate, the trivial bound 1 and the Ξ / regime statements, each
    bound to its part of the statement (:data:`STATEMENTS`)."""
    # the bound in N: pml_tv (in u = N*c) is a step, its instantiation at u = N*c carries STATEMENTS[0]
    chain = instantiating(class_certificates.pml_tv(), STATEMENTS[:1], "grosse2026.thm3")
    regime = instantiating(class_certificates.xi_statements(), STATEMENTS[2:], "grosse2026.thm3")
    if chain is None or regime is None:
        return Outcome(Verdict.UNDECIDED, "the instantiation of the PML bound or of the regime at u = N*c did not "
                                          "check")
    certs = chain + (class_certificates.trivial_tv().bound_to(STATEMENTS[1]),) + regime
    return proved("for every (eps,c)-PML kernel, every rows x, x' and output set A: K_x(A) - K_x'(A) <= "
                  "(t-1)/(t(1-Nc)+1), which is < 1 exactly when t < 2/(Nc)", certs,
                  class_certificates.ALL_N_M, derivation=(
                       step("the TV coefficient is the largest `a - b` over rows x, x' and output sets A, with a "
                            "the mass row x gives A and b the mass row x' gives it (B-1)"),
                       step("[(eps,c)-PML Dobrushin bound] the PML constraints summed over A (rows x, x') and over "
                            "its complement (rows x', x), with multipliers `1/(1 + t*(1-N*c))`, non-negative, give "
                            "`a - b <= (t-1)/(t*(1-N*c)+1)`"),
                       step("[eta_TV <= 1] `a <= 1`, `b >= 0`"),
                       step("[Xi and the Theorem 3 regime] the registry's Xi is the smaller of the two; the first is "
                            "below 1 exactly when `t*N*c < 2`, i.e. `eps < log(2/(N*c))`"),
                       step("hence `eta_tv(eps, c) <= (exp(eps) - 1)/(exp(eps)*(1-N*c)+1) < 1` in the contraction "
                            "regime, for every N and M (no reduction to binary outputs needed)")))


def check_lp(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in pml_grid(ctx.quick):
        if t * N * c >= 2:
            continue
        bound = XI.at(t=t, c=c, N=N)
        for M in (2, 3):
            r = sup_eta_tv(N, M, t=t, c=c)
            bad = r.failures()
            if r.value != bound or not bound < 1 or bad:
                return Outcome(Verdict.REFUTED, "LP supremum differs from the Theorem 3 bound", counterexample={
                    "N": str(N), "M": str(M), "t": str(t), "c": str(c), "lp_value": str(r.value),
                    "bound": str(bound), "kernel": r.kernel.as_strings(), "problems": bad})
            n += 1
    return Outcome(Verdict.VERIFIED, f"contraction regime: exact LP supremum = (t-1)/(t(1-Nc)+1) < 1 at {n} points",
                   instances=n, families=(("grid below t = 2/(Nc), M = 2, 3", n),))


CLAIM = register(Claim(
    id="grosse2026.thm3",
    written=STATEMENTS,
    catalogue=("G-18",),
    source=Source(GROSSE2026, "Theorem 3", section="III"),
    title="Contraction regime: eta_TV(eps,c) <= (e^eps - 1)/(e^eps(1-Nc)+1) for eps < log(2/(Nc))",
    statement=r"\varepsilon<\log\frac{2}{Nc}\Rightarrow\eta_{TV}(\varepsilon,c)\le"
              r"\frac{e^\varepsilon-1}{e^\varepsilon(1-Nc)+1}",
    hypotheses="`N >= 2`, `0 < c <= 1/N`, `0 <= eps < log(2/(N*c))`",
    checks=(Check("certificate", check_certificate, "Farkas certificate: sum of two PML constraints, all N, M"),
            Check("lp", check_lp, "exact LP supremum below the switch", supporting=True)),
    expected=Verdict.PROVED,
    formulas=("eps < log(2/(N*c)) ⟹ eta_tv(eps, c) <= (exp(eps) - 1)/(exp(eps)*(1 - N*c) + 1)",),
))
