r"""Exact dense rational matrices in integer form, for vectorized pairwise computations.

A rational kernel is stored, per row, as an integer numerator vector ``A[i]`` and that row's own
positive denominator ``d[i]``: ``K[i][k] = A[i][k] / d[i]``.  Pairwise quantities then become integer
arithmetic by cross-multiplication, e.g. for γ = g/h,

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,A_{ik} d_j - g\,A_{jk} d_i)_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j``.  A per-row denominator avoids the blow-up of one
common denominator for unstructured kernels (DESIGN.md, Speed).  int64 is used only when a proven bound
on every intermediate magnitude is below 2**62; otherwise numpy object arrays of Python ints carry the
same formulas exactly.  Floats never appear.
"""

from __future__ import annotations

from math import lcm

import numpy as np
from flint import fmpq

INT64_SAFE = 2**62


class IntRows:
    """Rows ``A[i] / d[i]`` with integer ``A`` (int64 or object) and positive integer ``d``."""

    __slots__ = ("A", "d", "max_num", "max_den", "_exact_cols")

    def __init__(self, rows: tuple[tuple[fmpq, ...], ...]):
        dens = [lcm(*(int(v.q) for v in row)) for row in rows]
        nums = [[int(v.p) * (den // int(v.q)) for v in row] for row, den in zip(rows, dens)]
        self.max_num = max((abs(x) for r in nums for x in r), default=0)
        self.max_den = max(dens, default=1)
        dtype = np.int64 if max(self.max_num, self.max_den) < 2**31 else object
        self.A = np.array(nums, dtype=dtype)
        self.d = np.array(dens, dtype=dtype)

    @property
    def shape(self) -> tuple[int, int]:
        return self.A.shape

    def safe_dtype(self, factor: int, terms: int) -> type:
        """int64 if every intermediate of the pairwise formulas is provably below 2**62, else object.

        The bound covers ``terms`` summed products ``factor * A[i][k] * d[j]`` and the pair
        denominators ``factor * d[i] * d[j]``.
        """
        bound = factor * self.max_den * max(max(self.max_num, 1) * max(terms, 1), self.max_den)
        return np.int64 if bound < INT64_SAFE else object

    def as_dtype(self, dtype):
        if self.A.dtype == dtype:
            return self.A, self.d
        return self.A.astype(dtype), self.d.astype(dtype)


def argmax_fraction(nums: np.ndarray, dens: np.ndarray) -> int:
    """Index of the largest fraction ``nums[i]/dens[i]`` (dens > 0), exactly, first one on ties.

    A tournament of exact cross-multiplications; the caller guarantees the products fit the dtype
    (or passes object arrays).
    """
    idx = np.arange(len(nums))
    n, d = nums, dens
    while len(idx) > 1:
        if len(idx) % 2:
            idx = np.append(idx, idx[-1])
            n = np.append(n, n[-1:])
            d = np.append(d, d[-1:])
        a, b = slice(0, None, 2), slice(1, None, 2)
        keep_a = n[a] * d[b] >= n[b] * d[a]
        idx = np.where(keep_a, idx[a], idx[b])
        n = np.where(keep_a, n[a], n[b])
        d = np.where(keep_a, d[a], d[b])
    return int(idx[0])


def pairwise_hockey_stick_numerators(R: IntRows, g: int, h: int, i: int):
    r"""Numerators and denominators of E_{g/h}(K_i ‖ K_j) for every j, exactly.

    Returns ``(num, den)`` with ``E_{g/h}(K_i‖K_j) = num[j] / den[j]``,
    ``num[j] = Σ_k (h A_ik d_j − g A_jk d_i)_+`` and ``den[j] = h d_i d_j``.
    """
    M = R.shape[1]
    dtype = R.safe_dtype(2 * max(g, h), M)
    A, d = R.as_dtype(dtype)
    if dtype is object:
        g_, h_ = g, h
    else:
        g_, h_ = np.int64(g), np.int64(h)
    diff = (h_ * d[:, None]) * A[i][None, :] - (g_ * d[i]) * A
    num = np.where(diff > 0, diff, 0).sum(axis=1)
    den = h_ * d[i] * d
    return num, den


def column_extremes(R: IntRows):
    """Per column y, the row indices of max_x and min_x of A[x][y]/d[x], exactly and vectorized.

    Returns ``(argmax, argmin)``, integer arrays of length M (first index on ties).
    """
    N, M = R.shape
    dtype = np.int64 if R.max_num * R.max_den < INT64_SAFE and R.A.dtype != object else object
    A, d = R.as_dtype(dtype)
    results = []
    for sense in (1, -1):
        idx = np.tile(np.arange(N)[:, None], (1, M))
        num = A
        den = np.tile(d[:, None], (1, M))
        while idx.shape[0] > 1:
            if idx.shape[0] % 2:
                idx = np.vstack([idx, idx[-1:]])
                num = np.vstack([num, num[-1:]])
                den = np.vstack([den, den[-1:]])
            lhs = num[0::2] * den[1::2]
            rhs = num[1::2] * den[0::2]
            keep = lhs >= rhs if sense == 1 else lhs <= rhs
            idx = np.where(keep, idx[0::2], idx[1::2])
            num = np.where(keep, num[0::2], num[1::2])
            den = np.where(keep, den[0::2], den[1::2])
        results.append(idx[0])
    return results[0], results[1]


def column_sums(R: IntRows) -> list:
    """Σ_x A[x][y]/d[x] for every column y, as exact ``fmpq`` values.

    Rows are grouped by denominator (integer sums inside a group), then the groups are combined over
    the least common multiple of the distinct denominators with Python integers.
    """
    from flint import fmpq

    d = [int(v) for v in R.d]
    groups: dict[int, list[int]] = {}
    for x, dx in enumerate(d):
        groups.setdefault(dx, []).append(x)
    L = lcm(*groups)
    M = R.shape[1]
    total = [0] * M
    for dx, members in groups.items():
        part = R.A[members].sum(axis=0) if R.A.dtype != object else R.A[members].sum(axis=0)
        w = L // dx
        for y in range(M):
            total[y] += int(part[y]) * w
    return [fmpq(v, L) for v in total]
