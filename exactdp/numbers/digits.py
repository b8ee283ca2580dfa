r"""Guaranteed decimal digits of certified reals: :func:`evalf` and exact rounding.

A value is enclosed in balls of increasing precision (:class:`~exactdp.numbers.rb.RB`) until both
endpoints of the ball round, half-to-even, to the same ``digits``-digit decimal; that decimal is then
the correctly rounded value of the exact number.  Balls are first scaled by a power of ten so that
values like 10^{−3·10⁷} or e^{5000} never need huge rationals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import arb, ctx, fmpq, fmpz

from exactdp.errors import ParameterError, UndecidedError
from exactdp.limits import limit, require
from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.infinity import INF
from exactdp.numbers.qq import to_qq
from exactdp.numbers.rb import (
    EXACT_LAYER_PREC,
    START_PREC,
    arb_eval,
    arb_exponent_bits,
    arb_to_fmpq,
    exact_bits_cap,
    to_rb,
    ball_endpoints,
    ball_work,
    current_cap,
    precisions,
)
from exactdp.numbers.truth import Sign

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up (analyze prints its levels without it)

_LOG10_2 = fmpq(30103, 100000)  # log10(2) to within 1e-6; only a starting guess, fixed up exactly


def _decimal_exponent(q: fmpq) -> int:
    """floor(log10 q) for a rational q > 0, exactly (no decimal string conversion of huge integers)."""
    bits = int(q.p).bit_length() - int(q.q).bit_length()
    e = int((_LOG10_2 * bits).floor())
    while _pow10(e) > q:
        e -= 1
    while _pow10(e + 1) <= q:
        e += 1
    return e


def _pow10(k: int) -> fmpq:
    return fmpq(10**k) if k >= 0 else fmpq(1, 10 ** (-k))


def _round_parts(q: fmpq, digits: int) -> tuple[bool, int, int]:
    """(negative, m, e): q ≈ ±m·10^{e−digits+1} with 10^{digits−1} ≤ m < 10^digits, half-to-even."""
    neg = q < 0
    a = -q if neg else q
    e = _decimal_exponent(a)
    scaled = a / _pow10(e - digits + 1)  # in [10^(digits-1), 10^digits)
    m = round(Fraction(int(scaled.p), int(scaled.q)))
    if m == 10**digits:
        m //= 10
        e += 1
    return neg, m, e


def _check_digits(digits: object, name: str = "digits") -> int:
    """A positive integer number of digits within the ``max_digits`` limit (refused before any work)."""
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 1:
        raise ParameterError(f"{name}: must be a positive integer, got {digits!r}")
    require("max_digits", digits, f"{name} = {digits}")
    return digits


def _format(neg: bool, m: int, e: int, digits: int) -> str:
    s = fmpz(m).str()  # flint's conversion: no Python int->str digit limit (4300) for 10^5 digits
    if -5 <= e < digits:
        if e >= 0:
            body = s[: e + 1] + ("." + s[e + 1 :] if len(s) > e + 1 else "")
        else:
            body = "0." + "0" * (-e - 1) + s
    else:
        body = s[0] + ("." + s[1:] if len(s) > 1 else "") + f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return ("-" if neg else "") + body


def round_significant(q: Any, digits: int) -> str:
    """An exact rational rounded half-to-even to ``digits`` significant digits, as a decimal string."""
    _check_digits(digits)
    q = to_qq(q)
    if q == 0:
        return "0"
    return _format(*_round_parts(q, digits), digits)


def _scaled_parts(b: arb, digits: int, prec: int) -> tuple[bool, int, int] | None:
    """Rounding parts of a ball not containing 0, or None when the two endpoints round differently.

    The ball is first divided by 10^k (k from a rough log10) so that its endpoints are moderate
    rationals even for values like 10^{−3·10⁷}.
    """
    with ctx.workprec(prec):
        a = abs(b)
        l10 = a.log() / arb(10).log()
        if not l10.is_finite():
            return None
        lower = arb_to_fmpq(l10.lower())
        k = int(lower.floor()) - digits - 2
        y = a / (arb(10) ** k if k >= 0 else 1 / arb(10) ** (-k))
        ends = ball_endpoints(y)
    if ends is None:
        return None
    lo, hi = ends
    if lo <= 0:
        return None
    p_lo, p_hi = _round_parts(lo, digits), _round_parts(hi, digits)
    if p_lo != p_hi:
        return None
    _, m, e = p_lo
    return b < 0, m, e + k


def ball_digits(b: arb, digits: int, prec: int) -> str | None:
    """The correctly rounded ``digits``-digit decimal of every point of ball ``b``, or None when the ball
    (at working precision ``prec``) is too wide to determine it or contains 0."""
    _check_digits(digits)
    if not b.is_finite() or b.contains(0):
        return None
    parts = _scaled_parts(b, digits, prec)
    return None if parts is None else _format(*parts, digits)


def evalf(x: Any, digits: int = 30, *, max_prec: int | None = None) -> str:
    """The value of an exact number to ``digits`` significant digits, every printed digit guaranteed.

    The value is enclosed in balls of increasing precision until both endpoints round (half-to-even)
    to the same ``digits``-digit decimal; that string is then the correctly rounded value.  Exact
    rationals are rounded exactly; ``sympy.oo`` gives ``"inf"``; an exact zero gives ``"0"``.

    Args:
        x: an exact number (fmpq, int, string, sympy expression such as ``kl(P, Q)`` or
            ``ldp_epsilon(K)``) or an :class:`RB`.
        digits: significant digits (≥ 1).
        max_prec: precision cap in bits (default: the scoped cap, 8192).
    Raises:
        UndecidedError: the digits could not be certified within the cap (the message says so).

    >>> import sympy
    >>> evalf(sympy.log(3), 25)
    '1.098612288668109691395245'
    >>> evalf(sympy.exp(5000), 10)
    '2.967628384e+2171'
    """
    _check_digits(digits)
    cap = current_cap(max_prec)  # refuses a cap above the max_prec limit before any work
    start = max(START_PREC, 1 << (int(digits * 3.33) + 16).bit_length())
    require("max_prec", start, f"working precision for {digits} digits")
    if x is INF:
        return "inf"
    if is_sympy(x) and x in (sympy.oo, -sympy.oo):
        return "inf" if x is sympy.oo else "-inf"
    if isinstance(x, (fmpq, fmpz, int)) and not isinstance(x, bool):  # a rational: rounded exactly, no sympy
        return round_significant(x, digits)
    x = to_rb(x)
    q = x.rational()
    if q is not None:
        return round_significant(q, digits)
    require("max_work", ball_work(x.weight, start),
            f"{x.weight} transcendental operation(s) at {start} bits for {digits} digits")
    for prec in precisions(max(cap, start), start=start):
        if prec > start and not x.affordable(prec):
            break
        b = x.ball(prec)
        if not b.is_finite():
            continue
        if b.is_exact() and arb_exponent_bits(b) <= exact_bits_cap():
            return round_significant(arb_to_fmpq(b), digits)
        if b.contains(0):
            continue
        parts = _scaled_parts(b, digits, prec)
        if parts is not None:
            return _format(*parts, digits)
    res = x.sign(max_prec=max_prec)
    if res.sign is Sign.ZERO:
        return "0"
    raise UndecidedError(f"evalf: {digits} significant digits of {x!r} are not certified within {cap} bits")


def evalf_log(r: Any, digits: int = 30, *, max_prec: int | None = None) -> str:
    """:func:`evalf` of log r for a rational r > 0, r ≠ 1, from flint's log balls, without building a sympy
    expression: the same correctly rounded digits as ``evalf(sympy.log(r))`` (log r is irrational, so balls of
    growing precision separate it from every rounding boundary).  ``exactdp analyze`` prints its levels with it.

    >>> evalf_log("3/2", 12)
    '0.405465108108'
    """
    _check_digits(digits)
    q = to_qq(r, "r")
    if q <= 0 or q == 1:
        raise ParameterError(f"r: log r needs a rational r > 0 other than 1, got {q}")
    cap = current_cap(max_prec)
    start = max(START_PREC, 1 << (int(digits * 3.33) + 16).bit_length())
    require("max_prec", start, f"working precision for {digits} digits")
    require("max_work", ball_work(1, start), f"1 transcendental operation(s) at {start} bits for {digits} digits")
    for prec in precisions(max(cap, start), start=start):
        if prec > max(start, EXACT_LAYER_PREC) and ball_work(1, prec) > limit("max_work"):
            break  # as RB.affordable: one more ball would exceed max_work
        with ctx.workprec(prec):
            b = arb(q).log()
        if b.is_finite() and not b.contains(0):
            parts = _scaled_parts(b, digits, prec)
            if parts is not None:
                return _format(*parts, digits)
    raise UndecidedError(f"evalf: {digits} significant digits of log({q}) are not certified within {cap} bits")


__all__ = ["evalf", "evalf_log", "round_significant"]


# -- display helpers (figures, notebooks, evidence strings); decisions never read these strings --------

def arb_str(x: Any, digits: int = 6, prec: int = 128) -> str:
    """``x`` to ``digits`` significant digits ("0.0444"), for display (notebooks, figures, tables).

    Exact inputs (sympy expressions, rationals, :class:`RB`) go through :func:`evalf`, so every printed
    digit is guaranteed.  A raw arb ball prints its guaranteed rounding when the ball determines it,
    else its midpoint.  Decisions use :func:`exactdp.numbers.rb.compare` / ``rounds_to``, never these strings.
    """
    if not isinstance(x, arb):
        return evalf(x, digits)
    v = arb_eval(x, prec)
    guaranteed = ball_digits(v, digits, prec)
    if guaranteed is not None:
        return guaranteed
    with ctx.workprec(prec):
        return v.mid().str(digits, radius=False)


def arb_fixed(x: Any, decimals: int = 4, prec: int = 128) -> str:
    """The ball's midpoint rounded (half up, exactly) to ``decimals`` places: ``"0.0062"``, ``"1.000"``.

    For display only, like :func:`arb_str`; the rounding of the exact dyadic midpoint is done in integers.
    """
    require("max_digits", decimals, f"decimals = {decimals}")
    v = arb_eval(x, prec)
    q = arb_to_fmpq(v.mid())  # refuses a midpoint whose exact value would be a huge rational
    scaled = q * 10**decimals
    n = int((scaled + fmpq(1, 2)).floor())
    sign, n = ("-", -n) if n < 0 else ("", n)
    whole, frac = divmod(n, 10**decimals)
    return f"{sign}{whole}" + (f".{frac:0{decimals}d}" if decimals else "")


def enclosure(value: Any, digits: int = 12) -> str:
    """The value to ``digits`` guaranteed significant digits (``"inf"`` for +∞), for evidence strings."""
    from exactdp.limits import ResourceLimitError
    from exactdp.numbers.exact_zero import short  # deferred: start-up (exact_zero imports sympy)

    try:
        return evalf(value, digits)
    except (UndecidedError, ResourceLimitError):  # evidence only: the value itself, shortened
        return short(value, 80)


def directed_digits(x: fmpq, *, up: bool = False, sig: int = 12) -> str:
    """``x`` as a scientific decimal of ``sig`` significant digits, cut towards −∞ (``up``: towards +∞) — exact
    integer arithmetic, so a printed lower (upper) endpoint of an enclosure is still a lower (upper) bound."""
    if x == 0:
        return "0"
    e = len(str(abs(int(x.p)))) - len(str(int(x.q)))
    scaled = x * fmpq(10) ** (sig - 1 - e)
    while abs(scaled) >= 10**sig:
        e, scaled = e + 1, scaled / 10
    while abs(scaled) < 10 ** (sig - 1):
        e, scaled = e - 1, scaled * 10
    m = -((-scaled.p) // scaled.q) if up else scaled.p // scaled.q
    s = str(abs(int(m)))
    return f"{'-' if m < 0 else ''}{s[0]}.{s[1:]}e{e:+d}"
