r"""Privacy functionals of exact kernels: LDP, (ε,δ)-LDP, privacy profile, PML, (ε,c)-PML, maximal leakage.

* LDP(K) = sup_y sup_{x,x'} log K(y|x)/K(y|x')    ([G] eq. (1), D-5)
* (ε,δ)-LDP ⟺ max_{x,x'} E_{e^ε}(K_x‖K_{x'}) ≤ δ  ([A] Thm 1, D-6)
* ℓ(X→y) = log max_{x∈supp P} K(y|x) / (K∘P)(y)   ([G] Prop. 1, D-8)
* e^{C(K,Q_X(c))} = max_y max_x K(y|x) / (c S_y + (1−Nc) min_x K(y|x)),  S_y = Σ_x K(y|x)  (D-9)
* maximal leakage log Σ_y max_x K(y|x)

Ratios come back exact (``fmpq``, or +∞: :data:`~exactdp.numbers.infinity.INF` for a rational kernel, ``sympy.oo``
in the sympy domains RB and SR); logs as exact sympy expressions.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING

import numpy as np
from flint import fmpq

from exactdp.distributions import Distribution, as_distribution
from exactdp.errors import ParameterError, ShapeError, UndecidedError
from exactdp.kernels import Kernel, KernelInput, as_kernel
from exactdp.measures.contraction import eta_hockey_stick, eta_hockey_stick_witness
from exactdp.measures.irrational_gamma import (decide_beyond_ratios_sr, eta_at_infinity, gamma_beyond_ratios,
                                               is_ldp_certified)
from exactdp.measures.column_ratio import max_column_ratio, pml_candidates
from exactdp.measures.input_domain import input_domain, kernel_domain_name
from exactdp.measures.profile_front import profile_front
from exactdp.numbers.linalg import column_extreme, column_extremes, column_sums, weighted_row_sum
from exactdp.numbers.qq import ONE, ZERO, qq_to_sympy, to_qq
from exactdp.numbers.sr import to_exact
from exactdp.measures.two_point import Observer
from exactdp.numbers.domain import QQ, RB, SR, Domain, Exact, unify
from exactdp.numbers.truth import Truth
from exactdp.numbers.rich import RichDisplay
from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.infinity import INF, is_infinite
from exactdp.parameters import PrivacyLevel, check_delta

if TYPE_CHECKING:
    import sympy

    from exactdp.symbolic.closedforms import SymbolicPrivacyProfile
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up


def _log(ratio: Any) -> Any:
    """log of an exact ratio ≥ 1 as a sympy expression (0 → -oo is not expected here; +∞ in either form,
    :data:`~exactdp.numbers.infinity.INF` or ``sympy.oo``, gives ``sympy.oo``)."""
    if is_infinite(ratio):
        return sympy.oo
    return sympy.log(qq_to_sympy(ratio)) if isinstance(ratio, fmpq) else sympy.log(ratio)


def _infinity(D: Domain[Any]) -> Any:
    """+∞ in the domain ``D``: the project's :data:`~exactdp.numbers.infinity.INF` in QQ (a rational kernel's
    values need no sympy), ``sympy.oo`` in RB and SR (their values are sympy expressions)."""
    return INF if D is QQ else sympy.oo


# -- LDP -------------------------------------------------------------------------------------------

def ldp_ratio_witness(K: KernelInput) -> Any:
    """``(e^{LDP(K)}, y, x_max, x_min)``; the ratio is +∞ when a column mixes 0 and >0 — the project's exact
    :data:`~exactdp.numbers.infinity.INF` for a rational kernel (no sympy import), ``sympy.oo`` for a kernel with
    irrational or symbolic entries (its values are sympy expressions).  A parametric kernel's ratio is a closed
    form on its region (the witness None where it changes over the region)."""
    K = as_kernel(K)  # QQ: the integer route below; SR: a closed form on the kernel's region; RB: certified
    return input_domain("ldp_ratio", kernel=K).run("ldp_ratio", ldp_ratio_in, K)


@QQ.fast_path("ldp_ratio")
def _ldp_ratio_qq(D: Domain[Any], K: Kernel) -> Any:
    """QQ's route of :func:`ldp_ratio_witness`: the float64 filter, exact on the candidate columns
    (:func:`exactdp.measures.column_ratio.max_column_ratio`); None beyond int64 (the generic maximum in fmpq)."""
    fast = max_column_ratio(K.int_rows())
    if fast is None:
        return None
    num, den, y, xh, xl = fast
    if den == 0:
        return INF, y, xh, xl
    r = fmpq(num, den)
    return (r, y, xh, xl) if r > ONE else (ONE, 0, 0, 0)


def ldp_ratio_in(D: Domain[Any], K: Kernel, observe: Observer | None = None) -> Any:
    """``(e^{LDP(K)}, y, x_max, x_min)`` in the number domain ``D``: :func:`column_ratio_in` with the
    denominator min_x K(y|x) (D-5)."""
    return column_ratio_in(D, K, _ldp_denominator, observe)


def _ldp_denominator(column: Any, lo: Any) -> Any:
    """The denominator of e^{LDP}: min_x K(y|x) (D-5)."""
    return lo


def column_ratio_in(D: Domain[Any], K: Kernel, denominator: Any, observe: Observer | None = None) -> Any:
    r"""``(r, y, x_max, x_min)``: r = max(1, max_y max_x K(y|x) / denominator(column_y, min_x K(y|x))) in the
    number domain ``D`` — e^{LDP} for denominator = min (D-5), e^{C(K,Q_X(c))} for c S_y + (1 − Nc) min
    (D-9).  All-zero columns are ignored; +∞ (:func:`_infinity`, with its column) when a denominator is 0 below a
    positive entry — in SR where it is 0 on part of the region (:meth:`Domain.max_quotient`); the first
    maximizing column, None for a witness that changes over the region.  Every comparison is decided by
    ``D`` (UndecidedError if not; SR splits the region instead).  ``observe("column", r_y, y)`` and
    ``observe("max", r, None)`` see the steps.
    """
    nums, dens, where = [], [], []
    for y in range(K.M):
        column = [D.convert(K.rows[x][y]) for x in range(K.N)]
        hi, xh = D.max(column)
        if D.compare(hi, "==", D.zero) is Truth.TRUE:
            continue
        neg, xl = D.max([-v for v in column])
        den = denominator(column, -neg)
        if D.compare(den, "==", D.zero) is Truth.TRUE:
            return _infinity(D), y, xh, xl
        nums.append(hi)
        dens.append(den)
        where.append((y, xh, xl))
        if observe is not None:
            observe("column", D.result(hi / den), y)
    if not nums:
        return D.result(D.one), 0, 0, 0
    value, k = D.max_quotient(nums, dens)
    value = D.result(value)
    if observe is not None:
        observe("max", value, None)
    if k is None:
        return value, None, None, None
    if not is_infinite(value) and D.compare(value, "==", D.one) is Truth.TRUE:
        return value, 0, 0, 0  # every ratio is 1: no column is worse than another
    return (value, *where[k])


def ldp_ratio(K: KernelInput) -> Exact:
    r"""e^{LDP(K)} = max_y max_{x,x'} K[x][y] / K[x'][y] (D-5, [G] eq. (1)).

    Infinite when a column mixes zero and non-zero entries (:func:`ldp_ratio_witness`: the exact
    :data:`~exactdp.numbers.infinity.INF` of a rational kernel, equal to ``sympy.oo``); all-zero columns are
    ignored.

    >>> from exactdp.mechanisms import randomized_response
    >>> ldp_ratio(randomized_response(3, 5))
    5
    """
    return ldp_ratio_witness(K)[0]


def ldp_epsilon(K: KernelInput) -> sympy.Expr:
    """LDP(K) = log ldp_ratio(K) in nats, an exact sympy expression (``oo`` if infinite).

    >>> ldp_epsilon([["3/4", "1/4"], ["1/4", "3/4"]]), ldp_epsilon([["1", "0"], ["1/2", "1/2"]])
    (log(3), oo)
    """
    return _log(ldp_ratio(K))


def _no_foreign_symbols(value: Any, name: str, K: Kernel) -> None:
    """A parameter may carry only the symbols the kernel declares (a parametric kernel's parameters)."""
    if not is_sympy(value) or not value.free_symbols:
        return
    declared = set(K.free_symbols) if K.symbolic else set()
    foreign = sorted(map(str, value.free_symbols - declared))
    if not foreign:
        return
    if isinstance(value, sympy.Symbol):
        raise ParameterError(f"{name}: must be an exact number, got the symbol {value}")
    shown = str(value) if len(str(value)) <= 60 else str(value)[:57] + "..."
    raise ParameterError(
        f"{name}: must be an exact number, got {shown} with the free symbol(s) {', '.join(foreign)}"
        + (" not declared by the kernel" if K.symbolic else ""))


def _level(t: Any, delta: Any, eps: Any, K: Kernel) -> PrivacyLevel:
    """The privacy level of ``is_ldp`` (:class:`exactdp.parameters.PrivacyLevel`); ε may carry only the
    symbols the kernel declares."""
    level = PrivacyLevel.of(t, delta, eps=eps)
    if eps is not None:
        _no_foreign_symbols(level.eps, "eps", K)
    return level


def _rational_function(expr: Any) -> bool:
    """Built from rationals and symbols by +, ×, integer powers only (what the symbolic layer decides)."""
    for a in sympy.preorder_traversal(expr):
        if a.is_Add or a.is_Mul or a.is_Rational or isinstance(a, sympy.Symbol):
            continue
        if a.is_Pow and a.exp.is_Integer:
            continue
        return False
    return True


def is_ldp(K: KernelInput, t: Any=None, delta: Any=0, *, eps: Any=None) -> Truth:
    r"""Decide (ε,δ)-LDP: K(A|x) ≤ e^ε K(A|x') + δ for all A, x, x'  ⟺  η_{E_{e^ε}}(K) ≤ δ ([A] Thm 1).

    Args:
        K: the kernel.  t: t = e^ε ≥ 1 (exact).  delta: δ ∈ [0, 1].
        eps: ε ≥ 0 instead of t (``"1/2"``, ``"log(3)"``, ``sympy.log(3)``...); t = e^ε is used exactly
            when rational and through certified arithmetic otherwise (:class:`exactdp.parameters.PrivacyLevel`).
    Returns:
        Truth.TRUE / Truth.FALSE, or Truth.UNKNOWN when a certified comparison cannot separate.

    >>> from exactdp.mechanisms import randomized_response
    >>> is_ldp(randomized_response(2, 3), t=3), is_ldp(randomized_response(2, 3), eps="log(3)")
    (<Truth.TRUE: 'true'>, <Truth.TRUE: 'true'>)
    """
    K = as_kernel(K)
    level = _level(t, delta, eps, K)
    # the one domain choice of every measure (exactdp.measures.input_domain): QQ, RB, or None for SR
    D = unify((level.t,), "is_ldp", least=kernel_domain_name(K))
    if D is None:
        return _is_ldp_for_all_parameters(D, K, level, eps is not None)
    verdict: Truth = D.run("is_ldp", _is_ldp_for_all_parameters, K, level, eps is not None)
    return verdict


def _beyond_ratios(K: Kernel, level: PrivacyLevel) -> bool:
    """Whether γ = e^ε lies beyond every likelihood ratio of the rational kernel K (ε = 10^10: decided in constant
    time, where η_{E_γ}(K) is its value at infinity)."""
    g, e = level.t, level.eps
    return gamma_beyond_ratios(K, gamma=g) if e is None else gamma_beyond_ratios(K, eps=e)


@QQ.fast_path("is_ldp")
def _is_ldp_qq(D: Domain[Any], K: Kernel, level: PrivacyLevel, by_eps: bool) -> Truth:
    """QQ's route (rational kernel and t): magnitudes first, then the exact η_{E_t}(K) ≤ δ on the integer path."""
    if _beyond_ratios(K, level):
        return Truth.of(eta_at_infinity(K)[0] <= level.delta)
    return Truth.of(eta_hockey_stick(K, level.t) <= level.delta)


@RB.fast_path("is_ldp")
def _is_ldp_rb(D: Domain[Any], K: Kernel, level: PrivacyLevel, by_eps: bool) -> Truth | None:
    """RB's route (an irrational constant entry or t, no parameters): for a rational kernel, magnitudes first, then
    certified comparisons of t with the kernel's likelihood ratios (:func:`is_ldp_certified`); for a kernel with
    irrational constant entries the certified decision beyond its ratios, else None: the exact prover on the
    kernel's (one-point) region, :func:`_is_ldp_for_all_parameters`."""
    g, e, d = level.t, level.eps, level.delta
    if not K.symbolic:
        if _beyond_ratios(K, level):
            return Truth.of(eta_at_infinity(K)[0] <= d)
        return is_ldp_certified(K, g, d)
    return decide_beyond_ratios_sr(K, d, gamma=g if e is None else None, eps=e)  # irrational constant entries


def _is_ldp_for_all_parameters(D: Domain[Any] | None, K: Kernel, level: PrivacyLevel, by_eps: bool) -> Truth:
    """The generic route: η_{E_t}(K) ≤ δ decided by the exact prover for every parameter value of the kernel's
    region (:mod:`exactdp.symbolic`; SR, and RB's kernels with irrational constant entries beyond its fast
    decision); t must be rational or a rational function of the kernel's parameters."""
    from sympy.polys.polyerrors import BasePolynomialError

    g, d = level.t, level.delta
    name = "eps" if by_eps else "t"
    if K.symbolic and K.free_symbols and is_sympy(g) and not _rational_function(g):
        raise ParameterError(
            f"{name}: t = e^eps = {str(g)[:60]} is irrational; the parametric (symbolic) route needs t "
            f"rational or a rational function of the kernel's parameters (substitute parameter values "
            f"with K.subs(...) for certified arithmetic)")
    try:
        return _is_ldp_on_region(K, g, d)
    except BasePolynomialError as exc:
        raise ParameterError(
            f"{name}: t = e^eps = {str(g)[:60]} is not a rational function of the kernel's parameters; "
            f"the symbolic layer cannot decide it ({type(exc).__name__})") from None


def _is_ldp_on_region(K: Kernel, g: Any, d: fmpq) -> Truth:
    """η_{E_γ}(K) ≤ δ for every parameter value of the kernel's region ([A] Thm 1), decided by the exact
    prover: TRUE proved on the whole region, FALSE at an exact violating point, UNKNOWN otherwise."""
    from exactdp.algebra.prover import decide
    from exactdp.symbolic.closedforms import gamma_region
    from exactdp.symbolic.region import kernel_region

    value = eta_hockey_stick_witness(K, g)[0]
    G = qq_to_sympy(g) if isinstance(g, fmpq) else g
    return decide(_sympy(value) <= qq_to_sympy(d), gamma_region(kernel_region(K), G)).truth


def _sympy(value: Any) -> sympy.Expr:
    return qq_to_sympy(value) if isinstance(value, fmpq) else value


# -- privacy profile ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PrivacyProfile(RichDisplay):
    r"""δ(γ) = η_{E_γ}(K) = max_{x,x'} E_γ(K_x‖K_{x'}) for γ ≥ 0, exact and piecewise linear.

    δ(γ) = max over pairs and output sets A of [K_x(A) − γ K_{x'}(A)], the upper envelope of lines
    with intercept P = K_x(A) and slope −Q = −K_{x'}(A).  ``pieces[k] = (P_k, Q_k)`` is the line in
    force on ``[breakpoints[k-1], breakpoints[k]]`` (``breakpoints[-1]`` = 0, the last piece runs to
    ∞).  The breakpoints are likelihood ratios K_x(y)/K_{x'}(y) of the kernel or crossings of
    two pairs' lines.  Decreasing, convex, δ(0) = 1, δ(∞) = max_{x,x'} K_x(supp K_{x'}ᶜ).
    ``domain``: the number domain of P, Q and the breakpoints — QQ (``fmpq``) for a rational kernel, RB
    (exact sympy numbers, every comparison certified) for a kernel with irrational entries.
    """

    breakpoints: tuple[Any, ...]  # increasing γ values where the active line changes
    pieces: tuple[Any, ...]  # (P_k, Q_k), len = len(breakpoints) + 1
    domain: Domain[Any] = field(default=QQ, compare=False, repr=False)

    def __call__(self, gamma: Any) -> Any:
        D = self.domain
        g = D.convert(gamma, "gamma")
        if _holds(D, g, "<", D.zero):
            raise ParameterError(f"gamma: must be >= 0, got {g}")
        k = sum(1 for b in self.breakpoints if _holds(D, b, "<", g))
        P, Q = self.pieces[k]
        return D.result(P - g * Q)

    def gamma_for(self, delta: Any) -> Any:
        """The least γ ≥ 0 with δ(γ) ≤ delta (+∞ if no finite γ achieves it: :func:`_infinity` of the domain)."""
        D = self.domain
        d = D.convert(check_delta(delta), "delta")
        edges = (D.zero,) + self.breakpoints
        for k, (P, Q) in enumerate(self.pieces):
            lo = edges[k]
            if _holds(D, P - lo * Q, "<=", d):  # already below at the left end of this piece
                return D.result(lo)
            hi = self.breakpoints[k] if k < len(self.breakpoints) else None
            if _holds(D, Q, ">", D.zero):
                g = D.normal((P - d) / Q)
                if hi is None or _holds(D, g, "<=", hi):
                    return D.result(g)
        return _infinity(D)

    def epsilon_for(self, delta: Any) -> sympy.Expr:
        """The least ε ≥ 0 such that K is (ε, delta)-LDP: log max(1, gamma_for(delta))."""
        g = self.gamma_for(delta)
        if is_infinite(g):
            return sympy.oo
        return _log(g) if _holds(self.domain, self.domain.convert(g), ">", self.domain.one) else sympy.Integer(0)

    def to_sympy(self, gamma: sympy.Symbol | None = None) -> sympy.Piecewise:
        """The profile as a sympy ``Piecewise`` in ``gamma``."""
        gamma = gamma or sympy.Symbol("gamma", nonnegative=True)
        args = []
        for k, (P, Q) in enumerate(self.pieces):
            expr = _sympy(P) - gamma * _sympy(Q)
            cond = gamma <= _sympy(self.breakpoints[k]) if k < len(self.breakpoints) else True
            args.append((expr, cond))
        return sympy.Piecewise(*args)


def _holds(D: Domain[Any], a: Any, op: str, b: Any) -> bool:
    """``a op b`` decided in the number domain ``D`` (QQ: the fmpq operators); UndecidedError if it is not."""
    if D is QQ:
        return bool(_QQ_OPS[op](a, b))
    truth = D.compare(a, op, b)
    if truth is Truth.UNKNOWN:
        raise UndecidedError(f"{D!r}: cannot decide {a} {op} {b}")
    return truth is Truth.TRUE


_QQ_OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">": operator.gt, ">=": operator.ge}


