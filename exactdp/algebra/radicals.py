r"""Square roots in the prover: of parameters (v = w², w ≥ 0), and of any rational expression (r² = A, r ≥ 0).

Bounds such as Zamanlooy–Asoodeh's H² coefficient 2(√t − 1)²/(t + 1) or Binette's 2 − 4/(√M + 1) are
rational functions of √t, √M.  When every non-integer power in a claim is a half-integer power of a
*parameter* (a symbol with a region bound v ≥ 0), the claim in v is equivalent to the claim in w = √v
over the transformed region (w ≥ 0; v ≥ a becomes w ≥ √a when a is a rational square, else the
constraint w² ≥ a) (:func:`substitute`).  Answers are mapped back (a counterexample w = r is v = r², a
crossing w = r is v = r²).

A square root of anything else, √A with A = n/d a rational function of the parameters (√(x² + 1)), is
*eliminated* (:func:`eliminate`): each A^(p/2), innermost first, becomes r^p for a new variable r with r ≥ 0
(its box) and r²·d = n (the two constraints r²d − n ≥ 0, n − r²d ≥ 0).  Where d ≠ 0 and A ≥ 0 — the caller
(:func:`exactdp.algebra.prover.decide`) decides that on the region first, and answers UNKNOWN otherwise —
the point (x, r) satisfies them iff r = √A(x), so the claim holds on the region iff the rational claim in
(x, r) holds on the new region, and a counterexample (x, r) gives the counterexample x of the original
claim (r dropped).  Other non-integer powers and logs stay with the caller (UNKNOWN).
"""

from __future__ import annotations

from typing import Any

import sympy
from flint import fmpq

from exactdp.algebra.regions import Bounds, Region


def square_root_parameters(expr: Any) -> list[Any]:
    """Symbols v that appear as v**(k/2) with k odd (and no other non-integer power of them)."""
    out = set()
    for a in sympy.preorder_traversal(expr):
        if isinstance(a, sympy.Pow) and isinstance(a.base, sympy.Symbol) and a.exp.is_Rational \
                and not a.exp.is_Integer and a.exp.q == 2:
            out.add(a.base)
    return sorted(out, key=str)


def _rational_sqrt(q: fmpq) -> fmpq | None:
    r = sympy.sqrt(sympy.Rational(int(q.p), int(q.q)))
    return fmpq(int(r.p), int(r.q)) if r.is_Rational else None


def substitute(statement: Any, region: Region) -> tuple[Any, Region, dict[Any, Any]] | None:
    """``(statement', region', back)`` with v = w² for each square-root parameter v, or None when the
    region does not force v ≥ 0.  ``back`` maps answers in w to answers in v."""
    params = square_root_parameters(statement)
    if not params:
        return None
    subs, back = {}, {}
    variables, box, extra = list(region.variables), list(region.box), []
    for v in params:
        b = region.bounds(v)
        if b.lo is None or b.lo < 0:
            return None  # √v is not real on the whole region
        w = sympy.Symbol(f"sqrt_{v.name}", positive=True) if (b.lo > 0 or b.lo_open) else \
            sympy.Symbol(f"sqrt_{v.name}", nonnegative=True)
        subs[v], back[w] = w**2, v
        wb = Bounds(fmpq(0), None, b.lo == 0 and b.lo_open, True)
        for end, is_lo, op in ((b.lo, True, b.lo_open), (b.hi, False, b.hi_open)):
            if end is None or (is_lo and end == 0):
                continue
            r = _rational_sqrt(end)
            if r is not None:
                wb = wb.tighten(lo=r, lo_open=op) if is_lo else wb.tighten(hi=r, hi_open=op)
            else:
                g = w**2 - sympy.Rational(int(end.p), int(end.q)) if is_lo else \
                    sympy.Rational(int(end.p), int(end.q)) - w**2
                extra.append((g, op))
        if v in variables:
            k = variables.index(v)
            variables[k], box[k] = w, wb
        else:
            variables.append(w)
            box.append(wb)
    constraints = tuple((sympy.expand(g.subs(subs)), s) for g, s in region.constraints) + tuple(extra)
    new_region = Region(tuple(variables), tuple(box), constraints)
    return statement.subs(subs), new_region, back


def map_back(value: Any, back: dict[Any, Any]) -> Any:
    """A counterexample / crossing in the w variables expressed in the original parameters."""
    if isinstance(value, dict):
        return {back.get(k, k): (v**2 if k in back else v) for k, v in value.items()}
    if isinstance(value, sympy.Eq) and value.lhs in back:
        return sympy.Eq(back[value.lhs], sympy.expand(value.rhs**2))
    if isinstance(value, sympy.Basic):
        return value.subs({w: sympy.sqrt(v) for w, v in back.items()})
    return value


def _half_powers(expr: Any) -> list[Any]:
    """The powers A^(p/2) (p odd) of non-constant bases in ``expr``, innermost first."""
    found = [a for a in sympy.postorder_traversal(expr)
             if isinstance(a, sympy.Pow) and a.exp.is_Rational and not a.exp.is_Integer and a.exp.q == 2
             and a.base.free_symbols]
    out: list[Any] = []
    for a in found:
        if a not in out:
            out.append(a)
    return out


def eliminate(statement: Any, region: Region) -> tuple[Any, Region, list[tuple[Any, Any, Region]]] | None:
    """``(statement', region', roots)``: every square root √A of a non-constant A in ``statement`` replaced by
    a new variable r (module docstring), or None when there is none.  ``roots`` lists ``(r, A, where)``,
    innermost first: A (in the earlier roots' variables) must be ≥ 0, and defined, on the region ``where``."""
    powers = _half_powers(statement)
    if not powers:
        return None
    taken = {str(v) for v in statement.free_symbols | set(region.variables)}
    roots: list[tuple[Any, Any, Region]] = []
    by_base: dict[Any, Any] = {}
    for a in powers:  # innermost first: a base's inner roots are variables already
        base = _replace(a.base, by_base)
        if base in by_base:
            continue
        if not base.is_rational_function(*sorted(base.free_symbols, key=str)):
            return None  # √ of a log, a Min, ...: not a rational function, left to the caller (UNKNOWN)
        k = 1
        while f"root{k}" in taken:
            k += 1
        r = sympy.Symbol(f"root{k}", nonnegative=True)
        taken.add(r.name)
        roots.append((r, base, region))
        by_base[base] = r
        n, d = sympy.fraction(sympy.cancel(sympy.together(base)))
        g = sympy.expand(r ** 2 * d - n)
        region = Region(region.variables + (r,), region.box + (Bounds(fmpq(0), None, False, True),),
                        region.constraints + ((g, False), (sympy.expand(-g), False)))
    return _replace(statement, by_base), region, roots


def _replace(expr: Any, by_base: dict[Any, Any]) -> Any:
    """``expr`` with every A^(p/2) replaced by r^p (r the variable of A), bottom up."""
    if not expr.args:
        return expr
    args = [_replace(a, by_base) for a in expr.args]
    if isinstance(expr, sympy.Pow) and expr.exp.is_Rational and not expr.exp.is_Integer and expr.exp.q == 2:
        base = args[0]
        if base in by_base:
            return by_base[base] ** expr.exp.p
    return expr.func(*args, evaluate=False) if isinstance(expr, sympy.core.relational.Relational) else expr.func(*args)
