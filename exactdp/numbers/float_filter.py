r"""float64 filters for the exact maxima of an integer-form kernel: floats find the few candidates, integers decide.

A rational kernel in integer form (:class:`exactdp.numbers.linalg.IntRows`: ``K[x][y] = A[x][y] / d[x]``, int64
``0 ≤ A``, ``0 < d < 2^63``) gets a float64 *image* ``F`` with a proven relative error; a maximum over the
kernel (here a column's largest or smallest entry; the measures' maxima — the largest column ratio, the
largest E_γ of a pair of rows — in :mod:`exactdp.measures.candidate_filter`) is first taken in floats, every
entry whose float value could still equal the exact maximum is kept, and only those few are decided exactly
(int64 or the 128-bit products of :mod:`exactdp.numbers.wide`, Python integers for the final few fractions).
Floats never reach a result: they only discard what provably cannot be the maximum, so the value and its
first maximizer are the exact search's whatever the size of the denominators.  Ties (structured kernels)
leave many candidates; they are then decided by the same vectorized exact comparisons (a tournament), never
by a Python loop over the matrix.

**Rounding argument** (IEEE 754 binary64, round to nearest, u = 2^-53; the same model as
:mod:`exactdp.numbers.float_interval`).  A relative error bound ``|x̃/x − 1| ≤ e`` is written x̃ ≈ x (e).

* The image F = fl(fl(A) · fl(1 / fl(d))): four correctly rounded steps (each conversion of an int64 is exact
  below 2^53 and within u otherwise), so F ≈ K (ε) with ε = 8u ≥ (1 + u)^3 / (1 − u) − 1.  No underflow or
  overflow: a non-zero entry is ≥ 1/d > 2^-63 and every entry is ≤ 1 + ε; F = 0 exactly when A = 0.
* A column's float max (min) is within ε of the exact max (min): every entry is.  So every exact maximizer x
  has F ≥ max F · (1 − 2ε), and every exact minimizer F ≤ min F · (1 + 3ε) (ε ≤ 2^-40).  Thresholds computed
  as fl(max F · (1 − 4ε)) and fl(min F · (1 + 4ε)) lie beyond these bounds (one more rounding of u).
* A sum of m non-negative floats in any order is within γ_{m−1} ≤ 2(m − 1)u of the exact sum of those floats
  (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §4.2); a column sum of F is thus ≈ S
  (ε + 2Nu + 2εNu) ⊂ (2ε + 2Nu) for 2Nu ≤ 1/2.
* Products, quotients and sums of positive values add relative errors to first order, plus u per rounding;
  each bound below is twice its first-order sum, which covers the second-order terms as long as that sum
  is at most 2^-20 (checked: N, M < 2^28).  A ratio r with r̃ ≈ r (ρ) can be the maximum only if
  r̃ ≥ max r̃ · (1 − ρ)/(1 + ρ) ≥ max r̃ · (1 − 2ρ); the filter keeps r̃ ≥ fl(max r̃ · (1 − 4ρ)).

**float32 image** (the column maxima of :func:`column_argext` over the whole matrix, no float64 image): with
u₃₂ = 2^-24, G = fl₃₂(fl₃₂(A) · fl₃₂(fl(1 / fl(d)))) — at most three float32 and three float64 roundings — is
G ≈ K (ε₃₂), ε₃₂ = 2^-22 ≥ (1 + u₃₂)^3 (1 + u)^3 − 1; no underflow or overflow (a non-zero K ≥ 2^-63, every
factor a normal float32), and G = 0 exactly when A = 0.  A column's float max g satisfies g ≤ v*(1 + ε₃₂) (v* its
exact maximum), and every exact maximizer has G ≥ v*(1 − ε₃₂) ≥ g (1 − 2ε₃₂) = g (1 − 2^-21).  The threshold
fl₃₂(g · (1 − 2^-19)) ≤ g (1 − 2^-19)(1 + u₃₂) < g (1 − 2^-21), so every entry with G at least the threshold is
kept: every exact maximizer is.  Half the bytes of the float64 image and of int64 keys, whatever the size of the
denominators.  The column max, min and sum of a first call (:func:`_scan`, no float64 image kept) come from G
too (the sums added in float64): every bound above holds with ε replaced by ε₃₂ (:func:`column_error` tells the
callers which), and the bounds of :mod:`exactdp.measures.candidate_filter` stay within the 2^-20 of their
second-order argument (at most 3ε₃₂ + 2Nu + 6u < 2^-20).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import ArrayLike

from exactdp.numbers.wide import products_ge


class IntegerRows(Protocol):
    """What the filter reads of :class:`exactdp.numbers.linalg.IntRows` (which imports this module): the
    integer rows ``A[i] / d[i]`` and the rows' cache of read-only views."""

    A: np.ndarray
    d: np.ndarray
    max_den: int
    max_num: int
    _views: dict[Any, Any]

    @property
    def shape(self) -> tuple[int, int]: ...

