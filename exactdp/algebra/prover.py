r"""An exact decision procedure for rational-function inequalities on a parameter region.

Most claims of the two papers reduce to ``lhs ⋈ rhs`` with rational functions of t = e^ε, c, δ
(docs/design.md principle 5).  :func:`decide` answers TRUE / FALSE / UNKNOWN — never a guess — and keeps
the derivation:

1. ``Min``/``Max``/``Piecewise`` are expanded into cases; each case condition joins the region.  A nested tree
   of both kinds against a bound (``Max(Min(g₁₁, g₁₂), Min(g₂₁, …)) ≥ 0``: "some region's conditions all hold")
   is instead the Boolean formula it is, decided by :func:`~exactdp.algebra.boolean.decide_formula`
   (:func:`minmax_formula`).
2. ``rhs − lhs`` is put over one denominator, ``num/den``; the sign of ``den`` on the region is decided
   by the same procedure (it must be constant and non-zero, else UNKNOWN), so the claim becomes a
   polynomial sign condition ``σ·num ≥ 0`` (or ``> 0``).
3. **One parameter**: the real roots of ``num`` and of the region's constraint polynomials are isolated
   exactly (:mod:`exactdp.algebra.algebraic`, Sturm sequences over ℚ); the sign is evaluated at one
   rational point of every open cell and, exactly, at every root (algebraic point) and closed end.
4. **Two parameters** (x, y): the polynomials are projected onto x (leading coefficients,
   discriminants and pairwise resultants in y, and the values at finite y-bounds); between consecutive
   real roots of the projection every polynomial is delineable, so a rational sample abscissa per open
   x-cell decides that cell (its fibre is analysed exactly as in 3, including the algebraic y-roots).
   Rational critical abscissae are analysed exactly.  At *irrational* critical abscissae a
   non-strict claim follows by continuity when every non-box region constraint is strict (then each
   region point there is in an open sector cell, on a closed box edge, or a zero of P); otherwise, and
   for strict claims, the answer is UNKNOWN.
5. Half-integer powers of a parameter v ≥ 0 are removed by v = w² (:mod:`exactdp.algebra.radicals`).
   Any other square root √A (A a rational function of the parameters: √(x² + 1)) is eliminated by a new
   variable r ≥ 0 with r² = A (:func:`exactdp.algebra.radicals.eliminate`), after A ≥ 0 (with a denominator of
   constant sign) is decided on the region — a radicand negative somewhere gives UNKNOWN, naming the point,
   never TRUE; the rational claim in (parameters, r) is then decided by 1–6 and a counterexample is given in
   the original parameters.
6. **Three or more parameters** (and two where 4 is UNKNOWN): projection and lifting over rational and
   algebraic sample points (:mod:`exactdp.algebra.cylindrical`) with, in three, the open-failure argument and
   the elimination of boundary surfaces of :mod:`exactdp.algebra.boolean`.  In four or more the projection
   applies recursively (McCallum's, with the nullification check of well-orientedness), the work is
   estimated first (refused beyond ``max_work``, naming the limit), a failing sample is an exact
   counterexample (a point failure such as Σ(x_i − a_i)² > 0 is reached through the rational roots of the
   projections), and TRUE needs a decomposition without gaps — otherwise UNKNOWN.
7. Non-rational expressions (log, exp, a non-square root): UNKNOWN with the reason.

A FALSE answer carries an exact counterexample (rational, or an algebraic point shown exactly).
"""

from __future__ import annotations

from typing import Any

import itertools

import sympy
from flint import fmpq

from exactdp.errors import UndecidedError
from exactdp.limits import ResourceLimitError, charge, require
from exactdp.numbers.truth import Truth
from exactdp.algebra.algebraic import RealAlgebraic, real_roots
from exactdp.algebra.boolean import decide_formula
from exactdp.algebra.cases import cases, rational_check
from exactdp.algebra.decision import Decision, ProverUndecided
from exactdp.algebra.projection import points_1d, projection, to_flint
from exactdp.algebra.regions import Bounds, Region, relation_to_positive
from exactdp.algebra import radicals
from exactdp.numbers.formula_text import formula_step, inline_step
from exactdp.numbers.memo import Memo, limits_in_force
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.reader import as_expr

#: hyperbolic and trigonometric functions: an identity holding them is retried in exponentials
_CIRCULAR = (sympy.functions.elementary.hyperbolic.HyperbolicFunction,
             sympy.functions.elementary.trigonometric.TrigonometricFunction)


def _sign_at(p: sympy.Expr, x: Any, pt: Any) -> int:
    if isinstance(pt, RealAlgebraic):
        return pt.sign_of(to_flint(p, x))
    return _sgn(p.subs(x, qq_to_sympy(pt)))


