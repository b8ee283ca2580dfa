r"""Grosse et al. 2026, Lemma 4 — bounds on the extreme output likelihood ratios; F-G2 (its looseness).

Statement (G-23): c ∈ (0, 1/N], 1 ≤ t = e^ε ≤ 1/c: Γ_max(ε,c) ≤ (1−Nc)t + 1 and Γ_min(ε,c) ≥ 1/((1−Nc)t + 1),
with Γ_max = sup_{K∈M(ε,c)} sup_{P,Q∈Q_X(c)} max_y (K∘P)(y)/(K∘Q)(y) (D-12, [RECON] definition).

F-G2 (finding): the bound is tight iff t ≥ 1/((N−1)c); the exact value below is
(t(1−Nc)+c)/(1−(N−1)c) (docs/claims.md G-23 [DERIVED]); as c → 0 it tends to t while Lemma 4 tends to t + 1,
so [G] Cor. 1–2 (G-25, G-26) do not recover the LDP-tight Zamanlooy–Asoodeh coefficients (B-7), while the
same corollaries with the exact Γ_max do.

Checked:
* ``validity`` — exact Γ_max and Γ_min (Charnes–Cooper LPs with dual certificates; optimal kernel and
  inputs re-checked with pml_ratio and the exact output ratio) against Lemma 4 on a grid N = 2..5,
  t ∈ [1, 1/c] on both sides of 1/((N−1)c).
* ``closed_form`` — the LP values equal the two-branch closed form on that grid and at the 5 points of
  docs/claims.md §7 (where also Lemma 4's values are reproduced); Γ_min = 1/Γ_max; M = 3 gives the same.
* ``gap_formula`` (symbolic) — Lemma 4 − closed form = (1−Nc)(1−(N−1)ct)/(1−(N−1)c) on the first branch;
  the branches agree at t = 1/((N−1)c).
* ``tightness`` (F-G2) — on the grid the gap is 0 exactly when t ≥ 1/((N−1)c) **or c = 1/N** (there
  Q_X(1/N) is a single prior, Γ_max = 1 = Lemma 4: a degenerate exception to the catalogue's "iff").
* ``c_to_0`` (F-G2, G-25, G-26) — sympy limits c → 0: exact-Γ KL and H² coefficients equal B-7's
  (t−1)/(t+1)·log t and 2(√t−1)²/(t+1); Lemma 4's give (t−1)/(t+1)·log(t+1) etc., larger by
  (t−1)/(t+1)·log(1 + 1/t) > 0 for KL.

* ``exact_gamma_corollaries`` — the improved corollaries are valid on random instances: for random exact
  kernels K (at their own level t_K = pml_ratio(K, c)), Γ_max(t_K, c) from its closed form (proved equal to the
  Charnes–Cooper LP for every N: ``grosse2026.lem4_gamma_max_closed_form``; the LP itself is compared with the
  closed form in ``closed_form``), and random P, Q ∈ Q_X(c),
  D(K∘P‖K∘Q) ≤ Ξ(t_K, c)·log Γ_max(t_K, c)·TV(P,Q) and H² ≤ Ξ·(2 − 4/(√Γ_max+1))·TV, each decided with
  the certified layer (``certified_compare``, three-valued: an undecided comparison makes the check UNDECIDED).

Not shown: the closed form for all parameters (it is confirmed at grid points only); Theorem 4 itself with
the exact Γ (it follows from Binette's inequality, checked elsewhere); irrational t.
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.bounds import N as N_, c as c_, gamma_max_first, gamma_max_l4, t as t_
from exactdp.certified import certified_compare
from exactdp.measures.divergences import hellinger2, kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp.numbers.formula_text import inline_step
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.truth import Truth
from exactdp.theory.extremal import (
    corollary_limits_c0,
    gamma_max,
    gamma_max_closed_form,
    gamma_min,
    h2_coefficient,
    kl_coefficient,
    lemma4_bound,
)
from exactdp.formulas import xi
from exactdp.verification.claims import CheckContext, Outcome, Verdict, proved
from exactdp.verification.identities import Eq, Statement, at, limit_at, statements_certificate, symbolic_outcome
from exactdp.verification.instances import random_distribution, random_kernel

from ._instances import GAMMA_TABLE, gamma_grid


def _point(N, t, c):
    g, gm = gamma_max(N, t, c), gamma_min(N, t, c)
    return g, gm, g.failures() + gm.failures()


def check_validity(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in gamma_grid(ctx.quick):
        g, gm, bad = _point(N, t, c)
        L = lemma4_bound(N, t, c)
        if g.value > L or gm.value < 1 / L or bad:
            return Outcome(Verdict.REFUTED, "Lemma 4 bound violated", counterexample={
                "N": str(N), "t": str(t), "c": str(c), "gamma_max": str(g.value), "gamma_min": str(gm.value),
                "lemma4": str(L), "kernel": g.kernel.as_strings(), "problems": bad})
        n += 1
    return Outcome(Verdict.VERIFIED, f"exact Gamma_max <= (1-Nc)t+1 and Gamma_min >= its inverse at {n} points",
                   instances=n, families=(("N 2-5, t in [1, 1/c]", n),))


def check_closed_form(ctx: CheckContext) -> Outcome:
    n, rows = 0, []
    pts = [(N, to_qq(t), to_qq(c), to_qq(e), to_qq(l4)) for N, t, c, e, l4 in GAMMA_TABLE]
    pts += [(N, t, c, None, None) for N, t, c in gamma_grid(ctx.quick)]
    for k, (N, t, c, exact, l4) in enumerate(pts):
        g, gm, bad = _point(N, t, c)
        cf = gamma_max_closed_form(N, t, c)
        if exact is not None and (g.value != exact or lemma4_bound(N, t, c) != l4):
            bad.append(f"docs/claims.md §7 lists {exact} and Lemma 4 {l4}")
        if g.value != cf or gm.value != 1 / g.value or bad:
            return Outcome(Verdict.REFUTED, "exact Gamma_max differs from the closed form", counterexample={
                "N": str(N), "t": str(t), "c": str(c), "lp": str(g.value), "closed_form": str(cf),
                "gamma_min": str(gm.value), "problems": bad})
        if k % 7 == 0 and gamma_max(N, t, c, M=3).value != g.value:
            return Outcome(Verdict.REFUTED, "three outputs give a larger Gamma_max",
                           counterexample={"N": str(N), "t": str(t), "c": str(c)})
        if exact is not None:
            rows.append(f"N={N} t={t} c={c}: Gamma_max = {g.value}, Lemma 4 = {l4}, gap {l4 - g.value}")
        n += 1
    return Outcome(Verdict.VERIFIED, f"exact LP Gamma_max = two-branch closed form at {n} points "
                   "(incl. the 5 points of docs/claims.md §7)", instances=n,
                   families=(("docs/claims.md §7 Gamma table", len(GAMMA_TABLE)), ("grid", n - len(GAMMA_TABLE))),
                   details={"table": rows})


def check_gap_formula(ctx: CheckContext) -> Outcome:
    """Lemma 4 − first branch = (1−Nc)(1−(N−1)ct)/(1−(N−1)c), and the branches meet at t = 1/((N−1)c)
    (identities in t, c, N; the sign of the gap is grosse2026.lem4_exact_gamma_ordering)."""
    meet = 1 / ((N_ - 1) * c_)
    return symbolic_outcome((
        Statement("Lemma4 - branch1 = (1-Nc)(1-(N-1)ct)/(1-(N-1)c)",
                  Eq(gamma_max_l4 - gamma_max_first, (1 - N_ * c_) * (1 - (N_ - 1) * c_ * t_) / (1 - (N_ - 1) * c_))),
        Statement("at t = 1/((N-1)c) the branches meet", Eq(at(gamma_max_first, (t_, meet)), at(gamma_max_l4, (t_, meet)))),
    ), "Lemma 4 gap", scope="all parameters")


def check_tightness(ctx: CheckContext) -> Outcome:
    n, loose, tight_below = 0, [], []
    for N, t, c in gamma_grid(ctx.quick):
        g = gamma_max(N, t, c).value
        gap = lemma4_bound(N, t, c) - g
        above = t * (N - 1) * c >= 1
        if (gap == 0) != (above or c == fmpq(1, N)):
            return Outcome(Verdict.REFUTED, "Lemma 4 tight/loose outside the stated region", counterexample={
                "N": str(N), "t": str(t), "c": str(c), "gamma_max": str(g), "gap": str(gap)})
        if gap > 0:
            loose.append(f"N={N} t={t} c={c}: exact {g}, Lemma 4 {g + gap}, gap {gap}")
        elif not above:
            tight_below.append(f"N={N} t={t} c={c}: Gamma_max = Lemma 4 = {g} (c = 1/N)")
        n += 1
    return Outcome(Verdict.VERIFIED, f"{n} points: Lemma 4 is tight iff t >= 1/((N-1)c), except c = 1/N where "
                   f"both equal 1 ({len(tight_below)} such points below the threshold); {len(loose)} loose points",
                   instances=n, families=(("gamma grid", n),), details={"loose": loose, "c_equals_1_over_N": tight_below})


def check_exact_gamma_corollaries(ctx: CheckContext) -> Outcome:
    rng = ctx.rng("fg2-exact-gamma-corollaries")
    count, n = ctx.size(60, 400), 0
    for _ in range(count):
        N, M = rng.randint(2, 4), rng.randint(2, 3)
        c = fmpq(1, N) * fmpq(rng.randint(1, 5), 6)
        K = random_kernel(rng, N, M, 9)
        tK = pml_ratio(K, c)
        X, G = xi(tK, c, N), gamma_max_closed_form(N, tK, c)  # = the LP value for every N (lem4_gamma_max_closed_form)
        if G == 1:
            continue
        P, Q = (tuple(c + (1 - N * c) * r for r in random_distribution(rng, N, 9).probs) for _ in range(2))
        tv_in = tv(P, Q)
        if tv_in == 0:
            P, Q = tuple(c + (1 - N * c) * (x == 0) for x in range(N)), tuple(c + (1 - N * c) * (x == 1) for x in range(N))
            tv_in = 1 - N * c
            if tv_in == 0:
                continue  # c = 1/N: Q_X(c) is one prior, both sides vanish
        KP, KQ = K.apply(P), K.apply(Q)
        for name, lhs, rhs in (("KL", kl(KP, KQ), kl_coefficient(X, G) * qq_to_sympy(tv_in)),
                               ("H2", hellinger2(KP, KQ), h2_coefficient(X, G) * qq_to_sympy(tv_in))):
            holds = certified_compare(lhs, "<=", rhs)
            if holds is Truth.FALSE:
                return Outcome(Verdict.REFUTED, f"{name} corollary with the exact Gamma fails", counterexample={
                    "kernel": K.as_strings(), "c": str(c), "t": str(tK), "P": [str(v) for v in P],
                    "Q": [str(v) for v in Q], "lhs": str(lhs), "rhs": str(rhs)})
            if holds is Truth.UNKNOWN:
                return Outcome(Verdict.UNDECIDED, "a comparison could not be certified",
                               reason=f"{name}: {lhs} <= {rhs} undecided (kernel {K.as_strings()}, c = {c})")
        n += 1
    return Outcome(Verdict.VERIFIED, f"{n} random (K, P, Q): KL and H2 corollaries with the exact Gamma_max hold "
                   "(certified comparisons)", instances=n,
                   families=(("random exact K at its own PML level, P, Q in Q_X(c)", n),))


#: the facts of :func:`check_c_to_0` in words (their formulas are the derivation step's)
_C0_WORDS = {"Gamma_exact -> t": "the exact Γ tends to t",
             "Gamma_lemma4 -> t + 1": "Lemma 4's Γ tends to t + 1",
             "KL coefficient with exact Gamma -> (t-1)/(t+1) log t (B-7)":
                 "the KL coefficient with the exact Γ tends to B-7's",
             "H2 coefficient with exact Gamma -> 2(sqrt t - 1)^2/(t+1) (B-7)":
                 "the H² coefficient with the exact Γ tends to B-7's",
             "KL with Lemma 4 exceeds B-7 by (t-1)/(t+1) log(1+1/t)":
                 "the KL coefficient with Lemma 4's Γ tends to B-7's plus a positive term"}


def check_c_to_0(ctx: CheckContext) -> Outcome:
    lim = corollary_limits_c0()
    t = lim["t"]
    extra = sympy.simplify(lim["kl_lemma4"] - lim["kl_za"] - (t - 1) / (t + 1) * sympy.log(1 + 1 / t))
    facts = {
        "Gamma_exact -> t": lim["gamma_exact"] - t,
        "Gamma_lemma4 -> t + 1": lim["gamma_lemma4"] - (t + 1),
        "KL coefficient with exact Gamma -> (t-1)/(t+1) log t (B-7)": lim["kl_exact_minus_za"],
        "H2 coefficient with exact Gamma -> 2(sqrt t - 1)^2/(t+1) (B-7)": lim["h2_exact_minus_za"],
        "KL with Lemma 4 exceeds B-7 by (t-1)/(t+1) log(1+1/t)": extra,
    }
    bad = {k: str(v) for k, v in facts.items() if sympy.simplify(v) != 0}
    if bad:
        return Outcome(Verdict.UNDECIDED, "a limit could not be confirmed symbolically", reason=str(bad))
    pre = lim["before_limit"]
    Xi, ge, gl, c0 = pre["xi"], pre["gamma_exact"], pre["gamma_lemma4"], pre["c"]
    lim_c = lambda e: limit_at(e, c0, 0)  # noqa: E731  (recorded: each checker computes the limit)
    recorded = {  # the same facts with their limits recorded, for the certificate
        "Gamma_exact -> t": (lim_c(ge), t),
        "Gamma_lemma4 -> t + 1": (lim_c(gl), t + 1),
        "KL coefficient with exact Gamma -> (t-1)/(t+1) log t (B-7)": (lim_c(Xi * sympy.log(ge)), lim["kl_za"]),
        "H2 coefficient with exact Gamma -> 2(sqrt t - 1)^2/(t+1) (B-7)":
            (lim_c(Xi * (2 - 4 / (sympy.sqrt(ge) + 1))), lim["h2_za"]),
        "KL with Lemma 4 exceeds B-7 by (t-1)/(t+1) log(1+1/t)":
            (lim_c(Xi * sympy.log(gl)), lim["kl_za"] + (t - 1) / (t + 1) * sympy.log(1 + 1 / t)),
    }
    cert = statements_certificate("corollaries at c -> 0", tuple(Statement(k, Eq(a, b)) for k, (a, b) in recorded.items()),
                                  scope="all t")
    return proved("c -> 0: Cor. 1-2 with the exact Gamma recover Zamanlooy-Asoodeh; with Lemma 4 "
                   "they are larger (KL by (t-1)/(t+1) log(1+1/t) > 0 for t > 1)", (cert,), cert.scope,
                   derivation=tuple(inline_step(f"{_C0_WORDS[k]}: the limit of {{}} as {{}} tends to 0 from above is {{}}",
                                                a.args[0], c0, b) for k, (a, b) in recorded.items()),
                   details={"kl_lemma4_limit": str(lim["kl_lemma4"]), "h2_lemma4_limit": str(lim["h2_lemma4"])})
