r"""A certified filter for the composition search of the n-fold products (docs/claims.md B-10, D-7).

η_{E_γ}(K^{⊗n}) is the maximum over the compositions c (how many coordinates carry each pair class) of
E_γ(c) (:mod:`exactdp.measures.tensor`).  Evaluating every E_γ(c) exactly costs one big-integer sum per
composition.  This module encloses E_γ(c) for **all** compositions at once with float64 arithmetic whose
rounding is bounded rigorously, turns every bound into an exact rational, keeps the compositions whose
upper bound reaches the greatest lower bound (the *candidates*), and leaves their exact evaluation to the
search: the maximum over the candidates is the maximum over all compositions, because every discarded c
has E_γ(c) ≤ hi(c) < max lo ≤ the exact maximum.  The result is exactly the exact search's (value and, in
enumeration order, the first maximizing composition).

**Two ratio classes (D = 1).**  Two pair classes A (count k) and B (count m = n − k), each with at most two
finite ratio classes ``top`` > ``bottom`` and equal ratio quotient ρ = r_top/r_bottom when both have two
(every row pair of a kernel with two outputs and its reverse: [A] §III, A-8).  A finite outcome with a
coordinates of A and b of B in their top classes has likelihood ratio R(d) = r_{A,bot}^k r_{B,bot}^m ρ^d,
d = a + b, increasing in d, and P-weight X_k(a)Z_m(b) with X_k(a) = C(k, a) P_{A,top}^a P_{A,bot}^{k−a}
(Z_m alike with the P masses of B); its Q-weight is the P-weight divided by R(d).  With
t = max{d : R(d) ≤ γ} (decided by arb logarithms, exactly by fmpq powers when a ball cannot decide),

    1 − E_γ = Σ_y min(P(y), γQ(y)) = PHead + γQTail,      E_γ = P_∞ + PTail − γQTail,

PHead = Σ_a X(a)·Σ_{b ≤ t−a} Z(b), PTail = Σ_a X(a)·Σ_{b > t−a} Z(b), and, since γ/R(d) = c·q^{d−t−1} with
c = γ/R(t + 1) ≤ 1 and q = 1/ρ, γQTail = c·Σ_a X(a)·DZ(t + 1 − a) with the *discounted tails*
DZ(j) = Σ_{b ≥ j} Z(b) q^{b−j} (:class:`_Discount`) — so γQ is computed from the P-weights where they
matter, never from Q-weights that would lie 2^{−log2 γ} below their own bulk (γ = 2^{2100} at n = 10⁴);
c is enclosed by an arb ball.  P_∞ = 1 − (1 − p_{A,∞})^k (1 − p_{B,∞})^m exactly (outcomes with a P-only
coordinate; outcomes with a coordinate of p = 0 contribute to neither).  Both enclosures are intersected:
the first is tight when E_γ is near 1 (η_TV at large n, E ≈ 1 − 10⁻¹⁵⁰: the complement is a sum of
non-negative terms, relatively accurate), the second when E_γ is small.  The vectors X_k are built by the
recursion X_k(a) = P_bot·X_{k−1}(a) + P_top·X_{k−1}(a − 1) forward in k, the B family (index m = n − k,
backward) by a checkpointed sweep: every ⌈√n⌉-th vector is stored and each block regenerated from its
checkpoint, so memory is O(n√n) floats (all vectors, kept for the next γ, up to n = :data:`KEEP_N`) and
the work O(n²) vectorised float operations — about 3 recursion steps and 10 vector operations of length
≤ n per composition.  Precision limits: values below about 2⁻⁹⁰⁰ of the float scale of their vectors
are lost in the absolute error (e.g. 1 − η_TV below ~10⁻²⁷⁰ relative); the bounds then get wide and
the search falls back to the exact route (never a wrong answer; δ_n((3/2)^n) of the asymmetric 2×2 at
n = 10⁴, about 10⁻⁵²⁵, is such a case: every lower bound is 0).  Exact rationals of size growing with n are
kept out of the per-composition loop: the powers of ρ come from arb balls (:class:`_RoundedPowers`), P_∞
from a 128-bit ball except at the point enclosures that can be the maximum (charged in the estimate).

**Rounding argument** (IEEE 754 binary64, round to nearest; cf. :mod:`exactdp.numbers.float_interval`).
All quantities are non-negative, so every float result is the exact one times a product of factors
(1 + δ), |δ| ≤ u = 2⁻⁵³, plus an absolute underflow error: a float mass or power m̂ = m(1 + δ) (correctly
rounded from the exact rational, normal range required); one recursion step rounds a mass, a product and a
sum (3 factors) and each product may underflow by ≤ 2⁻¹⁰⁷⁵; a sum of j terms in any order (``np.cumsum``,
``np.dot``, with or without FMA) gives each term at most j factors (Higham, *Accuracy and Stability*, §4.2
and §3.1; additions with a subnormal result are exact).  Hence X̂_k = X_k·Θ + e with
Θ ∈ [(1 − u)^{3k}, (1 + u)^{3k}] and |e| ≤ A_k, A_k = (m̂_top + m̂_bot)(1 + u)²·A_{k−1} + 2⁻¹⁰⁷⁴(1 + u),
tracked with upward-rounded floats (scaled with the vector, which is kept at max ∈ [2⁻³², 1] by exact
power-of-two rescaling and carries its exponent).  A computed sum Ŝ of the form Σ_a X̂(a)·(Σ_b Ẑ(b))
therefore satisfies (1 − u)^N S − A ≤ Ŝ ≤ (1 + u)^N S + A with N = 3k + 3m + n + 2 = 4n + 2 and
A = 4(n + 2)²(A_X + A_Z + 2⁻¹⁰⁷⁰) (stored entries ≤ 1.01, inner sums ≤ 1.02(m + 1)).  The discounted sum
has N ≤ 8n + 40 (its blocks add ≤ B + r + 10 factors) and, as a block multiplies an underflowed term by
at most ρ^{B−1} ≤ 2²⁰⁰ and the carries and the terms j < −L leave out less than 2⁻⁹⁰⁰ of the total,
A = 4(n + 2)²(A_X + A_DZ + 2⁻⁸⁹⁵) with A_DZ = (n + 2)(1.1·A_Z + 2⁻⁸⁷⁰).  Then S ∈ [(Ŝ − A)(1 − 2Nu), (Ŝ + A)(1 + 2Nu)]
(Nu ≤ 1/100), computed in ``fmpq`` from the exact values of the floats: dyadic rationals of modest size.
Every decision (threshold, candidate selection) is an exact comparison; no float reaches a result.

**Hook for other class structures** (helper T3: three-ratio classes).  A routine is an
:class:`EnclosureRoutine`: ``estimate(losses, groups, totals)`` returns the routine's
work and memory estimate ``(work, bytes)`` (charged to ``max_work`` / ``max_memory`` with
:func:`exactdp.limits.require` before it runs) or None when it does not apply, and
``enclose(losses, groups, totals, gamma)`` returns ``[(counts, lo, hi), ...]`` for every composition,
**in the order of** :func:`exactdp.measures.tensor_search.all_compositions` (counts tuples indexed
like ``losses``; lo ≤ E_γ(counts) ≤ hi exact ``fmpq``).  ``losses`` is the list of
:class:`~exactdp.measures.privacy_loss.PairLoss` of the search's classes, ``groups`` the class indices of
each factor and ``totals`` the factor multiplicities (as in ``TensorSearch.classified``).  Add a routine
to :func:`routines` (a lazy import there: the routine's module may import this one); the first that
applies is used (:func:`plan`); :func:`select` does the rest (the guard, the cap, the candidates).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import require
from exactdp.measures.enclosure_routine import CompositionBounds, EnclosureRoutine, Groups, Losses, Totals
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.float_interval import float_to_fmpq, pow2
from exactdp.numbers.qq import ONE, ZERO

#: unit roundoff of binary64
U = 2.0 ** -53
_U_Q = fmpq(1, 2**53)
#: at most this many candidates are evaluated exactly; more (ties, or bounds too wide) fall back to the
#: exact search under its own cost guard
MAX_CANDIDATES = 64
#: work units (max_work) per float element operation of the filter (vectorised numpy, far cheaper than a unit)
#: and per composition (numpy calls and exact bound conversions); calibrated with benchmarks/bench_tensor.py
_PER_ELEMENT = 1
_PER_COMPOSITION = 20_000


@dataclass(frozen=True)
class Selection:
    """The outcome of the filter: the candidate compositions (enumeration order), what was discarded, and the
    candidates whose enclosure is a point (lo = hi: their exact value, no evaluation needed)."""

    candidates: tuple[tuple[int, ...], ...]
    discarded: int
    routine: str
    work: int
    known: dict[tuple[int, ...], fmpq] = dataclasses.field(default_factory=dict)
    #: candidate -> (lo, hi), exact rationals
    bounds: dict[tuple[int, ...], tuple[fmpq, fmpq]] = dataclasses.field(default_factory=dict)


def routines() -> list[EnclosureRoutine]:
    """The registered enclosure routines, tried in order."""
    from exactdp.measures.deep_tail import DEEP_TAIL  # deferred: start-up (arb balls, only for tiny E_γ)
    from exactdp.measures.lattice_interval import THREE_RATIO  # deferred: start-up (the lattice routine is large)
    from exactdp.measures.simplex_filter import SIMPLEX  # deferred: start-up (as the lattice routine)
    from exactdp.measures.corner_filter import FOUR_RATIO  # deferred: start-up (as the lattice routine)

    return [DEEP_TAIL, TWO_RATIO, THREE_RATIO, SIMPLEX, FOUR_RATIO]


@dataclass(frozen=True)
class Plan:
    """The routine that applies to a class structure and its estimate (nothing computed yet)."""

    routine: EnclosureRoutine
    losses: tuple[PairLoss, ...]
    groups: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    work: int
    memory: int


def plan(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq | None = None) -> Plan | None:
    """The first routine that applies (at ``gamma`` for a routine with ``applies_at``; such a routine is skipped
    when ``gamma`` is None), with its (work, memory) estimate; None if none applies."""
    for routine in routines():
        if routine.applies_at is not None and (gamma is None or not routine.applies_at(losses, groups, totals, gamma)):
            continue
        estimate = routine.estimate(losses, groups, totals)
        if estimate is not None:
            return Plan(routine, tuple(losses), tuple(tuple(g) for g in groups), tuple(totals), *estimate)
    return None


def select(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq, what: str, *, cap: int | None = None,
           planned: Plan | None = None) -> Selection | None:
    """Charge the estimate of the first applicable routine (``max_work``, ``max_memory``; ``planned``: a
    :func:`plan` already made), enclose every composition and keep those with hi ≥ max lo (a point enclosure
    lo = hi is the exact value, kept in ``known``).  None when no routine applies or more than ``cap``
    (default :data:`MAX_CANDIDATES`) candidates survive without a point enclosure.  The candidates' enclosures are
    kept in ``bounds`` (an enclosure of the maximum is [max lo, max hi] over them)."""
    planned = planned if planned is not None else plan(losses, groups, totals, gamma)
    if planned is None:
        return None
    cap = MAX_CANDIDATES if cap is None else cap
    name = planned.routine.name
    require("max_work", planned.work, f"{what}: certified filter ({name}) over the compositions")
    require("max_memory", planned.memory, f"{what}: certified filter ({name}) over the compositions")
    ruled_out = 0
    if planned.routine.candidates is not None:  # too many compositions to list (three or more classes)
        found = planned.routine.candidates(planned.losses, planned.groups, planned.totals, gamma)
        if found is None:
            return None
        bounds, ruled_out = found
    else:
        bounds = planned.routine.enclose(planned.losses, planned.groups, planned.totals, gamma)
    return selection(bounds, ruled_out, name, planned.work, cap)


def selection(bounds: Sequence[CompositionBounds], ruled_out: int, name: str, work: int, cap: int) -> Selection | None:
    """The :class:`Selection` of a routine's rows ``bounds`` (the compositions with hi ≥ max lo; :func:`select`), None
    when more than ``cap`` candidates survive without a point enclosure."""
    best_lo = max(lo for _, lo, _ in bounds)
    keep = [(c, lo, hi) for c, lo, hi in bounds if hi >= best_lo]
    known = {c: lo for c, lo, hi in keep if lo == hi}
    if len(keep) - len(known) > cap:
        return None
    return Selection(tuple(c for c, _, _ in keep), len(bounds) - len(keep) + ruled_out, name, work, known,
                     {c: (lo, hi) for c, lo, hi in keep})


def select_batch(losses: Losses, groups: Groups, totals: Totals, gammas: Sequence[fmpq], what: str, *,
                 cap: int | None = None) -> list[Selection | None] | None:
    """:func:`select` at several γ where the three-ratio (lattice) routine applies to every one of them: the batch is
    charged the estimate of all its γ (``max_work``) before anything is computed, and its compositions are enclosed
    in shared passes (:func:`exactdp.measures.lattice_interval.enclose_batch`).  None where another routine (or none)
    applies to some γ (the caller then selects γ by γ)."""
    from exactdp.measures.lattice_interval import THREE_RATIO, enclose_batch  # deferred: start-up

    plans = [plan(losses, groups, totals, g) for g in gammas]
    if not gammas or any(p is None or p.routine is not THREE_RATIO for p in plans):
        return None
    work = sum(p.work for p in plans if p is not None)
    require("max_work", work, f"{what}: certified filter ({THREE_RATIO.name}) over the compositions at "
                              f"{len(gammas)} gammas")
    require("max_memory", max(p.memory for p in plans if p is not None),
            f"{what}: certified filter ({THREE_RATIO.name}) over the compositions")
    cap = MAX_CANDIDATES if cap is None else cap
    return [selection(rows, 0, THREE_RATIO.name, work, cap) for rows in enclose_batch(losses, groups, totals, gammas)]


# -- two ratio classes --------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Side:
    """One class of the two-ratio structure: float P masses of its top and bottom finite classes, its bottom
    ratio, whether it has a top class, and its finite P mass 1 − p_∞ (exact)."""

    p_top: float
    p_bot: float
    r_bot: fmpq
    has_top: bool
    finite: fmpq


def _to_float(x: fmpq) -> float | None:
    """The nearest float of a mass (None if it is positive but outside the normal range)."""
    if x == 0:
        return 0.0
    f = int(x.p) / int(x.q)  # correctly rounded
    return f if f >= 2.0 ** -1000 else None


def _side(loss: PairLoss) -> tuple[_Side, fmpq | None] | None:
    cls = loss.classes
    if len(cls) > 2:
        return None
    if len(cls) == 2:
        (rt, pt), (rb, pb) = cls
        top, rho = (pt,), rt / rb
    elif len(cls) == 1:
        (rb, pb), top, rho = cls[0], (ZERO,), None
    else:
        rb, pb, top, rho = ONE, ZERO, (ZERO,), None
    p_top, p_bot = _to_float(top[0]), _to_float(pb)
    if p_top is None or p_bot is None:
        return None
    return _Side(p_top, p_bot, rb, len(cls) == 2, ONE - loss.p_only), rho


def _two_ratio_sides(losses: Losses, groups: Groups,
                     totals: Totals) -> tuple[_Side, _Side, fmpq, int, int] | None:
    if len(groups) != 1 or len(groups[0]) != 2 or totals[0] < 1:
        return None
    i, j = groups[0]
    a, b = _side(losses[i]), _side(losses[j])
    if a is None or b is None:
        return None
    if a[1] is not None and b[1] is not None and a[1] != b[1]:
        return None  # two incommensurable quotients: the ratio depends on two integers (D = 2)
    rho = a[1] if a[1] is not None else (b[1] if b[1] is not None else fmpq(2))
    return a[0], b[0], rho, i, j


def _two_ratio_estimate(losses: Losses, groups: Groups, totals: Totals) -> tuple[int, int] | None:
    """(work, memory): about 3(n + 1)² float element operations (6 recursion steps and 6 vector operations
    of average length n/2 per composition) plus a constant per composition, plus one unit a bit of the exact
    P_∞ of the point enclosures (n(n + 1)/2·(bits(f_A) + bits(f_B)) when a finite mass is not 0 or 1); memory the checkpoints and one
    regenerated block of the two B streams, 32·(n + 1)(√n + 2) bytes (n > :data:`KEEP_N`), else every vector
    of the four streams (kept for the next call: 16·(n + 1)(n + 2) bytes)."""
    sides = _two_ratio_sides(losses, groups, totals)
    if sides is None:
        return None
    n = totals[0]
    memory = 8 * (n + 1) * (n + 2) if n <= KEEP_N else 16 * (n + 1) * (math.isqrt(n) + 2)
    # the exact P_∞ = 1 − f_A^k f_B^m of the point enclosures (at most every composition, k·bits(f_A) +
    # m·bits(f_B) bits each; measured ≈ 0.65 units a bit: n = 10⁴, 90-bit f_A), when a mass is not 0 or 1
    exact_bits = sum(max(int(f.p).bit_length(), int(f.q).bit_length()) for f in (sides[0].finite, sides[1].finite)
                     if f not in (0, 1))
    return 3 * (n + 1) ** 2 * _PER_ELEMENT + (n + 1) * _PER_COMPOSITION + exact_bits * n * (n + 1) // 2, memory


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


#: a float vector (``vec``·2^``exp``), its absolute underflow error bound ``err`` and its length − 1, ``k``
StreamState: TypeAlias = tuple[npt.NDArray[np.float64], int, float, int]


class _Stream:
    """X_k(a) = C(k, a) top^a bot^{k−a} (a = 0..k) as floats ``vec``·2^``exp``; ``err`` bounds the absolute
    underflow error in stored units; relative error ≤ 3k roundings (module docstring)."""

    __slots__ = ("top", "bot", "growth", "vec", "exp", "err", "k")

    def __init__(self, top: float, bot: float):
        self.top, self.bot = top, bot
        self.growth = _up(_up(top + bot) * (1.0 + 4 * U))  # ≥ (m̂_top + m̂_bot)(1 + u)²
        self.vec, self.exp, self.err, self.k = np.ones(1), 0, 0.0, 0

    def state(self) -> StreamState:
        return self.vec, self.exp, self.err, self.k

    @classmethod
    def restore(cls, top: float, bot: float, state: StreamState) -> _Stream:
        s = cls(top, bot)
        s.vec, s.exp, s.err, s.k = state
        return s

    def step(self) -> None:
        v = self.vec
        new = np.empty(len(v) + 1)
        np.multiply(v, self.bot, out=new[:-1])
        new[-1] = 0.0
        new[1:] += v * self.top
        err = _up(_up(self.err * self.growth) + 2.0 ** -1073)
        top = float(new.max())
        if 0.0 < top < 2.0 ** -32:
            s = -math.frexp(top)[1]  # top·2^s ∈ [1/2, 1): exact scaling up
            new = np.ldexp(new, s)
            self.exp -= s
            err = math.ldexp(err, s)
        self.vec, self.err, self.k = new, err, self.k + 1


#: up to this n every vector of a stream is kept (≈ 8·n²/2 bytes, 17 MB at 2048) and the last few streams are
#: cached, so the few searches of a profile inversion at nearby γ build them once
KEEP_N = 2048


@functools.lru_cache(maxsize=4)
def _all_states(top: float, bot: float, n: int) -> tuple[StreamState, ...]:
    """The stream's states for k = 0..n (n ≤ :data:`KEEP_N`)."""
    s, out = _Stream(top, bot), list[StreamState]()
    for k in range(n + 1):
        out.append(s.state())
        if k < n:
            s.step()
    return tuple(out)


