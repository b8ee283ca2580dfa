r"""Grosse et al. 2026 — the mechanisms attaining Theorem 1 (end of Thm 3's proof, Example 1) and F-G3.

Statements:
* G-20: with z = 1 + t(1−Nc), m = (1 − tcq)/z and M = t(1 − cq)/z; q inputs have K(0|x) = M, the rest m.
  Then M − m = Ξ(ε,c) and both PML constraints are tight (ratio t on both outputs).
* G-21 (Example 1): N = 2, K = [[t(1−c), 1−tc], [1−tc, t(1−c)]]/(t(1−2c)+1) is (ε,c)-PML with η_TV = Ξ.
* F-G3 (finding): with an integer q the construction is feasible only for t ≤ 2/((N+1)c) when N is odd,
  short of the whole contraction regime t < 2/(Nc); Theorem 1 is still attained there (LP), e.g.
  N = 3, c = 1/4, t = 5/2 → 12/13, and by the construction with q = N/2 (one "middle" row).

Checked:
* ``proof`` (PROVED for every N, M and real q with t c q ≤ 1, t c (N − q) ≤ 1):
  :func:`exactdp.theory.pml_attainment.g20_feasibility` — in α = cq, u = Nc (c S_0 = αM + (u − α)m)
  the entries satisfy 0 ≤ m ≤ M ≤ 1, the extreme entries of both columns satisfy the PML constraint (then every
  pair does, ``extreme_pair``), and M − m = (t − 1)/(t(1 − Nc) + 1) ≤ 1, i.e. = Ξ; a middle row
  f M + (1 − f) m (f ∈ [0, 1], real q) lies between m and M and keeps S_0.  Example 1 is N = 2, q = 1.
  The written parts (m ≥ 0, M ≤ 1, M − m = Ξ's branch) are in N, c, q; the engine files the certificates
  of m ≥ 0, M ≤ 1 and M − m as steps in α, u (their definitions of m, M, z written out) and adds their
  instantiations at u = N c, α = c q (:func:`exactdp.verification.engine.instantiating`), as for the other claims.
* ``feasibility`` — sympy, for symbols t, c, N, q: m ≥ 0 ⟺ tcq ≤ 1 and M ≤ 1 ⟺ tc(N−q) ≤ 1
  (numerators over z > 0); a middle row keeps S_0; q = N/2 is feasible iff t ≤ 2/(Nc).  The identities
  M − m = Ξ and "both PML ratios equal t" are proved in grosse2026.g20_construction_identities.
* ``instances`` — on the [G] grid, ``grosse_optimal_mechanism`` (integer q where feasible, else q = N/2,
  Thm 2's witness at and beyond the switch) has pml_ratio ≤ t and η_TV = the exact LP supremum; Example 1
  at E = 3, c = 1/4 has rows (9/10, 1/10), (1/10, 9/10) and η_TV = 4/5.
* ``odd_n_gap`` (F-G3) — for N = 3, 5, 7 and several c: no integer q is feasible for t strictly between
  2/((N+1)c) and 2/(Nc), one is at t = 2/((N+1)c); in the gap the exact LP attains Ξ and so does the
  middle-row mechanism.

Not shown: that q must be an integer in the paper (the text is not stored: [RECON] reading of G-20).
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import (
    grosse_binary_mechanism,
    grosse_integer_q,
    grosse_middle_row_mechanism,
    grosse_optimal_mechanism,
)
from exactdp.theory.extremal import sup_eta_tv
from exactdp.formulas import xi
from exactdp.verification.claims import CheckContext, Outcome, Verdict, proved
from exactdp.verification.identities import Eq, Statement, at, statements_certificate
from exactdp.numbers.formula_text import written_step as step

from ._instances import pml_grid

#: the claim whose proof files the certificates of :func:`check_proof`
CLAIM = "grosse2026.g20_achieving"


def check_proof(ctx: CheckContext) -> Outcome:
    """Every N, M and real q on the stated region: feasible, (eps,c)-PML, eta_TV = M - m = Xi (certificates)."""
    from exactdp.theory import pml_attainment
    from exactdp.theory.class_certificates import ALL_N_M

    certs = (*pml_attainment.g20_feasibility(), pml_attainment.extreme_pair())
    return proved("the G-20 mechanisms (real q, t c q <= 1, t c (N-q) <= 1) are (eps,c)-PML kernels with "
                  "eta_TV = M - m = Xi(eps,c)", certs, ALL_N_M + "; real q, t*c*q <= 1, t*c*(N - q) <= 1",
                  derivation=(
                       step("[[G] G-20 achievers: ...] with `alpha = c*q` and `u = N*c`: "
                            "`c*S_0 = alpha*M + (u - alpha)*m`; `0 <= m <= M <= 1` where `t*alpha <= 1` and "
                            "`t*(u - alpha) <= 1` (the hypotheses)"),
                       step("the PML constraint holds between the largest and the smallest entry of each column, "
                            "hence between every pair ([PML at the extreme pair of a column])"),
                       step("a middle row `f*M + (1 - f)*m` with `0 <= f <= 1` lies between m and M and keeps "
                            "the column sum (check feasibility)"),
                       step("the TV contraction coefficient of a binary-output kernel is the spread of column 0: "
                            "`M - m = (t-1)/(t*(1-N*c)+1)`, at most 1, which is Xi; Example 1 (G-21) is "
                            "`N = 2`, `q = 1`")))


def check_feasibility(ctx: CheckContext) -> Outcome:
    t, c, N, q = sympy.symbols("t c N q", positive=True)
    z = 1 + t * (1 - N * c)
    m, M = (1 - t * c * q) / z, t * (1 - c * q) / z
    f = sympy.Symbol("f", nonnegative=True)  # fractional part of q: the middle row's weight on M
    w = f * M + (1 - f) * m
    x = sympy.Symbol("x")  # m's and q's place in a recorded substitution
    facts = {  # label: (lhs, rhs); the substitutions are recorded (at) for the checkers to carry out
        "m = (1 - tcq)/z, z > 0: m >= 0 iff tcq <= 1": (at(x * z, (x, m)), 1 - t * c * q),
        "1 - M = (1 - tc(N-q))/z: M <= 1 iff tc(N-q) <= 1": ((1 - M) * z, 1 - t * c * (N - q)),
        "middle row keeps S: (q-f)M + w + (N-q+f-1)m = qM + (N-q)m":
            ((q - f) * M + w + (N - q + f - 1) * m, q * M + (N - q) * m),
        "q = N/2 is feasible iff t <= 2/(Nc)": (at(t * c * x, (x, N / 2)), t * N * c / 2),
    }
    bad = {k: str(sympy.simplify(a.doit() - b)) for k, (a, b) in facts.items() if sympy.simplify(a.doit() - b) != 0}
    if bad:
        return Outcome(Verdict.REFUTED, "a feasibility identity fails", counterexample=bad)
    cert = statements_certificate("G-20 feasibility", tuple(Statement(k, Eq(a, b)) for k, (a, b) in facts.items()),
                                  scope="all t, c, N, real q, f")
    return proved("feasibility of the G-20 construction for real q (sympy); the middle row keeps "
                  "max, min and S_0, so the PML identities of grosse2026.g20_construction_identities apply",
(cert,), cert.scope, derivation=_FEASIBILITY_STEPS)


#: the facts of :func:`check_feasibility` as derivation steps (their labels, formulas apart)
_FEASIBILITY_STEPS = (
    step("`m = (1 - t*c*q)/z` with `z > 0`: `m >= 0` iff `t*c*q <= 1`"),
    step("`1 - M = (1 - t*c*(N-q))/z`: `M <= 1` iff `t*c*(N-q) <= 1`"),
    step("the middle row keeps the column sum: `(q-f)*M + w + (N-q+f-1)*m = q*M + (N-q)*m`"),
    step("`q = N/2` is feasible iff `t <= 2/(N*c)`"))


def check_instances(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in pml_grid(ctx.quick):
        K = grosse_optimal_mechanism(N, t, c)
        sup = sup_eta_tv(N, t=t, c=c).value
        if pml_ratio(K, c) > t or eta_tv(K) != sup or sup != xi(t, c, N):
            return Outcome(Verdict.REFUTED, "construction does not attain the LP supremum", counterexample={
                "N": str(N), "t": str(t), "c": str(c), "kernel": K.as_strings(), "eta_tv": str(eta_tv(K)),
                "pml_ratio": str(pml_ratio(K, c)), "lp_sup": str(sup)})
        n += 1
    K = grosse_binary_mechanism(3, fmpq(1, 4))
    if K.as_strings() != [["9/10", "1/10"], ["1/10", "9/10"]] or eta_tv(K) != fmpq(4, 5):
        return Outcome(Verdict.REFUTED, "Example 1 instance (E = 3, c = 1/4) differs",
                       counterexample={"kernel": K.as_strings()})
    return Outcome(Verdict.VERIFIED, f"constructions attain the exact LP supremum at {n} grid points; "
                   "Example 1 at E = 3, c = 1/4 gives 4/5", instances=n + 1,
                   families=(("[G] grid", n), ("Example 1 instance", 1)))


def check_odd_n_gap(ctx: CheckContext) -> Outcome:
    n, rows = 0, []
    for N in (3, 5, 7):
        for c in (fmpq(1, N + 1), fmpq(1, 2 * N), fmpq(1, 4 * N)):
            lo, hi = 2 / ((N + 1) * c), 2 / (N * c)
            if not grosse_integer_q(N, lo, c):
                return Outcome(Verdict.REFUTED, "no integer q at t = 2/((N+1)c)",
                               counterexample={"N": str(N), "c": str(c), "t": str(lo)})
            for t in (lo + (hi - lo) / 3, (lo + hi) / 2, hi - (hi - lo) / 100):
                r = sup_eta_tv(N, t=t, c=c)
                K = grosse_middle_row_mechanism(N, t, c)
                qs = grosse_integer_q(N, t, c)
                if qs or r.value != xi(t, c, N) or r.failures() or eta_tv(K) != r.value or pml_ratio(K, c) > t:
                    return Outcome(Verdict.REFUTED, "odd-N gap statement fails", counterexample={
                        "N": str(N), "c": str(c), "t": str(t), "integer_q": list(qs), "lp": str(r.value),
                        "xi": str(xi(t, c, N)), "middle_row_kernel": K.as_strings()})
                rows.append(f"N={N} c={c} t={t}: no integer q; LP = Xi = {r.value}, attained by q = N/2")
                n += 1
    r = sup_eta_tv(3, t=fmpq(5, 2), c=fmpq(1, 4))
    if r.value != fmpq(12, 13) or grosse_integer_q(3, fmpq(5, 2), fmpq(1, 4)):
        return Outcome(Verdict.REFUTED, "docs/claims.md example N = 3, c = 1/4, E = 5/2 differs",
                       counterexample={"lp": str(r.value)})
    rows.append(f"N=3 c=1/4 t=5/2: LP optimum 12/13, kernel {r.kernel.as_strings()}")
    return Outcome(Verdict.VERIFIED, f"odd N: integer-q construction infeasible in the gap "
                   f"(2/((N+1)c), 2/(Nc)) at {n} points, while the LP and the middle-row mechanism attain Xi",
                   instances=n + 1, families=(("N in {3,5,7}, 3 c, 3 t in the gap", n), ("docs/claims.md example", 1)),
                   details={"rows": rows})
