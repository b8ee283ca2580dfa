"""δ_n at many γ in one go (exactdp.measures.lattice_interval.enclose_batch, composition_filter.select_batch,
tensor_enclosure.delta_tensor_power_batch; issue 24 items 1–2).

On seed 3 of bench_tensor.py --random-pairs and the two constructed near-symmetric pairs at n = 24: every composition's
bounds contain its exact value (type classes) at every γ of the batch, the flat γ take the shared passes (the third
pair's γ are not flat: their own searches), and the batch's δ_n — with the exact search over the cost guard, so through
the filter — equals the unfiltered exact search and the single call's at every γ.  The batch keeps the order of its
γ (duplicates, unsorted, γ = 1) and refuses an empty batch, a γ < 1 and a float γ.
"""

from __future__ import annotations

import pytest
from flint import fmpq

import exactdp.measures.lattice_interval as li
from exactdp import Kernel
from exactdp.errors import CoercionError, ParameterError
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures.lattice_interval import enclose_batch, shared_blocks
from exactdp.measures.privacy_loss import hockey_stick_product_losses
from exactdp.measures.tensor import TensorSearch, delta_tensor_power
from exactdp.measures.tensor_enclosure import delta_tensor_power_batch
from tests.measures.test_lattice_interval import _pair_search
from tests.measures.test_lattice_shared_levels import EXPONENTS, PAIRS

#: below the exact search's estimate at n = 24 (about 9.8·10⁶), above the filter's for five γ (about 8.6·10⁶)
_FILTER_ONLY = 9_000_000


@pytest.mark.parametrize("rows, exponents, flat", list(zip(PAIRS, EXPONENTS, (True, True, False))))
def test_batch_bounds_contain_the_exact_values(rows, exponents, flat, monkeypatch):
    passes = []  # (gammas, tilt) of each shared pass
    batch_pass = li._batch_pass
    monkeypatch.setattr(li, "_batch_pass", lambda *args: passes.append((len(args[4]), args[6])) or batch_pass(*args))
    n = 24
    K, losses, groups, totals = _pair_search(rows, n)
    store = shared_blocks()
    store.clear()
    gammas = [fmpq(2) ** e for e in exponents]
    batch = enclose_batch(losses, groups, totals, gammas)
    # the flat gammas (seed 3 up to 2^14, the second pair up to 2^11 at n = 24) share passes; the third pair's E_gamma
    # moves enough from one composition to the next for its own branch and bound at every gamma
    assert (sum(m for m, _ in passes) >= 3 and any(m >= 2 for m, _ in passes)) == flat
    for g, bounds in zip(gammas, batch):
        exact = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in bounds]
        assert all(lo <= e <= hi for (_, lo, hi), e in zip(bounds, exact))
        best = max(lo for _, lo, _ in bounds)
        assert best <= max(exact) and best > 0
        # the exact maximiser is a candidate, and so is no composition certified below the maximum
        top = max(range(len(exact)), key=lambda i: exact[i])
        assert bounds[top][2] >= best
        assert max(exact) == TensorSearch([(K, n)], filtered=False).witness(g).value
    store.clear()


@pytest.mark.parametrize("rows, exponents", list(zip(PAIRS, EXPONENTS)))
def test_batch_equals_single_calls_and_the_exact_search(rows, exponents):
    n = 24
    K = Kernel([list(rows[0]), list(rows[1])])
    gammas = [fmpq(2) ** e for e in exponents[:5]]  # five: the filter's estimate for all of them under _FILTER_ONLY
    exact = [TensorSearch([(K, n)], filtered=False).witness(g).value for g in gammas]
    shared_blocks().clear()
    with limits(max_work=_FILTER_ONLY):
        batch = delta_tensor_power_batch(K, n, gammas)
        shared_blocks().clear()
        single = [delta_tensor_power(K, n, g, enclosure=True) for g in gammas]
    for b, s, e in zip(batch, single, exact):
        assert e in b and e in s
        assert b.relative_width <= b.requested
        if b.exact and s.exact:
            assert b.value == s.value == e
    assert [b.exact for b in batch] == [True] * len(gammas)  # the candidates are cheap: every value exact here
    shared_blocks().clear()


def test_batch_order_duplicates_and_gamma_one():
    K = Kernel([list(PAIRS[0][0]), list(PAIRS[0][1])])
    n = 24
    gammas = [fmpq(2) ** 11, 1, fmpq(2) ** 5, fmpq(2) ** 11, "3/2", fmpq(2) ** 2]
    with limits(max_work=_FILTER_ONLY):
        batch = delta_tensor_power_batch(K, n, gammas)
    exact = [TensorSearch([(K, n)], filtered=False).witness(fmpq(g) if isinstance(g, str) else g).value
             for g in gammas]
    assert [r.value for r in batch] == exact
    assert batch[0].value == batch[3].value
    assert exact[1] == delta_tensor_power(K, n, 1) and 0 < exact[1] < 1
    shared_blocks().clear()


