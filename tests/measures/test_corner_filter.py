"""The phase majorant (exactdp.measures.adaptive_profile.phase_majorant) and the corner filter it makes possible
(exactdp.measures.corner_filter.corner_candidates, tried by the simplex filter on a flat edge and after its box
search): the majorant is above the exact E_γ of every composition of its family and below the fully adaptive one; the
filter keeps the exhaustive maximum and first maximiser; the near-equal 3×3 kernel the face split and the box search
refused at n = 1000 is answered exactly."""

from __future__ import annotations

import itertools

import pytest
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.limits import limits
from exactdp.measures import simplex_filter as sf
from exactdp.measures.adaptive_profile import majorant, phase_majorant, switch_majorant
from exactdp.measures.corner_filter import corner_enclosure
from exactdp.measures.lattice_interval import LatticeEnclosure
from exactdp.measures.tensor import TensorSearch, delta_tensor_power
from exactdp.measures.tensor_search import all_compositions

from tests.measures.test_face_split import GAMMAS, SEEDED, ZERO_ENTRY, _losses, _value

#: rows nearly equal: E_γ is as flat off the best face as on it (docs/tensorization.md, "the corner filter")
NEAR_EQUAL = Kernel([["1/2", "3/10", "1/5"], ["2/5", "2/5", "1/5"], ["8/21", "8/21", "5/21"]])


def _family(phases, n, c, lo, hi, prefix, start):
    """Every composition of the phase family: n coordinates over the phases' classes with lo ≤ (count in the first
    ``prefix`` phases) ≤ hi, plus the fixed counts of ``start``."""
    first = {x for S in phases[:prefix] for x in S}
    rest = {x for S in phases[prefix:] for x in S} - first
    fixed = [0] * c
    for S, w in start:
        assert len(S) == 1
        fixed[S[0]] += w
    out = set()
    for k in itertools.product(range(n + 1), repeat=c):
        if sum(k) != n or any(k[x] for x in range(c) if x not in first | rest):
            continue
        if lo <= sum(k[x] for x in first) <= hi:
            out.add(tuple(a + b for a, b in zip(k, fixed)))
    return out


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY, NEAR_EQUAL])
def test_phase_majorant_is_above_every_composition_of_its_family(K):
    # one class per phase, a prefix of one or two phases with its count bounded, and a start of fixed coordinates:
    # above the exact E_γ of each composition of the family, below the fully adaptive majorant of the same classes
    losses = _losses(K)
    c, n = len(losses), 6
    cases = [([[0], [1], [2], [3]], 0, n - 1, 1, ()), ([[1], [3], [0], [2]], 0, n - 2, 2, ()),
             ([[0], [2], [1], [3]], 1, n, 2, ()), ([[3], [0, 1]], 2, 4, 1, ()), ([[2], [1]], 0, n, 1, [((0,), 2)]),
             ([[1], [0], [3]], 0, n, 3, [((2,), 1)])]
    values: dict = {}
    for phases, lo, hi, prefix, start in cases:
        family = _family(phases, n, c, lo, hi, prefix, start)
        classes = sorted({x for S in phases for x in S} | {S[0] for S, _ in start})
        for g in GAMMAS:
            bound = phase_majorant(losses, phases, n, g, least_first=lo, most_first=hi, prefix=prefix, start=start)
            exact = max(values.setdefault((k, g), _value(losses, k, g)) for k in family)
            assert exact <= bound <= 1
            assert bound <= majorant(losses, [*start, (classes, n)], g)


