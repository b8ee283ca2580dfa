"""The Blackwell join and its chord majorant (exactdp/measures/blackwell_join.py), against brute force.

E_γ is computed independently of PairLoss: the maximum over all output subsets A of p(A) − γq(A), and for products
Σ (p − γq)_+ over the explicit product vectors."""

from __future__ import annotations

import itertools
import random

import pytest
from flint import fmpq

from exactdp.measures.blackwell_join import (
    as_pair_loss,
    chord_majorant,
    coarse,
    coarse_power,
    from_profile,
    join,
    profile_max_floats,
    profile_values,
    tensor,
)
from exactdp.measures.privacy_loss import PairLoss, hockey_stick_product_losses, product_loss

F = fmpq


def brute(p, q, g):
    """max over all subsets A of p(A) − γ q(A)."""
    best = F(0)
    for mask in itertools.product((0, 1), repeat=len(p)):
        best = max(best, sum((a - g * b for a, b, m in zip(p, q, mask) if m), F(0)))
    return best


def vectors(loss):
    """Explicit (p, q) of a PairLoss: its classes, the P-only atom and the Q-only atom."""
    p = [P for _, P in loss.classes] + [loss.p_only, F(0)]
    q = [P / r for r, P in loss.classes] + [F(0), 1 - sum((P / r for r, P in loss.classes), F(0))]
    return p, q


def product_e(pairs, g):
    """Σ (p − γq)_+ over the product of the explicit pairs."""
    total = F(0)
    for combo in itertools.product(*[list(zip(*pair)) for pair in pairs]):
        a, b = F(1), F(1)
        for x, y in combo:
            a, b = a * x, b * y
        total += max(a - g * b, F(0))
    return total


def rand_dist(rng, m, zeros=False):
    w = [rng.randint(0 if zeros else 1, 9) for _ in range(m)]
    if sum(w) == 0:
        w[0] = 1
    return tuple(F(x, sum(w)) for x in w)


def probes(losses, rng):
    pts = {F(0), F(1, 1000), F(1000)} | {r for loss in losses for r, _ in loss.classes}
    pts |= {(a + b) / 2 for a, b in zip(sorted(pts), sorted(pts)[1:])}
    pts |= {F(rng.randint(1, 400), rng.randint(1, 100)) for _ in range(20)}
    return sorted(pts)


def test_join_of_binary_pair_and_reverse_by_hand():
    """A = (1/2, 1/2)‖(1/4, 3/4), B its reverse: max(E_γ(A), E_γ(B)) is 1 − γ on [0, 1/2], 3/4 − γ/2 on [1/2, 1]
    (B above A), 1/2 − γ/4 on [1, 2] (A above B, crossing at γ = 1), 0 after 2: classes (2, 1/2), (1, 1/4), (1/2, 1/4)."""
    A = PairLoss.of((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)))
    J = join([A, A.reverse()])
    assert J == PairLoss(((F(2), F(1, 2)), (F(1), F(1, 4)), (F(1, 2), F(1, 4))), F(0))


@pytest.mark.parametrize("seed", range(6))
def test_join_is_the_pointwise_maximum(seed):
    rng = random.Random(seed)
    m = rng.randint(2, 4)
    dists = [rand_dist(rng, m, zeros=seed % 2 == 1) for _ in range(2 * rng.randint(1, 3))]
    parts = [PairLoss.of(p, q) for p, q in zip(dists[::2], dists[1::2])]
    J = join(parts)
    assert all(J.dominates(part) for part in parts)
    for g in probes(parts + [J], rng):
        assert J.hockey_stick(g) == max(brute(p, q, g) for p, q in zip(dists[::2], dists[1::2]))
    assert sum((P for _, P in J.classes), J.p_only) == 1


@pytest.mark.parametrize("seed", range(4))
def test_chord_majorant_dominates_and_interpolates(seed):
    rng = random.Random(100 + seed)
    p, q = rand_dist(rng, 3), rand_dist(rng, 3)
    parts = [as_pair_loss(product_loss([(PairLoss.of(p, q), i), (PairLoss.of(q, p), 3 - i)])) for i in range(4)]
    grid = sorted({F(rng.randint(1, 60), rng.randint(1, 20)) for _ in range(8)})
    D = chord_majorant(parts, grid)
    assert {r for r, _ in D.classes} <= set(grid)
    for g in probes(parts + [D], rng):
        best = max(part.hockey_stick(g) for part in parts)
        assert D.hockey_stick(g) >= best
        if g in grid:
            assert D.hockey_stick(g) == best
    assert D.p_only == max(part.hockey_stick(grid[-1]) for part in parts)


