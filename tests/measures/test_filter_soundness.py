"""Independent soundness audit of the certified float filters of the tensor search (issue 15).

Three modules let exact answers depend on float64 computations used *as bounds*:
``numbers/float_interval.py`` (outward-rounded interval vectors), ``measures/composition_filter.py`` (two ratio
classes) and ``measures/lattice_interval.py`` (three ratio classes).  If a bound is not rigorous,
``delta_tensor_power`` / ``eta_tv_tensor_power`` return a wrong exact value.  These tests attack them:

* containment — on adversarial kernels (denominators 10^30, entries near 0 and 1, zero entries, rows that
  differ by 10^-30, P-only mass near 1, γ equal to a product ratio and γ = r ± 10^-40, γ just below the largest
  product ratio so E_γ ≈ 10^-250) and on seeded random ones, every [lo, hi] of every composition contains the
  exact E_γ of the type-class / binomial route (``hockey_stick_product_losses``);
* end-to-end — the filtered search returns the unfiltered exhaustive search's value AND maximizer, including
  near-ties between compositions (two pair classes differing by 10^-8 … 10^-20, where the filter's width
  crosses the gaps) and exact ties (γ = 1: a composition and its reverse);
* properties — every float_interval operation against exact ``fmpq`` arithmetic (hypothesis), the rigorous
  exponential at its rounding boundaries, the log-factorial table against arb;
* regressions for what the audit found (see the tests at the end).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.measures import composition_filter as cf
from exactdp.measures import lattice_interval as li
from exactdp.measures.privacy_loss import PairLoss, hockey_stick_product_losses
from exactdp.measures.tensor_search import TensorSearch, all_compositions, classify, normalize_factors
from exactdp.numbers import float_interval as fi

#: exhaustive searches against the filter: in the full run, not the quick one
pytestmark = pytest.mark.slow

F = fmpq
E30 = F(1, 10**30)
E40 = F(1, 10**40)


# -- helpers ----------------------------------------------------------------------------------------------

def _structure(K, n):
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    return [c.loss for c in classes], groups, totals


def _exact(losses, counts, g) -> fmpq:
    return hockey_stick_product_losses(list(zip(losses, counts)), g)


def _adversarial_gammas(losses, n: int, rng: random.Random) -> list[fmpq]:
    """1, a random rational, exact product ratios of n coordinates (a type class exactly at γ) and those
    ± 10^-40, γ just below the largest product ratio (E_γ tiny: cancellation in P − γQ), at it and above it."""
    rs = sorted({r for loss in losses for r, _ in loss.classes})
    out = {F(1), F(rng.randint(2, 50), rng.randint(1, 9))}
    for _ in range(3):
        r = F(1)
        for _ in range(n):
            r *= rng.choice(rs)
        r = r if r >= 1 else 1 / r
        out.update({r, r + E40})
        if r - E40 >= 1:
            out.add(r - E40)
    top = rs[-1] ** n
    if top > 1:  # just below the largest product ratio, at it and above it (E_γ = p_∞ exactly: point enclosures)
        out.update({top * (1 - F(1, 10**12)), top * (1 - F(1, 10**250)), top, top + E40})
    return sorted(out)


def _assert_contains(routine, K, n, gammas):
    losses, groups, totals = _structure(K, n)
    assert routine.estimate(losses, groups, totals) is not None, "the routine must apply to this kernel"
    for g in gammas:
        rows = routine.enclose(losses, groups, totals, g)
        assert [c for c, _, _ in rows] == list(all_compositions(groups, totals, len(losses)))
        for counts, lo, hi in rows:
            v = _exact(losses, counts, g)
            assert lo <= v <= hi, (counts, g, float(lo), float(v), float(hi))


def _assert_same_search(K, n, g):
    a = TensorSearch([(K, n)], filtered=True).witness(g)
    b = TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6).witness(g)
    assert (a.value, a.counts, a.composition) == (b.value, b.counts, b.composition), (n, g)
    return a


def _row(rng: random.Random, M: int) -> list[fmpq]:
    """A random exact distribution with adversarial entries (10^30 denominators, 10^-5..10^-250, zeros)."""
    while True:
        w = []
        for _ in range(M):
            u = rng.random()
            w.append(F(rng.randint(1, 10**30), 10**30) if u < 0.15 else F(1, 10**rng.randint(5, 250)) if u < 0.25
                     else F(0) if u < 0.3 else F(rng.randint(1, 9)))
        s = sum(w)
        if s > 0:
            return [x / s for x in w]


def _kernel(rng: random.Random, M: int) -> Kernel:
    """Two random rows; one time in five the second is the first moved by 10^-8 … 10^-30 (nearly equal rows)."""
    while True:
        p = _row(rng, M)
        if rng.random() < 0.2:
            i, j = rng.sample(range(M), 2)
            q = list(p)
            d = min(p[i], F(1, 10**rng.choice([8, 13, 15, 16, 30])))
            q[i], q[j] = q[i] - d, q[j] + d
        else:
            q = _row(rng, M)
        if p != q:
            return Kernel([p, q])


def _named_containment(routine, rows, n: int) -> None:
    """Containment on one listed kernel at the adversarial γ of :func:`_adversarial_gammas` (seeded by n)."""
    K = Kernel(rows)
    losses, _, _ = _structure(K, n)
    _assert_contains(routine, K, n, _adversarial_gammas(losses, n, random.Random(n)))


def _random_containment(routine, M: int, sizes, rng: random.Random, count: int) -> None:
    """Containment on ``count`` random 2×M kernels the routine applies to, n drawn from ``sizes``."""
    done = 0
    while done < count:
        K = _kernel(rng, M)
        n = rng.choice(sizes)
        losses, groups, totals = _structure(K, n)
        if routine.estimate(losses, groups, totals) is None:
            continue
        _assert_contains(routine, K, n, _adversarial_gammas(losses, n, rng))
        done += 1


# -- float_interval against exact arithmetic (hypothesis) ------------------------------------------------

_rational = st.builds(lambda p, q, e: F(p, q) * (F(2) ** e if e >= 0 else F(1, 2 ** -e)),
                      st.integers(-2**62, 2**62), st.integers(1, 2**62), st.integers(-1200, 1200))
_nonneg = _rational.map(abs)
#: divisors of one vector span at most 2^±400 (div refuses a divisor whose lower end underflows to 0)
_positive = st.builds(lambda p, q, e: F(p, q) * (F(2) ** e if e >= 0 else F(1, 2 ** -e)),
                      st.integers(1, 2**62), st.integers(1, 2**62), st.integers(-400, 400))


def _contains(v: fi.IntervalVector, exact) -> None:
    assert len(v) == len(exact)
    for i, x in enumerate(exact):
        lo, hi = fi.to_fmpq_bounds(v, i)
        assert lo <= x <= hi, (i, lo, x, hi)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_rational, _rational), min_size=1, max_size=6))
def test_hypothesis_signed_add_sub_mul_enclose_the_exact_results(pairs):
    xs, ys = [a for a, _ in pairs], [b for _, b in pairs]
    a, b = fi.from_fmpq(xs), fi.from_fmpq(ys)
    _contains(a, xs)
    _contains(fi.add(a, b), [x + y for x, y in pairs])
    _contains(fi.sub(a, b), [x - y for x, y in pairs])
    _contains(fi.mul(a, b), [x * y for x, y in pairs])
    _contains(fi.mul(fi.mul(a, b), fi.sub(a, b)), [x * y * (x - y) for x, y in pairs])  # chained, renormalised


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_nonneg, _positive), min_size=1, max_size=6), _rational)
def test_hypothesis_div_scale_normalize_enclose_the_exact_results(pairs, c):
    xs, ys = [a for a, _ in pairs], [b for _, b in pairs]
    a, b = fi.from_fmpq(xs), fi.from_fmpq(ys)
    _contains(fi.div(a, b), [x / y for x, y in pairs])
    _contains(fi.scale(a, c), [x * c for x in xs])
    _contains(fi.normalize(fi.scale(a, c)), [x * c for x in xs])
    # a vector far outside the band, renormalised: the same enclosure at another exponent
    shifted = fi.IntervalVector(a.lo * 2.0**900, a.hi * 2.0**900, a.exp - 900)  # exact: entries below 1
    _contains(fi.normalize(shifted), xs)


@settings(max_examples=60, deadline=None)
@given(st.lists(_nonneg, min_size=1, max_size=40), st.lists(_nonneg, min_size=1, max_size=40))
def test_hypothesis_sums_of_ill_scaled_nonnegative_vectors(xs, ys):
    """Sums and prefix sums after products of vectors whose scales differ by up to 2^2400 (underflow inside)."""
    a = fi.from_fmpq(xs)
    _contains(fi.sum_nonneg(a), [sum(xs, F(0))])
    _contains(fi.cumsum_nonneg(a), [sum(xs[: j + 1], F(0)) for j in range(len(xs))])
    m = min(len(xs), len(ys))
    prod = fi.mul(fi.from_fmpq(xs[:m]), fi.from_fmpq(ys[:m]))
    _contains(fi.sum_nonneg(prod), [sum((x * y for x, y in zip(xs, ys)), F(0))])
    both = fi.add(fi.from_fmpq(xs[:m]), fi.from_fmpq(ys[:m]))  # exponents aligned: the smaller one underflows
    _contains(fi.cumsum_nonneg(both), [sum((x + y for x, y in zip(xs[: j + 1], ys[: j + 1])), F(0))
                                       for j in range(m)])


def test_float_interval_subnormal_and_power_of_two_boundaries():
    """Values at 2^k ± one ulp, in the subnormal range of the mantissas, and products that underflow to 0."""
    vals = [F(2) ** 10 + F(1, 2**43), F(2) ** 10 - F(1, 2**44), F(1, 2**1074), F(3, 2**1076), F(1, 3) / F(2) ** 1070]
    a = fi.from_fmpq(vals)
    _contains(a, vals)
    tiny = fi.IntervalVector(np.array([0.0, 5e-324]), np.array([5e-324, 1e-323]), 0)
    _contains(fi.mul(tiny, tiny), [F(0), F(0)])  # exact products 0 and 2^-2148: both inside [0, 2^-1074]
    _contains(fi.mul(a, a), [v * v for v in vals])
    _contains(fi.sum_nonneg(fi.mul(a, a)), [sum((v * v for v in vals), F(0))])


# -- the rigorous exponential and the log-factorial table of the three-ratio routine ----------------------

def test_exp_floats_at_its_rounding_boundaries_and_range_ends():
    with ctx.workprec(200):
        c = arb(2).log() / 1024
        xs = [float(((N + d) * c).mid()) for N in (*range(-1033950, -1033900, 7), *range(-4, 5),
                                                   *range(1033000, 1033100, 13))
              for d in (0.5, -0.5, 0.5 - 2**-30, 0.5 + 2**-30, 0.0)]
        xs = np.array([x for x in xs if abs(x) <= 700] + [700.0, -700.0, np.nextafter(700.0, 0.0), 5e-324,
                                                           -5e-324, 0.0, -0.0, 1e-300])
        y = li.exp_floats(xs)
        worst = max(abs(float((arb(float(b)) / arb(float(a)).exp() - 1).mid())) for a, b in zip(xs, y))
    assert worst <= li.EXP_REL / 8  # 16u as analysed, 64u kept


def test_log_factorial_table_error_is_within_its_claimed_bound():
    lf, err = li._log_factorials(3000)
    with ctx.workprec(200):
        worst = max(abs(float((arb(float(lf[j])) - arb(j + 1).lgamma()).mid())) for j in range(0, 3001, 11))
    assert worst <= err


# -- two ratio classes: containment on adversarial kernels ------------------------------------------------

_TWO_RATIO_KERNELS = {
    "asymmetric": [["1/2", "1/2"], ["1/4", "3/4"]],
    "rows 1e-30 apart": [[F(1, 2), F(1, 2)], [F(1, 2) + E30, F(1, 2) - E30]],
    "entries near 0 and 1": [[1 - E30, E30], [F(1, 2), F(1, 2)]],
    "denominators 1e30": [[F(123456789012345678901234567891, 10**30), 1 - F(123456789012345678901234567891, 10**30)],
                          [F(987654321, 10**30), 1 - F(987654321, 10**30)]],
    "zero entry": [["1/3", "2/3"], ["0", "1"]],
    "mass 2^-990": [[1 - F(1, 2**990), F(1, 2**990)], [F(1, 2), F(1, 2)]],
    "P-only mass near 1": [[1 - F(1, 2**990), F(1, 2**990)], [F(0), F(1)]],
    "mass 1e-300": [[F(1, 10**300), 1 - F(1, 10**300)], [F(1, 2), F(1, 2)]],
    # likelihood ratios within 2^-192 of 1 (the threshold's logs need the bits of the fraction) and below 2^-1074
    "rows 1e-60 apart": [[F(1, 2), F(1, 2)], [F(1, 2) + F(1, 10**60), F(1, 2) - F(1, 10**60)]],
    "rows 1e-400 apart": [[F(1, 2), F(1, 2)], [F(1, 2) + F(1, 10**400), F(1, 2) - F(1, 10**400)]],
    # ratio quotient about 2^18: blocks of 4 discounted terms, and the carries cut at q^56 < 2^-1000 for n > 55
    "ratio quotient 2^18": [[F(1, 2), F(1, 2)], [F(1, 2**18), 1 - F(1, 2**18)]],
}


@pytest.mark.parametrize("name", sorted(_TWO_RATIO_KERNELS))
@pytest.mark.parametrize("n", [7, 30])
def test_two_ratio_enclosures_contain_the_exact_values_on_adversarial_kernels(name, n):
    _named_containment(cf.TWO_RATIO, _TWO_RATIO_KERNELS[name], n)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["asymmetric", "rows 1e-30 apart", "denominators 1e30", "zero entry",
                                  "ratio quotient 2^18"])
def test_two_ratio_enclosures_at_n_60(name):
    _named_containment(cf.TWO_RATIO, _TWO_RATIO_KERNELS[name], 60)


@pytest.mark.parametrize("seed,count", [(1, 4), pytest.param(2, 15, marks=pytest.mark.slow)])
def test_two_ratio_enclosures_on_random_adversarial_kernels(seed, count):
    _random_containment(cf.TWO_RATIO, 2, [3, 5, 8, 13, 21, 34, 55], random.Random(seed), count)


@pytest.mark.slow
def test_two_ratio_enclosures_at_n_700_where_the_discounted_carries_are_cut():
    """ρ = 3: q^L ≤ 2^-1000 at L = 631 < n + 1, so the left-out carries and the j < −L tails are bounded, not
    summed; γ = 2^300 (E_γ about 10^-3 of the compositions' bulk) and γ just below 2^700 (E_γ ≈ 10^-251)."""
    K = Kernel(_TWO_RATIO_KERNELS["asymmetric"])
    _assert_contains(cf.TWO_RATIO, K, 700, [F(2) ** 300, F(2) ** 700 * (1 - E40)])


def test_stream_checkpoints_beyond_keep_n_replay_the_forward_states():
    """Above KEEP_N the B family is regenerated from checkpoints: it must be the forward stream, reversed."""
    n = cf.KEEP_N + 37
    forward = list(cf._ascending(0.3, 0.45, n))
    backward = list(cf._descending(0.3, 0.45, n))
    assert len(forward) == len(backward) == n + 1
    for a, b in zip(reversed(forward), backward):
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]


