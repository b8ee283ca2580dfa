r"""How exactdp's objects show themselves in Jupyter: the LaTeX, HTML and Markdown of kernels, truth values,
registry bounds, privacy profiles, risk bounds, extremal results, claim outcomes, claim results and conjecture
checks.

Each ``<kind>_repr_<format>`` function renders one type; :mod:`exactdp.output.presenters` registers them by
type, and the objects' ``_repr_latex_`` / ``_repr_html_`` / ``_repr_markdown_`` (the mixin
:class:`exactdp.numbers.rich.RichDisplay`) reach them through that registry.  Formulas come from the one
printer (:func:`exactdp.numbers.display.to_latex`); hypotheses and scopes are phrases with prose and formulas
apart (:func:`phrase_html`), and ASCII mathematics in other stored texts (titles, summaries, a conjecture) is
typeset by :mod:`exactdp.output.ascii_math`.  A claim result shows its statement
typeset, its verdict and scope, and its evidence folded in ``<details>``; formulas never wrap over two lines
(``white-space: nowrap``).
"""

from __future__ import annotations

import sympy

from exactdp.numbers import escape
from exactdp.numbers.display import (T_NOTE, as_display_expr, entry_form, matrix_latex, relation_latex, to_latex,
                                     uses_t)
from exactdp.output.ascii_math import formula_latex, prose_html, text_in_math


def esc(text) -> str:
    """HTML-escaped text (line ends and tabs kept: ``<pre>`` blocks); names are data
    (:func:`exactdp.numbers.escape.html`)."""
    return escape.html(text, keep="\n\t")


def html_math(tex: str, display: bool = False) -> str:
    """A formula inside HTML, for Jupyter's MathJax: ``$…$`` (or ``$$…$$``), HTML-escaped."""
    return f"$${esc(tex)}$$" if display else f"${esc(tex)}$"