def _sgn(v: Any) -> int:
    v = sympy.Rational(v)
    return int(bool(v > 0)) - int(bool(v < 0))


def _ok(sign: int, strict: bool) -> bool:
    return sign > 0 or (sign == 0 and not strict)


def _check_1d(P: Any, strict: bool, x: Any, b: Bounds, cons: Any,
              fixed: dict[Any, Any]) -> tuple[dict[Any, Any] | None, int]:
    """Return (counterexample or None, number of region points checked); exact."""
    polys = [P] + [g for g, _ in cons]
    polys = [sympy.expand(p) for p in polys if sympy.expand(p).free_symbols]
    if polys:
        pts, _ = points_1d(polys, x, b)
    else:
        pts = [b.lo if b.lo is not None and not b.lo_open else (b.lo + 1 if b.lo is not None else (
            b.hi - 1 if b.hi is not None else fmpq(0)))]
        if b.lo is not None and b.hi is not None:
            pts = [(b.lo + b.hi) / 2] if b.lo < b.hi else ([b.lo] if b.lo == b.hi and not b.lo_open else [])
    checked = 0
    for pt in pts:
        if not all(_ok(_sign_at(g, x, pt), s) for g, s in cons):
            continue
        checked += 1
        if not _ok(_sign_at(P, x, pt), strict):
            ce = dict(fixed)
            ce[x] = qq_to_sympy(pt) if not isinstance(pt, RealAlgebraic) else pt.as_sympy(x)
            return ce, checked
    return None, checked


def _check_2d(P: Any, strict: bool, x: Any, y: Any, region: Region,
              steps: list[Any]) -> tuple[dict[Any, Any] | None, int]:
    xb, yb = region.bounds(x), region.bounds(y)
    cons = list(region.constraints)
    proj = projection([P] + [g for g, _ in cons], x, y, yb)
    pts, roots = points_1d(proj, x, xb) if proj else (_check_points_plain(xb), [])
    irrational = [r for r in roots if not r.is_rational and (xb.lo is None or r.compare_rational(xb.lo) > 0)
                  and (xb.hi is None or r.compare_rational(xb.hi) < 0)]
    checked = 0
    for pt in pts:
        if isinstance(pt, RealAlgebraic):
            continue  # irrational abscissa: continuity (non-strict) or undecided (strict), below
        sub = {x: qq_to_sympy(pt)}
        Py = sympy.expand(P.subs(sub))
        cy = [(sympy.expand(g.subs(sub)), s) for g, s in cons]
        if any(not g.free_symbols and not _ok(_sgn(g), s) for g, s in cy):
            continue
        cy = [(g, s) for g, s in cy if g.free_symbols]
        if not Py.free_symbols:  # P is constant on this fibre: it matters where the fibre meets the region
            ce, n = _check_1d(-sympy.Integer(1), True, y, yb, cy, sub)  # "fails" at the first region point
            if n:
                checked += 1
                if not _ok(_sgn(Py), strict):
                    return ce, checked
            continue
        ce, n = _check_1d(Py, strict, y, yb, cy, sub)
        checked += n
        if ce:
            return ce, checked
    if irrational:
        if strict:
            raise ProverUndecided(f"{len(irrational)} irrational critical value(s) of {x} "
                             f"(e.g. {irrational[0]}) for a strict inequality")
        if any(not s for _, s in cons):
            raise ProverUndecided(f"{len(irrational)} irrational critical value(s) of {x} (e.g. {irrational[0]}) "
                             f"and a non-strict region constraint: continuity cannot be certified there")
        steps.append(inline_step(
            f"at the {len(irrational)} irrational critical value(s) of {{}} the non-strict claim follows by "
            f"continuity: every region point there lies in a sector (all polynomials non-zero, an open "
            f"condition) approached from the adjacent cells, on a closed box edge (approached along the edge), "
            f"or where {{}}", x, sympy.Eq(P, 0, evaluate=False)))
    return None, checked


def _check_points_plain(b: Bounds) -> list[Any]:
    pts, _ = points_1d([], None, b)
    return pts


#: work units a polynomial sign decision is charged to an enclosing :func:`exactdp.limits.work_meter` (a
#: decomposition of up to a few hundred cells): certificate synthesis, which runs hundreds of them, stops at
#: ``max_work`` after a thousand instead of running unbounded (docs/conjectures.md's PML example uses 389)
DECISION_CHARGE = 10**6