# -- three ratio classes: containment --------------------------------------------------------------------

_THREE_RATIO_KERNELS = {
    "2x3": [["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]],
    "rows 1e-30 apart": [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 2) + E30, F(1, 4) - 2 * E30, F(1, 4) + E30]],
    "denominators 1e30": [[F(3, 10) + E30 * 7, F(3, 10) - E30 * 7, F(2, 5)], [F(1, 10), F(1, 2) + E30, F(2, 5) - E30]],
    "entries near 0 and 1": [[1 - 3 * E30, E30, 2 * E30], [F(1, 3), F(1, 3), F(1, 3)]],
    "class mass 1e-200": [[F(1, 2), F(1, 10**200), F(1, 2) - F(1, 10**200)], [F(1, 8), F(1, 4), F(5, 8)]],
    "P-only mass (2x4)": [["1/2", "1/4", "1/8", "1/8"], ["0", "1/4", "1/4", "1/2"]],
}


@pytest.mark.parametrize("name", sorted(_THREE_RATIO_KERNELS))
@pytest.mark.parametrize("n", [6, 14])
def test_three_ratio_enclosures_contain_the_exact_values_on_adversarial_kernels(name, n):
    _named_containment(li.THREE_RATIO, _THREE_RATIO_KERNELS[name], n)


