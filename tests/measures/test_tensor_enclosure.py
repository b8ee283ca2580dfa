"""Certified enclosures of delta_n(gamma) (exactdp.measures.tensor_enclosure, issue 15 item 1).

The enclosure must contain the exact value wherever that is computable (type classes / binary splitting /
streamed slices, and the explicit tensor power at small n), meet the requested relative width, say whether
it is exact, and refuse — naming the limit — rather than return something wider.
"""

from __future__ import annotations

import random

import pytest
from flint import fmpq

from exactdp import Kernel
from exactdp.errors import CoercionError, ParameterError
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.privacy_loss import PairLoss
from exactdp.measures.tensor import delta_tensor_power, hockey_stick_product
from exactdp.measures.tensor_enclosure import (
    TensorEnclosure,
    delta_tensor_power_enclosure,
    hockey_stick_product_enclosure,
)
from exactdp.mechanisms import randomized_response
from tests.exact import random_distribution


def _gammas(p, q, n):
    """gamma = 1, every product ratio r^n of a single class (ties), and points between them."""
    loss = PairLoss.of(p, q)
    out = {fmpq(1), fmpq(7, 5)}
    for r, _ in loss.classes:
        if r ** n >= 1:
            out |= {r ** n, r ** n * fmpq(9, 10), r ** n * fmpq(11, 10)}
    ratios = sorted(r for r, _ in loss.classes)
    if len(ratios) >= 2:  # a mixed type: the tie of r_max^(n-1) * r_min-ish, if >= 1
        mixed = ratios[-1] ** (n - 1) * ratios[-2]
        if mixed >= 1:
            out.add(mixed)
    return sorted(out)


@pytest.mark.parametrize("size", [2, 3])
def test_enclosure_contains_the_exact_value_and_meets_the_width(size):
    rng = random.Random(20261201 + size)
    checked = 0
    for case in range(6):
        zero = 0 if case == 5 else None  # case 5: an output only the first row reaches (P-only mass)
        p = random_distribution(rng, size)
        q = random_distribution(rng, size, zero=zero)
        if p == q:
            continue
        for n in (1, 2, 5, 40, 300):
            for g in _gammas(p, q, n):
                exact = hockey_stick_product([(p, q, n)], g)
                for w in (fmpq(1, 10**6), fmpq(1, 10**30)):
                    r = hockey_stick_product_enclosure([(p, q, n)], g, rel_width=w, try_exact=False)
                    assert r.lower <= exact <= r.upper, (p, q, n, g)
                    assert r.relative_width <= w
                    assert r.exact == (r.lower == r.upper)
                    if r.exact:
                        assert r.lower == exact
                    checked += 1
    assert checked > 100


def test_three_commensurable_ratios_and_the_explicit_tensor_power():
    # 3-ary randomized response, e^eps = 2: ratios 2, 1, 1/2 (lattice rank 1); brute force over all
    # 27 x 27 outputs of K^(x3) and all input pairs
    K = randomized_response(3, 2)
    big = K.tensor_power(3)
    for g in (fmpq(1), fmpq(3, 2), fmpq(2), fmpq(4), fmpq(5), fmpq(8)):
        r, brute = delta_tensor_power_enclosure(K, 3, g, try_exact=False), eta_hockey_stick(big, g)
        assert r.lower <= brute <= r.upper and r.relative_width <= fmpq(1, 10**6)
        assert r.value in (None, brute)
    assert delta_tensor_power_enclosure(K, 3, 9, try_exact=False).value == 0  # above 2^3: exactly 0


