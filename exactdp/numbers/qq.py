"""QQ: the exact rational domain, on python-flint ``fmpq``.

:func:`to_qq` is the single entry point through which user numbers become exact rationals.
It accepts ints, :class:`fractions.Fraction`, ``fmpq``/``fmpz``, sympy ``Rational``/``Integer``,
numpy integer scalars, and strings ``"3/7"``, ``"-2"``, exact decimals ``"0.25"`` and
``"1e-300"`` (read as the decimal they spell, exactly).  It refuses Python floats, numpy
floats, sympy ``Float`` and NaN/inf with a :class:`~exactdp.errors.CoercionError` that names the
argument and says how to pass the value exactly.  The one explicit conversion of a binary
double is :func:`from_float`, which returns the double's exact binary value.
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

from flint import fmpq, fmpz

from exactdp.errors import CoercionError
from exactdp.numbers.reader import read_rational

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.infinity import is_infinite

ZERO = fmpq(0)
ONE = fmpq(1)

#: what :func:`to_qq` reads as an exact rational (sympy's Rational and numpy's integers are numbers.Rational)
RationalInput: TypeAlias = "fmpq | fmpz | int | str | Fraction | numbers.Rational"

_SIMPLE_RE = re.compile(r"-?[0-9]+(?:/[0-9]+)?")
#: the plain forms "p", "-p", "p/q" that flint reads directly (public for the vectorised readers)
SIMPLE_RATIONAL = _SIMPLE_RE


def simple_string_limit() -> int:
    """The longest plain "p/q" string :func:`parse_rational_string` hands straight to flint: within both
    ``max_text_length`` and ``max_integer_digits`` (read once by callers that parse many entries)."""
    from exactdp.limits import limit

    return min(limit("max_text_length"), limit("max_integer_digits"))


def _float_message(name: str, value: Any) -> str:
    if value != value:
        return f"{name}: NaN is not a number; every entry must be an exact rational"
    return (
        f"{name}: floats are not accepted in exact computations, got {value!r}; "
        f"pass it exactly as a string ('{_suggest(value)}'), a Fraction or an int, "
        f"or convert a double explicitly with exactdp.from_float"
    )


def _suggest(value: Any) -> str:
    try:
        return str(Fraction(str(value))) if "e" not in str(value) else str(value)
    except (ValueError, ZeroDivisionError):
        return "p/q"


def parse_rational_string(text: str, name: str = "value") -> fmpq:
    """Parse ``"p/q"``, ``"-3"``, ``"0.25"`` or ``"1e-30"`` exactly; arithmetic on numbers such as
    ``"1/10^5000"`` or ``"1 - 3/7"`` goes through the one safe reader (:mod:`exactdp.numbers.reader`).

    Sizes are limited (``exactdp.limits``: ``max_text_length``, ``max_integer_digits``): ``"1e-999999999"``
    is refused at once instead of building a billion-digit integer.
    """
    from exactdp.limits import how_to_raise, limit, quote

    if len(text) > limit("max_text_length"):
        raise CoercionError(f"{name}: {len(text)} characters exceed the limit max_text_length = "
                            f"{limit('max_text_length')}; {how_to_raise('max_text_length')}")
    if len(text) <= limit("max_integer_digits") and _SIMPLE_RE.fullmatch(text):  # "p", "-p", "p/q": flint (fast)
        try:
            return fmpq(text)
        except ZeroDivisionError:
            raise CoercionError(f"{name}: denominator must be non-zero, got {text!r}") from None
    try:
        return read_rational(text, name)
    except CoercionError as exc:
        if "limit" in str(exc) or "zero" in str(exc):
            raise
        raise CoercionError(
            f"{name}: cannot read {quote(text)} as an exact number ({str(exc).removeprefix(name + ': ')}); write "
            f"it as 'p/q', an integer, a decimal like '0.25' or arithmetic on numbers like '1/10^30'") from None


def to_qq(value: Any, name: str = "value") -> fmpq:
    """Convert ``value`` to an exact rational ``fmpq``; refuse floats and inexact values.

    Raises:
        CoercionError: the value is a float, NaN/inf, a non-rational expression or unreadable.

    >>> to_qq("3/7"), to_qq("0.25"), to_qq(2)
    (3/7, 1/4, 2)
    """
    if isinstance(value, fmpq):
        return value
    if type(value) is str:
        return parse_rational_string(value, name)
    if isinstance(value, bool):
        raise CoercionError(f"{name}: expected a number, got the bool {value!r}")
    if isinstance(value, (int, fmpz)):
        return fmpq(int(value))
    if isinstance(value, Fraction):
        return fmpq(value.numerator, value.denominator)
    if isinstance(value, float):
        raise CoercionError(_float_message(name, value))
    if isinstance(value, str):
        return parse_rational_string(value, name)
    if is_sympy(value):
        if isinstance(value, sympy.Rational):
            return fmpq(int(value.p), int(value.q))
        if isinstance(value, sympy.Float):
            raise CoercionError(_float_message(name, value))
        if value in (sympy.nan, sympy.zoo) or value.is_infinite:
            raise CoercionError(f"{name}: must be a finite exact number, got {value}")
        raise CoercionError(f"{name}: expected an exact rational, got the expression {value}")
    # numpy scalars and other numeric tower members
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return fmpq(int(value))
        if isinstance(value, np.floating):
            raise CoercionError(_float_message(name, value))
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    if isinstance(value, numbers.Rational):
        return fmpq(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        raise CoercionError(_float_message(name, value))
    raise CoercionError(f"{name}: expected an exact number, got {type(value).__name__} {value!r}")


def is_exact_rational(value: Any) -> bool:
    """True when :func:`to_qq` would accept ``value`` (without raising)."""
    try:
        to_qq(value)
    except CoercionError:
        return False
    return True


def from_float(value: float, name: str = "from_float") -> fmpq:
    """The exact binary value of a double: ``from_float(0.1) == 3602879701896397/36028797018963968``.

    This is the one documented way a float becomes exact.  NaN and infinities are refused.

    >>> from_float(0.1)
    3602879701896397/36028797018963968
    """
    if isinstance(value, bool) or not isinstance(value, (float, int)):
        raise CoercionError(f"{name}: expected a float, got {type(value).__name__} {value!r}")
    f = float(value)
    if f != f or f in (float("inf"), float("-inf")):
        raise CoercionError(f"{name}: value must be finite, got {value!r}")
    p, q = f.as_integer_ratio()
    return fmpq(p, q)


def qq_to_sympy(value: fmpq) -> sympy.Rational:
    """fmpq -> sympy Rational (exact)."""
    return sympy.Rational(int(value.p), int(value.q))


def qq_str(value: Any) -> str:
    """Canonical string of an exact value: ``"3/5"``, ``"2"``, ``"inf"``."""
    if is_infinite(value):  # INF, or sympy.oo (tested without importing sympy)
        return "inf"
    return str(value)