@pytest.mark.parametrize("seed,count", [(1, 1), pytest.param(2, 4, marks=pytest.mark.slow)])
def test_three_ratio_enclosures_on_random_adversarial_kernels(seed, count):
    _random_containment(li.THREE_RATIO, 3, [3, 5, 8, 12, 17], random.Random(seed), count)


@pytest.mark.parametrize("reverse", [False, True])
def test_lattice_bounds_of_one_block_of_1000_coordinates(reverse):
    """E_γ of (p, q)^{⊗1000} (the homogeneous compositions; the exact value is a trinomial slice) at γ = 1, at
    exact product ratios r and r ± 10^-40 (a type exactly at the threshold: the Lipschitz margin), and just
    below the largest ratio (E_γ ≈ 10^-340: everything but one atom is cut)."""
    L = PairLoss.of([F(1, 2), F(1, 4), F(1, 4)], [F(1, 8), F(3, 8), F(1, 2)])
    L = L.reverse() if reverse else L
    n, rs = 1000, [r for r, _ in L.classes]
    gammas = [F(1), F(3, 2), rs[0] ** n * (1 - E40)]
    for counts in ((500, 300, 200), (700, 0, 300), (350, 650, 0)):
        r = rs[0] ** counts[0] * rs[1] ** counts[1] * rs[2] ** counts[2]
        if r - E40 >= 1:
            gammas += [r, r + E40, r - E40]
    for g in gammas:
        lo, hi = li.hockey_stick_bounds([(L, n)], g)
        assert lo <= hockey_stick_product_losses([(L, n)], g) <= hi, g


