r"""Certificate synthesis for ``exactdp check``: a checked proof of ``Z ≤ F`` for every kernel of a class, found
by an exact parametric LP.

**Shape.**  Z is η_TV or η_{E_γ} (γ a rational ≥ 1, or γ = e^ε); F is a function of the class parameters alone
(t = e^ε, δ, c, N; Max/Min allowed).  By the two-point formula Z is a maximum over pairs of rows (x, x′) and
output sets A of K_x(A) − γ K_{x′}(A) (γ = 1: the structural lemma *two-point bound*; γ ≥ 1: [A] Thm 3 (≤),
the certificate ``two_point_ldp`` with [A] Thm 1 (⇒) and the event form of E_γ, all in
:mod:`exactdp.theory.e_gamma_certificates`).  So Z ≤ F holds on the class when a − γ b ≤ F for every
a = K_x(A), b = K_{x′}(A) (and S = Σ_x K_x(A) for (ε,c)-PML) obeying the class's aggregated constraints
(:func:`two_point_rows`: the class definition on A and on Aᶜ for both orders of the rows — the structural lemma
*aggregation over an output set* — and masses in [0, 1] — *the mass of an output set lies in [0, 1]*).

**Synthesis.**  The LP  max a − γ b  over those constraints is solved on the whole parameter domain by
:func:`exactdp.theory.parametric.solve_parametric` (exact LPs at sample points, optimal bases lifted to
rational functions of the parameters, critical regions split by the sign conditions); its ``parametric-lp``
certificate is checked and its split tree covers the domain.  In each region R_i, with optimum V_i(p), the
lifted dual multipliers λ(p) (rows) and μ(p) (reduced costs of a, b, S ≥ 0) are Farkas multipliers:

    F − (a − γ b) = Σ λ_k g_k + Σ μ_j x_j + (F − V_i),

a ``linear-combination`` certificate on R_i with slack F − V_i (exact cancellation; λ, μ ≥ 0 and F − V_i ≥ 0
decided on R_i by the prover, which splits the cases of F's Max and Min).  The parametric-LP certificate is
filed under the conjecture itself (claim ``check``, :func:`_bound_lp`): its statement is "for every parameter
point of the class domain and every (a, b[, S]) under the two-point constraints, F − (a − γ b) ≥ 0", which every
checker derives from its data (V_i ≤ F on each region, the regions covering the domain;
:func:`exactdp.claim_statement.binding`).  The conjecture is **proved** only when the parametric-LP certificate,
so bound, and every region's combination check TRUE.  Where F − V_i < 0 at a point p,
LP duality says the constraints give no bound below V_i(p): there is no certificate of this shape, and the
report names p, V_i(p), F(p) and the LP's optimal (a, b) there.

N: a conjecture side without N is decided once for all N; with N it is first tried with N a real parameter
≥ 2 (every N at once), then for each N of the searched range (the scope says which).  For (ε,c)-PML the
constraints involve N·c, and the parametric LP with u = N·c a third parameter is out of quick reach; its bases
are not: :func:`_every_n` lifts the optimal bases of the per-N LPs (the searched N up to 3) to (t, c, u) and keeps those whose
multipliers are ≥ 0 on the whole domain t ≥ 1, c > 0, 2c ≤ u ≤ 1 — each a Farkas certificate of
a − γb ≤ V(t, c, u) for every N and M without any region (weak duality) — and proves a − γb ≤ F there by a
``split-tree`` with one leaf per argument of F's Min (a V below it), after comparing min V with F at exact points
of the domain (:func:`_every_n_points`): a point where min V > F ends the attempt at once, where the prover's
decomposition in three parameters would take long to find it.  When that fails, N = 2 is proved by its own
parametric LP and N ≥ 3 on 3c ≤ u ≤ 1 by split trees of pieces (:mod:`exactdp.verification.conjecture.pieces`:
lifted bases dual feasible on parts of the domain, each leaf checked on its cell, the coverage decided by the
engine); when that fails too, the LP is solved and certified for each N of the searched range (parameters t and c).
The statements in u are steps of the proof: an ``instantiation`` at u = N·c (:func:`_instance`) carries each to the
conjecture's statement for every integer N ≥ 2 (whole domain) or N ≥ 3, and a ``cases`` join (:func:`_join`) of
N = 2 and N ≥ 3 to every integer N ≥ 2 (:mod:`exactdp.algebra.certificates.instantiation`).
Before either, the per-N LPs' optima are compared with F at exact grid points (:func:`_sampled_gap`): where one
exceeds F, no certificate of this shape exists at that N, nor for every N, and the prover's gap at that N is the
answer without the other sizes' proofs.
Strict conjectures (``<``) are outside the shape (a combination proves ≥ 0, not > 0).

(ε,c)-PML: the multipliers of a per-N region, such as t/(t − 1) on a region that excludes t = 1 only through a
condition in c as well, are decided on the whole region when the conditions in their own parameters do not
settle them (:func:`exactdp.algebra.certificates.decide_sign`).  At N = 3 the aggregated LP is looser than the
class (its optimum for η_{E_2} at t = 2, c = 1/6 is 1/2, the supremum over 3 × 2 and 3 × 3 kernels 1/3): a
bound between the two has no certificate of this shape, and the LP's optimum is not a kernel (no witness).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy

from exactdp.verification.conjecture import pieces
from exactdp.verification.conjecture.parser import Conjecture, conjecture_symbols
from exactdp.verification.conjecture.prove import PROVED, Proof, rational_in_t, rewrite_certificate

t, c, u, delta, N = sympy.symbols("t c u delta N", real=True)
a, b, S = sympy.symbols("a b S", real=True)
#: t = e^eps as :func:`~.prove.rational_in_t` writes it (a positive symbol); replaced by the real t above
T = sympy.Symbol("t", positive=True)

#: the verdict of a synthesis that found the conjectured side below the LP's optimum somewhere
NO_CERTIFICATE = "no certificate of this shape"


@dataclass(frozen=True)
class Gap:
    """Where no certificate of the shape exists: a parameter point, the LP's optimum V there (the best bound the
    class constraints give), the conjectured side F there and the LP's optimal (a, b[, S]) at the point."""

    cls: str
    point: dict
    lp_value: sympy.Expr
    side: sympy.Expr
    optimum: tuple
    sizes: str
    n: int | None = None

    def witness(self):
        """For ε-LDP and (ε,δ)-LDP: the kernel the LP's optimum describes, as an exact search
        :class:`~.quantities.Instance` — rows (a, 1 − a), (b, 1 − b) (and N − 2 more copies of the second at a
        fixed N), t and δ of the point.  Its class constraints are the LP's, so it is in the class, and its
        η_{E_γ} ≥ a − γb = the LP value > F: a counterexample, which the caller re-checks with the core
        functions.  None for (ε,c)-PML (its LP is a relaxation) or a point that is not rational."""
        from flint import fmpq

        from exactdp.kernels import Kernel
        from exactdp.verification.conjecture.quantities import Instance  # deferred: start-up

        if self.cls not in ("ldp", "approx-ldp") or len(self.optimum) != 2:
            return None
        vals = [sympy.Rational(v) for v in (self.point.get("t", 1), self.point.get("delta", 0), *self.optimum)
                if isinstance(v, (int, sympy.Rational))]
        if len(vals) != 4:
            return None
        tq, dq, aq, bq = (fmpq(int(v.p), int(v.q)) for v in vals)
        rows = [[aq, 1 - aq]] + [[bq, 1 - bq]] * ((self.n or 2) - 1)
        return Instance(self.cls, Kernel.from_exact_rows(rows), tq, dq if self.cls == "approx-ldp" else fmpq(0))

    def text(self) -> str:
        where = ", ".join(f"{k} = {v}" for k, v in self.point.items())
        opt = ", ".join(f"{n} = {v}" for n, v in zip(("a", "b", "S"), self.optimum))
        relaxed = ("; the LP aggregates the other rows, a relaxation of (eps,c)-PML for N >= 3, so the bound may "
                   "still hold" if self.cls == "pml" and (self.n is None or self.n >= 3) else "")
        return (f"{NO_CERTIFICATE} ({self.cls}, {self.sizes}): at {where} the two-point LP's optimum (the closest "
                f"bound a certificate of this shape gives) is {self.lp_value} ≈ {sympy.N(self.lp_value, 6)} > the "
                f"conjectured side {self.side} ≈ {sympy.N(self.side, 6)} (LP optimum at {opt}){relaxed}")


