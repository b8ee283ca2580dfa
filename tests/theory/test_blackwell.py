"""Blackwell domination (exactdp.theory.blackwell): exact post-processing kernels, separating losses, and
agreement with the profile criterion for dichotomies (PairLoss.dominates) on grid kernels."""

import itertools

import pytest
from flint import fmpq

from exactdp import Kernel
from exactdp.errors import ShapeError
from exactdp.mechanisms import binary_randomized_response, randomized_response
from exactdp.measures.privacy_loss import PairLoss
from exactdp.theory.blackwell import blackwell_domination, separation
from exactdp.verification.instances import grid_kernels

Q = fmpq


def test_post_processing_is_found_and_rechecked():
    K1 = randomized_response(3, 4)
    W = Kernel([["1", "0"], ["1/2", "1/2"], ["0", "1"]])
    K2 = K1 @ W
    d = blackwell_domination(K1, K2)
    assert d.dominates and d.certified()
    assert (K1 @ d.post_processing).rows == K2.rows
    assert d.post_processing.shape == (3, 2)


def test_rr_does_not_dominate_a_more_informative_rr():
    """RR(2) is a garbling of RR(3) and not conversely; the separating loss is re-checked by hand."""
    weak, strong = binary_randomized_response(2), binary_randomized_response(3)
    assert blackwell_domination(strong, weak).dominates
    d = blackwell_domination(weak, strong)
    assert not d.dominates and d.certified()
    reachable, achieved = d.separation
    assert reachable > achieved
    # brute force over the four deterministic W (and their mixtures: the minimum is at one of them)
    G = d.loss
    best = min(sum(Q(weak[x, r]) * G[x][w[r]] for x in range(2) for r in range(2))
               for w in itertools.product(range(2), repeat=2))
    assert best == reachable


def test_tampered_certificates_fail():
    weak, strong = binary_randomized_response(2), binary_randomized_response(3)
    d = blackwell_domination(weak, strong)
    zero = tuple(tuple(Q(0) for _ in row) for row in d.loss)
    bad = type(d)(d.K1, d.K2, False, None, zero, separation(d.K1, d.K2, zero), d.lp, 0)
    assert bad.failures() and not bad.certified()
    ok = blackwell_domination(strong, weak)
    wrong = type(ok)(ok.K1, ok.K2, True, Kernel([["1", "0"], ["0", "1"]]), None, None, ok.lp, 0)
    assert wrong.failures() == ["K1 @ W != K2"]


def test_agrees_with_the_profile_criterion_on_grid_dichotomies():
    """Blackwell's theorem for dichotomies: the LP decision equals 'E_gamma(K1) >= E_gamma(K2) for all gamma'
    (PairLoss.dominates) on every pair of 2x2 and 2x3 grid kernels with entries k/4."""
    kernels = list(grid_kernels(2, 2, 4)) + list(grid_kernels(2, 3, 3))
    kernels += [Kernel.from_exact_rows((K.rows[1], K.rows[0])) for K in kernels]
    count = {True: 0, False: 0}
    for K1, K2 in itertools.product(kernels[::5], kernels[1::7]):
        d = blackwell_domination(K1, K2)
        assert d.certified()
        assert d.dominates == PairLoss.of(*K1.rows).dominates(PairLoss.of(*K2.rows))
        count[d.dominates] += 1
    assert count[True] > 20 and count[False] > 20


def test_shapes_are_checked():
    with pytest.raises(ShapeError, match="K2: must have the inputs of K1"):
        blackwell_domination(randomized_response(3, 2), binary_randomized_response(2))