@pytest.mark.parametrize("seed", range(4))
def test_products_with_the_join_bound_every_part(seed):
    """Data processing: E_γ(R ⊗ D_i) ≤ E_γ(R ⊗ J) for the join J of the D_i, on explicit product vectors."""
    rng = random.Random(200 + seed)
    R = (rand_dist(rng, 2), rand_dist(rng, 2))
    parts_v = [(rand_dist(rng, 3), rand_dist(rng, 3)) for _ in range(3)]
    J = join([PairLoss.of(p, q) for p, q in parts_v])
    Jv = vectors(J)
    for g in (F(1, 3), F(1), F(3, 2), F(2), F(5)):
        bound = product_e([R, R, Jv], g)
        for pv in parts_v:
            assert product_e([R, R, pv], g) <= bound
        assert bound == hockey_stick_product_losses([(PairLoss.of(*R), 2), (J, 1)], g)


def test_profile_values_and_product_conversion_match_hockey_stick():
    A = PairLoss.of((F(1, 2), F(1, 3), F(1, 6)), (F(1, 4), F(1, 4), F(1, 2)))
    prod = product_loss([(A, 3), (A.reverse(), 2)])
    loss = as_pair_loss(prod)
    gammas = [F(0), F(1, 7), F(1), F(9, 8), F(2), F(81, 16), F(40)] + [r for r, _ in loss.classes[:5]]
    gammas = sorted(set(gammas))
    assert profile_values(loss, gammas) == [prod.hockey_stick(g) for g in gammas]
    assert [loss.hockey_stick(g) for g in gammas] == [hockey_stick_product_losses([(A, 3), (A.reverse(), 2)], g)
                                                      for g in gammas]


def test_from_profile_refuses_what_is_not_a_profile():
    with pytest.raises(ValueError, match="not convex"):
        from_profile([F(1), F(2)], [F(3, 4), F(0)])  # slopes -1/4 then -3/4
    with pytest.raises(ValueError, match="slope below -1"):
        from_profile([F(1, 2)], [F(0)])
    with pytest.raises(ValueError, match="increasing"):
        from_profile([F(2), F(1)], [F(1, 2), F(1, 2)])
    assert from_profile([F(2)], [F(0)]) == PairLoss(((F(2), F(1)),), F(0))


def window_majorant(A, B, j):
    """D′_j of a row pair: the chord majorant of the profiles of A^{⊗i} ⊗ B^{⊗(j−i)}, i = 0..j, on all their ratios."""
    parts = [as_pair_loss(product_loss([(A, i), (B, j - i)])) for i in range(j + 1)]  # j = 0: the point mass
    return parts, chord_majorant(parts, sorted({r for part in parts for r, _ in part.classes}))


#: row pairs of the window test: the README's 2×3 pair, seed 3 of bench_tensor.py --random-pairs (E_γ flat in the
#: composition), the near-symmetric (3/10, 3/10, 2/5) / (2/5, 3/10, 3/10), and a pair with a zero (P-only mass)
WINDOW_PAIRS = [(("1/2", "1/3", "1/6"), ("1/4", "1/4", "1/2")), (("5/9", "1/3", "1/9"), ("3/8", "1/2", "1/8")),
                (("3/10", "3/10", "2/5"), ("2/5", "3/10", "3/10")), (("1/2", "1/2", "0"), ("1/4", "1/4", "1/2"))]


@pytest.mark.parametrize("pair", range(len(WINDOW_PAIRS)))
def test_window_bound_over_compositions(pair):
    r"""The window bound of a row pair (issue 24): every A^{⊗(k0+i)} ⊗ B^{⊗(n−k0−i)}, i ≤ j, is a garbling of
    R ⊗ D′_j with R = A^{⊗k0} ⊗ B^{⊗(n−k0−j)}, so max_{i ≤ j} E_γ(k0 + i) ≤ E_γ(R ⊗ D′_j) — at n = 12, every k0 and
    j ≤ 6, a dozen γ, both sides exact (the product's type classes with D′_j as one more factor against the
    compositions' own).  Equal at j = 0 (D′_0 is the point mass), and where R is empty (n = j) at every γ of the grid."""
    p, q = ([F(x) for x in row] for row in WINDOW_PAIRS[pair])
    A, B = PairLoss.of(p, q), PairLoss.of(q, p)
    n = 12
    E = {k: product_loss([(A, k), (B, n - k)]) for k in range(n + 1)}
    gammas = [F(0), F(1, 2), F(1), F(9, 8), F(3, 2), F(2), F(3), F(5), F(8), F(16), F(40), F(200)]
    for j in (0, 1, 2, 3, 4, 6):
        parts, D = window_majorant(A, B, j)
        assert all(D.dominates(part) for part in parts)
        assert {r for r, _ in D.classes} <= {r for part in parts for r, _ in part.classes}  # on the parts' coset
        for k0 in range(n - j + 1):
            RD = product_loss([(A, k0), (B, n - k0 - j), (D, 1)])
            for g in gammas:
                top = max(E[k0 + i].hockey_stick(g) for i in range(j + 1))
                bound = RD.hockey_stick(g)
                assert top <= bound
                if j == 0:
                    assert bound == top
    # R empty: E_γ(D′_j) is the maximum of the parts' profiles at each point of the grid (the chord's nodes)
    parts, D = window_majorant(A, B, 4)
    for r in sorted({r for part in parts for r, _ in part.classes})[::7]:
        top = max(product_loss([(A, i), (B, 4 - i)]).hockey_stick(r) for i in range(5))
        assert product_loss([(D, 1)]).hockey_stick(r) == top == D.hockey_stick(r)