def _decide_poly(P: Any, strict: bool, region: Region,
                 steps: list[Any]) -> tuple[Truth, dict[Any, Any] | None, int | None]:
    """Decide σ-free polynomial claim P > 0 / P ≥ 0 on the region; returns (Truth, ce, n_points)."""
    charge(DECISION_CHARGE, "a polynomial sign decision")
    P = sympy.expand(P)
    for v, b in zip(region.variables, region.box):
        if b.lo is not None and b.hi is not None and (b.lo > b.hi or (b.lo == b.hi and (b.lo_open or b.hi_open))):
            steps.append(inline_step("the bounds of {} are empty: the claim holds vacuously", v))
            return Truth.TRUE, None, 0
    used = P.free_symbols.union(*[g.free_symbols for g, _ in region.constraints])
    vars_ = [v for v in region.variables if v in used] + sorted(used - set(region.variables), key=str)
    if len(vars_) == 0:
        ok = _ok(_sgn(P), strict)
        point = {v: qq_to_sympy(_check_points_plain(b)[0]) for v, b in zip(region.variables, region.box)}
        return (Truth.TRUE if ok else Truth.FALSE), (None if ok else point), 1
    if len(vars_) == 1:
        (x,) = vars_
        ce, n = _check_1d(P, strict, x, region.bounds(x), list(region.constraints), {})
    elif len(vars_) == 2:
        best: tuple[Any, ...] | ProverUndecided | None = None
        for x, y in (tuple(vars_), tuple(reversed(vars_))):
            try:
                trial: list[Any] = []
                ce, n = _check_2d(P, strict, x, y, region, trial)
                best = (ce, n, trial)
                if not trial:
                    break
            except ProverUndecided as exc:
                if best is None:
                    best = exc
        if best is None or isinstance(best, ProverUndecided):
            return _decide_by_cells(P, strict, region, steps, best)
        ce, n, trial = best
        steps.extend(trial)
    else:
        return _decide_by_cells(P, strict, region, steps, None)
    if ce is not None:
        return Truth.FALSE, ce, n
    if n == 0:
        steps.append("every cell of the decomposition lies outside the region: the region is empty "
                     "and the claim holds vacuously")
    return Truth.TRUE, None, n


def _decide_by_cells(P: Any, strict: bool, region: Region, steps: list[Any],
                     undecided: ProverUndecided | None) -> tuple[Truth, dict[Any, Any] | None, None]:
    """Three parameters, or two where the sector argument above fails: the cylindrical decision of
    :mod:`exactdp.algebra.boolean` (projection and lifting, with its splitting of non-strict constraints)."""
    d = decide_formula(P > 0 if strict else P >= 0, region)
    if d.truth is Truth.UNKNOWN:
        raise ProverUndecided(d.reason if undecided is None else f"{undecided}; by cells: {d.reason}")
    if d.truth is Truth.TRUE:  # (a FALSE answer is reported by its counterexample)
        steps.extend(d.steps)
    return d.truth, d.counterexample, None  # the number of points is in the cell steps


def sign_on(expr: Any, region: Region, strict: bool = True, steps: list[Any] | None = None) -> Truth:
    """Truth of ``expr > 0`` (strict) or ``expr ≥ 0`` on the region (raises ProverUndecided when undecidable)."""
    return _sign_on(expr, region, strict, [] if steps is None else steps)[0]


def _sign_on(expr: Any, region: Region, strict: bool, steps: list[Any]) -> tuple[Truth, dict[Any, Any] | None]:
    """``(Truth, counterexample)`` of ``expr > 0`` / ``expr ≥ 0`` on the region, case by case."""
    truth = Truth.TRUE
    for e, sub in cases(as_expr(expr), region):
        rational_check(e)
        num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
        if _by_factors(num, den, strict, sub, steps):
            continue
        if den.free_symbols:
            pos, _, _ = _decide_poly(den, True, sub, steps)
            if pos is Truth.TRUE:
                sgn = 1
            else:
                neg, _, _ = _decide_poly(-den, True, sub, steps)
                if neg is not Truth.TRUE:
                    raise ProverUndecided(f"the denominator {den} changes sign or vanishes on {sub}")
                sgn = -1
        else:
            sgn = 1 if den > 0 else -1
        t, ce, n = _decide_poly(sgn * num, strict, sub, steps)
        claim = (sympy.StrictGreaterThan if strict else sympy.GreaterThan)(sgn * num, 0, evaluate=False)
        steps.append(inline_step(
            f"the denominator {{}} is {'positive' if sgn > 0 else 'negative'}; {{}} checked exactly "
            f"{'on the cells above' if n is None else f'at {n} point' + ('' if n == 1 else 's')}", den, claim, region=sub.as_sympy(),
            outcome=str(t)))
        if t is Truth.FALSE:
            return Truth.FALSE, ce
        truth = truth & t
    return truth, None


