r"""Certified evaluation of exact sympy values in python-flint ``arb`` balls (domain RB), scoped precision.

:func:`arb_eval` turns an exact expression (``fmpq``, sympy rationals, ``log``, ``exp``, ``sqrt``, ``Max``,
``Min``, ``Abs``, ``E``, ``pi``) into a ball that is *guaranteed* to contain its value; precision is set
with ``flint.ctx.workprec`` for the call only (DESIGN.md principle 4).  :func:`compare` and
:func:`rounds_to` answer with :class:`~exactdp.numbers.truth.Truth`: UNKNOWN when the ball is too wide.

This is a small local evaluator for the estimation layer; when ``exactdp.numbers.rb`` (the certified
domain) lands on main, these three functions should delegate to it.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from flint import arb, ctx, fmpq

from exactdp.errors import CoercionError, ParameterError
from exactdp.numbers.qq import parse_rational_string, to_qq
from exactdp.numbers.truth import Truth

DEFAULT_PREC = 128


def arb_eval(value, prec: int = DEFAULT_PREC) -> arb:
    """A ball containing the exact value of ``value`` (fmpq, int, Fraction, exact sympy expression, arb).

    >>> arb_eval(sympy.log(2), 64) > arb("0.6931"), arb_eval(sympy.log(2), 64) < arb("0.6932")
    (True, True)
    """
    with ctx.workprec(prec):
        return _ev(value)


def _ev(e) -> arb:
    if isinstance(e, arb):
        return +e
    if isinstance(e, float):
        raise CoercionError(f"value: floats are not accepted in certified evaluation, got {e!r}")
    if isinstance(e, (fmpq, int, Fraction, str)):
        return arb(to_qq(e))
    if not isinstance(e, sympy.Basic):
        return arb(to_qq(e))
    if e.is_Rational:
        return arb(fmpq(int(e.p), int(e.q)))
    if e is sympy.S.Exp1:
        return arb(1).exp()
    if e is sympy.S.Pi:
        return arb.pi()
    if isinstance(e, sympy.Float):
        raise CoercionError(f"value: the expression contains the float {e}; use exact rationals")
    if isinstance(e, sympy.Add):
        out = arb(0)
        for a in e.args:
            out += _ev(a)
        return out
    if isinstance(e, sympy.Mul):
        out = arb(1)
        for a in e.args:
            out *= _ev(a)
        return out
    if isinstance(e, sympy.Pow):
        base, ex = e.args
        if ex.is_Integer:
            b = _ev(base)
            return b ** int(ex) if int(ex) >= 0 else 1 / b ** (-int(ex))
        if ex == sympy.Rational(1, 2):
            return _ev(base).sqrt()
        if ex == sympy.Rational(-1, 2):
            return _ev(base).rsqrt()
        return (_ev(ex) * _ev(base).log()).exp()
    if isinstance(e, sympy.exp):
        return _ev(e.args[0]).exp()
    if isinstance(e, sympy.log):
        return _ev(e.args[0]).log()
    if isinstance(e, sympy.Abs):
        return abs(_ev(e.args[0]))
    if isinstance(e, (sympy.Max, sympy.Min)):
        vals = [_ev(a) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.max(v) if isinstance(e, sympy.Max) else out.min(v)
        return out
    raise ParameterError(f"value: cannot evaluate {e} ({type(e).__name__}) as a certified ball")


def sign(x: arb) -> Truth | int:
    """+1 / −1 / 0 when certified (0 only for an exact zero ball), else Truth.UNKNOWN."""
    if x > 0:
        return 1
    if x < 0:
        return -1
    if x.is_exact() and x.is_zero():
        return 0
    return Truth.UNKNOWN


def compare(a, b, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of a ≤ b: exact when both are rationals, else certified — TRUE/FALSE when the balls decide it,
    UNKNOWN otherwise (e.g. equal irrational values)."""
    qa, qb = _rational(a), _rational(b)
    if qa is not None and qb is not None:
        return Truth.of(qa <= qb)
    x, y = arb_eval(a, prec), arb_eval(b, prec)
    with ctx.workprec(prec):
        d = y - x
    if d >= 0:
        return Truth.TRUE
    if d < 0:
        return Truth.FALSE
    if _exactly_equal(a, b):  # the balls overlap because the values coincide (e.g. a contraction with η = 1)
        return Truth.TRUE
    return Truth.UNKNOWN


def _exactly_equal(a, b) -> bool:
    """True when a − b simplifies to exactly 0 in sympy (both exact); False when that is not shown."""
    if isinstance(a, arb) or isinstance(b, arb):
        return False
    try:
        diff = sympy.sympify(b) - sympy.sympify(a)
    except (TypeError, sympy.SympifyError):
        return False
    return sympy.simplify(sympy.expand_log(diff, force=True)) == 0


def _rational(v):
    """v as an fmpq when it is an exact rational (fmpq, int, Fraction, sympy Rational), else None."""
    if isinstance(v, fmpq):
        return v
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return to_qq(v)
    if isinstance(v, sympy.Basic) and v.is_Rational:
        return to_qq(v)
    return None


def rounds_to(x, printed: str, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of "x rounds to the printed decimal" (round-half-up window [p − u/2, p + u/2)).

    ``printed`` is a decimal string such as ``"0.0444"``; u is one unit of its last digit.  TRUE when the
    ball of x lies inside the window, FALSE when it is disjoint from it, UNKNOWN otherwise.

    >>> rounds_to(sympy.log(2), "0.693"), rounds_to(sympy.log(2), "0.694")
    (<Truth.TRUE: 'true'>, <Truth.FALSE: 'false'>)
    """
    p = parse_rational_string(printed, "printed")
    digits = len(printed.split(".")[1]) if "." in printed else 0
    half = fmpq(1, 2 * 10**digits)
    lo, hi = p - half, p + half
    v = arb_eval(x, prec)
    with ctx.workprec(prec):
        if v >= arb(lo) and v < arb(hi):
            return Truth.TRUE
        if v < arb(lo) or v >= arb(hi):
            return Truth.FALSE
    return Truth.UNKNOWN


def arb_str(x, digits: int = 6, prec: int = DEFAULT_PREC) -> str:
    """The ball's midpoint to ``digits`` significant digits, without the radius ("0.0444").

    For display only (notebooks, figures, tables); decisions use :func:`compare` / :func:`rounds_to`.
    """
    v = arb_eval(x, prec)
    with ctx.workprec(prec):
        return v.mid().str(digits, radius=False)


def arb_fixed(x, decimals: int = 4, prec: int = DEFAULT_PREC) -> str:
    """The ball's midpoint rounded (half up, exactly) to ``decimals`` places: ``"0.0062"``, ``"1.000"``.

    For display only, like :func:`arb_str`; the rounding of the exact dyadic midpoint is done in integers.
    """
    v = arb_eval(x, prec)
    man, exp = v.mid().man_exp()
    q = fmpq(int(man)) * (fmpq(2) ** int(exp) if int(exp) >= 0 else fmpq(1, 2 ** (-int(exp))))
    scaled = q * 10**decimals
    n = int((scaled + fmpq(1, 2)).floor())
    sign, n = ("-", -n) if n < 0 else ("", n)
    whole, frac = divmod(n, 10**decimals)
    return f"{sign}{whole}" + (f".{frac:0{decimals}d}" if decimals else "")
