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
from exactdp.numbers.qq import qq_to_sympy
from exactdp.numbers.rb import RB, certified_compare, certified_difference_sign, certified_sign, comparable_value

__all__ = ["as_rb", "certified_compare", "certified_difference_sign", "certified_sign", "evaluate_at"]

# the one certified sign routine lives in exactdp.numbers.rb; this module is its public face


def as_rb(x) -> RB:
    """An :class:`RB` for an exact number, a Leakage or an RB."""
    x = comparable_value(x)
    if isinstance(x, fmpq):
        return RB(qq_to_sympy(x))
    return RB(x)


def evaluate_at(expr, values: dict | None = None, **named) -> RB:
    r"""A certified real for a symbolic expression (e.g. a bound of the registry) at exact parameter values.

    Symbols are matched by object or by name: ``evaluate_at(bound, eps="1/2", c="1/4", N=3)`` (a registry
    :class:`~exactdp.bounds.Bound` or its ``.expr``).  The registry writes privacy in t = e^ε: a value for
    ``eps`` (or ``epsilon``) with no value for ``t`` substitutes t = exp(ε).  Values are exact (floats
    refused); every free symbol must receive one.

    >>> import sympy
    >>> e = sympy.Symbol("epsilon", positive=True)
    >>> evaluate_at((sympy.exp(e) - 1) / (sympy.exp(e) + 1), epsilon="0.5").evalf(10)
    '0.2449186624'
    >>> from exactdp import bounds
    >>> evaluate_at(bounds.get("xi").expr, eps="1/2", c="1/4", N=2).evalf(10)  # t = e^(1/2)
    '0.3555882856'
    """
    from exactdp.numbers.sr import to_sr

    if not isinstance(expr, sympy.Basic) and isinstance(getattr(expr, "expr", None), sympy.Basic):
        expr = expr.expr  # a registry Bound
    # never sympify text (it would run code): an expression is a sympy object; anything else is an
    # exact number (strings are read as rationals only)
    expr = expr if isinstance(expr, sympy.Basic) else to_sr(expr, "expr")
    given = dict(values or {})
    given.update(named)
    by_name = {str(k): v for k, v in given.items()}
    eps_name = next((n for n in ("eps", "epsilon") if n in by_name), None)
    subs = {}
    for s in expr.free_symbols:
        if s in given:
            subs[s] = to_sr(given[s], str(s))
        elif str(s) in by_name:
            subs[s] = to_sr(by_name[str(s)], str(s))
        elif str(s) == "t" and eps_name is not None:  # the registry's t = e^eps
            subs[s] = sympy.exp(to_sr(by_name[eps_name], eps_name))
    missing = sorted(str(s) for s in expr.free_symbols if s not in subs)
    if missing:
        raise ParameterError(f"values: no value given for the symbols {missing}")
    return RB(expr.xreplace(subs))
