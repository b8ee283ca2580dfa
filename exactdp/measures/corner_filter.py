r"""The corner filter: the best homogeneous corner and its neighbours; the rest ruled out by phase majorants.

δ_n(γ) = η_{E_γ}(K^{⊗n}) over all input sequences is the maximum of E_γ over the compositions of n over the kernel's
pair classes ([A] Thm 1, docs/claims.md B-10, D-7).  Where the maximum is at (or next to) a homogeneous corner — all
n coordinates of one pair class — this routine proves it with two kinds of numbers:

* **The best corner**: its value is the best lower bound β of the maximum.  For a row pair whose loss has four ratio
  classes (a 2×4 kernel, the routine :data:`FOUR_RATIO`) the corner guessed larger (:func:`_guess`: saddlepoint
  estimates where they are clear, else the larger homogeneous majorant on the coarsest grid) is evaluated exactly, conditioned on one class and streamed (:mod:`exactdp.measures.quadrinomial`):
  a mixed composition of four-class losses has O(n³) merged type classes (6.7·10⁸ at n = 1000) and no lattice
  enclosure.  Where the caller has an enclosure of single compositions (the simplex filter's lattice bounds, losses
  of at most three ratio classes) every corner is enclosed and the largest lower bound taken.
* **One upper bound for a whole range of compositions**: every composition with u ≤ k ≤ w coordinates of the best
  corner's class b is, reordered, k coordinates of b and then the others, one class after another in a fixed order,
  so :func:`~exactdp.measures.adaptive_profile.phase_majorant` (b first, at least u and at most w of it, then one
  phase per other class) bounds them all with one grid recursion per class.  Only the switch times are adaptive, so
  with one class per phase it is far tighter than the fully adaptive majorant: on the near-equal 3×3 kernel
  (1/2, 3/10, 1/5) / (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21) at n = 1000, γ = 2^20 every composition but the corner is
  bounded 1.5·10⁻⁷ below it at 2^-11 nats, where the fully adaptive majorant stays 2·10⁻⁴ above it at 2^-8.

A range whose bound is below β is ruled out whole: every composition in it has E_γ ≤ bound < β ≤ the maximum.  All of
0 ≤ k ≤ n − 1 is tried first on the coarsest grid (2⁻⁵ nats; for three or more classes 2⁻⁶,
:data:`FIRST_LEVEL_MANY`, or finer on a narrow grid, :data:`NARROW_WORK`); a bound above β is refined (2⁻⁶ … 2⁻⁹ nats) while a
third of its last fall could still take it below β — the grid's chord excess falls about fourfold per bit, so the
finer grids together remove about a third of the last fall again; the refinement goes straight to the coarsest level
that this predicts to suffice — and otherwise the range is split in two, the half next to the best corner first.  A
finer grid over ``max_work`` splits the range on the coarser grid instead: a range's other phases run n − u steps, so
the half next to the corner affords the finer grid (seeds 5 and 7 of the random 3×4 kernels at n = 1000, ε(10⁻⁶):
2⁻⁷ nats over all of 0 … 999 is 1.35·10⁹ units, over 500 … 999 8.4·10⁸); a first grid over it falls back to 2⁻⁴
nats (:data:`FALLBACK_BITS`), and a refinement by several bits over it retries one bit coarser.  A single count that
the predicted fall gives up on takes the finest grid once (within ``max_work``): the fall is a model, and one count
next to the corner costs about its first phase only.  The ranges of one query spend at most ``max_work`` in all, or
:data:`RANGE_WORK` times it where they are the only route.  On
seed 0 of the random 2×4 pairs at n = 1000 the first bound already separates: 0.99939·β at γ = 2^433, 0.9958·β at
γ = 2^350 one bit finer.  With an enclosure and three or more classes, the compositions of 1 … t coordinates off the
corner (at most :data:`MAX_NEAR` of them: the ones a grid separates last, 1.6·10⁻⁷ below the corner on the kernel
above) are enclosed one by one instead, and the ranges cover k ≤ n − t − 1.

What is left when the budget ends — a composition off the corners that no grid separates from β, e.g. a maximum in
the middle of a near-symmetric pair, or every composition at γ near 1 where all bounds are capped at 1 — is returned
as candidates with the trivial lower bound 0 and the range's bound as upper end (two classes: the search then
evaluates them exactly under its own cost guard; a mixed composition of two four-class losses is over it at
n = 1000: such a query is refused, never guessed), or makes the routine give up (three or more classes: the simplex
cannot be listed).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from flint import fmpq

from exactdp.limits import ResourceLimitError, limit, require
from exactdp.measures.adaptive_profile import MAX_TAPS, phase_cost, phase_majorant, switch_cost, switch_majorant
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals
from exactdp.measures.face_split import compositions
from exactdp.measures.privacy_loss import binomial_linear_piece, trinomial_linear_piece
from exactdp.measures.quadrinomial import quadrinomial_cost, quadrinomial_linear_piece, quadrinomial_loss
from exactdp.measures.privacy_loss import PairLoss
from exactdp.measures.root_start import log_rational
from exactdp.numbers.qq import ZERO

#: certified bounds (lo, hi) of E_γ at one composition (class counts), given the best lower bound known so far (0 for
#: none): the bounds need only be tight enough to compare with it
Enclose = Callable[[tuple[int, ...], fmpq], tuple[fmpq, fmpq]]

#: the grid levels of one range's bound, coarsest first (step 2^-bits nats)
LEVELS = (5, 6, 7, 8, 9)
#: the grid of a range whose first grid is over ``max_work`` (level index −1; refined as the others): on 4×4 kernels
#: of eight pair classes at deep γ even 2^-5 nats is (seed 4 of the random 4×4 kernels, ε(10⁻⁶) at n = 1000), while
#: the ranges off the best corner are ruled out on 2^-4 and the one next to it, narrower, can afford the finer grids
FALLBACK_BITS = 4
#: the first level of a range over three or more classes (an index of :data:`LEVELS`: 2^-6 nats).  Their grid
#: recursions cost more per step than per point (one pass per class and tap), so 2^-6 costs little more than 2^-5
#: on a narrow grid (docs/speed.md), and 2^-5 rarely settles: of the 3×3 queries of
#: ``bench_tensor.py --random-3x3-deltas --near-equal`` whose ranges reached it, it settled 2 of 18.  Only where
#: every loss has at most three ratio classes (3×3 kernels): the four-ratio kernels of 3×4 and 4×4 at deep γ are
#: bound by ``max_work``, which a finer first grid spends sooner (seed 3 of the 3×4 kernels was refused ε(10⁻⁶))
FIRST_LEVEL_MANY = 1
#: ... or the finest grid whose bound costs at most this many work units: a narrow grid costs little more a level
#: finer, and a finer first grid settles more often (the near-equal 3×3 kernel at n = 1000: 2^-7 nats is 1.6–2.1·10⁸
#: units and settles 8 of its 10 benchmark queries at once, where 2^-6 settled none; seeds 1000 and 1002 of the
#: random 3×3 kernels are over it from 2^-6 on)
NARROW_WORK = 250_000_000
#: at most this many compositions next to the best corner are enclosed one by one (three or more classes, with an
#: enclosure): 164 for four classes (1 … 8 coordinates off it), 189 for three (1 … 18)
MAX_NEAR = 200
#: grid values below β·2^-FLOOR_BITS/n are raised to a constant tail the recursion need not compute
#: (:func:`~exactdp.measures.adaptive_profile.phase_majorant`'s ``floor``): n steps raise a bound by at most about
#: β·2^-40, far below the gaps the ranges separate (10⁻⁷ relative at the closest, docs/tensorization.md)
FLOOR_BITS = 40
#: the ranges of one query of the four-ratio routine (:data:`FOUR_RATIO`, its only route) may spend this many times
#: ``max_work`` in all, each call within ``max_work`` and at most this many times :data:`MAX_CALLS` (seeds 5 and 7 of the
#: random 3×4 kernels at n = 1000 spend 2.9·10⁹ units); as a filter of the simplex (3×3 kernels, where the face split
#: and the box search follow) once ``max_work``: more only delays those where the maximum is off the corners (seed 1038
#: of the random 3×3 kernels took about twice as long at 8, docs/speed.md)
RANGE_WORK = 8
#: the saddlepoint estimates order the corners (:func:`_guess`) where the largest exceeds the next by this factor:
#: against the exact corners of eleven random 2×4, 3×4 and 4×4 kernels at n = 1000 (γ = 2^100 … 2^1800) they
#: are within 1.8 % on all 123 with e^-100 ≤ E_γ ≤ 1/2 that they estimate (and within 2.1 % at n = 300, in
#: tests/measures/test_corner_filter_four_ratios.py)
GUESS_MARGIN = 1.25
#: majorant calls one query may spend (each one grid recursion of n steps per class) before the ranges left are
#: returned open, times the ranges' work factor (:data:`RANGE_WORK` for the four-ratio routine: where the profile is
#: flat next to the corner, every range there needs a finer grid of its own — 3×4 seed 5 at n = 200, γ = 2^269 took 81
#: cheap calls)
MAX_CALLS = 24


def _applies(losses: Losses, groups: Groups, totals: Totals) -> tuple[list[int], int] | None:
    """``(members, n)``: one factor whose pair classes (two or more) have losses of two to
    :data:`~exactdp.measures.adaptive_profile.MAX_TAPS` finite ratio classes (the phase majorants' float sums allow no
    more), one at least of the conditioned route (:func:`~exactdp.measures.quadrinomial.quadrinomial_loss`: four
    classes of lattice rank D ≥ 2, five or more of rank D ≥ 3; all of three or fewer: the two- and three-ratio
    routines and the simplex; rank one: the exponent sums of every composition); None otherwise."""
    if len(groups) != 1 or len(groups[0]) < 2 or totals[0] < 1:
        return None
    members, n = list(groups[0]), totals[0]
    if any(not 2 <= len(losses[c].classes) <= MAX_TAPS for c in members):
        return None
    if all(quadrinomial_loss([(losses[c], n)]) is None for c in members):
        return None
    return members, n


def _estimate(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """(work, memory): the guess (one homogeneous majorant per class) and one range call on the coarsest grid (it
    usually settles every composition off the best corner; each further call is charged by the majorant itself, the
    whole search stopped at ``max_work``; the call's phases are counted as one, which leaves out a grid pass per
    further class); memory the grid's float arrays.  Each corner's exact evaluation is charged by :func:`_corner` at
    γ, before it starts."""
    found = _applies(losses, groups, totals)
    if found is None:
        return None
    members, n = found
    guesses = sum(switch_cost(losses, [c], [c], n, fmpq(1), step_bits=LEVELS[0]) for c in members)
    per_call = switch_cost(losses, members[:1], members[1:], n, fmpq(1), step_bits=LEVELS[0])
    return guesses + per_call, 64 * per_call // n + 64_000


def _not_listed(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> list[CompositionBounds]:
    raise ResourceLimitError("corner_filter: the compositions are bounded by ranges; the routine's candidates hook "
                             "gives the ones not ruled out")


def _corner(losses: Losses, c: int, n: int, gamma: fmpq) -> fmpq:
    """E_γ of the homogeneous composition of n coordinates of class c, exactly (one streamed loss: conditioned slices
    for four or more ratio classes, slices for three, a binomial sum for two), after its cost guard (``max_work``; four
    or more classes charged for the rows they stream at this γ, the others as the slices of tensor_search's
    estimate)."""
    loss = losses[c]
    require("max_work", quadrinomial_cost(loss, n, gamma=gamma)[2] if len(loss.classes) >= 4 else 20_000 * (n + 1),
            f"corner filter: the homogeneous composition at n = {n}")
    if len(loss.classes) >= 4:
        A, B = quadrinomial_linear_piece(loss, n, gamma)
    elif len(loss.classes) == 3:
        A, B = trinomial_linear_piece(loss, n, gamma)
    else:
        A, B = binomial_linear_piece(loss, n, lambda r: gamma < r)
    return A - gamma * B


class _Ranges:
    """The range search of the module docstring for one orientation: k counts the class ``b`` whose corner is exact
    (``best`` = β), n − k the other classes ``others``; with one other class its corner k = 0 is in the first range and
    is evaluated exactly only if no bound rules it out (``other``: its exact value then); with more, k = 0 is a simplex
    of compositions and stays open (``open``) unless a bound rules it out."""

    def __init__(self, losses: Losses, b: int, others: list[int], n: int, gamma: fmpq, best: fmpq,
                 other: fmpq | None = None, top: int | None = None, work: int = 1) -> None:
        self.losses, self.b, self.others, self.n, self.gamma, self.best = losses, b, others, n, gamma, best
        self.top = n - 1 if top is None else top  # the largest k the ranges cover (the rest is enumerated)
        self.open: dict[int, fmpq] = {}  # k -> upper bound, compositions left open
        self.ruled_out = 0  # values of k ruled out (compositions, with two classes)
        self.other = other
        self.calls, self.spent = 0, 0
        self.work = work  # the ranges' budget in multiples of max_work
        self.highest = ZERO  # the largest bound of a range ruled out

    def _other(self) -> None:
        if len(self.others) > 1:
            self.open[0] = fmpq(1)
        elif self.other is None:
            self.other = _corner(self.losses, self.others[0], self.n, self.gamma)

    def spend(self, work: int) -> None:
        self.spent += work

    def _first_level(self) -> int:
        """The index in :data:`LEVELS` of the first grid: for three or more classes of at most three ratio classes
        each :data:`FIRST_LEVEL_MANY`, or a finer one while its bound's work is at most :data:`NARROW_WORK`; the
        coarsest otherwise."""
        classes = [self.b, *self.others]
        if len(classes) < 3 or any(len(self.losses[c].classes) > 3 for c in classes):
            return 0
        first = FIRST_LEVEL_MANY
        while first + 1 < len(LEVELS) and phase_cost(self.losses, [[c] for c in classes], self.n, self.gamma,
                                                     step_bits=LEVELS[first + 1]) <= NARROW_WORK:
            first += 1
        return first

    def settle(self) -> None:
        n, best = self.n, self.best
        if n == 0:
            return
        # none where β is within the finest grid's excess of 1 (γ near 1: every bound is capped at 1)
        if best >= 1 - fmpq(8, 1 << (2 * LEVELS[-1])):
            self.open.update((k, fmpq(1)) for k in range(1, self.top + 1))
            self._other()
            return
        # (u, w, level index, (the range's bound at a coarser level, the bits between), the last bit's fall if known)
        todo: list[tuple[int, int, int, tuple[fmpq, int] | None, fmpq | None]] = []
        if self.top >= (0 if self.other is None else 1):
            todo.append((0 if self.other is None else 1, self.top, self._first_level(), None, None))
        budget = self.work * max(limit("max_work"), 1)
        while todo:
            u, w, level, prev, hint = todo.pop()
            if u == w == 0:  # the other corner alone: its exact value (cheaper than the finer grids)
                self._other()
                continue
            if self.calls >= MAX_CALLS * self.work or self.spent >= budget:
                self.open.update((k, fmpq(1)) for k in range(max(u, 1), w + 1))
                if u == 0:
                    self._other()
                continue
            self.calls += 1
            try:
                bound = phase_majorant(self.losses, [[self.b]] + [[c] for c in self.others], n, self.gamma,
                                       least_first=u, most_first=w, step_bits=_bits(level), what="corner filter",
                                       spend=self.spend, floor=best / (n << FLOOR_BITS))
            except ResourceLimitError:  # this grid is over max_work (charged before any work, not counted)
                self.calls -= 1
                if prev is not None and prev[1] > 1:  # a refinement by several bits: one bit fewer
                    todo.append((u, w, level - 1, (prev[0], prev[1] - 1), hint))
                    continue
                if prev is not None and u < w:
                    # a refinement: the halves on the coarser grid, whose finer grids cost less (the ranges' other
                    # phases run n − u steps), the half next to the best corner first
                    mid, coarse = (u + w) // 2, level - prev[1]
                    todo.append((u, mid, coarse, None, hint))
                    todo.append((mid + 1, w, coarse, None, hint))
                    continue
                if prev is None and level >= 0:  # a first grid over max_work: the fallback grid, half the points
                    todo.append((u, w, -1, None, None))
                    continue
                self.open.update((k, fmpq(1)) for k in range(max(u, 1), w + 1))
                if u == 0:
                    self._other()
                continue
            if bound < best:
                self.ruled_out += w - u + 1
                self.highest = max(self.highest, bound)
                continue
            fall = hint if prev is None else _last_fall(prev[0] - bound, prev[1])  # the last bit's gain
            finer = len(LEVELS) - 1 - level
            if finer and fall is None:  # one bit finer, to learn the fall
                todo.append((u, w, level + 1, (bound, 1), None))
            elif finer and fall is not None and bound - fall / 3 < best:
                # the finer grids remove about a third of the last fall again (fourfold less per bit): go straight to
                # the coarsest level whose predicted bound is below β (the finest if none is)
                bits = next((j for j in range(1, finer + 1) if bound - fall / 3 * (1 - fmpq(1, 4 ** j)) < best), finer)
                todo.append((u, w, level + bits, (bound, bits), fall))
            elif u < w:
                mid = (u + w) // 2
                todo.append((u, mid, level, None, fall))
                todo.append((mid + 1, w, level, None, fall))  # popped first: the half next to the best corner (k = n)
            elif finer and prev is None:
                # one count left that the prediction gives up on: the finest grid once (the prediction assumes a
                # fourfold fall per bit; a single count next to the corner costs about its first phase only)
                todo.append((u, w, level + finer, (bound, finer), fall))
            else:
                self.open[u] = bound


def _bits(level: int) -> int:
    """The grid's step bits at a level index: :data:`LEVELS`, or :data:`FALLBACK_BITS` at −1."""
    return FALLBACK_BITS if level < 0 else LEVELS[level]


