r"""The QQ route of the privacy profile δ(γ) = η_{E_γ}(K): the exact upper hull of every pair's top-k points, by a
sweep over the rows on the kernel's integer form (:func:`profile_front`; [A] Thm 1, D-6).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flint import fmpq

from exactdp.numbers.linalg import INT32_LIMIT, INT64_LIMIT, IntRows, pareto_keys


def profile_front(R: IntRows, *, scale_bits: int = 30) -> Any:
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
       (:func:`exactdp.numbers.linalg.order_keys`);
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
    sort_key = _ratio_sort_keys(A, R.max_num, pairs=N * (N - 1) * M)
    if sort_key is None:
        return None
    hull = [(fmpq(0), fmpq(0))]  # (Q, P): the empty set
    Xc, Yf = _hull_keys(hull, s)
    # buckets: 2^16, fewer for a small kernel (the table is rebuilt at each change of the hull; about one
    # bucket per point of a row's N − 1 pairs is enough)
    bits = min(_BUCKET_BITS, max(8, ((N - 1) * M).bit_length()))
    Lb = _bucket_floor(Xc, Yf, s, bits)
    # int32 for the per-row arrays when prefix sums (≤ d) and the bucket numerators Qc·2^bits stay below 2^31
    narrow = (max(R.max_den, 1) << bits) < INT32_LIMIT
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
        # stage 1: buckets b = ⌊Q·2^bits⌋ against a table of ⌊L(b·2^(s-16))·d_i/S⌋ (L non-decreasing: a
        # lower bound of L on the bucket), reject when Pc is at most that: one division and one gather
        if s >= bits:  # Qc·2^bits ≤ d_j·2^s and Lb·d_i ≤ 2^s·d_i: below 2^63
            bucket = np.left_shift(Qc, bits) // dn[js][:, None]
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
        Lb = _bucket_floor(Xc, Yf, s, bits)
    return [(int(Q.p), int(Q.q), int(P.p), int(P.q)) for Q, P in hull]


_RANK_TABLE_MAX = 2048  # distinct numerators for a table of every fraction's rank (4 M entries at most)


def _ratio_sort_keys(A: np.ndarray, max_num: int, pairs: int | None = None) -> Any:
    """A function (i, js) -> (keys, sort kind) ordering each row of pairs (i, j) by A_iy/A_jy descending
    (A_jy = 0 first), exactly; None when neither exact route fits int64.  The table of ranks is built only
    when it has no more entries than the ``pairs`` ratio keys it replaces (N(N−1)M; a small kernel with many
    distinct numerators sorts its keys directly)."""
    V = np.sort(A, axis=None)  # the distinct values, increasing (np.unique without indices imports numpy.ma)
    V = V[np.r_[True, V[1:] != V[:-1]]] if V.size else V
    if len(V) <= _RANK_TABLE_MAX and (pairs is None or len(V) ** 2 <= pairs):
        rank = _ratio_ranks(V)
        if rank is not None:
            idx = np.searchsorted(V, A).astype(np.int64)
            nV = len(V)
            flat = rank.ravel()
            kind = "stable" if flat.dtype == np.uint16 else "quicksort"

            def by_rank(i: int, js: np.ndarray) -> Any:
                return flat[idx[i][None, :] * nV + idx[js]], kind
            return by_rank
    k = 2 * max(max_num, 1).bit_length()
    if (max(max_num, 1) << k) >= INT64_LIMIT:
        return None
    big = np.iinfo(np.int64).max

    def by_key(i: int, js: np.ndarray) -> Any:
        Aj = A[js]
        Ai = np.broadcast_to(A[i], Aj.shape)
        return -np.where(Aj > 0, np.left_shift(Ai, k) // np.maximum(Aj, 1), big), "quicksort"
    return by_key


def _ratio_ranks(V: np.ndarray) -> Any:
    """rank[a, b] for values V[a], V[b]: 0 for the largest fraction V[a]/V[b] (b = 0: +∞), equal fractions
    equal ranks; uint16 when fewer than 2^16 classes.  Exact: keys ⌊a·2^k/b⌋ with 2^k ≥ max(V)² (see
    :func:`exactdp.numbers.linalg.order_keys`)."""
    top = max(int(V[-1]), 1)
    k = 2 * top.bit_length()
    if (top << k) >= INT64_LIMIT:
        return None
    a, b = V[:, None].astype(np.int64), V[None, :].astype(np.int64)
    key = np.where(b > 0, np.left_shift(a, k) // np.maximum(b, 1), np.iinfo(np.int64).max)
    _, inv = np.unique(key, return_inverse=True)
    inv = inv.reshape(key.shape)
    rank = inv.max() - inv
    return rank.astype(np.uint16 if rank.max() < 2**16 else np.int64)


def _hull_keys(hull: Any, s: int) -> Any:
    """The hull vertices (Q, P) moved to (⌈Q·2^s⌉, ⌊P·2^s⌋) as int64 arrays (see :func:`profile_front`)."""
    Xc = np.array([-((-int(Q.p) << s) // int(Q.q)) for Q, _ in hull], dtype=np.int64)
    Yf = np.array([(int(P.p) << s) // int(P.q) for _, P in hull], dtype=np.int64)
    return Xc, Yf


_BUCKET_BITS = 16


def _bucket_floor(Xc: Any, Yf: Any, s: int, bits: int = _BUCKET_BITS) -> Any:
    """Integers Lb[b] ≤ L(b·2^(s-bits)) for b = 0 … 2^bits (L the polyline of :func:`_below`; Lb ≤ S = 2^s)."""
    if s < bits:
        return None  # too coarse a scale: no stage-1 rejection
    x = np.left_shift(np.arange((1 << bits) + 1, dtype=np.int64), s - bits)
    last = len(Xc) - 1
    m = np.searchsorted(Xc, x, side="right") - 1
    if last == 0:
        return np.full(len(x), Yf[0], dtype=np.int64)
    mm = np.minimum(m, last - 1)
    x0, y0 = Xc[mm], Yf[mm]
    inner = y0 + ((Yf[mm + 1] - y0) * (x - x0)) // (Xc[mm + 1] - x0)
    return np.where(m >= last, Yf[last], inner)


def _below(p: Any, q: Any, Xc: Any, Yf: Any) -> Any:
    """p ≤ L(q) for the polyline L through (Xc, Yf) (Xc[0] = 0, non-decreasing), constant Yf[-1] beyond."""
    last = len(Xc) - 1
    m = np.searchsorted(Xc, q, side="right") - 1
    if last == 0:
        return p <= Yf[0]
    mm = np.minimum(m, last - 1)
    x0, y0 = Xc[mm], Yf[mm]
    inner = (p - y0) * (Xc[mm + 1] - x0) <= (Yf[mm + 1] - y0) * (q - x0)
    return np.where(m >= last, p <= Yf[last], inner)


def _reduce(Qa: Any, dq: Any, Pa: Any, dp: Any, max_den: int) -> Any:
    """Many candidate points: first their exact Pareto front (int64 order keys) when proven safe."""
    k = 2 * max(max_den, 1).bit_length()
    if len(Qa) > 256 and (max(max_den, 1) << k) < INT64_LIMIT:
        Qa, dq, Pa, dp = pareto_keys(Qa, dq, Pa, dp, k)
    return zip(Qa.tolist(), dq.tolist(), Pa.tolist(), dp.tolist())


def upper_hull(points: Any) -> list[tuple[Any, Any]]:
    """The vertices (Q, P) of the upper hull of exact points from the least Q to the highest point
    (largest P, then least Q), by Q ascending; collinear points dropped.  Exact (``fmpq``)."""
    best: dict[Any, Any] = {}
    for Q, P in points:
        if Q not in best or P > best[Q]:
            best[Q] = P
    hull: list[tuple[Any, Any]] = []
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
