r"""The SR number domain's decisions on a parameter region (:func:`sr_domain`): the machinery the measures
of parametric kernels run on, written once in :mod:`exactdp.measures` over :class:`exactdp.numbers.domain.SR`.

Every case split is decided by the exact prover (:mod:`exactdp.algebra.prover`) on the kernel's region
(:mod:`.region`), on a one-parameter box by exact cell decomposition (:mod:`.univariate`):

* (a)₊ = a where a ≥ 0 is proved, 0 where a ≤ 0 is proved, else ``Piecewise((a, a > 0), (0, True))``;
* max{e₁,…,e_m} (:func:`symbolic_max`): candidates proved ≤ another candidate on the whole region are
  dropped; if one candidate remains it is the closed form (and its index is the witness), else a
  ``Piecewise`` whose conditions say which candidate is largest; on a one-parameter box the candidates
  (piecewise rational functions) are compared cell by cell, cut at their exact algebraic crossings;
* max_k a_k/b_k (:func:`max_quotient`, the column ratios of D-5 and D-9): ``oo`` where a denominator
  vanishes below a non-zero numerator — exact algebraic points on a one-parameter box, the condition
  b_k = 0 otherwise — and the maximum on the rest of the region.

The steps of a derivation (:class:`Derivation`, :class:`Step`) are recorded around the measures by
:mod:`exactdp.measures.derivations`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import sympy

from exactdp.errors import ParameterError, UndecidedError
from exactdp.numbers.domain import SR
from exactdp.numbers.sr import as_sympy, exact_result, simplest_constant
from exactdp.numbers.rb import certified_sign
from exactdp.numbers.truth import Sign, Truth
from exactdp.algebra.cases import cases
from exactdp.algebra.prover import Region, sign_on
from exactdp.symbolic import univariate as uv
from exactdp.symbolic.region import scoped_conditions
from exactdp.symbolic.univariate import sign_1d
from exactdp.numbers.reader import as_expr
from exactdp.numbers.display import normal_form  # noqa: F401  (the papers' normal form; re-exported)


class Step(NamedTuple):
    """One derivation step: ``text`` is prose (no formulas), ``math`` the LaTeX of the quantity the step
    computes (without ``$``; "" when none), ``expr`` its value (sympy, or None); typeset as
    ``math = expr`` with ``text`` as the explanation."""

    text: str
    expr: object = None
    math: str = ""


@dataclass
class Derivation:
    """The steps from the kernel to a closed form (:class:`Step`); ``quantity`` names it in plain text,
    ``title`` in prose and ``math`` its definition in LaTeX (for the LaTeX output)."""

    quantity: str
    steps: list = field(default_factory=list)
    result: object = None
    title: str = ""
    math: str = ""

    def add(self, text: str, expr=None, math: str = "") -> None:
        self.steps.append(Step(text, expr, math))


def _simplify(e):
    e = as_expr(e)
    if e.has(sympy.Piecewise):
        return sympy.piecewise_fold(e)
    if e.free_symbols:
        return normal_form(e)
    return simplest_constant(e)


_TRUTH_CACHE: dict = {}


def _truth(expr, region: Region, strict: bool) -> Truth:
    """Truth of expr > 0 (strict) / ≥ 0 on the region, memoized (kernels repeat the same differences)."""
    key = (expr, region, strict)
    hit = _TRUTH_CACHE.get(key)
    if hit is None:
        one = _one_parameter(region)
        try:
            e = as_expr(expr)
            if not e.free_symbols and not e.is_Rational:  # an irrational constant (entries √2, e, π): balls
                hit = _constant_truth(e, strict)
            elif one and e.has(sympy.Piecewise):  # breakpoints may be irrational: 1-D path
                hit = Truth.of(sign_1d(expr, one[0], one[1], strict))
            else:
                hit = sign_on(expr, region, strict=strict)
        except (UndecidedError, ValueError):  # the prover's ProverUndecided, or an UNKNOWN used as a bool
            hit = Truth.UNKNOWN
        if len(_TRUTH_CACHE) > 20000:
            _TRUTH_CACHE.clear()
        _TRUTH_CACHE[key] = hit
    return hit


def _constant_truth(e, strict: bool) -> Truth:
    """``e > 0`` (strict) / ``e ≥ 0`` for a constant without parameters, decided by certified balls and the
    exact-zero layer (:func:`exactdp.numbers.rb.certified_sign`); UNKNOWN when the cap cannot decide it.
    The prover decides rational functions with rational coefficients only: a kernel with entries such as
    √2/(1 + √2) reaches this path."""
    s = certified_sign(e).sign
    if s is None:
        return Truth.UNKNOWN
    return Truth.of(s is Sign.POSITIVE or (not strict and s is Sign.ZERO))


def positive_part(a, region: Region) -> sympy.Expr:
    """(a)₊ resolved on the region.

    >>> t = sympy.Symbol("t", positive=True)
    >>> positive_part(t - 2, Region.of(t >= 1))
    Piecewise((t - 2, t > 2), (0, True))
    >>> positive_part(t - 1, Region.of(t >= 1))
    t - 1"""
    key = (as_expr(a), region)
    hit = _POS_CACHE.get(key)
    if hit is None:
        hit = _positive_part(key[0], region)
        if len(_POS_CACHE) > 20000:
            _POS_CACHE.clear()
        _POS_CACHE[key] = hit
    return hit


_POS_CACHE: dict = {}


def _positive_part(a, region: Region) -> sympy.Expr:
    """(a)₊ in the SR domain of the region (its weak sign; a Piecewise where the sign changes)."""
    return sr_domain(region).positive_part(sympy.cancel(a))


def _positive_condition(a, region: Region):
    """The condition a > 0, with a denominator of proved sign removed and a linear numerator solved."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(a)))
    if den.free_symbols:
        if _truth(den, region, True) is Truth.TRUE:
            den = sympy.Integer(1)
        elif _truth(-den, region, True) is Truth.TRUE:
            num, den = -num, sympy.Integer(1)
    if den == 1:
        for x in sorted(num.free_symbols, key=str):
            P = sympy.Poly(num, x)
            if P.degree() == 1:
                a1, a0 = P.all_coeffs()
                if _truth(a1, region, True) is Truth.TRUE:
                    return x > normal_form(-a0 / a1)
                if _truth(-a1, region, True) is Truth.TRUE:
                    return x < normal_form(-a0 / a1)
        return num > 0
    return a > 0


