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
  bisection on the ratios for a binomial class) is a lower bound of γ*.  Start at γ = 1; search;
  if δ_n(γ) ≤ δ then γ = γ*; otherwise move to γ_c and search again.  A composition whose root was
  passed cannot be the maximizer above δ again, so this stops after at most one search per maximizing
  composition met — in practice two or three searches, not a scan — with γ* an exact rational and
  ε = log γ*.  If the maximizing composition's P-only mass exceeds δ there is no finite ε.
* **δ at an irrational e^ε** (:func:`delta_tensor_power_eps_search`): bracket e^ε by rationals
  γ_lo < e^ε < γ_hi (a certified ball), take the supporting lines at both ends; if they coincide δ_n is
  that line on the bracket (a convex function touching a line at two points equals it in between) and
  δ_n(e^ε) = A − B e^ε.  Otherwise evaluate at the lines' intersection, decide its side of e^ε by a
  certified comparison, and repeat on that side — finitely many pieces, usually one or two steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from flint import fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.kernels import as_kernel
from exactdp.measures.tensor_search import MAX_EVALUATIONS, TensorSearch, check_n
from exactdp.numbers.qq import ONE, ZERO, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB
from exactdp.numbers.truth import Sign

#: cap on the profile evaluations of one inversion (each one a pair-type search); two to five are typical
MAX_STEPS = 64


@dataclass(frozen=True)
class TensorEpsilon:
    r"""The least ε = log γ* with δ_n(γ*) ≤ δ for the n-fold product, exactly.

    ``gamma`` = γ* = e^ε (exact rational; None when no finite ε reaches δ); ``piece`` = (A, B) with
    δ_n(γ) = A − γB just right of γ* (so γ* = (A − δ)/B unless γ* = 1); ``composition`` = a maximizing
    pair type at γ* (``(factor, x, x', count)`` as in ``TensorWitness``); ``evaluations`` = profile
    evaluations (pair-type searches) used.
    """

    delta: fmpq
    gamma: fmpq | None
    piece: tuple[fmpq, fmpq]
    composition: tuple
    evaluations: int

    @property
    def epsilon(self) -> sympy.Expr:
        """ε = log γ* (exact sympy; ``oo`` when δ is below the floor of the profile)."""
        return sympy.oo if self.gamma is None else sympy.log(qq_to_sympy(self.gamma))

    def __str__(self) -> str:
        return str(self.epsilon)


def _delta_level(delta) -> fmpq:
    d = to_qq(delta, "delta")
    if not ZERO <= d <= ONE:
        raise ParameterError(f"delta: must lie in [0, 1], got {d}")
    return d


def epsilon_tensor_power(K, n: int, delta, *, max_evaluations: int = MAX_EVALUATIONS) -> TensorEpsilon:
    r"""The least ε ≥ 0 such that the n-fold composition K^{⊗n} is (ε, δ)-LDP, exactly (δ_n(e^ε) ≤ δ).

    Newton's method from the left on the convex piecewise-linear profile (module docstring): a few
    pair-type searches, each under the cost guard; the answer is ε = log γ* with γ* an exact rational.

    >>> from exactdp.mechanisms import randomized_response
    >>> r = epsilon_tensor_power(randomized_response(2, 3), 2, "1/4")
    >>> r.gamma, r.epsilon, r.evaluations
    (5, log(5), 2)

    Raises:
        ParameterError: δ outside [0, 1], n < 1, or more than ``MAX_STEPS`` evaluations.
    """
    d = _delta_level(delta)
    search = TensorSearch([(as_kernel(K), check_n(n))], max_evaluations=max_evaluations)
    g = ONE  # invariant: γ* ≥ g (1, or the root of a composition whose E_γ never exceeds δ_n)
    for step in range(1, MAX_STEPS + 1):
        w = search.witness(g)
        if not w.counts:  # identical rows: δ_n = 0 for γ ≥ 1
            return TensorEpsilon(d, ONE, (ZERO, ZERO), (), step)
        if w.value <= d:  # δ_n(g) ≤ δ at a lower bound of γ*: g = γ*
            return TensorEpsilon(d, g, search.piece(w.counts, g), w.composition, step)
        root = search.gamma_for(w.counts, d)  # δ_n ≥ E_γ(this composition) > δ below its root
        if root is None:  # this composition alone stays above δ for every γ: no finite ε
            return TensorEpsilon(d, None, search.piece(w.counts, g), w.composition, step)
        g = max(root, g)
    raise ParameterError(f"epsilon_tensor_power: more than {MAX_STEPS} profile evaluations (n = {n})")


def delta_tensor_power_eps_search(K, n: int, gamma: sympy.Expr, *,
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

    def line(g: fmpq):
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
