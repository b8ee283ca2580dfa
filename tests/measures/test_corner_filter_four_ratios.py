"""The corner filter (exactdp.measures.corner_filter) for row pairs of four or more likelihood ratios: it keeps the
maximum and the first maximiser of the unfiltered exact search; every composition it rules out is below the best
exact corner (checked against all compositions, exactly); near γ = 1 it rules nothing out and the search refuses; and
the random 2×4 pairs refused at n = 1000 until the corner filter now answer ε(10⁻⁶) exactly."""

from __future__ import annotations

import functools
import random

import pytest
from flint import fmpq

from exactdp import delta_tensor_power
from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures import corner_filter as cf
from exactdp.measures.adaptive_profile import phase_majorant
from exactdp.measures import composition_filter
from exactdp.measures.profile_inversion import epsilon_tensor_power
from exactdp.measures.corner_filter import FOUR_RATIO
from exactdp.measures.tensor import TensorSearch
from exactdp.measures.tensor_search import _hockey_stick, all_compositions, pair_classes

F = fmpq


def _random_2x4(seed: int, outputs: int = 4) -> Kernel:
    """benchmarks/bench_tensor.py --random-2x4: rows of weights 1–9."""
    rng = random.Random(seed)
    rows = []
    for _ in range(2):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        rows.append([F(x, sum(w)) for x in w])
    return Kernel(rows)


PAIRS = [_random_2x4(s) for s in (0, 1, 3, 4, 7)]
#: a fifth output with a zero entry: P-only mass one way, four finite ratios
ZERO_ENTRY = Kernel([["3/10", "1/5", "1/5", "1/5", "1/10"], ["1/10", "1/5", "2/5", "3/10", "0"]])


def _all_values(K: Kernel, n: int, g: fmpq) -> tuple[list, dict]:
    classes = pair_classes(K)
    losses = [c.loss for c in classes]
    values = {}
    for k in range(n + 1):
        counts = (k, n - k)
        values[counts] = _hockey_stick([(losses[i], c) for i, c in enumerate(counts) if c], g)
    return losses, values


@pytest.mark.parametrize("K", PAIRS + [ZERO_ENTRY], ids=lambda K: str(K.shape))
@pytest.mark.parametrize("n", [1, 2, 7, 16])
def test_the_ruled_out_compositions_are_below_the_best_corner(K, n):
    for g in (F(1), F(3, 2), F(4), F(2) ** (n // 2 + 1), F(10) ** n):
        losses, values = _all_values(K, n, g)
        assert FOUR_RATIO.estimate(losses, [[0, 1]], [n]) is not None
        found = FOUR_RATIO.candidates(losses, [[0, 1]], [n], g)
        assert found is not None
        rows, ruled_out = found
        kept = {c for c, _, _ in rows}
        assert ruled_out + len(kept) == n + 1
        best = max(values.values())
        for counts, lo, hi in rows:
            assert lo <= values[counts] <= hi  # the corners exactly, the open ones within (0, bound)
        for counts, v in values.items():
            if counts not in kept:
                assert v < best  # ruled out: below the best corner's exact value
        assert [c for c, _, _ in rows] == sorted(kept)  # the enumeration order (k of class 0 = 0..n)


@pytest.mark.parametrize("K", PAIRS, ids=lambda K: str(K.shape))
def test_the_filtered_search_equals_the_exact_search(K):
    n = 14
    for g in (F(3, 2), F(2) ** 4, F(2) ** 9):
        exact = TensorSearch([(K, n)], filtered=False).witness(g)
        filtered = TensorSearch([(K, n)], filtered=True).witness(g)
        assert (filtered.value, filtered.counts) == (exact.value, exact.counts)
        assert filtered.discarded > 0 or exact.value == 0


def test_the_routine_applies_where_a_loss_takes_the_conditioned_route():
    four = [c.loss for c in pair_classes(PAIRS[0])]
    assert composition_filter.plan(four, [[0, 1]], [1000], F(2) ** 400).routine is FOUR_RATIO
    three = [c.loss for c in pair_classes(Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]]))]
    assert composition_filter.plan(three, [[0, 1]], [1000], F(2) ** 400).routine is not FOUR_RATIO
    geometric = Kernel([["8/15", "4/15", "2/15", "1/15"], ["2/15", "8/15", "1/15", "4/15"]])  # rank one: exponent sums
    rank_one = [c.loss for c in pair_classes(geometric)]
    assert len(rank_one) == 2 and len(rank_one[0].classes) == 4
    assert FOUR_RATIO.estimate(rank_one, [[0, 1]], [1000]) is None
    five = [c.loss for c in pair_classes(_random_2x4(7, outputs=5))]  # five ratios of rank four: conditioned twice
    assert len(five[0].classes) == 5 and FOUR_RATIO.estimate(five, [[0, 1]], [1000]) is not None
    # ratios 3, 2, 1, 2/3, 1/2 (and their inverses): rank two, the type classes' O(n²) lattice points
    rank_two = [c.loss for c in pair_classes(Kernel([["3/10", "1/5", "1/10", "1/5", "1/5"],
                                                     ["1/10", "1/10", "1/10", "3/10", "2/5"]]))]
    assert len(rank_two[0].classes) == 5 and FOUR_RATIO.estimate(rank_two, [[0, 1]], [1000]) is None