def _by_factors(num: Any, den: Any, strict: bool, region: Region, steps: list[Any]) -> bool:
    """Whether num/den > 0 (strict) or ≥ 0 on the region follows from the signs of the irreducible factors of num
    and den, each settled on its own; False means "not shown this way" (the caller decides the whole claim).

    Only in three or more parameters, where one cylindrical decomposition of the whole numerator and every region
    constraint is costly and the factors are of lower degree.  A factor f (up to a non-zero rational multiple) that
    is itself a region constraint f ≥ 0 / f > 0 has that sign with no decision — a certificate whose region is
    cut out by its multipliers' numerators (the pieces of :mod:`exactdp.verification.conjecture.synthesis`) is
    then checked by its denominators alone; any other factor must be > 0 or < 0 on the box of the region, on
    the box with one of the region's constraints, or else on the whole region (exact decisions: fewer constraints
    give a superset of the region).  A numerator factor of even power is ≥ 0 and needs no sign
    unless the claim is strict."""
    used = set(num.free_symbols) | set(den.free_symbols)
    used = used.union(*[g.free_symbols for g, _ in region.constraints])
    if len(used) < 3 or not num.free_symbols:
        return False
    cons: dict[Any, tuple[int, bool]] = {}  # monic irreducible f -> (sign of the constraint in f, strict)
    for g, g_strict in region.constraints:
        lead, facs = sympy.factor_list(g)
        if len(facs) == 1 and facs[0][1] % 2 == 1:
            poly = sympy.Poly(facs[0][0], *sorted(used, key=str))
            cons[poly.monic().as_expr()] = (1 if lead * poly.LC() > 0 else -1, g_strict)
    whole = None  # the numerator itself a region constraint (a product of factors): its sign with no decision
    for g, g_strict in region.constraints:
        q = sympy.cancel(num / g)
        if q.is_Rational and q != 0 and (g_strict or not strict):
            whole = (1 if q > 0 else -1, g_strict, g)
            break
    if whole is not None:
        parts = [(f, e, False) for f, e in sympy.factor_list(den)[1]]
        sign = whole[0] * (1 if sympy.factor_list(den)[0] > 0 else -1)
    else:
        parts = [(f, e, True) for f, e in sympy.factor_list(num)[1]]
        parts += [(f, e, False) for f, e in sympy.factor_list(den)[1]]
        if len(parts) < 2 and not any(sympy.Poly(f, *sorted(used, key=str)).monic().as_expr() in cons
                                      for f, _, _ in parts):
            return False
        sign = 1 if sympy.factor_list(num)[0] * sympy.factor_list(den)[0] > 0 else -1
    box = Region(region.variables, region.box, ())
    shown: list[Any] = []
    if whole is not None:
        shown.append((sympy.StrictGreaterThan if whole[1] else sympy.GreaterThan)(whole[0] * num, 0, evaluate=False))
    # then each constraint alone (lowest degree first), then all: cheap decompositions before the whole region's
    singles = sorted(region.constraints, key=lambda gs: (sympy.Poly(gs[0], *sorted(used, key=str)).total_degree(),
                                                         sympy.default_sort_key(gs[0])))
    singles = singles if len(singles) > 1 else []
    for f, e, in_num in parts:
        if in_num and e % 2 == 0 and not strict:
            continue
        monic = sympy.Poly(f, *sorted(used, key=str))
        k = monic.LC()
        key = monic.monic().as_expr()
        if key in cons:
            s, s_strict = cons[key]
            s *= 1 if k > 0 else -1
            if not s_strict and (strict or not in_num):
                return False  # f ≥ 0 only: a denominator, or a strict claim, needs f ≠ 0
            sign *= s ** e
            shown.append(sympy.GreaterThan(s * f, 0, evaluate=False) if not s_strict else
                         sympy.StrictGreaterThan(s * f, 0, evaluate=False))
            continue
        found = 0
        for where in ((box, *[Region(region.variables, region.box, (g,)) for g in singles], region)
                      if region.constraints else (region,)):
            for s in (1, -1):
                try:
                    if _decide_poly(s * f, True, where, [])[0] is Truth.TRUE:
                        found = s
                        break
                except ProverUndecided:
                    continue
            if found:
                break
        if not found:
            return False
        sign *= found ** e
        shown.append(sympy.StrictGreaterThan(found * f, 0, evaluate=False))
    if sign < 0:
        return False
    steps.append(inline_step("the sign of {} from its factors' signs on the region: {}",
                             sympy.Mul(num, sympy.Pow(den, -1, evaluate=False), evaluate=False),
                             sympy.And(*shown) if shown else sympy.true, region=region.as_sympy(), outcome="true"))
    return True


