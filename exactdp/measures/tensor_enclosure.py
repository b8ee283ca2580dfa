r"""Certified enclosures of δ_n(γ) where the exact rational is out of reach.

δ_n(γ) = E_γ(p^{⊗n} ‖ q^{⊗n}) for one pair with at most three likelihood-ratio classes (every pair of a 2×2
or 2×3 kernel; [A] Thm 1 / B-10: the privacy profile of the n-fold composition) is the exact sum

.. math::  E_\gamma = p_\infty + \sum_{\text{types } \tau:\ r(\tau) > \gamma} \big(P(\tau) - \gamma Q(\tau)\big)

over the type classes (multinomial weights) with product ratio r(τ) above γ.  The exact routes of
:mod:`exactdp.measures.privacy_loss` carry integers of about n·log2(denominators) bits, so their work grows
like n²; here the *same* sums — the binomial tail for two ratio classes, the streamed slices of
:func:`~exactdp.measures.privacy_loss.trinomial_slices` for three — are evaluated with arb balls of a fixed
working precision: O(n) ball operations.  Which types lie above γ is still decided exactly (a ball of the
log-ratio first, the exact rational comparison when it does not decide), so the only approximation is the
rounding of the masses, and arb bounds it rigorously: the true value lies in the returned ball.  Nothing is
truncated (every term is summed), so no tail bound is needed.

The precision starts at ⌈log2(1/w)⌉ + 2·log2(n) + 64 bits for a requested relative width w and doubles
until the ball (intersected with [0, 1], where E_γ lies) has relative width ≤ w, each round under the cost
guard (``max_work``, ``max_prec``); the mode refuses — naming the limit — rather than return a wider ball.

Where the exact computation fits the cost guard the result is exact (``TensorEnclosure.exact``); the
enclosure is offered only beyond it.  Pair-type searches over several loss classes (an asymmetric kernel's
input sequences) go through the certified filter of :mod:`exactdp.measures.composition_filter`: every
composition it discards is certified below the best lower bound; each candidate left is evaluated exactly
where that fits the cost guard (the homogeneous ones: streamed binomial or trinomial slices), else enclosed by
:mod:`exactdp.measures.lattice_interval` (two losses of at most three ratio classes, a 2×3 kernel's mixed
compositions) at the requested width; the result is exact when every candidate is, else [max lo, max hi].
When more than ``MAX_CANDIDATES`` candidates survive (E_γ nearly flat in the composition) the filter's own
enclosures give [max lo, max hi],
the widest candidates tightened first — one lattice bound per candidate above (1 + w)·max lo charged to ``max_work``
before the first, so a case that cannot fit is refused at once.  Where no filter routine applies the mode refuses with the exact search's
limit.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, Unpack

from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError
from exactdp.limits import ResourceLimitError, limit, require
from exactdp.measures.privacy_loss import (
    PairLoss,
    first_true,
    single_loss,
    trinomial_thresholds,
)
from exactdp.measures.tensor_search import (
    COST_CAP,
    PER_TERM,
    Counts,
    Factors,
    SearchOptions,
    TensorCost,
    TensorSearch,
    check_gamma,
    check_n,
    evaluation_cost,
    hockey_stick_product,
    product_pair_losses,
    rational_bits,
    require_cost,
    reversal,
    search_cost,
    shape_text,
    short_number,
)
from exactdp.numbers.exact_zero import coprime_basis, exponent_vector
from exactdp.numbers.qq import ONE, ZERO, RationalInput, to_qq
from exactdp.numbers.digits import directed_digits as _digits
from exactdp.numbers.rb import ball_endpoints

if TYPE_CHECKING:
    from exactdp.kernels import KernelInput
    from exactdp.measures.composition_filter import Selection
    from exactdp.measures.lattice_interval import LatticeEnclosure

#: a ball evaluation of E_γ of one loss at multiplicity k: (loss, k, γ, target bits) -> ball
BallFunction: TypeAlias = Callable[[PairLoss, int, fmpq, int], arb]
#: ``(function, loss, k)`` of the ball route
BallRoute: TypeAlias = tuple[BallFunction, PairLoss, int]
#: the candidates' enclosures: class counts -> (lo, hi)
CandidateBounds: TypeAlias = dict[Counts, tuple[fmpq, fmpq]]

#: the default guaranteed relative width of an enclosure
DEFAULT_REL_WIDTH = fmpq(1, 10**6)
#: ball operations per slice of the streamed sum (Pascal step, moved terms, weight update, the occasional fresh
#: tail), for the estimate
_OPS_PER_SLICE = 140
#: ball operations charged for one incomplete beta function (arb, at 100–200 bits)
_BETA_OPS = 20_000


@dataclass(frozen=True)
class TensorEnclosure:
    r"""δ_n(γ) (or E_γ of a product) as an exact rational or a certified enclosure [lower, upper].

    ``exact``: True when ``lower == upper`` is the exact value (the exact route fitted the cost guard);
    otherwise the true value lies in [lower, upper] (exact rational endpoints of an arb ball) and
    ``relative_width`` = (upper − lower)/lower ≤ ``requested``.  ``precision``: bits of the ball
    evaluation (0 for the exact route).
    """

    lower: fmpq
    upper: fmpq
    exact: bool
    requested: fmpq
    precision: int = 0

    @property
    def value(self) -> fmpq | None:
        """The exact value (None for an enclosure)."""
        return self.lower if self.exact else None

    @property
    def width(self) -> fmpq:
        return self.upper - self.lower

    @property
    def relative_width(self) -> fmpq:
        """(upper − lower)/lower, 0 for an exact result (a zero-width ball is exact as well)."""
        return ZERO if self.width == 0 else self.width / self.lower

    def __contains__(self, x: RationalInput) -> bool:
        return self.lower <= to_qq(x, "x") <= self.upper

    def __str__(self) -> str:
        if self.exact:
            return str(self.lower)
        return (f"[{_digits(self.lower)}, {_digits(self.upper, up=True)}] (certified enclosure, relative width "
                f"<= {_digits(self.relative_width, up=True, sig=3)})")


def _rel_width(rel_width: RationalInput | None) -> fmpq:
    w = DEFAULT_REL_WIDTH if rel_width is None else to_qq(rel_width, "rel_width")
    if not ZERO < w < ONE:
        raise ParameterError(f"rel_width: the guaranteed relative width must lie in (0, 1), got {w}")
    return w


def _ball_binomial(loss: PairLoss, n: int, g: fmpq, min_bits: int) -> arb:
    """E_γ(p^{⊗n}‖q^{⊗n}) as a ball, at most two ratio classes: p_∞ + the two binomial tails over j ≥ t (t
    exact, :func:`_threshold`), each by :func:`_ball_tail`."""
    p_inf = 1 - (1 - arb(loss.p_only)) ** n if loss.p_only else arb(0)
    if not loss.classes:
        return p_inf
    if len(loss.classes) == 1:
        (r, P), = loss.classes
        return p_inf + (arb(P) ** n - arb(g) * arb(P / r) ** n if _threshold(r, r, n, g) == 0 else arb(0))
    (r_hi, P_hi), (r_lo, P_lo) = loss.classes
    t = _threshold(r_hi, r_lo, n, g)
    tail_p = _ball_tail(n, t, arb(P_hi), arb(P_lo), min_bits)
    tail_q = _ball_tail(n, t, arb(P_hi / r_hi), arb(P_lo / r_lo), min_bits)
    return p_inf + tail_p - arb(g) * tail_q


def _threshold(r_hi: fmpq, r_lo: fmpq, n: int, g: fmpq) -> int:
    """The least j in 0..n with r_hi^j r_lo^{n−j} > γ (n + 1 if none; r_hi ≥ r_lo > 0): a bisection on
    j·log(r_hi/r_lo) + n·log r_lo − log γ as balls, the exact rational comparison only when a ball does not
    decide (a tie is not above) — so no n-digit powers are formed unless a ratio lies within the ball of γ."""
    if g == 0:
        return 0
    l_ratio, l_lo, l_g = arb(r_hi / r_lo).log(), arb(r_lo).log(), arb(g).log()

    def above(j: int) -> bool:
        v = j * l_ratio + n * l_lo - l_g
        if v > 0:
            return True
        if v < 0:
            return False
        return _power_product_above(r_hi, j, r_lo, n - j, g)

    return first_true(above, 0, n + 1)


def _power_product_above(a: fmpq, j: int, b: fmpq, k: int, g: fmpq) -> bool:
    """Whether a^j b^k > g exactly (a, b, g > 0), without forming the powers (j + k may be 10¹²): equal exactly
    when the exponents of a^j b^k g^{-1} over a coprime basis of the numerators and denominators
    (:func:`~exactdp.numbers.exact_zero.coprime_basis`: gcds, no factoring) all vanish; otherwise
    j·log a + k·log b − log g ≠ 0 and balls of rising precision decide its sign (under ``max_prec``)."""
    basis = coprime_basis(int(x) for q in (a, b, g) for x in (q.p, q.q))
    e = {p: -x for p, x in exponent_vector(g, basis).items()}
    for q, m in ((a, j), (b, k)):
        for p, x in exponent_vector(q, basis).items():
            e[p] = e.get(p, 0) + m * x
    if not any(e.values()):
        return False  # a tie is not above
    prec = 2 * ctx.prec
    while True:
        require("max_prec", prec, f"the sign of {j}·log({a}) + {k}·log({b}) - log({g})")
        with ctx.workprec(prec):
            v = j * arb(a).log() + k * arb(b).log() - arb(g).log()
            if v > 0:
                return True
            if v < 0:
                return False
        prec *= 2


def _ball_tail(m: int, t: int, u: arb, v: arb, bits: int) -> arb:
    r"""Σ_{b ≥ t} C(m, b) u^b v^{m−b} as a ball of relative accuracy about 2^−bits, afresh.

    Far in the tail (term ratio ρ_t = (m − t)/(t + 1) · u/v < 1/2) by the series of its terms until the next
    one is below 2^−bits of the sum, plus the rest as a ball [0, next/(1 − ρ)] (the ratios decrease in b, so
    the rest is at most a geometric series); otherwise as (u + v)^m · I_{u/(u+v)}(t, m − t + 1), the
    regularized incomplete beta function (arb bounds its error)."""
    if t <= 0:
        return (u + v) ** m
    if t > m:
        return arb(0)
    if (m - t) * u < (t + 1) * v / 2:
        term = _ball_term(m, t, u, v)
        total, b, eps = arb(0), t, arb(2) ** -bits
        while True:
            total += term
            if b == m:
                return total
            rho = (m - b) * u / ((b + 1) * v)
            term = term * rho
            b += 1
            if term < eps * total and rho < 1:
                rest = term / (1 - rho)  # Σ of the remaining terms ≤ term · Σ ρ^j (ratios decrease)
                return total + arb(0).union(rest)
    return (u + v) ** m * (u / (u + v)).beta_lower(t, m - t + 1, regularized=1)


def _ball_term(m: int, b: int, u: arb, v: arb) -> arb:
    """C(m, b) u^b v^{m−b} (0 outside 0 ≤ b ≤ m)."""
    return arb(0) if b < 0 or b > m else arb.bin_uiui(m, b) * u ** b * v ** (m - b)


def _ball_trinomial(loss: PairLoss, n: int, g: fmpq, min_bits: int) -> arb:
    r"""E_γ(p^{⊗n}‖q^{⊗n}) as a ball, three ratio classes: the streamed slices of
    :func:`~exactdp.measures.privacy_loss.trinomial_linear_piece` over balls of the probabilities.

    Per slice a the tails S = Σ_{b ≥ t(a)} C(m, b) u^b v^{m−b} (m = n − a) of both sides are carried by
    Pascal's rule and by adding or removing terms as t moves; only the removals subtract, and a tail whose
    relative accuracy falls below ``min_bits`` (a far tail after removing its leading terms) is evaluated
    afresh by :func:`_ball_tail`.  Each side is then accurate to a relative 2^−min_bits, and since γQ < P on
    every type above γ the error of Σ (P − γQ) is at most about 2^−min_bits · Σ P (no cancellation of γ·Q
    against P can hide in the radius — arb bounds it anyway)."""
    p_inf = 1 - (1 - arb(loss.p_only)) ** n if loss.p_only else arb(0)
    sides = [[arb(P) for _, P in loss.classes], [arb(Q) for Q in loss.q_masses]]
    thresholds = trinomial_thresholds(loss, n, g)
    t = next(thresholds)
    S = [arb(1) if t == 0 else arb(0) for _ in sides]
    T = [arb(1) for _ in sides]  # the leading term C(m, t) u2^t u3^{m−t} of each tail (when t ≤ m)
    W = [u[0] ** n for u in sides]  # C(n, a) u1^a at a = n
    acc = [arb(0), arb(0)]
    for a in range(n, -1, -1):
        m = n - a
        if a < n:
            t_new = next(thresholds)
            for i, (u1, u2, u3) in enumerate(sides):
                s, term, tt = S[i], T[i], t
                # Pascal's rule at the same t, with u2·C(m−1, t−1) u2^{t−1} u3^{m−t} = (t/m)·C(m, t) u2^t u3^{m−t}
                if tt < m:
                    term = term * m / (m - tt) * u3
                    s = s * (u2 + u3) + term * tt / m
                elif tt == m:  # the tail was empty at m − 1: now the one term u2^m
                    term = _ball_term(m, tt, u2, u3)
                    s = term
                removed = tt < t_new
                while tt > t_new:  # add C(m, t−1) u2^{t−1} u3^{m−t+1} = C(m, t) u2^t u3^{m−t} · t/(m−t+1) · u3/u2
                    term = _ball_term(m, tt - 1, u2, u3) if tt > m else term * tt / (m - tt + 1) * u3 / u2
                    tt -= 1
                    s += term
                while tt < t_new:  # remove the leading term
                    s -= term
                    term = term * (m - tt) / (tt + 1) * u2 / u3
                    tt += 1
                if removed and tt <= m and s.rel_accuracy_bits() < min_bits:
                    s = _ball_tail(m, tt, u2, u3, 2 * min_bits)
                S[i], T[i] = s, term
                W[i] = W[i] * (a + 1) / ((n - a) * u1)
            t = t_new
        if t <= m:
            acc[0] += W[0] * S[0]
            acc[1] += W[1] * S[1]
    return p_inf + acc[0] - arb(g) * acc[1]


def _ball_route(items: Sequence[tuple[PairLoss, int]]) -> BallRoute | None:
    """``(function, loss, k)`` of the ball route for a product ``[(PairLoss, k)]``, or None."""
    single = single_loss(items)
    if single is None or len(single[0].classes) > 3:
        return None
    return (_ball_trinomial if len(single[0].classes) == 3 else _ball_binomial), *single


def _ball_cost(fn: BallFunction, n: int, prec: int) -> int:
    """Work units of one ball evaluation (the unit of ``max_work``): the slices route n + 1 slices of
    ``_OPS_PER_SLICE`` ball operations at ``prec`` bits (calibrated with benchmarks/bench_tensor.py); the
    binomial route two incomplete beta functions (about independent of n) and powers."""
    limbs = prec // 64 + 1
    per_op = limbs * limbs.bit_length() + PER_TERM
    if fn is _ball_binomial:
        return min(2 * _BETA_OPS * per_op + 4 * n.bit_length() * per_op, COST_CAP)
    return min((n + 1) * _OPS_PER_SLICE * per_op, COST_CAP)


def _enclose(route: BallRoute, g: fmpq, w: fmpq, what: str) -> TensorEnclosure:
    """The precision loop: a ball of relative width ≤ w, or a refusal naming the limit.

    Each tail is kept to a relative 2^−target (target = log2(1/w) + 2·log2(n) + 16 bits) at a working precision
    128 bits above it; both double until the ball's exact endpoints (clipped to [0, 1]) are within w."""
    fn, loss, k = route
    target = rational_bits(1 / w) + 2 * k.bit_length() + 16
    while True:
        prec = target + 128
        require("max_prec", prec, f"{what}: a ball of relative width <= {w}")
        require("max_work", _ball_cost(fn, k, prec), f"{what}: ball evaluation at {prec} bits")
        with ctx.workprec(prec):
            ball = fn(loss, k, g, target)
        ends = ball_endpoints(ball)
        if ends is not None:
            lo, hi = max(ends[0], ZERO), min(ends[1], ONE)
            if lo == hi:
                return TensorEnclosure(lo, hi, True, w, prec)
            if lo > 0 and (hi - lo) <= w * lo:
                return TensorEnclosure(lo, hi, False, w, prec)
        if 2 * target + 128 > limit("max_prec"):
            raise ResourceLimitError(
                f"{what}: no ball of relative width <= {w} up to {prec} bits (the value may be 0 or too close "
                f"to it); a wider one is not returned; exceeds the limit max_prec = {limit('max_prec')} bits")
        target *= 2


