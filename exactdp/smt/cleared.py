r"""The second encoding of an obligation: every relation written with its denominators cleared.

The first encoding (:class:`exactdp.smt.smtlib.Encoder`) keeps the certificate's divisions; each solver then
replaces every quotient ``a / b`` by a fresh unknown ``q`` with ``q·b = a``, and every fresh unknown is one more
variable of the cylindrical decomposition (z3's nlsat, cvc5's coverings) — the reason multi-parameter rational
identities time out.  This encoder writes each side of a relation as one fraction ``n / d`` with ``d`` a product
of the divisors met on the way (built syntactically, never cancelled), and the relation as a polynomial one:

* ``A = B``  becomes ``n_A·d_B − n_B·d_A = 0``;
* ``A ρ B`` (ρ among <, ≤, >, ≥) becomes ``(n_A·d_B − n_B·d_A)·Π f ρ 0`` with Π f the product of the divisor
  factors of ``d_A·d_B`` that occur an odd number of times (``A − B = num / D`` and ``num / D ρ 0`` iff
  ``num·D ρ 0`` because ``D² > 0``, and a factor of even multiplicity in ``D`` is a positive square);
* every divisor factor ``f`` gets the definedness condition ``f ≠ 0`` (a divisor ``b = n_b / d_b`` contributes
  ``n_b``, its own divisors ``d_b`` being recorded when ``b`` was written) — exactly the condition that every
  division of the original term is defined, so the problem is equivalent to the first encoding's;
* a root ``b^{p/q}`` with ``b = n_b / d_b`` is the fresh ``r ≥ 0`` with ``r^q·d_b = n_b`` (and ``n_b·d_b ≥ 0``,
  ``> 0`` for ``p < 0``); ``r^{-k}`` puts ``r`` into the denominator.

Terms inside ``Min``, ``Max``, ``Abs``, ``Piecewise`` and function applications are written as in the first
encoding (they are atoms of the fraction).  Only the field laws are used (no factoring, no cancellation), so
the encoding is as trustworthy as the first one; the solvers then see polynomials, which both normalise
themselves — an identity that holds as rational functions becomes ``0 ≠ 0``.
"""

from __future__ import annotations

from collections import Counter

import sympy

from exactdp.smt.smtlib import MAX_POWER, Encoder, Unsupported

#: the largest polynomial form written (characters of one relation); a larger one is not attempted
MAX_CHARS = 200_000

def _product(factors) -> str:
    factors = list(factors)
    if not factors:
        return "1.0"
    return factors[0] if len(factors) == 1 else "(* " + " ".join(factors) + ")"


def _spread(den: Counter) -> list[str]:
    return [f for f, k in sorted(den.items()) for _ in range(k)]


class ClearingEncoder(Encoder):
    """An :class:`~exactdp.smt.smtlib.Encoder` whose relations are polynomial (module docstring)."""

    def fraction(self, e) -> tuple[str, Counter]:
        """``e`` as (numerator term, multiset of divisor factor terms), every factor recorded as non-zero."""
        if isinstance(e, sympy.Subs):
            return self.fraction(e.doit())
        if isinstance(e, sympy.Limit):
            return self.fraction(self.limit_value(e))
        if isinstance(e, sympy.Add):
            parts = [self.fraction(a) for a in e.args]
            den: Counter = Counter()
            for _, d in parts:
                den |= d  # the least common multiple of the factor multisets
            nums = [_product([n] + _spread(den - d)) for n, d in parts]
            return "(+ " + " ".join(nums) + ")", den
        if isinstance(e, sympy.Mul):
            nums, den = [], Counter()
            for a in e.args:
                n, d = self.fraction(a)
                nums.append(n)
                den += d
            return _product(nums), den
        if isinstance(e, sympy.Pow) and e.exp.is_Integer:
            k = int(e.exp)
            if abs(k) > MAX_POWER:
                raise Unsupported(f"the power {k} exceeds {MAX_POWER}")
            n, d = self.fraction(e.base)
            if k >= 0:
                return _product([n] * k), Counter({f: m * k for f, m in d.items()})
            self._need(f"(not (= {n} 0.0))")
            return _product(_spread(d) * -k), Counter({n: -k})
        if isinstance(e, sympy.Pow) and e.exp.is_Rational:
            return self._root(e.base, int(e.exp.p), int(e.exp.q))
        return self.term(e), Counter()

    def _root(self, base, p: int, q: int) -> tuple[str, Counter]:
        if abs(p) > MAX_POWER or q > MAX_POWER:
            raise Unsupported(f"the power {p}/{q} exceeds {MAX_POWER}")
        n, d = self.fraction(base)
        dd = _product(_spread(d))
        self._need(f"({'>' if p < 0 else '>='} {f'(* {n} {dd})' if d else n} 0.0)")  # the sign of n / d
        key = (n, dd, q) if d else (n, q)  # without a divisor: the key of the first encoding's roots
        if key not in self._roots:
            r = self._fresh("root")
            self.definitions.append(f"(>= {r} 0.0)")  # r is the root where n / d >= 0, and free elsewhere
            where = f"(and (not (= {dd} 0.0)) (>= (* {n} {dd}) 0.0))" if d else f"(>= {n} 0.0)"
            self.definitions.append(f"(=> {where} (= {_product([r] * q + ([dd] if d else []))} {n}))")
            self._roots[key] = r
        r = self._roots[key]
        return (_product([r] * p), Counter()) if p > 0 else ("1.0", Counter({r: -p}))

    def _cleared(self, lhs, rhs) -> tuple[str, Counter]:
        (na, da), (nb, db) = self.fraction(lhs), self.fraction(rhs)
        den = da | db
        diff = f"(- {_product([na] + _spread(den - da))} {_product([nb] + _spread(den - db))})"
        if len(diff) > MAX_CHARS:
            raise Unsupported(f"the polynomial form has more than {MAX_CHARS} characters")
        return diff, den

    def equal(self, lhs, rhs) -> str:
        return f"(= {self._cleared(lhs, rhs)[0]} 0.0)"

    def relation(self, op: str, lhs, rhs) -> str:
        if op == "=":
            return self.equal(lhs, rhs)
        diff, den = self._cleared(lhs, rhs)
        odd = [f for f, k in sorted(den.items()) if k % 2]
        return f"({op} {_product([diff] + odd)} 0.0)"
