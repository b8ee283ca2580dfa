r"""Certified brackets of a sign change: where does a transcendental comparison flip?

Claims such as "φ(ε,0) < 4ε² only for ε > 0.22398" (docs/claims.md F-A3) or "Cor 1 beats
Zamanlooy–Asoodeh iff Nc > 1/113" (G-29) are crossovers of two exact expressions.  :func:`certified_bracket`
bisects on exact rationals: every sign of f(x) is certified (:meth:`RB.sign`), so the result
[lo, hi] with f(lo), f(hi) of opposite signs contains a root of the continuous f (intermediate value
theorem).  If f(mid) is exactly 0 the bracket closes on it; if its sign is undecided at the cap,
bisection stops and the bracket found so far is returned (still certified, just wider).

Not established: that the root is unique in the initial interval (state monotonicity separately).

>>> import sympy
>>> b = certified_bracket(lambda e: 1 - sympy.exp(-e) - 4 * e**2, "1/10", "1/2", digits=5)
>>> b.evalf(5)
'0.22398'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flint import fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.numbers.digits import round_significant
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.rb import RB
from exactdp.numbers.truth import Sign


@dataclass(frozen=True)
class Bracket:
    """A root of f lies in [lo, hi]: f(lo) and f(hi) have the certified signs ``sign_lo``, ``sign_hi``."""

    lo: fmpq
    hi: fmpq
    sign_lo: Sign
    sign_hi: Sign
    exact: bool = False  # lo == hi is an exact root (f(lo) = 0 certified)

    @property
    def width(self) -> fmpq:
        return self.hi - self.lo

    def evalf(self, digits: int) -> str:
        """The root to ``digits`` significant digits, when both ends of the bracket round alike."""
        a, b = round_significant(self.lo, digits), round_significant(self.hi, digits)
        if a != b:
            raise UndecidedError(
                f"bracket [{self.lo}, {self.hi}] does not determine {digits} digits ({a} vs {b})"
            )
        return a


def _sign(f, x: fmpq, max_prec) -> Sign | None:
    return RB(f(qq_to_sympy(x))).sign(max_prec=max_prec).sign


def certified_bracket(
    f: Callable,
    lo,
    hi,
    *,
    width=None,
    digits: int | None = None,
    max_prec: int | None = None,
    max_steps: int = 400,
) -> Bracket:
    """Bisect [lo, hi] (exact rationals) for a sign change of ``f`` (sympy-valued, exact at rationals).

    Stops when ``hi − lo ≤ width``, or when the bracket determines ``digits`` significant digits, or
    after ``max_steps`` halvings, or when a midpoint sign is undecided at the cap.

    Raises:
        ParameterError: f(lo) and f(hi) are not certified to have opposite signs.
    """
    lo, hi = to_qq(lo, "lo"), to_qq(hi, "hi")
    if not lo < hi:
        raise ParameterError(f"lo, hi: need lo < hi, got [{lo}, {hi}]")
    w = to_qq(width, "width") if width is not None else None
    s_lo, s_hi = _sign(f, lo, max_prec), _sign(f, hi, max_prec)
    for x, s in ((lo, s_lo), (hi, s_hi)):
        if s is Sign.ZERO:
            return Bracket(x, x, s, s, exact=True)
    if s_lo is None or s_hi is None or s_lo == s_hi:
        raise ParameterError(f"f: no certified sign change on [{lo}, {hi}] (signs {s_lo}, {s_hi})")
    for _ in range(max_steps):
        if w is not None and hi - lo <= w:
            break
        if digits is not None and round_significant(lo, digits) == round_significant(hi, digits):
            break
        mid = (lo + hi) / 2
        s = _sign(f, mid, max_prec)
        if s is None:
            break
        if s is Sign.ZERO:
            return Bracket(mid, mid, s, s, exact=True)
        if s == s_lo:
            lo = mid
        else:
            hi = mid
    return Bracket(lo, hi, s_lo, s_hi)