def test_block_finite_mass_is_an_upper_bound_and_the_bounds_contain_the_exact_value():
    """(1 − p_∞)^k with k·bits > 20 000 goes through an arb ball; :func:`_dropped` bounds the dropped mass by the
    block's finite mass minus a lower bound of the kept mass, so the block must carry the ball's *upper* end
    (it carried the lower one: a bound in the wrong direction, by 2^-128 relative, masked by other margins)."""
    p_only = F(1, 3**2000)  # 3170-bit denominator: the power is not formed exactly from k = 7 on
    p = [p_only, F(1, 2) - p_only, F(1, 4), F(1, 4)]
    q = [F(0), F(1, 8), F(3, 8), F(1, 2)]
    L = PairLoss.of(p, q)
    assert len(L.classes) == 3 and L.p_only == p_only
    for k in (8, 40):
        assert li._block(L, k, li.CUT_NATS).finite >= (1 - p_only) ** k
    items = [(L, 8), (L.reverse(), 3)]
    for g in (F(1), F(5, 2), F(2) ** 9):
        lo, hi = li.hockey_stick_bounds(items, g)
        assert lo <= hockey_stick_product_losses(items, g) <= hi


# -- end to end: filtered search = unfiltered exhaustive search (value and first maximizer) ----------------

@pytest.mark.parametrize("digits", [8, 13, 14, 15, 20])
def test_near_ties_between_compositions_give_the_exhaustive_searchs_witness(digits):
    """Two pair classes that differ by 10^-digits: E_γ of the compositions differ by about that much, so the
    filter's float width (≈ 10^-14 relative) falls inside, at and outside the gaps."""
    eps = F(1, 10**digits)
    K = Kernel([[F(3, 4), F(1, 4)], [F(1, 4) - eps, F(3, 4) + eps]])
    for n, g in ((20, F(1)), (20, F(3, 2)), (59, F(3, 2)), (59, F(3) ** 19)):
        _assert_same_search(K, n, g)


