r"""Exact sign decisions of the independent re-check (:mod:`exactdp.recheck`), with sympy.

The re-check shares no code with exactdp's prover (:mod:`exactdp.algebra`); this module decides, with sympy's
factorisation, resultants and real-root isolation and Python's :class:`fractions.Fraction`, whether a relation
holds at every point of a region given by relations in real parameters, one of which may be an integer (N, n):
every set in at most three parameters, and every well-oriented set in more (below).  The method is a cylindrical
algebraic decomposition (CAD):

* **Projection** (:func:`projection_sets`).  The polynomials are every numerator and denominator of every
  piece of the relations (Min, Max, Abs as Piecewise), split into irreducible factors over Q.  Eliminating the
  top variable x keeps the factors free of x and adds, of the factors in x, every coefficient in x, every
  discriminant in x and every pairwise resultant in x — McCallum's projection.  It is sound for *well-oriented*
  sets: over every cell of the lower decomposition on which no factor vanishes identically, each factor is
  delineable.  An irreducible factor of positive degree in x has coprime coefficients, which in one or two
  lower variables vanish together only at finitely many points, i.e. on 0-dimensional cells.  So every set in
  at most three variables is well oriented.  In more variables a factor may vanish identically over a cell, and
  the lifting checks it (:func:`find_point`): McCallum's theorem (a factor set A is delineable over a connected
  S on which every element of its projection is order-invariant, or vanishes identically there) keeps the top
  level's factors sign-invariant even where one of them vanishes identically over a cell, but a factor of a
  *lower* level that vanishes identically over a cell may lose the order-invariance the level above it needs.
  So a decomposition in which a factor below the top level vanishes identically over any sample point of its
  base is refused (:class:`Unsupported`: the set is not well oriented, nothing is decided), and every other one
  is a sign-invariant decomposition, in any number of variables (the work is estimated first).
* **Points** (:class:`Root`).  A coordinate is a Fraction or a real algebraic number: the root of a monic
  irreducible rational polynomial of degree ≥ 2 in an isolating interval (lo, hi), refined by bisection.
* **Signs at a point** (:func:`sign_at`).  The value g(α) of a rational polynomial at algebraic coordinates
  α₁..α_k is a root of the norm M(z) = res_{v_k}(… res_{v_1}(z − g, f₁(v₁)) …, f_k(v_k)).  If M(0) ≠ 0 the
  value is not 0; otherwise write M = z^m·(a₀ + a₁z + …) with a₀ ≠ 0: its non-zero roots satisfy
  |z| > r = |a₀|/(|a₀| + max|a_i|) (Cauchy's bound of the reversed polynomial).  Rational interval arithmetic on
  the isolating intervals, refined by bisection, encloses g(α) in ever smaller intervals: once the enclosure
  lies in (−r, r) the value is 0, once it excludes 0 its sign is known.
* **Lifting** (:func:`fibre_points`).  Over a point, the real roots in x of p(α, x) are among the real roots
  of the norm of p (its coefficients that vanish at the point dropped), a rational polynomial in x.  All of
  them are used as section points — a superset of the true sections only refines the stack — with a rational
  point in each gap and beyond the ends: every cell of the true stack is sampled.
* **Integers.**  The integer parameter is the bottom variable.  Over each cell of the bottom line the truth of
  "the relation holds above this point" is constant (the stack above the cell is the same), so a cell is
  sampled at an integer inside it, and a cell containing no integer holds no point of the domain.

:func:`find_point` walks the sample points depth first, dropping a branch as soon as a region condition in the
variables fixed so far fails (its truth is constant on the cell), and returns the first sample point where the
region's conditions hold and the claim fails (or, without a claim, the first region point).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import sympy

from exactdp.limits import require
from exactdp.numbers.memo import Memo

#: most variables every set of which is well oriented (module docstring); more are decided when the lifting finds
#: the set well oriented, else refused
MAX_VARIABLES = 3
#: most bisections of the isolating intervals while deciding one sign
MAX_REFINEMENTS = 4000


class Unsupported(Exception):
    """An expression outside the exact rational fragment, or a decomposition this module does not make."""


class Undefined(Exception):
    """A denominator vanishes at a point."""


_V = sympy.Dummy("v")


class Root:
    """A real algebraic number: the unique root of the monic irreducible ``f`` (degree ≥ 2, a Poly in a dummy
    variable) in the open interval (lo, hi)."""

    def __init__(self, f: sympy.Poly, lo: Fraction, hi: Fraction):
        self.f, self.lo, self.hi = f, lo, hi

    def bisect(self) -> None:
        mid = (self.lo + self.hi) / 2
        if sgn(self.f.eval(rat(self.lo))) * sgn(self.f.eval(rat(mid))) < 0:
            self.hi = mid
        else:
            self.lo = mid

    def poly_in(self, x) -> sympy.Poly:
        """The defining polynomial as a Poly in ``x``."""
        return sympy.Poly(self.f.as_expr().xreplace({self.f.gen: x}), x, domain="QQ")

    def __str__(self) -> str:
        return f"root of {self.f.as_expr().xreplace({self.f.gen: sympy.Symbol('x')})} in ({self.lo}, {self.hi})"


def rat(q: Fraction) -> sympy.Rational:
    return sympy.Rational(q.numerator, q.denominator)


def sgn(v) -> int:
    return 1 if bool(v > 0) else -1 if bool(v < 0) else 0


def _lo(p) -> Fraction:
    return p if isinstance(p, Fraction) else p.lo


def _hi(p) -> Fraction:
    return p if isinstance(p, Fraction) else p.hi


def point_text(point: dict) -> str:
    return ", ".join(f"{x} = {v}" for x, v in point.items())


def as_poly(e, gens) -> sympy.Poly:
    """``e`` as a Poly with rational coefficients in ``gens`` (Unsupported otherwise)."""
    try:
        return sympy.Poly(e, *gens, domain="QQ")
    except (sympy.PolynomialError, sympy.polys.polyerrors.GeneratorsNeeded, sympy.CoercionFailed):
        raise Unsupported(f"{e} is not a polynomial in {', '.join(map(str, gens))} with rational "
                          f"coefficients") from None


# -- real roots of rational polynomials in one variable ---------------------------------------------------------

def real_roots(polys, x) -> list:
    """The real roots of the (univariate, rational) Polys in ``x``, sorted: Fractions and :class:`Root`\\ s with
    disjoint isolating intervals that contain no listed rational root."""
    degree = sum(max(p.degree(), 0) for p in polys if not p.is_zero)
    require("max_work", min(degree, 10**6) ** 4, f"isolating the real roots of {len(polys)} polynomial(s) of total "
                                                 f"degree {degree} in {x}")
    factors = set()
    for p in polys:
        if p.is_zero or p.degree() <= 0:
            continue
        for f, _ in p.factor_list()[1]:
            factors.add(f.monic())
    rational, algebraic = set(), []
    for f in factors:
        if f.degree() == 1:
            a, b = f.all_coeffs()
            rational.add(Fraction(int((-b / a).p), int((-b / a).q)))
        else:
            g = sympy.Poly(f.as_expr().xreplace({f.gen: _V}), _V, domain="QQ")
            for (lo, hi), _ in f.intervals():
                algebraic.append(Root(g, Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))))
    for r in algebraic:  # no rational point inside an algebraic root's interval
        while any(r.lo <= q <= r.hi for q in rational):
            r.bisect()
    changed = True
    while changed:  # distinct irreducible factors have distinct roots: refine until the intervals are disjoint
        changed = False
        for r, s in itertools.combinations(algebraic, 2):
            while r.lo <= s.hi and s.lo <= r.hi:
                r.bisect()
                s.bisect()
                changed = True
    return sorted(list(rational) + algebraic, key=_lo)


def _integer_above(p) -> int:
    """The least integer > p."""
    if isinstance(p, Fraction):
        return math.floor(p) + 1
    while math.ceil(p.lo) <= p.hi:  # refine until [lo, hi] holds no integer (p is irrational)
        p.bisect()
    return math.ceil(p.lo)


def _integer_below(p) -> int:
    """The greatest integer < p."""
    if isinstance(p, Fraction):
        return math.ceil(p) - 1
    while math.floor(p.hi) >= p.lo:
        p.bisect()
    return math.floor(p.hi)


def samples(roots: list, integer: bool = False) -> list:
    """A point of every cell of the line cut at ``roots``: every root and a rational point of every open
    interval.  ``integer``: only integer points — an integer root, and one integer inside each open interval that
    contains one."""
    if not integer:
        if not roots:
            return [Fraction(0)]
        out = [_lo(roots[0]) - 1]
        for a, b in zip(roots, roots[1:]):
            out += [a, (_hi(a) + _lo(b)) / 2]
        return out + [roots[-1], _hi(roots[-1]) + 1]
    if not roots:
        return [Fraction(0)]
    out = [Fraction(_integer_below(roots[0]))]
    for a, b in zip(roots, roots[1:]):
        if isinstance(a, Fraction) and a.denominator == 1:
            out.append(a)
        k = _integer_above(a)
        if k <= _integer_below(b):
            out.append(Fraction(k))
    a = roots[-1]
    if isinstance(a, Fraction) and a.denominator == 1:
        out.append(a)
    return out + [Fraction(_integer_above(a))]


# -- signs at points with algebraic coordinates -----------------------------------------------------------------

def _interval(poly: sympy.Poly, box: list) -> tuple[Fraction, Fraction]:
    """An enclosure of ``poly`` (rational coefficients) on the box of closed intervals ``box`` (one per gen)."""
    lo_sum, hi_sum = Fraction(0), Fraction(0)
    for monom, coeff in poly.terms():
        q = Fraction(int(coeff.p), int(coeff.q))
        lo, hi = q, q
        for (a, b), e in zip(box, monom):
            if e == 0:
                continue
            ends = (a ** e, b ** e)
            plo, phi = (min(ends), max(ends)) if e % 2 or a >= 0 or b <= 0 else (Fraction(0), max(ends))
            prods = (lo * plo, lo * phi, hi * plo, hi * phi)
            lo, hi = min(prods), max(prods)
        lo_sum, hi_sum = lo_sum + lo, hi_sum + hi
    return lo_sum, hi_sum


def _norm(e, algebraic: list):
    """Eliminate each algebraic coordinate (x, Root) of ``e`` by a resultant with its defining polynomial.

    The norm's degree is at most deg(e)·Π deg(f_i); the resultants are estimated at its cube first."""
    degree = max(sympy.Poly(e, *e.free_symbols).total_degree(), 1) if e.free_symbols else 1
    for _, r in algebraic:
        degree *= r.f.degree()
    require("max_work", min(degree, 10**6) ** 3, f"a norm of degree {degree} over {len(algebraic)} algebraic "
                                                 f"coordinate(s)")
    for x, r in algebraic:
        e = sympy.resultant(e, r.poly_in(x).as_expr(), x)
    return sympy.expand(e)