def _pair_lines(p: Any, q: Any, D: Domain[Any] = QQ) -> Any:
    """The lines (P(A_k), Q(A_k)) of E_γ(p‖q): A_k = top-k outputs by likelihood ratio p/q (the outputs with
    q(y) = 0 first, by decreasing p(y)), in the number domain ``D``."""
    zero = D.zero
    keys = [(0, p[y]) if _holds(D, q[y], "==", zero) else (1, p[y] / q[y]) for y in range(len(p))]

    def before(a: int, b: int) -> int:  # decreasing value within a group; ties keep their order
        (ga, va), (gb, vb) = keys[a], keys[b]
        if ga != gb:
            return ga - gb
        return -1 if _holds(D, va, ">", vb) else (1 if _holds(D, va, "<", vb) else 0)

    order = sorted(range(len(p)), key=functools.cmp_to_key(before))
    P, Q, lines = zero, zero, [(zero, zero)]
    for y in order:
        if keys[y][0] == 1 and _holds(D, p[y], "==", zero):
            break
        P, Q = P + p[y], Q + q[y]
        lines.append((P, Q))
    return lines


def privacy_profile(K: KernelInput) -> PrivacyProfile | SymbolicPrivacyProfile:
    """The exact privacy profile δ(γ) = η_{E_γ}(K) of a rational kernel (see :class:`PrivacyProfile`).

    Cost O(N² M log M) integer work: a sweep over the rows, vectorized over the partner rows, builds
    every pair's top-k points (one integer sort per row) and keeps only those not proven under the
    upper hull found so far (:func:`exactdp.measures.profile_front.profile_front`).  Without a proven int64 route (numerators or denominators near 2^63, object
    arrays) every top-k line of every pair goes to :func:`profile_from_lines` in ``fmpq``.  A kernel with
    irrational constant entries takes the same lines and hull in the ball domain RB (every comparison of
    likelihood ratios and hull turns certified; :class:`~exactdp.errors.UndecidedError` when one cannot be).

    >>> from exactdp.mechanisms import randomized_response
    >>> prof = privacy_profile(randomized_response(2, 3))
    >>> prof.breakpoints, prof(2), prof.gamma_for(0), prof.epsilon_for("1/4")
    ((1/3, 3), 1/4, 3, log(2))
    """
    K = as_kernel(K)
    D = unify((), "privacy_profile", least=kernel_domain_name(K))  # the one domain choice (None: SR)
    if D is None:  # SR: δ(γ) = η_{E_γ}(K) on the kernel's region and γ ≥ 1, a closed form in γ
        from exactdp.symbolic.closedforms import SymbolicPrivacyProfile
        from exactdp.symbolic.region import assuming

        gamma = sympy.Symbol("gamma", positive=True)
        with assuming(gamma >= 1):
            value = eta_hockey_stick_witness(K, gamma)[0]
        return SymbolicPrivacyProfile(value, gamma)
    if D is not QQ:  # RB: irrational constant entries
        rows = [[D.convert(v) for v in row] for row in K.rows]
        return profile_from_lines((line for i in range(K.N) for j in range(K.N) if i != j
                                   for line in _pair_lines(rows[i], rows[j], D)), D)
    front = profile_front(K.int_rows())
    if front is not None:
        return profile_from_lines((fmpq(pa, dp), fmpq(qa, dq)) for qa, dq, pa, dp in front)
    if K.N == 1:
        return profile_from_lines([(ZERO, ZERO)])
    return profile_from_lines(line for i in range(K.N) for j in range(K.N) if i != j
                              for line in _pair_lines(K[i], K[j]))


