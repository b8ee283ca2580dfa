r"""Certified three-valued decisions for checks: a thin adapter over :mod:`exactdp.certified`.

Checks compare exact real numbers (rationals, logs, roots, ``sympy.oo``) through these helpers, which
delegate to the certified layer (balls at a scoped, increasing precision, then the exact tie-break
layer; UNKNOWN when neither decides — never a guess):

* :func:`decide_le` / :func:`decide_lt` → :class:`~exactdp.numbers.truth.Truth`;
* :func:`sign` → −1, 0, 1 or None (undecided);
* :func:`enclosure` → a decimal string with guaranteed digits, for evidence.
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.certified import certified_compare, certified_sign
from exactdp.errors import UndecidedError
from exactdp.limits import ResourceLimitError
from exactdp.numbers.digits import evalf
from exactdp.numbers.exact_zero import short
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.truth import Truth


def to_sympy(value) -> sympy.Expr:
    """fmpq / int / sympy → sympy (exact)."""
    if isinstance(value, fmpq):
        return qq_to_sympy(value)
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Basic):
        return value
    raise TypeError(f"certify: expected an exact value, got {type(value).__name__} {value!r}")


def decide_le(a, b) -> Truth:
    """``a ≤ b`` certified: TRUE, FALSE or UNKNOWN."""
    return certified_compare(a, "<=", b)


def decide_lt(a, b) -> Truth:
    """``a < b`` certified (strict)."""
    return certified_compare(a, "<", b)


def sign(value) -> int | None:
    """The certified sign (−1, 0, 1) of an exact real, or None when it cannot be decided."""
    s = certified_sign(value).sign
    return None if s is None else int(s)


def enclosure(value, digits: int = 12) -> str:
    """The value to ``digits`` guaranteed significant digits (``"inf"`` for +∞), for evidence strings."""
    try:
        return evalf(value, digits)
    except (UndecidedError, ResourceLimitError):  # evidence only: the value itself, shortened
        return short(value, 80)
