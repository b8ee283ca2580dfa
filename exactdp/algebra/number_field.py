r"""Exact arithmetic in a real number field ℚ(α) and real roots of polynomials over it (fibres over α).

α is a :class:`RealAlgebraic` with irreducible minimal polynomial m; ℚ(α) = ℚ[a]/(m), elements are
``fmpq_poly`` in a reduced mod m, and the sign of an element e is sign(e(α)), decided exactly by
:meth:`RealAlgebraic.sign_of` (zero iff m divides e).  Polynomials over ℚ(α) in one variable x are lists
of elements (lowest degree first).  This gives the lifting step of the cylindrical decision over an
algebraic sample point (:mod:`exactdp.algebra.cylindrical`):

* **real roots of f(α, x)**: every root is a root of the norm N(x) = Res_a(m(a), f(a, x)) ∈ ℚ[x] (non-zero
  when f(α, x) ≢ 0); the real roots β of N are isolated over ℚ, and β is kept iff it is a root of
  g = gcd_{ℚ(α)}(f(α, x), h(x)) (h the minimal polynomial of β), i.e. iff the Sturm sequence of g over ℚ(α)
  counts one root in β's isolating interval;
* **sign of q(α, β)**: zero iff gcd_{ℚ(α)}(q(α, x), h(x)) has a root in β's interval; otherwise the interval
  is refined until the square-free part of q(α, x) has no root in it, and the sign is q(α, ·)'s sign at
  the interval's rational end.

* **two algebraic coordinates** (α, β): :func:`primitive_element` gives θ = β + kα with ℚ(α, β) = ℚ(θ) and
  α, β as polynomials in θ, so a fibre over (α, β) is a fibre over θ.

Every step is exact rational arithmetic (Sturm's theorem over an ordered field needs only the signs of
its elements, which are decided exactly).
"""

from __future__ import annotations

from typing import Any

import itertools

import sympy
from flint import fmpq, fmpq_poly

from exactdp.algebra.algebraic import RealAlgebraic, real_roots