@dataclass(frozen=True)
class Synthesis:
    """The outcome: a :class:`~.prove.Proof` (every certificate checked TRUE), or the gap that rules the shape
    out, or neither (``why``: the LP or a sign condition could not be settled)."""

    proof: Proof | None = None
    gap: Gap | None = None
    why: str = ""


def _quantity(small) -> sympy.Expr | None:
    """γ of the small side (1 for η_TV; a rational ≥ 1 or t for η_{E_γ}), or None outside the shape."""
    s = conjecture_symbols()
    if small == sympy.Symbol("eta_tv"):
        return sympy.Integer(1)
    if isinstance(small, sympy.core.function.AppliedUndef) and small.func.__name__ == "eta_hs":
        g = small.args[0].subs(sympy.exp(s["eps"]), t).subs(s["gamma"], t)
        if g == t or (g.is_Rational and g >= 1):
            return g
    return None


def two_point_rows(cls: str, gamma, n=None):
    """(variables, rows, bounds, domain) of the two-point LP of a class: rows (label, {variable: coefficient},
    right-hand side) meaning Σ coefficient·variable ≤ right-hand side, bounds (label, variable) meaning
    variable ≥ 0, and the parameter domain; the objective is a − γ b.  For (ε,c)-PML, u = N·c (``n`` fixes N)."""
    one = sympy.Integer(1)
    mass = [("a = K_x(A) <= 1", {a: one}, one), ("b = K_x'(A) <= 1", {b: one}, one)]
    bounds = [("a = K_x(A) >= 0", a), ("b = K_x'(A) >= 0", b)]
    if cls in ("ldp", "approx-ldp"):
        d = delta if cls == "approx-ldp" else sympy.Integer(0)
        dom = [t >= 1] + ([delta >= 0, delta <= 1] if cls == "approx-ldp" else [])
        law = "(eps,delta)-LDP ([A] D-6)" if cls == "approx-ldp" else "eps-LDP"
        rows = [(f"{law} on A, rows (x, x'): t*b + delta - a >= 0", {a: one, b: -t}, d),
                (f"{law} on A, rows (x', x): t*a + delta - b >= 0", {a: -t, b: one}, d),
                (f"{law} on A^c, rows (x', x): t*(1 - a) + delta - (1 - b) >= 0", {a: t, b: -one}, t - 1 + d),
                (f"{law} on A^c, rows (x, x'): t*(1 - b) + delta - (1 - a) >= 0", {a: -one, b: t}, t - 1 + d)]
        return (a, b), rows + mass, bounds, dom
    uu = u if n is None else n * c  # u = N*c when N is not fixed
    dom = [t >= 1, c > 0] + ([u >= 2 * c, u <= 1] if n is None else [n * c <= 1])
    tc, tw = t * c, t * (1 - uu)
    rows = [("PML ([G] D-9) summed over y in A, rows (x, x'): t*(c*S + (1 - N*c)*b) - a >= 0",
             {a: one, b: -tw, S: -tc}, sympy.Integer(0)),
            ("PML ([G] D-9) summed over y in A, rows (x', x): t*(c*S + (1 - N*c)*a) - b >= 0",
             {b: one, a: -tw, S: -tc}, sympy.Integer(0)),
            ("PML ([G] D-9) summed over y in A^c, rows (x', x): t*(N*c - c*S + (1 - N*c)*(1 - a)) - (1 - b) >= 0",
             {a: tw, b: -one, S: tc}, t - 1),
            ("PML ([G] D-9) summed over y in A^c, rows (x, x'): t*(N*c - c*S + (1 - N*c)*(1 - b)) - (1 - a) >= 0",
             {b: tw, a: -one, S: tc}, t - 1),
            ("S = sum_x K_x(A) >= a + b: the other rows' masses of A are >= 0", {a: one, b: one, S: -one},
             sympy.Integer(0)),
            ("c*(a + b + N - 2 - S) >= 0: the other N - 2 rows' masses of A are <= 1", {S: c, a: -c, b: -c},
             uu - 2 * c)]
    return (a, b, S), rows + mass, bounds + [("S = sum_x K_x(A) >= 0", S)], dom


