"""The certified composition filter (exactdp.measures.composition_filter): every enclosure contains the exact
E_γ of its composition, and the filtered search returns exactly the unfiltered search's value and witness."""

from __future__ import annotations

import random

import numpy as np
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import eta_tv
from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures import composition_filter as cf
from exactdp.measures.tensor import TensorSearch, eta_hockey_stick_tensor_product_witness
from exactdp.verification.instances import random_kernel
from tests.exact import q

ASYM = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])


def _search(K, n, **kw):
    kw.setdefault("filtered", True)  # the filter even where the exact search is estimated cheaper
    return TensorSearch([(K, n)], **kw)


def _enclosures(K, n, g):
    S = _search(K, n)
    classes, groups, totals, _ = S.classified
    losses = [c.loss for c in classes]
    assert cf.TWO_RATIO.estimate(losses, groups, totals) is not None
    return S, cf.TWO_RATIO.enclose(losses, groups, totals, g)


def _same(K, n, g):
    a = _search(K, n).witness(g)
    b = _search(K, n, filtered=False, exhaustive_limit=10**6).witness(g)
    assert (a.value, a.counts, a.composition) == (b.value, b.counts, b.composition)
    return a, b


@pytest.mark.parametrize("K,n,gammas", [
    (ASYM, 7, ["1", "3/2", "2", "4"]),
    (Kernel([["1/2", "1/2"], ["0", "1"]]), 9, ["1", "3/2", "2", "3"]),  # zero entry: P-only mass, one finite ratio
    (Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/8", "5/8"]]), 8, ["1", "2", "5/2"]),  # 2x3, two ratio classes
    (Kernel([["1/3", "2/3"], ["1/6", "5/6"]]), 12, ["1", "2", "8/5", "16/5"]),  # γ equal to product ratios
])
def test_every_enclosure_contains_the_exact_value(K, n, gammas):
    for text in gammas:
        g = q(text)
        S, bounds = _enclosures(K, n, g)
        assert [c for c, _, _ in bounds] == [(k, n - k) for k in range(n + 1)]  # enumeration order
        for counts, lo, hi in bounds:
            v = S.hockey_stick(counts, g)
            assert lo <= v <= hi
            assert hi - lo <= v * fmpq(1, 10**11) + fmpq(1, 10**300)  # tight: relative 1e-11


def test_enclosures_near_one_keep_relative_precision_of_the_complement():
    # η_TV at n = 400: 1 − E ≈ 1e-6 .. 1e-7; the complement enclosure keeps its relative width ~1e-12
    S, bounds = _enclosures(ASYM, 400, fmpq(1))
    for counts, lo, hi in bounds[::37]:
        v = S.hockey_stick(counts, fmpq(1))
        assert lo <= v <= hi and (hi - lo) <= (1 - v) * fmpq(1, 10**10)


@pytest.mark.slow
def test_filtered_equals_unfiltered_on_random_kernels():
    rng = random.Random("composition-filter")
    for _ in range(10):
        K = random_kernel(rng, 2, 2, max_den=9)
        n = rng.choice([5, 40, 150, 300])
        for g in (fmpq(1), fmpq(rng.randint(2, 9), rng.randint(1, 2)), fmpq(3) ** rng.randint(1, 4)):
            _same(K, n, g)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=4, max_size=4), st.integers(1, 14), st.integers(0, 6))
def test_hypothesis_small_kernels(nums, n, gnum):
    a, b, c, d = nums
    if a + b == 0 or c + d == 0:
        return
    K = Kernel([[fmpq(a, a + b), fmpq(b, a + b)], [fmpq(c, c + d), fmpq(d, c + d)]])
    for g in (fmpq(1), fmpq(gnum + 2, 2)):
        _same(K, n, g)


def test_the_readme_example_mixed_maximizer():
    K = Kernel([["2/9", "7/9"], ["1/2", "1/2"]])
    w = eta_hockey_stick_tensor_product_witness([(K, 3)], 1, filtered=True)
    assert w.value == fmpq(5, 12) == eta_tv(K.tensor_power(3))
    assert w.input_sequences([(K, 3)]) == ((0, 1, 1), (1, 0, 0))
    assert w.evaluations + w.discarded <= 4


