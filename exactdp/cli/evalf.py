"""``exactdp evalf EXPR [--digits N] [--max-prec BITS]``: guaranteed digits of an exact expression."""

from __future__ import annotations

import re

from exactdp.errors import CoercionError

_ALLOWED = re.compile(r"^[0-9A-Za-z_+\-*/^()., ]+$")
_NAMES = ("exp", "log", "sqrt", "pi", "E", "sin", "cos", "tan", "sinh", "cosh", "tanh", "atan", "Rational")


def parse_exact(text: str):
    """A sympy expression from text such as ``"exp(1/2) - log(3)"``; decimals like ``0.5`` are read exactly.

    Only arithmetic, numbers and the functions exp, log, sqrt, sin, cos, tan, sinh, cosh, tanh, atan and
    the constants pi, E are accepted.
    """
    import sympy
    from sympy.parsing.sympy_parser import parse_expr, rationalize, standard_transformations

    if not _ALLOWED.match(text):
        raise CoercionError(
            f"EXPR: only numbers, + - * / ^ ( ) and {', '.join(_NAMES)} are allowed, got {text!r}"
        )
    words = set(re.findall(r"[A-Za-z_]+", re.sub(r"\d[eE][+-]?\d", "", text)))
    unknown = sorted(words - set(_NAMES))
    if unknown:
        raise CoercionError(f"EXPR: unknown names {unknown}; allowed: {', '.join(_NAMES)}")
    local = {name: getattr(sympy, name) for name in _NAMES}
    try:
        return parse_expr(
            text.replace("^", "**"),
            local_dict=local,
            global_dict={
                "__builtins__": {},
                **local,
                "Integer": sympy.Integer,
                "Float": sympy.Float,
                "Symbol": sympy.Symbol,
            },
            transformations=standard_transformations + (rationalize,),
        )
    except (SyntaxError, TypeError, ValueError) as exc:
        raise CoercionError(f"EXPR: cannot read {text!r} as an exact expression ({exc})") from exc


def register(sub) -> None:
    p = sub.add_parser(
        "evalf",
        help="an exact expression to N significant digits, every printed digit guaranteed",
        description="Evaluate an exact expression (e.g. 'exp(1/2)', 'log(3) - 1.0986', 'exp(5000)') with "
        "certified ball arithmetic; decimals are read exactly. Prints the correctly rounded digits or "
        "fails with an 'undecided' error if the precision cap is not enough.",
    )
    p.add_argument("expr", metavar="EXPR")
    p.add_argument("--digits", type=int, default=30, help="significant digits (default 30)")
    p.add_argument("--max-prec", type=int, default=None, help="precision cap in bits (default 8192)")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.numbers.digits import evalf

    print(evalf(parse_exact(args.expr), args.digits, max_prec=args.max_prec))
    return 0