def _uses(gamma) -> tuple[tuple, tuple[str, ...]]:
    """(extra certificates, names in ``uses``): the two-point step for γ and the structural lemmas."""
    from exactdp.theory import e_gamma_certificates as EG
    from exactdp.theory import structural_lemmas as SL

    lemmas = SL.AGGREGATION.uses + SL.SET_MASS.uses
    if gamma == 1:
        return (), lemmas + SL.TWO_POINT.uses
    extra = (EG.two_point_ldp(), *EG.contraction_certificates())
    return extra, lemmas + tuple(x.name for x in extra)


def _lp(cls: str, gamma, n):
    from exactdp.theory.parametric import ParametricLP

    variables, rows, bounds, dom = two_point_rows(cls, gamma, n)
    params = tuple(sorted(set().union(*[r.free_symbols for r in dom]), key=str))
    obj = {a: sympy.Integer(1), b: -gamma}
    problem = ParametricLP(params, tuple(obj.get(v, sympy.Integer(0)) for v in variables),
                           tuple(tuple(sympy.expand(r[1].get(v, 0)) for v in variables) for r in rows),
                           tuple(sympy.expand(r[2]) for r in rows), domain=tuple(dom))
    return variables, rows, bounds, dom, problem


def _solved(problem, name: str, sizes: str, open_first: bool):
    """(solution, checked parametric-lp certificate on the problem's domain) or why not.

    The parametric LP is solved on the domain (t ≥ 1, ...) or, when its cell t = 1 is too thin to sample (a
    degenerate LP there: the (ε,c)-PML LPs), on t > 1; the regions and split tree found are then certified
    again as a certificate on the closed domain t ≥ 1 — optimality on every closed region and coverage of the
    whole domain are checked there, so t = 1 is covered by a check, not by continuity."""
    import dataclasses

    from exactdp.algebra.certificates import check
    from exactdp.algebra.certificates.parametric_lp import ParametricLPCertificate
    from exactdp.numbers.truth import Truth
    from exactdp.theory.parametric import solve_parametric

    why = ""
    for opened in ((True, False) if open_first else (False, True)):
        if not opened:
            sol = solve_parametric(problem, name=name, scope=sizes)
            if sol.certified():
                return sol, sol.certificate
        else:
            sol = solve_parametric(dataclasses.replace(problem, domain=(t > 1, *problem.domain[1:])), name=name,
                                   scope=sizes)
            if sol.certified():
                cert = ParametricLPCertificate.build(problem, sol.regions, sol.tree, name=name, scope=sizes)
                res = check(cert)
                if res.truth is Truth.TRUE:
                    return sol, cert
                why = "; ".join(res.failures[:2])
                continue
        why = "; ".join(sol.check_failures[:2]) or "no region"
    return f"the parametric LP was not certified ({why})"


