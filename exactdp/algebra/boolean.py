r"""And / Or / Not of rational sign conditions, decided exactly on a region (any number of parameters).

``decide_formula(F, R)`` answers TRUE iff F holds at every point of the region R, FALSE with an exact
counterexample point (rational coordinates, or one algebraic coordinate shown exactly), UNKNOWN with a
reason — never a guess.  F is built from sympy relations ``a < b``, ``a <= b``, ``a > b``, ``a >= b``,
``Eq(a, b)``, ``Ne(a, b)`` (a, b rational functions of the parameters, ``Min``/``Max``/``Piecewise`` allowed)
with sympy's ``And``, ``Or``, ``Not``, ``Implies``; a :class:`Region` may stand for its conditions.

Method (:mod:`exactdp.algebra.cylindrical`):

1. Every relation becomes ``num/den ⋈ 0``; a denominator whose sign is constant on R (decided by this
   procedure) is folded into the numerator, otherwise the relation is undefined where it vanishes and a
   sample point there gives UNKNOWN.
2. A cylindrical decomposition adapted to all numerators, denominators and region constraints is
   sampled; the truth value of F is constant on each cell (it is a function of the polynomials' signs),
   so F is evaluated exactly at every sample in R.  A failing sample is an exact counterexample.
3. Samples are missing only on lower-dimensional cells whose algebraic coordinates have no primitive
   element θ = β + kα with k ≤ 8 (the *gaps*; with one or two parameters there are none: the fibres over
   algebraic abscissae are lifted in ℚ(α), with three over (α, β) in ℚ(θ)).
   With no gap the answer is TRUE.  With gaps the answer is still TRUE when the failure set
   R ∩ {¬F} is open: F uses only non-strict relations (≥, ≤, =, in negation normal form), every
   non-box constraint of R is strict and every denominator has a constant sign — an open non-empty set
   meets a full-dimensional cell, and those are all sampled (box faces: the open set meets the box's
   interior too).  A non-strict constraint g ≥ 0 of R is split into g > 0 and g = 0; the second part is
   decided after eliminating a variable v in which g is linear with a coefficient of constant non-zero
   sign.  A single strict relation P > 0 is decided as P ≥ 0 together with the emptiness of R ∩ {P = 0}
   (the same elimination).  Anything else with gaps: UNKNOWN, naming the gap.
4. Other orders of projection are tried first (a gap in one order may not exist in another).
5. **Four or more parameters**: the same decomposition (projection and lifting over rational samples, the
   nullification check of McCallum's well-orientedness, the work estimated first:
   :mod:`exactdp.algebra.cylindrical`, 4.).  A failing sample is a counterexample as in 2.; TRUE only when
   the decomposition of some order has no gap (neither the open-failure argument nor the splitting of 3. is
   used there); otherwise UNKNOWN, naming a gap.  A decomposition whose estimated work exceeds ``max_work``
   is refused before it is computed: the answer is UNKNOWN with the refusal (the limit and how to raise it)
   as its reason — four or more parameters were UNKNOWN before they were decided at all, and the callers
   (certificate checks, the SMT oracle's comparisons) read an answer, not an exception.

Coverage of a domain D by regions R₁…R_k is ``decide_formula(Or(R₁, …, R_k), D)`` (:func:`covers`).
"""

from __future__ import annotations

from typing import Any

import sympy

from exactdp.algebra.cylindrical import (
    MAX_VARIABLES,
    box_of,
    cells,
    lift_deferred,
    point_as_sympy,
    rational_sample,
    sign_at,
)
from exactdp.algebra.cases import cases, rational_check
from exactdp.algebra.decision import Decision, ProverUndecided
from exactdp.algebra.regions import Region
from exactdp.limits import ResourceLimitError
from exactdp.numbers.formula_text import inline_step
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Truth

And, Or, Not, Implies = sympy.And, sympy.Or, sympy.Not, sympy.Implies

_OPS = {sympy.StrictGreaterThan: ">", sympy.GreaterThan: ">=", sympy.StrictLessThan: "<", sympy.LessThan: "<=",
        sympy.Eq: "==", sympy.Ne: "!="}
_CLOSED = {">=", "<=", "=="}
#: what a decision step returns: the truth, a counterexample (a point) or None, and a reason
_Decided = tuple[Truth, dict[Any, Any] | None, str]

