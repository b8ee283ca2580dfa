"""The views of an :class:`exactdp.analysis.Analysis`: a JSON document and the text report of ``exactdp analyze``.

JSON: exact values as strings (``"3/5"``, ``"log(15)"``, ``"inf"``) and, next to the main ones, a ``"decimal"``
with 12 significant digits, every digit guaranteed (certified rounding, :func:`exactdp.evalf`).
Text: short exact values in full, long ones by their certified digits (``--format json`` has every exact
value); the kernel's name as :func:`exactdp.numbers.escape.terminal` shows it (no control or bidi character reaches the
terminal).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from exactdp.numbers import escape
from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.loglin import LogLin
from exactdp.numbers.digits import evalf, evalf_log
from exactdp.numbers.qq import qq_str

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: a rational kernel's report needs no sympy

DIGITS = 12
SHOW_ROWS = 12  # the text report prints the matrix only up to this size
LONG = 28  # exact values longer than this are shown by their certified digits in the text report
_RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")


def exact_str(v) -> str:
    """The canonical exact string of a value: ``"3/5"``, ``"log(3/2)"``, ``"inf"``."""
    return qq_str(v) if not is_sympy(v) or v.is_Rational or v == sympy.oo else str(v)


def _dec(v) -> str:
    """12 certified digits; a level log r (:func:`exactdp.analysis.log_of` of a rational) from flint's balls."""
    r = v.single_log() if isinstance(v, LogLin) else None
    return evalf(v, DIGITS) if r is None else evalf_log(r, DIGITS)


def analysis_json(a, inverse: dict | None = None) -> dict:
    """The ``result`` of ``exactdp analyze --format json`` (exact strings and certified decimals); ``inverse``
    (``{"delta", "t_star", "epsilon"}``, exact values) adds ``epsilon_for_delta``, the answer to
    ``--delta`` alone."""
    from exactdp.analysis import log_of

    K = a.kernel
    out: dict = {"name": K.name or "K", "N": K.N, "M": K.M, "domain": K.domain, "rows": K.as_strings()}
    out["eta_tv"] = {"value": exact_str(a.eta_tv), "decimal": _dec(a.eta_tv), "pair": list(a.eta_tv_pair)}
    eps = log_of(a.ldp_ratio)
    out["ldp"] = {"ratio": exact_str(a.ldp_ratio), "epsilon": exact_str(eps), "decimal": _dec(eps),
                  "output": a.ldp_output, "inputs": list(a.ldp_inputs)}
    ml = log_of(a.max_leakage_ratio)
    out["max_leakage"] = {"ratio": exact_str(a.max_leakage_ratio), "nats": exact_str(ml), "decimal": _dec(ml)}
    if a.profile is not None:
        prof = a.profile
        out["privacy_profile"] = {
            "breakpoints": [exact_str(b) for b in prof.breakpoints],
            "pieces": [{"P": exact_str(P), "Q": exact_str(Q)} for P, Q in prof.pieces],
            "formula": "delta(gamma) = P - gamma*Q on the piece containing gamma",
            "least_gamma_for_delta_0": exact_str(prof.gamma_for(0)),
        }
    if a.t is not None:
        x, x2 = a.eta_hockey_stick_pair
        out["eta_hockey_stick"] = {"gamma": exact_str(a.t), "value": exact_str(a.eta_hockey_stick),
                                   "decimal": _dec(a.eta_hockey_stick), "pair": [x, x2]}
        if not _RATIONAL.fullmatch(exact_str(a.t)):  # an irrational e^eps (--eps 1/2): its certified digits
            out["eta_hockey_stick"]["gamma_decimal"] = _dec(a.t)
    if a.is_ldp is not None:
        out["is_ldp"] = {"t": exact_str(a.t), "delta": exact_str(a.delta), "verdict": str(a.is_ldp)}
    if a.c is not None:
        eps = log_of(a.pml_ratio)
        out["pml"] = {"c": exact_str(a.c), "ratio": exact_str(a.pml_ratio), "ratio_decimal": _dec(a.pml_ratio),
                      "epsilon": exact_str(eps), "decimal": _dec(eps), "worst_output": a.pml_output,
                      "worst_prior": a.pml_prior.as_strings()}
    if inverse is not None:
        t, e = inverse["t_star"], inverse["epsilon"]
        finite = not (is_sympy(e) and e == sympy.oo)
        out["epsilon_for_delta"] = {"delta": exact_str(inverse["delta"]), "t_star": exact_str(t) if finite else None,
                                    "epsilon": exact_str(e), "decimal": _dec(e) if finite else None}
    for q, v in a.registered:  # the other registered quantities (exactdp.measures.registry)
        out[q.json_key] = {"value": exact_str(v), "decimal": _dec(v)}
    if a.notes:
        out["notes"] = list(a.notes)
    return out