def test_batch_refusals():
    K = Kernel([list(PAIRS[0][0]), list(PAIRS[0][1])])
    with pytest.raises(ParameterError, match="empty batch"):
        delta_tensor_power_batch(K, 10, [])
    with pytest.raises(ParameterError, match="gamma: must be >= 1"):
        delta_tensor_power_batch(K, 10, [2, "1/2"])
    with pytest.raises(CoercionError, match="floats are not accepted"):
        delta_tensor_power_batch(K, 10, [2, 1.5])
    with pytest.raises(ParameterError, match="a sequence"):
        delta_tensor_power_batch(K, 10, "2")  # type: ignore[arg-type]


def test_batch_is_charged_for_all_its_gammas():
    # four flat gammas of seed 3 at n = 24: each filter estimate (about 1.7·10⁶) fits max_work = 6·10⁶, the four
    # together (about 6.8·10⁶) do not — the batch refuses before computing, naming the limit; the single calls answer
    K = Kernel([list(PAIRS[0][0]), list(PAIRS[0][1])])
    gammas = [fmpq(2) ** e for e in (2, 5, 8, 11)]
    with limits(max_work=6_000_000):
        with pytest.raises(ResourceLimitError, match=r"at 4 gammas: about .* exceeds the limit max_work"):
            delta_tensor_power_batch(K, 24, gammas)
        single = [delta_tensor_power(K, 24, g, enclosure=True) for g in gammas]
    assert [r.value for r in single] == [TensorSearch([(K, 24)], filtered=False).witness(g).value for g in gammas]
    shared_blocks().clear()


def test_one_level_serves_every_gamma_where_the_model_says_it_costs_less(monkeypatch):
    # seed 3 at n = 24, γ = 2, 4, …, 2^13 (flat): the greedy choice per γ splits them over two levels (a tilted one
    # for the small δ_n, another for the rest); counting the fixed part of each block built (_PER_BLOCK), one level
    # serving all thirteen costs less — and whichever level a γ walks, every composition's bounds contain its exact
    # value and the exact maximiser stays a candidate
    n = 24
    K, losses, groups, totals = _pair_search(PAIRS[0], n)
    gammas = [fmpq(2) ** e for e in range(1, 14)]
    exact = {g: [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in rows]
             for g, rows in zip(gammas, enclose_batch(losses, groups, totals, gammas))}
    batch_pass = li._batch_pass
    for per_block, levels in ((0, 2), (li._PER_BLOCK, 1)):
        passes = []
        monkeypatch.setattr(li, "_PER_BLOCK", per_block)
        monkeypatch.setattr(li, "_batch_pass", lambda *args: passes.append(len(args[4])) or batch_pass(*args))
        shared_blocks().clear()
        batch = enclose_batch(losses, groups, totals, gammas)
        assert len(passes) == levels and sum(passes) == len(gammas)
        for g, bounds in zip(gammas, batch):
            assert all(lo <= e <= hi for (_, lo, hi), e in zip(bounds, exact[g]))
            best = max(lo for _, lo, _ in bounds)
            assert 0 < best <= max(exact[g])
            assert bounds[max(range(len(exact[g])), key=lambda i: exact[g][i])][2] >= best
    shared_blocks().clear()


def test_the_third_pair_shares_passes_where_its_search_is_flat_enough(monkeypatch):
    # the third pair at n = 24, γ = 2, 4, 8, 16: E_γ moves from one composition to the next by 0.028–0.047 of what one
    # more coordinate moves it — shared passes under FLAT_RATIO = 0.05, its own branch and bound per γ under 0.02 (as
    # near-symmetric pair 3 of bench_tensor.py at n = 1000: 0.022–0.042); every composition's bounds contain its exact
    # value either way, and the batch's δ_n is the unfiltered exact search's
    n = 24
    K, losses, groups, totals = _pair_search(PAIRS[2], n)
    gammas = [fmpq(2) ** e for e in range(1, 5)]
    batch_pass = li._batch_pass
    for ratio, shared in ((li.FLAT_RATIO, len(gammas)), (0.02, 0)):
        passes = []
        monkeypatch.setattr(li, "FLAT_RATIO", ratio)
        monkeypatch.setattr(li, "_batch_pass", lambda *args: passes.append(len(args[4])) or batch_pass(*args))
        shared_blocks().clear()
        batch = enclose_batch(losses, groups, totals, gammas)
        assert sum(passes) == shared
        for g, bounds in zip(gammas, batch):
            exact = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in bounds]
            assert all(lo <= e <= hi for (_, lo, hi), e in zip(bounds, exact))
            assert 0 < max(lo for _, lo, _ in bounds) <= max(exact)
    with limits(max_work=_FILTER_ONLY):
        shared_blocks().clear()
        values = delta_tensor_power_batch(K, n, gammas)
    assert [r.value for r in values] == [TensorSearch([(K, n)], filtered=False).witness(g).value for g in gammas]
    shared_blocks().clear()