_NEGATED = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "=="}


class _Formula:
    """A formula compiled to a tree over atoms ``(num, den, op)`` meaning ``num/den op 0``."""

    def __init__(self, formula: Any) -> None:
        self.atoms: list[Any] = []
        self.tree = self._compile(formula)

    def _compile(self, f: Any) -> tuple[Any, ...]:
        if isinstance(f, Region):
            f = f.as_sympy()
        if f is sympy.true or f is True:
            return ("const", True)
        if f is sympy.false or f is False:
            return ("const", False)
        if isinstance(f, sympy.And):
            return ("and", [self._compile(a) for a in f.args])
        if isinstance(f, sympy.Or):
            return ("or", [self._compile(a) for a in f.args])
        if isinstance(f, sympy.Not):
            return ("not", self._compile(f.args[0]))
        if isinstance(f, sympy.Implies):
            return ("or", [("not", self._compile(f.args[0])), self._compile(f.args[1])])
        if type(f) in _OPS:
            return self._relation(as_expr(f.lhs) - as_expr(f.rhs), _OPS[type(f)])
        raise ProverUndecided(f"not a Boolean combination of sign conditions: {f}")

    def _relation(self, e: Any, op: Any) -> tuple[Any, ...]:
        if e.has(sympy.Min, sympy.Max, sympy.Piecewise):  # one branch per case condition
            return ("or", [("and", [self._compile(sub.as_sympy()), self._relation(piece, op)])
                           for piece, sub in cases(e, Region((), ()))])
        rational_check(e)
        num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
        if not (_rational_coefficients(num) and _rational_coefficients(den)):
            raise ProverUndecided(f"irrational coefficients in {e} (only rational ones are decided)")
        self.atoms.append([sympy.expand(num), sympy.expand(den), op])
        return ("atom", len(self.atoms) - 1)

    def polys(self) -> list[Any]:
        out = []
        for num, den, _ in self.atoms:
            for p in (num, den):
                if p.free_symbols and p not in out:
                    out.append(p)
        return out

    def closed(self, node: Any = None, negated: Any = False) -> bool:
        """True when the formula (in negation normal form) uses only non-strict relations."""
        node = self.tree if node is None else node
        kind = node[0]
        if kind == "const":
            return True
        if kind == "not":
            return self.closed(node[1], not negated)
        if kind in ("and", "or"):
            return all(self.closed(a, negated) for a in node[1])
        op = self.atoms[node[1]][2]
        return (_NEGATED[op] if negated else op) in _CLOSED

    def value(self, point: dict[Any, Any], cache: dict[Any, Any], node: Any = None) -> bool | None:
        """True / False at the point, or None where a denominator vanishes (undefined; Kleene's three-valued
        And/Or: an undefined part does not matter when another part settles the value)."""
        node = self.tree if node is None else node
        kind: str = node[0]
        if kind == "const":
            return bool(node[1])
        if kind == "not":
            v = self.value(point, cache, node[1])
            return None if v is None else not v
        if kind in ("and", "or"):
            vals = [self.value(point, cache, a) for a in node[1]]
            if kind == "and" and False in vals or kind == "or" and True in vals:
                return kind == "or"
            return None if None in vals else kind == "and"
        num, den, op = self.atoms[node[1]]
        sd = _sign(den, point, cache)
        if sd == 0:
            return None
        s = _sign(num, point, cache) * sd
        return bool({">": s > 0, ">=": s >= 0, "<": s < 0, "<=": s <= 0, "==": s == 0, "!=": s != 0}[op])


def _rational_coefficients(p: Any) -> bool:
    if not p.free_symbols:
        return bool(p.is_Rational)
    domain = sympy.Poly(p, *sorted(p.free_symbols, key=str)).domain
    return bool(domain.is_ZZ or domain.is_QQ)


def _sign(p: Any, point: Any, cache: Any) -> int:
    if not p.free_symbols:
        v = sympy.Rational(p)
        return int(v.p > 0) - int(v.p < 0)
    key = p
    if key not in cache:
        cache[key] = sign_at(p, point)
    s: int = cache[key]
    return s


