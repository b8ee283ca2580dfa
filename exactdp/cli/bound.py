"""``exactdp bound NAME [--eps EPS | --t T] [--c C] [--delta D] [--n N] [--N N] [--at NAME=VALUE,...]
[--compare OTHER] [--digits D] [--format text|json|markdown|latex|html] [-o FILE]`` and ``--list``
(``--compare``: text or json).

The shared flags fix the privacy level (``--eps`` or ``--t`` = e^ε), ``--c``, ``--delta``, ``--n``, ``--N``;
``--at NAME=VALUE,...`` fixes any other parameter of the bound (``alpha``, ``M``, ``zeta``, …); a parameter
with its own flag is given by that flag only (``--at t=3`` is an error naming ``--t``).
"""

from __future__ import annotations

from typing import Any

from exactdp.cli import _common

#: parameters that have their own flag → that flag (given through --at they are refused, naming the flag)
SHARED = {"eps": "--eps", "epsilon": "--eps", "t": "--t", "c": "--c", "delta": "--delta", "n": "--n", "N": "--N"}


def parse_assignments(text: str | None) -> dict:
    """``"alpha=1/2,M=4"`` → {"alpha": "1/2", "M": "4"} (values stay strings: read exactly later), the
    ``--at`` of ``bound`` and ``plot bound``; a parameter with its own flag (:data:`SHARED`) is refused."""
    from exactdp.errors import ParameterError
    from exactdp.limits import limit, quote

    out: dict = {}
    if text is None:
        return out
    if len(text) > limit("max_text_length"):
        raise ParameterError(f"--at: {len(text)} characters exceeds the limit max_text_length = "
                             f"{limit('max_text_length')}; got {quote(text)}")
    if not text.strip():
        raise ParameterError("--at: empty; expected NAME=VALUE pairs separated by commas, e.g. alpha=1/2,M=4")
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise ParameterError(f"--at: expected NAME=VALUE pairs separated by commas, got {quote(part.strip())}")
        k, v = (x.strip() for x in part.split("=", 1))
        if not k or not v:
            raise ParameterError(f"--at: expected NAME=VALUE, got {quote(part.strip())}")
        if k in SHARED:
            raise ParameterError(f"--at: {k} has its own flag; give it as {SHARED[k]} "
                                 f"(--at is for the other parameters, e.g. alpha=1/2)")
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
                                   "Privacy is parametrized by t = e^eps: give --eps or --t.")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("--list", action="store_true", help="list every registered bound")
    _common.add_privacy(p)
    _common.add_c(p, "prior mass floor c of (eps,c)-PML")
    _common.add_delta(p)
    p.add_argument("--n", default=None, metavar="N", help="number of samples / compositions n")
    p.add_argument("--N", default=None, metavar="N", help="number of inputs N")
    p.add_argument("--at", default=None, metavar="ASSIGN",
                   help="other parameter values, e.g. alpha=1/2,M=4 (eps, t, c, delta, n, N: use their flags)")
    p.add_argument("--digits", type=_digits, default=15,
                   help="significant digits of the numeric value (default 15, at least 1)")
    p.add_argument("--compare", default=None, metavar="OTHER",
                   help="decide NAME <= OTHER and NAME >= OTHER exactly (fix N, delta, ... with the flags)")
    _common.add_output(p, ("text", "json", "markdown", "latex", "html"))
    p.set_defaults(func=run)


def _values(args) -> dict:
    """Every fixed parameter (strings, read exactly later), from the flags and --at."""
    values = parse_assignments(args.at)
    flags = {"eps": args.eps, "t": args.t, "c": args.c, "delta": args.delta, "n": args.n, "N": args.N}
    values.update({k: v for k, v in flags.items() if v is not None})
    return {k: _read_value(k, v, k in flags) for k, v in values.items()}


def _read_value(name: str, text: str, flag: bool):
    """One parameter value read by the one safe reader with its function set (``--eps 'log(2)'``,
    ``--t 'exp(1/2)'``, ``--at alpha=0.5``: 1/2 exactly), as every command reads it; the bound checks its
    domain."""
    from exactdp.numbers.reader import read_expression

    return read_expression(text, name=f"--{name}" if flag else f"--at {name}")


def _strings(values: dict) -> dict:
    return {k: str(v) for k, v in values.items()}


def _bound_json(b) -> dict:
    from exactdp.output.latex import bound_latex

    return {"name": b.name, "quantity": b.quantity, "direction": b.direction, "expr": str(b.expr),
            "text": _common.math_text(b.expr), "latex": bound_latex(b), "parameters": [str(p) for p in b.parameters],
            "domain": [str(d) for d in b.domain()], "source": str(b.source), "reconstructed": bool(b.reconstructed),
            "catalogue": list(b.catalogue)}


