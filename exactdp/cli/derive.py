"""``exactdp derive MECHANISM [k=3 ...] | --file KERNEL.json`` — closed forms and their derivations.

Parameters of the catalogue constructor that are not given become symbols (gamma → t = e^eps, c, delta,
p, q); integers (k, N, q) must be given.  ``--latex`` prints a complete LaTeX document with every
derivation step; ``--bounds`` prints the LaTeX table of the bounds registry instead.
"""

from __future__ import annotations


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
    p.add_argument("--file", default=None, help="a JSON kernel file with symbolic entries")
    p.add_argument("--quantity", default=None,
                   help="comma-separated subset of validity,eta_tv,eta_hockey_stick,ldp_ratio,pml_ratio "
                        "(default: all; eta_hockey_stick only for one-parameter kernels)")
    p.add_argument("--latex", action="store_true", help="print a complete LaTeX document")
    p.add_argument("--bounds", action="store_true", help="print the LaTeX document of the bounds registry")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.output.latex import derivation_document
    from exactdp.symbolic.derive import QUANTITIES, catalogue_kernel, derive

    if args.bounds:
        from exactdp.output.latex import bound_table, document
        from exactdp import bounds

        print(document(bound_table([bounds.get(n) for n in bounds.names()]), title="Bounds of [A] and [G]"))
        return 0
    if args.file:
        from pathlib import Path

        from exactdp.io import read_text_file
        from exactdp.symbolic.derive import parametric_kernel_from_json

        text = read_text_file(args.file, "--file")
        K = parametric_kernel_from_json(text, name=Path(args.file).stem)
    elif args.mechanism:
        K = catalogue_kernel(args.mechanism, parse_values(args.mechanism, args.values))
    else:
        raise ParameterError("MECHANISM: give a catalogue mechanism, --file or --bounds")
    if not K.symbolic:
        raise ParameterError("the kernel has no parameters left; use `exactdp analyze` for a rational kernel")
    if args.quantity:
        quantities = tuple(q.strip() for q in args.quantity.split(","))
    else:  # E_gamma with a symbolic gamma adds a parameter: by default only for one-parameter kernels
        quantities = tuple(q for q in QUANTITIES if q != "eta_hockey_stick" or len(K.free_symbols) == 1)
    ds = derive(K, quantities)
    if args.latex:
        print(derivation_document(K, ds, title=f"Closed forms of {K.name or 'the kernel'}"))
        return 0
    for d in ds:
        print(f"{d.quantity}:")
        print(f"  {d.result}")
    return 0
