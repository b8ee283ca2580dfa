r"""Shared by thm1, lem3 and lem4_gamma_max_closed_form: the parametric-LP certificates for fixed N
(:mod:`exactdp.theory.parametric`), each paired with a statements certificate that identifies the LP's
piecewise optimum with the papers' closed form region by region (decided by the prover).

* η_TV over N×2 kernels of M(ε,c) on t ≥ 1, 0 < c ≤ 1/N (all of it: beyond t = 1/c every kernel qualifies)
  equals Ξ = min{(t−1)/(t(1−Nc)+1), 1} ([G] Thm 1 with equality, G-15);
* Γ_max's Charnes–Cooper LP over N×2 kernels equals G-23's two-branch value (the registry's
  ``gamma_max_exact``) on t ≤ 1/c and (1 − (N−1)c)/c beyond.

These are cross-checks of the all-N certificates (:mod:`exactdp.theory.pml_attainment`): full runs cover
N = 2..3 (η_TV) and N = 2 (Γ_max), quick runs N = 2.
"""

from __future__ import annotations

import functools

import sympy

from exactdp import bounds
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.theory import parametric
from exactdp.verification.claims import Outcome, Verdict

t, c = sympy.symbols("t c", positive=True)

#: input sizes of the per-N parametric-LP cross-checks (full run, quick run): supporting evidence only, the
#: all-N certificates are the proofs, so one size keeps the cross-check without paying an LP per extra N
THM1_N = {False: (2,), True: (2,)}
GAMMA_N = {False: (2,), True: (2,)}


def n_scope(ns) -> str:
    """The scope phrase of a proof run for the consecutive sizes ``ns``: "N = 2..8, all M"."""
    return (f"N = {ns[0]}..{ns[-1]}" if len(ns) > 1 else f"N = {ns[0]}") + ", all M"


def xi_of(N: int):
    """The registry's Ξ for this N, in this module's t, c."""
    return sympy.Subs(bounds.REGISTRY["xi"].expr.subs({bounds.t: t, bounds.c: c}), bounds.N, N)  # re-done by the checkers


def gamma_branches(N: int) -> list:
    """G-23 (the registry's two-branch gamma_max_exact) on t·c ≤ 1, and beyond t = 1/c the identity kernel's
    (1 − (N−1)c)/c (every kernel qualifies there), as ``[(expression, conditions)]``."""
    own = {bounds.t: t, bounds.c: c}
    (first, cond), (second, _) = bounds.REGISTRY["gamma_max_exact"].expr.subs(own).args
    at_n = lambda e: sympy.Subs(e, bounds.N, N)  # noqa: E731  (recorded: the checkers carry it out)
    cond = cond.subs(bounds.N, N)
    return [(at_n(first), [cond, t * c <= 1]), (at_n(second), [sympy.Not(cond), t * c <= 1]),
            (at_n((1 - (bounds.N - 1) * c) / c), [t * c >= 1])]


def _agreement(name: str, N: int, sol, branches, what: str) -> SymbolicStatements:
    """value_k ≤ branch and value_k ≥ branch on region k ∩ the branch's conditions, for every region k and
    branch (an empty intersection holds vacuously)."""
    rows = []
    for k, r in enumerate(sol.regions):
        v = sympy.cancel(r.value + sol.problem.offset)
        for j, (closed, conds) in enumerate(branches):
            where = tuple(r.conditions) + tuple(conds)
            tag = f"region {k}, {what}" + (f" branch {j}" if len(branches) > 1 else "")
            rows.append(statement(f"{tag}: LP optimum {v} <= {closed}", sympy.LessThan(v, closed, evaluate=False),
                                  where))
            rows.append(statement(f"{tag}: LP optimum {v} >= {closed}", sympy.GreaterThan(v, closed, evaluate=False),
                                  where))
    return SymbolicStatements(name=name, parameters=("N", "t", "c"), assumptions=(("c", "positive"), ("t", "positive")),
                              region=("t >= 1", f"c <= 1/{N}"), scope=f"N = {N}; t >= 1, 0 < c <= 1/{N}",
                              statements=tuple(rows))


@functools.lru_cache(maxsize=None)
def eta_certificates(N: int) -> tuple:
    """(parametric-lp certificate of sup η_TV over N×2 kernels, statements: its optimum = Ξ per region)."""
    sol = parametric.sup_eta_tv(N, t=t, c=c).solutions[0]
    return sol.certificate, _agreement(f"the N = {N} LP optimum is Xi", N, sol, [(xi_of(N), [])], "Xi")


@functools.lru_cache(maxsize=None)
def gamma_certificates(N: int) -> tuple:
    """(parametric-lp certificate of Γ_max's Charnes–Cooper LP over N×2 kernels, statements: = G-23 per region)."""
    sol = parametric.gamma_max(N, t, c).solutions[0]
    return sol.certificate, _agreement(f"the N = {N} Gamma_max LP optimum is G-23", N, sol, gamma_branches(N), "G-23")


def cross_check(ns, certificates_of, what: str) -> Outcome:
    """VERIFIED (a cross-check, never the proof) when every per-N certificate pair of ``certificates_of(N)``
    checks TRUE for the sizes ``ns``; UNDECIDED naming the failing certificates otherwise."""
    from exactdp.algebra.certificates import check
    from exactdp.numbers.truth import Truth

    certs = tuple(cert for N in ns for cert in certificates_of(N))
    bad = [cert.name for cert in certs if check(cert).truth is not Truth.TRUE]
    if bad:
        return Outcome(Verdict.UNDECIDED, "a parametric-LP cross-check certificate did not check", reason="; ".join(bad))
    regions = {N: len(certificates_of(N)[0].region_value) for N in ns}
    return Outcome(Verdict.VERIFIED, f"{what} on the whole domain for {n_scope(ns)} ({sum(regions.values())} regions, "
                   f"each certificate re-checked)", instances=len(ns), families=((n_scope(ns), len(ns)),),
                   details={"regions": regions})