def _prior_text(prior: list[str], c: str) -> str:
    """A vertex c·1 + (1−Nc)e_x of Q_X(c), briefly: "c on every input, 513/1024 on input 4"."""
    others = [x for x, v in enumerate(prior) if v != c]
    if len(prior) <= SHOW_ROWS or len(others) != 1:
        return "(" + ", ".join(prior) + ")"
    return f"{c} on every input but {prior[others[0]]} on input {others[0]}"


def _show(exact: str, decimal: str | None) -> str:
    """An exact value for the text report: short ones in full (with 12 certified digits when not
    rational), long ones by their certified digits only (``--format json`` has every exact value)."""
    if len(exact) > LONG:
        return f"≈ {decimal} (exact: --format json)" if decimal else "(long exact value: --format json)"
    if decimal and not _RATIONAL.fullmatch(exact):  # every transcendental value with its certified digits
        return f"{exact} ≈ {decimal}"
    return exact


def _cell(text: str, value) -> str:
    """A matrix entry for the text report: long exact entries by 6 certified digits."""
    return text if len(text) <= LONG else "≈" + evalf(value, 6)


def _brief(value) -> str:
    """An exact value, or 6 certified digits of it when its exact form is long."""
    text = exact_str(value)
    return _cell(text, value)


def analysis_text(a, inverse: dict | None = None) -> str:
    """The human-readable report of ``exactdp analyze`` (``inverse``: as in :func:`analysis_json`)."""
    j = analysis_json(a, inverse)
    lines = [f"{escape.terminal(j['name'])}: {j['N']} inputs x {j['M']} outputs ({j['domain']})"]
    if j["N"] <= SHOW_ROWS and j["M"] <= SHOW_ROWS:
        cells = [[_cell(c, v) for c, v in zip(r, row)] for r, row in zip(j["rows"], a.kernel.rows)]
        w = max(len(c) for r in cells for c in r)
        lines += ["  " + "  ".join(c.rjust(w) for c in r) for r in cells]
        if any(len(c) > LONG for r in j["rows"] for c in r):
            lines.append("  (long exact entries shown by 6 certified digits; --format json lists them "
                         "exactly)")
    else:
        lines.append(f"  (rows not shown for more than {SHOW_ROWS} inputs or outputs; --format json lists "
                     "them)")
    e = j["eta_tv"]
    lines.append(f"eta_TV (Dobrushin)          = {_show(e['value'], e['decimal'])}   "
                 f"(rows {e['pair'][0]}, {e['pair'][1]})")
    if "eta_hockey_stick" in j:
        h = j["eta_hockey_stick"]
        gamma = f"{h['gamma']} ≈ {h['gamma_decimal']}" if "gamma_decimal" in h else h["gamma"]
        lines.append(f"eta_E_gamma at gamma={gamma:<6}  = {_show(h['value'], h['decimal'])}   "
                     f"(rows {h['pair'][0]}, {h['pair'][1]})")
    if "is_ldp" in j:
        i = j["is_ldp"]
        lines.append(f"(eps,delta)-LDP, e^eps={i['t']}, delta={i['delta']}: {i['verdict']}")
    if "epsilon_for_delta" in j:
        inv = j["epsilon_for_delta"]
        lines.append(f"least eps with delta(e^eps) <= {inv['delta']}: " + (
            f"eps = {_show(inv['epsilon'], inv['decimal'])}, t* = e^eps = {_show(inv['t_star'], None)}"
            if inv["t_star"] is not None else "none (delta(e^eps) stays above it for every eps)"))
    ldp = j["ldp"]
    lines.append(f"LDP: e^eps = {_show(ldp['ratio'], None)}, eps = {_show(ldp['epsilon'], ldp['decimal'])}   "
                 f"(output {ldp['output']}, rows {ldp['inputs'][0]} vs {ldp['inputs'][1]})")
    m = j["max_leakage"]
    lines.append(f"maximal leakage = {_show(m['nats'], m['decimal'])} nats")
    if a.profile is not None:
        prof = a.profile
        lines.append("privacy profile delta(gamma) = P - Q·gamma:")
        edges = ["0"] + [_brief(b) for b in prof.breakpoints] + ["inf"]
        for k, (P, Q) in enumerate(prof.pieces):
            q = "" if Q == 1 else f"{_brief(Q)}·"
            line = _brief(P) if Q == 0 else f"{_brief(P)} - {q}gamma"
            lines.append(f"  gamma in [{edges[k]}, {edges[k + 1]}]: {line}")
        lines.append(f"  least gamma with delta = 0: {_brief(prof.gamma_for(0))}")
    if "pml" in j:
        p = j["pml"]
        lines.append(f"(eps,c)-PML at c={p['c']}: e^eps = {_show(p['ratio'], p['ratio_decimal'])}, "
                     f"eps = {_show(p['epsilon'], p['decimal'])}   "
                     f"(output {p['worst_output']}, worst prior {_prior_text(p['worst_prior'], p['c'])})")
    for q, _ in a.registered:
        r = j[q.json_key]
        lines.append(f"{q.text:<27} = {_show(r['value'], r['decimal'])}")
    lines += [f"note: {n}" for n in j.get("notes", ())]
    return "\n".join(lines)
