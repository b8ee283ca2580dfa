"""``exactdp analyze FILE [--eps EPS | --t T] [--c C] [--delta D] [--format text|json|markdown|latex|html] [-o FILE]``.

``--t`` or ``--eps`` (the same reading in every command: ``--eps 0.5`` is ε = 1/2 exactly) is the e^ε of the
(ε,δ)-LDP decision and the order γ = e^ε of the E_γ coefficient printed; an irrational e^ε (``--eps 0.5``) is
handled by certified comparisons, the values staying exact (A − B·e^ε).  ``--delta D`` alone asks for the least
ε with δ(e^ε) ≤ D (as ``tensor --n 1 --delta D``).  ``--format json`` prints the envelope of
``exactdp/schemas/analyze.json``.
"""

from __future__ import annotations

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def register(sub) -> None:
    p = sub.add_parser("analyze", help="every exact quantity of a kernel read from a JSON or CSV file",
                       description="Read a kernel (JSON list of rows or {\"rows\": ...}, or CSV) with exact "
                                   "entries and print its contraction, LDP, PML and leakage quantities exactly.")
    p.add_argument("file", metavar="FILE")
    _common.add_csv_labels(p)
    p.add_argument("--at", action="append", default=None, metavar="NAME=VALUE", help="a parameter value of a parametric kernel file (JSON with \"parameters\"), exact; repeat for each")
    _common.add_privacy(p, what="the (eps,delta)-LDP decision and the E_gamma coefficient at gamma = e^eps")
    _common.add_c(p)
    _common.add_delta(p, "with --eps/--t: delta of the (eps,delta)-LDP decision (default 0); alone: print the least "
                         "eps with delta(e^eps) <= DELTA, eps = log t* exactly")
    _common.add_output(p, DOCUMENT_FORMATS)
    _common.add_no_progress(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from exactdp.analysis import analyze, check_cost, load_kernel
    from exactdp.output.analysis_view import analysis_json, analysis_text

    t = _common.read_t(args, plain_fmpq=True)  # exact: --eps 0.5 is ε = 1/2, t = e^{1/2} (certified comparisons)
    d = _common.read_delta(args)
    _common.check_output_path(args.output)
    # the pairwise passes' cost is checked from the shape alone, before any entry is parsed
    K = load_kernel(args.file, at=args.at, header=args.header, row_labels=args.row_labels,
                    check_shape=lambda N, M: check_cost(N, M, t=t, profile=True),
                    report=_common.note)
    with _common.progress(args, None, f"analyze {K.N}x{K.M}"):
        result = analyze(K, t=t, c=args.c, delta=d if d is not None and t is not None else 0)
    # --delta alone: the least ε with δ(e^ε) <= δ, from the privacy profile (the tensor command's question at n = 1)
    inverse = None if d is None or t is not None else epsilon_for_delta(result, d)
    if args.format == "text":
        _common.emit(args, analysis_text(result, inverse))
    elif args.format in ("markdown", "latex", "html"):
        from exactdp.cli import _document  # deferred: start-up

        doc = analysis_json(result, inverse)
        _document.emit(args, f"exactdp analyze: {doc['name']} ({K.N} inputs x {K.M} outputs)", blocks(doc))
    else:
        _common.emit_json(args, "analyze", analysis_json(result, inverse))
    return 0


def epsilon_for_delta(result, d) -> dict:
    """``--delta D`` alone: the least ε ≥ 0 with δ(e^ε) ≤ D (K is then (ε, D)-LDP), ε = log t* exactly, from
    the privacy profile (:meth:`~exactdp.measures.privacy.PrivacyProfile.epsilon_for`)."""
    prof = result.profile
    return {"delta": d, "t_star": prof.gamma_for(d), "epsilon": prof.epsilon_for(d)}


def blocks(doc: dict) -> list:
    """The document of ``--format markdown|latex|html``: the kernel and every exact quantity of
    :func:`exactdp.output.analysis_view.analysis_json` (the profile as its pieces P - Q·γ); labels carry their
    maths between ``$``."""
    rows = [(r"$\eta_{\mathrm{TV}}(K)$ (Dobrushin)", doc["eta_tv"]["value"])]
    if "eta_hockey_stick" in doc:
        rows.append((rf"$\eta_{{E_\gamma}}(K)$ at $\gamma = {_tex(doc['eta_hockey_stick']['gamma'])}$",
                     doc["eta_hockey_stick"]["value"]))
    if "is_ldp" in doc:
        d = doc["is_ldp"]
        rows.append((rf"$(\varepsilon,\delta)$-LDP at $e^\varepsilon = {_tex(d['t'])}$, $\delta = {d['delta']}$",
                     d["verdict"]))
    if "epsilon_for_delta" in doc:  # --delta alone
        inv = doc["epsilon_for_delta"]
        rows.append((rf"least $\varepsilon$ with $\delta(e^\varepsilon) \le {inv['delta']}$", inv["epsilon"]))
        if inv["decimal"] is not None:
            rows.append(("its certified decimal (12 digits)", inv["decimal"]))
    rows += [(r"$e^\varepsilon$ of $\varepsilon$-LDP", doc["ldp"]["ratio"]),
             (r"$\varepsilon$ of $\varepsilon$-LDP", doc["ldp"]["epsilon"]),
             ("maximal leakage (nats)", doc["max_leakage"]["nats"])]
    if "pml" in doc:
        c = doc["pml"]["c"]
        rows += [(rf"$e^\varepsilon$ of $(\varepsilon,c)$-PML at $c = {c}$", doc["pml"]["ratio"]),
                 (rf"$\varepsilon$ of $(\varepsilon,c)$-PML at $c = {c}$", doc["pml"]["epsilon"])]
    from exactdp.analysis import VIEW_KEYS
    from exactdp.measures import registry

    rows += [(f"${q.latex}$", doc[q.json_key]["value"]) for q in registry.quantities()
             if q.json_key in doc and q.json_key not in VIEW_KEYS]  # the other registered quantities
    out = [("matrix", "$K$", doc["rows"]), ("rows", rows)]
    prof = doc.get("privacy_profile")
    if prof:
        ends = ["0", *prof["breakpoints"], r"\infty"]
        pieces = [(rf"$\delta(\gamma)$ for $\gamma \in [{a}, {b}]$", f"{p['P']} - ({p['Q']})*gamma")
                  for a, b, p in zip(ends, ends[1:], prof["pieces"])]
        out += [("heading", "privacy profile δ(γ) = P − Qγ"),
                ("rows", pieces + [(r"least $\gamma$ with $\delta(\gamma) = 0$", prof["least_gamma_for_delta_0"])])]
    return out


def _tex(text: str) -> str:
    """An exact value of the JSON document (``"exp(1/2)"``, ``"5/2"``) as LaTeX for a label, by the one LaTeX
    printer (:func:`exactdp.numbers.display.to_latex`)."""
    from exactdp.numbers.display import to_latex
    from exactdp.numbers.reader import read_expression

    return to_latex(read_expression(text, name="value"), t_as_exp=False)
