r"""The QQ route of η_{E_γ} and η_TV: max over pairs of rows of E_γ(K_i‖K_j) on a kernel's integer form (B-1, B-2).

For γ = g/h and rows ``K[i] = A[i] / d[i]`` (:class:`exactdp.numbers.linalg.IntRows`),

.. math::  E_\gamma(K_i\|K_j) = \frac{\sum_k (h\,d_j A_{ik} - g\,d_i A_{jk})_+}{h\,d_i d_j},

vectorized with numpy over the partner rows ``j`` (docs/design.md, Speed), in int32/int64 under the bound
checked by :func:`_hockey_stick_dtypes`, exact int64 order keys (:func:`exactdp.numbers.linalg.order_keys`)
for each row's best partner; where no key is proven, the float64 filter
(:func:`exactdp.measures.candidate_filter.filtered_max_pairwise_hockey_stick`) finds the candidate pairs and integers decide.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from exactdp.measures.candidate_filter import filtered_max_pairwise_hockey_stick
from exactdp.numbers import float_filter
from exactdp.numbers.linalg import INT64_LIMIT, IntRows, argmax_fraction, fixed_width, order_keys


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


def max_pairwise_hockey_stick(R: IntRows, g: int, h: int, *, symmetric: bool = False,
                              block_elems: int = 1 << 16) -> Any:
    r"""max over ordered pairs i ≠ j of E_{g/h}(K_i‖K_j), exactly, with the first maximizing pair.

    Returns ``(num, den, i, j)`` (Python ints) with the maximum equal to ``num/den``.  With
    ``symmetric=True`` (valid for γ = 1, where E_1 = TV is symmetric) only pairs i < j are visited.
    Rows i are processed in blocks of about ``block_elems`` numbers (a 3-d broadcast), which removes
    the per-row interpreter overhead on small kernels.  For each row i the partner maximizing
    ``num_j / (h d_i d_j)`` is the one maximizing ``num_j / d_j`` (:func:`order_keys`); rows are then
    compared with Python integers.  Where those int64 keys are not proven (larger denominators) and the rows
    are int64, the float64 filter :func:`exactdp.measures.candidate_filter.filtered_max_pairwise_hockey_stick` gives the same
    value and pair; object rows cross-multiply Python integers.
    """
    N, M = R.shape
    prod, acc, sum_bound = _hockey_stick_dtypes(R, g, h)
    keys_ok = acc is not object and (sum_bound << 2 * max(R.max_den, 1).bit_length()) < INT64_LIMIT
    if not keys_ok and float_filter.usable(R):  # no exact int64 keys: the float filter, exact on the candidates
        fast = filtered_max_pairwise_hockey_stick(R, g, h, symmetric=symmetric, block_elems=block_elems)
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