def test_near_gamma_1_nothing_is_ruled_out_and_the_search_refuses():
    # every E_γ is within 2^-16 of 1 at n = 1000, γ = 1: no grid bound separates them, so the mixed compositions stay
    # open (upper bound 1) and their exact evaluation is over the cost guard — a refusal, never a guess
    losses = [c.loss for c in pair_classes(PAIRS[0])]
    rows, ruled_out = FOUR_RATIO.candidates(losses, [[0, 1]], [1000], F(1))
    assert ruled_out == 0 and len(rows) == 1001
    assert all(hi == 1 for c, _, hi in rows if 0 < c[0] < 1000)
    with pytest.raises(ResourceLimitError):
        TensorSearch([(PAIRS[0], 1000)]).witness(F(1))


#: seeds 0–4 of the random 2×4 pairs at n = 1000, ε(10⁻⁶): all refused before the corner filter (1.68·10⁸ type
#: classes per evaluation); now exact, each maximiser a homogeneous composition
EPSILONS = {0: "331.200024651694", 1: "123.177899555522", 3: "553.694290723623", 4: "403.388426779269"}


@pytest.mark.slow
@pytest.mark.parametrize("seed", sorted(EPSILONS))
def test_random_2x4_pairs_at_n_1000_answer_eps_exactly(seed):
    K = _random_2x4(seed)
    r = epsilon_tensor_power(K, 1000, F(1, 10**6))
    assert r.exact and r.t is not None
    assert str(r.epsilon.evalf(15)) == EPSILONS[seed]
    A, B = r.piece
    assert A - r.t * B == F(1, 10**6)  # γ* is the root of its maximising composition: E = δ exactly there
    (_, x, xp, count), = r.composition
    assert count == 1000  # a homogeneous maximiser (one pair class, all coordinates)


def test_seed_0_at_n_1000_is_exact_and_fast_enough_for_the_quick_run():
    r = epsilon_tensor_power(_random_2x4(0), 1000, F(1, 10**6))
    assert r.exact and str(r.epsilon.evalf(15)) == EPSILONS[0]


def _random_kernel(seed: int, rows: int, outputs: int = 4) -> Kernel:
    """The seeded rows×outputs kernels of weights 1–9 (the first two rows are the 2×outputs pair of the same seed)."""
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        out.append([F(x, sum(w)) for x in w])
    return Kernel(out)


@pytest.mark.parametrize("seed, rows", [(0, 3), (2, 3), (4, 3), (2, 4)])
def test_three_or_more_pair_classes_rule_out_everything_but_the_corner_or_nothing(seed, rows):
    # a random 3×4 / 4×4 kernel: the filter either returns the best corner alone (every other composition, mixed or
    # homogeneous, below it) or None; checked against every composition exactly at n = 6
    K = _random_kernel(seed, rows)
    classes = pair_classes(K)
    losses, c = [cl.loss for cl in classes], len(classes)
    n = 6 if rows == 3 else 4
    assert c >= 3
    for g in (F(2), F(2) ** 4, F(2) ** 8):
        found = FOUR_RATIO.candidates(losses, [list(range(c))], [n], g)
        if found is None:
            continue
        (counts, lo, hi), = found[0]
        assert lo == hi == _hockey_stick([(losses[counts.index(n)], n)], g)
        others = [_hockey_stick([(losses[i], k) for i, k in enumerate(comp) if k], g)
                  for comp in all_compositions([list(range(c))], [n], c) if comp != counts]
        assert found[1] == len(others) and all(v < lo for v in others)


