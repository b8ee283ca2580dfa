"""The adaptive-composition majorant (exactdp.measures.adaptive_profile) and the face split
(exactdp.measures.face_split): the majorant is above the exact E_γ of every composition of its plan's family and close
to it on one class; the face split keeps the maximum and the first maximiser of the exhaustive search; and the 3×3
queries the box search refused at n = 1000 are answered exactly."""

from __future__ import annotations

import itertools
import math

import pytest
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures.adaptive_profile import majorant, switch_majorant
from exactdp.measures.face_split import compositions, face, face_split, flat_edge
from exactdp.measures.privacy_loss import PairLoss
from exactdp.measures.tensor import TensorSearch
from exactdp.measures.tensor_search import _hockey_stick, pair_classes

# the seeded random 3×3 kernels of benchmarks/bench_tensor.py --random-3x3 (seeds 1000, 1001, 1002: four pair classes
# each, the pairs (x, x') and (x', x) of two row pairs), and one with a zero entry (P-only mass)
SEEDED = [
    Kernel([["7/9", "1/6", "1/18"], ["2/9", "7/18", "7/18"], ["2/11", "8/11", "1/11"]]),
    Kernel([["1/9", "13/18", "1/6"], ["7/18", "1/9", "1/2"], ["1/2", "1/7", "5/14"]]),
    Kernel([["5/7", "1/7", "1/7"], ["2/5", "3/20", "9/20"], ["3/8", "1/2", "1/8"]]),
]
ZERO_ENTRY = Kernel([["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"], ["1/6", "1/2", "1/3"]])
#: seed 1038 of --random-3x3-deltas: its best pair face, rows 1 and 2, has two ratio classes each way (1/8 : 1/13 and
#: 1/2 : 4/13 are both 13/8), which the composition filter routes to the two-ratio routine
TWO_RATIO_FACE = Kernel([["1/7", "3/7", "3/7"], ["1/8", "3/8", "1/2"], ["1/13", "8/13", "4/13"]])
#: seed 1039 of --random-3x3-deltas: its classes off the best face are nearly as strong as the face's (the three queries
#: at γ = 2^400, 2^424, 2^448 were refused until the switch majorant bounded the tail)
SEED_1039 = Kernel([["11/16", "1/8", "3/16"], ["2/3", "1/9", "2/9"], ["1/3", "1/3", "1/3"]])
GAMMAS = [fmpq(1), fmpq(3, 2), fmpq(5), fmpq(2) ** 5, fmpq(1, 3)]


def _losses(K: Kernel) -> list[PairLoss]:
    return [c.loss for c in pair_classes(K)]


def _value(losses, counts, g):
    """E_γ of the composition ``counts``, exactly (the type-class sum)."""
    return _hockey_stick([(losses[i], k) for i, k in enumerate(counts) if k], g)


def _family(plan, c):
    """Every composition of the plan's family: w_j coordinates in S_j for each step (S_j, w_j)."""
    parts = [[tuple(sum(1 for x in choice if x == i) for i in range(c))
              for choice in itertools.combinations_with_replacement(S, w)] for S, w in plan]
    return {tuple(map(sum, zip(*pick))) for pick in itertools.product(*parts)}


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY])
def test_majorant_is_above_every_composition_of_its_family(K):
    losses = _losses(K)
    c, n = len(losses), 6
    everyone = tuple(range(c))
    plans = [[(everyone, n)], [((0,), 2), (everyone, n - 2)], [(everyone, n - 2), ((0,), 2)],
             [((1,), 1), ((0, c - 1), n - 1)], [((0, 1), 3), ((c - 1,), n - 3)]]
    values = {k: {} for k in itertools.product(range(n + 1), repeat=c) if sum(k) == n}
    for g in GAMMAS:
        for plan in plans:
            family = _family(plan, c)
            bound = majorant(losses, plan, g)
            exact = [values[k].setdefault(g, _value(losses, k, g)) for k in family]
            assert max(exact) <= bound <= 1
            assert bound - max(exact) < fmpq(1, 50)  # the adaptive choice's gain plus the chord's excess, at n = 6