def profile_from_lines(lines: Any, D: Domain[Any] = QQ) -> PrivacyProfile:
    """The upper envelope over γ ≥ 0 of the lines γ ↦ P − γQ given as pairs ``(P, Q)`` in the number domain
    ``D`` (QQ: ``fmpq``).

    Shared by :func:`privacy_profile` and the n-fold products of :mod:`exactdp.measures.tensor`.
    Include the empty set's line (0, 0) (every :func:`_pair_lines` list starts with it).
    """
    pts = _highest_per_slope(lines, D)  # (Q, P) by increasing Q, the largest P of each Q
    # upper envelope of lines P - γQ for γ ≥ 0: upper hull of points (Q, P) from min Q to max P
    hull: list[Any] = []
    for Q, P in pts:
        while len(hull) >= 2 and _drop(hull, (Q, P), D):
            hull.pop()
        hull.append((Q, P))
    # keep the part of the hull up to the highest point (larger Q with lower P is never active for γ ≥ 0)
    top = 0
    for k in range(1, len(hull)):  # the highest P, the smallest Q among equals (the first: Q increases)
        if _holds(D, hull[k][1], ">", hull[top][1]):
            top = k
    hull = hull[: top + 1]
    # pieces from γ = 0 (top point) to γ = ∞ (smallest Q)
    chain = list(reversed(hull))
    pieces = [(D.normal(P), D.normal(Q)) for Q, P in chain]
    breakpoints = []
    for (P1, Q1), (P2, Q2) in zip(pieces, pieces[1:]):
        breakpoints.append(D.normal((P1 - P2) / (Q1 - Q2)))
    return PrivacyProfile(tuple(breakpoints), tuple(pieces), D)


