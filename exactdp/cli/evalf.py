"""``exactdp evalf EXPR [--digits N] [--max-prec BITS]``: guaranteed digits of an exact expression."""

from __future__ import annotations

def parse_exact(text: str):
    """A sympy expression from text such as ``"exp(1/2) - log(3)"``; decimals like ``0.5`` are read exactly.

    Read by the one safe reader (:mod:`exactdp.numbers.reader`): numbers, ``+ - * / ^ ( )``, the functions
    exp, log, sqrt, sin, cos, tan, sinh, cosh, tanh, atan and the constants pi, E; sizes are limited.
    """
    from exactdp.numbers.reader import read_expression

    return read_expression(text, name="EXPR")


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
