r"""The exact layer behind certified comparisons: is a symbol-free real expression exactly zero?

Balls cannot tell 0 from a tiny number; this module decides such ties *without numerics deciding
anything* (balls are only used to prove that a quantity is non-zero, which they do rigorously).
:func:`is_zero` answers ``(Truth, reason)``:

1. **Rationals** — exact.
2. **Linear forms in logarithms** q₀ + Σᵢ qᵢ log rᵢ, qᵢ ∈ ℚ, rᵢ ∈ ℚ_{>0}.  Write every rᵢ over a
   coprime basis {b_j} of the integers occurring in numerators and denominators: the form is
   q₀ + Σ_j c_j log b_j with c_j ∈ ℚ.  The log b_j are ℚ-linearly independent (pairwise coprime
   bases: Π b_j^{k_j} = 1 forces k = 0), so Σ c_j log b_j = 0 iff every c_j = 0; and if some c_j ≠ 0
   then q₀ ≠ 0 is impossible too: e^{q₀} = Π b_j^{−c_j} would be algebraic, contradicting
   Lindemann's theorem (e^a is transcendental for algebraic a ≠ 0).  Zero iff q₀ = 0 and all c_j = 0.
   This decides e.g. ``ldp_epsilon(K) == log 3``, ``kl(P, Q) == 0``, PML in nats against a rational.
3. **Exponential polynomials** Σᵢ cᵢ e^{aᵢ} with algebraic cᵢ and aᵢ (after bringing the expression
   over a common denominator whose sign is certified).  By the Lindemann–Weierstrass theorem the
   e^{a} for distinct algebraic a are linearly independent over the algebraic numbers, so the sum is
   zero iff, after grouping equal exponents, every coefficient is zero.  Coefficient / exponent
   equality is decided by exact rational arithmetic or a sympy identity (zero), and by a ball
   excluding 0 (non-zero).  This decides e^ε = r exactly (ε = log r): e.g. ``exp(1/2) − 33/20 ≠ 0``.
4. **sympy identities**: ``sympy.simplify(expr) == 0`` is a chain of exact rewritings, so a 0 result
   proves zero (a non-zero result proves nothing).

Anything else is UNKNOWN — including expressions too large for exact rewriting (an expansion of more
than ``_MAX_EXPANSION_TERMS`` terms, rationals of more than ``_MAX_REWRITE_BITS`` bits for rule 3 and of
more than ``_SIMPLIFY_MAX_BITS`` bits for rule 4,
integers of more than 4 × ``max_prec`` bits for rule 2): the exact layer never blows up on the size
of its input.  sympy's numeric heuristics (``equals``, ``is_zero`` on numbers,
``minimal_polynomial``'s numeric factor choice) are never used.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb, gcd
from typing import Any

import sympy

from exactdp.errors import ExactDPError
from exactdp.numbers.truth import Truth
from exactdp.numbers.reader import as_expr
from exactdp.numbers.sr import to_sr

_SIMPLIFY_MAX_OPS = 200
#: Rule 4 (sympy.simplify) only sees rationals up to this size: it factors them
_SIMPLIFY_MAX_BITS = 128
#: Rules 3 and 4 (sympy rewriting: together, expand, simplify) only see rationals up to this size;
#: sympy re-evaluates p^(1/q) on rebuilding, which factors p.
_MAX_REWRITE_BITS = 4096
#: ... and only expressions whose expansion has at most this many terms ((1 + √2)^(10^5) is not expanded).
_MAX_EXPANSION_TERMS = 10_000


def short(value: Any, width: int = 40) -> str:
    """A printable form of a possibly huge exact number for reasons and messages."""
    big = _largest_bits(value) if isinstance(value, sympy.Basic) else 0
    if big > 4 * width:  # str() of a huge integer is slow (and refused above 4300 digits)
        return f"<an expression with a {big}-bit number>"
    try:
        text = str(value)
    except ValueError:  # Python's int -> str digit limit
        return "<a huge number>"
    return text if len(text) <= width else text[: width // 2] + "..." + text[-width // 2 :]


def _largest_bits(expr: Any) -> int:
    """Bits of the largest numerator / denominator of a rational inside ``expr``."""
    best = 0
    for a in sympy.preorder_traversal(expr):
        if isinstance(a, sympy.Rational):
            best = max(best, abs(int(a.p)).bit_length(), int(a.q).bit_length())
    return best


def _expansion_terms(expr: Any, cap: int = _MAX_EXPANSION_TERMS + 1) -> int:
    """An upper estimate (capped at ``cap``) of the number of terms of ``sympy.expand(expr)``."""
    if expr.is_Add:
        return min(cap, sum(_expansion_terms(a, cap) for a in expr.args))
    if expr.is_Mul:
        out = 1
        for a in expr.args:
            out = min(cap, out * _expansion_terms(a, cap))
        return out
    if expr.is_Pow:
        base, e = expr.args
        k = _expansion_terms(base, cap)
        if e.is_Integer and k > 1:
            n = abs(int(e))
            if n > cap:
                return cap
            return min(cap, comb(n + k - 1, k - 1) if k < cap else cap)
        return max(k, _expansion_terms(e, cap))
    if expr.args:
        return max(_expansion_terms(a, cap) for a in expr.args)
    return 1


def rewritable(expr: Any) -> bool:
    """Small enough for sympy's exact rewritings (together, expand, simplify): see the module docstring."""
    return (_largest_bits(expr) <= _MAX_REWRITE_BITS
            and _expansion_terms(expr) <= _MAX_EXPANSION_TERMS)


