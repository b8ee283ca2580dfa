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

**C_X(s) from the lattice atoms, in closed form** (:func:`tilted_profile`).  For atoms a of mass P_a and ratio r_a
(Q_a = P_a/r_a), F_t(X) = Σ_a (P_a − tQ_a)_+ is the largest Σ_{a∈S}(P_a − tQ_a) over sets S, reached at S = {r_a > t},
an upper set of the atoms sorted by ratio; so F_t = max_j (A_j − tB_j)_+ over the upper sets j (A_j, B_j their P- and
Q-masses) and, as sup_t t^s(A − tB)_+ = c(s)A^{1+s}B^{−s} (at t = sA/((1+s)B)),

.. math::  C_X(s) = c(s)\,\max_j A_j^{1+s} B_j^{-s} = c(s)\exp \max_j \big((1+s)\log A_j - s\log B_j\big),

exactly — one suffix sum of P and of Q over the atoms sorted by loss (γ- and s-independent, kept with the block), then
a pass per s over chunks of consecutive atoms (the sums decrease along j, so a chunk's first A and last B bound it; only
the chunks that may hold the maximum are read atom by atom: :class:`_Suffix`).  Computed losses L̂ (within e of L) are handled by taking every atom's Q at its lower end
P e^{−L̂−e} (F_t only grows, and the atoms are then exactly sorted by L̂); the sums' rounding is bounded a priori
(Higham: a sum of N non-negative terms errs by at most γ_N relative; the terms by the stored errors and the 64u of
:func:`~exactdp.measures.lattice_interval.exp_floats`), numpy's logs are checked a posteriori through exp_floats
(:func:`_checked_log`), and the maximum of the floats (1+s)a_j − s·b_j is widened by a priori bounds of its three
roundings.  The atoms below the block's cut (and atoms below e^{−600} of the largest) are bounded as a whole: F_t is
subadditive over atoms and sup_t t^s(P − tQ)_+ = c(s)P r^s, so they add at most c(s) times their tilted mass, which is
at most M_L(s)^b minus the kept tilted mass (a lower bound).  The result is an arb ball whose upper end bounds C_X(s).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
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

#: work units per atom of a block for its suffix sums (once per block: four passes of exp_floats, two cumulative sums,
#: the checked logs, the chunks; the lattice bounds charge their own suffix and chunk sums of a block 34 an atom,
#: lattice_interval._PER_PREP, and these take about as long: docs/speed.md, h24edge), and per chunk and per refined atom
#: of the pass for one s
PER_SUFFIX_ATOM = 34
PER_CHUNK = 20
PER_REFINED_ATOM = 4
#: the exponents passed to exp_floats are kept within ±_EXP_CAP (its domain is |x| ≤ 700; the logs of the sums
#: must stay inside it too for their a-posteriori check)
_EXP_CAP = 600.0
#: atoms per chunk of the pass per s (:class:`_Suffix`)
_CHUNK = 256
#: the widest chunk in loss (nats): the Jensen bound of a chunk's tilted mass is then within e^{s²·_CHUNK_NATS²/8}
_CHUNK_NATS = 2.0 ** -7
#: the most relative error a checked float log may show before the profile falls back to the ordinary bound
_LOG_CHECK = 0.25


def c_of_s(s: fmpq) -> arb:
    """c(s) = s^s/(1 + s)^{1+s} (c(0) = 1), the largest value of (1 − e^{−d})e^{−sd} over d > 0, as a ball."""
    with ctx.workprec(128):
        sb = arb(s)
        return (sb * sb.log() - (1 + sb) * (1 + sb).log()).exp() if s > 0 else arb(1)


def profile_work(atoms: int) -> int:
    """The most work units one :func:`product_profile` of a block of ``atoms`` atoms can take (its suffix sums, and a
    pass at one s with every atom its own chunk); what it took is charged after."""
    return (PER_SUFFIX_ATOM + PER_CHUNK) * atoms + 1


def _checked_log(S: FloatArray) -> tuple[FloatArray, float]:
    """``(ℓ, err)``: ℓ = log S for positive floats S (numpy's log, not trusted) and a rigorous bound err of
    max |ℓ − log S|, checked a posteriori with :func:`exp_floats`: y = exp_floats(ℓ) = e^ℓ(1 ± EXP_REL) and
    ρ = fl(y/S) = (y/S)(1 ± u), so |ℓ − log S| ≤ |log ρ| + 2(EXP_REL + u) ≤ 2|ρ − 1| + 2(EXP_REL + u) for |ρ − 1| ≤
    1/2; err = inf when the check fails (a sum outside exp_floats' range, or a log worse than :data:`_LOG_CHECK`)."""
    with np.errstate(divide="ignore"):
        ell = np.log(S)
    if not len(ell) or not np.all(np.isfinite(ell)) or float(np.max(np.abs(ell))) > 690.0:
        return ell, math.inf
    dev = float(np.max(np.abs(exp_floats(ell) / S - 1.0)))
    if not dev <= _LOG_CHECK:
        return ell, math.inf
    return ell, 2.0 * dev * (1.0 + 2.0 ** -20) + 2.0 * (EXP_REL + U) + 1e-300


