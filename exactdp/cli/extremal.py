"""``exactdp extremal sup|gamma --N N [--M M] (--t T | --eps EPS) [--c C] [--delta D] [--gamma G] [--class CLASS]
[--n n]``: exact suprema over privacy classes with optimal kernels.

``--n n`` ≥ 2 asks for sup η(K^{⊗n}) over the class (:mod:`exactdp.theory.n_sample`: Blackwell domination, no LP);
``--class ldp|approx-ldp|pml`` names the class, which must agree with ``--c`` / ``--delta`` (without it the class
is read from them, as before).

``--gamma`` here is the order γ of E_γ (default 1: η_TV), as in the rest of the vocabulary; it never meant
e^ε in this command.  ``--format text|json|markdown|latex|html``, ``-o FILE``.
"""

from __future__ import annotations

from typing import Any

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def register(sub) -> None:
    p = sub.add_parser("extremal", help="exact supremum of eta_TV / E_gamma, or Gamma_max, over a privacy class",
                       description="Solve the exact LPs of exactdp.theory.extremal and print the value, an optimal "
                                   "kernel and whether every certificate re-checks exactly.")
    p.add_argument("what", choices=("sup", "gamma"), help="sup: sup of eta (TV or E_gamma); gamma: Gamma_max/min")
    p.add_argument("--N", type=int, required=True, help="number of inputs")
    p.add_argument("--M", type=int, default=None,
                   help="number of outputs (default 2; with --n >= 2 those of the optimum)")
    p.add_argument("--class", dest="cls", choices=("ldp", "approx-ldp", "pml"), default=None,
                   help="the class: eps-LDP, (eps,delta)-LDP or (eps,c)-PML (default: from --c / --delta)")
    p.add_argument("--n", type=int, default=1,
                   help="samples n: sup of eta(K^(x n)) over the class (default 1; n >= 2 for 'sup' only)")
    _common.add_privacy(p, required=True, what="e^eps rational")
    _common.add_c(p, "(eps,c)-PML prior floor in [0, 1/N]; omit for (eps,delta)-LDP")
    _common.add_delta(p, "(eps,delta)-LDP slack (without --c; default 0)", default="0")
    p.add_argument("--gamma", default="1", help="order gamma of E_gamma for 'sup' (default 1: eta_TV)")
    _common.add_output(p, DOCUMENT_FORMATS)
    p.set_defaults(func=run)


#: keys of the text document → keys of --format json (exactdp/schemas/extremal.json)
_KEYS = {"value": "value", "phi^n (A-8)": "phi_n", "gap to phi^n": "gap_to_phi_n", "Xi (Thm 1)": "xi", "Gamma_min": "gamma_min", "closed form (G-23)": "closed_form_g23",
         "Lemma 4": "lemma4", "optimal P": "optimal_p", "optimal Q": "optimal_q", "kernel": "kernel"}


#: keys of the text document → labels of --format markdown|latex|html (maths between $)
_DOC_LABELS = {"phi^n (A-8)": r"$\varphi^n(\varepsilon, \delta)$ ([A] A-8)", "gap to phi^n": r"gap to $\varphi^n$",
               "Xi (Thm 1)": r"$\Xi(\varepsilon, c)$ ([G] Thm 1)", "Gamma_min": r"$\Gamma_{\min}$",
               "closed form (G-23)": r"$\Gamma_{\max}$, closed form (G-23)", "Lemma 4": "[G] Lemma 4 bound",
               "optimal P": "optimal $P$", "optimal Q": "optimal $Q$", "LPs": "exact LPs solved",
               "pivots": "simplex pivots"}


def _result(args, t: str, out: dict, failures) -> dict:
    """The ``result`` of ``--format json``: snake_case keys, exact values as strings, counts as integers,
    ``certified`` a boolean."""
    quantity = "gamma_max" if args.what == "gamma" else "sup_eta_tv" if args.gamma == "1" else "sup_eta_e_gamma"
    if args.n != 1:
        quantity += "_tensor"
    cls: dict[str, Any] = {"class": "pml" if args.c is not None else "ldp", "N": args.N, "M": args.M, "t": t}
    cls.update({"c": args.c} if args.c is not None else {"delta": args.delta})
    if args.what == "sup":
        cls["gamma"] = args.gamma
    doc: dict[str, Any] = {"quantity": quantity, "class": cls}
    doc.update({new: out[old] for old, new in _KEYS.items() if old in out})
    if args.n != 1:
        doc.update({"n": args.n, "certificate": out["certificate"], "envelope": out["envelope"],
                    "dominating_pair": out["dominating pair"], "scope": out["scope"]})
    doc.update({"lps": int(out["LPs"]), "pivots": int(out["pivots"]), "certified": not failures,
                "problems": [str(p) for p in failures]})
    return doc


def run(args) -> int:
    from exactdp.errors import ParameterError
    from exactdp.theory.extremal import (
        gamma_max,
        gamma_max_closed_form,
        gamma_min,
        lemma4_bound,
        sup_eta_hockey_stick,
    )
    from exactdp.formulas import xi

    t = str(_common.read_t(args, rational=True))
    _common.check_output_path(args.output)
    _check_class(args)
    if args.n != 1:
        return _run_n_sample(args, t)
    if args.M is None:
        args.M = 2
    if args.what == "sup":
        r = sup_eta_hockey_stick(args.N, args.M, gamma=args.gamma, t=t, c=args.c, delta=args.delta)
        out: dict[str, Any] = {"quantity": f"sup eta_E_{args.gamma}" if args.gamma != "1" else "sup eta_TV",
               "class": _class_text(args, t),
               "value": str(r.value)}
        if args.c is not None and args.gamma == "1":
            out["Xi (Thm 1)"] = str(xi(t, args.c, args.N))
    else:
        if args.c is None:
            raise ParameterError("--c: required for 'gamma' (c = 0 gives eps-LDP)")
        r = gamma_max(args.N, t, args.c, M=args.M)
        out = {"quantity": "Gamma_max", "value": str(r.value),
               "Gamma_min": str(gamma_min(args.N, t, args.c, M=args.M).value),
               "closed form (G-23)": str(gamma_max_closed_form(args.N, t, args.c)),
               "Lemma 4": str(lemma4_bound(args.N, t, args.c)),
               "optimal P": [str(v) for v in r.inputs[0]], "optimal Q": [str(v) for v in r.inputs[1]]}
    failures = r.failures()
    out.update({"kernel": r.kernel.as_strings(), "LPs": len(r.lps), "pivots": r.pivots,
                "certificates re-checked": "yes" if not failures else "NO", "problems": failures})
    return _emit(args, t, out, failures)


