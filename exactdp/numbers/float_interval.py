r"""Rigorous interval vectors on numpy float64 with a power-of-two scale (certified filters).

A value is ``IntervalVector(lo, hi, exp)``: entry i is a real number x_i with 2^exp·lo_i ≤ x_i ≤ 2^exp·hi_i
(``lo``, ``hi`` float64 arrays of one shape, ``exp`` a Python integer shared by the vector).  Floats only
ever produce *bounds*: :func:`to_fmpq_bounds` turns an entry (or the whole sum) into two exact rationals,
and every decision is an exact comparison of those rationals.  No float reaches an exact result.

**Rounding argument** (IEEE 754 binary64, round to nearest, which numpy uses):

* one elementwise +, −, ×, ÷ of two floats is the correctly rounded exact result; the exact value lies
  within half a spacing of the computed one (normal or subnormal; at a power of two the spacing below is
  the smaller one, and still at most the step that ``nextafter`` takes).  So widening the computed lower
  end one step down and the upper end one step up with ``np.nextafter`` encloses the exact value.  This
  includes underflow: a product that rounds to 0 gets ``hi = nextafter(0, +inf)`` (the least subnormal,
  2⁻¹⁰⁷⁴) and ``lo = 0`` when both operands are ≥ 0.  Overflow is avoided by the scale: every vector is
  renormalised (:func:`normalize`) so that its largest |end| lies in [2⁻⁶⁴, 2⁶⁴], so products and sums of
  normalised vectors stay far below the float maximum.
* scaling by 2^s (``np.ldexp``, IEEE scaleB) is exact unless the result is subnormal or underflows, and
  otherwise correctly rounded; it is widened one step outward whenever s < 0.
* a sum of m ≥ 2 non-negative floats in any order (``np.sum`` / ``np.cumsum``, whose summation tree is
  unspecified) satisfies |fl(Σx) − Σx| ≤ γ_{m−1}·Σ|x|, γ_k = ku/(1 − ku), u = 2⁻⁵³ (Higham, *Accuracy and
  Stability of Numerical Algorithms*, 2nd ed., §4.2, eq. (4.4), valid for every summation order; additions
  are exact when their result is subnormal, so underflow does not break the model).  For x ≥ 0 the exact
  S = Σx therefore lies in [fl/(1 + γ), fl/(1 − γ)] ⊂ [fl·(1 − c), fl·(1 + c)] with c = 2(m−1)u as long
  as (m−1)u ≤ 1/4; the products with 1 ± c are then widened one step outward like any product (c is a
  float ≥ its real value because 2(m−1)u is a float: a power of two times an integer below 2⁵³).

Representable magnitudes: any 2^exp·[lo, hi] with exp a Python integer, so probabilities like 2⁻⁴⁰⁰⁰⁰
are kept as a normalised mantissa vector with a large negative ``exp``.  The range *inside* one vector is
that of float64 relative to its largest entry (entries 2¹⁰⁷⁴ times smaller underflow to [0, 2⁻¹⁰⁷⁴]·2^exp,
still rigorous).

API: :class:`IntervalVector`; :func:`from_fmpq` (the tightest enclosing float pair of exact rationals),
:func:`exact_floats`, :func:`mul`, :func:`add`, :func:`sub`, :func:`div`, :func:`scale`, :func:`sum_nonneg`,
:func:`cumsum_nonneg`, :func:`normalize`, :func:`to_fmpq_bounds`; :func:`float_to_fmpq` and :func:`pow2` (exact
values of floats and of the scales).
"""

from __future__ import annotations

import functools
import math
from typing import Any, cast
from dataclasses import dataclass

import numpy as np
from flint import fmpq, fmpz

from exactdp.errors import CoercionError, ParameterError

__all__ = ["IntervalVector", "from_fmpq", "exact_floats", "mul", "add", "sub", "div", "scale", "sum_nonneg",
           "cumsum_nonneg", "normalize", "to_fmpq_bounds", "float_to_fmpq", "float_bracket", "pow2", "U"]

#: unit roundoff of binary64 under round to nearest
U = 2.0 ** -53
_INF = np.inf
#: normalised vectors keep their largest |end| in [2^-_BAND, 2^_BAND]
_BAND = 64


def _down(x: np.ndarray) -> np.ndarray:
    return cast(np.ndarray, np.nextafter(x, -_INF))


def _up(x: np.ndarray) -> np.ndarray:
    return cast(np.ndarray, np.nextafter(x, _INF))


@dataclass(frozen=True, eq=False)
class IntervalVector:
    r"""Entry i encloses a real x_i: 2^exp·lo[i] ≤ x_i ≤ 2^exp·hi[i] (float64 arrays, exp an integer)."""

    lo: np.ndarray
    hi: np.ndarray
    exp: int = 0

    def __post_init__(self) -> None:
        if self.lo.shape != self.hi.shape or self.lo.dtype != np.float64 or self.hi.dtype != np.float64:
            raise ParameterError("IntervalVector: lo and hi must be float64 arrays of one shape")

    def __len__(self) -> int:
        return len(self.lo)

    def __getitem__(self, index: Any) -> "IntervalVector":
        """Entries ``index`` (a slice, integer array or boolean mask; a scalar index keeps a 1-entry vector)."""
        if isinstance(index, (int, np.integer)):
            index = slice(index, index + 1 if index != -1 else None)
        return IntervalVector(np.atleast_1d(self.lo[index]), np.atleast_1d(self.hi[index]), self.exp)

    @property
    def nonneg(self) -> bool:
        return bool(np.all(self.lo >= 0))