def html_table(header, rows, *, caption: str = "") -> str:
    """A small HTML table (cells are already HTML)."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{caption}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_details(summary: str, body: str) -> str:
    """A collapsed ``<details>`` block (summary and body are HTML)."""
    return f"<details><summary>{summary}</summary>{body}</details>"


def html_pre(lines) -> str:
    return "<pre>" + esc("\n".join(str(x) for x in lines)) + "</pre>"


#: how a three-valued answer is shown (the same words everywhere: TRUE / FALSE / UNKNOWN)
TRUTH_MARKS = {"true": "✓", "false": "✗", "unknown": "?"}


def truth_word(value: str) -> str:
    """``"true"`` → ``"✓ TRUE"`` (the display of :class:`~exactdp.numbers.truth.Truth` and of verdicts)."""
    return f"{TRUTH_MARKS.get(value, '')} {value.upper()}".strip()


# -- the objects' rich displays (Jupyter: _repr_latex_ / _repr_html_ / _repr_markdown_) ------------------

def _nowrap(html: str) -> str:
    """HTML kept on one line (a formula never wraps over two)."""
    return f'<span style="white-space:nowrap">{html}</span>'


def _note(*exprs) -> str:
    return rf", \quad {T_NOTE}" if uses_t(*exprs) else ""


def _is_exact_number(v) -> bool:
    return not (isinstance(v, sympy.Basic) and v.free_symbols)


def _cell_html(v) -> str:
    """A kernel entry in HTML: ``3/4`` as text, a parametric entry as a formula."""
    return esc(v) if _is_exact_number(v) else _nowrap(html_math(to_latex(entry_form(v))))


def kernel_latex(K, entry=entry_form) -> str:
    r"""``K = \begin{pmatrix}…\end{pmatrix}`` (entries in e^ε; ``entry`` simplifies each, by default
    cancelled and factored)."""
    return "K = " + matrix_latex(K.rows, entry)


def kernel_region_latex(K) -> str:
    r"""The declared parameter region of a parametric kernel (``e^{\varepsilon} \geq 1, c \leq \frac{1}{3}, …``),
    "" for a kernel without parameters."""
    if not K.free_symbols:
        return ""
    from exactdp.symbolic.region import declared_conditions  # deferred: start-up

    return ", ".join(to_latex(cnd) for cnd in declared_conditions(K) if cnd is not sympy.true)


def kernel_statement_latex(K) -> str:
    r"""``K = (…)`` and, for a parametric kernel, the region it is declared on: ``\quad \text{on } …``."""
    region = kernel_region_latex(K)
    return kernel_latex(K) + (rf", \quad \text{{on }} {region}" if region else "")


def kernel_repr_latex(K) -> str:
    return f"$$ {kernel_statement_latex(K)} $$"


def kernel_repr_html(K) -> str:
    head = f"<b>{escape.html(K.name or 'Kernel')}</b> ({K.N}×{K.M}, {esc(K.domain)}; rows x, columns y)"
    if uses_t(*[e for r in K.rows for e in r]):
        head += f" with {_nowrap(html_math(T_NOTE))}"
    region = kernel_region_latex(K)
    if region:
        head += f", declared on {_nowrap(html_math(region))}"
    rows = [[f"<b>x = {x}</b>"] + [_cell_html(v) for v in r] for x, r in enumerate(K.rows)]
    return f"<div>{head}{html_table([''] + [f'y = {y}' for y in range(K.M)], rows)}</div>"


def kernel_repr_markdown(K) -> str:
    name = (K.name or "").strip() or "Kernel"  # **…** is bold only without white space inside its ends
    return f"**{escape.markdown(name)}** ({K.N}×{K.M}, {K.domain})\n\n$$ {kernel_statement_latex(K)} $$"


def truth_repr_latex(truth) -> str:
    return rf"$\mathsf{{{truth.value.upper()}}}$"


def truth_repr_html(truth) -> str:
    return f'<span class="exactdp-truth" title="exactdp Truth (three-valued)">{esc(truth_word(truth.value))}</span>'


def truth_repr_markdown(truth) -> str:
    return f"**{truth_word(truth.value)}**"


def bound_statement(b) -> str:
    """A registry bound's statement ``quantity ≤ formula`` (``symbol = formula`` for a definition)."""
    lhs = b.quantity_latex if b.direction != "definition" else b.symbol_latex
    return relation_latex(lhs, b.direction, to_latex(b.expr))


def bound_domain(b) -> str:
    return ", ".join(to_latex(cnd) for cnd in b.domain())


def _source_text(b) -> str:
    return f"{b.source}" + (" (reconstructed)" if b.reconstructed else "")


def bound_repr_latex(b) -> str:
    return f"$$ {bound_statement(b)}{_note(b.expr)} $$"


def bound_repr_html(b) -> str:
    dom = bound_domain(b)
    return (f"<div><b><code>{esc(b.name)}</code></b>: {esc(b.quantity)}"
            f"<div>{html_math(bound_statement(b) + _note(b.expr), display=True)}</div>"
            + (f"<div>for {html_math(dom)}</div>" if dom else "")
            + f"<div><small>{esc(_source_text(b))}; items {esc(', '.join(b.catalogue))}</small></div></div>")


def bound_repr_markdown(b) -> str:
    dom = bound_domain(b)
    return (f"**`{b.name}`**: {b.quantity}\n\n$$ {bound_statement(b)}{_note(b.expr)} $$\n\n"
            + (f"for ${dom}$; " if dom else "") + f"{_source_text(b)}")


def profile_latex(P) -> str:
    r"""δ(γ) of a :class:`~exactdp.measures.privacy.PrivacyProfile` as ``\begin{cases}`` (γ = e^ε)."""
    gamma = sympy.Symbol("gamma", nonnegative=True)
    return rf"\delta(\gamma) = {to_latex(P.to_sympy(gamma), cases=True)}, \quad \gamma = e^{{\varepsilon}} \geq 0"


def profile_repr_latex(P) -> str:
    return f"$$ {profile_latex(P)} $$"


