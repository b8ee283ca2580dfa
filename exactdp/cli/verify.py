"""``exactdp verify [CLAIM_ID|PAPER|ITEM ...] [--json F] [--markdown F] [--latex F] [--seed S] [--quick]``.

Runs the registered claims (all of them by default), prints a table (claim, source, verdict, instances,
seconds) and a summary line.  Exit status 0 when every verdict equals the registry's expected verdict,
1 otherwise, 2 on bad usage (an unknown claim id prints one line).
"""

from __future__ import annotations

import sys
from pathlib import Path


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
    p.add_argument("--json", metavar="FILE", help="write the JSON report")
    p.add_argument("--markdown", metavar="FILE", help="write the Markdown report (the README claims table)")
    p.add_argument("--latex", metavar="FILE", help="write the LaTeX report (a complete document)")
    p.add_argument("--update-readme", nargs="?", const="README.md", metavar="README",
                   help="rewrite the claims table between the markers of README.md (or the file given)")
    p.add_argument("--timings", action="store_true", help="include seconds in the reports (breaks byte-identity)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--jobs", type=int, default=1, metavar="J",  # checked in run: one line, exit 2
                   help="run claims in J worker processes (default 1; verdicts and reports do not depend on J)")
    p.add_argument("--claims", action="append", metavar="PACKAGE",
                   help="load the claims of this package of proof modules (a module path; repeatable; default: "
                        "the packages registered in the 'exactdp.claims' entry-point group)")
    p.set_defaults(func=run)


def _fmt_table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    out = []
    for i, r in enumerate(rows):
        cells = [c.rjust(widths[k]) if k in right else c.ljust(widths[k]) for k, c in enumerate(r)]
        out.append("  ".join(cells).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def list_claims(claims) -> str:
    rows = [["claim", "items", "source", "expected", "title"]]
    for c in claims:
        rows.append([c.id, ",".join(c.catalogue), str(c.source.paper.key) + " " + c.source.label,
                     c.expected.value + (" (reconstructed statement)" if c.reconstructed else ""), c.title])
    return _fmt_table(rows, set())


def _check_output(path, option: str) -> None:
    """An output path is refused before the run when it cannot be written (a directory, a missing folder)."""
    if path is None:
        return
    from exactdp.errors import ParameterError
    from exactdp.limits import quote

    p = Path(path)
    if not str(path).strip():
        raise ParameterError(f"{option}: give a file name")
    if p.is_dir():
        raise ParameterError(f"{option}: {quote(path)} is a directory")
    if not p.parent.is_dir():
        raise ParameterError(f"{option}: the folder of {quote(path)} does not exist")


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.output import report
    from exactdp.verification.engine import Progress, select_claims, verify

    if not 1 <= args.jobs <= MAX_JOBS:
        raise ParameterError(f"--jobs: must be an integer in 1..{MAX_JOBS}, got {args.jobs}")
    from exactdp.limits import quote

    for t in args.targets:
        if not t.strip() or len(t) > 100:
            raise ParameterError(f"CLAIM_ID: not a claim id, group or catalogue item: {quote(t)}")
    packages = tuple(args.claims) if args.claims else None
    claims = select_claims(args.targets, packages=packages)  # ParameterError → one line, exit 2
    if args.update_readme is not None and not args.list:  # refused before the (long) verification runs
        if args.targets:
            raise ParameterError("--update-readme: only with the full run (no claim selection): the README's table "
                                 "lists every claim and a selection would replace it")
        report.readme_target(args.update_readme)
    for opt in ("json", "markdown", "latex"):
        _check_output(getattr(args, opt), f"--{opt}")
    if args.list:
        print(list_claims(claims))
        return 0
    progress = Progress(len(claims), sys.stderr, enabled=False if args.no_progress else None)
    results = verify([c.id for c in claims] if args.targets else (), seed=args.seed, quick=args.quick,
                     progress=progress, jobs=args.jobs, packages=packages)
    rows = [["claim", "source", "verdict", "instances", "seconds"]]
    for r in results:
        v = report.verdict_text(r)
        if not r.matches:
            v += f"  [expected {r.claim.expected.value}]"
        rows.append([r.claim.id, f"{r.claim.source.paper.key} {r.claim.source.label}", v, str(r.instances),
                     f"{r.seconds:.2f}"])
    print(_fmt_table(rows, {3, 4}))
    print(report.summary_line(results))
    kw = {"seed": args.seed, "quick": args.quick, "timings": args.timings}
    if args.json:
        Path(args.json).write_text(report.to_json(results, **kw), encoding="utf-8")
    md = report.to_markdown(results, **kw)
    if args.markdown:
        Path(args.markdown).write_text(md, encoding="utf-8")
    if args.latex:
        Path(args.latex).write_text(report.to_latex(results, **kw), encoding="utf-8")
    if args.update_readme is not None:
        path = Path(args.update_readme)
        path.write_text(report.update_readme(report.readme_target(path), md), encoding="utf-8")
    return 0 if all(r.matches for r in results) else 1
