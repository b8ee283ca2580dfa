r"""A Chernoff-type bound of E_γ whose dominant block pays no √n slack: the tilted privacy profile of one block.

For a product X ⊗ Y of losses, the finite part F_γ = E_γ − p_∞ (the pairs of outcomes with Q > 0) splits over Y's
finite outcomes y (mass P_y, ratio r_y):

.. math::  F_\gamma(X \otimes Y) = \sum_y P_y\, F_{\gamma / r_y}(X)
           \le C_X(s)\,\gamma^{-s} M_Y(s), \qquad C_X(s) = \sup_{t > 0} t^s F_t(X),\quad M_Y(s) = \sum_y P_y r_y^s,

for every s ≥ 0 ([A] Thm 1 / docs/claims.md B-10 for the composition, D-7 for p_∞).  The ordinary Chernoff bound
(:func:`~exactdp.measures.lattice_interval.chernoff_bound`) is the case C_X(s) ≤ c(s)M_X(s), c(s) = s^s/(1+s)^{1+s},
which is loose by a factor growing like √k for X = L^{⊗k} (about 9 at k = 10³ on the random 3×3 kernels of
``benchmarks/bench_tensor.py --random-3x3``), while the bound below stays within 1–2 % of E_γ there (0.6 % at the
homogeneous composition of seed 1001 at k = 10³ with s searched, 2–3 % with the Chernoff bound's own s).
With Y = L^{⊗j} the same inequality gives C_{L^{⊗(b+j)}}(s) ≤ C_{L^{⊗b}}(s)·M_L(s)^j, so one profile of b
coordinates of the dominant class bounds every composition with at least b of them:

.. math::  E_\gamma(\otimes_i L_i^{\otimes k_i}) \le p_\infty + \gamma^{-s}\, C_{L_A^{\otimes b}}(s)\,
           M_A(s)^{k_A - b} \prod_{i \ne A} M_i(s)^{k_i}\qquad (k_A \ge b),

whose logarithm is linear in k: over a box of the composition simplex it is largest at a vertex (as the Chernoff
bound; :mod:`exactdp.measures.simplex_filter`).

**C_X(s) from the lattice atoms** (:func:`tilted_profile`).  With x = log t and the atoms a of X's block (log-mass
log P_a, loss L_a; :mod:`exactdp.measures.lattice_interval`), t^s F_t(X) = Σ_a P_a r_a^s φ(L_a − x) with
φ(d) = e^{−sd}(1 − e^{−d}) for d > 0 and 0 otherwise (unimodal, largest c(s) at d* = log((1+s)/s)).  The tilted masses
w_a = P_a r_a^s are binned on a grid of width h in L; for x in the grid cell j every atom of bin m has d in
[(m − j − 1)h − e, (m − j + 1)h + e] (e: the error of a computed loss), so t^s F_t ≤ Σ_m W_m Φ_{m−j} with Φ_δ the
largest φ over that interval — a correlation of non-negative floats whose rounding is bounded a priori (Higham: a sum
of N non-negative terms errs by at most (N − 1)u relative; the tilted masses by the log's error and the 64u of
:func:`~exactdp.measures.lattice_interval.exp_floats`; Φ_δ is an upper bound: the Taylor upper bound of 1 − e^{−d}
below d = 1, and c(s) itself on the interval that holds d*).  Beyond the kernel's length K the tail is at most
e^{−s((K − 1)h − e)} times the total; for x below the lowest atom minus d* the sum increases with x (every d is past
d*), so the cells from there up to the highest atom cover every t.  The atoms below the block's cut are bounded as a
whole: their tilted mass is at most M_L(s)^b minus the kept tilted mass (a lower bound), each weighted by at most c(s).
The result is an arb ball; its upper end bounds C_X(s).  Cost: one pass over the atoms, and the correlation of the
bins (width h = :data:`_H_SLACK`/s nats, so a cell moves e^{−sd} by at most e^{2·_H_SLACK}; at most :data:`_MAX_BINS`)
with K = :data:`_TAIL_NATS`/(sh) kernel values evaluated only near its maximum: on :data:`_LEVELS` levels of bins
g = :data:`_GROUP` times wider each (a coarse bin the sum of its g finer ones, its kernel the same rule at its width,
so a coarse cell's value bounds those of the cells it holds), the coarsest level in full, then best first, a cell
replaced by its g finer cells until a finest cell comes out on top (:func:`_sup_correlation`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence

import numpy as np
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import require
from exactdp.measures.lattice_interval import (
    S_GRID,
    EXP_REL,
    U,
    Block,
    FloatArray,
    grid_exponents,
    moment_ball,
    p_inf,
    exp_floats,
)
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import ONE
from exactdp.numbers.rb import ball_endpoints

#: bin width h = _H_SLACK / s nats: a cell of the correlation moves e^{−sd} by at most a factor e^{2·_H_SLACK}
_H_SLACK = 0.0005
#: the most bins (and kernel values) of one profile: the bin width grows past it (a looser, still valid bound)
_MAX_BINS = 1 << 18
#: the kernel Φ is cut where e^{−s·d} is below e^{−_TAIL_NATS} (the tail beyond it is bounded, not dropped)
_TAIL_NATS = 30.0
#: work units per atom binned, and multiply-adds of the correlation per work unit (a unit is about as long as
#: PRODUCTS_PER_UNIT products of a BLAS matrix–vector product: :func:`profile_work`)
PER_BINNED_ATOM = 8
PRODUCTS_PER_UNIT = 16


def c_of_s(s: fmpq) -> arb:
    """c(s) = s^s/(1 + s)^{1+s} (c(0) = 1), the largest value of (1 − e^{−d})e^{−sd} over d > 0, as a ball."""
    with ctx.workprec(128):
        sb = arb(s)
        return (sb * sb.log() - (1 + sb) * (1 + sb).log()).exp() if s > 0 else arb(1)


def _grid(s: float, span: float) -> tuple[float, int]:
    """(h, K): the bin width and the number of kernel values past δ = 0 for a loss range ``span``."""
    h = _H_SLACK / s
    K = int(math.ceil(_TAIL_NATS / (s * h))) + 2
    while span / h + K > _MAX_BINS:
        h *= 2
        K = int(math.ceil(_TAIL_NATS / (s * h))) + 2
    return h, K


def profile_work(atoms: int, span: float, s: float) -> int:
    """The most work units one :func:`tilted_profile` of a block of ``atoms`` atoms over a loss range ``span`` (nats)
    can take (the coarsest level in full and :data:`_MAX_REFINED` refinements of g cells at the finest kernel's
    length); what it took is charged after (:func:`correlation_work`)."""
    if s <= 0:
        return PER_BINNED_ATOM * atoms
    h, K = _grid(s, span)
    bins, unit = int(span / h) + K + 2, int(_GROUP ** (_LEVELS - 1))
    return int(PER_BINNED_ATOM * atoms + correlation_work(bins * (K + 2) // unit ** 2 + _MAX_REFINED * _GROUP * (K + 2)))


def correlation_work(products: int) -> int:
    """Work units of ``products`` multiply-adds of the correlation (BLAS matrix–vector products)."""
    return products // PRODUCTS_PER_UNIT + 1


def _phi_upper(d: FloatArray, s: float) -> FloatArray:
    """Upper bounds of φ(d) = e^{−sd}(1 − e^{−d}) at d ≥ 0 (floats, relative error ≤ 300u before the margin the caller
    adds): 1 − e^{−d} ≤ d(1 − d/2 + d²/6) below d = 1 (an alternating series stopped after a positive term), else
    from :func:`exp_floats`' e^{−d} (64u; 1 − e^{−d} ≥ 0.63 there)."""
    small = d < 1.0
    one_minus = np.where(small, d * (1.0 - d * (0.5 - d * (1.0 / 6.0))), 1.0 - exp_floats(-np.minimum(d, 700.0)))
    decay = exp_floats(-np.minimum(s * d, 700.0))
    out: FloatArray = np.maximum(one_minus, 0.0) * decay
    return out


