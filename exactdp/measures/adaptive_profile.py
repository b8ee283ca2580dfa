r"""The adaptive-composition majorant: one upper bound of E_γ for a whole family of product compositions.

The privacy profile of a dichotomy D = (P ‖ Q) is F_D(x) = E_x(P ‖ Q) (x ≥ 0); it is convex, non-increasing,
F_D(0) = 1 and F_D(x) ≥ (1 − x)_+ (:mod:`exactdp.measures.blackwell_join`).  Tensoring with a pair loss L of ratio
classes (r_a, P_a) and P-only mass p_∞ acts on profiles linearly (the atom a of L scales the threshold by 1/r_a):

.. math::  F_{D \otimes L}(x) = p_\infty(L) + \sum_a P_a\, F_D(x / r_a) =: (T_L F_D)(x) .

T_L is monotone (F ≤ G ⇒ T_L F ≤ T_L G).  For a set S of pair classes put M_S F = max_{c ∈ S} T_{L_c} F — the
profile majorant of an *adaptive* composition, whose next class may depend on the privacy loss so far.  Then for
V_0 = (1 − x)_+ (the profile of the trivial dichotomy) and a plan (S_1, w_1), …, (S_k, w_k),

.. math::  E_x\Big(\bigotimes_j \bigotimes_{i \le w_j} L_{c_{j,i}}\Big) \le
           \big(M_{S_k}^{w_k} \cdots M_{S_1}^{w_1} V_0\big)(x) \quad\text{whenever every } c_{j,i} \in S_j ,

by induction (T_c F ≤ T_c V ≤ M_S V for c ∈ S and F ≤ V; the factors of a product commute).  So one recursion
bounds every composition of n with at least w_1 coordinates in S_1, …: with the classes of a pair and its reverse
left free and the other classes forced, it bounds all compositions *off* the pair–reverse face of a 3×3 kernel at
once ([A] Thm 1's δ_n = max over compositions; docs/tensorization.md, "the face split").  On seed 1002 of
``bench_tensor.py --random-3x3-deltas`` at γ = 2^608, n = 1000 it gives 0.4911 over all 1.7·10⁸ compositions against
the maximum 0.48977, where the box bounds of :mod:`exactdp.measures.simplex_filter` stay at 0.55–0.66.

A *switch* between two phases (k steps over S_1, then n − k over S_2, for every k in a range) needs no recursion per k:
:func:`switch_majorant` carries the first phase and the pointwise maximum over the switch points so far side by side,
two recursions for all k.  It bounds a family by a count ("at least T coordinates off a face") without letting the
second phase return to the first's classes.

**Certified evaluation on a grid.**  The functions are kept as values v_i ≥ V(x_i) on x_i = γ·e^{(i − i₀)h}
(h = 2^{−:data:`STEP_BITS`} nats, x_{i₀} = γ) and read through R[v]: the chord interpolation in x between grid
points, 1 left of the grid, the last value right of it.  If V is convex, non-increasing and ≤ 1, then R[v] ≥ V
everywhere (a chord of upper values lies above a chord of V, which lies above the convex V; V ≤ 1; V is
non-increasing).  Every V here is such a profile (a maximum of profiles is one), so each step evaluates
T_c R[v] at the grid points, which bounds T_c V there by monotonicity.  The reading point y = x_i / r_a is moved
*down* to a point y' ≤ y of the form x_j·e^{−fh} with f from an upper bound of log(r_a)/h, its chord weight θ is taken
from below — the chord's point y'' ≤ y' — and the two weights P_a(1 − θ), P_aθ from above (arb balls): the value read
is R[v](y'') ≥ V(y'') ≥ V(y), as R[v] ≥ V everywhere and V is non-increasing (v itself need not be monotone).  The
float64 sums of the non-negative terms are raised by 2^{−46} relative (at most 2·60 + 1 terms, each rounding at most
121 times by 2^{−53}: the weights are rounded up from P·(1 + 2^{−46})) and the values capped at 1 (V ≤ 1).  A product
whose result leaves the normal float range is off by up to 2^{−1075} *absolute* instead (rounded to a subnormal, or
to 0): at most 121·2^{−1075} < 2^{−1068} a grid value a step; the deficits of earlier steps are carried with weights summing to at
most 1 + 2^{−45}, raised by 1 + 2^{−46}, and the value read after S steps is raised by S·2^{−1067}, which covers them
(:func:`underflow_allowance`).  So the value read at i₀ after the last step is a certified upper bound (the initial
(1 − x)_+ is read from a lower bound of each x_i: log γ from an arb ball split into a multiple of h and a remainder,
numpy's exp taken within 2^{−45} relative and lowered by 2^{−40}) — sound whatever the step h; h decides only how
close it is (the chord's excess, about 5·10⁻⁵ at h = 2⁻⁷ on the example above).

Each step is computed only on a window of the grid around where the remaining steps read it (the privacy loss
drifts by the classes' KL divergences, ± ``spread``·σ√(steps left), 8σ by default); outside the window the reading rule above applies
(1 on the left, the window's last value on the right), which is again an upper bound — the window decides only the
tightness.  Left of x = e^{−40} the grid is not kept at all: every profile is within e^{−40} of 1 there.  Where a
profile is constant at the right end of its window (a *tail*) every point that reads only the tail gets the same value,
so a step stops after the first of them; a caller's ``floor`` raises the values at most floor there to one such tail
(tightness only: upper values stay upper, the bound rises by at most about steps × floor).  The running maxima of the
phases are taken only on the slice the next steps read, and the arrays are reused from step to step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import require
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.float_interval import float_bracket, float_to_fmpq
from exactdp.numbers.qq import ZERO
from exactdp.numbers.rb import ball_endpoints

#: the grid step is 2^-STEP_BITS nats: at 7 the chord's excess is about 5·10⁻⁵ on E_γ ≈ 1/2 at n = 1000 (module
#: docstring), at 6 twice that; each bit doubles the grid
STEP_BITS = 7
#: the windows keep the privacy loss within this many standard deviations of its drift by default (tightness only:
#: what is cut off is read as 1 or as the window's last value, and weighs about e^{-spread²/2})
SPREAD = 8.0
#: left of x = e^{-_LEFT_NATS} every profile is taken as 1 (its true value is within e^{-40} of it)
_LEFT_NATS = 40.0
#: work units of one grid point of one class in one step: one per ratio class (its two chord taps)
_PER_POINT = 3
#: the float sums of at most 2·MAX_TAPS + 1 non-negative terms, each rounding 2^-53 relative, are raised by this factor
_RAISE = 1.0 + 2.0 ** -46
_RAISE_Q = fmpq(2 ** 46 + 1, 2 ** 46)
#: the most ratio classes (one chord tap each) a loss may have in a grid recursion: the float sums' rounding allowance
MAX_TAPS = 60

Plan = Sequence[tuple[Sequence[int], int]]


class _Profile(NamedTuple):
    """A profile's grid values with the grid's pads (1 on the left, the last value on the right) and ``tail``, the
    grid index from which every value is the same."""
    values: npt.NDArray[np.float64]
    tail: int


def _float_up(q: fmpq) -> float:
    """The least float ≥ q."""
    return float_bracket(q)[1]


def _float_down(q: fmpq) -> float:
    """The largest float ≤ q."""
    return float_bracket(q)[0]


def _ends(b: arb) -> tuple[fmpq, fmpq]:
    """Exact rational endpoints of a finite ball (outward)."""
    ends = ball_endpoints(b)
    if ends is None:
        raise ParameterError("adaptive majorant: a ball of the grid's constants is not finite")
    return ends


def _log_arb(q: fmpq) -> arb:
    return arb(q.p).log() - arb(q.q).log()


class _Stencil:
    """One class's taps on the grid of step h: for each finite ratio class a, the shift m_a (the reading point of
    x_i lies in [x_{i−m_a−1}, x_{i−m_a}]) and the upper weights of its two chord ends, raised by 1 + 2^-46 (the float
    sums' rounding, module docstring: one raise of every term instead of a pass over the sums); ``kl`` and ``sd``: the
    float mean and standard deviation of log r under P (the drift of the reading point, for the windows only)."""

    def __init__(self, loss: PairLoss, h_bits: int) -> None:
        self.taps: list[tuple[int, float, float]] = []
        self.p_only = _float_up(loss.p_only * _RAISE_Q) if loss.p_only else 0.0
        h = fmpq(1, 1 << h_bits)
        with ctx.workprec(128):
            e_h = arb(h).exp()
            for r, P in loss.classes:
                if P == 0:
                    continue
                t_hi = _float_up(_ends(_log_arb(r) / arb(h))[1])  # an upper bound of log(r)/h
                m = math.floor(t_hi)
                f = float_to_fmpq(t_hi) - m  # exact, in [0, 1)
                if f == 0:  # the reading point is the grid point x_{i−m} itself (r = 1): one tap, θ = 1
                    self.taps.append((m, 0.0, _float_up(P * _RAISE_Q)))
                    continue
                theta_ball = ((arb(1 - f) * arb(h)).exp() - 1) / (e_h - 1)
                theta = max(0.0, _float_down(_ends(theta_ball)[0]))
                wl = _float_up(_ends(arb(P) * (1 - arb(float_to_fmpq(theta))))[1] * _RAISE_Q)
                wr = _float_up(_ends(arb(P) * arb(float_to_fmpq(theta)))[1] * _RAISE_Q)
                self.taps.append((m, wl, wr))
        logs = [(float(P), math.log(float(r))) for r, P in loss.classes if P != 0]
        mass = sum(P for P, _ in logs) or 1.0
        self.kl = sum(P * l for P, l in logs) / mass
        self.sd = math.sqrt(max(0.0, sum(P * l * l for P, l in logs) / mass - self.kl ** 2))
        self.reach = max((abs(m) + 2 for m, _, _ in self.taps), default=2)
        #: the non-zero terms (shift of the value read, weight): x_{i−m−1} with the left weight, x_{i−m} the right
        self.terms = [(d, w) for m, wl, wr in self.taps for d, w in ((-m - 1, wl), (-m, wr)) if w]
        if len(self.taps) > MAX_TAPS:
            raise ParameterError(f"losses: a pair loss of at most {MAX_TAPS} ratio classes (the float sums' rounding "
                                 f"allowance), got {len(self.taps)}")


def _check(losses: Sequence[PairLoss], plan: Plan, gamma: fmpq) -> None:
    if not isinstance(gamma, fmpq) or gamma <= 0:
        raise ParameterError(f"gamma: must be a positive exact rational, got {gamma!r}")
    for classes, count in plan:
        if not isinstance(count, int) or count < 0:
            raise ParameterError(f"plan: each step count must be a non-negative int, got {count!r}")
        if not classes or any(not 0 <= c < len(losses) for c in classes):
            raise ParameterError(f"plan: each step names one or more of the {len(losses)} classes, got {classes!r}")


class _Grid:
    """The log grid of one bound (module docstring): its extent for ``longest`` steps, the stencils of the classes
    ``used``, the initial profile and one certified step M_S."""

    def __init__(self, losses: Sequence[PairLoss], used: Sequence[int], gamma: fmpq, step_bits: int,
                 spread: float, longest: int) -> None:
        self.stencils = {c: _Stencil(losses[c], step_bits) for c in used}
        self.step_bits = step_bits
        self.h = h = 2.0 ** -step_bits
        self.spread = spread
        with ctx.workprec(128):
            self.lg_lo = _ends(_log_arb(gamma))[0]
        u_gamma = _float_down(self.lg_lo)  # the grid's log γ, from below (for its extent and windows only)
        kls = [s.kl for s in self.stencils.values()] or [0.0]
        self.sd = max([s.sd for s in self.stencils.values()] or [0.0])
        self.reach = max([s.reach for s in self.stencils.values()] or [2])
        # the reading points drift by −kl per step: left for kl > 0; a loss with P-only mass may drift right (the kl of
        # its finite part can be negative)
        spread_nats = spread * self.sd * math.sqrt(longest) + 2 * self.reach * h + 1.0
        right = spread_nats + max(0.0, -min(kls)) * longest
        left = spread_nats + max(0.0, *kls) * longest
        i_min = max(-math.ceil(left / h), -math.ceil((u_gamma + _LEFT_NATS) / h) if u_gamma > -_LEFT_NATS else 0)
        self.offset = -i_min  # array index of x_{i0} = γ
        self.size = self.offset + math.ceil(right / h) + 1
        self.pad = self.reach + 1
        self.kl_lo, self.kl_hi = min(kls), max(kls)
        self.length = self.size + 2 * self.pad  # an array: the grid with its pads
        self.acc = np.empty(self.size)
        self.tmp = np.empty(self.size)
        self.windows = [self._window(k) for k in range(longest + 1)]  # a recursion asks for each several times

    def window(self, left_steps: int) -> tuple[int, int]:
        """The grid indices [a, b) computed in a step followed by ``left_steps`` more (tightness only)."""
        return self.windows[left_steps] if left_steps < len(self.windows) else self._window(left_steps)

    def _window(self, left_steps: int) -> tuple[int, int]:
        h = self.h
        width = self.spread * self.sd * math.sqrt(left_steps) + 2 * self.reach * h
        a = min(self.size - 1, max(0, self.offset + math.floor((-self.kl_hi * left_steps - width) / h)))
        return a, max(a + 1, min(self.size, self.offset + math.ceil((-self.kl_lo * left_steps + width) / h) + 1))

    def cost(self, S: Sequence[int], left_steps: int) -> int:
        """Work units of one step over the classes S followed by ``left_steps`` more."""
        a, b = self.window(left_steps)
        return _PER_POINT * len(S) * (b - a) + self.size

    def initial(self) -> _Profile:
        """(1 − x)_+ from above on the grid: x_i ≥ e^{u_gamma + (i − i0)h}·(1 − 2^-40) (float exp within 2^-40).
        log x_i ≥ (i − i0 + q)h + frac with q = ⌊lg_lo/h⌋ and frac = lg_lo − qh ∈ [0, h): the integer part is exact,
        so where x_i < 1 (|log x_i| ≤ 40 + h) the float sum is within 2^-47 of it; numpy's exp within 2^-45 relative.
        With the pads and the start of its constant tail (0 right of x = 1), as every profile of the recursion."""
        q = int((self.lg_lo / fmpq(1, 1 << self.step_bits)).floor())
        frac = _float_down(self.lg_lo - q * fmpq(1, 1 << self.step_bits))
        u = (np.arange(self.size) - self.offset + q) * self.h + frac
        v = np.where(u < 0, np.minimum(1.0, (1.0 - np.exp(np.minimum(u, 0.0)) * (1 - 2.0 ** -40)) * _RAISE), 0.0)
        pad = self.pad
        out = np.empty(self.length)
        out[:pad], out[pad:pad + self.size], out[pad + self.size:] = 1.0, v, v[-1]
        changes = np.flatnonzero(out != out[-1])
        return _Profile(out, int(changes[-1]) + 1 - pad if len(changes) else -pad)

    def reads(self, left_steps: int, tail: int) -> tuple[int, int]:
        """The array slice [lo, hi) that a step followed by ``left_steps`` more reads of an input constant from grid
        index ``tail`` on (:meth:`step`): its window, cut after the first point that reads only the constant, widened
        by the reach of the shifts."""
        a, b = self._cut(left_steps, tail)
        return max(0, self.pad + a - self.reach), min(self.length, self.pad + b + self.reach)

    def _cut(self, left_steps: int, tail: int) -> tuple[int, int]:
        a, b = self.window(left_steps)
        return a, max(a + 1, min(b, tail + self.reach))

    def step(self, x: npt.NDArray[np.float64], tail: int, S: Sequence[int], left_steps: int,
             out: npt.NDArray[np.float64], floor: float = 0.0) -> _Profile:
        """Grid values of M_S R[v] (module docstring) into ``out``, computed on the window of a step followed by
        ``left_steps`` more: upper bounds of M_S V wherever v bounds the convex non-increasing V ≤ 1 from above.  The
        input ``x`` holds v (with its pads: 1 left of its window, its last value right of it) on the slice
        :meth:`reads`; the output is written, with the same rule, on the slice the next step reads (and at γ).

        Where v is constant (from ``tail`` on) every point from tail + m + 1 on (m the largest shift) reads only that
        constant, so all of them get the same float value: the window stops after the first of them and the rest is
        filled with its value (the same numbers, less work).  With ``floor`` > 0 the values at the right end that are
        at most ``floor`` are all raised to their maximum, a constant tail the next step need not compute (raised
        values stay upper bounds; each step adds at most ``floor`` to the bound read, weights summing to about 1)."""
        a, b = self._cut(left_steps, tail)
        pad, n_pts = self.pad, b - a
        dst = out[pad + a:pad + b]
        acc, tmp = self.acc[:n_pts], self.tmp[:n_pts]
        for j, c in enumerate(S):
            st = self.stencils[c]
            into = dst if j == 0 else acc
            if not st.terms:
                into[:] = st.p_only
            for t, (d, w) in enumerate(st.terms):
                lo = pad + a + d
                if t == 0:
                    np.multiply(x[lo:lo + n_pts], w, out=into)
                else:
                    np.multiply(x[lo:lo + n_pts], w, out=tmp)
                    np.add(into, tmp, out=into)
            if st.terms and st.p_only:
                np.add(into, st.p_only, out=into)
            if j:
                np.maximum(dst, acc, out=dst)
        np.minimum(dst, 1.0, out=dst)
        new_tail = b - 1
        if floor > 0 and dst[-1] <= floor:
            highest = np.maximum.accumulate(dst[::-1])  # the maxima of the last 1, 2, … values
            k = int(np.searchsorted(highest, floor, side="right"))  # the last k values are all ≤ floor
            if k > 1:
                dst[n_pts - k:] = highest[k - 1]
                new_tail = b - k
        # the pads the next step may read (its window is the next one, or this one's at γ after the last step)
        na, nb = self.window(max(left_steps - 1, 0))
        out[max(0, pad + min(na, a) - self.reach):pad + a] = 1.0
        out[pad + b:min(self.length, pad + max(nb, b) + self.reach)] = dst[-1]
        return _Profile(out, new_tail)

    def fixed(self, v: _Profile, steps: Sequence[Sequence[int]], total: int, floor: float) -> _Profile:
        """``v`` after the fixed ``steps`` (one set of classes each), the first of ``total`` steps in all; two arrays
        taken in turn."""
        spare = np.empty(self.length)
        for k, S in enumerate(steps):
            v, spare = self.step(v.values, v.tail, S, total - k - 1, spare, floor), v.values
        return v

    def value(self, v: _Profile) -> float:
        """The float value at x_{i0} = γ."""
        return float(v.values[self.pad + self.offset])

    def read(self, x: float, steps: int) -> fmpq:
        """The bound at γ from its float value ``x`` after ``steps`` steps: its exact rational plus the underflow
        allowance of that many steps (:func:`underflow_allowance`), capped at 1."""
        return min(float_to_fmpq(x) + underflow_allowance(steps), fmpq(1))


def majorant(losses: Sequence[PairLoss], plan: Plan, gamma: fmpq, *, step_bits: int = STEP_BITS,
             what: str = "adaptive majorant", spend: Callable[[int], None] | None = None,
             spread: float = SPREAD, floor: fmpq = ZERO) -> fmpq:
    r"""A certified upper bound of E_γ(⊗_j ⊗_{i ≤ w_j} L_{c_{j,i}}) over every choice c_{j,i} ∈ S_j, for the plan
    ``[(S_1, w_1), …]`` (innermost first): (M_{S_k}^{w_k} ⋯ M_{S_1}^{w_1} V_0)(γ) on the grid of step 2^-step_bits
    (module docstring), as an exact rational ≤ 1.  Its work (grid points × classes × steps) is checked against
    ``max_work`` before anything is computed, then handed to ``spend`` (a caller's budget over many bounds).  Grid
    values at most ``floor`` may be raised to it at the grid's right end (tightness only: the bound rises by at most
    about steps × floor; :meth:`_Grid.step`)."""
    _check(losses, plan, gamma)
    steps = [tuple(S) for S, w in plan for _ in range(w)]
    grid = _Grid(losses, sorted({c for S in steps for c in S}), gamma, step_bits, spread, len(steps))
    work = sum(grid.cost(S, len(steps) - k - 1) for k, S in enumerate(steps)) + grid.size
    require("max_work", work, f"{what}: {grid.size} grid points, {len(steps)} steps")
    if spend is not None:
        spend(work)
    v = grid.fixed(grid.initial(), steps, len(steps), _floor(floor))
    return grid.read(grid.value(v), len(steps))


def switch_majorant(losses: Sequence[PairLoss], first: Sequence[int], second: Sequence[int], n: int, gamma: fmpq, *,
                    least_first: int = 0, least_second: int = 0, step_bits: int = STEP_BITS,
                    what: str = "switch majorant", spend: Callable[[int], None] | None = None,
                    spread: float = SPREAD, floor: fmpq = ZERO) -> fmpq:
    r"""A certified upper bound of E_γ over every composition of n coordinates each in ``first`` or ``second``, at
    least ``least_first`` of them in ``first`` and at least ``least_second`` in ``second``.  Every such product is,
    reordered, k coordinates in ``first`` then n − k in ``second`` with least_first ≤ k ≤ n − least_second, so it is
    bounded by the maximum over those k of M_second^{n−k} M_first^k V_0 (module docstring): :func:`phase_majorant`
    with the two phases ``first`` and ``second``, two recursions for all switch points at once."""
    if not isinstance(n, int) or least_first + least_second > n:
        raise ParameterError(f"n: at least least_first + least_second = {least_first + least_second} coordinates, "
                             f"got {n!r}")
    return phase_majorant(losses, [first, second], n, gamma, least_first=least_first, most_first=n - least_second,
                          step_bits=step_bits, what=what, spend=spend, spread=spread, floor=floor)


def phase_majorant(losses: Sequence[PairLoss], phases: Sequence[Sequence[int]], n: int, gamma: fmpq, *,
                   least_first: int = 0, most_first: int | None = None, prefix: int = 1, start: Plan = (),
                   step_bits: int = STEP_BITS, what: str = "phase majorant",
                   spend: Callable[[int], None] | None = None, spread: float = SPREAD, floor: fmpq = ZERO) -> fmpq:
    r"""A certified upper bound of E_γ over every composition of n coordinates over the classes of ``phases``
    (S_1, …, S_m; a class in two phases counts in the first), with least_first ≤ k_1 + … + k_p ≤ most_first
    coordinates in the first p = ``prefix`` phases (default: p = 1, any count), times the fixed coordinates of
    ``start`` (a plan of :func:`majorant`, applied first).  Every such product is, reordered, the start, then k_1
    coordinates in S_1, k_2 in S_2, …, k_m in S_m; the phases' switch points are all bounded at once by one recursion
    per phase (module docstring), with G^{(s)} = max_{i ≤ p} V_i^{(s)} the first p phases' profile:

    .. math::  V_j^{(s)} = M_{S_j} \max\big(V_1^{(s-1)}, …, V_j^{(s-1)}\big) \ (j ≤ p,\ s ≤ most_first),\qquad
               V_j^{(s)} = M_{S_j} \max\big(G^{(s-1)} \text{ if } least_first ≤ s − 1 ≤ most_first,\
               V_{p+1}^{(s-1)}, …, V_j^{(s-1)}\big) \quad (j > p),

    V_1^{(0)} the start's profile, each V_j left out of a maximum until it is first defined.  By induction (M
    monotone, the maximum pointwise) V_j^{(s)} ≥ M_{S_j}^{k_j} ⋯ M_{S_1}^{k_1} V_1^{(0)} for every k_1 + … + k_j = s
    with k_j ≥ 1 (k_1 ≥ 0) and the first p counts in range: the bound is also the profile of a composition whose
    switch times depend on the privacy loss so far, but whose classes come in the order of the phases.  With one
    class per phase that is far tighter than one phase of all the classes (whose next class may be chosen at every
    step): on the 3×3 kernel (1/2, 3/10, 1/5) / (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21) at n = 1000, γ = 2^20, all
    compositions but the best corner are bounded by 0.96950352 at 2^-11 nats, below the corner's 0.96950367, where
    the fully adaptive majorant is 0.96973 at 2^-8 (the corner's own chord excess at 2^-8 is 1.1·10⁻⁵).  The bound
    at γ is read from max_j V_j^{(n)} over j > p, and G^{(n)} where least_first ≤ n ≤ most_first.  Its work (grid
    points × classes × steps) is checked against ``max_work`` before anything is computed, then handed to
    ``spend``; ``floor`` as in :func:`majorant`."""
    top = n if most_first is None else most_first
    if not phases or any(not S for S in phases):
        raise ParameterError(f"phases: one or more non-empty sets of classes, got {phases!r}")
    _check(losses, [(S, 0) for S in phases] + list(start), gamma)
    if not isinstance(prefix, int) or not 1 <= prefix <= len(phases):
        raise ParameterError(f"prefix: 1 <= prefix <= {len(phases)} phases, got {prefix!r}")
    if not isinstance(n, int) or not isinstance(least_first, int) or not isinstance(top, int) \
            or not 0 <= least_first <= top <= n:
        raise ParameterError(f"least_first, most_first: 0 <= least_first <= most_first <= n = {n!r}, got "
                             f"{least_first!r} and {top!r}")
    if prefix == len(phases) and top < n:
        raise ParameterError(f"most_first: the first {prefix} phases are all the phases and hold all n = {n} "
                             f"coordinates, got most_first = {top}")
    fixed = [tuple(S) for S, w in start for _ in range(w)]
    total = n + len(fixed)
    grid = _Grid(losses, sorted({c for S in [*phases, *fixed] for c in S}), gamma, step_bits, spread, total)
    work = (sum(grid.cost(S, total - k - 1) for k, S in enumerate(fixed))
            + _phase_work(grid, phases, n, least_first, top, prefix))
    require("max_work", work, f"{what}: {grid.size} grid points, {total} steps, {len(phases)} phases")
    if spend is not None:
        spend(work)
    low = _floor(floor)
    v0 = grid.fixed(grid.initial(), fixed, total, low)
    spare: list[npt.NDArray[np.float64]] = []  # arrays no profile uses any more (their values are overwritten)

    def free() -> npt.NDArray[np.float64]:
        return spare.pop() if spare else np.empty(grid.length)

    V: list[_Profile | None] = [v0] + [None] * (len(phases) - 1)
    run = np.empty(grid.length)  # max(V_i, …) on the slice the steps of this round read, built up phase by phase
    for s in range(1, n + 1):
        lo, hi = grid.reads(n - s, max(v.tail for v in V if v is not None))
        new: list[_Profile | None] = [None] * len(phases)
        tail: int | None = None
        for j in range(len(phases)):
            vj = V[j]
            if j == prefix and not least_first <= s - 1 <= top:  # the first p phases' profile G ends here or not
                tail = None
            if vj is not None:
                if tail is None:
                    run[lo:hi] = vj.values[lo:hi]
                else:
                    np.maximum(run[lo:hi], vj.values[lo:hi], out=run[lo:hi])
                tail = vj.tail if tail is None else max(tail, vj.tail)
            if tail is not None and (j >= prefix or s <= top):
                new[j] = grid.step(run, tail, phases[j], n - s, free(), low)
        spare.extend(v.values for v in V if v is not None)
        V = new
    group = [grid.value(v) for v in V[:prefix] if v is not None] if least_first <= n <= top else []
    out = [*group, *(grid.value(v) for v in V[prefix:] if v is not None)]
    assert out  # a switch at least_first ≤ top < n, or the group's count n allowed
    return grid.read(max(out), total)


def _floor(floor: fmpq) -> float:
    """The float at most ``floor`` that the steps raise small values to (0: none are)."""
    if not isinstance(floor, fmpq) or floor < 0:
        raise ParameterError(f"floor: a non-negative exact rational, got {floor!r}")
    return _float_down(floor) if floor > 0 else 0.0


def _phase_work(grid: _Grid, phases: Sequence[Sequence[int]], n: int, least_first: int, top: int,
                prefix: int = 1) -> int:
    """Work units of :func:`phase_majorant`'s recursions on ``grid`` (a later phase starts after the first switch)."""
    return (sum(grid.cost(S, n - s) for S in phases[:prefix] for s in range(1, top + 1))
            + sum(grid.cost(S, n - s) for S in phases[prefix:] for s in range(least_first + 1, n + 1)) + grid.size)


def switch_cost(losses: Sequence[PairLoss], first: Sequence[int], second: Sequence[int], n: int, gamma: fmpq, *,
                step_bits: int = STEP_BITS, spread: float = SPREAD) -> int:
    """The work :func:`switch_majorant` charges for all its switch points (least_first = least_second = 0): an
    estimate of one call, without running it."""
    return phase_cost(losses, [first, second], n, gamma, step_bits=step_bits, spread=spread)


def phase_cost(losses: Sequence[PairLoss], phases: Sequence[Sequence[int]], n: int, gamma: fmpq, *,
               step_bits: int = STEP_BITS, spread: float = SPREAD) -> int:
    """The work :func:`phase_majorant` charges with the first phase's count free: an estimate of one call, without
    running it."""
    _check(losses, [(S, 0) for S in phases], gamma)
    grid = _Grid(losses, sorted({c for S in phases for c in S}), gamma, step_bits, spread, n)
    return _phase_work(grid, phases, n, 0, n)


def underflow_allowance(steps: int) -> fmpq:
    r"""S·2^{−1067} for S = ``steps``: what underflow may have taken from a grid value after S steps (module
    docstring).  A step's float value of a point is a sum of at most 2·60 + 1 non-negative terms, each a product
    (``p_only`` exact); a product is fl(xy) = xy(1 + d) + e with |d| ≤ 2^{−53}, |e| ≤ 2^{−1075} (e ≠ 0 only where
    the result is subnormal or 0), additions and the cap are exact where they underflow, and the raise by 1 + 2^{−46}
    is in the weights: the relative errors are covered by the raise, the absolute ones sum to at most
    121·2^{−1075} < 2^{−1068}.  A deficit e_{s−1} of the values read is carried by weights summing to at most
    1 + 2^{−45} (each of the 121 rounded up by at most 2^{−52} of a mass ≤ 1) times the raise 1 + 2^{−46}, so
    e_S ≤ (1 + 2^{−44}) e_{S−1} + 2^{−1068} ≤ S·2^{−1068}·(1 + 2^{−44})^S ≤ S·2^{−1067} for S ≤ 2^{43} (far above
    ``max_work``).  Without it a bound below the float range read 0: a pair of masses
    (2^{−600}, 1 − 2^{−600}) / (2^{−1200}, 1 − 2^{−1200}) at n = 2, γ = 2^{700} has E_γ ≈ 2^{−1201}."""
    return fmpq(steps, 1) / fmpq(2) ** 1067