def _last_fall(drop: fmpq, bits: int) -> fmpq:
    """The fall of the last of ``bits`` grid bits whose falls sum to ``drop`` and shrink fourfold per bit."""
    first: fmpq = drop * 3 / (4 * (1 - fmpq(1, 4 ** bits)))
    return first / fmpq(4 ** (bits - 1))


def _guess(losses: Losses, members: list[int], n: int, gamma: fmpq) -> list[int]:
    """The classes in the order of their homogeneous compositions' E_γ, largest first: the likely largest corner first
    (a choice of order only: with two classes a wrong guess costs the other corner's exact value and a second pass,
    with more the ranges cannot rule the true largest out and the routine gives up).  By the saddlepoint estimates
    (:func:`_saddle_log`) where every class has one and the largest leads the next by :data:`GUESS_MARGIN`, else by
    the majorants on the coarsest grid (a grid recursion of n steps per class; docs/speed.md)."""
    estimates = [_saddle_log(losses[c], n, gamma) for c in members]
    known = [(e, c) for e, c in zip(estimates, members) if e is not None]
    if len(known) == len(members):
        ranked = sorted(known, key=lambda item: -item[0])
        if len(ranked) < 2 or ranked[0][0] - ranked[1][0] > math.log(GUESS_MARGIN):
            return [c for _, c in ranked]
    bounds = [switch_majorant(losses, [c], [c], n, gamma, step_bits=LEVELS[0], what="corner filter") for c in members]
    return [c for _, c in sorted(zip(bounds, members), key=lambda item: -item[0])]