def _within(cost: TensorCost) -> bool:
    return cost.work <= limit("max_work") and cost.memory <= limit("max_memory")


def hockey_stick_product_enclosure(factors: Iterable[tuple[object, object, int]], gamma: RationalInput, *,
                                   rel_width: RationalInput | None = None, try_exact: bool = True) -> TensorEnclosure:
    r"""E_γ(⊗ p_j^{⊗k_j} ‖ ⊗ q_j^{⊗k_j}) exactly when that fits the cost guard, else a certified enclosure of
    relative width ≤ ``rel_width`` (default 10⁻⁶) for one pair with at most three ratio classes
    (``try_exact=False``: the enclosure even where the exact value fits, e.g. when it is faster).

    >>> r = hockey_stick_product_enclosure([(["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"], 3)], 2)
    >>> r.exact, r.value
    (True, 53/128)

    Raises:
        ResourceLimitError: the exact route is over the cost guard and the ball route does not apply or
            cannot reach the width within ``max_prec`` / ``max_work``.
    """
    w = _rel_width(rel_width)
    g, losses = product_pair_losses(factors, gamma)
    D, terms, bits, work, memory = evaluation_cost([lo for lo, _ in losses], [k for _, k in losses], rational_bits(g))
    cost = TensorCost(sum(k for _, k in losses), D, terms, bits, 1, work, memory)
    what = f"hockey_stick_product: multiplicities {', '.join(short_number(k) for *_, k in factors)}"
    if try_exact and _within(cost):
        v = hockey_stick_product(factors, g)
        return TensorEnclosure(v, v, True, w)
    route = _ball_route(losses)
    if route is None:  # within the cost guard (try_exact=False) the exact value, else the guard's refusal
        require_cost(cost, what + " (no ball route: more than one loss or more than three ratio classes)")
        v = hockey_stick_product(factors, g)
        return TensorEnclosure(v, v, True, w)
    return _enclose(route, g, w, what)


