r"""Inverting the exact privacy profile of an n-fold product: ε for a given δ, δ at an irrational e^ε.

δ_n(γ) = η_{E_γ}(K^{⊗n}) = max over the pair compositions c of E_γ(c), and each E_γ(c) = max over the
upper ratio sets A of P(A) − γQ(A) (docs/claims.md B-10, [A] Thm 1).  So δ_n is a **convex, non-increasing,
piecewise-linear** function of γ: between consecutive breakpoints (product likelihood ratios) it is
A − γB with exact rationals A, B ≥ 0.  At any γ the search (:class:`~exactdp.measures.tensor_search.TensorSearch`)
returns a maximizing composition, and its piece just right of γ, ℓ(γ') = A − γ'B, is a *supporting line*:
ℓ ≤ δ_n everywhere, with equality at γ.  Both inversions use only such evaluations:

* **ε for δ** (:func:`epsilon_tensor_power`): the least γ* with δ_n(γ*) ≤ δ.  δ_n ≥ E_γ(c) for every
  composition c, so the root γ_c of the maximizing composition at the current γ (the least γ with
  E_γ(c) ≤ δ — exactly, from c's own lines: max over its upper sets A of (P(A) − δ)/Q(A), found by
  bisection on the ratios for a binomial class) is a lower bound of γ*.  Start at γ = 1 (one factor of three or
  more pair classes whose search at γ = 1 is over the cost guard — a 3×3 kernel — starts at the largest exact root
  of its homogeneous compositions instead, :func:`_corner_start`: at γ = 1 every E_1 is near 1); search;
  if δ_n(γ) ≤ δ then γ = γ*; otherwise move to γ_c and search again.  A composition whose root was
  passed cannot be the maximizer above δ again, so this stops after at most one search per maximizing
  composition met — in practice two or three searches, not a scan — with γ* an exact rational and
  ε = log γ*.  If the maximizing composition's P-only mass exceeds δ there is no finite ε.
  Where the exact search at γ is over the cost guard (a 2×3 pair at n = 1000: 10⁶ type classes per mixed
  composition) the step needs no maximum, only the decision "δ_n(γ) ≤ δ?": the certified filter of
  :mod:`~exactdp.measures.composition_filter` encloses every composition; one whose lower bound exceeds δ is
  the composition to move to (its root, exact), and when every upper bound is ≤ δ, γ is γ* and the composition
  whose root γ is (E_γ = δ exactly) is a maximizer there.  Open candidates are settled exactly when
  homogeneous (streamed slices) or by the lattice bounds (:func:`~exactdp.measures.tensor_enclosure.tighten`);
  the answer is still the exact rational γ*.  ε for δ = 10⁻⁶ of (1/2, 1/3, 1/6)/(1/4, 1/4, 1/2) at n = 1000:
  three steps.  A composition next to a corner (k or n − k small: a near-symmetric pair's maximizer (999, 1)) has
  an exact root through :mod:`~exactdp.measures.near_corner`.  Only where a composition's own root is over the guard
  (a mixed one in the middle) is that root bracketed by enclosures (:func:`_epsilon_enclosure`: t* ∈ (t_lower, t]);
  the exact inversion takes over again at the first composition certified above δ whose root fits, and where, at an
  exact root, a candidate as close to δ cannot be settled within the guard, that root is bracketed instead.
* **δ at an irrational e^ε** (:func:`delta_tensor_power_eps_search`): bracket e^ε by rationals
  γ_lo < e^ε < γ_hi (a certified ball), take the supporting lines at both ends; if they coincide δ_n is
  that line on the bracket (a convex function touching a line at two points equals it in between) and
  δ_n(e^ε) = A − B e^ε.  Otherwise evaluate at the lines' intersection, decide its side of e^ε by a
  certified comparison, and repeat on that side — finitely many pieces, usually one or two steps.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.kernels import KernelInput, as_kernel
from exactdp.limits import ResourceLimitError, limit
from exactdp.measures.binomial_trinomial import binomial_trinomial_loss
from exactdp.measures.privacy_loss import PairLoss, single_loss, trinomial_loss
from exactdp.measures.quadrinomial import quadrinomial_loss
from exactdp.measures.tensor_enclosure import DEFAULT_REL_WIDTH, tighten
from exactdp.measures.tensor_search import (
    Counts,
    Factors,
    COST_CAP,
    MAX_EVALUATIONS,
    TensorCost,
    TensorSearch,
    check_n,
    corner_route,
    evaluation_cost,
    evaluation_unit,
    rational_bits,
    require_cost,
    search_cost,
    shape_text,
)
from exactdp.numbers.qq import ONE, ZERO, RationalInput, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB, ball_endpoints
from exactdp.numbers.truth import Sign

#: cap on the profile evaluations of one inversion (each one a pair-type search); two to five are typical
MAX_STEPS = 64


@dataclass(frozen=True)
class TensorEpsilon:
    r"""The least ε = log t* with δ_n(t*) ≤ δ for the n-fold product, exactly.

    ``t`` = t* = e^ε, the privacy level (exact rational; None when no finite ε reaches δ; δ_n(γ) is the
    profile at the order γ of E_γ, and t* is the least order γ with δ_n(γ) ≤ δ); ``piece`` = (A, B) with
    δ_n(γ) = A − γB just right of γ* (so γ* = (A − δ)/B unless γ* = 1); ``composition`` = a maximizing
    pair type at γ* (``(factor, x, x', count)`` as in ``TensorWitness``); ``evaluations`` = profile
    evaluations (pair-type searches) used.
    """

    delta: fmpq
    t: fmpq | None
    piece: tuple[fmpq, fmpq] | None
    composition: tuple[tuple[int, int, int, int], ...]
    evaluations: int
    #: None when ``t`` is t* exactly; else t* lies in (t_lower, t] — certified: δ_n(t_lower) > δ ≥ δ_n(t) — where
    #: the maximizing composition's root is out of the exact route's reach (``piece`` is then None)
    t_lower: fmpq | None = None

    @property
    def exact(self) -> bool:
        return self.t_lower is None

    @property
    def epsilon(self) -> sympy.Expr:
        """ε = log t* (exact sympy; ``oo`` when δ is below the floor of the profile)."""
        return sympy.oo if self.t is None else sympy.log(qq_to_sympy(self.t))

    def __str__(self) -> str:
        return str(self.epsilon)


def _delta_level(delta: RationalInput) -> fmpq:
    d = to_qq(delta, "delta")
    if not ZERO <= d <= ONE:
        raise ParameterError(f"delta: must lie in [0, 1], got {d}")
    return d


def epsilon_tensor_power(K: KernelInput, n: int, delta: RationalInput, *,
                         max_evaluations: int = MAX_EVALUATIONS) -> TensorEpsilon:
    r"""The least ε ≥ 0 such that the n-fold composition K^{⊗n} is (ε, δ)-LDP, exactly (δ_n(e^ε) ≤ δ).

    Newton's method from the left on the convex piecewise-linear profile (module docstring): a few
    pair-type searches, each under the cost guard; the answer is ε = log γ* with γ* an exact rational.

    >>> from exactdp.mechanisms import randomized_response
    >>> r = epsilon_tensor_power(randomized_response(2, 3), 2, "1/4")
    >>> r.t, r.epsilon, r.evaluations
    (5, log(5), 2)

    Raises:
        ParameterError: δ outside [0, 1], n < 1, or more than ``MAX_STEPS`` evaluations.
    """
    return epsilon_tensor_product([(as_kernel(K), check_n(n))], delta, max_evaluations=max_evaluations)


def epsilon_tensor_product(factors: Factors, delta: RationalInput, *,
                           max_evaluations: int = MAX_EVALUATIONS) -> TensorEpsilon:
    r"""The least ε ≥ 0 such that K₁^{⊗n₁} ⊗ … ⊗ K_m^{⊗n_m} is (ε, δ)-LDP, exactly: the inversion of
    :func:`epsilon_tensor_power` for a product of different kernels (``factors = [(K_j, n_j), ...]``; the maximum
    over pairs of input sequences runs over the pair compositions of every factor, docs/claims.md B-10, D-7).

    >>> from exactdp.mechanisms import randomized_response
    >>> r = epsilon_tensor_product([(randomized_response(2, 3), 1), (randomized_response(2, 2), 1)], "1/4")
    >>> r.t, r.composition
    (3, ((0, 0, 1, 1), (1, 0, 1, 1)))

    Raises:
        ParameterError: δ outside [0, 1], a multiplicity < 1, or more than ``MAX_STEPS`` evaluations.
    """
    d = _delta_level(delta)
    search = TensorSearch(factors, max_evaluations=max_evaluations)
    n = sum(n_j for _, n_j in search.facs)
    g = ONE  # invariant: γ* ≥ g (1, or the root of a composition whose E_γ never exceeds δ_n)
    last: Counts | None = None  # the composition whose root g is (filtered steps)
    what = f"epsilon_tensor_product: {shape_text(search.facs)}"
    corner = _corner_start(search, d)
    if corner is not None:
        g, last = corner
    step, left = 0, g  # left: a γ < root of ``last`` with E_left(last) > δ certified (filtered steps)
    while step < MAX_STEPS:
        step += 1
        try:
            decided = None if _exact_fits(search, g) else _filtered_decision(search, g, d, what)
        except ResourceLimitError:
            if last is None or left >= g:
                raise
            # at the exact root g of ``last`` (E_g(last) = δ) a candidate as close to δ could not be settled within the
            # guard: bracket that root by enclosures instead, decided just right of it (the route without exact roots)
            out = _epsilon_enclosure(search, last, left, d, what, step)
            if isinstance(out, TensorEpsilon):
                return out
            decided, g, step = out
        if decided is not None and (decided or last is not None):
            if not decided and last is not None:  # δ_n(g) ≤ δ, and E_g(last) = δ: last is a maximizer at g = γ*
                return TensorEpsilon(d, g, search.piece(last, g), search.composition(last), step)
            if not _root_fits(search, decided, d):  # a mixed or several-loss composition: certified enclosure
                out = _epsilon_enclosure(search, decided, g, d, what, step)
                if isinstance(out, TensorEpsilon):
                    return out
                decided, g, step = out  # a composition certified above δ at g < γ* whose root fits: exact again
            root = _root(search, decided, d, what, g)
            if root is None:
                return TensorEpsilon(d, None, search.piece(decided, g), search.composition(decided), step)
            left, g, last = g, max(root, g), decided
            continue
        w = search.witness(g)
        if not w.counts:  # identical rows: δ_n = 0 for γ ≥ 1
            return TensorEpsilon(d, ONE, (ZERO, ZERO), (), step)
        if w.value <= d:  # δ_n(g) ≤ δ at a lower bound of γ*: g = γ*
            return TensorEpsilon(d, g, search.piece(w.counts, g), w.composition, step)
        root = search.gamma_for(w.counts, d)  # δ_n ≥ E_γ(this composition) > δ below its root
        if root is None:  # this composition alone stays above δ for every γ: no finite ε
            return TensorEpsilon(d, None, search.piece(w.counts, g), w.composition, step)
        g = max(root, g)
    raise ParameterError(f"epsilon_tensor_product: more than {MAX_STEPS} profile evaluations (n = {n})")


def delta_tensor_power_eps_search(K: KernelInput, n: int, gamma: sympy.Expr, *,
                                  max_evaluations: int = MAX_EVALUATIONS) -> tuple[fmpq, fmpq, int]:
    r"""``(A, B, evaluations)`` with δ_n(γ) = A − γB at an exact irrational γ = e^ε > 1, over all pairs of
    input sequences (the bracketing of the module docstring; every comparison with γ certified).

    Raises:
        UndecidedError: γ could not be compared with a rational (never a guess).
    """
    ball = RB(gamma, "e^eps")
    search = TensorSearch([(as_kernel(K), check_n(n))], max_evaluations=max_evaluations)

    def side(r: fmpq) -> Sign:
        s = ball.compare_rational(r)
        if s is None:
            raise UndecidedError(f"eps: e^eps could not be compared with the rational {r}")
        return s

    def line(g: fmpq) -> tuple[fmpq, fmpq]:
        w = search.witness(g)
        return (ZERO, ZERO) if not w.counts else search.piece(w.counts, g)

    prec = 64
    while True:  # a rational bracket γ_lo < γ < γ_hi with γ_lo ≥ 1
        ends = ball.endpoints(prec)
        if ends is not None and ends[0] >= 1 and ends[0] < ends[1]:
            lo, hi = ends
            break
        prec *= 2
        if prec > 4096:
            raise UndecidedError("eps: e^eps could not be bracketed by rationals >= 1")
    lo_line, hi_line = line(lo), line(hi)
    steps = 2
    while lo_line != hi_line:
        (A0, B0), (A1, B1) = lo_line, hi_line
        x = (A0 - A1) / (B0 - B1)  # where the two supporting lines cross (B0 > B1: convexity)
        w = search.witness(x)
        steps += 1
        if steps > MAX_STEPS:
            raise ParameterError(f"delta_tensor_power_eps: more than {MAX_STEPS} profile evaluations (n = {n})")
        if w.value == A0 - x * B0:  # δ_n = max of the two lines on [lo, hi]: pick γ's side
            return (*(lo_line if side(x) is Sign.NEGATIVE else hi_line), steps)
        mid_line = search.piece(w.counts, x)
        if side(x) is Sign.NEGATIVE:  # γ < x
            hi, hi_line = x, mid_line
        else:
            lo, lo_line = x, mid_line
    return (*lo_line, steps)


def _corner_start(search: TensorSearch, d: fmpq) -> tuple[fmpq, Counts] | None:
    r"""A lower bound of γ* to start from where the start γ = 1 cannot be searched: one factor with three or more pair
    classes whose search at γ = 1 is over the cost guard (a 3×3 kernel past n ≈ 30; at n > 200 every E_1 is within
    2⁻²⁰ of 1 and the simplex filter stops at once).  δ_n ≥ E_γ(c) for every composition c, so the largest exact root
    of the homogeneous compositions (one class, all n coordinates: a binomial or trinomial loss, Newton from the left
    on its own pieces) is a lower bound of γ*; ``(root, composition)``, or None where this does not apply (or a
    homogeneous composition's P-only mass exceeds δ: the search from γ = 1 says so)."""
    classes, groups, totals, _ = search.classified
    many = any(len(c.loss.classes) >= 4 for c in classes)  # a row pair of four or more ratios: the corner filter
    if len(groups) != 1 or len(groups[0]) < (2 if many else 3) or _exact_fits(search, ONE):
        return None
    corners: list[tuple[float, Counts]] = []
    for i in groups[0]:
        counts = tuple(totals[0] if j == i else 0 for j in range(len(classes)))
        items = [(c.loss, k) for c, k in zip(classes, counts) if k]
        single = single_loss(items)
        # (the lattice classes of one loss, or four conditioned on one: cheap roots, each within the cost guard)
        if single is None or (len(single[0].classes) > 3 and quadrinomial_loss(items) is None):
            return None
        if not _root_fits(search, counts, d):  # (the search from γ = 1 then refuses under its own guard)
            return None
        corners.append((-_tail_guess(*single, d), counts))
    best: tuple[fmpq, Counts] | None = None
    for _, counts in sorted(corners):  # the likely largest root first (a float guess: the order only)
        if best is not None and search.hockey_stick(counts, best[0]) <= d:
            continue  # E ≤ δ at the best root so far: this corner's root is no larger (E is non-increasing in γ)
        root = search.gamma_for(counts, d)
        if root is None:
            return None
        if best is None or root > best[0]:
            best = (root, counts)
    return best if best is not None and best[0] > ONE else None


def _tail_guess(loss: PairLoss, n: int, d: fmpq) -> float:
    """A float guess of log γ where E_γ(loss^{⊗n}) falls to δ: the privacy loss's mean plus √(2 log(1/δ)) standard
    deviations (a normal tail) — used only to order the corners' exact roots."""
    logs = [(float(P), _log_float(r) if r >= 1 else -_log_float(1 / r)) for r, P in loss.classes if P != 0]
    mass = sum(P for P, _ in logs) or 1.0
    mean = sum(P * x for P, x in logs) / mass
    sd = math.sqrt(max(0.0, sum(P * x * x for P, x in logs) / mass - mean * mean))
    z = math.sqrt(2 * -_log_float(d)) if 0 < d < 1 else (10.0 if d == 0 else 0.0)
    return n * mean + z * sd * math.sqrt(n)


def _exact_fits(search: TensorSearch, g: fmpq) -> bool:
    """Whether the unfiltered exact search at g is within ``max_work`` and ``max_memory`` (else the inversion
    decides through the certified filter, :func:`_filtered_decision`)."""
    if not search.classes:
        return True
    cost = search_cost(search.facs, g, search.classified, search.max_evaluations, search.exhaustive_limit)
    return cost.work <= limit("max_work") and cost.memory <= limit("max_memory")


def _filtered_decision(search: TensorSearch, g: fmpq, d: fmpq, what: str) -> Counts | None:
    r"""Whether δ_n(g) ≤ δ, decided through the certified filter without the exact maximum: ``()`` when every
    composition has E_g ≤ δ, else a composition (class counts) with E_g > δ certified — the one of largest lower
    bound; None when no filter routine applies.

    The filter's enclosures lo_c ≤ E_g(c) ≤ hi_c hold for every composition c, and every discarded one has
    hi_c < max lo ≤ (a kept lower bound), so a kept lo_c > δ decides "above" and all kept hi_c ≤ δ decide
    "below".  An open candidate (lo_c ≤ δ < hi_c, largest hi first) is evaluated exactly when it is one
    homogeneous loss (streamed binomial / trinomial slices, cheap), else tightened by the lattice bounds
    (:func:`~exactdp.measures.tensor_enclosure.tighten`), else evaluated exactly under the cost guard.

    Past γ = 1 the homogeneous compositions (every factor's coordinates in one pair class, at most 16) come first:
    those whose lattice lower bound (one block each, cheap) exceeds δ are certified above it, and the one of largest
    lower bound decides at once, without the search over every composition — the step of a near-symmetric pair from
    the root of one homogeneous composition to the other's (seed 3 of ``bench_tensor.py --random-pairs`` at n = 1000:
    a pass over 1001 compositions saved).  At γ = 1 (every E_1 near 1, the filter's answer cheap) the filter's
    composition of largest lower bound is the better first step: a homogeneous one there made the enclosure route
    (:func:`_epsilon_enclosure`) bracket a root from γ = 1, 4.7·10⁻⁶ wide instead of 3·10⁻⁷ (RR^{⊗10} ⊗ K^{⊗14})."""
    from exactdp.measures import composition_filter  # deferred: start-up
    from exactdp.measures.lattice_interval import (  # deferred: start-up
        LatticeEnclosure, OverBudget, search_tag, shared_blocks)

    classes, groups, totals, _ = search.classified
    losses = [c.loss for c in classes]
    planned = composition_filter.plan(losses, groups, totals, g)
    if planned is None:
        return None
    lattice = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks(), tag=search_tag(losses))
    corners: list[tuple[fmpq, Counts]] = []
    for choice in itertools.islice(itertools.product(*groups), 16 if g > 1 else 0):
        counts = [0] * len(classes)
        for gi, i in enumerate(choice):
            counts[i] = totals[gi]
        items = [(loss, k) for loss, k in zip(losses, counts) if k]
        if items and all(len(loss.classes) <= 3 for loss, _ in items):  # what the lattice bounds cover
            try:
                lo = lattice.bounds(items, g)[0]
            except OverBudget:
                break
            if lo > d:
                corners.append((lo, tuple(counts)))
    if corners:
        return max(corners)[1]
    selection = composition_filter.select(losses, groups, totals, g, what, cap=COST_CAP, planned=planned)
    if selection is None:
        return None
    bounds = dict(selection.bounds)
    steps: dict[Counts, int] = {}
    while True:
        above = [c for c, (lo, _) in bounds.items() if lo > d]
        if above:
            return max(above, key=lambda c: bounds[c][0])
        open_ = [c for c, (_, hi) in bounds.items() if hi > d]
        if not open_:
            return ()
        c = max(open_, key=lambda c: bounds[c][1])
        items = [(loss, k) for loss, k in zip(losses, c) if k]
        if single_loss(items) is None and tighten(bounds, steps, c, losses, lattice, g, DEFAULT_REL_WIDTH, what):
            continue
        _require_evaluation(items, g, what)
        v = search.hockey_stick(c, g)
        bounds[c] = (v, v)


def _require_evaluation(items: Sequence[tuple[PairLoss, int]], g: fmpq, what: str) -> None:
    """The cost guard of one exact E_g evaluation of the product ``items``."""
    losses, counts = [lo for lo, _ in items], [k for _, k in items]
    D, terms, bits, work, memory = evaluation_cost(losses, counts, rational_bits(g))
    require_cost(TensorCost(sum(counts), D, terms, bits, 1, work, memory, evaluation_unit(losses, counts)), what)


def _root_fits(search: TensorSearch, counts: Counts, d: fmpq) -> bool:
    """Whether the exact root of one composition (:func:`_root`) is within ``max_work`` and ``max_memory``."""
    items = [(c.loss, k) for c, k in zip(search.classes, counts) if k]
    D, terms, bits, work, memory = evaluation_cost([lo for lo, _ in items], [k for _, k in items], rational_bits(d))
    return work <= limit("max_work") and memory <= limit("max_memory")


#: relative width of ε = log t* asked of an enclosure, and the margin below δ of its upper end's composition
EPS_REL_WIDTH = fmpq(1, 10**6)
_MARGIN = fmpq(4, 10**6)


def _rational_exp(x: float) -> fmpq:
    """A rational within a few ulps of e^x (any rational serves as a trial γ; only its exact value is used)."""
    with ctx.workprec(64 + max(int(abs(x)), 1).bit_length() + 64):
        ends = ball_endpoints(arb(fmpq(*x.as_integer_ratio())).exp())
    assert ends is not None  # e^x of a finite float is a finite ball
    return max(ends[0], ONE)


def _epsilon_enclosure(search: TensorSearch, counts: Counts, ga: fmpq, d: fmpq, what: str,
                       step: int) -> TensorEpsilon | tuple[Counts, fmpq, int]:
    r"""t* enclosed where the maximizing composition's root is out of the exact route's reach (products of several
    kernels, mixed compositions at n = 1000): the root of E_γ(c) = δ of the current composition c is bracketed by
    rationals r_lo < r_hi with E_{r_lo}(c) > δ (so δ_n(r_lo) > δ: t* > r_lo) and E_{r_hi}(c) < δ(1 − 4·10⁻⁶),
    both from certified enclosures of E_γ(c) (:mod:`~exactdp.measures.lattice_interval`; exact for one loss), by
    regula falsi on log E in ε = log γ until log r_hi − log r_lo ≤ 10⁻⁶·log r_lo; then the certified filter
    decides δ_n(r_hi) ≤ δ (:func:`_filtered_decision`): if so t* ∈ (r_lo, r_hi]; if a composition c' is certified
    above δ at r_hi, r_hi is a new lower bound of t* and c' the next composition (each step moves right).  When c'
    has an exact root within the cost guard (:func:`_root_fits`: a homogeneous or near-corner composition met after a
    mixed one) ``(c', r_hi, step)`` is returned instead, and the exact inversion goes on from there: its answer is then
    t* exactly (RR^{⊗10} ⊗ K^{⊗14}-like starts, seed 3 of ``bench_tensor.py --random-pairs`` under a lower
    ``max_work``)."""
    from exactdp.measures.lattice_interval import LatticeEnclosure, OverBudget, shared_blocks  # deferred: start-up

    lattice = LatticeEnclosure(budget=COST_CAP, blocks=shared_blocks())
    while step <= MAX_STEPS:
        items = [(c.loss, k) for c, k in zip(search.classes, counts) if k]

        def bounds(g: fmpq) -> tuple[fmpq, fmpq]:
            if single_loss(items) is not None:  # one streamed loss, exactly (under the guard of one evaluation)
                _require_evaluation(items, g, what)
                v = search.hockey_stick(counts, g)
                return v, v
            try:
                return lattice.bounds(items, g, rel_width=fmpq(1, 10**7))
            except OverBudget as e:
                raise ResourceLimitError(f"{what}: {e}") from None

        if any(loss.p_only > 0 for loss, _ in items):
            p_inf = ONE
            for loss, k in items:
                p_inf *= (ONE - loss.p_only) ** k
            if ONE - p_inf > d:  # the P-only mass alone exceeds δ: no finite ε
                return TensorEpsilon(d, None, None, search.composition(counts), step)
        # ε_a = log γ_a with E_{γ_a}(c) > δ certified (by the filter's decision); ε_b: E < δ(1 − margin) certified
        lo = bounds(ga)[0]
        if lo <= d:  # the filter's bound was tighter than this enclosure: tighten until it shows E > δ
            lo = lattice.bounds(items, ga, rel_width=fmpq(1, 10**9))[0] if single_loss(items) is None else lo
            if lo <= d:
                raise ResourceLimitError(f"{what}: E_gamma of the maximizing composition could not be certified above "
                                         "delta at the bracket's lower end")
        bracket = _bracket_root(bounds, ga, lo, d, EPS_REL_WIDTH, _MARGIN)
        if bracket is None:
            raise ResourceLimitError(f"{what}: the root of E_gamma = delta could not be bracketed")
        ga, gb = bracket
        step += 1
        decided = _filtered_decision(search, gb, d, what)
        if decided is None:
            raise ResourceLimitError(f"{what}: no certified filter decides delta at the bracket's upper end")
        if decided == ():
            return TensorEpsilon(d, gb, None, search.composition(counts), step, t_lower=ga)
        counts, ga = decided, gb
        if _root_fits(search, counts, d):  # E_gb(counts) > δ certified: gb < t*, and counts' root is exact
            return counts, ga, step
    raise ParameterError(f"epsilon_tensor_product: more than {MAX_STEPS} profile evaluations")


def _bracket_root(bounds: Callable[[fmpq], tuple[fmpq, fmpq]], ga: fmpq, lo_a: fmpq, d: fmpq, rel: fmpq, margin: fmpq) -> tuple[fmpq, fmpq] | None:
    r"""Rationals ga ≤ γ_a < γ_b around the root of a decreasing E_γ = δ from certified ``bounds(γ)`` → (lo, hi): at
    the returned γ_a, lo > δ (E above δ: left of the root), at γ_b, hi < δ(1 − margin) (right of it) — ``ga`` with
    its lower bound ``lo_a`` > δ to start from.  The right end by doubling steps in ε = log γ, then regula falsi on
    log E in ε until log γ_b − log γ_a ≤ ``rel``·log γ_a/2 or a trial cannot be decided (too close to δ for the
    bounds); None when no right end is found below ε = 10⁶.  The floats only choose the trial points."""
    ea, la = _log_float(ga), _log_small(lo_a)
    stepsize = max(1.0, 0.01 * ea)
    eb = ea + stepsize
    while True:
        gb = _rational_exp(eb)
        lo_b, hi_b = bounds(gb)
        if hi_b < d * (1 - margin):
            break
        if lo_b > d:
            ea, ga, la = eb, gb, _log_small(lo_b)
        stepsize *= 2
        eb = ea + stepsize
        if eb > 1e6:
            return None
    lb, ld = _log_small(hi_b), _log_small(d)
    for _ in range(60):
        if eb - ea <= float(rel) * max(ea, 1e-300) / 2:
            break
        x = ea + (eb - ea) * (la - ld) / (la - lb) if la > lb else (ea + eb) / 2
        x = min(max(x, ea + (eb - ea) / 16), eb - (eb - ea) / 16)
        gx = _rational_exp(x)
        lo_x, hi_x = bounds(gx)
        if lo_x > d:
            ea, ga, la = x, gx, _log_small(lo_x)
        elif hi_x < d * (1 - margin):
            eb, gb, lb = x, gx, _log_small(hi_x)
        else:  # too close to δ to decide either side: the bracket stays as certified
            break
    return ga, gb


def _log_small(x: fmpq) -> float:
    """log x as a float for a rational x ≥ 0 of any size (−745 for 0: a guide for the trial points only)."""
    if x <= 0:
        return -745.0
    with ctx.workprec(64):
        return float(arb(x).log().mid())


def _steer(search: TensorSearch, counts: Counts, g: fmpq, d: fmpq) -> fmpq:
    r"""A trial start for the exact Newton iteration of :func:`_root` on a three-ratio composition (alone, times a
    two-ratio loss — products of different kernels — or next to a corner, :mod:`~exactdp.measures.near_corner`): a
    rational
    γ_a ≥ g left of the root of E_γ(counts) = δ and close to it, from the lattice bounds
    (:mod:`~exactdp.measures.lattice_interval`, blocks shared with the filter) by :func:`_bracket_root` — g
    itself where the lattice does not apply or does not show E_g > δ.  Only a start: the exact iteration checks
    E_start > δ itself (:meth:`TensorSearch.gamma_for`), so the answer is the exact root whatever this returns."""
    from exactdp.measures.lattice_interval import LatticeEnclosure, OverBudget, shared_blocks  # deferred: start-up

    items = [(c.loss, k) for c, k in zip(search.classes, counts) if k]
    if (trinomial_loss(items) is None and binomial_trinomial_loss(items) is None
            and (corner_route(items) is None or any(len(loss.classes) > 3 for loss, _ in items))):
        return g
    lattice = LatticeEnclosure(budget=limit("max_work"), blocks=shared_blocks())
    try:
        lo = lattice.bounds(items, g)[0]
        if lo <= d:
            return g
        bracket = _bracket_root(lambda x: lattice.bounds(items, x), g, lo, d, fmpq(1, 10**12), ZERO)
    except OverBudget:
        return g
    return g if bracket is None else bracket[0]


def _log_float(g: fmpq) -> float:
    """log γ as a float (γ ≥ 1; a guide for the trial points, never a result)."""
    with ctx.workprec(64):
        return float(arb(g).log().mid())


def _root(search: TensorSearch, counts: Counts, d: fmpq, what: str, g: fmpq = ONE) -> fmpq | None:
    """The least γ with E_γ(counts) ≤ δ, exactly (:meth:`TensorSearch.gamma_for`), after the cost guard of one
    evaluation of that composition (a homogeneous one is streamed; a mixed one forms its type classes); the
    Newton iteration of a three-ratio composition starts from :func:`_steer` (g: a lower bound of the root)."""
    items = [(c.loss, k) for c, k in zip(search.classes, counts) if k]
    _require_evaluation(items, d, what)
    return search.gamma_for(counts, d, _steer(search, counts, g, d))