def test_exact_ties_at_gamma_one_keep_the_first_maximizer():
    """At γ = 1 a composition and its reverse have the same TV: the first in enumeration order must win."""
    for rows in (_TWO_RATIO_KERNELS["asymmetric"], _TWO_RATIO_KERNELS["zero entry"], [["2/3", "1/3"], ["1/5", "4/5"]]):
        for n in (9, 24):
            _assert_same_search(Kernel(rows), n, F(1))


@pytest.mark.parametrize("name", ["asymmetric", "entries near 0 and 1", "denominators 1e30", "P-only mass near 1"])
def test_two_ratio_filtered_search_equals_the_exhaustive_search(name):
    K = Kernel(_TWO_RATIO_KERNELS[name])
    losses, _, _ = _structure(K, 40)
    for g in _adversarial_gammas(losses, 40, random.Random(4))[:8]:
        _assert_same_search(K, 40, g)


@pytest.mark.parametrize("name", ["asymmetric", "zero entry", "P-only mass near 1", "denominators 1e30"])
def test_gamma_at_and_above_every_product_ratio_gives_the_exhaustive_witness(name):
    """γ ≥ every product ratio: E_γ = p_∞ of each composition exactly (the filter's point enclosures, read by
    the search without an exact evaluation); with no P-only mass every composition ties at 0 and the first in
    enumeration order is the maximizer."""
    K = Kernel(_TWO_RATIO_KERNELS[name])
    n = 30
    losses, _, _ = _structure(K, n)
    top = max(r for loss in losses for r, _ in loss.classes) ** n
    for g in (top, top + E40, top * 2):
        _assert_same_search(K, n, g)


