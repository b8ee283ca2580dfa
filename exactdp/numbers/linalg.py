r"""Exact dense rational matrices in integer form, for vectorized pairwise computations.

A rational kernel is stored, per row, as an integer numerator vector ``A[i]`` and that row's own
positive denominator ``d[i]`` (the lcm of the row's denominators): ``K[i][k] = A[i][k] / d[i]``.
Pairwise quantities then become integer arithmetic by cross-multiplication, e.g. for γ = g/h,

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,d_j A_{ik} - g\,d_i A_{jk})_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j`` (DESIGN.md, Speed).  A per-row denominator avoids
the blow-up of one common denominator for unstructured kernels.

Fixed-width arithmetic is used only under a *proven* bound on every intermediate magnitude: with
``B = max(g, h) · max_den · max_num`` bounding each product term,

* ``B < 2**31``  — products in int32, row sums accumulated in int64 (needs ``M·B < 2**63``);
* ``M·B < 2**63`` — products and sums in int64;
* otherwise numpy object arrays of Python ints carry the very same formulas (exact, slower).

Floats never appear.  :func:`fixed_width` is the single place where the bounds are decided.
"""

from __future__ import annotations

from math import lcm

import numpy as np
from flint import fmpq, fmpq_mat, fmpz_mat

INT32_LIMIT = 2**31
INT64_LIMIT = 2**63
INT64_SAFE = 2**62  # kept for callers that want one bit of headroom


def fixed_width(bound: int):
    """The narrowest exact numpy dtype for integers of magnitude ``< bound`` (object if none)."""
    if bound < INT32_LIMIT:
        return np.int32
    if bound < INT64_LIMIT:
        return np.int64
    return object


class IntRows:
    """Rows ``A[i] / d[i]`` with non-negative integer ``A`` (int64 or object) and positive integer ``d``.

    Build it with :meth:`from_fmpq_rows` (what :meth:`exactdp.Kernel.int_rows` does, once per
    kernel) or directly from integer numerators and denominators.
    """

    __slots__ = ("A", "d", "max_num", "max_den", "_views")

    def __init__(self, A, d):
        nums = [[int(v) for v in row] for row in A] if not isinstance(A, np.ndarray) else A
        dens = [int(v) for v in d]
        if isinstance(nums, np.ndarray) and nums.dtype != object:
            self.max_num = int(np.abs(nums).max()) if nums.size else 0
        else:
            self.max_num = max((abs(int(x)) for r in nums for x in r), default=0)
        self.max_den = max(dens, default=1)
        dtype = np.int64 if max(self.max_num, self.max_den) < INT64_LIMIT else object
        self.A = np.array(nums, dtype=dtype)
        self.d = np.array(dens, dtype=dtype)
        self._views: dict = {}

    @classmethod
    def from_fmpq_rows(cls, rows) -> "IntRows":
        """From rows of ``fmpq``: each row's numerators over the lcm of its denominators (in C, by flint)."""
        M = len(rows[0])
        entries, dens = [], []
        for row in rows:
            num, den = fmpq_mat(1, M, list(row)).numer_denom()
            entries.extend(num.entries())
            dens.append(int(den))
        flat = [int(v) for v in entries]
        big = max(max(flat, default=0), max(dens)) >= INT64_LIMIT
        A = np.array(flat, dtype=object if big else np.int64).reshape(len(rows), M)
        return cls(A, dens)

    @property
    def shape(self) -> tuple[int, int]:
        return self.A.shape

    def as_dtype(self, dtype):
        """``(A, d)`` converted to ``dtype`` (cached); the caller has proven the values fit."""
        if self.A.dtype == dtype:
            return self.A, self.d
        key = np.dtype(dtype).str
        if key not in self._views:
            self._views[key] = (self.A.astype(dtype), self.d.astype(dtype))
        return self._views[key]

    def to_fmpq_rows(self) -> list[list[fmpq]]:
        """The rational entries back (for tests and for fallbacks)."""
        return [[fmpq(int(a), int(dx)) for a in row] for row, dx in zip(self.A, self.d)]


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


def _hockey_stick_dtypes(R: IntRows, g: int, h: int):
    """(product dtype, sum dtype, bound on the sums) for the pairwise E_{g/h} numerators.

    Each term h d_j A_ik − g d_i A_jk is a difference of two non-negative products below
    B = max(g, h) · max_den · max_num, so its magnitude is below B and a row sum below M·B.
    """
    B = max(g, h, 1) * max(R.max_den, 1) * max(R.max_num, 1)
    M = R.shape[1]
    if M * B >= INT64_LIMIT:
        return object, object, M * B
    return fixed_width(B), np.int64, M * B