def covers(regions: Any, domain: Region) -> Decision:
    """Decide that the regions (each a :class:`Region` or a sympy condition) cover the domain."""
    return decide_formula(sympy.Or(*[r.as_sympy() if isinstance(r, Region) else r for r in regions]), domain)


def decide_formula(formula: Any, region: Region | None = None) -> Decision:
    """TRUE iff the formula holds at every point of the region (exact; module docstring for the method).

    >>> t, c = sympy.symbols("t c", positive=True)
    >>> covers([t * c <= 1, t * c > 1], Region.of(t >= 1)).truth is Truth.TRUE
    True
    >>> d = decide_formula(sympy.Or(t <= 2, c >= 1), Region.of(t >= 1, c <= 1))
    >>> d.truth is Truth.FALSE and d.counterexample[t] > 2 and d.counterexample[c] < 1
    True
    """
    if isinstance(formula, Region):
        formula = formula.as_sympy()
    syms = sorted(getattr(formula, "free_symbols", set()), key=str)
    region = region or Region.of(variables=syms)
    steps: list[Any] = []
    try:
        truth, ce, reason = _decide(formula, region, steps, depth=0)
    except ProverUndecided as exc:
        return Decision(Truth.UNKNOWN, formula, region, steps, reason=str(exc))
    return Decision(truth, formula, region, steps, counterexample=ce, reason=reason)


def _settle_denominators(F: _Formula, region: Region, steps: list[Any], depth: int) -> bool:
    """Fold every denominator of constant sign into its numerator; True when all were settled."""
    settled = True
    for atom in F.atoms:
        num, den, op = atom
        if not den.free_symbols:
            if den < 0:
                atom[0], atom[1] = -num, sympy.Integer(1)
            continue
        for sgn in (1, -1):
            t, _, _ = _decide(sgn * den > 0, region, [], depth + 1)
            if t is Truth.TRUE:
                atom[0], atom[1] = sympy.expand(sgn * num), sympy.Integer(1)
                steps.append(inline_step(f"the denominator {{}} is {'positive' if sgn > 0 else 'negative'} on the "
                                         f"region", den))
                break
        else:
            settled = False
    return settled


