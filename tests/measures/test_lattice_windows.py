"""Windows of compositions (issue 24; exactdp.measures.lattice_interval.window_bounds, _window_pass;
exactdp.measures.blackwell_join.window_majorant).

The certified window bound against the exact values at n = 14 (every window of several sizes, a dozen γ, four pairs;
both routes, by a product block and by D′_j's atoms): it lies above E_γ of every composition of its window and above
the exact E_γ(A^{⊗k0} ⊗ B^{⊗m} ⊗ D′_j), within the sweep's width of the latter.  Then the batch with windows against the batch without them (the plain pass: one bound a
composition) on random 2×3 pairs at n = 40 … 200 and the near-symmetric pairs: the same δ_n (lower, upper, exact), the
same best lower bound and the same candidates with the same bounds at every γ — and windows were used and closed."""

from __future__ import annotations

import math

import pytest
from flint import fmpq

import exactdp.measures.lattice_interval as li
from exactdp import Kernel
from exactdp.measures.blackwell_join import as_pair_loss, window_majorant
from exactdp.measures.lattice_interval import LatticeEnclosure, enclose_batch, shared_blocks, window_bounds
from exactdp.measures.privacy_loss import PairLoss, product_loss
from exactdp.measures.tensor_enclosure import delta_tensor_power_batch
from tests.measures.test_lattice_interval import _pair_search

F = fmpq
PAIRS = [(("1/2", "1/3", "1/6"), ("1/4", "1/4", "1/2")), (("5/9", "1/3", "1/9"), ("3/8", "1/2", "1/8")),
         (("5/9", "1/3", "1/9"), ("1/3", "11/20", "7/60")), (("1/2", "1/3", "1/6"), ("1/3", "29/60", "11/60"))]


def _losses(rows):
    p, q = ([F(x) for x in row] for row in rows)
    return PairLoss.of(p, q), PairLoss.of(q, p)


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize("tilt", [None, F(1, 4)])
@pytest.mark.parametrize("by_atoms", [False, True])
def test_window_bound_against_exact_values(pair, tilt, by_atoms):
    A, B = _losses(PAIRS[pair])
    n = 14
    E = {k: product_loss([(A, k), (B, n - k)]) for k in range(n + 1)}
    gammas = [F(1, 2), F(1), F(9, 8), F(3, 2), F(2), F(3), F(5), F(8), F(16), F(40), F(200), F(2) ** 12]
    enc = LatticeEnclosure()
    for j, points in ((1, 4), (2, 6), (4, 6), (4, 200), (8, 10)):
        D = window_majorant(A, B, j, points)
        assert len(D.classes) <= points
        for k0 in range(0, n - j + 1):  # the first and last windows too (one side of no coordinates)
            m = n - k0 - j
            his = window_bounds(enc, A, B, k0, m, D, gammas, cut_nats=li.CUT_NATS, tilt=tilt, by_atoms=by_atoms)
            RD = product_loss([(A, k0), (B, m), (D, 1)])
            for g, hi in zip(gammas, his):
                top = max(E[k0 + i].hockey_stick(g) for i in range(j + 1))
                exact = RD.hockey_stick(g)
                assert top <= exact <= hi
                assert hi - exact <= F(1, 10**8)  # the sweep's width at n = 14: every atom kept


