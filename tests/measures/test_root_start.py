"""The floats-chosen start of the exact Newton iteration (exactdp.measures.root_start): the start is left of the root
(E > δ exactly there), the root from it is the root from γ = 0, and it saves the steps — a hundred exact pieces for
the homogeneous compositions of a 3×3 kernel at n = 1000 became three or four."""

from __future__ import annotations

import pytest
from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.measures.privacy_loss import PairLoss, newton_from_left, trinomial_linear_piece
from exactdp.measures.root_start import TRINOMIAL_GRID, float_root_start, log_rational, trinomial_root_start
from exactdp.measures.tensor_search import pair_classes

F = fmpq
K23 = PairLoss.of([F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)])
ZERO_ENTRY = PairLoss.of([F(1, 2), F(1, 4), F(1, 8), F(1, 8)], [F(0), F(1, 8), F(1, 2), F(3, 8)])  # P-only 1/2
#: seed 1000 of bench_tensor.py --random-3x3-deltas: four pair classes, each a loss of three ratio classes
SEED_1000 = Kernel([["7/9", "1/6", "1/18"], ["2/9", "7/18", "7/18"], ["2/11", "8/11", "1/11"]])


def _root(loss: PairLoss, n: int, delta: fmpq, start: fmpq) -> tuple[fmpq | None, int]:
    """The root of E_γ(loss^n) = δ by Newton from the left from ``start``, and the number of exact pieces it used."""
    calls = [0]

    def piece(g: fmpq) -> tuple[fmpq, fmpq]:
        calls[0] += 1
        return trinomial_linear_piece(loss, n, g)

    floor = 1 - (1 - loss.p_only) ** n
    return newton_from_left(floor, delta, piece, start), calls[0]


@pytest.mark.parametrize("loss", [K23, ZERO_ENTRY, *(c.loss for c in pair_classes(SEED_1000))])
@pytest.mark.parametrize("n, delta", [(7, F(1, 10)), (30, F(1, 1000)), (60, F(1, 10**6)), (60, F(1, 2))])
def test_the_start_is_left_of_the_root_and_the_root_is_unchanged(loss, n, delta):
    if len(loss.classes) != 3:
        pytest.skip("not a three-ratio loss")
    start = trinomial_root_start(loss, n, delta)
    root, _ = _root(loss, n, delta, F(0))
    if root is None:  # the P-only floor is above δ: the model's E stays above δ, no start
        assert start == 0
        return
    if start > 0:
        A, B = trinomial_linear_piece(loss, n, start)
        assert A - start * B > delta  # E_start > δ: left of the root
        assert start < root
    assert _root(loss, n, delta, start)[0] == root


def test_the_start_saves_the_steps_of_a_3x3_corner_at_n_1000():
    # seed 1000's homogeneous compositions at δ = 10⁻⁶: 66–143 exact pieces from γ = 0, at most 4 from the start
    for cls in pair_classes(SEED_1000):
        delta = F(1, 10**6)
        start = trinomial_root_start(cls.loss, 1000, delta)
        from_zero, slow = _root(cls.loss, 1000, delta, F(0))
        from_start, fast = _root(cls.loss, 1000, delta, start)
        assert from_start == from_zero
        assert slow > 50 and fast <= 4
        assert abs(log_rational(start) - log_rational(from_zero)) < 1e-6 * log_rational(from_zero)


def test_no_start_where_the_model_does_not_apply():
    assert trinomial_root_start(K23, 3000, F(1, 10**6)) == 0  # (n + 1)(n + 2)/2 type classes past the grid
    assert (3001 * 3002) // 2 > TRINOMIAL_GRID
    assert trinomial_root_start(K23, 10, F(1)) == 0  # E_1 ≤ δ: the root is ≤ 1, Newton from 0 finds it at once
    two = PairLoss.of([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)])
    assert trinomial_root_start(two, 10, F(1, 10)) == 0  # not three ratio classes


def test_a_misleading_model_costs_a_few_pieces_and_gives_no_start():
    # a float model that puts the root far right of the true one: every trial point is right of the root, so no
    # start is returned (Newton then starts from 0), after at most START_TRIALS exact pieces
    calls = [0]

    def piece(g: fmpq) -> tuple[fmpq, fmpq]:
        calls[0] += 1
        return trinomial_linear_piece(K23, 20, g)

    start = float_root_start(lambda theta: 50.0 - theta, 100.0, piece, F(1, 100))
    assert start == 0 and 1 <= calls[0] <= 4


def test_newton_asks_for_the_model_start_only_where_the_cheap_start_is_not_enough():
    # without a start the model is asked at once; with a start a few steps from the root it is never asked (a
    # near-symmetric 2×3 pair's ε passes such starts: the model's type classes would cost more than the steps saved)
    loss = next(c.loss for c in pair_classes(SEED_1000))
    n, delta = 1000, F(1, 10**6)
    asked = []

    def jump() -> fmpq:
        asked.append(True)
        return trinomial_root_start(loss, n, delta)

    def piece(g: fmpq) -> tuple[fmpq, fmpq]:
        return trinomial_linear_piece(loss, n, g)

    root = newton_from_left(F(0), delta, piece, F(0), jump=jump)
    assert asked == [True]
    near = trinomial_root_start(loss, n, delta)  # left of the root, a few steps from it
    asked.clear()
    assert newton_from_left(F(0), delta, piece, near, jump=jump) == root and asked == []
    asked.clear()  # a start far left of the root: the model is asked after `patience` steps, and the root is the same
    assert newton_from_left(F(0), delta, piece, root / 2**200, jump=jump, patience=2) == root and asked == [True]
    # a jump right of the root (E ≤ δ there) is refused by the exact piece, not trusted: the root is still the least γ
    assert newton_from_left(F(0), delta, piece, F(0), jump=lambda: 2 * root) == root
