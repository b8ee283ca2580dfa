r"""Certified bounds of E_γ for a product of two losses with up to three ratio classes each.

The interior compositions of a 2×3 kernel's pair-type search — k coordinates (x, x'), with loss (p, q), and
n − k coordinates (x', x), with the reverse loss (q, p) — are products of two losses of three ratio classes
(D = 2), whose exact type classes are O(n²) classes of O(n)-bit integers.  Here E_γ of such a product
``[(loss_A, k_A), (loss_B, k_B)]`` (each loss with at most three finite ratio classes and any P-only mass; the
counts arbitrary, so the over-full top corners of the branch and bound are covered too) is enclosed by exact
rationals lo ≤ E_γ ≤ hi from float64 arithmetic with a rigorous a-priori error analysis:

.. math::  E_\gamma = p_\infty + \sum_{a, b:\ L_a + L_b > \theta} P_a P_b \big(1 - e^{\theta - L_a - L_b}\big),
           \qquad \theta = \log\gamma,

a = (a₁, a₂, a₃) the class counts of block A (multinomial mass P_a = k_A!/(a₁!a₂!a₃!)·Π P_l^{a_l}, loss
L_a = Σ a_l log r_l), b the same for block B, p_∞ = 1 − (1 − p_∞^A)^{k_A}(1 − p_∞^B)^{k_B} (docs/claims.md D-2, D-7;
[A] Thm 1 / B-10: δ_n(γ) is the maximum of this over the compositions).  The steps:

1. **Atoms.**  log P_a and L_a are evaluated in float64 from a table of log m! (arb, rounded) with an absolute
   error bound from the operation count (every +, −, × of IEEE round-to-nearest errs by at most u = 2⁻⁵³
   relative).  Only atoms with log P_a above the block's largest value minus ``cut`` nats are kept: per row a₁
   the conditional law of a₂ is binomial, hence log-concave, so an interval around the row's mode whose two
   neighbours outside have computed values below the cut minus the error bound (a normal-approximation guess, moved
   out by doubling steps until they do) has every atom outside it below the cut; atoms inside it certified below
   the cut are left out too, and rows whose maximum (the conditional mode) is below it are dropped whole.  The
   dropped mass is at most (number of atoms)·e^{cut}, certified by arb.
2. **Sweep.**  B's atoms are sorted by loss once; for each atom of A, the B-atoms above θ − L_a are a suffix
   (its start found by one linear merge of the two sorted loss lists, or by binary searches when A has far fewer
   atoms), and Σ_suffix P_b (1 − e^{c − L_b}) = TP(c) − e^{c}·TQ(c) is read from suffix sums.
   The Q-sums are taken in chunks of loss width H with their own reference loss, so every exponential lies in
   [e^{−H}, e^{H}] (no overflow, no underflow), and chunks more than two away are bounded by e^{−2H}·TP.
3. **No exact threshold decision is needed**: t ↦ (1 − e^{−t})_+ is 1-Lipschitz where it is positive, so an
   error δ in a computed loss changes each pair's term by at most δ·P_aP_b, and only for pairs with computed
   loss above θ − δ; that mass is one more suffix sum.  A pair whose ratio equals γ (a tie) contributes 0 and
   is covered by the same bound.
4. **Rounding.**  Masses carry relative errors e^{δ}(1 + 64u) − 1 (δ: the log's error; :func:`exp_floats` is a
   table-driven exponential with a proven error of at most 64u), sums of m non-negative floats Higham's
   2(m − 1)u in any order (as :mod:`exactdp.numbers.float_interval`); the signed final sum the same bound times
   the sum of absolute values.  A product of two masses can underflow (every mass is normal, but a pair's may lie
   below 2^-1022 of the scale): it then errs by up to 2^-1075 absolutely, so each sum also gets an absolute allowance
   of (atoms walked)·2^-1072 (:func:`_sweep_many`).  Every bound is summed, converted to an exact rational and added
   outward.  A window's
   product block (step 5 with every pair kept) takes its masses from its factors' exponentials, e^{lp_x + lp_y} =
   e^{lp_x}·e^{lp_y} (:func:`_factored_arrays`), and adds their rounding η to its log-mass error, so the same bound
   holds.

5. **More than two losses** (a product of several kernels: RR^{⊗n₁} ⊗ K^{⊗n₂}, or a composition with fixed
   factors): the block of most atoms is one side, the other is the product of the remaining blocks
   (:func:`product_block`: log-masses and losses add, pairs below the product's cut are left out and their mass
   bounded by their number times e^{cut + errors}), so the sweep above applies unchanged ([A] Thm 1, B-10).

Result: :func:`hockey_stick_bounds` → ``(lo, hi)`` exact ``fmpq`` with lo ≤ E_γ ≤ hi.  The dropped mass is also
bounded by (1 − p_∞)^k minus the kept mass, so the default cut of :data:`CUT_NATS` nats leaves an absolute width
of about 10⁻⁹ (relative 10⁻⁸ at n = 10⁴ for E_γ ≈ 0.15): enough to separate compositions.  With ``rel_width`` the
cut is deepened (×2, up to :data:`MAX_CUT_NATS`) while the dropped mass is what keeps the width above the request
(E_γ ≈ 10⁻⁶² at n = 10⁴: 176 nats, relative width 10⁻⁸).  Cost: O(W log W) for W kept atoms, W ≈ 2π·cut·σ²
(σ² ≈ k·√(P₁P₂P₃)): about 2.4·10⁴ atoms per block at k = 10³, 2.4·10⁵ at k = 10⁴.
:class:`LatticeEnclosure` keeps the atoms of each (loss, k) block (γ-independent) for repeated calls; the
composition filter and the enclosure / inversion layers share the module's store (:func:`shared_blocks`), so a
sweep over γ or the steps of an inversion build each block once.

**The composition search** (:data:`THREE_RATIO`, registered in
:func:`exactdp.measures.composition_filter.routines`): for one factor with two pair classes of at most three
ratio classes (a 2×3 kernel: (x, x') and (x', x)), every composition gets bounds by a best-first branch and bound
over intervals of k: an interval [a, b] is bounded by E_γ at its top corner (b, n − a) (data processing: more
coordinates of each class never lower E_γ), first by :func:`chernoff_bound`, then by the lattice bounds; intervals
below the best lower bound are discarded whole, the rest split down to single compositions.  For
p = (1/2, 1/4, 1/4), q = (1/8, 3/8, 1/2) at γ = 3^k ≈ e^{n·KL + √n}: 38 lattice evaluations at n = 10³,
50 at n = 10⁴ (times: docs/speed.md), and only the homogeneous composition survives.  Limits:
past n = 200 a best lower bound within 2⁻²⁰ of 1 stops the search at once (the overlaps that separate the
compositions lie where only the deepest cuts reach), and the work stops at ``max_work``; the compositions not
settled keep valid bounds (their open interval's, or [0, 1]), so the search then refuses under its own guard.
Within :data:`NEAR_ONE_FLAT` of 1 (but not within 2⁻²⁰) the leaves get one pass at their cut and no refinement:
every composition is within 1 − best of the maximum, so nothing separates them, and the enclosure route takes their
bounds as they are when they are within its width.
The two homogeneous corners come first, each cut :data:`CUT_NATS` below its own Chernoff bound (so the best lower
bound is tight however small E_γ is: at δ ≈ 10⁻¹² the default cut left it 0 and nothing could be pruned).  The cut of
the boxes and leaves is :data:`FILTER_CUT_NATS` plus log(1/best lower bound): the dropped mass of a bound must fall
below the maximum it is compared with (E_γ ≈ 10⁻⁸ left every composition open at a 12-nat cut).  Cuts are rounded up
to a multiple of :data:`CUT_STEP` nats and each block keeps its swept γ-independent arrays (:attr:`Block.prepared`),
so the searches at nearby γ (a sweep of γ, the steps of an inversion) find their blocks built and pay only the
γ-dependent search of the smaller block's atoms.
Products of several kernels are searched the same way when one factor has two pair classes and every other
factor one (fixed in every composition; :func:`_applies`).
Pairs with KL(p‖q) ≈ KL(q‖p) have E_γ nearly flat in k (seed 3 of ``bench_tensor.py --random-pairs``: about 4·10⁻⁶
relative per composition at n = 10³, while one more coordinate moves E_γ by about 10⁻³): a box's top corner then lies
above every composition, so its bound prunes nothing; the search predicts E_γ at the top corner (its Chernoff bound over
the corners' Chernoff-to-value ratio, :data:`_PREDICT`) and splits such boxes without it, and every composition gets
its own leaf bound — n + 1 lattice evaluations, 2(n + 1) blocks a cut level (2.2·10⁷ atoms at n = 10³ and a 24-nat
cut).  The module's store (:func:`shared_blocks`) keeps a whole level within its share of ``max_memory``, so the next
γ at that level walks kept blocks (charged the walk only, :func:`sweep_work`): a sweep of γ pays one build a level.
A composition the filter had to leave open is tightened at the filter's own level first (:func:`leaf_cut`), then at
the requested width.

**Leaves kept by tilted mass** (a deep γ).  The P-mass cut must reach e^{−12}·E_γ, so its depth grows with
log(1/δ) (40 nats at δ ≈ 10⁻⁹, whose first pass at n = 10³ exceeded the default ``max_work``).  Only the pairs of
large loss make E_γ, and they lie around the *tilted* mode: with s the Chernoff exponent of γ (:func:`tilted_level`,
on a grid of 1/:data:`TILT_GRID`), a block keeps the atoms whose P_a r_a^s is within the cut of the largest
(:func:`_tilted_block`: the same row search on the tilted trinomial P_l r_l^s / M(s)), and the pairs with an atom
left out add at most c(s)γ^{−s}·M_A(s)^{k_A}M_B(s)^{k_B}·(D̃_A + D̃_B) to E_γ, D̃ the normalised tilted mass left out
(certified: the count of atoms left out times e^{cut}, or 1 minus a lower bound of the kept tilted mass) —
(1 − e^{−x})_+ ≤ c(s)e^{sx} as in :func:`chernoff_bound`.  That cut depends on the Chernoff bound's ratio to E_γ only
(≈ 8.6 at n = 10³: 16 nats), not on δ; a candidate is then refined by P-mass as before.  A tilted level is built
for the γ of its s (the store keeps it as a level (cut, s)), so the search builds one only where it is at least
:data:`TILT_SAVING` nats shallower than the P-mass leaf cut.  Every leaf, tilted or not, is bounded first
:data:`LEAF_SHALLOW` nats shallower than its cut, the full cut only for the leaves that pass.  The Chernoff bounds
of the leaves and boxes of such a pair never prune: a float estimate of their exponent (:func:`chernoff_log`) skips the
certified bound of a leaf where it could not prune it, and of a box where it is above :data:`_HOPELESS` times the
best (the box keeps the trivial bound 1 and is split), and decides whether a box's top corner is worth its lattice
bound.

**Levels shared across γ.**  Any kept level serves any γ whose leaves it is deep enough for: the left-out part of a
block kept at s is bounded at that s for the γ asked (:func:`_left_out`), and a P-mass cut's dropped mass does not
depend on γ.  The Chernoff exponent is flat near its minimum (seed 3 at n = 10³: the cut a γ needs grows by 1–3 nats
from one grid point of s to the next), so a search first looks for the shallow pass of an earlier search over the same
losses (:meth:`BlockStore.passes`: a level of at least n blocks) whose full cut reaches what this γ needs at that
level's s, and at most :data:`REUSE_SLACK` more (:func:`_kept_level`, by :func:`tilted_need`); only without one does it
build its own level, a new tilted one cut :data:`TILT_MARGIN` nats deeper than needed so that the next γ of a sweep
finds it.  Seed 3's ten γ walk three shallow levels (by P-mass at 8 and 16 nats, tilted at s = 3/8 and 12 nats)
where they built six.

**Windows of compositions** (the batch's pass, :func:`_window_pass`).  Every A^{⊗(k0+i)} ⊗ B^{⊗(n−k0−i)}, i ≤ j, is a
garbling of A^{⊗k0} ⊗ B^{⊗(n−k0−j)} ⊗ D′_j, D′_j the chord majorant of the profiles of A^{⊗i} ⊗ B^{⊗(j−i)}
(:func:`~exactdp.measures.blackwell_join.window_majorant`, on a few of their ratios; independent of γ and k0), so one
sweep per γ of A^{⊗k0}'s block against B^{⊗(n−k0−j)}'s block times D′_j's atoms (:func:`window_bounds`) bounds the
j + 1 compositions of a window at once.  E_γ is not unimodal in k (seed 3, n = 20, γ = 32: local maxima at k = 0, 9 and
20), so no search along k is certified; a window whose bound is below a γ's best lower bound is closed for that γ, the
others bounded by the windows of its two halves (:data:`HALVES`), then composition by composition as before.  The
bound overshoots the window's maximum by 10⁻³–10⁻² relative (D′_8 on 14 points), so windows close where E_γ lies that
far below the maximum: 90–98 % of (window, γ) for the near-symmetric pairs at n = 10³, 73 % for seed 3 (figures:
docs/tensorization.md).  The pass keeps the blocks of the windows and of the compositions left open only, so it marks
its level as a whole pass (:meth:`BlockStore.mark_pass`): a later search at another γ (the steps of ε for δ) walks it
and builds the blocks it lacks there.  Past n = 68 the pass's windows hold 18 compositions (:func:`batch_window`: D′_17,
on more grid points for the flattest pairs), whose halves are windows of nine on the single searches' grid.  A single
search's box of j/2 + 1 to j + 1 compositions that its top corner cannot prune gets its window bound at the leaves'
shallow level too (j = 8, :data:`WINDOW`; after a batch's pass, the pass's j).  At one γ that bound is taken by
D′_j's atoms, E_γ(R ⊗ D′_j) = D′_∞ + Σ_w D′_w·E_{γ/r_w}(R): fourteen walks of the kept blocks of
R = A^{⊗k0} ⊗ B^{⊗m} instead of a product block 14 times the smaller one built, sorted and prepared for one sweep
(:func:`window_by_atoms` chooses by a time model; the batch's ten γ keep the product: one build, ten walks).  After a
batch's pass over the same losses a search splits its boxes on the batch's window grid (k0 ≡ 1 mod j + 1) where a box
spans a grid line, so its boxes of j + 1 compositions are the batch's windows and find their two blocks kept, and
bounds its boxes of j/2 + 1 to j + 1 compositions by their windows (with nine-composition windows, seed 3's ε(10⁻⁶)
after its batch: 137 window boxes in its two searches; 146 blocks built for its boxes and leaves before the grid, 2
with it).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import limit, require
from exactdp.measures.blackwell_join import window_majorant
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals, two_class_rows
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import ONE, ZERO, RationalInput, to_qq
from exactdp.numbers.rb import arb_to_fmpq, ball_endpoints, exact_bits_cap

U = 2.0 ** -53
#: relative error bound of :func:`exp_floats` (its analysis gives ≤ 16u; 64u is the margin kept)
EXP_REL = 64 * U
#: width (nats) of a loss chunk of the Q-sums: every exponential of the sweep lies in [e^{-H}, e^{H}]
H = 24.0
#: default depth of the cut below a block's largest log-mass (nats), on top of log(number of atoms)
CUT_NATS = 22.0
#: the cut of the composition filter's boxes and leaves (nats): the dropped mass is bounded by the finite mass
#: minus the kept one anyway (≈ e^{−12} ≈ 6·10⁻⁶ absolute), so the boxes and leaves cost half the atoms
FILTER_CUT_NATS = 12.0
#: a box whose top corner has a Chernoff bound above this multiple of the best lower bound is split without its
#: lattice bound (the Chernoff bound is within a factor ≈ 4 of E_γ at moderate deviations, so that bound would
#: not prune the box; an efficiency choice only — every box is still bounded before it is discarded)
_HOPELESS = 4
#: a box is also split without its lattice bound when its top corner's Chernoff bound, divided by the largest
#: Chernoff-to-value ratio of the two homogeneous corners (a prediction of E_γ at the top corner), is above the best
#: lower bound: E_γ nearly flat in k (pairs with KL(p‖q) ≈ KL(q‖p)), where a top corner has m more coordinates and
#: lies above every composition, so its bound prunes nothing and cost as much as a leaf (seed 3 of
#: benchmarks/bench_tensor.py --random-pairs: 998 such box bounds per search).  Efficiency only, as _HOPELESS
_PREDICT = fmpq(98, 100)
#: the relative width asked of a composition that survives its filter bound (the cut deepens while the dropped
#: mass dominates its width: E_γ near 1, where the overlap Σ min(P, γQ) lives in the far tails of the atoms)
REFINE = fmpq(1, 2**40)
#: the same with fixed factors (a product block per evaluation: each doubling of the cut costs about three times
#: the atoms; the consumers tighten the survivors to their own width anyway)
_REFINE_FIXED = fmpq(1, 2**24)
#: past n = NEAR_ONE_N, a best lower bound within NEAR_ONE of 1 stops the search at once (see _enclose_all)
NEAR_ONE = fmpq(1, 2**20)
NEAR_ONE_N = 200
#: a best lower bound within this of 1: the leaves get one pass at their cut, neither a shallower first pass nor the
#: refinement of the candidates (:func:`_branch_and_bound`; efficiency only)
NEAR_ONE_FLAT = fmpq(1, 2**14)
#: the deepest cut (nats): exponentials stay in the normal float range
MAX_CUT_NATS = 600.0
#: work units per kept atom of a block built (the log-masses, the row searches, the sort by loss; calibrated with
#: benchmarks/bench_tensor.py --all-sequences against the other max_work charges at 40, lowered in proportion to the
#: measured speed-up of the row searches, docs/speed.md): for the cost guard
PER_ATOM = 32
#: work units per atom of a block whose γ-independent sweep arrays (:attr:`Block.prepared`) are computed, once per
#: block: the masses of a walked (smaller) block, and the masses with the suffix, head and chunk sums of a searched
#: (larger) one; and per atom of the smaller block walked by a sweep (a search and a dozen vector passes each) —
#: each in proportion to its measured time against the build's (the seed-3 pair of ``bench_tensor.py
#: --random-pairs``, the ratios in the commit history), so a sweep over kept blocks is charged what it costs, not a
#: rebuild
_PER_PREP_WALKED = 20
_PER_PREP = 34
_PER_WALK = 44
#: work units of the part of building and preparing one block that does not grow with its atoms (the row search's,
#: the sort's and the sweep arrays' calls, the exact bounds of the mass left out): about the per-atom work of
#: 4.5·10³ atoms (the seed-3 pair of ``bench_tensor.py --random-pairs`` at k ≈ 500, whose blocks hold about 5·10³:
#: measured against blocks of 10² to 2·10⁴ atoms, docs/tensorization.md).  Only :func:`_plan_levels` counts it (a new
#: level is 2(n + 1) blocks), never a charge to ``max_work``
_PER_BLOCK = 300_000
#: bytes an atom of a kept block takes once swept (its log-mass and loss, the mass and the suffix, chunk and head
#: sums of :attr:`Block.prepared`; resident memory over kept atoms, the seed-3 pair at n = 1000 and a 24-nat cut,
#: rounded up): sizes the shared store
_BYTES_PER_ATOM = 52
#: work units per pair of atoms of a product block before its cut (a search per atom, the kept pairs' sums and
#: their sort, calibrated against PER_ATOM with benchmarks/bench_tensor.py); the simplex filter charges its products the same
PER_PAIR = 16


# -- a rigorous exponential on float arrays ---------------------------------------------------------

#: float64 and int64 arrays (atoms' log-masses and losses, lattice indices)
FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
#: a product: each pair loss with its multiplicity (number of coordinates)
Items: TypeAlias = Sequence[tuple[PairLoss, int]]
#: an open interval [a, b] of the branch and bound: (−bound, tie-break, a, b)
OpenInterval: TypeAlias = tuple[fmpq, int, int, int]

_TBITS = 10
_TN = 1 << _TBITS


def _exp_table() -> tuple[FloatArray, float, float, float]:
    with ctx.workprec(200):
        ln2 = arb(2).log()
        c = ln2 / _TN
        table = np.array([float(arb(j * c).exp().mid()) for j in range(_TN)], dtype=np.float64)
        inv = float((_TN / ln2).mid())
        c_hi = float(c.mid())
        c_hi = math.ldexp(math.floor(math.ldexp(c_hi, 40)), -40)  # 30 significant bits: N·c_hi is exact
        c_lo = float((c - c_hi).mid())
    return table, inv, c_hi, c_lo


_TABLE, _INV, _C_HI, _C_LO = _exp_table()


def exp_floats(x: npt.ArrayLike) -> FloatArray:
    r"""e^x for a float64 array with |x| ≤ 700, relative error ≤ :data:`EXP_REL` (rigorous, not libm's).

    x = N·c + r with c = log 2 / 1024 (N = round(x/c), c = c_hi + c_lo, c_hi of 30 bits so N·c_hi is exact for
    |N| < 2²³), e^x = 2^{⌊N/1024⌋} · T[N mod 1024] · (1 + r + r²/2 + r³/6 + r⁴/24) with |r| ≤ c/2 + 2⁻⁴⁰.
    Errors: the table entries (arb, rounded: u), r (x − N·c_hi is a float subtraction of close numbers,
    N·c_lo ≤ 2⁻²⁰|x|: absolute error ≤ 4u(|r| + 2⁻²⁰·|x|) + |N|·|c − c_hi − c_lo| ≤ 2u for |x| ≤ 700), the
    Taylor remainder |r|⁵/120·e^{|r|} < 10⁻²⁰ < u, Horner (4 × and 4 +, each u relative on values within
    [0.99, 1.01]: ≤ 9u), the final product u and the exact power-of-two scaling: ≤ 16u in all.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.size and (np.max(np.abs(x)) > 700):
        raise ParameterError("exp_floats: |x| must be <= 700")
    return _exp_in_range(x)


def _exp_in_range(x: FloatArray) -> FloatArray:
    """:func:`exp_floats` of a float64 array the caller has checked to lie in [−700, 700] (x is not modified)."""
    # the same operations as 2^{N >> 10}·(T[N & 1023]·(1 + r(1 + r(1/2 + r(1/6 + r/24))))), in place: the table
    # entry times the polynomial lies in [0.99, 2.02] and N >> 10 ≥ −1010, so the scaling is a multiplication by
    # a normal power of two (exact, as ldexp), built from its exponent bits
    Nf = x * _INV
    np.rint(Nf, out=Nf)
    N = Nf.astype(np.int64)
    r = Nf * _C_HI
    np.subtract(x, r, out=r)
    Nf *= _C_LO
    r -= Nf
    poly = r * (1.0 / 24.0)
    poly += 1.0 / 6.0
    poly *= r
    poly += 0.5
    poly *= r
    poly += 1.0
    poly *= r
    poly += 1.0
    poly *= np.take(_TABLE, N & (_TN - 1))
    N >>= _TBITS
    N += 1023
    N <<= 52
    poly *= N.view(np.float64)
    return poly


# -- log m! ---------------------------------------------------------------------------------------

_LF = np.zeros(1)
#: _LF_ERR[m]: a bound on the absolute error of every entry j <= m of _LF (a running maximum, so the bound used for a
#: block of size m depends on m alone, not on how far the table was extended before: the same call gives the same
#: enclosure whatever ran before it in the process)
_LF_ERR = np.zeros(1)


def _log_factorials(m: int) -> tuple[FloatArray, float]:
    """(table of log j! for j ≤ m as floats, a bound on the absolute error of its entries j ≤ m), extended on
    demand."""
    global _LF, _LF_ERR
    if len(_LF) <= m:
        size = max(m + 1, 2 * len(_LF))
        require("max_memory", 16 * size, f"lattice_interval: a table of log m! up to m = {size}")
        out = np.empty(size)
        errs = np.empty(size)
        err = 0.0
        with ctx.workprec(128):
            for j in range(size):
                b = arb(j + 1).lgamma()
                f = float(b.mid())
                out[j] = f
                err = max(err, float(b.rad()) + abs(f) * U + 1e-300)
                errs[j] = 2 * err
        _LF, _LF_ERR = out, errs
    return _LF, float(_LF_ERR[m])


def _float_with_error(b: arb) -> tuple[float, float]:
    """(float near the ball's midpoint, bound on |float − value|) of an arb ball."""
    f = float(b.mid())
    return f, float(b.rad()) * 2 + abs(f) * U * 2 + 1e-300


# -- one block: the kept atoms ----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Block:
    r"""The kept atoms of k coordinates of one loss: log-masses ``lp`` and losses ``L`` (float64, sorted by
    ``L``), each within ``lp_err`` / ``L_err`` of the true value; ``dropped``: an exact upper bound of the
    P-mass of the atoms left out (all below the cut); ``count``: atoms kept."""

    lp: FloatArray
    L: FloatArray
    lp_err: float
    L_err: float
    dropped: fmpq
    cut: float
    finite: fmpq = ONE  # an upper bound of the block's finite P-mass (1 − p_∞)^k (exact when small)
    #: a block kept by tilted mass (:func:`_tilted_block`): its exponent s, and ``tilt_dropped`` an exact upper bound of
    #: the normalised tilted mass Σ_dropped P_a r_a^s / M(s)^k of the atoms left out (``dropped`` is then only the
    #: trivial bound of their P-mass; :meth:`LatticeEnclosure.bounds` bounds their part of E_γ through the moments)
    tilt: fmpq | None = None
    tilt_dropped: fmpq = ZERO
    #: the γ-independent arrays of the sweep (:func:`_sweep_side`, :func:`_suffix_side`), computed once per block: a
    #: sweep over γ, or the steps of an inversion, re-read them
    prepared: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    @property
    def count(self) -> int:
        return len(self.lp)


def _block(loss: PairLoss, k: int, cut_nats: float) -> Block:
    """The atoms of ``loss`` at multiplicity k whose log-mass is within ``cut_nats`` of the largest (step 1 of
    the module docstring)."""
    classes = loss.classes
    L_cls = len(classes)
    if k == 0 or L_cls == 0:  # the empty product (one atom of mass 1, loss 0); no finite class: handled above
        return Block(np.zeros(1), np.zeros(1), 0.0, 0.0, ZERO, 0.0)
    if L_cls > 3:
        raise ParameterError(f"lattice_interval: a loss with {L_cls} ratio classes (at most 3 are covered)")
    with ctx.workprec(128):
        lps = [_float_with_error(arb(P).log()) for _, P in classes]
        ls = [_float_with_error(arb(r).log()) for r, _ in classes]
    lpv = [f for f, _ in lps]
    lv = [f for f, _ in ls]
    lf, lf_err = _log_factorials(k)
    amax = max(abs(v) for v in lpv)
    # |computed − true| of a log-mass: 4 table entries, the class logs times counts, 9 roundings of terms
    # bounded by 4·lf[k] + k·max|log P_l| (doubled for the margin)
    lp_err = 2 * (4 * lf_err + k * max(e for _, e in lps) + 16 * U * (4 * float(lf[k]) + k * amax + 1))
    L_err = 2 * (k * max(e for _, e in ls) + 8 * U * (k * max(abs(v) for v in lv) + 1))
    total = (k + 1) * (k + 2) // 2 if L_cls == 3 else (k + 1 if L_cls == 2 else 1)
    if L_cls == 1:
        lp = np.array([k * lpv[0]])
        L = np.array([k * lv[0]])
        return Block(lp, L, lp_err, L_err, ZERO, 0.0)
    if L_cls == 2:
        a = np.arange(k + 1, dtype=np.float64)
        lp = lf[k] - lf[: k + 1] - lf[k::-1] + a * lpv[0] + (k - a) * lpv[1]
        top = float(np.max(lp))
        cut = top - cut_nats
        keep = lp >= cut - lp_err
        a = a[keep]
        lp, L = lp[keep], a * lv[0] + (k - a) * lv[1]
    else:
        lp, L, top, cut = _trinomial_atoms(k, lf, lpv, lv, lp_err, cut_nats)
    dropped_count = total - len(lp)
    dropped = ZERO
    if dropped_count:
        with ctx.workprec(64):
            ends = ball_endpoints(arb(dropped_count) * (arb(cut) + arb(2 * lp_err)).exp())
        dropped = ends[1] if ends is not None else ONE
    order = np.argsort(L, kind="stable")
    return Block(lp[order], L[order], lp_err, L_err, dropped, cut, _finite_hi(loss.p_only, k))


def tilted_weights(loss: PairLoss, s: fmpq) -> list[tuple[float, float]]:
    r"""The tilted class log-weights log(P_l r_l^s / M(s)), M(s) = Σ_l P_l r_l^s over the finite classes, as (float,
    bound on its absolute error) from 128-bit arb balls: a trinomial law (its masses sum to 1) whose atoms are the
    block's with mass P_a r_a^s / M(s)^k.  Kept per (loss, s) (:data:`_TILTED`): a search asks for them twice per
    block (the estimate and the build) at one s."""
    got = _TILTED.get((loss, s))
    if got is not None:
        return got
    with ctx.workprec(128):
        sb = arb(s)
        terms = [_log128(P) + sb * _log128(r) for r, P in loss.classes]
        log_m = sum((t.exp() for t in terms), arb(0)).log()
        out = [_float_with_error(t - log_m) for t in terms]
    _TILTED.put((loss, s), out)
    return out


#: :func:`tilted_weights` by (loss, s)
_TILTED: Memo[list[tuple[float, float]]] = Memo(1024)


def _tilted_block(loss: PairLoss, k: int, cut_nats: float, s: fmpq) -> Block:
    r"""The atoms of ``loss`` (three finite ratio classes) at multiplicity k kept by their *tilted* mass: those whose
    P_a r_a^s / M(s)^k is within ``cut_nats`` of the largest (the same row search as :func:`_block`, on the tilted
    trinomial of :func:`tilted_weights`).  For a deep γ the pairs that make E_γ lie around the tilted mode (the atoms
    of large loss), not the P-mode, so far fewer atoms are needed than by P-mass.

    The block carries ``tilt_dropped`` ≥ D̃ = Σ_dropped P_a r_a^s / M(s)^k: the smaller of (atoms left out)·e^{cut +
    2·err} and 1 − (a lower bound of the kept tilted mass: float sum with Higham's bound, :data:`EXP_REL` and the log
    error, in arb).  The left-out atoms' part of E_γ of a product with another block B is at most
    Σ_{a dropped, b} P_aP_b(1 − γ/(r_ar_b))_+ ≤ c(s)γ^{−s}·D̃·M(s)^k·M_B(s)^{k_B} (the Chernoff inequality
    (1 − e^{−x})_+ ≤ c(s)e^{sx}, c(s) = s^s/(1+s)^{1+s}; [A] Thm 1 / B-10), added by :meth:`LatticeEnclosure.bounds`.
    ``dropped`` is the trivial bound of the left-out P-mass (the finite mass: the sweep's P-mass bound is then the
    finite mass minus the kept mass)."""
    classes = loss.classes
    lf, lf_err = _log_factorials(k)
    sel = tilted_weights(loss, s)
    with ctx.workprec(128):
        lps = [_float_with_error(_log128(P)) for _, P in classes]
        ls = [_float_with_error(_log128(r)) for r, _ in classes]
    lpv, lv, sv = [f for f, _ in lps], [f for f, _ in ls], [f for f, _ in sel]

    def log_err(vals: Sequence[tuple[float, float]]) -> float:  # as lp_err of _block, for either weights
        amax = max(abs(v) for v, _ in vals)
        return 2 * (4 * lf_err + k * max(e for _, e in vals) + 16 * U * (4 * float(lf[k]) + k * amax + 1))

    lp_err, sel_err = log_err(lps), log_err(sel)
    L_err = 2 * (k * max(e for _, e in ls) + 8 * U * (k * max(abs(v) for v in lv) + 1))
    a1, a2, lt, _, cut = _trinomial_indices(k, lf, sv, sel_err, cut_nats)
    lp = _trinomial_logmass(k, lf, lpv, a1, a2)
    L = a1 * lv[0] + a2 * lv[1] + (k - a1 - a2) * lv[2]
    left_out = (k + 1) * (k + 2) // 2 - len(lt)
    with ctx.workprec(64):
        rho = 2 * (math.expm1(sel_err) + EXP_REL + 2 * (len(lt) + 1) * U)
        kept_lo = _ends(arb(float(np.sum(exp_floats(lt)))) * (1 - arb(rho)) * (-arb(sel_err)).exp())[0]
        by_mass = max(ONE - kept_lo, ZERO)
        by_count = _ends(arb(left_out) * (arb(cut) + arb(2 * sel_err)).exp())[1] if left_out else ZERO
    finite = _finite_hi(loss.p_only, k)
    order = np.argsort(L, kind="stable")
    return Block(lp[order], L[order], lp_err, L_err, finite, cut, finite, s, min(by_mass, by_count, ONE))


def _finite_hi(p_only: fmpq, k: int) -> fmpq:
    """An upper bound of (1 − p_∞)^k, exact when the power is small (:func:`_dropped` bounds the dropped mass by
    this minus a lower bound of the kept mass, so it must be the upper end of the ball)."""
    if p_only == 0:
        return ONE
    if k * max(int(p_only.q).bit_length(), 1) <= 20_000:
        return (ONE - p_only) ** k
    with ctx.workprec(128):
        ends = ball_endpoints((1 - arb(p_only)) ** k)
    return min(ends[1], ONE) if ends is not None else ONE


def _trinomial_atoms(k: int, lf: FloatArray, lpv: Sequence[float], lv: Sequence[float], lp_err: float,
                     depth: float) -> tuple[FloatArray, FloatArray, float, float]:
    """(lp, L, top, cut) of the kept atoms (a₁, a₂, a₃ = k − a₁ − a₂) of three classes: rows a₁ whose
    conditional mode reaches the cut, and in each row the a₂-interval around the mode whose neighbours outside are
    certified below the cut (log-concavity), less the atoms inside it certified below the cut."""
    a1, a2, lp, top, cut = _trinomial_indices(k, lf, lpv, lp_err, depth)
    L = a1 * lv[0] + a2 * lv[1] + (k - a1 - a2) * lv[2]
    return lp, L, top, cut


def _trinomial_logmass(k: int, lf: FloatArray, lpv: Sequence[float], a1: IntArray, a2: IntArray) -> FloatArray:
    """log of k!/(a₁! a₂! a₃!)·Π w_l^{a_l} in float64, log w_l = ``lpv`` (the error bound is the caller's)."""
    l1, l2, l3 = lpv
    a3 = k - a1
    a3 -= a2
    # lf[k] − lf[a₁] − lf[a₂] − lf[a₃] + a₁l₁ + a₂l₂ + a₃l₃, left to right (the same floats), in place
    lp: FloatArray = lf[a1]
    np.subtract(lf[k], lp, out=lp)
    lp -= lf[a2]
    lp -= lf[a3]
    lp += a1 * l1
    lp += a2 * l2
    lp += a3 * l3
    return lp


def _trinomial_indices(k: int, lf: FloatArray, lpv: Sequence[float], lp_err: float,
                       depth: float) -> tuple[IntArray, IntArray, FloatArray, float, float]:
    """(a₁, a₂, lp, top, cut) of the atoms kept by :func:`_trinomial_atoms` under the class log-weights ``lpv`` (log
    P_l, or the tilted log P_l r_l^s / M(s) of :func:`_tilted_block`), each computed log-mass within ``lp_err``."""
    l2, l3 = lpv[1], lpv[2]

    def logmass(a1: IntArray, a2: IntArray) -> FloatArray:
        return _trinomial_logmass(k, lf, lpv, a1, a2)

    a1 = np.arange(k + 1, dtype=np.int64)
    m = k - a1
    # P₂/(P₂ + P₃): only picks mode candidates, the max of three is taken (exponent capped: beyond 700 the mode is 0)
    pi = 1.0 / (1.0 + math.exp(min(l3 - l2, 700.0)))
    mode = np.floor((m + 1) * pi).astype(np.int64)
    cands = [np.minimum(np.maximum(mode + d, 0), m) for d in (-1, 0, 1)]
    v0, v1, v2 = (logmass(a1, c) for c in cands)
    rowmax = np.maximum(np.maximum(v0, v1), v2)
    # the first candidate reaching the row's maximum (the log-masses are finite: no NaN)
    mode = np.where(v0 == rowmax, cands[0], np.where(v1 == rowmax, cands[1], cands[2]))
    top = float(np.max(rowmax))
    cut = top - depth
    thr = cut - lp_err
    rows = rowmax >= thr
    a1, m, mode, rowmax = a1[rows], m[rows], mode[rows], rowmax[rows]
    # each row's interval around its mode: first a guess from the normal approximation of the binomial row (variance
    # m·π(1 − π), widened by a tenth and one atom), then moved out, by doubling steps, until the computed log-mass
    # just outside it is below cut − err (or the row ends) — then every atom beyond has a true log-mass below the cut
    # (the row is unimodal: increasing up to the mode, decreasing after it), as with a bisection, in two or three
    # passes instead of 2·log2(k); atoms inside it below cut − err are left out below
    half = np.ceil(1.1 * np.sqrt(2.0 * (m * (pi * (1.0 - pi)) + 1.0) * (rowmax - thr))).astype(np.int64) + 1
    left = np.maximum(mode - half, 0)
    step = half.copy()
    while True:
        out = left > 0
        out[out] = logmass(a1[out], left[out] - 1) >= thr
        if not out.any():
            break
        left = np.where(out, np.maximum(left - step, 0), left)
        step *= 2
    right = np.minimum(mode + half, m)
    step = half.copy()
    while True:
        out = right < m
        out[out] = logmass(a1[out], right[out] + 1) >= thr
        if not out.any():
            break
        right = np.where(out, np.minimum(right + step, m), right)
        step *= 2
    lengths = right - left + 1
    total = int(lengths.sum())
    require("max_memory", 64 * total, f"lattice_interval: {total} atoms of a block of {k} coordinates")
    rows_a1 = np.repeat(a1, lengths)
    starts = np.repeat(left - np.concatenate(([0], np.cumsum(lengths)[:-1])), lengths)
    a2 = np.arange(total, dtype=np.int64) + starts
    lp = logmass(rows_a1, a2)
    keep = lp >= thr
    return rows_a1[keep], a2[keep], lp[keep], top, cut


# -- the product of two blocks -----------------------------------------------------------------------

def _merge(items: Iterable[tuple[PairLoss, int]]) -> list[tuple[PairLoss, int]]:
    merged: dict[PairLoss, int] = {}
    for loss, k in items:
        if not isinstance(k, int) or k < 0:
            raise ParameterError(f"lattice_interval: multiplicities must be integers >= 0, got {k!r}")
        if k:
            merged[loss] = merged.get(loss, 0) + k
    return list(merged.items())


def product_block(X: Block, Y: Block, cut_nats: float, prepare: str | None = None) -> Block:
    r"""The atoms of the product of two blocks (independent coordinates: log-masses and losses add) whose
    computed log-mass is within ``cut_nats`` of the product's largest — the side of a product of more than two
    losses (step 5 of the module docstring).

    Soundness: a stored sum fl(x + y) errs by at most u·(|x| + |y|), so the product's log-mass error is
    lp_err_X + lp_err_Y + 2u·(max|lp_X| + max|lp_Y|) and its loss error likewise.  A pair is left out when its
    stored log-masses satisfy lp_y < fl(c − lp_x) with c = max lp_X + max lp_Y − cut, which implies
    lp_x + lp_y < c + 2u·(|c| + max|lp_X|) (the rounding of the subtraction), so its true P-mass is below
    e^{c + 2u(|c| + max|lp_X|) + lp_err_X + lp_err_Y}; the left-out pairs number |X|·|Y| minus the kept ones.
    Their mass plus dropped_X·(finite mass of Y) + dropped_Y·(finite mass of X) ≤ dropped_X + dropped_Y is the
    product's ``dropped``; its ``finite`` is finite_X·finite_Y (upper bounds multiply).

    ``prepare`` ("side", or "suffix" for the side searched by a sweep): where every pair is kept, the product's sweep
    arrays (:func:`_sweep_side`, and :func:`_suffix_side` with "suffix") are computed from the factors' exponentials
    (:func:`_factored_arrays`: e^{lp_x + lp_y} = e^{lp_x}·e^{lp_y}, |X| + |Y| exponentials instead of |X|·|Y| per
    array — a window's product, :func:`window_bounds`), and its ``lp_err`` grows by that route's rounding; elsewhere
    (or where its exponents would leave the float range) they are left to the sweep as for any block."""
    order = np.argsort(-Y.lp, kind="stable")
    ylp_desc = Y.lp[order]
    mx, my = float(np.max(X.lp)), float(np.max(Y.lp))
    c = mx + my - cut_nats
    need = c - X.lp  # keep y with lp_y >= fl(c - lp_x)
    counts = np.searchsorted(-ylp_desc, -need, side="right")  # #{y : lp_y >= need_x} (ylp_desc descending)
    total = int(counts.sum())
    require("max_memory", 64 * total, f"lattice_interval: {total} atoms of a product block")
    runs = None
    if total == len(X.lp) * len(Y.lp) and bool(np.all(X.L[:-1] <= X.L[1:])):  # every pair kept, X sorted by loss
        lp, L, s, runs = _product_runs(X, Y, order)
    else:
        xi = np.repeat(np.arange(len(X.lp)), counts)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        yi = order[np.arange(total, dtype=np.int64) - np.repeat(starts, counts)]
        lp = X.lp[xi] + Y.lp[yi]
        L = X.L[xi] + Y.L[yi]
        s = np.argsort(L, kind="stable")
    ax, ay = float(np.max(np.abs(X.lp))), float(np.max(np.abs(Y.lp)))
    lp_err = X.lp_err + Y.lp_err + 2 * U * (ax + ay + 1.0)
    L_err = X.L_err + Y.L_err + 2 * U * (float(np.max(np.abs(X.L))) + float(np.max(np.abs(Y.L))) + 1.0)
    left_out = len(X.lp) * len(Y.lp) - total
    dropped = X.dropped + Y.dropped
    if left_out:
        with ctx.workprec(64):
            ends = ball_endpoints(arb(left_out) * (arb(c) + arb(2 * U * (abs(c) + ax + 1.0))
                                                   + arb(X.lp_err) + arb(Y.lp_err)).exp())
        dropped += ends[1] if ends is not None else ONE
    finite = X.finite * Y.finite
    if max(int(finite.p).bit_length(), int(finite.q).bit_length()) > 20_000:  # keep it small: a 128-bit upper end
        with ctx.workprec(128):
            ends = ball_endpoints(arb(X.finite) * arb(Y.finite))
        finite = min(ends[1], ONE) if ends is not None else ONE
    block = Block(lp[s], L[s], lp_err, L_err, min(dropped, ONE), c, finite)
    if prepare is not None and runs is not None:
        return _factored_arrays(X, Y, runs, s, block, prepare == "suffix") or block
    return block


def _product_runs(X: Block, Y: Block, order: IntArray) -> tuple[FloatArray, FloatArray, IntArray, IntArray]:
    """The log-masses and losses of every pair of X and Y, and a permutation that sorts them by loss in the order of
    :func:`product_block`'s stable sort of its x-major layout (x, then y in ``order``): the same floats in the same
    order, got cheaper.  X sorted by loss, each y's pairs are a sorted run (fl(L_x + L_y) is monotone in L_x), so the
    pairs are laid out by runs and a stable sort merges |Y| runs (timsort finds them) instead of sorting |X|·|Y| pairs.
    The runs go by descending L_y, so pairs of equal computed loss from two runs come in ascending L_x, hence ascending
    x, as in the x-major order; where rounding (or equal L_x) breaks that, the pairs of equal loss are re-ordered by
    their x-major position (a choice of order only: the floats are the same).  Also the runs' order of Y (pair
    (x, runs[r]) at r·|X| + x before the permutation)."""
    nx, ny = len(X.lp), len(order)
    runs = np.argsort(-Y.L, kind="stable")
    lp = (X.lp[None, :] + Y.lp[runs][:, None]).ravel()  # pair (x, runs[r]) at r·nx + x: fl(lp_x + lp_y)
    L = (X.L[None, :] + Y.L[runs][:, None]).ravel()
    s = np.argsort(L, kind="stable")
    Ls = L[s]
    tie = Ls[1:] == Ls[:-1]
    at = np.flatnonzero(tie)
    if len(at):
        rank = np.empty(ny, dtype=np.int64)
        rank[order] = np.arange(ny)
        y_rank = rank[runs]

        def xmajor(i: IntArray) -> IntArray:
            out: IntArray = (i % nx) * ny + y_rank[i // nx]
            return out

        if bool(np.any(xmajor(s[at]) > xmajor(s[at + 1]))):
            group = np.concatenate(([0], np.cumsum(~tie)))
            members = np.zeros(len(s), dtype=bool)
            members[:-1] |= tie
            members[1:] |= tie
            moved = s[members]
            s[members] = moved[np.lexsort((xmajor(moved), group[members]))]
    return lp, L, s, runs


def loss_block(loss: PairLoss) -> Block:
    """The block of one coordinate of ``loss`` (any number of finite ratio classes, all kept): log-masses and losses
    from 128-bit arb balls, each within twice its ball's error bound (:func:`_float_with_error`)."""
    with ctx.workprec(128):
        lps = [_float_with_error(arb(P).log()) for _, P in loss.classes]
        ls = [_float_with_error(arb(r).log()) for r, _ in loss.classes]
    lp, L = np.array([f for f, _ in lps]), np.array([f for f, _ in ls])
    order = np.argsort(L, kind="stable")
    return Block(lp[order], L[order], 2 * max(e for _, e in lps), 2 * max(e for _, e in ls), ZERO, 0.0,
                 _finite_hi(loss.p_only, 1))


#: :func:`loss_block` by loss
_LOSS_BLOCKS: Memo[Block] = Memo(64)


def window_bounds(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, k0: int, m: int, window: PairLoss,
                  gammas: Sequence[fmpq], *, cut_nats: float, tilt: fmpq | None = None,
                  by_atoms: bool | None = None) -> list[fmpq]:
    r"""Upper bounds, one per γ > 0 of ``gammas``, of E_γ(A^{⊗k0} ⊗ B^{⊗m} ⊗ W) for a dichotomy W (``window``: any
    number of ratio classes) — with W = D′_j of :func:`~exactdp.measures.blackwell_join.window_majorant`, of the
    window of compositions k0 … k0 + j of n = k0 + m + j coordinates (E_γ of each is at most this).

    Two routes over the two blocks of the level (cut, tilt), the same quantity bounded:

    * **by W's atoms** (``by_atoms``): conditioning on W's coordinate,
      E_γ(R ⊗ W) = W_∞ + Σ_w W_w·E_{γ/r_w}(R) (W_w the P-mass of W's ratio class r_w, W_∞ its P-only mass, R =
      A^{⊗k0} ⊗ B^{⊗m}), so the bound is W_∞ + Σ_w W_w·hi_w with hi_w the upper bound of
      :meth:`LatticeEnclosure.bounds_many` of R at the |W| values γ/r_w — |W| walks per γ of the smaller block, no new
      block (its left-out part, Σ_w W_w·c(s)(γ/r_w)^{−s}·M_R(s)·D̃, is the product route's, M_W(s) = Σ_w W_w r_w^s);
    * **by a product block**: one sweep per γ of the larger of A^{⊗k0} and B^{⊗m} against the smaller one times W's
      atoms (:func:`product_block` keeping every pair, charged :data:`PER_PAIR` a pair as
      :meth:`LatticeEnclosure.sides`): E_γ of the three factors does not depend on the side W joins, and the smaller
      side's product costs |smaller|·|W| pairs (a box of a search next to k = 0 has A^{⊗k0} of a few atoms against
      B^{⊗m} of thousands).  The product side keeps its block's tilt: with every atom of W kept, the normalised tilted
      mass of its pairs left out is that block's own D̃ (for B: Σ_{b left out, w} P_b r_b^s P_w r_w^s /
      (M_B(s)^m M_W(s)) = D̃_B), bounded through the moments of all three factors by :func:`_left_out_many`; its P-mass
      left out is the block's (times W's finite mass ≤ 1).  Its sweep arrays come from the two factors' exponentials
      (``prepare`` of :func:`product_block`, :func:`_factored_arrays`: one product a pair, its rounding added to the
      product's lp_err).

    ``by_atoms`` None: the route of fewer work units (:func:`window_by_atoms`): by W's atoms for one γ (a single
    search's box: the product block is built, sorted and prepared for one sweep), by the product for a batch's ten
    (one product, then one walk a γ).  Either route's bound is certified; they differ only in their rounding."""
    side_a, side_b = enc.block(LA, k0, cut_nats, tilt), enc.block(LB, m, cut_nats, tilt)
    w_block = _LOSS_BLOCKS.get(window)
    if w_block is None:
        w_block = loss_block(window)
        _LOSS_BLOCKS.put(window, w_block)
    small, large = (side_a, side_b) if side_a.count < side_b.count else (side_b, side_a)
    if by_atoms is None:
        by_atoms = window_by_atoms(small.count, large.count, w_block.count, len(gammas))
    if by_atoms:
        if any(g <= 0 for g in gammas):
            raise ParameterError("window_bounds: every gamma must be > 0")
        shifted = [g / r for g in gammas for r, _ in window.classes]
        pair = [(LA, k0), (LB, m)]
        if k0 and m and LA != LB and LA.classes and LB.classes:  # the two blocks in hand (a store past its cap
            # may not have kept them)
            pl, ph = p_inf(pair)
            his = [(lo, hi) for lo, hi, _ in enc._swept_many(pair, [side_a, side_b], shifted, pl, ph)]
        else:
            his = enc.bounds_many(pair, shifted, cut_nats=cut_nats, tilt=tilt)
        w = len(window.classes)
        return [min(window.p_only + sum((P * his[y * w + i][1] for i, (_, P) in enumerate(window.classes)), ZERO), ONE)
                for y in range(len(gammas))]
    items = [(LA, k0), (LB, m), (window, 1)]
    units = _PER_WINDOW_PAIR * small.count * w_block.count  # built, sorted by loss and prepared (window_by_atoms)
    require("max_work", units, f"lattice_interval: a window block of {small.count} x {w_block.count} atoms")
    enc._charge(units)
    # the product's sweep arrays from its factors' (the suffix sums where the sweep searches it: at least as many atoms
    # as the larger block)
    prod = product_block(small, w_block, math.inf,
                         prepare="suffix" if large.count <= small.count * w_block.count else "side")
    if prod.count != small.count * w_block.count:  # (every pair is kept at an infinite cut: not reached)
        raise ArithmeticError("lattice_interval: a window block left pairs out")
    prod = dataclasses.replace(prod, tilt=small.tilt, tilt_dropped=small.tilt_dropped)  # (its prepared arrays kept)
    pl, ph = p_inf(items)
    return [hi for _, hi, _ in enc._swept_many(items, [large, prod], gammas, pl, ph)]


def window_by_atoms(small: int, large: int, w: int, count: int) -> bool:
    """Whether :func:`window_bounds` takes the route by W's atoms (``w`` of them) at ``count`` values of γ, the two
    blocks of ``small`` and ``large`` atoms: by a model of CPU time in the work units of :data:`_PER_WALK` (a choice of work only:
    both routes are certified), fitted to the seed-3 pair of ``bench_tensor.py --random-pairs`` at n = 10³ (windows
    next to a corner and in the middle, one to ten γ, both routes timed): a walk of the smaller block costs
    :data:`_WALK_CALL` plus :data:`_PER_WALK` an atom walked and :data:`_PER_SEARCHED` an atom of the side searched; the
    product block :data:`_PRODUCT_CALL` plus :data:`_PER_WINDOW_PAIR` a pair (built, sorted by loss, prepared).  The
    route by atoms walks the smaller block ``count``·``w`` times; the product route builds |small|·|W| pairs once and
    walks the smaller of the product and the larger block ``count`` times.  A single search's box (one γ, middle
    blocks): by atoms; a batch's ten γ, or a few atoms next to a corner: by the
    product."""
    pairs = small * w
    walk_atoms = _WALK_CALL + _PER_WALK * small + _PER_SEARCHED * large
    walk_product = _WALK_CALL + _PER_WALK * min(pairs, large) + _PER_SEARCHED * max(pairs, large)
    return count * w * walk_atoms < _PRODUCT_CALL + _PER_WINDOW_PAIR * pairs + count * walk_product


#: the cost model of :func:`window_by_atoms` (the work units of :data:`_PER_WALK`): a walk's fixed part (the
#: per-γ arb bounds and calls), an atom of the searched side, a window product block's fixed part and its pairs
_WALK_CALL = 160_000
_PER_SEARCHED = 4
_PRODUCT_CALL = 300_000
_PER_WINDOW_PAIR = 220


def p_inf(items: Items) -> tuple[fmpq, fmpq]:
    """Exact-rational bounds of 1 − Π (1 − p_∞)^k (exact when the power is small)."""
    if all(loss.p_only == 0 for loss, _ in items):
        return ZERO, ZERO
    if sum(k * max(int(loss.p_only.q).bit_length(), 1) for loss, k in items) <= 20_000:
        fin = ONE
        for loss, k in items:
            fin *= (ONE - loss.p_only) ** k
        return ONE - fin, ONE - fin
    with ctx.workprec(256):
        b = arb(1)
        for loss, k in items:
            b *= (1 - arb(loss.p_only)) ** k
        lo, hi = _ends(1 - b)
    return max(lo, ZERO), min(hi, ONE)


def atom_estimate(loss: PairLoss, k: int, cut_nats: float = CUT_NATS, tilt: fmpq | None = None) -> int:
    """An estimate of the kept atoms of a block (for the cost guard): 2π·depth·σ² for three classes (σ² of the tilted
    trinomial, :func:`tilted_weights`, with ``tilt``)."""
    L_cls = len(loss.classes)
    if k == 0 or L_cls <= 1:
        return 1
    if tilt is not None and L_cls == 3:
        w = [math.exp(v) for v, _ in tilted_weights(loss, tilt)]
    else:
        tot = sum((P for _, P in loss.classes), ZERO)
        w = [float(P / tot) for _, P in loss.classes]  # ratios of exact masses: no underflow of tiny classes
    depth = cut_nats
    if L_cls == 2:
        return min(k + 1, int(2 * math.sqrt(2 * depth * k * w[0] * w[1])) + 3)
    return min((k + 1) * (k + 2) // 2, int(2 * math.pi * depth * k * math.sqrt(w[0] * w[1] * w[2])) + 2 * k + 3)


def bound_work(items: Items, cut_nats: float = CUT_NATS, store: BlockStore | None = None) -> int:
    """Work units of one :meth:`LatticeEnclosure.bounds` of ``items`` (distinct losses) at ``cut_nats``: each block
    not kept in ``store`` built, :data:`PER_ATOM` an atom (estimated), and prepared (:data:`_PER_PREP_WALKED` an atom
    for the smaller, :data:`_PER_PREP` for the larger), and the smaller one walked, :data:`_PER_WALK` an atom (what the
    enclosure charges; a kept block counts its atoms, a kept prepared one no build or preparation)."""
    sides: list[tuple[int, Block | None]] = []
    for loss, k in items:
        if k:
            kept = store.blocks.get((loss, k, cut_nats)) if store is not None else None
            sides.append((kept.count if kept is not None else atom_estimate(loss, k, cut_nats), kept))
    sides.sort(key=lambda side: side[0])
    work = sum(PER_ATOM * count for count, kept in sides if kept is None)
    if len(sides) > 1:
        work += _PER_WALK * sides[0][0]
    for i, (count, kept) in enumerate(sides):
        walked = i == 0 and len(sides) > 1
        if kept is None or ("side" if walked else "suffix") not in kept.prepared:
            work += (_PER_PREP_WALKED if walked else _PER_PREP) * count
    return work


def product_work(items: Items, cut_nats: float) -> int:
    """Work units of the product block :meth:`LatticeEnclosure.sides` builds for three or more distinct losses (the
    blocks but the largest multiplied in turn, :data:`PER_PAIR` a pair), each product's atoms estimated by the product
    of its factors' estimated atoms (:func:`atom_estimate`); 0 for at most two (no product block)."""
    atoms = sorted((atom_estimate(loss, k, cut_nats) for loss, k in items if k), reverse=True)
    work, size = 0, atoms[1] if len(atoms) > 2 else 0
    for count in atoms[2:]:
        work += PER_PAIR * size * count
        size *= count
    return work


def bounds_many_work(items: Items, count: int, cut_nats: float, store: BlockStore | None = None) -> int:
    """Work units of one :meth:`LatticeEnclosure.bounds_many` of ``items`` (at most two distinct losses) at ``count``
    values of γ: :func:`bound_work` once, and the smaller block walked again for each further γ (as
    :meth:`LatticeEnclosure._swept_many` charges)."""
    sides = [atom_estimate(loss, k, cut_nats) for loss, k in items if k]
    return bound_work(items, cut_nats, store) + (max(count, 1) - 1) * _PER_WALK * (min(sides) if len(sides) > 1 else 0)


#: the key of a kept block: (loss, k, cut), (loss, k, cut, s) for a block kept by tilted mass, or (items, cut,
#: "product") for the product of the other blocks
BlockKey: TypeAlias = ("tuple[PairLoss, int, float] | tuple[PairLoss, int, float, fmpq] "
                       "| tuple[frozenset[tuple[PairLoss, int]], float, str]")


class OverBudget(Exception):
    """A :class:`LatticeEnclosure` with a ``budget`` was asked for more work than it has left."""


class BlockStore:
    """The kept blocks (γ-independent atoms) of :class:`LatticeEnclosure`, keyed by (loss, k, cut), up to
    ``keep_atoms`` atoms in total (about :data:`_BYTES_PER_ATOM` bytes each once swept: :attr:`Block.prepared`).
    Past the cap, blocks of another level — another cut, or kept for a search over other losses (the ``tag`` of
    :class:`LatticeEnclosure`) — are let go first, the least recently used first (a search at another γ asks for
    another cut); a block of the level of the blocks left is then not kept: a pass over more blocks of one level than
    fit (every composition of a pair with E_γ flat in k) keeps its first part for the next γ, where letting the least
    recently used go would keep none of it.  A block larger than the cap is used once and not kept."""

    def __init__(self, keep_atoms: int = 4_000_000):
        self.keep_atoms, self.kept = keep_atoms, 0
        self.blocks: dict[BlockKey, Block] = {}
        self.levels: dict[BlockKey, Hashable] = {}
        #: atoms kept per level; the levels interned (compared by identity: a level holds a search's losses, whose
        #: equality compares exact rationals — too slow for a scan over thousands of kept blocks)
        self.level_atoms: dict[Hashable, int] = {}
        #: blocks kept per level (:meth:`passes`)
        self.level_blocks: dict[Hashable, int] = {}
        #: levels of a pass over every composition that kept fewer blocks (:meth:`mark_pass`: windows of compositions)
        self.whole: set[Hashable] = set()
        self._interned: dict[Hashable, Hashable] = {}

    def get(self, key: BlockKey) -> Block | None:
        """The block kept under ``key`` (then the most recently used), or None."""
        b = self.blocks.pop(key, None)
        if b is not None:
            self.blocks[key] = b
        return b

    def keep(self, key: BlockKey, block: Block, level: Hashable = None) -> None:
        """Keep ``block`` under ``key``; ``level``: its (tag, cut) (blocks of other levels are let go first)."""
        if block.count > self.keep_atoms or key in self.blocks:
            return
        level = self._interned.setdefault(level, level)
        while self.kept + block.count > self.keep_atoms:
            if self.level_atoms.get(level, 0) >= self.kept:  # only blocks of this level are kept
                return
            self._let_go(next(k for k in self.blocks if self.levels[k] is not level))  # least recently used first
        self.blocks[key] = block
        self.levels[key] = level
        self.kept += block.count
        self.level_atoms[level] = self.level_atoms.get(level, 0) + block.count
        self.level_blocks[level] = self.level_blocks.get(level, 0) + 1

    def _let_go(self, key: BlockKey) -> None:
        count, level = self.blocks.pop(key).count, self.levels.pop(key)
        self.kept -= count
        self.level_atoms[level] -= count
        self.level_blocks[level] -= 1
        if not self.level_blocks[level]:
            del self.level_atoms[level], self.level_blocks[level], self._interned[level]
            self.whole.discard(level)

    def clear(self) -> None:
        """Let every kept block go."""
        self.blocks.clear()
        self.levels.clear()
        self.level_atoms.clear()
        self.level_blocks.clear()
        self._interned.clear()
        self.whole.clear()
        self.kept = 0

    def mark_pass(self, level: Hashable) -> None:
        """Count ``level`` among :meth:`passes` whatever its blocks: a pass over every composition by windows
        (:func:`_window_pass`) keeps the blocks of the windows and of the compositions it left open only, and a search
        at another γ that walks it builds the rest at that level (a choice of work: any level gives certified bounds)."""
        if level in self.level_blocks:
            self.whole.add(self._interned.setdefault(level, level))

    def passes(self, tag: Hashable, blocks: int) -> list[tuple[float, fmpq | None]]:
        """(cut, s) of the levels kept for ``tag`` (s None: by P-mass) with at least ``blocks`` blocks — the passes of
        earlier searches over every composition, which a search at another γ may walk instead of building its own
        (:func:`_kept_level`)."""
        out: list[tuple[float, fmpq | None]] = []
        for level, count in self.level_blocks.items():
            if (count >= blocks or level in self.whole) and isinstance(level, tuple) and len(level) == 2 \
                    and level[0] == tag:
                out.append(level[1] if isinstance(level[1], tuple) else (level[1], None))
        return out


class LatticeEnclosure:
    """Certified bounds of E_γ of products of at most two losses (≤ 3 ratio classes each), with the atoms of
    each (loss, k) block kept (γ-independent) up to ``keep_atoms`` in total.  ``work`` counts the units spent
    (blocks built and swept, :data:`PER_ATOM` an atom); with ``budget`` a call that would exceed it raises
    :class:`OverBudget` before it starts."""

    def __init__(self, *, keep_atoms: int = 4_000_000, cut_nats: float = CUT_NATS, budget: int | None = None,
                 blocks: BlockStore | None = None, tag: Hashable = None):
        """``blocks``: a store shared with other enclosures (the composition filter uses the module's, so a sweep
        over γ builds each block once; its own ``keep_atoms`` then applies), else a fresh one of ``keep_atoms``;
        ``tag``: what the blocks are kept for (a search's losses: with the cut, the level of :class:`BlockStore`)."""
        self.cut_nats, self.budget, self.tag = cut_nats, budget, tag
        self.store = blocks if blocks is not None else BlockStore(keep_atoms)
        self.work = 0

    def _charge(self, units: int) -> None:
        if self.budget is not None and self.work + units > self.budget:
            raise OverBudget(f"lattice_interval: {self.work + units} work units exceed the budget {self.budget}")
        self.work += units

    def block(self, loss: PairLoss, k: int, cut_nats: float | None = None, tilt: fmpq | None = None) -> Block:
        """The block of k coordinates of ``loss`` at the cut (kept in the store); with ``tilt`` = s > 0 and three finite
        ratio classes, the atoms kept by tilted mass (:func:`_tilted_block`), else by P-mass (:func:`_block`)."""
        cut = self.cut_nats if cut_nats is None else cut_nats
        if tilt is not None and (tilt <= 0 or k == 0 or len(loss.classes) != 3):
            tilt = None
        key: BlockKey = (loss, k, cut) if tilt is None else (loss, k, cut, tilt)
        b = self.store.get(key)
        if b is None:
            estimate = PER_ATOM * atom_estimate(loss, k, cut, tilt)
            require("max_work", estimate,
                    f"lattice_interval: the atoms of {k} coordinates of a {len(loss.classes)}-class loss")
            self._charge(estimate)
            b = _block(loss, k, cut) if tilt is None else _tilted_block(loss, k, cut, tilt)
            self.store.keep(key, b, (self.tag, cut if tilt is None else (cut, tilt)))
        return b

    def sides(self, items: Items, cut: float, tilt: fmpq | None = None) -> list[Block]:
        """The two blocks the sweep pairs: one (loss, k) block each for at most two distinct losses; for more, the
        block of most atoms on one side and the :func:`product_block` of the others (each charged to the budget
        at its size) on the other — products of several kernels, or of a composition with fixed factors.  ``tilt``:
        the two blocks of at most two losses kept by tilted mass (:func:`_tilted_block`; more losses ignore it)."""
        if len(items) <= 2:
            blocks = [self.block(loss, k, cut, tilt) for loss, k in items]
            if len(blocks) == 1:
                blocks.append(Block(np.zeros(1), np.zeros(1), 0.0, 0.0, ZERO, 0.0))
            return blocks
        blocks = sorted((self.block(loss, k, cut) for loss, k in items), key=lambda b: -b.count)
        key = (frozenset(items), cut, "product")  # the items fix both sides (the largest block and the others)
        other = self.store.get(key)
        if other is None:
            other = blocks[1]
            for b in blocks[2:]:
                self._charge(PER_PAIR * other.count * b.count)
                require("max_work", PER_PAIR * other.count * b.count,
                        f"lattice_interval: a product block of {other.count} x {b.count} atoms")
                other = product_block(other, b, cut)
            self.store.keep(key, other, (self.tag, cut))
        return [blocks[0], other]

    def bounds(self, items: Items, gamma: RationalInput, *, rel_width: fmpq | None = None,
               cut_nats: float | None = None, tilt: fmpq | None = None) -> tuple[fmpq, fmpq]:
        r"""Exact rationals lo ≤ E_γ(⊗ p_j^{⊗k_j} ‖ ⊗ q_j^{⊗k_j}) ≤ hi for ``items = [(PairLoss, k), ...]`` (any
        number of distinct losses, each with at most three ratio classes; γ ≥ 0 exact; more than two losses are
        paired by :meth:`sides`).  With ``rel_width`` the cut is
        deepened (up to :data:`MAX_CUT_NATS`) while the bound of the dropped mass keeps hi − lo above
        rel_width·lo; the result may still be wider (the caller checks).  With ``tilt`` = s the blocks of at most
        two losses keep their atoms by tilted mass (:func:`_tilted_block`, the cut in tilted nats) and the part of
        the atoms left out is bounded through the moments: c(s)γ^{−s}·Π M_j(s)^{k_j}·Σ D̃ (:func:`_left_out`)."""
        g = to_qq(gamma, "gamma")
        if g < 0:
            raise ParameterError(f"gamma: must be >= 0, got {g}")
        items = _merge(items)
        if not items:
            v = max(ONE - g, ZERO)
            return v, v
        pl, ph = p_inf(items)
        if g == 0 or any(not loss.classes for loss, _ in items):  # all finite mass above γ, or none left
            if g == 0:
                return ONE, ONE
            return pl, ph
        cut = self.cut_nats if cut_nats is None else cut_nats
        while True:
            blocks = self.sides(items, cut, tilt)
            lo, hi, left = self._swept(items, blocks, g, pl, ph)
            wide = lo == 0 or hi - lo > fmpq(rel_width) * lo if rel_width is not None else False
            if not wide or cut >= MAX_CUT_NATS or 4 * left < hi - lo:  # the cut is not what makes it wide
                return lo, hi
            cut = min(2 * cut, MAX_CUT_NATS)

    def _swept(self, items: Items, blocks: Sequence[Block], g: fmpq, pl: fmpq, ph: fmpq) -> tuple[fmpq, fmpq, fmpq]:
        """(lo, hi, left-out bound) of E_γ of ``items`` (merged, every loss with finite classes, γ > 0; P-only mass in
        [pl, ph]) from one sweep of its two ``blocks`` (charged): the step of :meth:`bounds` at one cut."""
        return self._swept_many(items, blocks, [g], pl, ph)[0]

    def _swept_many(self, items: Items, blocks: Sequence[Block], gs: Sequence[fmpq], pl: fmpq,
                    ph: fmpq) -> list[tuple[fmpq, fmpq, fmpq]]:
        """:meth:`_swept` at each γ of ``gs`` (the blocks swept once per γ by :func:`_sweep_many`, charged as that many
        sweeps before any starts): the step of :meth:`bounds_many`."""
        A, B = blocks[0], blocks[1]
        units = sweep_work(A, B)
        if len(gs) > 1:  # the sweeps after the first walk prepared blocks
            small = A if A.count <= B.count else B
            units += (len(gs) - 1) * _PER_WALK * small.count
        self._charge(units)
        sweeps = _sweep_many(A, B, gs)
        drop = sweeps[0].dropped  # the P-mass of the pairs left out (for the complement; the same at every γ)
        lefts = _left_out_many(items, blocks, gs) if any(b.tilt is not None for b in blocks) else [drop] * len(gs)
        out = []
        for sw, left in zip(sweeps, lefts):
            lo = max(pl + sw.f_lo, ONE - sw.c_hi - drop, pl)
            hi = min(ph + sw.f_hi + left, ONE - sw.c_lo, ONE)
            out.append((lo, hi, left))
        return out

    def bounds_many(self, items: Items, gammas: Sequence[fmpq], *, cut_nats: float,
                    tilt: fmpq | None = None) -> list[tuple[fmpq, fmpq]]:
        r""":meth:`bounds` of one product at several γ > 0 (each as :meth:`bounds` at ``cut_nats`` without
        ``rel_width``, the same numbers): the blocks are fetched once and swept once per γ (:func:`_sweep_many`), each
        γ's left-out part bounded at the blocks' own s for that γ (:func:`_left_out_many`) — the batch of
        :func:`enclose_batch`."""
        items = _merge(items)
        if not items or any(g <= 0 for g in gammas) or any(not loss.classes for loss, _ in items):
            return [self.bounds(items, g, cut_nats=cut_nats, tilt=tilt) for g in gammas]
        pl, ph = p_inf(items)
        blocks = self.sides(items, cut_nats, tilt)
        return [(lo, hi) for lo, hi, _ in self._swept_many(items, blocks, gammas, pl, ph)]


def sweep_work(A: Block, B: Block) -> int:
    """Work units of one :func:`_sweep` of A and B: the smaller block walked, :data:`_PER_WALK` an atom, and the
    γ-independent arrays of a block not yet prepared (:func:`_sweep_side`, :func:`_suffix_side` of the larger),
    :data:`_PER_PREP` an atom — a sweep over kept, prepared blocks is charged its walk only."""
    small, large = (A, B) if A.count <= B.count else (B, A)
    units = _PER_WALK * small.count
    if "side" not in small.prepared:
        units += _PER_PREP_WALKED * small.count
    if "suffix" not in large.prepared:
        units += _PER_PREP * large.count
    return units


def _left_out(items: Items, blocks: Sequence[Block], g: fmpq) -> fmpq:
    """:func:`_left_out_many` at one γ."""
    return _left_out_many(items, blocks, [g])[0]


def _left_out_many(items: Items, blocks: Sequence[Block], gs: Sequence[fmpq]) -> list[fmpq]:
    r"""Upper bounds, one per γ of ``gs``, of the part of E_γ of the finite pairs with an atom left out of a sweep of
    ``blocks`` (one per item of ``items``, at most two, a single item paired with the empty block), some kept by
    tilted mass.  A block of exponent s contributes c(s)γ^{−s}·Π_j M_j(s)^{k_j}·D̃ (its normalised left-out tilted mass,
    :func:`_tilted_block`) plus the P-mass of its atoms left out of the sweep (below e^{M − 650}); a block kept by
    P-mass its left-out P-mass (the pairs' terms are at most P_aP_b, summed over all b).  Blocks of the same s share
    the factor: one ball c(s)γ^{−s}·Σ D̃·Π_j M_j(s)^{k_j} for them (the γ-independent balls Σ D̃ and M_j(s)^{k_j} taken
    once per call, multiplied in the same order at every γ)."""
    base = ZERO
    tilted: list[Block] = []
    for X in blocks:
        side = _sweep_side(X)
        if X.tilt is None:
            base += side.dropped
        else:
            tilted.append(X)
            base += side.tiny_mass
    groups: list[tuple[fmpq, arb, list[arb]]] = []  # (s, Σ D̃, [M_j(s)^{k_j}])
    with ctx.workprec(128):
        while tilted:
            s = tilted[0].tilt
            assert s is not None
            same = [X for X in tilted if X.tilt == s]
            tilted = [X for X in tilted if X.tilt != s]
            groups.append((s, sum((arb(X.tilt_dropped) for X in same), arb(0)),
                           [moment_ball(loss, s) ** k for loss, k in items]))
        out = []
        for g in gs:
            total = base
            for s, dsum, powers in groups:
                ball = _chernoff_scale(s, g) * dsum
                for power in powers:
                    ball *= power
                ends = ball_endpoints(ball)
                total += ends[1] if ends is not None else ONE
            out.append(min(total, ONE))
    return out


@dataclass(frozen=True, eq=False)
class _SweepSide:
    """The γ-independent part of one block in a sweep: the kept losses ``L`` and masses ``p`` = e^{lp − M} (atoms
    below e^{M − 650} left out: ``tiny`` of them), and the exact bound of the P-mass not swept (:func:`_dropped`)."""

    L: FloatArray
    p: FloatArray
    M: float
    tiny: int
    dropped: fmpq
    #: an upper bound of the P-mass of the ``tiny`` atoms (kept, but left out of the sweep)
    tiny_mass: fmpq = ZERO


def _sweep_side(X: Block) -> _SweepSide:
    """The sweep's γ-independent arrays of one block (kept on the block)."""
    got = X.prepared.get("side")
    if not isinstance(got, _SweepSide):
        M = float(np.max(X.lp))
        lx = X.lp - M
        keep = lx >= -650.0  # smaller masses are bounded below (their exponentials would leave the float range)
        tiny = int(np.count_nonzero(~keep))
        p = _exp_in_range(lx[keep])  # lx lies in [−650, 0]
        got = X.prepared["side"] = _SweepSide(X.L[keep] if tiny else X.L, p, M, tiny, _dropped(X, tiny, M, p),
                                              _tiny_mass(X, tiny, M))
    return got


@dataclass(frozen=True, eq=False)
class _Suffix:
    """The γ-independent suffix sums of the side whose atoms are searched (B of step 2): TP (P-mass suffixes),
    ``head`` (P-mass prefixes), and read at each suffix start the chunks of width H: the chunk's reference loss ref and
    the suffix sums of e^{lb − (L_b − ref)} (Wsuf within the chunk, G of the next two)."""

    TP: FloatArray
    head: FloatArray
    #: per suffix start i (0 … m): its chunk j_i (nch for the empty suffix) and Wsuf[i] + G[j_i] (the sweep's sum
    #: through the chunk index done once per block: the same floats, and the memory of the chunk index and Wsuf)
    cid_at: npt.NDArray[np.int32]
    ref: FloatArray
    wg_at: FloatArray


def _suffix_side(X: Block, side: _SweepSide) -> _Suffix:
    got = X.prepared.get("suffix")
    if not isinstance(got, _Suffix):
        Lb = side.L
        lb = X.lp[X.lp - side.M >= -650.0] - side.M if side.tiny else X.lp - side.M
        cid, ref = _chunks(Lb)
        w = _exp_in_range(np.clip(lb - (Lb - ref[cid]), -700.0, 700.0))
        got = X.prepared["suffix"] = _suffix_sums(Lb, side.p, cid, ref, w)
    return got


def _chunks(Lb: FloatArray) -> tuple[npt.NDArray[np.int32], FloatArray]:
    """The Q part's chunks of width H over ascending losses ``Lb``: each atom's chunk and the reference losses
    ref[j] = Lb[0] + j·H (floats; only their exact values matter), three more than the chunks."""
    cid = np.floor((Lb - Lb[0]) / H).astype(np.int32)
    nch = int(cid[-1]) + 1
    return cid, Lb[0] + np.arange(nch + 3, dtype=np.float64) * H


def _suffix_sums(Lb: FloatArray, pb: FloatArray, cid: npt.NDArray[np.int32], ref: FloatArray,
                 w: FloatArray) -> _Suffix:
    """The :class:`_Suffix` of masses ``pb`` at losses ``Lb`` (chunks ``cid``, ``ref`` of :func:`_chunks`), w the
    weights e^{lb − (L_b − ref)} of the Q part."""
    # (each array written in place by its cumulative sum: the same additions in the same order as a fresh cumsum of
    # the reversed segment, without the copies — these sums are a large part of preparing a window's product)
    m = len(Lb)
    # suffix sums TP[i] = Σ_{j ≥ i} pb[j] (TP[m] = 0)
    TP = np.empty(m + 1)
    TP[m] = 0.0
    np.cumsum(pb[::-1], out=TP[:m][::-1])
    nch = len(ref) - 3
    Wsuf = np.empty(m + 1)
    Wsuf[m] = 0.0
    Z = np.zeros(nch + 3)
    bounds = (np.flatnonzero(cid[1:] != cid[:-1]) + 1).tolist()
    for s, e in zip([0] + bounds, bounds + [m]):
        np.cumsum(w[s:e][::-1], out=Wsuf[s:e][::-1])
        Z[cid[s]] = Wsuf[s]
    # the next two chunks seen from chunk j: G[j] = e^{ref[j] − ref[j+1]}·Z[j+1] + e^{ref[j] − ref[j+2]}·Z[j+2]
    steps = exp_floats(ref[:-1] - ref[1:])
    G = np.zeros(nch + 3)
    G[: nch + 1] = steps[: nch + 1] * (Z[1: nch + 2] + steps[1: nch + 2] * Z[2: nch + 3])
    head = np.empty(m + 1)
    head[0] = 0.0
    np.cumsum(pb, out=head[1:])
    j_at = np.empty(m + 1, dtype=np.int32)
    j_at[:m] = cid
    j_at[m] = nch
    Wsuf += np.take(G, j_at)
    return _Suffix(TP, head, j_at, ref, Wsuf)


def _factored_arrays(X: Block, Y: Block, runs: IntArray, s: IntArray, block: Block, suffix: bool) -> Block | None:
    r"""``block`` — the product of X and Y keeping every pair, pair (x, runs[r]) at position r·|X| + x permuted by ``s``
    (:func:`_product_runs`) — with its sweep arrays computed from the factors' exponentials, and ``lp_err`` grown by
    their rounding; None where an exponent would leave [−640, 0] (the caller then leaves them to the sweep).

    With M = fl(M_X + M_Y) (M_Z the largest log-mass of Z) the masses of :func:`_sweep_side` are
    p = fl(e_X·e_Y), e_Z = exp_floats(fl(lp_z − M_Z)); with the chunks of :func:`_chunks` over the product's losses
    L_b = fl(L_x + L_y), the weights of :func:`_suffix_side` are w = fl(fl(q_X·q_Y)·f_j), q_Z =
    exp_floats(fl(fl(lp_z − L_z) − C_Z)) (C_Z the largest fl(lp_z − L_z)) and f_j = exp_floats(fl(fl(fl(C_X + C_Y) − M)
    + ref_j)) per chunk j.  Against e^{λ − M} and e^{λ − M − (L_b − ref_j)}, λ the pair's true log-mass, each is
    e^{ε}(1 + e) with |e| ≤ :data:`EXP_REL` (one exponential's error, as the sweep assumes of every mass) and
    |ε| ≤ lp_err_X + lp_err_Y + η,

        η = 2(2·EXP_REL + 2u) + 8u(a_X + b_X + a_Y + b_Y + |M| + R + 1)

    (a_Z = max |lp_z|, b_Z = max |L_z|, R = max |ref_j|): the other two exponentials' and the two products' relative
    errors (1 + x ≤ e^{x}, 1 − x ≥ e^{−2x}: 2(2·EXP_REL + 2u) in the exponent), and in the exponent the roundings of
    every argument (each sum or difference errs by u times its result, at most the sum of its operands' magnitudes:
    3u(a_X + a_Y) for p; 3u(a_X + b_X + a_Y + b_Y) for q_X, q_Y, 3u(a_X + b_X + a_Y + b_Y + |M| + R) for f_j) and of
    the stored loss, |L_b − L_x − L_y| ≤ u(b_X + b_Y).  So the product's ``lp_err`` + η bounds every mass as the sweep
    requires (step 4 of the module docstring: relative errors e^{lp_err}(1 + EXP_REL) − 1).  Every atom has
    lp − M ≥ −640 (none below e^{M − 650} left out), so every p, q_X·q_Y and w is a normal float; an exponent outside
    that range returns None.  Two products per pair instead of two exponentials: |X| + |Y| exponentials per array."""
    got = _factored_masses(X, Y, runs, s, block.L, suffix)
    if got is None:
        return None
    p, M, q, eta = got
    out = dataclasses.replace(block, lp_err=block.lp_err + eta)
    out.prepared["side"] = _SweepSide(out.L, p, M, 0, _dropped(out, 0, M, p))
    if q is not None:
        out.prepared["suffix"] = _suffix_sums(out.L, p, *q)
    return out


def _factored_masses(X: Block, Y: Block, runs: IntArray, s: IntArray, L: FloatArray, suffix: bool
                     ) -> tuple[FloatArray, float, tuple[npt.NDArray[np.int32], FloatArray, FloatArray] | None,
                                float] | None:
    """The floats of :func:`_factored_arrays`: (p, M, (chunks, ref, w) with ``suffix`` else None, η) for the product's
    losses ``L`` (sorted), or None where an exponent leaves the range."""
    mx, my = float(np.max(X.lp)), float(np.max(Y.lp))
    ex, ey = X.lp - mx, Y.lp - my
    if float(np.min(ex)) + float(np.min(ey)) < -640.0:
        return None
    M = mx + my
    side_x = X.prepared.get("side")
    if isinstance(side_x, _SweepSide) and side_x.tiny == 0:  # the same floats: e^{fl(lp_x − M_X)}, M_X = max lp_x
        px = side_x.p
    else:
        px = _exp_in_range(ex)
    p = (px[None, :] * _exp_in_range(ey)[runs][:, None]).ravel()[s]
    R = 0.0
    q = None
    if suffix:
        qx, qy = X.lp - X.L, Y.lp - Y.L
        cx, cy = float(np.max(qx)), float(np.max(qy))
        qx -= cx
        qy -= cy
        if float(np.min(qx)) + float(np.min(qy)) < -640.0:
            return None
        cid, ref = _chunks(L)
        fs = ((cx + cy) - M) + ref[: len(ref) - 3]
        R = float(np.max(np.abs(ref)))
        if float(np.max(np.abs(fs))) > 640.0:
            return None
        w = (_exp_in_range(qx)[None, :] * _exp_in_range(qy)[runs][:, None]).ravel()[s]
        w *= np.take(_exp_in_range(fs), cid)
        q = (cid, ref, w)
    ab = (float(np.max(np.abs(X.lp))) + float(np.max(np.abs(X.L))) + float(np.max(np.abs(Y.lp)))
          + float(np.max(np.abs(Y.L))))
    return p, M, q, 2 * (2 * EXP_REL + 2 * U) + 8 * U * (ab + abs(M) + R + 1.0)


def _suffix_starts(Lb: FloatArray, c: FloatArray, ordered: bool | None = None) -> IntArray:
    """``np.searchsorted(Lb, c, side="right")`` (the number of B-losses ≤ each c_i) for ascending ``Lb`` and
    non-increasing ``c`` (θ − L_a over ascending L_a: float subtraction is monotone).  Where the queries are at least a
    quarter as many as the B-atoms, by one stable sort of B's losses followed by the queries in ascending order: two
    sorted runs, merged in linear time, and a query's position in the merge minus the queries before it is its count
    (B's losses come first among equal keys: ≤, as side="right").  Otherwise binary searches — and where ``c`` is not
    in order (every block is sorted by loss: not reached), so the count never depends on that invariant.  ``ordered``:
    whether ``c`` is known non-increasing (the caller checked the L_a it came from: rounding is monotone, so θ − L_a
    is in order at every θ); None: checked here."""
    if ordered is None:
        ordered = bool(np.all(c[:-1] >= c[1:]))
    if not ordered:
        return np.searchsorted(Lb, c, side="right")
    if 4 * len(c) < len(Lb):  # binary searches of the queries in ascending order (each count is the same; numpy's
        # search starts from the previous result's lower end when the keys ascend)
        found: IntArray = np.searchsorted(Lb, c[::-1], side="right")[::-1]
        return found
    order = np.argsort(np.concatenate((Lb, c[::-1])), kind="stable")
    idx = np.flatnonzero(order >= len(Lb))
    idx -= np.arange(len(c), dtype=idx.dtype)
    out: IntArray = idx[::-1]
    return out


def _theta(g: fmpq) -> tuple[float, float]:
    """θ = log γ as a float and a bound on its absolute error (128-bit arb), kept per γ (:data:`_THETA`): every sweep of
    a pass asks for the same few γ."""
    got = _THETA.get(g)
    if got is None:
        with ctx.workprec(128):
            got = _float_with_error(arb(g).log())
        _THETA.put(g, got)
    return got


#: :func:`_theta` by γ
_THETA: Memo[tuple[float, float]] = Memo(1024)


def _sweep(A: Block, B: Block, g: fmpq) -> _Sweep:
    """:func:`_sweep_many` at one γ."""
    return _sweep_many(A, B, [g])[0]


def _sweep_many(A: Block, B: Block, gs: Sequence[fmpq]) -> list[_Sweep]:
    r"""Bounds of the finite part Σ_{pairs above θ} P_aP_b(1 − e^{θ − L_a − L_b}) and of the complement (steps 2–4), one
    :class:`_Sweep` per γ of ``gs``.

    The sum is symmetric in the two blocks: the smaller one is walked atom by atom, the larger one searched, and
    every γ-independent array (masses, suffix sums, chunk sums) is computed once per block (:func:`_sweep_side`,
    :func:`_suffix_side`), so a second γ on the same blocks costs a search per atom of the smaller block; the
    γ-independent scalars (the error terms of the masses and the sums, the scale e^{M_A + M_B}) once per call.  Each γ's
    numbers are those of a call at that γ alone (the same operations in the same order)."""
    if A.count > B.count:
        A, B = B, A
    sa, sb = _sweep_side(A), _sweep_side(B)
    La, pa, Ma = sa.L, sa.p, sa.M
    Lb, Mb = sb.L, sb.M
    suf = _suffix_side(B, sb)
    m = len(Lb)
    mA, mB = len(pa), m
    # θ − L_a is non-increasing at every θ where L_a ascends (monotone rounding): checked once, not once per γ
    ordered = bool(np.all(La[:-1] <= La[1:]))
    # Lb[i − 1] at each suffix start i, −∞ before the first atom (the threshold test below: no atom below the first)
    before = np.concatenate(([-math.inf], Lb))
    # (both sides are sorted by loss: the largest |L| is at an end)
    ends_ab = max(abs(La[0]), abs(La[-1]), 1.0) + max(abs(Lb[0]), abs(Lb[-1]), 1.0)
    # relative error of one computed term: masses (log error → e^δ − 1, exp 64u) of pa and pb, sums (Higham),
    # the exponentials of the Q part, two products — generously summed, then doubled
    rho_mass = math.expm1(A.lp_err + B.lp_err) + 4 * EXP_REL
    # (+ the rounding of the exponents' arguments lb − (L_b − ref), |lb| ≤ 650, |L_b − ref| ≤ 2H: ≤ u·(650 + 2H) each)
    rho = 2 * (rho_mass + 2 * (mA + mB + 8) * U + 4 * EXP_REL + 4 * U * (700 + 2 * H))
    # the mass of every pair with an atom left out ≤ dropped_A·1 + dropped_B·1, dropped_X the smaller of the
    # cut's bound (plus the atoms below e^{M − 650} left out of the sweep) and the finite mass (1 − p_∞)^k
    # minus the kept mass (a lower bound from the float sum)
    dropped = sa.dropped + sb.dropped
    out: list[_Sweep] = []
    with ctx.workprec(128):
        scale = (arb(Ma) + arb(Mb)).exp()
        # underflow: a product of two masses (each ≥ e^{−650} relative to its block's largest) may be subnormal or 0,
        # and then errs by up to 2^{−1075} absolutely (fl(xy) = xy(1 + δ) + η, |η| ≤ 2^{−1075}), which no relative
        # bound covers when every term of a sum underflows.  Per atom of A: pa·TP and pa·head one product each
        # (2^{−1075}), pa·X two (X = fl(e^d·wg), then pa ≤ (1 + EXP_REL)² times it: ≤ 2^{−1075}(2 + 2^{−40})), so
        # the P sum, the Q sum, the signed sum P − Q and the complement head + Q each err by at most
        # mA·2^{−1075}(3 + 2^{−40}) < mA·2^{−1073} more (additions with a subnormal result are exact, and Higham's
        # bound of the computed terms holds as before: (1 + γ) < 2 on these errors too); ``tiny`` = mA·2^{−1072}
        # covers that twice over, also the Lipschitz term's ``near`` (a P sum)
        tiny = arb(mA) * arb(2) ** -1072
        arith = arb(rho) * _ARITH_MARGIN  # the arithmetic, relative to each sum of absolute values
        cap = exact_bits_cap()
        for g in gs:
            theta, theta_err = _theta(g)
            c = theta - La
            idx = _suffix_starts(Lb, c, ordered)
            # the chunk of each suffix read through idx (an A-atom whose suffix is empty gets chunk nch: all Z beyond
            # are 0)
            X = _exp0(c - np.take(suf.ref, np.take(suf.cid_at, idx)))
            X *= np.take(suf.wg_at, idx)
            # three sums of non-negative products (P part, Q part, head): the signed sum is P − Q, the sum of absolute
            # values P + Q, so Higham's bound of each sum and one more rounding stay within rho·absolute below
            sum_p = float(np.sum(pa * np.take(suf.TP, idx)))
            sum_q = float(np.sum(pa * X))
            total = sum_p - sum_q
            absolute = sum_p + sum_q
            # the complement 1 − E_γ = Σ min(P, γQ) over the finite pairs: the head below θ − L_a plus the Q part, a
            # sum of non-negative terms (relatively accurate when E_γ is near 1)
            comp = float(np.sum(pa * np.take(suf.head, idx))) + sum_q
            # the loss error of a pair: both losses, θ, and the rounding of c = θ − L_a and of ref-differences
            spread = float(ends_ab + abs(theta) + 3 * H)
            delta = A.L_err + B.L_err + theta_err + 8 * U * spread
            # the first B-atom at or above c − 2δ: idx itself unless the atom before it is in [c − 2δ, c] (2δ is tiny:
            # a few atoms at most, searched again)
            wide = c - 2 * delta
            again = np.take(before, idx) >= wide  # (at idx = 0 the atom before is none: −∞)
            near = sum_p
            if again.any():
                idx_wide = idx.copy()
                idx_wide[again] = np.searchsorted(Lb, wide[again], side="left")
                near = float(np.sum(pa * suf.TP[idx_wide]))
            ab = arb(absolute)
            # the threshold (Lipschitz): δ·e^δ·near·(1 + ρ), e^δ(1 + ρ) ≤ 1.01 in the usual case (δ, ρ ≤ 10⁻³)
            lipschitz = (_LIPSCHITZ_SMALL if delta <= 1e-3 and rho <= 1e-3 else arb(delta).exp() * (1 + arb(rho)))
            # terms common to both sums: chunks beyond the 2nd (e^{<-700} := 0) and the threshold
            common = _CHUNKS_BEYOND * ab + arb(delta) * (arb(near) + tiny) * lipschitz + tiny
            mid = arb(total) * scale
            err = (arith * ab + common) * scale
            f_lo, f_hi = _lower(mid - err, cap), _upper(mid + err, cap)
            # the complement: the same error terms with its own (non-negative) sum in place of the cancelling one
            c_mid = arb(comp) * scale
            c_err = (arith * arb(comp) + common) * scale
            c_lo, c_hi = _lower(c_mid - c_err, cap), _upper(c_mid + c_err, cap)
            out.append(_Sweep(max(f_lo, ZERO), f_hi, max(c_lo, ZERO), c_hi, dropped))
    return out


def _sweep_constants() -> tuple[arb, arb, arb]:
    """The γ-independent balls of :func:`_sweep`'s error (128 bits): the margin 1 + 2⁻²⁰ on the arithmetic bound, the
    chunks beyond the second e^{−2H}·1.01 + 3e^{−700}, and 1.01 ≥ e^δ(1 + ρ) for δ, ρ ≤ 10⁻³."""
    with ctx.workprec(128):
        return 1 + arb(2) ** -20, arb(-2 * H).exp() * 1.01 + 3 * arb(-700).exp(), arb(101) / 100


_ARITH_MARGIN, _CHUNKS_BEYOND, _LIPSCHITZ_SMALL = _sweep_constants()


@dataclass(frozen=True)
class _Sweep:
    """Bounds of the kept pairs' sums: F = Σ_above P_aP_b(1 − e^{θ−L}) and C = Σ min(P_aP_b, γQ_aQ_b) (exact
    rationals), and an upper bound of the mass of the pairs left out.  With p_∞ the P-only mass,
    E_γ = p_∞ + F + (left-out part of F) = 1 − C − (left-out part of C), both left-out parts in [0, dropped]."""

    f_lo: fmpq
    f_hi: fmpq
    c_lo: fmpq
    c_hi: fmpq
    dropped: fmpq


def _ends(b: arb) -> tuple[fmpq, fmpq]:
    """The exact endpoints of a finite ball (the bounds here are of finite floats: a non-finite ball is a bug)."""
    ends = ball_endpoints(b)
    if ends is None:
        raise ArithmeticError("lattice_interval: a bound evaluated to a non-finite ball")
    return ends


def _lower(b: arb, cap: int | None = None) -> fmpq:
    """The exact lower end of a finite ball (one end of :func:`_ends`: a sweep needs one end of each of its balls, and
    converts it at the ball's precision — lower() rounds outward at any precision).  ``cap``: the value of
    :func:`~exactdp.numbers.rb.exact_bits_cap` in force, read once by a caller converting several ends."""
    if not b.is_finite():
        raise ArithmeticError("lattice_interval: a bound evaluated to a non-finite ball")
    return arb_to_fmpq(b.lower(), cap)


def _upper(b: arb, cap: int | None = None) -> fmpq:
    """The exact upper end of a finite ball (as :func:`_lower`)."""
    if not b.is_finite():
        raise ArithmeticError("lattice_interval: a bound evaluated to a non-finite ball")
    return arb_to_fmpq(b.upper(), cap)


def _dropped(X: Block, tiny: int, M: float, p: FloatArray) -> fmpq:
    """An upper bound of the P-mass of the atoms of X not in the sweep (see :func:`_sweep`)."""
    rho = 2 * (math.expm1(X.lp_err) + EXP_REL + 2 * (len(p) + 1) * U)
    kept_lo = _ends(arb(float(np.sum(p))) * (1 - arb(rho)) * (arb(M) - arb(X.lp_err)).exp())[0]
    by_mass = max(X.finite - kept_lo, ZERO)
    if X.dropped == 0 and tiny == 0:
        return ZERO
    by_cut = X.dropped + _tiny_mass(X, tiny, M)
    return min(by_cut, by_mass)


def _tiny_mass(X: Block, tiny: int, M: float) -> fmpq:
    """An upper bound of the P-mass of the ``tiny`` atoms of X below e^{M − 650} (left out of the sweep)."""
    return _ends(tiny * (arb(M - 650) + arb(X.lp_err)).exp())[1] if tiny else ZERO


def _exp0(d: FloatArray) -> FloatArray:
    """e^d where d ≥ −700, 0 below (the caller bounds those terms by e^{−700}·their weight), d capped at 700
    (only where the weight is 0).  A fresh array (the caller scales it in place)."""
    if d.size and -700.0 <= float(d.min()) and float(d.max()) <= 700.0:  # the usual case: no cap, no zeros
        return _exp_in_range(d)
    return np.where(d < -700.0, 0.0, exp_floats(np.clip(d, -700.0, 700.0)))


_DEFAULT = LatticeEnclosure(keep_atoms=6_000_000)
#: the share of ``max_memory`` the module's store may keep (:func:`shared_blocks`)
_SHARED_MEMORY_SHARE = 8


def search_tag(losses: Iterable[PairLoss]) -> frozenset[PairLoss]:
    """The ``tag`` of the enclosures of one composition search (its losses): the blocks it keeps form one level per
    cut in the shared store, whatever kept blocks of other searches are left there."""
    return frozenset(losses)


def shared_blocks() -> BlockStore:
    """The module's block store (γ-independent atoms): enclosures that share it build each (loss, k, cut) block once
    across calls — a sweep over γ, the steps of a profile inversion, a search whose every composition is a leaf (E_γ
    flat in k: 2·(n + 1) blocks a cut level, about 2.2·10⁷ atoms at n = 1000 and a 24-nat cut).  Capped at
    1/:data:`_SHARED_MEMORY_SHARE` of ``max_memory`` (:data:`_BYTES_PER_ATOM` an atom), at least 6·10⁶ atoms."""
    store = _DEFAULT.store
    store.keep_atoms = max(6_000_000, limit("max_memory") // (_SHARED_MEMORY_SHARE * _BYTES_PER_ATOM))
    return store


def hockey_stick_bounds(items: Items, gamma: RationalInput, *,
                        rel_width: fmpq | None = None) -> tuple[fmpq, fmpq]:
    r"""Exact rationals (lo, hi) with lo ≤ E_γ ≤ hi for the product ``[(PairLoss, k), ...]`` (see the module
    docstring; a shared :class:`LatticeEnclosure` keeps the atoms of recent blocks).

    >>> from exactdp.measures.privacy_loss import PairLoss
    >>> L = PairLoss.of([fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)])
    >>> lo, hi = hockey_stick_bounds([(L, 3), (L.reverse(), 2)], 2)
    >>> from exactdp.measures.privacy_loss import product_loss
    >>> lo <= product_loss([(L, 3), (L.reverse(), 2)]).hockey_stick(fmpq(2)) <= hi, float((hi - lo) / lo) < 1e-9
    (True, True)
    """
    return _DEFAULT.bounds(items, gamma, rel_width=rel_width)


# -- the composition search's hook (exactdp.measures.composition_filter) ----------------------------------

@functools.lru_cache(maxsize=4096)
def _log128(x: fmpq) -> arb:
    """log x as a 128-bit arb ball (cached: the Chernoff bounds of a search take the same few logarithms)."""
    with ctx.workprec(128):
        return arb(x).log()


def chernoff_bound(items: Items, gamma: RationalInput, *, others: Iterable[Items] = ()) -> fmpq:
    r"""An exact rational upper bound of E_γ of the product ``[(PairLoss, k), ...]`` (any number of classes) —
    and of each product in ``others`` (lists like ``items``): p_∞ + c(s)·γ^{−s}·Π_j M_j(s)^{k_j} at one s ≥ 0,
    maximised over the products, M_j(s) = Σ_l P_l r_l^s (finite classes), c(s) = s^s/(1+s)^{1+s} (since
    (1 − e^{−x})_+ ≤ c(s)e^{sx} for all x: the maximum of (1 − e^{−x})e^{−sx} is c(s)).  s from a float
    minimisation of the largest exponent, the bound itself evaluated in arb — O(classes) work; for k in [a, b]
    the exponent is linear in k at fixed s, so the two end compositions bound every one between them."""
    gamma = to_qq(gamma, "gamma")
    products = [_nonzero(items)] + [_nonzero(o) for o in others]
    if gamma == 0:
        return ONE
    i = int(np.nanargmin(grid_exponents(products, gamma)))
    best_s = float(S_GRID[i])
    s = fmpq(*best_s.as_integer_ratio()) if best_s > 1e-12 else ZERO
    # the largest P-only mass plus the largest finite bound (both are monotone in k along [a, b], but not always
    # in the same direction, so their sum is bounded by the sum of the maxima); the factor c(s)·γ^{−s} and the
    # moments M_j(s) are balls shared by the products (cached per s: a search asks for the same few s), and only
    # the largest upper end is made an exact rational
    p_max, f_max = ZERO, ZERO
    top: arb | None = None
    with ctx.workprec(128):
        scale = _chernoff_scale(s, gamma)
        for prod in products:
            if not prod:
                f_max = max(f_max, max(ONE - gamma, ZERO))
                continue
            ball = scale
            for loss, k in prod:
                if loss.classes:
                    ball *= moment_ball(loss, s) ** k
            if not ball.is_finite():
                f_max = ONE
            elif top is None or ball.upper() > top.upper():
                top = ball
            p_max = max(p_max, p_inf(prod)[1])
        ends = ball_endpoints(top) if top is not None else None
    if top is not None:
        f_max = max(f_max, ends[1] if ends is not None else ONE)
    return min(p_max + f_max, ONE)


def grid_exponents(products: Sequence[Items], gamma: fmpq) -> FloatArray:
    """The largest Chernoff exponent log c(s) − sθ + Σ_j k_j log M_j(s) over ``products`` on :data:`S_GRID` (floats,
    NaN as +∞): only guides the choice of s (per loss the log-moments on the grid are kept, :func:`log_moments`, so a
    product costs a few vector passes)."""
    with ctx.workprec(64):
        theta = float(_log128(gamma).mid())
    worst = np.full(S_GRID.shape, -np.inf)
    for prod in products:
        v = CS_GRID - S_GRID * theta
        for loss, k in prod:
            if k and loss.classes:
                v = v + k * log_moments(loss)
        worst = np.maximum(worst, v)
    out: FloatArray = np.where(np.isnan(worst), np.inf, worst)
    return out


def chernoff_log(items: Items, gamma: fmpq, *, others: Iterable[Items] = ()) -> float:
    """A float estimate of log of the finite part of :func:`chernoff_bound` (the same s, no P-only mass, capped at
    log 1 as the bound is): for decisions that only choose work (whether a certified bound could prune), never a
    bound."""
    return min(float(np.min(grid_exponents([_nonzero(items)] + [_nonzero(o) for o in others], gamma))), 0.0)


@functools.lru_cache(maxsize=4096)
def _chernoff_scale(s: fmpq, gamma: fmpq) -> arb:
    """c(s)·γ^{−s} with c(s) = s^s/(1 + s)^{1+s} (c(0) = 1) as a 128-bit ball (:func:`chernoff_bound`)."""
    with ctx.workprec(128):
        sb = arb(s)
        c = (sb * sb.log() - (1 + sb) * (1 + sb).log()).exp() if s > 0 else arb(1)
        return c * (-sb * _log128(gamma)).exp()


#: M(s) = Σ_l P_l r_l^s as 128-bit balls, keyed by (id(loss), s) (the loss is kept so the key stays valid)
_MOMENT_BALLS: dict[tuple[int, fmpq], tuple[PairLoss, arb]] = {}


def moment_ball(loss: PairLoss, s: fmpq) -> arb:
    """Σ_l P_l r_l^s of the finite classes of ``loss`` as a 128-bit ball (:func:`chernoff_bound`)."""
    got = _MOMENT_BALLS.get((id(loss), s))
    if got is not None and got[0] is loss:
        return got[1]
    with ctx.workprec(128):
        sb = arb(s)
        ball = sum((arb(P) * (sb * _log128(r)).exp() for r, P in loss.classes), arb(0))
    if len(_MOMENT_BALLS) >= 8192:
        _MOMENT_BALLS.clear()
    _MOMENT_BALLS[(id(loss), s)] = (loss, ball)
    return ball


def _nonzero(items: Items) -> list[tuple[PairLoss, int]]:
    """The items of positive multiplicity (equal losses need not be merged: M(s)^{k₁}·M(s)^{k₂} = M(s)^{k₁+k₂})."""
    return [(loss, k) for loss, k in items if k]


#: the grid of s on which the Chernoff exponent is minimised (0 and 2048 log-spaced points in [2^-20, 64]; f is
#: convex in s, and the grid's relative spacing of about 0.9 % leaves the bound within a fraction of a percent of
#: the grid's minimum), and log c(s) on it
S_GRID = np.concatenate(([0.0], np.geomspace(2.0 ** -20, 64.0, 2048)))
with np.errstate(divide="ignore", invalid="ignore"):
    CS_GRID = np.where(S_GRID > 0, S_GRID * np.log(np.where(S_GRID > 0, S_GRID, 1.0))
                        - (1 + S_GRID) * np.log1p(S_GRID), 0.0)
#: log M(s) = log Σ_l P_l r_l^s on the grid, per loss (keyed by identity; the loss is kept so the key stays valid)
_MOMENTS: dict[int, tuple[PairLoss, FloatArray]] = {}


def log_moments(loss: PairLoss) -> FloatArray:
    """log Σ_l P_l r_l^s on :data:`S_GRID` as floats (a guide for the choice of s, never a bound)."""
    got = _MOMENTS.get(id(loss))
    if got is not None and got[0] is loss:
        return got[1]
    with ctx.workprec(64):  # log-masses from arb: classes below the float range stay finite
        lPs = np.array([float(_log128(P).mid()) for _, P in loss.classes])
        ls = np.array([float(_log128(r).mid()) for r, _ in loss.classes])
    terms = lPs[:, None] + ls[:, None] * S_GRID[None, :]
    mx = terms.max(axis=0)
    out: FloatArray = mx + np.log(np.exp(terms - mx).sum(axis=0))
    if len(_MOMENTS) >= 1024:
        _MOMENTS.clear()
    _MOMENTS[id(loss)] = (loss, out)
    return out


#: the least class mass the search routine takes (as the two-ratio routine: floats of the masses stay normal)
MIN_MASS = fmpq(1, 2**1000)


def _applies(losses: Losses, groups: Groups, totals: Totals, *,
             routed: bool = True) -> tuple[int, int, int, list[tuple[PairLoss, int]]] | None:
    """``(i, j, n, fixed)`` when the search varies one factor's two pair classes of at most three ratio classes each,
    every other factor having one pair class (``fixed``: its ``(PairLoss, multiplicity)``, the same in every
    composition: products of several kernels); one class with exactly three ratios when nothing is fixed (the
    two-ratio structures of one factor are the two-ratio routine's; ``routed=False``, as :data:`PAIR_FACE`, takes them
    too); None otherwise."""
    pairs = [gi for gi, members in enumerate(groups) if len(members) == 2]
    if len(pairs) != 1 or any(len(members) > 2 for members in groups) or totals[pairs[0]] < 1:
        return None
    i, j = groups[pairs[0]]
    fixed = [(losses[members[0]], totals[gi]) for gi, members in enumerate(groups) if len(members) == 1]
    sizes = [len(losses[i].classes), len(losses[j].classes)] + [len(loss.classes) for loss, _ in fixed]
    if max(sizes) > 3 or (routed and not fixed and max(sizes) != 3):
        return None
    if any(P < MIN_MASS for loss in [losses[i], losses[j]] + [lo for lo, _ in fixed] for _, P in loss.classes):
        return None  # masses below the float range (float(P), exp of log-mass quotients): the exact search
    return i, j, totals[pairs[0]], fixed


def _estimate(losses: Losses, groups: Groups, totals: Totals, *, routed: bool = True) -> tuple[int, int] | None:
    """(work, memory) of the lattice filter: the two homogeneous corners at the default cut, then about
    4·log2(n) + 8 lattice evaluations of two blocks of ≈ n coordinates at :data:`FILTER_CUT_NATS` (59 → 38 at
    n = 10³, 84 → 50 at n = 10⁴ measured) and a Chernoff bound per box; each block is also charged as it is
    built (:meth:`LatticeEnclosure.block`).  Fixed factors multiply the smaller side by their atoms
    (:func:`product_block`)."""
    found = _applies(losses, groups, totals, routed=routed)
    if found is None:
        return None
    i, j, n, fixed = found
    extra, extra_f = 1, 1
    for loss, k in fixed:
        extra *= atom_estimate(loss, k)
        extra_f *= atom_estimate(loss, k, FILTER_CUT_NATS)

    def side_work(a: int, b: int, times: int) -> tuple[int, int]:  # (work, atoms): a sweep, the product on b's side
        return (PER_ATOM * max(a, b) + (PER_PAIR * min(a, b) * times if times > 1 else PER_ATOM * min(a, b)),
                max(a, b) + min(a, b) * times)

    ai, aj = atom_estimate(losses[i], n), atom_estimate(losses[j], n)
    fi, fj = atom_estimate(losses[i], n, FILTER_CUT_NATS), atom_estimate(losses[j], n, FILTER_CUT_NATS)
    corners, corner_atoms = side_work(ai, aj, extra)
    boxes, box_atoms = side_work(fi, fj, extra_f)
    evaluations = 4 * (n + 1).bit_length() + 8
    work = corners + evaluations * boxes + 40_000 * evaluations
    return work, 200 * max(corner_atoms, box_atoms) + 64 * (n + 1)


def _enclose_all(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq, *,
                 routed: bool = True) -> list[CompositionBounds]:
    r"""(counts, lo, hi) of every composition (k of class i, n − k of class j, the fixed factors' classes at their
    multiplicities; the order of ``tensor._all_compositions``) by a best-first branch and bound over intervals
    [a, b] of k: an interval is
    bounded by E_γ at its top corner (b, n − a) — data processing, every composition in it has fewer
    coordinates of each class — first by :func:`chernoff_bound`, then by the lattice bounds; an interval whose
    bound is below the best lower bound found gives every composition in it (0, bound); the rest are split
    down to single compositions, which get their own lattice bounds (a cut deepened while it makes them wide).
    The work stops at ``max_work`` (or twice the estimate charged for it, :func:`_estimate`, if larger): the
    compositions not settled by
    then keep the bound of their open interval, or [0, 1] — valid, so the filter keeps them and the search
    falls back to its own cost guard (E_γ ≈ 1 for every composition, e.g. γ = 2 at n = 10⁴, has nothing to
    separate)."""
    found, estimate = _applies(losses, groups, totals, routed=routed), _estimate(losses, groups, totals, routed=routed)
    if found is None or estimate is None:
        raise ParameterError("losses: the lattice enclosure applies only where its estimate does (one factor's two "
                             "pair classes of at most three ratio classes each)")
    i, j, n, fixed = found
    LA, LB = losses[i], losses[j]
    # the estimate (typical) was charged to max_work; the work itself stops at max_work (or twice the estimate):
    # past it, what is left keeps valid but trivial bounds
    # the blocks do not depend on γ: a sweep builds each once
    enc = LatticeEnclosure(budget=max(2 * estimate[0], limit("max_work")), blocks=shared_blocks(),
                           tag=search_tag(losses))
    out: dict[int, tuple[fmpq, fmpq]] = {}
    heap: list[OpenInterval] = []
    try:
        _branch_and_bound(enc, LA, LB, n, gamma, out, heap, fixed)
    except OverBudget:  # E_γ ≈ 1 everywhere (η_TV at large n) or no structure to prune: let the search decide
        for neg, _, a, b in heap:
            for k in range(a, b + 1):
                out.setdefault(k, (ZERO, -neg))
    others = {members[0]: totals[gi] for gi, members in enumerate(groups) if len(members) == 1}
    return two_class_rows(out, len(losses), i, j, n, others)


#: a leaf whose float Chernoff estimate is above log(best) by more than this skips its certified Chernoff bound (the
#: estimate's float error is below 10⁻⁹ there: the certified bound could not prune it)
_SURE = 1e-6
_LOG_HOPELESS = math.log(_HOPELESS)


def _log_float(x: fmpq) -> float:
    """log x as a float (−∞ for x ≤ 0), through arb: x may lie below the float range."""
    if x <= 0:
        return -math.inf
    with ctx.workprec(64):
        return float(arb(x).log().mid())


def cut_below(bound: fmpq) -> float:
    """The cut (nats) of an enclosure of a value at most ``bound``: :data:`CUT_NATS` below ``bound`` (the dropped mass
    is then about e^{-22} of it), the default cut for bounds near 1; at most :data:`MAX_CUT_NATS`."""
    return _cut_under(bound, CUT_NATS)


#: cuts of the composition search are rounded up to a multiple of this (nats): the searches at nearby γ (a sweep,
#: the steps of an inversion) then ask for the same blocks and find them kept, with their swept arrays
CUT_STEP = 8.0


def leaf_cut(best: fmpq) -> float:
    """The cut (nats) of the composition search's boxes and leaves when the best lower bound is ``best``:
    :data:`FILTER_CUT_NATS` + log(1/best) (the dropped mass, about e^{-cut} absolute, must fall below the maximum:
    deeper for small E_γ; at E_γ ≈ 10⁻⁸ a 12-nat cut left every composition open), quantized up, at most
    :data:`MAX_CUT_NATS` — the level whose blocks a search at this γ keeps, so a later tightening of its
    compositions (:func:`exactdp.measures.tensor_enclosure.tighten`) asks for the same blocks."""
    return _cut_under(best, FILTER_CUT_NATS)


def _cut_under(value: fmpq, base: float) -> float:
    """``base`` nats below ``value`` (base + log(1/value), quantized up, at most :data:`MAX_CUT_NATS`; ``base`` when
    value ≤ 0): the rule of :func:`cut_below` and :func:`leaf_cut`."""
    if value <= 0:
        return base
    return min(quantized(base + max(-_log_float(value), 0.0)), MAX_CUT_NATS)


#: the tilted exponents s of the composition search are multiples of 1/TILT_GRID (the searches at nearby γ, the steps
#: of an inversion, then ask for the same tilted blocks; a grid point off the optimum only loosens the moment bound,
#: which :func:`tilted_level` measures)
TILT_GRID = 8
#: tilted cuts are rounded up to a multiple of this (nats): a tilted level serves one γ or a few, so the step is finer
TILT_STEP = 4.0
#: the first pass of the leaves is this many nats shallower than their cut (:func:`leaf_cut`, or :func:`tilted_level`'s)
LEAF_SHALLOW = 8.0
#: the search keeps its leaves by tilted mass when that level is at least this many nats shallower than the leaf cut
#: by P-mass (:func:`leaf_cut`), whose blocks serve every γ: the tilted blocks serve only the γ of their s
TILT_SAVING = 8.0


def tilted_level(items_of: Sequence[Items], gamma: fmpq, best: fmpq) -> tuple[fmpq, float] | None:
    r"""(s, cut) of the leaves kept by tilted mass (:func:`_tilted_block`) for a search whose compositions are the
    products ``items_of`` (its end compositions: the exponent is linear in between) at γ, best lower bound ``best`` >
    0; None when s would be 0.  s: the float minimiser of the largest Chernoff exponent log c(s) − sθ + Σ k_j log
    M_j(s) over the products (the grid of :func:`chernoff_bound`), rounded to a multiple of 1/:data:`TILT_GRID`; the
    cut: the left-out part of a leaf, at most C(s)·(D̃_A + D̃_B) with C(s) the largest Chernoff bound at s and D̃ ≈
    e^{−cut} (a two-dimensional lattice Gaussian outside its level set e^{−cut} below the mode), must fall below
    e^{−FILTER_CUT_NATS}·best as the P-mass cut's does — cut = FILTER_CUT_NATS + log(2·C(s)/best) + 1, rounded up to
    :data:`TILT_STEP`.  Floats only choose the level: every bound stays certified (:meth:`LatticeEnclosure.bounds`)."""
    i = int(np.nanargmin(grid_exponents(items_of, gamma)))
    s = fmpq(round(float(S_GRID[i]) * TILT_GRID), TILT_GRID)
    if s <= 0:
        return None
    cut = tilted_need(items_of, gamma, best, s)
    if not math.isfinite(cut):
        return None
    return s, min(math.ceil(max(cut, TILT_STEP) / TILT_STEP) * TILT_STEP, MAX_CUT_NATS)


def tilted_need(items_of: Sequence[Items], gamma: fmpq, best: fmpq, s: fmpq) -> float:
    """The tilted cut (nats, not rounded) that the leaves of a search over the products ``items_of`` at γ, best lower
    bound ``best`` > 0, need at the exponent s > 0: FILTER_CUT_NATS + log(2·C(s)/best) + 1, C(s) the largest Chernoff
    bound at s (:func:`tilted_level`; a float that only chooses the level, +∞ where it is not finite)."""
    with ctx.workprec(64):
        log_c = max(float((_chernoff_scale(s, gamma)
                           * _product_moment([(loss, k) for loss, k in prod if k and loss.classes], s)).log().mid())
                    for prod in items_of)
    cut = FILTER_CUT_NATS + math.log(2.0) + log_c - _log_float(best) + 1.0
    return cut if math.isfinite(cut) else math.inf


#: a new tilted level is cut this many nats deeper than its γ needs: the Chernoff exponent is flat near its minimum
#: (seed 3 of ``bench_tensor.py --random-pairs`` at n = 1000: 1–3 nats from one grid point of s to the next), so the
#: next γ of a sweep walks the same blocks (:func:`_kept_level`) instead of building a level at its own s
TILT_MARGIN = 4.0
#: a kept level serves a γ whose leaves need a cut at most this many nats shallower than the level's (walking deeper
#: blocks than needed costs more atoms per sweep, far less than a new pass's build)
REUSE_SLACK = 12.0


def _kept_level(enc: LatticeEnclosure, items_of: Sequence[Items], gamma: fmpq, best: fmpq,
                n: int) -> tuple[fmpq | None, float] | None:
    """(tilt, full cut) of a search at γ (best lower bound ``best`` > 0, the products ``items_of`` its end compositions)
    whose shallow pass walks a level kept by an earlier search over the same losses (at least n blocks: a pass over
    the compositions), or None: a level (c, s) serves when the cut this γ needs at s (:func:`tilted_need`; by P-mass
    FILTER_CUT_NATS + log(1/best), as :func:`leaf_cut`) is at most c + LEAF_SHALLOW, and at least that minus
    :data:`REUSE_SLACK`; the shallowest such level.  Floats only choose the level: the bounds of the leaves are
    certified at whatever s and cut they are kept (:meth:`LatticeEnclosure.bounds`)."""
    options: list[tuple[float, fmpq | None]] = []
    for cut, s in enc.store.passes(enc.tag, n):
        full = cut + LEAF_SHALLOW
        need = tilted_need(items_of, gamma, best, s) if s is not None else FILTER_CUT_NATS - _log_float(best)
        if need <= full <= need + REUSE_SLACK and full <= MAX_CUT_NATS:
            options.append((full, s))
    if not options:
        return None
    full, s = min(options, key=lambda o: o[0])
    return s, full


def _product_moment(items: Items, s: fmpq) -> arb:
    """Π_j M_j(s)^{k_j} as a 128-bit ball (:func:`tilted_level`)."""
    with ctx.workprec(128):
        ball = arb(1)
        for loss, k in items:
            ball *= moment_ball(loss, s) ** k
        return ball


def quantized(cut: float) -> float:
    """``cut`` rounded up to a multiple of :data:`CUT_STEP` (a deeper cut only tightens a bound)."""
    return math.ceil(cut / CUT_STEP) * CUT_STEP


@dataclass
class _Setup:
    """What the search of one γ fixes before its boxes and leaves (:func:`_setup`): the best lower bound of the corners,
    the leaves' full and shallow cuts and tilt, the refinement's depth, whether E_γ is flat near 1, and the corners'
    largest Chernoff-to-value ratio (None when no corner has a positive lower bound)."""

    best: fmpq
    full: float
    shallow: float
    refine_depth: float
    tilt: fmpq | None
    near_one: bool
    rho: fmpq | None


def _setup(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq, out: dict[int, tuple[fmpq, fmpq]],
           fixed: list[tuple[PairLoss, int]], kept_levels: bool = True) -> _Setup:
    """The two homogeneous corners of the search at γ (their bounds into ``out``) and the levels of its leaves
    (:func:`_branch_and_bound`; ``kept_levels``: a level kept by an earlier search may serve, :func:`_kept_level`).
    Raises :class:`OverBudget` where E_γ is within :data:`NEAR_ONE` of 1 past :data:`NEAR_ONE_N`."""
    tilt: fmpq | None = None
    best = ZERO
    # the homogeneous corners first, the one of larger Chernoff bound first: a tight best lower bound.  Each is cut
    # CUT_NATS below its Chernoff bound (E_γ ≤ that bound, so the dropped mass is a small part of E_γ even when E_γ
    # is far below the default cut's e^{-22}: at E_γ ≈ 10⁻¹² the default cut left the lower bound 0 and the search
    # without a bound to prune against); a corner whose Chernoff bound is below the other's lower bound is ruled
    # out by it alone
    corners = sorted(((chernoff_bound([(LA, k), (LB, n - k)] + fixed, gamma), k) for k in (n, 0)), reverse=True)
    for ub, k in corners:
        if ub < best:
            out[k] = (ZERO, ub)
            continue
        out[k] = enc.bounds([(LA, k), (LB, n - k)] + fixed, gamma, cut_nats=cut_below(ub))
        best = max(best, out[k][0])
    full = refine_depth = leaf_cut(best)
    # near 1 (E_γ of every composition within 1 − best of 1: flat by necessity) neither the shallow pass nor the
    # refinement of the candidates can separate anything: one pass at the leaf cut, whose bounds the enclosure route
    # accepts when they are within its width (δ_n ≈ 1 − 4·10⁻⁶ of a near-symmetric pair at n = 1000)
    near_one = ONE - best < NEAR_ONE_FLAT and not fixed
    # only two losses (no fixed factors): the shallow pass of an earlier search at another γ where its level serves
    # this γ (:func:`_kept_level`: its blocks are walked, not built), else leaves kept by tilted mass where that level
    # is much shallower (a deep γ: the P-mass cut grows with log(1/best), the tilted one with the Chernoff bound's
    # ratio to E_γ only), cut TILT_MARGIN deeper than this γ needs so that the next γ of a sweep finds it kept
    if best > 0 and not fixed:
        items_of = [[(LA, n)], [(LB, n)]]
        kept = None if near_one or not kept_levels else _kept_level(enc, items_of, gamma, best, n)
        if kept is not None:
            tilt, full = kept
        else:
            level = tilted_level(items_of, gamma, best)
            if level is not None and level[1] + TILT_SAVING <= full:
                tilt, full = level[0], min(level[1] + TILT_MARGIN, MAX_CUT_NATS)
    # every leaf first at a cut LEAF_SHALLOW nats shallower (half the atoms at a 16-nat level: E_γ of the compositions
    # far from the maximum is that far below it), the full cut for those it leaves open; boxes at the full cut
    shallow = max(full - LEAF_SHALLOW, TILT_STEP) if not fixed else full
    if near_one:
        shallow = full
    # the largest Chernoff-to-value ratio of the corners (None when no corner has a positive lower bound)
    ratios = [ub / out[k][0] for ub, k in corners if out[k][0] > 0]
    rho = max(ratios) if ratios else None
    if ONE - best < NEAR_ONE and n > NEAR_ONE_N:
        raise OverBudget("E_gamma is within 2^-20 of 1: the overlaps that separate the compositions lie in the far "
                         "tails, which only the deepest cuts reach (too costly at this n)")
    return _Setup(best, full, shallow, refine_depth, tilt, near_one, rho)


def _branch_and_bound(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq,
                      out: dict[int, tuple[fmpq, fmpq]], heap: list[OpenInterval],
                      fixed: Iterable[tuple[PairLoss, int]] = ()) -> None:
    """The search of :func:`_enclose_all`: fills ``out`` (k → bounds); ``heap`` holds the open intervals;
    ``fixed``: the ``(PairLoss, multiplicity)`` of the factors every composition shares."""
    import heapq

    fixed = list(fixed)
    setup = _setup(enc, LA, LB, n, gamma, out, fixed)
    best, full, shallow, refine_depth = setup.best, setup.full, setup.shallow, setup.refine_depth
    tilt, near_one, rho = setup.tilt, setup.near_one, setup.rho

    def lattice(kA: int, kB: int, cut: float) -> tuple[fmpq, fmpq]:
        return enc.bounds([(LA, kA), (LB, kB)] + fixed, gamma, cut_nats=cut, tilt=tilt)

    tick = 0

    # without P-only mass and fixed factors, float estimates of the Chernoff exponent (:func:`chernoff_log`) decide
    # whether a leaf's certified Chernoff bound could prune it and whether a box's top corner gets its lattice bound
    # (choices of work only; every bound used as a bound is certified)
    estimated = not fixed and LA.p_only == 0 and LB.p_only == 0
    windows = not fixed and LA != LB and WINDOW is not None and n > 4 * WINDOW[0]
    # after a batch's pass by windows over these losses (a kept whole level, :meth:`BlockStore.mark_pass`) the boxes are
    # split on its window grid; without one the plain halving (seed 2's single searches: eight more window boxes)
    grid = (not fixed and LA != LB
            and any(isinstance(level, tuple) and level[0] == enc.tag for level in enc.store.whole))
    # the boxes' windows: after a batch's pass, those of its pass (:func:`batch_window`, its grid); else WINDOW
    window = batch_window(LA, LB, n, _flat_ratio(LA, LB, n, gamma)) if grid else WINDOW if windows else None
    log_rho = _log_float(_PREDICT * rho) if rho is not None else math.inf
    logs: list[tuple[fmpq, float]] = []  # (best, log best): compared by identity (hashing an fmpq is not cheap)
    # chernoff_log of the compositions (k_A, k_B) before its cap at 0 (a bound above 1 is 1, which prunes nothing below
    # a best < 1 either), the arithmetic of grid_exponents with its γ-part once per search
    with ctx.workprec(64):
        base = CS_GRID - S_GRID * float(_log128(gamma).mid())
    moments = [log_moments(LA) if LA.classes else None, log_moments(LB) if LB.classes else None]

    def estimate(*ends: tuple[int, int]) -> float:
        worst: FloatArray | None = None
        for counts in ends:
            v = base
            for k, m in zip(counts, moments):
                if k and m is not None:
                    v = v + k * m
            worst = v if worst is None else np.maximum(worst, v)
        assert worst is not None
        return float(np.min(np.where(np.isnan(worst), np.inf, worst)))

    def log_best() -> float:
        if not logs or logs[0][0] is not best:
            logs[:] = [(best, _log_float(best))]
        return logs[0][1]

    def push(a: int, b: int) -> None:
        nonlocal tick
        if a > b:
            return
        ub: fmpq | None = None
        if a != b and estimated and estimate((a, n - a), (b, n - b)) > log_best() + _LOG_HOPELESS + _SURE:
            # its Chernoff bound is above _HOPELESS times the best (E_γ flat in k: the corners' Chernoff-to-value
            # ratio is about 8.6 at n = 1000, so every box of seed 3): it could prune the box only after the best
            # grew that much, so the box keeps the trivial bound 1 unless its top corner's lattice bound is worth
            # computing (below), and is split (efficiency only: every composition still gets its own bound)
            ub = ONE
        elif a != b or not estimated or estimate((a, n - a)) <= log_best() + _SURE:
            ub = chernoff_bound([(LA, a), (LB, n - a)] + fixed, gamma, others=[[(LA, b), (LB, n - b)] + fixed])
            if ub < best:
                for k in range(a, b + 1):
                    out[k] = (ZERO, ub)
                return
        if a == b:
            lo, hi = lattice(a, n - a, shallow)
            if hi >= best and shallow < full:  # at the full cut before the refinement
                lo, hi = lattice(a, n - a, full)
            if hi >= best and not near_one:  # a candidate so far: deepen the cut while the dropped mass makes it
                # wide (from one level below the leaf's: the default cut is shallower than the leaf's for small E_γ)
                lo, hi = enc.bounds([(LA, a), (LB, n - a)] + fixed, gamma,
                                    rel_width=_REFINE_FIXED if fixed else REFINE,
                                    cut_nats=min(max(refine_depth + CUT_STEP, CUT_NATS), MAX_CUT_NATS))
            out[a] = (lo, hi)
            return
        assert ub is not None  # a box always has its certified bound
        if estimated:
            t = min(estimate((b, n - a)), 0.0)
            worth = t <= _LOG_HOPELESS + log_best() and t <= log_rho + log_best()
        else:
            top = chernoff_bound([(LA, b), (LB, n - a)] + fixed, gamma)
            worth = top <= _HOPELESS * best and (rho is None or top <= _PREDICT * rho * best)
        if worth:
            ub = min(ub, lattice(b, n - a, full)[1])  # else the top corner is (predicted) above the best: split without it
        elif window is not None and window[0] // 2 <= b - a <= window[0]:
            # a box of a few compositions its top corner cannot prune (E_γ flat in k): its window bound at the leaves'
            # shallow level (:func:`window_bounds`; the blocks a batch's pass by windows keeps), once per box of
            # j/2 + 1 to j + 1 compositions ((j, points) = ``window``; not again for its halves' halves); at one γ by
            # D′'s atoms (:func:`window_by_atoms`: walks of the kept blocks, no product block)
            D = window_majorant(LA, LB, b - a, window[1])
            ub = min(ub, window_bounds(enc, LA, LB, a, n - b, D, [gamma], cut_nats=shallow, tilt=tilt)[0])
        heapq.heappush(heap, (-ub, tick, a, b))
        tick += 1

    # an interval being split stays in the heap until both halves are in (for OverBudget), then is stale: skipped when
    # popped, dropped before OverBudget leaves (instead of a removal and a heapify per split: the heap holds ~n/2
    # intervals of a pair whose every composition is a leaf)
    split: set[tuple[int, int]] = set()
    push(1, n - 1)
    try:
        while heap:
            neg, tie, a, b = heapq.heappop(heap)
            if tie == -1 and (a, b) in split:
                continue
            if -neg < best:
                for k in range(a, b + 1):
                    out[k] = (ZERO, -neg)
                continue
            mid = (a + b) // 2
            if grid and window is not None:  # split on the batch pass's window grid (windows k0 … k0 + j with
                # k0 ≡ 1 mod j + 1) where the box spans a grid line: its boxes of j + 1 compositions are then the
                # batch's windows, whose two blocks the batch before it kept (a choice of work only)
                e = (window[0] + 1) * round(mid / (window[0] + 1))
                if a <= e < b:
                    mid = e
            heapq.heappush(heap, (neg, -1, a, b))
            for lo_k, hi_k in ((a, mid), (mid + 1, b)):
                push(lo_k, hi_k)
                if lo_k == hi_k and lo_k in out:
                    best = max(best, out[lo_k][0])
            split.add((a, b))
    except OverBudget:
        heap[:] = [entry for entry in heap if not (entry[1] == -1 and (entry[2], entry[3]) in split)]
        raise


#: a search at γ is *flat* when E_γ changes from one composition to the next by less than this fraction of what one
#: more coordinate changes it (float Chernoff exponents: the corners' difference over n against the increase by one
#: coordinate of the other class).  A box of the branch and bound, whose top corner has more coordinates, then prunes
#: nothing and every composition is a leaf (seed 3 of ``bench_tensor.py --random-pairs``: 0.0008–0.0015 over its ten
#: γ, the constructed near-symmetric pairs 0.006–0.011 and 0.022–0.042; seed 0 0.074–0.14, seeds 1, 2, 4, 5 and 7,
#: pruned by boxes to 100–200 bounds a γ, 0.09–22): :func:`enclose_batch` then bounds every composition of such γ in
#: shared passes (an efficiency choice only: both bound every composition soundly).  The third constructed pair at
#: n = 10³ takes the shared passes at 0.05 (at 0.02 its ten γ were ten searches of about 500 leaves each, in about 1.4
#: times the CPU of the batch, same run)
FLAT_RATIO = 0.05


def _flat_ratio(LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq) -> float:
    """The flatness of the search at γ (:data:`FLAT_RATIO`): the corners' Chernoff exponents' difference over n against
    the increase by one coordinate of the other class (∞ where that increase is not positive; floats only choose the
    work)."""
    a, b = chernoff_log([(LA, n)], gamma), chernoff_log([(LB, n)], gamma)
    step = min(chernoff_log([(LA, n), (LB, 1)], gamma) - a, chernoff_log([(LB, n), (LA, 1)], gamma) - b)
    return abs(a - b) / n / step if step > 0 else math.inf


def _flat(LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq) -> bool:
    """Whether the search at γ is flat (:data:`FLAT_RATIO`; floats only choose the work)."""
    return _flat_ratio(LA, LB, n, gamma) < FLAT_RATIO


def flat(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> bool:
    """Whether :func:`enclose_batch` would bound the compositions at γ in a shared pass (the lattice routine applies,
    no fixed factors, the search flat at γ): the γ a batch gains on; the others are single searches."""
    found = _applies(losses, groups, totals)
    if found is None or found[3]:
        return False
    i, j, n, _ = found
    return _flat(losses[i], losses[j], n, gamma)


def enclose_batch(losses: Losses, groups: Groups, totals: Totals,
                  gammas: Sequence[fmpq]) -> list[list[CompositionBounds]]:
    r""":func:`_enclose_all` at several γ in one go (the rows of each γ, in the order of ``gammas``).

    The γ whose search is flat (:data:`FLAT_RATIO`: E_γ nearly the same for every composition, so the branch and bound
    would split every box and bound every composition by its own leaf) share passes over the compositions: their
    corners are bounded first (:func:`_setup`), then the shallow levels are chosen by a work model, one level for as
    many of them as pays (:func:`_plan_levels`), and each pass fetches the two blocks of a composition once and sweeps them once per γ it serves
    (:meth:`LatticeEnclosure.bounds_many`: each γ's bounds exactly as its own search's at that level).  Per γ, the
    compositions whose upper bound reaches the best lower bound are then bounded at the full cut and refined as in
    :func:`_branch_and_bound`.  Every other γ (not flat, near 1, fixed factors) gets its own search.  The work stops
    at the budget of the m searches (m times that of :func:`_enclose_all`); past it the compositions keep the valid
    bounds they have ([0, 1] where none), as there.  Every bound is certified, so each γ's rows are valid enclosures;
    a composition ruled out for one γ may stay open for another ([A] Thm 1 / B-10)."""
    found, estimate = _applies(losses, groups, totals), _estimate(losses, groups, totals)
    if found is None or estimate is None:
        raise ParameterError("losses: the lattice enclosure applies only where its estimate does (one factor's two "
                             "pair classes of at most three ratio classes each)")
    i, j, n, fixed = found
    gammas = list(gammas)
    if fixed or len(gammas) < 2:
        return [_enclose_all(losses, groups, totals, g) for g in gammas]
    LA, LB = losses[i], losses[j]
    enc = LatticeEnclosure(budget=len(gammas) * max(2 * estimate[0], limit("max_work")), blocks=shared_blocks(),
                           tag=search_tag(losses))
    outs: list[dict[int, tuple[fmpq, fmpq]]] = [{} for _ in gammas]
    setups: dict[int, _Setup] = {}
    try:
        for x, g in enumerate(gammas):
            if not _flat(LA, LB, n, g):
                continue
            try:
                setup = _setup(enc, LA, LB, n, g, outs[x], [], kept_levels=False)
            except OverBudget:  # near 1 (its own search refuses the same way)
                continue
            if setup.best > 0 and not setup.near_one:
                setups[x] = setup
        for cut, s, members in _plan_levels(enc, LA, LB, n, gammas, setups):
            _batch_pass(enc, LA, LB, n, [(gammas[x], setups[x], outs[x]) for x in members], cut, s)
    except OverBudget:  # past the budget: every composition keeps the valid bounds it has
        pass
    rows = []
    for x, g in enumerate(gammas):
        rows.append(two_class_rows(outs[x], len(losses), i, j, n) if x in setups
                    else _enclose_all(losses, groups, totals, g))
    return rows


#: the cuts (nats) of the shallow levels a batch may plan (besides each γ's own and the kept ones)
BATCH_CUTS = (8.0, 12.0, 16.0)


def _need(LA: PairLoss, LB: PairLoss, n: int, gamma: fmpq, best: fmpq, s: fmpq | None) -> float:
    """The full cut the leaves of the search at γ (best lower bound ``best`` > 0) need at s (None: by P-mass): the rule of
    :func:`_kept_level` (a float that only chooses work)."""
    if s is None:
        return FILTER_CUT_NATS - _log_float(best)
    return tilted_need([[(LA, n)], [(LB, n)]], gamma, best, s)


def _plan_levels(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, n: int, gammas: Sequence[fmpq],
                 setups: dict[int, _Setup]) -> list[tuple[float, fmpq | None, list[int]]]:
    """(cut, s, members) of the shallow levels of :func:`enclose_batch`, by a cost model in work units (floats that only
    choose work: whatever level a γ walks, its bounds are certified, and the compositions the pass leaves open are
    bounded at the full cut and refined as leaves).  Candidates: the levels kept for these losses, each γ's own
    (:func:`_setup`), and :data:`BATCH_CUTS` by P-mass and tilted at each γ's s; a level is open to a γ whose full cut
    by the rule of :func:`_kept_level` is at most :data:`REUSE_SLACK` nats deeper than the level's full cut.  A γ
    walking a level costs its pass (the smaller block of each composition walked) plus the compositions the pass leaves
    open, bounded at the full cut — about w/slope + 1 of them, w ≈ e^{need − cut − 12.3} the pass's relative width
    and slope the relative change of E_γ per composition (the corners' Chernoff exponents' difference over n); a level
    not kept costs its build: its atoms' work and a fixed part per block (:data:`_PER_BLOCK`, 2(n + 1) blocks).
    Greedily, the level of least cost per γ, each γ joining only where it pays at most twice its cheapest walk, until
    every γ has one; then the cheaper of that plan and the best single level serving every γ (the greedy choice per γ
    does not see that one build shared by all may cost less than two cheaper walks).  Seed 3 of ``bench_tensor.py
    --random-pairs`` and the second pair of ``--near-symmetric``: one level tilted at s = 1/4 and 16 nats for the ten
    γ, where the greedy plan builds two at 12 nats and a sweep of single searches walks three."""
    kept = set(enc.store.passes(enc.tag, n))
    items_of: list[Items] = [[(LA, n)], [(LB, n)]]
    tilts: set[fmpq | None] = {None}
    for x, setup in setups.items():
        tilts.add(setup.tilt)
        own = tilted_level(items_of, gammas[x], setup.best)
        tilts.add(own[0] if own is not None else None)
    levels = {(c, t) for c in BATCH_CUTS for t in tilts} | {(setups[x].shallow, setups[x].tilt) for x in setups} | kept

    @functools.lru_cache(maxsize=None)
    def atoms(cut: float, s: fmpq | None) -> int:  # the two blocks of a middle composition
        return atom_estimate(LA, n // 2, cut, s) + atom_estimate(LB, n - n // 2, cut, s)

    slope = {x: max(abs(chernoff_log([(LA, n)], gammas[x]) - chernoff_log([(LB, n)], gammas[x])) / n, 1e-12)
             for x in setups}

    def walk(level: tuple[float, fmpq | None], x: int) -> float:
        cut, s = level
        width = math.exp(min(_need(LA, LB, n, gammas[x], setups[x].best, s) - 12.3 - cut, 50.0))
        survivors = min(n + 1.0, width / slope[x] + 1.0)
        return ((n + 1) * _PER_WALK * atoms(cut, s) / 2
                + survivors * (PER_ATOM + _PER_PREP + _PER_WALK) * atoms(min(cut + LEAF_SHALLOW, MAX_CUT_NATS), s))

    serving = {level: [x for x in setups
                       if _need(LA, LB, n, gammas[x], setups[x].best, level[1]) <= level[0] + LEAF_SHALLOW + REUSE_SLACK]
               for level in levels}
    cheapest = {x: min((walk(level, x) for level in levels if x in serving[level]), default=math.inf) for x in setups}

    def build(level: tuple[float, fmpq | None]) -> float:  # a level not kept: 2(n + 1) blocks built and prepared
        return 0 if level in kept else (n + 1) * ((PER_ATOM + _PER_PREP) * atoms(*level) + 2 * _PER_BLOCK)

    ordered = sorted(levels, key=lambda lv: (lv[0], lv[1] is not None, lv[1] or ZERO))
    pending = set(setups)
    plan: list[tuple[float, fmpq | None, list[int]]] = []
    while pending:
        options: list[tuple[float, tuple[float, fmpq | None], list[int]]] = []
        for level in ordered:
            served = [x for x in sorted(pending) if x in serving[level] and walk(level, x) <= 2 * cheapest[x]]
            if served:
                options.append(((build(level) + sum(walk(level, x) for x in served)) / len(served), level, served))
        if not options:  # (each γ's own level serves it: not reached)
            x = min(pending)
            plan.append((setups[x].shallow, setups[x].tilt, [x]))
            pending.discard(x)
            continue
        _, (cut, s), served = min(options, key=lambda o: o[0])
        plan.append((cut, s, served))
        pending -= set(served)

    # the greedy choice per γ may spread the γ over several levels where one level serving them all costs less in all
    # (every level not kept is a build): the cheaper plan of the two (the greedy one on a tie)
    def cost(levels_of: list[tuple[float, fmpq | None, list[int]]]) -> float:
        return sum(build((cut, s)) + sum(walk((cut, s), x) for x in members) for cut, s, members in levels_of)

    everyone = sorted(setups)
    singles = [[(level[0], level[1], everyone)] for level in ordered if len(serving[level]) == len(setups)]
    return min([plan] + singles, key=cost)


def _batch_pass(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, n: int,
                searches: Sequence[tuple[fmpq, _Setup, dict[int, tuple[fmpq, fmpq]]]], cut: float,
                tilt: fmpq | None) -> None:
    """One pass of :func:`enclose_batch` at the shallow level (cut, tilt): every interior composition bounded at each
    γ of ``searches`` ((γ, setup, out) each) — by the windows of :func:`batch_window` first (:func:`_window_pass`)
    where n is at least four windows and the pair's two losses differ —, then per γ the compositions left open bounded at the full cut
    (cut + :data:`LEAF_SHALLOW`) and refined as the leaves of :func:`_branch_and_bound` (intersected with the pass's
    bounds: both are valid)."""
    gs = [g for g, _, _ in searches]
    window = batch_window(LA, LB, n, min(_flat_ratio(LA, LB, n, g) for g in gs)) if gs else None
    if window is not None:
        _window_pass(enc, LA, LB, n, searches, cut, tilt, *window)
    else:
        for k in range(1, n):
            for (_, _, out), bounds in zip(searches, enc.bounds_many([(LA, k), (LB, n - k)], gs, cut_nats=cut,
                                                                     tilt=tilt)):
                out[k] = bounds
    full = cut + LEAF_SHALLOW
    for g, setup, out in searches:
        best = max([setup.best] + [out[k][0] for k in range(1, n)])
        for k in sorted(range(1, n), key=lambda k: out[k][1], reverse=True):
            lo, hi = out[k]
            if hi < best:
                continue
            items = [(LA, k), (LB, n - k)]
            lo2, hi2 = enc.bounds(items, g, cut_nats=full, tilt=tilt)
            lo, hi = max(lo, lo2), min(hi, hi2)
            if hi >= best:  # a candidate so far: deepen the cut while the dropped mass makes it wide (as a leaf's)
                lo2, hi2 = enc.bounds(items, g, rel_width=REFINE,
                                      cut_nats=min(max(setup.refine_depth + CUT_STEP, CUT_NATS), MAX_CUT_NATS))
                lo, hi = max(lo, lo2), min(hi, hi2)
            out[k] = (lo, hi)
            best = max(best, lo)


#: the windows of a single search's boxes, and of :func:`_batch_pass` at 32 < n ≤ 68 (:func:`batch_window`): (j, grid
#: points) of D′_j (:func:`~exactdp.measures.blackwell_join.window_majorant`), or None for a bound of every composition.
#: A window of j + 1 = 9 compositions costs its product side (14 times the smaller block's atoms) and one sweep per γ;
#: on seed 3 of ``bench_tensor.py --random-pairs`` and the two perturbed near-symmetric pairs at n = 10³ (the batch's
#: own level, its ten γ) 73 % and 94–98 % of (window, γ) close (docs/tensorization.md: j = 4, 8, 16 and 6–28 points
#: compared).  Efficiency only: every bound is certified either way
WINDOW: tuple[int, int] | None = (8, 14)
#: the windows of a batch's pass at n > 4·17 (:func:`batch_window`): (j, grid points) of D′_j as WINDOW, j + 1 = 18
#: compositions, so that a window left open is bounded by its two halves, windows of nine compositions on WINDOW's grid
#: (:data:`HALVES`), before its compositions one by one, and a search after the pass splits its boxes on the same grid
#: (its boxes of 9 to 18 compositions get their window bound).  With :data:`FLATTEST` the grid points of the flattest
#: pairs.  Efficiency only
BATCH_WINDOW: tuple[int, int] | None = (17, 20)
#: (ratio, points): a batch whose flattest γ has a flatness ratio (:func:`_flat_ratio`) below ``ratio`` takes D′_j on
#: ``points`` grid points (E_γ flatter in k: a window closes only where its bound overshoots less)
FLATTEST = (0.003, 32)


def batch_window(LA: PairLoss, LB: PairLoss, n: int, ratio: float) -> tuple[int, int] | None:
    """(j, points) of the windows of a batch's pass over the compositions of LA and LB at n whose flattest γ has the
    flatness ``ratio`` (:func:`_flat_ratio`; floats only choose the work), and of the boxes of a search after that
    pass: :data:`BATCH_WINDOW` where n is more than four of its windows, on :data:`FLATTEST`'s points for the flattest
    pairs; else :data:`WINDOW` where n is more than four of those; None for a pair whose two losses are one (every
    composition the same), or no windows.  The two sizes and the points were chosen by measurement, CPU time of the
    ten γ and ε(10⁻⁶) of ``bench_tensor.py`` at n = 10³ (docs/tensorization.md): seed 3 of ``--random-pairs`` (ratio
    0.0008–0.0015) is fastest at 32 points of D′_17 (24 to 64 compared), the two perturbed near-symmetric pairs
    (0.006–0.042) at 16–20; windows of 27 or 36 compositions were slower (a half of 13–18 compositions left open is
    bounded one by one)."""
    if LA == LB:
        return None
    if BATCH_WINDOW is not None and n > 4 * BATCH_WINDOW[0]:
        j, points = BATCH_WINDOW
        return (j, max(points, FLATTEST[1])) if ratio < FLATTEST[0] else (j, points)
    if WINDOW is not None and n > 4 * WINDOW[0]:
        return WINDOW
    return None
#: a window left open at some γ is bounded by its two halves' windows (D′_8 twice for a batch's j = 17; D′_3 and D′_4 for
#: j = 8) at those γ before its
#: compositions one by one: each half's two blocks are blocks of its end compositions (A^{⊗k0} ⊗ B^{⊗(n−k0−3)}: the
#: window's A-block and the B-block of composition k0 + 3), which a composition left open needs anyway.  On seed 3 of
#: ``bench_tensor.py --random-pairs`` (n = 10³, its ten γ) the halves close 397 of the 602 (half, γ) its windows left
#: open: 580 blocks built instead of 946.  Efficiency only (halves of halves: fewer blocks, no less time)
HALVES = True


def _window_pass(enc: LatticeEnclosure, LA: PairLoss, LB: PairLoss, n: int,
                 searches: Sequence[tuple[fmpq, _Setup, dict[int, tuple[fmpq, fmpq]]]], cut: float,
                 tilt: fmpq | None, j: int, points: int) -> None:
    r"""The pass of :func:`_batch_pass` by windows of j + 1 compositions: every window k0 … k0 + j (and each composition
    after the last) is bounded at every γ by E_γ(A^{⊗k0} ⊗ B^{⊗(n−k0−j)} ⊗ D′_j) (:func:`window_bounds`; each
    A^{⊗(k0+i)} ⊗ B^{⊗(n−k0−i)}, i ≤ j, is a garbling of it); then, windows of larger bound (relative to each γ's best
    lower bound) first, a window whose bound is below a γ's best lower bound so far gives each of its compositions the
    bounds (0, window bound) at that γ, and its compositions are bounded one by one at the γ it leaves open (the same
    sweeps as the plain pass: the same numbers).  A composition a window closes has E_γ below a certified lower bound
    of the maximum, so its lower bound never was the best and the leaves after the pass are the same.
    A window left open at some γ is first bounded at those γ by its two halves' windows (:data:`HALVES`; the same
    garbling bound with D′ of the half), each half closed where its bound is below the best, its compositions bounded
    one by one at the γ it leaves open."""
    gs = [g for g, _, _ in searches]
    outs = [out for _, _, out in searches]
    best = [setup.best for _, setup, _ in searches]
    D = window_majorant(LA, LB, j, points)
    starts = list(range(1, n - j, j + 1))
    last = starts[-1] + j if starts else 0

    def singles(ks: Iterable[int], ys: list[int]) -> None:
        for k in ks:
            for y, (lo, hi) in zip(ys, enc.bounds_many([(LA, k), (LB, n - k)], [gs[y] for y in ys], cut_nats=cut,
                                                       tilt=tilt)):
                outs[y][k] = (lo, hi)
                best[y] = max(best[y], lo)

    def close(ks: range, ys: Sequence[int], his: Sequence[fmpq]) -> list[int]:
        """Give the compositions ``ks`` the bounds (0, hi) at each γ of ``ys`` whose bound hi (of ``his``) is below
        its best lower bound; the γ left open."""
        left = []
        for y, hi in zip(ys, his):
            if hi < best[y]:
                for k in ks:
                    outs[y][k] = (ZERO, hi)
            else:
                left.append(y)
        return left

    everyone = list(range(len(gs)))
    singles(range(last + 1, n), everyone)
    bounds = {k0: window_bounds(enc, LA, LB, k0, n - k0 - j, D, gs, cut_nats=cut, tilt=tilt) for k0 in starts}
    # the order only chooses work (floats): the windows that reach furthest above a best lower bound first (a best
    # below the float range, whose float is 0, counts as 1e-300 like a zero one)
    scale = [max(float(b), 1e-300) for b in best]
    for k0 in sorted(starts, key=lambda k0: -max(float(h) / c for h, c in zip(bounds[k0], scale))):
        ys = close(range(k0, k0 + j + 1), everyone, bounds[k0])
        if ys and HALVES and j >= 3:  # its two halves by their own windows at the γ it leaves open
            for a, b in ((k0, k0 + (j + 1) // 2 - 1), (k0 + (j + 1) // 2, k0 + j)):
                his = window_bounds(enc, LA, LB, a, n - b, window_majorant(LA, LB, b - a, points),
                                    [gs[y] for y in ys], cut_nats=cut, tilt=tilt)
                left = close(range(a, b + 1), ys, his)
                if left:
                    singles(range(a, b + 1), left)
        elif ys:
            singles(range(k0, k0 + j + 1), ys)
    enc.store.mark_pass((enc.tag, cut if tilt is None else (cut, tilt)))


#: the routine of :func:`exactdp.measures.composition_filter.routines` for three ratio classes
THREE_RATIO = EnclosureRoutine("three ratio classes (lattice)", _estimate, _enclose_all)
#: the same routine on any two pair classes of at most three ratio classes, also where nothing is fixed and neither has
#: three (the composition filter routes those to the two-ratio routine): the face split's slices
#: (:mod:`exactdp.measures.face_split`), whose face may be such a pair
PAIR_FACE = EnclosureRoutine("two pair classes (lattice)", functools.partial(_estimate, routed=False),
                             functools.partial(_enclose_all, routed=False))
