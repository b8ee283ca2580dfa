r"""Certified E_γ of two-ratio compositions whose values lie below the float range (docs/claims.md B-10, D-7).

The float filter of :mod:`exactdp.measures.composition_filter` encloses E_γ of every composition (k, n − k) of
two pair classes with two ratio classes each relative to the float scale of its vectors: a value below about
2⁻⁹⁰⁰ of that scale is lost in the absolute error.  δ_n((3/2)ⁿ) of the asymmetric 2×2 ((1/2, 1/2), (1/4, 3/4))
at n = 10⁴ is about 10⁻⁵²⁵ ([A] Thm 1: δ_n(γ) = η_{E_γ}(K^{⊗n}) is the maximum of E_γ over the compositions), so
every lower bound there is 0.  This routine works where every E_γ is that small:

1. **Which compositions can be the maximum** — a best-first branch and bound over intervals [a, b] of k, each
   bounded above by :func:`~exactdp.measures.lattice_interval.chernoff_bound` at its two end compositions (at a
   fixed Chernoff parameter the exponent is linear in k, so the ends bound every composition between them; the
   bound is an arb ball's upper end, valid at any size).  An interval whose bound is below the best lower bound
   found is discarded whole; the others are split down to single compositions.
2. **One composition, as a ball** (:func:`hockey_stick_ball`) — with A: k coordinates of one loss, B: m = n − k
   of the other, each with at most two finite ratio classes r_bot < r_top = ρ·r_bot (one quotient ρ), a finite
   outcome with a top coordinates of A and b of B has P-weight X(a)Z(b), X(a) = C(k, a) P_{A,top}^a P_{A,bot}^{k−a}
   (Z alike), and ratio R(a + b) = r_{A,bot}^k r_{B,bot}^m ρ^{a+b}.  With t = max{d : R(d) ≤ γ} (decided by arb
   logarithms, exactly by rational powers when a ball cannot decide), c = γ/R(t + 1) < 1 and q = 1/ρ,

   .. math::  E_\gamma = p_\infty + \sum_a X(a)\,\big(T(t + 1 - a) - c\,D(t + 1 - a)\big),

   T(j) = Σ_{b ≥ j} Z(b), D(j) = Σ_{b ≥ j} Z(b)q^{b−j} (for j < 0: T(0) and q^{−j}D(0)), p_∞ = 1 − f_A^k f_B^m
   (f = 1 − the P-only mass).  Everything is an arb ball (no exponent range limit, no underflow); the precision
   starts at 128 + 2·log2(n) bits and doubles while the ball is wider than 2⁻⁶⁴ relative.  O(n) ball operations a
   composition.

Used by the search (:data:`DEEP_TAIL`, the first routine of
:func:`exactdp.measures.composition_filter.routines`) where the Chernoff bound of every composition is below
2⁻⁵⁰⁰ (:func:`applies_at`); the candidates left are then evaluated exactly by the search, or their balls are the
certified enclosure of :func:`exactdp.measures.tensor_enclosure.delta_tensor_power_enclosure`.
"""

from __future__ import annotations

import heapq

from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals, two_class_rows
from exactdp.measures.lattice_interval import chernoff_bound
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.qq import ONE, ZERO
from exactdp.numbers.rb import ball_endpoints

#: the routine applies where the Chernoff bound of every composition is below this (the float filter's range)
DEEP = fmpq(1, 2**500)
#: below this n the routine is not chosen: the exact search is cheap there, and every search of a two-class kernel
#: would pay for the Chernoff bound of :func:`applies_at` (costs: benchmarks/bench_tensor.py)
MIN_N = 256
#: at most this many compositions are evaluated as balls; the rest keep their interval's Chernoff bound
MAX_BALLS = 128
#: the relative width a composition's ball is refined to (precision doubled up to :data:`_MAX_DOUBLINGS` times)
_TIGHT = fmpq(1, 2**64)
_MAX_DOUBLINGS = 4
#: the first window of a composition's sum (terms on each side of the tail boundary), widened ×4 while the bound of
#: the terms left out is above :data:`_REST` of the sum
_WINDOW = 64
_REST = arb(2) ** -80
#: work units (max_work) of one ball operation of :func:`hockey_stick_ball` at its start precision (a Python-level
#: arb multiplication and division) and of one Chernoff bound; the ratio 300 : 5 000 000 is their measured cost
#: ratio (benchmarks/bench_tensor.py)
_PER_BALL_OP = 300
_PER_CHERNOFF = 5_000_000
#: intervals of fewer compositions are not bounded further: each composition is a leaf under the interval's bound
_LEAVES = 8


