"""Certified bounds of E_gamma for products of two three-ratio losses (exactdp.measures.lattice_interval, issue 15).

Every bound must contain the exact value (type classes, hockey_stick_product_losses) on random 2x3 pairs and
mixed compositions (k coordinates of (p, q), m of (q, p)), at ties (gamma equal to a product ratio), with
P-only mass on either side, and with two-ratio losses mixed in; the filter's per-composition bounds must come
in the search's enumeration order and contain the exact values; the all-sequence delta through the filter
must equal the unfiltered exact search.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from flint import arb, ctx, fmpq

from exactdp import Kernel
from exactdp.errors import CoercionError, ParameterError
from exactdp.measures.lattice_interval import (
    EXP_REL,
    THREE_RATIO,
    LatticeEnclosure,
    chernoff_bound,
    exp_floats,
    hockey_stick_bounds,
)
from exactdp.measures.privacy_loss import PairLoss, hockey_stick_product_losses
from exactdp.measures.tensor_search import all_compositions, classify, normalize_factors
from tests.exact import random_distribution


def _pair(rng, zero_p=None, zero_q=None):
    while True:
        p, q = random_distribution(rng, 3, zero_p), random_distribution(rng, 3, zero_q)
        loss = PairLoss.of(p, q)
        if len(loss.classes) == 3 or (zero_p is not None or zero_q is not None):
            return loss


def _gammas(loss: PairLoss, k: int, m: int, rng) -> list[fmpq]:
    """1, a random rational, and ties: a product ratio r^a s^b of the composition (a type exactly at γ)."""
    out = {fmpq(1), fmpq(rng.randint(2, 40), rng.randint(1, 7))}
    rs = [r for r, _ in loss.classes]
    if rs and k + m:
        tie = rs[0] ** max(k - 1, 0) * (1 / rs[-1]) ** max(m - 1, 0) * rs[-1]
        if m and k:
            tie *= 1 / rs[0]
        out.add(tie if tie >= 1 else 1 / tie)
    return sorted(g for g in out if g > 0)


def test_exp_floats_error_is_within_the_proved_bound():
    rng = np.random.default_rng(2026)
    x = np.concatenate((rng.uniform(-700, 700, 4000), rng.uniform(-1e-3, 1e-3, 500), [0.0, -700.0, 700.0]))
    y = exp_floats(x)
    with ctx.workprec(200):
        worst = max(abs((arb(float(b)) / arb(float(a)).exp() - 1).mid()) for a, b in zip(x, y))
    assert float(worst) <= EXP_REL / 8  # the analysis gives 16u; EXP_REL keeps 64u
    with pytest.raises(ParameterError, match="700"):
        exp_floats(np.array([701.0]))


@pytest.mark.parametrize("seed", range(4))
def test_bounds_contain_the_exact_value_on_mixed_compositions(seed):
    rng = random.Random(1201 + seed)
    enc = LatticeEnclosure()
    checked = 0
    for case in range(6):
        zero_p = 0 if case == 4 else None  # (q, p) gets P-only mass
        zero_q = 1 if case == 5 else None  # (p, q) gets P-only mass
        loss = _pair(rng, zero_p, zero_q)
        rev = loss.reverse()
        for _ in range(3):
            k, m = rng.randint(0, 40), rng.randint(0, 20)
            for g in _gammas(loss, k, m, rng):
                items = [(loss, k), (rev, m)]
                exact = hockey_stick_product_losses(items, g)
                lo, hi = enc.bounds(items, g)
                assert lo <= exact <= hi, (loss, k, m, g)
                assert hi - lo <= fmpq(1, 10**6)  # absolute: the filter's default cut
                checked += 1
    assert checked >= 40


def test_requested_relative_width_is_met_and_contains_the_exact_value():
    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)])
    rev = loss.reverse()
    for k, m, g in ((60, 0, fmpq(3) ** 18), (0, 60, fmpq(3) ** 18), (30, 30, fmpq(3) ** 9), (55, 5, fmpq(2) ** 20)):
        items = [(loss, k), (rev, m)]
        exact = hockey_stick_product_losses(items, g)
        assert exact > 0
        lo, hi = hockey_stick_bounds(items, g, rel_width=fmpq(1, 10**6))
        assert lo <= exact <= hi
        assert hi - lo <= fmpq(1, 10**6) * lo, (k, m, float(exact), float((hi - lo) / lo))


def test_two_ratio_and_one_ratio_losses_and_trivial_products():
    rng = random.Random(7)
    three = _pair(rng)
    two = PairLoss.of([fmpq(1, 3), fmpq(2, 3)], [fmpq(2, 3), fmpq(1, 3)])
    one = PairLoss.of([fmpq(1, 2), fmpq(1, 2), fmpq(0)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])  # one ratio, 2
    for items in ([(three, 12), (two, 9)], [(two, 20)], [(one, 7), (three, 5)], [(one, 3)], [(three, 25)]):
        for g in (fmpq(1), fmpq(5, 2), fmpq(2) ** 3):
            exact = hockey_stick_product_losses(items, g)
            lo, hi = hockey_stick_bounds(items, g)
            assert lo <= exact <= hi
    assert hockey_stick_bounds([(three, 0)], fmpq(1, 2)) == (fmpq(1, 2), fmpq(1, 2))  # empty product: (1 − γ)_+
    assert hockey_stick_bounds([(three, 4)], 0) == (1, 1)
    p_only = PairLoss.of([fmpq(1)], [fmpq(0)])  # no finite class: everything is P-only
    assert hockey_stick_bounds([(p_only, 3), (three, 2)], 2) == (1, 1)


def test_refusals_name_the_argument():
    rng = random.Random(3)
    a = _pair(rng)
    four = PairLoss.of([fmpq(1, 10), fmpq(2, 10), fmpq(3, 10), fmpq(4, 10)],
                       [fmpq(4, 10), fmpq(3, 10), fmpq(2, 10), fmpq(1, 10)])
    with pytest.raises(ParameterError, match="4 ratio classes"):
        hockey_stick_bounds([(four, 3)], 2)
    with pytest.raises(CoercionError, match="gamma: floats are not accepted"):
        hockey_stick_bounds([(a, 3)], 0.5)
    with pytest.raises(ParameterError, match="gamma"):
        hockey_stick_bounds([(a, 3)], -1)


def test_chernoff_bound_is_an_upper_bound():
    rng = random.Random(11)
    for _ in range(12):
        loss = _pair(rng, None, 2 if rng.random() < 0.3 else None)
        k, m = rng.randint(0, 30), rng.randint(0, 30)
        for g in (fmpq(1), fmpq(3) ** rng.randint(1, 10)):
            items = [(loss, k), (loss.reverse(), m)]
            assert chernoff_bound(items, g) >= hockey_stick_product_losses(items, g)


def _kernel_2x3(rng):
    while True:
        p, q = random_distribution(rng, 3), random_distribution(rng, 3)
        if len(PairLoss.of(p, q).classes) == 3:
            return Kernel([p, q])


@pytest.mark.parametrize("n", [5, 17, 30])
def test_filter_rows_are_in_search_order_and_contain_the_exact_values(n):
    rng = random.Random(40 + n)
    K = _kernel_2x3(rng)
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    losses = [c.loss for c in classes]
    r = THREE_RATIO
    assert r.estimate(losses, groups, totals) is not None
    for g in (fmpq(1), fmpq(3, 2), fmpq(2) ** (n // 3)):
        rows = r.enclose(losses, groups, totals, g)
        assert [c for c, _, _ in rows] == list(all_compositions(groups, totals, len(classes)))
        for counts, lo, hi in rows:
            exact = hockey_stick_product_losses([(lo_, k) for lo_, k in zip(losses, counts)], g)
            assert lo <= exact <= hi, (counts, g)


def test_routine_applies_to_three_ratio_classes_only():
    r = THREE_RATIO
    two = PairLoss.of([fmpq(1, 3), fmpq(2, 3)], [fmpq(2, 3), fmpq(1, 3)])
    three = PairLoss.of([fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)])
    assert r.estimate([two, two.reverse()], [[0, 1]], [10]) is None  # the two-ratio routine's
    assert r.estimate([three, three.reverse()], [[0, 1]], [10]) is not None
    assert r.estimate([three, three.reverse(), two], [[0, 1, 2]], [10]) is None  # three classes in a factor
    assert r.estimate([three, two], [[0], [1]], [10, 3]) is None  # two factors


@pytest.mark.parametrize("n", [8, 25, pytest.param(40, marks=pytest.mark.slow)])
def test_all_sequence_delta_through_the_filter_equals_the_exact_search(n):
    """The candidates' exact maximum (what the filtered search returns) equals the unfiltered exact search."""
    rng = random.Random(900 + n)
    for _ in range(2):
        K = _kernel_2x3(rng)
        classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
        losses = [c.loss for c in classes]
        for g in (fmpq(1), fmpq(2), fmpq(3) ** (n // 4)):
            rows = THREE_RATIO.enclose(losses, groups, totals, g)
            best_lo = max(lo for _, lo, _ in rows)
            candidates = [c for c, _, hi in rows if hi >= best_lo]
            assert len(candidates) < len(rows) or n < 10
            filtered = max(hockey_stick_product_losses(list(zip(losses, c)), g) for c in candidates)
            everything = max(hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in rows)
            assert filtered == everything


def test_every_product_ratio_as_gamma_ties_are_enclosed():
    """γ equal to the likelihood ratio of some pair of atoms (a type exactly at the threshold, contributing 0)."""
    import itertools

    rng = random.Random(77)
    loss = _pair(rng)
    rev = loss.reverse()
    k, m = 4, 3
    ra, rb = [r for r, _ in loss.classes], [r for r, _ in rev.classes]
    ratios = set()
    for a in itertools.combinations_with_replacement(range(3), k):
        for b in itertools.combinations_with_replacement(range(3), m):
            r = fmpq(1)
            for i in a:
                r *= ra[i]
            for i in b:
                r *= rb[i]
            ratios.add(r)
    enc = LatticeEnclosure()
    gammas = sorted(r for r in ratios if r >= 1)
    assert len(gammas) >= 10
    for g in gammas:
        items = [(loss, k), (rev, m)]
        exact = hockey_stick_product_losses(items, g)
        lo, hi = enc.bounds(items, g)
        assert lo <= exact <= hi, g


@pytest.mark.slow
def test_delta_over_all_sequences_enclosure_and_exact_route():
    """delta_tensor_power(..., enclosure=True) of a 2x3 kernel: through the filter, exact where the candidates are
    cheap, an enclosure of the exact search's value with try_exact=False (candidates by lattice bounds)."""
    from exactdp.limits import limits
    from exactdp.measures.tensor import TensorSearch, delta_tensor_power
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    K = Kernel([["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])
    for n, g in ((40, fmpq(3) ** 12), (60, fmpq(2) ** 15), (60, fmpq(1))):
        exact = TensorSearch([(K, n)], filtered=False).witness(g).value
        assert delta_tensor_power(K, n, g) == exact
        with limits(max_work=10**7):  # below the exact search's estimate: the filter's route
            r = delta_tensor_power_enclosure(K, n, g, try_exact=False)
            assert exact in r and r.relative_width <= r.requested
            e = delta_tensor_power_enclosure(K, n, g)
            assert e.exact and e.value == exact


def test_work_budget_and_nothing_to_separate():
    """A budget refuses work before it starts; with E_gamma within 2^-20 of 1 for every composition (gamma = 2 at
    n = 300) the routine stops at once with valid bounds (the exact corners inside, the rest [0, 1]), so the
    search falls back to its own cost guard instead of refining every composition; at n = 300 (1 − E ≈ 3·10⁻⁴)
    the work budget ends the search with the open intervals' bounds, still valid."""
    from exactdp.measures.lattice_interval import OverBudget

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 3), fmpq(1, 3), fmpq(1, 3)])
    with pytest.raises(OverBudget):
        LatticeEnclosure(budget=10).bounds([(loss, 50), (loss.reverse(), 50)], 2)
    for n in (300, 1000):
        rows = THREE_RATIO.enclose([loss, loss.reverse()], [[0, 1]], [n], fmpq(2))
        assert len(rows) == n + 1
        for counts, lo, hi in (rows[0], rows[-1]):
            assert lo <= hockey_stick_product_losses([(loss, counts[0]), (loss.reverse(), counts[1])], fmpq(2)) <= hi
        assert all(0 <= lo <= hi <= 1 for _, lo, hi in rows)
        if n == 1000:
            assert sum(1 for _, lo, hi in rows if (lo, hi) == (0, 1)) == n - 1
            continue
        for counts, lo, hi in rows[1:3]:  # and they contain the exact values (type classes: cheap at n = 300)
            exact = hockey_stick_product_losses([(loss, counts[0]), (loss.reverse(), counts[1])], fmpq(2))
            assert lo <= exact <= hi


def test_enclosure_when_every_composition_is_near_one():
    """E_gamma within 2^-20 of 1 for every composition (gamma = 1, n = 1000): the filter has nothing to separate,
    and enclosure=True answers [max over the homogeneous compositions (exact), 1] — delta <= 1 always."""
    from exactdp.measures.tensor import TensorSearch
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    K = Kernel([["1/2", "1/3", "1/6"], ["1/3", "1/3", "1/3"]])
    r = delta_tensor_power_enclosure(K, 1000, 3)
    S = TensorSearch([(K, 1000)])
    corners = [S.hockey_stick(c, fmpq(3)) for c in ((1000, 0), (0, 1000))]
    assert (r.lower, r.upper, r.exact) == (max(corners), 1, False)
    assert 0 < r.relative_width <= r.requested


def test_shared_blocks_are_built_once_across_gamma():
    """Enclosures sharing a BlockStore build each (loss, k, cut) block once: at a second γ only the sweeps are
    charged, and the bounds equal those of a fresh enclosure (the atoms do not depend on γ)."""
    from exactdp.measures.lattice_interval import BlockStore

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    items = [(loss, 30), (loss.reverse(), 20)]
    store = BlockStore()
    first = LatticeEnclosure(blocks=store)
    first.bounds(items, fmpq(3) ** 10)
    assert len(store.blocks) == 2 and store.kept > 0
    second, fresh = LatticeEnclosure(blocks=store), LatticeEnclosure()
    g = fmpq(3) ** 14
    assert second.bounds(items, g) == fresh.bounds(items, g)
    assert 0 < second.work < fresh.work
    exact = hockey_stick_product_losses(items, g)
    lo, hi = second.bounds(items, g)
    assert lo <= exact <= hi
    tiny = BlockStore(keep_atoms=1)  # past the cap a block is used once and not kept
    LatticeEnclosure(blocks=tiny).bounds(items, g)
    assert tiny.blocks == {} and tiny.kept == 0


@pytest.mark.parametrize("seed", range(6))
def test_products_of_three_losses_contain_the_exact_value(seed):
    """More than two distinct losses (a product of several kernels, or a composition with fixed factors) are paired
    by product blocks: the enclosure contains the exact E_γ of the type classes at 1, a random γ and a tie (a
    product ratio of the composition exactly at γ), and is tight (relative width ≤ 10⁻⁸ away from 0)."""
    from exactdp.measures.privacy_loss import product_loss

    rng = random.Random(100 + seed)
    two = PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)])  # randomized response: two ratio classes
    a, b = _pair(rng), _pair(rng)
    items = [(two, rng.randint(1, 6)), (a, rng.randint(1, 5)), (b, rng.randint(1, 5))]
    ties = [two.classes[0][0] * a.classes[0][0] * b.classes[-1][0]]
    for g in [fmpq(1), fmpq(rng.randint(2, 30), rng.randint(1, 5))] + [t for t in ties if t >= 1]:
        exact = product_loss(items).hockey_stick(g)
        lo, hi = hockey_stick_bounds(items, g)
        assert lo <= exact <= hi
        if exact > fmpq(1, 10**6):
            assert hi - lo <= exact / 10**8


