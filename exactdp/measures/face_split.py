r"""The face split: δ_n(γ) of a kernel with three or more pair classes, from one pair face and a few exact slices.

δ_n(γ) = η_{E_γ}(K^{⊗n}) is the maximum of E_γ over the compositions k of n over the pair classes ([A] Thm 1,
docs/claims.md B-10).  Where E_γ is flat along the edge between a pair class a and its reverse b (E_γ within a few
per cent over hundreds of compositions) the box bounds of :mod:`exactdp.measures.simplex_filter` cannot separate the
boxes along that edge from the maximum.  The *face split* partitions the compositions by their counts o on the other
classes O (t = Σ o):

* **the slices** t < T, one for each o: the compositions (o, k_a, n − t − k_a), a pair of classes varied with the
  classes of O fixed — exactly the two-class structure the lattice routine encloses at the speed of a row pair
  (:data:`exactdp.measures.lattice_interval.PAIR_FACE`).  A slice with t ≥ 1 is first bounded by the adaptive
  majorant of its plan (o fixed and n − t steps over {a, b}, in either order; :mod:`exactdp.measures.adaptive_profile`)
  and enclosed only when that bound reaches the best lower bound;
* **the tail** t ≥ T: every such composition is, reordered, n − t coordinates on the face and then t ≥ T in O (or
  the reverse), so its E_γ is at most the *switch majorant* of the two phases
  (:func:`~exactdp.measures.adaptive_profile.switch_majorant`: the maximum over every switch point at the cost of
  two recursions).  It is as tight as the slice of T coordinates in O: on seed 1039 of the random 3x3 kernels at
  γ = 2^400 it falls below the best at T = 5, where the earlier tail (T steps in O, then n − T over all classes,
  whose adaptive choice may return to O) stayed 4.6·10⁻⁴ higher and would have needed T ≈ 18.

With B the largest certified lower bound of the slices' enclosures, a slice or tail whose bound is below B holds no
maximiser: the slices' rows (every composition of an enclosed slice, with its bounds) then contain the maximum and
the first maximiser, and every other composition is ruled out.  T grows from 1 while the tail's bound reaches B, up
to :data:`MAX_T` (the tail is bounded again only once a whole t passes with no slice enclosed).  Each bound is
computed on a grid of 2^-5 nats first and refined (:data:`LEVELS`) only while the finer grids can still take it below
B.  On seed 1002 of ``bench_tensor.py --random-3x3-deltas`` at γ = 2^608, n = 1000 (best 0.48977 at the corner
(0, 1000, 0, 0)) the tail is settled at T = 2 and the two slices of t = 1 are ruled out by their own bounds.

Used by the simplex filter (:mod:`exactdp.measures.simplex_filter`) before its box search where the edge is flat
(:func:`flat_edge`), and after it where the box search stops at its budget; the box search's answers elsewhere are
unchanged.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from flint import fmpq

from exactdp.limits import ResourceLimitError, limit, require
from exactdp.measures.adaptive_profile import Plan, majorant, switch_majorant
from exactdp.measures.enclosure_routine import CompositionBounds, Losses
from exactdp.measures.lattice_interval import (
    PAIR_FACE,
    LatticeEnclosure,
    OverBudget,
    chernoff_bound,
    cut_below,
    shared_blocks,
)
from exactdp.numbers.qq import ZERO

#: the slices t < MAX_T are the most enclosed or bounded (with two classes in O: 2 + 3 + … + 8 = 35 slices beyond
#: the face).  Seed 1039 of the random 3x3 kernels at γ = 2^400 needs T = 5 (its off-face classes are nearly as
#: strong as the face's: the tail's bound falls by 1.2·10⁻⁴ per coordinate in O)
MAX_T = 8

#: a split whose rows hold more than this many compositions the lattice routine left without a lower bound (lo = 0)
#: and that reach the best lower bound stops: each would be a candidate for the exact search, which evaluates at
#: most composition_filter.MAX_CANDIDATES (64) of them.  On the near-equal 3×3 kernel (1/2, 3/10, 1/5) /
#: (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21) at n = 1000, γ = 2^5 (E_γ = 1 − 6.7·10⁻⁴), the face slice alone leaves 631
#: and each further slice adds 400–550: the split stops after the face, not after six slices
MAX_UNRESOLVED = 64
#: the split goes before the box search where the reverse corner's E_γ is at least this fraction of the best corner's
#: (:func:`flat_edge`).  On bench_tensor.py --random-3x3-deltas at n = 1000 the eight queries the box search could not
#: settle within max_work have 0.61–0.88, the 22 it settles 0.52 or less (0 where the best corner has no reverse class)
FLAT = fmpq(3, 5)
#: the split's bounds and slices together may spend this many times ``max_work`` (their estimates; each is also within
#: ``max_work`` alone): it runs only after the box search has spent its own budget
BUDGET_SHARE = 8
#: the grid steps 2^-bits nats a bound is tried on, in turn (each bit doubles the work and divides the chord excess by
#: about four: on seed 1039's corner at γ = 2^400, E_γ = 0.48671, the excess is 1.7·10⁻³, 3.8·10⁻⁴, 1.2·10⁻⁴ and
#: 2.1·10⁻⁵ at 5, 6, 7 and 8 bits; most slices are ruled out on the first)
LEVELS = (5, 6, 7, 8)
#: the slices' bounds, and the tail's below T = MAX_T, are refined up to 2^-SLICE_BITS only (a bound on the next grid
#: costs about as much as enclosing a slice)
SLICE_BITS = 7
#: a bound is refined while it is above the best lower bound by at most this multiple of the corner's fall to the next
#: level (the falls beyond it add about a third, and a plan's fall is 0.8–0.9 of the corner's on seed 1000 of the
#: random 3x3 kernels)
GAIN_FACTOR = fmpq(1)

Counts = tuple[int, ...]


def compositions(t: int, parts: int) -> list[Counts]:
    """Every tuple of ``parts`` non-negative counts summing to t, in lexicographic order."""
    if parts == 0:
        return [()] if t == 0 else []
    return [c for c in itertools.product(range(t + 1), repeat=parts) if sum(c) == t]


def _corner_lower_bounds(losses: Losses, n: int, gamma: fmpq) -> list[fmpq]:
    """Certified lower bounds of E_γ at the homogeneous corners (n coordinates of one class), each cut below its own
    Chernoff bound as the simplex filter's corners are."""
    enc = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks())
    out = []
    for loss in losses:
        ub = chernoff_bound([(loss, n)], gamma)
        out.append(enc.bounds([(loss, n)], gamma, cut_nats=cut_below(ub))[0])
    return out