def test_filter_discards_almost_everything_and_reports_it():
    a, b = _same(ASYM, 200, fmpq(1))
    assert a.evaluations == 1 and a.discarded == 199  # k and its reverse 200 − k share one evaluation
    assert b.evaluations == 101 and b.discarded == 0


def test_too_many_candidates_fall_back_to_the_exact_search(monkeypatch):
    monkeypatch.setattr(cf, "MAX_CANDIDATES", 0)
    w = _search(ASYM, 30).witness(fmpq(2))
    assert w.discarded == 0 and w.evaluations == 31
    assert w.value == _search(ASYM, 30, filtered=False).witness(fmpq(2)).value


def test_filter_does_not_apply_to_three_ratio_classes():
    S = _search(Kernel([["1/2", "1/3", "1/6"], ["1/6", "1/2", "1/3"]]), 5)
    classes, groups, totals, _ = S.classified
    assert cf.TWO_RATIO.estimate([c.loss for c in classes], groups, totals) is None
    # three ratio classes are the lattice routine's (measures/lattice_interval.py): same value and maximizer
    assert cf.plan([c.loss for c in classes], groups, totals).routine.name.startswith("three ratio")
    w, exact = S.witness(fmpq(1)), _search(S.facs[0][0], 5, filtered=False).witness(fmpq(1))
    assert (w.value, w.counts) == (exact.value, exact.counts) and w.discarded == 4


def test_the_cost_guard_charges_the_filter():
    with limits(max_work=10**6):
        with pytest.raises(ResourceLimitError, match="certified filter"):
            _search(ASYM, 3000).witness(fmpq(1))
    with pytest.raises(ResourceLimitError, match="certified filter"):  # by default, at n = 10^6
        TensorSearch([(ASYM, 10**6)]).witness(fmpq(1))
    small = TensorSearch([(ASYM, 3)]).witness(fmpq(1))  # by default the exact search where it is cheaper
    assert (small.discarded, small.evaluations) == (0, 2) and small.value == eta_tv(ASYM.tensor_power(3))
    work, memory = cf.TWO_RATIO.estimate([c.loss for c in _search(ASYM, 10).classes], [[0, 1]], [10_000])
    assert TensorSearch([(ASYM, 200)]).witness(fmpq(1)).discarded == 199  # and the default filters at n = 200
    assert 10**8 < work < 10**9 and memory < 2**26  # n = 10 000 fits the default max_work


def test_floats_never_reach_the_result():
    w = _search(ASYM, 50).witness(fmpq(3, 2))
    assert isinstance(w.value, fmpq)


