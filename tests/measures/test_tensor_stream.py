"""Streamed slices for one loss with three ratio classes (issue 15 item 1): E_γ of p^{⊗n} vs q^{⊗n} for a 2×3
kernel's pair with O(n) memory, equal to the type-class polynomial power it replaces and to brute force."""

import itertools
import random

import pytest
from flint import fmpq

from exactdp import Kernel, hockey_stick_product
from exactdp.limits import ResourceLimitError
from exactdp.measures.privacy_loss import PairLoss, product_loss, trinomial_linear_piece
from exactdp.measures.tensor import tensor_search_cost


def _random_probs(rng, k, big=False):
    w = [rng.randint(1, 10**20 if big else 9) for _ in range(k)]
    s = sum(w)
    return [fmpq(v, s) for v in w]


def _cases():
    rng = random.Random(15)
    out = []
    while len(out) < 25:
        big = len(out) % 5 == 4  # denominators beyond int64
        p, q = _random_probs(rng, 3, big), _random_probs(rng, 3, big)
        if len(out) % 4 == 3:  # a P-only output and an output with p = 0
            p, q = [v * fmpq(9, 10) for v in p] + [fmpq(1, 10), fmpq(0)], [v * fmpq(4, 5) for v in q] + [fmpq(0), fmpq(1, 5)]
        loss = PairLoss.of(p, q)
        if len(loss.classes) == 3:
            out.append(loss)
    return out


@pytest.mark.parametrize("loss", _cases())
def test_streamed_slices_equal_the_type_class_power(loss):
    for n in (1, 2, 5, 12):
        pl = product_loss([(loss, n)])
        ratios = sorted({fmpq(a * pl.DQ, b * pl.DP) for a, b in zip(pl.P, pl.Q)})
        for g in [fmpq(0), fmpq(1), fmpq(7, 5)] + ratios[:: max(1, len(ratios) // 6)]:  # incl. exact breakpoints
            a, b = fmpq(g).q * pl.DQ, fmpq(g).p * pl.DP
            want = pl.linear_piece(lambda Pc, Qc: Pc * a > Qc * b)
            assert trinomial_linear_piece(loss, n, g) == want, (loss, n, g)


def test_streamed_slices_equal_brute_force_over_all_sequences():
    p, q = [fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)]
    for n in (1, 3, 6):
        for g in (fmpq(1), fmpq(2), fmpq(9, 2)):
            brute = fmpq(0)
            for ys in itertools.product(range(3), repeat=n):
                P = Q = fmpq(1)
                for y in ys:
                    P, Q = P * p[y], Q * q[y]
                brute += max(P - g * Q, fmpq(0))
            assert hockey_stick_product([(p, q, n)], g) == brute


def test_two_by_three_pair_at_n_2000_without_the_quadratic_classes():
    """n = 2000 runs through the slices (the polynomial route would hold ~2·10^6 classes); the value obeys
    the checks that do not need the classes: 0 ≤ δ ≤ 1, monotone in γ and in n."""
    p, q = ["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]
    d1 = hockey_stick_product([(p, q, 2000)], fmpq(3) ** 700)
    d2 = hockey_stick_product([(p, q, 2000)], fmpq(3) ** 701)
    d3 = hockey_stick_product([(p, q, 2001)], fmpq(3) ** 700)
    assert 0 < d2 < d1 < d3 < 1


def test_the_slices_are_charged_their_own_cost_and_huge_n_is_refused():
    # one pair of a 2×3 kernel: the slices' own estimate (n = 10^4 accepted, 10^7 refused before any work)
    assert hockey_stick_product([(["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"], 10**4)], fmpq(3) ** 3800) > 0
    # over all input sequences the interior compositions are still two-variable type classes: refused at 10^3
    K = Kernel([["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])
    assert tensor_search_cost([(K, 1000)], 2).work > 10**9
    with pytest.raises(ResourceLimitError, match="max_work"):
        hockey_stick_product([(["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"], 10**7)], 2)
