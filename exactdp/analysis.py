"""Every core quantity of one kernel, as exact values: what ``exactdp analyze`` prints.

Exact values are strings (``"3/5"``, ``"log(15)"``, ``"inf"``); next to the main ones a ``"decimal"``
gives 12 significant digits, every digit guaranteed (certified rounding, :func:`exactdp.evalf`).
"""

from __future__ import annotations

import sympy

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.limits import require
from exactdp.measures.contraction import eta_hockey_stick_witness, eta_tv_witness
from exactdp.measures.privacy import (
    is_ldp,
    ldp_ratio_witness,
    max_leakage_ratio,
    pml_ratio_witness,
    privacy_profile,
)
from exactdp.numbers.digits import evalf
from exactdp.numbers.qq import qq_str, to_qq

DIGITS = 12
#: cost units (``max_work``) of one (pair of rows, output) step of a vectorized pairwise maximum
#: (η_TV, η_{E_γ}, is_ldp each make one pass over the N² row pairs and M outputs)
_PAIR_ENTRY = 1 / 4


def _s(v) -> str:
    return qq_str(v) if not isinstance(v, sympy.Basic) or v.is_Rational or v == sympy.oo else str(v)


def _log_expr(v):
    if v == sympy.oo or v is sympy.oo:
        return sympy.oo
    return sympy.log(sympy.Rational(str(v)))


def _log(v) -> str:
    return _s(_log_expr(v)) if str(v) != "1" else "0"


def _dec(v) -> str:
    """12 guaranteed significant digits of an exact value."""
    return evalf(v, DIGITS)


def check_cost(N: int, M: int, *, gamma=None) -> None:
    """Refuse an analysis of an N x M kernel whose pairwise passes exceed ``max_work`` (sizes only, so a
    reader can call it before parsing the entries: ``read_kernel(path, check_shape=...)``)."""
    passes = 1 if gamma is None else 3
    require("max_work", int(passes * N * N * M * _PAIR_ENTRY),
            f"analyze: {passes} pass{'es' if passes > 1 else ''} over the {N}x{N} row pairs of a {N}x{M} kernel")


def analyze(K: Kernel, *, gamma=None, c=None, delta=0, profile_limit: int = 128) -> dict:
    """A dict of exact strings: η_TV, η_{E_γ}, LDP, privacy profile, maximal leakage, (ε,c)-PML.

    The privacy profile is computed for at most ``profile_limit`` inputs; above, ``"notes"`` says it was
    skipped (never silently).  The pairwise passes (η_TV, and with ``gamma`` η_{E_γ} and is_ldp) are
    estimated first, passes·N²·M/4 against ``max_work`` (issue 14).
    """
    d = to_qq(delta, "delta")
    if d < 0 or d > 1:
        raise ParameterError(f"delta: must lie in [0, 1], got {d}")
    if c is not None:
        c = to_qq(c, "c")
    check_cost(K.N, K.M, gamma=gamma)
    out: dict = {"name": K.name or "K", "N": K.N, "M": K.M, "domain": K.domain, "rows": K.as_strings()}
    notes: list[str] = []
    v, x, x2 = eta_tv_witness(K)
    out["eta_tv"] = {"value": _s(v), "decimal": _dec(v), "pair": [x, x2]}
    r, y, xa, xb = ldp_ratio_witness(K)
    out["ldp"] = {"ratio": _s(r), "epsilon": _log(r), "decimal": _dec(_log_expr(r)), "output": y,
                  "inputs": [xa, xb]}
    ml = max_leakage_ratio(K)
    out["max_leakage"] = {"ratio": _s(ml), "nats": _log(ml), "decimal": _dec(_log_expr(ml))}
    if K.N <= profile_limit:
        prof = privacy_profile(K)
        out["privacy_profile"] = {
            "breakpoints": [_s(b) for b in prof.breakpoints],
            "pieces": [{"P": _s(P), "Q": _s(Q)} for P, Q in prof.pieces],
            "formula": "delta(gamma) = P - gamma*Q on the piece containing gamma",
            "least_gamma_for_delta_0": _s(prof.gamma_for(0)),
        }
    else:
        notes.append(f"privacy profile not computed: N = {K.N} inputs exceeds profile_limit = {profile_limit} "
                     f"(exactdp.analysis.analyze(K, profile_limit=...)); eta_E_gamma at one gamma: --gamma")
    if gamma is not None:
        g = to_qq(gamma, "gamma")
        v, x, x2 = eta_hockey_stick_witness(K, g)
        out["eta_hockey_stick"] = {"gamma": _s(g), "value": _s(v), "decimal": _dec(v), "pair": [x, x2]}
        if g >= 1:
            out["is_ldp"] = {"gamma": _s(g), "delta": _s(d), "verdict": str(is_ldp(K, gamma=g, delta=d))}
    if c is not None:
        r, y, prior = pml_ratio_witness(K, c)
        out["pml"] = {"c": _s(c), "ratio": _s(r), "ratio_decimal": _dec(r), "epsilon": _log(r),
                      "decimal": _dec(_log_expr(r)), "worst_output": y, "worst_prior": prior.as_strings()}
    if notes:
        out["notes"] = notes
    return out


