"""``exactdp recheck DIR [--format text|json] [-o FILE]``: re-check exported certificates independently of exactdp's prover.

``DIR`` is written by ``exactdp verify --certificates DIR``.  Each certificate is re-checked by
:mod:`exactdp.recheck` (Python fractions, sympy's cancel and real-root isolation; no exactdp solver or
prover) and printed as OK, PARTIAL (with what was trusted) or REJECTED (with the reason).
``--format json`` prints the envelope of ``exactdp/schemas/recheck.json``; the deprecated ``--json`` prints the
bare document as before.  Exit status: 0 when nothing is REJECTED, 1 otherwise, 2 on bad input (no such directory, no files).
"""

from __future__ import annotations

import json

from exactdp.cli import _common


def register(sub) -> None:
    p = sub.add_parser("recheck", help="re-check exported certificates without exactdp's prover",
                       description="Re-check the certificates that `exactdp verify --certificates DIR` wrote, "
                                   "through a separate code path: Python fractions for point data, sympy's cancel "
                                   "for identities, sympy's real-root isolation for one-parameter sign "
                                   "conditions (several parameters: exact on lines, the rest reported as trusted). "
                                   "Verdicts: OK, PARTIAL (what was trusted), REJECTED (why).")
    p.add_argument("directory", metavar="DIR", help="the folder written by exactdp verify --certificates DIR")
    _common.add_output(p, ("text", "json"), json_alias=True)
    p.set_defaults(func=run)


def summary(results) -> str:
    from exactdp.recheck import OK, PARTIAL, REJECTED

    n = {s: sum(r.status == s for r in results) for s in (OK, PARTIAL, REJECTED)}
    return (f"{len(results)} certificates: {n[OK]} OK, {n[PARTIAL]} PARTIAL (part trusted to the engine), "
            f"{n[REJECTED]} REJECTED")


def run(args) -> int:
    from exactdp.recheck import REJECTED, recheck_directory

    _common.check_output_path(args.output)
    results = recheck_directory(args.directory)
    doc = {"summary": summary(results), "certificates": [r.to_dict() for r in results]}
    if args.format == _common.LEGACY_JSON:
        _common.emit(args, json.dumps(doc, indent=1))
    elif args.format == "json":
        _common.emit_json(args, "recheck", doc)
    else:
        _common.emit(args, "\n".join([r.line() for r in results] + [summary(results)]))
    return 1 if any(r.status == REJECTED for r in results) else 0