@pytest.mark.parametrize("K", SEEDED)
def test_one_class_majorant_is_its_exact_value_within_the_chord_excess(K):
    # one class, no adaptive choice: only the chord's excess, below 10^-4 at the default grid (E_γ 0.14–0.96 here),
    # within 10^-12 at 2^-9 nats
    losses = _losses(K)
    for cls, n, g in [(0, 20, fmpq(2) ** 12), (1, 40, fmpq(2) ** 30), (2, 12, fmpq(2) ** 7), (3, 30, fmpq(2) ** 20)]:
        exact = _value(losses, tuple(n if i == cls else 0 for i in range(len(losses))), g)
        coarse, default, fine = (majorant(losses, [((cls,), n)], g, step_bits=b) for b in (5, 7, 9))
        assert exact <= fine <= exact + fmpq(1, 10**12)
        assert exact <= default <= exact + fmpq(1, 10**4)
        assert exact <= coarse <= exact + fmpq(1, 10**3)


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY])
def test_switch_majorant_is_above_every_composition_of_its_family(K):
    # at least l1 coordinates in `first`, at least l2 in `second`: above the exact E_γ of each such composition and
    # above each switch point's own plan (the recursion keeps their maximum), below the fully adaptive majorant
    losses = _losses(K)
    c, n = len(losses), 6
    everyone = tuple(range(c))
    for first, second, l1, l2 in [((0, c - 1), (1, 2), 0, 2), ((1, 2), (0, c - 1), 3, 0), ((0,), (1, 2, c - 1), 1, 1),
                                  ((0, 1), (2,), 0, 6), ((0, 1), (2,), 6, 0)]:
        family = set().union(*(_family([(first, k), (second, n - k)], c) for k in range(l1, n - l2 + 1)))
        for g in GAMMAS:
            bound = switch_majorant(losses, first, second, n, g, least_first=l1, least_second=l2)
            assert max(_value(losses, k, g) for k in family) <= bound <= 1
            assert all(majorant(losses, [(first, k), (second, n - k)], g) <= bound for k in range(l1, n - l2 + 1))
            assert bound <= majorant(losses, [(everyone, n)], g)


def test_switch_majorant_on_the_tail_of_seed_1039_is_its_first_switch_point():
    # the tail of T or more coordinates off the face, face first: the maximum over the switch points is the first
    # one's, T coordinates off the face (1.2·10⁻⁴ lower per coordinate); 7·10⁻⁵ above the exact corner at T = 4 and
    # 2^-8 nats, below it at T = 5 — where the old tail (T coordinates off the face, then any class) stayed 4.6·10⁻⁴
    # above the switch's bound at 2^-6
    losses = _losses(SEED_1039)
    n, g = 1000, fmpq(2) ** 400
    corner = _value(losses, (0, 0, n, 0), g)
    tails = [switch_majorant(losses, (2, 0), (1, 3), n, g, least_second=T, step_bits=8, spread=5.0) for T in (4, 5)]
    first = majorant(losses, [((2, 0), n - 4), ((1, 3), 4)], g, step_bits=8, spread=5.0)
    assert first <= tails[0] < first + fmpq(1, 10**9)
    assert corner + fmpq(7, 10**5) < tails[0] < corner + fmpq(8, 10**5)
    assert tails[1] < corner  # T = 5 settles the tail: no composition with five or more coordinates off the face wins
    old = majorant(losses, [((1, 3), 4), ((0, 1, 2, 3), n - 4)], g, step_bits=6, spread=5.0)
    assert old - switch_majorant(losses, (2, 0), (1, 3), n, g, least_second=4, step_bits=6, spread=5.0) > fmpq(4, 10**4)


