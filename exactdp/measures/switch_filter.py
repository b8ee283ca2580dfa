r"""The certified composition filter for a row pair whose loss has four ratio classes (a 2×4 kernel).

δ_n(γ) = η_{E_γ}(K^{⊗n}) over all input sequences of a kernel whose row pairs leave two pair classes — a pair (x, x')
and its reverse — is the maximum over k of E_γ(c_k), c_k = k coordinates of one class and n − k of the other ([A]
Thm 1, docs/claims.md B-10, D-7).  With four distinct likelihood ratios (log-ratios of lattice rank D ≥ 2) a mixed
composition has O(n³) merged type classes (6.7·10⁸ at n = 1000) and no lattice enclosure
(:mod:`exactdp.measures.lattice_interval` needs losses of at most three ratio classes), so the compositions cannot be
enclosed one by one as the other routines of :mod:`exactdp.measures.composition_filter` do.  This routine needs only two kinds of numbers:

* **A homogeneous corner, exactly**: k = n (all coordinates in one class) is one loss, conditioned on one class and
  streamed (:mod:`exactdp.measures.quadrinomial`); its value is the best lower bound β of the maximum.  The corner
  guessed larger (the larger of the two corners' majorants on the coarsest grid) is evaluated; the other corner,
  k = 0, is in the first range below and is evaluated exactly only where no bound rules it out — if it is the larger
  after all, the search runs again from it.
* **One upper bound for a whole range of compositions**: every c_k with u ≤ k ≤ w (k counting the best corner's
  class) is, reordered, k coordinates of that class then n − k of the other, so
  :func:`~exactdp.measures.adaptive_profile.switch_majorant` (best class first, at least u of it and n − w of the
  other) bounds them all with two grid recursions.

A range whose bound is below β is ruled out whole: every composition in it has E_γ ≤ bound < β ≤ the maximum.  All of
0 ≤ k ≤ n − 1 is tried first on the coarsest grid (2⁻⁵ nats); a bound above β is refined (2⁻⁶ … 2⁻⁹ nats) while a
third of its last fall could still take it below β — the grid's chord excess falls about fourfold per bit, so the
finer grids together remove about a third of the last fall again; the refinement goes straight to the coarsest level
that this predicts to suffice — and otherwise the range is split in two, the half next to the best corner first.  On seed 0 of the random 2×4 pairs at n = 1000 the first bound already separates:
0.99939·β at γ = 2^433, 0.9958·β at γ = 2^350 one bit finer.

What is left when the budget ends — a composition off the corners that no grid separates from β, e.g. a maximum in
the middle of a near-symmetric pair, or every composition at γ near 1 where all bounds are capped at 1 — is returned
as candidates with the trivial lower bound 0 and the range's bound as upper end; the search then evaluates them
exactly under its own cost guard (a mixed composition of two four-class losses is over it at n = 1000: such a query
is refused, never guessed).
"""

from __future__ import annotations

import math

from flint import fmpq

from exactdp.limits import ResourceLimitError, limit, require
from exactdp.measures.adaptive_profile import switch_cost, switch_majorant
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals
from exactdp.measures.privacy_loss import binomial_linear_piece, trinomial_linear_piece
from exactdp.measures.quadrinomial import quadrinomial_cost, quadrinomial_linear_piece, quadrinomial_loss
from exactdp.numbers.qq import ZERO

#: the grid levels of one range's bound, coarsest first (step 2^-bits nats)
LEVELS = (5, 6, 7, 8, 9)
#: majorant calls one query may spend (each two grid recursions of n steps) before the ranges left are returned open
MAX_CALLS = 24


def _applies(losses: Losses, groups: Groups, totals: Totals) -> tuple[list[int], int] | None:
    """``(members, n)``: one factor whose pair classes (two or more) have losses of two to four finite ratio classes, one
    at least of four classes of lattice rank D ≥ 2 (:mod:`exactdp.measures.quadrinomial`; all of three or fewer: the
    two- and three-ratio routines and the simplex; rank one: the exponent sums of every composition); None otherwise."""
    if len(groups) != 1 or len(groups[0]) < 2 or totals[0] < 1:
        return None
    members, n = list(groups[0]), totals[0]
    if any(not 2 <= len(losses[c].classes) <= 4 for c in members):
        return None
    if all(quadrinomial_loss([(losses[c], n)]) is None for c in members):
        return None
    return members, n