def delta_tensor_power_enclosure(K: KernelInput, n: int, gamma: RationalInput, *,
                                 rel_width: RationalInput | None = None, try_exact: bool = True,
                                 **kw: Unpack[SearchOptions]) -> TensorEnclosure:
    r"""δ_n(γ) = η_{E_γ}(K^{⊗n}) over all input sequences: exact when the pair-type search fits the cost
    guard, else a certified enclosure of relative width ≤ ``rel_width`` (default 10⁻⁶) when the search is one
    evaluation of a loss with at most three ratio classes (kernels whose row pairs form one class), or when the
    certified filter applies (two pair classes: asymmetric 2×2 and 2×3 kernels) — exact again when its candidates
    are cheap to evaluate exactly; ``try_exact=False`` skips the exact route where the ball route applies and
    evaluates the filter's candidates by the lattice bounds.  Three or more pair classes (a 3×3 kernel) go through
    the simplex filter; where its box search stops at ``max_work`` with compositions open, what it had certified by
    then — the best lower bound and the largest bound still open — is the answer if its relative width is at most
    ``rel_width`` (e.g. ``rel_width="1/4"`` for a quick bracket), and the refusal states it otherwise.

    >>> from exactdp.mechanisms import randomized_response
    >>> K = randomized_response(2, 3)  # binary RR, e^eps0 = 3; the exact value (10^6 digits) fits here too
    >>> r = delta_tensor_power_enclosure(K, 10**6, 3**501000, try_exact=False)
    >>> r.exact, r.relative_width <= r.requested, str(r)
    (False, True, '[1.23797961349e-1, 1.23797961350e-1] (certified enclosure, relative width <= 5.60e-27)')

    Raises:
        ResourceLimitError: over the cost guard with several loss classes where no certified filter applies
            (or too many candidates survive it), or the ball cannot reach the width within ``max_prec`` /
            ``max_work``.
    """
    return delta_tensor_product_enclosure([(K, check_n(n))], gamma, rel_width=rel_width, try_exact=try_exact, **kw)


