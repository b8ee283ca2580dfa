r"""The ``"parametric-lp"`` certificate: a linear program whose data are polynomials in parameters, solved on
a whole parameter domain D by finitely many regions, each with a primal point and dual multipliers that are
rational functions of the parameters (built by :mod:`exactdp.theory.parametric`).

Data (reader text): the LP  max c·x + offset  s.t.  A_ub x ≤ b_ub,  A_eq x = b_eq,  x ≥ 0  (entries in the
parameters), the domain D (``region``), per region k its conditions R_k (beyond D), x_k(p), y_ub,k(p),
y_eq,k(p) and value_k(p), and a **case-split tree** whose inner nodes split a cell by a condition C into
C and ¬C and whose leaves are regions or empty cells.

Check (each step exact):

1. per region, on D ∩ R_k: the identities A_eq x ≡ b_eq, c·x ≡ b_ub·y_ub + b_eq·y_eq and value ≡ c·x
   (exact cancellation), and the sign conditions x ≥ 0, b_ub − A_ub x ≥ 0, y_ub ≥ 0, A_ubᵀy_ub + A_eqᵀy_eq
   − c ≥ 0 decided TRUE on the region.  Together: for every p ∈ D ∩ R_k, x_k(p) is feasible and
   (y_ub, y_eq)(p) is dual feasible with equal objective, so value_k(p) is the optimum (weak duality).
   A sign condition g ≥ 0 is decided through its factorization g = u·Π f_i^{e_i}: each irreducible
   factor's sign on the region is decided by the prover (:func:`exactdp.algebra.prover.sign_on`), and the
   product's sign follows (denominator factors must have a strict sign); a condition the factor signs do
   not settle goes to the prover whole;
2. **coverage**, twice: (a) walking the tree from D, a split node C gives its children the cells (path, C)
   and (path, ¬C) — complementary, so the leaves cover D; every region leaf's path must equal that region's
   conditions (as a set of polynomial sign conditions), every region occurs once, every empty leaf is
   decided empty by the prover, and an ``open`` leaf (a cell the solver could not certify) is a gap;
   (b) the Boolean decision :func:`exactdp.algebra.boolean.covers` decides Or(R_1, …, R_k) on D (a
   cylindrical decomposition, an exact uncovered point when it fails).  Both must be TRUE.

TRUE means: the stated piecewise value is the LP optimum at every point of D.
"""

from __future__ import annotations

from typing import Any

import itertools
from dataclasses import dataclass

import sympy

from exactdp.errors import UndecidedError
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Truth
from exactdp.algebra.certificates import (
    Certificate,
    CertificateCheck,
    assumptions_of,
    expr_text,
    register_kind,
    relation_text,
)
from sympy.polys.fields import FracElement

from exactdp.algebra.boolean import covers
from exactdp.algebra.prover import decide, sign_on
from exactdp.algebra.regions import Region, rational_to_qq, relation_to_positive

_ZERO = sympy.Integer(0)


#: the (identities, signs) of :func:`optimality_conditions`: each a list of ((what, index), field element)
_Conditions = tuple[list[tuple[tuple[str, int], Any]], list[tuple[tuple[str, int], Any]]]


# -- conditions and their negation ----------------------------------------------------------------------

def condition_text(rel: Any) -> str:
    """A split or region condition as reader text."""
    return relation_text(rel)


def negate(rel: Any) -> Any:
    """¬(g ≥ 0) = g < 0, ¬(g > 0) = g ≤ 0 (and the mirrored forms), without evaluation."""
    g, strict = relation_to_positive(rel)
    return sympy.Le(g, 0, evaluate=False) if strict else sympy.Lt(g, 0, evaluate=False)


def canonical(rel: Any) -> tuple[Any, ...]:
    """(expanded g, strict) with rel ⇔ g > 0 (strict) / g ≥ 0, for comparing conditions as sets."""
    g, strict = relation_to_positive(rel)
    return sympy.expand(g), strict