@pytest.mark.parametrize("rho,m", [(q("3"), 700), (q("101/100"), 300), (q("2**70"), 50), (q("2**99"), 40), (q("9/8"), 2000)])
def test_discounted_tails_against_exact(rho, m):
    # DZ(j) = Σ_{b ≥ j} Z(b) ρ^{-(b−j)}: one block, several blocks (carries), ρ^B capped at 2^200, huge ρ
    rng = random.Random(str(rho))
    Zq = [fmpq(rng.randrange(1, 2**40), 2**40) for _ in range(m + 1)]
    d = cf._Discount(rho, m)
    got = d.tails(np.array([int(z.p) / int(z.q) for z in Zq]))  # correctly rounded inputs
    acc, exact = fmpq(0), [None] * (m + 1)
    for j in range(m, -1, -1):
        acc = Zq[j] + acc / rho
        exact[j] = acc
    for j in range(0, m + 1, max(1, m // 37)):
        assert abs(cf.float_to_fmpq(got[j]) - exact[j]) <= exact[j] * fmpq(10 * m + 100, 2**53) + fmpq(1, 2**900)


def _exact_powers(x, count, stop=None):
    out, y = [], fmpq(1)
    for _ in range(count):
        if stop is not None and not stop(y):
            break
        out.append(int(y.p) / int(y.q))  # correctly rounded
        y *= x
    return out


@pytest.mark.parametrize("rho,m", [(1 + q("10**-30"), 300), (q("(10**30 + 7) / 10**30"), 2000), (q("3"), 700),
                                   (q("2"), 1000), (q("2**200"), 5), (q("2**900"), 3), (q("2**901"), 3)])
def test_discount_powers_are_the_correctly_rounded_exact_powers(rho, m):
    # the powers come from arb balls (O(1) each); they must be exactly fl(q^i) and fl(ρ^i), with the same L and B
    # as the exact definitions (q^i > 2^-900; ρ^{B-1} <= 2^200), including powers equal to 2^-900 and 2^-200
    d = cf._Discount(rho, m)
    down = _exact_powers(1 / rho, m + 2, lambda y: y > fmpq(1, 2**900))
    B = max(1, min(m + 1, max(i + 1 for i in range(len(down)) if (1 / rho) ** i >= fmpq(1, 2**200))))
    assert list(d.down) == down and d.L == len(down) - 1 and d.B == B
    assert list(d.up) == _exact_powers(rho, B)


def test_discount_near_one_does_no_exact_power_growth():
    # ρ = 1 + 10^-30 at n = 50 000: every q^i is above 2^-900, so the exact route built 50 000 growing
    # rationals (quadratic: ~1 s at n = 1000, ~100 s at 10^4); the ball route computes none exactly
    d = cf._Discount(1 + fmpq(1, 10**30), 50_000)
    assert (d.L, d.B, d.exact_powers) == (50_001, 50_001, 0)
    assert d.down[-1] == 1.0 and d.up[1] == 1.0  # q^50001 = 1 − 5·10^-26 rounds to 1.0


def test_two_ratio_enclosure_below_gamma_one():
    # the derivation holds for every gamma > 0 (t = -1 below every product ratio); E_0 = 1 exactly; gamma < 0
    # is refused naming gamma
    for K in (ASYM, Kernel([["1/2", "1/2"], ["0", "1"]])):
        n = 9
        for g in (fmpq(1, 10**6), fmpq(1, 2), fmpq(2, 3)):
            S, bounds = _enclosures(K, n, g)
            for counts, lo, hi in bounds:
                v = S.hockey_stick(counts, g)
                assert lo <= v <= hi and hi - lo <= v * fmpq(1, 10**11)
        S, bounds = _enclosures(K, n, fmpq(0))
        assert all(lo == hi == 1 == S.hockey_stick(c, fmpq(0)) for c, lo, hi in bounds)
    with pytest.raises(cf.ParameterError, match="gamma: .*>= 0"):
        _enclosures(ASYM, 3, fmpq(-1))


@pytest.mark.slow
def test_large_gamma_regime_keeps_the_filter_tight():
    # γ = 2^1070 at n = 5000: δ_n ≈ 0.3, γQ over d > t lies ~2^-1070 below the Q bulk (the Q-weight route
    # of the first version lost it: bounds [0, 0.4] for every composition)
    n = 5000
    g = fmpq(2) ** (n // 5 + 70)
    S = _search(ASYM, n)
    w = S.witness(g)
    assert w.evaluations <= 2 and w.discarded >= n - 1
    _, bounds = _enclosures(ASYM, n, g)
    for counts, lo, hi in (bounds[0], bounds[n // 2], bounds[-1]):
        v = S.hockey_stick(counts, g)
        assert lo <= v <= hi and hi - lo <= v * fmpq(1, 10**9)
    assert w.value == max(S.hockey_stick(c, g) for c, lo, hi in bounds if hi >= w.value)


@pytest.mark.slow
def test_cli_tensor_asymmetric_at_n_10000(tmp_path, capsys):
    import json

    from exactdp.cli import main

    k = tmp_path / "k.json"
    k.write_text('{"rows": [["1/2", "1/2"], ["1/4", "3/4"]]}')
    assert main(["tensor", str(k), "--n", "10000", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    assert r["evaluations"] == 1
    assert [(m["x"], m["x_prime"], m["count"]) for m in r["eta_tv_maximizer"]] == [(0, 1, 3), (1, 0, 9997)]
    with limits(max_text_length=10**5, max_integer_digits=10**5):  # the exact value has 12 038 digits
        one_minus = 1 - q(r["eta_tv"])
    assert fmpq(6, 10**153) < one_minus < fmpq(7, 10**153)


@pytest.mark.parametrize("K", [ASYM, Kernel([["1/2", "1/2"], ["0", "1"]])])
def test_gamma_above_every_product_ratio_needs_no_exact_evaluation(K):
    # no finite outcome has R > γ: E_γ = P_∞ exactly (0 for ASYM, 1 − 2^-k for the zero-entry kernel)
    n = 120
    for g in (fmpq(3) ** n, fmpq(2) ** n):
        a, _ = _same(K, n, g)
        assert a.evaluations == 0
        assert a.value == (0 if K is ASYM else 1 - fmpq(1, 2**n))
    a, _ = _same(K, n, fmpq(2) ** n - 1)  # just below the largest ratio of ASYM: one tiny value left
    assert a.evaluations <= 1


@pytest.mark.slow
def test_delta_zero_at_n_10000_is_not_refused():
    w = TensorSearch([(ASYM, 10_000)]).witness(fmpq(3) ** 10_000)
    assert (w.value, w.evaluations, w.counts) == (0, 0, (0, 10_000))


def test_a_refusal_after_the_filter_says_the_filter_could_not_narrow_the_search(monkeypatch):
    # where the filter runs but leaves too many candidates (δ_n((3/2)^n) of ASYM at n = 10^4: every E_γ is below
    # the float range of its bounds), the exact search's refusal says so instead of looking like a missed filter
    monkeypatch.setattr(cf, "MAX_CANDIDATES", 0)
    with limits(max_work=2 * 10**7), pytest.raises(ResourceLimitError,  # filter 8.5e6, exact search 7.3e7
                                                match=r"exact search \(the certified filter, two ratio classes, ran"):
        _search(ASYM, 400).witness(fmpq(3, 2))


def test_estimate_charges_the_exact_p_infinity_of_point_enclosures():
    # P-only mass p = 123.../10^27 (finite mass f, 90 bits): the point enclosures E_gamma = 1 - f^k are exact rationals
    # of k * 90 bits, n(n + 1)/2 * 90 bits over the compositions (9 s at n = 10^4): charged on top of the float work
    f = "876543210987654321098765433/1000000000000000000000000000"
    K = Kernel([[f"1 - {f}", f], ["0", "1"]])
    base = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])  # no P-only mass: nothing exact to charge
    for n in (100, 1000, 10_000):
        work = {}
        for name, kernel in (("p_only", K), ("none", base)):
            S = _search(kernel, n)
            classes, groups, totals, _ = S.classified
            work[name] = cf.TWO_RATIO.estimate([c.loss for c in classes], groups, totals)[0]
        assert work["p_only"] - work["none"] == 90 * n * (n + 1) // 2
    with pytest.raises(ResourceLimitError, match=r"certified filter \(two ratio classes\)"):
        _search(K, 10_000).witness(fmpq(3, 2))  # 4.5e9 > max_work = 1e9: refused before any work


def test_non_point_enclosures_use_small_p_infinity_bounds():
    # only the point enclosures that can be the maximum carry the exact P_inf (k * 90 bits); the others are
    # 128-bit dyadic bounds, so the enclosures stay small numbers
    f = "876543210987654321098765433/1000000000000000000000000000"
    K = Kernel([[f"1 - {f}", f], ["0", "1"]])
    n = 300
    S, bounds = _enclosures(K, n, fmpq(3, 2))
    big = [c for c, lo, hi in bounds if int(lo.q).bit_length() > 4000 or int(hi.q).bit_length() > 4000]
    assert len(big) <= 2
    for counts, lo, hi in bounds[::17] + bounds[-3:]:
        v = S.hockey_stick(counts, fmpq(3, 2))
        assert lo <= v <= hi
    _same(K, n, fmpq(3, 2))