def decide(statement: Any, region: Region | None = None, *, crossings: bool = True) -> Decision:
    r"""Decide a rational-function (in)equality on a region, exactly; TRUE/FALSE/UNKNOWN with derivation.

    Args:
        statement: a sympy relation ``a <= b``, ``a < b``, ``a >= b``, ``a > b`` or ``Eq(a, b)``
            (``Eq`` is decided as an identity by exact cancellation), or an ``And`` of them.
        region: a :class:`Region` (default: the symbols' sign assumptions only).
        crossings: list where a = b (False: a caller that reads only the truth, the counterexample and the
            derivation — the certificate checks — is spared that computation; the answer is the same).
    Returns:
        a :class:`Decision`; ``crossings`` lists the exact points (one parameter) or curves (two)
        of the region where a = b.

    >>> t = sympy.Symbol("t", positive=True)
    >>> str(decide((t - 1) / (t + 1) <= 1 - 1 / t, Region.of(t >= 1)).truth)
    'true'

    A decision is a pure function of the statement, the region and the limits in force: a TRUE or FALSE answer is
    remembered (:data:`_DECISIONS`) and given again as a fresh :class:`Decision` (the certificates of a run ask
    the same question on the same region many times); an UNKNOWN answer is always decided again.
    """
    region = region or Region.of(*[], variables=sorted(statement.free_symbols, key=str))
    try:
        key: tuple[Any, ...] | None = (statement, region, crossings, limits_in_force())
        hash(key)
    except (TypeError, ResourceLimitError):
        key = None
    known = _DECISIONS.get(key) if key is not None else None
    if known is None:
        known = _decide(statement, region, crossings)
        if key is not None and known.truth is not Truth.UNKNOWN:
            _DECISIONS.put(key, known)
    return Decision(known.truth, known.statement, known.region, list(known.steps), list(known.crossings),
                    dict(known.counterexample) if known.counterexample is not None else None, known.reason)


#: the TRUE / FALSE decisions already reached, by (statement, region, limits in force): :func:`decide`
_DECISIONS: Memo[Decision] = Memo()


def _decide(statement: Any, region: Region, crossings: bool) -> Decision:
    """:func:`decide` itself (no memo)."""
    if isinstance(statement, sympy.And):
        parts = [decide(s, region, crossings=crossings) for s in statement.args]
        truth = Truth.TRUE
        for p in parts:
            truth = truth & p.truth
        ce = next((p.counterexample for p in parts if p.counterexample), None)
        return Decision(truth, statement, region, [s for p in parts for s in p.steps],
                        [c for p in parts for c in p.crossings], ce,
                        "; ".join(p.reason for p in parts if p.reason))
    formula = minmax_formula(statement)
    if formula is not None:  # Max of Mins (or Min of Maxes) against a bound: one Boolean decision, no case split
        d = decide_formula(formula, region)
        return Decision(d.truth, statement, region,
                        [inline_step("{} is the Boolean formula {}", statement, formula), *d.steps], [],
                        d.counterexample, d.reason)
    steps: list[Any] = []
    if not isinstance(statement, sympy.logic.boolalg.BooleanAtom):
        sub = radicals.substitute(statement, region)
        if sub is not None:
            d = decide(sub[0], sub[1], crossings=crossings)
            back = sub[2]
            steps = [inline_step("substituted {} ({})", sympy.Eq(v, w ** 2, evaluate=False),
                                 sympy.GreaterThan(w, 0, evaluate=False)) for w, v in back.items()] + d.steps
            return Decision(d.truth, statement, region, steps, [radicals.map_back(x, back) for x in d.crossings],
                            radicals.map_back(d.counterexample, back) if d.counterexample else None, d.reason)
        roots = radicals.eliminate(statement, region)
        if roots is not None:
            return _decide_without_roots(statement, region, *roots)
    if statement is sympy.true or statement is sympy.false:  # sympy settled it from numbers/assumptions
        steps = ["sympy evaluated the relation exactly (numbers or the symbols' assumptions)"]
        if statement is sympy.true:
            return Decision(Truth.TRUE, statement, region, steps)
        try:
            nonempty, point = _sign_on(-sympy.Integer(1), region, True, steps)  # a region point, if any
        except ProverUndecided as exc:
            return Decision(Truth.UNKNOWN, statement, region, steps, reason=str(exc))
        if nonempty is Truth.FALSE:
            return Decision(Truth.FALSE, statement, region, steps, counterexample=point)
        return Decision(Truth.TRUE, statement, region, steps + ["the region is empty"])
    if isinstance(statement, sympy.Eq):
        diff = sympy.cancel(sympy.together(statement.lhs - statement.rhs))
        steps.append(formula_step("the difference of the two sides after exact cancellation", diff))
        if diff == 0:
            return Decision(Truth.TRUE, statement, region, steps)
        try:
            rational_check(diff)
        except ProverUndecided as exc:
            return Decision(Truth.UNKNOWN, statement, region, steps, reason=str(exc))
        try:
            nz, _ = _sign_on(diff ** 2, region, True, steps)
            if nz is Truth.TRUE:  # the sides differ everywhere: any region point is a counterexample
                anywhere, point = _sign_on(-sympy.Integer(1), region, True, steps)
                if anywhere is Truth.FALSE:
                    return Decision(Truth.FALSE, statement, region, steps, counterexample=point)
                return Decision(Truth.TRUE, statement, region, steps + ["the region is empty"])
        except ProverUndecided as exc:
            return Decision(Truth.UNKNOWN, statement, region, steps, reason=str(exc))
        return Decision(Truth.UNKNOWN, statement, region, steps, reason="the difference vanishes only somewhere")
    g, strict = relation_to_positive(statement)
    steps.append(formula_step("claim", (sympy.StrictGreaterThan if strict else sympy.GreaterThan)(g, 0, evaluate=False),
                              region=region.as_sympy()))
    try:
        truth, ce = _sign_on(g, region, strict, steps)
    except ProverUndecided as exc:
        return Decision(Truth.UNKNOWN, statement, region, steps, reason=str(exc))
    found = crossing_points(statement.lhs, statement.rhs, region) if crossings else []
    return Decision(truth, statement, region, steps, found, ce)


