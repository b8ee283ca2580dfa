"""``exactdp derive MECHANISM [k=3 ...] | --file KERNEL.json`` — closed forms and their derivations.

Parameters of the catalogue constructor that are not given become symbols (gamma → t = e^eps, c, delta,
p, q); integers (k, N, q) must be given.  ``--latex`` prints a complete LaTeX document with every
derivation step; ``--bounds`` prints the LaTeX table of the bounds registry instead.
"""

from __future__ import annotations


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
    from exactdp.symbolic.derive import QUANTITIES, catalogue_kernel, derivation_document, derive

    if args.bounds:
        from exactdp.output.latex import bound_table, document
        from exactdp.theory import bounds

        print(document(bound_table([bounds.get(n) for n in bounds.names()]), title="Bounds of [A] and [G]"))
        return 0
    if args.file:
        from pathlib import Path

        from exactdp.errors import ExactDPError
        from exactdp.symbolic.derive import parametric_kernel_from_json

        try:
            text = Path(args.file).read_text()
        except OSError as exc:
            raise ExactDPError(f"--file: cannot read {args.file}: {exc.strerror}") from None
        K = parametric_kernel_from_json(text, name=Path(args.file).stem)
    elif args.mechanism:
        values = {}
        for item in args.values:
            if "=" not in item:
                raise ParameterError(f"NAME=VALUE: expected e.g. N=3, got {item!r}")
            k, v = item.split("=", 1)
            values[k.strip()] = v.strip()
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
    if args.latex:
        print(derivation_document(K, ds, title=f"Closed forms of {K.name or 'the kernel'}"))
        return 0
    for d in ds:
        print(f"{d.quantity}:")
        print(f"  {d.result}")
    return 0