def _spread(best: fmpq) -> float:
    """The majorants' window (in standard deviations of the privacy loss, :mod:`exactdp.measures.adaptive_profile`):
    what it cuts off weighs about e^{-spread²/2}, to be small against 10^-4·best — √(2 ln(1/best)) + 3, at least 5
    (5 at best ≈ 1/2, 6 at 0.013, 10 at 10^-11; measured: 5σ moves a bound at E_γ ≈ 0.013 by 10^-9, 8σ by nothing
    visible).  Tightness only: any window gives an upper bound."""
    return max(5.0, math.sqrt(2 * math.log(1 / float(best))) + 3) if best > 0 else 10.0


def flat_edge(losses: Losses, n: int, gamma: fmpq) -> bool:
    """Whether the best homogeneous corner's reverse class is a class whose corner has at least :data:`FLAT` of its
    E_γ (certified lower bounds of both): the edge between them is then flat enough that the box search is not
    expected to settle it, and the split goes first (an efficiency choice only; see :data:`FLAT`)."""
    try:
        lows = _corner_lower_bounds(losses, n, gamma)
    except (OverBudget, ResourceLimitError):
        return False
    a = max(range(len(losses)), key=lambda i: lows[i])
    rev = losses[a].reverse()
    return lows[a] > 0 and any(lows[i] >= FLAT * lows[a] for i in range(len(losses)) if i != a and losses[i] == rev)


