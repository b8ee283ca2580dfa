r"""A certified filter for the composition search of the n-fold products (issue 15; claims.md B-10, D-7).

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
d = a + b, increasing in d, with P-weight X_k(a)Z_m(b) and Q-weight Y_k(a)W_m(b), where
X_k(a) = C(k, a) P_{A,top}^a P_{A,bot}^{k−a} (Y, Z, W alike with the Q masses of A and the P, Q masses of B).
With t = max{d : R(d) ≤ γ} (decided by arb logarithms, exactly by fmpq powers when a ball cannot decide),

    1 − E_γ = Σ_y min(P(y), γQ(y)) = PHead + γ·QTail,      E_γ = P_∞ + PTail − γ·QTail,

PHead = Σ_a X(a)·Σ_{b ≤ t−a} Z(b), PTail = Σ_a X(a)·Σ_{b > t−a} Z(b), QTail = Σ_a Y(a)·Σ_{b > t−a} W(b),
P_∞ = 1 − (1 − p_{A,∞})^k (1 − p_{B,∞})^m exactly (outcomes with a P-only coordinate; outcomes with a
coordinate of p = 0 contribute to neither).  Both enclosures are intersected: the first is tight when E_γ
is near 1 (η_TV at large n, E ≈ 1 − 10⁻¹⁵⁰: the complement is a sum of non-negative terms, relatively
accurate), the second when E_γ is small.  The vectors X_k are built by the recursion
X_k(a) = P_bot·X_{k−1}(a) + P_top·X_{k−1}(a − 1) forward in k, the B family (index m = n − k, backward) by
a checkpointed sweep: every ⌈√n⌉-th vector is stored and each block regenerated from its checkpoint, so
memory is O(n√n) floats and the work O(n²) vectorised float operations — about 6 recursion steps and 6
vector operations of length ≤ n per composition.

**Rounding argument** (IEEE 754 binary64, round to nearest; cf. :mod:`exactdp.numbers.float_interval`).
All quantities are non-negative, so every float result is the exact one times a product of factors
(1 + δ), |δ| ≤ u = 2⁻⁵³, plus an absolute underflow error: a float mass m̂ = m(1 + δ) (normal range
required); one recursion step rounds a mass, a product and a sum (3 factors) and each product may
underflow by ≤ 2⁻¹⁰⁷⁵; a sum of j terms in any order (``np.cumsum``, ``np.dot``, with or without FMA)
gives each term at most j factors (Higham, *Accuracy and Stability*, §4.2 and §3.1; additions with a
subnormal result are exact).  Hence X̂_k = X_k·Θ + e with Θ ∈ [(1 − u)^{3k}, (1 + u)^{3k}] and |e| ≤ A_k,
A_k = (m̂_top + m̂_bot)(1 + u)²·A_{k−1} + 2⁻¹⁰⁷⁴(1 + u), tracked with upward-rounded floats (scaled with
the vector, which is kept at max ∈ [2⁻³², 1] by exact power-of-two rescaling and carries its exponent).
A computed sum Ŝ of the form Σ_a X̂(a)·(Σ_b Ẑ(b)) therefore satisfies (1 − u)^N S − A ≤ Ŝ ≤ (1 + u)^N S + A
with N = 3k + 3m + n + 2 = 4n + 2 and A = 4(n + 2)²(A_X + A_Z + 2⁻¹⁰⁷⁰) (stored entries ≤ 1.01, inner
sums ≤ 1.02(m + 1)), and S ∈ [(Ŝ − A)/(1 + 2Nu), (Ŝ + A)/(1 − Nu)] (Nu ≤ 1/100), computed in ``fmpq``
from the exact values of the floats.  Every decision (threshold, candidate selection) is an exact
comparison; no float reaches a result.

**Hook for other class structures** (helper T3: three-ratio classes).  A routine is an
:class:`EnclosureRoutine`: ``estimate(losses, groups, totals)`` returns the routine's
work and memory estimate ``(work, bytes)`` (charged to ``max_work`` / ``max_memory`` with
:func:`exactdp.limits.require` before it runs) or None when it does not apply, and
``enclose(losses, groups, totals, gamma)`` returns ``[(counts, lo, hi), ...]`` for every composition, **in the order of** :func:`exactdp.measures.tensor._all_compositions` (counts tuples indexed
like ``losses``; lo ≤ E_γ(counts) ≤ hi exact ``fmpq``).  ``losses`` is the list of
:class:`~exactdp.measures.privacy_loss.PairLoss` of the search's classes, ``groups`` the class indices of
each factor and ``totals`` the factor multiplicities (as in ``TensorSearch.classified``).  Add a routine
to :func:`routines` (a lazy import there: the routine's module may import this one); the first that
applies is used (:func:`plan`); :func:`select` does the rest (the guard, the cap, the candidates).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import require
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.qq import ONE, ZERO

#: unit roundoff of binary64
U = 2.0 ** -53
_U_Q = fmpq(1, 2**53)
#: at most this many candidates are evaluated exactly; more (ties, or bounds too wide) fall back to the
#: exact search under its own cost guard
MAX_CANDIDATES = 64
#: work units (max_work: a few ns each) per float element operation of the filter (vectorised numpy, well
#: under 1 ns an element) and per composition (about 100 us of numpy calls and exact bound conversions;
#: benchmarks/bench_tensor.py: n = 10 000 in about 2 s)
_PER_ELEMENT = 1
_PER_COMPOSITION = 20_000


@dataclass(frozen=True)
class EnclosureRoutine:
    """An enclosure of E_γ for every composition of a class structure (see the module docstring)."""

    name: str
    estimate: Callable[[Sequence[PairLoss], Sequence[Sequence[int]], Sequence[int]], tuple[int, int] | None]
    enclose: Callable[[Sequence[PairLoss], Sequence[Sequence[int]], Sequence[int], fmpq], list]


@dataclass(frozen=True)
class Selection:
    """The outcome of the filter: the candidate compositions (enumeration order) and what was discarded."""

    candidates: tuple[tuple[int, ...], ...]
    discarded: int
    routine: str
    work: int


def routines() -> list[EnclosureRoutine]:
    """The registered enclosure routines, tried in order."""
    from exactdp.measures.lattice_interval import THREE_RATIO  # lazy: that module imports this one

    return [TWO_RATIO, THREE_RATIO]


@dataclass(frozen=True)
class Plan:
    """The routine that applies to a class structure and its estimate (nothing computed yet)."""

    routine: EnclosureRoutine
    losses: tuple
    groups: tuple
    totals: tuple
    work: int
    memory: int


def plan(losses, groups, totals) -> Plan | None:
    """The first routine that applies, with its (work, memory) estimate; None if none applies."""
    for routine in routines():
        estimate = routine.estimate(losses, groups, totals)
        if estimate is not None:
            return Plan(routine, tuple(losses), tuple(tuple(g) for g in groups), tuple(totals), *estimate)
    return None


def select(losses, groups, totals, gamma: fmpq, what: str, *, cap: int | None = None,
           planned: Plan | None = None) -> Selection | None:
    """Charge the estimate of the first applicable routine (``max_work``, ``max_memory``; ``planned``: a
    :func:`plan` already made), enclose every composition and keep those with hi ≥ max lo.  None when no
    routine applies or more than ``cap`` (default :data:`MAX_CANDIDATES`) survive."""
    planned = planned if planned is not None else plan(losses, groups, totals)
    if planned is None:
        return None
    cap = MAX_CANDIDATES if cap is None else cap
    name = planned.routine.name
    require("max_work", planned.work, f"{what}: certified filter ({name}) over the compositions")
    require("max_memory", planned.memory, f"{what}: certified filter ({name}) over the compositions")
    bounds = planned.routine.enclose(planned.losses, planned.groups, planned.totals, gamma)
    best_lo = max(lo for _, lo, _ in bounds)
    keep = tuple(c for c, _, hi in bounds if hi >= best_lo)
    if len(keep) > cap:
        return None
    return Selection(keep, len(bounds) - len(keep), name, planned.work)


# -- two ratio classes --------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Side:
    """One class of the two-ratio structure: float masses of its top and bottom finite classes (P and Q),
    its bottom ratio, whether it has a top class, and its finite P mass 1 − p_∞ (exact)."""

    p_top: float
    p_bot: float
    q_top: float
    q_bot: float
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
        top, rho = (pt, pt / rt), rt / rb
    elif len(cls) == 1:
        (rb, pb), top, rho = cls[0], (ZERO, ZERO), None
    else:
        rb, pb, top, rho = ONE, ZERO, (ZERO, ZERO), None
    floats = [_to_float(v) for v in (top[0], pb, top[1], pb / rb)]
    if any(f is None for f in floats):
        return None
    p_top, p_bot, q_top, q_bot = floats
    return _Side(p_top, p_bot, q_top, q_bot, rb, len(cls) == 2, ONE - loss.p_only), rho


def _two_ratio_sides(losses, groups, totals):
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


def _two_ratio_estimate(losses, groups, totals) -> tuple[int, int] | None:
    """(work, memory): about 3(n + 1)² float element operations (6 recursion steps and 6 vector operations
    of average length n/2 per composition) plus a constant per composition; memory the checkpoints and one
    regenerated block of the two B streams, 32·(n + 1)(√n + 2) bytes."""
    if _two_ratio_sides(losses, groups, totals) is None:
        return None
    n = totals[0]
    return 3 * (n + 1) ** 2 * _PER_ELEMENT + (n + 1) * _PER_COMPOSITION, 32 * (n + 1) * (math.isqrt(n) + 2)


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


class _Stream:
    """X_k(a) = C(k, a) top^a bot^{k−a} (a = 0..k) as floats ``vec``·2^``exp``; ``err`` bounds the absolute
    underflow error in stored units; relative error ≤ 3k roundings (module docstring)."""

    __slots__ = ("top", "bot", "growth", "vec", "exp", "err", "k")

    def __init__(self, top: float, bot: float):
        self.top, self.bot = top, bot
        self.growth = _up(_up(top + bot) * (1.0 + 4 * U))  # ≥ (m̂_top + m̂_bot)(1 + u)²
        self.vec, self.exp, self.err, self.k = np.ones(1), 0, 0.0, 0

    def state(self):
        return self.vec, self.exp, self.err, self.k

    @classmethod
    def restore(cls, top: float, bot: float, state) -> _Stream:
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


def _descending(top: float, bot: float, n: int):
    """The stream's states for k = n, n − 1, …, 0 (checkpoint every ⌈√n⌉ steps, blocks regenerated)."""
    every = math.isqrt(n) + 1
    s, marks = _Stream(top, bot), {}
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