class NumberField:
    """ℚ(α) for a real algebraic α (rational α gives ℚ itself, m linear)."""

    def __init__(self, alpha: RealAlgebraic) -> None:
        self.alpha = alpha
        self.m = fmpq_poly([fmpq(int(v)) for v in alpha.poly.coeffs()])

    def reduce(self, e: fmpq_poly) -> fmpq_poly:
        return e % self.m if e.degree() >= self.m.degree() else e

    def sign(self, e: fmpq_poly) -> int:
        """sign(e(α)): e reduced mod m is zero iff e(α) = 0 (m is α's minimal polynomial); otherwise α's
        isolating interval is refined until e's interval enclosure (Horner in exact rational intervals)
        excludes 0."""
        e = self.reduce(e)
        if e.is_zero():
            return 0
        if e.degree() == 0 or self.alpha.is_rational:
            return _sgn(e(self.alpha.lo) if self.alpha.is_rational else e.coeffs()[0])
        while True:
            lo, hi = _enclose(e, self.alpha.lo, self.alpha.hi)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            self.alpha.refine(4)

    def inverse(self, e: fmpq_poly) -> fmpq_poly:
        g, s, _ = self.reduce(e).xgcd(self.m)
        if g.degree() != 0:  # pragma: no cover - m is irreducible and e is non-zero mod m
            raise ZeroDivisionError("not invertible in Q(alpha)")
        return self.reduce(s / g.coeffs()[0])

    # -- polynomials over Q(alpha): lists of elements, lowest degree first ---------------------------------

    def trim(self, f: list[Any]) -> list[Any]:
        f = [self.reduce(c) for c in f]
        while f and f[-1].is_zero():
            f.pop()
        return f

    def poly(self, expr: Any, a: Any, x: Any) -> list[Any]:
        """f(α, x) for a sympy polynomial f in a (the α variable) and x."""
        P = sympy.Poly(expr, x)
        coeffs = list(reversed(P.all_coeffs()))
        return self.trim([_fmpq_poly(sympy.expand(c), a) for c in coeffs])

    def derivative(self, f: list[Any]) -> list[Any]:
        return self.trim([c * k for k, c in enumerate(f)][1:])

    def divmod(self, f: list[Any], g: list[Any]) -> tuple[list[Any], list[Any]]:
        f, g = self.trim(list(f)), self.trim(list(g))
        inv = self.inverse(g[-1])
        q = [fmpq_poly([0])] * max(len(f) - len(g) + 1, 0)
        while len(f) >= len(g) and f:
            k = len(f) - len(g)
            lead = self.reduce(f[-1] * inv)
            q[k] = lead
            f = self.trim([c - (lead * g[i - k] if 0 <= i - k < len(g) else 0) for i, c in enumerate(f)])
        return q, f

    def gcd(self, f: list[Any], g: list[Any]) -> list[Any]:
        f, g = self.trim(list(f)), self.trim(list(g))
        while g:
            f, g = g, self.divmod(f, g)[1]
        return f

    def evaluate(self, f: list[Any], r: fmpq) -> fmpq_poly:
        acc = fmpq_poly([0])
        for c in reversed(f):
            acc = acc * r + c
        return self.reduce(acc)

    def sturm(self, f: list[Any]) -> list[Any]:
        seq = [f, self.derivative(f)]
        while len(seq[-1]) > 1:
            r = self.divmod(seq[-2], seq[-1])[1]
            if not r:
                break
            seq.append([-c for c in r])
        return seq

    def count_roots(self, seq: list[Any], lo: fmpq, hi: fmpq) -> int:
        """Distinct real roots of seq[0] (square-free) in (lo, hi]."""
        def variations(r: Any) -> int:
            s = [v for v in (self.sign(self.evaluate(p, r)) for p in seq if p) if v]
            return sum(1 for u, w in itertools.pairwise(s) if u != w)
        return variations(lo) - variations(hi)

    def squarefree(self, f: list[Any]) -> list[Any]:
        g = self.gcd(f, self.derivative(f))
        return self.divmod(f, g)[0] if len(g) > 1 else f

    # -- roots and signs over alpha ------------------------------------------------------------------------

    def real_roots(self, expr: Any, a: Any, x: Any, lo: Any = None, hi: Any = None) -> list[RealAlgebraic]:
        """The distinct real roots of f(α, x) in [lo, hi] (None: unbounded), as algebraic numbers over ℚ."""
        f = self.poly(expr, a, x)
        if len(f) <= 1:
            return []
        m_expr = sum(int(c) * a**k for k, c in enumerate(self.alpha.poly.coeffs()))
        norm = sympy.Poly(sympy.resultant(m_expr, expr, a), x)
        if norm.is_zero:  # pragma: no cover - excluded: f(alpha, x) is not the zero polynomial
            raise ValueError("zero norm")
        out = []
        for beta in real_roots(_fmpq_poly(norm.as_expr(), x), lo, hi, lo_open=False, hi_open=False):
            if self.vanishes(f, beta):
                out.append(beta)
        return out

    def vanishes(self, f: list[Any], beta: RealAlgebraic) -> bool:
        """f(α, β) = 0, exactly."""
        if not f:
            return True
        if beta.is_rational:
            return self.evaluate(f, beta.lo).is_zero()
        h = [fmpq_poly([fmpq(int(c))]) for c in beta.poly.coeffs()]
        g = self.gcd(f, h)
        if len(g) <= 1:
            return False
        return self.count_roots(self.sturm(g), beta.lo, beta.hi) == 1

    def sign_at(self, expr: Any, a: Any, x: Any, beta: RealAlgebraic) -> int:
        """sign(f(α, β)) for a sympy polynomial f(a, x), exactly."""
        f = self.poly(expr, a, x)
        if self.vanishes(f, beta):
            return 0
        if beta.is_rational:
            return self.sign(self.evaluate(f, beta.lo))
        seq = self.sturm(self.squarefree(f))
        while self.count_roots(seq, beta.lo, beta.hi) > 0 or self.evaluate(f, beta.hi).is_zero():
            beta.refine()
        return self.sign(self.evaluate(f, beta.hi))


def _fmpq_poly(expr: Any, a: Any) -> fmpq_poly:
    if not expr.has(a):
        v = sympy.Rational(expr)
        return fmpq_poly([fmpq(int(v.p), int(v.q))])
    coeffs = sympy.Poly(expr, a).all_coeffs()
    return fmpq_poly([fmpq(int(sympy.Rational(c).p), int(sympy.Rational(c).q)) for c in reversed(coeffs)])


