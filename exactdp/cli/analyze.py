"""``exactdp analyze FILE [--eps EPS | --t T] [--c C] [--delta D] [--format text|json|markdown|latex|html] [-o FILE]``.

``--t`` (or ``--eps``, with e^ε rational) is the e^ε of the (ε,δ)-LDP decision and the order γ = e^ε of the
E_γ coefficient printed; the old ``--gamma G`` (same meaning) and ``--json`` are deprecated aliases.
``--format json`` prints the envelope of ``exactdp/schemas/analyze.json``; the deprecated ``--json`` prints
its bare ``result`` document as before.
"""

from __future__ import annotations

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def register(sub) -> None:
    p = sub.add_parser("analyze", help="every exact quantity of a kernel read from a JSON or CSV file",
                       description="Read a kernel (JSON list of rows or {\"rows\": ...}, or CSV) with exact "
                                   "entries and print its contraction, LDP, PML and leakage quantities exactly.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", action="append", default=None, metavar="NAME=VALUE", help="a parameter value of a parametric kernel file (JSON with \"parameters\"), exact; repeat for each")
    _common.add_privacy(p, gamma_alias=True,
                        what="the (eps,delta)-LDP decision and the E_gamma coefficient at gamma = e^eps")
    _common.add_c(p)
    _common.add_delta(p, "delta for the (eps,delta)-LDP decision (default 0; needs --eps or --t)")
    _common.add_output(p, DOCUMENT_FORMATS, json_alias=True)
    _common.add_no_progress(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.analysis import analyze, check_cost, load_kernel
    from exactdp.errors import ParameterError
    from exactdp.output.analysis_view import analysis_json, analysis_text

    t = _common.read_t(args, rational=True)
    gamma = None if t is None else str(t)
    if args.delta is not None and gamma is None:  # the (eps,delta)-LDP decision is made at t = e^eps
        raise ParameterError("--delta needs --eps or --t: delta is used only in the (eps,delta)-LDP decision at "
                             "e^eps (the delta(gamma) profile is printed without it)")
    _common.check_output_path(args.output)
    # the pairwise passes' cost is checked from the shape alone, before any entry is parsed
    K = load_kernel(args.file, at=args.at, check_shape=lambda N, M: check_cost(N, M, gamma=gamma, profile=True),
                    report=_common.note)
    with _common.progress(args, None, f"analyze {K.N}x{K.M}"):
        result = analyze(K, gamma=gamma, c=args.c, delta=args.delta if args.delta is not None else "0")
    if args.format == "text":
        _common.emit(args, analysis_text(result))
    elif args.format in ("markdown", "latex", "html"):
        from exactdp.cli import _document

        doc = analysis_json(result)
        _document.emit(args, f"exactdp analyze: {doc['name']} ({K.N} inputs x {K.M} outputs)", blocks(doc))
    else:
        _common.emit_result(args, "analyze", analysis_json(result))
    return 0


def blocks(doc: dict) -> list:
    """The document of ``--format markdown|latex|html``: the kernel and every exact quantity of
    :func:`exactdp.output.analysis_view.analysis_json` (the profile as its pieces P - Q·γ); labels carry their
    maths between ``$``."""
    rows = [(r"$\eta_{\mathrm{TV}}(K)$ (Dobrushin)", doc["eta_tv"]["value"])]
    if "eta_hockey_stick" in doc:
        rows.append((rf"$\eta_{{E_\gamma}}(K)$ at $\gamma = {doc['eta_hockey_stick']['gamma']}$",
                     doc["eta_hockey_stick"]["value"]))
    if "is_ldp" in doc:
        d = doc["is_ldp"]
        rows.append((rf"$(\varepsilon,\delta)$-LDP at $e^\varepsilon = {d['gamma']}$, $\delta = {d['delta']}$",
                     d["verdict"]))
    rows += [(r"$e^\varepsilon$ of $\varepsilon$-LDP", doc["ldp"]["ratio"]),
             (r"$\varepsilon$ of $\varepsilon$-LDP", doc["ldp"]["epsilon"]),
             ("maximal leakage (nats)", doc["max_leakage"]["nats"])]
    if "pml" in doc:
        c = doc["pml"]["c"]
        rows += [(rf"$e^\varepsilon$ of $(\varepsilon,c)$-PML at $c = {c}$", doc["pml"]["ratio"]),
                 (rf"$\varepsilon$ of $(\varepsilon,c)$-PML at $c = {c}$", doc["pml"]["epsilon"])]
    out = [("matrix", "$K$", doc["rows"]), ("rows", rows)]
    prof = doc.get("privacy_profile")
    if prof:
        ends = ["0", *prof["breakpoints"], r"\infty"]
        pieces = [(rf"$\delta(\gamma)$ for $\gamma \in [{a}, {b}]$", f"{p['P']} - ({p['Q']})*gamma")
                  for a, b, p in zip(ends, ends[1:], prof["pieces"])]
        out += [("heading", "privacy profile δ(γ) = P − Qγ"),
                ("rows", pieces + [(r"least $\gamma$ with $\delta(\gamma) = 0$", prof["least_gamma_for_delta_0"])])]
    return out
