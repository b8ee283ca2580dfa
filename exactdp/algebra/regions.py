r"""Parameter regions for the exact prover: a box of rational bounds ∩ polynomial sign constraints.

A :class:`Region` is built from sympy inequalities and the symbols' sign assumptions
(``positive=True`` ⇒ x > 0, ``nonnegative=True`` ⇒ x ≥ 0); single-variable linear conditions tighten
the box, everything else becomes a constraint ``g > 0`` / ``g ≥ 0`` with g a polynomial.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

import sympy
from flint import fmpq

from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import qq_to_sympy


def rational_to_qq(v: Any) -> fmpq:
    """An exact sympy rational (or int) as an fmpq."""
    v = sympy.Rational(v)
    return fmpq(int(v.p), int(v.q))


@dataclass(frozen=True)
class Bounds:
    lo: fmpq | None = None
    hi: fmpq | None = None
    lo_open: bool = True
    hi_open: bool = True

    def tighten(self, lo: Any = None, lo_open: Any = True, hi: Any = None, hi_open: Any = True) -> Bounds:
        b = self
        if lo is not None and (b.lo is None or lo > b.lo or (lo == b.lo and lo_open)):
            b = Bounds(lo, b.hi, lo_open, b.hi_open)
        if hi is not None and (b.hi is None or hi < b.hi or (hi == b.hi and hi_open)):
            b = Bounds(b.lo, hi, b.lo_open, hi_open)
        return b

    def contains(self, v: fmpq) -> bool:
        if self.lo is not None and (v < self.lo or (v == self.lo and self.lo_open)):
            return False
        if self.hi is not None and (v > self.hi or (v == self.hi and self.hi_open)):
            return False
        return True

    def as_sympy(self, x: Any) -> sympy.Basic:
        parts = []
        if self.lo is not None:
            parts.append(x > qq_to_sympy(self.lo) if self.lo_open else x >= qq_to_sympy(self.lo))
        if self.hi is not None:
            parts.append(x < qq_to_sympy(self.hi) if self.hi_open else x <= qq_to_sympy(self.hi))
        return sympy.And(*parts)


@dataclass(frozen=True)
class Region:
    r"""A semi-algebraic parameter region: a box (rational bounds per variable) ∩ {g ⋈ 0} constraints.

    ``constraints`` are pairs ``(g, strict)`` meaning g > 0 (strict) or g ≥ 0, g a polynomial
    (sympy expression) in the variables.  Build with :meth:`of` from sympy relations and symbol
    assumptions (``positive=True`` gives x > 0, ``nonnegative=True`` x ≥ 0).
    """

    variables: tuple[Any, ...]
    box: tuple[Any, ...]  # Bounds per variable, same order
    constraints: tuple[Any, ...] = ()

    @classmethod
    def of(cls, *conditions: Any, variables: Any = ()) -> Region:
        syms = set(variables)
        for c in conditions:
            syms |= c.free_symbols
        order = list(variables) + sorted(syms - set(variables), key=str)
        region = cls(tuple(order), tuple(_assumed_bounds(v) for v in order))
        return region.with_conditions(*conditions)

    def with_conditions(self, *conditions: Any) -> Region:
        """This region ∩ ``conditions`` (sympy relations, or And of them).  A pure function of its inputs (the
        regions are frozen), remembered: the certificates of a run state the same regions many times."""
        try:
            key: tuple[Any, ...] | None = (self, conditions)
            hash(key)
        except TypeError:
            key = None
        known = _REGIONS.get(key) if key is not None else None
        if known is None:
            known = self._with_conditions(conditions)
            if key is not None:
                _REGIONS.put(key, known)
        return known

    def _with_conditions(self, conditions: tuple[Any, ...]) -> Region:
        box = dict(zip(self.variables, self.box))
        cons = list(self.constraints)
        variables = list(self.variables)
        for cond in conditions:
            for c in (cond.args if isinstance(cond, sympy.And) else (cond,)):
                if c is sympy.true:
                    continue
                for v in sorted(c.free_symbols - set(variables), key=str):
                    variables.append(v)
                    box[v] = _assumed_bounds(v)
                g, strict = relation_to_positive(c)
                g = sympy.cancel(g)
                num, den = sympy.fraction(g)
                fs = g.free_symbols
                if len(fs) == 1 and sympy.Poly(num, *fs).degree() == 1 and den.is_number:
                    (x,) = fs
                    a, b = sympy.Poly(num, x).all_coeffs()
                    root = rational_to_qq(-b / a)
                    sign_den = 1 if den > 0 else -1
                    if a * sign_den > 0:  # x > root
                        box[x] = box[x].tighten(lo=root, lo_open=strict)
                    else:
                        box[x] = box[x].tighten(hi=root, hi_open=strict)
                elif not fs:
                    if not (g > 0 if strict else g >= 0):
                        box = {v: Bounds(fmpq(1), fmpq(0), True, True) for v in variables}  # empty
                else:
                    cons.append((sympy.expand(num * den), strict))  # same sign as num/den where den != 0
        return Region(tuple(variables), tuple(box[v] for v in variables), tuple(cons))

    def bounds(self, x: Any) -> Bounds:
        if x in self.variables:
            own: Bounds = self.box[self.variables.index(x)]
            return own
        assumed: Bounds = _assumed_bounds(x)  # a parameter the region does not mention: its sign assumptions
        return assumed

    def as_sympy(self) -> sympy.Basic:
        parts = [b.as_sympy(x) for x, b in zip(self.variables, self.box)]
        parts += [(g > 0) if s else (g >= 0) for g, s in self.constraints]
        return sympy.And(*parts)

    def __str__(self) -> str:
        return str(self.as_sympy())


#: regions already built, by (region, conditions): :meth:`Region.with_conditions`
_REGIONS: Memo[Region] = Memo()


def _assumed_bounds(v: Any) -> Bounds:
    """The bounds a symbol's assumptions give: positive → (0, ∞), nonnegative → [0, ∞), negative..."""
    if v.is_positive:
        return Bounds(lo=fmpq(0), lo_open=True)
    if v.is_nonnegative:
        return Bounds(lo=fmpq(0), lo_open=False)
    if v.is_negative:
        return Bounds(hi=fmpq(0), hi_open=True)
    if v.is_nonpositive:
        return Bounds(hi=fmpq(0), hi_open=False)
    return Bounds()


def relation_to_positive(c: Any) -> tuple[sympy.Expr, bool]:
    """``a < b`` → (b − a, strict); only <, ≤, >, ≥ are regions."""
    if isinstance(c, (sympy.StrictLessThan, sympy.LessThan)):
        return c.rhs - c.lhs, isinstance(c, sympy.StrictLessThan)
    if isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        return c.lhs - c.rhs, isinstance(c, sympy.StrictGreaterThan)
    raise ValueError(f"region: only inequalities <, <=, >, >= are supported, got {c}")