SHOW_ROWS = 12  # the text report prints the matrix only up to this size


def _prior_text(prior: list[str], c: str) -> str:
    """A vertex c·1 + (1−Nc)e_x of Q_X(c), briefly: "c on every input, 513/1024 on input 4"."""
    others = [x for x, v in enumerate(prior) if v != c]
    if len(prior) <= SHOW_ROWS or len(others) != 1:
        return str(prior)
    return f"{c} on every input but {prior[others[0]]} on input {others[0]}"


def _show(exact: str, decimal: str | None) -> str:
    """An exact value for the text report: short ones in full (with 12 certified digits when not
    rational), long ones by their certified digits only (``--json`` has every exact value)."""
    if len(exact) > 28:
        return f"≈ {decimal} (exact: --json)" if decimal else "(long exact value: --json)"
    if decimal and ("log" in exact or "sqrt" in exact):
        return f"{exact} ≈ {decimal}"
    return exact


def format_analysis(a: dict) -> str:
    """The human-readable report of :func:`analyze`."""
    lines = [f"{a['name']}: {a['N']} inputs x {a['M']} outputs ({a['domain']})"]
    if a["N"] <= SHOW_ROWS and a["M"] <= SHOW_ROWS:
        w = max(len(c) for r in a["rows"] for c in r)
        lines += ["  " + "  ".join(c.rjust(w) for c in r) for r in a["rows"]]
    else:
        lines.append(f"  (rows not shown for more than {SHOW_ROWS} inputs or outputs; --json lists them)")
    e = a["eta_tv"]
    lines.append(f"eta_TV (Dobrushin)          = {_show(e['value'], e['decimal'])}   "
                 f"(rows {e['pair'][0]}, {e['pair'][1]})")
    if "eta_hockey_stick" in a:
        h = a["eta_hockey_stick"]
        lines.append(f"eta_E_gamma at gamma={h['gamma']:<6}  = {_show(h['value'], h['decimal'])}   "
                     f"(rows {h['pair'][0]}, {h['pair'][1]})")
    if "is_ldp" in a:
        i = a["is_ldp"]
        lines.append(f"(eps,delta)-LDP, e^eps={i['gamma']}, delta={i['delta']}: {i['verdict']}")
    l = a["ldp"]
    lines.append(f"LDP: e^eps = {_show(l['ratio'], None)}, eps = {_show(l['epsilon'], l['decimal'])}   "
                 f"(output {l['output']}, rows {l['inputs'][0]} vs {l['inputs'][1]})")
    m = a["max_leakage"]
    lines.append(f"maximal leakage = {_show(m['nats'], m['decimal'])} nats")
    if "privacy_profile" in a:
        p = a["privacy_profile"]
        lines.append("privacy profile delta(gamma) = P - gamma*Q:")
        edges = ["0"] + p["breakpoints"] + ["inf"]
        for k, piece in enumerate(p["pieces"]):
            line = piece["P"] if piece["Q"] == "0" else f"{piece['P']} - gamma*{piece['Q']}"
            lines.append(f"  gamma in [{edges[k]}, {edges[k + 1]}]: {line}")
        lines.append(f"  least gamma with delta = 0: {p['least_gamma_for_delta_0']}")
    if "pml" in a:
        p = a["pml"]
        lines.append(f"(eps,c)-PML at c={p['c']}: e^eps = {_show(p['ratio'], p['ratio_decimal'])}, "
                     f"eps = {_show(p['epsilon'], p['decimal'])}   "
                     f"(output {p['worst_output']}, worst prior {_prior_text(p['worst_prior'], p['c'])})")
    lines += [f"note: {n}" for n in a.get("notes", ())]
    return "\n".join(lines)