def pairwise_hockey_stick_numerators(R: IntRows, g: int, h: int, i: int, start: int = 0):
    r"""``num[j'] = Σ_k (h d_j A_ik − g d_i A_jk)_+`` for the partner rows ``j = start + j'``.

    ``E_{g/h}(K_i‖K_j) = num[j'] / (h d_i d_j)``.  Exact: fixed width only under the bound of
    :func:`_hockey_stick_dtypes`.
    """
    prod, acc, _ = _hockey_stick_dtypes(R, g, h)
    A, d = R.as_dtype(prod)
    part, dpart = A[start:], d[start:]
    diff = np.multiply((dpart * h)[:, None], A[i])
    diff -= part * (d[i] * g) if prod is object else np.multiply(part, d[i] * g, dtype=prod)
    np.maximum(diff, 0, out=diff)
    return diff.sum(axis=1, dtype=acc)


def max_pairwise_hockey_stick(R: IntRows, g: int, h: int, *, symmetric: bool = False):
    r"""max over ordered pairs i ≠ j of E_{g/h}(K_i‖K_j), exactly, with the first maximizing pair.

    Returns ``(num, den, i, j)`` (Python ints) with the maximum equal to ``num/den``.  With
    ``symmetric=True`` (valid for γ = 1, where E_1 = TV is symmetric) only pairs i < j are visited.
    For each row i the partner maximizing ``num_j / (h d_i d_j)`` is the one maximizing ``num_j / d_j``,
    compared by cross-multiplication (products below ``M·B·max_den``).
    """
    N, M = R.shape
    prod, acc, sum_bound = _hockey_stick_dtypes(R, g, h)
    A, d = R.as_dtype(prod)
    hd = d * h if prod is object else np.multiply(d, h, dtype=prod)
    cmp_dtype = np.int64 if sum_bound * max(R.max_den, 1) < INT64_LIMIT else object
    d_cmp = d.astype(cmp_dtype) if d.dtype != cmp_dtype else d
    buf = np.empty((N, M), dtype=prod)
    tmp = np.empty((N, M), dtype=prod)
    best_num, best_den, best = 0, 1, (0, 1)
    for i in range(N):
        start = i + 1 if symmetric else 0
        if start >= N:
            break
        n = N - start
        diff, other = buf[:n], tmp[:n]
        np.multiply(hd[start:, None], A[i], out=diff)
        np.multiply(A[start:], d[i] * g, out=other)
        diff -= other
        np.maximum(diff, 0, out=diff)
        num = diff.sum(axis=1, dtype=acc)
        if not symmetric:
            num[i] = 0  # E_γ(K_i‖K_i) is not a pair of distinct inputs
        if num.dtype != cmp_dtype:
            num = num.astype(cmp_dtype)
        j = argmax_fraction(num, d_cmp[start:])
        n_j, den_j = int(num[j]), h * int(d[i]) * int(d[start + j])
        if n_j * best_den > best_num * den_j:
            best_num, best_den, best = n_j, den_j, (i, start + j)
    return best_num, best_den, best[0], best[1]


def column_extremes(R: IntRows):
    """Per column y, the row indices of max_x and min_x of A[x][y]/d[x], exactly and vectorized.

    Returns ``(argmax, argmin)``, integer arrays of length M (first index on ties).  The
    cross-products are below ``max_num · max_den``.
    """
    N, M = R.shape
    dtype = np.int64 if R.max_num * R.max_den < INT64_LIMIT else object
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


def column_sums_scaled(R: IntRows) -> tuple[list[int], int]:
    """``(T, L)`` with Σ_x A[x][y]/d[x] = T[y]/L exactly for every column y (L = lcm of the d[x]).

    Rows sharing a denominator are summed first in fixed width (``N·max_num < 2**63``), then the
    groups are combined over L in a flint ``fmpz_mat`` product (multi-limb integers, in C).
    """
    d = [int(v) for v in R.d]
    order = sorted(range(len(d)), key=lambda x: d[x])
    ds = [d[x] for x in order]
    starts = [k for k in range(len(ds)) if k == 0 or ds[k] != ds[k - 1]]
    if R.A.dtype != object and R.shape[0] * R.max_num < INT64_LIMIT:
        P = np.add.reduceat(R.A[np.asarray(order)], starts, axis=0).tolist()
    else:
        A = R.A[np.asarray(order)]
        bounds = [*starts, len(ds)]
        P = [[int(v) for v in A[bounds[k]:bounds[k + 1]].sum(axis=0)] for k in range(len(starts))]
    D = [ds[k] for k in starts]
    L = lcm(*D)
    T = fmpz_mat(1, len(D), [L // x for x in D]) * fmpz_mat(P)
    return [int(v) for v in T.entries()], L


def column_sums(R: IntRows) -> list:
    """Σ_x A[x][y]/d[x] for every column y, as exact ``fmpq`` values."""
    T, L = column_sums_scaled(R)
    return [fmpq(v, L) for v in T]
