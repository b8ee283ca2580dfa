r"""Background B-4 — the tight Dobrushin coefficient of (ε,δ)-LDP mechanisms; F-A2 (φ is loose).

Statement (B-4, [DERIVED]): sup_{K (ε,δ)-LDP} η_TV(K) = (t − 1 + 2δ)/(t + 1), t = e^ε, attained by the
binary kernel with rows (a, 1−a), (b, 1−b), a = (t+δ)/(t+1), b = (1−δ)/(t+1).  Pure LDP (δ = 0, the
c → 0 end of [G]'s family): (t − 1)/(t + 1), attained by binary randomized response.
F-A2: [A]'s φ(ε,δ) = 1 − (1−δ)/t is a valid upper bound but exceeds the supremum by
(1−δ)(t−1)/(t(t+1)), so it is tight only at t = 1 or δ = 1; at δ = 0 it is 1 + 1/t times the truth.

Proved (``proof``, all N, M ≥ 2, real t ≥ 1, δ ∈ [0, 1]):
* upper bound — the Farkas certificate :func:`exactdp.theory.class_certificates.ldp_tv` (the constraints
  on A and Aᶜ with multipliers 1/(t+1) give K_x(A) − K_{x′}(A) ≤ (t − 1 + 2δ)/(t + 1)), and a convex
  combination over row pairs (class_certificates.TWO_POINT) for η_TV;
* attained — :func:`~exactdp.theory.class_certificates.ldp_statements`: the binary kernel
  a = (t+δ)/(t+1), b = (1−δ)/(t+1) is stochastic, satisfies the four (ε,δ)-LDP constraints and has
  a − b = (t − 1 + 2δ)/(t + 1); padded to N × M (extra rows copy row x′, extra outputs get mass 0) every
  constraint of the padded kernel is one of these or K_x(B) ≤ t K_x(B) + δ;
* φ is loose — φ − sup = (1−δ)(t−1)/(t(t+1)) (identity) and > 0 for t > 1, δ < 1 (prover).
Supporting:
* ``lp`` — exact LP suprema over N×M kernels (N = 2, 3; M = 2, 3, 4 — all subset constraints of D-6)
  with dual certificates, on a grid of rational (t, δ); the optimal kernel and
  ``optimal_binary_approx_ldp`` are re-checked with eta_hockey_stick (privacy) and eta_tv (value).
* ``pure_ldp`` — δ = 0 and, independently, the (ε,0)-PML class at c = 0 (per-output ratio constraints
  only) give (t − 1)/(t + 1) for N = 2..5.
* ``phi_gap`` — at every grid point φ − sup = (1−δ)(t−1)/(t(t+1)) ≥ 0 exactly, with equality iff t = 1 or
  δ = 1; sympy proves the identity for all t, δ.  The gap table is in ``details``.

The E_γ variant (``check_e_gamma``) is its own claim, background.b04_e_gamma_variant (verified on instances).

Not shown: —
"""

from __future__ import annotations

from flint import fmpq

from exactdp import bounds

from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.mechanisms import optimal_binary_approx_ldp
from exactdp.sources import ASOODEH2021, Source
from exactdp.theory import class_certificates
from exactdp.theory.extremal import sup_eta_hockey_stick, sup_eta_tv
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Eq, Statement, symbolic_outcome
from exactdp.numbers.formula_text import written_step as step
from .._cited_steps import TWO_POINT
from .._statements import phi_exceeds_tight, tight_attained, tight_pair_bound

T_VALUES = (fmpq(1), fmpq(11, 10), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(10))
D_VALUES = (fmpq(0), fmpq(1, 10000), fmpq(1, 10), fmpq(1, 3), fmpq(1))


LDP = bounds.REGISTRY["ldp_dobrushin"]
PHI, TIGHT, GAP = bounds.REGISTRY["phi"], bounds.REGISTRY["ldp_dobrushin_tight"], bounds.REGISTRY["ldp_phi_gap"]


def _tight(t, d):
    return TIGHT.at(t=t, delta=d)