def _ascending(top: float, bot: float, n: int) -> Iterator[StreamState]:
    """The stream's states for k = 0, 1, …, n."""
    if n <= KEEP_N:
        yield from _all_states(top, bot, n)
        return
    s = _Stream(top, bot)
    for k in range(n + 1):
        yield s.state()
        if k < n:
            s.step()


def _descending(top: float, bot: float, n: int) -> Iterator[StreamState]:
    """The stream's states for k = n, n − 1, …, 0 (checkpoint every ⌈√n⌉ steps, blocks regenerated)."""
    if n <= KEEP_N:
        yield from reversed(_all_states(top, bot, n))
        return
    every = math.isqrt(n) + 1
    s, marks = _Stream(top, bot), dict[int, StreamState]()
    for j in range(n + 1):
        if j % every == 0:
            marks[j] = s.state()
        if j < n:
            s.step()
    for base in sorted(marks, reverse=True):
        s = _Stream.restore(top, bot, marks.pop(base))
        block = [s.state()]
        for _ in range(base + 1, min(base + every, n + 1)):
            s.step()
            block.append(s.state())
        yield from reversed(block)


class _Threshold:
    """t_k = max{d ∈ [0, dmax] : R(d) ≤ γ} (−1 if none), R(d) = r_A^k r_B^m ρ^d: float guess, arb check,
    exact fmpq powers when a ball cannot decide."""

    def __init__(self, A: _Side, B: _Side, rho: fmpq, gamma: fmpq):
        self.A, self.B, self.rho, self.g = A, B, rho, gamma
        # arb(x) rounds x at the working precision: a ratio within 2^-192 of 1 (rows 10^-60 apart) needs the
        # bits of its fraction, or log ρ is a ball around 0 (every decision exact, the float guess 0/0)
        self.prec = 192 + min(max(int(x.p).bit_length() + int(x.q).bit_length() for x in (A.r_bot, B.r_bot, rho)),
                              8192)
        with ctx.workprec(self.prec):
            self.logs = [arb(gamma).log(), arb(A.r_bot).log(), arb(B.r_bot).log(), arb(rho).log()]
        self.f = [float(x.mid()) for x in self.logs]

    def _at_most(self, k: int, m: int, d: int) -> bool:
        """R(d) ≤ γ, decided exactly."""
        lg, la, lb, lr = self.logs
        with ctx.workprec(self.prec):
            h = lg - k * la - m * lb - d * lr
        if h > 0:
            return True
        if h < 0:
            return False
        return self.A.r_bot ** k * self.B.r_bot ** m * self.rho ** d <= self.g

    def discount(self, k: int, m: int, d: int) -> tuple[fmpq, fmpq]:
        """Exact bounds of γ/R(d) = exp(log γ − k log r_A − m log r_B − d log ρ) (an arb ball's ends)."""
        lg, la, lb, lr = self.logs
        with ctx.workprec(self.prec):
            c = (lg - k * la - m * lb - d * lr).exp()
            (m0, e0), (m1, e1) = c.lower().man_exp(), c.upper().man_exp()
        return max(fmpq(m0) * pow2(int(e0)), ZERO), fmpq(m1) * pow2(int(e1))

    def __call__(self, k: int, m: int) -> int:
        dmax = k * self.A.has_top + m * self.B.has_top
        lg, la, lb, lr = self.f
        guess = (lg - k * la - m * lb) / lr if lr > 0 else math.nan  # log ρ below the float range: walk from −1
        t = -1 if not guess >= 0 else min(int(guess) if guess < dmax else dmax, dmax)
        while t >= 0 and not self._at_most(k, m, t):
            t -= 1
        while t < dmax and self._at_most(k, m, t + 1):
            t += 1
        return t