def _pow2(e: int) -> fmpq:
    return fmpq(2**e) if e >= 0 else fmpq(1, 2 ** (-e))


def _f2q(x: float) -> fmpq:
    p, q = float(x).as_integer_ratio()
    return fmpq(p, q)


class _Threshold:
    """t_k = max{d ∈ [0, dmax] : R(d) ≤ γ} (−1 if none), R(d) = r_A^k r_B^m ρ^d: float guess, arb check,
    exact fmpq powers when a ball cannot decide."""

    def __init__(self, A: _Side, B: _Side, rho: fmpq, gamma: fmpq):
        self.A, self.B, self.rho, self.g = A, B, rho, gamma
        with ctx.workprec(192):
            self.logs = [arb(gamma).log(), arb(A.r_bot).log(), arb(B.r_bot).log(), arb(rho).log()]
        self.f = [float(x.mid()) for x in self.logs]

    def _at_most(self, k: int, m: int, d: int) -> bool:
        """R(d) ≤ γ, decided exactly."""
        lg, la, lb, lr = self.logs
        with ctx.workprec(192):
            h = lg - k * la - m * lb - d * lr
        if h > 0:
            return True
        if h < 0:
            return False
        return self.A.r_bot ** k * self.B.r_bot ** m * self.rho ** d <= self.g

    def __call__(self, k: int, m: int) -> int:
        dmax = k * self.A.has_top + m * self.B.has_top
        lg, la, lb, lr = self.f
        guess = (lg - k * la - m * lb) / lr
        t = -1 if not guess >= 0 else min(int(guess) if guess < dmax else dmax, dmax)
        while t >= 0 and not self._at_most(k, m, t):
            t -= 1
        while t < dmax and self._at_most(k, m, t + 1):
            t += 1
        return t