def _highest_per_slope(lines: Any, D: Domain[Any]) -> list[Any]:
    """The points (Q, P) of the lines sorted by Q, keeping the largest P of each Q (QQ: a dict on the exact
    values; else a certified sort by Q, then by decreasing P, and the first point of each run of equal Q)."""
    if D is QQ:
        best: dict[Any, Any] = {}
        for P, Q in lines:
            if best.get(Q, None) is None or P > best[Q]:
                best[Q] = P
        return sorted(best.items())

    def order(a: Any, b: Any) -> int:
        for x, y, sign in ((a[0], b[0], 1), (b[1], a[1], 1)):
            if _holds(D, x, "<", y):
                return -sign
            if _holds(D, x, ">", y):
                return sign
        return 0

    pts = sorted(((Q, P) for P, Q in lines), key=functools.cmp_to_key(order))
    return [pt for k, pt in enumerate(pts) if k == 0 or not _holds(D, pts[k - 1][0], "==", pt[0])]


def _drop(hull: Any, new: Any, D: Domain[Any] = QQ) -> bool:
    """Pop the last hull point if it lies on or below the segment from hull[-2] to ``new``."""
    (q0, p0), (q1, p1), (q2, p2) = hull[-2], hull[-1], new
    # cross product (q1-q0, p1-p0) x (q2-q0, p2-p0) >= 0 means hull[-1] is not strictly above
    return _holds(D, (q1 - q0) * (p2 - p0) - (p1 - p0) * (q2 - q0), ">=", D.zero)