def profile_repr_markdown(P) -> str:
    return f"**Privacy profile** (exact, piecewise linear; (ε, δ)-LDP iff δ(e^ε) ≤ δ)\n\n$$ {profile_latex(P)} $$"


_PROFILE_DEF = html_math(r"\delta(\gamma) = \eta_{E_\gamma}(K)")
_PROFILE_LDP = html_math(r"\delta(e^{\varepsilon}) \le \delta")
_PROFILE_GAMMA = html_math(r"\gamma = e^{\varepsilon}")


def profile_repr_html(P) -> str:
    gamma = sympy.Symbol("gamma", nonnegative=True)
    edges = (0,) + tuple(P.breakpoints)
    rows = []
    for k, (p, q) in enumerate(P.pieces):
        lo, hi = edges[k], (P.breakpoints[k] if k < len(P.breakpoints) else None)
        interval = f"[{esc(lo)}, {esc(hi)}]" if hi is not None else f"[{esc(lo)}, ∞)"
        rows.append([_nowrap(interval), _nowrap(html_math(to_latex(as_display_expr(p) - as_display_expr(q) * gamma)))])
    return (f"<div><b>Privacy profile</b> {_nowrap(_PROFILE_DEF)}, exact and piecewise linear in "
            f"{_nowrap(_PROFILE_GAMMA)}; (ε, δ)-LDP iff {_nowrap(_PROFILE_LDP)}"
            + html_table(["γ", "δ(γ)"], rows) + "</div>")


def risk_bound_latex(rb) -> str:
    return rf"\text{{{rb.spec.title}}} = {to_latex(rb.value)}"


def risk_bound_repr_latex(rb) -> str:
    return f"$$ {risk_bound_latex(rb)} $$"


def risk_bound_repr_html(rb) -> str:
    recon = " (reconstructed)" if rb.spec.reconstructed else ""
    return (f"<div><b>{esc(rb.spec.title)}</b> = {html_math(to_latex(rb.value))} <small>({esc(rb.kind)}; "
            f"{esc(rb.spec.source)}{recon})</small><div>{html_math(rb.spec.latex, display=True)}</div></div>")


def risk_bound_repr_markdown(rb) -> str:
    recon = " (reconstructed)" if rb.spec.reconstructed else ""
    return f"**{rb.spec.title}** = ${to_latex(rb.value)}$ ({rb.kind}; {rb.spec.source}{recon})\n\n$$ {rb.spec.latex} $$"


_PARAM_TEX = {"t": r"e^{\varepsilon}", "c": "c", "delta": r"\delta", "gamma": r"\gamma", "N": "N", "M": "M"}


def _extremal_quantity(res) -> str:
    p = res.params
    inf = bool(res.lps) and res.lps[0].sense < 0
    op = r"\inf" if inf else r"\sup"
    if res.quantity == "eta":
        g = p.get("gamma", 1)
        eta = r"\eta_{\mathrm{TV}}(K)" if g == 1 else r"\eta_{E_{\gamma}}(K)"
        return rf"{op}_{{K}} {eta}"
    return rf"{op}_{{K}} \text{{{text_in_math(res.quantity)}}}"


def _extremal_class(res) -> str:
    p = res.params
    kind = r"(\varepsilon, c)\text{-PML}" if p.get("c") is not None else r"(\varepsilon, \delta)\text{-LDP}"
    values = ", ".join(f"{_PARAM_TEX.get(k, k)} = {to_latex(v)}" for k, v in p.items()
                       if v is not None and k in _PARAM_TEX)
    return rf"\text{{over }} {kind} \text{{ kernels}}" + (rf", \; {values}" if values else "")


def extremal_latex(res) -> str:
    r"""The value of an extremal result and its optimal kernel: ``\sup_K η(K) = v, \quad K^\star = (…)``."""
    return (rf"{_extremal_quantity(res)} = {to_latex(res.value)} \quad \left({_extremal_class(res)}\right), "
            rf"\quad K^\star = " + matrix_latex(res.kernel.rows))


