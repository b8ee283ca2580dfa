r"""One-parameter closed forms by exact cell decomposition (the fast, exact path of :mod:`.closedforms`).

With a single parameter v in a box, a piecewise rational function is held as :class:`Pieces`: sorted
exact cut points (real algebraic numbers, :mod:`exactdp.algebra.algebraic`) and one rational function per
open cell.  Positive parts cut at the real roots of the numerator; sums align the cuts; maxima add the
crossings of the candidates inside each cell and pick, on every cell, the candidate that is largest at
an exact rational sample point (signs are constant between consecutive roots, so this is exact).  The
result prints as a ``Piecewise`` whose conditions are ``v <= r`` with r exact (rational, radical or
``CRootOf``); at a cut the neighbouring pieces agree (the functions are continuous), so attaching the
cut to either side is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from flint import fmpq

from exactdp.algebra.algebraic import RealAlgebraic, real_roots, sample_points, to_fmpq_poly
from exactdp.algebra.projection import same_root, sorted_roots
from exactdp.algebra.regions import Bounds
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Sign, positive_part


@dataclass
class Pieces:
    """f(v) = exprs[i] on the i-th open cell of the box cut at ``cuts`` (len(exprs) = len(cuts) + 1)."""

    v: sympy.Symbol
    box: Bounds
    cuts: list
    exprs: list
    tags: list | None = None  # optional label per cell (e.g. the maximizing pair)

    def at_cell(self, q: fmpq):
        """(expr, tag) of the cell containing the rational q (q is never a cut)."""
        k = sum(1 for r in self.cuts if r.compare_rational(q) < 0)
        return self.exprs[k], (self.tags[k] if self.tags else None)


def _roots(expr, v, box: Bounds) -> list:
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    out = []
    for p in (num, den):
        if p.has(v):
            out += real_roots(to_fmpq_poly(sympy.Poly(p, v).all_coeffs()), box.lo, box.hi)
    return out


def _merge_cuts(cut_lists) -> list:
    unique: list = []
    for r in sorted_roots([r for cuts in cut_lists for r in cuts]):
        if not unique or not same_root(unique[-1], r):
            unique.append(r)
    return unique


def _q(x: fmpq) -> sympy.Rational:
    return sympy.Rational(int(x.p), int(x.q))


def constant(expr, v, box: Bounds) -> Pieces:
    return Pieces(v, box, [], [as_expr(expr)])


def positive_part_pieces(a, v, box: Bounds) -> Pieces:
    """(a)₊ on the box: :func:`exactdp.numbers.truth.positive_part` on each cell, signed at its sample point."""
    cuts = _merge_cuts([_roots(a, v, box)])
    pts = sample_points(cuts, box.lo, box.hi)
    exprs = [positive_part(a, lambda e, q=q: Sign.POSITIVE if e.subs(v, _q(q)) > 0 else Sign.NEGATIVE,
                           zero=sympy.Integer(0)) for q in pts]
    return Pieces(v, box, cuts, exprs)


def add(parts: list) -> Pieces:
    return combine(parts, lambda *es: sympy.cancel(sympy.Add(*es)))


def maximum(parts: list, tags: list | None = None, *, minimum: bool = False) -> Pieces:
    """The pointwise max (or min) of piecewise functions; ``tags`` label the candidates (argmax kept)."""
    first = parts[0]
    v, box = first.v, first.box
    tags = tags if tags is not None else list(range(len(parts)))
    base = _merge_cuts([p.cuts for p in parts])
    extra = []
    for q in sample_points(base, box.lo, box.hi):  # crossings of the candidates inside each base cell
        exprs = [p.at_cell(q)[0] for p in parts]
        for i in range(len(exprs)):
            for j in range(i + 1, len(exprs)):
                if sympy.cancel(exprs[i] - exprs[j]) != 0:
                    extra += _roots(exprs[i] - exprs[j], v, box)
    cuts = _merge_cuts([base, extra])
    out_exprs, out_tags = [], []
    for q in sample_points(cuts, box.lo, box.hi):
        vals = [(p.at_cell(q)[0], tag) for p, tag in zip(parts, tags)]
        sign = -1 if minimum else 1
        best = max(vals, key=lambda et: sign * et[0].subs(v, _q(q)))
        out_exprs.append(best[0])
        out_tags.append(best[1])
    return Pieces(v, box, cuts, out_exprs, out_tags)


def from_sympy(expr, v, box: Bounds) -> Pieces:
    """A piecewise rational function of v given as a sympy expression (a ``Piecewise`` whose conditions are
    relations of rational functions of v, or bounds ``v ⋈ r`` with r exact algebraic) as cells: cut at the
    roots of every condition, each cell takes the first piece whose condition holds at its rational sample
    point.  Raises ValueError for anything else (a condition undecided at a sample point)."""
    e = sympy.piecewise_fold(as_expr(expr))
    if not isinstance(e, sympy.Piecewise):
        return Pieces(v, box, [], [sympy.cancel(e)])
    cuts = []
    for _, cond in e.args:
        for rel in sympy.preorder_traversal(cond):
            if isinstance(rel, sympy.core.relational.Relational):
                if (rel.lhs == v or rel.rhs == v) and not (rel.rhs if rel.lhs == v else rel.lhs).free_symbols:
                    a = algebraic(rel.rhs if rel.lhs == v else rel.lhs, v)
                    if (box.lo is None or a.compare_rational(box.lo) > 0) and \
                            (box.hi is None or a.compare_rational(box.hi) < 0):
                        cuts.append(a)
                else:
                    cuts += _roots(rel.lhs - rel.rhs, v, box)
    cuts = _merge_cuts([cuts])
    exprs = []
    for q in sample_points(cuts, box.lo, box.hi):
        for piece, cond in e.args:
            holds = cond if cond is sympy.true else cond.subs(v, _q(q))
            if holds not in (sympy.true, sympy.false):
                raise ValueError(f"cannot evaluate {cond} at {v} = {q}")
            if holds is sympy.true:
                exprs.append(sympy.cancel(piece))
                break
        else:
            raise ValueError(f"no piece of {expr} holds at {v} = {q}")
    return Pieces(v, box, cuts, exprs)


def combine(parts: list, fn) -> Pieces:
    """fn of piecewise functions, cell by cell (``fn`` takes one rational function per part)."""
    first = parts[0]
    cuts = _merge_cuts([p.cuts for p in parts])
    pts = sample_points(cuts, first.box.lo, first.box.hi)
    return Pieces(first.v, first.box, cuts, [fn(*[p.at_cell(q)[0] for p in parts]) for q in pts])


def _coefficients(expr, v):
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    return to_fmpq_poly(sympy.Poly(num, v).all_coeffs()), to_fmpq_poly(sympy.Poly(den, v).all_coeffs())


def sign_at(p: Pieces, r: RealAlgebraic) -> int:
    """The sign of a continuous piecewise function at the exact point r (a cut or inside a cell)."""
    k = sum(1 for c in p.cuts if not same_root(c, r) and c.less_than(r))
    num, den = _coefficients(p.exprs[k], p.v)
    return r.sign_of(num) * r.sign_of(den)


def zeros(p: Pieces) -> list:
    """The exact points of the box (its closed ends included) where a continuous piecewise function vanishes;
    a cell on which it is identically 0 raises ValueError."""
    box, out = p.box, []
    for e in dict.fromkeys(p.exprs):
        num, _ = _coefficients(e, p.v)
        if num.is_zero():
            raise ValueError(f"{e} vanishes on a whole cell")
        out += real_roots(num, box.lo, box.hi, lo_open=box.lo_open, hi_open=box.hi_open)
    return [r for r in _merge_cuts([out]) if sign_at(p, r) == 0]


def simplify(p: Pieces) -> Pieces:
    """Merge neighbouring cells with identical expressions (and tags)."""
    cuts, exprs, tags = [], [p.exprs[0]], [p.tags[0] if p.tags else None]
    for k, r in enumerate(p.cuts):
        e, tag = p.exprs[k + 1], (p.tags[k + 1] if p.tags else None)
        if sympy.cancel(e - exprs[-1]) == 0 and tag == tags[-1]:
            continue
        cuts.append(r)
        exprs.append(e)
        tags.append(tag)
    return Pieces(p.v, p.box, cuts, exprs, tags if p.tags else None)


def to_sympy(p: Pieces, normal=lambda e: e):
    """``Piecewise((e₀, v <= r₁), (e₁, v <= r₂), …, (e_k, True))`` with exact cut points."""
    p = simplify(p)
    if not p.cuts:
        return normal(p.exprs[0])
    args = [(normal(e), p.v <= r.as_sympy(p.v)) for e, r in zip(p.exprs, p.cuts)]
    args.append((normal(p.exprs[-1]), True))
    return sympy.Piecewise(*args)


def single_tag(p: Pieces):
    """The tag common to every cell, or None."""
    tags = set(simplify(p).tags or [None])
    return tags.pop() if len(tags) == 1 else None




# -- exact sign decisions for piecewise rational functions of one parameter -----------------------------

def algebraic(r, v) -> RealAlgebraic:
    """An exact real algebraic number (sympy: Rational, radicals, CRootOf) as a :class:`RealAlgebraic`."""
    r = as_expr(r)
    if r.is_Rational:
        return RealAlgebraic(_linear(r), fmpq(int(r.p), int(r.q)), fmpq(int(r.p), int(r.q)))
    x = sympy.Dummy("x")
    m = sympy.Poly(sympy.minimal_polynomial(r, x), x)
    for root in real_roots(to_fmpq_poly(m.all_coeffs())):
        if bool(_q(root.lo) < r) and bool(r <= _q(root.hi)):
            return root
    raise ValueError(f"cannot isolate the algebraic number {r}")  # pragma: no cover


def _linear(r):
    from flint import fmpz_poly

    return fmpz_poly([-int(r.p), int(r.q)])


def _cut_numbers(cond, v) -> list:
    out = []
    for rel in sympy.preorder_traversal(cond):
        if isinstance(rel, sympy.core.relational.Relational):
            diff = sympy.cancel(rel.lhs - rel.rhs)
            if diff.has(v):
                if sympy.Poly(diff, v).degree() != 1 or (rel.lhs != v and rel.rhs != v):
                    raise ValueError(f"condition {rel} is not a bound on {v}")
                out.append(rel.rhs if rel.lhs == v else rel.lhs)
    return out


def sign_1d(expr, v, box: Bounds, strict: bool) -> bool:
    """Whether expr > 0 (strict) / ≥ 0 holds on the box, for a (piecewise) rational function of v whose
    conditions are bounds ``v ⋈ r`` with exact real algebraic r.  Exact: every cell of the decomposition
    by the breakpoints and the numerators'/denominators' roots is checked at a rational point, and every
    breakpoint and root at its exact algebraic value.  Raises ValueError for anything else."""
    expr = sympy.piecewise_fold(as_expr(expr).rewrite(sympy.Piecewise)
                                if as_expr(expr).has(sympy.Min, sympy.Max) else as_expr(expr))
    pieces = list(expr.args) if isinstance(expr, sympy.Piecewise) else [(expr, sympy.true)]
    cuts = []
    for e, cond in pieces:
        if e.free_symbols - {v} or e.has(sympy.Piecewise):
            raise ValueError(f"not a rational function of {v}: {e}")
        cuts += _roots(e, v, box)
        for r in _cut_numbers(cond, v):
            a = algebraic(r, v)
            if (box.lo is None or a.compare_rational(box.lo) >= 0) and (box.hi is None or a.compare_rational(box.hi) <= 0):
                cuts.append(a)
    cuts = _merge_cuts([cuts])
    points: list = [_q(q) for q in sample_points(cuts, box.lo, box.hi)]
    points += [c for c in cuts]
    for end, op in ((box.lo, box.lo_open), (box.hi, box.hi_open)):
        if end is not None and not op:
            points.append(_q(end))
    for pt in points:
        value_point = pt.as_sympy(v) if isinstance(pt, RealAlgebraic) else pt
        if isinstance(pt, RealAlgebraic) and (box.lo is not None and pt.compare_rational(box.lo) == 0 and box.lo_open
                                              or box.hi is not None and pt.compare_rational(box.hi) == 0 and box.hi_open):
            continue
        for e, cond in pieces:
            holds = cond if cond is sympy.true else cond.subs(v, value_point)
            if holds not in (sympy.true, sympy.false):
                raise ValueError(f"cannot evaluate {cond} at {value_point}")
            if holds is sympy.true:
                break
        else:
            continue
        num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
        if isinstance(pt, RealAlgebraic):
            sgn = pt.sign_of(to_fmpq_poly(sympy.Poly(num, v).all_coeffs())) * \
                pt.sign_of(to_fmpq_poly(sympy.Poly(den, v).all_coeffs()))
            if pt.sign_of(to_fmpq_poly(sympy.Poly(den, v).all_coeffs())) == 0:
                raise ValueError(f"{e} is undefined at {value_point}")
        else:
            val = e.subs(v, pt)
            if not val.is_Rational:
                raise ValueError(f"{e} is undefined at {pt}")
            sgn = int(bool(val > 0)) - int(bool(val < 0))
        if sgn < 0 or (strict and sgn == 0):
            return False
    return True