def _decide_without_roots(statement: Any, region: Region, rational: Any, extended: Region,
                          roots: list[tuple[Any, Any, Region]]) -> Decision:
    """The statement with its square roots √A eliminated (:func:`radicals.eliminate`: r ≥ 0, r² = A): each
    radicand is first shown ≥ 0, with a denominator of constant sign, on the region where it is taken (else
    UNKNOWN: a root that is not real somewhere proves nothing); then the rational statement in the new
    variables is decided, and a counterexample is given in the original parameters (the roots' values dropped)."""
    steps: list[Any] = []
    shown: dict[Any, Any] = {}
    for r, A, where in roots:
        radicand = A.xreplace(shown)
        try:
            real, point = _sign_on(A, where, False, [])
        except ProverUndecided as exc:
            return Decision(Truth.UNKNOWN, statement, region, steps,
                            reason=f"the sign of the radicand of sqrt({radicand}) on the region is not decided: {exc}")
        if real is not Truth.TRUE:
            at = {k: v for k, v in (point or {}).items() if k not in shown}
            return Decision(Truth.UNKNOWN, statement, region, steps,
                            reason=f"sqrt({radicand}) is not real on the whole region: {radicand} < 0 at {at}")
        shown[r] = sympy.sqrt(radicand)
        steps.append(inline_step("{} eliminated: {} with {} and {} ({} on the region, decided exactly)", shown[r], r,
                                 sympy.GreaterThan(r, 0, evaluate=False), sympy.Eq(r ** 2, A, evaluate=False),
                                 sympy.GreaterThan(A, 0, evaluate=False)))
    d = decide(rational, extended, crossings=False)
    ce = {k: v for k, v in d.counterexample.items() if k not in shown} if d.counterexample else None
    return Decision(d.truth, statement, region, steps + d.steps, [], ce, d.reason)


def minmax_formula(statement: Any) -> Any:
    """``X ⋈ B`` as an And/Or of relations when X is a tree of ``Max`` and ``Min`` whose nodes' arguments are
    ``Max``/``Min`` nodes or rational functions free of them, both kinds occur (a Max of Mins: "some region's
    conditions all hold"), and B is free of them; else None.

    Max(x₁, …) ≥ B ⇔ Or(x_i ≥ B), Min(x₁, …) ≥ B ⇔ And(x_i ≥ B) (and the mirrored forms, strict alike): an
    equivalence, so :func:`~exactdp.algebra.boolean.decide_formula` decides the statement in one cylindrical
    decomposition adapted to every x_i − B, where the case split of step 1 would build a disjunctive normal form
    with one conjunction per choice of a maximal argument (exponential in the nesting)."""
    ops = {sympy.GreaterThan: (True, False), sympy.StrictGreaterThan: (True, True),
           sympy.LessThan: (False, False), sympy.StrictLessThan: (False, True)}
    if type(statement) not in ops:
        return None
    above, strict = ops[type(statement)]
    X, B = statement.lhs, statement.rhs
    if not isinstance(X, (sympy.Max, sympy.Min)):
        X, B, above = B, X, not above
    if not isinstance(X, (sympy.Max, sympy.Min)) or B.has(sympy.Max, sympy.Min):
        return None
    kinds: set[type] = set()

    def tree(e: Any, above: bool) -> Any:
        if isinstance(e, (sympy.Max, sympy.Min)):
            kinds.add(type(e))
            parts = [tree(a, above) for a in e.args]
            if any(p is None for p in parts):
                return None
            return (sympy.Or if isinstance(e, sympy.Max) == above else sympy.And)(*parts, evaluate=False)
        if e.has(sympy.Max, sympy.Min):
            return None
        rel = (sympy.StrictGreaterThan if strict else sympy.GreaterThan) if above else (
            sympy.StrictLessThan if strict else sympy.LessThan)
        return rel(e, B, evaluate=False)

    formula = tree(X, above)
    return formula if formula is not None and len(kinds) == 2 else None