def _bounds(value: float, err: float, e: int, N: int) -> tuple[fmpq, fmpq]:
    """Exact dyadic bounds of S·2^e from the float Ŝ, its absolute error A and its rounding count N (module
    docstring): (Ŝ − A)/(1 + 2Nu) ≥ (Ŝ − A)(1 − 2Nu) and (Ŝ + A)/(1 − Nu) ≤ (Ŝ + A)(1 + 2Nu) for Nu ≤ 1/2."""
    v, a, c = float_to_fmpq(value), float_to_fmpq(err), 2 * N * _U_Q
    s = pow2(e)
    return max(v - a, ZERO) * (1 - c) * s, (v + a) * (1 + c) * s


#: the discounted tails are summed in blocks of B terms with ρ^B ≤ 2^_BLOCK_BITS (the float amplification of an
#: underflow inside a block), powers q^i kept down to 2^-_FLOOR_BITS
_BLOCK_BITS = 200
_FLOOR_BITS = 900


_FLOOR, _BLOCK = 2.0 ** -_FLOOR_BITS, 2.0 ** -_BLOCK_BITS


def _nearest(y: arb) -> float | None:
    """The float nearest to every point of the positive ball ``y`` when its two ends (taken at the working
    precision: call it inside the ball's ``ctx.workprec``) round to the same float
    (rounding to nearest is monotone, so every point between them does too), else None.  An end
    man·2^exp (man below 2^200 at the precisions used here) is rounded once by ``float(int)`` (correctly
    rounded, ties to even) and scaled exactly by ``ldexp`` in the normal range; outside it the value is
    still a monotone function of the point that fixes every power of two, which is all the comparisons with
    2^-900 and 2^-200 use."""
    (m0, e0), (m1, e1) = y.lower().man_exp(), y.upper().man_exp()
    lo, hi = math.ldexp(float(int(m0)), int(e0)), math.ldexp(float(int(m1)), int(e1))
    return lo if lo == hi else None