def _point(d) -> str:
    return ", ".join(f"{k} = {_common.math_text(v)}" for k, v in d.items()) if isinstance(d, dict) else \
        _common.math_text(d)


def _comparison_json(cmp) -> dict:
    def point(d):
        return {str(k): str(v) for k, v in d.items()} if isinstance(d, dict) else str(d)

    def decision(d):
        return {"truth": d.truth.value, "counterexample": point(d.counterexample) if d.counterexample else None,
                "reason": d.reason or None}

    return {"names": list(cmp.names), "le": decision(cmp.le), "ge": decision(cmp.ge),
            "crossings": [point(x) for x in cmp.crossings], "crossings_text": [_point(x) for x in cmp.crossings],
            "le_where": [str(w) for w in cmp.le_where], "ge_where": [str(w) for w in cmp.ge_where]}


def run(args) -> int:
    from exactdp import bounds
    from exactdp.errors import ParameterError

    _common.check_output_path(args.output)
    if args.list:
        all_bounds = [bounds.get(n) for n in bounds.names()]
        if args.format == "html":
            from exactdp.cli import _document  # deferred: start-up

            _document.emit(args, "Bounds of [A] and [G]", [("rows", [(b.name, b.expr) for b in all_bounds])])
        elif args.format == "markdown":
            from exactdp.output.latex import bounds_markdown_table

            _common.emit(args, bounds_markdown_table(all_bounds))
        elif args.format == "latex":
            from exactdp.output.latex import bound_table, document

            _common.emit(args, document(bound_table(all_bounds), title="Bounds of [A] and [G]"))
        elif args.format == "json":
            _common.emit_json(args, "bound", {"bounds": [_bound_json(b) for b in all_bounds]})
        else:
            rows = [["name", "direction", "source"]]
            rows += [[b.name, b.direction, f"{b.source}{' [reconstructed]' if b.reconstructed else ''}"]
                     for b in all_bounds]
            _common.emit(args, _common.table(rows, wrap=(2,)))
        return 0
    if not args.name:
        raise ParameterError("NAME: give a bound name or --list")
    b = bounds.get(args.name)
    values = _values(args)
    if args.compare:
        other = bounds.get(args.compare)
        cmp = b.compare(other, at=dict(values))
        if args.format == "json":
            _common.emit_json(args, "bound", {"comparison": _comparison_json(cmp), "at": _strings(values)})
        elif args.format != "text":
            raise ParameterError(f"--format {args.format}: --compare prints text or json")
        else:
            _common.emit(args, cmp.summary(show=_common.math_text, le="≤", ge="≥"))
        return 0
    if args.format == "latex":
        if values:
            from exactdp.output.latex import to_latex

            _common.emit(args, f"{b.symbol_latex} = {to_latex(b.evaluate(partial=True, **values))}")
        else:
            from exactdp.output.latex import bound_statement_latex

            _common.emit(args, bound_statement_latex(b))
        return 0
    if args.format == "markdown":
        from exactdp.output.latex import bounds_markdown_table, to_latex

        text = bounds_markdown_table([b])
        if values:  # the exact value at the point, and its certified digits
            at = ", ".join(f"{k} = {v}" for k, v in values.items())
            text = text.rstrip("\n") + "\n\n" + (f"Value at {at}: ${to_latex(b.evaluate(**values))}$ "
                     f"(≈ {b.evalf(args.digits, **values)}, correctly rounded, certified).")
        _common.emit(args, text)
        return 0
    val = approx = None
    if values:  # every parameter, each in its domain: checked before anything is printed
        val = b.evaluate(**values)
        approx = b.evalf(args.digits, **values)
    if args.format == "html":
        from exactdp.cli import _document  # deferred: start-up

        fields: list[tuple[str, Any]] = [(b.quantity, b.expr), ("direction", b.direction),
                                         ("domain", ", ".join(_common.math_text(d) for d in b.domain())), ("source", str(b.source))]
        if values:
            fields += [(f"value at {', '.join(f'{k} = {v}' for k, v in values.items())}", val),
                       (f"{args.digits} significant digits", str(approx))]
        _document.emit(args, f"exactdp bound {b.name}", [("rows", fields)])
        return 0
    if args.format == "json":
        doc: dict[str, Any] = {"bound": _bound_json(b)}
        if values:
            doc.update({"at": _strings(values), "value": str(val), "value_text": _common.math_text(val), "decimal": str(approx),
                        "digits": args.digits})
        _common.emit_json(args, "bound", doc)
        return 0
    lines = [b.describe(show=_common.math_text, unicode=True)]
    if values:
        lines.append(f"  value at {', '.join(f'{k} = {v}' for k, v in values.items())}: {_common.abbreviate(val)}")
        lines.append(f"  ≈ {approx}")
    _common.emit(args, "\n".join(lines))
    return 0