@pytest.mark.parametrize("name", ["2x3", "denominators 1e30", "P-only mass (2x4)"])
def test_three_ratio_filtered_search_equals_the_exhaustive_search(name):
    K = Kernel(_THREE_RATIO_KERNELS[name])
    n = 12
    losses, _, _ = _structure(K, n)
    for g in _adversarial_gammas(losses, n, random.Random(5))[:6]:
        _assert_same_search(K, n, g)


@pytest.mark.parametrize("rows,n,gammas", [
    (_TWO_RATIO_KERNELS["asymmetric"], 200, [F(3, 2), F(2) ** 40, F(2) ** 40 + E40]),
    (_TWO_RATIO_KERNELS["entries near 0 and 1"], 200, [F(2) ** 40 + E40]),
    (_THREE_RATIO_KERNELS["2x3"], 30, [F(1), F(2) ** 10 + E40]),
    (_THREE_RATIO_KERNELS["denominators 1e30"], 30, [F(3, 2), F(2) ** 10]),
], ids=["2x2", "2x2 near 0 and 1", "2x3", "2x3 denominators 1e30"])
def test_enclosure_route_through_filter_and_lattice_contains_the_exhaustive_value(rows, n, gammas):
    """delta_tensor_power_enclosure(try_exact=False) under a work limit below the exact search: the filter's
    candidates are enclosed by the lattice bounds; [lo, hi] must contain the exhaustive search's exact value."""
    from exactdp.limits import limits
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    K = Kernel(rows)
    for g in gammas:
        exact = TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6).witness(g).value
        with limits(max_work=10**7):
            r = delta_tensor_power_enclosure(K, n, g, try_exact=False)
        assert r.lower <= exact <= r.upper, (g, r)


