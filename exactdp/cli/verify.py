"""``exactdp verify [CLAIM_ID|PAPER|ITEM ...] [--format text|json|markdown|latex|html] [-o FILE] [--seed S]
[--quick] [--jobs J | --scheduler ADDRESS]``.

``--jobs`` defaults to the CPUs this process may use (:func:`exactdp.verification.engine.default_jobs`,
at most ``MAX_JOBS``); the claims then run in that many worker processes, never more than there are
groups of claims (a single claim runs in this process).

Runs the registered claims (all of them by default) and prints a table fitted to the terminal (claim,
source, verdict, instances, seconds) and two summary lines — the verdict counts, and how many of the papers'
numbered statements (Theorem, Lemma, Corollary, Proposition k) are proved for their whole range — (``--format
text``, the default), or one report:
JSON (``exactdp/schemas/verify.json``), Markdown (the claims table of docs/verdicts.md), LaTeX (a complete document) or
HTML (one self-contained page).  A report goes to ``-o FILE`` (the table and summary then still print) or to
stdout.  Exit status 0 when every verdict equals the registry's expected verdict, 1 otherwise, 2 on bad usage
(an unknown claim id prints one line).
"""

from __future__ import annotations


from exactdp.cli import _common

#: most worker processes (each has its own memory cap, so many workers multiply the memory used)
MAX_JOBS = 256


def register(sub) -> None:
    p = sub.add_parser("verify", help="a verdict, with evidence, for every claim of both papers",
                       description="Check the claims of the two papers exactly and print a verdict per claim. "
                                   "Selectors: claim ids (grosse2026.thm1), groups (asoodeh2021, grosse2026, "
                                   "background, findings) or catalogue items (G-15).")
    p.add_argument("targets", nargs="*", metavar="CLAIM_ID|PAPER|ITEM")
    p.add_argument("--list", action="store_true", help="list the registered claims and exit")
    p.add_argument("--quick", action="store_true", help="the CI-sized run (fewer instances)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random instance families (default 0)")
    _common.add_output(p, _common.FORMATS)
    p.add_argument("--update-readme", nargs="?", const="", metavar="FILE",  # "": report.CLAIMS_TABLE_FILE
                   help="rewrite the claims table between the markers of docs/verdicts.md (run in the repository's "
                        "root; or of the Markdown file given)")
    p.add_argument("--certificates", metavar="DIR",
                   help="write every certificate of every claim as JSON under DIR (re-check with exactdp recheck DIR)")
    p.add_argument("--timings", action="store_true", help="include seconds in the reports (breaks byte-identity)")
    _common.add_no_progress(p)
    p.add_argument("--jobs", type=int, default=None, metavar="J",  # checked in run: one line, exit 2
                   help="run claims in J worker processes (default: the CPUs this process may use; 1 runs them "
                        "in this process; verdicts and reports do not depend on J)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the claims on a dask.distributed scheduler (tcp://host:8786), as check does; the "
                        "verdicts and reports are the same as in-process; needs exactdp[dask]")
    p.add_argument("--claims", action="append", metavar="PACKAGE",
                   help="load the claims of this package of proof modules (a module path; repeatable; default: "
                        "the packages registered in the 'exactdp.claims' entry-point group)")
    p.set_defaults(func=run)


#: the columns of ``verify --list``, and the order in which they are dropped when the terminal is too narrow
LIST_COLUMNS = ("claim", "items", "source", "expected", "title")
LIST_DROP = ("source", "items")
#: the title column keeps at least this many characters (wrapped) before a column is dropped
MIN_TITLE = 36


def list_claims(claims, width: int | None = None) -> str:
    """The registered claims as a table fitted to ``width`` (default: the terminal's): the title wraps, and
    when even then the table is too wide the source, then the items column is left out (``--format json``
    has every field).  ``*`` marks a reconstructed statement (not quoted from the paper)."""
    width = width or _common.terminal_width()
    full = [[c.id, ",".join(c.catalogue), str(c.source.paper.key) + " " + c.source.label,
             c.expected.value + ("*" if c.reconstructed else ""), c.title] for c in claims]
    columns = list(LIST_COLUMNS)
    for drop in (None, *LIST_DROP):
        if drop is not None:
            columns.remove(drop)
        keep = [LIST_COLUMNS.index(k) for k in columns]
        rows = [columns] + [[r[k] for k in keep] for r in full]
        fixed = sum(max(len(r[k]) for r in rows) for k in range(len(columns) - 1)) + 2 * (len(columns) - 1)
        if width - fixed >= MIN_TITLE:
            break
    text = _common.table(rows, wrap=(len(columns) - 1,), width=width)
    if any(c.reconstructed for c in claims):
        text += "\n* reconstructed statement (not quoted from the paper)"
    return text


def results_table(results) -> str:
    """The verify table (claim, source, verdict, instances, seconds), fitted to the terminal width."""
    from exactdp.output import report

    rows = [["claim", "source", "verdict", "instances", "seconds"]]
    for r in results:
        v = report.verdict_text(r)
        if not r.matches:
            v += f"  [expected {r.claim.expected.value}]"
        rows.append([r.claim.id, f"{r.claim.source.paper.key} {r.claim.source.label}", v, str(r.instances),
                     f"{r.seconds:.2f}"])
    return _common.table(rows, right={3, 4}, wrap=(1, 2))