def _kernel(s: float, h: float, e: float, K: int, c_up: float) -> FloatArray:
    """Φ_δ for δ = −1, 0, …, K: the largest φ over d in [(δ − 1)h − e, (δ + 1)h + e] (upper bounds, floats)."""
    delta = np.arange(-1, K + 1, dtype=np.float64)
    widen = e + 1e-9 * (K + 2) * h  # the float errors of the ends, far below this
    a = np.maximum((delta - 1.0) * h - widen, 0.0)
    b = (delta + 1.0) * h + widen
    d_star = math.log1p(1.0 / s)
    holds = (a <= d_star + 1e-9) & (b >= d_star - 1e-9)
    at = np.where(b < d_star, b, a)  # increasing left of d*, decreasing right of it
    vals = _phi_upper(at, s) * (1.0 + 2.0 ** -40)
    vals = np.where(holds, c_up, vals)
    vals = np.where(b <= 0.0, 0.0, vals)
    out: FloatArray = vals
    return out


#: cells of one level per cell of the next coarser level of :func:`_sup_correlation`, and the number of levels
_GROUP = 4
_LEVELS = 5
#: the most cells :func:`_sup_correlation` refines (then the largest bound left is the answer: still a bound)
_MAX_REFINED = 512


def _window(W: FloatArray, start: int, stop: int) -> FloatArray:
    """W[start:stop] with zeros outside W."""
    out = np.zeros(stop - start)
    a, b = max(start, 0), min(stop, len(W))
    if a < b:
        out[a - start: b - start] = W[a:b]
    return out