def test_exact_where_it_fits_the_cost_guard():
    K = randomized_response(2, 3)
    r = delta_tensor_power(K, 10, 3**5, enclosure=True)
    assert isinstance(r, TensorEnclosure) and r.exact and r.value == fmpq(55647, 131072)  # README value
    assert r.relative_width == 0 and str(r) == "55647/131072"
    asym = Kernel([["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])  # two loss classes: the exact search
    assert delta_tensor_power(asym, 4, 2, enclosure=True).value == delta_tensor_power(asym, 4, 2)


def test_beyond_the_exact_guard_an_enclosure_of_the_requested_width():
    # binary RR e^eps0 = 3 at n = 10^6: the exact binary splitting is over max_work at this limit
    n, g = 10**6, fmpq(3) ** (10**6 // 2 + 1000)
    with limits(max_work=10**8):
        r = delta_tensor_power(randomized_response(2, 3), n, g, enclosure=True, rel_width="1e-6")
    assert not r.exact and r.value is None and 0 < r.lower < r.upper < 1
    assert r.relative_width <= fmpq(1, 10**6)
    assert "certified enclosure" in str(r)
    # the same value at n = 2000 against the exact one (the enclosure route forced)
    g2 = fmpq(3) ** (1000 + 44)
    e = delta_tensor_power_enclosure(randomized_response(2, 3), 2000, g2, try_exact=False)
    assert delta_tensor_power(randomized_response(2, 3), 2000, g2) in e


def test_refuses_rather_than_returning_something_wider():
    asym = Kernel([["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])
    with limits(max_work=10**6), pytest.raises(ResourceLimitError) as err:
        delta_tensor_power_enclosure(asym, 1000, 2)
    assert "certified filter" in str(err.value) and "max_work" in str(err.value)  # the filter is charged first
    p, q = ["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]
    with limits(max_prec=64), pytest.raises(ResourceLimitError, match="max_prec"):
        hockey_stick_product_enclosure([(p, q, 50)], 2, try_exact=False)
    with limits(max_work=10**5), pytest.raises(ResourceLimitError, match="max_work"):
        hockey_stick_product_enclosure([(p, q, 10**5)], 2)


def test_bad_rel_width():
    K = randomized_response(2, 3)
    for bad in (0, 1, "2", "-1/10"):
        with pytest.raises(ParameterError, match="rel_width: the guaranteed relative width must lie in"):
            delta_tensor_power(K, 3, 2, enclosure=True, rel_width=bad)
    with pytest.raises(CoercionError, match="rel_width: floats are not accepted"):
        delta_tensor_power(K, 3, 2, enclosure=True, rel_width=1e-6)
    with pytest.raises(ParameterError, match="rel_width: only with enclosure=True"):
        delta_tensor_power(K, 3, 2, rel_width="1e-6")


def test_fresh_tails_far_and_near_against_exact_sums(monkeypatch):
    """The fresh tail (series with a geometric bound far out, incomplete beta otherwise) against the exact
    integer sum, and the slices route at n = 2000 re-anchoring its far tails (counted) inside the exact value."""
    from math import comb

    from flint import arb, ctx

    import exactdp.measures.tensor_enclosure as te
    from exactdp.numbers.rb import ball_endpoints

    u, v = fmpq(1, 4), fmpq(1, 2)
    for m, t in ((10, 3), (50, 45), (400, 390), (400, 100), (400, 0), (400, 400), (400, 401)):
        exact = sum((comb(m, b) * u ** b * v ** (m - b) for b in range(max(t, 0), m + 1)), fmpq(0))
        with ctx.workprec(160):
            lo, hi = ball_endpoints(te._ball_tail(m, t, arb(u), arb(v), 100))
        assert lo <= exact <= hi and (hi - lo) <= exact * fmpq(1, 2**90)
    calls = []
    real = te._ball_tail
    monkeypatch.setattr(te, "_ball_tail", lambda *a: calls.append(a) or real(*a))
    p, q = ["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]
    g = fmpq(3) ** 800
    r = hockey_stick_product_enclosure([(p, q, 2000)], g, rel_width="1e-12", try_exact=False)
    assert hockey_stick_product([(p, q, 2000)], g) in r and r.relative_width <= fmpq(1, 10**12)
    assert len(calls) > 5  # far tails were evaluated afresh after their leading terms were removed


def test_one_ratio_class_and_the_threshold():
    # p = (1/2, 1/2, 0), q = (1/2, 0, 1/2): one finite class (ratio 1, mass 1/2) and P-only mass 1/2, so
    # delta_n(gamma) = 1 - 2^-n for gamma >= 1 (the finite class is never above gamma >= 1)
    p, q = ["1/2", "1/2", "0"], ["1/2", "0", "1/2"]
    for n in (1, 7, 10**6):
        r = hockey_stick_product_enclosure([(p, q, n)], 1, try_exact=False)
        assert r.lower <= 1 - fmpq(1, 2) ** n <= r.upper or r.value == 1 - fmpq(1, 2) ** n
    from exactdp.measures.privacy_loss import _first_above
    from exactdp.measures.tensor_enclosure import _threshold

    for r_hi, r_lo, n, g in ((fmpq(3), fmpq(1, 3), 10, fmpq(3) ** 4), (fmpq(3), fmpq(1, 3), 10, fmpq(7, 2)),
                             (fmpq(5, 2), fmpq(2, 5), 101, fmpq(1)), (fmpq(2), fmpq(1, 2), 50, fmpq(2) ** 50)):
        assert _threshold(r_hi, r_lo, n, g) == _first_above(r_hi, r_lo, n, g)  # ties (3^4, 2^50) included


PAIR_2X3 = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])


def test_many_candidates_enclosed_from_the_filter_bounds(monkeypatch):
    """More candidates than MAX_CANDIDATES (forced here: the cap set to 0) are not refused: δ_n(γ) lies between
    the largest lower and the largest upper filter bound, tightened by the lattice bounds; the result contains
    the unfiltered exact search's value and has the requested width."""
    from exactdp.measures import composition_filter, tensor_enclosure
    from exactdp.measures.tensor_search import TensorSearch

    calls = []
    original = tensor_enclosure._from_bounds
    monkeypatch.setattr(composition_filter, "MAX_CANDIDATES", 0)
    monkeypatch.setattr(tensor_enclosure, "_from_bounds", lambda *a: calls.append(a) or original(*a))
    monkeypatch.setattr(tensor_enclosure, "_by_ranges", lambda *a: None)  # the ranges' enclosure goes first
    for n, g in ((40, fmpq(3) ** 12), (60, fmpq(2) ** 15)):
        exact = TensorSearch([(PAIR_2X3, n)], filtered=False).witness(g).value
        with limits(max_work=10**7):  # below the exact search's estimate: the filter's route
            r = tensor_enclosure.delta_tensor_power_enclosure(PAIR_2X3, n, g, try_exact=False)
        assert exact in r and 0 < r.relative_width <= r.requested
    assert len(calls) == 2


@pytest.mark.slow
def test_flat_compositions_at_n_1000_enclosed():
    """The 2×3 pair at n = 1000, γ = 3³⁹⁸ (issue 24: refused before, 184 candidates survived the filter's fixed
    12-nat cut): the filter's cut now deepens with the size of the maximum (E_γ ≈ 7·10⁻⁸), every mixed composition
    is certified below the homogeneous one, whose exact value is the answer."""
    from exactdp.measures.tensor_search import TensorSearch

    g = fmpq(3) ** 398
    r = delta_tensor_power(PAIR_2X3, 1000, g, enclosure=True)
    search = TensorSearch([(PAIR_2X3, 1000)])
    corner = max(search.hockey_stick(c, g) for c in ((1000, 0), (0, 1000)))
    assert r.exact and r.value == corner
    assert fmpq(665942208, 10**16) < r.lower < fmpq(665942210, 10**16)


def test_tighten_steps_and_its_budget():
    """tighten: two steps per composition (default cut, then width w/4), each bound intersected with the old one
    and containing the exact value; False after both or for a product the lattice does not cover; over the
    lattice's work budget a refusal that names max_work."""
    from exactdp.measures.lattice_interval import LatticeEnclosure
    from exactdp.measures.privacy_loss import hockey_stick_product_losses
    from exactdp.measures.tensor_enclosure import tighten

    loss = PairLoss.of([fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)], [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)])
    losses, counts, g, w = [loss, loss.reverse()], (30, 10), fmpq(3) ** 12, fmpq(1, 10**6)
    exact = hockey_stick_product_losses([(loss, 30), (loss.reverse(), 10)], g)
    bounds, steps = {counts: (fmpq(0), fmpq(1))}, {}
    for step in (1, 2):
        assert tighten(bounds, steps, counts, losses, LatticeEnclosure(), g, w, "t")
        lo, hi = bounds[counts]
        assert steps[counts] == step and lo <= exact <= hi and 0 < lo
    assert (hi - lo) <= w * lo
    assert not tighten(bounds, steps, counts, losses, LatticeEnclosure(), g, w, "t")
    four = PairLoss.of([fmpq(1, 4)] * 4, [fmpq(1, 10), fmpq(2, 10), fmpq(3, 10), fmpq(4, 10)])
    assert not tighten({(5,): (fmpq(0), fmpq(1))}, {}, (5,), [four], LatticeEnclosure(), g, w, "t")
    with pytest.raises(ResourceLimitError, match="max_work"):
        tighten({counts: (fmpq(0), fmpq(1))}, {}, counts, losses, LatticeEnclosure(budget=10), g, w, "t")


def _brute_delta_2(K: Kernel, gamma: fmpq) -> fmpq:
    """η_{E_γ}(K ⊗ K) over every pair of input sequences, from the explicit rows of the tensor square."""
    rows = [[K.rows[x][y] * K.rows[u][v] for y in range(K.M) for v in range(K.M)]
            for x in range(K.N) for u in range(K.N)]
    return max(sum((max(a - gamma * b, fmpq(0)) for a, b in zip(p, q)), fmpq(0)) for p in rows for q in rows)


def test_try_exact_false_without_a_ball_route_returns_the_exact_value_within_the_guard():
    """``try_exact=False`` where no ball route applies (several losses / pair classes) but the exact value fits
    the cost guard: the exact value (the product of two different pairs raised a TypeError, unpacking a missing
    ball route), against the explicit tensor square and the product's explicit rows."""
    K = Kernel([["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"], ["1/7", "2/7", "4/7"]])
    g = fmpq(3, 2)
    r = delta_tensor_power_enclosure(K, 2, g, try_exact=False)
    assert r.exact and r.value == _brute_delta_2(K, g) == delta_tensor_power(K, 2, g)
    p, q, s = ["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"], ["1/2", "1/2"]
    t = hockey_stick_product_enclosure([(p, q, 1), (s, ["1/4", "3/4"], 1)], 2, try_exact=False)
    prod_p = [fmpq(a) * fmpq(b) for a in p for b in s]
    prod_q = [fmpq(a) * fmpq(b) for a in q for b in ["1/4", "3/4"]]
    assert t.exact and t.value == sum((max(a - 2 * b, fmpq(0)) for a, b in zip(prod_p, prod_q)), fmpq(0))


@pytest.mark.parametrize("seed", range(3))
def test_mirrored_compositions_have_the_same_total_variation(seed):
    # E_1 is symmetric, and the mirror of a composition (every pair class's count moved to its reverse class) is the
    # reversed product: the same E_1 exactly, for every composition of n = 5 over a random 3×3 kernel's classes; at
    # γ = 2 it is not (so the reduction is γ = 1's only)
    from exactdp.measures.tensor_enclosure import _without_mirrors
    from exactdp.measures.tensor_search import TensorSearch, _hockey_stick, all_compositions, reversal

    rng = random.Random(seed)
    rows = [[fmpq(rng.randint(1, 9)) for _ in range(3)] for _ in range(3)]
    K = Kernel([[x / sum(row) for x in row] for row in rows])
    n = 5
    classes, groups, totals, _ = TensorSearch([(K, n)]).classified
    losses = [c.loss for c in classes]
    compositions = list(all_compositions(groups, totals, len(losses)))
    values = {c: _hockey_stick([(loss, k) for loss, k in zip(losses, c) if k], fmpq(1)) for c in compositions}
    kept = _without_mirrors({c: (v, v) for c, v in values.items()}, reversal(classes))
    assert len(kept) < len(values) and max(lo for lo, _ in kept.values()) == max(values.values())
    for c, (lo, hi) in kept.items():
        assert lo == hi == values[c]
    reverse = [next(j for j, other in enumerate(losses) if other == loss.reverse()) for loss in losses]

    def mirror(c):
        out = [0] * len(c)
        for i, k in enumerate(c):
            out[reverse[i]] += k
        return tuple(out)

    at_2 = {c: _hockey_stick([(loss, k) for loss, k in zip(losses, c) if k], fmpq(2)) for c in compositions}
    assert all(values[c] == values[mirror(c)] for c in compositions)
    assert any(at_2[c] != at_2[mirror(c)] for c in compositions)


@pytest.mark.slow
def test_a_flat_pair_at_gamma_1_is_enclosed():
    # seed 4 of the random 2×3 pairs at n = 1000, γ = 1: every composition within 7·10⁻⁷ of the best; its 830 candidates
    # were over max_work to tighten (refused), the 415 up to mirror images are not
    K = Kernel([["4/11", "5/11", "2/11"], ["7/18", "4/9", "1/6"]])
    found = delta_tensor_power(K, 1000, 1, enclosure=True)
    assert found.upper - found.lower <= found.lower / 10**6
    assert fmpq(63198564, 10**8) < found.lower < found.upper < fmpq(63198576, 10**8)