@pytest.mark.parametrize("tilt", [None, F(1, 4)])
def test_window_block_is_the_smaller_side_times_the_window(tilt, monkeypatch):
    """On the product route, D′_j's atoms multiply the smaller of the two blocks (A^{⊗k0} near k0 = 0, B^{⊗m} near m = 0): the product
    block has |smaller| · |D′_j| atoms, and the bound is the same garbling bound either way (above E_γ of every
    composition of the window, exact values at n = 30)."""
    A, B = _losses(PAIRS[0])
    n, j = 30, 8
    D = window_majorant(A, B, j, 10)
    E = {k: product_loss([(A, k), (B, n - k)]) for k in range(n + 1)}
    gammas = [F(1), F(3), F(2) ** 8]
    products = []
    product_block = li.product_block
    monkeypatch.setattr(li, "product_block",
                        lambda X, Y, cut, **kw: products.append((X.count, Y.count)) or product_block(X, Y, cut, **kw))
    enc = LatticeEnclosure()
    for k0 in (0, 1, 3, 11, 19, 21, 22):
        m = n - k0 - j
        his = window_bounds(enc, A, B, k0, m, D, gammas, cut_nats=li.CUT_NATS, tilt=tilt, by_atoms=False)
        sides = (enc.block(A, k0, li.CUT_NATS, tilt).count, enc.block(B, m, li.CUT_NATS, tilt).count)
        assert products[-1] == (min(sides), len(D.classes))
        for g, hi in zip(gammas, his):
            assert max(E[k0 + i].hockey_stick(g) for i in range(j + 1)) <= hi
    assert products[0][0] == 1 and products[-1][0] == 1  # k0 = 0 and m = 0: the window's atoms alone
    assert products[1][0] == products[-2][0] == 3  # k0 = 1 (A's side) and m = 1 (B's side): one coordinate


def _factored_case(L0: float, size: int, seed: int):
    """Two blocks whose floats are taken as exact values (lp_err = L_err = 0; losses about L0, distinct pair sums), the
    product's runs and order, and each product atom's exact (lp_x, lp_y) as arb balls."""
    import numpy as np
    from flint import arb, ctx

    rng = np.random.default_rng(seed)

    def block(k: int, shift: float) -> li.Block:
        L = np.sort(L0 + shift + rng.uniform(0.0, 60.0, k))
        return li.Block(rng.uniform(-30.0, 0.0, k), L, 0.0, 0.0, F(0), 0.0)

    X, Y = block(size, 0.0), block(14, 0.25)
    order = np.argsort(-Y.lp, kind="stable")
    _, L, s, runs = li._product_runs(X, Y, order)
    pairs = {(float(X.lp[x] + Y.lp[y]), float(X.L[x] + Y.L[y])): (x, y) for x in range(X.count) for y in range(Y.count)}
    assert len(pairs) == X.count * Y.count
    lp = (X.lp[None, :] + Y.lp[runs][:, None]).ravel()[s]
    which = [pairs[(float(a), float(b))] for a, b in zip(lp, L[s])]
    with ctx.workprec(200):
        return X, Y, runs, s, L[s], [(arb(float(X.lp[x])) + arb(float(Y.lp[y]))) for x, y in which]


@pytest.mark.parametrize("L0", [0.0, 2.0 ** 20])
def test_window_product_masses_from_the_factors_within_their_stated_error(L0):
    """A window product's sweep masses p and Q-weights w from its factors' exponentials (:func:`li._factored_masses`)
    against arb at 200 bits: each within e^{±ε}(1 ± EXP_REL) of e^{λ − M} and e^{λ − M − (L_b − ref_j)}, |ε| ≤ the
    product's lp_err + η (the factors' floats exact here: λ = lp_x + lp_y).  At losses near 2²⁰ the roundings of the
    arguments (u·|L| ≈ 10⁻¹⁰) exceed what the product's lp_err alone allows, so the test fails if η is dropped; and the
    sweep over such a product contains the exact sum (brute force over the pairs)."""
    import numpy as np
    from flint import arb, ctx

    X, Y, runs, s, L, lam = _factored_case(L0, 40, 7)
    got = li._factored_masses(X, Y, runs, s, L, True)
    assert got is not None
    p, M, q, eta = got
    assert q is not None
    cid, ref, w = q
    base = li.product_block(X, Y, math.inf).lp_err  # the stored sums' bound: 2u(max|lp_X| + max|lp_Y| + 1)
    worst = 0.0
    with ctx.workprec(200):
        for i, lam_i in enumerate(lam):
            for value, target in ((p[i], (lam_i - arb(M)).exp()),
                                  (w[i], (lam_i - arb(M) - (arb(float(L[i])) - arb(float(ref[cid[i]])))).exp())):
                rel = abs(arb(float(value)) / target - 1)
                allowed = (arb(base + eta).exp() * (1 + arb(li.EXP_REL)) - 1)
                assert rel < allowed
                worst = max(worst, float(rel.mid()))
    if L0:
        assert worst > math.expm1(base) + 2 * li.EXP_REL  # η is needed here
    # the product block with these arrays: its sweep contains the exact E_γ of the pairs (finite sums of exact floats)
    prod = li.product_block(X, Y, math.inf, prepare="suffix")
    assert prod.lp_err == base + eta and "suffix" in prod.prepared
    walked = li.Block(np.array([0.0]), np.array([-L0 - 30.0]), 0.0, 0.0, F(0), 0.0)
    for g in (F(1), F(3), F(1, 5)):
        sw = li._sweep(walked, prod, g)
        with ctx.workprec(200):
            theta = arb(g).log()
            exact = sum(((lam_i.exp()) * (1 - (theta - (arb(-L0 - 30.0) + arb(float(L[i])))).exp())
                         for i, lam_i in enumerate(lam) if float(L[i]) - L0 - 30.0 > float(theta.mid())),
                        arb(0))
        assert sw.f_lo <= li._lower(exact) and li._upper(exact) <= sw.f_hi