@pytest.mark.parametrize("K", SEEDED + [NEAR_EQUAL])
def test_a_floor_raises_the_majorant_by_at_most_steps_times_the_floor(K):
    # the values at most ``floor`` at the grid's right end are raised to one constant tail the steps need not compute:
    # the bound stays above every composition's exact E_γ (checked at n = 6) and above the bound without a floor, and
    # rises by at most (n + 1)·floor; at n = 1000 on the near-equal kernel the floor of the corner filter (β·2^-40/n)
    # leaves the bound within 10⁻¹² relative of the bound without it
    losses = _losses(K)
    phases, n = [[1], [3], [0], [2]], 6
    family = _family(phases, n, len(losses), 0, n - 1, 1, ())
    for g in GAMMAS:
        plain = phase_majorant(losses, phases, n, g, most_first=n - 1)
        exact = max(_value(losses, k, g) for k in family)
        for floor in (plain / 8, plain / 2 ** 20, fmpq(1, 10 ** 30)):
            raised = phase_majorant(losses, phases, n, g, most_first=n - 1, floor=floor)
            assert exact <= plain <= raised <= min(plain + (n + 1) * floor, 1)
    if K is NEAR_EQUAL:
        n, g = 1000, fmpq(2) ** 75
        plain = phase_majorant(losses, phases, n, g, most_first=n - 9, step_bits=5)
        raised = phase_majorant(losses, phases, n, g, most_first=n - 9, step_bits=5, floor=plain / (n << 40))
        assert plain <= raised < plain * (1 + fmpq(1, 10 ** 12))
    with pytest.raises(ParameterError, match="floor"):
        phase_majorant(losses, phases, 4, fmpq(2), floor=fmpq(-1))


def test_phase_majorant_with_two_phases_is_the_switch_majorant():
    # switch_majorant is phase_majorant with two phases (one implementation): the same rational
    losses = _losses(SEEDED[2])
    for g in GAMMAS:
        for first, second, l1, l2 in [((0,), (1, 2), 0, 1), ((1, 3), (0, 2), 2, 2), ((2,), (3,), 0, 0)]:
            assert switch_majorant(losses, first, second, 9, g, least_first=l1, least_second=l2, step_bits=6) == \
                phase_majorant(losses, [first, second], 9, g, least_first=l1, most_first=9 - l2, step_bits=6)


def test_ordered_phases_are_far_tighter_than_one_adaptive_phase():
    # the near-equal kernel at n = 1000, γ = 2^20: every composition but the best corner (class 1, 1000 coordinates)
    # in the phases 1, 3, 0, 2 is below the corner's exact value at 2^-11 nats; one adaptive phase of all four classes
    # stays 2·10⁻⁴ above it at 2^-8 (its next class chosen at every step)
    losses = _losses(NEAR_EQUAL)
    n, g = 1000, fmpq(2) ** 20
    corner = _value(losses, (0, n, 0, 0), g)
    assert fmpq(9695036, 10**7) < corner < fmpq(9695037, 10**7)
    with limits(max_work=3 * 10**9):  # 2.1·10⁹ units at 2^-11 nats
        off = phase_majorant(losses, [[1], [3], [0], [2]], n, g, most_first=n - 1, step_bits=11, spread=5.0)
    assert corner - fmpq(2, 10**7) < off < corner
    adaptive = majorant(losses, [((0, 1, 2, 3), n)], g, step_bits=8)
    assert adaptive > corner + fmpq(2, 10**4)


def test_phase_majorant_rejects_bad_arguments():
    losses = _losses(SEEDED[0])
    with pytest.raises(ParameterError, match="prefix"):
        phase_majorant(losses, [[0], [1]], 4, fmpq(2), prefix=3)
    with pytest.raises(ParameterError, match="least_first, most_first"):
        phase_majorant(losses, [[0], [1]], 4, fmpq(2), least_first=3, most_first=2)
    with pytest.raises(ParameterError, match="most_first"):
        phase_majorant(losses, [[0], [1]], 4, fmpq(2), most_first=3, prefix=2)
    with pytest.raises(ParameterError, match="phases"):
        phase_majorant(losses, [[0], []], 4, fmpq(2))


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY, NEAR_EQUAL])
@pytest.mark.parametrize("n", [5, 12])
def test_the_corner_filter_keeps_the_exhaustive_maximum(K, n):
    # where it answers, its rows enclose their compositions, hold the maximum and the first maximiser of the exhaustive
    # search, and rows + ruled out count every composition (where a maximiser is off the corner's neighbourhood it
    # gives up: None)
    S = TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6)
    classes, groups, totals, _ = S.classified
    losses = [cls.loss for cls in classes]
    c = len(losses)
    order = list(all_compositions(groups, totals, c))
    answered = 0
    for g in [g for g in GAMMAS if g >= 1] + [fmpq(2) ** 9, fmpq(3) ** 7]:
        found = sf._corner_filter(losses, c, n, g)
        if found is None:
            continue
        answered += 1
        rows, ruled_out = found
        assert len(rows) + ruled_out == len(order)
        assert all(lo <= _value(losses, k, g) <= hi for k, lo, hi in rows)
        reference = S.witness(g)
        assert max(_value(losses, k, g) for k, _, _ in rows) == reference.value
        tied = {k for k, _, _ in rows if _value(losses, k, g) == reference.value}
        assert next(k for k in order if k in tied) == reference.counts
    assert answered >= 1