def sign_at(e, point: dict) -> int:
    """The exact sign of the rational polynomial ``e`` at ``point`` ({symbol: Fraction or Root}; module
    docstring: the norm's zero test and interval refinement)."""
    e = sympy.expand(e.xreplace({x: rat(v) for x, v in point.items() if isinstance(v, Fraction)}))
    algebraic = [(x, v) for x, v in point.items() if not isinstance(v, Fraction) and x in e.free_symbols]
    if e.free_symbols - {x for x, _ in algebraic}:
        raise Unsupported(f"{e} has symbols without a value at {point_text(point)}")
    if not algebraic:
        return sgn(e)
    gens = [x for x, _ in algebraic]
    if len(algebraic) == 1:  # one algebraic coordinate: zero iff its irreducible polynomial divides e
        x, r = algebraic[0]
        if as_poly(e, gens).rem(r.poly_in(x)).is_zero:
            return 0
        radius = None
    else:
        z = sympy.Dummy("z")
        m = as_poly(_norm(z - e, algebraic), [z])
        coeffs = m.all_coeffs()[::-1]  # a_0, a_1, ...
        if coeffs[0] != 0:
            radius = Fraction(0)
        else:
            low = next(i for i, a in enumerate(coeffs) if a != 0)
            a0 = abs(coeffs[low])
            rest = max((abs(a) for a in coeffs[low + 1:]), default=sympy.Integer(0))
            q = a0 / (a0 + rest)
            radius = Fraction(int(q.p), int(q.q))
    p = as_poly(e, gens)
    roots = [r for _, r in algebraic]
    for _ in range(MAX_REFINEMENTS):
        lo, hi = _interval(p, [(r.lo, r.hi) for r in roots])
        if lo > 0:
            return 1
        if hi < 0:
            return -1
        if radius and -radius < lo and hi < radius:
            return 0
        for r in roots:
            r.bisect()
    raise Unsupported(f"the sign of {e} at {point_text(point)} was not separated from 0 in {MAX_REFINEMENTS} "
                      f"bisections")