def test_majorants_of_losses_drifting_right_stay_on_their_grid():
    # rows with a zero entry: two pair classes carry P-only mass and the finite part's mean log-ratio is negative
    # (−0.26 and −0.45 nats), so the recursion reads right of γ. At n = 1000 the window of the first steps lay past the
    # grid's right end and a step raised numpy's ValueError (found on random 3×3 kernels with zeros, n = 1000)
    K = Kernel([["1/2", "1/2", "0"], ["1/5", "1/2", "3/10"], ["3/8", "1/4", "3/8"]])
    losses = _losses(K)
    assert sum(1 for loss in losses if loss.p_only) == 2
    for n, g in [(30, fmpq(2) ** 4), (1000, fmpq(2) ** 64), (1000, fmpq(1, 2))]:
        for cls in range(len(losses)):
            exact = _value(losses, tuple(n if i == cls else 0 for i in range(len(losses))), g)
            assert exact <= majorant(losses, [((cls,), n)], g, step_bits=5) <= 1
        everything = switch_majorant(losses, (0, 1), (2, 3), n, g, least_second=1, step_bits=5)
        assert max(_value(losses, (0, n - 1, 1, 0), g), _value(losses, (0, 0, 0, n), g)) <= everything <= 1


def test_majorants_below_the_float_range_stay_above_the_exact_value():
    # masses (2^-600, 1 − 2^-600) / (2^-1200, 1 − 2^-1200): at n = 2, γ = 2^700 only the product of the two small atoms
    # (ratio 2^1200, P-mass 2^-1200) is above γ, so E_γ ≈ 2^-1201, below the float range; its float products underflow
    # to 0, and the majorant read 0 before the underflow allowance (S·2^-1067 after S steps)
    from exactdp.measures.adaptive_profile import phase_majorant, underflow_allowance
    from exactdp.measures.privacy_loss import binomial_hockey_stick
    a, b = fmpq(1, 2 ** 600), fmpq(1, 2 ** 1200)
    loss = PairLoss.of([a, 1 - a], [b, 1 - b])
    g = fmpq(2) ** 700
    exact = binomial_hockey_stick(loss, 2, g)
    assert fmpq(1, 2 ** 1202) < exact < fmpq(1, 2 ** 1200)
    for bits in (5, 7):
        assert exact <= majorant([loss], [([0], 2)], g, step_bits=bits) == underflow_allowance(2) == fmpq(1, 2 ** 1066)
        assert exact <= phase_majorant([loss, loss], [[0], [1]], 2, g, step_bits=bits) == underflow_allowance(2)
    # above the float range's floor the allowance changes nothing a comparison sees: γ = 2^300, E_γ ≈ 4.8·10⁻¹⁸¹
    g = fmpq(2) ** 300
    exact = binomial_hockey_stick(loss, 2, g)
    assert exact <= majorant([loss], [([0], 2)], g) <= exact * (1 + fmpq(1, 10 ** 4))


def test_switch_majorant_rejects_too_few_coordinates():
    losses = _losses(SEEDED[0])
    with pytest.raises(ParameterError, match="n: at least"):
        switch_majorant(losses, (0,), (1,), 3, fmpq(2), least_first=2, least_second=2)


def test_majorant_rejects_bad_input_and_is_guarded():
    losses = _losses(SEEDED[0])
    with pytest.raises(ParameterError, match="gamma"):
        majorant(losses, [((0,), 3)], fmpq(0))
    with pytest.raises(ParameterError, match="gamma"):
        majorant(losses, [((0,), 3)], 1.5)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="plan"):
        majorant(losses, [((7,), 3)], fmpq(2))
    with pytest.raises(ParameterError, match="plan"):
        majorant(losses, [((0,), -1)], fmpq(2))
    with limits(max_work=10_000), pytest.raises(ResourceLimitError, match="max_work"):
        majorant(losses, [((0, 1), 500)], fmpq(2) ** 100)


@pytest.mark.parametrize("K", [SEEDED[0], SEEDED[2]])
def test_face_split_at_small_n_keeps_the_maximum_of_the_exhaustive_search(K):
    # n up to MAX_T: the last tail is T = n, the one composition of every coordinate off the face
    losses = _losses(K)
    for n in range(1, 7):
        _assert_keeps_the_exhaustive_maximum(losses, n, fmpq(2) ** n)


def test_compositions_lists_every_split():
    assert compositions(2, 2) == [(0, 2), (1, 1), (2, 0)]
    assert compositions(0, 3) == [(0, 0, 0)]
    assert len(compositions(5, 3)) == math.comb(7, 2)