@functools.lru_cache(maxsize=16)
def _solved_lp(cls: str, gamma, n, lp_name: str, sizes: str):
    """(variables, rows, bounds, domain, problem, :func:`_solved`'s answer) of the two-point LP at N = n, kept
    for the run: the per-N proofs and the every-N lifting (:func:`_every_n`) read the same solution."""
    variables, rows, bounds, dom, problem = _lp(cls, gamma, n)
    return variables, rows, bounds, dom, problem, _solved(problem, lp_name, sizes, open_first=cls == "pml")


def _lp_name(cls: str, gamma, n) -> str:
    g_text = "" if gamma == 1 else f" - {gamma}*b"
    return f"two-point LP of {cls}{'' if n is None else f', N = {n}'}: max a{g_text or ' - b'}"


def _constraints(rows, bounds) -> list:
    """The LP's rows and bounds as (label, g) with g >= 0, the constraints of a ``linear-combination``."""
    cons = [(lab, rhs - sum((k * v for v, k in co.items()), sympy.Integer(0))) for lab, co, rhs in rows]
    return cons + [(lab, v) for lab, v in bounds]


def _reduced_costs(problem, lam) -> list:
    """The multipliers of the bounds x_j >= 0: (A_ubᵀ λ − c)_j."""
    return [sympy.cancel(sum((row[j] * y for row, y in zip(problem.A_ub, lam)), sympy.Integer(0)) - problem.c[j])
            for j in range(problem.n)]


def _combination(name, lp_name, variables, rows, bounds, dom, region, F, gamma, lam, mu, value, params, sizes,
                 uses):
    from exactdp.algebra.certificates.linear_combination import LinearCombination

    cons = _constraints(rows, bounds)
    return LinearCombination.build(
        name=name, parameters=params, variables=variables, constraints=cons,
        multipliers=[sympy.cancel(m) for m in (*lam, *mu)], conclusion=F - (a - gamma * b),
        slack=F - value, region=(*dom, *region), scope=sizes, uses=uses + (lp_name,))


def _bound_lp(cert_lp, combo, domain, extra_params):
    """The parametric-LP certificate filed under the conjecture (claim :data:`~exactdp.verification.export.CHECK_CLAIM`)
    as its proof on the class's whole domain: for every parameter point of ``domain`` and every (a, b[, S]) obeying
    the two-point constraints (the hypotheses, those of a region's combination ``combo``), F − (a − γ b) ≥ 0 — which
    the LP's optimum V_k ≤ F on each region and the regions' coverage of the domain give
    (:func:`exactdp.claim_statement.binding`)."""
    from exactdp.algebra.certificates import relation_text
    from exactdp.claim_statement import restating
    from exactdp.verification.export import CHECK_CLAIM  # deferred: start-up

    st = restating(CHECK_CLAIM, combo.bound_to(None).to_json(), tuple(relation_text(r) for r in domain),
                   tuple(map(str, extra_params)))
    return cert_lp.bound_to(st)


def _try(cls: str, gamma, F, n, strict_sizes: str):
    """(certificates, steps) of the proof at N = n (None: every N), or a :class:`Gap`, or a reason (str)."""
    from exactdp.algebra.certificates import check
    from exactdp.algebra.prover import Region, decide
    from exactdp.numbers.truth import Truth
    from exactdp.scopes import with_sizes

    lp_name = _lp_name(cls, gamma, n)
    if cls == "pml" and n is None:
        F = F.xreplace({N: u / c})  # every N at once: N*c is the parameter u
    extra_params = sorted(F.free_symbols - set(_lp(cls, gamma, n)[4].parameters), key=str)
    if any(p != N for p in extra_params):
        return f"the conjectured side depends on {', '.join(map(str, extra_params))}, not a parameter of {cls}"
    extra_dom = [N >= 2] if extra_params else []
    sizes = with_sizes(strict_sizes, ["N"] if extra_params else [])
    g_text = "" if gamma == 1 else f" - {gamma}*b"
    variables, rows, bounds, dom, problem, found = _solved_lp(cls, gamma, n, lp_name, sizes)
    if isinstance(found, str):
        return found
    sol, cert_lp = found
    extra, uses = _uses(gamma)
    params = (*problem.parameters, *extra_params)
    combos, steps = [], []
    for k, r in enumerate(sol.regions):
        m_ub = len(problem.A_ub)
        lam = r.y_ub[:m_ub]
        mu = _reduced_costs(problem, lam)
        slack = sympy.cancel(F - r.value) if not F.has(sympy.Max, sympy.Min, sympy.Abs) else F - r.value
        conds = [*dom, *extra_dom, *r.conditions]
        d = decide(sympy.GreaterThan(slack, 0, evaluate=False) if slack.free_symbols else slack >= 0,
                   Region.of(*conds, variables=sorted(set(params), key=str)))
        if d.truth is Truth.FALSE and d.counterexample:
            sub = dict(d.counterexample)
            pt = {str(s): v for s, v in sub.items()}
            return Gap(cls, pt, r.value.xreplace(sub), F.xreplace(sub),
                       tuple(x.xreplace(sub) for x in r.x), sizes or "every N", n)
        if d.truth is not Truth.TRUE:
            return f"region {k} ({' and '.join(map(str, r.conditions)) or 'the domain'}): F - V >= 0 undecided"
        name = f"check: {lp_name}, region {k}: a{g_text or ' - b'} <= conjectured side"
        cert = _combination(name, cert_lp.name, variables, rows, bounds, [*dom, *extra_dom], r.conditions, F, gamma,
                            lam, mu, r.value, params, sizes, uses)
        res = check(cert)
        if res.truth is not Truth.TRUE:
            return f"the combination of region {k} did not check ({'; '.join(res.failures[:2])})"
        combos.append(cert)
        where = " and ".join(map(str, r.conditions)) or "the whole domain"
        steps.append(f"region {k} ({where}): LP optimum {r.value}; multipliers "
                     f"({', '.join(map(str, cert.multipliers))}); certificate {cert.kind} {cert.name!r} checked: TRUE")
    cert_lp = _bound_lp(cert_lp, combos[0], [*dom, *extra_dom], extra_params)
    res = check(cert_lp)
    if res.truth is not Truth.TRUE:
        return f"the parametric LP does not prove the conjecture on the domain ({'; '.join(res.failures[:2])})"
    for x in extra:
        res = check(x)
        if res.truth is not Truth.TRUE:
            return f"the two-point certificate {x.name!r} did not check"
    head = (f"{cls}{'' if n is None else f', N = {n}'}: parametric LP max a{g_text or ' - b'} over the two-point "
            f"constraints: {len(sol.regions)} region(s); certificate {cert_lp.kind} {cert_lp.name!r} checked: TRUE "
            f"(its split tree covers the domain {', '.join(map(str, dom))})")
    return (cert_lp, *combos, *extra), [head] + steps


