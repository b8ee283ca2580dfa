r"""Exact products of 63-bit integers in numpy: 128-bit results as two uint64 limbs, and exact comparisons.

Comparing fractions a/b and c/e with non-negative int64 parts needs a·e against c·b, up to 2^126: beyond
int64, and numpy object arrays of Python ints are slow.  Here each factor is split into 32-bit halves,
x = x₁·2^32 + x₀ with x₁ < 2^31 and x₀ < 2^32, so

.. math::  x y = x_1 y_1 2^{64} + (x_1 y_0 + x_0 y_1) 2^{32} + x_0 y_0,

where x₀y₀ < 2^64, x₁y₀ + x₀y₁ < 2^64 and x₁y₁ < 2^62 are exact in uint64; the low limb is
(x₀y₀ + (mid mod 2^32)·2^32) mod 2^64 and the high limb x₁y₁ + ⌊mid/2^32⌋ plus the carry of that
addition.  Every step is an exact uint64 operation on values whose bounds are stated above, so the
limbs are the exact product; the comparisons are lexicographic on (high, low).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

_MASK = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


def mul_wide(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``(high, low)`` uint64 limbs of the exact products x·y (arrays of int64 in [0, 2^63), broadcast)."""
    x = np.asarray(x).astype(np.uint64, copy=False)
    y = np.asarray(y).astype(np.uint64, copy=False)
    x1, x0 = x >> _SHIFT, x & _MASK
    y1, y0 = y >> _SHIFT, y & _MASK
    mid = x1 * y0 + x0 * y1
    p00 = x0 * y0
    low = p00 + (mid << _SHIFT)
    high = x1 * y1 + (mid >> _SHIFT) + (low < p00).astype(np.uint64)
    return high, low


def products_ge(a: ArrayLike, b: ArrayLike, c: ArrayLike, e: ArrayLike) -> np.ndarray:
    """a·b ≥ c·e exactly, elementwise (all non-negative int64 below 2^63, broadcast)."""
    h1, l1 = mul_wide(a, b)
    h2, l2 = mul_wide(c, e)
    ge: np.ndarray = (h1 > h2) | ((h1 == h2) & (l1 >= l2))
    return ge


def products_gt(a: ArrayLike, b: ArrayLike, c: ArrayLike, e: ArrayLike) -> np.ndarray:
    """a·b > c·e exactly, elementwise (as :func:`products_ge`)."""
    h1, l1 = mul_wide(a, b)
    h2, l2 = mul_wide(c, e)
    gt: np.ndarray = (h1 > h2) | ((h1 == h2) & (l1 > l2))
    return gt
