r"""The QQ routes of the column-ratio measures on a kernel's integer form: e^{LDP} (D-5) and the candidate columns
of e^{C(K,Q_X(c))} (D-9).

The float64 filter of :mod:`exactdp.measures.candidate_filter` keeps the columns whose ratio can be the maximum; their
exact extremes (:func:`exactdp.numbers.float_filter.column_argext`) and ratios are then compared in integers.
"""

from __future__ import annotations

from typing import Any

from exactdp.measures.candidate_filter import ldp_columns, pml_columns
from exactdp.numbers import float_filter
from exactdp.numbers.linalg import IntRows


def max_column_ratio(R: IntRows) -> tuple[int, int, int, int, int] | None:
    r"""max_y max_x A[x][y]/d[x] / min_x A[x][y]/d[x] over the columns with a non-zero entry, exactly.

    Returns ``(num, den, y, x_max, x_min)`` for the first maximizing column (``den = 0``: the first column
    mixing zero and non-zero entries, an infinite ratio), or None when the rows are not int64 (the caller
    loops in fmpq).  The float64 filter (:func:`exactdp.measures.candidate_filter.ldp_columns`) keeps the columns
    whose ratio can be the maximum; their exact extremes and ratios (A_hy d_l)/(A_ly d_h) are compared in
    Python integers, the first maximum kept.
    """
    if not float_filter.usable(R):
        return None
    mixed, cols = ldp_columns(R)
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


def pml_candidates(R: IntRows, cp: int, cq: int) -> tuple[list[int], Any, Any] | None:
    r"""``(cols, amax, amin)``: the columns that can attain max_y r_y, r_y = hi_y / (c S_y + (1−Nc) lo_y) with
    c = cp/cq (increasing y, :func:`exactdp.measures.candidate_filter.pml_columns`), with the first exact argmax and
    argmin rows of each of them; None when the float route does not apply (object rows, c below 2^-900)."""
    if not float_filter.usable(R):
        return None
    cols = pml_columns(R, cp, cq)
    if cols is None:
        return None
    return (cols.tolist(), float_filter.column_argext(R, cols, sense="max"),
            float_filter.column_argext(R, cols, sense="min"))
