"""``exactdp derive MECHANISM [k=3 ...] [--eps EPS | --t T] [--c C] [--delta D] | --file KERNEL.json``
``[--format text|json|markdown|latex|html] [-o FILE]`` — closed forms and their derivations.

Parameters of the catalogue constructor that are not given become symbols (t = e^eps, c, delta,
p, q); integers (k, N, q) must be given.  ``--t``/``--eps`` fix the constructor's e^ε (its ``t``),
``--c`` and ``--delta`` its c and δ.  ``--format latex`` prints a complete LaTeX document with every
derivation step; ``--bounds`` prints the LaTeX table of the bounds
registry instead.
"""

from __future__ import annotations

from typing import Any

from exactdp.cli import _common

#: parameters that must be given as positive integers (sizes and indices of the catalogue constructors)
INTEGER_PARAMETERS = ("k", "N", "q", "n")


def parse_values(mechanism: str, items) -> dict:
    """``["N=3", "q=1"]`` → {"N": "3", "q": "1"}: NAME=VALUE pairs, each name a parameter of the catalogue
    mechanism and given once; k, N, q, n positive integers (checked here, one line each)."""
    import inspect

    from exactdp.errors import ParameterError
    from exactdp.limits import quote
    from exactdp.mechanisms import CATALOGUE

    if mechanism not in CATALOGUE:
        raise ParameterError(f"MECHANISM: unknown mechanism {quote(mechanism, 60)}; choose one of "
                             f"{', '.join(sorted(CATALOGUE))}")
    known = list(inspect.signature(CATALOGUE[mechanism]).parameters)
    values: dict = {}
    for item in items:
        if "=" not in item:
            raise ParameterError(f"NAME=VALUE: expected e.g. N=3, got {quote(item)}")
        k, v = (x.strip() for x in item.split("=", 1))
        if k not in known:
            raise ParameterError(f"{quote(k, 40)}: not a parameter of {mechanism} (parameters: {', '.join(known)})")
        if k in values:
            raise ParameterError(f"{k}: given twice ({k}={quote(values[k], 40)} and {k}={quote(v, 40)})")
        if not v:
            raise ParameterError(f"{k}: empty value (NAME=VALUE)")
        if k in INTEGER_PARAMETERS:
            if not (v.isascii() and v.isdigit() and len(v) <= 9 and int(v) >= 1):
                raise ParameterError(f"{k}: must be a positive integer, got {quote(v)}")
            v = str(int(v))
        values[k] = v
    return values


def register(sub) -> None:
    p = sub.add_parser("derive", help="derive closed forms (eta_TV, E_gamma, LDP, PML) of a parametric kernel",
                       description="Derive and simplify the closed forms of a parametric mechanism from the "
                                   "catalogue or of a kernel file with symbolic entries (JSON with "
                                   "\"parameters\", \"region\", \"rows\").")
    p.add_argument("mechanism", nargs="?", metavar="MECHANISM", help="catalogue name, e.g. grosse_pml_mechanism")
    p.add_argument("values", nargs="*", metavar="NAME=VALUE", help="fixed parameters, e.g. N=3 (k, N, q required)")
    _common.add_privacy(p, what="fixes the mechanism's e^eps (its parameter t)")
    _common.add_c(p, "fixes the mechanism's c")
    _common.add_delta(p, "fixes the mechanism's delta")
    p.add_argument("--file", default=None, help="a JSON kernel file with symbolic entries")
    p.add_argument("--quantity", default=None,
                   help="comma-separated subset of validity,eta_tv,eta_hockey_stick,ldp_ratio,pml_ratio "
                        "(default: all; eta_hockey_stick only for one-parameter kernels)")
    p.add_argument("--bounds", action="store_true", help="print the LaTeX document of the bounds registry")
    _common.add_output(p, ("text", "json", "markdown", "latex", "html"))
    p.set_defaults(func=run)


def _shared_values(args, mechanism: str, values: dict) -> dict:
    """The catalogue parameters fixed by --eps/--t (t), --c and --delta, added to ``values``."""
    import inspect

    from exactdp.errors import ParameterError
    from exactdp.mechanisms import CATALOGUE

    known = list(inspect.signature(CATALOGUE[mechanism]).parameters)
    t = _common.read_t(args)
    for flag, name, value in (("--eps/--t", "t", None if t is None else str(t)), ("--c", "c", args.c),
                              ("--delta", "delta", args.delta)):
        if value is None:
            continue
        if name not in known:
            raise ParameterError(f"{flag}: {mechanism} has no parameter {name} (parameters: {', '.join(known)})")
        if name in values:
            raise ParameterError(f"{flag}: {name} is also given as {name}=...; give it once")
        values[name] = value
    return values