def face(losses: Losses, n: int, gamma: fmpq) -> tuple[int, int]:
    """The face (a, b): a the class of the best homogeneous corner, b its reverse when it is a class, else the class
    of the second best corner."""
    lows = _corner_lower_bounds(losses, n, gamma)
    order = sorted(range(len(losses)), key=lambda i: -lows[i])
    a = order[0]
    rev = losses[a].reverse()
    b = next((i for i in range(len(losses)) if i != a and losses[i] == rev), order[1])
    return a, b


def _slice_rows(losses: Losses, n: int, a: int, b: int, O: Sequence[int], o: Counts, gamma: fmpq,
                spend: Callable[[int], None]) -> list[CompositionBounds] | None:
    """Every composition of the slice o (classes O at the counts o, the rest over {a, b}) with its bounds, from the
    lattice routine (:data:`~exactdp.measures.lattice_interval.PAIR_FACE`: also a face of two two-ratio losses); None
    where it does not apply."""
    t = sum(o)
    groups = [[a, b]] + [[c] for c, k in zip(O, o) if k]
    totals = [n - t] + [k for k in o if k]
    estimate = PAIR_FACE.estimate(losses, groups, totals)
    if estimate is None:
        return None
    require("max_work", estimate[0], f"face split: the slice {o} ({PAIR_FACE.name})")
    spend(estimate[0])
    return PAIR_FACE.enclose(losses, groups, totals, gamma)


