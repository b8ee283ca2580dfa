"""Compositions next to a corner (exactdp/measures/near_corner.py): one streamed loss times a product of few type
classes, against the merged type classes of ``product_loss`` — exact equality of the linear piece (A, B), of E_γ and
of the root of E_γ = δ — and the cost decision that routes a composition there (tensor_search.corner_route)."""

from __future__ import annotations

import random

import pytest
from flint import fmpq, fmpz

from exactdp.kernels import Kernel
from exactdp.limits import limit, limits
from exactdp.measures.near_corner import corner_split, near_corner_gamma_for, near_corner_piece
from exactdp.measures.privacy_loss import PairLoss, product_loss
from exactdp.measures.tensor import TensorSearch
from exactdp.measures.tensor_search import corner_route, evaluation_cost, hockey_stick_product
from tests.exact import random_loss

F = fmpq
#: seed 3 of benchmarks/bench_tensor.py --random-pairs (near-symmetric: its ε maximizer at n = 1000 is (999, 1))
P3, Q3 = [F(5, 9), F(1, 3), F(1, 9)], [F(3, 8), F(1, 2), F(1, 8)]
A3 = PairLoss.of(P3, Q3)


def _classes_piece(items: list[tuple[PairLoss, int]], g: fmpq) -> tuple[fmpq, fmpq]:
    loss = product_loss(items)
    a, b = fmpz(g.q) * loss.DQ, fmpz(g.p) * loss.DP
    return loss.linear_piece(lambda Pc, Qc: Pc * a > Qc * b)


def _gammas(items: list[tuple[PairLoss, int]], rng: random.Random) -> list[fmpq]:
    """0, 1, random rationals, and ties: γ equal to product ratios of the whole product (a class at γ is not above)."""
    loss = product_loss(items)
    ratios = [fmpq(Pc, loss.DP) / fmpq(Qc, loss.DQ) for Pc, Qc in zip(loss.P, loss.Q)]
    return [F(0), F(1), F(rng.randint(1, 40), rng.randint(1, 7))] + rng.sample(ratios, min(6, len(ratios)))


def _random_items(seed: int) -> list[tuple[PairLoss, int]]:
    """A large loss of one to three classes (4 to 7 coordinates) times one or two small losses (1 to 3 each)."""
    rng = random.Random(500 + seed)
    big = random_loss(rng, 2 + seed % 3, 1 + seed % 3, p_only=seed % 4 == 3)
    items = [(big, rng.randint(4, 7))]
    for j in range(1 + seed % 2):
        classes = rng.randint(1, 3)
        items.append((random_loss(rng, classes + 1, classes, p_only=(seed + j) % 3 == 1), rng.randint(1, 3)))
    return items


@pytest.mark.parametrize("seed", range(9))
def test_piece_equals_the_type_classes(seed):
    items = _random_items(seed)
    split = corner_split(items)
    assert split is not None and split[0] == items[0][0] and split[1] == items[0][1]
    for g in _gammas(items, random.Random(seed)):
        assert near_corner_piece(*split, g) == _classes_piece(items, g), g


@pytest.mark.parametrize("seed", range(9))
def test_root_equals_the_type_classes(seed):
    items = _random_items(seed)
    split = corner_split(items)
    assert split is not None
    loss = product_loss(items)
    for delta in (F(0), F(1, 1000), F(1, 10), F(1, 2), loss.p_inf, F(99, 100)):
        assert near_corner_gamma_for(*split, delta) == loss.gamma_for(delta), delta


def test_the_seed_3_pair_next_to_its_corner():
    """(p, q)^{⊗k} ⊗ (q, p)^{⊗m} of the seed-3 pair, k + m = 9, m = 1, 2: E_γ and the root of E_γ = δ equal the type
    classes' (the compositions its ε maximizer is at n = 1000), in both orders of the factors."""
    B3 = A3.reverse()
    for k, m in ((8, 1), (7, 2), (1, 8)):
        items = [(A3, k), (B3, m)]
        loss = product_loss(items)
        for g in (F(1), F(3, 2), F(5), F(40)):
            assert hockey_stick_product([(P3, Q3, k), (Q3, P3, m)], g) == loss.hockey_stick(g)
        for delta in (F(1, 10**6), F(1, 100), F(1, 2)):
            split = corner_split(items)
            assert split is not None and near_corner_gamma_for(*split, delta) == loss.gamma_for(delta)


def test_the_route_is_chosen_by_cost():
    """At n = 1000 the composition (999, 1) costs three streamed evaluations (within the default ``max_work``) where
    its type classes (1.5·10⁶ of 4 000-bit integers) are over it; a middle composition keeps the type classes."""
    B3 = A3.reverse()
    corner = evaluation_cost([A3, B3], [999, 1])
    classes = evaluation_cost([A3, B3], [999, 1], binomial=False)
    assert corner_route([(A3, 999), (B3, 1)]) is not None
    assert corner[3] <= limit("max_work") < classes[3]
    assert corner_route([(A3, 500), (B3, 500)]) is None
    assert evaluation_cost([A3, B3], [500, 500]) == evaluation_cost([A3, B3], [500, 500], binomial=False)
    assert corner_split([(A3, 5)]) is None  # one loss: the streamed slices themselves


@pytest.mark.parametrize("classes", [4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_a_large_side_of_four_or_five_classes_equals_the_type_classes(classes, seed):
    # the large side's E_{γ/r_c} by the conditioned slices (exactdp.measures.quadrinomial), one per class of the small
    # side; a large loss of four or more classes had no split before
    rng = random.Random(900 + seed)
    big = random_loss(rng, classes + 1, classes, p_only=seed == 2)
    items = [(big, 6), (random_loss(rng, 3, 2, p_only=False), 1), (random_loss(rng, 4, 3, p_only=seed == 1), 1)]
    split = corner_split(items)
    assert split is not None and split[0] == big and split[1] == 6
    for g in _gammas(items, random.Random(seed)):
        assert near_corner_piece(*split, g) == _classes_piece(items, g), g


def test_eta_tv_of_a_2x4_pair_is_the_exact_search_s_next_to_its_corner():
    # seed 0 of the random 2×4 pairs at n = 40, γ = 1: the maximum is at (2, 38), two coordinates off the corner,
    # which the ranges cannot rule out at γ = 1; it and the other compositions left are products of two four-class
    # losses, refused at the default max_work as type classes, now one conditioned evaluation per class of the small
    # side — the same value and maximiser as the unfiltered search over the type classes (raised max_work)
    rng = random.Random(0)
    rows = []
    for _ in range(2):
        w = [rng.randint(1, 9) for _ in range(4)]
        rows.append([F(x, sum(w)) for x in w])
    K = Kernel(rows)
    filtered = TensorSearch([(K, 40)], filtered=True).witness(F(1))
    with limits(max_work=10**12):
        exact = TensorSearch([(K, 40)], filtered=False).witness(F(1))
    assert (filtered.value, filtered.counts) == (exact.value, exact.counts)
    assert exact.counts == (2, 38) and f"{float(exact.value):.12f}" == "0.938680990204"