def _check_class(args) -> None:
    """``--class`` must agree with ``--c`` / ``--delta``; ``--n`` must be >= 1 and is for 'sup' only."""
    from exactdp.errors import ParameterError
    from exactdp.numbers.reader import as_expr

    if args.n < 1:
        raise ParameterError(f"--n: must be a positive integer, got {args.n}")
    if args.n != 1 and args.what != "sup":
        raise ParameterError(f"--n: n-sample problems are for 'sup' only, got n = {args.n} with '{args.what}'")
    if args.cls == "pml" and args.c is None:
        raise ParameterError("--c: required with --class pml (the prior floor of (eps,c)-PML)")
    if args.cls in ("ldp", "approx-ldp") and args.c is not None:
        raise ParameterError(f"--c: only with --class pml, got --class {args.cls} and --c {args.c}")
    if args.cls == "ldp" and as_expr(args.delta) != 0:
        raise ParameterError(f"--delta: --class ldp is eps-LDP (delta = 0), got {args.delta}; use --class approx-ldp")


def _class_text(args, t: str) -> str:
    return (f"(eps,c)-PML, t = {t}, c = {args.c}" if args.c is not None
            else f"(eps,delta)-LDP, t = {t}, delta = {args.delta}")


def _run_n_sample(args, t: str) -> int:
    """sup of eta(K^(x n)) over the class (exactdp.theory.n_sample), with its Blackwell-envelope certificate."""
    from exactdp.theory.n_sample import sup_eta_hockey_stick_tensor

    r = sup_eta_hockey_stick_tensor(args.N, args.n, M=args.M, gamma=args.gamma, t=t, c=args.c, delta=args.delta)
    args.M = r.kernel.M
    eta = "eta_TV" if args.gamma == "1" else f"eta_E_{args.gamma}"
    out: dict[str, Any] = {"quantity": f"sup {eta}(K^(x){args.n})", "class": _class_text(args, t),
                           "value": str(r.value)}
    if r.phi_n is not None:
        out.update({"phi^n (A-8)": str(r.phi_n), "gap to phi^n": str(r.gap)})
    points = r.envelope_points()
    out["certificate"] = (f"rows 0, 1 have the class's largest E_gamma profile (checked at gamma = "
                          f"{', '.join(str(g) for g, _ in points)}); every row pair of a class kernel is a garbling of "
                          f"them (Blackwell)")
    out["envelope"] = [[str(g), str(v)] for g, v in points]
    out["dominating pair"] = r.dominating.as_strings()
    out["scope"] = r.scope
    failures = r.failures()
    out.update({"kernel": r.kernel.as_strings(), "LPs": 0, "pivots": 0,
                "certificates re-checked": "yes" if not failures else "NO", "problems": failures})
    return _emit(args, t, out, failures)


#: keys of ``out`` that are not rows of a document (n-sample problems solve no LP: no LP counts either)
_NOT_A_ROW = {False: ("kernel", "problems", "quantity"),
              True: ("kernel", "problems", "quantity", "LPs", "pivots", "envelope", "dominating pair")}


def _emit(args, t: str, out: dict, failures) -> int:
    if args.format == "json":
        _common.emit_json(args, "extremal", _result(args, t, out, failures))
        return 0 if not failures else 1
    if args.format != "text":
        from exactdp.cli import _document  # deferred: start-up

        value = (r"$\Gamma_{\max}$" if args.what == "gamma" else
                 r"$\sup \eta_{\mathrm{TV}}" if args.gamma == "1" else rf"$\sup \eta_{{E_{{{args.gamma}}}}}")
        value += "$" if args.n == 1 else rf"(K^{{\otimes {args.n}}})$"
        labels = {**_DOC_LABELS, "value": value}
        rows = [(labels.get(k, k), _common.math_text(tuple(v)) if isinstance(v, list) else v)
                for k, v in out.items() if k not in _NOT_A_ROW[args.n != 1]]
        blocks: list[tuple[Any, ...]] = [("rows", rows), ("matrix", "optimal kernel", out["kernel"])]
        if failures:
            blocks.append(("lines", "problems", [str(p) for p in failures]))
        _document.emit(args, f"exactdp extremal {args.what}", blocks)
        return 0 if not failures else 1
    lines = []
    for k, v in out.items():
        if args.n != 1 and k in ("LPs", "pivots", "envelope", "dominating pair"):
            continue  # no LP; the certificate line says what the envelope data (in the JSON) are
        if k == "kernel":
            lines.append("kernel:")
            lines += ["  " + "  ".join(f"{e:>8}" for e in row) for row in v]
        elif k == "problems":
            lines += [f"problem: {p}" for p in v]
        else:
            lines.append(f"{k}: {_common.math_text(tuple(v)) if isinstance(v, list) else v}")
    _common.emit(args, "\n".join(lines))
    return 0 if not failures else 1