# -- PML -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Leakage:
    """A leakage value: the exact ratio and its natural log (nats)."""

    ratio: object
    nats: sympy.Expr

    def __str__(self) -> str:
        return f"log({self.ratio}) = {self.nats}"


def pml(K: KernelInput, P: Any, y: Any) -> Leakage:
    r"""ℓ_{K×P}(X→y) = log max_{x∈supp P} K(y|x) / (K∘P)(y)  ([G] Prop. 1, D-8).

    Raises:
        ParameterError: output y has probability 0 under P (PML is undefined there).

    >>> from exactdp.mechanisms import randomized_response
    >>> print(pml(randomized_response(2, 3), ["1/2", "1/2"], 0))
    log(3/2) = log(3/2)
    """
    K = as_kernel(K)
    P = as_distribution(P)
    if len(P) != K.N:
        raise ShapeError(f"P: has {len(P)} entries, the kernel has N = {K.N} inputs")
    if not isinstance(y, int) or not 0 <= y < K.M:
        raise ParameterError(f"y: must be an output index in [0, {K.M - 1}], got {y!r}")
    out = K.apply(P)[y]
    if out == 0:
        raise ParameterError(f"y: output {y} has probability 0 under P; its PML is undefined")
    top = max(K[x, y] for x in P.support)
    ratio = top / out
    return Leakage(ratio, _log(ratio))