class _RoundedPowers:
    """fl(x^0), fl(x^1), … (``next``), each the correctly rounded float of the exact power, at O(1) cost each:
    x^i as an arb ball (one multiplication at 128 + log2(count) bits, radius about i·2^-prec relative), rounded
    by :func:`_nearest`; only when the ball straddles a rounding boundary (about 2^-60 of the powers) is the
    exact fmpq power computed (``exact`` counts them).  The exact powers would grow by the size of x at each
    step: quadratic time for ρ near 1 (n = 10⁴: seconds, soundness audit)."""

    def __init__(self, x: fmpq, count: int):
        self.x, self.i, self.exact = x, 0, 0
        self.prec = 128 + max(count, 1).bit_length()
        with ctx.workprec(self.prec):
            self.ball, self.y = arb(x), arb(1)

    def next(self) -> float:
        """fl(x^i) for the next i (i = 0 first)."""
        with ctx.workprec(self.prec):  # the ends of the ball at its own precision (not the default 53 bits)
            f = _nearest(self.y)
        if f is None:
            self.exact += 1
            e = self.x ** self.i
            f = int(e.p) / int(e.q)  # correctly rounded
        with ctx.workprec(self.prec):
            self.y *= self.ball
        self.i += 1
        return f

    def sign_minus(self, f: float, i: int, c: float) -> int:
        """The sign of x^i − c for a power of two c, given f = fl(x^i): fl is monotone and fixes c, so f > c
        implies x^i > c and f < c implies x^i < c; f = c is decided by the exact power."""
        if f != c:
            return 1 if f > c else -1
        self.exact += 1
        d = self.x ** i - float_to_fmpq(c)
        return (d > 0) - (d < 0)