def delta_tensor_product_enclosure(factors: Factors, gamma: RationalInput, *,
                                   rel_width: RationalInput | None = None, try_exact: bool = True,
                                   **kw: Unpack[SearchOptions]) -> TensorEnclosure:
    r"""η_{E_γ}(K₁^{⊗n₁} ⊗ … ⊗ K_m^{⊗n_m}) over all pairs of input sequences (``factors = [(K_j, n_j), ...]``):
    :func:`delta_tensor_power_enclosure` for a product of different kernels — exact where the pair-type search
    fits the cost guard, else through the certified filter (one factor's two pair classes varied, the other
    factors' single classes fixed: :mod:`~exactdp.measures.lattice_interval`), a certified enclosure of relative
    width ≤ ``rel_width`` where the candidates cannot be evaluated exactly (docs/claims.md B-10, D-7).

    Raises:
        ResourceLimitError: as :func:`delta_tensor_power_enclosure`.
    """
    w = _rel_width(rel_width)
    g = check_gamma(gamma)
    search = TensorSearch(factors, **kw)
    cost = search_cost(search.facs, g, search.classified, search.max_evaluations, search.exhaustive_limit)
    classes = search.classes
    n = sum(n_j for _, n_j in search.facs)
    route = _ball_route([(classes[0].loss, n)]) if len(classes) == 1 and len(search.facs) == 1 else None
    if (try_exact or route is None) and _within(cost):
        v = search.witness(g).value
        return TensorEnclosure(v, v, True, w)
    what = f"delta_tensor_power: {shape_text(search.facs)}"
    if route is None:
        found = _filtered(search, g, w, what, try_exact)
        if found is not None:
            return found
        if not _within(cost):
            found = _stopped_filter(search, g, w)
            if found is not None:
                return found
        require_cost(cost, what + f" ({len(classes)} loss classes: {_filter_outcome(search, g)})")
        v = search.witness(g).value  # within the cost guard (try_exact=False): the exact value
        return TensorEnclosure(v, v, True, w)
    return _enclose(route, g, w, what)