def check_lp(ctx: CheckContext) -> Outcome:
    n = 0
    shapes = ((2, 2), (3, 3)) if ctx.quick else ((2, 2), (2, 3), (3, 3), (3, 4))
    for t in T_VALUES:
        for d in D_VALUES:
            K0 = optimal_binary_approx_ldp(t, d)
            for N, M in shapes:
                r = sup_eta_tv(N, M, t=t, delta=d)
                bad = r.failures()
                if r.value != _tight(t, d) or eta_tv(K0) != r.value or eta_hockey_stick(K0, t) > d or bad:
                    return Outcome(Verdict.REFUTED, "LP supremum over (eps,delta)-LDP differs from (t-1+2d)/(t+1)",
                                   counterexample={"N": str(N), "M": str(M), "t": str(t), "delta": str(d),
                                                   "lp": str(r.value), "kernel": r.kernel.as_strings(),
                                                   "problems": bad})
                n += 1
    return Outcome(Verdict.VERIFIED, f"exact LP sup of eta_TV over (eps,delta)-LDP = (t-1+2 delta)/(t+1) at {n} "
                   "points; optimal binary kernel attains it", instances=n,
                   families=(("t x delta grid x (N, M)", n),))


def check_pure_ldp(ctx: CheckContext) -> Outcome:
    n = 0
    for t in T_VALUES:
        for N in range(2, 6):
            a, b = sup_eta_tv(N, t=t), sup_eta_tv(N, t=t, c=0)
            if not a.value == b.value == LDP.at(t=t) or a.failures() or b.failures():
                return Outcome(Verdict.REFUTED, "pure LDP supremum differs from (t-1)/(t+1)", counterexample={
                    "N": str(N), "t": str(t), "ldp": str(a.value), "pml_c0": str(b.value)})
            n += 1
    return Outcome(Verdict.VERIFIED, f"eps-LDP (delta = 0 and the c = 0 PML class): sup = (t-1)/(t+1) at {n} points",
                   instances=n, families=(("t x N", n),))


def check_proof(ctx: CheckContext) -> Outcome:
    """sup = (t-1+2 delta)/(t+1) for all N, M: upper certificate, attaining kernel, phi gap."""
    gap = symbolic_outcome([
        Statement("phi - sup = (1-delta)(t-1)/(t(t+1))", Eq(PHI.expr - TIGHT.expr, GAP.expr)),
        Statement("phi - sup > 0 for t > 1, delta < 1", GAP.expr > 0, (bounds.t > 1, bounds.delta < 1))],
        "phi gap", scope="t >= 1, 0 <= delta <= 1")
    if gap.verdict is not Verdict.PROVED:
        return gap
    certs = (class_certificates.ldp_tv(), class_certificates.ldp_statements()) + gap.certificates
    return proved("sup of eta_TV over (eps,delta)-LDP kernels = (t-1+2 delta)/(t+1) for all N, M; phi exceeds it "
                  "by (1-delta)(t-1)/(t(t+1)) > 0 unless t = 1 or delta = 1", certs, class_certificates.ALL_N_M, derivation=(
                       step("[(eps,delta)-LDP Dobrushin bound] `K_x(A) - K_xp(A) <= (t-1+2*delta)/(t+1)` for all rows x, x' and "
                            "sets A"),
                      step(TWO_POINT),
                       step("[(eps,delta)-LDP: phi and the attaining binary kernel] the binary kernel with `a = (t+delta)/(t+1)` "
                            "and `b = (1-delta)/(t+1)` is an (eps,delta)-LDP kernel with "
                            "`a - b = (t-1+2*delta)/(t+1)`; padded to N rows and M outputs (rows copying x', "
                            "outputs of mass 0) it stays in the class with the same TV coefficient"),
                       step("[phi gap] phi minus the supremum is `(1-delta)*(t-1)/(t*(t+1))`, positive for `t > 1` "
                            "and `delta < 1` (and 0 at `t = 1` or `delta = 1`)")))