class _Discount:
    r"""Discounted tails DZ(j) = Σ_{b ≥ j} Z(b) q^{b−j}, q = 1/ρ, for all integers j at once (module docstring).

    Powers: fl(q^i) for i ≤ L = the largest i ≤ n + 1 with ρ^i < 2^900, and fl(ρ^i) for i < B, B = min(n + 1,
    1 + the largest i with ρ^i ≤ 2^200), each the correctly rounded value of the exact power (one rounding;
    all in the normal range).  In blocks of B entries, DZ(s + i) = q^{−i}·Σ_{b ≥ s+i} Z(b) q^{b−s} (a
    reversed cumsum) + q^{B−i}·C(s + B), where the block carries C(s) = Σ_{l=0}^{r} q^{lB}·inner(s + lB) take
    every l with lB ≤ L (none when B > L); the terms left out are below q^{L+1} ≤ 2^-900 of the total, and
    none are left out when L = n + 1.  For j < 0, DZ(j) = q^{−j}·DZ(0) (below 2^-900·DZ(0) for −j > L)."""

    def __init__(self, rho: fmpq, n: int):
        q, B = 1 / rho, 1
        down: list[float] = []
        powers = _RoundedPowers(q, n + 2)
        for i in range(n + 2):  # while q^i > 2^-900: a normal float
            f = powers.next()
            if powers.sign_minus(f, i, _FLOOR) <= 0:
                break
            if powers.sign_minus(f, i, _BLOCK) >= 0:
                B = i + 1  # ρ^{B−1} ≤ 2^200
            down.append(f)
        self.L = len(down) - 1
        self.B = max(1, min(B, n + 1))
        self.down: npt.NDArray[np.float64] = np.array(down, dtype=np.float64)
        ups = _RoundedPowers(rho, self.B)
        self.up: npt.NDArray[np.float64] = np.array([ups.next() for _ in range(self.B)], dtype=np.float64)
        self.exact_powers = powers.exact + ups.exact  # powers computed exactly (a ball could not round them)
        self.carry = self.down[self.B:0:-1] if self.B <= self.L else None  # q^{B−i}, i = 0..B−1

    def tails(self, Z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        B, m1 = self.B, len(Z)
        nb = -(-m1 // B)
        Zp = np.zeros(nb * B)
        Zp[:m1] = Z
        inner = np.cumsum((Zp.reshape(nb, B) * self.down[:B])[:, ::-1], axis=1)[:, ::-1] * self.up
        if nb > 1 and self.carry is not None:  # (B > L: the carries are below q^{L+1} ≤ 2^-900 of the total)
            r = min(nb - 1, self.L // B)
            head = np.concatenate((inner[:, 0], np.zeros(r + 1)))
            carry = head[1:nb].copy()  # C(s + B) for the blocks 0..nb−2
            for l in range(1, r + 1):
                carry += self.down[l * B] * head[1 + l:nb + l]
            inner[:-1] += carry[:, None] * self.carry
        return inner.ravel()[:m1]

    def extended(self, Z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """[0, q^L·DZ(0), …, q·DZ(0), DZ(0), …, DZ(m), 0]: index j + L + 1 (clipped) gives DZ(j) for every
        integer j (0 for j > m; below −L the value, < 2^-900·DZ(0), is counted in the absolute error)."""
        dz = self.tails(Z)
        return np.concatenate(([0.0], self.down[self.L:0:-1] * dz[0], dz, [0.0]))


def _p_inf_bounds(fa: fmpq, fb: fmpq, k: int, m: int) -> tuple[fmpq, fmpq]:
    """Dyadic bounds of P_∞ = 1 − fa^k·fb^m (fa, fb the finite masses): −expm1(k·log fa + m·log fb), each log
    taken as log f (f < 1/2) or log1p(−p) (p = 1 − f ≤ 1/2),
    as a 128-bit arb ball, relatively accurate whether P_∞ is near 0 or near 1; exact when a factor is 0 or 1.
    The exact value has k·bits(fa) + m·bits(fb) bits: computed for every composition it made the filter
    quadratic in n beyond its estimate (P-only mass with a 90-bit denominator at n = 10⁴); the point
    enclosures E_γ = P_∞ are made exact only for the compositions that can be the maximum."""
    if (fa == 0 and k) or (fb == 0 and m):
        return ONE, ONE
    if (fa == 1 or not k) and (fb == 1 or not m):
        return ZERO, ZERO
    with ctx.workprec(128):
        x = arb(0)
        for f, e in ((fa, k), (fb, m)):
            if e and f != 1:
                x += e * (arb(f).log() if 2 * f < 1 else arb(ONE - f).neg().log1p())  # accurate either way
        ball = x.expm1().neg()
        if not ball.is_finite():
            return ZERO, ONE
        (m0, e0), (m1, e1) = ball.lower().man_exp(), ball.upper().man_exp()
    return max(fmpq(m0) * pow2(int(e0)), ZERO), min(fmpq(m1) * pow2(int(e1)), ONE)


def _counts(ia: int, ib: int, k: int, m: int) -> tuple[int, ...]:
    """The composition with k factors in class ``ia`` and m in ``ib`` (indexed like the losses)."""
    counts = [0, 0]
    counts[ia], counts[ib] = k, m
    return tuple(counts)


def _two_ratio_enclose(losses: Losses, groups: Groups, totals: Totals, gamma: fmpq) -> list[CompositionBounds]:
    """Enclosures of E_γ for every composition (k, n − k), any γ ≥ 0: the derivation above holds for every
    γ > 0 (t = −1 when γ is below every R(d)); E_0 = Σ_y P(y) = 1 exactly."""
    sides = _two_ratio_sides(losses, groups, totals)
    if sides is None:
        raise ParameterError("losses: the two-ratio enclosure applies only where its estimate does (two ratio "
                             "classes with one quotient)")
    A, B, rho, ia, ib = sides
    n = totals[0]
    if not isinstance(gamma, fmpq) or gamma < 0:
        raise ParameterError(f"gamma: the two-ratio enclosure needs an exact rational gamma >= 0, got {gamma!r}")
    if gamma == 0:
        return [(_counts(ia, ib, k, n - k), ONE, ONE) for k in range(n + 1)]
    n_p, n_q = 4 * n + 2, 8 * n + 40  # rounding counts of the P sums and of the discounted Q sum
    if n_q * U > 0.01:
        raise ParameterError(f"n: {n} is beyond the range of the filter's rounding bound")
    threshold = _Threshold(A, B, rho, gamma)
    discount = _Discount(rho, n)
    xs, zs = _ascending(A.p_top, A.p_bot, n), _descending(B.p_top, B.p_bot, n)
    scale = 4.0 * (n + 2) ** 2
    arange = np.arange(n + 1)
    out: list[CompositionBounds] = []
    points: list[int] = []
    for k in range(n + 1):
        m = n - k
        X, eX, aX, _ = next(xs)
        Z, eZ, aZ, _ = next(zs)
        t = threshold(k, m)
        j = (t + 1) - arange[:k + 1]  # the first b with a + b > t
        idx = np.minimum(np.maximum(j, 0), m + 1)
        cz = np.concatenate(([0.0], np.cumsum(Z)))
        tz = np.concatenate((np.cumsum(Z[::-1])[::-1], [0.0]))
        err = _up(scale * _up(_up(aX + aZ) + 2.0 ** -1070))
        head = _bounds(float(np.dot(X, cz[idx])), err, eX + eZ, n_p)
        ptail = _bounds(float(np.dot(X, tz[idx])), err, eX + eZ, n_p)
        if t < k * A.has_top + m * B.has_top:  # γQ(d > t) = (γ/R(t + 1))·Σ_a X(a)·DZ(t + 1 − a)
            dz = discount.extended(Z)
            err_dz = _up(_up(n + 2.0) * _up(_up(1.1 * aZ) + 2.0 ** -870))
            err_q = _up(scale * _up(_up(aX + err_dz) + 2.0 ** -895))
            qidx = np.minimum(np.maximum(j + (discount.L + 1), 0), len(dz) - 1)
            qs = _bounds(float(np.dot(X, dz[qidx])), err_q, eX + eZ, n_q)
            c_lo, c_hi = threshold.discount(k, m, t + 1)
            gq = (c_lo * qs[0], c_hi * qs[1])
        else:
            gq = (ZERO, ZERO)
        if t >= k * A.has_top + m * B.has_top:  # no finite outcome has R > γ: E_γ = P_∞ exactly
            lo, hi = _p_inf_bounds(A.finite, B.finite, k, m)
            points.append(k)  # made exact below if it can be a maximum
        else:
            p_lo, p_hi = _p_inf_bounds(A.finite, B.finite, k, m)
            lo = max(ONE - head[1] - gq[1], p_lo + ptail[0] - gq[1], ZERO)
            hi = min(ONE - head[0] - gq[0], p_hi + ptail[1] - gq[0], ONE)
        out.append((_counts(ia, ib, k, m), lo, hi))
    best = max(lo for _, lo, _ in out)
    for k in points:  # the exact P_∞ only where it may be the maximum (the others stay enclosed: ruled out)
        if out[k][2] >= best:
            exact = ONE - A.finite ** k * B.finite ** (n - k)
            out[k] = (out[k][0], exact, exact)
    return out


#: two classes in one factor, each with at most two finite ratio classes, with one ratio quotient ρ
TWO_RATIO = EnclosureRoutine("two ratio classes", _two_ratio_estimate, _two_ratio_enclose)