def test_product_block_dropped_mass_is_an_upper_bound():
    """A product block cut shallowly: its kept atoms' mass plus its ``dropped`` bound is at least the exact finite
    mass 1 (no P-only mass), and the kept atoms are exactly the pairs above the cut."""
    from exactdp.measures.lattice_interval import _block, product_block

    rr = PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)])
    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    X, Y = _block(rr, 40, 6.0), _block(loss, 30, 6.0)
    P = product_block(X, Y, 6.0)
    kept = float(np.sum(np.exp(P.lp)))
    assert 0 < P.count < X.count * Y.count
    assert kept + float(P.dropped) >= 1 - 1e-9
    pairs = (X.lp[:, None] + Y.lp[None, :]).ravel()
    assert P.count == int(np.count_nonzero(pairs >= float(np.max(X.lp) + np.max(Y.lp)) - 6.0))


def test_product_block_keeping_every_pair_is_the_stable_sort_of_its_pairs():
    """A product block at an infinite cut (a window's product, :func:`window_bounds`) has exactly the floats and the order
    of the stable sort by loss of its pairs laid out x-major (x, then y by descending log-mass), ties included: a lattice
    block times the window majorant's atoms (losses on one lattice: many exact ties), and blocks whose sums tie only by
    rounding (1 + 10⁻¹⁷ = 1), where the pairs of two runs tie in the opposite order."""
    from exactdp.measures.blackwell_join import window_majorant
    from exactdp.measures.lattice_interval import Block, _block, loss_block, product_block

    def brute(X: Block, Y: Block) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(-Y.lp, kind="stable")
        lp = (X.lp[:, None] + Y.lp[order][None, :]).ravel()
        L = (X.L[:, None] + Y.L[order][None, :]).ravel()
        s = np.argsort(L, kind="stable")
        return lp[s], L[s]

    A = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    X, W = _block(A, 60, 16.0), loss_block(window_majorant(A, A.reverse(), 8, 14))
    cases = [(X, W), (W, X)]
    rounding = Block(np.array([-1.0, -2.0, -0.5]), np.array([1.0, 1.0, 2.0]), 0.0, 0.0, fmpq(0), 0.0)
    tiny = Block(np.array([-3.0, -1.0]), np.array([0.0, 1e-17]), 0.0, 0.0, fmpq(0), 0.0)
    cases += [(rounding, tiny), (tiny, rounding)]
    for P, Q in cases:
        lp, L = brute(P, Q)
        block = product_block(P, Q, math.inf)
        assert block.count == P.count * Q.count
        assert np.array_equal(block.lp, lp) and np.array_equal(block.L, L)
    # the ties are there to be ordered: the lattice's many, and by rounding in an order the plain merge of the runs
    # (by descending L_y) gets wrong
    L = brute(X, W)[1]
    assert np.count_nonzero(L[1:] == L[:-1]) > 100
    runs = np.argsort(-tiny.L, kind="stable")
    merged = (rounding.lp[None, :] + tiny.lp[runs][:, None]).ravel()[
        np.argsort((rounding.L[None, :] + tiny.L[runs][:, None]).ravel(), kind="stable")]
    assert not np.array_equal(merged, brute(rounding, tiny)[0])