def delta_tensor_power_batch(K: KernelInput, n: int, gammas: Sequence[RationalInput], *,
                             rel_width: RationalInput | None = None, try_exact: bool = True,
                             **kw: Unpack[SearchOptions]) -> list[TensorEnclosure]:
    r"""δ_n(γ) over all input sequences at every γ of ``gammas`` (one result per γ, in their order; duplicates and any
    order allowed): each as :func:`delta_tensor_power_enclosure` — exact where the search fits the cost guard, else a
    certified enclosure of relative width ≤ ``rel_width`` — with the certified filter's passes over the compositions
    shared by the γ where it runs the lattice routine and E_γ is flat in the composition (a near-symmetric 2×3 pair:
    one block build per composition and level for all the γ that level serves,
    :func:`~exactdp.measures.lattice_interval.enclose_batch`; those γ are charged the filter estimate of all of them
    against ``max_work`` before anything is computed); the other γ are single calls.  Each
    γ's guarantee is that of the single call (docs/claims.md B-10, D-7); exact values equal the single call's.

    >>> from exactdp import Kernel
    >>> K = Kernel([["5/9", "1/3", "1/9"], ["3/8", "1/2", "1/8"]])
    >>> [r.value for r in delta_tensor_power_batch(K, 4, [4, 2, "3/2", 2])]
    [108559/6718464, 12139/124416, 3148925/17915904, 12139/124416]

    Raises:
        ParameterError: an empty ``gammas``, or a γ < 1.
        ResourceLimitError: as :func:`delta_tensor_power_enclosure`, for the batch or for one of its γ.
    """
    if isinstance(gammas, (str, bytes)) or not isinstance(gammas, Sequence):
        raise ParameterError(f"gammas: a sequence of exact values (gamma >= 1), got {type(gammas).__name__}")
    if not gammas:
        raise ParameterError("gammas: an empty batch (give at least one gamma >= 1)")
    gs = [check_gamma(g) for g in gammas]
    unique = sorted(set(gs))
    w = _rel_width(rel_width)
    search = TensorSearch([(K, check_n(n))], **kw)
    batched: list[fmpq] = []
    classes, groups, totals, _ = search.classified
    if len(unique) > 1 and len(classes) > 1:  # the single calls' exact route and ball route stay theirs
        from exactdp.measures.lattice_interval import flat  # deferred: start-up

        for g in unique:
            cost = search_cost(search.facs, g, search.classified, search.max_evaluations, search.exhaustive_limit)
            if not _within(cost) and flat([c.loss for c in classes], groups, totals, g):
                batched.append(g)
    out: dict[fmpq, TensorEnclosure] = {}
    if len(batched) > 1:
        from exactdp.measures import composition_filter  # deferred: start-up

        what = f"delta_tensor_power_batch: {shape_text(search.facs)}"
        selections = composition_filter.select_batch([c.loss for c in classes], groups, totals, batched, what,
                                                     cap=COST_CAP)
        for g, selection in zip(batched, selections or []):
            found = _selected(search, selection, g, w, what, try_exact)
            if found is not None:
                out[g] = found
    for g in unique:
        if g not in out:
            out[g] = delta_tensor_product_enclosure([(K, n)], g, rel_width=rel_width, try_exact=try_exact, **kw)
    return [out[g] for g in gs]