def check_phi_gap(ctx: CheckContext) -> Outcome:
    rows, n = [], 0
    for tv in T_VALUES:
        for dv in D_VALUES:
            sup = sup_eta_tv(2, t=tv, delta=dv).value
            ph = PHI.at(t=tv, delta=dv)
            gap = ph - sup
            if gap != GAP.at(t=tv, delta=dv) or (gap == 0) != (tv == 1 or dv == 1):
                return Outcome(Verdict.REFUTED, "phi gap differs", counterexample={
                    "t": str(tv), "delta": str(dv), "phi": str(ph), "sup": str(sup)})
            rows.append(f"t={tv} delta={dv}: phi={ph} sup={sup} gap={gap}"
                        + (f" ratio={ph / sup}" if sup != 0 else ""))
            n += 1
    return Outcome(Verdict.VERIFIED, f"phi - sup = (1-delta)(t-1)/(t(t+1)) at {n} points; phi tight only at t = 1 "
                   "or delta = 1; at delta = 0 phi/sup = 1 + 1/t", instances=n, families=(("t x delta", n),),
                   details={"table": rows})


def check_e_gamma(ctx: CheckContext) -> Outcome:
    n = 0
    for t in T_VALUES[1:]:
        for g in sorted({fmpq(1), fmpq(3, 2), fmpq(2), t, t + 1}):
            for N, M in ((2, 2), (3, 3)):
                r = sup_eta_hockey_stick(N, M, gamma=g, t=t)
                want = max(t - g, fmpq(0)) / (t + 1)
                if r.value != want or r.failures():
                    return Outcome(Verdict.REFUTED, "sup of eta_E_gamma over eps-LDP differs from (t-gamma)_+/(t+1)",
                                   counterexample={"N": str(N), "M": str(M), "t": str(t), "gamma": str(g),
                                                   "lp": str(r.value), "kernel": r.kernel.as_strings()})
                n += 1
        for d in D_VALUES:
            r = sup_eta_hockey_stick(2, 3, gamma=t, t=t, delta=d)
            if r.value != d or r.failures():
                return Outcome(Verdict.REFUTED, "sup of eta_E_t over (eps,delta)-LDP differs from delta",
                               counterexample={"t": str(t), "delta": str(d), "lp": str(r.value)})
            n += 1
    return Outcome(Verdict.VERIFIED, f"E_gamma suprema: (t-gamma)_+/(t+1) over eps-LDP and delta over "
                   f"(eps,delta)-LDP at gamma = t, {n} points", instances=n, families=(("t x gamma / t x delta", n),))


register(Claim(
    written=(tight_pair_bound("background.b04_tight_ldp"), tight_attained("background.b04_tight_ldp"), phi_exceeds_tight("background.b04_tight_ldp", with_le=False)),
    id="background.b04_tight_ldp",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    catalogue=("B-4", "F-A2", "X-1"),
    source=Source(ASOODEH2021, "phi-contraction lemma vs the tight value (docs/claims.md B-4)", section="III"),
    title="Tight Dobrushin coefficient of (eps,delta)-LDP: (e^eps - 1 + 2 delta)/(e^eps + 1); phi is loose",
    statement=r"\sup_{K\ (\varepsilon,\delta)\text{-LDP}}\eta_{TV}(K)=\frac{e^\varepsilon-1+2\delta}{e^\varepsilon+1}"
              r"<\varphi(\varepsilon,\delta)\ \text{unless}\ \varepsilon=0\ \text{or}\ \delta=1",
    hypotheses="`eps >= 0`, `0 <= delta <= 1`, any finite input and output alphabets",
    checks=(Check("proof", check_proof, "Farkas upper bound, attaining kernel, phi gap: all N, M"),
            Check("lp", check_lp, "exact LP suprema", supporting=True),
            Check("pure_ldp", check_pure_ldp, "delta = 0 and c = 0", supporting=True),
            Check("phi_gap", check_phi_gap, "phi minus the supremum", supporting=True)),
    expected=Verdict.PROVED,
    related=("background.b04_e_gamma_variant",),
    kind="background",
    formulas=("sup_eta_tv(eps, delta) = (exp(eps) - 1 + 2*delta)/(exp(eps) + 1)",
              "(exp(eps) - 1 + 2*delta)/(exp(eps) + 1) < phi(eps, delta)",
              "eps > 0",
              "delta < 1"),
))