# -- the decomposition --------------------------------------------------------------------------------------------

def factors_of(exprs, gens) -> list:
    """The distinct irreducible non-constant factors (sympy expressions, primitive) of the expressions."""
    out: dict = {}
    for e in exprs:
        e = sympy.expand(e)
        if not (e.free_symbols & set(gens)):
            continue
        as_poly(e, gens)  # rational coefficients, polynomial: else Unsupported
        for f, _ in sympy.factor_list(e, *gens, domain="QQ")[1]:
            if f.free_symbols:
                key = sympy.Poly(f, *gens, domain="QQ").monic()
                out.setdefault(key, f)
    return [out[k] for k in sorted(out, key=str)]


#: projection sets already computed, by (expressions, variable order), with the work they were guarded by
_PROJECTIONS: Memo[tuple] = Memo(512)


def projection_sets(exprs, order: list) -> list[list]:
    """Per level k the irreducible factors whose top variable is ``order[k]`` (McCallum's projection; module
    docstring).  A pure function of the expressions and the order, memoised: the decompositions of one
    certificate's relations ask for the same sets many times; the work guard is applied again on every call."""
    key = (tuple(exprs), tuple(order))
    known = _PROJECTIONS.get(key)
    if known is None:
        guards: list = []
        known = (_projection_sets(exprs, order, guards), tuple(guards))
        _PROJECTIONS.put(key, known)
    else:
        for amount, what in known[1]:
            require("max_work", amount, what)
    return [list(level) for level in known[0]]


