"""The certified filter over the composition simplex of three or more pair classes (exactdp.measures.simplex_filter):
its boxes count and bound the right compositions, every leaf enclosure contains the exact E_γ, and the filtered search
returns exactly the unfiltered exhaustive search's value and first maximiser on 3×3 kernels with four pair classes."""

from __future__ import annotations

import itertools
import random

import pytest
from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures import composition_filter as cf
from exactdp.measures import simplex_filter as sf
from exactdp.measures.tensor import TensorSearch
from exactdp.measures.tensor_search import all_compositions

# the first three seeded random 3×3 kernels of benchmarks/bench_tensor.py --random-3x3 (seeds 1000, 1001, 1002; each
# leaves four pair classes after domination pruning)
SEEDED = [
    Kernel([["7/9", "1/6", "1/18"], ["2/9", "7/18", "7/18"], ["2/11", "8/11", "1/11"]]),
    Kernel([["1/9", "13/18", "1/6"], ["7/18", "1/9", "1/2"], ["1/2", "1/7", "5/14"]]),
    Kernel([["5/7", "1/7", "1/7"], ["2/5", "3/20", "9/20"], ["3/8", "1/2", "1/8"]]),
]
#: a zero entry (P-only mass of the pairs (0, x')) and an output no row produces (an all-zero column)
ZERO_ENTRY = Kernel([["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"], ["1/6", "1/2", "1/3"]])
ZERO_COLUMN = Kernel([["1/2", "0", "1/3", "1/6"], ["1/5", "0", "3/5", "1/5"], ["1/8", "0", "1/8", "3/4"]])


def _exhaustive(K, n):
    """The unfiltered exact search of K^{⊗n}, every composition evaluated."""
    return TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6)


def _same(K, n, g, reference=None):
    """The filtered search (simplex routine) against the unfiltered exhaustive one (``reference``, a
    :func:`_exhaustive` search of the same K and n, or a new one): value, counts, composition."""
    S = TensorSearch([(K, n)], filtered=True)
    classes, groups, totals, _ = S.classified
    planned = cf.plan([c.loss for c in classes], groups, totals, g)
    assert planned is not None and planned.routine is sf.SIMPLEX
    a = S.witness(g)
    b = (reference or _exhaustive(K, n)).witness(g)
    assert (a.value, a.counts, a.composition) == (b.value, b.counts, b.composition)
    return a


def test_the_seeded_kernels_have_four_pair_classes():
    for K in SEEDED:
        assert len(TensorSearch([(K, 5)]).classes) == 4


def test_vertices_and_box_size_against_enumeration():
    rng = random.Random("simplex-boxes")
    for _ in range(60):
        c, n = rng.choice([3, 4]), rng.randint(1, 9)
        lo = tuple(rng.randint(0, 3) for _ in range(c))
        hi = tuple(a + rng.randint(0, 5) for a in lo)
        inside = [k for k in itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi))) if sum(k) == n]
        assert sf.box_size(lo, hi, n) == len(inside)
        box = sf.tighten(lo, hi, n)
        if not inside:
            assert box is None
            continue
        assert box == (tuple(map(min, zip(*inside))), tuple(map(max, zip(*inside))))  # the hull, exactly
        vs = sf.vertices(*box, n)
        assert set(vs) <= set(inside)
        for w in itertools.product(range(-3, 4), repeat=c):  # every linear function is largest at a vertex
            assert max(sum(x * y for x, y in zip(w, k)) for k in vs) == max(sum(x * y for x, y in zip(w, k))
                                                                            for k in inside)


@pytest.mark.parametrize("K", SEEDED)
def test_leaf_enclosures_contain_the_exact_values_and_nothing_is_lost(K):
    n, g = 7, fmpq(3) ** 4
    S = TensorSearch([(K, n)], filtered=False)
    classes, groups, totals, _ = S.classified
    rows, ruled_out = sf.SIMPLEX.candidates([c.loss for c in classes], groups, totals, g)
    counts = [c for c, _, _ in rows]
    assert counts == sorted(counts) and len(rows) + ruled_out == len(list(all_compositions(groups, totals, 4)))
    exact = {c: S.hockey_stick(c, g) for c in all_compositions(groups, totals, 4)}
    for c, lo, hi in rows:
        assert lo <= exact[c] <= hi
    best = max(exact.values())
    assert all(c in counts for c, v in exact.items() if v == best)  # a maximiser is never ruled out


@pytest.mark.parametrize("K", SEEDED)
@pytest.mark.parametrize("gamma", [fmpq(1), fmpq(2), fmpq(3) ** 8, fmpq(5, 2) ** 8])
def test_filtered_equals_exhaustive_search(K, gamma):
    # γ = 1: a composition and its reverse tie (TV is symmetric), the first in enumeration order is the witness
    _same(K, 8, gamma)


def test_maximisers_off_the_corners_are_found():
    # the maxima lie on two-class faces here, not at a homogeneous composition (exact values of the exhaustive search)
    assert _same(SEEDED[2], 6, fmpq(2)).counts == (0, 4, 0, 2)
    assert _same(SEEDED[1], 6, fmpq(5, 2) ** 6).counts == (4, 0, 2, 0)