def _structure(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int, int, fmpq | None] | None:
    """``(i, j, n, ρ)`` for one factor with two pair classes of at most two finite ratio classes each and one
    ratio quotient ρ (None when neither class has two); None when the structure is another."""
    if len(groups) != 1 or len(groups[0]) != 2 or totals[0] < 1:
        return None
    i, j = groups[0]
    A, B = losses[i], losses[j]
    if len(A.classes) > 2 or len(B.classes) > 2:
        return None
    rhos = {c[0][0] / c[1][0] for c in (A.classes, B.classes) if len(c) == 2}
    if len(rhos) > 1:
        return None
    return i, j, totals[0], (rhos.pop() if rhos else None)


def applies_at(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> bool:
    """Whether the structure is this routine's, n ≥ :data:`MIN_N`, and the Chernoff bound of every composition is
    below :data:`DEEP` (one bound over both end compositions: every composition between them is covered)."""
    found = _structure(losses, groups, totals)
    if found is None or gamma < 1 or found[2] < MIN_N:
        return False
    i, j, n, _ = found
    if not _below_largest_ratio(losses[i], losses[j], n, gamma):
        return False  # E_γ = p_∞ for every composition: the float filter's point enclosures (exact) are cheaper
    return _chernoff(losses[i], losses[j], n, gamma, 0, n) < DEEP


def _below_largest_ratio(LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq) -> bool:
    """Whether γ is certified below the largest product ratio of a corner composition, max(r_A,top^n, r_B,top^n)
    (the largest of every composition: the log of the ratio is linear in k); False when a ball cannot decide."""
    with ctx.workprec(128 + 2 * n.bit_length()):
        lg = arb(gamma).log()
        return any(n * arb(loss.classes[0][0]).log() - lg > 0 for loss in (LA, LB) if loss.classes)


def _chernoff(LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq, a: int, b: int) -> fmpq:
    return chernoff_bound([(LA, a), (LB, n - a)], gamma, others=[[(LA, b), (LB, n - b)]])


def _ball_ops(n: int) -> int:
    """Ball operations of one composition: the first window and one widening (module docstring, step 2)."""
    return 4 * min(n + 1, 4 * _WINDOW) + 200


def _estimate(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """(work, memory): about 8·log2(n) + 16 balls of :func:`_ball_ops` operations and 4·log2(n) + 8 Chernoff bounds
    (73 balls and 45 bounds at n = 10⁴ measured); memory the windows' balls."""
    found = _structure(losses, groups, totals)
    if found is None:
        return None
    bits = (found[2] + 1).bit_length()
    work = (8 * bits + 16) * _ball_ops(found[2]) * _PER_BALL_OP + (4 * bits + 8) * _PER_CHERNOFF
    return work, 3 * 128 * (found[2] + 1) + 10_000


def _side(loss: PairLoss) -> tuple[fmpq, fmpq, fmpq, bool]:
    """``(r_bot, P_top, P_bot, has_top)`` of a loss (P_top = 0 without a second class)."""
    cls = loss.classes
    if len(cls) == 2:
        (_, pt), (rb, pb) = cls
        return rb, pt, pb, True
    (rb, pb), = cls
    return rb, ZERO, pb, False


def _weights(pt: fmpq, pb: fmpq, count: int, has_top: bool, start: int, stop: int) -> tuple[list[arb], arb]:
    """``(terms, rest)``: the balls C(count, a) P_top^a P_bot^{count−a} for a = start..stop (the first from arb's
    binomial coefficient and powers, the rest by the ratio of consecutive terms) and a ball bounding
    Σ_{a > stop} of them: X(stop + 1)/(1 − r) when the term ratio r = x(count − a)/(a + 1), decreasing in a, is
    below 1 at a = stop + 1 (a geometric series bounds the rest), else the whole mass (P_top + P_bot)^count."""
    top = count if has_top else 0
    if start > min(stop, top):
        return [], arb(0)
    if not has_top:
        return [arb(pb) ** count], arb(0)
    x = arb(pt) / arb(pb)
    out = [arb.bin_uiui(count, start) * arb(pt) ** start * arb(pb) ** (count - start)]
    for a in range(start, stop):
        out.append(out[-1] * x * (count - a) / (a + 1))
    if stop >= top:
        return out, arb(0)
    nxt = out[-1] * x * (count - stop) / (stop + 1)
    r = x * (count - stop - 1) / (stop + 2)
    return out, (nxt / (1 - r) if r < 1 else (arb(pt) + arb(pb)) ** count)


def _threshold(rA: fmpq, rB: fmpq, rho: fmpq | None, k: int, m: int, dmax: int, gamma: fmpq) -> int:
    """t = max{d ∈ [0, dmax] : rA^k rB^m ρ^d ≤ γ} (−1 if none): a guess from ball logarithms, each step decided
    by a ball of log γ − k log rA − m log rB − d log ρ, exactly by rational powers when the ball contains 0."""
    # the bits of the ratios' fractions: a ratio within 2^-prec of 1 would leave its log a ball around 0
    bits = max(int(x.p).bit_length() + int(x.q).bit_length() for x in (rA, rB, rho or ONE))
    prec = 128 + 2 * max(k + m, 1).bit_length() + min(bits, 8192)
    with ctx.workprec(prec):
        lg, la, lb = arb(gamma).log(), arb(rA).log(), arb(rB).log()
        lr = arb(rho).log() if rho is not None else arb(1)

        def at_most(d: int) -> bool:
            h = lg - k * la - m * lb - d * lr
            if h > 0:
                return True
            if h < 0:
                return False
            return rA ** k * rB ** m * (rho ** d if rho is not None else ONE) <= gamma

        guess = float(((lg - k * la - m * lb) / lr).mid()) if dmax else 0.0
        t = -1 if not guess >= 0 else min(int(guess), dmax)
    while t >= 0 and not at_most(t):
        t -= 1
    while t < dmax and at_most(t + 1):
        t += 1
    return t


def hockey_stick_ball(LA: PairLoss, k: int, LB: PairLoss, m: int, gamma: fmpq, prec: int) -> arb:
    r"""E_γ of the product ``[(LA, k), (LB, m)]`` as a ball at ``prec`` bits (module docstring, step 2): both losses
    with at most two finite ratio classes and one ratio quotient; γ > 0 exact."""
    if (k and not LA.classes) or (m and not LB.classes):
        return arb(1)  # a coordinate whose P mass is all P-only: every outcome has a P-only coordinate
    rA, ptA, pbA, topA = _side(LA) if k else (ONE, ZERO, ONE, False)
    rB, ptB, pbB, topB = _side(LB) if m else (ONE, ZERO, ONE, False)
    rhos = [c[0][0] / c[1][0] for c, cnt in ((LA.classes, k), (LB.classes, m)) if cnt and len(c) == 2]
    rho = rhos[0] if rhos else None
    dmax = k * topA + m * topB
    t = _threshold(rA, rB, rho, k, m, dmax, gamma)
    with ctx.workprec(prec):
        p_inf = arb(0)
        for loss, cnt in ((LA, k), (LB, m)):
            if cnt and loss.p_only:
                p_inf += cnt * (-arb(loss.p_only)).log1p()
        p_inf = -p_inf.expm1() if (LA.p_only and k) or (LB.p_only and m) else arb(0)
        if t >= dmax:  # no finite outcome above γ
            return p_inf
        r = arb(rho) if rho is not None else arb(1)  # (no quotient: d = 0 only, t = −1)
        c = arb(gamma) / (arb(rA) ** k * arb(rB) ** m * r ** (t + 1))
        q = 1 / r
        kt, mz = k * topA, m * topB  # the largest a and b
        mass_a, mass_b = (arb(ptA) + arb(pbA)) ** k, (arb(ptB) + arb(pbB)) ** m  # finite masses f_A^k, f_B^m
        a0 = max(t + 1 - mz, 0)  # only a ≥ t + 1 − mz reaches the tail (j = t + 1 − a ≤ mz)
        width = _WINDOW
        while True:
            # the window: a in [a0, a1], b in [b0, b1] ∋ every j = t + 1 − a of the window; left out, below the
            # bound rest: the pairs with a > a1 (≤ Σ_{a>a1} X·f_B^m) or b > b1 (≤ f_A^k·Σ_{b>b1} Z)
            a1 = min(kt, a0 + width)
            b0, b1 = max(t + 1 - a1, 0), min(mz, t + 1 - a0 + width)
            X, rest_x = _weights(ptA, pbA, k, topA, a0, a1)
            Z, rest_z = _weights(ptB, pbB, m, topB, b0, b1)
            T, D = [arb(0)] * (len(Z) + 1), [arb(0)] * (len(Z) + 1)  # T[b − b0] = Σ_{b ≤ b' ≤ b1} Z(b'), D alike
            for i in range(len(Z) - 1, -1, -1):
                T[i] = Z[i] + T[i + 1]
                D[i] = Z[i] + q * D[i + 1]
            total = arb(0)
            for a, xa in enumerate(X, start=a0):
                j = t + 1 - a
                total += xa * (T[j - b0] - c * D[j - b0] if j >= 0 else T[0] - c * q ** (-j) * D[0])
            rest = rest_x * mass_b + mass_a * rest_z
            ball = p_inf + total + arb(0).union(rest)
            full = a1 >= kt and b1 >= mz
            if full or (rest < total * _REST and ball.rel_accuracy_bits() >= prec // 2):
                return ball
            width *= 4


def composition_bounds(LA: PairLoss, k: int, LB: PairLoss, m: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    """Exact rationals lo ≤ E_γ ≤ hi of ``[(LA, k), (LB, m)]`` from :func:`hockey_stick_ball`, the precision doubled
    while the ball is wider than :data:`_TIGHT` relative (the last ball's bounds are returned either way)."""
    prec = 128 + 2 * (k + m + 1).bit_length()
    lo, hi = ZERO, ONE
    for _ in range(_MAX_DOUBLINGS + 1):
        ends = ball_endpoints(hockey_stick_ball(LA, k, LB, m, gamma, prec))
        if ends is not None:
            lo, hi = max(ends[0], ZERO), min(ends[1], ONE)
            if lo > 0 and hi - lo <= _TIGHT * lo or lo == hi:
                break
        prec *= 2
    return lo, hi


def _enclose(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> list[CompositionBounds]:
    """``(counts, lo, hi)`` of every composition in the order of ``tensor_search.all_compositions`` (module
    docstring, step 1); compositions never evaluated keep (0, their interval's Chernoff bound)."""
    found = _structure(losses, groups, totals)
    if found is None or not isinstance(gamma, fmpq) or gamma <= 0:
        raise ParameterError(f"gamma: the deep-tail enclosure needs an exact rational gamma > 0, got {gamma!r}")
    i, j, n, _ = found
    LA, LB = losses[i], losses[j]
    out: dict[int, tuple[fmpq, fmpq]] = {}
    heap = [(-_chernoff(LA, LB, n, gamma, 0, n), 0, 0, n)]
    best, tick, balls = ZERO, 1, 0
    while heap:
        neg, _, a, b = heapq.heappop(heap)
        if -neg < best or (a == b and balls >= MAX_BALLS):  # the rest keep (0, their interval's bound)
            for negx, _, a2, b2 in heap + [(neg, 0, a, b)]:
                for kk in range(a2, b2 + 1):
                    out[kk] = (ZERO, -negx)
            break
        if a == b:
            lo, hi = composition_bounds(LA, a, LB, n - a, gamma)
            balls += 1
            out[a] = (lo, min(hi, -neg))
            best = max(best, lo)
            continue
        if b - a < _LEAVES:  # a short interval: its compositions as leaves under its bound (a ball is cheaper)
            parts = [(kk, kk, neg) for kk in range(a, b + 1)]
        else:
            mid = (a + b) // 2
            parts = [(lo_k, hi_k, -_chernoff(LA, LB, n, gamma, lo_k, hi_k)) for lo_k, hi_k in ((a, mid), (mid + 1, b))]
        for lo_k, hi_k, bound in parts:
            heapq.heappush(heap, (bound, tick, lo_k, hi_k))
            tick += 1
    return two_class_rows(out, len(losses), i, j, n)


#: two classes in one factor with at most two finite ratio classes each and one quotient ρ, every E_γ below 2⁻⁵⁰⁰
DEEP_TAIL = EnclosureRoutine("two ratio classes, deep tail (arb balls)", _estimate, _enclose, applies_at)