def _projection_sets(exprs, order: list, guards: list) -> list[list]:
    n = len(order)
    sets: list[list] = [[] for _ in range(n)]
    current = factors_of(exprs, order)
    for k in reversed(range(n)):
        x, gens = order[k], order[:k + 1]
        sets[k] = [f for f in current if x in f.free_symbols]
        rest = [f for f in current if x not in f.free_symbols]
        size = sum(sympy.Poly(f, *gens).total_degree() for f in sets[k])
        guard = (min(size, 10**6) ** (2 + k * 2),
                 f"a cylindrical decomposition in ({', '.join(map(str, gens))}) of total degree {size}")
        require("max_work", *guard)
        guards.append(guard)
        proj = []
        for f in sets[k]:
            fx = sympy.Poly(f, x)
            proj += list(fx.all_coeffs())
            if fx.degree() >= 2:
                proj.append(sympy.discriminant(f, x))
        for f, g in itertools.combinations(sets[k], 2):
            proj.append(sympy.resultant(f, g, x))
        current = factors_of(rest + proj, order[:k]) if k else []
    return sets


def fibre_points(polys, x, point: dict, integer: bool = False) -> list:
    """Sample points of the line in ``x`` over ``point`` (module docstring: lifting)."""
    return _fibre(polys, x, point, integer)[0]


def _fibre(polys, x, point: dict, integer: bool = False) -> tuple[list, list, list]:
    """(the sample points of the line in ``x`` over ``point``, the section points among them, the factors of
    ``polys`` that vanish identically on the line)."""
    norms, nullified = [], []
    for f in polys:
        e = sympy.expand(f.xreplace({y: rat(v) for y, v in point.items() if isinstance(v, Fraction)}))
        algebraic = [(y, v) for y, v in point.items() if not isinstance(v, Fraction) and y in e.free_symbols]
        px = sympy.Poly(e, x)
        kept = [(k, c) for (k,), c in px.terms() if sign_at(c, point) != 0]
        if not kept:
            nullified.append(f)  # identically 0 on this line (module docstring: well-orientedness)
            continue
        if max(k for k, _ in kept) == 0:
            continue  # a non-zero constant on this line: no section
        q = sympy.Add(*[c * x ** k for k, c in kept])
        norm = _norm(q, [(y, v) for y, v in algebraic if y in q.free_symbols])
        if norm == 0:
            raise Unsupported(f"{f} vanishes identically on a conjugate of the line over {point_text(point)}")
        norms.append(as_poly(norm, [x]))
    roots = real_roots(norms, x)
    return samples(roots, integer), roots, nullified


def find_point(test, exprs, order: list, integer: bool = False, region_at=None):
    """The first sample point (``dict``) of the decomposition of ``exprs`` in ``order`` at which ``test(point)``
    is true, or None: ``test`` is then false on the whole space (every cell is sampled).  ``region_at(point,
    level)`` (optional) is False when the region's conditions in ``order[:level + 1]`` fail at the partial point,
    which prunes that branch; ``integer``: ``order[0]`` ranges over the integers.  A factor below the top level
    that vanishes identically over a sample point raises :class:`Unsupported` (not well oriented: module
    docstring); in at most three variables that never happens."""
    sets = projection_sets(exprs, order)
    visited = [0]

    def walk(level: int, point: dict):
        fibre, _, nullified = _fibre(sets[level], order[level], point, integer and level == 0)
        if nullified and level < len(order) - 1:
            raise Unsupported(f"{nullified[0]} vanishes identically over {point_text(point)}: the set in "
                              f"({', '.join(map(str, order))}) is not well oriented (McCallum's projection)")
        for s in fibre:
            visited[0] += 1
            if visited[0] % 256 == 0:
                require("max_work", visited[0] * 10**5, f"sampling the cells of a decomposition in "
                                                        f"({', '.join(map(str, order))})")
            p = {**point, order[level]: s}
            if region_at is not None and not region_at(p, level):
                continue
            if level == len(order) - 1:
                if test(p):
                    return p
            else:
                found = walk(level + 1, p)
                if found is not None:
                    return found
        return None

    if not order:
        return {} if test({}) else None
    return walk(0, {})


__all__ = ["MAX_VARIABLES", "Root", "Undefined", "Unsupported", "as_poly", "factors_of", "fibre_points",
           "find_point", "point_text", "projection_sets", "real_roots", "samples", "sign_at"]
