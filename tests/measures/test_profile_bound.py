"""The tilted-profile bound of E_γ (exactdp.measures.profile_bound): C(s) = sup_t t^s F_t(L^{⊗b}) against its exact
value from every type class (the supremum of t^s(α − tβ) on each segment between consecutive ratios), every
composition's exact E_γ below the box bound, and the simplex filter with the profile bound switched on at small n equal
to the exhaustive search."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from flint import arb, ctx, fmpq

from exactdp.measures import profile_bound as pb
from exactdp.measures import simplex_filter as sf
from exactdp.measures.lattice_interval import LatticeEnclosure, product_block
from exactdp.measures.tensor import TensorSearch
from exactdp.measures.tensor_search import all_compositions, classify, normalize_factors

from tests.measures.test_simplex_filter import SEEDED, ZERO_COLUMN, ZERO_ENTRY, _same


def _exact_profile(loss, b: int, s: fmpq) -> arb:
    """sup_{t>0} t^s F_t(L^{⊗b}) from the exact type classes (:func:`_sup_from_atoms`)."""
    return _sup_from_atoms(_exact_atoms(loss, b), s)


def _exact_atoms(loss, b: int) -> dict[fmpq, fmpq]:
    """The exact type classes of L^{⊗b}: ratio → P-mass (finite classes)."""
    atoms: dict[fmpq, fmpq] = {}
    for counts in itertools.product(range(b + 1), repeat=len(loss.classes)):
        if sum(counts) != b:
            continue
        P, r = fmpq(math.factorial(b)), fmpq(1)
        for a, (ratio, mass) in zip(counts, loss.classes):
            P = P * mass**a / math.factorial(a)
            r *= ratio**a
        atoms[r] = atoms.get(r, fmpq(0)) + P
    return atoms


def _sup_from_atoms(atoms: dict[fmpq, fmpq], s: fmpq) -> arb:
    """sup_{t>0} t^s F_t of exact atoms (ratio → P-mass): on each segment between consecutive ratios F_t = α − tβ (the
    atoms above the segment), whose t^s-weighted maximum is at t = sα/((1 + s)β) clipped to it."""
    ratios = sorted(atoms)
    best = arb(0)
    with ctx.workprec(128):
        sb = arb(s)
        for j, r_hi in enumerate(ratios):  # t in [r_{j−1}, r_j]: the classes r_j and above
            alpha = sum((atoms[r] for r in ratios[j:]), fmpq(0))
            beta = sum((atoms[r] / r for r in ratios[j:]), fmpq(0))
            r_lo = ratios[j - 1] if j else fmpq(0)
            t = min(max(s * alpha / ((1 + s) * beta), r_lo), r_hi)
            if t > 0:
                value = (sb * arb(t).log()).exp() * arb(alpha - t * beta)
                best = value if value.mid() > best.mid() else best
    return best


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY, ZERO_COLUMN])
def test_tilted_profile_against_the_exact_supremum(K):
    losses = [c.loss for c in TensorSearch([(K, 4)]).classes]
    enc = LatticeEnclosure()
    for loss in losses:
        for b, s in ((3, fmpq(1, 4)), (8, fmpq(3, 8)), (8, fmpq(5, 4)), (12, fmpq(1, 16))):
            exact = _exact_profile(loss, b, s)
            got = pb.tilted_profile(enc.block(loss, b, 40.0), loss, b, s).upper()
            assert exact.upper() <= got  # the bound holds
            assert got <= exact.lower() * fmpq(103, 100)  # and is within 3 % (the Chernoff bound: about √b)
            # a shallow cut drops atoms: their tilted mass is bounded, so the bound still holds
            assert exact.upper() <= pb.tilted_profile(enc.block(loss, b, 1.0), loss, b, s).upper()


def test_a_block_with_a_large_loss_error_still_bounds_the_profile():
    """The loss error L_err widens the suffix bound by e^{s·L_err} (each atom's ratio taken at its lower end): with a
    coarse L_err the profile is looser than with the true block's, still above the exact supremum."""
    import dataclasses

    loss = TensorSearch([(SEEDED[0], 4)]).classes[0].loss
    b, s = 8, fmpq(3, 8)
    block = LatticeEnclosure().block(loss, b, 40.0)
    coarse = dataclasses.replace(block, L_err=1.0, prepared={})
    got = pb._tilted_profile(coarse, loss, b, s)
    exact = _exact_profile(loss, b, s)
    assert exact.upper() <= got.upper()
    tight = pb._tilted_profile(block, loss, b, s)
    assert exact.upper() <= tight.upper() < got.upper()
    # e^{s·1} = 1.45 from the loss error on B, and the kept tilted mass's lower bound shrinks by e^{−s·1}, which moves
    # (1 − e^{−3/8})·c(s)M(s)^b to the term of the atoms left out: about 1.98 in all
    assert 1.9 < float((got.upper() / tight.upper()).mid()) < 2.1


def test_suffix_profile_is_the_exact_supremum_on_an_uncut_block():
    """Nothing left out (deep cut): C(s) = c(s)·max_j A_j^{1+s}B_j^{−s} over the upper sets by ratio is the exact
    supremum, so the bound equals it up to the float margins (relative 10⁻⁹)."""
    for K in SEEDED:
        loss = TensorSearch([(K, 4)]).classes[0].loss
        for b, s in ((5, fmpq(1, 4)), (9, fmpq(5, 4)), (12, fmpq(3, 64))):
            exact = _exact_profile(loss, b, s)
            got = pb._tilted_profile(LatticeEnclosure().block(loss, b, 200.0), loss, b, s)
            assert exact.upper() <= got.upper() <= exact.lower() * fmpq(1_000_000_001, 1_000_000_000)


@pytest.mark.parametrize("chunk_nats", [2.0 ** -7, 4.0])
def test_suffix_profile_of_a_larger_block_with_wide_chunks(chunk_nats, monkeypatch):
    """b = 24 coordinates (hundreds of atoms; chunks of up to 256 atoms once _CHUNK_NATS is wide): the chunked maximum
    and the Jensen lower bound of the kept tilted mass keep the bound above the exact supremum; at the default chunk
    width it is within 10⁻⁶ of it, at 4 nats still at most the ordinary bound c(s)·M(s)^b."""
    monkeypatch.setattr(pb, "_CHUNK_NATS", chunk_nats)
    loss = TensorSearch([(SEEDED[2], 4)]).classes[1].loss
    b = 24
    for s, cut in ((fmpq(1, 4), 200.0), (fmpq(3, 2), 200.0), (fmpq(3, 4), 6.0)):
        block = LatticeEnclosure().block(loss, b, cut)
        assert block.count > 100
        exact = _exact_profile(loss, b, s)
        got = pb._tilted_profile(block, loss, b, s)
        assert exact.upper() <= got.upper()
        with ctx.workprec(128):
            ordinary = pb.c_of_s(s) * pb.moment_ball(loss, s) ** b
        assert got.upper() <= ordinary.upper()
        if chunk_nats < 1 and cut > 100:
            assert got.upper() <= exact.lower() * fmpq(1_000_001, 1_000_000)


def _boxes_checked(K, n: int, label: str, lows, gammas) -> list[tuple]:
    """Random boxes of K's composition simplex at n: ``lows(rng, c)`` gives lower counts and the classes the base holds,
    the base counts are drawn below the box's lower counts, and the box bound (:func:`~pb.base_box_bound`, its block
    the product of the base's lattice blocks) must lie above every exact E_γ of the box (brute force).  Returns
    ``(box, base, bound, largest exact value inside)`` per box."""
    from exactdp.measures.lattice_interval import product_block

    rng = random.Random(label)
    S = TensorSearch([(K, n)], filtered=False)
    classes, groups, totals, _ = S.classified
    losses, c = [cl.loss for cl in classes], len(classes)
    compositions = list(all_compositions(groups, totals, c))
    enc, out = LatticeEnclosure(), []
    for g in gammas:
        exact = {k: S.hockey_stick(k, g) for k in compositions}
        for _ in range(6):
            lo, held = lows(rng, c)
            box = sf.tighten(lo, [min(n, x + rng.randint(0, 3)) for x in lo], n)
            if box is None:
                continue
            base = tuple((A, rng.randint(1, box[0][A])) for A in held)
            block = enc.block(losses[base[0][0]], base[0][1], 30.0)
            for A, b in base[1:]:
                block = product_block(block, enc.block(losses[A], b, 30.0), 30.0)
            bound = pb.base_box_bound(losses, sf.vertices(*box, n), g, base, block)
            inside = [k for k in compositions if all(x <= k[i] <= y for i, (x, y) in enumerate(zip(*box)))]
            assert inside and max(exact[k] for k in inside) <= bound
            out.append((box, base, bound, max(exact[k] for k in inside)))
    return out


def _one_class_low(n: int):
    def lows(rng, c):
        lo, A = [0] * c, rng.randrange(c)
        lo[A] = rng.randint(4, n)
        return lo, [A]
    return lows


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY])
def test_box_bound_above_every_exact_value_in_the_box(K):
    checked = _boxes_checked(K, 8, "profile-boxes", _one_class_low(8), (fmpq(2), fmpq(3) ** 5, fmpq(5, 2) ** 7))
    assert len(checked) >= 10
    for box, ((A, b),), bound, top in checked:
        if box[0] == box[1] and b == box[0][A]:  # a single composition of class A alone: the bound is tight
            assert bound <= top * 2 or top == 0