@pytest.mark.parametrize("seed, rows", [(0, 3), (2, 4)])
def test_a_3x4_and_a_4x4_kernel_match_the_exact_search(seed, rows):
    K = _random_kernel(seed, rows)
    for g in (F(2) ** 3, F(2) ** 7):
        exact = TensorSearch([(K, 5)], filtered=False).witness(g)
        filtered = TensorSearch([(K, 5)], filtered=True).witness(g)
        assert (filtered.value, filtered.counts) == (exact.value, exact.counts)


#: seeds of the random 3×4 and 4×4 kernels refused at n = 1000 until the corner filter (six, four and eight pair classes
#: of four-ratio losses): ε(10⁻⁶) exact, the maximiser a homogeneous composition
# (5, 3), (7, 3): the range next to the best corner needs 2^-7 nats, over max_work for all of 0 … 999 but not for its
# half 500 … 999 (refused before: the range was left open); (4, 4): eight pair classes, even 2^-5 nats is over
# max_work for the first range, which now starts on the fallback grid 2^-4 (refused before)
KERNEL_EPSILONS = {(0, 3): "331.200025", (4, 3): "1234.340150", (2, 4): "407.735233", (5, 3): "813.085873",
                   (7, 3): "884.724387", (4, 4): "1312.512513"}


@pytest.mark.slow
@pytest.mark.parametrize("seed, rows", sorted(KERNEL_EPSILONS))
def test_random_3x4_and_4x4_kernels_at_n_1000_answer_eps_exactly(seed, rows):
    r = epsilon_tensor_power(_random_kernel(seed, rows), 1000, F(1, 10**6))
    assert r.exact and f"{float(r.epsilon.evalf(20)):.6f}" == KERNEL_EPSILONS[(seed, rows)]
    A, B = r.piece
    assert A - r.t * B == F(1, 10**6)
    (_, x, xp, count), = r.composition
    assert count == 1000


@pytest.mark.slow
def test_past_the_cost_guard_eps_is_refused_not_computed_for_a_minute():
    # n = 2000: one exact four-class evaluation is estimated at 4.6e9 operations (max_work 1e9); the corner start and
    # the enclosure's exact bounds both check it first, so the query is refused with the guard's message (it ran about
    # 45 s of unguarded evaluations before)
    with pytest.raises(ResourceLimitError, match="max_work"):
        epsilon_tensor_power(_random_2x4(0), 2000, F(1, 10**6))



@functools.lru_cache(maxsize=None)
def _at_its_root(seed: int, rows: int, n: int = 200) -> tuple[list, int, list[int], fmpq]:
    """(losses, the best corner's class b, the others, γ) of a random kernel at its ε(10⁻⁶) root at n, where the
    best corner's E_γ is 10⁻⁶ exactly."""
    K = _random_kernel(seed, rows)
    classes = pair_classes(K)
    r = epsilon_tensor_power(K, n, F(1, 10**6))
    (_, x, xp, count), = r.composition
    b = next(i for i, c in enumerate(classes) if (c.x, c.x_prime) == (x, xp))
    return [c.loss for c in classes], b, [i for i in range(len(classes)) if i != b], r.t


def _full_cost(bits: int, seed: int, rows: int, n: int = 200) -> int:
    """The work units the ranges' first call, over all of 0 … n − 1 on 2^-bits nats, charges."""
    losses, b, others, g = _at_its_root(seed, rows, n)
    spent: list[int] = []
    phase_majorant(losses, [[b]] + [[i] for i in others], n, g, least_first=0, most_first=n - 1, step_bits=bits,
                   spend=spent.append)
    return spent[0]


def _settled_under(max_work: int, seed: int, rows: int, n: int = 200) -> cf._Ranges:
    losses, b, others, g = _at_its_root(seed, rows, n)
    with limits(max_work=max_work):
        ranges = cf._Ranges(losses, b, others, n, g, F(1, 10**6), work=cf.RANGE_WORK)
        ranges.settle()
    return ranges


