"""Hypothesis strategies for exact objects (needs the ``test`` extra: ``pip install exactdp[test]``).

All draws are integers, so every object is exact; sizes stay small enough for brute-force oracles.
"""

from __future__ import annotations

import numpy as np
from flint import fmpq
from hypothesis import strategies as st

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.numbers import linalg


@st.composite
def exact_distributions(draw, n=None, max_den: int = 24, min_size: int = 2, max_size: int = 5):
    """Distributions with entries k/d, d <= max_den (zeros allowed)."""
    n = n if n is not None else draw(st.integers(min_size, max_size))
    d = draw(st.integers(1, max_den))
    cuts = sorted(draw(st.lists(st.integers(0, d), min_size=n - 1, max_size=n - 1)))
    b = [0, *cuts, d]
    return Distribution([fmpq(b[k + 1] - b[k], d) for k in range(n)])


@st.composite
def exact_kernels(draw, N=None, M=None, max_den: int = 24, max_size: int = 5):
    """Kernels with per-row denominators <= max_den (zeros allowed)."""
    N = N if N is not None else draw(st.integers(1, max_size))
    M = M if M is not None else draw(st.integers(1, max_size))
    rows = [draw(exact_distributions(n=M, max_den=max_den)).probs for _ in range(N)]
    return Kernel(rows)


@st.composite
def distribution_pairs(draw, max_size: int = 5, max_den: int = 24):
    """Two distributions on the same alphabet."""
    n = draw(st.integers(1, max_size))
    return draw(exact_distributions(n=n, max_den=max_den)), draw(exact_distributions(n=n, max_den=max_den))


@st.composite
def composable_kernels(draw, max_size: int = 4, max_den: int = 24):
    """``(K, L)`` with K.M == L.N, so that ``K @ L`` is defined."""
    N, M, Z = (draw(st.integers(1, max_size)) for _ in range(3))
    return draw(exact_kernels(N=N, M=M, max_den=max_den)), draw(exact_kernels(N=M, M=Z, max_den=max_den))


def exact_rationals(min_value=0, max_value=10, max_den: int = 50):
    """Rationals p/q in [min_value, max_value] with q <= max_den, as fmpq."""
    return st.fractions(min_value=min_value, max_value=max_value, max_denominator=max_den).map(
        lambda f: fmpq(f.numerator, f.denominator))


def gammas(max_value=8, max_den: int = 30, min_value=0):
    """Privacy levels γ = e^ε (exact rationals ≥ min_value)."""
    return exact_rationals(min_value, max_value, max_den)


def reference_profile_front(R):
    """The previous exact privacy-profile front (per-row exact Pareto fronts of every pair's points on int64
    order keys), kept as the reference that the sweep of :func:`exactdp.measures.profile_front.profile_front` is
    tested and benchmarked against: ``[(Q_num, Q_den, P_num, P_den), ...]``, or None off the int64 route."""
    N = R.shape[0]
    k = 2 * max(R.max_den, 1).bit_length()
    if R.A.dtype == object or R.max_num > R.max_den or (max(R.max_den, 1) << k) >= linalg.INT64_LIMIT:
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
        ratio = np.where(Aj > 0, np.left_shift(Ai, k) // np.maximum(Aj, 1), big)
        order = np.argsort(-ratio, axis=1, kind="stable")
        Pc = np.cumsum(np.take_along_axis(Ai, order, axis=1), axis=1)
        Qc = np.cumsum(np.take_along_axis(Aj, order, axis=1), axis=1)
        dP = np.broadcast_to(d[i], Pc.shape)
        dQ = np.broadcast_to(d[js][:, None], Qc.shape)
        fronts.append(linalg.pareto_keys(Qc.ravel(), dQ.ravel(), Pc.ravel(), dP.ravel(), k))
    fronts.append((np.array([0]), np.array([1]), np.array([0]), np.array([1])))
    cat = (np.concatenate([f[t] for f in fronts]).astype(np.int64) for t in range(4))
    Qa, dq, Pa, dp = linalg.pareto_keys(*cat, k)
    return [(int(a), int(b), int(c), int(e)) for a, b, c, e in zip(Qa, dq, Pa, dp)]