def _check_c(c: Any, N: int) -> Any:
    """c as an exact value (``fmpq``, or a sympy expression when irrational or parametric) checked in
    (0, 1/N] (D-9): a rational exactly, an irrational constant by certified signs (UndecidedError when one
    cannot be decided); a c with parameters is constrained on its region instead (:func:`pml_domain`)."""
    c, symbolic = to_exact(c, "c")
    if symbolic and c.free_symbols:
        return c
    if symbolic:
        D = RB("c")
        checks = (D.compare(c, ">", D.zero), D.compare(c, "<=", sympy.Rational(1, N)))
        if Truth.UNKNOWN in checks:
            raise UndecidedError(f"c: cannot decide whether {c} lies in (0, 1/{N}] (certified signs undecided)")
        inside = checks == (Truth.TRUE, Truth.TRUE)
    else:
        inside = 0 < c <= fmpq(1, N)
    if not inside:
        raise ParameterError(f"c: must lie in (0, 1/N] = (0, 1/{N}], got {c} (c -> 0 is LDP: use ldp_ratio)")
    return c


def pml_ratio_witness(K: KernelInput, c: Any) -> Any:
    r"""``(e^{ε*}, y, prior)``: the (ε,c)-PML level with the worst output and a worst prior in Q_X(c).

    The inner minimum of (K∘P)(y) over Q_X(c) = {P : min_x P(x) ≥ c} is attained at a vertex
    c·𝟙 + (1−Nc)e_{x₀} with x₀ an argmin of column y (D-9), so
    e^{ε*} = max_y max_x K(y|x) / (c S_y + (1−Nc) min_x K(y|x)).
    """
    K = as_kernel(K)
    D, c = _pml_domain_of(K, c)
    ratio, y, _, x0 = D.run("pml_ratio", pml_ratio_in, K, c)
    if isinstance(D, SR) or is_infinite(ratio):  # SR: no single witness prior over the region
        return ratio, y, None
    symbolic = not isinstance(c, fmpq)  # RB: an irrational c
    zero = sympy.Integer(0) if symbolic else ZERO
    prior = Distribution.from_exact_probs(tuple(c + (1 - K.N * c if x == x0 else zero) for x in range(K.N)),
                                          symbolic)
    return ratio, y, prior


