"""``exactdp show CLAIM_ID [--seed S] [--quick] [--format text|json|markdown|latex|html]
[-o FILE]``: statement,
hypotheses, evidence and derivation of one claim.

Text shows the statement's formulas printed from their expressions (:func:`statement_text`) and every
expression by the one text printer (:func:`exactdp.numbers.display.to_text`); JSON is the
claim's record of the verify report (``exactdp/schemas/show.json``); Markdown and LaTeX are the reports of
``verify`` restricted to this claim.
"""

from __future__ import annotations

import json

from exactdp.cli import _common


def register(sub) -> None:
    p = sub.add_parser("show", help="statement, evidence and derivation of one claim",
                       description="Run the checks of one claim and print its statement, source, hypotheses, "
                                   "verdict and full evidence (instances, derivation, counterexample).")
    p.add_argument("claim", metavar="CLAIM_ID")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--claims", action="append", metavar="PACKAGE",
                   help="load the claims of this package of proof modules (default: the registered packages)")
    _common.add_output(p, ("text", "json", "markdown", "latex", "html"))
    p.set_defaults(func=run)


def statement_text(claim) -> str:
    """The claim's statement on the terminal: its formulas
    (:attr:`~exactdp.verification.claims.Claim.formulas`) printed from the expressions by the one formula
    printer (:func:`exactdp.numbers.formula_text.formula_text`), joined by ``;``.  A statement without mathematics
    (a finding about the text) shows its stored source, marked ``[LaTeX]``; the terminal never rewrites LaTeX
    (a regex conversion printed log(1+√2)/2 for log((1+√2)/2))."""
    from exactdp.numbers.formula_text import formula_text
    from exactdp.verification.claims import statement_formulas

    if claim.formulas:
        return ";  ".join(formula_text(f) for f in statement_formulas(claim))
    return f"[LaTeX] {claim.statement.strip()}"


def format_result(res) -> str:
    from exactdp.numbers.formula_text import DerivationStep, scope_step
    from exactdp.output.report import verdict_text

    c = res.claim
    lines = [
        f"{c.id}: {c.title}",
        f"  items:      {', '.join(c.catalogue)}",
        f"  source:     {c.source}   [{c.source.paper.cite()}]",
        f"  kind:       {c.kind}" + ("   (reconstructed statement: not quoted from the paper)" if c.reconstructed else ""),
        "  statement:  " + statement_text(c).replace("\n", "\n              "),
        f"  hypotheses: {c.hypotheses_step.text()}",  # the formulas printed from their expressions
        f"  verdict:    {verdict_text(res)}   (expected {c.expected.value}"
        + (")" if res.matches else "; DIFFERS)"),
        f"  instances:  {res.instances}",
    ]
    if res.scope:  # what a proof covers, and what a proved-modulo claim rests on (with those claims' verdicts)
        from exactdp.output.report import rests_on_text

        lines.append(f"  scope:      {scope_step(res.scope).text()}")
        if res.rests_on:
            lines.append(f"  {rests_on_text(res).replace('rests on: ', 'rests on:   ', 1)}")
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
        for k, step in enumerate(o.derivation, 1):  # a structured step printed from its expressions
            if isinstance(step, DerivationStep):  # the prose symbol by symbol, the formulas from expressions
                shown = step.text(_common.math_line)
            else:
                shown = _common.math_line(step)  # display only
            lines.append(f"    step {k}:   {shown}")
        if o.counterexample:
            lines.append("    counterexample: " + json.dumps(o.counterexample, ensure_ascii=False, default=str))
        if o.details:
            lines.append("    details:  " + json.dumps(o.details, ensure_ascii=False, default=str))
        if o.reason:
            lines.append(f"    reason:   {o.reason}")
    from exactdp.numbers.escape import visible

    return "\n".join(visible(line, keep="\n") for line in lines)  # a claim's texts are data: no control character


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.verification.claims import CheckContext, load_all
    from exactdp.verification.engine import run_claim

    registry = load_all(tuple(args.claims) if args.claims else None)
    claim_id = args.claim
    if claim_id not in registry:
        raise ParameterError(f"claim: unknown claim id {args.claim!r} (see 'exactdp verify --list')")
    _common.check_output_path(args.output)
    res = run_claim(registry[claim_id], CheckContext(seed=args.seed, quick=args.quick))
    if args.format == "json":
        from exactdp.output.report import claim_record

        _common.emit_json(args, "show", json.loads(json.dumps(claim_record(res), default=str)),
                          seed=args.seed, quick=args.quick)
    elif args.format == "markdown":
        from exactdp.output.report import to_markdown

        _common.emit(args, to_markdown([res], seed=args.seed, quick=args.quick))
    elif args.format == "latex":
        from exactdp.cli.verify import latex_report  # deferred: start-up

        _common.emit(args, latex_report([res], seed=args.seed, quick=args.quick))
    elif args.format == "html":
        from exactdp.cli.verify import html_report  # deferred: start-up

        _common.emit(args, html_report([res], seed=args.seed, quick=args.quick))
    else:
        _common.emit(args, format_result(res))
    return 0