def test_sweep_is_symmetric_in_its_blocks_and_reuses_their_arrays():
    """The sweep walks the smaller block and searches the larger one, with each block's γ-independent arrays kept on
    it: swapping the blocks and repeating the call give the same exact bounds, and they contain the exact value."""
    from exactdp.measures.lattice_interval import _block, _sweep

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    A, B = _block(loss, 7, 22.0), _block(loss.reverse(), 40, 22.0)
    assert A.count < B.count and not A.prepared and not B.prepared
    for g in (fmpq(1), fmpq(3) ** 5, fmpq(3) ** 9):
        first = _sweep(A, B, g)
        assert "suffix" in B.prepared and "suffix" not in A.prepared  # only the searched (larger) block's sums
        assert _sweep(B, A, g) == first and _sweep(A, B, g) == first
        lo, hi = LatticeEnclosure().bounds([(loss, 7), (loss.reverse(), 40)], g)
        assert lo <= hockey_stick_product_losses([(loss, 7), (loss.reverse(), 40)], g) <= hi


def test_block_store_lets_other_levels_go_first_and_keeps_the_first_part_of_a_level():
    """Past ``keep_atoms`` the blocks of another cut level are let go first, the least recently used first (a read
    refreshes a block); when only blocks of the new block's level are left, the new one is not kept — a pass over
    more blocks of one level than fit keeps its first part (letting the least recently used go would keep none of a
    pass repeated at the next γ)."""
    from exactdp.measures.lattice_interval import BlockStore, _block

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    b = {k: _block(loss, k, 22.0) for k in (10, 11, 12, 13)}
    store = BlockStore(keep_atoms=b[10].count + b[11].count + b[12].count - 1)
    store.keep("a", b[10], 30.0)
    store.keep("x", b[11], 40.0)
    store.keep("b", b[12], 22.0)  # room for it by letting "a" go (another level, least recently used)
    assert set(store.blocks) == {"x", "b"} and store.kept == b[11].count + b[12].count
    assert store.get("x") is b[11]
    store.keep("c", b[13], 22.0)  # "x" is of another level: it goes
    assert set(store.blocks) == {"b", "c"} and store.kept == b[12].count + b[13].count
    store.keep("d", b[10], 22.0)  # only blocks of level 22 left: "d" is not kept, "b" and "c" stay
    assert set(store.blocks) == {"b", "c"} and store.get("d") is None and store.get("b") is b[12]