def _bounds(value: float, err: float, e: int, n: int) -> tuple[fmpq, fmpq]:
    """Exact bounds of S·2^e from the float Ŝ and the absolute error A (module docstring, N = 4n + 2)."""
    N = 4 * n + 2
    v, a = _f2q(value), _f2q(err)
    lo = max(v - a, ZERO) / (1 + 2 * N * _U_Q)
    hi = (v + a) / (1 - N * _U_Q)
    s = _pow2(e)
    return lo * s, hi * s


def _two_ratio_enclose(losses, groups, totals, gamma: fmpq) -> list:
    A, B, rho, ia, ib = _two_ratio_sides(losses, groups, totals)
    n = totals[0]
    if (4 * n + 2) * U > 0.01:
        raise ParameterError(f"n: {n} is beyond the range of the filter's rounding bound")
    threshold = _Threshold(A, B, rho, gamma)
    xs, ys = _Stream(A.p_top, A.p_bot), _Stream(A.q_top, A.q_bot)
    zs, ws = _descending(B.p_top, B.p_bot, n), _descending(B.q_top, B.q_bot, n)
    out = []
    for k in range(n + 1):
        m = n - k
        X, eX, aX, _ = xs.state()
        Y, eY, aY, _ = ys.state()
        Z, eZ, aZ, _ = next(zs)
        W, eW, aW, _ = next(ws)
        t = threshold(k, m)
        idx = np.clip(t + 1 - np.arange(k + 1), 0, m + 1)
        cz = np.concatenate(([0.0], np.cumsum(Z)))
        tz = np.concatenate((np.cumsum(Z[::-1])[::-1], [0.0]))
        tw = np.concatenate((np.cumsum(W[::-1])[::-1], [0.0]))
        scale = 4.0 * (n + 2) ** 2
        ezx = _up(scale * _up(_up(aX + aZ) + 2.0 ** -1070))
        ewy = _up(scale * _up(_up(aY + aW) + 2.0 ** -1070))
        head = _bounds(float(np.dot(X, cz[idx])), ezx, eX + eZ, n)
        ptail = _bounds(float(np.dot(X, tz[idx])), ezx, eX + eZ, n)
        qtail = _bounds(float(np.dot(Y, tw[idx])), ewy, eY + eW, n)
        p_inf = ONE - A.finite ** k * B.finite ** m
        lo = max(ONE - head[1] - gamma * qtail[1], p_inf + ptail[0] - gamma * qtail[1], ZERO)
        hi = min(ONE - head[0] - gamma * qtail[0], p_inf + ptail[1] - gamma * qtail[0], ONE)
        counts = [0, 0]
        counts[ia], counts[ib] = k, m
        out.append((tuple(counts), lo, hi))
        if k < n:
            xs.step()
            ys.step()
    return out


#: two classes in one factor, each with at most two finite ratio classes, with one ratio quotient ρ
TWO_RATIO = EnclosureRoutine("two ratio classes", _two_ratio_estimate, _two_ratio_enclose)
