"""Hypothesis strategies for exact objects (needs the ``test`` extra: ``pip install exactdp[test]``).

All draws are integers, so every object is exact; sizes stay small enough for brute-force oracles.
"""

from __future__ import annotations

from flint import fmpq
from hypothesis import strategies as st

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel


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
