"""``exactdp bound NAME [--latex] [--at eps=1/2,c=1/10] [--digits D] [--compare OTHER]`` and ``--list``."""

from __future__ import annotations


def parse_assignments(text: str | None) -> dict:
    """``"eps=1/2,c=1/10"`` → {"eps": "1/2", "c": "1/10"} (values stay strings: read exactly later)."""
    from exactdp.errors import ParameterError
    from exactdp.limits import limit, quote

    out: dict = {}
    if text is None:
        return out
    if len(text) > limit("max_text_length"):
        raise ParameterError(f"--at: {len(text)} characters exceeds the limit max_text_length = "
                             f"{limit('max_text_length')}; got {quote(text)}")
    if not text.strip():
        raise ParameterError("--at: empty; expected NAME=VALUE pairs separated by commas, e.g. t=3,c=1/4,N=2")
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise ParameterError(f"--at: expected NAME=VALUE pairs separated by commas, got {quote(part.strip())}")
        k, v = (x.strip() for x in part.split("=", 1))
        if not k or not v:
            raise ParameterError(f"--at: expected NAME=VALUE, got {quote(part.strip())}")
        if k in out:
            raise ParameterError(f"--at: {quote(k, 40)} given twice ({k}={quote(out[k], 40)} and "
                                 f"{k}={quote(v, 40)}); give each parameter once")
        out[k] = v
    return out


def _digits(text: str) -> int:
    import argparse

    from exactdp.limits import quote

    try:
        d = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {quote(text, 40)}") from None
    if d < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {d}")
    return d


def register(sub) -> None:
    p = sub.add_parser("bound", help="a named bound of the papers: formula, source, exact value, LaTeX, comparisons",
                       description="Show a bound or closed form from the registry (exactdp.bounds). "
                                   "Privacy is parametrized by t = e^eps; --at accepts eps=... or t=....")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("--list", action="store_true", help="list every registered bound")
    p.add_argument("--markdown", action="store_true", help="with --list: a Markdown table with LaTeX statements")
    p.add_argument("--latex", action="store_true", help="print the statement as LaTeX")
    p.add_argument("--at", default=None, metavar="ASSIGN", help="parameter values, e.g. eps=1/2,c=1/10,N=4")
    p.add_argument("--digits", type=_digits, default=15,
                   help="significant digits of the numeric value (default 15, at least 1)")
    p.add_argument("--compare", default=None, metavar="OTHER",
                   help="decide NAME <= OTHER and NAME >= OTHER exactly (use --at to fix N, delta, ...)")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp import bounds

    if args.list and args.markdown:
        from exactdp.output.latex import bounds_markdown_table

        print(bounds_markdown_table([bounds.get(n) for n in bounds.names()]))
        return 0
    if args.list:
        for name in bounds.names():
            b = bounds.get(name)
            flag = " [reconstructed]" if b.reconstructed else ""
            print(f"{name:34s} {b.direction:10s} {b.source}{flag}")
        return 0
    if not args.name:
        raise ParameterError("NAME: give a bound name or --list")
    b = bounds.get(args.name)
    values = parse_assignments(args.at)
    if args.compare:
        other = bounds.get(args.compare)
        at = {k: v for k, v in values.items()}
        cmp = b.compare(other, at=at)
        print(cmp.summary())
        return 0
    if args.latex:
        if values:
            from exactdp.output.latex import to_latex

            print(f"{b.symbol_latex} = {to_latex(b.evaluate(partial=True, **values))}")
        else:
            from exactdp.output.latex import bound_statement_latex

            print(bound_statement_latex(b))
        return 0
    if args.at is not None:  # every parameter, each in its domain: checked before anything is printed
        val = b.evaluate(**values)
        approx = b.evalf(args.digits, **values)
    print(b.describe())
    if args.at is not None:
        print(f"  value at {','.join(f'{k}={v}' for k, v in values.items())}: {val}")
        print(f"  ≈ {approx}")
    return 0