def extremal_repr_latex(res) -> str:
    return f"$$ {extremal_latex(res)} $$"


def _recheck(res) -> str:
    bad = res.failures()
    return "all certificates re-checked ✓" if not bad else "certificate re-check FAILED ✗: " + "; ".join(bad)


def extremal_repr_html(res) -> str:
    """Value, kernel and the exact re-check of every certificate; the LPs behind a ``<details>`` toggle."""
    lps = "".join(f"<li><code>{esc(cl.label)}</code>: value {esc(cl.value)}, "
                  f"{esc(getattr(cl.solution, 'pivots', '?'))} pivots{html_pre([cl.lp])}</li>" for cl in res.lps)
    value = html_math(f"{_extremal_quantity(res)} = {to_latex(res.value)}")
    return (f"<div>{value} <small>{html_math(_extremal_class(res))}</small>"
            f"<div><b>{esc(_recheck(res))}</b></div><div>optimal kernel:</div>{kernel_repr_html(res.kernel)}"
            + html_details(f"{len(res.lps)} linear program(s) with exact primal/dual certificates", f"<ul>{lps}</ul>")
            + "</div>")


def extremal_repr_markdown(res) -> str:
    return f"$$ {extremal_latex(res)} $$\n\n**{_recheck(res)}**"


def verdict_word(value: str) -> str:
    return value.upper().replace("-", " ")


def statement_latex_lines(claim) -> list[str]:
    r"""A claim's statement as LaTeX formulas (without ``$``), each printed from its expression
    (:attr:`~exactdp.verification.claims.Claim.formulas`,
    :func:`exactdp.numbers.formula_text.formula_latex_of`);
    a statement without mathematics is its stored source (``\text{(qualitative)}``), as the one line."""
    from exactdp.numbers.formula_text import formula_latex_of
    from exactdp.verification.claims import statement_formulas  # deferred: start-up

    if claim.formulas:
        return [formula_latex_of(f) for f in statement_formulas(claim)]
    return [claim.statement.strip()]


#: between the formulas of one statement on one line (Jupyter's HTML and Markdown)
_STATEMENT_SEP = r",\quad "


def statement_html(tex: str) -> str:
    """A LaTeX statement displayed for MathJax (``$$…$$``), on one line."""
    return f'<div style="overflow-x:auto">{html_math(tex, display=True)}</div>'


def derivation_html(lines) -> str:
    """Derivation lines as a list: structured steps with their formulas typeset from the expressions, text
    lines with their ASCII formulas typeset (:func:`prose_html`)."""
    return "<ol>" + "".join(f"<li>{_step_html(line)}</li>" for line in lines) + "</ol>"


def _step_html(step) -> str:
    """One derivation line for Jupyter: a structured step's prose (:func:`prose_html`) and its formulas and region
    typeset from their expressions (:func:`exactdp.numbers.formula_text.formula_latex_of`); a text line by
    :func:`prose_html`."""
    from exactdp.numbers.formula_text import DerivationStep, formula_latex_of

    if not isinstance(step, DerivationStep):
        return prose_html(step)
    return step.render(prose_html, lambda f: html_math(formula_latex_of(f)),
                       region=lambda conds: " on " + html_math(", ".join(formula_latex_of(c) for c in conds)),
                       outcome=lambda o: f" → {esc(o)}")


def phrase_html(step) -> str:
    """A phrase of prose and formulas (a claim's hypotheses, a verdict's scope:
    :class:`~exactdp.numbers.formula_text.DerivationStep`) for Jupyter: the prose HTML-escaped, each formula
    typeset from its expression, kept on one line."""
    from exactdp.numbers.formula_text import formula_latex_of

    return step.render(esc, lambda f: _nowrap(html_math(formula_latex_of(f))))


