"""The streamed rows of a two-ratio loss times a three-ratio loss (exactdp/measures/binomial_trinomial.py) against
brute force: every outcome of the product distributions enumerated (tiny K, N), and the merged type classes of
``product_loss`` (larger K, N) — exact equality of the linear piece (A, B) and of the root of E_γ = δ."""

from __future__ import annotations

import itertools
import random

import pytest
from flint import fmpq, fmpz

from exactdp.measures.binomial_trinomial import (
    binomial_trinomial_gamma_for,
    binomial_trinomial_loss,
    binomial_trinomial_piece,
)
from exactdp.measures.privacy_loss import PairLoss, product_loss
from tests.exact import random_loss

F = fmpq
RR = PairLoss.of([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
K23 = PairLoss.of([F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)])


def _brute_piece(two: PairLoss, K: int, three: PairLoss, N: int, g: fmpq) -> tuple[fmpq, fmpq]:
    """(A, B) by enumerating every outcome of the two product distributions (classes as outputs, P-only as ∞)."""
    def outputs(loss: PairLoss) -> list[tuple[fmpq | None, fmpq, fmpq]]:
        out: list[tuple[fmpq | None, fmpq, fmpq]] = [(r, P, P / r) for r, P in loss.classes]
        if loss.p_only:
            out.append((None, loss.p_only, F(0)))
        return out

    A, B = F(0), F(0)
    for combo in itertools.product(*([outputs(two)] * K + [outputs(three)] * N)):
        P, Q, ratio = F(1), F(1), F(1)
        for r, p, q in combo:
            P, Q = P * p, Q * q
            ratio = None if r is None or ratio is None else ratio * r
        if ratio is None or ratio > g:
            A, B = A + P, B + Q
    return A, B


def _classes_piece(two: PairLoss, K: int, three: PairLoss, N: int, g: fmpq) -> tuple[fmpq, fmpq]:
    loss = product_loss([(two, K), (three, N)])
    a, b = fmpz(g.q) * loss.DQ, fmpz(g.p) * loss.DP
    return loss.linear_piece(lambda Pc, Qc: Pc * a > Qc * b)


def _gammas(two: PairLoss, K: int, three: PairLoss, N: int, rng: random.Random) -> list[fmpq]:
    """0, 1, random rationals, and ties: γ equal to product ratios of some types (a type exactly at γ is not above)."""
    (rh, _), (rl, _) = two.classes
    r1, r2, r3 = (r for r, _ in three.classes)
    out = [F(0), F(1), F(rng.randint(1, 40), rng.randint(1, 7))]
    for _ in range(4):
        a1 = rng.randint(0, N)
        a2 = rng.randint(0, N - a1)
        j = rng.randint(0, K)
        out.append(rh ** j * rl ** (K - j) * r1 ** a1 * r2 ** a2 * r3 ** (N - a1 - a2))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_piece_is_the_sum_over_every_outcome(seed):
    rng = random.Random(100 + seed)
    two = random_loss(rng, 2, 2, p_only=seed % 2 == 1)
    three = random_loss(rng, 3, 3, p_only=seed % 3 == 2)
    K, N = rng.randint(1, 3), rng.randint(1, 3)
    for g in _gammas(two, K, three, N, rng):
        assert binomial_trinomial_piece(two, K, three, N, g) == _brute_piece(two, K, three, N, g)


@pytest.mark.parametrize("seed", range(8))
def test_piece_equals_the_merged_type_classes(seed):
    rng = random.Random(200 + seed)
    two = random_loss(rng, 2 + seed % 2, 2, p_only=seed % 4 == 3)  # two classes from 2 or 3 outputs
    three = random_loss(rng, 3 + seed % 2, 3, p_only=seed % 3 == 1)
    K, N = rng.randint(1, 25), rng.randint(1, 25)
    for g in _gammas(two, K, three, N, rng):
        assert binomial_trinomial_piece(two, K, three, N, g) == _classes_piece(two, K, three, N, g)


def test_rr_times_the_2x3_pair_at_a_tie_and_a_known_value():
    """RR (3/4, 1/4) times the pair (1/2, 1/3, 1/6)/(1/4, 1/4, 1/2) once each, at γ = 1: product ratios 3·2, 3·4/3
    are above 1, 3·1/3 = 1 is a tie (not above), the others below; A = 3/4·(1/2 + 1/3) = 5/8, B = 1/4·(1/4 + 1/4) =
    1/8, and A − B = 1/2 is the TV distance of the product."""
    assert binomial_trinomial_piece(RR, 1, K23, 1, F(1)) == (F(5, 8), F(1, 8))
    A, B = binomial_trinomial_piece(RR, 1, K23, 1, F(1))
    assert A - B == product_loss([(RR, 1), (K23, 1)]).hockey_stick(F(1)) == F(1, 2)


@pytest.mark.parametrize("seed", range(6))
def test_root_equals_the_type_class_root(seed):
    rng = random.Random(300 + seed)
    two = random_loss(rng, 2, 2, p_only=False)
    three = random_loss(rng, 3, 3, p_only=seed == 5)
    K, N = rng.randint(2, 20), rng.randint(2, 20)
    loss = product_loss([(two, K), (three, N)])
    for d in (F(1, 3), F(1, 100), F(1, 10**5)):
        expected = loss.gamma_for(d)
        assert binomial_trinomial_gamma_for(two, K, three, N, d) == expected
        if expected is not None and expected > 1:  # any start gives the same exact root (used only left of it)
            for start in (expected / 2, expected * F(999, 1000), expected, expected * 2):
                assert binomial_trinomial_gamma_for(two, K, three, N, d, start) == expected


def test_recognises_exactly_one_two_ratio_and_one_three_ratio_loss():
    assert binomial_trinomial_loss([(RR, 3), (K23, 0), (K23.reverse(), 4)]) == (RR, 3, K23.reverse(), 4)
    assert binomial_trinomial_loss([(RR, 2), (RR, 1), (K23, 4)]) == (RR, 3, K23, 4)
    assert binomial_trinomial_loss([(RR, 3), (K23, 1), (K23.reverse(), 4)]) is None
    assert binomial_trinomial_loss([(K23, 3)]) is None
    assert binomial_trinomial_loss([(RR, 3), (RR.reverse(), 2)]) is None


def test_bad_gamma_is_refused():
    from exactdp.errors import ParameterError

    with pytest.raises(ParameterError, match="gamma"):
        binomial_trinomial_piece(RR, 1, K23, 1, F(-1))