#: the exact sample points of :func:`_sampled_gap`: t = e^ε from 1 to 10, δ and c·N as fractions of their range
_T_GRID = tuple(sympy.Rational(v) for v in ("1", "9/8", "5/4", "3/2", "2", "3", "4", "6", "10"))
_FRACTIONS = tuple(sympy.Rational(j, 8) for j in range(1, 9))


def _sampled_gap(cls: str, gamma, F, ns) -> Gap | None:
    """The gap :func:`_try` reports at the first N of ``ns`` where the per-N LP's optimum V exceeds F at an exact
    sample point (a point of a small rational grid inside one of its regions, F − V < 0 evaluated exactly), else
    None.

    Why first: a certificate of this shape for every N, or at that N, would bound the LP's optimum by F at the
    point (weak duality), so neither exists — the synthesis of the other sizes and of the lifted every-N bound (a
    cell decomposition in three parameters) can be skipped.  The sample only chooses the N; the gap returned is
    the prover's (:func:`_try` at that N), so a gap is never reported from sampling alone."""
    for n in ns:
        Fn = F.xreplace({N: n})
        found = _solved_lp(cls, gamma, n, _lp_name(cls, gamma, n), f"N = {n}")
        if isinstance(found[-1], str) or not _violated_at_a_sample(found[3], found[-1][0].regions, Fn, n):
            continue
        out = _try(cls, gamma, Fn, n, f"N = {n}")
        if isinstance(out, Gap):
            return out
    return None


def _violated_at_a_sample(dom, regions, F, n: int) -> bool:
    """Whether F − V_i < 0 at some grid point of the domain inside region i (every comparison exact)."""
    params = sorted(set().union(F.free_symbols, *[r.free_symbols for r in dom]), key=str)
    if not set(params) <= {t, c, delta}:
        return False
    for point in _grid(params, dom, n):
        inside = [r for r in regions if _holds(r.conditions, point)]
        if inside and _holds([F.xreplace(point) < inside[0].value.xreplace(point)], {}):
            return True
    return False


def _holds(relations, point) -> bool:
    """Whether every relation is true at the rational point (False when one is not decided there)."""
    try:
        return all(bool(r.xreplace(point)) for r in relations)
    except TypeError:  # a relation left symbolic: not a point of it
        return False


def _false_at(relation, point) -> bool:
    """Whether the relation is false at the rational point (not when it is undefined there)."""
    try:
        return relation.xreplace(point) is sympy.false
    except (TypeError, ValueError):  # a zero denominator, or a Max/Min of an undefined value
        return False


def _grid(params, dom, n: int):
    """Rational points of the class domain ``dom`` at N = n: t on :data:`_T_GRID`, δ on eighths of [0, 1], c on
    eighths and 64ths of its range (0, 1/n]."""
    axes = {t: _T_GRID, delta: (sympy.Integer(0), *_FRACTIONS),
            c: tuple(f / (8 * n) for f in _FRACTIONS) + tuple(f / n for f in _FRACTIONS)}
    points: list[dict] = [{}]
    for p in params:
        points = [{**pt, p: v} for pt in points for v in axes[p]]
    return [pt for pt in points if _holds(dom, pt)]


