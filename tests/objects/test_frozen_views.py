"""A kernel is a frozen value: its integer form and every cached view of it are read-only arrays."""

import numpy as np
import pytest

from exactdp import Kernel, eta_hockey_stick, eta_tv, ldp_ratio, max_leakage, pml_ratio


def _arrays(value):
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _arrays(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _arrays(v)


def test_writing_through_the_integer_form_raises_and_changes_nothing():
    K = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    before = eta_tv(K)
    R = K.int_rows()
    with pytest.raises(ValueError, match="read-only"):
        R.A[0, 0] = 5
    with pytest.raises(ValueError, match="read-only"):
        R.d[0] = 7
    assert eta_tv(K) == before and K == Kernel([["1/2", "1/2"], ["1/4", "3/4"]])


def test_every_cached_view_is_read_only():
    rng = np.random.default_rng(5)
    w = rng.integers(1, 10**9, size=(6, 5))
    K = Kernel([[f"{v}/{row.sum()}" for v in row] for row in w])
    eta_tv(K), eta_hockey_stick(K, 2), ldp_ratio(K), pml_ratio(K, "1/12"), max_leakage(K)
    R = K.int_rows()
    arrays = [a for v in R._views.values() for a in _arrays(v) if a.size]
    assert arrays, "the measures above fill the caches"
    for a in arrays:
        assert not a.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            a.reshape(-1)[0] = a.reshape(-1)[0]