def exact_floats(values: Any, exp: int = 0) -> IntervalVector:
    """Point intervals of floats that are exact by construction (small integers, dyadic constants); NaN and
    ±inf are no real numbers and are refused (CoercionError naming ``values``)."""
    a = np.asarray(values, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(a))
    if bad.size:
        i = int(bad[0])
        raise CoercionError(f"values: exact_floats takes finite floats only, got {a.ravel()[i]!r} at index {i}")
    return IntervalVector(a.copy(), a.copy(), exp)


def float_to_fmpq(f: float) -> fmpq:
    """The exact rational value of a finite float (its binary expansion; for turning a float *bound* into an
    exact one)."""
    n, d = float(f).as_integer_ratio()
    return fmpq(n, d)


@functools.lru_cache(maxsize=4096)
def pow2(e: int) -> fmpq:
    """2^e as an exact rational (cached: scales of interval vectors repeat)."""
    return fmpq(fmpz(2) ** e) if e >= 0 else fmpq(1, fmpz(2) ** (-e))


def _one_bracket(x: fmpq, e: int) -> tuple[float, float]:
    """Floats lo ≤ x·2^(−e) ≤ hi, the tightest pair (exact comparisons; e chosen so the value is ≲ 1)."""
    y = x * pow2(-e)
    if y == 0:
        return 0.0, 0.0
    f = int(y.p) / int(y.q)  # Python's int/int true division is correctly rounded (may underflow to 0)
    ef = float_to_fmpq(f)
    if ef == y:
        return f, f
    lo, hi = (f, float(np.nextafter(f, _INF))) if ef < y else (float(np.nextafter(f, -_INF)), f)
    while float_to_fmpq(hi) < y:  # never taken when the division is correctly rounded; kept as a guard
        lo, hi = hi, float(np.nextafter(hi, _INF))
    while float_to_fmpq(lo) > y:
        lo, hi = float(np.nextafter(lo, -_INF)), lo
    return lo, hi


def float_bracket(x: fmpq) -> tuple[float, float]:
    """The tightest floats lo ≤ x ≤ hi of one exact rational (lo == hi when x is a double): the outward
    rounding of an exact value handed to a float consumer (the dp_accounting export, exactdp.accounting)."""
    return _one_bracket(fmpq(x), 0)


def _log2_floor(x: fmpq) -> int:
    """⌊log2 |x|⌋ (x ≠ 0), exactly, from bit lengths."""
    p, q = abs(int(x.p)), int(x.q)
    k = p.bit_length() - q.bit_length()  # 2^(k-1) < p/q < 2^(k+1)
    return k if (p >= q << k if k >= 0 else p << -k >= q) else k - 1


def from_fmpq(values: Any) -> IntervalVector:
    r"""The tightest float enclosure of exact rationals (``fmpq`` or anything ``fmpq()`` takes exactly, not
    floats), with one scale 2^exp chosen from the largest magnitude (so 2⁻⁴⁰⁰⁰⁰ is representable)."""
    xs = []
    for v in values:
        if isinstance(v, float):
            raise ParameterError(f"from_fmpq: expected exact rationals, got the float {v!r}")
        xs.append(v if isinstance(v, fmpq) else fmpq(v))
    nonzero = [x for x in xs if x != 0]
    e = max((_log2_floor(x) for x in nonzero), default=0) + 1  # every |x|·2^-e < 1
    pairs = [_one_bracket(x, e) for x in xs]
    lo = np.array([a for a, _ in pairs], dtype=np.float64)
    hi = np.array([b for _, b in pairs], dtype=np.float64)
    return IntervalVector(lo, hi, e)


def _shift(v: IntervalVector, s: int) -> tuple[np.ndarray, np.ndarray]:
    """(lo·2^s, hi·2^s) rigorously (exact for s ≥ 0 without overflow; widened outward for s < 0)."""
    if s == 0:
        return v.lo, v.hi
    if s > 0:
        return np.ldexp(v.lo, s), np.ldexp(v.hi, s)
    s = max(s, -2200)  # beyond, every normalised entry is below the least subnormal anyway
    lo, hi = _down(np.ldexp(v.lo, s)), _up(np.ldexp(v.hi, s))
    if v.nonneg:
        lo = np.maximum(lo, 0.0)
    return lo, hi


def normalize(v: IntervalVector) -> IntervalVector:
    """The same enclosure with the largest |end| moved into [2^-64, 2^64] (a power-of-two rescale)."""
    m = float(max(np.max(np.abs(v.hi), initial=0.0), np.max(np.abs(v.lo), initial=0.0)))
    if m == 0.0 or 2.0 ** -_BAND <= m <= 2.0 ** _BAND:
        return v
    k = int(np.frexp(m)[1])  # m < 2^k
    lo, hi = _shift(v, -k)
    return IntervalVector(lo, hi, v.exp + k)


