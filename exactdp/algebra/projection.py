r"""Real roots and projection for the exact prover's cell decompositions.

* :func:`points_1d` — one variable: the real roots of polynomials in closed bounds (rational, or algebraic
  :class:`~exactdp.algebra.algebraic.RealAlgebraic`), a rational sample of every open cell between them and
  the closed rational ends (docs/design.md principle 5; step 3 of :mod:`exactdp.algebra.prover`).
* :func:`projection` — project out y: the irreducible factors' leading coefficients (all coefficients:
  McCallum's projection, three variables), discriminants and pairwise resultants in y, and their values at
  y's finite bounds (step 4 of :mod:`exactdp.algebra.prover`, step 2 of :mod:`exactdp.algebra.cylindrical`).

Shared by the two-variable prover and the cylindrical decomposition, below both.
"""

from __future__ import annotations

from typing import Any

import itertools

import sympy
from flint import fmpq_poly

from exactdp.algebra.algebraic import RealAlgebraic, real_roots, sample_points, to_fmpq_poly
from exactdp.algebra.regions import Bounds
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import qq_to_sympy


def points_1d(polys: Any, x: Any, b: Bounds, roots_of: Any = None) -> tuple[list[Any], list[RealAlgebraic]]:
    """Rational samples of the open cells, the algebraic roots and the closed rational ends.

    ``roots_of(p)``: the real roots of p in the closed bounds (default: p's over ℚ; the cylindrical
    decision passes roots over an algebraic fibre)."""
    roots: list[RealAlgebraic] = []
    for p in polys:
        if roots_of is not None:
            roots.extend(roots_of(p))
            continue
        fp = to_flint(p, x)
        if fp.degree() > 0:
            roots.extend(real_roots(fp, b.lo, b.hi, lo_open=False, hi_open=False))
    uniq: list[RealAlgebraic] = []
    for r in sorted_roots(roots):
        if not uniq or not same_root(uniq[-1], r):
            uniq.append(r)
    pts: list[Any] = list(sample_points(uniq, b.lo, b.hi))
    for r in uniq:
        if r.is_rational and not b.contains(r.lo):
            continue
        pts.append(r.lo if r.is_rational else r)
    for end, op in ((b.lo, b.lo_open), (b.hi, b.hi_open)):
        if end is not None and not op:
            pts.append(end)
    return pts, uniq


def sorted_roots(roots: Any) -> list[RealAlgebraic]:
    import functools

    def cmp(r: Any, s: Any) -> int:
        if same_root(r, s):
            return 0
        return -1 if r.less_than(s) else 1

    return sorted(roots, key=functools.cmp_to_key(cmp))


def same_root(r: RealAlgebraic, s: RealAlgebraic) -> bool:
    if r.is_rational or s.is_rational:
        return r.is_rational and s.is_rational and r.lo == s.lo
    if r.poly != s.poly:
        return False
    # same irreducible polynomial: same root iff the isolating intervals overlap after refinement to disjointness
    while True:
        if r.hi <= s.lo or s.hi <= r.lo:
            return False
        if r.lo == s.lo and r.hi == s.hi:
            return True
        lo, hi = max(r.lo, s.lo), min(r.hi, s.hi)
        r.lo, r.hi = lo, hi  # the common part still contains the (unique) root of both
        s.lo, s.hi = lo, hi
        return True


def to_flint(p: sympy.Expr, x: Any) -> fmpq_poly:
    """``p`` as a polynomial in ``x`` over ℚ (a new fmpq_poly; its coefficients remembered by (p, x): the
    decisions of a run convert the same region polynomials at every sample point)."""
    key = (p, x)
    coeffs = _COEFFICIENTS.get(key)
    if coeffs is None:
        coeffs = tuple(to_fmpq_poly(sympy.Poly(p, x).all_coeffs()).coeffs())
        _COEFFICIENTS.put(key, coeffs)
    return fmpq_poly(list(coeffs))


#: the coefficients of :func:`to_flint`'s polynomials (lowest degree first), by (expression, variable)
_COEFFICIENTS: Memo[tuple[Any, ...]] = Memo()


#: irreducible factors of the expanded polynomials the projections meet, by expression (a parametric LP's
#: prover calls project the same ~150 polynomials ~2 400 times)
_FACTORS_MEMO: dict[Any, Any] = {}


def irreducible_factors(e: sympy.Expr) -> list[Any]:
    """``sympy.factor_list(e)[1]`` for an expanded polynomial ``e``, memoized; the result is only read."""
    out: list[Any] | None = _FACTORS_MEMO.get(e)
    if out is None:
        if len(_FACTORS_MEMO) >= 20000:
            _FACTORS_MEMO.clear()
        out = _FACTORS_MEMO[e] = sympy.factor_list(e)[1]
    return out


def projection(polys: Any, x: Any, y: Any, yb: Bounds, coefficients: bool = False) -> list[Any]:
    """Project out y: the factors' leading coefficients, discriminants, pairwise resultants in y and values at
    y's finite bounds (polynomials in x; with ``x=None`` every non-constant one, in the remaining variables)."""
    factors = []
    for p in polys:
        for f, _m in irreducible_factors(sympy.expand(p)):
            if f.free_symbols and f not in factors:
                factors.append(f)
    proj = []
    ys = [f for f in factors if f.has(y)]
    proj += [f for f in factors if not f.has(y)]
    for f in ys:
        P = sympy.Poly(f, y)
        proj.extend(P.all_coeffs() if coefficients else [P.LC()])  # all: McCallum's projection (3 variables)
        if P.degree() >= 2:
            proj.append(sympy.discriminant(f, y))
        for end in (yb.lo, yb.hi):
            if end is not None:
                proj.append(f.subs(y, qq_to_sympy(end)))
    for f, g in itertools.combinations(ys, 2):
        proj.append(sympy.resultant(f, g, y))
    keep = (lambda e: e.has(x)) if x is not None else (lambda e: bool(e.free_symbols))  # x None: all variables
    out: list[Any] = []
    for p in proj:
        e = sympy.expand(p)
        if keep(e) and e not in out:
            out.append(e)
    return out