@pytest.mark.slow
def test_maximisers_off_the_corners_are_found_at_n_12():
    assert _same(SEEDED[2], 12, fmpq(2)).counts == (0, 7, 0, 5)
    assert _same(SEEDED[1], 12, fmpq(3) ** 12).counts == (10, 0, 2, 0)


@pytest.mark.parametrize("K", [ZERO_ENTRY, ZERO_COLUMN])
def test_zero_entries_and_a_zero_column(K):
    assert len(TensorSearch([(K, 5)]).classes) >= 3
    for g in (fmpq(1), fmpq(2), fmpq(7, 2) ** 3):
        _same(K, 5, g)


def test_over_budget_refuses_naming_max_work(monkeypatch):
    # the filter's estimate fits max_work, its search does not (it stops at twice the estimate with boxes open), and
    # the corner filter and the face split (exactdp.measures.face_split, tests/measures/test_face_split.py) are left
    # out: no candidates, and the search refuses under its own guard, naming the limit
    K, n, g = SEEDED[0], 30, fmpq(3) ** 28
    S = TensorSearch([(K, n)], filtered=True)
    classes, groups, totals, _ = S.classified
    losses = [c.loss for c in classes]
    estimate = sf.SIMPLEX.estimate(losses, groups, totals)[0]
    monkeypatch.setattr(sf, "face_split", lambda losses, n, gamma, **kw: None)
    monkeypatch.setattr(sf, "corner_candidates", lambda *a, **kw: None)
    sf._RECENT.clear()  # the searches remembered were made with the face split
    with limits(max_work=estimate + 1):
        assert sf.SIMPLEX.candidates(losses, groups, totals, g) is None
        with pytest.raises(ResourceLimitError, match="max_work"):
            S.witness(g)
    sf._RECENT.clear()  # and this one without it


def test_over_budget_box_search_is_followed_by_the_face_split(monkeypatch):
    # the same budget with the face split (the corner filter left out): the maximiser the box search could not settle
    # is found, and it is the corner of the flat edge's pair class or next to it (the rows kept are the face's and the
    # slices')
    monkeypatch.setattr(sf, "corner_candidates", lambda *a, **kw: None)
    sf._RECENT.clear()
    K, n, g = SEEDED[0], 30, fmpq(3) ** 28
    S = TensorSearch([(K, n)], filtered=True)
    classes, groups, totals, _ = S.classified
    losses = [c.loss for c in classes]
    estimate = sf.SIMPLEX.estimate(losses, groups, totals)[0]
    with limits(max_work=estimate + 1):
        found = sf.SIMPLEX.candidates(losses, groups, totals, g)
    assert found is not None
    rows, ruled_out = found
    assert len(rows) + ruled_out == 5456  # C(33, 3): every composition of 30 over four classes
    assert all(k[0] + k[2] <= 3 for k, _, _ in rows)  # the face (classes 1 and 3) and its slices only
    sf._RECENT.clear()  # made without the corner filter


@pytest.mark.slow
@pytest.mark.parametrize("K", SEEDED)
def test_filtered_equals_exhaustive_search_larger_n(K):
    # one exhaustive search for the three γ: it keeps the γ-independent classes of its compositions between calls
    reference = _exhaustive(K, 16)
    for g in (fmpq(1), fmpq(3) ** 15, fmpq(2) ** 14):
        _same(K, 16, g, reference)


def test_near_one_at_large_n_stops_at_once():
    # γ = 1 at n = 1000: every composition's E_1 is within 2^-20 of 1 (the corners' lattice bounds show it), so the
    # search stops before its first box, not at its budget
    from exactdp.measures.lattice_interval import LatticeEnclosure, OverBudget

    S = TensorSearch([(SEEDED[1], 1000)])
    losses = [c.loss for c in S.classes]
    enc = LatticeEnclosure(budget=10**12)
    with pytest.raises(OverBudget, match="2\\^-20 of 1"):
        sf._search(enc, losses, 4, 1000, fmpq(1))
    assert enc.work < 10**9


