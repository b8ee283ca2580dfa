"""``exactdp show CLAIM_ID [--seed S] [--quick]``: statement, hypotheses, evidence and derivation of one claim."""

from __future__ import annotations

import json


def register(sub) -> None:
    p = sub.add_parser("show", help="statement, evidence and derivation of one claim",
                       description="Run the checks of one claim and print its statement, source, hypotheses, "
                                   "verdict and full evidence (instances, derivation, counterexample).")
    p.add_argument("claim", metavar="CLAIM_ID")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--claims", action="append", metavar="PACKAGE",
                   help="load the claims of this package of proof modules (default: the registered packages)")
    p.set_defaults(func=run)


def format_result(res) -> str:
    from exactdp.output.report import verdict_text

    c = res.claim
    lines = [
        f"{c.id}: {c.title}",
        f"  items:      {', '.join(c.catalogue)}",
        f"  source:     {c.source}   [{c.source.paper.cite()}]",
        f"  kind:       {c.kind}" + ("   (reconstructed statement: not quoted from the paper)" if c.reconstructed else ""),
        "  statement:  " + c.statement.strip().replace("\n", "\n              "),
        f"  hypotheses: {c.hypotheses}",
        f"  verdict:    {verdict_text(res)}   (expected {c.expected.value}"
        + (")" if res.matches else "; DIFFERS)"),
        f"  instances:  {res.instances}",
    ]
    if c.notes:
        lines.append(f"  notes:      {c.notes}")
    if c.related:
        lines.append(f"  related:    {', '.join(c.related)}")
    for cr in res.checks:
        o = cr.outcome
        lines.append(f"  check {cr.check.name}: {o.verdict.value} — {o.summary}")
        if cr.check.description:
            lines.append(f"    what:     {cr.check.description}")
        if o.families:
            lines.append("    families: " + ", ".join(f"{f} ({n})" for f, n in o.families))
        for k, step in enumerate(o.derivation, 1):
            lines.append(f"    step {k}:   {step}")
        if o.counterexample:
            lines.append("    counterexample: " + json.dumps(o.counterexample, ensure_ascii=False, default=str))
        if o.details:
            lines.append("    details:  " + json.dumps(o.details, ensure_ascii=False, default=str))
        if o.reason:
            lines.append(f"    reason:   {o.reason}")
    return "\n".join(lines)


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.verification.claims import CheckContext, load_all, resolve
    from exactdp.verification.engine import run_claim

    registry = load_all(tuple(args.claims) if args.claims else None)
    claim_id = resolve(args.claim)  # a former id names the renamed claim
    if claim_id not in registry:
        raise ParameterError(f"claim: unknown claim id {args.claim!r} (see 'exactdp verify --list')")
    res = run_claim(registry[claim_id], CheckContext(seed=args.seed, quick=args.quick))
    print(format_result(res))
    return 0