def _profile_on(monkeypatch) -> list[int]:
    """The profile bound on from a lower count of 2 (32 by default), its calls counted; the filter's memo emptied."""
    calls = [0]
    real = sf.profile_box_bound

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(sf, "flat_edge", lambda losses, n, gamma: False)  # the box search first, as before the face split
    monkeypatch.setattr(sf, "_corner_cost", lambda losses, n, gamma: float("inf"))  # and before the corner filter
    monkeypatch.setattr(sf, "_MIN_BASE", 2)
    monkeypatch.setattr(sf, "profile_box_bound", counted)
    sf._RECENT.clear()
    return calls


@pytest.mark.parametrize("K", SEEDED)
@pytest.mark.parametrize("gamma", [fmpq(1), fmpq(3) ** 7])
def test_filter_with_the_profile_bound_equals_exhaustive_search(K, gamma, monkeypatch):
    calls = _profile_on(monkeypatch)
    try:
        _same(K, 7, gamma)
    finally:
        sf._RECENT.clear()
    assert calls[0] > 0


@pytest.mark.slow
@pytest.mark.parametrize("K", [ZERO_ENTRY, ZERO_COLUMN])
def test_filter_with_the_profile_bound_zero_entries_and_a_zero_column(K, monkeypatch):
    calls = _profile_on(monkeypatch)
    try:
        for g in (fmpq(1), fmpq(7, 2) ** 3):
            _same(K, 5, g)
    finally:
        sf._RECENT.clear()
    assert calls[0] > 0