def _pml_domain_of(K: Kernel, c: Any) -> tuple[Domain[Any], object]:
    """The number domain of e^{C(K,Q_X(c))} and c in it: c checked in (0, 1/N] (:func:`_check_c`), then the one
    domain choice (:func:`exactdp.measures.input_domain.input_domain`) over the kernel and c — QQ, RB (an
    irrational constant entry or c) or SR (a parametric kernel or c: a closed form on the kernel's region with
    0 < c <= 1/N, :func:`pml_domain`)."""
    c = _check_c(c, K.N)
    D = input_domain("pml_ratio", (c,), kernel=K, sr=lambda: pml_domain(K, c)[0])
    if isinstance(D, SR):
        from exactdp.numbers.reader import as_expr  # deferred: start-up

        return D, as_expr(_sympy(c))
    return D, c


def pml_ratio_in(D: Domain[Any], K: Kernel, c: Any, observe: Observer | None = None) -> Any:
    """``(e^{C(K,Q_X(c))}, y, x_max, x_0)`` in the number domain ``D``: :func:`column_ratio_in` with the
    denominator c S_y + (1 − Nc) min_x K(y|x) (D-9); c exact (checked by the caller)."""
    return column_ratio_in(D, K, _pml_denominator(c, K.N), observe)


def pml_domain(K: Kernel, c: Any) -> tuple[Domain[Any], sympy.Expr]:
    """The SR domain of e^{C(K,Q_X(c))} for a parametric kernel or c: the kernel's region with c's own symbols
    positive and 0 < c <= 1/N (D-9), and c as a sympy expression."""
    from exactdp.numbers.reader import as_expr
    from exactdp.symbolic.closedforms import sr_domain
    from exactdp.symbolic.region import kernel_region

    C = as_expr(qq_to_sympy(c) if isinstance(c, fmpq) else c)
    region = kernel_region(K)
    extra = [s > 0 for s in C.free_symbols - set(region.variables)]
    if C.free_symbols:
        extra += [C <= sympy.Rational(1, K.N), C > 0]
    return sr_domain(region.with_conditions(*extra) if extra else region), C


@QQ.fast_path("pml_ratio")
def _pml_max(D: Domain[Any], K: Kernel, c: fmpq) -> Any:
    """QQ's route of :func:`pml_ratio_witness`: ``(e^{ε*}, y, x_max, x₀)`` for a rational kernel and a checked
    c, the first worst output with its argmax and argmin rows.

    The columns that can attain the maximum come from the float64 filter
    (:func:`exactdp.measures.column_ratio.pml_candidates`; every column when it does not apply); each is then
    evaluated exactly in fmpq, r_y = (a_hi/d_hi) / (c S_y + (1 − Nc) a_lo/d_lo), with its exact column sum S_y
    (:func:`exactdp.numbers.linalg.column_sums`: a product tree, reduced once and kept with the kernel, so the
    fmpq operations here meet one large denominator and small ones: gcds of linear cost)."""
    if K.N * K.M <= SMALL_KERNEL_ENTRIES:
        return _pml_max_small(K, c)
    R = K.int_rows()
    A, d = R.A, R.d
    fast = pml_candidates(R, int(c.p), int(c.q))
    if fast is not None:
        cols, amax, amin = fast
    else:
        amax, amin = column_extremes(R)
        cols = [y for y in range(K.M) if A[int(amax[y]), y] != 0]  # all-zero columns: output never occurs
        amax, amin = amax[cols], amin[cols]
    rest = 1 - K.N * c
    best, arg, x1, x0 = None, None, None, None
    for y, S_y, xh, xl in zip(cols, column_sums(R, cols), amax.tolist(), amin.tolist()):
        r = fmpq(int(A[xh, y]), int(d[xh])) / (c * S_y + rest * fmpq(int(A[xl, y]), int(d[xl])))
        if best is None or r > best:
            best, arg, x1, x0 = r, y, xh, xl
    return best, arg, x1, x0


