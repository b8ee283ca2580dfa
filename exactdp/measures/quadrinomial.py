r"""Exact E_γ of one loss with four or more finite ratio classes, streamed by conditioning (docs/claims.md B-10, D-7).

A row pair of a kernel with four outputs whose likelihood ratios r₁ > r₂ > r₃ > r₄ are distinct has a loss of four
ratio classes; where their logarithms span a lattice of rank D ≥ 2 the n-fold product has up to C(n + 3, 3) merged
type classes (1.68·10⁸ at n = 10³, integers of n·log₂(den) bits), far past the cost guard.  Conditioning on the
count a of one class leaves the three other classes, whose slices are streamed
(:func:`~exactdp.measures.privacy_loss.trinomial_sums`); written below for class 1, the class used is the one with
the fewest streamed slices (:func:`streamed_slices`).  On the piece just right of γ ([A] Thm 1: E_γ' = A − γ'B
there, the type classes with product ratio > γ),

.. math::  A = p_\infty + \sum_{a=0}^{n} \binom{n}{a} P_1^{a}\, A_3\big(n - a;\ \gamma / r_1^{a}\big), \qquad
           B = \sum_{a=0}^{n} \binom{n}{a} Q_1^{a}\, B_3\big(n - a;\ \gamma / r_1^{a}\big),

with (A₃, B₃)(m; γ') the sums over the type classes of m coordinates in classes 2–4 (their own masses, not
renormalised) with product ratio > γ', and p_∞ = 1 − (1 − p(q = 0))^n.  A row a contributes nothing where
r₁^a r₂^{n−a} ≤ γ (no ratio of the rest exceeds γ/r₁^a) and all of its mass, (P₂ + P₃ + P₄)^{n−a} and (Q₂ + Q₃ +
Q₄)^{n−a}, where r₁^a r₄^{n−a} > γ; the rows between are streamed (for another class c the least and largest ratios
of the other three take the places of r₄ and r₂).  Everything is an integer over the common
denominators (dP^n, dQ^n): O(n²) integer operations on O(n)-bit integers, O(n) memory.  Tested equal to the type
classes of :func:`~exactdp.measures.privacy_loss.product_loss` (tests/measures/test_quadrinomial.py).

**Five or more classes** (k of them) are conditioned again: a row a of the first class is the same sum over the
k − 1 others with the factor r_c^a carried into every threshold, and so on down to three streamed classes
(:func:`_sums`), each level conditioned on its own class of fewest streamed slices.  O(n^{k−2}) slices against
C(n + k − 1, k − 1) type classes: a random 2×5 pair, refused from n = 50 on before, answers ε(10⁻⁶) at n = 100 in
well under a second.  Losses of five or more classes whose log-ratios have lattice rank two keep the type classes
(:func:`quadrinomial_loss`): O(n²) lattice points.

The root of E_γ = δ (ε for δ) is found by :func:`~exactdp.measures.privacy_loss.newton_from_left` on these pieces,
started by :func:`quadrinomial_root_start`: a float model of the loss on a grid (a guide only), whose root is then
moved left of the exact root by one exact tangent step (below).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from flint import arb, ctx, fmpq, fmpz

from exactdp.limits import ESTIMATE_CAP
from exactdp.measures.privacy_loss import (
    PairLoss,
    int_masses,
    ratio_exponents,
    single_loss,
    trinomial_sums,
    trinomial_thresholds,
)
from exactdp.measures.root_start import log_rational
from exactdp.numbers.qq import ONE, ZERO
from exactdp.numbers.rb import arb_to_fmpq

#: the float model of :func:`quadrinomial_root_start` puts the loss on a grid of 2^-MODEL_BITS nats
MODEL_BITS = 10
#: and on a coarser grid where that would take more than this many points (its FFT of up to twice as many: about
#: 100 MB of float arrays at the cap)
MODEL_GRID = 1 << 21


def quadrinomial_loss(factors: Any) -> tuple[PairLoss, int] | None:
    """``(loss, k)`` when the product ``[(PairLoss_j, k_j), ...]`` is one loss (after merging equal ones) whose finite
    ratio classes are exactly four, of lattice rank D ≥ 2, or five or more, of rank D ≥ 3 — the conditioned-slices
    case; None otherwise (rank one: the exponent sums of :mod:`exactdp.measures.rank_one` are cheaper; five or more
    classes of rank two: their O(n²) lattice points, the type classes)."""
    single = single_loss(factors)
    if single is None or len(single[0].classes) < 4:
        return None
    loss, k = single
    rank = ratio_exponents([[r for r, _ in loss.classes]])[1]
    return (loss, k) if rank >= (2 if len(loss.classes) == 4 else 3) else None


class _Logs:
    """The log-ratios of a loss's classes as balls and floats, and log γ: what a row's kind and a class's slice count
    are decided from."""

    def __init__(self, ratios: tuple[fmpq, ...], gamma: fmpq) -> None:
        self.ratios = ratios
        self.balls = [arb(r).log() for r in ratios]
        self.floats = [log_rational(r) for r in ratios]
        self.gamma = gamma
        self.lg = arb(gamma).log() if gamma > 0 else None
        self.fg = log_rational(gamma) if gamma > 0 else 0.0


def _row_kind(logs: _Logs, c: int, top: int, bottom: int, n: int, a: int, fixed: tuple[tuple[int, int], ...],
              lfixed: arb) -> int:
    """−1 when row a (a coordinates in the conditioned class c) has no type class above γ, +1 when all of them are
    above, else 0: F·r_c^a r_top^{n−a} ≤ γ, F·r_c^a r_bottom^{n−a} > γ (the rest's largest and least ratios; F the
    product of the ``fixed`` classes' ratios to their counts, of log ``lfixed``)."""
    lg = logs.lg
    if lg is None:  # γ = 0: every class above
        return 1
    m = n - a

    def above(r: int) -> bool:  # F r_c^a r^m > γ, exactly
        v = lfixed + a * logs.balls[c] + m * logs.balls[r] - lg
        if v > 0:
            return True
        if v < 0:
            return False
        factor = logs.ratios[c] ** a * logs.ratios[r] ** m
        for i, k in fixed:
            factor *= logs.ratios[i] ** k
        return factor > logs.gamma

    if not above(top):
        return -1
    return 1 if above(bottom) else 0


def _slice_counts(logs: _Logs, classes: tuple[int, ...], n: int, level: float) -> list[float]:
    """For each class c of ``classes`` (k ≥ 4 of them, in decreasing ratio): the slices streamed when conditioning on
    it — over the rows a whose rest straddles the threshold (r_c^a r_bottom^{n−a} ≤ e^level < r_c^a r_top^{n−a}),
    C(n − a + k − 3, k − 3) each (the slices of the k − 1 other classes, streamed in full: an upper count for k ≥ 5),
    in floats."""
    a = np.arange(n + 1, dtype=np.float64)
    m = n - a
    weight = np.ones(n + 1)
    with np.errstate(over="ignore"):  # inf past the float range: a count over every limit
        for j in range(1, len(classes) - 2):
            weight *= (m + j) / j
        counts = []
        for c in classes:
            rest = [logs.floats[i] for i in classes if i != c]
            lc = logs.floats[c]
            straddle = (a * lc + m * max(rest) > level) & (level >= a * lc + m * min(rest))
            counts.append(float(weight[straddle].sum()))
    return counts


def streamed_slices(loss: PairLoss, n: int, gamma: fmpq) -> tuple[int, float]:
    """``(c, slices)``: the class to condition on first — the one whose streamed rows (r_c^a r_bottom^{n−a} ≤ γ <
    r_c^a r_top^{n−a}, the rest's least and largest ratios) hold the fewest slices, counted in floats — and that
    count (:func:`_slice_counts`).  A choice of speed only (every class gives the same exact sums): 1.5–2× fewer
    slices than class 1 on some of the random 2×4 pairs at n = 1000; the count is also the cost estimate's
    (:func:`quadrinomial_cost`)."""
    k = len(loss.classes)
    if gamma <= 0:
        return 0, float(min(math.comb(n + k - 2, k - 2), ESTIMATE_CAP))
    logs = _Logs(tuple(r for r, _ in loss.classes), gamma)
    counts = _slice_counts(logs, tuple(range(k)), n, logs.fg)
    best = min(counts)
    return counts.index(best), best


def quadrinomial_linear_piece(loss: PairLoss, n: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)`` with E_γ'(p^{⊗n} ‖ q^{⊗n}) = A − γ'B on the piece just right of the rational γ ≥ 0, for a loss with
    four or more finite ratio classes — conditioned on the count of one class, and of another for five or more, …,
    down to three streamed classes (module docstring; the first class that of :func:`streamed_slices`), equal to
    ``product_loss([(loss, n)]).linear_piece(...)`` without its O(n^{k−1}) type classes.

    >>> L = PairLoss.of([fmpq(1, 2), fmpq(1, 4), fmpq(1, 8), fmpq(1, 8)], [fmpq(1, 8), fmpq(1, 8), fmpq(1, 4), fmpq(1, 2)])
    >>> from exactdp.measures.privacy_loss import product_loss
    >>> A, B = quadrinomial_linear_piece(L, 4, fmpq(3))
    >>> A - 3 * B == product_loss([(L, 4)]).hockey_stick(fmpq(3))
    True
    """
    return _kept_piece(loss, n, gamma)


@functools.lru_cache(maxsize=16)
def _kept_piece(loss: PairLoss, n: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    """The last pieces, kept: an inversion reads the same one in its Newton step, the filter's corners and its answer
    (about a second each at n = 1000; two rationals of O(n) bits each)."""
    return conditioned_piece(loss, n, gamma, streamed_slices(loss, n, gamma)[0])


def conditioned_piece(loss: PairLoss, n: int, gamma: fmpq, c: int) -> tuple[fmpq, fmpq]:
    """:func:`quadrinomial_linear_piece` conditioned first on class c: the same exact (A, B) for every c."""
    k = len(loss.classes)
    if k < 4:
        raise ValueError("quadrinomial_linear_piece: the loss must have four or more ratio classes")
    p_inf = ONE - (ONE - loss.p_only) ** n if loss.p_only else ZERO
    xs, dP = int_masses([P for _, P in loss.classes])
    ys, dQ = int_masses(loss.q_masses)
    logs = _Logs(tuple(r for r, _ in loss.classes), gamma)
    AP, BQ = _sums(logs, [int(v) for v in xs], [int(v) for v in ys], tuple(range(k)), n, (), arb(0), c)
    return p_inf + fmpq(AP, dP ** n), fmpq(BQ, dQ ** n)


def _sums(logs: _Logs, xs: list[int], ys: list[int], classes: tuple[int, ...], n: int,
          fixed: tuple[tuple[int, int], ...], lfixed: arb, c: int | None = None) -> tuple[fmpz, fmpz]:
    r"""The integer sums Σ C(n; k) Π x_i^{k_i} (and the y's) over the type classes k of n coordinates in ``classes``
    (decreasing ratio) whose product ratio times F = Π r_i^{k_i} over ``fixed`` (of log ``lfixed``) exceeds γ:
    three classes streamed (:func:`~exactdp.measures.privacy_loss.trinomial_sums`), more conditioned on the count a
    of class c (the fewest slices, :func:`_slice_counts`, where not given) — rows with nothing above γ skipped, rows
    with everything above one power, the others the same sums of the rest with (c, a) fixed."""
    if len(classes) == 3:
        ratios = tuple(logs.ratios[i] for i in classes)
        thresholds = trinomial_thresholds(None, n, logs.gamma, ratios, [(logs.ratios[i], k) for i, k in fixed])
        return trinomial_sums([xs[i] for i in classes], [ys[i] for i in classes], n, thresholds)
    if c is None:
        level = logs.fg - float(lfixed.mid())
        counts = _slice_counts(logs, classes, n, level)
        c = classes[counts.index(min(counts))]
    rest = tuple(i for i in classes if i != c)
    x1, y1 = xs[c], ys[c]
    sxp, sxq = sum(xs[i] for i in rest), sum(ys[i] for i in rest)
    AP = BQ = fmpz(0)
    WP, WQ = fmpz(x1) ** n, fmpz(y1) ** n  # C(n, a) x_c^a at a = n
    for a in range(n, -1, -1):
        if a < n:  # C(n, a) x_c^a from C(n, a + 1) x_c^{a+1}: an exact division (x_c, y_c > 0 in a finite class)
            WP = WP * (a + 1) // ((n - a) * x1)
            WQ = WQ * (a + 1) // ((n - a) * y1)
        m = n - a
        kind = _row_kind(logs, c, rest[0], rest[-1], n, a, fixed, lfixed)
        if kind < 0:
            if c == classes[0]:  # the ratio falls with a: no lower row has a class above γ either
                break
            continue
        if kind > 0:
            AP += WP * fmpz(sxp) ** m
            BQ += WQ * fmpz(sxq) ** m
            continue
        SP, SQ = _sums(logs, xs, ys, rest, m, fixed + ((c, a),), lfixed + a * logs.balls[c])
        AP += WP * SP
        BQ += WQ * SQ
    return AP, BQ


def quadrinomial_cost(loss: PairLoss, n: int, extra_bits: int = 0, gamma: fmpq | None = None) -> tuple[int, int, int, int]:
    r"""``(terms, bits, work, memory)`` of :func:`quadrinomial_linear_piece` at multiplicity n: the slices it streams
    — at a given γ those of :func:`streamed_slices` (a float count, an estimate; plus a row step each), else all
    C(n + k − 2, k − 2) for k classes — each a few small-integer steps and products of integers of about n·b bits
    (b = bits of the masses) plus the Python step (calibrated with benchmarks/bench_tensor.py --random-2x4); memory a
    few such integers per level of conditioning."""
    k = len(loss.classes)
    b = max(int(d).bit_length() for d in (int_masses([P for _, P in loss.classes])[1], int_masses(loss.q_masses)[1]))
    bits = extra_bits + 1 + n * (b + 1)
    limbs = bits // 64 + 1
    rows = math.comb(n + k - 3, k - 3)  # the row steps of every level
    if gamma is None:
        slices = math.comb(n + k - 2, k - 2) + rows
    else:
        counted = streamed_slices(loss, n, gamma)[1]  # (a float: inf past its range, many classes at a large n)
        slices = (min(math.ceil(counted), ESTIMATE_CAP) if math.isfinite(counted) else ESTIMATE_CAP) + rows
    work = slices * (limbs * limbs.bit_length() + 800)
    return slices, bits, work, 16 * (k - 3) * (bits // 8 + 100)


def _grid_model(loss: PairLoss, n: int) -> tuple[float, float, np.ndarray] | None:
    """The float distribution of the privacy loss L of n coordinates under P on a grid of h = 2^-MODEL_BITS nats, or a
    coarser power of two where the loss's range would take more than :data:`MODEL_GRID` points: ``(offset, h, pmf)``
    with grid point i at offset + i·h.  Each class's log-ratio is rounded to the grid and the rounding's mean shift
    under P put back into the offset (a guide for the root's start only); None past a grid of 16 nats."""
    lr = [log_rational(r) for r, _ in loss.classes]
    P = [float(Pc) for _, Pc in loss.classes]
    lo = min(lr)
    bits = MODEL_BITS
    while (max(lr) - lo) * n * 2.0 ** bits + n + 1 > MODEL_GRID:
        bits -= 1
        if bits < -4:
            return None
    h = 2.0 ** -bits
    idx = [round((x - lo) / h) for x in lr]
    size = max(idx) * n + 1
    mass = sum(P)
    shift = sum(p * (x - (lo + i * h)) for p, x, i in zip(P, lr, idx)) / mass if mass else 0.0
    one = np.zeros(max(idx) + 1)
    for i, p in zip(idx, P):
        one[i] += p
    fft = 1 << (size - 1).bit_length()
    pmf = np.fft.irfft(np.fft.rfft(one, fft) ** n, fft)[:size]
    return n * (lo + shift), h, np.maximum(pmf, 0.0)


def quadrinomial_root_start(loss: PairLoss, n: int, delta: fmpq) -> fmpq:
    r"""A γ ≤ the least γ* with E_γ(p^{⊗n} ‖ q^{⊗n}) ≤ δ, near it, for a loss with four finite ratio classes; or 0.

    The float model (:func:`_grid_model`) proposes θ ≈ log γ* by bisection; the exact piece (A, B) at γ = e^θ
    decides: if E_γ > δ, γ is left of the root; otherwise the piece's own root (A − δ)/B is ≤ γ* — E is convex, so
    the line lies below E and meets δ at or left of γ* — and is returned.  Either way nothing but exact pieces
    decides which side of γ* the start lies on (:func:`~exactdp.measures.privacy_loss.newton_from_left` checks it
    again; the piece is kept by :func:`quadrinomial_linear_piece`, so Newton's first step from here reads it again
    without computing it)."""
    model = _grid_model(loss, n)
    if model is None:
        return ZERO
    offset, h, pmf = model
    keep = pmf > 1e-18 * float(pmf.max())  # the FFT's rounding noise is dropped
    x, pmf = offset + np.nonzero(keep)[0] * h, pmf[keep]
    p_inf = 1 - (1 - float(loss.p_only)) ** n if loss.p_only else 0.0
    d = float(delta)
    tail_p = np.cumsum(pmf[::-1])[::-1]

    def excess(theta: float) -> float:  # p_∞ + P(L > θ) − e^θ Q(L > θ) − δ
        k = int(np.searchsorted(x, theta, side="right"))
        if k >= len(x):
            return p_inf - d
        return p_inf + float(tail_p[k]) - float(np.dot(pmf[k:], np.exp(theta - x[k:]))) - d

    lo, hi = 0.0, max(float(x[-1]), 1.0)
    if excess(lo) <= 0 or excess(hi) > 0:
        return ZERO
    while hi - lo > 1e-9 * max(lo, 1.0):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    with ctx.workprec(64):
        g = arb_to_fmpq(arb(lo).exp().mid())
    A, B = quadrinomial_linear_piece(loss, n, g)
    if A - g * B > delta:
        return g
    return max((A - delta) / B, ZERO) if B != 0 else ZERO