def test_blocks_kept_for_another_search_are_let_go_first():
    """The level of a kept block is (tag, cut): a search over other losses (another pair of a benchmark, say) left
    blocks at the same cut; they go before the current search's blocks, so its pass is kept (from the start) whatever
    the store held before."""
    from exactdp.measures.lattice_interval import BlockStore, _block, search_tag

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    other = PairLoss.of([fmpq(1, 3), fmpq(1, 3), fmpq(1, 3)], [fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)])
    mine, theirs = search_tag([loss, loss.reverse()]), search_tag([other, other.reverse()])
    assert mine == search_tag([loss.reverse(), loss]) != theirs
    b = {k: _block(loss, k, 22.0) for k in (10, 11, 12)}
    store = BlockStore(keep_atoms=b[10].count + b[11].count + b[12].count - 1)
    store.keep("old1", b[10], (theirs, 22.0))
    store.keep("old2", b[11], (theirs, 22.0))
    store.keep("new1", b[12], (mine, 22.0))
    store.keep("new2", b[10], (mine, 22.0))
    assert set(store.blocks) == {"new1", "new2"}
    store.keep("new3", b[11], (mine, 22.0))  # full of this search's level: not kept
    assert set(store.blocks) == {"new1", "new2"}


def test_chernoff_bound_is_within_a_modest_factor_of_the_exact_value():
    """The Chernoff bound (s chosen on a fixed grid) is an upper bound within the polynomial factor of its large
    deviations at n = 100 (here below 20×), not a trivial 1; and the two-end form bounds both compositions."""
    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    for k, g in ((0, fmpq(3) ** 40), (15, fmpq(3) ** 35), (100, fmpq(3) ** 30)):
        items = [(loss, k), (loss.reverse(), 100 - k)]
        exact = hockey_stick_product_losses(items, g)
        ub = chernoff_bound(items, g)
        assert exact <= ub <= 20 * exact, (k, float(exact), float(ub))
    a, b = [(loss, 5), (loss.reverse(), 95)], [(loss, 10), (loss.reverse(), 90)]
    both = chernoff_bound(a, fmpq(3) ** 38, others=[b])
    assert both >= max(hockey_stick_product_losses(a, fmpq(3) ** 38), hockey_stick_product_losses(b, fmpq(3) ** 38))


