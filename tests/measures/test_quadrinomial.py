"""One loss of four or more ratio classes (exactdp.measures.quadrinomial): the conditioned slices equal the type classes
of product_loss at small n (four, five and six classes), the reversed pair's route at n = 1000 (E_γ(P‖Q) = 1 − γ + γ·E_{1/γ}(Q‖P), conditioned on the
other end class), and the start of the root is left of it."""

from __future__ import annotations

import random

import pytest
from flint import fmpq

from exactdp.measures import quadrinomial
from exactdp.measures.privacy_loss import PairLoss, newton_from_left, product_loss
from exactdp.measures.quadrinomial import (
    MODEL_BITS,
    _grid_model,
    conditioned_piece,
    quadrinomial_linear_piece,
    quadrinomial_loss,
    quadrinomial_root_start,
)
from exactdp.measures.tensor_search import hockey_stick_product, tensor_search_cost

F = fmpq


def _random_pair(seed: int, outputs: int = 4) -> tuple[list[fmpq], list[fmpq]]:
    rng = random.Random(seed)

    def row() -> list[fmpq]:
        w = [rng.randint(1, 9) for _ in range(outputs)]
        return [F(x, sum(w)) for x in w]

    return row(), row()


#: seed 0 of the random 2×4 pairs (weights 1–9) that the filter refused at n = 1000 (docs/tensorization.md)
SEED_0 = PairLoss.of([F(9, 29), F(8, 29), F(7, 29), F(5, 29)], [F(7, 20), F(7, 20), F(1, 20), F(1, 4)])
#: a fifth output with q = 0: four finite classes and P-only mass 1/10
P_ONLY = PairLoss.of([F(3, 10), F(1, 5), F(1, 5), F(1, 5), F(1, 10)], [F(1, 10), F(1, 5), F(2, 5), F(3, 10), F(0)])
#: ratios 3, 2, 3/4, 1/2: log-ratios of rank 2 (log 3, log 2), still four classes
RANK_TWO = PairLoss.of([F(3, 10), F(2, 5), F(3, 20), F(3, 20)], [F(1, 10), F(1, 5), F(1, 5), F(3, 10)])
LOSSES = [SEED_0, P_ONLY, RANK_TWO, *(PairLoss.of(*_random_pair(s)) for s in (1, 3, 4))]


def test_the_route_applies_to_four_classes_of_rank_two_or_more_only():
    assert all(len(L.classes) == 4 and quadrinomial_loss([(L, 5)]) == (L, 5) for L in LOSSES)
    geometric = PairLoss.of([F(8, 15), F(4, 15), F(2, 15), F(1, 15)], [F(1, 15), F(2, 15), F(4, 15), F(8, 15)])
    assert len(geometric.classes) == 4 and quadrinomial_loss([(geometric, 5)]) is None  # rank one: rank_one's route
    three = PairLoss.of([F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)])
    assert quadrinomial_loss([(three, 5)]) is None
    assert quadrinomial_loss([(SEED_0, 3), (SEED_0.reverse(), 2)]) is None  # two losses: not one homogeneous loss


