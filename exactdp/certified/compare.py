r"""Certified comparisons of exact real numbers: the API that checkers and proofs call.

``certified_compare(a, op, b)`` → :class:`~exactdp.numbers.truth.Truth` and ``certified_sign(x)`` →
:class:`~exactdp.numbers.rb.SignResult` accept exact rationals (fmpq, int, "p/q", "0.25"), symbol-free
sympy expressions (``log(3)``, ``exp(Rational(1, 2))``, ``kl(P, Q)``, ``ldp_epsilon(K)``), ``sympy.oo``,
:class:`~exactdp.numbers.rb.RB` values and :class:`~exactdp.measures.privacy.Leakage` (its nats).
Balls at doubling precision up to the cap, then the exact layer (:mod:`exactdp.numbers.exact_zero`);
otherwise UNKNOWN — never a guess.

>>> import sympy
>>> certified_compare(sympy.log(3), ">", "1.0986")
<Truth.TRUE: 'true'>
>>> certified_compare(sympy.log(6) - sympy.log(2), "==", sympy.log(3))
<Truth.TRUE: 'true'>
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.rb import RB, SignResult
from exactdp.numbers.truth import Sign, Truth

_OPS = {
    "<": (Sign.NEGATIVE,),
    "<=": (Sign.NEGATIVE, Sign.ZERO),
    "==": (Sign.ZERO,),
    "!=": (Sign.NEGATIVE, Sign.POSITIVE),
    ">": (Sign.POSITIVE,),
    ">=": (Sign.POSITIVE, Sign.ZERO),
}


def _value(x):
    """Normalise an argument: Leakage → its nats; sympy Rational / exact scalars → fmpq; else as is."""
    if hasattr(x, "nats") and hasattr(x, "ratio"):
        x = x.nats
    if isinstance(x, (RB, fmpq)):
        return x
    if isinstance(x, sympy.Basic):
        if x in (sympy.oo, -sympy.oo):
            return x
        return to_qq(x) if x.is_Rational else x
    return to_qq(x)


def _infinite_sign(a, b) -> Sign | None:
    inf = {sympy.oo: 1, -sympy.oo: -1}
    ia = inf.get(a, 0) if isinstance(a, sympy.Basic) else 0
    ib = inf.get(b, 0) if isinstance(b, sympy.Basic) else 0
    if ia == 0 and ib == 0:
        return None
    return Sign((ia > ib) - (ia < ib)) if ia != ib else Sign.ZERO


def certified_difference_sign(a, b, *, max_prec: int | None = None) -> SignResult:
    """The certified sign of a − b (infinities compared as extended reals)."""
    a, b = _value(a), _value(b)
    s = _infinite_sign(a, b)
    if s is not None:
        return SignResult(s, 0, "extended reals")
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return SignResult(Sign((a > b) - (a < b)), 0, "exact rationals")
    if isinstance(b, fmpq):
        s = RB(a).compare_rational(b, max_prec=max_prec)
        if s is not None:
            return SignResult(s, 0, "certified against an exact rational")
    elif isinstance(a, fmpq):
        s = RB(b).compare_rational(a, max_prec=max_prec)
        if s is not None:
            return SignResult(Sign(-int(s)), 0, "certified against an exact rational")
    return (RB(a) - RB(b)).sign(max_prec=max_prec)


def certified_sign(x, *, max_prec: int | None = None) -> SignResult:
    """The certified sign of ``x`` (``.sign`` is None when undecided at the cap; see ``.reason``)."""
    return certified_difference_sign(x, fmpq(0), max_prec=max_prec)


def certified_compare(a, op: str, b, *, max_prec: int | None = None) -> Truth:
    """Decide ``a op b`` for op in <, <=, ==, !=, >, >=: TRUE, FALSE or UNKNOWN (never a guess).

    Raises:
        ParameterError: an unknown operator.
    """
    if op not in _OPS:
        raise ParameterError(f"op: must be one of {sorted(_OPS)}, got {op!r}")
    return certified_difference_sign(a, b, max_prec=max_prec).truth(*_OPS[op])


def as_rb(x) -> RB:
    """An :class:`RB` for an exact number, a Leakage or an RB."""
    x = _value(x)
    if isinstance(x, fmpq):
        return RB(qq_to_sympy(x))
    return RB(x)


def evaluate_at(expr, values: dict | None = None, **named) -> RB:
    r"""A certified real for a symbolic expression (e.g. a bound of the registry) at exact parameter values.

    Symbols are matched by object or by name: ``evaluate_at(bound, eps="1/2", c="1/4", N=3)``.  Values
    are exact (floats refused); every free symbol must receive one.

    >>> import sympy
    >>> e = sympy.Symbol("epsilon", positive=True)
    >>> evaluate_at((sympy.exp(e) - 1) / (sympy.exp(e) + 1), epsilon="0.5").evalf(10)
    '0.2449186624'
    """
    from exactdp.numbers.sr import to_sr

    # never sympify text (it would run code): an expression is a sympy object; anything else is an
    # exact number (strings are read as rationals only)
    expr = expr if isinstance(expr, sympy.Basic) else to_sr(expr, "expr")
    given = dict(values or {})
    given.update(named)
    by_name = {str(k): v for k, v in given.items()}
    subs = {}
    for s in expr.free_symbols:
        if s in given:
            subs[s] = to_sr(given[s], str(s))
        elif str(s) in by_name:
            subs[s] = to_sr(by_name[str(s)], str(s))
    missing = sorted(str(s) for s in expr.free_symbols if s not in subs)
    if missing:
        raise ParameterError(f"values: no value given for the symbols {missing}")
    return RB(expr.xreplace(subs))
