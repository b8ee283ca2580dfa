r"""The certified composition filter for three or more pair classes of one factor (a 3×3 kernel's row pairs).

δ_n(γ) = η_{E_γ}(K^{⊗n}) is the maximum of E_γ(c) over the compositions c = (k_1, …, k_c), Σ k_i = n, of n over
the pair classes left after domination pruning ([A] Thm 1, docs/claims.md B-10, D-7).  With c ≥ 3 classes there
are C(n + c − 1, c − 1) compositions (1.7·10⁸ for c = 4 at n = 10³), far too many to enclose one by one as the
two-class routines of :mod:`exactdp.measures.composition_filter` and :mod:`exactdp.measures.lattice_interval` do.
This routine is a best-first branch and bound over *boxes* lo ≤ k ≤ hi of the simplex:

* **Chernoff bound of a box** (no added coordinates).  For every s ≥ 0, E_γ(c) ≤ p_∞(c) + c(s)γ^{−s}Π_i M_i(s)^{k_i}
  (:func:`~exactdp.measures.lattice_interval.chernoff_bound`); its logarithm is linear in k at fixed s and
  log(1 − p_∞(c)) is linear in k too, so over the polytope {lo ≤ k ≤ hi, Σ k = n} both are largest at a vertex:
  the bound at one s maximised over the polytope's vertices (:func:`vertices`, at most c·2^{c−1}) bounds every
  composition of the box.
* **The profile bound** (:mod:`exactdp.measures.profile_bound`): with A the class of the box's largest lower count
  lo_A ≥ :data:`_MIN_BASE` and b ≤ lo_A, E_γ(c) ≤ p_∞ + γ^{−s}C_b(s)M_A(s)^{k_A−b}Π_{i≠A} M_i(s)^{k_i}, C_b(s) =
  sup_t t^s F_t(L_A^{⊗b}) from the lattice atoms of b coordinates — linear in k after the logarithm, so again maximised
  over the vertices.  Only the k_A − b and the minor coordinates pay Chernoff slack, not the dominant block: near a
  homogeneous maximum at n = 10³ the bound is within 1–2 % of E_γ where the Chernoff bound is a factor 9 above it.
  Tried on every box and leaf whose Chernoff bound reaches the best lower bound, before the top corner; its search of
  s stops at the first s whose bound is below the best lower bound (any s gives a bound).
* **A two-class base** (:func:`~exactdp.measures.profile_bound.base_box_bound`): a box the profile bound leaves open,
  with A, B its two largest lower counts, gets p_∞ + γ^{−s}C(s)M_A(s)^{k_A−a}M_B(s)^{k_B−b}Π_{i≠A,B} M_i(s)^{k_i}, C(s)
  the tilted profile of L_A^{⊗a} ⊗ L_B^{⊗b} from the product of the two lattice blocks (:func:`_pair_block`): along a
  *flat edge* between a pair class and its reverse (E_γ within a few per cent over many compositions) the reverse
  class's coordinates then pay no Chernoff slack either.  The base keeps the atoms of large *tilted* mass
  P_x P_y (r_x r_y)^s at the box's Chernoff exponent s (:func:`_tilted_pair_block`: the pairs of two blocks kept by
  tilted mass): C(s) is made by them, and any kept set gives a bound (the rest through the moments).  On seed 1002
  of bench_tensor.py --random-3x3 at n = 100 it is 3–7 % above E_γ along the edge where the base kept by P-mass at the
  same 8-nat cut is 9–14 % above it.  Only where the two blocks form at most :data:`_MAX_PAIRS` pairs of atoms (larger
  products cost more than the splits they save).
* **The Blackwell-join bound** (:func:`join_bound`): with S the classes free in the box and w = n − Σ lo, every
  composition is a garbling of lo ⊗ J_S^{⊗w} (J_S the join of the L_i, i ∈ S, :mod:`exactdp.measures.blackwell_join`),
  so E_γ over the box is at most E_γ(lo ⊗ Y), Y a dichotomy of at most :data:`_JOIN_KEEP` ratio classes dominating
  J_S^{⊗w}; E_γ(lo ⊗ Y) = p_Y + Σ_r P_r E_{γ/r}(lo) takes one lattice sweep of lo's blocks per class of Y (small
  lower counts past the two largest are left free where their product block would be costly: two blocks).  Where E_γ
  is flat along the edge between a pair class and its reverse (E_γ ≈ 1/2 at n = 1000) it is the bound that prunes
  the boxes next to the maximum (0.46–0.486 against a best 0.49 at w ≤ 44, where the profile bounds give 0.55–0.66);
  tried on boxes of w ≤ :data:`_JOIN_MAX_W` only (0.55 at w = 90, 0.91 at w = 499), and only where the best lower
  bound is at least :data:`_JOIN_MIN_BEST`.
* **Data processing at the top corner.**  Every composition of the box has k ≤ hi coordinate-wise, so
  E_γ(c) ≤ E_γ(hi) (adding coordinates never lowers E_γ), enclosed by the lattice bounds
  (:meth:`~exactdp.measures.lattice_interval.LatticeEnclosure.bounds`; more than two classes paired by product
  blocks).  Taken only where the Chernoff bound of the top corner is within :data:`_HOPELESS` of the best lower
  bound (an efficiency choice: every box is bounded before it is discarded).
* **Leaves** (single compositions) get the lattice bounds at the cut of the search (:data:`FILTER_CUT_NATS` plus
  log(1/best lower bound)), refined to a relative width 2⁻⁴⁰ when they reach the best lower bound.
* **First lower bounds**: the c homogeneous corners (each cut below its own Chernoff bound, as the two-class search
  does), so a box is compared with the best homogeneous value from the start.  Past n = 200 a best lower bound within
  2⁻²⁰ of 1 stops the search at once, as in :mod:`exactdp.measures.lattice_interval` (γ = 1 at large n: every
  composition's E_γ is near 1 and nothing cheap separates them).

A box whose bound is below the best lower bound is discarded whole; the result lists only the leaves that were
enclosed (``(counts, lo, hi)``, in the order of :func:`exactdp.measures.tensor_search.all_compositions`: the
lexicographic order of the count tuples) with the number of compositions ruled out, through the routine's
``candidates`` hook (:class:`~exactdp.measures.enclosure_routine.EnclosureRoutine`); every discarded composition
has E_γ ≤ its box's bound < the best lower bound ≤ the maximum, so the maximum over the kept leaves is the maximum
over all compositions (the first maximiser in enumeration order included: a maximiser is never discarded, ties
kept).  When the work reaches its budget (``max_work``, or twice the estimate) before every box is settled — or
before the box search where the edge between the best corner's class and its reverse is flat
(:func:`~exactdp.measures.face_split.flat_edge`), and for the corner filter also where its first bound costs no more
than the box search's estimate (:func:`_corner_cost`) — two routines are tried in turn:

* the **corner filter** (:func:`~exactdp.measures.corner_filter.corner_candidates`): the best homogeneous corner and
  the compositions of 1 … t coordinates next to it enclosed one by one by the lattice routine, every other
  composition ruled out by *phase majorants* (:func:`~exactdp.measures.adaptive_profile.phase_majorant`: one class
  per phase, in a fixed order, only the switch times adaptive).  It settles kernels of near-equal rows, where E_γ is
  as flat off the best face as on it: (1/2, 3/10, 1/5) / (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21) at n = 1000,
  γ = 2^10 … 2^160, each exact;
* the **face split** (:mod:`exactdp.measures.face_split`): the pair face of the best corner and a few slices next to
  it enclosed by the two-class lattice routine, everything else ruled out by adaptive-composition majorants
  (:mod:`exactdp.measures.adaptive_profile`) — this is what settles a flat edge between a pair class and its
  reverse whose maximum is not at a corner, where no box bound separates the boxes along the edge from the maximum.

When neither settles them, the routine returns None — the search then refuses under its own cost guard; nothing is
guessed.

Applies to one factor whose row pairs leave three or more pair classes, each loss with at most three finite ratio
classes (every row pair of a kernel with at most three outputs) and class masses ≥ 2⁻¹⁰⁰⁰ (floats of the lattice
atoms); more outputs (a loss of four or more ratio classes: the lattice atoms are two-dimensional only) and products
of several multi-class kernels are not covered.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.limits import ResourceLimitError, limit, require
from exactdp.measures.adaptive_profile import phase_cost
from exactdp.measures.blackwell_join import coarse_power, join
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals
from exactdp.measures.face_split import face_split, flat_edge
from exactdp.measures.lattice_interval import (
    CUT_NATS,
    CUT_STEP,
    FILTER_CUT_NATS,
    MIN_MASS,
    NEAR_ONE,
    NEAR_ONE_N,
    PER_ATOM,
    PER_PAIR,
    REFINE,
    S_GRID,
    U,
    Block,
    LatticeEnclosure,
    OverBudget,
    atom_estimate,
    bounds_many_work,
    chernoff_bound,
    cut_below,
    grid_exponents,
    leaf_cut,
    product_block,
    product_work,
    quantized,
    shared_blocks,
)
from exactdp.measures.privacy_loss import PairLoss
from exactdp.measures.profile_bound import S_STEPS, base_box_bound, profile_box_bound, s_of
from exactdp.measures.corner_filter import LEVELS as CORNER_LEVELS
from exactdp.measures.corner_filter import corner_candidates
from exactdp.numbers.digits import directed_digits
from exactdp.numbers.memo import Memo, limits_in_force
from exactdp.numbers.qq import ONE, ZERO

#: class counts of a composition, and a box (lower, upper counts)
Counts: TypeAlias = tuple[int, ...]
Box: TypeAlias = tuple[Counts, Counts]
#: the top corner of a box gets its lattice bound only when its Chernoff bound is at most this multiple of the best
#: lower bound (the Chernoff bound is within a small factor of E_γ at moderate deviations; efficiency only)
_HOPELESS = 4
#: the top corner is also skipped when its Chernoff bound over the corners' Chernoff-to-value ratio (a prediction
#: of E_γ there) is above the best lower bound: it would not prune the box (as lattice_interval._PREDICT)
_PREDICT = fmpq(98, 100)
#: work units (``max_work``) per product of a Chernoff bound (a few arb powers and a float scan of the grid of s: as
#: long as about 12 000 units of the lattice bounds, measured in one run on seed 1000 of benchmarks/bench_tensor.py
#: --random-3x3 at n = 30); charged to the search's budget with the lattice work, so a search that prunes nothing (E_γ
#: near 1) stops at max_work too
_PER_CHERNOFF = 12_000
#: the profile bound (:func:`_profile_bound`) is tried on a box whose largest lower count is at least this (below it the
#: dominant block's √k slack is small and the Chernoff bound and the top corner do as well)
_MIN_BASE = 32
#: the base b of the dominant block is its lower count rounded down to 2^(bits − _BASE_BITS) (boxes share profiles;
#: the bound then pays Chernoff slack on at most k/2^(_BASE_BITS−1) coordinates, about 0.2 % at 2^8)
_BASE_BITS = 8
#: the two-class base (:func:`_pair_block`) is tried on a box whose profile bound did not prune it, whose second
#: largest lower count is at least this, with its two counts rounded down to 2^(bits − _PAIR_BITS) (a flat edge between
#: a pair class and its reverse: docs/tensorization.md, "Three or more pair classes"; 6 bits: seed 1002 of
#: bench_tensor.py --random-3x3 at n = 300 took 9.8·10⁸ units at 6 and 7, 1.2·10⁹ at 4 and 5)
_MIN_PAIR = 1
_MIN_PAIR_SUM = 16
_PAIR_BITS = 6
#: the most pairs of atoms (estimated, :func:`~exactdp.measures.lattice_interval.atom_estimate`) a pair base may form:
#: larger products (both classes with hundreds of coordinates at n = 1000) cost more than the splits they save (seed
#: 1000 of bench_tensor.py --random-3x3 at n = 1000 was refused at the default max_work without a cap; 2¹⁸ with bases
#: kept by P-mass, 2²² with bases kept by tilted mass: seeds 1000 and 1002 at n = 300 need bases of 10³ × 500 atoms,
#: estimated above 2²⁰)
_MAX_PAIRS = 1 << 22
#: the cut (nats) of a pair base's blocks and of their product: the profile needs the atoms of large tilted mass, and
#: the tilted mass left out is bounded through the moments (a deeper cut only enlarges the product, quadratic in the
#: coordinates: seed 1002 of bench_tensor.py --random-3x3 at n = 60 took 1.5·10⁹ units at the search's cut of 24 nats,
#: 7.8·10⁸ at 8, the same value)
_PAIR_CUT_NATS = 8.0
#: the most pairs of atoms the two tilted blocks of a base (built, so counted) may form: 2²⁰ holds the bases of
#: seeds 1000 and 1002 at n = 300 (seed 1002: up to 1 036 × 453 atoms); larger ones at n = 1000 cost more than they
#: save
_MAX_TILTED_PAIRS = 1 << 20
#: a new tilted pair base is built only while the search's work stays below this share of its budget with the base's
#: pairs charged: the rest is left to the leaves and top corners (seed 1000 of bench_tensor.py --random-3x3 at n = 1000,
#: γ = 3⁸⁸⁰ ran out of max_work on bases that did not pay for themselves; answered at 0.5–0.75, 0.65 keeping seed 1002
#: at n = 100 — refused at 0.5 — and at n = 300 within the budget)
_BASE_SHARE = 0.65
#: the tilt s of a pair base kept by tilted mass (:func:`_pair_tilt`) is the box's Chernoff exponent rounded to the
#: grid 2^(j·_TILT_STEPS/256): boxes along an edge share a base, and the profile's own search of s stays within a few
#: steps of 2^(1/256) of it (16: seed 1002 of bench_tensor.py --random-3x3 at n = 300 took about as many units at 32
#: and 64)
_TILT_STEPS = 16
#: lattice evaluations per class and bit of n charged before the search starts: a search whose bounds prune well (seed
#: 1001 of benchmarks/bench_tensor.py --random-3x3 at n = 100: 249 leaves, 487 top corners) needs a few times more, a
#: flat one (seed 1000 at n = 30: 2 372 leaves) far more — the search itself stops at max(2·estimate, max_work), so
#: this only lets a case that cannot fit even the corners be refused at once
_EVALS_PER_CLASS_BIT = 4


def _applies(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """``(c, n)``: one factor with c ≥ 3 pair classes (indices 0..c−1), each of at most three finite ratio classes
    with masses ≥ 2⁻¹⁰⁰⁰; None otherwise."""
    if len(groups) != 1 or len(groups[0]) < 3 or totals[0] < 1 or list(groups[0]) != list(range(len(losses))):
        return None
    if any(len(loss.classes) > 3 or any(P < MIN_MASS for _, P in loss.classes) for loss in losses):
        return None
    return len(losses), totals[0]


def _estimate(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """(work, memory): the c homogeneous corners at the default cut, then about 4·c·log2(n) lattice evaluations of
    two blocks of n coordinates at the search's cut, and a Chernoff bound per box; memory the atoms of two blocks."""
    found = _applies(losses, groups, totals)
    if found is None:
        return None
    c, n = found
    corners = sum(2 * PER_ATOM * atom_estimate(loss, n) for loss in losses)
    leaf = max(2 * PER_ATOM * atom_estimate(loss, n, FILTER_CUT_NATS) for loss in losses)
    evaluations = _EVALS_PER_CLASS_BIT * c * (n + 1).bit_length()
    atoms = max(atom_estimate(loss, n) for loss in losses)
    return corners + evaluations * (leaf + 40_000), 400 * atoms + 64 * c * (n + 1)