U = 2.0**-53
#: relative error of the float image F of K (see the module docstring)
EPS = 8 * U
#: rows, columns above which the first-order error bounds are not claimed (2 N u ≤ 2^-24)
_MAX_DIM = 1 << 28
#: least parameter (c, γ) taken in floats: far from underflow and overflow of the products of the filters
TINY = 2.0**-900


def usable(R: IntegerRows) -> bool:
    """The float route's preconditions: int64 numerators ``0 ≤ A`` and denominators ``0 < d < 2^63``, sizes
    within the error analysis (object arrays of Python ints take the exact routes of their callers)."""
    N, M = R.shape
    return bool(R.A.dtype == np.int64) and 0 < N < _MAX_DIM and 0 < M < _MAX_DIM


def _inverses(R: IntegerRows) -> np.ndarray:
    """fl(1 / fl(d)) per row (cached on ``R``)."""
    v: np.ndarray | None = R._views.get("float_inverses")
    if v is None:
        v = 1.0 / R.d.astype(np.float64)
        R._views["float_inverses"] = v
    return v


def _image(R: IntegerRows, cols: Any = None) -> np.ndarray:
    """The float image F (of the columns ``cols``, default all) for one use, not kept: each entry is the same
    fl(A[x][y] · fl(1/d[x])) as in :func:`float_image`.  A kernel's column maxima, minima and sums are kept
    instead (a few vectors); keeping N × M floats would make every first call on a new kernel write fresh
    memory pages, which costs more than the multiplication itself."""
    F: np.ndarray | None = R._views.get("float_image")
    if F is not None:
        return F if cols is None else F[:, cols]
    A = R.A if cols is None else R.A[:, cols]
    image: np.ndarray = np.multiply(A, _inverses(R)[:, None])
    return image


def float_image(R: IntegerRows) -> np.ndarray:
    """F ≈ K (ε), F[x][y] = fl(A[x][y] · fl(1/d[x])) (cached on ``R``: the pairwise filter reads it N times);
    requires :func:`usable`."""
    F: np.ndarray | None = R._views.get("float_image")
    if F is None:
        F = np.multiply(R.A, _inverses(R)[:, None])
        R._views["float_image"] = F
    return F


#: relative error of the float32 image (module docstring)
EPS32 = 2.0**-22


def _f32_image(R: IntegerRows, rows: int = 0) -> np.ndarray:
    """G ≈ K (:data:`EPS32`), G[x][y] = fl₃₂(fl₃₂(A[x][y]) · fl₃₂(fl(1/fl(d[x])))), for one use (module docstring);
    with ``rows`` > N, followed by rows of +0.0 up to ``rows`` rows."""
    N = R.shape[0]
    if rows <= N:
        G = R.A.astype(np.float32)
    else:
        G = np.empty((rows, R.shape[1]), dtype=np.float32)
        np.copyto(G[:N], R.A, casting="unsafe")  # the same rounding as astype
        G[N:] = 0
    G[:N] *= _inverses(R).astype(np.float32)[:, None]
    return G


def _scan(R: IntegerRows, whats: Any, *, candidates: bool = False) -> None:
    """One image for the column max / min / sum named in ``whats`` (cached as ``float_col_*``, each with its
    relative error as ``float_eps_*``): the kept float64 image if there is one or ``candidates`` are asked, else the
    float32 image (:func:`_f32_image`, not kept: half the bytes; its sums added in float64, so a column sum is
    ≈ S (2·EPS32 + 2Nu) as the float64 image's is ≈ S (2ε + 2Nu)); with ``candidates``, every entry within the
    bound of its column's float max (cached as ``float_cand_max``: flat indices x·M + y, increasing), so the matrix
    is converted once per first call."""
    wide = candidates or "float_image" in R._views
    F = _image(R) if wide else _f32_image(R)
    for w in whats:
        col = F.max(axis=0) if w == "max" else F.min(axis=0) if w == "min" else F.sum(axis=0, dtype=np.float64)
        R._views["float_col_" + w] = col.astype(np.float64)
        R._views["float_eps_" + w] = EPS if wide else EPS32
    if candidates:
        R._views["float_cand_max"] = np.flatnonzero(F >= R._views["float_col_max"] * (1 - 4 * EPS))


def float_columns(R: IntegerRows, whats: Any) -> list[np.ndarray]:
    """The float column max / min / sum of the image, for each name in ``whats`` (cached; the missing ones come
    from one :func:`_scan`)."""
    missing = [w for w in whats if "float_col_" + w not in R._views]
    if missing:
        _scan(R, missing)
    return [R._views["float_col_" + w] for w in whats]