def test_filter_corners_are_enclosed_below_the_default_cut():
    """Issue 24: at δ_n ≈ 10⁻¹² the homogeneous corners are cut below their Chernoff bound, so the best lower
    bound is positive and tight (the default cut, e^-22 ≈ 3·10⁻¹⁰ absolute, left it 0 and nothing was pruned), and
    the filter's maximum is the exact search's."""
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
    n = 60
    facs = normalize_factors([(K, n)])
    classes, groups, totals, _ = classify(facs)
    losses = [c.loss for c in classes]
    # the γ = 3^j where the larger corner is nearest 10⁻¹²
    j = min(range(10, 80), key=lambda j: abs(math.log(float(max(hockey_stick_product_losses([(lo, n)], fmpq(3) ** j)
                                                                   for lo in losses)) + 1e-300) - math.log(1e-12)))
    g = fmpq(3) ** j
    corners = {c: hockey_stick_product_losses([(losses[i], n)], g) for i, c in enumerate(((n, 0), (0, n)))}
    best = max(corners.values())
    assert 1e-14 < float(best) < 1e-10
    rows = {counts: (lo, hi) for counts, lo, hi in THREE_RATIO.enclose(losses, groups, totals, g)}
    top = max(corners, key=corners.get)
    lo, hi = rows[top]
    assert 0 < lo <= best <= hi and hi - lo < best / 1000
    kept = [c for c, (lo_c, hi_c) in rows.items() if hi_c >= lo]
    exact = max(hockey_stick_product_losses([(losses[0], c[0]), (losses[1], c[1])], g)
                for c in all_compositions(groups, totals, len(classes)))
    assert exact == best and top in kept and len(kept) < n // 2


#: near-symmetric 2x3 row pairs (KL(p‖q) ≈ KL(q‖p): E_γ nearly flat in the composition, issue 24) — seed 3 of
#: benchmarks/bench_tensor.py --random-pairs, and the two of least |KL(p‖q) − KL(q‖p)|/KL among denominators ≤ 10
#: (4·10⁻⁴ and 6·10⁻⁴) with two pair classes of three ratios each
NEAR_SYMMETRIC = [(("5/9", "1/3", "1/9"), ("3/8", "1/2", "1/8")), (("1/2", "1/3", "1/6"), ("4/9", "1/9", "4/9")),
                  (("1/9", "1/9", "7/9"), ("1/2", "3/10", "1/5"))]