def test_window_route_by_work(monkeypatch):
    """The route of :func:`window_bounds` by the time model of :func:`window_by_atoms` (block sizes of the seed-3 pair
    at n = 10³, level (16, 1/4), where both routes were timed): a single search's box on middle blocks (one γ) by
    D′_j's atoms — no product block —, the batch's ten γ and a window next to a corner by the product; at one γ both
    routes bound the same window (exact values at n = 30); and ε(δ) after a batch is the same (exact t*, maximizer) with
    every window by atoms, every window by the product, and the model's choice."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    assert li.window_by_atoms(4013, 10376, 14, 1) and li.window_by_atoms(6759, 7351, 14, 1)
    assert not li.window_by_atoms(6759, 7351, 14, 10)
    assert not li.window_by_atoms(63, 14762, 14, 1)  # next to a corner: 882 pairs walked once beat 14 walks
    A, B = _losses(PAIRS[0])
    n, j = 30, 8
    D = window_majorant(A, B, j, 10)
    E = {k: product_loss([(A, k), (B, n - k)]) for k in range(n + 1)}
    products = []
    product_block = li.product_block
    monkeypatch.setattr(li, "product_block",
                        lambda X, Y, cut, **kw: products.append((X.count, Y.count)) or product_block(X, Y, cut, **kw))
    enc = LatticeEnclosure()
    for k0 in (1, 11, 21):
        for g in (F(1), F(3), F(2) ** 8):
            top = max(E[k0 + i].hockey_stick(g) for i in range(j + 1))
            value = _window_value(A, B, k0, n - k0 - j, D, g)
            for by_atoms in (True, False):
                made = len(products)
                (hi,) = window_bounds(enc, A, B, k0, n - k0 - j, D, [g], cut_nats=li.CUT_NATS, by_atoms=by_atoms)
                assert top <= value <= hi
                assert (len(products) == made) == by_atoms  # by atoms: no product block

    rows, n = PAIRS[2], 120
    K = Kernel([list(rows[0]), list(rows[1])])

    def eps():
        shared_blocks().clear()
        delta_tensor_power_batch(K, n, _gammas(rows, n))
        r = epsilon_tensor_power(K, n, F(1, 10**6))
        shared_blocks().clear()
        return r.t, r.t_lower, r.composition

    chosen = eps()
    for forced in (True, False):
        monkeypatch.setattr(li, "window_by_atoms", lambda *a, forced=forced: forced)
        products.clear()
        assert eps() == chosen
        assert bool(products) != forced


def _window_value(A, B, k0, m, D, g):
    """The exact E_γ(A^{⊗k0} ⊗ B^{⊗m} ⊗ D) (what either route of window_bounds bounds from above)."""
    return product_loss([(A, k0), (B, m), (D, 1)]).hockey_stick(g)


def _answers(K, n, losses, groups, totals, gammas):
    """δ_n of the batch (lower, upper, exact) and, per γ, the best lower bound and the candidates with their bounds."""
    shared_blocks().clear()
    rows = enclose_batch(losses, groups, totals, gammas)
    shared_blocks().clear()
    values = [(r.lower, r.upper, r.exact) for r in delta_tensor_power_batch(K, n, gammas)]
    shared_blocks().clear()
    out = []
    for bounds in rows:
        best = max(lo for _, lo, _ in bounds)
        out.append((best, [(c, lo, hi) for c, lo, hi in bounds if hi >= best]))
    return values, out


def _gammas(rows, n):
    """Eight γ = 2^k from n·KL to n·KL + 5σ√n of the direction of larger KL (as bench_tensor.py's ten; floats only
    choose the query points)."""
    best = None
    for a, b in (rows, rows[::-1]):
        fa, fb = [float(F(x)) for x in a], [float(F(x)) for x in b]
        kl = sum(x * math.log(x / y) for x, y in zip(fa, fb))
        var = sum(x * math.log(x / y) ** 2 for x, y in zip(fa, fb)) - kl * kl
        best = max(best or (kl, var), (kl, var))
    kl, var = best
    return sorted({F(2) ** max(1, round((n * kl + 5 * math.sqrt(n * var) * i / 7) / math.log(2))) for i in range(8)})


#: seeds 3 (E_γ flat in the composition), 1, 2 and 5 (the lattice routine applies, searches not flat) of bench_tensor.py
#: --random-pairs at several n, and the perturbed near-symmetric pairs of PAIRS (windows close).  (3/10, 3/10, 2/5) / (2/5, 3/10, 3/10) is not
#: here: its pair and reverse have the same loss, one pair class, so every composition is the same and the lattice
#: routine (and its windows) is not what answers it.  PAIRS[1]'s windows close nothing; the halves of its open
#: windows (HALVES) close some
CASES = [(PAIRS[1], 200, True), (PAIRS[1], 60, True), ((("5/8", "1/8", "1/4"), ("1/5", "2/5", "2/5")), 100, False),
         ((("2/19", "3/19", "14/19"), ("3/7", "1/7", "3/7")), 80, False),
         ((("1/3", "2/5", "4/15"), ("1/18", "5/6", "1/9")), 120, False), (PAIRS[2], 120, True), (PAIRS[3], 160, True)]


@pytest.mark.parametrize("rows, n, closes", CASES)
def test_batch_with_windows_equals_the_plain_pass(rows, n, closes, monkeypatch):
    K, losses, groups, totals = _pair_search(rows, n)
    gammas = _gammas(rows, n)
    swept = []  # (composition, γ) bounds of the pass: one per γ of each bounds_many call
    bounds_many = li.LatticeEnclosure.bounds_many

    def spy(self, items, gs, **kw):
        swept.append(len(gs))
        return bounds_many(self, items, gs, **kw)

    monkeypatch.setattr(li.LatticeEnclosure, "bounds_many", spy)
    with_windows = _answers(K, n, losses, groups, totals, gammas)
    fewer = sum(swept)
    swept.clear()
    monkeypatch.setattr(li, "WINDOW", None)
    monkeypatch.setattr(li, "BATCH_WINDOW", None)
    plain = _answers(K, n, losses, groups, totals, gammas)
    assert with_windows == plain
    assert (fewer < sum(swept)) == closes  # the windows closed some (composition, γ) of the flat pairs' passes


@pytest.mark.parametrize("rows, n", [(PAIRS[2], 120), (PAIRS[3], 160)])
def test_halves_of_open_windows(rows, n, monkeypatch):
    """A window left open at some γ bounded by its two halves' windows first (``HALVES``): the batch's answers (δ_n
    lower, upper, exact; per γ the best lower bound and the candidates with their bounds) equal those without the
    halves, and the halves closed some (composition, γ): fewer compositions bounded one by one.  (Each half's bound
    is :func:`window_bounds` of its D′, tested against exact values above.)"""
    K, losses, groups, totals = _pair_search(rows, n)
    gammas = _gammas(rows, n)
    swept = []
    bounds_many = li.LatticeEnclosure.bounds_many

    def spy(self, items, gs, **kw):
        swept.append(len(gs))
        return bounds_many(self, items, gs, **kw)

    monkeypatch.setattr(li.LatticeEnclosure, "bounds_many", spy)
    halves = []
    window_bounds_of = li.window_bounds
    monkeypatch.setattr(li, "window_bounds",
                        lambda *a, **kw: halves.append(a[3] + a[4]) or window_bounds_of(*a, **kw))
    with_halves = _answers(K, n, losses, groups, totals, gammas)
    fewer = sum(swept)
    j = li.batch_window(*_losses(rows), n, 0.0)[0]  # the pass's windows
    assert any(m > n - j for m in halves)  # a window of fewer than j + 1 compositions: a half
    swept.clear()
    monkeypatch.setattr(li, "HALVES", False)
    assert _answers(K, n, losses, groups, totals, gammas) == with_halves
    assert fewer < sum(swept)


def test_search_after_a_batch_splits_on_its_window_grid(monkeypatch):
    """ε(δ) after a batch's pass by windows: its searches' window boxes of WINDOW[0] + 1 compositions are the batch's
    windows (k0 ≡ 1 mod j + 1, j of :func:`batch_window`, whose blocks the batch kept), and ε is the one found without
    the batch (its searches halve their boxes at the middle)."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    rows, n = PAIRS[2], 120
    K = Kernel([list(rows[0]), list(rows[1])])
    j = li.batch_window(*_losses(rows), n, 0.0)[0]
    boxes = []
    window_bounds_of = li.window_bounds
    monkeypatch.setattr(li, "window_bounds", lambda *a, **kw: boxes.append((a[3], n - a[3] - a[4], len(a[6])))
                        or window_bounds_of(*a, **kw))
    shared_blocks().clear()
    alone = epsilon_tensor_power(K, n, F(1, 10**6))
    shared_blocks().clear()
    delta_tensor_power_batch(K, n, _gammas(rows, n))
    boxes.clear()
    after = epsilon_tensor_power(K, n, F(1, 10**6))
    shared_blocks().clear()
    assert (after.t, after.t_lower, after.composition) == (alone.t, alone.t_lower, alone.composition)
    nine = [k0 for k0, width, count in boxes if count == 1 and width == j]
    assert nine and all(k0 % (j + 1) == 1 for k0 in nine)


