r"""Cylindrical cell samples in any number of variables (projection and lifting), exact.

For polynomials S in variables x₁ < … < x_k and a box, :func:`cells` returns points of ℝ^k such that every
*full-dimensional* cell of a cylindrical decomposition adapted to S (each polynomial of S has constant sign on
each cell) contains one of them, plus exact points of many lower-dimensional cells:

1. **One variable**: the real roots of S in the box (rational, or algebraic: :class:`RealAlgebraic`), one
   rational point of every open interval between them, and the closed ends (the prover's 1-D step).
2. **Projection** of x_k: for the irreducible factors f of S, the leading coefficient (with three or more
   variables: every coefficient — McCallum's projection), the discriminant and the pairwise resultants
   in x_k, and f at x_k's finite box ends.  Over every connected cell of the lower space on which these
   are sign-invariant (order-invariant: the lower cells are open, points, or smooth sections of one
   squarefree factor), the real roots of S in x_k are continuous, distinct and do not cross
   (*delineability*; an irreducible f cannot vanish identically over a section, which would make an
   (x, y)-factor divide every coefficient).  This is :func:`exactdp.algebra.projection.projection`.
3. **Lifting**: the lower-dimensional samples are computed recursively; over every sample whose
   coordinates are rational the fibre in x_k is decomposed exactly as in 1; over a sample with one
   irrational coordinate α the fibre polynomials have coefficients in ℚ(α) and their real roots and
   signs are computed exactly in that number field (:mod:`exactdp.algebra.number_field`); over a sample
   with two, (α, β), in ℚ(α, β) = ℚ(θ) with the primitive element θ = β + kα.  Only when no k ≤ 8
   separates, or over three or more irrational coordinates, is the sample not lifted: it is reported in
   :attr:`Cells.gaps`.  Such a sample lies on a lower-dimensional cell (open intervals always receive
   rational samples), so every full-dimensional cell is sampled.
4. **Four or more variables** (McCallum 1998, the projection theorem for *well-oriented* sets): the
   projection of step 2 applied recursively is sound while no irreducible factor of a level *below the
   top* vanishes identically over a sample of its base (nullification: its coefficients, which are in the
   projection, vanish together there; over a connected cell on which they are sign-invariant that happens
   at every point of the cell or at none, so the sample detects it).  In at most three variables this
   cannot happen (an irreducible factor's coefficients have finitely many common zeros in two variables,
   none in one; the top level needs sign-invariance only); in four or more the lifting checks every such
   factor and reports a nullified one as a gap (its fibre is still lifted: its points are exact points,
   but the decomposition is not certified complete).  The work is estimated before lifting
   (:func:`cell_estimate`, charged to the ``max_work`` limit).

What the gaps mean for a decision is the caller's business (:mod:`exactdp.algebra.boolean`): a claim
whose failure set is open is refuted at a full-dimensional cell if it is refuted anywhere, so gaps do
not matter for it; otherwise a gap makes the answer UNKNOWN.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass, field

import sympy
from flint import fmpq

from exactdp.algebra.algebraic import RealAlgebraic
from exactdp.algebra.number_field import NumberField, in_primitive_element
from exactdp.algebra.projection import irreducible_factors, points_1d, projection, to_flint
from exactdp.algebra.regions import Bounds
from exactdp.limits import ESTIMATE_CAP, require
from exactdp.numbers.qq import qq_to_sympy

#: most variables in which every set is well oriented (module docstring, 4.): more are decomposed with the
#: nullification check and the work estimate of :func:`cell_estimate`
MAX_VARIABLES = 3


@dataclass
class Cells:
    """Sample points (dicts variable → fmpq or :class:`RealAlgebraic`; only the last lifted coordinate
    can be algebraic) and the lower-dimensional places not sampled (``gaps``, human text)."""

    points: list[Any] = field(default_factory=list)
    gaps: list[Any] = field(default_factory=list)
    #: samples over two algebraic coordinates, not yet lifted (``lift_deferred``): (point, fibre, variable)
    deferred: list[Any] = field(default_factory=list)


def _in(b: Bounds, v: Any) -> bool:
    return isinstance(v, RealAlgebraic) or b.contains(v)


def _line(polys: Any, x: Any, b: Bounds, field: NumberField | None = None, a: Any = None) -> list[Any]:
    """Exact points of every cell of the line x within bounds b (roots, open-interval samples, closed ends);
    with ``field`` = ℚ(α), of the fibre {a = α} × line x (roots of f(α, x): :meth:`NumberField.real_roots`)."""
    if b.lo is not None and b.hi is not None and (b.lo > b.hi or (b.lo == b.hi and (b.lo_open or b.hi_open))):
        return []
    live = [p for p in polys if p.has(x)]
    roots_of = None if field is None else (lambda p: field.real_roots(p, a, x, b.lo, b.hi))
    pts, _ = points_1d(live, x, b, roots_of)
    out: list[Any] = []
    for p in pts:
        if _in(b, p) and not any(_same(p, q) for q in out):
            out.append(p)
    return out


def _same(p: Any, q: Any) -> bool:
    if isinstance(p, RealAlgebraic) or isinstance(q, RealAlgebraic):
        return p is q
    return bool(p == q)


def cells(polys: Any, variables: Any, box: dict[Any, Any], lift_two: bool = True,
          projected: list[list[Any]] | None = None) -> Cells:
    """Samples of a cylindrical decomposition of ``box`` (variable → :class:`Bounds`) adapted to ``polys``.

    ``variables`` is the projection order: the last one is projected first and lifted last.  With
    ``lift_two=False`` the (costlier) fibres over two algebraic coordinates are left in ``deferred``
    (:func:`lift_deferred` lifts them when a caller needs them).  With more than :data:`MAX_VARIABLES`
    variables every projection set is computed first (``projected``: the sets of the levels below, bottom
    first), the lifting work estimated (:func:`cell_estimate`) and refused beyond the ``max_work`` limit, and
    the levels below the top checked for nullification (module docstring, 4.).
    """
    variables = list(variables)
    polys = [sympy.expand(p) for p in polys]
    polys = [p for p in polys if p.free_symbols]
    degree = max((sympy.Poly(p, *variables).total_degree() for p in polys), default=0)
    require("max_work", min((len(polys) * degree + 1) ** (len(variables) + 1), ESTIMATE_CAP),
            f"a cylindrical decomposition of {len(polys)} polynomials of degree <= {degree} in "
            f"{len(variables)} variables")
    x = variables[-1]
    if len(variables) == 1:
        return Cells([{x: p} for p in _line(polys, x, box[x])])
    lower_vars = variables[:-1]
    below_top = projected is not None  # a level under the top of a decomposition in four or more variables
    if projected is None and len(variables) > MAX_VARIABLES:
        projected = projection_sets(polys, variables, box)
        require("max_work", cell_estimate([*projected, polys], variables),
                f"lifting a cylindrical decomposition in {len(variables)} variables "
                f"({', '.join(map(str, variables))}; at most one sample per cell, each cell's polynomials signed)")
    if projected is not None:
        proj, below = projected[-1], projected[:-1]
    else:
        proj = projection([p for p in polys if p.has(x)], None, x, box[x], coefficients=len(variables) > 2)
        proj += [p for p in polys if not p.has(x) and p not in proj]
        below = None
    lower = cells(proj, lower_vars, box, projected=below)
    out = Cells(gaps=list(lower.gaps))
    # below the top of a decomposition in four or more variables: McCallum's well-orientedness (docstring, 4.)
    watched = _factors_in(polys, x) if below_top else []
    for pt in lower.points:
        alg = [(v, a) for v, a in pt.items() if isinstance(a, RealAlgebraic) and not a.is_rational]
        sub = {v: qq_to_sympy(q) for v, q in pt.items() if not isinstance(q, RealAlgebraic)}
        fibre = [sympy.expand(p.subs(sub)) for p in polys if p.has(x)]
        if watched:
            nullified = _nullified(watched, x, pt)
            if nullified is not None:
                out.gaps.append(nullified)
        if len(alg) == 2 and not lift_two:
            out.deferred.append((pt, fibre, x))
            continue
        if len(alg) == 2:
            points = _lift_two(pt, fibre, x, box[x])
            if points is not None:
                out.points.extend(points)
                continue
        if len(alg) > 1:
            out.gaps.append(_gap(x, alg, first=not out.gaps))
            continue
        line = _line(fibre, x, box[x], *((NumberField(alg[0][1]), alg[0][0]) if alg else ()))
        for q in line:
            out.points.append({**pt, x: q})
    return out


def projection_sets(polys: Any, variables: Any, box: dict[Any, Any]) -> list[list[Any]]:
    """The projection sets of ``polys`` below the top level, bottom first: entry i is the set in
    ``variables[:i + 1]`` (step 2 of the module docstring, McCallum's projection from three variables up)."""
    sets: list[list[Any]] = []
    current = list(polys)
    for k in range(len(variables) - 1, 0, -1):
        x = variables[k]
        live = [p for p in current if p.has(x)]
        require("max_work", min(_projection_cost(live, x, variables[:k + 1]), ESTIMATE_CAP),
                f"projecting {len(live)} polynomials in {k + 1} variables onto ({', '.join(map(str, variables[:k]))})")
        proj = projection(live, None, x, box[x], coefficients=k + 1 > 2)
        proj += [p for p in current if not p.has(x) and p not in proj]
        sets.append(proj)
        current = proj
    return list(reversed(sets))


def _projection_cost(polys: list[Any], x: Any, variables: Any) -> int:
    """Work of one projection step: every pair of irreducible factors' resultant (and every discriminant) is a
    determinant of order ≤ 2·deg_x whose entries are polynomials of total degree ≤ D; its result has at most
    (2·deg_x·D + 1)^(k−1) terms."""
    fs = _factors_in(polys, x)
    if not fs:
        return 0
    d = int(max(sympy.Poly(f, x).degree() for f in fs))
    D = int(max(sympy.Poly(f, *variables).total_degree() for f in fs))
    pairs = len(fs) * (len(fs) + 1) // 2
    cost: int = pairs * (2 * d) ** 3 * (2 * d * D + 1) ** (len(variables) - 1)
    return cost


def cell_estimate(sets: list[list[Any]], variables: Any) -> int:
    """An upper bound of the lifting work, bottom level first: the number of cells is at most Π_i (2·R_i + 3),
    R_i the sum of the degrees in x_i of level i's polynomials (the real roots of one fibre, each a section with
    a sector on either side, and two box ends); each sample signs every polynomial once, in a number field of
    degree at most d·d′·d_top (d, d′ the two largest degrees below the top: a sample's algebraic coordinates
    generate one primitive element θ, and the top coordinate is a root over ℚ(θ)), charged once per degree."""
    size, total, degrees = 1, 0, []
    for x, polys in zip(variables, sets):
        level = [int(sympy.Poly(p, x).degree()) for p in polys if p.has(x)]
        size = min(size * (2 * sum(level) + 3), ESTIMATE_CAP)
        degrees.append(max(level, default=1))
        total += len(polys)
    below = sorted(degrees[:-1], reverse=True)[:2]
    field = degrees[-1]
    for d in below:
        field *= d
    return min(size * (total + 1) * field, ESTIMATE_CAP)


def _factors_in(polys: Any, x: Any) -> list[Any]:
    """The distinct irreducible factors of ``polys`` of positive degree in x (those whose nullification breaks
    delineability above: module docstring, 4.)."""
    out: list[Any] = []
    for p in polys:
        for f, _ in irreducible_factors(p):
            if f.has(x) and f not in out:
                out.append(f)
    return out


def _nullified(watched: list[Any], x: Any, pt: dict[Any, Any]) -> str | None:
    """A gap text when a watched factor vanishes identically in x over the point (every coefficient is 0
    there, decided exactly), else None."""
    for f in watched:
        try:
            if all(c == 0 or (c.free_symbols and sign_at(c, pt) == 0) for c in sympy.Poly(f, x).all_coeffs()):
                return (f"{f} vanishes identically in {x} over "
                        f"{', '.join(f'{v} = {q}' for v, q in point_as_sympy(pt).items())}: the set is not "
                        f"well oriented there (McCallum's projection does not certify the cells above it)")
        except ValueError:  # a sign the point cannot give (more algebraic coordinates than sign_at takes)
            return f"the nullification of {f} over {', '.join(map(str, pt))} is not decided"
    return None


def _gap(x: Any, alg: Any, first: bool) -> str:
    return f"lifting {x} over {len(alg)} algebraic coordinates " + (  # the first described in full
        ", ".join(f"{v} = {a}" for v, a in alg) if first else ", ".join(str(v) for v, _ in alg))


def _lift_two(pt: dict[Any, Any], fibre: Any, x: Any, b: Bounds) -> list[dict[Any, Any]] | None:
    """The fibre over (α, β) in ℚ(α, β) = ℚ(θ), or None when no primitive element was found."""
    (u, a), (v, b_) = [(w, q) for w, q in pt.items() if isinstance(q, RealAlgebraic) and not q.is_rational]
    found = [in_primitive_element(p, u, v, a, b_) for p in fibre]
    pe = [q for q in found if q is not None]
    if len(pe) < len(found):
        return None
    theta, th = (pe[0][0], pe[0][1]) if pe else (None, None)
    if theta is None:
        return [{**pt, x: q} for q in _line([], x, b)]
    fibre_t = [sympy.expand(q[2].subs(q[1], th)) for q in pe]
    return [{**pt, x: q} for q in _line(fibre_t, x, b, NumberField(theta), th)]


def lift_deferred(C: Cells, box: dict[Any, Any]) -> Cells:
    """The deferred fibres of ``C`` lifted in ℚ(θ) (points), and those without a primitive element (gaps)."""
    out = Cells()
    for pt, fibre, x in C.deferred:
        points = _lift_two(pt, fibre, x, box[x])
        if points is None:
            alg = [(w, q) for w, q in pt.items() if isinstance(q, RealAlgebraic) and not q.is_rational]
            out.gaps.append(_gap(x, alg, first=not out.gaps))
        else:
            out.points.extend(points)
    return out


def sign_at(poly: Any, point: dict[Any, Any]) -> int:
    """sign(poly(point)), exactly: rational coordinates substituted, then one algebraic coordinate, or two
    (the first, α, generates the field ℚ(α); the second is a root over ℚ: :class:`NumberField`)."""
    alg = [(v, a) for v, a in point.items() if isinstance(a, RealAlgebraic)]
    sub = {v: qq_to_sympy(q) for v, q in point.items() if not isinstance(q, RealAlgebraic)}
    val = sympy.expand(poly.subs(sub)) if sub else sympy.expand(poly)
    alg = [(v, a) for v, a in alg if val.has(v)]
    if not val.free_symbols:
        v = sympy.Rational(val)
        return int(v.p > 0) - int(v.p < 0)
    if val.free_symbols != {v for v, _ in alg} or len(alg) > 3:
        raise ValueError(f"sign_at: {poly} is not determined by the point {point}")
    if len(alg) == 1:
        v, a = alg[0]
        return a.sign_of(to_flint(val, v))
    if len(alg) == 3:  # the first two generate Q(theta); the third is a root over Q
        (u, a), (v, b), (w, g) = alg
        pe = in_primitive_element(val, u, v, a, b)
        if pe is None:
            raise ValueError(f"sign_at: no primitive element for {a} and {b}")
        theta, th, val_t = pe
        return NumberField(theta).sign_at(val_t, th, w, g)
    (v, a), (w, b) = alg
    return NumberField(a).sign_at(val, v, w, b)


def point_as_sympy(point: dict[Any, Any]) -> dict[Any, Any]:
    """The point with exact sympy coordinates (Rational, radicals or CRootOf)."""
    return {v: (q.as_sympy(v) if isinstance(q, RealAlgebraic) else qq_to_sympy(q)) for v, q in point.items()}


def box_of(region: Any, variables: Any) -> dict[Any, Any]:
    """variable → :class:`Bounds` of a :class:`Region` (a variable it does not bound: its sign assumptions)."""
    return {v: region.bounds(v) for v in variables}


def rational_sample(b: Bounds) -> fmpq | None:
    """A rational point of the bounds, or None when they are empty."""
    pts = _line([], sympy.Dummy("x"), b)
    return pts[0] if pts else None