def phrase_markdown(step) -> str:
    """A phrase of prose and formulas in Markdown: each formula ``$…$`` from its expression."""
    from exactdp.numbers.formula_text import formula_latex_of

    return step.render(str, lambda f: "$" + formula_latex_of(f) + "$")


def phrase_in_math(step) -> str:
    r"""A phrase of prose and formulas inside maths (a ``_repr_latex_``): prose as ``\text{…}``, each formula
    from its expression."""
    from exactdp.numbers.formula_text import formula_latex_of

    return step.render(lambda p: r"\text{" + text_in_math(p) + "}" if p else "", formula_latex_of)


def scope_step(text: str):
    """A scope's prose and formulas apart (:func:`exactdp.numbers.formula_text.scope_step`)."""
    from exactdp.numbers.formula_text import scope_step as step

    return step(str(text))


def _counterexample_html(ce: dict) -> str:
    return html_pre(f"{k} = {v}" for k, v in ce.items())


def outcome_repr_html(o, title: str = "") -> str:
    """A claim check's outcome: verdict, summary and scope (formulas typeset), what it rests on, and the
    evidence (counterexample, derivation) folded in ``<details>``."""
    parts = [f"<b>{esc(verdict_word(o.verdict.value))}</b>" + (f" — <b>{esc(title)}</b>" if title else "")
             + f": {prose_html(o.summary)}"]
    if getattr(o, "scope", ""):
        parts.append(f"<div><i>scope</i>: {phrase_html(scope_step(o.scope))}</div>")
    if getattr(o, "rests_on", ()):
        parts.append(f"<div><i>rests on</i>: {esc(', '.join(o.rests_on))}</div>")
    if o.instances:
        parts.append(f"<div><i>instances</i>: {o.instances}</div>")
    if o.reason:
        parts.append(f"<div><i>reason</i>: {prose_html(o.reason)}</div>")
    if o.counterexample:
        parts.append(html_details("counterexample", _counterexample_html(o.counterexample)))
    if o.derivation:
        parts.append(html_details(f"derivation ({len(o.derivation)} lines)", derivation_html(o.derivation)))
    return "<div>" + "".join(parts) + "</div>"


def outcome_repr_markdown(o) -> str:
    scope = f" (scope: {phrase_markdown(scope_step(o.scope))})" if getattr(o, "scope", "") else ""
    return f"**{verdict_word(o.verdict.value)}**{scope}: {o.summary}"


def outcome_repr_latex(o) -> str:
    scope = (rf" \quad \text{{(scope: }}{phrase_in_math(scope_step(o.scope))}\text{{)}}" if getattr(o, "scope", "")
             else "")
    return rf"$\textbf{{{verdict_word(o.verdict.value)}}}{scope}$"


def _claim_head_latex(r) -> str:
    c = r.claim
    scope = getattr(r, "scope", "")
    return (rf"\texttt{{{text_in_math(c.id)}}}\text{{: }}\textbf{{{verdict_word(r.verdict.value)}}}"
            + (rf"\text{{ (scope: }}{phrase_in_math(scope_step(scope))}\text{{)}}" if scope else ""))


def claim_result_repr_latex(r) -> str:
    r"""The claim's id, verdict and scope, then its statement's formulas typeset
    (:func:`statement_latex_lines`): ``$$\begin{gathered}…\end{gathered}$$``."""
    return (rf"$$\begin{{gathered}}{_claim_head_latex(r)} \\ " + r" \\ ".join(statement_latex_lines(r.claim))
            + r"\end{gathered}$$")