def _saddle_log(loss: PairLoss, n: int, gamma: fmpq) -> float | None:
    r"""log of the saddlepoint estimate of E_γ(p^{⊗n} ‖ q^{⊗n}), in floats (an order of corners only): −∞ where
    log γ ≥ n·max ℓ (no type class above γ: E_γ = 0 exactly), None where it does not apply (P-only mass, fewer than
    two classes, log γ at most n times the mean loss, an estimate above 1/2: E_γ near 1, where the ranges rule
    nothing out anyway).  With ℓ the privacy loss of one coordinate under P, K(s) = log E e^{sℓ} and the
    saddlepoint K'(s) = log(γ)/n, the tilted L − log γ is taken as a centred normal of variance σ² = nK''(s):
    E_γ = E_P[(1 − γe^{−L})_+] ≈ e^{nK(s) − s log γ}·(J(s) − J(s + 1)), J(a) = E[e^{−aX}; X > 0] =
    e^{a²σ²/2}Φ(−aσ) for X ~ N(0, σ²) (1/(aσ√(2π)) deep in the tail, where this is the classical
    e^{nK − s log γ}/(s(s + 1)σ√(2π)))."""
    if loss.p_only or len(loss.classes) < 2:
        return None
    ls = [log_rational(r) for r, _ in loss.classes]
    ps = [float(P) for _, P in loss.classes]
    t = log_rational(gamma) / n
    if t >= max(ls):
        return -math.inf
    if t <= sum(p * x for p, x in zip(ps, ls)):  # at or below the mean loss (E_γ ≥ 1/2 or so): the ranges' γ near 1
        return None

    def moments(s: float) -> tuple[float, float, float]:  # K(s), K'(s), K''(s), shifted by the largest exponent
        top = max(s * x for x in ls)
        w = [p * math.exp(s * x - top) for p, x in zip(ps, ls)]
        z = sum(w)
        m1 = sum(wi * x for wi, x in zip(w, ls)) / z
        return top + math.log(z), m1, max(sum(wi * x * x for wi, x in zip(w, ls)) / z - m1 * m1, 0.0)

    lo, hi = 0.0, 1.0
    while moments(hi)[1] < t:  # K' increases from the mean (s = 0) to max ℓ (s → ∞)
        hi *= 2
        if hi > 1e6:
            return None
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if moments(mid)[1] < t else (lo, mid)
    s = (lo + hi) / 2
    k, _, k2 = moments(s)
    sigma = math.sqrt(n * k2)
    if sigma <= 0:
        return None
    tail = _normal_tail(s, sigma) - _normal_tail(s + 1, sigma)
    estimate = n * (k - s * t) + math.log(tail) if tail > 0 else 0.0
    return estimate if estimate < math.log(0.5) else None  # near 1: the normal picture is off there