@pytest.mark.slow
def test_profile_bound_answers_seed_1001_at_n_1000():
    # seed 1001 of benchmarks/bench_tensor.py --random-3x3 at n = 1000 near its δ = 10⁻⁶: the maximum is the homogeneous
    # composition of the first class, and the profile bound rules out its neighbours (E_γ 2–3 % below it), which the
    # Chernoff bound (a factor 9 above E_γ) cannot; without it the search is refused at the default max_work
    g = fmpq(3) ** 1117
    S = TensorSearch([(SEEDED[1], 1000)], filtered=True)
    w = S.witness(g)
    assert w.counts == (1000, 0, 0, 0) and w.value == S.hockey_stick((1000, 0, 0, 0), g)
    assert 1.05e-6 < float(w.value) < 1.06e-6


def test_the_search_of_s_walks_to_a_small_s_far_above_the_chernoff_one():
    # seed 1000 at n = 100 near δ_n ≈ 0.39 (the low-γ end of benchmarks/bench_tensor.py --random-3x3-deltas): the base of
    # the composition (0, 52, 0, 48) itself, so the bound is tight at the best s — about 1.5 times the Chernoff grid's s,
    # beyond the first tries (searched with their 9 evaluations only, as before, the bound was 11.6 % above E_γ)
    K, n, g, k = SEEDED[0], 100, fmpq(2) ** 127, (0, 52, 0, 48)
    losses = [c.loss for c in classify(normalize_factors([(K, n)]))[0]]
    enc = LatticeEnclosure()
    block = product_block(enc.block(losses[1], 52, 12.0), enc.block(losses[3], 48, 12.0), 12.0)
    E = TensorSearch([(K, n)], filtered=True).hockey_stick(k, g)
    bound = pb.base_box_bound(losses, [k], g, ((1, 52), (3, 48)), block)
    assert E <= bound <= E * fmpq(101, 100)
    assert 0.38 < float(E) < 0.39