def _one_parameter(region: Region):
    """``(v, box)`` when the region is a box in a single parameter with a non-empty interior (the exact
    cell-decomposition path: its cells are the open intervals between cut points, so a box reduced to one
    point, t >= 1 declared on top of t <= 1, has none and takes the prover's path)."""
    if len(region.variables) == 1 and not region.constraints:
        box = region.box[0]
        if box.lo is None or box.hi is None or box.lo < box.hi:
            return region.variables[0], box
    return None


def _empty_box(region: Region):
    """The first parameter whose bounds in the region's box admit no value (lo > hi, or lo = hi with an open
    end), with its bounds; None when every parameter has a value."""
    for v, b in zip(region.variables, region.box):
        if b.lo is not None and b.hi is not None and (b.lo > b.hi or (b.lo == b.hi and (b.lo_open or b.hi_open))):
            return v, b
    return None


def symbolic_max(exprs, region: Region, *, minimum: bool = False):
    """``(value, index)``: the max (or min) of the expressions on the region; index None if it varies."""
    one = _one_parameter(region)
    exprs = [as_expr(e) for e in exprs]
    parts = _cells(exprs, one) if one and len(exprs) > 1 else None
    if parts is not None:
        res = uv.maximum(parts, minimum=minimum)
        return uv.to_sympy(res, _simplify), uv.single_tag(res)
    sign = -1 if minimum else 1
    cands: list = []
    for i, e in enumerate(exprs):
        e = _simplify(e)
        if any(sympy.cancel(e - c) == 0 for c, _ in cands):
            continue
        cands.append((e, i))
    alive = list(cands)
    for e, i in cands:
        if (e, i) not in alive:
            continue
        for f, j in alive:
            if j != i and _truth(sign * (f - e), region, False) is Truth.TRUE:
                alive.remove((e, i))
                break
    if len(alive) == 1:
        return alive[0][0], alive[0][1]
    pieces = []
    for e, i in alive:
        conds = [sign * (e - f) >= 0 for f, j in alive if j != i and _truth(sign * (e - f), region, False)
                 is not Truth.TRUE]
        pieces.append((e, sympy.And(*conds)))
    pieces[-1] = (pieces[-1][0], True)
    return sympy.Piecewise(*pieces), None


def _cells(exprs, one):
    """The expressions as piecewise rational functions on the cells of a one-parameter box
    (:func:`exactdp.symbolic.univariate.from_sympy`), or None when one is not such a function."""
    from sympy.polys.polyerrors import PolynomialError

    try:
        return [_from_sympy(e, *one) for e in exprs]
    except (ValueError, PolynomialError):
        return None


def _from_sympy(e, v, box):
    if e.is_Add and e.has(sympy.Piecewise):  # a sum of positive parts: add the cells, no Piecewise fold
        return uv.add([_from_sympy(a, v, box) for a in e.args])
    return uv.from_sympy(e, v, box)