@pytest.mark.parametrize("rows, n", [(PAIRS[1], 100), (PAIRS[2], 120), (PAIRS[3], 160)])
def test_single_searches_with_windows_equal_the_plain_ones(rows, n, monkeypatch):
    """The single search's boxes of a flat γ bounded by their window (``_branch_and_bound``), and ε(δ) after a batch
    (its searches walk the batch's level by windows, :meth:`BlockStore.mark_pass`): the same δ_n (lower, upper, exact)
    at each γ and the same ε (its exact t*) as without windows."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    K = Kernel([list(rows[0]), list(rows[1])])
    gammas = _gammas(rows, n)
    boxes = []
    window_bounds_of = li.window_bounds
    monkeypatch.setattr(li, "window_bounds", lambda *a, **kw: boxes.append(len(a[6])) or window_bounds_of(*a, **kw))

    def answers():
        shared_blocks().clear()
        single = [(r.lower, r.upper, r.exact) for r in (delta_tensor_power_enclosure(K, n, g) for g in gammas[::3])]
        shared_blocks().clear()
        delta_tensor_power_batch(K, n, gammas)
        t = epsilon_tensor_power(K, n, F(1, 10**6)).t
        shared_blocks().clear()
        return single, t

    with_windows = answers()
    assert 1 in boxes  # a window of one γ: a box of a single search
    monkeypatch.setattr(li, "WINDOW", None)
    monkeypatch.setattr(li, "BATCH_WINDOW", None)
    assert answers() == with_windows


def test_ratios_outside_the_float_range(monkeypatch):
    """A pair with a ratio of 2·10⁻⁶⁰ (its reverse 5·10⁵⁹): the ratios of D′_8's parts reach 10^±478, outside the float
    range that only chooses D′_8's grid; D′_8 still dominates every part, and the batch answers as without windows."""
    e = F(1, 10**60)
    rows = (("1/2", str(F(1, 2) - e), str(e)), ("1/4", "1/4", "1/2"))
    A, B = _losses(rows)
    D = window_majorant(A, B, 8, 14)
    assert len(D.classes) <= 14
    assert all(D.dominates(as_pair_loss(product_loss([(A, i), (B, 8 - i)]))) for i in range(9))
    K = Kernel([list(rows[0]), list(rows[1])])
    gammas = [F(2) ** k for k in (20, 40, 60, 80, 100)]
    calls = []
    majorant = li.window_majorant
    monkeypatch.setattr(li, "window_majorant", lambda *a: calls.append(a) or majorant(*a))
    shared_blocks().clear()
    with_windows = [(r.lower, r.upper, r.exact) for r in delta_tensor_power_batch(K, 40, gammas)]
    assert calls  # the windows ran
    monkeypatch.setattr(li, "WINDOW", None)
    monkeypatch.setattr(li, "BATCH_WINDOW", None)
    shared_blocks().clear()
    assert [(r.lower, r.upper, r.exact) for r in delta_tensor_power_batch(K, 40, gammas)] == with_windows
    shared_blocks().clear()