def _sgn(v: Any) -> int:
    return int(v > 0) - int(v < 0)


def _enclose(e: fmpq_poly, lo: fmpq, hi: fmpq) -> tuple[fmpq, fmpq]:
    """An exact rational interval containing e([lo, hi]) (Horner's scheme in interval arithmetic)."""
    a = b = fmpq(0)
    for c in reversed(e.coeffs()):
        products = (a * lo, a * hi, b * lo, b * hi)
        a, b = min(products) + c, max(products) + c
    return a, b


def primitive_element(alpha: RealAlgebraic, beta: RealAlgebraic,
                      max_k: int = 8) -> tuple[RealAlgebraic, fmpq_poly, fmpq_poly] | None:
    """θ = β + kα with ℚ(α, β) = ℚ(θ), and α = A(θ), β = B(θ) (``fmpq_poly``); None if no k ≤ max_k separates.

    The minimal polynomial of θ is the irreducible factor of R(s) = Res_x(m_α(x), h_β(s − kx)) having θ as
    a root (found by refining α, β and R's roots until one root is compatible with θ's enclosure
    [β.lo + kα.lo, β.hi + kα.hi]).  k separates when gcd_{ℚ(θ)}(m_α(x), h_β(θ − kx)) is linear: its only
    root is then the only common root, α, so α ∈ ℚ(θ) exactly.  The result is cached on β (for this α).
    """
    cached: tuple[RealAlgebraic, tuple[RealAlgebraic, fmpq_poly, fmpq_poly] | None] | None = \
        getattr(beta, "_primitive", None)
    if cached is not None and cached[0] is alpha:
        return cached[1]
    s, x = sympy.Dummy("s"), sympy.Dummy("x")
    m_a = sum(int(c) * x**i for i, c in enumerate(alpha.poly.coeffs()))
    for k in range(1, max_k + 1):
        h_shift = sum(int(c) * (s - k * x) ** i for i, c in enumerate(beta.poly.coeffs()))
        R = sympy.Poly(sympy.resultant(m_a, h_shift, x), s)
        if R.is_zero:
            continue
        theta = _root_near(real_roots(_fmpq_poly(R.as_expr(), s)), alpha, beta, k)
        K = NumberField(theta)
        g = K.gcd(K.poly(m_a, s, x), K.poly(h_shift, s, x))
        if len(g) != 2:
            continue
        A = K.reduce(-g[0] * K.inverse(g[1]))
        B = K.reduce(fmpq_poly([0, 1]) - A * k)
        result = (theta, A, B)
        setattr(beta, "_primitive", (alpha, result))  # a cache on the number, not a field of its value
        return result
    return None


def _root_near(roots: list[RealAlgebraic], alpha: RealAlgebraic, beta: RealAlgebraic, k: int) -> RealAlgebraic:
    """The root among ``roots`` equal to β + kα (refining all intervals until one is compatible; one of
    the distinct roots is β + kα, so the others are eventually separated from its enclosure)."""
    while True:
        lo = beta.lo + k * alpha.lo
        hi = beta.hi + k * alpha.hi
        near = [r for r in roots if not (r.hi < lo or r.lo > hi)]
        if len(near) == 1:
            return near[0]
        alpha.refine(2)
        beta.refine(2)
        for r in near:
            r.refine(2)


def in_primitive_element(expr: Any, a: Any, b: Any, alpha: RealAlgebraic,
                         beta: RealAlgebraic) -> tuple[RealAlgebraic, Any, Any] | None:
    """(θ, ϑ, f(A(ϑ), B(ϑ), ...)): the polynomial expr in a = α, b = β rewritten over ℚ(θ) in a fresh
    symbol ϑ standing for θ; None when no primitive element was found."""
    pe = primitive_element(alpha, beta)
    if pe is None:
        return None
    theta, A, B = pe
    v = sympy.Dummy("theta")

    def as_expr(P: fmpq_poly) -> Any:
        return sum(sympy.Rational(int(c.p), int(c.q)) * v**i for i, c in enumerate(P.coeffs()))

    return theta, v, sympy.expand(expr.subs({a: as_expr(A), b: as_expr(B)}, simultaneous=True))