def optimality_conditions(A_ub: Any, b_ub: Any, A_eq: Any, b_eq: Any, c: Any, x: Any, y_ub: Any, y_eq: Any,
                          field: Any) -> _Conditions:
    """``(identities, signs)`` that make (x, y) an optimal primal/dual pair of the LP at every point where the
    identities hold (≡ 0) and the sign conditions are ≥ 0: x ≥ 0, b_ub − A_ub x ≥ 0, y_ub ≥ 0,
    A_ubᵀy_ub + A_eqᵀy_eq − c ≥ 0; A_eq x − b_eq ≡ 0 and c·x − b·y ≡ 0.  Every entry is an element of
    ``field`` (a :class:`Field`, ℚ(p)).  With polynomial LP data (the extremal LPs) x and y are put over one
    denominator each, so every condition costs polynomial arithmetic and one cancellation."""
    F = field.K.field
    R = F.ring
    data = [*(a for r in A_ub for a in r), *(a for r in A_eq for a in r), *b_ub, *b_eq, *c]
    if not all(a.denom.is_ground for a in data):
        return _optimality_conditions_fractions(A_ub, b_ub, A_eq, b_eq, c, x, y_ub, y_eq, field.zero)

    def poly(a: Any) -> Any:
        return a.numer.quo_ground(a.denom.LC)

    def common(vec: Any) -> tuple[list[Any], Any]:
        den = R.one
        for v in vec:
            den = den.lcm(v.denom)
        return [v.numer * den.exquo(v.denom) for v in vec], den

    def dot(row: Any, nums: Any) -> Any:
        out = R.zero
        for a, v in zip(row, nums):
            if a and v:
                out += poly(a) * v
        return out

    xn, xd = common(x)
    yn, yd = common(tuple(y_ub) + tuple(y_eq))
    yn_ub, yn_eq = yn[:len(y_ub)], yn[len(y_ub):]
    signs = [(("x", j), xj) for j, xj in enumerate(x)]
    signs += [(("slack", i), F.new(poly(b) * xd - dot(r, xn), xd)) for i, (r, b) in enumerate(zip(A_ub, b_ub))]
    signs += [(("y_ub", i), y) for i, y in enumerate(y_ub)]
    for j in range(len(c)):
        col = dot([r[j] for r in A_ub], yn_ub) + dot([r[j] for r in A_eq], yn_eq)
        signs.append((("reduced", j), F.new(col - poly(c[j]) * yd, yd)))
    idents = [(("eq", i), F.new(dot(r, xn) - poly(b) * xd, xd)) for i, (r, b) in enumerate(zip(A_eq, b_eq))]
    gap = dot(c, xn) * yd - (dot(b_ub, yn_ub) + dot(b_eq, yn_eq)) * xd
    idents.append((("duality gap", 0), F.new(gap, xd * yd)))
    return idents, signs


def _optimality_conditions_fractions(A_ub: Any, b_ub: Any, A_eq: Any, b_eq: Any, c: Any, x: Any, y_ub: Any,
                                     y_eq: Any, zero: Any) -> _Conditions:
    """:func:`optimality_conditions` for LP data with non-constant denominators, in field arithmetic."""
    def dot(u: Any, v: Any) -> Any:
        return sum((a * b for a, b in zip(u, v) if a and b), zero)

    signs = [(("x", j), xj) for j, xj in enumerate(x)]
    signs += [(("slack", i), b - dot(r, x)) for i, (r, b) in enumerate(zip(A_ub, b_ub))]
    signs += [(("y_ub", i), y) for i, y in enumerate(y_ub)]
    for j in range(len(c)):
        col = dot([r[j] for r in A_ub], y_ub) + dot([r[j] for r in A_eq], y_eq)
        signs.append((("reduced", j), col - c[j]))
    idents = [(("eq", i), dot(r, x) - b) for i, (r, b) in enumerate(zip(A_eq, b_eq))]
    idents.append((("duality gap", 0), dot(c, x) - dot(b_ub, y_ub) - dot(b_eq, y_eq)))
    return idents, signs


class Field:
    """ℚ(p): sympy expressions converted once (cached) into the fraction field of the parameters, whose
    arithmetic, cancellation and factorization are far faster than sympy expressions'."""

    def __init__(self, variables: Any) -> None:
        self.variables = tuple(variables)
        self.K = sympy.QQ.frac_field(*self.variables)
        self.zero = self.K.zero
        self._cache: dict[Any, Any] = {}

    def __call__(self, e: Any) -> Any:
        if isinstance(e, FracElement):
            return e
        try:
            return self._cache[e]
        except KeyError:
            v = self._cache[e] = self.K.from_sympy(as_expr(e))
            return v

    def point(self, point: dict[Any, Any]) -> tuple[Any, ...]:
        """A sympy point {symbol: rational} as ground-domain values in the field's variable order."""
        dom = self.K.domain
        return tuple(dom.from_sympy(sympy.Rational(point[v])) for v in self.variables)


