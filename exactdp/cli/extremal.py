"""``exactdp extremal sup|gamma ...``: exact suprema over privacy classes with optimal kernels (issue 6)."""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("extremal", help="exact supremum of eta_TV / E_gamma, or Gamma_max, over a privacy class",
                       description="Solve the exact LPs of exactdp.theory.extremal and print the value, an optimal "
                                   "kernel and whether every certificate re-checks exactly.")
    p.add_argument("what", choices=("sup", "gamma"), help="sup: sup of eta (TV or E_gamma); gamma: Gamma_max/min")
    p.add_argument("--N", type=int, required=True, help="number of inputs")
    p.add_argument("--M", type=int, default=2, help="number of outputs (default 2)")
    p.add_argument("--t", required=True, help="t = e^eps >= 1, exact (e.g. 5/2)")
    p.add_argument("--c", default=None, help="(eps,c)-PML prior floor in [0, 1/N]; omit for (eps,delta)-LDP")
    p.add_argument("--delta", default="0", help="(eps,delta)-LDP slack (without --c)")
    p.add_argument("--gamma", default="1", help="E_gamma order for 'sup' (default 1: eta_TV)")
    p.add_argument("--json", action="store_true", help="print exact values as JSON strings")
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.theory.extremal import (
        gamma_max,
        gamma_max_closed_form,
        gamma_min,
        lemma4_bound,
        sup_eta_hockey_stick,
        xi,
    )

    if args.what == "sup":
        r = sup_eta_hockey_stick(args.N, args.M, gamma=args.gamma, t=args.t, c=args.c, delta=args.delta)
        out = {"quantity": f"sup eta_E_{args.gamma}" if args.gamma != "1" else "sup eta_TV",
               "class": (f"(eps,c)-PML, t = {args.t}, c = {args.c}" if args.c is not None
                         else f"(eps,delta)-LDP, t = {args.t}, delta = {args.delta}"),
               "value": str(r.value)}
        if args.c is not None and args.gamma == "1":
            out["Xi (Thm 1)"] = str(xi(args.N, args.t, args.c))
    else:
        if args.c is None:
            raise ParameterError("--c: required for 'gamma' (c = 0 gives eps-LDP)")
        r = gamma_max(args.N, args.t, args.c, M=args.M)
        out = {"quantity": "Gamma_max", "value": str(r.value),
               "Gamma_min": str(gamma_min(args.N, args.t, args.c, M=args.M).value),
               "closed form (G-23)": str(gamma_max_closed_form(args.N, args.t, args.c)),
               "Lemma 4": str(lemma4_bound(args.N, args.t, args.c)),
               "optimal P": [str(v) for v in r.inputs[0]], "optimal Q": [str(v) for v in r.inputs[1]]}
    failures = r.failures()
    out.update({"kernel": r.kernel.as_strings(), "LPs": len(r.lps), "pivots": r.pivots,
                "certificates re-checked": "yes" if not failures else "NO", "problems": failures})
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            if k == "kernel":
                print("kernel:")
                for row in v:
                    print("  " + "  ".join(f"{e:>8}" for e in row))
            elif k != "problems" or v:
                print(f"{k}: {v}")
    return 0 if not failures else 1
