"""``exactdp analyze FILE [--c C] [--gamma G] [--delta D] [--json]``."""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("analyze", help="every exact quantity of a kernel read from a JSON or CSV file",
                       description="Read a kernel (JSON list of rows or {\"rows\": ...}, or CSV) with exact "
                                   "entries and print its contraction, LDP, PML and leakage quantities exactly.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--c", default=None, help="prior mass bound c in (0, 1/N] for (eps,c)-PML")
    p.add_argument("--gamma", default=None, help="gamma = e^eps for the E_gamma coefficient and the LDP decision")
    p.add_argument("--delta", default=None,
                   help="delta for the (eps,delta)-LDP decision at --gamma (default 0; needs --gamma)")
    p.add_argument("--json", action="store_true", help="print exact values as JSON strings")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.analysis import analyze, check_cost
    from exactdp.output.analysis_view import analysis_json, analysis_text
    from exactdp.errors import ParameterError
    from exactdp.io import read_kernel

    if args.delta is not None and args.gamma is None:  # the (eps,delta)-LDP decision is made at gamma = e^eps
        raise ParameterError("--delta needs --gamma: delta is used only in the (eps,delta)-LDP decision at "
                             "gamma = e^eps (the delta(gamma) profile is printed without it)")
    # the pairwise passes' cost is checked from the shape alone, before any entry is parsed
    K = read_kernel(args.file, check_shape=lambda N, M: check_cost(N, M, gamma=args.gamma, profile=True))
    result = analyze(K, gamma=args.gamma, c=args.c, delta=args.delta if args.delta is not None else "0")
    print(json.dumps(analysis_json(result), indent=2) if args.json else analysis_text(result))
    return 0