def _normal_tail(a: float, sigma: float) -> float:
    """J(a) = E[e^{−aX}; X > 0] = e^{a²σ²/2}Φ(−aσ) for X ~ N(0, σ²), in floats (its asymptotic series where aσ > 20)."""
    z = a * sigma
    if z > 20:
        return (1 - 1 / z**2 + 3 / z**4) / (z * math.sqrt(2 * math.pi))
    return 0.5 * math.exp(z * z / 2) * math.erfc(z / math.sqrt(2))


def _candidates(losses: Losses, groups: Groups, totals: Totals,
                gamma: fmpq) -> tuple[list[CompositionBounds], int] | None:
    """The routine's candidates hook: :func:`corner_candidates` over the factor's pair classes."""
    found = _applies(losses, groups, totals)
    if found is None:
        return None
    members, n = found
    return corner_candidates(losses, members, n, gamma, work=RANGE_WORK)


def _best_corner(losses: Losses, members: list[int], n: int, gamma: fmpq,
                 enclose: Enclose | None) -> tuple[list[int], tuple[fmpq, fmpq]]:
    """``(order, (lo, hi))``: the classes, the best corner's first, and bounds of the best corner's E_γ.  With
    ``enclose`` every corner is enclosed and ordered by its lower bound; without, by :func:`_guess`, and the first is
    evaluated exactly (lo = hi)."""
    if enclose is not None:
        corners = {c: enclose(_corner_counts(len(losses), {c: n}), ZERO) for c in members}
        order = sorted(members, key=lambda c: -corners[c][0])
        return order, corners[order[0]]
    order = _guess(losses, members, n, gamma)
    value = _corner(losses, order[0], n, gamma)
    return order, (value, value)


