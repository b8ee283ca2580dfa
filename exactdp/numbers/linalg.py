r"""Exact dense rational matrices in integer form, for vectorized pairwise computations.

A rational kernel is stored, per row, as an integer numerator vector ``A[i]`` and that row's own
positive denominator ``d[i]`` (the lcm of the row's denominators): ``K[i][k] = A[i][k] / d[i]``.
Pairwise quantities then become integer arithmetic by cross-multiplication, e.g. for γ = g/h,

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,d_j A_{ik} - g\,d_i A_{jk})_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j`` (DESIGN.md, Speed).  A per-row denominator avoids
the blow-up of one common denominator for unstructured kernels.

Fixed-width arithmetic is used only under a *proven* bound on every intermediate magnitude: with
``B = max(g, h) · max_den · max_num`` bounding each product term,

* ``B < 2**31``  — products in int32, row sums in int32 too when ``M·B < 2**31``, else in int64;
* ``M·B < 2**63`` — products and sums in int64;
* otherwise numpy object arrays of Python ints carry the very same formulas (exact, slower).

Maxima of fractions a/b with b ≤ D are taken on exact integer *order keys* ⌊a·2^k/b⌋ with 2^k ≥ D²
(:func:`order_keys`, :func:`fixed_point`): distinct fractions get distinct keys in the same order, so
numpy's argmax/argmin/lexsort decide exactly; when the key bound fails, a tournament of exact
cross-multiplications does the same work.  Every function states the bound it checks before choosing
int32/int64; floats never appear.
"""

from __future__ import annotations

from math import lcm

import numpy as np
from flint import fmpq, fmpq_mat, fmpz_mat

INT32_LIMIT = 2**31
INT64_LIMIT = 2**63


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

    __slots__ = ("A", "_views", "d", "max_den", "max_num")

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
    def from_fmpq_rows(cls, rows) -> IntRows:
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
    return fixed_width(B), fixed_width(M * B), M * B


def order_keys(nums: np.ndarray, dens: np.ndarray, num_bound: int, den_bound: int):
    r"""int64 keys whose order is exactly the order of the fractions ``nums/dens``, or None.

    With 2^k ≥ den_bound² (k = 2·bitlen(den_bound)): two different fractions a/b > a'/b' with
    b, b' ≤ den_bound differ by at least 1/(b b') ≥ 2^-k, so ⌊a·2^k/b⌋ > ⌊a'·2^k/b'⌋; equal fractions get
    equal keys.  Returns None unless ``num_bound · 2^k < 2**63`` (then int64 is exact).
    """
    k = 2 * max(den_bound, 1).bit_length()
    if nums.dtype == object or dens.dtype == object or (max(num_bound, 1) << k) >= INT64_LIMIT:
        return None
    return np.left_shift(nums.astype(np.int64), k) // dens.astype(np.int64)


