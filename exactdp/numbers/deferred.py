"""sympy on first use: exact rationals (``fmpq``, the integer form of a kernel) never import it.

``from exactdp import Kernel, eta_tv`` and η_TV of a rational kernel need only python-flint and numpy; sympy
(about a quarter of a second of imports) loads when the first symbolic object is built or inspected.  A
module that uses sympy writes ::

    if TYPE_CHECKING:
        import sympy
    else:
        from exactdp.numbers.deferred import sympy  # deferred: start-up

and uses ``sympy.X`` as before: the first attribute read imports sympy, later reads go to the module.  A test
whether a value is a sympy object, :func:`is_sympy`, never imports it: no sympy object can exist before sympy
is imported.
"""

from __future__ import annotations

import sys
from typing import Any, TypeGuard


class _Sympy:
    """Stands for the sympy module; imports it at the first attribute read."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        import sympy  # deferred: start-up

        return getattr(sympy, name)

    def __repr__(self) -> str:
        return "<sympy, imported on first use>"


sympy = _Sympy()


def is_sympy(value: object, kind: str = "Basic") -> TypeGuard[Any]:
    """``isinstance(value, sympy.<kind>)`` without importing sympy (False while it is not imported)."""
    module = sys.modules.get("sympy")
    return module is not None and isinstance(value, getattr(module, kind))


class _Function:
    """A sympy function or class called by name (``sympy_function("exp")(x)`` is ``sympy.exp(x)``), for tables
    built at import time."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(sympy, self.name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"sympy.{self.name}"


def sympy_function(name: str) -> Any:
    """``sympy.<name>`` as a callable that imports sympy at its first call."""
    return _Function(name)