def _every_n(gamma, F, ns):
    """(certificates, steps) of a proof over (ε,c)-PML for every N at once, or why not (str).

    The parametric LP with u = N·c a third parameter is out of quick reach, but its bases are not: every
    optimal basis of the per-N LPs (N in ``ns``) is lifted to rational functions of (t, c, u)
    (:func:`exactdp.theory.parametric.lift_basis`; the rows are the same, with N·c written u).  A lifted basis
    whose multipliers are ≥ 0 on the whole domain t ≥ 1, c > 0, 2c ≤ u ≤ 1 is a Farkas certificate of
    a − γb ≤ V(t, c, u) for every N and M by itself — weak LP duality needs dual feasibility only, so no
    region and no coverage of the domain is involved — and checked as such (``linear-combination``, slack 0).
    The conjecture then follows on the domain from one V_j below each argument of F's Min (a ``split-tree``,
    :func:`_whole_domain_final`), instantiated at u = N·c.  [G] Thm 1's own certificate (:func:`exactdp.theory.class_certificates.pml_tv`) is the
    case γ = 1: multipliers 1/(1 + t(1 − u)) on the two aggregated PML constraints."""
    from exactdp.algebra.certificates import check
    from exactdp.algebra.certificates.linear_combination import LinearCombination
    from exactdp.numbers.truth import Truth
    from exactdp.theory.parametric import lift_basis

    Fu = sympy.cancel(F.xreplace({N: u / c})) if not F.has(sympy.Max, sympy.Min, sympy.Abs) else F.xreplace({N: u / c})
    if not Fu.free_symbols <= {t, c, u}:
        return f"the conjectured side depends on {', '.join(sorted(map(str, Fu.free_symbols - {t, c, u})))}"
    variables, rows, bounds, dom, problem = _lp("pml", gamma, None)
    bases: list = []
    for n in ns:
        found = _solved_lp("pml", gamma, n, _lp_name("pml", gamma, n), f"N = {n}")[-1]
        if not isinstance(found, str):
            bases += [r.basis for r in found[0].regions if r.basis not in bases]
    if not bases:
        return "no per-N LP was solved"
    extra, uses = _uses(gamma)
    scope = "all N, M; t >= 1, 0 < c <= 1/N (u = N*c)"
    g_text = "a - b" if gamma == 1 else f"a - {gamma}*b"
    combos, values, steps = [], [], []
    for basis in bases:
        try:
            x, lam, _, value = lift_basis(problem, basis)
        except (ZeroDivisionError, ValueError, ArithmeticError):  # singular with u free: not a basis there
            continue
        if value in values:
            continue
        cert = LinearCombination.build(
            name=f"check: two-point LP of pml, every N: {g_text} <= {value}", parameters=problem.parameters,
            variables=variables, constraints=_constraints(rows, bounds),
            multipliers=[sympy.cancel(m) for m in (*lam, *_reduced_costs(problem, lam))],
            conclusion=value - (a - gamma * b), slack=0, region=dom, scope=scope, uses=uses)
        if check(cert).truth is not Truth.TRUE:  # not dual feasible on the whole domain: no bound for every N
            continue
        combos.append(cert)
        values.append(value)
        steps.append(f"every N: {g_text} <= {value} for every (t, c, u = N*c) of the domain; multipliers "
                     f"({', '.join(map(str, cert.multipliers))}); certificate {cert.kind} {cert.name!r} "
                     f"checked: TRUE")
    why = _whole_domain_final(gamma, F, values, combos, Fu, dom, problem, variables, _constraints(rows, bounds),
                              uses) if combos else "no lifted basis is dual feasible on the whole domain"
    if isinstance(why, str):  # sign-changing multipliers: N = 2 on its own, split trees for N >= 3
        out = _n2_and_from_three(gamma, F, Fu, list(zip(values, combos)), bases, problem, variables, rows, bounds,
                                 uses)
        if isinstance(out, str):
            return f"{why}; split at N = 3: {out}"
        for x in extra:
            if check(x).truth is not Truth.TRUE:
                return f"the two-point certificate {x.name!r} did not check"
        return (*out[0], *extra), out[1]
    finals, final_steps = why
    for x in extra:
        if check(x).truth is not Truth.TRUE:
            return f"the two-point certificate {x.name!r} did not check"
    head = (f"pml, every N (u = N*c a parameter): {len(combos)} basis(es) of the per-N two-point LPs "
            f"(N = {', '.join(map(str, ns))}) lifted to (t, c, u), each dual feasible on the whole domain")
    return (*combos, *finals, *extra), [head] + steps + final_steps


def _n2_and_from_three(gamma, F, Fu, whole, bases, problem, variables, rows, bounds, uses):
    """(certificates, steps) for every N as N = 2 (its own parametric LP, :func:`_try`) and N ≥ 3 on 3c ≤ u ≤ 1
    (:func:`exactdp.verification.conjecture.pieces.prove_from_three`), or why not (str)."""
    two = _try("pml", gamma, F.xreplace({N: 2}), 2, "N = 2")
    if not isinstance(two, tuple):
        return f"N = 2: {two.text() if isinstance(two, Gap) else two}"
    out = pieces.prove_from_three(gamma, Fu, whole, bases, problem, variables, _constraints(rows, bounds), uses,
                                  _reduced_costs)
    if isinstance(out, str):
        return out
    head = ("pml, N = 2 on its own (per N), then every N >= 3 on the domain t >= 1, c > 0, 3*c <= u <= 1 (u = N*c; it "
            "contains every integer N >= 3, and u - 2*c > 0 there)")
    inst = _instance(out[0][0], gamma, F, 3)
    if isinstance(inst, str):
        return inst
    join = _join(two[0][0], inst[0], gamma, F)
    if isinstance(join, str):
        return join
    return (*two[0], *out[0], inst[0], join[0]), [head, *two[1], *out[1], inst[1], join[1]]