# -- signs of factors on a region -------------------------------------------------------------------------

#: (factor, region) -> its decided sign: the prover's answers are facts, so the solver's decisions serve the
#: certificate's re-check of the same region (a widened or altered region is another key, decided afresh)
_SIGN_MEMO: dict[Any, Any] = {}
_SIGN_MEMO_SIZE = 20000
#: factorizations of the field's numerators and denominators, by polynomial: ``settle`` meets the same few
#: hundred polynomials thousands of times (sup η_TV, N = 2..8: 10 332 factorizations of 242 polynomials)
_FACTOR_MEMO: dict[Any, Any] = {}


def _factor_list(part: Any) -> Any:
    """``part.factor_list()`` (a polynomial of the field's ring), memoized; the result is only read."""
    key = (part.ring, part)  # equal only within one ring
    out = _FACTOR_MEMO.get(key)
    if out is None:
        if len(_FACTOR_MEMO) >= _SIGN_MEMO_SIZE:
            _FACTOR_MEMO.clear()
        out = _FACTOR_MEMO[key] = part.factor_list()
    return out


class SignTable:
    """Signs of irreducible polynomial factors on a region, decided by the prover once each (cached)."""

    def __init__(self, region: Region, field: Field) -> None:
        self.region = region
        self.field = field
        self._signs: dict[Any, Any] = {}
        self._empty: Truth | None = None
        self._point: tuple[Any, ...] | None = None
        self._weak: dict[Any, Any] = {}  # weak signs inherited from a larger region

    def empty(self) -> Truth:
        """TRUE iff the region has no point (decided exactly; UNKNOWN if the prover cannot tell).  A point
        found in a non-empty region orders the later sign questions."""
        if self._empty is None:
            d = decide(sympy.false, self.region)
            self._empty = d.truth
            ce = d.counterexample
            if ce and all(ce.get(v, sympy.Integer(0)).is_Rational for v in self.field.variables):
                self._point = self.field.point({v: ce.get(v, sympy.Integer(0)) for v in self.field.variables})
        return self._empty

    def rational_point(self) -> dict[Any, Any] | None:
        """A rational point of the (non-empty) region found by the prover, as {symbol: fmpq}, or None."""
        if self.empty() is not Truth.FALSE or self._point is None:
            return None
        return {v: rational_to_qq(self.field.K.domain.to_sympy(x)) for v, x in zip(self.field.variables, self._point)}

    def with_condition(self, rel: Any) -> SignTable:
        """The table of the subregion with ``rel`` added: every strict sign decided here still holds there."""
        sub = SignTable(self.region.with_conditions(rel), self.field)
        sub._signs = {k: s for k, s in self._signs.items() if s in ("+", "-")}  # weak ones may become strict
        sub._weak = {k: s for k, s in self._signs.items() if s in (">=", "<=")}
        for k, s in sub._signs.items():  # a strict sign on a region holds on every subregion
            _SIGN_MEMO.setdefault((k.as_expr(), sub.region), s)
        return sub

    def factor_sign(self, f: Any, hint: int = 0) -> str | None:
        """'+', '-', '>=', '<=' for f > 0, f < 0, f ≥ 0, f ≤ 0 on the region (f a polynomial of the field's
        ring); None if it varies or is undecided.  ``hint`` (the sign at a region point) orders the questions."""
        if f in self._signs:
            known: str | None = self._signs[f]
            return known
        key = f.as_expr()
        memo = (key, self.region)
        if memo in _SIGN_MEMO:
            known = self._signs[f] = _SIGN_MEMO[memo]
            return known
        if not hint and self._point is not None:
            v = f(*self._point) if len(self._point) > 1 else f(self._point[0])
            hint = 1 if v > 0 else (-1 if v < 0 else 0)
        out = self._box_sign(f) or self._weak.get(f) or self._orthant_sign(f)
        if out in ("+", "-"):
            _SIGN_MEMO[memo] = self._signs[f] = out
            return out
        weak = out  # a weak sign (box or a larger region) may still be strict here: only that is asked
        order: tuple[str, ...] = {1: ("+", ">="), -1: ("-", "<=")}.get(hint, ("+", "-", ">=", "<="))
        if weak is not None:
            order = ("+",) if weak == ">=" else ("-",)
        out = None
        for s in order:
            expr = key if s in ("+", ">=") else -key
            try:
                if sign_on(expr, self.region, s in ("+", "-")) is Truth.TRUE:
                    out = s
                    break
            except UndecidedError:
                continue
        out = out or weak
        if len(_SIGN_MEMO) >= _SIGN_MEMO_SIZE:
            _SIGN_MEMO.clear()
        _SIGN_MEMO[memo] = self._signs[f] = out
        return out

    def _box_sign(self, f: Any) -> str | None:
        """The sign of a factor a·v + b in one variable read off the region's box bounds of v (exact), or
        None (then the prover decides)."""
        monoms = f.monoms()
        used = [i for i in range(len(self.field.variables)) if any(m[i] for m in monoms)]
        if len(used) != 1 or max(sum(m) for m in monoms) != 1:
            return None
        i = used[0]
        v = self.field.variables[i]
        coeffs = dict(zip(monoms, f.coeffs()))
        unit = tuple(1 if k == i else 0 for k in range(len(monoms[0])))
        a = coeffs[unit]  # f is linear in v (used == [i])
        b = coeffs.get(tuple(0 for _ in unit), 0)
        dom = self.field.K.domain
        root = rational_to_qq(dom.to_sympy(-dom.convert(b) / dom.convert(a)))
        bounds = self.region.bounds(v)
        # a·(v − root): sign of (v − root) on [lo, hi]
        s = None
        if bounds.lo is not None and (bounds.lo > root or (bounds.lo == root and bounds.lo_open)):
            s = "+"
        elif bounds.lo is not None and bounds.lo == root:
            s = ">="
        elif bounds.hi is not None and (bounds.hi < root or (bounds.hi == root and bounds.hi_open)):
            s = "-"
        elif bounds.hi is not None and bounds.hi == root:
            s = "<="
        if s is None or a > 0:
            return s
        return {"+": "-", "-": "+", ">=": "<=", "<=": ">="}[s]

    def _orthant_sign(self, f: Any) -> str | None:
        """'+' / '-' when f has that strict sign on the region's box by the orthant rule: writing each variable
        v = lo + w or v = hi − w (w ≥ 0, a superset of the box) makes every coefficient of f ≥ 0 (≤ 0) with a
        non-zero constant term; None otherwise (then the prover decides)."""
        variables = self.field.variables
        options = []
        for v in variables:
            b = self.region.bounds(v)
            opts = [v + qq_to_sympy(b.lo)] if b.lo is not None else []
            if b.hi is not None:
                opts.append(qq_to_sympy(b.hi) - v)
            if not opts:
                return None
            options.append(opts)
        expr = f.as_expr()
        for choice in itertools.product(*options):
            shifted = sympy.Poly(expr.xreplace(dict(zip(variables, choice))), *variables)
            coeffs = shifted.coeffs()
            const = shifted.coeff_monomial(1)
            if const > 0 and all(a >= 0 for a in coeffs):
                return "+"
            if const < 0 and all(a <= 0 for a in coeffs):
                return "-"
        return None

    def settle(self, expr: Any, strict: bool = False,
               point: tuple[Any, ...] | None = None) -> tuple[Truth | None, list[tuple[Any, bool]]]:
        """``(Truth or None, candidates)`` of expr ≥ 0 (> 0 if strict), expr in the field, from its factors'
        signs.  TRUE / FALSE when the factor signs settle it; ``None`` with the factors to split on
        otherwise: ``(f, False)`` for an odd-power numerator factor whose sign varies, ``(f, True)`` for a
        denominator factor not known to be non-zero (the split must then be strict)."""
        e = self.field(expr)
        if e == 0:
            return (Truth.FALSE if strict else Truth.TRUE), []
        sign, weak, candidates, undecided = 1, False, [], False
        for part, is_den in ((e.numer, False), (e.denom, True)):
            coeff, facs = _factor_list(part)
            sign *= 1 if coeff > 0 else -1
            for f, m in facs:
                if m % 2 == 0 and not is_den:
                    weak = True  # an even power is >= 0 whatever the sign of f
                    continue
                hint = 0
                if point is not None:
                    v = f(*point) if len(point) > 1 else f(point[0])
                    hint = 1 if v > 0 else (-1 if v < 0 else 0)
                s = self.factor_sign(f, hint)
                if is_den and s not in ("+", "-"):
                    candidates.append((f, True))
                    continue
                if s is None:
                    candidates.append((f, False))
                    continue
                if m % 2 == 0:
                    continue  # a denominator factor of even power and strict sign: positive
                sign *= 1 if s in ("+", ">=") else -1
                weak = weak or s in (">=", "<=")
        if candidates or undecided:
            return None, candidates
        if sign > 0:
            return (Truth.TRUE if not (strict and weak) else None), []
        # the product is ≤ 0 (< 0 when no factor may vanish): false on a non-empty region unless it is 0
        return (Truth.FALSE if not weak else None), []

    def splits_for(self, conditions: Any, point: dict[Any, Any]) -> list[Any] | None:
        """Split relations (σf ≥ 0, or σf > 0 for a denominator factor; σ the sign of f at ``point``) after
        which every condition (expr, strict) settles TRUE on the region; ``None`` if one cannot be settled
        (or is false) this way."""
        table: SignTable = self
        splits: list[Any] = []
        pt = self.field.point(point)
        for _ in range(64):
            pending, rest = [], []
            for expr, strict in conditions:
                truth, candidates = table.settle(expr, strict, pt)
                if truth is Truth.TRUE:
                    continue
                if truth is Truth.FALSE or not candidates:
                    return None
                pending.extend(candidates)
                rest.append((expr, strict))
            if not pending:
                return splits
            f, strict_split = min(pending, key=lambda g: (max(sum(m) for m in g[0].monoms()), len(g[0].terms()),
                                                          str(g[0]), g[1]))
            v = f(*pt) if len(pt) > 1 else f(pt[0])
            if v == 0:
                return None
            rel = (sympy.Gt if strict_split else sympy.Ge)(f.as_expr() if v > 0 else -f.as_expr(), 0, evaluate=False)
            splits.append(rel)
            table = table.with_condition(rel)
            conditions = rest
        return None


