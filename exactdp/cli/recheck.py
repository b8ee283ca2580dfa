"""``exactdp recheck DIR [--json]``: re-check exported certificates independently of exactdp's prover.

``DIR`` is written by ``exactdp verify --certificates DIR``.  Each certificate is re-checked by
:mod:`exactdp.recheck` (Python fractions, sympy's cancel and real-root isolation; no exactdp solver or
prover) and printed as OK, PARTIAL (with what was trusted) or REJECTED (with the reason).
Exit status: 0 when nothing is REJECTED, 1 otherwise, 2 on bad input (no such directory, no files).
"""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("recheck", help="re-check exported certificates without exactdp's prover",
                       description="Re-check the certificates that `exactdp verify --certificates DIR` wrote, "
                                   "through a separate code path: Python fractions for point data, sympy's cancel "
                                   "for identities, sympy's real-root isolation for one-parameter sign "
                                   "conditions (several parameters: exact on lines, the rest reported as trusted). "
                                   "Verdicts: OK, PARTIAL (what was trusted), REJECTED (why).")
    p.add_argument("directory", metavar="DIR", help="the folder written by exactdp verify --certificates DIR")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


def summary(results) -> str:
    from exactdp.recheck import OK, PARTIAL, REJECTED

    n = {s: sum(r.status == s for r in results) for s in (OK, PARTIAL, REJECTED)}
    return (f"{len(results)} certificates: {n[OK]} OK, {n[PARTIAL]} PARTIAL (part trusted to the engine), "
            f"{n[REJECTED]} REJECTED")


def run(args) -> int:
    from exactdp.recheck import REJECTED, recheck_directory

    results = recheck_directory(args.directory)
    if args.json:
        print(json.dumps({"summary": summary(results), "certificates": [r.to_dict() for r in results]}, indent=1))
    else:
        for r in results:
            print(r.line())
        print(summary(results))
    return 1 if any(r.status == REJECTED for r in results) else 0