class _Suffix:
    r"""The s-independent part of a block's profile (:func:`_suffix_of`): with the atoms sorted by computed loss L̂
    (ascending) and J the atoms kept here (those above index J have a P-mass below e^{−_EXP_CAP} of the largest and
    are bounded with the dropped ones), ``a[j]`` ≥ log Σ_{i ≥ j, i < J} e^{lp̂_i − R} − ``ea`` and ``b[j]`` ≤
    log Σ_{i ≥ j, i < J} e^{lp̂_i − L̂_i − R + Lt} + ``eb`` up to the margins (R the largest lp̂, Lt the largest L̂);
    ``da``/``db`` the checked errors of the logs alone.

    Chunks of at most :data:`_CHUNK` consecutive atoms and :data:`_CHUNK_NATS` of loss: the suffix sums decrease along
    j, so a[first] + 2da and b[last] − 2db bound a and b over a chunk (the pass per s refines only the chunks that may
    hold the maximum); ``W`` a lower bound of a chunk's Σ e^{lp̂_i − R} and ``m`` of its P-weighted mean of L̂_i − L̂_first,
    so that by Jensen Σ_chunk e^{lp̂_i + sL̂_i} ≥ e^{R + sL̂_first}·W·e^{s·m} (the kept tilted mass from below, one term a
    chunk: its slack e^{s²w²/8} at most for a chunk of width w)."""

    __slots__ = ("a", "b", "ea", "eb", "da", "db", "R", "Lt", "J", "amax", "bmax", "starts", "sizes", "a_first",
                 "b_last", "W", "m", "L_first", "kept_err")

    def __init__(self, a: FloatArray, b: FloatArray, ea: float, eb: float, da: float, db: float, R: float, Lt: float,
                 J: int, starts: npt.NDArray[np.int64], W: FloatArray, m: FloatArray, L_first: FloatArray,
                 kept_err: float):
        self.a, self.b, self.ea, self.eb, self.da, self.db, self.R, self.Lt, self.J = a, b, ea, eb, da, db, R, Lt, J
        self.amax = float(np.max(np.abs(a))) if len(a) else 0.0
        self.bmax = float(np.max(np.abs(b))) if len(b) else 0.0
        self.starts = starts
        self.sizes = np.diff(np.append(starts, J))
        self.a_first, self.b_last = a[starts], b[starts + self.sizes - 1]
        self.W, self.m, self.L_first, self.kept_err = W, m, L_first, kept_err

    def chunk_mask(self, chunks: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """The atoms (of the first J) of the chunks marked in ``chunks``."""
        out: npt.NDArray[np.bool_] = np.repeat(chunks, self.sizes)
        return out


def _suffix_of(block: Block) -> _Suffix | None:
    r"""The suffix sums of :class:`_Suffix` for ``block``, kept in ``block.prepared`` (γ- and s-independent); None
    when a checked log fails (the caller then takes the ordinary bound).

    Rounding (all a priori or checked): z = fl(lp̂ − R) errs by u|z|; w = fl(fl(lp̂ − R) + fl(Lt − L̂)) by
    2u(|lp̂ − R| + |Lt − L̂|); the terms e^z are over-estimated by exp_floats of max(z, −_EXP_CAP) (relative EXP_REL),
    the terms e^w under-estimated by exp_floats of min(w, _EXP_CAP) and by 0 below −_EXP_CAP; suffix sums of N
    non-negative terms err by at most γ_N = Nu/(1 − Nu) relative (Higham); the logs by their checked error."""
    got = block.prepared.get("profile_suffix")
    if got is not None or "profile_suffix" in block.prepared:
        return got if isinstance(got, _Suffix) else None
    lp, L = block.lp, block.L
    if len(L) > 1 and not bool(np.all(L[1:] >= L[:-1])):
        order = np.argsort(L, kind="stable")
        lp, L = lp[order], L[order]
    R, Lt = float(np.max(lp)), float(np.max(L))
    z = lp - R
    w = z + (Lt - L)
    alive = np.nonzero(w >= -_EXP_CAP)[0]
    J = int(alive[-1]) + 1 if len(alive) else 0
    out: _Suffix | None = None
    if J:
        z, w = z[:J], w[:J]
        N = J
        gam = N * U / (1 - N * U)
        p = exp_floats(np.maximum(z, -_EXP_CAP))
        SA = np.cumsum(p[::-1])[::-1]
        q = np.where(w >= -_EXP_CAP, exp_floats(np.clip(w, -_EXP_CAP, _EXP_CAP)), 0.0)
        SB = np.cumsum(q[::-1])[::-1]
        a, da = _checked_log(SA)
        b, db = (_checked_log(SB) if bool(np.all(SB > 0)) else (SB, math.inf))
        if math.isfinite(da) and math.isfinite(db):
            zmax = float(np.max(np.abs(z)))
            wmag = zmax + float(Lt - L[0])
            ea = block.lp_err + U * zmax + 2 * EXP_REL + 2 * gam + da  # −log(1 − x) ≤ 2x for x ≤ 1/2
            eb = block.lp_err + block.L_err + 2 * U * wmag + 2 * EXP_REL + 2 * gam + db
            # chunks: every _CHUNK atoms and wherever L̂ enters another cell of width _CHUNK_NATS
            Lk = L[:J]
            cell = np.floor((Lk - Lk[0]) * (1.0 / _CHUNK_NATS))
            new_chunk = np.arange(J) % _CHUNK == 0
            new_chunk[1:] |= cell[1:] != cell[:-1]
            starts = np.nonzero(new_chunk)[0].astype(np.int64)
            L_first = Lk[starts]
            p_lo = np.where(z >= -_EXP_CAP, p, 0.0)  # e^z from below: 0 where the exponent was raised
            W = np.add.reduceat(p_lo, starts)
            d = Lk - np.repeat(L_first, np.diff(np.append(starts, J)))  # ≥ 0: L̂ sorted
            W1 = np.add.reduceat(p_lo * d, starts)
            # the weights err by ε = EXP_REL + u·zmax relative, d by u, the chunk sums by γ_{_CHUNK}: the mean from below
            eps = EXP_REL + U * zmax
            g_chunk = (_CHUNK + 2) * U / (1 - (_CHUNK + 2) * U)
            m = np.where(W > 0, W1 / np.where(W > 0, W, 1.0), 0.0) * (1.0 - 4 * eps - 4 * g_chunk - 8 * U)
            W = W * (1.0 - 2 * eps - 2 * g_chunk)
            out = _Suffix(a, b, ea * (1 + 2.0 ** -20), eb * (1 + 2.0 ** -20), da, db, R, Lt, J, starts, W,
                          np.maximum(m, 0.0), L_first, block.lp_err)
    block.prepared["profile_suffix"] = out
    return out


#: profiles computed in the suffix form (not the ordinary bound's fallback), since the module was loaded (tests assert
#: the route was used)
SUFFIX_PROFILES = [0]
#: C_X(s) balls by (parts, cut, atoms, s): a search asks for the same few profiles at many boxes
_PROFILES: Memo[arb] = Memo(512)


def tilted_profile(block: Block, loss: PairLoss, b: int, s: fmpq,
                   charge: Callable[[int], None] | None = None) -> arb:
    r"""A ball whose upper end bounds C(s) = sup_{t>0} t^s F_t(L^{⊗b}) (F: the finite part of E_t), from ``block``,
    the lattice block of ``b`` coordinates of ``loss`` (module docstring); s ≥ 0 a dyadic rational (a float).
    A profile not yet known is refused first if its work (:func:`profile_work`) exceeds ``max_work``; ``charge``
    is then called with it."""
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
    work = profile_work(block.count)
    require("max_work", work, f"profile_bound: the tilted profile of {sum(b for _, b in parts)} coordinates "
                              f"({block.count} atoms)")
    out, took = _block_profile(block, parts, s)
    _PROFILES.put(key, out)
    if charge is not None:
        charge(took)
    return out


def _tilted_profile(block: Block, loss: PairLoss, b: int, s: fmpq) -> arb:
    """:func:`tilted_profile` without the memo."""
    return _block_profile(block, ((loss, b),), s)[0]


def _block_profile(block: Block, parts: Sequence[tuple[PairLoss, int]], s: fmpq) -> tuple[arb, int]:
    """:func:`product_profile` without the memo (module docstring: the suffix form of C(s)): the ball and the work
    units it took."""
    if s < 0:
        raise ParameterError(f"s: must be >= 0, got {s}")
    with ctx.workprec(128):
        c_ball = c_of_s(s)
        moment = arb(1)
        for loss, b in parts:
            moment *= moment_ball(loss, s) ** b
    fresh = "profile_suffix" not in block.prepared
    suffix = _suffix_of(block) if s > 0 and any(b and loss.classes for loss, b in parts) else None
    took = PER_SUFFIX_ATOM * block.count if fresh and "profile_suffix" in block.prepared else 1
    if suffix is None:  # s = 0, no finite class, or a failed log check: the ordinary bound c(s)·Π M(s)^b
        with ctx.workprec(128):
            return c_ball * moment, took
    sf = float(s)
    if fmpq(*sf.as_integer_ratio()) != s:
        raise ParameterError("s: must be a float (a dyadic rational) for the tilted profile")
    SUFFIX_PROFILES[0] += 1
    # max_j (1 + s)a_j − s·b_j in floats: the chunks' bounds first, then the atoms of the chunks that may exceed the
    # best atom found (every other chunk's bound is below it); the roundings (three and the sum 1 + s, each ≤ u of
    # magnitudes below the margin ev) and the chunks' 2da, 2db
    av, bv = suffix.a, suffix.b
    slack = 2 * (1.0 + sf) * suffix.da + 2 * sf * suffix.db
    cv = (1.0 + sf) * suffix.a_first - sf * suffix.b_last + slack
    top = int(np.argmax(cv))
    first = slice(int(suffix.starts[top]), int(suffix.starts[top]) + int(suffix.sizes[top]))
    v = float(np.max((1.0 + sf) * av[first] - sf * bv[first]))
    open_atoms = suffix.chunk_mask(cv > v)
    refined = int(np.count_nonzero(open_atoms))
    if refined:
        v = max(v, float(np.max((1.0 + sf) * av[open_atoms] - sf * bv[open_atoms])))
    took += PER_CHUNK * len(cv) + PER_REFINED_ATOM * (refined + int(suffix.sizes[top]))
    ev = 4 * U * ((1.0 + sf) * suffix.amax + sf * suffix.bmax + abs(v) + slack) * (1 + 2.0 ** -20)
    # the kept atoms' tilted mass from below (for the atoms left out: M(s)^b minus it), one Jensen term a chunk
    # (:class:`_Suffix`): x_c = fl(s·L̂_first + s·m_c − T) errs by 4u of its magnitudes; below −700 a term counts as 0
    x = sf * suffix.L_first + sf * suffix.m
    T = float(np.max(x))
    x = x - T
    e_x = 4 * U * (sf * float(np.max(np.abs(suffix.L_first))) + sf * float(np.max(suffix.m)) + abs(T))
    kept_sum = float(np.sum(np.where(x >= -700.0, suffix.W * exp_floats(np.maximum(x, -700.0)), 0.0)))
    N = len(x)
    with ctx.workprec(128):
        sb = arb(s)
        expo = (arb(suffix.R) + sb * arb(suffix.Lt) + arb(v) + arb(ev) + (1 + sb) * arb(suffix.ea)
                + sb * arb(suffix.eb))
        kept = c_ball * expo.exp()
        # true loss ≥ L̂ − L_err, true log-mass ≥ lp̂ − lp_err; the products and the sum: (N + 2)u (Higham)
        shrink = ((-arb(suffix.kept_err) - sb * arb(block.L_err) - arb(e_x)).exp() * (1 - arb(EXP_REL))
                  * (1 - arb(2 * (N + 2)) * arb(U)))
        kept_lo = (arb(suffix.R) + arb(T)).exp() * arb(kept_sum) * shrink
        # the true value of moment − kept_lo is ≥ 0 (it bounds the tilted mass left out), so the ball's upper end
        # serves; each atom left out adds at most c(s)·P_a r_a^s (F_t is subadditive over atoms)
        out: arb = kept + c_ball * (moment - kept_lo)
    return out, took


#: s of :func:`profile_box_bound` is 2^(i/_S_STEPS) rounded to a float of 24 significant bits (an exact dyadic rational
#: that boxes share, so their profiles are computed once)
_S_STEPS = 256
#: the first steps of i tried above the Chernoff bound's s (the profile's best s lies above it: the Chernoff bound's own
#: slack grows with s); the search then walks on with doubling steps while the bound falls and narrows down to one step
#: around the best.  At small s the best lies far above: on seed 1000 of benchmarks/bench_tensor.py
#: --random-3x3-deltas at n = 1000, γ = 2^1274 (s ≈ 0.026 from the Chernoff grid) the base of the composition (0, 516,
#: 0, 484) itself bounds it by 0.2077 at s = 0.040 (E_γ = 0.2075) and by 0.2360 at the first tries, and the one-class
#: profile of the box (0..7, 509..516, 0..7, 470..477) gives 0.261 where the first tries gave 0.287
_S_TRIES = (0, 3, 6, 9, 12)
#: the largest step of that walk (steps of 2^(1/256)): 2^(128/256) = √2 per step at most
_S_WALK = 128
#: the most bounds one search of s computes (each a pass over the base's chunks)
_S_EVALS = 40


class _Settled(Exception):
    """The search of s in :func:`base_box_bound` stops: a bound below the best lower bound, or the evaluations spent."""


def _s_of(i: int) -> fmpq:
    f = 2.0 ** (i / _S_STEPS)
    m, ex = math.frexp(f)
    return fmpq(*math.ldexp(round(m * 2 ** 24), ex - 24).as_integer_ratio())


#: the steps of the grid of s per octave, for other callers (simplex_filter's tilted pair bases share this grid)
S_STEPS = _S_STEPS


def s_of(i: int) -> fmpq:
    """s = 2^(i/:data:`S_STEPS`) rounded to a float of 24 significant bits: an exact dyadic rational of the grid the
    box bounds search."""
    return _s_of(i)


def profile_box_bound(losses: Sequence[PairLoss], vertices: Sequence[Sequence[int]], gamma: fmpq, A: int, b: int,
                      block: Block, charge: Callable[[int], None] | None = None, below: fmpq | None = None) -> fmpq:
    r"""An exact rational upper bound of E_γ of every composition k in the convex hull of ``vertices`` (class counts,
    indexed like ``losses``; every vertex with k_A ≥ b): p_∞ + γ^{−s} C_b(s) M_A(s)^{k_A − b} Π_{i≠A} M_i(s)^{k_i}
    (module docstring) at one s, maximised over the vertices (its logarithm is linear in k, p_∞ monotone in each
    count); ``block``: the lattice block of b coordinates of class A.  s is searched on the grid 2^(i/256) from the
    Chernoff bound's, walking while the bound falls (its logarithm is convex in s); any s gives a bound, so with
    ``below`` the search of s stops at the first bound under it (a box is pruned by any bound below the best lower
    bound)."""
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
            moments: dict[int, arb] = {}  # M_j(s), looked up once per class (not once per vertex)
            for v in vertices:
                ball = scale
                for j, (loss, k) in enumerate(zip(losses, v)):
                    if k - held.get(j, 0) and loss.classes:
                        m = moments.get(j)
                        if m is None:
                            m = moments[j] = moment_ball(loss, s)
                        ball *= m ** (k - held.get(j, 0))
                if top is None or ball.upper() > top.upper():
                    top = ball
            ends = ball_endpoints(top) if top is not None else None
        return ends[1] if ends is not None else ONE

    tried: dict[int, fmpq] = {}

    def at(i: int) -> fmpq:
        """The bound at s = 2^((start + i)/256), memoised; :class:`_Settled` once it is below ``below`` (the box is
        ruled out) or :data:`_S_EVALS` bounds are spent."""
        if i not in tried:
            if len(tried) >= _S_EVALS:
                raise _Settled
            tried[i] = bound(start + i)
            if below is not None and p_max + tried[i] < below:
                raise _Settled
        return tried[i]

    # the logarithm of each vertex's bound is convex in s (log sup_t t^s F_t is a supremum of functions affine in s,
    # log M_i(s) is convex), so is their maximum: walk from the best of the first tries in the direction the bound
    # falls, with doubling steps, then halve the step around the best point (floats only choose s: any s gives a bound)
    try:
        for i in _S_TRIES:
            at(i)
        best = min(tried, key=lambda i: tried[i])
        step = 3  # the spacing of the first tries
        for direction in (1, -1):
            d = 3
            while at(best + direction * d) < tried[best]:
                best, d = best + direction * d, min(2 * d, _S_WALK)
                step = max(step, d)
        while step > 1:
            step //= 2
            for i in (best - step, best + step):
                if at(i) < tried[best]:
                    best = i
    except _Settled:
        pass
    low = min(tried, key=lambda i: tried[i])
    return min(p_max + tried[low], ONE)


__all__ = ["base_box_bound", "c_of_s", "product_profile", "profile_box_bound", "profile_work", "s_of",
           "tilted_profile", "PER_CHUNK", "PER_REFINED_ATOM", "PER_SUFFIX_ATOM", "S_STEPS"]