def claim_result_repr_html(r) -> str:
    """Id, title (formulas typeset), statement (displayed maths), verdict and scope; the evidence of every
    check folded in ``<details>``."""
    c = r.claim
    scope = getattr(r, "scope", "")
    head = (f"<div><b><code>{esc(c.id)}</code></b> ({esc(', '.join(c.catalogue))}) — {prose_html(c.title)}"
            f"{statement_html(_STATEMENT_SEP.join(statement_latex_lines(c)))}"
            f"<b>{esc(verdict_word(r.verdict.value))}</b>" + (f", scope: {phrase_html(scope_step(scope))}" if scope
                                                               else "")
            + f"; expected {esc(c.expected.value)}{'' if r.matches else ' (DIFFERS)'}; {r.instances} instances"
            + (f"<div><i>hypotheses</i>: {phrase_html(c.hypotheses_step)}</div>" if c.hypotheses else "") + "</div>")
    checks = "".join(f"<li>{outcome_repr_html(cr.outcome, cr.check.name)}</li>" for cr in r.checks)
    return head + html_details(f"evidence of {len(r.checks)} check(s)", f"<ul>{checks}</ul>")


def claim_result_repr_markdown(r) -> str:
    c = r.claim
    scope = getattr(r, "scope", "")
    lines = [f"**`{c.id}`** — {c.title}: **{verdict_word(r.verdict.value)}**"
             + (f" (scope: {phrase_markdown(scope_step(scope))})" if scope else ""),
             "", f"$$ {_STATEMENT_SEP.join(statement_latex_lines(c))} $$", ""]
    lines += [f"- {cr.check.name}: {outcome_repr_markdown(cr.outcome)}" for cr in r.checks]
    return "\n".join(lines)


def conjecture_latex(res) -> str:
    """A conjecture check's statement typeset from its text (:func:`exactdp.output.ascii_math.formula_latex`)."""
    return formula_latex(res.conjecture)


def check_result_repr_html(res) -> str:
    """A conjecture search's result (:class:`~exactdp.verification.conjecture.api.CheckResult`): verdict and
    the conjecture typeset (its text as typed beside it), classes and scope; proof and search statistics
    folded in ``<details>``."""
    parts = [f"<div><b>{esc(verdict_word(res.verdict))}</b>: {_nowrap(html_math(conjecture_latex(res)))} "
             f"<small>(typed: <code>{esc(res.conjecture)}</code>)</small></div>",
             f"<div><i>classes</i>: {esc(', '.join(map(str, res.classes)))}"
             + (f"; <i>scope</i>: {phrase_html(scope_step(res.scope))}" if getattr(res, "scope", "") else "")
             + "</div>"]
    if res.rests_on:
        parts.append(f"<div><i>rests on</i>: {esc(', '.join(res.rests_on))}</div>")
    if res.counterexample:
        parts.append("<div><i>counterexample</i>:</div>" + _counterexample_html(res.counterexample))
    if res.proof:
        parts.append(html_details(f"proof ({len(res.proof)} lines)", derivation_html(res.proof)))
    if res.certificates:
        parts.append(f"<div>{len(res.certificates)} certificate(s) re-checked ✓</div>")
    stats = {k: v for k, v in res.stats.items() if isinstance(v, (int, str))}
    if stats:
        parts.append(html_details("search statistics", html_pre(f"{k}: {v}" for k, v in stats.items())))
    return "<div>" + "".join(parts) + "</div>"


def check_result_repr_markdown(res) -> str:
    scope = f" (scope: {phrase_markdown(scope_step(res.scope))})" if getattr(res, "scope", "") else ""
    ce = ""
    if res.counterexample:  # the kernel and the distributions; the rest (enclosures, the search) in the HTML
        shown = [k for k in ("rows", "params", "P", "Q", "slack") if k in res.counterexample]
        ce = "\n\ncounterexample: " + ", ".join(f"`{k} = {res.counterexample[k]}`" for k in shown)
    return f"**{verdict_word(res.verdict)}**{scope}: ${conjecture_latex(res)}$ (`{res.conjecture}`){ce}"


def check_result_repr_latex(res) -> str:
    scope = (rf"\text{{ (scope: }}{phrase_in_math(scope_step(res.scope))}\text{{)}}" if getattr(res, "scope", "")
             else "")
    return rf"$\textbf{{{verdict_word(res.verdict)}}}{scope}\text{{: }}{conjecture_latex(res)}$"