def _derivation_json(d) -> dict:
    import sympy

    def text(e):
        return None if e is None else str(e)

    return {"quantity": d.quantity, "title": d.title, "result": text(d.result),
            "result_text": None if d.result is None else _common.math_text(d.result),
            "latex": None if d.result is None else sympy.latex(d.result),
            "steps": [{"text": s.text, "expr": text(s.expr),
                       "expr_text": None if s.expr is None else _common.math_text(s.expr)}
                      for s in d.steps]}


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.output.latex import derivation_document
    from exactdp.measures.derivations import QUANTITIES, derive
    from exactdp.symbolic.derive import catalogue_kernel

    _common.check_output_path(args.output)
    if args.bounds:  # the registry: LaTeX (also in text, as before), a Markdown table or an HTML fragment
        from exactdp import bounds
        from exactdp.output.latex import bound_table, bounds_markdown_table, document

        all_bounds = [bounds.get(n) for n in bounds.names()]
        if args.format == "json":
            raise ParameterError("--bounds: no JSON here; the registry as JSON is `exactdp bound --list --format json`")
        if args.format == "markdown":
            _common.emit(args, bounds_markdown_table(all_bounds))
        elif args.format == "html":
            from exactdp.cli import _document  # deferred: start-up

            _document.emit(args, "Bounds of [A] and [G]", [("rows", [(b.name, b.expr) for b in all_bounds])])
        else:
            _common.emit(args, document(bound_table(all_bounds), title="Bounds of [A] and [G]"))
        return 0
    if args.file:
        from pathlib import Path

        from exactdp.io import read_text_file
        from exactdp.symbolic.derive import parametric_kernel_from_json

        if args.eps is not None or args.t is not None or args.c is not None or args.delta is not None:
            raise ParameterError("--file: fix the parameters of a kernel file in the file itself "
                                 "(--eps, --t, --c, --delta apply to catalogue mechanisms)")
        text = read_text_file(args.file, "--file")
        K = parametric_kernel_from_json(text, name=Path(args.file).stem)
    elif args.mechanism:
        values = _shared_values(args, args.mechanism, parse_values(args.mechanism, args.values))
        K = catalogue_kernel(args.mechanism, values)
    else:
        raise ParameterError("MECHANISM: give a catalogue mechanism, --file or --bounds")
    if not K.symbolic:
        raise ParameterError("the kernel has no parameters left; use `exactdp analyze` for a rational kernel")
    if args.quantity:
        quantities = tuple(q.strip() for q in args.quantity.split(","))
    else:  # E_gamma with a symbolic gamma adds a parameter: by default only for one-parameter kernels
        quantities = tuple(q for q in QUANTITIES if q != "eta_hockey_stick" or len(K.free_symbols) == 1)
    ds = derive(K, quantities)
    if args.format == "latex":
        _common.emit(args, derivation_document(K, ds, title=f"Closed forms of {K.name or 'the kernel'}"))
    elif args.format in ("markdown", "html"):
        from exactdp.cli import _document  # deferred: start-up

        blocks: list[tuple[Any, ...]] = [("matrix", "K", [list(row) for row in K.rows])]
        for d in ds:
            rows = [(s.text, s.expr) for s in d.steps if s.expr is not None] + [("result", d.result)]
            blocks += [("heading", d.quantity), ("rows", rows)]
        _document.emit(args, f"Closed forms of {K.name or 'the kernel'}", blocks)
    elif args.format == "json":
        _common.emit_json(args, "derive", {"kernel": K.name or "K",
                                           "parameters": sorted(str(s) for s in K.free_symbols),
                                           "derivations": [_derivation_json(d) for d in ds]})
    else:
        _common.emit(args, derivation_text(ds))
    return 0


def derivation_text(ds) -> str:
    """The text output: each quantity, its steps (the prose of what is computed and the exact value, printed
    from the expression by the one text printer; the step's LaTeX label is for the documents) and the result."""
    lines = []
    for d in ds:
        lines.append(f"{d.quantity}:")
        for k, s in enumerate(d.steps, 1):
            value = "" if s.expr is None else f" {_common.math_text(s.expr)}"  # the step's value, printed once
            lines.append(f"  step {k}: {_common.math_line(s.text)}" + (f":{value}" if value else ""))
        lines.append(f"  result: {_common.math_text(d.result)}")
    return "\n".join(lines)