class _Split:
    """The state of one face split (module docstring): the face (a, b) and the other classes O, the enclosed rows and
    the best lower bound among them, the work spent, the corner's bounds that calibrate the grid refinement, and which
    order of each family's plans has given the lower bound."""

    def __init__(self, losses: Losses, n: int, gamma: fmpq, a: int, b: int) -> None:
        self.losses, self.n, self.gamma, self.a, self.b = losses, n, gamma, a, b
        self.O = [i for i in range(len(losses)) if i not in (a, b)]
        self.rows: dict[Counts, tuple[fmpq, fmpq]] = {}
        self.best = ZERO
        self.spent = 0
        self.corner: dict[int, fmpq] = {}  # the majorant of the one-class plan a^n on the first two levels
        self.prefer: dict[str, int] = {}  # family → the option that was lowest on its first bound
        self.unresolved = 0  # rows without a lower bound that reach the best lower bound

    def spend(self, units: int) -> None:
        """Charge ``units`` to the split's budget, :data:`BUDGET_SHARE` × ``max_work`` over all its bounds and slices."""
        self.spent += units
        if self.spent > BUDGET_SHARE * limit("max_work"):
            raise ResourceLimitError(f"face split: {self.spent} work units exceed {BUDGET_SHARE} x max_work")

    def spread(self) -> float:
        return _spread(self.best)

    def gain(self, bits: int) -> fmpq:
        """How much lower a bound may get on the grids finer than 2^-bits: the corner a^n's fall from the first level
        to the second, times :data:`GAIN_FACTOR`, divided by 4 for each level beyond the first (the chord excess
        falls about fourfold per bit: 3.1–5.8× on seed 1039 of the random 3x3 kernels, 3.4–8.8× on seed 1000).  The
        corner's fall is about every plan's of the query and a little above it: 1.2·10⁻³ against 0.8–0.9·10⁻³ on
        seed 1000 at γ = 2^1274 (bits 5 → 6)."""
        first, second = LEVELS[0], LEVELS[1]
        for level in (first, second):
            if level not in self.corner:
                self.corner[level] = majorant(self.losses, [((self.a,), self.n)], self.gamma, step_bits=level,
                                              spend=self.spend, spread=self.spread())
        fall: fmpq = (self.corner[first] - self.corner[second]) * GAIN_FACTOR / 4 ** (bits - first)
        return fall

    def first(self, family: str, options: Sequence[Callable[[int], fmpq]]) -> tuple[fmpq, int]:
        """``(value, chosen)``: the bound of one family on the first grid of :data:`LEVELS` — the least of
        ``options`` (each computed for a grid of 2^-bits) the first time the family is bounded, afterwards the option
        that was lowest then (an efficiency choice: each is an upper bound)."""
        if family in self.prefer:
            chosen = self.prefer[family]
            return options[chosen](LEVELS[0]), chosen
        value, chosen = min((option(LEVELS[0]), i) for i, option in enumerate(options))
        self.prefer[family] = chosen
        return value, chosen

    def refine(self, option: Callable[[int], fmpq], value: fmpq, top: int) -> fmpq:
        """``value``, the first level's bound of ``option``, refined on the grids of :data:`LEVELS` up to 2^-top in
        turn, stopping where it is below the best lower bound, or above it by more than the finer grids can gain
        (:meth:`gain`), or where the next level's work is over a limit (an efficiency choice: each is an upper
        bound)."""
        for bits in LEVELS[1:]:
            if bits > top or value < self.best or value - self.best > self.gain(bits - 1):
                break
            try:
                value = option(bits)
            except ResourceLimitError:  # this grid's work is over max_work or the split's share: keep the last
                break
        return value

    def slice_options(self, o: Counts) -> list[Callable[[int], fmpq]]:
        """The adaptive majorant of the slice o (n − t steps over the face, the classes of O at their counts), in
        either order: which is lower depends on the kernel (the classes of O first by 2–6·10⁻⁵ on seeds 1000 and
        1002 of the random 3x3 kernels, last by 9·10⁻⁵ on seed 1039)."""
        others: list[tuple[Sequence[int], int]] = [((cls,), k) for cls, k in zip(self.O, o) if k]
        face: list[tuple[Sequence[int], int]] = [((self.a, self.b), self.n - sum(o))]

        def bound(plan: Plan) -> Callable[[int], fmpq]:
            return lambda bits: majorant(self.losses, plan, self.gamma, step_bits=bits, spend=self.spend,
                                         what="face split: a slice bound", spread=self.spread())
        return [bound(others + face), bound(face + others)]

    def tail_bound(self, T: int, last: int) -> fmpq:
        """The switch majorant of every composition with T or more coordinates in O, in either order; refined up to
        :data:`SLICE_BITS` (beyond it, going on to the slices of t = T is cheaper), to the last level at the last T."""
        face = (self.a, self.b)

        def switch(first: Sequence[int], second: Sequence[int], least_first: int, least_second: int
                   ) -> Callable[[int], fmpq]:
            return lambda bits: switch_majorant(self.losses, first, second, self.n, self.gamma,
                                                least_first=least_first, least_second=least_second, step_bits=bits,
                                                spend=self.spend, what="face split: the tail", spread=self.spread())
        options = [switch(self.O, face, T, 0), switch(face, self.O, 0, T)]
        value, chosen = self.first("tail", options)
        return self.refine(options[chosen], value, LEVELS[-1] if T == last else SLICE_BITS)

    def enclose(self, o: Counts) -> bool:
        """Enclose every composition of the slice o (:func:`_slice_rows`) into the rows; False where it cannot be, or
        where more than :data:`MAX_UNRESOLVED` rows are left without a lower bound and reach the best lower bound."""
        found = _slice_rows(self.losses, self.n, self.a, self.b, self.O, o, self.gamma, self.spend)
        if found is None:
            return False
        for k, lo, hi in found:
            self.rows[k] = (lo, hi)
            self.best = max(self.best, lo)
        self.unresolved = sum(1 for lo, hi in self.rows.values() if lo == 0 and hi >= self.best)
        return self.unresolved <= MAX_UNRESOLVED

    def settle_slices(self, t: int) -> bool | None:
        """Rule out or enclose every slice of t coordinates in O: their bounds on the first grid, then from the
        highest down each refined up to :data:`SLICE_BITS` against the best lower bound so far (an enclosure raises
        it; beyond that grid, enclosing is cheaper) and enclosed if it still reaches it.  True when one was enclosed,
        None when one could not be, or when every slice of a t ≥ 2 had to be: E_γ is then as flat off the face as on
        it, and the tail will not settle within :data:`MAX_T` (a 3×3 kernel of near-equal rows, (1/2, 3/10, 1/5) /
        (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21) at n = 1000, γ = 2^20: 24 slices enclosed before the split
        stopped at its budget) — an efficiency choice: the box search takes over, as after any split that stops."""
        pending = []
        for o in compositions(t, len(self.O)):
            options = self.slice_options(o)
            value, chosen = self.first("slice", options)
            pending.append((value, o, options[chosen]))
        enclosed = 0
        for value, o, option in sorted(pending, key=lambda p: p[0], reverse=True):
            if self.refine(option, value, SLICE_BITS) >= self.best:
                enclosed += 1
                if not self.enclose(o):
                    return None
        if t >= 2 and enclosed == len(pending):  # flat in every direction off the face: the tail will not settle
            return None
        return enclosed > 0

    def run(self, bracket: list[tuple[fmpq, fmpq]] | None) -> bool:
        """Settle the split: True when the tail is ruled out; False when it stays open at :data:`MAX_T` (its bracket
        appended) or a slice cannot be enclosed."""
        if not self.enclose((0,) * len(self.O)):
            return False
        quiet = True  # no slice of the last t reached the best lower bound: the tail is likely below it now
        last = min(MAX_T, self.n)  # the tail of T = n is the one composition of n coordinates in O
        for T in range(1, last + 1):
            if quiet or T == last:
                tail = self.tail_bound(T, last)
                if tail < self.best:
                    return True
                if T == last:
                    if bracket is not None:
                        bracket.append((self.best, max([tail, *(hi for _, hi in self.rows.values())])))
                    return False
            enclosed = self.settle_slices(T)
            if enclosed is None:
                return False
            quiet = not enclosed
        raise AssertionError("unreachable: the last T returns")