def cell_form(expr, region: Region):
    """A closed form on a one-parameter box written as its cells (``Piecewise`` with conditions v <= r, the form
    of :func:`symbolic_max` there, for a derivation's steps); unchanged elsewhere or when it is not a
    piecewise rational function of the parameter."""
    one = _one_parameter(region)
    expr = as_expr(expr)
    if not one or not expr.has(sympy.Piecewise):
        return expr
    cells = _cells([expr], one)
    return expr if cells is None else exact_closed_form(uv.to_sympy(cells[0], _simplify))


def max_quotient(nums, dens, region: Region):
    """``(value, index)``: max_k nums[k]/dens[k] on the region, ``oo`` where a denominator vanishes below a
    non-zero numerator (a ``Piecewise`` with the condition of the zeros first); index None when the
    maximizer varies (or the value is ``oo`` on part of the region)."""
    for k, den in enumerate(dens):
        if sympy.cancel(as_expr(den)) == 0:
            return sympy.oo, k
    one = _one_parameter(region)
    if one:
        cells = _cells([as_expr(e) for e in (*nums, *dens)], one)
        if cells is not None:
            return _max_quotient_1d(cells[:len(nums)], cells[len(nums):], *one)
    split = _piecewise_cases([as_expr(e) for e in (*nums, *dens)], region)
    if split is not None:  # a max or min inside a quotient (a column's extremes): decided case by case
        pieces = [(max_quotient(es[:len(nums)], es[len(nums):], sub)[0], cond) for es, sub, cond in split]
        return (exact_closed_form(sympy.piecewise_fold(sympy.Piecewise(*pieces))) if pieces else sympy.oo), None
    ratios, zero_conditions, nonzero = [], [], []
    for a, den in zip(nums, dens):
        if _truth(den, region, True) is not Truth.TRUE:
            zero = sympy.Eq(sympy.numer(sympy.together(den)), 0)
            top = sympy.numer(sympy.together(a))
            if _truth(top, region, True) is not Truth.TRUE and _truth(-top, region, True) is not Truth.TRUE:
                zero = sympy.And(zero, sympy.Ne(top, 0))  # 0/0 (an all-zero column) is no infinity
            zero_conditions.append(zero)
            nonzero.append(den > 0)
        ratios.append(_simplify(a / den))
    value, idx = symbolic_max(ratios, region.with_conditions(*nonzero) if nonzero else region) \
        if len(ratios) > 1 else (ratios[0], 0)
    value = exact_closed_form(value)
    if zero_conditions:
        return sympy.Piecewise((sympy.oo, sympy.Or(*zero_conditions)), (value, True)), None
    return value, idx


def _piecewise_cases(exprs, region: Region):
    """The expressions without their first ``Piecewise``: ``[(exprs on the case, sub-region, its condition)]``,
    one entry per case of that ``Piecewise`` (the prover's case split, :func:`exactdp.algebra.cases.cases`:
    its condition and the negations of the earlier ones joining the region; empty boxes dropped); None when
    no expression has a ``Piecewise``.  A condition that is not an inequality raises
    :class:`~exactdp.errors.UndecidedError` (the prover's regions are inequalities)."""
    folded = [sympy.piecewise_fold(e) for e in exprs]
    pw = next((p for e in folded for p in sympy.preorder_traversal(e) if isinstance(p, sympy.Piecewise)), None)
    if pw is None:
        return None
    return [([e.xreplace({pw: branch}) for e in folded], sub, sub.as_sympy())
            for branch, sub in cases(pw, region) if _empty_box(sub) is None]


def _max_quotient_1d(nums, dens, v, box):
    """:func:`max_quotient` on a one-parameter box, by exact cell decomposition: the zeros of each
    denominator are exact algebraic points (``oo`` there unless the numerator vanishes too)."""
    quotients, zeros = [], []
    for a, b in zip(nums, dens):
        try:
            points = uv.zeros(b)
        except ValueError:  # the denominator vanishes on a whole cell
            return sympy.oo, None
        zeros += [sympy.Eq(v, r.as_sympy(v)) for r in points if uv.sign_at(a, r) != 0]
        quotients.append(uv.combine([a, b], lambda x, y: sympy.cancel(x / y)))
    res = uv.maximum(quotients)
    value = exact_closed_form(uv.to_sympy(uv.Pieces(v, box, res.cuts, res.exprs), _simplify))
    if zeros:
        return sympy.Piecewise((sympy.oo, sympy.Or(*dict.fromkeys(zeros))), (value, True)), None
    return value, uv.single_tag(res)


def hockey_stick_rows(p, q, gamma, region: Region) -> sympy.Expr:
    """E_γ(p‖q) = Σ_y (p(y) − γ q(y))₊ as a closed form on the region."""
    g = as_expr(gamma)
    total = sympy.Add(*[positive_part(as_sympy(a) - g * as_sympy(b), region) for a, b in zip(p, q)])
    return prune_piecewise(_simplify(total), region)


