"""SR: the symbolic domain, on sympy expressions with declared assumptions.

Parametric kernels and proofs live here.  :func:`to_exact` is the entry point used by kernels and
distributions: a value that is an exact rational becomes an ``fmpq`` (domain QQ); a sympy
expression that is not a rational number (it has symbols, or is irrational like ``sqrt(2)/2``)
stays a sympy expression (domain SR).  Floats anywhere inside an expression are refused.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import fmpq

from exactdp.errors import CoercionError
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.reader import as_expr

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.infinity import INF


def contains_float(expr: sympy.Basic) -> bool:
    return any(isinstance(a, sympy.Float) for a in sympy.preorder_traversal(expr))


def to_sr(value: Any, name: str = "value") -> sympy.Expr:
    """An exact sympy expression for ``value`` (rationals become sympy Rationals).

    Strings are read as exact rationals only; sympy expressions are kept as they are after a check
    that no ``Float`` hides inside.
    """
    if is_sympy(value):
        if contains_float(value):
            raise CoercionError(
                f"{name}: the expression {value} contains a float; use sympy.Rational or a string 'p/q'"
            )
        if value.has(sympy.nan, sympy.zoo):
            raise CoercionError(f"{name}: must be a number, got {value}")
        return value
    return qq_to_sympy(to_qq(value, name))


_PLAIN = frozenset({str, int, fmpq, Fraction})


def to_exact(value: object, name: str = "value") -> tuple[fmpq | sympy.Expr, bool]:
    """Return ``(x, symbolic)``: an ``fmpq`` when exact rational, else an exact sympy expression."""
    if type(value) in _PLAIN:  # fast path for the common exact inputs
        return to_qq(value, name), False
    if is_sympy(value):
        expr = to_sr(value, name)
        if isinstance(expr, sympy.Rational):
            return to_qq(expr, name), False
        return expr, True
    return to_qq(value, name), False


def exact_result(expr: Any) -> fmpq | sympy.Basic:
    """The canonical exact value: ``fmpq`` for a rational, ``sympy.oo`` for +∞, the expression otherwise."""
    if isinstance(expr, fmpq):
        return expr
    expr = as_expr(expr)
    if expr.is_Rational:
        return to_qq(expr)
    return expr


#: the largest constant (in sympy operations) that :func:`simplest_constant` rewrites; larger ones are kept
#: as they are, so together/cancel/radsimp stay cheap
CONSTANT_OPS = 60


def simplest_constant(expr: Any) -> Any:
    """A symbol-free irrational value in a short form: over one denominator, radicals out of the
    denominator, whichever of these and ``expr`` has the fewest operations — -1/(1+e) + e/(1+e) becomes
    (e − 1)/(e + 1), (2 − √2)/(√2 − 1) becomes √2.  Anything else (rationals, expressions with symbols or
    logs, constants over :data:`CONSTANT_OPS` operations) is returned unchanged."""
    if not isinstance(expr, sympy.Expr) or expr.is_Rational or expr.free_symbols or expr.has(sympy.log) \
            or sympy.count_ops(expr) > CONSTANT_OPS:
        return expr
    one = sympy.cancel(sympy.together(expr))
    candidates = [expr, one, sympy.radsimp(one) if one.has(sympy.Pow) else one]
    return min(candidates, key=sympy.count_ops)


def as_sympy(value: Any) -> sympy.Expr:
    """fmpq, sympy or :data:`~exactdp.numbers.infinity.INF` -> sympy (exact)."""
    if isinstance(value, fmpq):
        return qq_to_sympy(value)
    if is_sympy(value):
        return value
    if value is INF:  # the project's exact +∞: sympy's oo when a sympy expression is asked for
        return sympy.oo
    return as_expr(to_qq(value))
