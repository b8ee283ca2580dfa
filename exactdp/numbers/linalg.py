r"""Exact dense rational matrices in integer form, for vectorized pairwise computations.

A rational kernel is stored, per row, as an integer numerator vector ``A[i]`` and that row's own
positive denominator ``d[i]`` (the lcm of the row's denominators): ``K[i][k] = A[i][k] / d[i]``.
Pairwise quantities then become integer arithmetic by cross-multiplication, e.g. for γ = g/h,

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,d_j A_{ik} - g\,d_i A_{jk})_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j`` (docs/design.md, Speed).  A per-row denominator avoids
the blow-up of one common denominator for unstructured kernels.

Fixed-width arithmetic is used only under a *proven* bound on every intermediate magnitude: with
``B = max(g, h) · max_den · max_num`` bounding each product term,

* ``B < 2**31``  — products in int32, row sums in int32 too when ``M·B < 2**31``, else in int64;
* ``M·B < 2**63`` — products and sums in int64;
* otherwise numpy object arrays of Python ints carry the very same formulas (exact, slower).

Maxima of fractions a/b with b ≤ D are taken on exact integer *order keys* ⌊a·2^k/b⌋ with 2^k ≥ D²
(:func:`order_keys`): distinct fractions get distinct keys in the same order, so numpy's
argmax/argmin/lexsort decide exactly; when the key bound fails, a tournament of exact
cross-multiplications does the same work.  Every function states the bound it checks before choosing
int32/int64.  Where no fixed width is proven for the whole matrix (large denominators), the column extremes,
the column ratios and the pairwise E_γ maximum take the float64 filter of :mod:`exactdp.numbers.float_filter`:
floats with a proven error bound discard what cannot be the maximum, and the few candidates are decided in
integers, so no float reaches a result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flint import fmpq, fmpq_mat

from exactdp.numbers import float_filter
from exactdp.numbers.fraction_sum import product_tree, tree_sum

INT32_LIMIT = 2**31
INT64_LIMIT = 2**63


def fixed_width(bound: int) -> Any:
    """The narrowest exact numpy dtype for integers of magnitude ``< bound`` (object if none)."""
    if bound < INT32_LIMIT:
        return np.int32
    if bound < INT64_LIMIT:
        return np.int64
    return object


def _frozen(value: Any) -> Any:
    """``value`` with every numpy array in it made read-only (in tuples and lists; a dict becomes a
    :class:`_Views`), so a cached view of a kernel cannot be written through."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, (tuple, list)):
        for v in value:
            _frozen(v)
    elif isinstance(value, dict) and not isinstance(value, _Views):
        return _Views(value)
    return value


class _Views(dict[Any, Any]):
    """The caches of an :class:`IntRows`: every array stored here is read-only (a kernel is a value)."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__()
        for k, v in dict(items).items():
            self[k] = v

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, _frozen(value))

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]


class IntRows:
    """Rows ``A[i] / d[i]`` with non-negative integer ``A`` (int64 or object) and positive integer ``d``.

    Build it with :meth:`from_fmpq_rows` (what :meth:`exactdp.Kernel.int_rows` does, once per
    kernel) or directly from integer numerators and denominators.  ``A``, ``d`` and every cached view are
    read-only numpy arrays: a kernel is a frozen value, and its integer form is shared by every measure.
    """

    __slots__ = ("A", "_views", "d", "max_den", "max_num")

    def __init__(self, A: Any, d: Any) -> None:
        nums = [[int(v) for v in row] for row in A] if not isinstance(A, np.ndarray) else A
        dens = [int(v) for v in d]
        if isinstance(nums, np.ndarray) and nums.dtype != object:
            self.max_num = int(np.abs(nums).max()) if nums.size else 0
        else:
            self.max_num = max((abs(int(x)) for r in nums for x in r), default=0)
        self.max_den = max(dens, default=1)
        dtype = np.int64 if max(self.max_num, self.max_den) < INT64_LIMIT else object
        self.A = _frozen(np.array(nums, dtype=dtype))
        self.d = _frozen(np.array(dens, dtype=dtype))
        self._views: dict[Any, Any] = _Views()

    @classmethod
    def from_fmpq_rows(cls, rows: Any) -> IntRows:
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
        shape: tuple[int, int] = self.A.shape
        return shape

    def as_dtype(self, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(A, d)`` converted to ``dtype`` (cached); the caller has proven the values fit."""
        if self.A.dtype == dtype:
            return self.A, self.d
        key = np.dtype(dtype).str
        if key not in self._views:
            self._views[key] = (self.A.astype(dtype), self.d.astype(dtype))
        views: tuple[np.ndarray, np.ndarray] = self._views[key]
        return views

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