def test_a_finer_grid_over_max_work_splits_the_range_on_the_coarser_grid():
    # seed 5 at n = 200 settles 0 … 199 on 2^-7 nats (2^-5: 1.0065·β, 2^-6: 1.00016·β); with max_work just below that
    # grid's cost the range was left open and the query refused; its halves' finer grids cost less (their other phases
    # run n − u steps), so the one next to the corner is settled on 2^-7 and the other on 2^-6
    ranges = _settled_under(_full_cost(7, 5, 3) - 1, 5, 3)
    assert not ranges.open and ranges.ruled_out == 200 and ranges.highest < F(1, 10**6)


def test_a_first_grid_over_max_work_falls_back_to_the_coarsest_grid():
    # seed 4 of the 4×4 kernels (eight pair classes) at n = 200 settles 0 … 199 on the first grid, 2^-5 nats; with
    # max_work just below its cost the range was left open; it starts on 2^-4 nats now, and the half next to the
    # corner (its seven other phases run 100 steps or fewer) affords 2^-5
    assert _full_cost(4, 4, 4) < _full_cost(5, 4, 4) - 1
    ranges = _settled_under(_full_cost(5, 4, 4) - 1, 4, 4)
    assert not ranges.open and ranges.ruled_out == 200 and ranges.highest < F(1, 10**6)



#: ε(10⁻⁶) of random kernels with five and six outputs — losses of five and six ratio classes (lattice rank 4),
#: conditioned twice or three times down to streamed slices: refused before from n = 50 on (the 2×5 pair of seed 0:
#: 316 251 type classes of 790-bit integers per evaluation at n = 50, 4.6·10⁶ at n = 100); (seed, rows, outputs, n)
WIDE_EPSILONS = {(0, 2, 5, 100): "45.176283", (0, 2, 6, 60): "54.093015", (1, 3, 5, 100): "135.208641"}


@pytest.mark.parametrize("seed, rows, outputs, n", sorted(WIDE_EPSILONS))
def test_kernels_of_five_and_six_outputs_answer_eps_exactly(seed, rows, outputs, n):
    r = epsilon_tensor_power(_random_kernel(seed, rows, outputs), n, F(1, 10**6))
    assert r.exact and f"{float(r.epsilon.evalf(20)):.6f}" == WIDE_EPSILONS[(seed, rows, outputs, n)]
    A, B = r.piece
    assert A - r.t * B == F(1, 10**6)
    (_, x, xp, count), = r.composition
    assert count == n


@pytest.mark.parametrize("rows, outputs, n", [(2, 5, 12), (2, 6, 6), (3, 5, 5)])
def test_kernels_of_five_and_six_outputs_match_the_exact_search(rows, outputs, n):
    for seed in range(3):
        K = _random_kernel(seed, rows, outputs)
        for g in (F(1), F(3, 2), F(2) ** 3, F(2) ** 7, F(10) ** n):
            exact = TensorSearch([(K, n)], filtered=False).witness(g)
            filtered = TensorSearch([(K, n)], filtered=True).witness(g)
            assert (filtered.value, filtered.counts) == (exact.value, exact.counts)


@pytest.mark.slow
def test_a_single_count_next_to_the_corner_takes_the_finest_grid_within_max_work():
    # seed 4 of the 4×4 kernels at n = 1000, γ = 2^1868 (δ_n ≈ 5.6·10⁻⁶, one of --random-wide's ten γ): the ranges
    # split down to k = 999 alone, 0.5 % above β on 2^-5 nats, where the fall predicted that no finer grid would
    # do, and it was left open (refused).  Now a single count goes to the finest grid, one bit coarser at a time
    # while that is over max_work (2^-9 and 2^-8 are), and 2^-7 rules it out: the best corner is the maximum
    K = _random_kernel(4, 4)
    g = F(2) ** 1868
    r = delta_tensor_power(K, 1000, g, enclosure=True)
    search = TensorSearch([(K, 1000)])
    corner = tuple(1000 if (c.x, c.x_prime) == (1, 3) else 0 for c in search.classes)  # k × (1, 3)
    A, B = search.piece(corner, g)
    assert r.exact and r.value == A - g * B
    assert f"{float(r.value):.10g}" == "5.599080728e-06"