def test_window_pass_with_a_best_below_the_float_range():
    """A γ whose best lower bound lies below the float range (its float is 0): the pass orders the windows without
    dividing by it, closes none (every window's bound is above 10⁻⁴⁰⁰) and gives every composition the plain pass's
    bounds."""
    from types import SimpleNamespace

    A, B = _losses(PAIRS[1])
    n, g = 37, F(2)  # windows 1…9, …, 28…36: no composition bounded alone before the windows are ordered
    enc = LatticeEnclosure()
    out: dict[int, tuple[fmpq, fmpq]] = {}
    li._window_pass(enc, A, B, n, [(g, SimpleNamespace(best=F(1, 10**400)), out)], li.CUT_NATS, None, 8, 14)
    plain = LatticeEnclosure()
    assert out == {k: plain.bounds_many([(A, k), (B, n - k)], [g], cut_nats=li.CUT_NATS)[0] for k in range(1, n)}


def test_batch_window_by_size_and_flatness():
    """The windows of a batch's pass (:func:`batch_window`): 18 compositions (halves of nine, on the single search's
    grid) past n = 4·17, WINDOW's nine below, none for one loss; D′_17 on FLATTEST's points for the flattest pair
    (PAIRS[1], seed 3 of ``bench_tensor.py --random-pairs``: flatness 0.0008–0.0015 at n = 10³ over its γ) and on
    BATCH_WINDOW's for the perturbed near-symmetric pairs (0.006–0.042)."""
    j, points = li.BATCH_WINDOW
    assert (j + 1) % (li.WINDOW[0] + 1) == 0 and li.FLATTEST[1] > points
    n = 1000
    gammas = [F(2) ** e for e in (101, 120, 140, 160)]
    for pair, flattest in ((PAIRS[1], True), (PAIRS[2], False), (PAIRS[3], False)):
        A, B = _losses(pair)
        ratio = min(li._flat_ratio(A, B, n, g) for g in gammas)
        assert (ratio < li.FLATTEST[0]) == flattest
        assert li.batch_window(A, B, n, ratio) == (j, li.FLATTEST[1] if flattest else points)
        assert li.batch_window(A, B, 4 * j, ratio) == li.WINDOW
        assert li.batch_window(A, B, 4 * li.WINDOW[0], ratio) is None
        assert li.batch_window(A, A, n, ratio) is None