def _join_bound_violations(K, n, gammas, boxes_per_gamma, seed):
    """(boxes checked, violations, bounds below the box maximum's trivial bound 1): the join bound of random small
    boxes against the exact E_γ of every composition in them."""
    from exactdp.measures.lattice_interval import LatticeEnclosure
    from exactdp.measures.privacy_loss import product_loss

    losses = [c.loss for c in TensorSearch([(K, n)]).classes]
    c, rng = len(losses), random.Random(seed)
    checked = violations = below_one = 0
    for g in gammas:
        enc = LatticeEnclosure()
        for _ in range(boxes_per_gamma):
            a = [rng.randint(0, n // 2) for _ in range(c)]
            box = sf.tighten(a, [x + rng.randint(0, 4) for x in a], n)
            if box is None:
                continue
            lo, hi = box
            bound = sf.join_bound(enc, losses, lo, hi, n, g, 22.0)
            if bound is None:
                continue
            exact = max(product_loss([(loss, x) for loss, x in zip(losses, k) if x]).hockey_stick(g)
                        for k in itertools.product(*[range(x, y + 1) for x, y in zip(lo, hi)]) if sum(k) == n)
            checked += 1
            violations += exact > bound
            below_one += bound < 1
    return checked, violations, below_one


@pytest.mark.parametrize("K", SEEDED)
def test_join_bound_is_above_every_composition_of_small_boxes(K):
    n = 14
    gammas = [fmpq(2) ** j for j in range(0, 2 * n, 2 * n // 12)][:12]
    checked, violations, below_one = _join_bound_violations(K, n, gammas, 4, n)
    assert violations == 0 and checked >= 18 and below_one >= checked // 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1003, 1004, 1005])
@pytest.mark.parametrize("n", [20, 24])
def test_join_bound_is_above_every_composition_of_small_boxes_random_kernels(seed, n):
    from exactdp.measures.tensor_search import classify, normalize_factors

    rng = random.Random(seed)
    rows = [[fmpq(rng.randint(1, 9)) for _ in range(3)] for _ in range(3)]
    K = Kernel([[x / sum(row) for x in row] for row in rows])
    if len(classify(normalize_factors([(K, n)]))[0]) < 3:
        pytest.skip("fewer than three pair classes")
    gammas = [fmpq(2) ** j for j in range(0, 2 * n, max(2 * n // 12, 1))][:12]
    checked, violations, _ = _join_bound_violations(K, n, gammas, 3, n)
    assert violations == 0 and checked >= 6


def _with_and_without_join(K, n, g, monkeypatch):
    """The filtered search's witness with the join bound and with it switched off (w ≤ 0 only), and the number of
    join bounds the first computed (the γ are chosen with E_γ in the central regime, 0.33–0.76, where it is tried).
    The box search runs first even on a flat edge (where the face split would go first: exactdp.measures.face_split),
    and the corner filter that goes before both (exactdp.measures.corner_filter.corner_candidates) is left out."""
    monkeypatch.setattr(sf, "flat_edge", lambda losses, n, gamma: False)
    monkeypatch.setattr(sf, "_corner_cost", lambda losses, n, gamma: float("inf"))  # and before the corner filter
    monkeypatch.setattr(sf, "corner_candidates", lambda *a, **kw: None)
    out = []
    for max_w in (sf._JOIN_MAX_W, 0):
        monkeypatch.setattr(sf, "_JOIN_MAX_W", max_w)
        sf._RECENT.clear()
        before = sf.JOIN_BOUNDS[0]
        a = TensorSearch([(K, n)], filtered=True).witness(g)
        out.append(((a.value, a.counts, a.composition), sf.JOIN_BOUNDS[0] - before))
    sf._RECENT.clear()
    return out


@pytest.mark.parametrize(("K", "n", "e"), [(SEEDED[1], 30, 36), (SEEDED[1], 30, 40)])
def test_the_search_answers_the_same_with_and_without_the_join_bound(K, n, e, monkeypatch):
    (a, used), (b, unused) = _with_and_without_join(K, n, fmpq(2) ** e, monkeypatch)
    assert a == b and used > 0 and unused == 0


@pytest.mark.slow
@pytest.mark.parametrize(("K", "n", "e"), [(SEEDED[0], 30, 36), (SEEDED[0], 30, 40)])
def test_the_search_answers_the_same_with_and_without_the_join_bound_slow(K, n, e, monkeypatch):
    (a, used), (b, unused) = _with_and_without_join(K, n, fmpq(2) ** e, monkeypatch)
    assert a == b and used > 0 and unused == 0


@pytest.mark.parametrize("K", SEEDED)
def test_join_bound_sweeps_two_blocks_for_a_lower_corner_of_four_classes(K, monkeypatch):
    # a small lower count past the two largest joins the free coordinates (1 ≤ w = 2) where its product block would be
    # costly (here: any): no product block is built, and the bound still holds every composition of the box (brute
    # force)
    from exactdp.measures.lattice_interval import LatticeEnclosure, product_work
    from exactdp.measures.privacy_loss import product_loss

    n = 14
    monkeypatch.setattr(sf, "_JOIN_PRODUCT_WORK", 0)
    losses = [c.loss for c in TensorSearch([(K, n)]).classes]
    assert len(losses) == 4
    lo, hi = sf.tighten((6, 5, 1, 0), (8, 7, 3, 2), n)
    assert product_work([(loss, k) for loss, k in zip(losses, lo) if k], 12.0) > 0
    checked = 0
    for g in [fmpq(2) ** j for j in range(0, 2 * n, 3)]:
        enc = LatticeEnclosure()
        bound = sf.join_bound(enc, losses, lo, hi, n, g, 22.0)
        assert bound is not None
        assert not any(key[-1] == "product" for key in enc.store.blocks)
        exact = max(product_loss([(loss, x) for loss, x in zip(losses, k) if x]).hockey_stick(g)
                    for k in itertools.product(*[range(x, y + 1) for x, y in zip(lo, hi)]) if sum(k) == n)
        assert exact <= bound
        checked += bound < 1
    assert checked >= 3
