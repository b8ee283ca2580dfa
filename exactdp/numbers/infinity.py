r"""+∞ as an exact value of the project: the infinite LDP level of a kernel with zero entries, without sympy.

A rational kernel whose column mixes a zero and a positive entry has e^{LDP} = +∞ (D-5, [G] eq. (1)).  As
``sympy.oo`` that value imported sympy, the largest part of the start-up of ``exactdp analyze`` on such a kernel
(docs/speed.md, "Start-up and the whole run").  :data:`INF` is the same value without sympy:

* it prints as sympy prints ``oo`` (``str``, ``repr``) and as ``"inf"`` in the exact strings of
  :func:`exactdp.numbers.qq.qq_str` and :func:`exactdp.numbers.digits.evalf`;
* it compares exactly: equal to itself, to ``sympy.oo`` and to ``float("inf")``, greater than every finite
  real (``int``, ``fmpq``, ``fmpz``, ``Fraction``, finite ``float``, finite real sympy numbers);
* it becomes ``sympy.oo`` only where the user asks for sympy: ``sympy.sympify(INF)`` and every sympy
  function of it (``sympy.log(INF)`` is ``oo``) through :meth:`Infinity._sympy_`, and arithmetic with it
  (``INF + 1``, ``2 * INF``), which is sympy's extended-real arithmetic.

``INF == sympy.oo`` holds both ways, but ``INF is sympy.oo`` does not: code that may meet either writes
:func:`is_infinite`.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpz

from exactdp.numbers.deferred import is_sympy

_FINITE_EXACT = (int, fmpq, fmpz, Fraction)


def _is_sympy_oo(value: object) -> bool:
    """``value is sympy.oo`` without importing sympy (no sympy object exists before it is imported)."""
    module = sys.modules.get("sympy")
    return module is not None and value is module.oo


def _finite_real(value: object) -> bool:
    """A finite real number this module orders against +∞ without sympy's help (``bool`` excluded)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, _FINITE_EXACT):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    return is_sympy(value) and bool(getattr(value, "is_extended_real", False)) and bool(value.is_finite)


class Infinity:
    """The exact value +∞ (one instance, :data:`INF`; module docstring)."""

    __slots__ = ()
    _instance: Infinity | None = None

    def __new__(cls) -> Infinity:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __reduce__(self) -> str:
        return "INF"  # pickles as the module attribute: the one instance survives a round trip

    def __repr__(self) -> str:
        return "oo"

    def __str__(self) -> str:
        return "oo"

    def __hash__(self) -> int:
        return hash(math.inf)

    def __bool__(self) -> bool:
        return True

    def __float__(self) -> float:
        return math.inf

    def __eq__(self, other: object) -> bool:
        return other is self or _is_sympy_oo(other) or (isinstance(other, float) and other == math.inf)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def _order(self, other: object) -> int | None:
        """+1 when +∞ > other, 0 when equal, None when not comparable here."""
        if self.__eq__(other):
            return 0
        return 1 if _finite_real(other) or (isinstance(other, float) and other == -math.inf) else None

    def __gt__(self, other: object) -> bool:
        s = self._order(other)
        if s is None:
            return NotImplemented
        return s > 0

    def __ge__(self, other: object) -> bool:
        s = self._order(other)
        if s is None:
            return NotImplemented
        return s >= 0

    def __lt__(self, other: object) -> bool:
        s = self._order(other)
        if s is None:
            return NotImplemented
        return False

    def __le__(self, other: object) -> bool:
        s = self._order(other)
        if s is None:
            return NotImplemented
        return s == 0

    def _sympy_(self) -> Any:
        """``sympy.oo``: sympy's own conversion hook (``sympify``, every sympy function of +∞)."""
        import sympy  # deferred: only when the user asks for sympy

        return sympy.oo

    # arithmetic is sympy's extended-real arithmetic (oo + 1 = oo, 0·oo = nan): the user asks for sympy
    def __add__(self, other: Any) -> Any:
        return self._sympy_() + other

    def __radd__(self, other: Any) -> Any:
        return other + self._sympy_()

    def __sub__(self, other: Any) -> Any:
        return self._sympy_() - other

    def __rsub__(self, other: Any) -> Any:
        return other - self._sympy_()

    def __mul__(self, other: Any) -> Any:
        return self._sympy_() * other

    def __rmul__(self, other: Any) -> Any:
        return other * self._sympy_()

    def __truediv__(self, other: Any) -> Any:
        return self._sympy_() / other

    def __rtruediv__(self, other: Any) -> Any:
        return other / self._sympy_()

    def __pow__(self, other: Any) -> Any:
        return self._sympy_() ** other

    def __rpow__(self, other: Any) -> Any:
        return other ** self._sympy_()

    def __neg__(self) -> Any:
        return -self._sympy_()


#: +∞ (module docstring)
INF = Infinity()


def is_infinite(value: object) -> bool:
    """True for +∞ in either form, :data:`INF` or ``sympy.oo`` (without importing sympy)."""
    return value is INF or _is_sympy_oo(value)