def _as_expr(expr: Any) -> sympy.Basic:
    """A sympy expression as it is; any other value is an exact number (text is never sympified)."""
    if isinstance(expr, sympy.Basic):
        return expr
    return to_sr(expr, "expr")


def rational_value(expr: Any) -> sympy.Rational | None:
    """The rational value of ``expr`` when exact rules prove it rational (a log form that cancels)."""
    expr = _as_expr(expr)
    if expr.is_Rational:
        return expr
    parts = _log_linear_parts(expr)
    if parts is None or any(v != 0 for v in _log_coefficients(parts[1]).values()):
        return None
    return parts[0]


def is_zero(expr: Any) -> tuple[Truth, str]:
    """Decide exactly whether a symbol-free real sympy expression is 0 (see module docstring)."""
    expr = _as_expr(expr)
    try:
        return _is_zero(expr)
    except RecursionError:  # sympy's rewritings recurse on deep trees: no exact certificate
        return Truth.UNKNOWN, "the expression is too deep for exact rewriting"


def _is_zero(expr: Any) -> tuple[Truth, str]:
    if expr.free_symbols:
        return Truth.UNKNOWN, "free symbols"
    if expr.is_Rational:
        return Truth.of(expr == 0), "exact rational"
    res = _log_linear(expr)
    if res is not None:
        return res
    if not rewritable(expr):
        return Truth.UNKNOWN, "too large for exact rewriting (huge numbers or a huge expansion)"
    if expr.has(sympy.sinh, sympy.cosh, sympy.tanh):
        expr = expr.rewrite(sympy.exp)  # an exact rewriting into exponentials
    res = _exp_polynomial(expr)
    if res is not None and res[0] is not Truth.UNKNOWN:
        return res
    if _simplifies_to_zero(expr):
        return Truth.TRUE, "sympy.simplify rewrites it to 0 (exact identity)"
    note = res[1] if res is not None else "no exact rule applies"
    return Truth.UNKNOWN, note


# -- 2. linear forms in logs of rationals ------------------------------------------------------------


def coprime_basis(numbers: Iterable[int]) -> list[int]:
    """Factor refinement: pairwise coprime integers > 1 over which every given positive integer factors
    (a product of their powers).  The one implementation (privacy-loss exponents, the exact-zero layer).

    A worklist: a new value meeting a basis element b with g = gcd > 1 is replaced by g, v and b with
    every factor g removed (:func:`_remove`, O(log) divisions: 2^(10^5) against 2 is one step); the
    product of the values strictly decreases, so the loop terminates.

    >>> coprime_basis([12, 18]), coprime_basis([6, 10, 15, 1])
    ([2, 3], [2, 3, 5])
    """
    todo = sorted({int(n) for n in numbers if int(n) > 1})
    basis: list[int] = []
    while todo:
        v = todo.pop()
        if v in basis:
            continue
        for k, b in enumerate(basis):
            g = gcd(v, b)
            if g > 1:
                del basis[k]
                todo.extend(x for x in {g, _remove(v, g)[0], _remove(b, g)[0]} if x > 1)
                break
        else:
            basis.append(v)
    return sorted(basis)