def _decide(formula: Any, region: Region, steps: list[Any], depth: int) -> _Decided:
    """(Truth, counterexample or None, reason)."""
    if depth > 6:
        raise ProverUndecided("the case split is too deep")
    F = _Formula(formula)
    dens_ok = _settle_denominators(F, region, steps, depth)
    cons = [g for g, _ in region.constraints]
    polys = F.polys() + [g for g in cons if g not in F.polys()]
    used = set().union(*[p.free_symbols for p in polys]) if polys else set()
    for v in region.variables:
        if v not in used and rational_sample(region.bounds(v)) is None:
            steps.append(inline_step("the bounds of {} are empty: the claim holds vacuously", v))
            return Truth.TRUE, None, ""
    variables = [v for v in region.variables if v in used] + sorted(used - set(region.variables), key=str)
    complete_only = len(variables) > MAX_VARIABLES  # four or more: TRUE only from a decomposition without gaps
    if not variables:
        v = F.value({}, {})
        if v is None:
            raise ProverUndecided("a denominator is zero")
        if v:
            return Truth.TRUE, None, ""
        return Truth.FALSE, {k: qq_to_sympy(q) for k, q in rest_points(region).items()}, ""
    for v in variables:  # a closed degenerate interval: v is a number (the box has no interior in v)
        b = region.bounds(v)
        if b.lo is not None and b.lo == b.hi and not b.lo_open and not b.hi_open:
            steps.append(inline_step("{} (its bounds coincide)", sympy.Eq(v, qq_to_sympy(b.lo), evaluate=False)))
            return _restricted(formula, region, v, qq_to_sympy(b.lo), steps, depth)
    box = box_of(region, variables)
    rest = {v: rational_sample(region.bounds(v)) for v in region.variables if v not in used}
    open_failure = F.closed() and dens_ok and all(strict for _, strict in region.constraints)
    gaps_seen = None
    for order in _orders(variables):
        try:
            C = cells(polys, order, box, lift_two=False)
        except ResourceLimitError as exc:  # four or more: refused by the work estimate, UNKNOWN as before
            if not complete_only:
                raise
            raise ProverUndecided(f"{len(variables)} parameters: {exc}") from exc
        where = "cells in the order " + ", ".join("{}" for _ in order)
        n, ce = _scan(F, C.points, region, rest)
        if ce is not None:
            steps.append(inline_step(where + ": {} fails at {}", *order, formula, ce))
            return Truth.FALSE, ce, ""
        gaps = C.gaps + [_gap_text(d) if k == 0 else "" for k, d in enumerate(C.deferred)]  # first described
        points = f"{n} sample point" + ("" if n == 1 else "s")
        if gaps and open_failure and not complete_only:
            steps.append(inline_step(where + f": {{}} holds at the {points} in the region; the "
                                     f"{len(gaps)} unsampled lower-dimensional place(s) (e.g. {gaps[0]}) cannot hide "
                                     f"a failure: the formula is closed and the region's constraints are strict, so a "
                                     f"failure would fill an open set and meet a sampled cell", *order, formula))
            return Truth.TRUE, None, ""
        if C.deferred:  # lift over the pairs of algebraic coordinates in Q(theta)
            D = lift_deferred(C, box)
            m, ce = _scan(F, D.points, region, rest)
            if ce is not None:
                steps.append(inline_step(where + ", lifted over algebraic pairs: {} fails at {}", *order, formula, ce))
                return Truth.FALSE, ce, ""
            n, gaps = n + m, C.gaps + D.gaps
        if not gaps:
            points = f"{n} sample point" + ("" if n == 1 else "s")
            steps.append(inline_step(where + f": {{}} holds at the {points} in the region, one in every cell",
                                     *order, formula))
            return Truth.TRUE, None, ""
        if gaps_seen is None:
            gaps_seen = (order, gaps)
    if complete_only and gaps_seen is not None:
        gaps = gaps_seen[1]
        raise ProverUndecided(f"{len(variables)} parameters: the decomposition has {len(gaps)} unsampled or "
                              f"uncertified lower-dimensional place(s) in every order (e.g. {gaps[0]}); with four "
                              f"or more parameters only a complete decomposition gives TRUE")
    return _split(F, formula, region, steps, depth, dens_ok, gaps_seen)


def _gap_text(deferred: Any) -> str:
    pt, _, x = deferred
    return f"the fibre in {x} over {', '.join(f'{v} = {q}' for v, q in pt.items())}"


def _scan(F: _Formula, points: Any, region: Region,
          rest: dict[Any, Any]) -> tuple[int, dict[Any, Any] | None]:
    """(number of region points checked, the first counterexample or None); exact."""
    n = 0
    for pt in points:
        cache: dict[Any, Any] = {}
        if not all(_ok(_sign(g, pt, cache), strict) for g, strict in region.constraints):
            continue
        n += 1
        v = F.value(pt, cache)
        if v is None:
            raise ProverUndecided(f"a denominator vanishes at the region point {point_as_sympy(pt)}")
        if v is False:
            return n, {**{k: qq_to_sympy(q) for k, q in rest.items()}, **point_as_sympy(pt)}
    return n, None


def rest_points(region: Region) -> dict[Any, Any]:
    return {v: rational_sample(region.bounds(v)) for v in region.variables}


def _ok(s: int, strict: bool) -> bool:
    return s > 0 or (s == 0 and not strict)


def _orders(variables: Any) -> list[list[Any]]:
    if len(variables) <= 1:
        return [list(variables)]
    # the last variable is projected first; try each variable in that place once
    return [[v for v in variables if v is not last] + [last] for last in reversed(variables)]


