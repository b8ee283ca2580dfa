"""``exactdp plot profile KERNEL [--n N] -o FILE`` and ``exactdp plot bound NAME [NAME ...] --vs eps -o FILE``.

* ``plot profile``: the exact privacy profile δ(ε) = η_{E_{e^ε}}(K) of a kernel file (of K^{⊗n} with
  ``--n``), every breakpoint marked ([A] Thm 1: K is (ε,δ)-LDP iff δ(ε) ≤ δ).
* ``plot bound``: registry bounds (``exactdp bound --list``) against ``--vs eps|t|c|delta`` over
  ``--from``/``--to`` (defaults: ε in [0, 3], t in [1, 20], c in (0, 1/N], δ in [0, 1]) at ``--points``
  exact values, the other parameters fixed by the shared flags ``--eps/--t``, ``--c``, ``--delta``,
  ``--n``, ``--N`` and ``--at NAME=VALUE,...``.

``-o FILE`` names the output: ``.png`` (300 dpi), ``.pdf`` (vector) or ``.svg`` writes that file; a name
without one of these suffixes writes ``FILE.png`` and ``FILE.pdf``.  The figures use the print style of
:mod:`exactdp.output.figstyle`; without matplotlib the command prints the one line to install it (exit 2).
"""

from __future__ import annotations

from exactdp.cli import _common

SUFFIXES = (".png", ".pdf", ".svg")


def _points(text: str) -> int:
    import argparse

    from exactdp.limits import quote

    try:
        k = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer in 2..10000, got {quote(text, 40)}") from None
    if not 2 <= k <= 10_000:
        raise argparse.ArgumentTypeError(f"must be an integer in 2..10000, got {k}")
    return k


def _check_title(title) -> None:
    """Refuse a ``--title`` longer than ``max_title_length`` before any work.  A title is text, never mathtext:
    the figure escapes every ``$`` (:func:`exactdp.numbers.escape.mathtext`), so ``$\\foo$`` is printed as
    it is instead of failing when the figure is written."""
    if title is None:
        return
    from exactdp.limits import require

    require("max_title_length", len(title), "--title")


def _add_output(p) -> None:
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.png (300 dpi), FILE.pdf or FILE.svg; without one of these suffixes FILE.png and FILE.pdf")


def register(sub) -> None:
    p = sub.add_parser("plot", help="plot a kernel's exact privacy profile or registry bounds (PNG/PDF)",
                       description="Figures for print (one column, 300 dpi PNG, vector PDF) of exact quantities.")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", parser_class=type(p))
    kinds.required = True

    pp = kinds.add_parser("profile", help="the exact privacy profile delta(eps) of a kernel file, breakpoints marked",
                          description="delta(eps) = eta_{E_{e^eps}}(K) for eps >= 0 (exact, piecewise in e^eps), "
                                      "with every breakpoint marked; --n N plots the profile of the n-fold product.")
    pp.add_argument("file", metavar="KERNEL", help="kernel file (JSON or CSV, exact entries)")
    _common.add_csv_labels(pp)
    pp.add_argument("--n", type=int, default=None, metavar="N", help="plot the profile of K^(x n) (n-fold product)")
    pp.add_argument("--at", action="append", default=None, metavar="NAME=VALUE", help="a parameter value of a parametric kernel file (JSON with \"parameters\"), exact; repeat for each")
    pp.add_argument("--title", default=None, help="title above the plot (default: the kernel's name and shape)")
    _add_output(pp)
    pp.set_defaults(func=run_profile)

    pb = kinds.add_parser("bound", help="registry bounds against eps (or t, c, delta)",
                          description="Evaluate bounds of the registry (exactdp bound --list) exactly at equally "
                                      "spaced values of one parameter and plot them (certified values).")
    pb.add_argument("names", nargs="+", metavar="NAME", help="bound names (several: one curve each)")
    pb.add_argument("--vs", default="eps", choices=("eps", "t", "c", "delta"),
                    help="the parameter on the x axis (default eps)")
    pb.add_argument("--from", dest="lo", default=None, metavar="X", help="first value of the swept parameter (exact)")
    pb.add_argument("--to", dest="hi", default=None, metavar="X", help="last value of the swept parameter (exact)")
    pb.add_argument("--points", type=_points, default=61, help="number of values (default 61, 2..10000)")
    _common.add_privacy(pb, what="fixed, when --vs is not eps or t")
    _common.add_c(pb)
    _common.add_delta(pb)
    pb.add_argument("--n", default=None, metavar="N", help="number of samples / compositions n")
    pb.add_argument("--N", default=None, metavar="N", help="number of inputs N")
    pb.add_argument("--at", default=None, metavar="ASSIGN", help="other parameter values, e.g. M=4,alpha=1/2")
    pb.add_argument("--title", default=None, help="title above the plot (default: the fixed parameter values)")
    _add_output(pb)
    pb.set_defaults(func=run_bound)