def corner_enclosure(losses: Losses, members: list[int], n: int, gamma: fmpq, width: fmpq, *,
                     enclose: Enclose | None = None) -> tuple[fmpq, fmpq] | None:
    r"""``(lo, hi)`` with lo ≤ δ_n(γ) = max_k E_γ(k) ≤ hi and hi − lo ≤ width·lo, or None: the best corner's lower
    bound lo, and every other composition bounded by the ranges of the module docstring at the target (1 + width)·lo
    instead of lo — a range is settled once its bound is at most the target, and hi is the largest of those bounds and
    the corner's upper bound.  For an enclosure, where E_γ is nearly flat in the composition: on the 2×3 pair
    (1/2, 3/10, 1/5) / (8/21, 8/21, 5/21) at n = 1000, γ = 2, every composition is within 6·10⁻⁷ of the best
    corner's E_γ = 1 − 1.8·10⁻⁴ (the maximum is next to it, (999, 1), 1.9·10⁻⁹ higher), too flat for the corner's
    neighbours to be ruled out, and the 746 compositions whose filter enclosures reach past the width cost more than
    ``max_work`` to tighten one by one; five ranges of the phase majorant settle them."""
    if width <= 0:
        return None
    order, (lo, hi) = _best_corner(losses, members, n, gamma, enclose)
    if lo <= 0:
        return None
    target = lo * (1 + width)
    if target >= 1:  # every E_γ is at most 1
        return lo, fmpq(1)
    ranges = _Ranges(losses, order[0], order[1:], n, gamma, target)
    ranges.settle()
    if ranges.open:
        return None
    if ranges.other is not None:  # the other corner of two classes, exactly
        lo, hi = max(lo, ranges.other), max(hi, ranges.other)
    hi = max(hi, ranges.highest)
    return (lo, hi) if hi - lo <= width * lo else None