def _not_listed(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> list[CompositionBounds]:
    raise ParameterError("simplex_filter: the compositions of three or more classes are not listed one by one; "
                         "the routine's candidates hook gives the ones not ruled out")


def tighten(lo: Sequence[int], hi: Sequence[int], n: int) -> Box | None:
    """The box lo ≤ k ≤ hi shrunk to the hull of its compositions of n (Σ k = n); None if it holds none."""
    lo, hi = list(lo), list(hi)
    slo, shi = sum(lo), sum(hi)
    if slo > n or shi < n:
        return None
    new_lo = tuple(max(a, n - (shi - b)) for a, b in zip(lo, hi))
    new_hi = tuple(min(b, n - (slo - a)) for a, b in zip(lo, hi))
    return new_lo, new_hi  # one pass is exact for a single sum constraint


def vertices(lo: Counts, hi: Counts, n: int) -> list[Counts]:
    """The vertices of the polytope {lo ≤ k ≤ hi, Σ k = n} (a vertex has at most one coordinate strictly between its
    bounds): every linear function of k is largest at one of them."""
    c, out = len(lo), set()
    for f in range(c):
        others = [i for i in range(c) if i != f]
        for ups in itertools.product((False, True), repeat=c - 1):
            k = list(lo)
            for i, up in zip(others, ups):
                k[i] = hi[i] if up else lo[i]
            k[f] = n - sum(k[i] for i in others)
            if lo[f] <= k[f] <= hi[f]:
                out.add(tuple(k))
    return sorted(out)


def box_size(lo: Counts, hi: Counts, n: int) -> int:
    """The number of compositions of n in the box (inclusion–exclusion over the upper bounds)."""
    c, free = len(lo), n - sum(lo)
    total = 0
    for S in itertools.product((0, 1), repeat=c):
        rest = free - sum(hi[i] - lo[i] + 1 for i in range(c) if S[i])
        if rest >= 0:
            total += (-1) ** sum(S) * math.comb(rest + c - 1, c - 1)
    return total


def _items(losses: Losses, counts: Counts) -> list[tuple[PairLoss, int]]:
    return [(loss, k) for loss, k in zip(losses, counts) if k]


#: the outcomes of recent searches, by (losses, groups, totals, γ, the limits in force): an ε-for-δ inversion asks the
#: filter and then the search at the same γ, and a search that ran out of budget would otherwise run out twice
_RECENT: Memo[tuple[tuple[tuple[CompositionBounds, ...], int] | None, str, tuple[fmpq, fmpq] | None]] = Memo(64)


class _Stopped(OverBudget):
    """The box search ran out of budget (``cause``) with compositions open; ``lower ≤ max_c E_γ(c) ≤ upper`` is what
    it had certified by then: the best lower bound, and the largest bound of the boxes and leaves still open."""

    def __init__(self, cause: OverBudget, lower: fmpq, upper: fmpq):
        super().__init__(str(cause))
        self.lower, self.upper = lower, upper


def _stopped(losses: Losses, groups: Groups, totals: Totals,
             gamma: fmpq) -> tuple[str, tuple[fmpq, fmpq] | None] | None:
    """``(reason, bracket)`` of the last search of these losses at γ (under the limits in force) when it stopped with
    compositions open; None when it is not known or settled them all."""
    known = _RECENT.get(_key(losses, groups, totals, gamma))
    return None if known is None or known[0] is not None else (known[1], known[2])


def stop_reason(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> str | None:
    """Why the last search of these losses at γ (under the limits in force) stopped with compositions open — the
    budget it ran out of and where — or None when it is not known or settled them all: the caller's refusal says
    which of its cases it was (the filter ran and stopped, rather than no filter applying)."""
    stopped = _stopped(losses, groups, totals, gamma)
    return None if stopped is None else stopped[0]


def stop_bracket(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> tuple[fmpq, fmpq] | None:
    """What the last search of these losses at γ (under the limits in force) had certified when it stopped with
    compositions open: ``(lower, upper)`` with lower ≤ max_c E_γ(c) ≤ upper (the best lower bound; the largest bound
    of the boxes and leaves still open, :func:`_search`), or None when it is not known or the search settled them all.
    A caller may answer with it where its relative width is what was asked for."""
    stopped = _stopped(losses, groups, totals, gamma)
    return None if stopped is None else stopped[1]


def _key(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> tuple[object, ...]:
    """The memo key of a search: the losses, groups, totals, γ and the limits in force."""
    return (tuple(losses), tuple(tuple(g) for g in groups), tuple(totals), gamma, limits_in_force())


def _candidates(losses: Losses, groups: Groups, totals: Totals,
                gamma: fmpq) -> tuple[list[CompositionBounds], int] | None:
    """``(leaves, discarded)``: the enclosed leaves in enumeration order and the number of compositions ruled out by
    their box bounds (module docstring); None when the budget ran out with boxes open."""
    key = _key(losses, groups, totals, gamma)
    known = _RECENT.get(key)
    if known is None:
        found, reason, bracket = _search_all(losses, groups, totals, gamma)
        known = (None if found is None else (tuple(found[0]), found[1]), reason, bracket)
        _RECENT.put(key, known)
    return None if known[0] is None else (list(known[0][0]), known[0][1])


def _search_all(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq
                ) -> tuple[tuple[list[CompositionBounds], int] | None, str, tuple[fmpq, fmpq] | None]:
    """:func:`_candidates` without the memo, with the reason the search stopped and what it had certified by then
    when it returns None (:func:`stop_reason`, :func:`stop_bracket`)."""
    found, estimate = _applies(losses, groups, totals), _estimate(losses, groups, totals)
    if found is None or estimate is None:
        raise ParameterError("losses: the simplex filter applies only where its estimate does (one factor with three "
                             "or more pair classes of at most three ratio classes each)")
    c, n = found
    budget = max(2 * estimate[0], limit("max_work"))
    enc = LatticeEnclosure(budget=budget, blocks=shared_blocks())
    split_first = flat_edge(losses, n, gamma)  # a flat edge: the box search is not expected to settle it
    corner_first = split_first or _corner_cost(losses, n, gamma) <= estimate[0]
    brackets: list[tuple[fmpq, fmpq]] = []  # what a face split that stopped had certified
    split = _corner_filter(losses, c, n, gamma) if corner_first else None
    unresolved: list[int] = []
    if split is None and split_first:
        split = face_split(losses, n, gamma, bracket=brackets, unresolved=unresolved)
    if split is not None:
        return split, "", None
    if unresolved:  # E_γ flat near its maximum along the face beyond what any lattice bound separates: so are its boxes
        return None, (f"the simplex filter over {c} pair classes at n = {n}: the face split left {unresolved[0]} "
                      "compositions of the best pair face that no lattice bound separates from the best lower bound "
                      "(E_gamma flat near its maximum), more than the exact search evaluates; the box search is not "
                      "tried"), None
    try:
        leaves, discarded = _search(enc, losses, c, n, gamma)
    except _Stopped as e:
        split = None if corner_first else _corner_filter(losses, c, n, gamma)
        if split is None and not split_first:
            split = face_split(losses, n, gamma, bracket=brackets)
        if split is not None:
            return split, "", None
        lower, upper = e.lower, e.upper  # both brackets hold the maximum, and so does their intersection
        for lo_b, hi_b in brackets:
            lower, upper = max(lower, lo_b), min(upper, hi_b)
        also = ", with the face split's bounds" if brackets else ""
        return None, (f"the simplex filter over {c} pair classes at n = {n} stopped at its budget of "
                      f"{budget:.3g} work units (max_work, or twice its estimate {estimate[0]:.3g}) with compositions "
                      f"open, after {enc.work:.3g} units ({e}){also}; certified by then: {directed_digits(lower)} <= "
                      f"delta_n(gamma) <= {directed_digits(upper, up=True)}"), (lower, upper)
    return ([(k, lo, hi) for k, (lo, hi) in sorted(leaves.items())], discarded), "", None


def _corner_cost(losses: Losses, n: int, gamma: fmpq) -> int:
    """The work of the corner filter's bound on its coarsest grid (one phase per class; its first bound is one level
    finer or more, :data:`~exactdp.measures.corner_filter.FIRST_LEVEL_MANY` and ``NARROW_WORK``, at a time of the same
    order on the narrow grids this choice is for, where a step's fixed cost dominates): it goes before the box search where that is at most the box
    search's estimate (an efficiency choice: the near-equal 3×3 kernel's grid is
    narrow, 0.3 of the estimate at n = 1000; seed 1001 of the random 3×3 kernels, whose log-ratios reach 1.9 nats and
    whose box search settles its queries at once, 1.9 at γ = 2^1000)."""
    return phase_cost(losses, [[i] for i in range(len(losses))], n, gamma, step_bits=CORNER_LEVELS[0])


def _corner_filter(losses: Losses, c: int, n: int, gamma: fmpq) -> tuple[list[CompositionBounds], int] | None:
    """The best corner and its neighbours enclosed, every other composition ruled out by phase majorants
    (:func:`~exactdp.measures.corner_filter.corner_candidates`); None where some stays open or a limit is met.  Its
    lattice bounds have their own budget (``max_work``) and share the kept blocks."""
    enc = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks())
    try:
        return corner_candidates(losses, list(range(c)), n, gamma,
                                 enclose=lambda k, floor: _enclose(enc, losses, k, gamma, floor))
    except (OverBudget, ResourceLimitError):
        return None


def _enclose(enc: LatticeEnclosure, losses: Losses, counts: Counts, gamma: fmpq, floor: fmpq) -> tuple[fmpq, fmpq]:
    """Lattice bounds of one composition: cut below its Chernoff bound (as the search's leaves) when nothing is known
    yet (``floor`` = 0), else at the search's level below the best lower bound ``floor`` (:func:`leaf_cut`), which is
    what separating it from the best needs (the Chernoff bound is 9–16 times E_γ at n = 1000, so the first cut is
    deeper)."""
    items = _items(losses, counts)
    cut = leaf_cut(floor) if floor > 0 else cut_below(chernoff_bound(items, gamma))
    return enc.bounds(items, gamma, cut_nats=cut)


def _search(enc: LatticeEnclosure, losses: Losses, c: int, n: int,
            gamma: fmpq) -> tuple[dict[Counts, tuple[fmpq, fmpq]], int]:
    """The branch and bound of :func:`_candidates`: ``(leaves, discarded)``.  Out of budget it raises
    :class:`_Stopped` with what it had certified: every composition is then a leaf (within its upper bound), ruled out
    (below the best lower bound), or inside a box still open — in the heap or being split (within its bound); before
    the root box is bounded the upper end is 1."""
    leaves: dict[Counts, tuple[fmpq, fmpq]] = {}
    discarded = 0

    def chernoff(*products: Counts) -> fmpq:
        """The Chernoff bound of the largest of ``products`` (one s), charged to the budget."""
        enc._charge(_PER_CHERNOFF * len(products))
        return chernoff_bound(_items(losses, products[0]), gamma, others=[_items(losses, v) for v in products[1:]])

    best = ZERO
    corners = []
    try:
        for i in range(c):
            k = tuple(n if j == i else 0 for j in range(c))
            corners.append((chernoff(k), k))
        for ub, k in sorted(corners, reverse=True):  # the larger Chernoff bound first: a tight best lower bound
            if ub < best:  # kept as a leaf of bound (0, ub): the caller counts it out
                leaves[k] = (ZERO, ub)
                continue
            leaves[k] = enc.bounds(_items(losses, k), gamma, cut_nats=cut_below(ub))
            best = max(best, leaves[k][0])
    except OverBudget as e:
        raise _Stopped(e, best, ONE) from e
    # the largest Chernoff-to-value ratio of the corners: Chernoff bound / ratio predicts E_γ (efficiency only)
    ratios = [ub / leaves[k][0] for ub, k in corners if leaves[k][0] > 0]
    rho = max(ratios) if ratios else None
    if ONE - best < NEAR_ONE and n > NEAR_ONE_N:  # as the two-class search: nothing cheap separates them
        raise _Stopped(OverBudget("E_gamma is within 2^-20 of 1: the overlaps that separate the compositions lie in "
                                  "the far tails, which only the deepest cuts reach (too costly at this n)"), best, ONE)
    # the dropped mass of a bound (about e^{-depth}) must fall below the maximum
    depth = leaf_cut(best) if best > 0 else CUT_NATS

    def profile(lo: Counts, hi: Counts) -> fmpq | None:
        """The profile bound of the box (:func:`~exactdp.measures.profile_bound.profile_box_bound`) with its largest
        lower count as the dominant block, or None when that count is below :data:`_MIN_BASE`."""
        A = max(range(c), key=lambda j: lo[j])
        if lo[A] < _MIN_BASE:
            return None
        b = _base_count(lo[A], _BASE_BITS)
        block = enc.block(losses[A], b, quantized(depth + CUT_STEP))
        return profile_box_bound(losses, vertices(lo, hi, n), gamma, A, b, block, enc._charge, best)

    def pair_profile(lo: Counts, hi: Counts) -> fmpq | None:
        """The profile bound of the box with a base of its two largest lower counts A, B, its atoms kept by tilted
        mass at the box's Chernoff exponent (:func:`_tilted_pair_block`; by P-mass, :func:`_pair_block`, when that
        exponent is 0), or None when lo_B < :data:`_MIN_PAIR`, lo_A + lo_B < :data:`_MIN_PAIR_SUM`, the two blocks'
        estimated atoms could form more than :data:`_MAX_PAIRS` pairs, or the base does not fit ``max_work`` (a bound
        left out only costs splits)."""
        A, B = sorted(range(c), key=lambda j: -lo[j])[:2]
        if lo[B] < _MIN_PAIR or lo[A] + lo[B] < _MIN_PAIR_SUM:
            return None
        a, b = _base_count(lo[A], _PAIR_BITS), _base_count(lo[B], _PAIR_BITS)
        cut = min(quantized(depth + CUT_STEP), _PAIR_CUT_NATS)
        corners = vertices(lo, hi, n)
        tilt = _pair_tilt(losses, corners, gamma)
        if atom_estimate(losses[A], a, cut, tilt) * atom_estimate(losses[B], b, cut, tilt) > _MAX_PAIRS:
            return None
        try:
            block = (_pair_block(enc, losses[A], a, losses[B], b, cut) if tilt is None
                     else _tilted_pair_block(enc, losses[A], a, losses[B], b, cut, tilt))
            if block is None:
                return None
            bound = base_box_bound(losses, corners, gamma, ((A, a), (B, b)), block, enc._charge, best)
        except ResourceLimitError:
            return None
        if tilt is not None:
            TILTED_PAIR_BOUNDS[0] += 1
        PAIR_BOUNDS[0] += 1
        return bound

    def join_box(lo: Counts, hi: Counts) -> fmpq | None:
        """The join bound of the box (:func:`join_bound`), or None where it does not apply, would cost more than
        :data:`_JOIN_SHARE` of what is left of the budget, or the best lower bound is below :data:`_JOIN_MIN_BEST`."""
        return join_bound(enc, losses, lo, hi, n, gamma, depth) if best >= _JOIN_MIN_BEST else None

    def leaf(k: Counts) -> None:
        nonlocal best, discarded
        if k in leaves:
            return
        items = _items(losses, k)
        if chernoff(k) < best:
            discarded += 1
            return
        bound = profile(k, k)
        if bound is not None and bound < best:
            discarded += 1
            return
        lo, hi = enc.bounds(items, gamma, cut_nats=depth)
        if hi >= best:  # a candidate so far: deepen the cut while the dropped mass makes it wide
            lo, hi = enc.bounds(items, gamma, rel_width=REFINE)
        leaves[k] = (lo, hi)
        best = max(best, lo)

    heap: list[tuple[fmpq, int, Counts, Counts]] = []
    #: each box in the heap (by its tick): its bound capped by its ancestors' (a box lies inside its parent), for the
    #: bracket of a search that stops (the heap's order keeps the box's own bound)
    capped: dict[int, fmpq] = {}
    tick = 0

    def push(box: Box | None, cap: fmpq = ONE) -> None:
        nonlocal tick, discarded
        if box is None:
            return
        lo, hi = box
        if lo == hi:
            leaf(lo)
            return
        ub = chernoff(*vertices(lo, hi, n))
        if ub >= best:
            bound = profile(lo, hi)
            ub = ub if bound is None else min(ub, bound)
        if ub >= best:
            bound = pair_profile(lo, hi)
            ub = ub if bound is None else min(ub, bound)
        if ub >= best:
            bound = join_box(lo, hi)
            ub = ub if bound is None else min(ub, bound)
        if ub >= best:
            top = chernoff(hi)
            if top <= _HOPELESS * best and (rho is None or top <= _PREDICT * rho * best):
                ub = min(ub, enc.bounds(_items(losses, hi), gamma, cut_nats=depth)[1])  # data processing: top corner
        if ub < best:
            discarded += box_size(lo, hi, n) - sum(1 for k in leaves if _inside(k, lo, hi))
            return
        heapq.heappush(heap, (-ub, tick, lo, hi))
        capped[tick] = min(ub, cap)
        tick += 1

    splitting = ONE  # the bound of the box being split: 1 until the root box is bounded
    try:
        push(tighten((0,) * c, (n,) * c, n))
        while heap:
            neg, t, lo, hi = heapq.heappop(heap)
            cap = capped.pop(t)
            if -neg < best:
                discarded += box_size(lo, hi, n) - sum(1 for k in leaves if _inside(k, lo, hi))
                continue
            splitting = cap
            i = max(range(c), key=lambda j: hi[j] - lo[j])
            mid = (lo[i] + hi[i]) // 2
            push(tighten(lo, hi[:i] + (mid,) + hi[i + 1:], n), cap)
            push(tighten(lo[:i] + (mid + 1,) + lo[i + 1:], hi, n), cap)
    except OverBudget as e:  # every composition: a leaf, ruled out, or in a box in the heap or being split
        upper = max([splitting, *capped.values(), *(hi for _, hi in leaves.values())])
        raise _Stopped(e, best, max(upper, best)) from e
    return leaves, discarded


#: the join bound (:func:`join_bound`) replaces J_S^{⊗w} by a dichotomy of at most this many ratio classes dominating
#: it (:func:`~exactdp.measures.blackwell_join.coarse_power`): one γ of the sweep of the lower corner's blocks per class.
#: The coarsening, not the join, is most of the bound's excess: seed 1002 of bench_tensor.py --random-3x3-deltas at
#: γ = 2^608, n = 1000, lower corner (0, 484, 0, 500), w = 16 (E_γ ≈ 0.461 there, best 0.4898): 0.4826 at 32 classes,
#: 0.4692 at 64, 0.4678 at 128; at (0, 784, 0, 200) 0.4990, 0.4861, 0.4848.  The sweeps grow with the classes, and 64
#: answered no more queries of that benchmark while four central-regime queries at n = 30, 60 took 13–20 % more time
_JOIN_KEEP = 32
#: the join bound is tried only on boxes with w = n − Σ lo at most this (efficiency only: at n = 1000 near E_γ ≈ 1/2
#: it is 0.55–0.57 at w = 90 and 0.485 at w = 44 against a best 0.4898 on seed 1002 of bench_tensor.py
#: --random-3x3-deltas, γ = 2^608; 0.91 at w = 499)
_JOIN_MAX_W = 64
#: the lower corner of the join bound is rounded down to 2^(bits − _JOIN_BITS) (:func:`_base_count`): every
#: composition of the box is a garbling of lo′ ⊗ J_S^{⊗(n − Σ lo′)} for any lo′ ≤ lo (the rounded-off coordinates join
#: the free ones), and neighbouring boxes then share the lattice blocks of lo′
_JOIN_BITS = 6
#: the join bound is tried only where the best lower bound is at least this: the central regime, where E_γ is flat
#: along the edge between a pair class and its reverse; in the tails (δ ≤ 10⁻³ on the seeds of bench_tensor.py
#: --random-3x3-deltas) the profile bounds prune and the join's sweeps only added time (seed 1002's six answered γ took
#: about 1.6 times main's CPU time with the join bound tried everywhere, with the same answers)
_JOIN_MIN_BEST = fmpq(1, 16)
#: the cut (nats) of the join bound's sweeps of the lower corner (at most the search's): the bound is tried only where
#: the best lower bound is at least :data:`_JOIN_MIN_BEST`, where the dropped mass (about e^{-12}, bounded exactly) is
#: far below the gaps it must close — on the boxes above, the bound at 12 nats is within 10⁻⁵ of the bound at 24 and
#: its sweeps take half the work
_JOIN_CUT_NATS = 12.0
#: a lower corner's small counts past its two largest are left free only when its product block is estimated above
#: this many units (:func:`~exactdp.measures.lattice_interval.product_work`): below it (n ≤ 100) the block is cheap
#: and the larger w costs more splits
#: than it saves (four central-regime queries at n = 30, 60 of seeds 1000 and 1002 took 15–20 % more CPU time)
_JOIN_PRODUCT_WORK = 1 << 20
#: work units charged per pair of classes of a product in :func:`join_power` (exact rationals of growing size)
_PER_JOIN_PAIR = 64
#: the join bound is computed only while its estimated sweeps stay below this share of the budget left
_JOIN_SHARE = 0.05
#: joins of the pair classes' losses (by the tuple of losses), and their coarsened powers (by (join, w))
_JOINS: Memo[PairLoss] = Memo(64)
_JOIN_POWERS: Memo[PairLoss] = Memo(256)
#: join bounds computed since the module was loaded (tests assert the bound was used)
JOIN_BOUNDS = [0]


def joined(parts: Sequence[PairLoss]) -> PairLoss:
    """The Blackwell join of ``parts`` (:func:`~exactdp.measures.blackwell_join.join`), remembered."""
    key = tuple(parts)
    got = _JOINS.get(key)
    if got is None:
        got = join(parts)
        _JOINS.put(key, got)
    return got


def join_power(J: PairLoss, w: int) -> PairLoss:
    """A dichotomy of at most :data:`_JOIN_KEEP` ratio classes dominating J^{⊗w}
    (:func:`~exactdp.measures.blackwell_join.coarse_power`), remembered."""
    got = _JOIN_POWERS.get((J, w))
    if got is None:
        got = coarse_power(J, w, _JOIN_KEEP)
        _JOIN_POWERS.put((J, w), got)
    return got


def join_bound(enc: LatticeEnclosure, losses: Losses, lo: Counts, hi: Counts, n: int, gamma: fmpq,
               depth: float) -> fmpq | None:
    r"""A certified upper bound of E_γ over every composition of the box [lo, hi] (Σ k = n) by the Blackwell join
    (:mod:`exactdp.measures.blackwell_join`): with S the classes free in the box (lo_i < hi_i) and w = n − Σ lo,
    every composition is lo ⊗ ⊗_{i∈S} L_i^{⊗d_i} (d = k − lo, Σ d = w), a garbling of lo ⊗ J_S^{⊗w} (J_S = join of
    the L_i, i ∈ S, dominates each), so by data processing E_γ(k) ≤ E_γ(lo ⊗ Y) with Y = J_S^{⊗w} coarsened
    (:func:`join_power`, which dominates it).  For a dichotomy Y of classes (r, P_r) and P-only mass p_Y,

    .. math::  E_\gamma(X \otimes Y) = p_Y + \sum_r P_r\, E_{\gamma / r}(X),

    X = the lower corner lo, whose E at the γ/r are bounded above by one lattice sweep each (:meth:`~exactdp.
    measures.lattice_interval.LatticeEnclosure.bounds_many`, at :data:`_JOIN_CUT_NATS`).  Any lower corner lo′ ≤ lo
    serves (the coordinates of lo − lo′ join the free ones, w grows by their number): lo′ is lo rounded down
    (:data:`_JOIN_BITS`), and where the counts past its two largest sum to at most its w and would make a product
    block of more than :data:`_JOIN_PRODUCT_WORK` units they are dropped too (w at most doubles), so X is two blocks
    swept against each other (product blocks of 1.2·10⁷ units each on boxes next to the edge of seed 1002 of
    bench_tensor.py --random-3x3-deltas at γ = 2^608; dropping larger counts lost an n = 30 query of the tests).
    None when lo′ is empty, w > :data:`_JOIN_MAX_W` or the sweeps would take more than :data:`_JOIN_SHARE` of the
    budget left (a bound left out only costs splits)."""
    depth = min(depth, _JOIN_CUT_NATS)
    lo = tuple(_base_count(k, _JOIN_BITS) for k in lo)  # a lower corner below lo serves too: boxes share its blocks
    rest = sorted(range(len(lo)), key=lambda j: -lo[j])[2:]
    if 0 < sum(lo[j] for j in rest) <= n - sum(lo) and product_work(_items(losses, lo), depth) > _JOIN_PRODUCT_WORK:
        lo = tuple(0 if j in rest else k for j, k in enumerate(lo))  # small counts past the two largest join the free
        # ones where the product block would be large: two blocks swept, no product block
    w = n - sum(lo)
    S = [i for i in range(len(lo)) if lo[i] < hi[i]]  # free below hi: the box's free classes and the rounded-off ones
    items = _items(losses, lo)
    if not S or w <= 0 or w > _JOIN_MAX_W or not items:
        return None
    J = joined([losses[i] for i in S])
    estimate = bounds_many_work(items, _JOIN_KEEP, depth, enc.store)
    if enc.budget is not None and estimate > _JOIN_SHARE * (enc.budget - enc.work):
        return None
    if _JOIN_POWERS.get((J, w)) is None:  # binary powering: at most 2·log2(w) products of _JOIN_KEEP² pairs of classes
        enc._charge(_PER_JOIN_PAIR * _JOIN_KEEP ** 2 * 2 * w.bit_length())
    Y = join_power(J, w)
    total = Y.p_only
    if Y.classes:
        gammas = [gamma / r for r, _ in Y.classes]
        for (_, P), (_, up) in zip(Y.classes, enc.bounds_many(items, gammas, cut_nats=depth)):
            total += P * up
    JOIN_BOUNDS[0] += 1
    return min(total, ONE)


def _base_count(k: int, bits: int) -> int:
    """k rounded down to a multiple of 2^(bits of k − ``bits``): boxes of nearby lower counts share a base."""
    q = 1 << max(k.bit_length() - bits, 0)
    return k // q * q


#: product blocks of two classes (:func:`_pair_block`) by (loss A, a, loss B, b, cut), and tilted ones
#: (:func:`_tilted_pair_block`) by (loss A, a, loss B, b, cut, s): the boxes along an edge share a base, asked for at a
#: few s each (16: at most 16 bases of at most 2²⁰ pairs; seed 1002 at n = 300 took 9.1·10⁸ units with 16, 9.8·10⁸
#: with 4, and 45 MB more memory at its peak)
_PAIR_BLOCKS: Memo[Block] = Memo(16)
#: pair-base bounds computed, and those of them whose base was kept by tilted mass, since the module was loaded (tests
#: assert the bound and the route were used)
PAIR_BOUNDS = [0]
TILTED_PAIR_BOUNDS = [0]


def _pair_block(enc: LatticeEnclosure, LA: PairLoss, a: int, LB: PairLoss, b: int, cut: float) -> Block:
    """The atoms of L_A^{⊗a} ⊗ L_B^{⊗b} within ``cut`` nats of their largest P-mass (the pairs of the two blocks'
    atoms, :func:`~exactdp.measures.lattice_interval.product_block`; the pairs left out are bounded by the profile
    through the moments), charged to the search's budget by the pairs it may form before it is built."""
    key = (LA, a, LB, b, cut)
    got = _PAIR_BLOCKS.get(key)
    if got is not None:
        return got
    X, Y = enc.block(LA, a, cut), enc.block(LB, b, cut)
    require("max_work", PER_PAIR * X.count * Y.count,
            f"simplex_filter: a pair base of {X.count} x {Y.count} atoms")
    enc._charge(PER_PAIR * X.count * Y.count)
    block = product_block(X, Y, cut)
    _PAIR_BLOCKS.put(key, block)
    return block


def _pair_tilt(losses: Losses, verts: Sequence[Counts], gamma: fmpq) -> fmpq | None:
    """The exponent s of the Chernoff bound of the vertices (the grid's best, :func:`grid_exponents`) rounded to the
    grid 2^(j/16) (dyadic rationals: the boxes along an edge share it), or None when it is 0."""
    i0 = int(np.nanargmin(grid_exponents([_items(losses, v) for v in verts], gamma)))
    s = float(S_GRID[i0])
    if not s > 0:
        return None
    return s_of(_TILT_STEPS * round(S_STEPS * math.log2(s) / _TILT_STEPS))


def _tilted_pair_block(enc: LatticeEnclosure, LA: PairLoss, a: int, LB: PairLoss, b: int, cut: float,
                       s: fmpq) -> Block | None:
    """The atoms of L_A^{⊗a} ⊗ L_B^{⊗b} within ``cut`` nats of the largest *tilted* mass P_x P_y (r_x r_y)^s (the
    pairs of the two blocks kept by tilted mass at s, :meth:`~exactdp.measures.lattice_interval.LatticeEnclosure.block`
    with ``tilt``): the tilted profile C(s') at s' near s needs the atoms of large tilted mass, and those left out are
    bounded through the moments whatever the kept set (:mod:`exactdp.measures.profile_bound`), so the choice of atoms
    only affects how tight the bound is.  Charged as :func:`_pair_block`; None when the two blocks hold more than
    :data:`_MAX_TILTED_PAIRS` pairs of atoms or the base would take the search's work past :data:`_BASE_SHARE` of its
    budget."""
    key = (LA, a, LB, b, cut, s)
    got = _PAIR_BLOCKS.get(key)  # (a P-mass base's key has five parts: the two never meet)
    if got is not None:
        return got
    X, Y = enc.block(LA, a, cut, tilt=s), enc.block(LB, b, cut, tilt=s)
    if X.count * Y.count > _MAX_TILTED_PAIRS:
        return None
    if enc.budget is not None and enc.work + PER_PAIR * X.count * Y.count > _BASE_SHARE * enc.budget:
        return None
    require("max_work", PER_PAIR * X.count * Y.count,
            f"simplex_filter: a pair base of {X.count} x {Y.count} atoms")
    enc._charge(PER_PAIR * X.count * Y.count)
    block = tilted_product(X, Y, float(s), cut)
    _PAIR_BLOCKS.put(key, block)
    return block


def tilted_product(X: Block, Y: Block, s: float, cut_nats: float) -> Block:
    r"""The pairs (x, y) of the atoms of two blocks whose computed tilted log-mass (lp_x + s·L_x) + (lp_y + s·L_y)
    is within ``cut_nats`` of the largest: log-masses and losses add (independent coordinates), each pair once.  The
    selection needs no rounding bound (any set of distinct atoms serves the profile); the stored sums err as in
    :func:`~exactdp.measures.lattice_interval.product_block` (u·(|x| + |y|) each), so lp_err and L_err are bounded the
    same way.  ``dropped`` and ``finite`` are the trivial bound 1 (the profile does not read them)."""
    wx, wy = X.lp + s * X.L, Y.lp + s * Y.L
    order = np.argsort(-wy, kind="stable")
    wy_desc = wy[order]
    c = float(np.max(wx)) + float(np.max(wy)) - cut_nats
    counts = np.searchsorted(-wy_desc, -(c - wx), side="right")  # #{y : wy ≥ c − wx}
    total = int(counts.sum())
    require("max_memory", 64 * total, f"simplex_filter: {total} atoms of a tilted pair base")
    xi = np.repeat(np.arange(len(X.lp)), counts)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    yi = order[np.arange(total, dtype=np.int64) - np.repeat(starts, counts)]
    lp, L = X.lp[xi] + Y.lp[yi], X.L[xi] + Y.L[yi]
    ax, ay = float(np.max(np.abs(X.lp))), float(np.max(np.abs(Y.lp)))
    lp_err = X.lp_err + Y.lp_err + 2 * U * (ax + ay + 1.0)
    L_err = X.L_err + Y.L_err + 2 * U * (float(np.max(np.abs(X.L))) + float(np.max(np.abs(Y.L))) + 1.0)
    by_loss = np.argsort(L, kind="stable")
    return Block(lp[by_loss], L[by_loss], lp_err, L_err, ONE, c, ONE)


def _inside(k: Counts, lo: Counts, hi: Counts) -> bool:
    return all(a <= x <= b for x, a, b in zip(k, lo, hi))


#: one factor with three or more pair classes of at most three ratio classes each (a 3×3 kernel)
SIMPLEX = EnclosureRoutine("three or more pair classes (simplex)", _estimate, _not_listed, candidates=_candidates)