def column_error(R: IntegerRows, whats: Any) -> float:
    """The relative error bound of the image the kept column values ``whats`` came from (:data:`EPS` or
    :data:`EPS32`; the larger if they differ): the ε of the measures' bounds in
    :mod:`exactdp.measures.candidate_filter`."""
    return max(float(R._views["float_eps_" + w]) for w in whats)


#: rows per block of :func:`_f32_candidates_max`: the block maxima take the place of a compare pass over the matrix
_BLOCK = 16


def _f32_candidates_max(R: IntegerRows) -> tuple[np.ndarray, np.ndarray]:
    """``(x, j)``: the rows and columns of the entries of the float32 image at least their column's threshold
    (module docstring), rows increasing within each column: every exact column maximizer is among them.  An
    all-zero column has none (every entry is an exact 0: its first maximizer is row 0).

    One product pass (:func:`_f32_image`) and one reduction: the maxima of blocks of :data:`_BLOCK` rows, compared
    as the int32 bit patterns of the non-negative floats (their order is the floats' order: sign bit 0, then
    exponent, then fraction), which are integer maxima; the column max is the largest block max, and only the
    blocks whose max reaches the threshold are read again (a block reaches it exactly when one of its entries
    does), so no compare pass over the whole matrix."""
    N, M = R.shape
    B = _BLOCK
    G = _f32_image(R, -(-N // B) * B)  # whole blocks: the last padded with rows of +0.0, never kept (below)
    Gi = G.view(np.int32).reshape(-1, B, M)
    bm = Gi.max(axis=1)
    thr = (bm.max(axis=0).view(np.float32) * np.float32(1 - 2.0**-19)).view(np.int32)
    np.maximum(thr, 1, out=thr)  # an all-zero column (max +0.0), a padding row: no +0.0 reaches 1, none is kept
    b, y = np.divmod(np.flatnonzero(bm >= thr), M)  # by block, then column: rows increase within each column
    k, r = np.divmod(np.flatnonzero(Gi[b, :, y] >= thr[y][:, None]), B)  # (flatnonzero: np.nonzero of 2-d is slower)
    return b[k] * B + r, y[k]


def column_argext(R: IntegerRows, cols: ArrayLike | None = None, *, sense: str = "max") -> np.ndarray:
    """For each column y (of ``cols``, default all), the first row index x of the exact max (``sense="max"``) or
    min (``"min"``) of A[x][y]/d[x].  Candidates are the entries within the float bound of the column's float
    extreme (the maxima of every column: of the float32 image, module docstring); a column with
    one candidate is decided; the candidates of the other columns, when at most :data:`_FEW`, are compared one by
    one in Python integers (:func:`_decide_few`), else by an exact tournament (:func:`column_tournament`)."""
    cols = None if cols is None else np.asarray(cols, dtype=np.intp)
    e: np.ndarray | None = None
    if cols is None and sense == "max" and "float_cand_max" not in R._views and "float_image" not in R._views:
        return _argmax_of_candidates(R, *_f32_candidates_max(R))  # (a kept float image is read instead)
    if cols is None and sense == "max":
        if "float_cand_max" not in R._views:
            _scan(R, ("max",), candidates=True)
        e, flat = R._views["float_col_max"], R._views["float_cand_max"]
        m = len(e)
    else:
        sub = _image(R) if cols is None else _image(R, cols)
        e = sub.max(axis=0) if sense == "max" else sub.min(axis=0)  # this image's own extremes
        m = sub.shape[1]
        mask = sub >= e * (1 - 4 * EPS) if sense == "max" else sub <= e * (1 + 4 * EPS)
        flat = np.flatnonzero(mask)
    # flat: row-major x·m + j, by increasing x
    x, j = np.divmod(flat, m)
    idx = np.empty(m, dtype=np.intp)
    idx[j] = x  # right for every column with one candidate (each column has at least one)
    if len(flat) == m:
        return idx
    return _resolve(R, idx, x, j, cols, sense, e)


def _argmax_of_candidates(R: IntegerRows, x: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Each column's first exact maximizer from the candidates ``(x, j)`` of :func:`_f32_candidates_max`
    (rows increasing within each column; none in an all-zero column, whose first maximizer is row 0)."""
    idx = np.zeros(R.shape[1], dtype=np.intp)
    idx[j] = x  # right for every column with one candidate
    return _resolve(R, idx, x, j, None, "max", None)


def _resolve(R: IntegerRows, idx: np.ndarray, x: np.ndarray, j: np.ndarray, cols: Any, sense: str,
             e: np.ndarray | None) -> np.ndarray:
    """``idx`` with the columns of several candidates (rows ``x``, columns ``j``, rows increasing within each
    column) decided exactly: one by one in Python integers when at most :data:`_FEW` candidates
    (:func:`_decide_few`), else by the vectorized tournament (:func:`column_tournament`)."""
    m = len(idx)
    # only the columns with several candidates are grouped (a near-tie leaves a few in a few columns)
    shared = np.flatnonzero(np.bincount(j, minlength=m)[j] > 1)
    if not len(shared):
        return idx
    if len(shared) <= _FEW:
        _decide_few(R, idx, x[shared].tolist(), j[shared].tolist(), cols, sense)
        return idx
    x, j = x[shared], j[shared]
    order = np.argsort(j, kind="stable")  # by column, rows increasing within each
    x, j = x[order], j[order]
    first = np.empty(len(j), dtype=bool)
    first[0] = True
    np.not_equal(j[1:], j[:-1], out=first[1:])
    start = np.flatnonzero(first)  # each column's first candidate
    idx[j[start]] = x[start]
    count = np.diff(start, append=len(j))
    multi = count > 1
    if sense == "min" and e is not None:
        multi &= e[j[start]] > 0  # a float minimum 0 is an exact 0 (F = 0 ⟺ A = 0): the first candidate is the first zero
    if not multi.any():
        return idx
    # the candidates of each undecided column as the columns of a small matrix, padded with the column's first
    # candidate (the same index: ties are unchanged)
    cols_m = j[start[multi]]
    width = int(count[multi].max())
    rows = np.broadcast_to(idx[cols_m], (width, len(cols_m))).copy()
    group = np.cumsum(first) - 1  # each candidate's column group
    sel = multi[group]
    rank = np.arange(len(j)) - start[group]  # position within its column
    rows[rank[sel], (np.cumsum(multi) - 1)[group[sel]]] = x[sel]
    ys = cols_m if cols is None else cols[cols_m]
    win = column_tournament(R.A[rows, ys[None, :]], R.d[rows], sense)
    idx[cols_m] = rows[win, np.arange(len(cols_m))]
    return idx


#: candidates (in columns with several) up to which they are compared one by one in Python integers: below the
#: fixed cost of grouping them by column in numpy and of the vectorized tournament's array set-up
_FEW = 64


def _decide_few(R: IntegerRows, idx: np.ndarray, xs: list[int], js: list[int], cols: Any, sense: str) -> None:
    """Set idx[j] for each column j of ``js`` to the first exact max (min) of A[x][y]/d[x] over its candidate rows
    x (``xs``, ``js``: the candidates' rows and columns, rows increasing), by cross-products of Python integers."""
    A, d = R.A, R.d
    groups: dict[int, list[int]] = {}
    for xx, jl in zip(xs, js):
        groups.setdefault(jl, []).append(xx)
    for jl, rows in groups.items():
        y = jl if cols is None else int(cols[jl])
        best = rows[0]
        bn, bd = int(A[best, y]), int(d[best])
        for xx in rows[1:]:
            an, ad = int(A[xx, y]), int(d[xx])
            if (an * bd > bn * ad) if sense == "max" else (an * bd < bn * ad):
                best, bn, bd = xx, an, ad
        idx[jl] = best


def column_tournament(A: np.ndarray, d: np.ndarray, sense: str = "max") -> np.ndarray:
    """Per column of ``A`` (N × m, int64 ≥ 0), the first row of the exact max (min) of A[x]/d[x] (``d``: one
    denominator per row, or an N × m array): a tournament of exact cross-products (128-bit,
    :func:`exactdp.numbers.wide.products_ge`), vectorized over the columns; the earlier row wins a tie, so the
    first extreme survives."""
    N, m = A.shape
    idx = np.broadcast_to(np.arange(N, dtype=np.intp)[:, None], (N, m))
    num = A
    den = np.broadcast_to(d if d.ndim == 2 else d[:, None], (N, m))
    while idx.shape[0] > 1:
        if idx.shape[0] % 2:
            idx, num, den = (np.vstack([a, a[-1:]]) for a in (idx, num, den))
        # keep the even (earlier) entry when it is ≥ (max) / ≤ (min) the odd one
        if sense == "max":
            keep = products_ge(num[0::2], den[1::2], num[1::2], den[0::2])
        else:
            keep = products_ge(num[1::2], den[0::2], num[0::2], den[1::2])
        idx = np.where(keep, idx[0::2], idx[1::2])
        num = np.where(keep, num[0::2], num[1::2])
        den = np.where(keep, den[0::2], den[1::2])
    first: np.ndarray = idx[0]
    return first


def keep_near_max(r: np.ndarray, rho: float) -> np.ndarray:
    """Indices of the values r̃ ≥ fl(max r̃ · (1 − 4ρ)) (r̃ ≥ 0 within relative ρ of exact values): every exact
    maximizer is among them (module docstring)."""
    return np.flatnonzero(r >= r.max() * (1 - 4 * rho))