@pytest.mark.parametrize("rows", NEAR_SYMMETRIC)
def test_near_symmetric_pairs_split_without_box_bounds_and_match_the_exact_search(rows, monkeypatch):
    """Where E_γ is flat in k a box's top corner (m more coordinates) lies above every composition, so its lattice
    bound prunes nothing: the search splits such boxes without it (none computed at n = 20, where the search without
    the prediction bounds some) — and every composition's enclosure still contains its exact value, and δ through the
    filter equals the unfiltered exact search (a certified enclosure of it with try_exact=False)."""
    import exactdp.measures.lattice_interval as li
    from exactdp.limits import limits
    from exactdp.measures.tensor import TensorSearch, delta_tensor_power
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    n = 20
    K = Kernel([list(r) for r in rows])
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    losses = [c.loss for c in classes]
    sizes: list[int] = []
    bounds = LatticeEnclosure.bounds

    def counted(self, items, gamma, **kw):
        sizes.append(sum(k for _, k in items))
        return bounds(self, items, gamma, **kw)

    monkeypatch.setattr(LatticeEnclosure, "bounds", counted)
    boxes_without_prediction = 0
    for g in (fmpq(1), fmpq(2), fmpq(3, 2) ** 4):
        with monkeypatch.context() as m:
            m.setattr(li, "_PREDICT", fmpq(10**9))  # the prediction off: the search bounds top corners
            sizes.clear()
            THREE_RATIO.enclose(losses, groups, totals, g)
            boxes_without_prediction += sum(1 for s in sizes if s > n)
        sizes.clear()
        enclosed = THREE_RATIO.enclose(losses, groups, totals, g)
        assert sizes and max(sizes) == n  # leaves only: no top corner (more than n coordinates) was bounded
        exact = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in enclosed]
        assert all(lo <= e <= hi for (_, lo, hi), e in zip(enclosed, exact))
        best = TensorSearch([(K, n)], filtered=False).witness(g).value
        assert best == max(exact) == delta_tensor_power(K, n, g)
        with limits(max_work=10**7):  # below the exact search's estimate: the filter's route
            r = delta_tensor_power_enclosure(K, n, g, try_exact=False)
        assert best in r and r.relative_width <= r.requested
    assert boxes_without_prediction > 0


def test_tightening_many_candidates_is_refused_before_it_starts():
    """Many candidates above (1 + w)·max lo (a flat E_γ whose filter stopped at max_work) are charged before the first
    lattice bound: under a low max_work the refusal names the limit and no work was done; at the default limit the
    result is an enclosure of the exact maximum (the seed-3 pair at n = 30, every composition but one left [0, 1])."""
    from exactdp.limits import ResourceLimitError, limits
    from exactdp.measures.lattice_interval import shared_blocks
    from exactdp.measures.tensor_enclosure import DEFAULT_REL_WIDTH, _from_bounds

    n, g = 30, fmpq(2)
    K = Kernel([list(r) for r in NEAR_SYMMETRIC[0]])
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    losses = [c.loss for c in classes]
    comps = list(all_compositions(groups, totals, len(classes)))
    exact = max(hockey_stick_product_losses(list(zip(losses, c)), g) for c in comps)
    corner = comps[-1]
    start = {c: (fmpq(0), fmpq(1)) for c in comps}
    start[corner] = hockey_stick_bounds(list(zip(losses, corner)), g)
    lattice = LatticeEnclosure(blocks=shared_blocks())
    with limits(max_work=10**5), pytest.raises(ResourceLimitError, match=f"tightening {n} candidates.*max_work"):
        _from_bounds(dict(start), losses, lattice, g, DEFAULT_REL_WIDTH, "flat")
    assert lattice.work == 0
    r = _from_bounds(dict(start), losses, LatticeEnclosure(blocks=shared_blocks()), g, DEFAULT_REL_WIDTH, "flat")
    assert exact in r and r.relative_width <= r.requested
    # the charge per candidate is what a fresh enclosure of it spends, within a factor 2 (estimated vs kept atoms)
    from exactdp.measures.lattice_interval import bound_work

    for c in comps[1:-1:7]:
        fresh = LatticeEnclosure()
        fresh.bounds(list(zip(losses, c)), g)
        assert fresh.work / 2 <= bound_work(list(zip(losses, c))) <= 2 * fresh.work


