r"""Exact real root isolation for univariate rational polynomials (Sturm sequences on ``fmpq_poly``).

Used by :mod:`exactdp.algebra.prover`.  Everything is exact rational arithmetic:

* a polynomial is factored over ℚ (python-flint ``fmpz_poly.factor``) into irreducible factors;
* a linear factor gives a rational root; a factor of degree ≥ 2 has only irrational roots, isolated
  by bisection with Sturm's theorem (the number of distinct real roots in (a, b] is V(a) − V(b),
  V = sign variations of the Sturm sequence);
* a root is kept as a :class:`RealAlgebraic`: its irreducible polynomial and an isolating interval
  (a, b] with rational ends, refinable at will; the sign of any rational polynomial at the root is
  decided exactly (zero iff the irreducible polynomial divides it, else by refining until the
  polynomial has no root in the interval).

No floating point enters; approximations (``approx``) are for display only.
"""

from __future__ import annotations

from typing import Any

import itertools
from dataclasses import dataclass

import sympy
from flint import fmpq, fmpq_poly, fmpz_poly

Bound = fmpq | None  # None is -inf (as a lower end) or +inf (as an upper end)


def to_fmpq_poly(coeffs_high_first: Any) -> fmpq_poly:
    """fmpq_poly from coefficients, highest degree first (sympy ``Poly.all_coeffs`` order)."""
    return fmpq_poly([fmpq(int(sympy.Rational(c).p), int(sympy.Rational(c).q))
                      for c in reversed(list(coeffs_high_first))])