def _hockey_stick_dtypes(R: IntRows, g: int, h: int) -> tuple[Any, Any, int]:
    """(product dtype, sum dtype, bound on the sums) for the pairwise E_{g/h} numerators.

    Each term h d_j A_ik − g d_i A_jk is a difference of two non-negative products below
    B = max(g, h) · max_den · max_num, so its magnitude is below B and a row sum below M·B.
    """
    B = max(g, h, 1) * max(R.max_den, 1) * max(R.max_num, 1)
    M = R.shape[1]
    if M * B >= INT64_LIMIT:
        return object, object, M * B
    return fixed_width(B), fixed_width(M * B), M * B


def order_keys(nums: np.ndarray, dens: np.ndarray, num_bound: int, den_bound: int) -> np.ndarray | None:
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
                              block_elems: int = 1 << 16) -> tuple[int, int, int, int]:
    r"""max over ordered pairs i ≠ j of E_{g/h}(K_i‖K_j), exactly, with the first maximizing pair.

    Returns ``(num, den, i, j)`` (Python ints) with the maximum equal to ``num/den``.  With
    ``symmetric=True`` (valid for γ = 1, where E_1 = TV is symmetric) only pairs i < j are visited.
    Rows i are processed in blocks of about ``block_elems`` numbers (a 3-d broadcast), which removes
    the per-row interpreter overhead on small kernels.  For each row i the partner maximizing
    ``num_j / (h d_i d_j)`` is the one maximizing ``num_j / d_j`` (:func:`order_keys`); rows are then
    compared with Python integers.  Where those int64 keys are not proven (larger denominators) and the rows
    are int64, the float64 filter :func:`exactdp.numbers.float_filter.max_pairwise_hockey_stick` gives the same
    value and pair; object rows cross-multiply Python integers.
    """
    N, M = R.shape
    prod, acc, sum_bound = _hockey_stick_dtypes(R, g, h)
    keys_ok = acc is not object and (sum_bound << 2 * max(R.max_den, 1).bit_length()) < INT64_LIMIT
    if not keys_ok and float_filter.usable(R):  # no exact int64 keys: the float filter, exact on the candidates
        fast: tuple[int, int, int, int] | None = float_filter.max_pairwise_hockey_stick(
            R, g, h, symmetric=symmetric, block_elems=block_elems)
        if fast is not None:
            return fast
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


def column_extreme(R: IntRows, sense: str = "max") -> np.ndarray:
    """Per column y, the first row index of the exact max (``sense="max"``) or min (``"min"``) of A[x][y]/d[x],
    vectorized (cached on ``R``).

    int64 rows: the float64 filter of :func:`exactdp.numbers.float_filter.column_argext` (exact: floats only
    discard rows that cannot be extreme; ties go to a 128-bit tournament); object rows (numbers beyond int64): a
    tournament of exact cross-products in Python integers.
    """
    key = "col_arg" + sense
    if key in R._views:
        known: np.ndarray = R._views[key]
        return known
    if float_filter.usable(R):
        out = float_filter.column_argext(R, sense=sense)
    else:
        out = _object_tournament(R.A, R.d, sense)
    R._views[key] = out
    return out