def crossing_points(a: Any, b: Any, region: Region) -> list[Any]:
    """Where a = b in the region: exact points (one parameter) or factor curves / surfaces ``Eq(f, 0)``
    (two / three parameters)."""
    out: list[Any] = []
    try:
        for e, sub in cases(as_expr(a - b), region):
            rational_check(e)
            num, _ = sympy.fraction(sympy.cancel(sympy.together(e)))
            fs = [v for v in sub.variables if num.has(v)]
            if len(fs) == 1:
                (x,) = fs
                for r in real_roots(to_flint(num, x), sub.bounds(x).lo, sub.bounds(x).hi,
                                    lo_open=sub.bounds(x).lo_open, hi_open=sub.bounds(x).hi_open):
                    pt = r.lo if r.is_rational else r
                    if all(_ok(_sign_at(g, x, pt), s) for g, s in sub.constraints if not (g.free_symbols - {x})):
                        val = r.as_sympy(x)
                        if val not in [o.get(x) for o in out if isinstance(o, dict)]:
                            out.append({x: val})
            elif len(fs) in (2, 3):  # curves (two parameters) or surfaces (three)
                for f, _ in sympy.factor_list(num)[1]:
                    if f.free_symbols:
                        eq = _solved(f)
                        if eq not in out and eq is not sympy.false:
                            out.append(eq)
    except (UndecidedError, ValueError):  # ProverUndecided, or an UNKNOWN used as a bool: no solution listed
        pass
    return out


def _solved(f: Any) -> Any:
    """The curve f = 0 written as ``Eq(v, expr)`` when f is linear in a parameter (t preferred)."""
    for v in sorted(f.free_symbols, key=lambda s: (s.name != "t", s.name)):
        P = sympy.Poly(f, v)
        if P.degree() == 1:
            a1, a0 = P.all_coeffs()
            return sympy.Eq(v, sympy.factor(-a0 / a1))
    return sympy.Eq(f, 0)


def exponential_form(expr: Any) -> Any:
    """``expr`` with every hyperbolic and trigonometric function written in exponentials (tanh x =
    (e^x − e^{−x})/(e^x + e^{−x}), …), powers of exponentials merged and one fraction cancelled: an exact
    rewriting, so tanh(log(t)/2) − (t − 1)/(t + 1) becomes 0."""
    return sympy.cancel(sympy.powsimp(sympy.together(expr.rewrite(sympy.exp))))


def prove_identity(a: Any, b: Any) -> Decision:
    """Decide a = b identically: exact cancellation for rational functions, sympy simplification else.

    TRUE only when the difference is reduced to 0 by exact rewriting; FALSE when it is a rational function
    that is not 0, with an exact point where the two sides differ (:func:`_identity_witness`), or when at a
    rational point both sides evaluate exactly to different rationals (:func:`_evaluation_witness`: a symbolic
    exponent); UNKNOWN otherwise (non-rational terms that were not reduced to 0 and no such point found).
    """
    steps: list[Any] = []
    diff = sympy.cancel(sympy.together(as_expr(a) - as_expr(b)))
    steps.append(formula_step("the difference of the two sides, cancelled", diff))
    if diff != 0:
        simp = sympy.simplify(diff)
        steps.append(formula_step("the difference simplified by sympy", simp))
        if simp != 0:
            simp = sympy.simplify(sympy.radsimp(sympy.expand(sympy.powdenest(simp, force=False))))
            steps.append(formula_step("radicals simplified and expanded", simp))
        if simp != 0 and simp.has(*_CIRCULAR):
            simp = exponential_form(simp)
            steps.append(formula_step("hyperbolic and trigonometric functions as exponentials", simp))
        diff = simp
    if diff == 0:
        return Decision(Truth.TRUE, sympy.Eq(a, b, evaluate=False), None, steps)
    point = _identity_witness(sympy.cancel(sympy.together(as_expr(a) - as_expr(b))),
                              as_expr(a).free_symbols | as_expr(b).free_symbols,
                              sympy.fraction(sympy.together(as_expr(a)))[1] * sympy.fraction(sympy.together(as_expr(b)))[1])
    if point is not None:
        steps.append(inline_step("the difference of the two sides is a rational function that is not 0: at {} it "
                                 "is {}", point, sympy.cancel(sympy.together(as_expr(a) - as_expr(b))).xreplace(point)))
        return Decision(Truth.FALSE, sympy.Eq(a, b, evaluate=False), None, steps, counterexample=point)
    found = _evaluation_witness(as_expr(a), as_expr(b))
    if found is not None:
        point, va, vb = found
        steps.append(inline_step("at {} the two sides evaluate exactly to {} and {}", point, va, vb))
        return Decision(Truth.FALSE, sympy.Eq(a, b, evaluate=False), None, steps, counterexample=point)
    return Decision(Truth.UNKNOWN, sympy.Eq(a, b, evaluate=False), None, steps,
                    reason=f"the difference {diff} was not reduced to 0")