@pytest.mark.parametrize(("e", "value"), [(20, "0.96950367"), (64, "0.019968963")])
def test_the_near_equal_kernel_at_n_1000_is_exact(e, value):
    # refused before the corner filter (the face split stopped once every slice of t = 2 had to be enclosed, the box
    # search at its budget, with brackets of relative width 3.2·10⁻² and 1.7·10⁻¹); now exact, its maximiser the corner
    # of the pair (x, x') = (0, 2)
    K, n, g = NEAR_EQUAL, 1000, fmpq(2) ** e
    found = delta_tensor_power(K, n, g, enclosure=True)
    assert found.exact and found.lower == found.upper
    assert str(found.lower.p * 10**12 // found.lower.q).startswith(value.replace("0.", "").lstrip("0"))
    losses = _losses(K)
    assert found.lower == _value(losses, (0, n, 0, 0), g)


#: rows 0 and 2 of NEAR_EQUAL: a 2×3 pair whose compositions at n = 1000, γ = 2 are all within 6·10⁻⁷ of the best
#: corner's E_γ = 1 − 1.8·10⁻⁴ (refused before the range enclosure: 746 candidates to tighten, over max_work)
FLAT_PAIR = Kernel([["1/2", "3/10", "1/5"], ["8/21", "8/21", "5/21"]])


@pytest.mark.parametrize("K", SEEDED + [ZERO_ENTRY, NEAR_EQUAL, FLAT_PAIR])
def test_the_range_enclosure_holds_the_exhaustive_maximum(K):
    # n = 12, a wide width (the ranges settle at a few per cent): lo ≤ the exhaustive maximum ≤ hi, hi − lo ≤ width·lo
    n = 12
    S = TensorSearch([(K, n)], filtered=False, exhaustive_limit=10**6)
    classes, groups, totals, _ = S.classified
    losses = [cls.loss for cls in classes]
    answered = 0
    for g in [fmpq(1), fmpq(3, 2), fmpq(5), fmpq(2) ** 5, fmpq(2) ** 9]:
        for width in (fmpq(1, 10), fmpq(1, 100)):
            found = corner_enclosure(losses, list(groups[0]), n, g, width,
                                     enclose=lambda k, floor: LatticeEnclosure().bounds(
                                         [(loss, x) for loss, x in zip(losses, k) if x], g))
            if found is None:
                continue
            answered += 1
            lo, hi = found
            assert lo <= S.witness(g).value <= hi and hi - lo <= width * lo
    assert answered >= 2


def test_a_flat_pair_near_one_is_enclosed_by_ranges():
    # n = 1000, γ = 2: the enclosure of relative width ≤ 10⁻⁶ holds the best corner and the composition next to it
    # (999, 1), 1.9·10⁻⁹ above it (lattice bounds)
    K, n, g = FLAT_PAIR, 1000, fmpq(2)
    found = delta_tensor_power(K, n, g, enclosure=True)
    assert not found.exact and found.upper - found.lower <= found.lower / 10**6
    S = TensorSearch([(K, n)])
    losses = [cls.loss for cls in S.classified[0]]
    his = []
    for counts in [(n, 0), (n - 1, 1), (0, n)]:
        lo, hi = LatticeEnclosure().bounds([(loss, x) for loss, x in zip(losses, counts) if x], g)
        assert lo <= found.upper
        his.append(hi)
    assert found.lower <= max(his)
    assert fmpq(99981, 10**5) < found.lower < fmpq(99982, 10**5)


@pytest.mark.slow
def test_the_near_equal_kernel_near_one_is_enclosed(monkeypatch):
    # n = 1000, γ = 2^5 (E_γ = 1 − 6.7·10⁻⁴): the corner filter cannot separate the flat edge (its switch times gain
    # 2.4·10⁻⁶), the face split stops at the face's 631 unresolved compositions, and the box search is not tried (it
    # ran to its budget, 6 s); the ranges enclose δ_n within 10⁻⁶ of the best corner
    monkeypatch.setattr(sf, "_search", lambda *a: (_ for _ in ()).throw(AssertionError("the box search ran")))
    sf._RECENT.clear()
    K, n, g = NEAR_EQUAL, 1000, fmpq(2) ** 5
    try:
        found = delta_tensor_power(K, n, g, enclosure=True)
    finally:
        sf._RECENT.clear()
    assert found.upper - found.lower <= found.lower / 10**6
    corner = LatticeEnclosure().bounds([(_losses(K)[1], n)], g)
    assert found.lower <= corner[1] and corner[0] <= found.upper


def test_the_face_split_stops_at_a_face_left_unresolved(monkeypatch):
    # the near-equal kernel at n = 1000, γ = 2^5: the face slice leaves 631 compositions without a lower bound, more
    # than the exact search could evaluate (face_split.MAX_UNRESOLVED): the split stops there, not after six slices.
    # From an empty block store: blocks kept from earlier queries cost the slice's budget nothing, and with them it
    # settles more rows (found in a random test order: the split went on to (0, 1) and (0, 2))
    from exactdp.measures import face_split as fs
    from exactdp.measures.lattice_interval import shared_blocks

    calls = []
    original = fs._Split.enclose

    def counted(self, o):
        calls.append(o)
        return original(self, o)

    monkeypatch.setattr(fs._Split, "enclose", counted)
    shared_blocks().clear()
    try:
        assert fs.face_split(_losses(NEAR_EQUAL), 1000, fmpq(2) ** 5) is None
    finally:
        shared_blocks().clear()
    assert calls == [(0, 0)]


def test_a_narrow_grid_tries_the_corner_filter_before_the_box_search(monkeypatch):
    # the near-equal kernel at n = 1000, γ = 2^75 (E_γ ≈ 1.2·10⁻³): its edge is not flat by face_split.FLAT, but the
    # corner filter's first bound costs 0.3 of the box search's estimate, so it goes first and answers exactly (the box
    # search ran to its budget first, 3 s); its 164 neighbours of the corner are enclosed at the search's level below
    # the corner (cut below their Chernoff bounds they had exhausted the lattice budget)
    monkeypatch.setattr(sf, "_search", lambda *a: (_ for _ in ()).throw(AssertionError("the box search ran")))
    sf._RECENT.clear()
    try:
        found = delta_tensor_power(NEAR_EQUAL, 1000, fmpq(2) ** 75, enclosure=True)
    finally:
        sf._RECENT.clear()
    assert found.exact and fmpq(1179, 10**6) < found.lower < fmpq(1180, 10**6)
    assert found.lower == _value(_losses(NEAR_EQUAL), (0, 1000, 0, 0), fmpq(2) ** 75)


def test_a_narrow_grid_starts_its_ranges_on_a_fine_grid(monkeypatch):
    # the near-equal kernel's grid is narrow (2^-7 nats: about 2·10⁸ units, under corner_filter.NARROW_WORK), so its
    # range starts there and settles at once; it went 2^-5 -> 2^-6 -> 2^-7 before (the first two bounds above β), and a
    # 3×3 kernel of wider grids (seed 1002 of the random kernels) still starts on 2^-6 (FIRST_LEVEL_MANY)
    from exactdp.measures import corner_filter as cf

    levels = []
    original = cf.phase_majorant

    def recorded(*args, **kwargs):
        levels.append(kwargs["step_bits"])
        return original(*args, **kwargs)

    monkeypatch.setattr(cf, "phase_majorant", recorded)
    sf._RECENT.clear()  # the same query answered by an earlier test is not asked again
    try:
        found = delta_tensor_power(NEAR_EQUAL, 1000, fmpq(2) ** 75, enclosure=True)
    finally:
        sf._RECENT.clear()
    assert found.exact and levels == [7]
    losses = _losses(SEEDED[2])
    assert cf._Ranges(losses, 0, [1, 2, 3], 1000, fmpq(2) ** 608, fmpq(1, 2))._first_level() == cf.FIRST_LEVEL_MANY
    assert cf._Ranges(losses[:2], 0, [1], 1000, fmpq(2) ** 608, fmpq(1, 2))._first_level() == 0