def max_pairwise_hockey_stick(R: IntRows, g: int, h: int, *, symmetric: bool = False,
                              block_elems: int = 1 << 16):
    r"""max over ordered pairs i ≠ j of E_{g/h}(K_i‖K_j), exactly, with the first maximizing pair.

    Returns ``(num, den, i, j)`` (Python ints) with the maximum equal to ``num/den``.  With
    ``symmetric=True`` (valid for γ = 1, where E_1 = TV is symmetric) only pairs i < j are visited.
    Rows i are processed in blocks of about ``block_elems`` numbers (a 3-d broadcast), which removes
    the per-row interpreter overhead on small kernels.  For each row i the partner maximizing
    ``num_j / (h d_i d_j)`` is the one maximizing ``num_j / d_j`` (:func:`order_keys`, or exact
    cross-multiplication when the key bound fails); rows are then compared with Python integers.
    """
    N, M = R.shape
    prod, acc, sum_bound = _hockey_stick_dtypes(R, g, h)
    A, d = R.as_dtype(prod)
    if prod is object:
        hd, gd = d * h, d * g
    else:
        hd, gd = np.multiply(d, h, dtype=prod), np.multiply(d, g, dtype=prod)
    b = max(1, min(N, block_elems // max(N * M, 1)))
    buf = np.empty((b, N, M), dtype=prod)
    tmp = np.empty((b, N, M), dtype=prod)
    cmp_dtype = np.int64 if sum_bound * max(R.max_den, 1) < INT64_LIMIT else object
    # comparing two rows' winners num/(h d_i d_j) cross-multiplies a sum with h·max_den²
    row_dtype = np.int64 if sum_bound * h * max(R.max_den, 1) ** 2 < INT64_LIMIT else object
    d_cmp = d.astype(cmp_dtype)
    best_num, best_den, best = 0, 1, (0, 1)
    for i0 in range(0, N, b):
        i1 = min(N, i0 + b)
        nb, start = i1 - i0, (i0 + 1 if symmetric else 0)
        if start >= N:
            break
        diff, other = buf[:nb, : N - start], tmp[:nb, : N - start]
        np.multiply(hd[None, start:, None], A[i0:i1, None, :], out=diff)  # h d_j A_ik
        np.multiply(gd[i0:i1, None, None], A[None, start:, :], out=other)  # g d_i A_jk
        diff -= other
        np.maximum(diff, 0, out=diff)
        num = diff.sum(axis=2, dtype=acc)  # num[r, j'] for i = i0 + r, j = start + j'
        jj, ii = np.arange(start, N)[None, :], np.arange(i0, i1)[:, None]
        num[(jj <= ii) if symmetric else (jj == ii)] = -1  # not a pair of distinct inputs (or seen)
        keys = order_keys(num, d[start:][None, :], sum_bound, R.max_den) if acc is not object else None
        if keys is not None:
            js = keys.argmax(axis=1)
        else:
            num_c = num.astype(cmp_dtype)
            js = np.array([argmax_fraction(num_c[r], d_cmp[start:]) for r in range(nb)], dtype=np.intp)
        # the block's best pair: a tournament over its rows' winners num / (h d_i d_j)
        n_r = num[np.arange(nb), js].astype(row_dtype)
        den_r = (d[i0:i1].astype(row_dtype) * h) * d[start + js].astype(row_dtype)
        r = argmax_fraction(n_r, den_r)
        n_j = int(n_r[r])
        if n_j < 0:
            continue  # no pair in this block (symmetric case, last rows)
        den_j = int(den_r[r])
        if n_j * best_den > best_num * den_j:
            best_num, best_den, best = n_j, den_j, (i0 + r, start + int(js[r]))
    return best_num, best_den, best[0], best[1]


def fixed_point(R: IntRows):
    r"""``(F, k)`` with F[x][y] = ⌊A[x][y]·2^k / d[x]⌋ in int64, or None when no k is proven safe.

    k = 62 − max(bitlen(max_num), bitlen(N)) makes A·2^k and the column sums Σ_x F[x][y] ≤ N·2^k fit
    in int64 (kernel entries are ≤ 1).  When moreover 2^k ≥ max_den², F is an exact order embedding
    (see :func:`order_keys`): argmax/argmin of F are the exact ones.  Each entry then lies in
    [F/2^k, (F+1)/2^k), which brackets sums for exact candidate filtering.
    """
    if "fixed_point" in R._views:
        return R._views["fixed_point"]
    N, _ = R.shape
    out = None
    if R.A.dtype != object and R.max_num <= R.max_den:
        k = 62 - max(R.max_num.bit_length(), N.bit_length())
        if k >= 2 * max(R.max_den, 1).bit_length():
            out = np.left_shift(R.A, k) // R.d[:, None], k
    R._views["fixed_point"] = out
    return out


def _transposed(R: IntRows, F: np.ndarray) -> np.ndarray:
    """F transposed and contiguous (cached): per-column reductions then run along rows of memory."""
    if "fixed_point_T" not in R._views:
        R._views["fixed_point_T"] = np.ascontiguousarray(F.T)
    return R._views["fixed_point_T"]


def column_extremes(R: IntRows):
    """Per column y, the row indices of max_x and min_x of A[x][y]/d[x], exactly and vectorized.

    Returns ``(argmax, argmin)``, integer arrays of length M (first index on ties): by the exact order
    keys of :func:`fixed_point`, else by a tournament of cross-products (below ``max_num · max_den``).
    """
    fp = fixed_point(R)
    if fp is not None:
        Ft = _transposed(R, fp[0])
        return Ft.argmax(axis=1), Ft.argmin(axis=1)
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


def column_sums_scaled(R: IntRows, cols=None) -> tuple[list[int], int]:
    """``(T, L)`` with Σ_x A[x][y]/d[x] = T[i]/L exactly for the columns y = cols[i] (default: all),
    L = lcm of the d[x].

    Rows sharing a denominator are summed first in fixed width (``N·max_num < 2**63``), then the
    groups are combined over L in a flint ``fmpz_mat`` product (multi-limb integers, in C).
    """
    d = [int(v) for v in R.d]
    order = sorted(range(len(d)), key=lambda x: d[x])
    ds = [d[x] for x in order]
    starts = [k for k in range(len(ds)) if k == 0 or ds[k] != ds[k - 1]]
    A = R.A[np.asarray(order)]
    if cols is not None:
        A = A[:, np.asarray(cols, dtype=np.intp)]
    if R.A.dtype != object and R.shape[0] * R.max_num < INT64_LIMIT:
        P = np.add.reduceat(A, starts, axis=0).tolist()
    else:
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


def profile_front(R: IntRows):
    r"""The exact Pareto front of the points (K_j(A), K_i(A)) over ordered pairs i ≠ j and top-k sets A.

    E_γ(K_i‖K_j) = max_A K_i(A) − γK_j(A) is attained at a top-k set of the likelihood ratio
    K_i(y)/K_j(y) = (A_iy/A_jy)·(d_j/d_i), so for fixed (i, j) the order is that of A_iy/A_jy.  The
    privacy profile δ(γ) = max over these points (Q, P) of P − γQ (γ ≥ 0) only needs the points not
    dominated by another with Q' ≤ Q and P' ≥ P.  Everything runs on exact int64 order keys
    (:func:`order_keys`; needs max_den < 2^20), vectorized over partner rows.

    Returns a list of ``(QA, dQ, PA, dP)`` integer tuples (Q = QA/dQ, P = PA/dP), sorted by Q ascending
    with P strictly increasing, or None when the int64 bound fails (the caller falls back to fmpq).
    """
    N = R.shape[0]
    k = 2 * max(R.max_den, 1).bit_length()
    if R.A.dtype == object or R.max_num > R.max_den or (max(R.max_den, 1) << k) >= INT64_LIMIT:
        return None
    A, d = R.A, R.d
    big = np.iinfo(np.int64).max
    fronts = []
    for i in range(N):
        js = np.array([j for j in range(N) if j != i], dtype=np.intp)
        if not len(js):
            continue
        Aj = A[js]
        Ai = np.broadcast_to(A[i], Aj.shape)
        ratio = np.where(Aj > 0, np.left_shift(Ai, k) // np.maximum(Aj, 1), big)  # A_jy = 0: first
        order = np.argsort(-ratio, axis=1, kind="stable")
        Pc = np.cumsum(np.take_along_axis(Ai, order, axis=1), axis=1)
        Qc = np.cumsum(np.take_along_axis(Aj, order, axis=1), axis=1)
        dP = np.broadcast_to(d[i], Pc.shape)
        dQ = np.broadcast_to(d[js][:, None], Qc.shape)
        fronts.append(_pareto(Qc.ravel(), dQ.ravel(), Pc.ravel(), dP.ravel(), k))
    empty_set = (np.array([0]), np.array([1]), np.array([0]), np.array([1]))  # the point (Q, P) = (0, 0)
    fronts.append(empty_set)
    Qa, dq, Pa, dp = _pareto(*(np.concatenate([f[t] for f in fronts]).astype(np.int64) for t in range(4)), k)
    return [(int(a), int(b), int(c), int(e)) for a, b, c, e in zip(Qa, dq, Pa, dp)]


def _pareto(Qa, dq, Pa, dp, k: int):
    """Points (Qa/dq, Pa/dp) not dominated (Q' ≤ Q and P' ≥ P), sorted by Q; exact int64 keys."""
    kq, kp = np.left_shift(Qa, k) // dq, np.left_shift(Pa, k) // dp
    order = np.lexsort((-kp, kq))  # Q ascending, then P descending
    kp_sorted = kp[order]
    prev = np.maximum.accumulate(kp_sorted)
    keep = np.empty(len(order), dtype=bool)
    keep[0] = True
    keep[1:] = kp_sorted[1:] > prev[:-1]
    sel = order[keep]
    return Qa[sel], dq[sel], Pa[sel], dp[sel]