def column_extremes(R: IntRows) -> tuple[np.ndarray, np.ndarray]:
    """``(argmax, argmin)``: :func:`column_extreme` of both senses (first index on ties)."""
    return column_extreme(R, "max"), column_extreme(R, "min")


def _object_tournament(A: np.ndarray, d: np.ndarray, sense: str) -> np.ndarray:
    """Per column, the first row of the exact max (min) of A[x]/d[x] by cross-products in Python integers."""
    A = A.astype(object)
    N, M = A.shape
    idx = np.tile(np.arange(N)[:, None], (1, M))
    num = A
    den = np.tile(d.astype(object)[:, None], (1, M))
    while idx.shape[0] > 1:
        if idx.shape[0] % 2:
            idx, num, den = (np.vstack([a, a[-1:]]) for a in (idx, num, den))
        lhs = num[0::2] * den[1::2]
        rhs = num[1::2] * den[0::2]
        keep = lhs >= rhs if sense == "max" else lhs <= rhs
        idx = np.where(keep, idx[0::2], idx[1::2])
        num = np.where(keep, num[0::2], num[1::2])
        den = np.where(keep, den[0::2], den[1::2])
    first: np.ndarray = idx[0].astype(np.intp)
    return first


def _den_groups(R: IntRows) -> tuple[np.ndarray | None, np.ndarray, Any]:
    """Rows grouped by denominator (cached): ``(order, starts, levels)`` with the row order by d (None when
    every denominator differs: no reordering), the first sorted row of each distinct denominator D_g and the
    product tree of the D_g (:func:`exactdp.numbers.fraction_sum.product_tree`): sums
    over the rows become one sum per distinct denominator, over P = Π_g D_g."""
    if "den_groups" in R._views:
        known: tuple[np.ndarray | None, np.ndarray, Any] = R._views["den_groups"]
        return known
    order: np.ndarray | None = np.argsort(R.d, kind="stable")
    ds = R.d[order]
    first = np.r_[True, ds[1:] != ds[:-1]]
    starts = np.flatnonzero(first)
    if len(starts) == len(ds):  # every row its own denominator: no reordering
        order, D = None, R.d
    else:
        D = ds[starts]
    out = (order, starts, product_tree(D))
    R._views["den_groups"] = out
    return out


def column_sums(R: IntRows, cols: Any = None) -> list[fmpq]:
    """Σ_x A[x][y]/d[x] as exact reduced ``fmpq`` for the columns y = cols[i] (default: all).

    Rows sharing a denominator are summed first in fixed width (``N·max_num < 2**63``), then the
    groups are added on the product tree of their denominators (:mod:`exactdp.numbers.fraction_sum`: no lcm of
    all denominators), and each sum is reduced once.  The sums of requested columns are kept on ``R``: later
    calls (another c of ``pml_ratio``, the same candidate columns) reuse them.
    """
    order, starts, levels = _den_groups(R)
    known = R._views.setdefault("column_sums", {})
    ys = list(range(R.shape[1])) if cols is None else [int(y) for y in cols]
    missing = [y for y in ys if y not in known]
    if missing:
        sub = R.A[:, np.asarray(missing, dtype=np.intp)]
        T, P = tree_sum(levels, _group_sums(R, sub if order is None else sub[order], starts))
        known.update(zip(missing, (fmpq(t, P) for t in T)))
    return [known[y] for y in ys]


