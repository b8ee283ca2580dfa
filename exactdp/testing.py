"""Hypothesis strategies for exact objects (needs the ``test`` extra: ``pip install exactdp[test]``)."""

from __future__ import annotations

from hypothesis import strategies as st

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel


@st.composite
def exact_distributions(draw, n=None, max_den: int = 24, min_size: int = 2, max_size: int = 5):
    """Distributions with entries k/d, d <= max_den."""
    n = n if n is not None else draw(st.integers(min_size, max_size))
    d = draw(st.integers(1, max_den))
    cuts = sorted(draw(st.lists(st.integers(0, d), min_size=n - 1, max_size=n - 1)))
    b = [0, *cuts, d]
    return Distribution([fmpq(b[k + 1] - b[k], d) for k in range(n)])


@st.composite
def exact_kernels(draw, N=None, M=None, max_den: int = 24, max_size: int = 5):
    """Kernels with per-row denominators <= max_den."""
    N = N if N is not None else draw(st.integers(1, max_size))
    M = M if M is not None else draw(st.integers(1, max_size))
    rows = [draw(exact_distributions(n=M, max_den=max_den)).probs for _ in range(N)]
    return Kernel(rows)


def exact_rationals(min_value=0, max_value=10, max_den: int = 50):
    """Rationals p/q in [min_value, max_value] with q <= max_den, as fmpq."""
    return st.fractions(min_value=min_value, max_value=max_value, max_denominator=max_den).map(
        lambda f: fmpq(f.numerator, f.denominator))