#: the values tried per symbol by :func:`_evaluation_witness` (integers for integer symbols, negated for negative ones)
_EVALUATION_VALUES = {"integer": (2, 3, 1, 4, 5), "real": (sympy.Rational(1, 3), 2, sympy.Rational(2, 3), 3,
                                                              sympy.Rational(5, 4))}


def _evaluation_witness(a: Any, b: Any) -> tuple[dict[Any, Any], Any, Any] | None:
    """A rational point where both sides evaluate exactly to different rationals: (point, a there, b there), or
    None.  For identities outside the rational functions of the parameters — a symbolic exponent such as
    (1 - delta)**n, where cancellation does not apply — a difference of two exact values at one point refutes the
    identity.  Symbols take small integers (integer symbols) or rationals, within their sign assumptions; at most
    4 symbols and 5**4 points; sides with Min, Max, Abs or Piecewise are left to the case analysis."""
    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    if not syms or len(syms) > 4 or a.has(*_PIECEWISE_FUNCTIONS) or b.has(*_PIECEWISE_FUNCTIONS):
        return None
    choices = []
    for x in syms:
        values: tuple[Any, ...] = _EVALUATION_VALUES["integer" if x.is_integer else "real"]
        if x.is_negative or (x.is_nonpositive and not x.is_nonnegative):
            values = tuple(-v for v in values)
        choices.append([v for v in values if not (x.is_nonzero and v == 0)])
    require("max_work", 5 ** len(syms) * (sympy.count_ops(a) + sympy.count_ops(b) + 1),
            "evaluating an identity at rational points")
    for values in itertools.product(*choices):
        point = {x: sympy.Integer(v) if isinstance(v, int) else v for x, v in zip(syms, values)}
        try:
            va, vb = a.xreplace(point), b.xreplace(point)
        except (TypeError, ZeroDivisionError):
            continue
        if va.is_Rational and vb.is_Rational and va != vb:
            return point, va, vb
    return None


_PIECEWISE_FUNCTIONS = (sympy.Min, sympy.Max, sympy.Abs, sympy.Piecewise)


def _identity_witness(diff: Any, symbols: Any = (), defined: Any = 1) -> dict[Any, Any] | None:
    """A point where the rational function ``diff`` (≠ 0 after cancellation) is defined and ≠ 0, respecting
    its symbols' (and ``symbols``') sign and integer assumptions, where ``defined`` (the two sides' denominators)
    is not 0 either; None if ``diff`` is not a rational function.

    num·den·defined has degree d_x in each symbol x, so it is ≠ 0 somewhere on the grid Π_x S_x with |S_x| = d_x + 1
    (a nonzero polynomial of degree ≤ d in x has at most d roots in x; induction on the symbols): S_x is
    {2, …, d_x + 2} (negated for a negative symbol), which meets every assumption."""
    try:
        rational_check(diff)
    except ProverUndecided:
        return None
    if diff.has(sympy.Min, sympy.Max, sympy.Piecewise, sympy.Abs) or diff == 0:
        return None
    num, den = sympy.fraction(diff)
    syms = sorted(diff.free_symbols | set(symbols), key=str)
    if not syms:
        return {}
    try:
        prod = sympy.Poly(sympy.expand(num * den * defined), *syms)
    except sympy.PolynomialError:  # the sides' denominators are not polynomials (cancelled non-rational terms)
        return None
    degrees = [prod.degree(x) for x in syms]
    size = 1
    for d in degrees:
        size *= d + 1
    require("max_work", size * (prod.length() + 1), f"a point where the non-identity {str(diff)[:60]} is not 0")
    grids = [[sympy.Integer(-(k + 2) if (x.is_negative or x.is_nonpositive) else k + 2) for k in range(d + 1)]
             for x, d in zip(syms, degrees)]
    for values in itertools.product(*grids):
        point = dict(zip(syms, values))
        if prod.eval(tuple(values)) != 0:
            return point
    return None  # pragma: no cover - excluded by the degree argument


#: the public API; Region and Decision are re-exported (callers import them from here with decide)
__all__ = ["Decision", "Region", "crossing_points", "decide", "exponential_form", "prove_identity", "sign_on"]