def _claim_statement(gamma, F, low: int):
    """The conjecture's statement over (ε,c)-PML for every integer N ≥ ``low`` (claim
    :data:`~exactdp.verification.export.CHECK_CLAIM`, sizes "all N, M"): for every t ≥ 1, c > 0, N ≥ low, N·c ≤ 1
    and every (a, b, S) under the two-point constraints at N (:func:`two_point_rows` with N a symbol),
    F − (a − γb) ≥ 0."""
    from exactdp.algebra.certificates import expr_text, relation_text
    from exactdp.claim_statement import ClaimStatement
    from exactdp.verification.export import CHECK_CLAIM  # deferred: start-up

    _, rows, bounds, _ = two_point_rows("pml", gamma, N)
    return ClaimStatement(
        claim=CHECK_CLAIM, sizes="all N, M", parameters=("c", "N", "t"), variables=("a", "b", "S"),
        domain=tuple(relation_text(r) for r in (t >= 1, c > 0, N >= low, N * c <= 1)),
        hypotheses=tuple(f"{expr_text(g)} >= 0" for _, g in _constraints(rows, bounds)),
        conclusions=(f"{expr_text(F - (a - gamma * b))} >= 0",),
        reduction="every pair of rows x, x' and output set A, a = K_x(A), b = K_x'(A), S = sum_x K_x(A)")


def _instance(src, gamma, F, low: int):
    """(the checked ``instantiation`` certificate of the conjecture for every integer N ≥ ``low`` from the
    certificate ``src``, whose statement is in u = N·c, and its step), or why not (str): u ↦ N·c, the domain
    t ≥ 1, c > 0, N ≥ low, N·c ≤ 1 (:mod:`exactdp.algebra.certificates.instantiation`)."""
    from exactdp.algebra.certificates import assumptions_of, check
    from exactdp.algebra.certificates.instantiation import Instantiation
    from exactdp.numbers.truth import Truth

    st = _claim_statement(gamma, F, low)
    cert = Instantiation(parameters=st.parameters, assumptions=assumptions_of((t, c, N)), region=st.domain,
                         sizes=st.sizes, variables=st.variables, source=src.name, source_statement=src.statement,
                         substitution=(("u", "N*c"),)).bound_to(st)
    res = check(cert)
    if res.truth is not Truth.TRUE:
        return f"the instantiation u = N*c: {res.truth} ({'; '.join(res.failures[:2])})"
    return cert, (f"every N >= {low}: at u = N*c the statement of {src.kind} {src.name!r} is the conjecture for every "
                  f"integer N >= {low} ({', '.join(st.domain)} lies in its domain; the conclusions agree term by "
                  f"term): certificate {cert.kind} checked: TRUE")


def _join(two, three, gamma, F):
    """(the checked ``cases`` certificate of the conjecture for every integer N ≥ 2 from its N = 2 part ``two`` and
    its N ≥ 3 part ``three``, and its step), or why not (str)."""
    from exactdp.algebra.certificates import assumptions_of, check
    from exactdp.algebra.certificates.instantiation import Cases
    from exactdp.numbers.truth import Truth

    st = _claim_statement(gamma, F, 2)
    cert = Cases(parameters=st.parameters, assumptions=assumptions_of((t, c, N)), region=st.domain, sizes=st.sizes,
                 variables=st.variables, size="N", hypotheses=st.hypotheses, conclusions=st.conclusions,
                 parts=((two.name, "2", "2"), (three.name, "3", "")),
                 part_statements=(two.statement, three.statement)).bound_to(st)
    res = check(cert)
    if res.truth is not Truth.TRUE:
        return f"the cases N = 2, N >= 3: {res.truth} ({'; '.join(res.failures[:2])})"
    return cert, ("N = 2 and every integer N >= 3: every integer N >= 2 (N is a size: the cases 2..2 and 3.. are "
                  "consecutive integer ranges): certificate cases checked: TRUE")


def _whole_domain_final(gamma, F, values, combos, Fu, dom, problem, variables, constraints, uses):
    """(the certificates that carry a − γb ≤ Fu on the whole domain 2c ≤ u ≤ 1 — a ``split-tree`` of the lifted
    bounds, :func:`exactdp.verification.conjecture.pieces.whole_domain_tree` — and the conjecture for every integer
    N ≥ 2 from it, an ``instantiation`` at u = N·c —, the steps), or why not (str): first compared at exact points
    of the domain (:func:`_every_n_points`)."""
    rel = sympy.LessThan(sympy.Min(*values) if len(values) > 1 else values[0], Fu, evaluate=False)
    above = next((p for p in _every_n_points() if _false_at(rel, p)), None)
    if above is not None:  # exact: the prover's decomposition in (t, c, u) would only confirm it, at length
        return (f"the smaller lifted bound {rel.lhs} exceeds the conjectured side at "
                f"{', '.join(f'{k} = {v}' for k, v in above.items())}")
    tree = pieces.whole_domain_tree(gamma, Fu, list(zip(values, combos)), problem, variables, constraints, uses, dom)
    if isinstance(tree, str):
        return tree
    inst = _instance(tree[0], gamma, F, 2)
    if isinstance(inst, str):
        return inst
    return (tree[0], inst[0]), [*tree[1], inst[1]]


