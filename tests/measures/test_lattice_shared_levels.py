"""Levels shared across gamma by the composition search (exactdp.measures.lattice_interval: _kept_level,
BlockStore.passes, TILT_MARGIN; issue 24 item 1).

A search at a new gamma walks the shallow pass an earlier search kept (P-mass or tilted at another s) where that level
is deep enough for it; the leaves' bounds are then computed at the kept level, not at the gamma's own.  On seed 3 of
bench_tensor.py --random-pairs and two constructed near-symmetric pairs (a permuted, perturbed row) at n = 24: along a
sweep of gamma every composition's bounds contain its exact value (type classes), delta through the filter is the
unfiltered exact search's, the shared route is taken (P-mass and tilted levels), a warm sweep gives the cold one's
answers, and a cold search at each gamma alone (its own level) the same delta.
"""

from __future__ import annotations

import pytest
from flint import fmpq

import exactdp.measures.lattice_interval as li
from exactdp.measures.lattice_interval import THREE_RATIO, shared_blocks
from exactdp.measures.privacy_loss import hockey_stick_product_losses
from exactdp.measures.tensor import TensorSearch, delta_tensor_power
from tests.measures.test_lattice_interval import _pair_search

#: seed 3 of --random-pairs (KL(p||q) = 0.07011, KL(q||p) = 0.07006), and two pairs built from a row and a permutation
#: of it, perturbed: KL 0.1114 / 0.1108 and 0.0630 / 0.0619
PAIRS = [(("5/9", "1/3", "1/9"), ("3/8", "1/2", "1/8")),
         (("5/9", "1/3", "1/9"), ("1/3", "11/20", "7/60")),
         (("1/2", "1/3", "1/6"), ("1/3", "29/60", "11/60"))]
#: per pair, the gamma exponents of the sweep at n = 24 (delta_24 from about 0.5 to 1e-9; where a level is reused, by
#: P-mass and by tilted mass, was found by the spy below)
EXPONENTS = [(2, 5, 8, 11, 14), (2, 5, 8, 11, 14, 17), (2, 5, 8, 11, 14)]


def _sweep(K, n, losses, groups, totals, exponents):
    """[(gamma, every composition's bounds, the exact delta)] of an ascending sweep in one process (the store kept)."""
    out = []
    for e in exponents:
        g = fmpq(2) ** e
        rows = THREE_RATIO.enclose(losses, groups, totals, g)
        out.append((g, rows, TensorSearch([(K, n)], filtered=False).witness(g).value))
    return out


@pytest.mark.parametrize("rows, exponents", list(zip(PAIRS, EXPONENTS)))
def test_a_sweep_walking_earlier_levels_equals_the_exact_search(rows, exponents, monkeypatch):
    n = 24
    K, losses, groups, totals = _pair_search(rows, n)
    chosen = []
    kept_level = li._kept_level

    def spy(*args):
        level = kept_level(*args)
        chosen.append(level)
        return level

    monkeypatch.setattr(li, "_kept_level", spy)
    store = shared_blocks()
    store.clear()
    cold = _sweep(K, n, losses, groups, totals, exponents)
    reused = [level for level in chosen if level is not None]
    assert any(s is None for s, _ in reused) and any(s is not None for s, _ in reused)  # P-mass and tilted levels
    exact = {}
    for g, bounds, best in cold:
        exact[g] = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in bounds]
        assert all(lo <= e <= hi for (_, lo, hi), e in zip(bounds, exact[g]))
        assert max(exact[g]) == best and best > 0
        assert delta_tensor_power(K, n, g) == best
    # warm after cold: the sweep again over the kept levels gives the same bounds
    warm = _sweep(K, n, losses, groups, totals, exponents)
    assert [b for _, b, _ in warm] == [b for _, b, _ in cold]
    # each gamma alone, from an empty store (its own level): bounds containing the exact values, the same delta
    for g, bounds, best in cold:
        store.clear()
        alone = THREE_RATIO.enclose(losses, groups, totals, g)
        assert [c for c, _, _ in alone] == [c for c, _, _ in bounds]
        assert all(lo <= e <= hi for (_, lo, hi), e in zip(alone, exact[g]))
        assert delta_tensor_power(K, n, g) == best
    store.clear()


def test_kept_level_serves_only_where_it_is_deep_enough():
    """_kept_level takes a kept pass (at least n blocks) whose full cut reaches what gamma needs and is at most
    REUSE_SLACK deeper, the shallowest such one; a pass of fewer blocks, or of another search's losses, is not taken."""
    n = 24
    K, losses, groups, totals = _pair_search(PAIRS[0], n)
    store = shared_blocks()
    store.clear()
    g = fmpq(2) ** 5
    THREE_RATIO.enclose(losses, groups, totals, g)  # delta_24 = 0.083: a P-mass pass at 8 nats (full cut 16)
    enc = li.LatticeEnclosure(blocks=store, tag=li.search_tag(losses))
    LA, LB = losses
    items_of = [[(LA, n)], [(LB, n)]]
    assert (8.0, None) in store.passes(enc.tag, n)
    need = li.FILTER_CUT_NATS - li._log_float(fmpq(1, 10))  # 14.3 nats: served by the 16-nat full cut
    assert li._kept_level(enc, items_of, g, fmpq(1, 10), n) == (None, 16.0) and need <= 16.0
    assert li._kept_level(enc, items_of, g, fmpq(1, 10**3), n) is None  # 18.9 nats: deeper than 16
    assert li._kept_level(enc, items_of, g, fmpq(1, 10), 10 * n) is None  # not a whole pass of 240 blocks
    other = li.LatticeEnclosure(blocks=store, tag=li.search_tag(_pair_search(PAIRS[1], n)[1]))
    assert li._kept_level(other, items_of, g, fmpq(1, 10), n) is None
    store.clear()


@pytest.mark.parametrize("rows", PAIRS)
def test_epsilon_decided_by_a_homogeneous_composition_equals_the_exact_inversion(rows, monkeypatch):
    """The filtered decision of the inversion first bounds the homogeneous compositions: one certified above delta
    (its lattice lower bound) decides without the search over every composition.  Forced through the filter (the exact
    search 'does not fit') at n = 24 and 40: the same exact gamma* as the exact inversion, E at gamma* of the maximizer
    equal to delta, and some decisions taken by a homogeneous composition alone (fewer searches than decisions)."""
    from exactdp import Kernel
    from exactdp.measures import composition_filter, profile_inversion
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    K = Kernel([list(r) for r in rows])
    cases = [(24, fmpq(1, 1000)), (40, fmpq(1, 10**6)), (40, fmpq(1, 10))]
    want = {case: epsilon_tensor_power(K, *case) for case in cases}
    monkeypatch.setattr(profile_inversion, "_exact_fits", lambda search, g: False)
    decisions, searches = [], []
    decide, select = profile_inversion._filtered_decision, composition_filter.select
    monkeypatch.setattr(profile_inversion, "_filtered_decision", lambda *a: decisions.append(a) or decide(*a))
    monkeypatch.setattr(composition_filter, "select", lambda *a, **k: searches.append(a) or select(*a, **k))
    shared_blocks().clear()
    for n, d in cases:
        r = epsilon_tensor_power(K, n, d)
        assert r.t == want[n, d].t and r.t > 1, (n, d)
        A, B = r.piece
        assert A - r.t * B == d
    assert len(searches) < len(decisions)
    shared_blocks().clear()