@pytest.mark.parametrize("loss", LOSSES, ids=lambda L: str(L.classes[0][0]))
@pytest.mark.parametrize("n", [1, 2, 5, 11])
def test_the_piece_equals_the_type_classes(loss, n):
    product = product_loss([(loss, n)])
    ratios = sorted({F(int(Pc) * int(product.DQ), int(Qc) * int(product.DP))
                     for Pc, Qc in zip(product.P, product.Q) if Qc})
    # at every breakpoint (a tie: ratio = γ is not above), between two, at 0, 1 and past the largest
    gammas = {F(0), F(1), ratios[-1] * 2, *ratios[:: max(1, len(ratios) // 12)],
              *((a + b) / 2 for a, b in zip(ratios[:: max(1, len(ratios) // 12)], ratios[1:]))}
    for g in gammas:
        A, B = quadrinomial_linear_piece(loss, n, g)
        a, b = g.q * product.DQ, g.p * product.DP
        assert (A, B) == product.linear_piece(lambda Pc, Qc, a=a, b=b: Pc * a > Qc * b), (n, g)
        assert A - g * B == product.hockey_stick(g)


@pytest.mark.parametrize("gamma", [F(2) ** 433, F(3) ** 200, F(10) ** 120])
def test_n_1000_equals_the_reversed_pair_conditioned_on_the_other_end(gamma):
    # E_γ(P‖Q) = 1 − γ + γ·E_{1/γ}(Q‖P) (the two hockey-stick sums differ by 1 − γ); the reversed loss's class 1 is the
    # original's class 4, so the two sides run through different rows and slices
    n, rev = 1000, SEED_0.reverse()
    A, B = quadrinomial_linear_piece(SEED_0, n, gamma)
    ra, rb = quadrinomial_linear_piece(rev, n, 1 / gamma)
    direct = A - gamma * B
    assert direct == 1 - gamma + gamma * (ra - rb / gamma)
    assert 0 < direct < 1


def test_the_dispatch_and_the_cost_guard_at_n_1000():
    # the homogeneous composition of a four-output pair at n = 1000 was refused (1.68e8 type classes); now streamed
    cost = tensor_search_cost([([["9/29", "8/29", "7/29", "5/29"], ["7/20", "7/20", "1/20", "1/4"]], 1)])
    assert cost.terms == 4  # one coordinate: the guard charges the slices of n = 1
    P, Q = [F(9, 29), F(8, 29), F(7, 29), F(5, 29)], [F(7, 20), F(7, 20), F(1, 20), F(1, 4)]
    g = F(2) ** 433
    A, B = quadrinomial_linear_piece(SEED_0.reverse(), 1000, g)
    assert hockey_stick_product([(Q, P, 1000)], g) == A - g * B
    assert hockey_stick_product([(Q, P, 9)], 7) == product_loss([(SEED_0.reverse(), 9)]).hockey_stick(F(7))


def _root(loss: PairLoss, n: int, delta: fmpq, start: fmpq) -> tuple[fmpq | None, int]:
    calls = [0]

    def piece(g: fmpq) -> tuple[fmpq, fmpq]:
        calls[0] += 1
        return quadrinomial_linear_piece(loss, n, g)

    return newton_from_left(1 - (1 - loss.p_only) ** n, delta, piece, start), calls[0]


@pytest.mark.parametrize("loss", LOSSES, ids=lambda L: str(L.classes[0][0]))
@pytest.mark.parametrize("n, delta", [(6, F(1, 10)), (40, F(1, 1000)), (120, F(1, 10**6))])
def test_the_start_is_left_of_the_root_and_the_root_is_unchanged(loss, n, delta):
    start = quadrinomial_root_start(loss, n, delta)
    root, _ = _root(loss, n, delta, F(0))
    if root is None:
        assert start == 0
        return
    assert start <= root
    if start > 0:
        A, B = quadrinomial_linear_piece(loss, n, start)
        assert A - start * B > delta or start == root
    assert _root(loss, n, delta, start)[0] == root


def test_the_start_saves_the_steps_at_n_300():
    delta = F(1, 10**6)
    start = quadrinomial_root_start(SEED_0, 300, delta)
    from_zero, slow = _root(SEED_0, 300, delta, F(0))
    from_start, fast = _root(SEED_0, 300, delta, start)
    assert from_start == from_zero
    assert slow > 10 and fast <= 4


@pytest.mark.parametrize("loss", LOSSES, ids=lambda L: str(L.classes[0][0]))
def test_every_conditioned_class_gives_the_same_sums(loss):
    # the class is a choice of speed only (streamed_slices): each of the four runs through other rows and slices
    product = product_loss([(loss, 9)])
    for g in (F(0), F(1), F(5, 2), F(40), F(10) ** 4):
        pieces = {conditioned_piece(loss, 9, g, c) for c in range(4)}
        assert len(pieces) == 1
        A, B = pieces.pop()
        assert A - g * B == product.hockey_stick(g)
    assert conditioned_piece(loss, 300, F(2) ** 40, 3) == conditioned_piece(loss, 300, F(2) ** 40, 0)


def test_extreme_ratios_take_a_coarser_model_grid_not_no_start(monkeypatch):
    # log-ratios spanning 15 nats: the 2^-10-nat model of n = 1000 would take 1.5e7 points (over MODEL_GRID); a coarser
    # grid still proposes a start, and the exact pieces keep it left of the root (the cap lowered to reach it at n = 80)
    loss = PairLoss.of([F(1, 2), F(1, 4), F(1, 8), F(1, 8)],
                       [F(1, 10**6), F(1, 1000), F(1, 3), 1 - F(1, 3) - F(1, 1000) - F(1, 10**6)])
    assert _grid_model(loss, 1000)[1] > 2.0 ** -MODEL_BITS
    monkeypatch.setattr(quadrinomial, "MODEL_GRID", 1 << 14)
    assert _grid_model(loss, 80)[1] >= 2.0 ** -(MODEL_BITS - 6)
    delta = F(1, 10**6)
    start = quadrinomial_root_start(loss, 80, delta)
    root, steps = _root(loss, 80, delta, start)
    from_zero, slow = _root(loss, 80, delta, F(0))
    assert 0 < start <= root == from_zero
    assert steps < slow  # a coarser guide, still fewer exact pieces than from γ = 0


def test_a_low_ambient_precision_does_not_reach_the_float_thresholds():
    # the thresholds' float shortcut is certified by 64-bit balls of the logs, computed at 64 bits whatever the
    # caller's arb precision: under 12 bits the pieces are still the type classes'
    from flint import ctx

    product = product_loss([(SEED_0, 9)])
    with ctx.workprec(12):
        breakpoints = sorted({F(int(Pc) * int(product.DQ), int(Qc) * int(product.DP))
                              for Pc, Qc in zip(product.P, product.Q) if Qc})[::5]
        for g in [r * (1 + F(s, 10**6)) for r in breakpoints for s in (-1, 1)]:  # a millionth off: the close calls
            for c in range(4):  # conditioned_piece: not the kept pieces of quadrinomial_linear_piece
                A, B = conditioned_piece(SEED_0, 9, g, c)
                assert A - g * B == product.hockey_stick(g)


#: seed 0 of the random 2×5 and 2×6 pairs: five and six finite ratio classes of lattice rank 4 (the 2×5 pair was
#: refused from n = 50 on: 316 251 type classes of 790-bit integers per evaluation)
FIVE = PairLoss.of(*_random_pair(0, 5))
SIX = PairLoss.of(*_random_pair(0, 6))


def test_five_or_more_classes_take_the_route_from_lattice_rank_three():
    assert len(FIVE.classes) == 5 and quadrinomial_loss([(FIVE, 7)]) == (FIVE, 7)
    assert len(SIX.classes) == 6 and quadrinomial_loss([(SIX, 7)]) == (SIX, 7)
    # ratios 3, 2, 1, 2/3, 1/2: rank two (log 2, log 3), O(n²) lattice points: the type classes are cheaper
    rank_two = PairLoss.of([F(3, 10), F(1, 5), F(1, 10), F(1, 5), F(1, 5)], [F(1, 10), F(1, 10), F(1, 10), F(3, 10),
                                                                           F(2, 5)])
    assert len(rank_two.classes) == 5 and quadrinomial_loss([(rank_two, 7)]) is None


@pytest.mark.parametrize("loss", [FIVE, SIX], ids=["five", "six"])
@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_five_and_six_classes_equal_the_type_classes_for_every_first_class(loss, n):
    # conditioned on one class, then on another, down to three streamed classes; every first class the same sums, at
    # every breakpoint (ties) and between
    product = product_loss([(loss, n)])
    ratios = sorted({F(int(Pc) * int(product.DQ), int(Qc) * int(product.DP))
                     for Pc, Qc in zip(product.P, product.Q) if Qc})
    step = max(1, len(ratios) // 10)
    gammas = {F(0), F(1), ratios[-1] * 2, *ratios[::step], *((a + b) / 2 for a, b in zip(ratios[::step], ratios[1:]))}
    for g in gammas:
        a, b = g.q * product.DQ, g.p * product.DP
        expected = product.linear_piece(lambda Pc, Qc, a=a, b=b: Pc * a > Qc * b)
        assert all(conditioned_piece(loss, n, g, c) == expected for c in range(len(loss.classes))), (n, g)


@pytest.mark.parametrize("gamma", [F(2) ** 10, F(2) ** 20, F(3) ** 15])
def test_five_classes_at_n_40_equal_the_type_classes(gamma):
    A, B = quadrinomial_linear_piece(FIVE, 40, gamma)
    assert A - gamma * B == product_loss([(FIVE, 40)]).hockey_stick(gamma)
