"""The small-kernel route of e^{C(K,Q_X(c))} ([G] Def. 2, D-9; privacy._pml_max_small) gives the value, worst
column and argmax/argmin rows of the float-filtered integer route, on random rational kernels with zeros."""

from __future__ import annotations

import random

from flint import fmpq

from exactdp.measures import privacy
from exactdp.mechanisms import grosse_binary_mechanism
from exactdp.verification.instances import random_kernel


def test_small_route_equals_the_filtered_route(monkeypatch):
    rng = random.Random(7)
    cases = []
    for k in range(300):
        N, M = rng.randint(2, 6), rng.randint(2, 6)
        K = random_kernel(rng, N, M, 12, full_support=k % 3 == 0)
        for c in (fmpq(1, N), fmpq(1, 2 * N), fmpq(1, 10 * N)):
            cases.append((K, c, privacy._pml_max_small(K, c)))
    monkeypatch.setattr(privacy, "SMALL_KERNEL_ENTRIES", 0)  # every kernel through the float filter
    for K, c, small in cases:
        assert privacy._pml_max(privacy.QQ, K, c) == small, (K.as_strings(), c)


def test_small_route_paper_value_and_witness():
    K = grosse_binary_mechanism(3, "1/4")
    assert K.N * K.M <= privacy.SMALL_KERNEL_ENTRIES
    assert privacy.pml_ratio(K, "1/4") == 3
    # a column of zeros and ones: r = 1 / (c·1 + (1 − 2c)·0) = 1/c at the all-mass column
    assert privacy.pml_ratio([["1", "0"], ["0", "1"]], "1/4") == 4