# -- regressions for what the audit found ---------------------------------------------------------------

_TINY = F(1, 10**400)


@pytest.mark.parametrize("digits", [60, 400])
def test_ratios_next_to_one_do_not_break_the_two_ratio_threshold(digits):
    """Rows 10^-digits apart: ρ − 1 ≈ 10^-digits was lost converting ρ to a 192-bit ball (log ρ = 0 ± 2^-190),
    and at 10^-400 log ρ is below the float range anyway: the float guess t = (…)/log ρ divided by zero, so
    eta_tv_tensor_power(K, 300) raised ZeroDivisionError.  Now the logs carry the fractions' bits and a zero
    float log walks the threshold from −1; the filtered search is the exhaustive one."""
    e = F(1, 10**digits)
    K = Kernel([[F(1, 2), F(1, 2)], [F(1, 2) + e, F(1, 2) - e]])
    for g in (F(1), F(3, 2), 1 + 100 * e):
        _assert_same_search(K, 24, g)


def test_search_with_class_masses_below_the_float_range_falls_back_to_the_exact_search():
    """A 2x3 kernel whose middle ratio class has mass 10^-400 (below float64), and a 2x4 kernel whose finite
    classes all do: the three-ratio routine computed exp(log P3 − log P2) / float(P) / log(Σ P) in floats
    (OverflowError, ZeroDivisionError, ValueError).  It must not apply; the exact search answers."""
    middle = Kernel([[F(1, 2), _TINY, F(1, 2) - _TINY], [F(1, 8), _TINY, F(7, 8) - _TINY]])
    every = Kernel([[1 - 6 * _TINY, _TINY, 2 * _TINY, 3 * _TINY], [F(0), F(1, 3), F(1, 3), F(1, 3)]])
    for K in (middle, every):
        losses, groups, totals = _structure(K, 12)
        assert max(len(loss.classes) for loss in losses) == 3
        assert li.THREE_RATIO.estimate(losses, groups, totals) is None
        _assert_same_search(K, 12, F(2))  # filtered=True: the routine was planned and run (and crashed)
        _assert_same_search(K, 12, F(1))


def test_lattice_bounds_of_a_loss_with_a_tiny_middle_class():
    """The direct API: the conditional mode of the middle class is 0, its exponential must not overflow."""
    L = PairLoss.of([F(1, 2), _TINY, F(1, 2) - _TINY], [F(1, 8), _TINY, F(7, 8) - _TINY])
    assert len(L.classes) == 3
    items = [(L, 5), (L.reverse(), 3)]
    for g in (F(1), F(2)):
        lo, hi = li.hockey_stick_bounds(items, g)
        assert lo <= hockey_stick_product_losses(items, g) <= hi


def test_lattice_bounds_of_a_loss_whose_finite_masses_all_underflow():
    L = PairLoss.of([1 - 6 * _TINY, _TINY, 2 * _TINY, 3 * _TINY], [F(0), F(1, 3), F(1, 3), F(1, 3)])
    items = [(L, 5), (L.reverse(), 2)]
    try:
        lo, hi = li.hockey_stick_bounds(items, 2)
    except ParameterError:
        return  # a clear refusal is an acceptable answer
    assert lo <= hockey_stick_product_losses(items, F(2)) <= hi