def _remove(n: int, b: int) -> tuple[int, int]:
    """(n / b^v, v) with v the b-adic valuation of n, in O(log v) divisions on flint integers (2^(10^6)
    against 2 is a handful of GMP divisions, not 10^6 Python ones)."""
    from flint import fmpz

    N, B = fmpz(n), fmpz(b)
    if N % B:
        return n, 0
    powers = [B]  # b, b^2, b^4, ... while they divide n
    while True:
        nxt = powers[-1] * powers[-1]
        if nxt.bit_length() > N.bit_length() or N % nxt:
            break
        powers.append(nxt)
    v = 0
    for k in range(len(powers) - 1, -1, -1):  # v < 2^len(powers): each power is needed at most once
        if N % powers[k] == 0:
            N //= powers[k]
            v += 1 << k
    return int(N), v


def _exponents(n: int, basis: list[int]) -> dict[int, int]:
    out = {}
    for b in basis:
        n, e = _remove(n, b)
        if e:
            out[b] = e
    assert n == 1, "coprime basis does not cover the integer"
    return out


def exponent_vector(q: Any, basis: list[int]) -> dict[int, int]:
    """{b: e} with q = Π b^e for a positive rational q (anything with integer ``p`` and ``q``) over a
    :func:`coprime_basis` covering its numerator and denominator; negative e for the denominator's factors."""
    out = dict(_exponents(int(q.p), basis))
    for b, e in _exponents(int(q.q), basis).items():
        out[b] = out.get(b, 0) - e
    return out


def _log_linear_parts(expr: Any) -> tuple[Any, list[tuple[Any, Any]]] | None:
    """(q₀, [(qᵢ, rᵢ)]) when expr = q₀ + Σ qᵢ log rᵢ with rational qᵢ and rᵢ > 0, else None."""
    q0 = sympy.Integer(0)
    logs: list[tuple[sympy.Rational, sympy.Rational]] = []
    for term in sympy.Add.make_args(expr):
        coeff, rest = term.as_coeff_Mul()
        if rest is sympy.S.One:
            q0 += coeff
        elif (
            isinstance(rest, sympy.log)
            and rest.args[0].is_Rational
            and rest.args[0] > 0
            and coeff.is_Rational
        ):
            logs.append((coeff, rest.args[0]))
        else:
            return None
    if not logs:
        return None
    from exactdp.numbers.rb import exact_bits_cap  # deferred: circle

    if sum(int(r.p).bit_length() + int(r.q).bit_length() for _, r in logs) > exact_bits_cap():
        return None  # integers too large to factor over a coprime basis: no exact rule
    return q0, logs


def _log_coefficients(logs: list[tuple[Any, Any]]) -> dict[int, Any]:
    """Σ qᵢ log rᵢ = Σ_b c_b log b over a coprime basis: the map b ↦ c_b."""
    ints = [int(r.p) for _, r in logs] + [int(r.q) for _, r in logs]
    basis = coprime_basis(ints)
    c = {b: sympy.Integer(0) for b in basis}
    for q, r in logs:
        for b, e in exponent_vector(r, basis).items():
            c[b] += q * e
    return c


def _log_linear(expr: Any) -> tuple[Truth, str] | None:
    """Decide q₀ + Σ qᵢ log rᵢ (rational qᵢ, positive rational rᵢ); None if expr is not of that form."""
    parts = _log_linear_parts(expr)
    if parts is None:
        return None
    q0, logs = parts
    if all(v == 0 for v in _log_coefficients(logs).values()):
        return Truth.of(q0 == 0), "linear form in logs reduces to the rational " + short(q0)
    return Truth.FALSE, (
        "q0 + sum c_b log b with some c_b != 0 over a coprime basis: non-zero (unique factorisation + Lindemann)"
    )


# -- 3. exponential polynomials ------------------------------------------------------------------------


def _is_algebraic(e: Any) -> bool:
    if e.is_Rational:
        return True
    if e.is_Add or e.is_Mul:
        return all(_is_algebraic(a) for a in e.args)
    if e.is_Pow:
        return e.exp.is_Rational and _is_algebraic(e.base)
    return False