def _aligned(a: IntervalVector, b: IntervalVector) -> tuple[tuple[np.ndarray, np.ndarray],
                                                            tuple[np.ndarray, np.ndarray], int]:
    e = max(a.exp, b.exp)
    return _shift(a, a.exp - e), _shift(b, b.exp - e), e


def add(a: IntervalVector, b: IntervalVector) -> IntervalVector:
    """a + b entrywise (numpy broadcasting), widened one step outward."""
    (alo, ahi), (blo, bhi), e = _aligned(a, b)
    lo, hi = _down(alo + blo), _up(ahi + bhi)
    if a.nonneg and b.nonneg:
        lo = np.maximum(lo, 0.0)
    return normalize(IntervalVector(lo, hi, e))


def sub(a: IntervalVector, b: IntervalVector) -> IntervalVector:
    """a − b entrywise, widened one step outward."""
    (alo, ahi), (blo, bhi), e = _aligned(a, b)
    return normalize(IntervalVector(_down(alo - bhi), _up(ahi - blo), e))


def mul(a: IntervalVector, b: IntervalVector) -> IntervalVector:
    """a·b entrywise (the min / max of the four end products for signed entries), widened one step."""
    if a.nonneg and b.nonneg:
        lo, hi = np.maximum(_down(a.lo * b.lo), 0.0), _up(a.hi * b.hi)
    else:
        ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        lo, hi = _down(np.minimum.reduce(ps)), _up(np.maximum.reduce(ps))
    return normalize(IntervalVector(lo, hi, a.exp + b.exp))


def div(a: IntervalVector, b: IntervalVector) -> IntervalVector:
    """a / b entrywise for a ≥ 0 and b > 0 (b.lo > 0 required), widened one step."""
    if not (a.nonneg and np.all(b.lo > 0)):
        raise ParameterError("div: needs a >= 0 and b > 0 entrywise (b.lo > 0)")
    lo, hi = np.maximum(_down(a.lo / b.hi), 0.0), _up(a.hi / b.lo)
    return normalize(IntervalVector(lo, hi, a.exp - b.exp))


def scale(a: IntervalVector, c: Any) -> IntervalVector:
    """a·c for an exact rational scalar c (enclosed by :func:`from_fmpq` first)."""
    return mul(a, from_fmpq([c]))


def _sum_margin(m: int) -> float:
    if m <= 1:
        return 0.0
    if (m - 1) * U > 0.25:
        raise ParameterError(f"sum_nonneg: {m} terms exceed the range of the a-priori summation bound")
    return 2.0 * (m - 1) * U  # exact: an integer below 2^53 times a power of two


def _widen_sum(lo: np.ndarray, hi: np.ndarray, terms: Any) -> tuple[np.ndarray, np.ndarray]:
    c = np.asarray(terms, dtype=np.float64)
    c = np.where(c > 1, 2.0 * (c - 1) * U, 0.0)
    return np.maximum(_down(lo * _down(1.0 - c)), 0.0), _up(hi * _up(1.0 + c))


def sum_nonneg(a: IntervalVector) -> IntervalVector:
    """Σ_i a_i of a non-negative vector (one entry), with Higham's bound applied outward (module docstring)."""
    if not a.nonneg:
        raise ParameterError("sum_nonneg: the entries must be >= 0")
    m = len(a)
    _sum_margin(m)
    lo, hi = _widen_sum(np.array([np.sum(a.lo)]), np.array([np.sum(a.hi)]), [m])
    return normalize(IntervalVector(lo, hi, a.exp))


def cumsum_nonneg(a: IntervalVector) -> IntervalVector:
    """The prefix sums Σ_{i≤j} a_i of a non-negative vector (entry j: j + 1 terms, Higham's bound outward)."""
    if not a.nonneg:
        raise ParameterError("cumsum_nonneg: the entries must be >= 0")
    _sum_margin(len(a))
    lo, hi = _widen_sum(np.cumsum(a.lo), np.cumsum(a.hi), np.arange(1, len(a) + 1))
    return normalize(IntervalVector(lo, hi, a.exp))


def to_fmpq_bounds(a: IntervalVector, index: int | None = None) -> tuple[fmpq, fmpq]:
    """Exact rationals (lo, hi) enclosing entry ``index`` (default: the vector must have one entry); an
    infinite or NaN end (an overflowed operation) is a ParameterError, never a bare OverflowError."""
    if index is None:
        if len(a) != 1:
            raise ParameterError(f"to_fmpq_bounds: give an index for a vector of {len(a)} entries")
        index = 0
    lo, hi = float(a.lo[index]), float(a.hi[index])
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ParameterError(f"to_fmpq_bounds: entry {index} is [{lo!r}, {hi!r}]·2^{a.exp}: a float operation "
                             "overflowed (or met NaN), so the entry has no finite exact bound; keep operands "
                             "normalised and divisors away from 0")
    s = pow2(a.exp)
    return float_to_fmpq(lo) * s, float_to_fmpq(hi) * s