def _split(F: _Formula, formula: Any, region: Region, steps: Any, depth: Any, dens_ok: Any,
           gaps_seen: Any) -> _Decided:
    """With gaps: a non-strict constraint becomes g > 0 or g = 0 (eliminated); P > 0 becomes P >= 0 and P != 0."""
    order, gaps = gaps_seen
    why = f"{len(gaps)} unsampled lower-dimensional place(s), e.g. {gaps[0]}"
    nonstrict = [(g, s) for g, s in region.constraints if not s]
    if F.closed() and dens_ok and nonstrict:
        g = nonstrict[0][0]
        elim = _eliminate(g, region, depth)
        if elim is None:
            raise ProverUndecided(f"{why}; the constraint {g} >= 0 is not linear in a parameter with a coefficient "
                             f"of constant sign")
        v, value = elim
        others = tuple((h, s) for h, s in region.constraints if h is not g or s)
        inner = Region(region.variables, region.box, others + ((g, True),))
        steps.append(inline_step("split {} into {} and {} (there {})", sympy.GreaterThan(g, 0, evaluate=False),
                                 sympy.StrictGreaterThan(g, 0, evaluate=False), sympy.Eq(g, 0, evaluate=False),
                                 sympy.Eq(v, value, evaluate=False)))
        t1, ce, _ = _decide(formula, inner, steps, depth + 1)
        if t1 is not Truth.TRUE:
            return t1, ce, ""
        return _on_surface(formula, region, g, v, value, steps, depth)
    if F.tree[0] == "atom" and F.atoms[F.tree[1]][2] in (">", "<") and F.atoms[F.tree[1]][1] == 1:
        num, _, op = F.atoms[F.tree[1]]
        P = num if op == ">" else -num
        steps.append(inline_step("{} split into {} and the exclusion of {}", sympy.StrictGreaterThan(P, 0, evaluate=False),
                                 sympy.GreaterThan(P, 0, evaluate=False), sympy.Eq(P, 0, evaluate=False)))
        t1, ce, _ = _decide(P >= 0, region, steps, depth + 1)
        if t1 is not Truth.TRUE:
            return t1, ce, ""
        elim = _eliminate(P, region, depth)
        if elim is None:
            raise ProverUndecided(f"{why}; {P} is not linear in a parameter with a coefficient of constant sign")
        v, value = elim
        return _on_surface(sympy.false, region, P, v, value, steps, depth)
    raise ProverUndecided(why + (" and the formula has strict relations" if not F.closed() else
                            " and a denominator of unknown sign" if not dens_ok else ""))


def _on_surface(formula: Any, region: Region, g: Any, v: Any, value: Any, steps: Any,
                depth: Any) -> _Decided:
    """Decide the formula on region ∩ {g = 0}, where g = 0 ⟺ v = value."""
    steps.append(inline_step("on {}: {}", sympy.Eq(g, 0, evaluate=False), sympy.Eq(v, value, evaluate=False)))
    return _restricted(formula, region, v, value, steps, depth, drop=g)


def _restricted(formula: Any, region: Region, v: Any, value: Any, steps: Any, depth: Any,
                drop: Any = None) -> _Decided:
    """Decide the formula on region ∩ {v = value} (value a rational function of the other variables)."""
    conds = [b for b in [region.bounds(v).as_sympy(v).subs(v, value)] if b is not sympy.true]
    conds += [(h.subs(v, value) > 0) if s else (h.subs(v, value) >= 0) for h, s in region.constraints if h is not drop]
    variables = [w for w in region.variables if w is not v]
    sub = Region(tuple(variables), tuple(region.bounds(w) for w in variables))
    for cnd in conds:
        if cnd is sympy.false:
            steps.append(inline_step("{} does not meet the region", sympy.Eq(v, value, evaluate=False)))
            return Truth.TRUE, None, ""
        if cnd is not sympy.true:
            sub = sub.with_conditions(cnd)
    f2 = formula.subs(v, value) if hasattr(formula, "subs") else formula
    t, ce, reason = _decide(f2, sub, steps, depth + 1)
    if ce is not None:
        ce = {**ce, v: sympy.simplify(value.subs(ce))}
    return t, ce, reason


def _eliminate(g: Any, region: Region, depth: int) -> tuple[Any, Any] | None:
    """(v, value) with g = 0 ⟺ v = value on the region: g linear in v, coefficient of constant sign."""
    for v in sorted(g.free_symbols, key=str):
        P = sympy.Poly(g, v)
        if P.degree() != 1:
            continue
        a, b = P.all_coeffs()
        if a.free_symbols:
            ok = any(_decide(sgn * a > 0, region, [], depth + 1)[0] is Truth.TRUE for sgn in (1, -1))
        else:
            ok = a != 0
        if ok:
            return v, sympy.cancel(-b / a)
    return None


__all__ = ["And", "Or", "Not", "Implies", "decide_formula", "covers"]
