r"""Certified evaluation for the estimation layer, on :mod:`exactdp.numbers.rb` (domain RB).

:func:`arb_eval` encloses an exact value (``fmpq``, sympy expressions with ``log``, ``exp``, ``sqrt``, ``Max``,
an :class:`~exactdp.numbers.rb.RB`) in an ``arb`` ball at a scoped precision; a ball passed in (the certified
integrals of :mod:`exactdp.theory.bernoulli`) is returned as it is.  :func:`compare` and :func:`rounds_to`
answer with :class:`~exactdp.numbers.truth.Truth`: on exact values they use RB's precision-doubling and exact
tie-breaks; on balls they decide from the ball and say UNKNOWN when it is too wide.
"""

from __future__ import annotations

from flint import arb, ctx, fmpq

from exactdp.numbers.qq import parse_rational_string
from exactdp.limits import require
from exactdp.numbers.rb import RB, _arb_to_fmpq, arb_ball
from exactdp.numbers.truth import Truth

DEFAULT_PREC = 128


def arb_eval(value, prec: int = DEFAULT_PREC) -> arb:
    """A ball containing the exact value of ``value`` (an arb ball is returned unchanged).

    >>> import sympy
    >>> arb_eval(sympy.log(2), 64) > arb("0.6931"), arb_eval(sympy.log(2), 64) < arb("0.6932")
    (True, True)
    """
    if isinstance(value, arb):
        return value
    if isinstance(value, RB):
        return value.ball(prec)
    return arb_ball(value, prec)



def compare(a, b, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of a ≤ b.  Exact values: RB's certified decision (precision doubling, exact tie-breaks), so an
    equality such as log 4 / 2 ≤ log 2 is TRUE.  Balls: TRUE/FALSE when ``prec``-bit balls decide, else UNKNOWN."""
    if not isinstance(a, arb) and not isinstance(b, arb):
        return RB(a) <= RB(b)
    x, y = arb_eval(a, prec), arb_eval(b, prec)
    with ctx.workprec(prec):
        d = y - x
    if d >= 0:
        return Truth.TRUE
    if d < 0:
        return Truth.FALSE
    return Truth.UNKNOWN


def rounds_to(x, printed: str, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of "x rounds to the printed decimal" (round-half-up window [p − u/2, p + u/2)).

    ``printed`` is a decimal string such as ``"0.0444"``; u is one unit of its last digit.  TRUE when x is
    certified inside the window, FALSE when certified outside, UNKNOWN otherwise.

    >>> import sympy
    >>> rounds_to(sympy.log(2), "0.693"), rounds_to(sympy.log(2), "0.694")
    (<Truth.TRUE: 'true'>, <Truth.FALSE: 'false'>)
    """
    p = parse_rational_string(printed, "printed")
    digits = len(printed.split(".")[1]) if "." in printed else 0
    require("max_digits", digits, "digits of the printed decimal")
    half = fmpq(1, 2 * 10**digits)
    lo, hi = p - half, p + half
    if not isinstance(x, arb):
        v = RB(x)
        return (v >= RB(lo)) & (v < RB(hi))
    with ctx.workprec(prec):
        if x >= arb(lo) and x < arb(hi):
            return Truth.TRUE
        if x < arb(lo) or x >= arb(hi):
            return Truth.FALSE
    return Truth.UNKNOWN


def arb_str(x, digits: int = 6, prec: int = DEFAULT_PREC) -> str:
    """``x`` to ``digits`` significant digits ("0.0444"), for display (notebooks, figures, tables).

    Exact inputs (sympy expressions, rationals, :class:`RB`) go through the project's one user-facing
    evaluator, :func:`exactdp.numbers.digits.evalf`, so every printed digit is guaranteed.  A raw arb
    ball prints its guaranteed rounding when the ball determines it, else its midpoint.  Decisions use
    :func:`compare` / :func:`rounds_to`, never these strings.
    """
    from exactdp.numbers import digits as _digits

    if not isinstance(x, arb):
        return _digits.evalf(x, digits)
    v = arb_eval(x, prec)
    guaranteed = _digits.ball_digits(v, digits, prec)
    if guaranteed is not None:
        return guaranteed
    with ctx.workprec(prec):
        return v.mid().str(digits, radius=False)


def arb_fixed(x, decimals: int = 4, prec: int = DEFAULT_PREC) -> str:
    """The ball's midpoint rounded (half up, exactly) to ``decimals`` places: ``"0.0062"``, ``"1.000"``.

    For display only, like :func:`arb_str`; the rounding of the exact dyadic midpoint is done in integers.
    """
    require("max_digits", decimals, f"decimals = {decimals}")
    v = arb_eval(x, prec)
    q = _arb_to_fmpq(v.mid())  # refuses a midpoint whose exact value would be a huge rational
    scaled = q * 10**decimals
    n = int((scaled + fmpq(1, 2)).floor())
    sign, n = ("-", -n) if n < 0 else ("", n)
    whole, frac = divmod(n, 10**decimals)
    return f"{sign}{whole}" + (f".{frac:0{decimals}d}" if decimals else "")