def _sup_correlation(W: FloatArray, left: int, s: float, h: float, e: float, K: int,
                     c_up: float) -> tuple[float, int]:
    """``(bound, products)``: an upper bound (floats; the caller bounds the rounding) of max_j Σ_δ W_{j+δ} Φ_δ over the cells
    j = −left + 1 … len(W) + 1 (every cell that can hold the supremum).  Cells are bounded on :data:`_LEVELS` levels
    of width h·g^ℓ (g = :data:`_GROUP`; a level-ℓ bin is the sum of g bins below it, its kernel the same rule at its
    width, so each level's value bounds the values of the cells it holds); best first from the coarsest level, a cell
    is replaced by its g finer cells, and the first finest cell to come out on top is the answer (every cell left has
    a bound at most its value).  Refining only near the maximum costs O(levels·g·K) per refined cell instead of the
    whole correlation's (bins·K)."""
    g, levels = _GROUP, _LEVELS
    unit = g ** (levels - 1)
    lead = (-left + 1) % unit
    j0 = -left + 1 - lead  # the fine cell of index 0 (a multiple of the coarsest width)
    Wp = np.concatenate((np.zeros(left - 1 + lead), W))  # index i ↔ fine bin m = i + j0
    size = (-(-len(Wp) // unit) + 2) * unit  # two empty coarsest bins above the highest atom
    Wl = [np.concatenate((Wp, np.zeros(size - len(Wp))))]
    for _ in range(levels - 1):
        Wl.append(Wl[-1].reshape(-1, g).sum(axis=1))
    Kl = [-(-(K + 1) // g ** lv) + 2 for lv in range(levels)]
    phis = [_kernel(s, h * g ** lv, e, Kl[lv], c_up) for lv in range(levels)]

    products = 0

    def values(lv: int, first: int, count: int) -> FloatArray:
        """Σ_δ W_lv[J + δ] Φ_lv[δ + 1] for the level-lv cells J = first … first + count − 1."""
        nonlocal products
        products += count * len(phis[lv])
        seg = _window(Wl[lv], first - 1, first + count + Kl[lv] + 1)
        # a matrix–vector product of the sliding windows (BLAS: any order of the non-negative sums, fused or not, keeps
        # Higham's bound)
        out: FloatArray = np.lib.stride_tricks.sliding_window_view(seg, len(phis[lv]))[:count] @ phis[lv]
        return out

    top = levels - 1
    heap = [(-float(v), top, J) for J, v in enumerate(values(top, 0, len(Wl[top])))]
    heapq.heapify(heap)
    refined = 0
    while heap:
        neg, lv, J = heapq.heappop(heap)
        if lv == 0 or refined == _MAX_REFINED:
            return -neg, products
        refined += 1
        for i, v in enumerate(values(lv - 1, g * J, g)):
            heapq.heappush(heap, (-float(v), lv - 1, g * J + i))
    return 0.0, products


#: C_X(s) balls by (loss, b, cut, s): a search asks for the same few profiles at many boxes
_PROFILES: Memo[arb] = Memo(512)


def tilted_profile(block: Block, loss: PairLoss, b: int, s: fmpq,
                   charge: Callable[[int], None] | None = None) -> arb:
    r"""A ball whose upper end bounds C(s) = sup_{t>0} t^s F_t(L^{⊗b}) (F: the finite part of E_t), from ``block``,
    the lattice block of ``b`` coordinates of ``loss`` (module docstring); s ≥ 0 a dyadic rational (a float).
    A profile not yet known is refused first if its most work (:func:`profile_work`) exceeds ``max_work``; ``charge``
    is then called with the work units it took."""
    return product_profile(block, ((loss, b),), s, charge)


def product_profile(block: Block, parts: Sequence[tuple[PairLoss, int]], s: fmpq,
                    charge: Callable[[int], None] | None = None) -> arb:
    r"""A ball whose upper end bounds C(s) = sup_{t>0} t^s F_t(⊗_j L_j^{⊗b_j}) for ``parts`` = ((L_j, b_j), …), from
    ``block``, atoms of that product (one lattice block, or the :func:`~exactdp.measures.lattice_interval.product_block`
    of two: a product's atoms are the pairs of its factors' atoms, their total tilted mass Π_j M_j(s)^{b_j}, so the
    atoms left out are bounded as for one block); as :func:`tilted_profile` otherwise."""
    key = (tuple(parts), block.cut, block.count, s)
    got = _PROFILES.get(key)
    if got is not None:
        return got
    span = float(block.L[-1] - block.L[0]) if block.count else 0.0
    require("max_work", profile_work(block.count, span, float(s)),
            f"profile_bound: the tilted profile of {sum(b for _, b in parts)} coordinates ({block.count} atoms)")
    out, products = _block_profile(block, parts, s)
    _PROFILES.put(key, out)
    if charge is not None:
        charge(PER_BINNED_ATOM * block.count + correlation_work(products))
    return out


def _tilted_profile(block: Block, loss: PairLoss, b: int, s: fmpq) -> tuple[arb, int]:
    """:func:`tilted_profile` without the memo: the ball and the multiply-adds of its correlation."""
    return _block_profile(block, ((loss, b),), s)


def _block_profile(block: Block, parts: Sequence[tuple[PairLoss, int]], s: fmpq) -> tuple[arb, int]:
    """:func:`product_profile` without the memo: the ball and the multiply-adds of its correlation."""
    if s < 0:
        raise ParameterError(f"s: must be >= 0, got {s}")
    with ctx.workprec(128):
        c_ball = c_of_s(s)
        moment = arb(1)
        for loss, b in parts:
            moment *= moment_ball(loss, s) ** b
    if s == 0 or not any(b and loss.classes for loss, b in parts):  # the ordinary bound: c(s)·Π M(s)^b
        with ctx.workprec(128):
            return c_ball * moment, 0
    sf = float(s)
    if fmpq(*sf.as_integer_ratio()) != s:
        raise ParameterError("s: must be a float (a dyadic rational) for the tilted profile")
    lp, L = block.lp, block.L
    y = lp + sf * L
    R = float(np.max(y))
    mag = float(np.max(np.abs(lp)) + sf * np.max(np.abs(L)) + abs(R))
    # |computed − true| of y − R: the block's log and loss errors, 3 roundings of magnitude ≤ mag
    e_y = block.lp_err + sf * block.L_err + 4 * U * mag
    z = np.maximum(y - R, -700.0)  # clipped terms are over-estimated (an upper bound stays one)
    w = exp_floats(z)
    # bins: computed position (L − L0)/h; a true loss lies within e of its computed value, the float position and
    # floor err by far less than the margin 4u·|L|/h added to e
    span = float(L[-1] - L[0])
    h, K = _grid(sf, max(span, 1e-9))
    L0 = float(L[0])
    e = block.L_err + 8 * U * float(np.max(np.abs(L)) + abs(L0) + 1.0)
    if e >= h / 4:  # the bins would not place the atoms: the ordinary bound (valid, looser) instead of an error
        with ctx.workprec(128):
            return c_ball * moment, 0
    m = np.floor((L - L0) / h).astype(np.int64)
    d_star = math.log1p(1.0 / sf)
    j_lo = -int(math.ceil((d_star + e) / h)) - 1
    bins = int(m[-1]) + 1
    W = np.bincount(m, weights=w, minlength=bins).astype(np.float64)
    with ctx.workprec(64):
        c_up = float(c_ball.upper().mid()) * (1.0 + 2.0 ** -40)
    vmax, products = _sup_correlation(W, -j_lo + 1, sf, h, e, K, c_up)
    total = float(np.sum(W))
    n_terms = len(w) + K + 4 * _GROUP ** _LEVELS + 8
    with ctx.workprec(128):
        # rounding of the sums (Higham, non-negative terms) and of the tilted masses (log error e_y, exp 64u)
        grow = arb(e_y).exp() * (1 + arb(EXP_REL)) / (1 - arb(2 * (n_terms + 2)) * arb(U))
        scale = arb(R).exp()
        # the atoms beyond the kernel's reach: d ≥ (K − 1)h − e, φ(d) ≤ e^{−sd}
        tail_decay = (-arb(sf) * (arb(K - 1) * arb(h) - arb(e))).exp()
        kept = scale * (arb(vmax) + arb(total) * tail_decay) * grow
        # the atoms below the cut: tilted mass ≤ M^b − (a lower bound of the kept tilted mass), weight ≤ c(s)
        shrink = (-arb(e_y)).exp() * (1 - arb(EXP_REL)) * (1 - arb(2 * (n_terms + 2)) * arb(U))
        kept_lo = scale * arb(float(np.sum(np.where(y - R >= -700.0, w, 0.0)))) * shrink
        # the true value of moment − kept_lo is ≥ 0 (it bounds the dropped tilted mass), so the ball's upper end serves
        out: arb = kept + c_ball * (moment - kept_lo)
    return out, products


#: s of :func:`profile_box_bound` is 2^(i/_S_STEPS) rounded to a float of 24 significant bits (an exact dyadic rational
#: that boxes share, so their profiles are computed once)
_S_STEPS = 256
#: the steps of i tried above the Chernoff bound's s (the profile's best s lies a few per cent above it: the Chernoff
#: bound's own slack grows with s), then ±2 and ±1 around the best of them
_S_TRIES = (0, 3, 6, 9, 12)


def _s_of(i: int) -> fmpq:
    f = 2.0 ** (i / _S_STEPS)
    m, ex = math.frexp(f)
    return fmpq(*math.ldexp(round(m * 2 ** 24), ex - 24).as_integer_ratio())


def profile_box_bound(losses: Sequence[PairLoss], vertices: Sequence[Sequence[int]], gamma: fmpq, A: int, b: int,
                      block: Block, charge: Callable[[int], None] | None = None, below: fmpq | None = None) -> fmpq:
    r"""An exact rational upper bound of E_γ of every composition k in the convex hull of ``vertices`` (class counts,
    indexed like ``losses``; every vertex with k_A ≥ b): p_∞ + γ^{−s} C_b(s) M_A(s)^{k_A − b} Π_{i≠A} M_i(s)^{k_i}
    (module docstring) at one s, maximised over the vertices (its logarithm is linear in k, p_∞ monotone in each
    count); ``block``: the lattice block of b coordinates of class A.  s is searched over a few values of the grid
    2^(i/256) from the Chernoff bound's; any s gives a bound, so with ``below`` the search of s stops at the first
    bound under it (a box is pruned by any bound below the best lower bound)."""
    return base_box_bound(losses, vertices, gamma, ((A, b),), block, charge, below)


def base_box_bound(losses: Sequence[PairLoss], vertices: Sequence[Sequence[int]], gamma: fmpq,
                   base: Sequence[tuple[int, int]], block: Block, charge: Callable[[int], None] | None = None,
                   below: fmpq | None = None) -> fmpq:
    r""":func:`profile_box_bound` with a base of one or more classes: ``base`` = ((A, b_A), (B, b_B), …) and ``block``
    the atoms of ⊗ L_A^{⊗b_A} ⊗ L_B^{⊗b_B} (a :func:`~exactdp.measures.lattice_interval.product_block` for two), every
    vertex with k_A ≥ b_A, k_B ≥ b_B, …: p_∞ + γ^{−s} C(s) Π_i M_i(s)^{k_i − b_i} (b_i = 0 off the base; the
    inequality of the module docstring with X the base and Y the rest).  A base of the two classes of a flat edge
    leaves Chernoff slack only on the coordinates beyond it (docs/tensorization.md, "Three or more pair classes")."""
    if any(v[A] < b for v in vertices for A, b in base):
        raise ParameterError("base_box_bound: every vertex must hold the base")
    if gamma <= 0:
        return ONE
    i0 = int(np.nanargmin(grid_exponents([[(loss, k) for loss, k in zip(losses, v) if k] for v in vertices], gamma)))
    p_max = max(p_inf([(loss, k) for loss, k in zip(losses, v) if k])[1] for v in vertices)
    if S_GRID[i0] <= 0:
        return ONE  # s = 0: nothing better than the finite mass
    start = int(round(_S_STEPS * math.log2(float(S_GRID[i0]))))
    held = dict(base)
    parts = tuple((losses[A], b) for A, b in base)

    def bound(i: int) -> fmpq:
        s = _s_of(i)
        C = product_profile(block, parts, s, charge)
        with ctx.workprec(128):
            scale = C * (-arb(s) * arb(gamma).log()).exp()
            top: arb | None = None
            for v in vertices:
                ball = scale
                for j, (loss, k) in enumerate(zip(losses, v)):
                    if k - held.get(j, 0) and loss.classes:
                        ball *= moment_ball(loss, s) ** (k - held.get(j, 0))
                if top is None or ball.upper() > top.upper():
                    top = ball
            ends = ball_endpoints(top) if top is not None else None
        return ends[1] if ends is not None else ONE

    tried: dict[int, fmpq] = {}
    for i in _S_TRIES:
        tried[i] = bound(start + i)
        if below is not None and p_max + tried[i] < below:
            return p_max + tried[i]
    at = min(tried, key=lambda i: tried[i])
    for d in (2, 1):
        for i in (at - d, at + d):
            if i not in tried:
                tried[i] = bound(start + i)
                if below is not None and p_max + tried[i] < below:
                    return p_max + tried[i]
        at = min(tried, key=lambda i: tried[i])
    return min(p_max + tried[at], ONE)


__all__ = ["base_box_bound", "c_of_s", "correlation_work", "product_profile", "profile_box_bound", "profile_work",
           "tilted_profile", "PER_BINNED_ATOM", "PRODUCTS_PER_UNIT"]