@pytest.mark.parametrize("seed", range(4))
def test_trinomial_rows_leave_out_only_atoms_below_the_cut(seed):
    """The row intervals of a three-class block (a guess moved out until the neighbours outside are certified below
    the cut) leave out only atoms whose exact log-mass is below the cut: every atom of the block, its exact log-mass
    from arb, is compared with the kept atoms (the same float expressions give them bit for bit)."""
    from exactdp.measures.lattice_interval import _block, _float_with_error, _log_factorials

    rng = random.Random(700 + seed)
    for _ in range(3):
        p, q = random_distribution(rng, 3), random_distribution(rng, 3)
        loss = PairLoss.of(p, q)
        if len(loss.classes) != 3:
            continue
        for k, depth in ((5, 4.0), (23, 9.0), (40, 15.0)):
            b = _block(loss, k, depth)
            lf, _ = _log_factorials(k)
            with ctx.workprec(128):
                lpv = [_float_with_error(arb(P).log())[0] for _, P in loss.classes]
                lv = [_float_with_error(arb(r).log())[0] for r, _ in loss.classes]
            kept = set(zip(b.L.tolist(), b.lp.tolist()))
            assert len(kept) == b.count
            dropped = 0
            for a1 in range(k + 1):
                a2 = np.arange(k - a1 + 1, dtype=np.int64)
                r1 = np.full_like(a2, a1)
                m = k - r1
                lp = lf[k] - lf[r1] - lf[a2] - lf[m - a2] + r1 * lpv[0] + a2 * lpv[1] + (m - a2) * lpv[2]
                L = r1 * lv[0] + a2 * lv[1] + (k - r1 - a2) * lv[2]
                for j in range(len(a2)):
                    if (float(L[j]), float(lp[j])) in kept:
                        continue
                    dropped += 1
                    with ctx.workprec(128):
                        true = (arb(k + 1).lgamma() - arb(a1 + 1).lgamma() - arb(int(a2[j]) + 1).lgamma()
                                - arb(int(m[j] - a2[j]) + 1).lgamma()
                                + sum((c * arb(P).log() for c, (_, P) in zip((a1, int(a2[j]), int(m[j] - a2[j])),
                                                                            loss.classes)), arb(0)))
                    assert true < arb(b.cut)  # left out: certified below the cut
            assert dropped == (k + 1) * (k + 2) // 2 - b.count


def _pair_search(rows, n):
    K = Kernel([list(r) for r in rows])
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    return K, [c.loss for c in classes], groups, totals


@pytest.mark.parametrize("rows", NEAR_SYMMETRIC)
def test_kept_blocks_give_the_cold_answer_and_charge_the_walk_only(rows):
    """A search whose blocks are kept (the shared store, warm) gives bit for bit the bounds of a cold one and the same
    δ enclosure, and its lattice work is the walk of the smaller blocks only; both contain the exact values
    (near-symmetric pairs at n = 30, enclosures forced with try_exact=False)."""
    from exactdp.limits import limits
    from exactdp.measures.lattice_interval import shared_blocks
    from exactdp.measures.tensor import TensorSearch
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    n = 30
    K, losses, groups, totals = _pair_search(rows, n)
    store = shared_blocks()
    for g in (fmpq(3, 2) ** 3, fmpq(3, 2) ** 7):
        store.clear()
        cold = THREE_RATIO.enclose(losses, groups, totals, g)
        assert store.kept > 0
        warm = THREE_RATIO.enclose(losses, groups, totals, g)
        assert warm == cold
        exact = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in cold]
        assert all(lo <= e <= hi for (_, lo, hi), e in zip(cold, exact))
        with limits(max_work=10**7):
            r_warm = delta_tensor_power_enclosure(K, n, g, try_exact=False)
            store.clear()
            r_cold = delta_tensor_power_enclosure(K, n, g, try_exact=False)
        assert (r_warm.lower, r_warm.upper) == (r_cold.lower, r_cold.upper)
        best = TensorSearch([(K, n)], filtered=False).witness(g).value
        assert best == max(exact) and best in r_cold and r_cold.relative_width <= r_cold.requested
    # the charges: a cold bound builds and prepares both blocks; a warm one walks the smaller
    from exactdp.measures.lattice_interval import _PER_WALK, BlockStore

    items = [(losses[0], 12), (losses[1], n - 12)]
    fresh = BlockStore()
    cold_enc, warm_enc = LatticeEnclosure(blocks=fresh), LatticeEnclosure(blocks=fresh)
    a = cold_enc.bounds(items, fmpq(2))
    assert warm_enc.bounds(items, fmpq(2)) == a
    smaller = min(b.count for b in fresh.blocks.values())
    assert warm_enc.work == _PER_WALK * smaller < cold_enc.work


