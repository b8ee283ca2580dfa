"""``exactdp recheck DIR [--format text|json] [-o FILE]``: re-check exported certificates independently of exactdp's prover.

``DIR`` is written by ``exactdp verify --certificates DIR``.  Its ``index.json`` binds every certificate file to
its claim and check by SHA-256; each certificate is re-checked by :mod:`exactdp.recheck` (Python fractions,
sympy's cancel, resultants and real-root isolation in :mod:`exactdp.recheck_cad`; no exactdp solver or
prover) and printed as OK, UNDECIDED (with what was not re-checked) or REJECTED (with the reason).  ``--format json`` prints the envelope of
``exactdp/schemas/recheck.json``.  Exit status: 0
when every certificate is OK, 1 otherwise (UNDECIDED is not a pass), 2 on bad input (no such directory, no files).

``--smt`` adds a third, independent check (:mod:`exactdp.smt`): every certificate's identity-and-sign
obligations as SMT-LIB problems decided by z3 and by cvc5 (``--smt-timeout`` seconds of CPU time per solver
and encoding of an obligation, default 10; see :mod:`exactdp.smt` for the encodings); the exit status is then 0 only if, besides, every obligation is confirmed by both
solvers (an unknown is not a pass), and 2 with one line when the solvers are not installed.
"""

from __future__ import annotations

from typing import Any

from exactdp.cli import _common


def register(sub) -> None:
    p = sub.add_parser("recheck", help="re-check exported certificates without exactdp's prover",
                       description="Re-check the certificates that `exactdp verify --certificates DIR` wrote, "
                                   "through a separate code path: Python fractions for point data, sympy's cancel "
                                   "for identities, a cylindrical algebraic decomposition with sympy for sign "
                                   "conditions in up to three parameters (an integer N sampled at integers; what is "
                                   "not decided exactly is UNDECIDED). index.json binds each file to its "
                                   "claim and check by SHA-256. Verdicts: OK, UNDECIDED (what was not "
                                   "re-checked), REJECTED (why); exit 0 only if every certificate is OK.")
    p.add_argument("directory", metavar="DIR", help="the folder written by exactdp verify --certificates DIR")
    p.add_argument("--smt", action="store_true",
                   help="also decide every certificate's obligations with the SMT solvers z3 and cvc5 "
                        "(pip install \"exactdp[smt]\"); exit 0 only if both confirm every obligation")
    p.add_argument("--smt-timeout", default="10", metavar="SECONDS",
                   help="CPU-time limit of one solver on one encoding of one obligation with --smt (default 10)")
    _common.add_output(p, ("text", "json"))
    p.set_defaults(func=run)


def summary(results) -> str:
    from exactdp.recheck import OK, REJECTED, UNDECIDED

    n = {s: sum(r.status == s for r in results) for s in (OK, UNDECIDED, REJECTED)}
    return (f"{len(results)} certificates: {n[OK]} OK, {n[UNDECIDED]} UNDECIDED (a part not re-checked), "
            f"{n[REJECTED]} REJECTED")


def run(args) -> int:
    from exactdp.recheck import OK, recheck_directory

    _common.check_output_path(args.output)
    smt = None
    if args.smt:
        from exactdp.smt import require_solvers, smt_check_directory, smt_summary

        require_solvers()
    results = recheck_directory(args.directory)
    doc: dict[str, Any] = {"summary": summary(results), "certificates": [r.to_dict() for r in results]}
    lines = [r.line() for r in results] + [summary(results)]
    if args.smt:
        smt = smt_check_directory(args.directory, timeout=args.smt_timeout)
        doc["smt"] = {"summary": smt_summary(smt), "timeout": str(args.smt_timeout),
                      "certificates": [c.to_dict() for c in smt]}
        lines += ["", "SMT (z3 and cvc5):"] + [c.line() for c in smt] + [smt_summary(smt)]
    if args.format == "json":
        _common.emit_json(args, "recheck", doc)
    else:
        _common.emit(args, "\n".join(lines))
    failed = not all(r.status == OK for r in results)
    return 1 if failed or (smt is not None and any(c.status != "CONFIRMED" for c in smt)) else 0
