r"""float64 candidate filters of the measures' exact maxima on a kernel's integer form (D-5, D-9, B-2).

The largest column ratio max_x K / min_x K (the LDP level, D-5), the largest PML ratio
max_x K / (c S_y + (1 − Nc) min_x K) (D-9) and the largest E_γ of a pair of rows (η_{E_γ}, B-2) are first
taken in floats on the float image of :mod:`exactdp.numbers.float_filter`; every column or pair whose float
value could still be the exact maximum is kept, and only those are decided exactly by the callers
(:mod:`exactdp.measures.column_ratio`, :mod:`exactdp.measures.pairwise_hockey_stick`) or, for E_γ, here in
integers.  Floats never reach a result.

**Rounding argument**: the image F ≈ K (ε), the column maxima, minima and sums, and the rule that a ratio
r̃ ≈ r (ρ) is kept when r̃ ≥ fl(max r̃ · (1 − 4ρ)) are those of :mod:`exactdp.numbers.float_filter`'s module
docstring, with ε the error of the image the column values came from (:func:`exactdp.numbers.float_filter.column_error`:
the float64 image's 8u or the float32 image's 2^-22).  For E_γ:

* E_γ of two rows: each term t = K_i − γK_j is computed as fl(F_i − fl(γ̃ F_j)) with γ̃ = fl(g/h) (correctly
  rounded), within 2(ε + u)(K_i + γK_j) of t; (·)₊ is 1-Lipschitz and the rows sum to 1, so the float sum is
  within δ = 2(ε + u)(1 + γ) + 4Mu (the sum's own error on a total ≤ 2) of the exact E_γ.  A pair can
  be a maximizer only if its float value is ≥ max − 2δ; the filter keeps ≥ fl(max − 3δ).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from exactdp.numbers.float_filter import (EPS, TINY, U, IntegerRows, column_error, float_columns, float_image,
                                         keep_near_max)
from exactdp.numbers.wide import products_ge


def ldp_columns(R: IntegerRows) -> tuple[int | None, Any]:
    """``(mixed, candidates)`` for max_y max_x K/min_x K: the first column mixing a zero and a non-zero entry (or
    None), else the columns whose ratio can be the maximum (increasing y).  r̃ = max F / min F ≈ r (2(2ε + u))."""
    hi, lo = float_columns(R, ("max", "min"))
    eps = column_error(R, ("max", "min"))
    nz = hi > 0
    mixed = np.flatnonzero(nz & (lo == 0))
    if len(mixed):
        return int(mixed[0]), None
    ys = np.flatnonzero(nz)
    return None, ys[keep_near_max(hi[ys] / lo[ys], 2 * (2 * eps + U))]


def pml_columns(R: IntegerRows, cp: int, cq: int) -> np.ndarray | None:
    """The columns whose r_y = max_x K / (c S_y + (1 − Nc) min_x K), c = cp/cq, can be the maximum (increasing y),
    or None when c is too small for the float bounds.  r̃ ≈ r (ρ), ρ = 2(3ε + 2Nu + 6u): hi (ε), S (2ε + 2Nu),
    c̃ and (1 − Nc)~ correctly rounded from integers (u), two products, a sum and a quotient (u each)."""
    N = R.shape[0]
    c = cp / cq
    if not c >= TINY:
        return None
    rest = (cq - N * cp) / cq
    hi, lo, S = float_columns(R, ("max", "min", "sum"))
    eps = column_error(R, ("max", "min", "sum"))
    ys = np.flatnonzero(hi > 0)  # all-zero columns: the output never occurs
    r = hi[ys] / (c * S[ys] + rest * lo[ys])
    rho = 2 * (3 * eps + 2 * N * U + 6 * U)
    kept: np.ndarray = ys[keep_near_max(r, rho)]
    return kept


def filtered_max_pairwise_hockey_stick(R: IntegerRows, g: int, h: int, *, symmetric: bool = False,
                              block_elems: int = 1 << 16) -> Any:
    r"""max over ordered pairs i ≠ j (i < j when ``symmetric``) of E_{g/h}(K_i‖K_j) exactly, with the
    lexicographically first maximizing pair: ``(num, den, i, j)``, or None when the float route does not apply
    (γ outside [2^-900, 2^900], or g·d, h·d not below 2^63 for the exact 128-bit signs).

    The float pass is the float64 formula in blocks of rows (as the float64 baseline computes it); pairs within
    3δ of the running maximum are kept (module docstring), then filtered by the final maximum, then each is
    evaluated exactly: the sign of h·d_j·A_ik − g·d_i·A_jk by 128-bit products, the positive part's two sums
    in int64 (each ≤ its row's denominator), the value (h d_j P − g d_i Q) / (h d_i d_j) in Python integers.
    """
    N, M = R.shape
    gamma = g / h
    if not (TINY <= gamma <= 1 / TINY) or max(g, h) * max(R.max_den, 1) >= 2**63:
        return None
    F = float_image(R)
    gF = gamma * F
    delta = 2 * (EPS + U) * (1 + gamma) + 4 * M * U
    b = max(1, min(N, block_elems // max(N * M, 1)))
    buf = np.empty((b, N, M))
    best = -1.0
    found_i, found_j, found_v = [], [], []
    for i0 in range(0, N, b):
        i1 = min(N, i0 + b)
        start = i0 + 1 if symmetric else 0
        if start >= N:
            break
        diff = buf[: i1 - i0, : N - start]
        np.subtract(F[i0:i1, None, :], gF[None, start:, :], out=diff)
        np.maximum(diff, 0, out=diff)
        s = diff.sum(axis=2)
        jj, ii = np.arange(start, N)[None, :], np.arange(i0, i1)[:, None]
        s[(jj <= ii) if symmetric else (jj == ii)] = -1.0  # not a pair of distinct inputs (or seen)
        best = max(best, float(s.max()))
        r, c = np.nonzero(s >= best - 3 * delta)
        found_i.append(r + i0)
        found_j.append(c + start)
        found_v.append(s[r, c])
    vi, vj, vv = np.concatenate(found_i), np.concatenate(found_j), np.concatenate(found_v)
    keep = (vv >= best - 3 * delta) & (vv >= 0)
    return _exact_pairs(R, g, h, vi[keep], vj[keep])


def _exact_pairs(R: IntegerRows, g: int, h: int, pi: np.ndarray, pj: np.ndarray,
                 chunk_elems: int = 1 << 18) -> Any:
    """The exact max of E_{g/h}(K_i‖K_j) over the candidate pairs (pi, pj), lexicographically first pair on ties."""
    A, d = R.A, R.d
    M = A.shape[1]
    order = np.lexsort((pj, pi))
    pi, pj = pi[order], pj[order]
    hd, gd = d * h, d * g  # < 2^63 (checked by the caller)
    best_num, best_den, arg = -1, 1, (0, 0)
    step = max(1, chunk_elems // max(M, 1))
    for s0 in range(0, len(pi), step):
        i, j = pi[s0:s0 + step], pj[s0:s0 + step]
        Ai, Aj = A[i], A[j]
        pos = ~products_ge(gd[i][:, None], Aj, hd[j][:, None], Ai)  # h d_j A_ik > g d_i A_jk
        P = np.where(pos, Ai, 0).sum(axis=1).tolist()
        Q = np.where(pos, Aj, 0).sum(axis=1).tolist()
        for x, y, p, q in zip(i.tolist(), j.tolist(), P, Q):
            dx, dy = int(d[x]), int(d[y])
            num, den = h * dy * p - g * dx * q, h * dx * dy
            if num * best_den > best_num * den:
                best_num, best_den, arg = num, den, (x, y)
    return best_num, best_den, arg[0], arg[1]