# -- the certificate --------------------------------------------------------------------------------------

@register_kind
@dataclass(frozen=True, kw_only=True)
class ParametricLPCertificate(Certificate):
    """A parametric LP solved on its domain region by region (module docstring)."""

    kind = "parametric-lp"
    c: tuple[str, ...]
    A_ub: tuple[tuple[str, ...], ...] = ()
    b_ub: tuple[str, ...] = ()
    A_eq: tuple[tuple[str, ...], ...] = ()
    b_eq: tuple[str, ...] = ()
    offset: str = "0"
    region_conditions_: tuple[tuple[str, ...], ...] = ()
    region_x: tuple[tuple[str, ...], ...] = ()
    region_y_ub: tuple[tuple[str, ...], ...] = ()
    region_y_eq: tuple[tuple[str, ...], ...] = ()
    region_value: tuple[str, ...] = ()
    tree: tuple[Any, ...] = ()

    @classmethod
    def build(cls, problem: Any, regions: Any, tree: Any, *, name: str = "parametric LP",
              scope: str = "") -> ParametricLPCertificate:
        """From a :class:`exactdp.theory.parametric.ParametricLP`, its lifted regions and the split tree."""
        def row(v: Any) -> tuple[str, ...]:
            return tuple(expr_text(a) for a in v)

        params = tuple(problem.parameters)

        def tr(node: Any) -> tuple[Any, ...]:
            if node[0] == "split":
                return ("split", node[1], tr(node[2]), tr(node[3]))
            if node[0] == "region":
                return ("region", str(node[1]))
            if node[0] == "open":
                return ("open",) + tuple(node[1])
            return ("empty",)

        return cls(name=name, parameters=tuple(str(p) for p in params),
                   region=tuple(relation_text(r) for r in problem.domain),
                   scope=scope or "the domain " + ", ".join(relation_text(r) for r in problem.domain),
                   assumptions=assumptions_of(params),
                   c=row(problem.c), A_ub=tuple(row(r) for r in problem.A_ub), b_ub=row(problem.b_ub),
                   A_eq=tuple(row(r) for r in problem.A_eq), b_eq=row(problem.b_eq), offset=expr_text(problem.offset),
                   region_conditions_=tuple(tuple(relation_text(c) for c in r.conditions) for r in regions),
                   region_x=tuple(row(r.x) for r in regions), region_y_ub=tuple(row(r.y_ub) for r in regions),
                   region_y_eq=tuple(row(r.y_eq) for r in regions),
                   region_value=tuple(expr_text(r.value) for r in regions), tree=tr(tree))

    def value_piecewise(self) -> Any:
        """The certified optimum (+ offset) as a sympy ``Piecewise`` over the regions."""
        sy = self.symbols()
        off = self.read(self.offset, sy, "offset")
        pieces = []
        for k, (conds, v) in enumerate(zip(self.region_conditions_, self.region_value)):
            rels = [self.read(ci, sy, f"region {k} condition", relations=True) for ci in conds]
            pieces.append((self.read(v, sy, f"region {k} value") + off, sympy.And(*rels)))
        if len(pieces) == 1:
            return pieces[0][0]
        return sympy.Piecewise(*pieces[:-1], (pieces[-1][0], True))

    def _check(self) -> CertificateCheck:
        sy = self.symbols()
        variables = [sy[p] for p in self.parameters]
        domain = self.region_conditions(sy)
        F = Field(variables)

        def rd(v: Any, what: str) -> tuple[Any, ...]:
            return tuple(F(self.read(a, sy, what)) for a in v)

        c = rd(self.c, "c")
        A_ub = tuple(rd(r, "A_ub") for r in self.A_ub)
        b_ub, A_eq, b_eq = rd(self.b_ub, "b_ub"), tuple(rd(r, "A_eq") for r in self.A_eq), rd(self.b_eq, "b_eq")
        n = len(c)
        bad: list[str] = []
        if any(len(r) != n for r in A_ub + A_eq) or len(A_ub) != len(b_ub) or len(A_eq) != len(b_eq):
            return CertificateCheck(Truth.FALSE, (), ("inconsistent LP dimensions",))
        k_regions = len(self.region_value)
        if not (len(self.region_conditions_) == len(self.region_x) == len(self.region_y_ub) ==
                len(self.region_y_eq) == k_regions):
            return CertificateCheck(Truth.FALSE, (), ("inconsistent number of regions",))
        steps: list[str] = []
        truth = Truth.TRUE
        region_sets = []
        for k in range(k_regions):
            conds = [self.read(ci, sy, f"region {k} condition", relations=True) for ci in self.region_conditions_[k]]
            region_sets.append({canonical(r) for r in conds})
            x = rd(self.region_x[k], f"region {k} x")
            y_ub, y_eq = rd(self.region_y_ub[k], f"region {k} y_ub"), rd(self.region_y_eq[k], f"region {k} y_eq")
            if len(x) != n or len(y_ub) != len(A_ub) or len(y_eq) != len(A_eq):
                bad.append(f"region {k}: wrong number of primal or dual entries")
                truth = Truth.FALSE
                continue
            value = F(self.read(self.region_value[k], sy, f"region {k} value"))
            idents, signs = optimality_conditions(A_ub, b_ub, A_eq, b_eq, c, x, y_ub, y_eq, F)
            idents.append((("value", 0), value - sum((a * b for a, b in zip(c, x)), F.zero)))
            for (what, i), e in idents:
                if e != 0:
                    bad.append(f"region {k}: identity {what}[{i}] fails: {F.K.to_sympy(e)} != 0")
                    truth = Truth.FALSE
            table = SignTable(Region.of(*domain, *conds, variables=variables), F)
            if table.empty() is Truth.TRUE:
                steps.append(f"region {k}: empty (vacuous)")
                continue
            undecided = 0
            for (what, i), e in signs:
                t_, _ = table.settle(e)
                if t_ is None:
                    try:
                        t_ = sign_on(F.K.to_sympy(e), table.region, False)
                    except UndecidedError:
                        t_ = Truth.UNKNOWN
                if t_ is not Truth.TRUE:
                    if t_ is Truth.FALSE:
                        bad.append(f"region {k}: {what}[{i}] = {F.K.to_sympy(e)} >= 0 is false on the region")
                    else:
                        undecided += 1
                        bad.append(f"region {k}: {what}[{i}] = {F.K.to_sympy(e)} >= 0 undecided on the region")
                    truth = truth & t_
            steps.append(f"region {k} ({' and '.join(self.region_conditions_[k]) or 'the whole domain'}): "
                         f"value {self.region_value[k]}; {len(signs)} sign conditions decided through "
                         f"{len(table._signs)} factor signs, {len(idents)} identities"
                         + (f", {undecided} undecided" if undecided else ""))
        cov_truth, cov_steps, cov_bad = self._coverage(sy, variables, domain, region_sets)
        steps.extend(cov_steps)
        bad.extend(cov_bad)
        truth = truth & cov_truth
        if bad and truth is Truth.TRUE:  # pragma: no cover - every failure lowers the truth
            truth = Truth.FALSE
        return CertificateCheck(truth, tuple(steps), tuple(bad))

    def _coverage(self, sy: Any, variables: Any, domain: Any,
                  region_sets: Any) -> tuple[Truth, list[str], list[str]]:
        """Walk the split tree: complementary children, region leaves equal to their paths, empty leaves."""
        bad: list[str] = []
        seen: list[int] = []
        truth = Truth.TRUE
        counts = {"split": 0, "empty": 0}
        field = Field(variables)

        def walk(node: Any, path: Any) -> None:
            nonlocal truth
            if not isinstance(node, tuple) or not node:
                bad.append("coverage: malformed tree node")
                truth = Truth.FALSE
                return
            tag = node[0]
            if tag == "split" and len(node) == 4:
                counts["split"] += 1
                rel = self.read(node[1], sy, "split condition", relations=True)
                walk(node[2], path + [rel])
                walk(node[3], path + [negate(rel)])
            elif tag == "region" and len(node) == 2:
                k = int(node[1]) if str(node[1]).isdigit() else -1
                if not 0 <= k < len(region_sets):
                    bad.append(f"coverage: unknown region {node[1]!r}")
                    truth = Truth.FALSE
                    return
                seen.append(k)
                if {canonical(r) for r in path} != region_sets[k]:
                    bad.append(f"coverage: region {k}'s conditions differ from its cell in the tree")
                    truth = Truth.FALSE
            elif tag == "empty":
                counts["empty"] += 1
                e = SignTable(Region.of(*domain, *path, variables=variables), field).empty()
                if e is not Truth.TRUE:
                    bad.append(f"coverage: the cell {' and '.join(map(str, path))} is not decided empty")
                    truth = truth & (Truth.FALSE if e is Truth.FALSE else Truth.UNKNOWN)
            elif tag == "open":
                bad.append(f"coverage gap: the cell {' and '.join(node[1:]) or 'the whole domain'} has no region")
                truth = truth & Truth.UNKNOWN
            else:
                bad.append(f"coverage: unknown tree node {tag!r}")
                truth = Truth.FALSE

        walk(self.tree, [])
        missing = sorted(set(range(len(region_sets))) - set(seen))
        if missing or len(seen) != len(set(seen)):
            bad.append(f"coverage: regions {missing} are not leaves of the tree, or a region occurs twice")
            truth = Truth.FALSE
        steps = [f"coverage: a tree of {counts['split']} complementary splits (C | not C) with "
                 f"{len(seen)} region leaves and {counts['empty']} cells decided empty covers the domain "
                 f"{' and '.join(self.region)}"]
        # the same coverage decided a second way: the Boolean decision of Or(regions) on the domain
        d = covers([sympy.And(*[self.read(ci, sy, "region condition", relations=True) for ci in conds])
                    for conds in self.region_conditions_], Region.of(*domain, variables=variables))
        if d.truth is Truth.TRUE:
            steps.append(f"coverage decided again by the Boolean decision: Or of the {len(region_sets)} regions holds "
                         "on the whole domain")
        else:
            bad.append(f"coverage: the Boolean decision of Or(regions) on the domain is {d.truth}"
                       + (f"; uncovered point {d.counterexample}" if d.counterexample else f" ({d.reason})"))
            truth = truth & d.truth
        return truth, steps, bad


check_parametric_lp = ParametricLPCertificate.check  # the one check, through the kind registry's cache

__all__ = ["Field", "ParametricLPCertificate", "SignTable", "canonical", "check_parametric_lp", "condition_text",
           "negate", "optimality_conditions"]