def _targets(output: str):
    """The stem and the formats ``-o`` asks for (checked writable before any work)."""
    from pathlib import Path

    from exactdp.errors import ParameterError
    from exactdp.limits import quote
    from exactdp.regular_files import check_regular

    if not str(output).strip():
        raise ParameterError("-o: give a file name")
    p = Path(output)
    if p.suffix.lower() in SUFFIXES:
        _common.check_output_path(output)
        return p.with_suffix(""), (p.suffix.lower()[1:],)
    for fmt in ("png", "pdf"):
        q = Path(f"{output}.{fmt}")
        if q.is_dir() or not q.parent.is_dir():
            raise ParameterError(f"-o: cannot write {quote(str(q))} (a directory, or its folder does not exist)")
        check_regular(q, "-o", write=True)
    return p, ("png", "pdf")


def _write(fig, output: str) -> None:
    from exactdp.output import figstyle

    from exactdp.numbers.escape import terminal

    stem, formats = _targets(output)
    for path in figstyle.save(fig, stem, formats):
        print(terminal(path))  # a file name is data: no control character reaches the terminal
    figstyle.pyplot().close(fig)


def run_profile(args) -> int:
    from exactdp.analysis import check_cost, load_kernel
    from exactdp.errors import ParameterError
    from exactdp.output.figstyle import pyplot

    pyplot()  # a missing matplotlib: one line naming the extra, before any computation
    _targets(args.output)
    _check_title(args.title)
    if args.n is not None and args.n < 1:
        raise ParameterError(f"--n: must be a positive integer, got {args.n}")
    K = load_kernel(args.file, at=args.at, header=args.header, row_labels=args.row_labels,
                    check_shape=lambda N, M: check_cost(N, M, profile=True),
                    report=_common.note)
    if args.n is None or args.n == 1:
        from exactdp.measures.privacy import privacy_profile

        profile = privacy_profile(K)
    else:
        from exactdp.measures.tensor import privacy_profile_tensor_power

        profile = privacy_profile_tensor_power(K, args.n)
    from exactdp.output.plots import profile_figure, profile_plot_data

    N, M = K.shape
    power = f", {args.n}-fold product" if args.n and args.n > 1 else ""
    title = args.title if args.title is not None else f"{K.name or 'K'} ({N}×{M} kernel){power}"
    fig = profile_figure(profile, title)
    _write(fig, args.output)
    bps = profile_plot_data(profile)["breakpoints"]
    shown = ", ".join(_common.math_text(b) for b, _, _ in bps[:8]) + (", ..." if len(bps) > 8 else "")
    print(f"{len(bps)} breakpoint{'s' if len(bps) != 1 else ''} at e^eps > 1" + (f": {shown}" if bps else ""))
    return 0


def _sweep_range(args, N):
    from flint import fmpq

    from exactdp.errors import ParameterError
    from exactdp.numbers.reader import read_rational
    from exactdp.output.plots import SWEEPS

    lo_default, hi_default = SWEEPS[args.vs]
    if args.vs == "c":
        if N is None and (args.lo is None or args.hi is None):
            raise ParameterError("--vs c: give --N (c runs over (0, 1/N]) or both --from and --to")
        lo_default = lo_default or str(fmpq(1, 100 * int(N)) if N is not None else "0")
        hi_default = hi_default or (str(fmpq(1, int(N))) if N is not None else "1")
    lo = read_rational(args.lo if args.lo is not None else lo_default, "--from")
    hi = read_rational(args.hi if args.hi is not None else hi_default, "--to")
    return lo, hi


def run_bound(args) -> int:
    from exactdp.cli.bound import parse_assignments  # deferred: start-up
    from exactdp.errors import ParameterError
    from exactdp.output.figstyle import pyplot

    pyplot()
    _targets(args.output)
    _check_title(args.title)
    values = parse_assignments(args.at)
    for key in ("c", "delta", "n", "N"):
        v = getattr(args, key)
        if v is not None:  # never also in --at (parse_assignments refuses a parameter that has a flag)
            values[key] = v
    if args.eps is not None or args.t is not None:
        if args.vs in ("eps", "t"):
            raise ParameterError(f"--{'eps' if args.eps is not None else 't'}: eps is the swept parameter "
                                 f"(--vs {args.vs}); set its range with --from/--to")
        values["t"] = _common.read_t(args)
    if args.vs in values or (args.vs in ("eps", "t") and ({"eps", "t"} & set(values))):
        raise ParameterError(f"--at: {args.vs} is the swept parameter; set its range with --from/--to")
    N = values.get("N")
    lo, hi = _sweep_range(args, N)
    from exactdp.output.plots import bound_curves, bounds_figure

    curves = bound_curves(args.names, args.vs, lo, hi, args.points, values)
    empty = [name for name, c in curves.items() if not c["x"]]
    if empty:
        raise ParameterError(f"--from/--to: no value of {args.vs} in [{lo}, {hi}] lies in the domain of "
                             f"{', '.join(empty)}")
    fixed = ", ".join(f"{k} = {_common.math_text(v)}" for k, v in values.items())
    fig = bounds_figure(curves, args.vs, args.title if args.title is not None else fixed)
    _write(fig, args.output)
    for name, c in curves.items():
        if c["skipped"]:
            print(f"{name}: {c['skipped']} of {args.points} values of {args.vs} outside its domain (left out)")
    return 0