def _corner_counts(size: int, counts: dict[int, int]) -> tuple[int, ...]:
    """The class-count tuple of ``size`` classes with the given counts, the rest 0."""
    return tuple(counts.get(c, 0) for c in range(size))


def near_count(m: int, t: int) -> int:
    """The number of compositions with 1 … t coordinates off one corner, over m classes in all."""
    return sum(math.comb(j + m - 2, m - 2) for j in range(1, t + 1))


def corner_candidates(losses: Losses, members: list[int], n: int, gamma: fmpq, *,
                      enclose: Enclose | None = None, work: int = 1) -> tuple[list[CompositionBounds], int] | None:
    """The corners and the compositions no range bound ruled out (module docstring), as rows ``(counts, lo, hi)`` in
    the order of :func:`~exactdp.measures.tensor_search.all_compositions`, and the number ruled out.  Without
    ``enclose`` the corner guessed larger (:func:`_guess`) is evaluated exactly first; two classes: the other corner
    only where no bound rules it out, and if it is the larger after all the search runs again from it; the rows are k
    of class i = 0..n.  Three or more classes with ``enclose`` (certified bounds of one composition): every corner is
    enclosed and the one of the largest lower bound taken, the compositions of 1 … t coordinates off it (t the
    largest with at most :data:`MAX_NEAR` of them) are enclosed one by one and the ranges cover the rest.  Three or
    more classes: every range must be ruled out (the simplex cannot be listed), else None.  The ranges spend at most
    ``work`` times ``max_work`` in all (:data:`RANGE_WORK`)."""
    m = len(members)
    order, best = _best_corner(losses, members, n, gamma, enclose if m > 2 else None)
    near = 0
    while m > 2 and enclose is not None and near < n and near_count(m, near + 1) <= MAX_NEAR:
        near += 1
    b, others = order[0], order[1:]
    ranges = _Ranges(losses, b, others, n, gamma, best[0], top=n - 1 - near, work=work)
    ranges.settle()
    if m > 2:
        if ranges.open:
            return None
        rows: list[CompositionBounds] = [(_corner_counts(len(losses), {b: n}), *best)]
        if enclose is not None:
            for t in range(1, near + 1):
                for part in compositions(t, len(others)):
                    counts = _corner_counts(len(losses), {b: n - t, **dict(zip(others, part))})
                    lo, hi = enclose(counts, ranges.best)
                    if hi >= ranges.best:  # else below the corner: ruled out
                        rows.append((counts, lo, hi))
        return sorted(rows), math.comb(n + m - 1, m - 1) - len(rows)
    i, j = members
    if ranges.other is not None and ranges.other > ranges.best:  # the guess was wrong: again from the larger corner
        ranges = _Ranges(losses, others[0], [b], n, gamma, ranges.other, ranges.best, work=work)
        ranges.settle()
    rows = []
    values = {n: ranges.best}
    if ranges.other is not None:
        values[0] = ranges.other
    for k_i in range(n + 1):  # k_i = count of class i, the enumeration order
        pair = _corner_counts(len(losses), {i: k_i, j: n - k_i})
        k = k_i if ranges.b == i else n - k_i
        if k in values:
            rows.append((pair, values[k], values[k]))
        elif k in ranges.open:
            rows.append((pair, ZERO, ranges.open[k]))
    return rows, ranges.ruled_out


FOUR_RATIO = EnclosureRoutine("four or more ratio classes (corner filter)", _estimate, _not_listed,
                          candidates=_candidates)