def _by_ranges(search: TensorSearch, g: fmpq, w: fmpq) -> TensorEnclosure | None:
    r"""[lo, hi] of relative width ≤ w from the best corner and phase-majorant bounds of ranges of compositions
    (:func:`~exactdp.measures.corner_filter.corner_enclosure`; one factor of two or more pair classes): where E_γ is
    so flat in the composition that the filter leaves too many candidates to evaluate or tighten one by one, but every
    composition is within w of the best corner.  None where it does not apply or some range stays above the width."""
    from exactdp.measures.corner_filter import corner_enclosure  # deferred: start-up
    from exactdp.measures.lattice_interval import (  # deferred: start-up
        LatticeEnclosure,
        OverBudget,
        chernoff_bound,
        cut_below,
        shared_blocks,
    )

    classes, groups, totals, _ = search.classified
    if len(groups) != 1 or len(groups[0]) < 2:
        return None
    losses = [c.loss for c in classes]
    lattice = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks())

    def enclose(counts: tuple[int, ...], floor: fmpq) -> tuple[fmpq, fmpq]:
        # the corners only (floor 0): cut below their Chernoff bounds, as the simplex filter's corners
        items = [(loss, k) for loss, k in zip(losses, counts) if k]
        return lattice.bounds(items, g, cut_nats=cut_below(chernoff_bound(items, g)))

    covered = all(_lattice_covers([(losses[c], 1)]) for c in groups[0])
    try:
        found = corner_enclosure(losses, list(groups[0]), totals[0], g, w, enclose=enclose if covered else None)
    except (OverBudget, ResourceLimitError):
        return None
    return None if found is None else TensorEnclosure(found[0], found[1], found[0] == found[1], w)


def _near_one(search: TensorSearch, g: fmpq, w: fmpq) -> TensorEnclosure | None:
    r"""[lo, 1] when a corner composition (every coordinate of a factor in one class) already has E_γ ≥ lo with
    1 − lo ≤ w·lo — evaluated exactly where that fits the cost guard, else lo from the lattice bounds of
    :mod:`~exactdp.measures.lattice_interval`: δ_n(γ) ≤ 1 always, and δ_n(γ) ≥ E_γ of any composition — the case
    the filter cannot separate (E_γ within 2⁻²⁰ of 1 for every composition)."""
    from exactdp.measures.lattice_interval import LatticeEnclosure, OverBudget, shared_blocks  # deferred: start-up

    classes, groups, totals, _ = search.classified
    if not classes:
        return None
    best = None
    lattice = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks())
    for choice in itertools.islice(itertools.product(*groups), 16):
        counts = [0] * len(classes)
        for gi, i in enumerate(choice):
            counts[i] = totals[gi]
        items = [(c.loss, k) for c, k in zip(classes, counts) if k]
        est = evaluation_cost([lo for lo, _ in items], [k for _, k in items], rational_bits(g))
        if _within(TensorCost(sum(counts), est[0], est[1], est[2], 1, est[3], est[4])):
            v = search.hockey_stick(tuple(counts), g)
        elif _lattice_covers(items):
            try:
                v = lattice.bounds(items, g)[0]
            except OverBudget:
                continue
        else:
            continue
        best = v if best is None else max(best, v)
    if best is None or best <= 0 or ONE - best > w * best:
        return None
    return TensorEnclosure(best, ONE, best == ONE, w)


def _filter_outcome(search: TensorSearch, g: fmpq) -> str:
    """What the certified filter did before a refusal: the simplex filter's reason for stopping (the budget it ran
    out of and after how much work; raising ``max_work`` lets it go further) and the relative width of what it had
    certified (``rel_width`` at least that returns it, :func:`_stopped_filter`) when it ran, else the two other
    cases."""
    from exactdp.measures import simplex_filter  # deferred: start-up

    classes, groups, totals, _ = search.classified
    losses = [c.loss for c in classes]
    reason = simplex_filter.stop_reason(losses, groups, totals, g)
    if reason:
        bracket = simplex_filter.stop_bracket(losses, groups, totals, g)
        width = (bracket[1] - bracket[0]) / bracket[0] if bracket is not None and bracket[0] > 0 else ONE
        if width < ONE:
            reason += f" (relative width {_digits(width, up=True, sig=3)}: rel_width at least that returns it)"
        return f"the certified filter ran and stopped: {reason}; the exact search instead"
    return "no certified filter applies, or too many compositions survive it"