def prune_piecewise(expr, region: Region):
    """Drop the branches of a Piecewise whose condition is empty on the region (decided exactly), merge
    equal neighbours, and simplify the pieces."""
    if not isinstance(expr, sympy.Piecewise):
        return expr
    kept = []
    for e, cond in expr.args:
        if cond is not sympy.true and _empty(region, cond):
            continue
        e = normal_form(e) if e.free_symbols and not e.has(sympy.Piecewise) else e
        kept.append((e, cond))
        if cond is sympy.true:
            break
    if not kept:
        return sympy.Integer(0)
    if len(kept) == 1 or all(sympy.cancel(e - kept[0][0]) == 0 for e, _ in kept):
        return kept[0][0]
    if kept[-1][1] is not sympy.true:
        kept[-1] = (kept[-1][0], sympy.true)  # the conditions cover the region: the last one is "otherwise"
    return sympy.Piecewise(*kept)


def _empty(region: Region, cond) -> bool:
    conj = cond.args if isinstance(cond, sympy.And) else (cond,)
    if not all(isinstance(r, (sympy.StrictLessThan, sympy.LessThan, sympy.StrictGreaterThan, sympy.GreaterThan))
               for r in conj):
        return False
    try:
        sub = region.with_conditions(*conj)
    except (ValueError, TypeError):  # not a box bound the region can take (an irrational end: sqrt(2)/2)
        return False
    return _truth(sympy.Integer(-1), sub, False) is Truth.TRUE


@dataclass(frozen=True)
class RegionHypotheses:
    """A region as the hypotheses of the SR number domain (:class:`exactdp.numbers.domain.SR`): signs
    decided by the exact prover on it, (a)₊ and max as closed forms on it (:func:`positive_part`,
    :func:`symbolic_max`), results pruned and put in normal form."""

    region: Region

    def holds(self, expr, strict: bool) -> Truth:
        return _truth(as_expr(expr), self.region, strict)

    def piecewise_positive(self, expr):
        return sympy.Piecewise((expr, _positive_condition(expr, self.region)), (0, True))

    def maximum(self, exprs):
        return symbolic_max(exprs, self.region)

    def max_quotient(self, nums, dens):
        return max_quotient(nums, dens, self.region)

    def result(self, expr):
        return exact_closed_form(prune_piecewise(_simplify(expr), self.region))


def sr_domain(region: Region) -> SR:
    """The symbolic number domain on ``region``; a region whose box is empty (t >= 2 declared with t <= 1)
    is refused: every statement would hold on it vacuously."""
    empty = _empty_box(region)
    if empty is not None:
        v, b = empty
        raise ParameterError(f"region: the parameter region {region} is empty (no value of {v} satisfies "
                             f"{b.as_sympy(v)}); declare a region with at least one point")
    return SR(RegionHypotheses(region))


def scoped_region(values, gamma=None) -> Region:
    """The region of the symbols of ``values`` under the scoped conditions (:func:`assuming`) and the
    symbols' assumptions; a symbol only ``gamma`` carries is taken ≥ 0."""
    syms = set().union(*(as_expr(as_sympy(v)).free_symbols for v in values))
    if gamma is not None:
        syms |= as_expr(as_sympy(gamma)).free_symbols
    region = Region.of(*scoped_conditions(), variables=sorted(syms, key=str))
    return region if gamma is None else gamma_region(region, as_sympy(gamma))


def gamma_region(region: Region, gamma) -> Region:
    g = as_expr(gamma)
    return region.with_conditions(*[s >= 0 for s in g.free_symbols if s not in region.variables])


def exact_closed_form(v):
    """A closed form as returned: the papers' normal form when it has parameters and no Piecewise, then
    :func:`~exactdp.numbers.sr.exact_result` (an fmpq when rational)."""
    v = as_expr(v)
    if not v.has(sympy.Piecewise) and v.free_symbols:
        v = normal_form(v)
    return exact_result(v)


@dataclass(frozen=True)
class SymbolicPrivacyProfile:
    """δ(γ) = η_{E_γ}(K) of a parametric kernel as a closed form in γ (a ``Piecewise``)."""

    expr: Any
    gamma: sympy.Symbol

    def __call__(self, gamma):
        from exactdp.numbers.sr import to_sr

        return exact_closed_form(sympy.piecewise_fold(as_expr(self.expr).subs(self.gamma, to_sr(gamma, "gamma"))))

    def to_sympy(self, gamma: sympy.Symbol | None = None):
        return self.expr if gamma is None else self.expr.subs(self.gamma, gamma)
