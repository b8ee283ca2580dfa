r"""Exact dense rational matrices in integer form, for vectorized pairwise computations.

A rational kernel is stored, per row, as an integer numerator vector ``A[i]`` and that row's own
positive denominator ``d[i]`` (the lcm of the row's denominators): ``K[i][k] = A[i][k] / d[i]``.
Pairwise quantities then become integer arithmetic by cross-multiplication, e.g. for γ = g/h,

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,d_j A_{ik} - g\,d_i A_{jk})_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j`` (docs/design.md, Speed).  A per-row denominator avoids
the blow-up of one common denominator for unstructured kernels.  This module holds the integer form and the
measure-independent operations on it (column extremes and sums, order keys, exact argmax); the measures' own
integer routes are in :mod:`exactdp.measures` (``pairwise_hockey_stick``, ``column_ratio``, ``profile_front``).

Fixed-width arithmetic is used only under a *proven* bound on every intermediate magnitude: with
``B = max(g, h) · max_den · max_num`` bounding each product term,

* ``B < 2**31``  — products in int32, row sums in int32 too when ``M·B < 2**31``, else in int64;
* ``M·B < 2**63`` — products and sums in int64;
* otherwise numpy object arrays of Python ints carry the very same formulas (exact, slower).

Maxima of fractions a/b with b ≤ D are taken on exact integer *order keys* ⌊a·2^k/b⌋ with 2^k ≥ D²
(:func:`order_keys`): distinct fractions get distinct keys in the same order, so numpy's
argmax/argmin/lexsort decide exactly; when the key bound fails, a tournament of exact
cross-multiplications does the same work.  Every function states the bound it checks before choosing
int32/int64.  Where no fixed width is proven for the whole matrix (large denominators), the column extremes
take the float64 filter of :mod:`exactdp.numbers.float_filter`:
floats with a proven error bound discard what cannot be the maximum, and the few candidates are decided in
integers, so no float reaches a result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flint import fmpq, fmpq_mat

from exactdp.numbers import float_filter
from exactdp.numbers.fraction_sum import fraction_sum, product_tree, tree_sum

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
    order, starts = _equal_groups(R.d)
    out = (order, starts, product_tree(R.d if order is None else R.d[order][starts]))
    R._views["den_groups"] = out
    return out


def column_sums(R: IntRows, cols: Any = None) -> list[fmpq]:
    """Σ_x A[x][y]/d[x] as exact reduced ``fmpq`` for the columns y = cols[i] (default: all).

    Rows sharing a denominator are summed first in fixed width (``N·max_num < 2**63``), then the
    groups are added on the product tree of their denominators (:mod:`exactdp.numbers.fraction_sum`: no lcm of
    all denominators), and each sum is reduced once.  The sums of requested columns are kept on ``R``: later
    calls (another c of ``pml_ratio``, the same candidate columns) reuse them.  One column asked of a kernel whose
    tree is not built yet is summed alone over its non-zero entries (:func:`_rows_over_denominators`): no tree of
    the denominators of rows it does not need.
    """
    known = R._views.setdefault("column_sums", {})
    ys = list(range(R.shape[1])) if cols is None else [int(y) for y in cols]
    missing = [y for y in ys if y not in known]
    if len(missing) == 1 and "den_groups" not in R._views:
        # one column (a first pml_ratio call: one candidate, as a rule): its non-zero entries only, grouped by
        # denominator, instead of building the tree of every row's denominator
        y = missing[0]
        known[y] = _rows_over_denominators(R, R.A[:, y])
    elif missing:
        order, starts, levels = _den_groups(R)
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

    Entries are added per row taken, in int64 (``len·max_num < 2**63``, else Python integers), the rows' sums
    per distinct denominator (:func:`_same_denominator_sums`), then those on the product tree of the distinct
    denominators (:func:`exactdp.numbers.fraction_sum.fraction_sum`), and the sum is reduced once."""
    rows = np.asarray(rows, dtype=np.intp)
    vals = R.A[rows, cols]
    if R.A.dtype != object and len(vals) * max(R.max_num, 1) < INT64_LIMIT:
        n = np.zeros(R.shape[0], dtype=np.int64)
    else:
        n, vals = np.zeros(R.shape[0], dtype=object), vals.astype(object)
    np.add.at(n, rows, vals)
    return _rows_over_denominators(R, n)


def _rows_over_denominators(R: IntRows, n: np.ndarray) -> fmpq:
    """Σ_x n[x] / d[x] exactly (reduced ``fmpq``) for one integer numerator per row: the non-zero ones added per
    distinct denominator (:func:`_same_denominator_sums`), then on the product tree of those denominators
    (:func:`exactdp.numbers.fraction_sum.fraction_sum`), reduced once."""
    taken = np.flatnonzero(n)  # rows adding nothing are left out of the tree
    if not len(taken):
        return fmpq(0)
    T, P = fraction_sum(*_same_denominator_sums(n[taken], R.d[taken]))
    return fmpq(T, P)


def _same_denominator_sums(nums: np.ndarray, dens: np.ndarray) -> tuple[Any, Any]:
    """``(n', D)``: the numerators ``nums`` over ``dens`` added per distinct denominator D, as :func:`_by_denominator`
    (any order: the sum and the product of the distinct D do not depend on it); int64 arrays sorted and added in
    numpy when every group sum fits (``len · max|n| < 2**63``; unchanged when every denominator differs), else
    Python integers."""
    if nums.dtype != np.int64 or dens.dtype != np.int64 or len(nums) * int(np.abs(nums).max()) >= INT64_LIMIT:
        return _by_denominator(nums.tolist(), dens.tolist())
    order, starts = _equal_groups(dens)
    if order is None:
        return nums, dens
    return np.add.reduceat(nums[order], starts), dens[order][starts]


def _equal_groups(dens: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """``(order, starts)``: the stable order sorting ``dens`` and the first sorted position of each distinct
    value; ``order`` None when every value is distinct (no grouping: ``starts`` is then every position)."""
    order = np.argsort(dens, kind="stable")
    ds = dens[order]
    first = np.empty(len(ds), dtype=bool)
    first[0] = True
    np.not_equal(ds[1:], ds[:-1], out=first[1:])
    if first.all():
        return None, np.arange(len(ds))
    return order, np.flatnonzero(first)


def _by_denominator(nums: list[Any], dens: list[Any]) -> tuple[list[Any], list[Any]]:
    """``(n', D)``: the integers ``nums`` over ``dens`` added per distinct denominator D (Σ n/D over a group is
    (Σ n)/D; Python integers, any size), so the product tree multiplies each denominator once (rows sharing a
    denominator: small denominators, repeated rows); the groups in the order of their first row."""
    groups: dict[Any, Any] = {}
    for a, b in zip(nums, dens):
        groups[b] = groups.get(b, 0) + a
    return list(groups.values()), list(groups.keys())


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