def _estimate(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """(work, memory): the guess (one homogeneous majorant per class) and one range call on the coarsest grid (it
    usually settles every composition off the best corner; each further call is charged by the majorant itself, the
    whole search stopped at ``max_work``); memory the grid's float arrays.  Each corner's exact evaluation is charged by :func:`_corner` at γ, before it
    starts."""
    found = _applies(losses, groups, totals)
    if found is None:
        return None
    members, n = found
    guesses = sum(switch_cost(losses, [c], [c], n, fmpq(1), step_bits=LEVELS[0]) for c in members)
    per_call = switch_cost(losses, members[:1], members[1:], n, fmpq(1), step_bits=LEVELS[0])
    return guesses + per_call, 64 * per_call // n + 64_000


def _not_listed(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> list[CompositionBounds]:
    raise ResourceLimitError("switch_filter: the compositions are bounded by ranges; the routine's candidates hook "
                             "gives the ones not ruled out")


def _corner(losses: Losses, c: int, n: int, gamma: fmpq) -> fmpq:
    """E_γ of the homogeneous composition of n coordinates of class c, exactly (one streamed loss: conditioned slices
    for four ratio classes, slices for three, a binomial sum for two), after its cost guard (``max_work``; four
    classes charged for the rows they stream at this γ, the others as the slices of tensor_search's estimate)."""
    loss = losses[c]
    require("max_work", quadrinomial_cost(loss, n, gamma=gamma)[2] if len(loss.classes) == 4 else 20_000 * (n + 1),
            f"switch filter: the homogeneous composition at n = {n}")
    if len(loss.classes) == 4:
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
                 other: fmpq | None = None) -> None:
        self.losses, self.b, self.others, self.n, self.gamma, self.best = losses, b, others, n, gamma, best
        self.open: dict[int, fmpq] = {}  # k -> upper bound, compositions left open
        self.ruled_out = 0
        self.other = other
        self.calls, self.spent = 0, 0

    def _other(self) -> None:
        if len(self.others) > 1:
            self.open[0] = fmpq(1)
        elif self.other is None:
            self.other = _corner(self.losses, self.others[0], self.n, self.gamma)

    def spend(self, work: int) -> None:
        self.spent += work

    def settle(self) -> None:
        n, best = self.n, self.best
        if n == 0:
            return
        # none where β is within the finest grid's excess of 1 (γ near 1: every bound is capped at 1)
        if best >= 1 - fmpq(8, 1 << (2 * LEVELS[-1])):
            self.open.update((k, fmpq(1)) for k in range(1, n))
            self._other()
            return
        # (u, w, level index, (the range's bound at a coarser level, the bits between), the last bit's fall if known)
        todo: list[tuple[int, int, int, tuple[fmpq, int] | None, fmpq | None]] = []
        if n >= 2 or self.other is None:
            todo.append((0 if self.other is None else 1, n - 1, 0, None, None))
        budget = max(limit("max_work"), 1)
        while todo:
            u, w, level, prev, hint = todo.pop()
            if u == w == 0:  # the other corner alone: its exact value (cheaper than the finer grids)
                self._other()
                continue
            if self.calls >= MAX_CALLS or self.spent >= budget:
                self.open.update((k, fmpq(1)) for k in range(max(u, 1), w + 1))
                if u == 0:
                    self._other()
                continue
            self.calls += 1
            try:
                bound = switch_majorant(self.losses, [self.b], self.others, n, self.gamma, least_first=u,
                                        least_second=n - w, step_bits=LEVELS[level], what="switch filter",
                                        spend=self.spend)
            except ResourceLimitError:  # this grid is over max_work (charged before any work): the range stays open
                self.open.update((k, fmpq(1)) for k in range(max(u, 1), w + 1))
                if u == 0:
                    self._other()
                continue
            if bound < best:
                self.ruled_out += w - u + 1
                continue
            fall = hint if prev is None else _last_fall(prev[0] - bound, prev[1])  # the last bit's gain
            finer = len(LEVELS) - 1 - level
            if finer and fall is None:  # one bit finer, to learn the fall
                todo.append((u, w, level + 1, (bound, 1), None))
            elif finer and fall is not None and bound - fall / 3 < best:
                # the finer grids remove about a third of the last fall again (fourfold less per bit): go straight to
                # the coarsest level whose predicted bound is below β (the finest if none is)
                bits = next((j for j in range(1, finer + 1) if bound - fall / 3 * (1 - fmpq(1, 4 ** j)) < best), finer)
                todo.append((u, w, level + bits, (bound, bits), None))
            elif u < w:
                mid = (u + w) // 2
                todo.append((u, mid, level, None, fall))
                todo.append((mid + 1, w, level, None, fall))  # popped first: the half next to the best corner (k = n)
            else:
                self.open[u] = bound


def _last_fall(drop: fmpq, bits: int) -> fmpq:
    """The fall of the last of ``bits`` grid bits whose falls sum to ``drop`` and shrink fourfold per bit."""
    first: fmpq = drop * 3 / (4 * (1 - fmpq(1, 4 ** bits)))
    return first / fmpq(4 ** (bits - 1))


def _guess(losses: Losses, members: list[int], n: int, gamma: fmpq) -> list[int]:
    """The classes in the order of their homogeneous compositions' majorants on the coarsest grid, largest first: the
    likely largest corner first (a choice of order only: with two classes a wrong guess costs the other corner's exact
    value and a second pass)."""
    bounds = [switch_majorant(losses, [c], [c], n, gamma, step_bits=LEVELS[0], what="switch filter") for c in members]
    return [c for _, c in sorted(zip(bounds, members), key=lambda item: -item[0])]


def _candidates(losses: Losses, groups: Groups, totals: Totals,
                gamma: fmpq) -> tuple[list[CompositionBounds], int] | None:
    """The corners (point enclosures where evaluated) and the compositions no range bound ruled out (module docstring),
    as rows in the order of :func:`~exactdp.measures.tensor_search.all_compositions`, and the number ruled out.  The
    corner guessed larger (:func:`_guess`) is evaluated first.  Two classes: the other corner only where no bound rules
    it out, and if it is the larger after all the search runs again from it; the rows are k of class i = 0..n.  Three
    or more: every composition but the corner must be ruled out (the simplex cannot be listed), else None."""
    found = _applies(losses, groups, totals)
    if found is None:
        return None
    members, n = found
    order = _guess(losses, members, n, gamma)
    b, others = order[0], order[1:]
    ranges = _Ranges(losses, b, others, n, gamma, _corner(losses, b, n, gamma))
    ranges.settle()
    if len(members) > 2:
        if ranges.open:
            return None
        counts = [0] * len(losses)
        counts[b] = n
        return [(tuple(counts), ranges.best, ranges.best)], math.comb(n + len(members) - 1, len(members) - 1) - 1
    i, j = members
    if ranges.other is not None and ranges.other > ranges.best:  # the guess was wrong: again from the larger corner
        ranges = _Ranges(losses, others[0], [b], n, gamma, ranges.other, ranges.best)
        ranges.settle()
    rows: list[CompositionBounds] = []
    values = {n: ranges.best}
    if ranges.other is not None:
        values[0] = ranges.other
    for k_i in range(n + 1):  # k_i = count of class i, the enumeration order
        counts = [0] * len(losses)
        counts[i], counts[j] = k_i, n - k_i
        k = k_i if ranges.b == i else n - k_i
        if k in values:
            rows.append((tuple(counts), values[k], values[k]))
        elif k in ranges.open:
            rows.append((tuple(counts), ZERO, ranges.open[k]))
    return rows, ranges.ruled_out


SWITCH = EnclosureRoutine("four ratio classes (switch majorant)", _estimate, _not_listed,
                          candidates=_candidates)
