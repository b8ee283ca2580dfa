"""``exactdp check "INEQUALITY" [--class C] [--N 2..3 (2..4 for pml)] [--M 2..3] [--budget K] [--seed S]
[--t LO..HI | --eps LO..HI] [--max-den D] [--workers W] [--scheduler ADDRESS] [--max-seconds T]
[--certificates DIR] [--no-synthesis] [--format text|json|markdown|latex|html] [-o FILE] [--no-progress]``.

``--t LO..HI`` restricts t = e^eps to [LO, HI] (exact rationals >= 1); ``--eps LO..HI`` the same in eps (each
e^eps must be rational: ``--eps "log(2)..log(3)"``).  Exit status: 0 no counterexample (or proved, or proved
modulo a claim), 1 refuted, 2 bad input."""

from __future__ import annotations

from typing import Any

import argparse

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def _count(low: int, high: int | None = None):
    """An argparse type: an integer >= low (and <= high); one-line error otherwise."""
    import argparse

    def parse(text: str) -> int:
        from exactdp.limits import quote

        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {quote(text, 40)}") from None
        if v < low:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}, got {v}")
        if high is not None and v > high:
            raise argparse.ArgumentTypeError(f"must be an integer <= {high}, got {v}")
        return v

    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds >= 0 (0 stops at once); read exactly, used as a clock cap."""
    import argparse

    from exactdp.limits import quote

    try:
        from fractions import Fraction

        v = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {quote(text, 40)}") from None
    if v < 0 or v > 10**9:
        raise argparse.ArgumentTypeError(f"must be a number of seconds in [0, 10^9], got {quote(text, 40)}")
    return float(v)  # a wall-clock cap, not an exact quantity


def register(sub) -> None:
    p = sub.add_parser(
        "check", help="search for an exact counterexample to your own inequality about mechanisms",
        description=(
            "Search exactly for a counterexample to an inequality over a class of mechanisms. "
            "Quantities of K: eta_tv, ldp_eps, max_leakage, eta_hs(gamma), delta(eps), pml_eps(c), "
            "eta_tv_tensor(n), eta_chi2 and eta_kl (two-input kernels); divergences tv, kl, hellinger2, chi2, hs(A,B,gamma) of P, Q, K(P), K(Q), row(i); "
            "parameters eps (= log t, t = e^eps rational), t, gamma (= t, the order of E_gamma), delta, c, N, M, n. "
            "Verdicts: refuted (with a re-checked exact counterexample), proved (only from certificates "
            "checked in the run), proved-modulo (a step is a claim of the registry, named in rests_on), "
            "no-counterexample (never called a proof)."),
        epilog='example: exactdp check "eta_tv <= (exp(eps)-1)/(exp(eps)*(1-c)+1)" --class pml')
    p.add_argument("inequality", metavar="INEQUALITY", help='e.g. "kl(K(P),K(Q)) <= eta_tv**2*kl(P,Q)"')
    p.add_argument("--class", dest="cls", default="ldp", choices=("ldp", "approx-ldp", "pml", "all"),
                   help="ldp: eps-LDP kernels; approx-ldp: (eps,delta)-LDP; pml: (eps,c)-PML with P,Q in "
                        "Q_X(c); all: every class defining the parameters used (default ldp)")
    p.add_argument("--N", default=None, help="input sizes, an integer or a range lo..hi within 2..5 (default 2..3; "
                                            "2..4 when the classes include pml)")
    p.add_argument("--M", default="2..3", help="output sizes, an integer or a range lo..hi within 2..5 (default 2..3)")
    p.add_argument("--budget", type=_count(1), default=None,
                   help="number of kernels to try (work units, so results do not depend on speed; default 400, "
                        "1000 when the classes include pml)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--t", default=None, metavar="LO..HI",
                   help="only test t = e^eps in [LO, HI], exact rationals >= 1 (e.g. 5/2..3 for eps near 1)")
    g.add_argument("--eps", default=None, metavar="LO..HI",
                   help="only test eps in [LO, HI]; each e^eps must be rational (e.g. 'log(2)..log(3)')")
    p.add_argument("--max-den", type=_count(2), default=12,
                   help="largest row denominator of the random kernels (default 12; the grid phase grows by itself)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random part of the search (default 0)")
    p.add_argument("--workers", type=_count(1, 256), default=1, help="local worker processes (default 1: in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="a dask.distributed scheduler (tcp://host:8786) that runs the chunks; needs exactdp[dask]")
    p.add_argument("--max-seconds", type=_seconds, default=None,
                   help="extra wall-clock cap; when it stops the run, results may differ between runs")
    p.add_argument("--certificates", default=None, metavar="DIR",
                   help="with a proved verdict, write the proof's certificates to DIR as `exactdp verify "
                        "--certificates` does (claim folder check/); `exactdp recheck DIR` re-checks them")
    p.add_argument("--no-synthesis", dest="synthesis", action="store_false",
                   help="do not search a certificate (Farkas multipliers of the two-point LP) when no class "
                        "bound applies")
    _common.add_output(p, DOCUMENT_FORMATS)
    _common.add_no_progress(p)
    p.set_defaults(func=run)


def _progress_callback(bar):
    def draw(merged, spec):
        done = min(merged.chunks * spec.chunk_size, spec.budget)
        bar.update(completed=done, total=spec.budget,
                   description="check: counterexample found" if merged.counterexample is not None else "check")

    return draw


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.verification.conjecture import check
    from exactdp.verification.conjecture.api import DEFAULT_BUDGET

    if args.workers < 1:
        raise ParameterError(f"--workers: must be >= 1, got {args.workers}")
    _common.check_output_path(args.output)
    # the bar's total is corrected to the run's budget (the class's default) by the first chunk's update
    with _common.progress(args, args.budget or DEFAULT_BUDGET, "check") as bar:
        result = check(args.inequality, args.cls, N=args.N, M=args.M, budget=args.budget, seed=args.seed,
                       scheduler=args.scheduler, workers=args.workers, progress=_progress_callback(bar),
                       max_seconds=args.max_seconds, max_den=args.max_den, t=args.t, eps=args.eps,
                       synthesise_proof=args.synthesis)
    if args.certificates is not None:
        _write_certificates(result, args.certificates)
    if args.format == "text":
        from dataclasses import replace

        from exactdp.numbers.escape import terminal

        # display only: the proof's formulas as mathematics (the JSON keeps the engine's lines); the
        # conjecture as typed is data (a line end in it shown as \n, never a new line of the report)
        _common.emit(args, str(replace(result, conjecture=terminal(result.conjecture),
                                       proof=[_common.math_line(s) for s in result.proof])))
    elif args.format in ("markdown", "latex", "html"):
        from exactdp.cli import _document  # deferred: start-up

        _document.emit(args, f"exactdp check: {result.conjecture}", blocks(result))
    else:
        doc = result.to_dict()
        if doc.get("counterexample"):
            doc["counterexample"].pop("check", None)
        if doc.get("closest"):
            doc["closest"].pop("check", None)
        _common.emit_json(args, "check", doc)
    return 1 if result.verdict == "refuted" else 0


def _write_certificates(result, directory) -> None:
    """The proof's certificates under ``directory`` (:func:`exactdp.verification.export.check_results`); a
    result that is not proved has none: one line on stderr says so and nothing is written."""
    import sys

    if result.verdict not in ("proved", "proved-modulo"):
        print(f"exactdp check: --certificates: nothing written, the verdict is {result.verdict} (no proof)",
              file=sys.stderr)
        return
    from exactdp.verification.export import check_results, write_certificates  # deferred: start-up

    written = write_certificates(check_results(result), directory)
    print(f"exactdp check: wrote {len(written) - 1} certificates and index.json to {directory}", file=sys.stderr)


def blocks(r) -> list:
    """The document of ``--format markdown|latex|html``: the verdict and its scope, the proof's lines (their
    formulas as mathematics), a counterexample's kernel and values, the search and the notes."""
    verdict = r.verdict.upper() if r.verdict != "proved-modulo" else "PROVED MODULO " + ", ".join(r.rests_on)
    rows = [("conjecture", r.conjecture), ("classes", ", ".join(r.classes)), ("verdict", verdict)]
    if r.scope:
        rows.append(("scope", r.scope))
    s = r.stats
    rows.append(("searched", f"{s['kernels']} kernels ({s['instances']} instances), seed {s['seed']}, budget "
                             + str(s["budget"])))
    out: list[tuple[Any, ...]] = [("rows", rows)]
    if r.proof:
        out.append(("lines", "proof", list(r.proof)))
    if r.counterexample:
        ce = r.counterexample
        out.append(("matrix", f"counterexample ({ce['class']}, {ce['N']}x{ce['M']} kernel)", ce["rows"]))
        if "rows2" in ce:
            out.append(("matrix", "K2, the second kernel of the class", ce["rows2"]))
        cer = [(k, v) for k, v in ce["params"].items()]
        if "P" in ce:
            cer += [("P", _common.math_text(tuple(ce["P"]))), ("Q", _common.math_text(tuple(ce["Q"])))]
        cer += [("lhs", ce["lhs"]), ("rhs", ce["rhs"]), (f"slack (must be {'>' if r.strict else '>='} 0)", ce["slack"]),
                ("class membership re-checked", str(ce["member"]))]
        out.append(("rows", cer))
    if r.notes:
        out.append(("lines", "notes", list(r.notes)))
    return out
