r"""The privacy profile ε ↦ δ_n(e^ε) of an n-fold product on a grid of ε, certified (docs/claims.md B-10, D-7).

δ_n(γ) = η_{E_γ}(K₁^{⊗n₁} ⊗ …) is the privacy profile of the composition ([A] Thm 1, B-10): the least δ with
(log γ, δ)-LDP.  The PLD accountant's main output is this whole curve, discretised; here it is given by
**certified enclosures at requested ε** and a certified envelope between them:

* at each requested ε ≥ 0 (exact: a rational, or an expression such as ``log(3)/2``), e^ε is bracketed by
  rationals γ_lo ≤ e^ε ≤ γ_hi (an arb ball at 128 bits; γ_lo = γ_hi = e^ε when it is rational), and since δ_n is
  non-increasing in γ,

  .. math::  \mathrm{lower}(\delta_n(\gamma_{hi})) \le \delta_n(e^\varepsilon) \le \mathrm{upper}(\delta_n(\gamma_{lo})),

  each end an exact rational or the end of a certified enclosure of relative width ≤ ``rel_width``
  (:func:`~exactdp.measures.tensor_enclosure.delta_tensor_product_enclosure`: exact where the pair-type search fits
  the cost guard, else through the certified composition filter);
* between two grid points ε_i < ε < ε_{i+1} (:meth:`CertifiedProfile.bounds`): δ_n is non-increasing, so
  δ_n(e^ε) ≥ lower_{i+1}, and convex in γ, so it lies below the chord through the upper bounds at γ_lo,i and
  γ_hi,i+1 — both exact rational arithmetic on the grid's endpoints, with e^ε again bracketed by a ball.

Guarantee: every interval returned contains the exact δ_n(e^ε) — no float enters an endpoint; floats are used
nowhere.  Cost: one enclosure per grid point (each under its own cost guard; the blocks of the lattice bounds are
shared between nearby γ).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import sympy
from flint import fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.measures.tensor_enclosure import TensorEnclosure, delta_tensor_product_enclosure
from exactdp.numbers.qq import ONE, ZERO, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB
from exactdp.numbers.reader import as_expr, read_expression
from exactdp.numbers.sr import to_exact

#: bits of the ball that brackets e^ε by rationals
_BRACKET_BITS = 128


@dataclass(frozen=True)
class ProfilePoint:
    """δ_n(e^ε) ∈ [lower, upper] at one requested ε (``gamma_lo`` ≤ e^ε ≤ ``gamma_hi``, exact rationals)."""

    epsilon: sympy.Expr
    gamma_lo: fmpq
    gamma_hi: fmpq
    lower: fmpq
    upper: fmpq

    @property
    def exact(self) -> bool:
        """The point is the exact value δ_n(e^ε) (e^ε rational and the search exact)."""
        return self.lower == self.upper


@dataclass(frozen=True)
class ProfilePiece:
    """The certified envelope of δ_n(e^ε) for ε in [``eps_lo``, ``eps_hi``] (two neighbouring grid points):
    ``lower`` ≤ δ_n(e^ε) ≤ ``a`` − ``b``·e^ε, exact rationals with b ≥ 0."""

    eps_lo: sympy.Expr
    eps_hi: sympy.Expr
    lower: fmpq
    a: fmpq
    b: fmpq


@dataclass(frozen=True)
class CertifiedProfile:
    """Certified enclosures of the privacy profile at a grid of ε (module docstring); ``points`` by increasing ε."""

    n: int
    points: tuple[ProfilePoint, ...]
    rel_width: fmpq

    def bounds(self, eps: Any) -> tuple[fmpq, fmpq]:
        """``(lo, hi)`` with lo ≤ δ_n(e^ε) ≤ hi for any ε in [first grid ε, last grid ε] (exact rationals): the grid
        point's own enclosure, else monotonicity below and the chord of the upper bounds above (convexity in γ)."""
        e = _epsilon(eps)
        first, last = self.points[0], self.points[-1]
        if _less(e, first.epsilon) or _less(last.epsilon, e):
            raise ParameterError(f"eps: {e} lies outside the grid [{first.epsilon}, {last.epsilon}]")
        for p in self.points:
            if sympy.simplify(p.epsilon - e) == 0:
                return p.lower, p.upper
        i = max(k for k, p in enumerate(self.points) if _less(p.epsilon, e))
        a, b = self.points[i], self.points[i + 1]
        g_lo, g_hi = _bracket(e)
        # convex in γ: on [a.gamma_lo, b.gamma_hi] δ_n lies below the chord through (a.gamma_lo, a.upper) and
        # (b.gamma_hi, b.upper) (both points lie above the curve); the chord falls with γ, so its value at g_lo bounds
        # δ_n(γ) for every γ ≥ g_lo in the interval, in particular at e^ε
        span = b.gamma_hi - a.gamma_lo
        chord = a.upper + (b.upper - a.upper) * (max(g_lo, a.gamma_lo) - a.gamma_lo) / span if span else a.upper
        return b.lower, min(chord, a.upper)

    def pieces(self) -> tuple[ProfilePiece, ...]:
        r"""The envelope between each two neighbouring grid points as exact rational data: on [ε_i, ε_{i+1}],
        δ_n(e^ε) ≥ lower_{i+1} (δ_n is non-increasing in γ) and δ_n(e^ε) ≤ a − b·e^ε, the chord through
        (γ_lo,i, upper_i) and (γ_hi,i+1, upper_{i+1}) — both points lie on or above the convex curve γ ↦ δ_n(γ)
        ([A] Thm 1, B-10), and e^ε ∈ [γ_lo,i, γ_hi,i+1] — or the constant upper_i where the chord rises (upper
        bounds of nearby points need not decrease).  The piece's ends hold the grid points' own enclosures too."""
        out = []
        for p, q in zip(self.points, self.points[1:]):
            span = q.gamma_hi - p.gamma_lo
            slope = (q.upper - p.upper) / span if span else ZERO
            if slope > 0 or not span:
                a, b = p.upper, ZERO
            else:
                a, b = p.upper - slope * p.gamma_lo, -slope
            out.append(ProfilePiece(p.epsilon, q.epsilon, q.lower, a, b))
        return tuple(out)