def test_seed_1001_at_its_lowest_gammas_is_answered_at_n_1000():
    # seed 1001 of benchmarks/bench_tensor.py --random-3x3-deltas at n = 1000, γ = 2^1485 and 2^1530 (δ_n ≈ 0.49 and
    # 0.23): refused at the default max_work while the search of s stopped at its first tries; the maximum is the
    # homogeneous composition of the first class, its exact E_γ
    S = TensorSearch([(SEEDED[1], 1000)], filtered=True)
    for e, value in ((1485, 0.4948873), (1530, 0.2293890)):
        g = fmpq(2) ** e
        w = S.witness(g)
        assert w.counts == (1000, 0, 0, 0) and w.value == S.hockey_stick((1000, 0, 0, 0), g)
        assert abs(float(w.value) - value) < 1e-7


@pytest.mark.parametrize("K", SEEDED)
def test_epsilon_from_the_corner_start_equals_the_exact_route(K, monkeypatch):
    # where the exact search at γ = 1 is over the cost guard (n > 30 for these kernels), the inversion starts at the
    # largest root of the homogeneous compositions and decides through the filter: forced here at n = 8, where the
    # exact route from γ = 1 gives the reference
    from exactdp.measures import profile_inversion as pi

    d = fmpq(1, 100)
    exact = pi.epsilon_tensor_power(K, 8, d)
    S = TensorSearch([(K, 8)])
    corner_roots = [S.gamma_for(tuple(8 if j == i else 0 for j in range(4)), d) for i in range(4)]
    monkeypatch.setattr(pi, "_exact_fits", lambda search, g: False)
    sf._RECENT.clear()
    try:
        started = pi.epsilon_tensor_power(K, 8, d)
    finally:
        sf._RECENT.clear()
    assert started.t == exact.t and started.t >= max(corner_roots)
    assert S.witness(started.t).value <= d < S.witness(started.t * fmpq(999, 1000)).value


@pytest.mark.slow
def test_epsilon_of_seed_1001_at_n_1000():
    # ε for δ = 10⁻⁶ (the --random-3x3 bench row): the root of the first class's homogeneous composition, certified the
    # maximum there by the filter; inside the PRV accountant's bracket [1227.459256, 1227.677219] (docs/speed.md)
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    d = fmpq(1, 10**6)
    r = epsilon_tensor_power(SEEDED[1], 1000, d)
    S = TensorSearch([(SEEDED[1], 1000)])
    assert r.exact and r.t == S.gamma_for((1000, 0, 0, 0), d) and r.composition == ((0, 0, 1, 1000),)
    assert 1227.5938 < float(r.epsilon.evalf(20)) < 1227.5939



def _exact_pair_profile(LA, a: int, LB, b: int, s: fmpq) -> arb:
    """sup_t t^s F_t(L_A^{⊗a} ⊗ L_B^{⊗b}) from the exact type classes of the product."""
    X, Y = _exact_atoms(LA, a), _exact_atoms(LB, b)
    atoms: dict[fmpq, fmpq] = {}
    for rx, px in X.items():
        for ry, py in Y.items():
            atoms[rx * ry] = atoms.get(rx * ry, fmpq(0)) + px * py
    return _sup_from_atoms(atoms, s)


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY])
def test_pair_profile_against_the_exact_supremum(K):
    # the profile of a two-class base L_A^{⊗a} ⊗ L_B^{⊗b} from its product block: above the exact supremum, within 3 %
    # of it at a deep cut, and still above it at a shallow cut (the pairs left out bounded through the moments)
    from exactdp.measures.lattice_interval import product_block

    losses = [c.loss for c in TensorSearch([(K, 4)]).classes]
    enc = LatticeEnclosure()
    for (i, a), (j, b), s in (((0, 3), (1, 2), fmpq(1, 4)), ((1, 5), (3, 4), fmpq(3, 8)), ((2, 6), (0, 1), fmpq(5, 4)),
                              ((3, 4), (2, 4), fmpq(1, 16))):
        LA, LB = losses[i % len(losses)], losses[j % len(losses)]
        exact = _exact_pair_profile(LA, a, LB, b, s)
        deep = product_block(enc.block(LA, a, 40.0), enc.block(LB, b, 40.0), 40.0)
        got = pb.product_profile(deep, ((LA, a), (LB, b)), s).upper()
        assert exact.upper() <= got <= exact.lower() * fmpq(103, 100)
        shallow = product_block(enc.block(LA, a, 2.0), enc.block(LB, b, 2.0), 1.0)
        assert exact.upper() <= pb.product_profile(shallow, ((LA, a), (LB, b)), s).upper()