def _group_sums(R: IntRows, A: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The column sums of ``A`` (rows sorted by denominator) within each denominator group: int64 when
    ``N·max_num < 2**63``, else Python integers."""
    if len(starts) == A.shape[0]:  # one row per denominator
        return A
    if R.A.dtype != object and R.shape[0] * R.max_num < INT64_LIMIT:
        return np.add.reduceat(A, starts, axis=0)
    return np.add.reduceat(A.astype(object), starts, axis=0)


def weighted_row_sum(R: IntRows, rows: Any, cols: Any) -> fmpq:
    """Σ_i A[rows[i]][cols[i]] / d[rows[i]] exactly (reduced ``fmpq``).

    Entries are added per row taken, in int64 (``len·max_num < 2**63``, else Python integers; no sort), then the
    rows' sums on the product tree of their denominators (:mod:`exactdp.numbers.fraction_sum`), and the sum is
    reduced once."""
    rows = np.asarray(rows, dtype=np.intp)
    vals = R.A[rows, cols]
    if R.A.dtype != object and len(vals) * max(R.max_num, 1) < INT64_LIMIT:
        n = np.zeros(R.shape[0], dtype=np.int64)
    else:
        n, vals = np.zeros(R.shape[0], dtype=object), vals.astype(object)
    np.add.at(n, rows, vals)
    taken = np.flatnonzero(n)  # rows adding nothing are left out of the tree
    if not len(taken):
        return fmpq(0)
    T, P = tree_sum(product_tree(R.d[taken]), n[taken])
    return fmpq(T, P)


def max_column_ratio(R: IntRows) -> tuple[int, int, int, int, int] | None:
    r"""max_y max_x A[x][y]/d[x] / min_x A[x][y]/d[x] over the columns with a non-zero entry, exactly.

    Returns ``(num, den, y, x_max, x_min)`` for the first maximizing column (``den = 0``: the first column
    mixing zero and non-zero entries, an infinite ratio), or None when the rows are not int64 (the caller
    loops in fmpq).  The float64 filter (:func:`exactdp.numbers.float_filter.ldp_columns`) keeps the columns
    whose ratio can be the maximum; their exact extremes and ratios (A_hy d_l)/(A_ly d_h) are compared in
    Python integers, the first maximum kept.
    """
    if not float_filter.usable(R):
        return None
    mixed, cols = float_filter.ldp_columns(R)
    if mixed is not None:
        hi = float_filter.column_argext(R, [mixed], sense="max")
        lo = float_filter.column_argext(R, [mixed], sense="min")
        return 1, 0, mixed, int(hi[0]), int(lo[0])
    if not len(cols):
        return None
    xh = float_filter.column_argext(R, cols, sense="max").tolist()
    xl = float_filter.column_argext(R, cols, sense="min").tolist()
    A, d = R.A, R.d
    best = None
    for y, h, low in zip(cols.tolist(), xh, xl):
        num, den = int(A[h, y]) * int(d[low]), int(A[low, y]) * int(d[h])
        if best is None or num * best[1] > best[0] * den:
            best = (num, den, y, h, low)
    return best


def pml_candidates(R: IntRows, cp: int, cq: int) -> tuple[list[int], np.ndarray, np.ndarray] | None:
    r"""``(cols, amax, amin)``: the columns that can attain max_y r_y, r_y = hi_y / (c S_y + (1−Nc) lo_y) with
    c = cp/cq (increasing y, :func:`exactdp.numbers.float_filter.pml_columns`), with the first exact argmax and
    argmin rows of each of them; None when the float route does not apply (object rows, c below 2^-900)."""
    if not float_filter.usable(R):
        return None
    cols = float_filter.pml_columns(R, cp, cq)
    if cols is None:
        return None
    return (cols.tolist(), float_filter.column_argext(R, cols, sense="max"),
            float_filter.column_argext(R, cols, sense="min"))


def profile_front(R: IntRows, *, scale_bits: int = 30) -> list[tuple[int, int, int, int]] | None:
    r"""The vertices of the exact upper hull of the points (K_j(A), K_i(A)) over ordered pairs i ≠ j and
    top-k sets A (with the empty set's point (0, 0)), or None when no int64 route is proven safe.

    E_γ(K_i‖K_j) = max_A K_i(A) − γK_j(A) is attained at a top-k set of the likelihood ratio
    K_i(y)/K_j(y) = (A_iy/A_jy)·(d_j/d_i), so for fixed (i, j) the order is that of A_iy/A_jy.  The
    privacy profile δ(γ) = max over these points (Q, P) of P − γQ (γ ≥ 0) is fixed by the part of their
    upper hull from Q = 0 to the highest point (the upper envelope of the lines P − γQ, in the dual).

    A sweep over the rows i, vectorized over the partners j:

    1. the ratio order of every pair (i, j) by one integer sort per row: when the kernel has at most
       2048 distinct numerators, every fraction a/b of two of them gets its exact rank once
       (:func:`_ratio_ranks`; 16-bit ranks sort by radix), else exact int64 keys ⌊A_iy·2^k/A_jy⌋
       (:func:`order_keys`);
    2. each pair's points are the prefix sums (Pc/d_i, Qc/d_j) in that order;
    3. a point is dropped when it is proven on or below the hull H of the points kept so far: with
       S = 2^s, p = ⌈P·S⌉, q = ⌊Q·S⌋ and the polyline L through the hull vertices moved to
       (⌈X·S⌉, ⌊Y·S⌋) (each moved vertex lies below the concave non-decreasing H, so L ≤ H·S), the test
       p ≤ L(q) implies P ≤ H(Q).  All of p, q, L are ≤ S = 2^s ≤ 2^30, so the cross-multiplied test
       stays below 2^61 in int64;
    4. the few survivors join H in exact rational arithmetic (:func:`upper_hull`).

    Proven bounds checked first: rows with non-negative int64 numerators summing to at most their
    denominator (entries of a stochastic row), ``max_den·2^s < 2^63`` for the fixed-point keys.

    Returns a list of ``(QA, dQ, PA, dP)`` integer tuples (Q = QA/dQ, P = PA/dP): the hull vertices by Q
    ascending (P strictly increasing).
    """
    N, M = R.shape
    if R.A.dtype == object or M * max(R.max_num, 1) >= INT64_LIMIT or (R.A < 0).any():
        return None
    A, d = R.A, R.d
    if N and (A.sum(axis=1) > d).any():
        return None  # not sub-stochastic rows: the fixed-point bound P, Q ≤ 1 is not proven
    s = min(scale_bits, 62 - max(R.max_den, 1).bit_length())
    if s < 1:
        return None
    sort_key = _ratio_sort_keys(A, R.max_num)
    if sort_key is None:
        return None
    hull = [(fmpq(0), fmpq(0))]  # (Q, P): the empty set
    Xc, Yf = _hull_keys(hull, s)
    Lb = _bucket_floor(Xc, Yf, s)
    # int32 for the per-row arrays when prefix sums (≤ d) and the bucket numerators Qc·2^16 stay below 2^31
    narrow = (max(R.max_den, 1) << _BUCKET_BITS) < INT32_LIMIT
    An, dn = R.as_dtype(np.int32) if narrow else (A, d)
    for i in range(N):
        js = np.concatenate([np.arange(i, dtype=np.intp), np.arange(i + 1, N, dtype=np.intp)])
        if not len(js):
            continue
        keys, kind = sort_key(i, js)
        order = np.argsort(keys, axis=1, kind=kind)
        Pc = np.cumsum(An[i][order], axis=1, dtype=An.dtype)
        Qc = np.cumsum(np.take_along_axis(An[js], order, axis=1), axis=1, dtype=An.dtype)
        di = int(d[i])
        # stage 1: buckets b = ⌊Q·2^16⌋ against a table of ⌊L(b·2^(s-16))·d_i/S⌋ (L non-decreasing: a
        # lower bound of L on the bucket), reject when Pc is at most that: one division and one gather
        if Lb is not None:  # s >= _BUCKET_BITS: Qc·2^16 ≤ d_j·2^s and Lb·d_i ≤ 2^s·d_i: below 2^63
            bucket = np.left_shift(Qc, _BUCKET_BITS) // dn[js][:, None]
            keep = Pc > np.right_shift(Lb * di, s).astype(An.dtype)[bucket]  # values ≤ d_i
        else:
            keep = np.ones(Pc.shape, dtype=bool)
        if np.count_nonzero(keep) > len(js):
            # many points on the hull itself (ties: structured kernels): a point inside a run of equal
            # ratios lies on the segment between the run's two ends, which are kept
            ks = np.take_along_axis(keys, order, axis=1)
            keep[:, :-1] &= ks[:, :-1] != ks[:, 1:]
        if keep.any():  # stage 2: the exact polyline test on the few points left
            jj, kk = np.nonzero(keep)
            p = -(np.left_shift(-Pc[jj, kk].astype(np.int64), s) // di)  # ⌈P·2^s⌉
            q = np.left_shift(Qc[jj, kk].astype(np.int64), s) // d[js[jj]]  # ⌊Q·2^s⌋
            keep[jj, kk] = ~_below(p, q, Xc, Yf)
        if not keep.any():
            continue
        jj, kk = np.nonzero(keep)
        pts = _reduce(Qc[jj, kk].astype(np.int64), d[js[jj]], Pc[jj, kk].astype(np.int64),
                      np.full(len(jj), di, dtype=np.int64), R.max_den)
        hull = upper_hull(hull + [(fmpq(int(qa), int(qd)), fmpq(int(pa), int(pd))) for qa, qd, pa, pd in pts])
        Xc, Yf = _hull_keys(hull, s)
        Lb = _bucket_floor(Xc, Yf, s)
    return [(int(Q.p), int(Q.q), int(P.p), int(P.q)) for Q, P in hull]


_RANK_TABLE_MAX = 2048  # distinct numerators for a table of every fraction's rank (4 M entries at most)


def _ratio_sort_keys(A: np.ndarray, max_num: int) -> Any:
    """A function (i, js) -> (keys, sort kind) ordering each row of pairs (i, j) by A_iy/A_jy descending
    (A_jy = 0 first), exactly; None when neither exact route fits int64."""
    V = np.unique(A)
    if len(V) <= _RANK_TABLE_MAX:
        rank = _ratio_ranks(V)
        if rank is not None:
            idx = np.searchsorted(V, A).astype(np.int64)
            nV = len(V)
            flat = rank.ravel()
            kind = "stable" if flat.dtype == np.uint16 else "quicksort"

            def by_rank(i: int, js: np.ndarray) -> tuple[np.ndarray, str]:
                return flat[idx[i][None, :] * nV + idx[js]], kind
            return by_rank
    k = 2 * max(max_num, 1).bit_length()
    if (max(max_num, 1) << k) >= INT64_LIMIT:
        return None
    big = np.iinfo(np.int64).max

    def by_key(i: int, js: np.ndarray) -> tuple[np.ndarray, str]:
        Aj = A[js]
        Ai = np.broadcast_to(A[i], Aj.shape)
        return -np.where(Aj > 0, np.left_shift(Ai, k) // np.maximum(Aj, 1), big), "quicksort"
    return by_key


def _ratio_ranks(V: np.ndarray) -> np.ndarray | None:
    """rank[a, b] for values V[a], V[b]: 0 for the largest fraction V[a]/V[b] (b = 0: +∞), equal fractions
    equal ranks; uint16 when fewer than 2^16 classes.  Exact: keys ⌊a·2^k/b⌋ with 2^k ≥ max(V)² (see
    :func:`order_keys`)."""
    top = max(int(V[-1]), 1)
    k = 2 * top.bit_length()
    if (top << k) >= INT64_LIMIT:
        return None
    a, b = V[:, None].astype(np.int64), V[None, :].astype(np.int64)
    key = np.where(b > 0, np.left_shift(a, k) // np.maximum(b, 1), np.iinfo(np.int64).max)
    _, inv = np.unique(key, return_inverse=True)
    inv = inv.reshape(key.shape)
    rank = inv.max() - inv
    ranks: np.ndarray = rank.astype(np.uint16 if rank.max() < 2**16 else np.int64)
    return ranks


def _hull_keys(hull: Any, s: int) -> tuple[np.ndarray, np.ndarray]:
    """The hull vertices (Q, P) moved to (⌈Q·2^s⌉, ⌊P·2^s⌋) as int64 arrays (see :func:`profile_front`)."""
    Xc = np.array([-((-int(Q.p) << s) // int(Q.q)) for Q, _ in hull], dtype=np.int64)
    Yf = np.array([(int(P.p) << s) // int(P.q) for _, P in hull], dtype=np.int64)
    return Xc, Yf


_BUCKET_BITS = 16


def _bucket_floor(Xc: np.ndarray, Yf: np.ndarray, s: int) -> np.ndarray | None:
    """Integers Lb[b] ≤ L(b·2^(s-16)) for b = 0 … 2^16 (L the polyline of :func:`_below`; Lb ≤ S = 2^s)."""
    if s < _BUCKET_BITS:
        return None  # too coarse a scale: no stage-1 rejection
    x = np.left_shift(np.arange((1 << _BUCKET_BITS) + 1, dtype=np.int64), s - _BUCKET_BITS)
    last = len(Xc) - 1
    m = np.searchsorted(Xc, x, side="right") - 1
    if last == 0:
        return np.full(len(x), Yf[0], dtype=np.int64)
    mm = np.minimum(m, last - 1)
    x0, y0 = Xc[mm], Yf[mm]
    inner = y0 + ((Yf[mm + 1] - y0) * (x - x0)) // (Xc[mm + 1] - x0)
    floors: np.ndarray = np.where(m >= last, Yf[last], inner)
    return floors


def _below(p: Any, q: Any, Xc: np.ndarray, Yf: np.ndarray) -> Any:
    """p ≤ L(q) for the polyline L through (Xc, Yf) (Xc[0] = 0, non-decreasing), constant Yf[-1] beyond."""
    last = len(Xc) - 1
    m = np.searchsorted(Xc, q, side="right") - 1
    if last == 0:
        return p <= Yf[0]
    mm = np.minimum(m, last - 1)
    x0, y0 = Xc[mm], Yf[mm]
    inner = (p - y0) * (Xc[mm + 1] - x0) <= (Yf[mm + 1] - y0) * (q - x0)
    return np.where(m >= last, p <= Yf[last], inner)


def _reduce(Qa: np.ndarray, dq: np.ndarray, Pa: np.ndarray, dp: np.ndarray, max_den: int) -> Any:
    """Many candidate points: first their exact Pareto front (int64 order keys) when proven safe."""
    k = 2 * max(max_den, 1).bit_length()
    if len(Qa) > 256 and (max(max_den, 1) << k) < INT64_LIMIT:
        Qa, dq, Pa, dp = pareto_keys(Qa, dq, Pa, dp, k)
    return zip(Qa.tolist(), dq.tolist(), Pa.tolist(), dp.tolist())


def upper_hull(points: Any) -> list[Any]:
    """The vertices (Q, P) of the upper hull of exact points from the least Q to the highest point
    (largest P, then least Q), by Q ascending; collinear points dropped.  Exact (``fmpq``)."""
    best: dict[Any, Any] = {}
    for Q, P in points:
        if Q not in best or P > best[Q]:
            best[Q] = P
    hull: list[Any] = []
    for Q, P in sorted(best.items()):
        while len(hull) >= 2:
            (q0, p0), (q1, p1) = hull[-2], hull[-1]
            if (q1 - q0) * (P - p0) - (p1 - p0) * (Q - q0) >= 0:
                hull.pop()
            else:
                break
        hull.append((Q, P))
    top = max(range(len(hull)), key=lambda t: (hull[t][1], -hull[t][0]))
    return hull[: top + 1]


def pareto_keys(Qa: np.ndarray, dq: np.ndarray, Pa: np.ndarray, dp: np.ndarray,
                k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