def _epsilon(eps: Any) -> sympy.Expr:
    """ε as an exact sympy number ≥ 0 (text through the safe reader, which knows log, exp, sqrt; floats refused)."""
    e, symbolic = to_exact(read_expression(eps, name="eps") if isinstance(eps, str) else eps, "eps")
    e = as_expr(e if symbolic else qq_to_sympy(e))
    if e.free_symbols or e.is_negative or not e.is_real:
        raise ParameterError(f"eps: must be an exact real number >= 0, got {e}")
    return e


def _less(a: sympy.Expr, b: sympy.Expr) -> bool:
    """a < b for exact reals, decided by a certified ball comparison (equality by exact simplification)."""
    if sympy.simplify(a - b) == 0:
        return False
    d = RB(a - b, "eps").compare_rational(fmpq(0))
    if d is None:
        raise UndecidedError(f"eps: {a} and {b} could not be compared")
    return d.value < 0


def _bracket(e: sympy.Expr) -> tuple[fmpq, fmpq]:
    """Rationals γ_lo ≤ e^ε ≤ γ_hi, γ_lo ≥ 1 (equal when e^ε is rational)."""
    g = sympy.exp(e)
    if g.is_Rational:
        q = to_qq(g)
        return q, q
    ends = RB(g, "e^eps").endpoints(_BRACKET_BITS)
    if ends is None:
        raise UndecidedError(f"eps: e^{e} could not be bracketed by rationals")
    return max(ends[0], ONE), ends[1]


def certified_profile(factors: Sequence[tuple[Any, int]] | Any, eps_values: Iterable[Any], *,
                      rel_width: Any = None, **kw: Any) -> CertifiedProfile:
    r"""Certified enclosures of δ_n(e^ε) over all pairs of input sequences of K₁^{⊗n₁} ⊗ … (``factors = [(K, n),
    ...]``, or one ``(K, n)``) at each ε of ``eps_values`` (exact, ≥ 0), relative width ≤ ``rel_width`` (default
    10⁻⁶) per enclosure (module docstring; [A] Thm 1, B-10).

    >>> from exactdp.mechanisms import randomized_response
    >>> pr = certified_profile((randomized_response(2, 3), 10), ["0", "log(3)", "log(9)"])
    >>> [(p.lower, p.exact) for p in pr.points]
    [(59123/65536, True), (226149/262144, True), (12195/16384, True)]

    Raises:
        ParameterError: an ε < 0 or not exact, an empty grid, or a bad factor.
        ResourceLimitError: an enclosure over its cost guard (names the limit).
    """
    single = isinstance(factors, tuple) and len(factors) == 2 and isinstance(factors[1], int)
    facs = cast(list[tuple[Any, int]], [factors] if single else list(factors))
    eps = sorted((_epsilon(e) for e in eps_values), key=lambda x: _bracket(x)[0])
    if not eps:
        raise ParameterError("eps_values: give at least one eps")
    points = []
    cache: dict[fmpq, TensorEnclosure] = {}

    def enclose(g: fmpq) -> TensorEnclosure:
        if g not in cache:
            cache[g] = delta_tensor_product_enclosure(facs, g, rel_width=rel_width, **kw)
        return cache[g]

    w = None
    for e in eps:
        g_lo, g_hi = _bracket(e)
        lo_end, hi_end = enclose(g_hi), enclose(g_lo)
        w = lo_end.requested
        points.append(ProfilePoint(e, g_lo, g_hi, lo_end.lower, hi_end.upper))
    n = sum(k for _, k in facs)
    return CertifiedProfile(n, tuple(points), w if w is not None else fmpq(1, 10**6))