def _assert_keeps_the_exhaustive_maximum(losses, n, g):
    found = face_split(losses, n, g)
    assert found is not None
    rows, ruled_out = found
    assert len(rows) + ruled_out == math.comb(n + 3, 3)
    kept = {k: (lo, hi) for k, lo, hi in rows}
    assert [k for k, _, _ in rows] == sorted(kept)
    everything = {k: _value(losses, k, g) for k in itertools.product(range(n + 1), repeat=4) if sum(k) == n}
    top = max(everything.values())
    best = max(lo for lo, _ in kept.values())
    for k, (lo, hi) in kept.items():
        assert lo <= everything[k] <= hi
    for k, v in everything.items():  # every maximiser is kept; what is ruled out is below the best lower bound
        if v == top:
            assert k in kept
        if k not in kept:
            assert v < best


@pytest.mark.parametrize("K", SEEDED + [TWO_RATIO_FACE])
@pytest.mark.parametrize("n, g", [(10, fmpq(2) ** 4), pytest.param(14, fmpq(3) ** 5, marks=pytest.mark.slow),
                                  pytest.param(14, fmpq(2) ** 9, marks=pytest.mark.slow)])
def test_face_split_keeps_the_maximum_of_the_exhaustive_search(K, n, g):
    losses = _losses(K)
    _assert_keeps_the_exhaustive_maximum(losses, n, g)
    a, b = face(losses, n, g)
    assert losses[b] == losses[a].reverse()


@pytest.mark.parametrize("K", [SEEDED[1], *(pytest.param(K, marks=pytest.mark.slow) for K in (SEEDED[0], SEEDED[2]))])
def test_filter_with_the_face_split_equals_the_exhaustive_search(K, monkeypatch):
    # the box search stopped at once (as at its budget): the face split answers, as the exhaustive search does
    from exactdp.measures import composition_filter as cf
    from exactdp.measures import simplex_filter as sf

    n, g = 16, fmpq(2) ** 7
    S = TensorSearch([(K, n)], filtered=True)
    classes, groups, totals, _ = S.classified
    losses = [c.loss for c in classes]
    reference = TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6).witness(g)
    monkeypatch.setattr(sf, "_search", _stop_at_once)
    assert cf.plan(losses, groups, totals, g).routine is sf.SIMPLEX
    a = S.witness(g)
    assert (a.value, a.counts, a.composition) == (reference.value, reference.counts, reference.composition)


def _stop_at_once(enc, losses, c, n, gamma):
    """A box search that stops before its first box (as at its budget)."""
    from exactdp.measures.lattice_interval import OverBudget
    from exactdp.measures.simplex_filter import _Stopped
    from exactdp.numbers.qq import ONE, ZERO

    raise _Stopped(OverBudget("stopped for the test"), ZERO, ONE)


def test_the_split_goes_first_on_a_flat_edge_only():
    # seed 1002 at n = 1000: the reverse corner holds 0.88 and 0.62 of the best corner's E_γ at 2^608 and 2^696 (the
    # box search could not settle them), 0.52 at 2^725 (it settles it); seed 1001's best corner has no reverse class
    losses = _losses(SEEDED[2])
    assert flat_edge(losses, 1000, fmpq(2) ** 608) and flat_edge(losses, 1000, fmpq(2) ** 696)
    assert not flat_edge(losses, 1000, fmpq(2) ** 725)
    assert not flat_edge(_losses(SEEDED[1]), 1000, fmpq(2) ** 1485)


@pytest.mark.slow
def test_the_refused_query_at_n_1000_is_answered_exactly():
    # seed 1002 of bench_tensor.py --random-3x3-deltas at γ = 2^608: the box search stops at its budget (the flat edge
    # between the pair (1, 2) and its reverse); the face split answers with the corner (0, 1000, 0, 0): 1000 coordinates
    # of the rows (2/5, 3/20, 9/20) / (3/8, 1/2, 1/8)
    from exactdp import hockey_stick_product
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    K, g = SEEDED[2], fmpq(2) ** 608
    r = delta_tensor_power_enclosure(K, 1000, g)
    corner = hockey_stick_product([(["2/5", "3/20", "9/20"], ["3/8", "1/2", "1/8"], 1000)], g)
    assert r.exact and r.lower == r.upper == corner
    assert f"{float(corner):.11f}" == "0.48977099490"