#: u = N·c in sixteenths of (0, 1] and c as a fraction of its range (0, u/2]: with t on :data:`_T_GRID`, the
#: exact points of :func:`_every_n_points`
_U_SIXTEENTHS = tuple(sympy.Rational(j, 16) for j in range(1, 17))
_C_OF_U = tuple(sympy.Rational(1, 2 ** k) for k in range(6))


def _every_n_points() -> list[dict]:
    """Exact points of the every-N domain t ≥ 1, c > 0, 2c ≤ u ≤ 1, at which :func:`_every_n` compares the
    smallest lifted bound with the conjectured side before asking the prover (a failure at a point is final)."""
    return [{t: tv, u: uv, c: uv * f / 2} for tv in _T_GRID for uv in _U_SIXTEENTHS for f in _C_OF_U]


def synthesise(conj: Conjecture, classes, spec) -> Synthesis:
    """A synthesised, checked proof of the conjecture for every class (module docstring), or the gap, or why
    not."""
    from exactdp.theory.structural_lemmas import lemmas_used, with_lemmas  # deferred: start-up

    if conj.strict:
        return Synthesis(why="a strict inequality is outside the shape (a combination proves >= 0)")
    small, large = conj.sides()
    gamma = _quantity(small)
    f = rational_in_t(large)
    if gamma is None or f is None:
        return Synthesis(why="outside the shape: the small side must be eta_tv or eta_hs(gamma), gamma a rational "
                             ">= 1 or exp(eps), the large side a function of the class parameters")
    s = conjecture_symbols()
    F = f.xreplace({T: t, s["delta"]: delta, s["c"]: c, s["N"]: N})
    certificates: list = []
    steps = [f"certificate synthesis: {small} <= {f} (t = exp(eps)) from the two-point LP of each class, "
             f"Farkas multipliers lifted to rational functions of the parameters"]
    if large.subs(sympy.exp(s["eps"]), T).has(s["eps"]):
        rw = rewrite_certificate(large, f, s)
        if rw is None:
            return Synthesis(why="the rewriting of the conjectured side in t did not check")
        certificates.append(rw)
        steps.append(f"with eps = log(t): {large} = {f} (certificate {rw.kind} {rw.name!r} checked: TRUE)")
    every_n = True
    for cls in classes:
        if F.has(N) or cls == "pml":  # a gap at one N rules out every certificate of the shape: looked for first
            gap = _sampled_gap(cls, gamma, F, range(spec.N[0], spec.N[1] + 1))
            if gap is not None:
                return Synthesis(gap=gap)
        # (eps,c)-PML every N at once has three parameters (t, c, u = N*c): beyond the prover's quick reach
        out = _try(cls, gamma, F, None, "all N, M") if cls != "pml" else _every_n(
            gamma, F, range(spec.N[0], min(spec.N[1], 3) + 1))
        if not isinstance(out, tuple) and (F.has(N) or cls == "pml"):
            per = [(n, _try(cls, gamma, F.xreplace({N: n}), n, f"N = {n}")) for n in range(spec.N[0], spec.N[1] + 1)]
            # a gap at one N (no certificate of this shape exists there) says more than an undecided step at another
            bad = next((o for _, o in per if isinstance(o, Gap)), None) or next(
                (o for _, o in per if not isinstance(o, tuple)), None)
            if bad is not None:
                return Synthesis(gap=bad if isinstance(bad, Gap) else None, why=bad if isinstance(bad, str) else "")
            every_n = False
            for _, (certs, st) in per:
                certificates += [x for x in certs if x not in certificates]
                steps += st
            continue
        if not isinstance(out, tuple):
            return Synthesis(gap=out if isinstance(out, Gap) else None, why=out if isinstance(out, str) else "")
        certs, st = out
        certificates += [x for x in certs if x not in certificates]
        steps += st
    lemmas = lemmas_used(certificates)
    if lemmas:
        steps.append("the constraints rest on the structural lemmas " + "; ".join(lemmas) + " (certificates checked "
                     "with the proof)")
    steps.append("two-point step: " + ("the structural lemma 'two-point bound' bounds eta_TV by max a - b" if gamma == 1
                                       else f"[A] Thm 3 (<=) with Thm 1 (=>) at gamma = {gamma}: eta_E_gamma(K) <= "
                                            f"max over rows and sets of a - gamma*b (certificates checked with the proof)"))
    whole = with_lemmas(certificates)
    from exactdp.algebra.certificates import check
    from exactdp.numbers.truth import Truth

    if any(check(x).truth is not Truth.TRUE for x in whole):
        return Synthesis(why="a structural-lemma certificate did not check")
    from exactdp.algebra.certificates.instantiation import citation_failures

    cited = citation_failures(whole)
    if cited:
        return Synthesis(why="; ".join(cited[:2]))
    sizes = "all N, M" if every_n else (f"N = {spec.N[0]}..{spec.N[1]}" if spec.N[1] > spec.N[0]
                                        else f"N = {spec.N[0]}") + ", all M"
    return Synthesis(Proof(PROVED, tuple(steps), (), tuple(whole), f"{sizes}; all parameters of the class"))