@pytest.mark.parametrize("seed", range(4))
def test_tensor_is_the_product_dichotomy(seed):
    """tensor against Σ (p − γq)_+ over the explicit product vectors (zeros included: P-only and Q-only mass)."""
    rng = random.Random(300 + seed)
    a = PairLoss.of(rand_dist(rng, 3, zeros=True), rand_dist(rng, 3, zeros=True))
    b = PairLoss.of(rand_dist(rng, 4, zeros=True), rand_dist(rng, 4, zeros=True))
    ab, aba = tensor(a, b), tensor(tensor(a, b), a)
    for g in probes([ab, aba], rng):
        assert ab.hockey_stick(g) == product_e([vectors(a), vectors(b)], g)
        assert aba.hockey_stick(g) == product_e([vectors(a), vectors(b), vectors(a)], g)
    assert ab.p_only == a.p_only + (1 - a.p_only) * b.p_only


@pytest.mark.parametrize("seed", range(4))
def test_coarse_dominates_within_the_mass_left_out(seed):
    """coarse(Y, keep): at most keep classes, dominates Y, and E_γ(R ⊗ coarse) − E_γ(R ⊗ Y) is at most the P-mass of
    the classes left out, for every γ probed and an explicit R (exact values)."""
    rng = random.Random(400 + seed)
    L = PairLoss.of(rand_dist(rng, 3, zeros=seed % 2 == 1), rand_dist(rng, 3))
    Y = as_pair_loss(product_loss([(L, 5)]))
    R = PairLoss.of(rand_dist(rng, 3), rand_dist(rng, 3))
    for keep in (1, 2, 5, 9):
        C = coarse(Y, keep)
        assert len(C.classes) <= keep and C.dominates(Y)
        left = sum((P for _, P in sorted(Y.classes, key=lambda c: c[1], reverse=True)[keep:]), F(0))
        for g in probes([Y, C], rng):
            hi = hockey_stick_product_losses([(R, 2), (C, 1)], g)
            lo = hockey_stick_product_losses([(R, 2), (Y, 1)], g)
            assert lo <= hi <= lo + left
    assert coarse(Y, len(Y.classes)) == Y


@pytest.mark.parametrize("seed", range(3))
def test_coarse_power_dominates_the_power(seed):
    rng = random.Random(500 + seed)
    L = PairLoss.of(rand_dist(rng, 3, zeros=True), rand_dist(rng, 3))
    for w in (1, 2, 5, 8):
        exact = as_pair_loss(product_loss([(L, w)]))
        assert coarse_power(L, w, 10**6) == exact
        for keep in (3, 8):
            C = coarse_power(L, w, keep)
            assert len(C.classes) <= keep and C.dominates(exact)
    with pytest.raises(ValueError):
        coarse_power(L, 0, 4)


@pytest.mark.parametrize("seed", range(6))
def test_profile_max_floats_are_the_exact_maximum_rounded(seed):
    """profile_max_floats (the grid choice of window_majorant): at every ratio of the window's parts, the float of the
    exact max_i E_γ(parts_i) — on random 2×3 pairs (a zero entry: P-only mass), a pair and its reverse's ratios in the
    float range, and a pair whose parts' ratios leave it (10^±478: every part evaluated exactly)."""
    rng = random.Random(seed)

    def row(zero):
        w = [rng.randint(0 if zero else 1, 12) for _ in range(3)]
        w[0] = w[0] or 1
        return [F(x, sum(w)) for x in w]

    e = F(1, 10**60)
    pairs = [(row(seed % 2 == 0), row(False)) for _ in range(3)] + [([F(1, 2), F(1, 2) - e, e], [F(1, 4), F(1, 4), F(1, 2)])]
    for p, q in pairs:
        A, B = PairLoss.of(p, q), PairLoss.of(q, p)
        for j in (1, 5, 9):
            parts = [as_pair_loss(product_loss([(A, i), (B, j - i)])) for i in range(j + 1)]
            full = sorted({r for part in parts for r, _ in part.classes})
            exact = [float(max(vs)) for vs in zip(*(profile_values(part, full) for part in parts))]
            assert profile_max_floats(parts, full) == exact
