"""Three-valued truth: TRUE, FALSE and UNKNOWN.

A certified comparison (an interval straddling zero, a sign that cannot be determined)
answers UNKNOWN.  ``bool(Truth.UNKNOWN)`` raises :class:`~exactdp.errors.UndecidedError`, so an
undecided comparison can never silently reach an ``if``.  ``bool(TRUE)`` and ``bool(FALSE)``
behave as expected, which keeps exact code readable.

Kleene's strong three-valued logic is used for ``&``, ``|`` and ``~``.
"""

from __future__ import annotations

import enum
from typing import Any, Callable

from exactdp.errors import UndecidedError
from exactdp.numbers.rich import RichDisplay


class Truth(RichDisplay, enum.Enum):
    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, value: bool) -> "Truth":
        """The Truth of a plain (exactly decided) bool."""
        if not isinstance(value, bool):
            raise TypeError(f"Truth.of expects a bool, got {type(value).__name__}")
        return cls.TRUE if value else cls.FALSE

    @property
    def decided(self) -> bool:
        return self is not Truth.UNKNOWN

    def __bool__(self) -> bool:
        if self is Truth.UNKNOWN:
            raise UndecidedError(
                "an UNKNOWN truth value was used as a bool: the comparison could not be certified"
            )
        return self is Truth.TRUE

    def __invert__(self) -> "Truth":
        if self is Truth.UNKNOWN:
            return self
        return Truth.FALSE if self is Truth.TRUE else Truth.TRUE

    def __and__(self, other: "Truth") -> "Truth":
        other = _truth(other)
        if self is Truth.FALSE or other is Truth.FALSE:
            return Truth.FALSE
        if self is Truth.TRUE and other is Truth.TRUE:
            return Truth.TRUE
        return Truth.UNKNOWN

    def __or__(self, other: "Truth") -> "Truth":
        other = _truth(other)
        if self is Truth.TRUE or other is Truth.TRUE:
            return Truth.TRUE
        if self is Truth.FALSE and other is Truth.FALSE:
            return Truth.FALSE
        return Truth.UNKNOWN

    __rand__ = __and__
    __ror__ = __or__

    def __str__(self) -> str:
        return self.value


def _truth(value: object) -> Truth:
    if isinstance(value, Truth):
        return value
    if isinstance(value, bool):
        return Truth.of(value)
    raise TypeError(f"cannot combine Truth with {type(value).__name__}")


class Sign(enum.IntEnum):
    """The exactly known sign of a quantity."""

    NEGATIVE = -1
    ZERO = 0
    POSITIVE = 1


def positive_part(a: Any, sign: Callable[..., Sign | None], *, zero: Any = 0,
                  undecided: Callable[[Any], Any] | None = None) -> Any:
    """(a)₊ = max(a, 0) in any number domain, from that domain's three-valued sign of ``a``.

    ``sign(a)`` returns a :class:`Sign` or None (undecided).  A weak sign is enough — POSITIVE for a
    proved a ≥ 0, NEGATIVE for a proved a ≤ 0 — since (a)₊ is a, resp. ``zero``, on each.  Undecided:
    ``undecided(a)`` (e.g. a Piecewise in the symbolic domain), or :class:`UndecidedError` by default
    (never a guess).  The one positive part: the number domains (``exactdp.numbers.domain``: QQ, RB),
    the region form of SR (``exactdp.symbolic.positive_part``) and one-parameter cells
    (``exactdp.symbolic.univariate``) give it their sign.

    >>> positive_part(-3, lambda v: Sign.NEGATIVE), positive_part(3, lambda v: Sign.POSITIVE)
    (0, 3)
    """
    s = sign(a)
    if s is Sign.POSITIVE:
        return a
    if s is not None:
        return zero
    if undecided is None:
        raise UndecidedError(f"the sign of {a} is undecided: its positive part is unknown")
    return undecided(a)