def _primitive_int(p: fmpq_poly) -> fmpz_poly:
    """The primitive integer polynomial with the same roots (positive leading coefficient)."""
    num = p.numer()
    z = fmpz_poly([int(c) for c in num.coeffs()])
    c = z.content()
    if c != 0:
        z = fmpz_poly([int(v) // int(c) for v in z.coeffs()])
    if z.degree() >= 0 and z.coeffs()[-1] < 0:
        z = -z
    return z


def _sign(x: Any) -> int:
    s: int = (x > 0) - (x < 0)
    return s


def sturm_sequence(p: fmpq_poly) -> list[fmpq_poly]:
    seq = [p, p.derivative()]
    while seq[-1].degree() > 0:
        _, r = divmod(seq[-2], seq[-1])
        if r.is_zero():
            break
        seq.append(-r)
    return seq


def _variations(signs: Any) -> int:
    s = [v for v in signs if v != 0]
    return sum(1 for a, b in itertools.pairwise(s) if a != b)


def _signs_at(seq: Any, x: Bound, at_plus_inf: bool) -> list[int]:
    if x is None:
        out = []
        for q in seq:
            lc = q.coeffs()[-1] if q.degree() >= 0 else 0
            d = q.degree()
            out.append(_sign(lc) if at_plus_inf or d % 2 == 0 else -_sign(lc))
        return out
    return [_sign(q(x)) for q in seq]


def count_roots(seq: Any, a: Bound, b: Bound) -> int:
    """Distinct real roots of seq[0] in (a, b] (a None: -inf, b None: +inf); seq[0] squarefree."""
    return _variations(_signs_at(seq, a, False)) - _variations(_signs_at(seq, b, True))


def cauchy_bound(p: fmpq_poly) -> fmpq:
    """Every real root lies in (-B, B)."""
    c = p.coeffs()
    lc = abs(c[-1])
    return 1 + max((abs(v) / lc for v in c[:-1]), default=fmpq(0))


@dataclass
class RealAlgebraic:
    """A real algebraic number: the unique root of ``poly`` (irreducible, or linear) in (lo, hi].

    For a rational root lo == hi == the root.
    """

    poly: fmpz_poly
    lo: fmpq
    hi: fmpq

    @property
    def is_rational(self) -> bool:
        return self.lo == self.hi

    def _seq(self) -> list[fmpq_poly]:
        return sturm_sequence(fmpq_poly(list(self.poly.coeffs())))

    def refine(self, times: int = 1) -> None:
        if self.is_rational:
            return
        seq = self._seq()
        for _ in range(times):
            mid = (self.lo + self.hi) / 2
            if count_roots(seq, self.lo, mid) == 1:
                self.hi = mid
            else:
                self.lo = mid

    def width(self) -> fmpq:
        return self.hi - self.lo

    def compare_rational(self, x: fmpq) -> int:
        """sign(self - x), exactly."""
        if self.is_rational:
            return _sign(self.lo - x)
        while self.lo < x < self.hi or x == self.hi:  # x == hi is impossible for an irrational root
            if x == self.hi:
                return -1
            self.refine()
        return 1 if x <= self.lo else -1

    def sign_of(self, h: fmpq_poly) -> int:
        """sign(h(self)), exactly."""
        if self.is_rational:
            return _sign(h(self.lo))
        if h.is_zero():
            return 0
        f = fmpq_poly(list(self.poly.coeffs()))
        _, r = divmod(h, f)
        if r.is_zero():
            return 0
        # h(root) != 0 because f is irreducible and does not divide h: refine until h has no root in (lo, hi]
        g = h.gcd(h.derivative()) if h.degree() > 0 else fmpq_poly([1])
        hs = divmod(h, g)[0] if g.degree() > 0 else h
        seq = sturm_sequence(hs)
        while hs.degree() > 0 and (count_roots(seq, self.lo, self.hi) > 0 or hs(self.hi) == 0):
            self.refine()
        return _sign(h(self.hi))

    def less_than(self, other: RealAlgebraic) -> bool:
        """self < other for distinct roots (refines both until the intervals separate)."""
        while True:
            if self.hi < other.lo or (self.hi == other.lo and not other.is_rational):
                return True
            if other.hi < self.lo or (other.hi == self.lo and not self.is_rational):
                return False
            if self.is_rational and other.is_rational:
                return self.lo < other.lo
            if self.is_rational:
                return other.compare_rational(self.lo) > 0
            if other.is_rational:
                return self.compare_rational(other.lo) < 0
            self.refine()
            other.refine()

    def as_sympy(self, var: sympy.Symbol | None = None) -> sympy.Expr:
        """The root as an exact sympy number: Rational, radicals for degree 2, else ``CRootOf``."""
        if self.is_rational:
            return sympy.Rational(int(self.lo.p), int(self.lo.q))
        x = var or sympy.Dummy("x")
        expr = sum(int(c) * x**k for k, c in enumerate(self.poly.coeffs()))
        roots = sympy.Poly(expr, x).real_roots()  # exact, increasing; CRootOf or radicals
        for r in roots:
            # sympy returns each real root once; pick the one inside (lo, hi]
            lo, hi = sympy.Rational(int(self.lo.p), int(self.lo.q)), sympy.Rational(int(self.hi.p), int(self.hi.q))
            if bool(sympy.Gt(r, lo)) and bool(sympy.Le(r, hi)):
                return sympy.radsimp(r) if self.poly.degree() == 2 else r
        raise AssertionError("isolating interval lost its root")  # pragma: no cover

    def approx(self, digits: int = 15) -> str:
        """A decimal approximation (display only): refine to width < 10^-digits."""
        if self.is_rational:
            return str(self.lo)
        eps = fmpq(1, 10**digits)
        copy = RealAlgebraic(self.poly, self.lo, self.hi)
        while copy.width() > eps:
            copy.refine(8)
        return str(sympy.Rational(int(copy.lo.p), int(copy.lo.q)).evalf(digits))

    def __str__(self) -> str:
        if self.is_rational:
            return str(self.lo)
        return f"root of {self.poly} in ({self.lo}, {self.hi}] ≈ {self.approx(10)}"


def real_roots(p: fmpq_poly, lo: Bound = None, hi: Bound = None, *, lo_open: bool = True,
               hi_open: bool = True) -> list[RealAlgebraic]:
    """The distinct real roots of p in the interval with ends lo, hi (None = infinite), increasing.

    ``lo_open`` / ``hi_open`` say whether a rational root equal to an end is excluded.

    >>> [r.as_sympy() for r in real_roots(fmpq_poly([-2, 0, 1]) * fmpq_poly([-1, 1]))]
    [-sqrt(2), 1, sqrt(2)]
    """
    if p.is_zero():
        raise ValueError("real_roots: the zero polynomial has every number as a root")
    out: list[RealAlgebraic] = []
    if p.degree() <= 0:
        return out
    _, factors = _primitive_int(p).factor()
    for f, _mult in factors:
        if f.degree() == 1:
            lead, const = f.coeffs()[1], f.coeffs()[0]
            r = fmpq(-int(const), int(lead))
            if (lo is None or r > lo or (r == lo and not lo_open)) and \
                    (hi is None or r < hi or (r == hi and not hi_open)):
                out.append(RealAlgebraic(f, r, r))
            continue
        fq = fmpq_poly(list(f.coeffs()))
        seq = sturm_sequence(fq)
        B = cauchy_bound(fq)
        a = -B if lo is None else max(lo, -B)
        b = B if hi is None else min(hi, B)
        if a >= b:
            continue
        stack = [(a, b)]
        while stack:
            u, v = stack.pop()
            n = count_roots(seq, u, v)
            if n == 0:
                continue
            if n == 1:
                out.append(RealAlgebraic(f, u, v))
                continue
            m = (u + v) / 2
            stack.extend([(u, m), (m, v)])
    # sort (distinct roots: different irreducible factors share no root)
    import functools

    def cmp(r: RealAlgebraic, s: RealAlgebraic) -> int:
        return -1 if r.less_than(s) else 1

    out.sort(key=functools.cmp_to_key(cmp))
    return out


def sample_points(roots: list[RealAlgebraic], lo: Bound, hi: Bound) -> list[fmpq]:
    """One rational point in each non-empty open cell of (lo, hi) cut at the sorted roots (in [lo, hi]).

    Irrational roots' intervals are refined until a rational fits strictly inside each cell.
    """
    pts: list[fmpq] = []
    ends: list[Any] = [("bound", lo)] + [("root", r) for r in roots] + [("bound", hi)]
    for (kl, L), (kr, R) in itertools.pairwise(ends):
        while True:
            a = L if kl == "bound" else (L.lo if L.is_rational else L.hi)
            b = R if kr == "bound" else R.lo
            if a is None or b is None or a < b:
                break
            movable = [z for k, z in ((kl, L), (kr, R)) if k == "root" and not z.is_rational]
            if not movable:
                a = None if False else a
                break
            for z in movable:
                z.refine()
        if a is not None and b is not None and a >= b:
            continue  # empty cell (a bound equal to a rational root)
        if a is None and b is None:
            pts.append(fmpq(0))
        elif a is None:
            pts.append(b - 1)
        elif b is None:
            pts.append(a + 1)
        else:
            pts.append((a + b) / 2)
    return pts
