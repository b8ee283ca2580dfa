r"""Square roots of parameters in the prover: substitute v = w², w ≥ 0, and decide the rational claim.

Bounds such as Zamanlooy–Asoodeh's H² coefficient 2(√t − 1)²/(t + 1) or Binette's 2 − 4/(√M + 1) are
rational functions of √t, √M.  When every non-integer power in a claim is a half-integer power of a
*parameter* (a symbol with a region bound v ≥ 0), the claim in v is equivalent to the claim in w = √v
over the transformed region (w ≥ 0; v ≥ a becomes w ≥ √a when a is a rational square, else the
constraint w² ≥ a).  Answers are mapped back (a counterexample w = r is v = r², a crossing w = r is
v = r²).  Anything else (√(t + 1), logs) stays with the caller (UNKNOWN).
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
