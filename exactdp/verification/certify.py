r"""Certified decisions of ``a ≤ b`` between exact real numbers (rationals, logs, roots): three-valued.

A comparison of two exact values is decided

1. exactly when both sides are rational (``fmpq`` / sympy ``Rational``) or infinite (``sympy.oo``);
2. otherwise by evaluating ``b − a`` as a python-flint ``arb`` ball at a scoped working precision
   (64, 256, 1024 bits, ``with flint.ctx.workprec(...)`` — never a global precision): a ball entirely
   on one side decides;
3. a ball that still contains 0 is decided TRUE only if sympy proves ``b − a == 0`` exactly
   (``simplify`` to 0); otherwise the answer is ``Truth.UNKNOWN`` (never a guess).

This is the minimal certified layer the verification engine needs (claims.md class **C**).  When
``exactdp.certified`` (the certified layer proper) is available its evaluator can replace
:func:`to_arb`; the contract (balls contain the exact value; undecided → UNKNOWN) is the same.
"""

from __future__ import annotations

import sympy
from flint import arb, ctx, fmpq

from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.truth import Truth

PRECISIONS = (64, 256, 1024)


class NotEvaluable(TypeError):
    """An expression outside the subset :func:`to_arb` evaluates (rationals, +, ×, powers, log, exp)."""


def to_sympy(value) -> sympy.Expr:
    """fmpq / int / sympy → sympy (exact)."""
    if isinstance(value, fmpq):
        return qq_to_sympy(value)
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Basic):
        return value
    raise TypeError(f"certify: expected an exact value, got {type(value).__name__} {value!r}")


def to_arb(expr) -> arb:
    """A ball containing the exact value of ``expr`` (call inside ``ctx.workprec``)."""
    if isinstance(expr, fmpq):
        return arb(expr)
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return arb(fmpq(int(expr.p), int(expr.q)))
    if expr is sympy.pi:
        return arb.pi()
    if expr is sympy.E:
        return arb(1).exp()
    if isinstance(expr, sympy.Add):
        out = arb(0)
        for a in expr.args:
            out += to_arb(a)
        return out
    if isinstance(expr, sympy.Mul):
        out = arb(1)
        for a in expr.args:
            out *= to_arb(a)
        return out
    if isinstance(expr, sympy.Pow):
        base, e = expr.args
        b = to_arb(base)
        if e.is_Integer:
            n = int(e)
            return b ** n if n >= 0 else 1 / (b ** (-n))
        if e == sympy.Rational(1, 2):
            return b.sqrt()
        if e == sympy.Rational(-1, 2):
            return 1 / b.sqrt()
        return (to_arb(e) * b.log()).exp()
    if isinstance(expr, sympy.log):
        return to_arb(expr.args[0]).log()
    if isinstance(expr, sympy.exp):
        return to_arb(expr.args[0]).exp()
    if isinstance(expr, (sympy.Max, sympy.Min)):
        vals = [to_arb(a) for a in expr.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.max(v) if isinstance(expr, sympy.Max) else out.min(v)
        return out
    raise NotEvaluable(f"certify: cannot evaluate {expr} ({type(expr).__name__}) in ball arithmetic")


def _is_inf(v) -> bool:
    return isinstance(v, sympy.Basic) and v == sympy.oo


def sign(value) -> int | None:
    """The exact sign (−1, 0, 1) of an exact real, or None when it cannot be certified."""
    if isinstance(value, fmpq):
        return (value > 0) - (value < 0)
    if _is_inf(value):
        return 1
    if isinstance(value, sympy.Basic) and value == -sympy.oo:
        return -1
    expr = to_sympy(value)
    if expr.is_Rational:
        return int(expr.p > 0) - int(expr.p < 0)
    for prec in PRECISIONS:
        with ctx.workprec(prec):
            try:
                ball = to_arb(expr)
            except NotEvaluable:
                break
            if ball > 0:
                return 1
            if ball < 0:
                return -1
    try:
        if sympy.simplify(expr) == 0:
            return 0
    except Exception:  # noqa: BLE001 - sympy may fail on exotic input; that is "undecided"
        pass
    return None


def decide_le(a, b) -> Truth:
    """``a ≤ b`` certified: TRUE, FALSE or UNKNOWN.  ``sympy.oo`` is handled exactly."""
    if _is_inf(b):
        return Truth.TRUE
    if _is_inf(a):
        return Truth.FALSE
    s = sign(to_sympy(b) - to_sympy(a)) if not (isinstance(a, fmpq) and isinstance(b, fmpq)) else \
        ((b - a > 0) - (b - a < 0))
    if s is None:
        return Truth.UNKNOWN
    return Truth.of(s >= 0)


def decide_lt(a, b) -> Truth:
    """``a < b`` certified (strict)."""
    if _is_inf(a):
        return Truth.FALSE
    if _is_inf(b):
        return Truth.TRUE
    s = sign(to_sympy(b) - to_sympy(a)) if not (isinstance(a, fmpq) and isinstance(b, fmpq)) else \
        ((b - a > 0) - (b - a < 0))
    if s is None:
        return Truth.UNKNOWN
    return Truth.of(s > 0)


def enclosure(value, digits: int = 12) -> str:
    """A short decimal enclosure of an exact value, for evidence strings ("[0.4621 +/- 1e-13]")."""
    if _is_inf(value):
        return "inf"
    with ctx.workprec(128):
        try:
            return to_arb(to_sympy(value)).str(digits, radius=True)
        except NotEvaluable:
            return str(value)