#: kernels with at most this many entries take :func:`_pml_max_small`: on a few entries the exact loop costs less
#: than building the float filter's arrays and the integer form's views
SMALL_KERNEL_ENTRIES = 64


def _pml_max_small(K: Kernel, c: fmpq) -> tuple[fmpq, int, int, int]:
    """:func:`_pml_max` on a small rational kernel, every column in fmpq: the same ``(e^{ε*}, y, x_max, x₀)``
    (D-9) — each column's first exact argmax and argmin rows, its exact sum S_y, the first worst column; an
    all-zero column (an output that never occurs) is skipped, as there."""
    rows = K.rows
    rest = 1 - K.N * c
    best: Any = None
    arg = x1 = x0 = 0
    for y in range(K.M):
        hi = lo = total = rows[0][y]
        xh = xl = 0
        for x in range(1, K.N):
            v = rows[x][y]
            total += v
            if v > hi:
                hi, xh = v, x
            elif v < lo:
                lo, xl = v, x
        if hi == 0:
            continue
        r = hi / (c * total + rest * lo)
        if best is None or r > best:
            best, arg, x1, x0 = r, y, xh, xl
    return best, arg, x1, x0


def pml_ratio(K: KernelInput, c: Any) -> Exact:
    r"""e^{ε*}, ε* = the least ε such that K is (ε,c)-PML = sup_{P∈Q_X(c)} max_y ℓ_{K×P}(X→y)  ([G] Def. 2).

    c must lie in (0, 1/N]; c → 0 recovers ``ldp_ratio``.  Exact ``fmpq``.

    >>> from exactdp.mechanisms import grosse_binary_mechanism
    >>> pml_ratio(grosse_binary_mechanism(3, "1/4"), "1/4")
    3
    """
    K = as_kernel(K)
    D, c = _pml_domain_of(K, c)
    return D.run("pml_ratio", pml_ratio_in, K, c)[0]  # no prior built


def _pml_denominator(c: Any, N: int) -> Any:
    """The denominator of e^{C(K,Q_X(c))}: c S_y + (1 − Nc) min_x K(y|x) (D-9), for an exact c (rational or a
    sympy expression)."""
    C = qq_to_sympy(c) if isinstance(c, fmpq) else c

    def denominator(column: Any, lo: Any) -> Any:
        return C * sum(column, sympy.Integer(0)) + (1 - N * C) * lo

    return denominator


def pml_epsilon(K: KernelInput, c: Any) -> sympy.Expr:
    """The (ε,c)-PML level ε* = log pml_ratio(K, c) in nats."""
    return _log(pml_ratio(K, c))


def max_leakage_ratio(K: KernelInput) -> Exact:
    """e^{L(X→Y)} = Σ_y max_x K(y|x)."""
    K = as_kernel(K)  # QQ: the integer route below; SR: a closed form on the kernel's region; RB: certified
    return input_domain("max_leakage_ratio", kernel=K).run("max_leakage_ratio", max_leakage_in, K)


@QQ.fast_path("max_leakage_ratio")
def _max_leakage_qq(D: Domain[Any], K: Kernel) -> fmpq:
    """QQ's route of :func:`max_leakage_ratio` on the integer form: each column's exact argmax, the entries
    summed per row and over the rows' denominators (:func:`exactdp.numbers.linalg.weighted_row_sum`); a value of
    the kernel, computed once and kept with its integer form."""
    R = K.int_rows()
    value = R._views.get("max_leakage_ratio")
    if value is None:
        value = weighted_row_sum(R, column_extreme(R, "max"), np.arange(K.M))
        R._views["max_leakage_ratio"] = value
    return value


def max_leakage(K: KernelInput) -> sympy.Expr:
    """Maximal leakage L(X→Y) = log Σ_y max_x K(y|x) in nats (Issa et al.).

    >>> max_leakage([["1/2", "1/2"], ["0", "1"]])
    log(3/2)
    """
    return _log(max_leakage_ratio(K))


def max_leakage_in(D: Domain[Any], K: Kernel) -> Any:
    """Σ_y max_x K(y|x) in the number domain ``D`` (the maximum of each column decided by ``D``)."""
    return D.result(D.total([D.max([D.convert(r[y]) for r in K.rows])[0] for y in range(K.M)]))