@pytest.mark.slow
def test_seed_1039_is_answered_exactly_at_n_1000():
    # its classes off the face are nearly as strong as the face's: the old tail bound needed T ≈ 18, the switch
    # majorant settles it at T = 5 (2^-8 nats); the maximum is the corner of 1000 coordinates of the rows
    # (1/3, 1/3, 1/3) / (11/16, 1/8, 3/16)
    from exactdp import hockey_stick_product
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    g = fmpq(2) ** 400
    r = delta_tensor_power_enclosure(SEED_1039, 1000, g)
    corner = hockey_stick_product([(["1/3", "1/3", "1/3"], ["11/16", "1/8", "3/16"], 1000)], g)
    assert r.exact and r.lower == r.upper == corner
    assert f"{float(corner):.10f}" == "0.4867054249"


@pytest.mark.slow
def test_the_split_stops_where_every_slice_of_a_t_must_be_enclosed(monkeypatch):
    # near-equal rows: E_γ is as flat off the face as on it (δ_n ≈ 0.97 at γ = 2^20, n = 1000), so every slice of t = 1
    # and t = 2 reaches the best lower bound; the split stops there (five enclosures) instead of enclosing slices up to
    # its budget (24 enclosures, 56 s, before)
    import exactdp.measures.face_split as fs

    K = Kernel([["1/2", "3/10", "1/5"], ["2/5", "2/5", "1/5"], ["8/21", "8/21", "5/21"]])
    losses = _losses(K)
    enclosed: list = []
    real = fs._slice_rows

    def counted(*args):
        enclosed.append(args[5])
        return real(*args)

    monkeypatch.setattr(fs, "_slice_rows", counted)
    monkeypatch.setattr(fs, "MAX_UNRESOLVED", 10**6)  # (the split would stop at the face: the test of that rule is
    # tests/measures/test_corner_filter.py::test_the_face_split_stops_at_a_face_left_unresolved)
    assert fs.face_split(losses, 1000, fmpq(2) ** 20) is None
    assert sorted(map(sum, enclosed)) == [0, 1, 1, 2, 2, 2]


def test_a_face_of_two_ratio_losses_is_enclosed_by_the_lattice_routine():
    # the face of TWO_RATIO_FACE has no loss of three ratio classes: the composition filter's three-ratio routine does
    # not take it alone, the face split's PAIR_FACE does, and the split answers at n = 1000 (the box search refused
    # it: 0.21780506 at γ = 2^186)
    from exactdp.measures.lattice_interval import PAIR_FACE, THREE_RATIO

    losses = _losses(TWO_RATIO_FACE)
    a, b = face(losses, 1000, fmpq(2) ** 186)
    assert len(losses[a].classes) == len(losses[b].classes) == 2
    assert THREE_RATIO.estimate(losses, [[a, b]], [1000]) is None
    assert PAIR_FACE.estimate(losses, [[a, b]], [1000]) is not None
    found = face_split(losses, 1000, fmpq(2) ** 186)
    assert found is not None
    best = max(lo for _, lo, _ in found[0])
    assert f"{float(best):.8f}" == "0.21780506"


def test_a_split_whose_tail_stays_open_reports_a_bracket_that_holds_the_maximum(monkeypatch):
    # with T capped at 1 the tail is often left open: the split then gives no rows, and its bracket (the best lower
    # bound; the largest of the tail's bound and the face's row bounds) holds the exhaustive maximum
    import exactdp.measures.face_split as fs

    monkeypatch.setattr(fs, "MAX_T", 1)
    checked, n = 0, 10
    for K in SEEDED + [TWO_RATIO_FACE]:
        losses = _losses(K)
        compositions_n = [k for k in itertools.product(range(n + 1), repeat=4) if sum(k) == n]
        for g in (fmpq(2) ** 4, fmpq(2) ** 8):
            brackets: list = []
            if fs.face_split(losses, n, g, bracket=brackets) is None and brackets:
                (lower, upper), = brackets
                top = max(_value(losses, k, g) for k in compositions_n)
                assert lower <= top <= upper < 1 and upper - lower < fmpq(1, 100)
                checked += 1
    assert checked >= 4