def _stopped_filter(search: TensorSearch, g: fmpq, w: fmpq) -> TensorEnclosure | None:
    """δ_n(γ) from a simplex filter that stopped at its budget with compositions open: what it had certified,
    lower ≤ δ_n(γ) ≤ upper (:func:`~exactdp.measures.simplex_filter.stop_bracket`; every composition of the
    non-dominated pair classes is a leaf, ruled out below the best lower bound, or in a box still open), as the answer
    when its relative width is at most ``w`` — the user asked for no more — else None (the caller refuses)."""
    from exactdp.measures import simplex_filter  # deferred: start-up

    classes, groups, totals, _ = search.classified
    bracket = simplex_filter.stop_bracket([c.loss for c in classes], groups, totals, g)
    if bracket is None or not ZERO < bracket[0] or bracket[1] - bracket[0] > w * bracket[0]:
        return None
    return TensorEnclosure(bracket[0], bracket[1], bracket[0] == bracket[1], w)


def _filtered(search: TensorSearch, g: fmpq, w: fmpq, what: str, try_exact: bool) -> TensorEnclosure | None:
    r"""δ_n(γ) over several pair classes through the certified filter of
    :mod:`~exactdp.measures.composition_filter` (None where no routine applies).

    Every discarded composition is certified below the best lower bound, so δ_n(γ) is the maximum over the
    candidates, and for any enclosures lo_c ≤ E_γ(c) ≤ hi_c of the candidates c,
    max_c lo_c ≤ δ_n(γ) ≤ max_c hi_c.  Up to :data:`~exactdp.measures.composition_filter.MAX_CANDIDATES`
    candidates, each is evaluated exactly where that fits the cost guard (the homogeneous ones are streamed:
    binomial or trinomial slices), else enclosed by :func:`~exactdp.measures.lattice_interval.hockey_stick_bounds`
    at the requested width (two losses of at most three ratio classes); all exact: the exact maximum.  With more
    candidates (E_γ nearly flat in the composition: the maximum is shared by many within the filter's width) the
    filter's own enclosures are used, the candidates whose hi exceeds (1 + w)·max lo tightened by the lattice
    bounds (highest hi first) until none does.  The result is [max lo, max hi] when its relative width is ≤ w."""
    from exactdp.measures import composition_filter  # deferred: start-up

    classes, groups, totals, _ = search.classified
    selection = composition_filter.select([c.loss for c in classes], groups, totals, g, what, cap=COST_CAP)
    return _selected(search, selection, g, w, what, try_exact)


def _selected(search: TensorSearch, selection: Selection | None, g: fmpq, w: fmpq, what: str,
              try_exact: bool) -> TensorEnclosure | None:
    """The step of :func:`_filtered` after the filter's ``selection`` at γ (None: no routine applied, or too many
    candidates): the candidates evaluated or enclosed, [max lo, max hi]."""
    from exactdp.measures import composition_filter  # deferred: start-up
    from exactdp.measures.lattice_interval import LatticeEnclosure, search_tag, shared_blocks  # deferred: start-up

    classes = search.classes
    losses = [c.loss for c in classes]
    if selection is None:
        return _near_one(search, g, w) or _by_ranges(search, g, w)
    lattice = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks(), tag=search_tag(losses))
    if len(selection.candidates) - len(selection.known) > composition_filter.MAX_CANDIDATES:
        near = _near_one(search, g, w) or _by_ranges(search, g, w)  # E_γ ≈ 1 everywhere, or flat near the best
        if near is not None:
            return near
        rev = reversal(classes) if g == 1 else None  # TV: a candidate and its mirror share one value
        bounds = dict(selection.bounds) if rev is None else _without_mirrors(selection.bounds, rev)
        return _from_bounds(bounds, losses, lattice, g, w, what)
    best_lo, best_hi, exact = None, None, True
    for counts in selection.candidates:
        items = [(loss, k) for loss, k in zip(losses, counts) if k]
        est = evaluation_cost([lo for lo, _ in items], [k for _, k in items], rational_bits(g))
        lo, hi = selection.bounds[counts]
        if try_exact and _within(TensorCost(sum(counts), est[0], est[1], est[2], 1, est[3], est[4])):
            lo = hi = search.hockey_stick(counts, g)
        elif lo > 0 and hi - lo <= w * lo / 4:  # the filter's own bounds are tight enough (the deep tail's balls)
            exact = exact and lo == hi
        else:
            if not _lattice_covers(items):
                return None
            lo, hi = lattice.bounds(items, g, rel_width=w / 4)
            exact = False
        best_lo = lo if best_lo is None else max(best_lo, lo)
        best_hi = hi if best_hi is None else max(best_hi, hi)
    assert best_lo is not None and best_hi is not None  # select keeps at least the best composition
    if exact or best_lo == best_hi:
        return TensorEnclosure(best_lo, best_lo, True, w)
    return _accept(best_lo, best_hi, w, what)


def _lattice_covers(items: Iterable[tuple[PairLoss, int]]) -> bool:
    """Whether :mod:`~exactdp.measures.lattice_interval` encloses the product ``items`` (losses of at most three
    ratio classes each; more than two distinct ones are paired by product blocks)."""
    return all(len(loss.classes) <= 3 for loss, _ in items)


def _accept(lo: fmpq, hi: fmpq, w: fmpq, what: str) -> TensorEnclosure:
    """[lo, hi] as an enclosure when its relative width is ≤ w, else the refusal (never a wider ball)."""
    if lo > 0 and hi - lo <= w * lo:
        return TensorEnclosure(lo, hi, lo == hi, w)
    raise ResourceLimitError(f"{what}: the candidates of the certified filter could not be enclosed to a relative "
                             f"width <= {w} (the value may be 0 or too close to it); a wider one is not returned")