def _two_class_low(rng, c):
    A, B = rng.sample(range(c), 2)
    lo = [0] * c
    lo[A], lo[B] = rng.randint(2, 6), rng.randint(1, 4)
    return lo, [A, B]


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY])
def test_pair_box_bound_above_every_exact_value_in_the_box(K):
    # boxes at n = 10 whose base holds two classes (any base counts below the box's lower counts): the bound is above
    # every exact E_γ of the box, brute force over the box's compositions
    assert len(_boxes_checked(K, 10, "pair-boxes", _two_class_low, (fmpq(2), fmpq(3) ** 5, fmpq(5, 2) ** 8))) >= 10


def _pair_on(monkeypatch) -> list[int]:
    """The profile bound on from a lower count of 2 and the pair base from lower counts 2 + 1; the filter's memo emptied;
    the number of pair-base bounds so far."""
    monkeypatch.setattr(sf, "flat_edge", lambda losses, n, gamma: False)  # the box search first, as before the face split
    monkeypatch.setattr(sf, "_corner_cost", lambda losses, n, gamma: float("inf"))  # and before the corner filter
    monkeypatch.setattr(sf, "_MIN_BASE", 2)
    monkeypatch.setattr(sf, "_MIN_PAIR", 1)
    monkeypatch.setattr(sf, "_MIN_PAIR_SUM", 3)
    sf._RECENT.clear()
    return [sf.PAIR_BOUNDS[0]]


def test_filter_with_the_pair_base_equals_exhaustive_search_quick(monkeypatch):
    before, profiles = _pair_on(monkeypatch), pb.SUFFIX_PROFILES[0]
    try:
        _same(SEEDED[1], 6, fmpq(3) ** 6)
    finally:
        sf._RECENT.clear()
    assert sf.PAIR_BOUNDS[0] > before[0] and pb.SUFFIX_PROFILES[0] > profiles


@pytest.mark.slow
@pytest.mark.parametrize("K", SEEDED)
@pytest.mark.parametrize("n, gamma", [(6, fmpq(1)), (9, fmpq(3) ** 6), (10, fmpq(5, 2) ** 9)])
def test_filter_with_the_pair_base_equals_exhaustive_search(K, n, gamma, monkeypatch):
    # γ = 1: a composition and its reverse tie (the first in enumeration order is the witness); deeper γ
    before = _pair_on(monkeypatch)
    try:
        _same(K, n, gamma)
    finally:
        sf._RECENT.clear()
    assert sf.PAIR_BOUNDS[0] > before[0]


@pytest.mark.slow
@pytest.mark.parametrize("K", SEEDED)
def test_filter_with_the_pair_base_equals_exhaustive_search_at_n_14(K, monkeypatch):
    before, profiles = _pair_on(monkeypatch), pb.SUFFIX_PROFILES[0]
    try:
        _same(K, 14, fmpq(3) ** 12)
    finally:
        sf._RECENT.clear()
    assert sf.PAIR_BOUNDS[0] > before[0] and pb.SUFFIX_PROFILES[0] > profiles


@pytest.mark.slow
@pytest.mark.parametrize("K", SEEDED)
def test_filter_with_the_suffix_profiles_equals_exhaustive_search_at_n_16_and_gamma_1(K, monkeypatch):
    # γ = 1: a composition and its reverse tie (the first in enumeration order is the witness), n = 16
    before, profiles = _pair_on(monkeypatch), pb.SUFFIX_PROFILES[0]
    try:
        _same(K, 16, fmpq(1))
    finally:
        sf._RECENT.clear()
    assert sf.PAIR_BOUNDS[0] > before[0] and pb.SUFFIX_PROFILES[0] > profiles
