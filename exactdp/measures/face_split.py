r"""The face split: δ_n(γ) of a kernel with three or more pair classes, from one pair face and a few exact slices.

δ_n(γ) = η_{E_γ}(K^{⊗n}) is the maximum of E_γ over the compositions k of n over the pair classes ([A] Thm 1,
docs/claims.md B-10).  Where E_γ is flat along the edge between a pair class a and its reverse b (E_γ within a few
per cent over hundreds of compositions) the box bounds of :mod:`exactdp.measures.simplex_filter` cannot separate the
boxes along that edge from the maximum.  The *face split* partitions the compositions by their counts o on the other
classes O (t = Σ o):

* **the slices** t < T, one for each o: the compositions (o, k_a, n − t − k_a), a pair of classes varied with the
  classes of O fixed — exactly the two-class structure the lattice routine encloses at the speed of a row pair
  (:data:`exactdp.measures.lattice_interval.PAIR_FACE`).  A slice with
  t ≥ 1 is first bounded by the adaptive majorant of its plan (o fixed, then n − t steps over {a, b};
  :mod:`exactdp.measures.adaptive_profile`) and enclosed only when that bound reaches the best lower bound;
* **the tail** t ≥ T: every such composition has T coordinates in O and n − T anywhere, so its E_γ is at most the
  adaptive majorant of the plan (O for T steps, all classes for n − T), in either order (both are computed where the
  first does not settle it).

With B the largest certified lower bound of the slices' enclosures, a slice or tail whose bound is below B holds no
maximiser: the slices' rows (every composition of an enclosed slice, with its bounds) then contain the maximum and
the first maximiser, and every other composition is ruled out.  T grows from 1 while the tail's bound reaches B, up
to :data:`MAX_T`.  On seed 1002 of ``bench_tensor.py --random-3x3-deltas`` at γ = 2^608, n = 1000 (best 0.48977 at
the corner (0, 1000, 0, 0)) the tail bound is about 0.4904 at T = 1 and 0.4896 at T = 2: the face is enclosed and
the two slices of t = 1 are ruled out by their own bounds.

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
from exactdp.measures.adaptive_profile import majorant, majorants
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

#: the slices t < MAX_T are the most enclosed (with two classes in O: 1 + 2 + 3 + 4 = 10 slices)
MAX_T = 4

#: the split goes before the box search where the reverse corner's E_γ is at least this fraction of the best corner's
#: (:func:`flat_edge`).  On bench_tensor.py --random-3x3-deltas at n = 1000 the eight queries the box search could not
#: settle within max_work have 0.61–0.88, the 22 it settles 0.52 or less (0 where the best corner has no reverse class)
FLAT = fmpq(3, 5)
#: the split's bounds and slices together may spend this many times ``max_work`` (their estimates; each is also within
#: ``max_work`` alone): it runs only after the box search has spent its own budget
BUDGET_SHARE = 8
#: the grid step 2^-COARSE_BITS nats of a first, cheaper try of each bound (its chord excess is about four times the
#: default grid's; most slices are ruled out with margins of 10^-3 relative or more)
COARSE_BITS = 5
#: the grid step of the second try: within 10^-5–6·10^-5 of the default 2^-7 on the refused queries of
#: ``bench_tensor.py --random-3x3-deltas`` at half its work
FINE_BITS = 6

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


def face_split(losses: Losses, n: int, gamma: fmpq, *,
               bracket: list[tuple[fmpq, fmpq]] | None = None) -> tuple[list[CompositionBounds], int] | None:
    """``(rows, ruled_out)`` as the simplex filter's candidates hook gives them (module docstring): the rows of the
    enclosed slices in enumeration order, the number of the other compositions, every one of which has E_γ below
    the best lower bound; None when the tail is not settled by T = :data:`MAX_T` or a slice cannot be enclosed.
    When it is the tail that stays open, every slice below T having been enclosed or ruled out, ``(lower, upper)``
    with lower ≤ δ_n(γ) ≤ upper is appended to ``bracket``: the best lower bound, and the largest of the tail's bound
    and the enclosed rows' upper bounds."""
    c = len(losses)
    if c < 3 or n <= MAX_T:  # the tails need n − T ≥ 0 steps for every T ≤ MAX_T; the box search takes small n
        return None
    try:
        a, b = face(losses, n, gamma)
    except (OverBudget, ResourceLimitError):
        return None
    O = [i for i in range(c) if i not in (a, b)]
    everyone = tuple(range(c))
    rows: dict[Counts, tuple[fmpq, fmpq]] = {}
    best = ZERO

    spent = [0]

    def spend(units: int) -> None:
        """Charge ``units`` to the split's budget, :data:`BUDGET_SHARE` × ``max_work`` over all its bounds and slices."""
        spent[0] += units
        if spent[0] > BUDGET_SHARE * limit("max_work"):
            raise ResourceLimitError(f"face split: {spent[0]} work units exceed {BUDGET_SHARE} x max_work")

    gain: list[fmpq] = []  # how much lower the fine grid's bound is than the coarse one's, on the corner a^n

    def grid_gain() -> fmpq:
        """The fine grid's gain over the coarse one on the one-class plan a^n (a quarter of a four-class bound's
        work).  It is about the gain of every plan of the query and a little above it: 1.2·10⁻³ against 0.8–0.9·10⁻³
        on seed 1000 at γ = 2^1274, 3.2·10⁻⁴ against 2.7·10⁻⁴ on seed 1002 at 2^637."""
        if not gain:
            corner = [((a,), n)]
            gain.append(majorant(losses, corner, gamma, step_bits=COARSE_BITS, spend=spend, spread=_spread(best))
                        - majorant(losses, corner, gamma, step_bits=FINE_BITS, spend=spend, spread=_spread(best)))
        return gain[0]

    def bound(plan: Sequence[tuple[Sequence[int], int]]) -> fmpq:
        """The adaptive majorant of ``plan`` at γ: on the coarse grid (:data:`COARSE_BITS`, half the work), then on
        the fine one (:data:`FINE_BITS`) unless the coarse bound is above the best lower bound by more than the
        fine grid's gain (:func:`grid_gain`), so that the fine bound would not get below it either (an efficiency
        choice: either is an upper bound)."""
        coarse = majorant(losses, plan, gamma, step_bits=COARSE_BITS, what="face split: a bound", spend=spend,
                          spread=_spread(best))
        if coarse < best or coarse - best > grid_gain():
            return coarse
        return majorant(losses, plan, gamma, step_bits=FINE_BITS, what="face split: a bound", spend=spend,
                        spread=_spread(best))

    def enclose(o: Counts) -> bool:
        nonlocal best
        found = _slice_rows(losses, n, a, b, O, o, gamma, spend)
        if found is None:
            return False
        for k, lo, hi in found:
            rows[k] = (lo, hi)
            best = max(best, lo)
        return True

    try:
        if not enclose((0,) * len(O)):
            return None
        weak: list[fmpq] = []  # the tails in the order O last, for every T at once (one shared recursion)
        for T in range(1, MAX_T + 1):
            if not weak:
                weak = majorants(losses, [(everyone, n - MAX_T)], gamma, step_bits=FINE_BITS, spend=spend,
                                 spread=_spread(best),
                                 what="face split: the tails",
                                 tails=[[(everyone, MAX_T - t), (O, t)] for t in range(1, MAX_T + 1)])
            tail = weak[T - 1]
            if tail >= best:
                tail = min(tail, bound([(O, T), (everyone, n - T)]))
            if tail >= best:
                if T == MAX_T:
                    if bracket is not None:
                        bracket.append((best, max([tail, *(hi for _, hi in rows.values())])))
                    return None
                # the slices of t = T: bounded first, enclosed where the bound reaches the best lower bound
                pending = []
                for o in compositions(T, len(O)):
                    plan_o = [((cls,), k) for cls, k in zip(O, o) if k] + [((a, b), n - T)]
                    pending.append((bound(plan_o), o))
                for upper, o in sorted(pending, reverse=True):
                    if upper >= best and not enclose(o):
                        return None
                continue
            break
    except (OverBudget, ResourceLimitError):
        return None
    total = math.comb(n + c - 1, c - 1)
    ordered = [(k, lo, hi) for k, (lo, hi) in sorted(rows.items())]
    return ordered, total - len(ordered)