def _split_exp(term: Any) -> tuple[Any, Any] | None:
    """term = coefficient · e^{exponent} with algebraic coefficient and exponent, or None."""
    coeff, exponent = [], sympy.Integer(0)
    for f in sympy.Mul.make_args(term):
        if isinstance(f, sympy.exp):
            exponent += f.args[0]
        elif f.is_Pow and isinstance(f.base, sympy.exp) and f.exp.is_Rational:
            exponent += f.exp * f.base.args[0]
        elif f is sympy.E:
            exponent += 1
        elif _is_algebraic(f):
            coeff.append(f)
        else:
            return None
    if not _is_algebraic(exponent):
        return None
    return sympy.Mul(*coeff), exponent


def _ball_nonzero(e: Any, max_prec: int = 512) -> bool:
    """True when a ball of ``e`` excludes 0 at some precision up to ``max_prec`` (rigorous)."""
    from flint import ctx

    from exactdp.numbers.rb import arb_of_expr  # deferred: circle

    prec = 64
    while prec <= max_prec:
        with ctx.workprec(prec):
            try:
                b = arb_of_expr(e)
            except (ExactDPError, ValueError, ZeroDivisionError):  # not evaluable: no certificate
                return False
        if b.is_finite() and (b > 0 or b < 0):
            return True
        prec *= 2
    return False


def _algebraic_zero(e: Any) -> Truth:
    """Zero test: exact rational, a ball excluding 0 (non-zero) or a sympy identity (zero)."""
    if e.is_Rational:
        return Truth.of(e == 0)
    if _ball_nonzero(e):
        return Truth.FALSE
    if _simplifies_to_zero(e):
        return Truth.TRUE
    return Truth.UNKNOWN


def _simplifies_to_zero(expr: Any) -> bool:
    """Rule 4: ``sympy.simplify(expr) == 0``, tried only on small inputs (at most ``_SIMPLIFY_MAX_OPS``
    operations and rationals of at most ``_SIMPLIFY_MAX_BITS`` bits): simplify factors the integers it
    meets (trigsimp's ``factor``), which never ends on sin(1)^2 + cos(1)^2 - 1 - 10^-1000."""
    if _largest_bits(expr) > _SIMPLIFY_MAX_BITS or sympy.count_ops(expr) > _SIMPLIFY_MAX_OPS:
        return False
    try:
        return bool(sympy.simplify(expr) == 0)
    except (TypeError, ValueError, NotImplementedError, RecursionError):  # pragma: no cover
        return False


def _exp_polynomial(expr: Any) -> tuple[Truth, str] | None:
    num, den = sympy.fraction(sympy.together(expr))
    if den != 1 and _algebraic_or_exp_nonzero(den) is not Truth.FALSE:
        return Truth.UNKNOWN, f"cannot certify that the denominator {short(den)} is non-zero"
    groups: list[list[Any]] = []  # [exponent, coefficient]
    for term in sympy.Add.make_args(sympy.expand(num)):
        split = _split_exp(term)
        if split is None:
            return None
        c, a = split
        for g in groups:
            same = _algebraic_zero(sympy.expand(g[0] - a))
            if same is Truth.UNKNOWN:
                return Truth.UNKNOWN, f"cannot decide whether the exponents {short(g[0])} and {short(a)} are equal"
            if same is Truth.TRUE:
                g[1] = g[1] + c
                break
        else:
            groups.append([a, c])
    if all(as_expr(a).is_Rational and a == 0 for a, _ in groups):
        kind = "algebraic"
    else:
        kind = "Lindemann-Weierstrass"
    for a, c in groups:
        z = _algebraic_zero(sympy.expand(c))
        if z is Truth.UNKNOWN:
            return Truth.UNKNOWN, f"cannot decide whether the coefficient {short(c)} of exp({short(a)}) is zero"
        if z is Truth.FALSE:
            if kind == "algebraic":
                return Truth.FALSE, "algebraic value, certified non-zero by a ball"
            return Truth.FALSE, f"{kind}: the coefficient of exp({short(a)}) is non-zero"
    return Truth.TRUE, f"{kind}: every coefficient is exactly zero"


def _algebraic_or_exp_nonzero(den: Any) -> Truth:
    return Truth.FALSE if _ball_nonzero(den) else Truth.UNKNOWN