def face_split(losses: Losses, n: int, gamma: fmpq, *, bracket: list[tuple[fmpq, fmpq]] | None = None,
               unresolved: list[int] | None = None) -> tuple[list[CompositionBounds], int] | None:
    """``(rows, ruled_out)`` as the simplex filter's candidates hook gives them (module docstring): the rows of the
    enclosed slices in enumeration order, the number of the other compositions, every one of which has E_γ below
    the best lower bound; None when the tail is not settled by T = :data:`MAX_T` or a slice cannot be enclosed.
    When it is the tail that stays open, every slice below T having been enclosed or ruled out, ``(lower, upper)``
    with lower ≤ δ_n(γ) ≤ upper is appended to ``bracket``: the best lower bound, and the largest of the tail's bound
    and the enclosed rows' upper bounds.  When it stops at more than :data:`MAX_UNRESOLVED` rows without a lower
    bound, their number is appended to ``unresolved``."""
    c = len(losses)
    if c < 3:
        return None
    try:
        split = _Split(losses, n, gamma, *face(losses, n, gamma))
        if not split.run(bracket):
            if unresolved is not None and split.unresolved > MAX_UNRESOLVED:
                unresolved.append(split.unresolved)
            return None
    except (OverBudget, ResourceLimitError):
        return None
    total = math.comb(n + c - 1, c - 1)
    ordered = [(k, lo, hi) for k, (lo, hi) in sorted(split.rows.items())]
    return ordered, total - len(ordered)
