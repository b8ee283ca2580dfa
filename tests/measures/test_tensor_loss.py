"""The exact privacy-loss engine behind the n-fold products (exactdp.measures.privacy_loss)."""

import itertools
import random

from flint import fmpq

from exactdp import hockey_stick
from exactdp.measures.privacy_loss import PairLoss, coprime_basis, product_loss, ratio_exponents
from exactdp.verification.instances import random_kernel


def _explicit(factors):
    P, Q = [fmpq(1)], [fmpq(1)]
    for p, q, k in factors:
        for _ in range(k):
            P = [a * b for a in P for b in p]
            Q = [a * b for a in Q for b in q]
    return P, Q


def test_coprime_basis():
    assert coprime_basis([12, 18]) == [2, 3]
    assert coprime_basis([6, 10, 15, 1]) == [2, 3, 5]
    assert coprime_basis([4, 8, 9]) == [2, 9] or coprime_basis([4, 8, 9]) == [2, 3]
    for b1, b2 in itertools.combinations(coprime_basis([360, 84, 1001, 77 * 9]), 2):
        assert __import__("math").gcd(b1, b2) == 1


def test_ratio_lattice_dimensions():
    # randomized response: ratios t, 1/t -> D = 1; a generic 2x3 pair -> D = 2
    assert ratio_exponents([[fmpq(3), fmpq(1, 3)]])[1] == 1
    assert ratio_exponents([[fmpq(7, 3), fmpq(3, 7)], [fmpq(3, 7), fmpq(7, 3)]])[1] == 1
    assert ratio_exponents([[fmpq(2), fmpq(3), fmpq(5, 7)]])[1] == 2
    assert ratio_exponents([[fmpq(4), fmpq(2)]])[1] == 1
    assert ratio_exponents([[fmpq(1)], [fmpq(5)]])[1] == 0


def test_empty_product_is_the_trivial_dichotomy():
    A = PairLoss.of([fmpq(1, 2), fmpq(1, 2)], [fmpq(1, 4), fmpq(3, 4)])
    for factors in ([], [(A, 0)]):
        loss = product_loss(factors)
        assert [loss.hockey_stick(g) for g in (fmpq(0), fmpq(1, 3), fmpq(1), fmpq(2))] == [1, fmpq(2, 3), 0, 0]


def test_pair_loss_merges_equal_ratios():
    L = PairLoss.of([fmpq(1, 4), fmpq(1, 4), fmpq(1, 2), fmpq(0)], [fmpq(1, 8), fmpq(1, 8), fmpq(1, 2), fmpq(1, 4)])
    assert L.classes == ((fmpq(2), fmpq(1, 2)), (fmpq(1), fmpq(1, 2)))
    assert L.p_only == 0
    assert L.hockey_stick(fmpq(1)) == fmpq(1, 4)


def test_product_matches_explicit_products():
    rng = random.Random("loss-explicit")
    for _ in range(120):
        M, F = rng.randint(2, 4), rng.randint(1, 3)
        K = random_kernel(rng, 2 * F, M, 6)
        factors = [(K[2 * j], K[2 * j + 1], rng.randint(0, 3)) for j in range(F)]  # all k = 0: the empty product
        P, Q = _explicit(factors)
        loss = product_loss([(PairLoss.of(p, q), k) for p, q, k in factors])
        for g in (fmpq(0), fmpq(1), fmpq(rng.randint(1, 9), rng.randint(1, 3))):
            assert loss.hockey_stick(g) == hockey_stick(P, Q, g)


def test_dominance_is_blackwell_order():
    strong = PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)])
    weak = PairLoss.of([fmpq(5, 8), fmpq(3, 8)], [fmpq(3, 8), fmpq(5, 8)])  # strong garbled by RR(5/8... )
    assert strong.dominates(weak) and not weak.dominates(strong)
    reverse = PairLoss.of([fmpq(1, 2), fmpq(1, 2)], [fmpq(1, 4), fmpq(3, 4)])
    forward = PairLoss.of([fmpq(1, 4), fmpq(3, 4)], [fmpq(1, 2), fmpq(1, 2)])
    assert not reverse.dominates(forward) and not forward.dominates(reverse)


def test_reverse_is_the_swapped_pair():
    rng = random.Random("loss-reverse")
    for _ in range(40):
        K = random_kernel(rng, 2, rng.randint(2, 4), 7)
        assert PairLoss.of(K[0], K[1]).reverse() == PairLoss.of(K[1], K[0])
        assert PairLoss.of(K[0], K[1]).reverse().reverse() == PairLoss.of(K[0], K[1])


def test_garbling_is_dominated():
    """Blackwell: (pW, qW) is dominated by (p, q) for every channel W — the direction the pruning uses."""
    rng = random.Random("loss-garble")
    for _ in range(40):
        M, L = rng.randint(2, 4), rng.randint(2, 4)
        p, q = random_kernel(rng, 2, M, 7).rows
        W = random_kernel(rng, M, L, 7)
        pW, qW = W.apply(p).probs, W.apply(q).probs
        assert PairLoss.of(p, q).dominates(PairLoss.of(pW, qW))
        for g in (fmpq(0), fmpq(1), fmpq(rng.randint(1, 9), rng.randint(1, 3))):
            assert PairLoss.of(pW, qW).hockey_stick(g) == hockey_stick(pW, qW, g)