def _from_bounds(bounds: CandidateBounds, losses: Sequence[PairLoss], lattice: LatticeEnclosure, g: fmpq, w: fmpq,
                 what: str) -> TensorEnclosure:
    r"""[max lo, max hi] over many candidates from their filter enclosures ``bounds`` (counts → (lo, hi)): while
    some hi exceeds (1 + w)·max lo, the candidate of largest hi is tightened (:func:`tighten`, each of its two
    steps once per candidate).  Sound for any valid bounds: δ_n(γ) lies between the largest lower and the largest
    upper bound."""
    best_lo = max(lo for lo, _ in bounds.values())
    # every candidate above (1 + w)·max lo needs at least one lattice bound at the default cut (E_γ nearly flat in the
    # composition: hundreds of them): charged before the first, so the refusal comes at once, not after max_work
    from exactdp.measures.lattice_interval import bound_work, leaf_cut  # deferred: start-up

    need = [c for c, (_, hi) in bounds.items() if hi > (1 + w) * best_lo]
    cut = leaf_cut(best_lo)  # the filter's level: its kept blocks are charged their walk only
    require("max_work", min(sum(bound_work(list(zip(losses, c)), cut, lattice.store) for c in need), COST_CAP),
            f"{what}: tightening {len(need)} candidates of the certified filter one by one (E_gamma nearly flat in "
            "the composition)")
    steps: dict[Counts, int] = {}  # counts -> tightening steps done (0, 1 or 2)
    while True:
        counts, (lo, hi) = max(bounds.items(), key=lambda kv: kv[1][1])
        if hi <= (1 + w) * best_lo or not tighten(bounds, steps, counts, losses, lattice, g, w, what):
            return _accept(best_lo, hi, w, what)
        best_lo = max(best_lo, bounds[counts][0])


def _without_mirrors(bounds: CandidateBounds, rev: Sequence[int]) -> CandidateBounds:
    r"""At γ = 1 the candidates up to mirror images, each enclosure the intersection of the two.  E_1 is symmetric,
    and the composition with every class's count moved to its reverse class (``rev``,
    :func:`~exactdp.measures.tensor_search.reversal`) has the same E_1 — the exact search shares one evaluation
    between the two for the same reason — so [max lo, max hi] over the candidates is unchanged.  On a pair and its
    reverse this halves the tightening: seed 4 of the random 2×3 pairs, (4/11, 5/11, 2/11) / (7/18, 4/9, 1/6), at
    n = 1000 had 830 candidates to tighten (over ``max_work``)."""
    out: CandidateBounds = {}
    for counts, (lo, hi) in bounds.items():
        key = min(counts, tuple(counts[rev[i]] for i in range(len(counts))))
        if key in out:
            lo2, hi2 = out[key]
            lo, hi = max(lo, lo2), min(hi, hi2)
        out[key] = (lo, hi)
    return out


def tighten(bounds: CandidateBounds, steps: dict[Counts, int], counts: Counts, losses: Sequence[PairLoss],
            lattice: LatticeEnclosure, g: fmpq, w: fmpq, what: str) -> bool:
    r"""One tightening step of the enclosure ``bounds[counts]`` of E_γ(counts) by the lattice bounds of
    :mod:`~exactdp.measures.lattice_interval` (intersected with the old one).  A composition the filter left without a
    lattice bound (lower end 0: its search stopped at ``max_work``) first gets one at the filter's own cut
    (:func:`~exactdp.measures.lattice_interval.leaf_cut` of the largest lower bound: the blocks that search kept are
    walked, not rebuilt); otherwise, or when that was not enough, one at relative width w/4, from one cut level deeper
    (at least :data:`~exactdp.measures.lattice_interval.CUT_NATS`; for small E_γ the default cut is shallower than
    the filter's and would be wasted).  ``steps`` counts the steps done per composition; False when the last is done
    or the lattice does not cover the product.  ``lattice`` carries the work budget: past it, a refusal naming
    ``max_work``."""
    from exactdp.measures.lattice_interval import (  # deferred: start-up
        CUT_NATS, CUT_STEP, MAX_CUT_NATS, OverBudget, leaf_cut)

    items = [(loss, k) for loss, k in zip(losses, counts) if k]
    step = steps.get(counts, 0)
    if step == 2 or not _lattice_covers(items):
        return False
    lo, hi = bounds[counts]
    scale = max(lo2 for lo2, _ in bounds.values())
    cut = leaf_cut(scale if scale > 0 else hi)
    try:
        if step == 0 and lo == 0:
            lo2, hi2 = lattice.bounds(items, g, cut_nats=cut)
            step = 1
        else:
            lo2, hi2 = lattice.bounds(items, g, rel_width=w / 4,
                                      cut_nats=min(max(cut + CUT_STEP, CUT_NATS), MAX_CUT_NATS))
            step = 2
    except OverBudget as e:
        raise ResourceLimitError(f"{what}: tightening the candidates of the certified filter: {e}; exceeds the "
                                 f"limit max_work = {limit('max_work')}") from None
    bounds[counts] = (max(lo, lo2), min(hi, hi2))
    steps[counts] = step
    return True