@pytest.mark.parametrize("rows", NEAR_SYMMETRIC)
def test_tightening_after_a_stopped_filter_uses_its_level_and_contains_the_maximum(rows):
    """Candidates the filter left open (lower end 0: stopped at max_work) are tightened first at the filter's own cut
    — the blocks it kept are walked, not rebuilt, and charged so by the estimate — then at the requested width; the
    result contains the unfiltered exact maximum (near-symmetric pairs, n = 36, every composition but the corners
    left [0, 1])."""
    from exactdp.measures.lattice_interval import BlockStore, bound_work, leaf_cut
    from exactdp.measures.tensor import TensorSearch
    from exactdp.measures.tensor_enclosure import DEFAULT_REL_WIDTH, _from_bounds, tighten

    n = 36
    K, classes, groups, totals = _pair_search(rows, n)
    comps = list(all_compositions(groups, totals, len(classes)))
    for g in (fmpq(2), fmpq(3, 2) ** 6):
        store = BlockStore()
        start = {c: (fmpq(0), fmpq(1)) for c in comps}
        for c in (comps[0], comps[-1]):
            start[c] = LatticeEnclosure(blocks=store).bounds(list(zip(classes, c)), g)
        best = max(lo for lo, _ in start.values())
        cut = leaf_cut(best)
        mid = comps[len(comps) // 2]
        items = [(loss, k) for loss, k in zip(classes, mid) if k]
        before = bound_work(items, cut, store)
        lattice = LatticeEnclosure(blocks=store)
        bounds, steps = dict(start), {}
        assert tighten(bounds, steps, mid, classes, lattice, g, DEFAULT_REL_WIDTH, "t") and steps[mid] == 1
        assert all(key[2] == cut for key in store.blocks if key[1] in (mid[0], mid[1]))  # built at the filter's level
        assert before / 2 <= lattice.work <= 2 * before  # the estimate charged what the step spent (estimated atoms)
        assert bound_work(items, cut, store) < before / 2  # now kept: the walk only
        exact = hockey_stick_product_losses(list(zip(classes, mid)), g)
        assert bounds[mid][0] <= exact <= bounds[mid][1]
        r = _from_bounds(dict(start), classes, LatticeEnclosure(blocks=store), g, DEFAULT_REL_WIDTH, "t")
        top = TensorSearch([(K, n)], filtered=False).witness(g).value
        assert top in r and r.relative_width <= r.requested


@pytest.mark.parametrize("sizes", [(50, 60), (400, 90), (90, 400), (7, 1000), (1, 1), (3, 0)])
def test_suffix_starts_by_merge_equal_binary_search(sizes):
    """The sweep's suffix starts — a linear merge of B's losses with the queries where they are at least a quarter as
    many, else binary searches — are exactly ``np.searchsorted(Lb, c, side="right")``, ties included (equal losses in
    B, equal queries, and queries equal to a B-loss count it: ≤)."""
    from exactdp.measures.lattice_interval import _suffix_starts

    rng = np.random.default_rng(sum(sizes))
    mb, ma = sizes
    Lb = np.sort(np.round(rng.normal(size=mb) * 4, 1))  # rounded: many equal losses
    La = np.sort(np.concatenate((rng.choice(Lb, size=min(ma, mb)) - 0.5 if mb else [], np.round(rng.normal(size=ma) * 4, 1))))
    c = 0.5 - La  # non-increasing, some queries exactly on a B-loss
    assert np.all(np.diff(c) <= 0)
    got = _suffix_starts(Lb, c)
    assert got.tolist() == np.searchsorted(Lb, c, side="right").tolist()


def test_exp0_fast_path_equals_the_capped_formula():
    """:func:`_exp0` in range skips the cap and the zeroing (the same floats as exp_floats); out of range, 0 below
    −700 and the cap at 700 as before."""
    from exactdp.measures.lattice_interval import _exp0

    rng = np.random.default_rng(5)
    d = rng.uniform(-699, 699, size=1000)
    assert _exp0(d).tolist() == exp_floats(d).tolist()
    d2 = np.array([-800.0, -700.0, 0.0, 700.0, 900.0])
    assert _exp0(d2).tolist() == np.where(d2 < -700, 0.0, exp_floats(np.clip(d2, -700, 700))).tolist()


def test_sweep_ends_with_the_cap_read_once_equal_the_checked_conversion():
    """The sweep converts its four ball ends with the size cap read once: the same exact rationals as
    :func:`arb_to_fmpq`, and past a lowered ``max_prec`` it still refuses naming the limit."""
    from exactdp.limits import ResourceLimitError, limits
    from exactdp.measures.lattice_interval import _lower, _upper
    from exactdp.numbers.rb import arb_to_fmpq

    with ctx.workprec(128):
        b = arb(fmpq(1, 3)) * arb(2) ** -30 + arb(0, fmpq(1, 2**90))
    for end in (b.lower(), b.upper()):
        assert arb_to_fmpq(end, 10**6) == arb_to_fmpq(end)
    assert _lower(b, 10**6) == arb_to_fmpq(b.lower()) and _upper(b, 10**6) == arb_to_fmpq(b.upper())
    with limits(max_prec=8), pytest.raises(ResourceLimitError, match="max_prec"):
        arb_to_fmpq(b.lower(), 32)


def test_suffix_starts_out_of_order_queries_fall_back_to_binary_search():
    """Queries not in non-increasing order (no block produces them) still get the exact counts of searchsorted."""
    from exactdp.measures.lattice_interval import _suffix_starts

    Lb = np.array([-1.0, 0.0, 0.0, 2.0, 5.0])
    c = np.array([0.0, 3.0, -2.0, 5.0, 0.0, 1.0])
    assert _suffix_starts(Lb, c).tolist() == np.searchsorted(Lb, c, side="right").tolist() == [3, 4, 0, 5, 3, 3]


def test_bounds_do_not_depend_on_what_ran_before_in_the_process():
    """The log m! table grows on demand; the error bound a block of size m uses is the running maximum over entries
    j <= m, so a product at n = 40 gives the same enclosure before and after a product at n = 5000 extended the table
    (it used to take the whole table's error: a looser bound after a large call), and the enclosure contains the
    exact value."""
    L = PairLoss.of([fmpq(5, 9), fmpq(1, 3), fmpq(1, 9)], [fmpq(1, 3), fmpq(11, 20), fmpq(7, 60)])
    small = [(L, 1), (L.reverse(), 39)]
    first = LatticeEnclosure().bounds(small, 1, cut_nats=4.0)
    LatticeEnclosure().bounds([(L, 5000)], 2, cut_nats=4.0)
    assert LatticeEnclosure().bounds(small, 1, cut_nats=4.0) == first
    exact = hockey_stick_product_losses(small, fmpq(1))
    assert first[0] <= exact <= first[1] and first[0] < first[1]
