"""``exactdp evalf EXPR [--digits N] [--max-prec BITS] [--format text|json|markdown|latex|html] [-o FILE]``: guaranteed digits of
an exact expression."""

from __future__ import annotations

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def parse_exact(text: str):
    """A sympy expression from text such as ``"exp(1/2) - log(3)"``; decimals like ``0.5`` are read exactly.

    Read by the one safe reader (:mod:`exactdp.numbers.reader`): numbers, ``+ - * / ^ ( ) √``, its one function
    set (exp, log, sqrt, sin, cos, tan, sinh, cosh, tanh, atan, Min, Max, Abs: the same as ``check``, ``bound
    --at`` and kernel files) and the constants pi, E; sizes are limited; a near-miss name gets a hint.
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
    _common.add_output(p, DOCUMENT_FORMATS)
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.numbers.digits import evalf

    _common.check_output_path(args.output)
    expr = parse_exact(args.expr)
    value = evalf(expr, args.digits, max_prec=args.max_prec)
    if args.format == "json":
        _common.emit_json(args, "evalf", {"expr": str(expr), "digits": args.digits, "value": value})
    elif args.format == "text":
        _common.emit(args, value)
    else:
        from exactdp.cli import _document  # deferred: start-up

        _document.emit(args, "exactdp evalf", [("rows", [("expression", expr),
                                                          (f"{args.digits} significant digits", value)])])
    return 0