def test_the_saddlepoint_guess_is_within_a_few_percent_of_the_exact_corners():
    # the order of the corners (a guess: the ranges then prove or give up) comes from floats where they are clear:
    # the saddlepoint estimate against the exact homogeneous compositions (conditioned slices), n = 300
    from math import inf, log

    from exactdp.measures.quadrinomial import quadrinomial_linear_piece
    from exactdp.measures.root_start import log_rational

    compared = 0
    for seed in (0, 1, 3):
        for loss in (c.loss for c in pair_classes(_random_2x4(seed))):
            ls = [log_rational(r) for r, _ in loss.classes]
            for k in (60, 120, 200, 300, 400):
                g = F(2) ** k
                estimate = cf._saddle_log(loss, 300, g)
                A, B = quadrinomial_linear_piece(loss, 300, g)
                exact = A - g * B
                if log_rational(g) >= 300 * max(ls):  # nothing above γ
                    assert exact == 0 and estimate == -inf
                elif estimate is not None and exact >= F(1, 10**40):
                    assert abs(estimate - log_rational(exact)) < 0.05, (seed, k)
                    compared += 1
                elif estimate is None:  # at or below the mean loss, or near 1: no estimate, the grid's guess
                    assert log_rational(g) <= 300 * sum(float(P) * x for (_, P), x in zip(loss.classes, ls)) or \
                        exact > F(1, 3)
    assert compared >= 10


def test_a_flat_profile_next_to_the_corner_may_take_more_cheap_calls():
    # seed 5 of the 3×4 kernels at n = 200, γ = 2^269 (bench_tensor.py --random-wide --quick): the ranges next to the
    # corner are within 0.1 % of it and each needs a finer grid of its own; the 24 calls ran out (refused), where the
    # four-ratio routine now has 24 × RANGE_WORK of them (81 spent, 0.01–0.04 s each) within the same work budget
    K = _random_kernel(5, 3)
    g = F(2) ** 269
    r = delta_tensor_power(K, 200, g, enclosure=True)
    search = TensorSearch([(K, 200)])
    corner = tuple(200 if (c.x, c.x_prime) == (2, 1) else 0 for c in search.classes)  # 200 × (2, 1)
    A, B = search.piece(corner, g)
    assert r.exact and r.value == A - g * B



def _distinct_ratios(k: int) -> list[list[fmpq]]:
    """Rows i/Σi and i²/Σi² over k outputs: k distinct likelihood ratios (∝ 1/i), of lattice rank π(k) ≥ 3."""
    p, q = list(range(1, k + 1)), [i * i for i in range(1, k + 1)]
    return [[F(x, sum(p)) for x in p], [F(x, sum(q)) for x in q]]


def test_losses_past_the_grid_recursions_tap_limit_keep_the_type_classes_route():
    # a 2×70 pair (70 ratio classes): the phase majorants' float sums allow at most MAX_TAPS = 60 ratio classes, so
    # the corner filter does not take it; with 31a71e2 it did and the query stopped on a ParameterError of the grid
    # ("a pair loss of at most 60 ratio classes") instead of the cost guard's refusal
    from exactdp.measures.adaptive_profile import MAX_TAPS

    K = Kernel(_distinct_ratios(70))
    losses = [c.loss for c in pair_classes(K)]
    assert len(losses[0].classes) == 70 > MAX_TAPS and FOUR_RATIO.estimate(losses, [[0, 1]], [2]) is None
    with pytest.raises(ResourceLimitError, match="max_work"):
        delta_tensor_power(K, 2, F(2))


@pytest.mark.slow
def test_a_slice_count_past_the_float_range_is_a_capped_estimate():
    # sixty classes at n = 10^7: the float slice count overflows to inf (an OverflowError in math.ceil before); the
    # cost estimate is the cap, not an error (the count's float pass over 10^7 rows takes a few seconds)
    from exactdp.limits import ESTIMATE_CAP
    from exactdp.measures.privacy_loss import PairLoss
    from exactdp.measures.quadrinomial import quadrinomial_cost

    loss = PairLoss.of(*_distinct_ratios(60))
    assert len(loss.classes) == 60
    assert quadrinomial_cost(loss, 10**7, gamma=F(2) ** 10**5)[0] >= ESTIMATE_CAP
    assert quadrinomial_cost(loss, 10**7, gamma=F(0))[0] >= ESTIMATE_CAP