def latex_report(results, **kw) -> str:
    """The LaTeX report: :func:`exactdp.output.latex.verify_report_latex` (summary table first)."""
    from exactdp.output.latex import verify_report_latex

    return verify_report_latex(results, **kw)


def html_report(results, **kw) -> str:
    """The HTML report (:func:`exactdp.output.html.verify_report_html`); one line when it is not installed."""
    try:
        from exactdp.output.html import verify_report_html
    except ImportError:
        from exactdp.errors import ParameterError

        raise ParameterError("--format html: the HTML report (exactdp.output.html) is not available in this "
                             "installation") from None
    return verify_report_html(results, **kw)


def render(results, fmt: str, **kw) -> str:
    """The report of ``results`` in ``fmt`` (json, markdown, latex, html)."""
    from exactdp.output import report

    if fmt == "json":
        import json

        doc = json.loads(report.to_json(results, **kw))
        return _common.to_json(_common.envelope("verify", doc, seed=kw["seed"], quick=kw["quick"]))
    if fmt == "markdown":
        return report.to_markdown(results, **kw)
    if fmt == "latex":
        return latex_report(results, **kw)
    return html_report(results, **kw)


def _check_output(path, option: str) -> None:
    """An output path is refused before the run when it cannot be written (a directory, a missing folder)."""
    _common.check_output_path(path, option)


def run(args) -> int:
    from exactdp.atomic_io import replaceable_folder, write_atomic
    from exactdp.errors import ParameterError
    from exactdp.output import report
    from exactdp.verification.engine import default_jobs, select_claims, verify

    if args.jobs is not None and not 1 <= args.jobs <= MAX_JOBS:
        raise ParameterError(f"--jobs: must be an integer in 1..{MAX_JOBS}, got {args.jobs}")
    if args.scheduler is not None and args.jobs is not None and args.jobs > 1:
        raise ParameterError(f"--jobs: not with --scheduler (the cluster's workers run the claims), got --jobs {args.jobs}")
    jobs = args.jobs if args.jobs is not None else 1 if args.scheduler is not None else default_jobs(MAX_JOBS)
    from exactdp.limits import quote

    for t in args.targets:
        if not t.strip() or len(t) > 100:
            raise ParameterError(f"CLAIM_ID: not a claim id, group or catalogue item: {quote(t)}")
    if args.update_readme == "":  # the flag without a file: the claims table's home, from the repository's root
        args.update_readme = report.CLAIMS_TABLE_FILE
    if args.update_readme is not None and not args.list:  # refused before the (long) verification runs
        if args.targets:
            raise ParameterError("--update-readme: only with the full run (no claim selection): the claims table "
                                 "lists every claim and a selection would replace it")
        report.readme_target(args.update_readme)
    _check_output(args.output, "-o")
    if args.certificates is not None:  # a folder the export may replace as a whole
        replaceable_folder(args.certificates, "--certificates")
    packages = tuple(args.claims) if args.claims else None
    claims = select_claims(args.targets, packages=packages)  # ParameterError → one line, exit 2
    if args.list:
        if args.format == "json":
            _common.emit_json(args, "verify", {"claims": [
                {"id": c.id, "catalogue": list(c.catalogue), "source": f"{c.source.paper.key} {c.source.label}",
                 "expected": c.expected.value, "reconstructed": bool(c.reconstructed), "title": c.title}
                for c in claims]}, list=True)
        else:
            _common.emit(args, list_claims(claims))
        return 0
    with _common.EngineProgress(args, len(claims)) as progress:
        results = verify([c.id for c in claims] if args.targets else (), seed=args.seed, quick=args.quick,
                         progress=progress, jobs=jobs, packages=packages,
                         scheduler=args.scheduler)
    kw = {"seed": args.seed, "quick": args.quick, "timings": args.timings}
    text = results_table(results) + "\n" + report.summary_line(results) + "\n" + report.numbered_line(results)
    if args.format == "text":
        _common.emit(args, text)
    elif args.output:  # the report to its file; the terminal gets the summary and where the report is
        from exactdp.numbers.escape import terminal

        _common.emit(args, render(results, args.format, **kw))
        print(f"{report.summary_line(results)}\n{report.numbered_line(results)}\n"
              f"{args.format} report written to {terminal(args.output)}")
    else:
        _common.emit(args, render(results, args.format, **kw))
    md = report.to_markdown(results, **kw)
    if args.certificates is not None:
        import sys

        from exactdp.verification.export import write_certificates

        from exactdp.numbers.escape import terminal

        written = write_certificates(results, args.certificates)
        print(f"wrote {len(written) - 1} certificates and index.json to {terminal(args.certificates)} "
              f"(re-check: exactdp recheck {terminal(args.certificates)})",
              file=sys.stderr if getattr(args, "format", None) == "json" else sys.stdout)  # JSON stdout stays JSON
    if args.update_readme is not None:  # read again just before the atomic replace: edits made meanwhile kept
        write_atomic(args.update_readme, report.update_readme(report.readme_target(args.update_readme), md),
                     "--update-readme")
    return 0 if all(r.matches for r in results) else 1
