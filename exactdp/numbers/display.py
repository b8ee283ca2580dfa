r"""Display of exact values in the papers' notation: LaTeX, HTML and Markdown building blocks.

The lowest layer of the rich display: the objects' ``_repr_latex_`` / ``_repr_html_`` /
``_repr_markdown_`` methods (Jupyter) and :mod:`exactdp.output.latex` are written with these, so every
formula is printed by one printer:

* t = e^ε is printed as ``e^{\varepsilon}`` (DESIGN principle 5: proofs run in t, the papers write ε),
  powers as ``e^{2 \varepsilon}``; δ, γ, c, N as themselves; fractions with ``\frac``;
* ``Min``/``Max`` as ``\min``/``\max``; a sum leads with a positive term (``1 - N c``, not ``- N c + 1``);
* ``Piecewise`` as ``\left\{ a \;\text{if}\; \dots,\quad b \;\text{otherwise} \right.`` (parses with
  matplotlib's mathtext), or as a ``cases`` environment with ``cases=True`` (documents, Jupyter).

Only sympy and the number layer are used here, so objects of every layer may display themselves.
"""

from __future__ import annotations

from typing import Any

import sympy
from flint import fmpq
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from exactdp.numbers import escape
from exactdp.numbers.reader import as_expr
from exactdp.numbers.sr import as_sympy

#: the papers' symbols for the names used in exactdp's sympy expressions
SYMBOL_LATEX = {
    "eps": r"\varepsilon", "epsilon": r"\varepsilon", "delta": r"\delta", "gamma": r"\gamma",
    "eta": r"\eta", "phi": r"\varphi", "Xi": r"\Xi", "Gamma": r"\Gamma", "Phi": r"\Phi", "TV": r"\mathrm{TV}",
    "zeta": r"\zeta", "psi": r"\psi", "I_gamma": r"I_{\gamma}", "tv_in": r"\delta",
}

EPS = sympy.Symbol("eps", positive=True)

#: the note every display of a formula in e^ε carries
T_NOTE = r"t = e^{\varepsilon}"


class PaperLatexPrinter(LatexPrinter):
    """sympy's LaTeX printer with the papers' symbol names, a positive leading term, and a Piecewise
    that parses with matplotlib's mathtext (``cases=False``) or a ``cases`` environment (``cases=True``)."""

    def __init__(self, settings: Any = None, *, cases: bool = False) -> None:
        super().__init__(settings)
        self.cases = cases

    def _print_Piecewise(self, expr: Any) -> str:
        if self.cases:
            rows = [rf"{self._print(e)} & \text{{otherwise}}" if c is sympy.true
                    else rf"{self._print(e)} & \text{{if }} {self._print(c)}" for e, c in expr.args]
            return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"
        parts = []
        for e, c in expr.args:
            if c is sympy.true:
                parts.append(rf"{self._print(e)} \;\text{{otherwise}}")
            else:
                parts.append(rf"{self._print(e)} \;\text{{if}}\; {self._print(c)}")
        return r"\left\{ " + r",\quad ".join(parts) + r" \right."

    def add_terms(self, expr: Any, order: Any = None) -> list[str]:
        """The terms of a sum as printed: the first bare, the others with their sign (``"+ a"``, ``"- b"``)."""
        terms = list(self._as_ordered_terms(expr, order=order))
        lead = next((k for k, term in enumerate(terms) if not term.could_extract_minus_sign()), 0)
        terms = [terms[lead]] + terms[:lead] + terms[lead + 1:]
        out = []
        for i, term in enumerate(terms):
            sign = ""
            if i and term.could_extract_minus_sign():
                sign, term = "- ", -term
            elif i:
                sign = "+ "
            term_tex = self._print(term)
            if self._needs_add_brackets(term):
                term_tex = rf"\left({term_tex}\right)"
            out.append(sign + term_tex)
        return out

    def _print_Add(self, expr: Any, order: Any = None) -> str:
        """Default term order, except that a positive term leads ("1 - Nc", not "- Nc + 1")."""
        return " ".join(self.add_terms(expr, order))

    def _print_Symbol(self, expr: Any, style: Any = "plain") -> str:
        name = expr.name
        if name in SYMBOL_LATEX:
            return SYMBOL_LATEX[name]
        return str(super()._print_Symbol(expr, style=style))


def exp_form(expr: Any, t_names: Any = ("t",)) -> Any:
    """Replace t by e^ε (DESIGN principle 5: proofs run in t, papers are written in ε)."""
    expr = as_expr(expr)
    subs = {s: sympy.exp(EPS) for s in expr.free_symbols if s.name in t_names}
    return expr.xreplace(subs) if subs else expr


def printer(*, cases: bool = False) -> PaperLatexPrinter:
    return PaperLatexPrinter({"mul_symbol": None, "inv_trig_style": "abbreviated"}, cases=cases)


def as_display_expr(expr: Any, *, t_as_exp: bool = True) -> Any:
    """A sympy value of an exact number or expression (fmpq, int, ``oo``, sympy), t → e^ε if asked."""
    if not isinstance(expr, (sympy.Basic, bool)):
        expr = as_sympy(expr)
    if isinstance(expr, sympy.Basic) and t_as_exp:
        expr = exp_form(expr)
    return expr


def to_latex(expr: Any, *, t_as_exp: bool = True, cases: bool = False) -> str:
    """LaTeX of a sympy expression (or fmpq / ``oo``) in the papers' notation, without ``$``.

    >>> t = sympy.Symbol("t", positive=True)
    >>> to_latex((t - 1) / (t + 1))
    '\\\\frac{e^{\\\\varepsilon} - 1}{e^{\\\\varepsilon} + 1}'
    """
    return str(printer(cases=cases).doprint(as_display_expr(expr, t_as_exp=t_as_exp)))


class TextPrinter(StrPrinter):
    """The terminal's printer of exact values, the plain-text twin of :class:`PaperLatexPrinter`: ``^`` for
    powers, ``·`` for products, ``√`` for square roots, ``a/b`` for quotients (the denominator parenthesised
    when it is a sum or product).  What it prints is what the safe reader (:mod:`exactdp.numbers.reader`) reads
    back into the same expression, so the screen never states a formula other than the one computed."""

    def _print_Pow(self, expr: Any, rational: Any = False) -> str:
        base, e = expr.args
        if e is sympy.S.Half:  # √2, √t, √(t + 1)
            text = self._print(base)
            return "√" + (text if base.is_Atom and not (base.is_Rational and not base.is_Integer)
                          else f"({text})")
        if e.is_Integer and e < 0:  # t^(-2) -> 1/t^2, (t + 1)^(-1) -> 1/(t + 1)
            den = base ** -e
            text = self._print(den)
            return f"1/({text})" if isinstance(den, (sympy.Add, sympy.Mul)) else f"1/{text}"
        return str(super()._print_Pow(expr, rational)).replace("**", "^")

    def _print_Function(self, expr: Any) -> str:
        """A call with each sum argument over its common denominator: log((1 + √2)/2), not log(1/2 + √2/2)
        (sympy distributes 1/2 over the sum; the reader rebuilds the same expression from either text)."""
        args = []
        for a in expr.args:
            content, rest = a.as_content_primitive() if a.is_Add else (sympy.S.One, a)
            if content.is_Rational and content.q != 1:
                args.append(f"({self._print(content.p * rest)})/{content.q}")
            else:
                args.append(self._print(a))
        return f"{expr.func.__name__}({', '.join(args)})"

    def _print_Mul(self, expr: Any) -> str:
        num, den = sympy.fraction(expr)
        if den != 1 and not expr.has(sympy.Piecewise):
            ns, ds = self._print(num), self._print(den)
            if isinstance(num, sympy.Add):
                ns = f"({ns})"
            if isinstance(den, (sympy.Add, sympy.Mul)):
                ds = f"({ds})"  # 1/(4·c), 1/(t + 1); 2/t^3 needs none (a power binds first)
            return f"{ns}/{ds}"
        return str(super()._print_Mul(expr)).replace("**", "^").replace("*", "·")


RELATION_TEXT = {"==": "=", "<=": "≤", ">=": "≥", "<": "<", ">": ">", "!=": "≠"}


def to_text(value: Any) -> str:
    """An exact value as mathematics for the terminal, by :class:`TextPrinter`: relations with ``≤``/``≥``,
    an equation cleared of denominators (``4·c·t = 1``, not ``Eq(t, 1/(4*c))``), ``Piecewise`` as cases
    (``{a if cond; b otherwise}``), ``and``/``or`` between conditions, ``(a, b)`` for sequences.

    >>> t, c = sympy.symbols("t c", positive=True)
    >>> to_text((sympy.sqrt(2) - 1) / (sympy.sqrt(2) + 1)), to_text(sympy.log((1 + sympy.sqrt(2)) / 2))
    ('(-1 + √2)/(1 + √2)', 'log((1 + √2)/2)')
    >>> to_text(sympy.Eq(t, 1 / (4 * c))), to_text(t <= 1 / (4 * c))
    ('4·c·t = 1', 't ≤ 1/(4·c)')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(to_text(v) for v in value) + ")"
    if isinstance(value, fmpq) or (isinstance(value, int) and not isinstance(value, bool)):
        # a computed exact number converts directly: its text may exceed the reader's limit on user input
        value = sympy.Rational(int(value.p), int(value.q)) if isinstance(value, fmpq) else sympy.Integer(value)
    elif not isinstance(value, sympy.Basic):
        value = as_expr(str(value))
    if isinstance(value, sympy.Piecewise):
        return "{" + "; ".join(f"{to_text(e)} otherwise" if c is sympy.true else f"{to_text(e)} if {to_text(c)}"
                               for e, c in value.args) + "}"
    if isinstance(value, sympy.core.relational.Relational):
        op = RELATION_TEXT.get(value.rel_op, value.rel_op)
        if isinstance(value, sympy.Equality) and all(side.is_rational_function() for side in value.args):
            # a rational equation cleared of denominators: Eq(t, 1/(4*c)) -> 4·c·t = 1
            num, _ = sympy.fraction(sympy.together(value.lhs - value.rhs))
            terms = sympy.Add.make_args(sympy.expand(num))
            pos = sympy.Add(*[a for a in terms if a.could_extract_minus_sign() is False])
            neg = -sympy.Add(*[a for a in terms if a.could_extract_minus_sign() is True])
            if pos != 0 or neg != 0:
                return f"{to_text(pos)} = {to_text(neg)}"
        return f"{to_text(value.lhs)} {op} {to_text(value.rhs)}"
    if isinstance(value, (sympy.And, sympy.Or)):
        sep = " and " if isinstance(value, sympy.And) else " or "
        return sep.join(to_text(a) for a in value.args)
    return str(_TEXT.doprint(value))


def normal_form(e: Any) -> Any:
    """num/den factored, the sign chosen so that most of the denominator's coefficients are positive
    (ties: a positive constant term) — the papers' style (t−1)/(t(1−Nc)+1), not −(t−1)/(Nct−t−1)."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    if den.free_symbols:
        P = sympy.Poly(den, *sorted(den.free_symbols, key=str))
        signs = [1 if cf > 0 else -1 for cf in P.coeffs()]
        const = P.coeff_monomial(1)
        if sum(signs) < 0 or (sum(signs) == 0 and const < 0):
            num, den = -num, -den
    num, den = sympy.factor(num), sympy.factor(den)
    num = absorb_sign(num)
    privacy = [v for v in den.free_symbols if v.name == "t"]
    if privacy and isinstance(den, sympy.Add):  # the papers write t(1 − Nc) + 1: collect in t = e^ε
        den = sympy.collect(sympy.expand(den), privacy[0], func=sympy.factor)
    if den == 1:
        return num
    return num / den


def absorb_sign(e: Any) -> Any:
    """−t(c − 1) → t(1 − c): move a leading minus sign of a product into one of its sum factors."""
    if isinstance(e, sympy.Mul) and e.could_extract_minus_sign():
        factors = list(e.args)
        for k, f in enumerate(factors):
            if isinstance(f, sympy.Add):
                factors[k] = -f
                rest = [g for g in factors if g != -1]
                return sympy.Mul(*rest) if -1 in factors else -sympy.Mul(*factors)
    return e


def uses_t(*exprs: Any) -> bool:
    """Whether any of the values is written in t (then its display is in e^ε and says so)."""
    return any(isinstance(e, sympy.Basic) and any(s.name == "t" for s in e.free_symbols) for e in exprs)


def entry_form(e: Any) -> Any:
    """An entry of a kernel as displayed: in the papers' normal form (:func:`normal_form`) when it has
    parameters."""
    e = as_display_expr(e, t_as_exp=False)
    if isinstance(e, sympy.Expr) and e.free_symbols:
        return normal_form(e)
    return e


def matrix_latex(rows: Any, entry: Any = entry_form) -> str:
    r"""``\begin{pmatrix} … \end{pmatrix}`` of a matrix of exact values (rows), each printed as
    ``entry(value)`` (default :func:`entry_form`: cancelled and factored), t as e^ε."""
    body = r" \\ ".join(" & ".join(to_latex(entry(e)) for e in r) for r in rows)
    return r"\begin{pmatrix} " + body + r" \end{pmatrix}"


RELATIONS = {"=": "=", "<=": r"\leq", ">=": r"\geq", "<": "<", ">": ">", "upper": r"\leq", "lower": r"\geq",
             "equals": "=", "definition": "="}


def relation_latex(lhs_tex: str, rel: str, rhs: Any) -> str:
    """``lhs rel rhs`` with rel one of = ≤ ≥ < > (or a registry direction: upper, lower, equals)."""
    rhs_tex = rhs if isinstance(rhs, str) else to_latex(rhs)
    return f"{lhs_tex} {RELATIONS[rel]} {rhs_tex}"


# -- HTML / Markdown -------------------------------------------------------------------------------

def esc(text: Any) -> str:
    """HTML-escaped text (line ends and tabs kept: ``<pre>`` blocks); names are data
    (:func:`exactdp.numbers.escape.html`)."""
    return escape.html(text, keep="\n\t")


def html_math(tex: str, display: bool = False) -> str:
    """A formula inside HTML, for Jupyter's MathJax: ``$…$`` (or ``$$…$$``), HTML-escaped."""
    return f"$${esc(tex)}$$" if display else f"${esc(tex)}$"


def html_table(header: Any, rows: Any, *, caption: str = "") -> str:
    """A small HTML table (cells are already HTML)."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{caption}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_details(summary: str, body: str) -> str:
    """A collapsed ``<details>`` block (summary and body are HTML)."""
    return f"<details><summary>{summary}</summary>{body}</details>"


def html_pre(lines: Any) -> str:
    return "<pre>" + esc("\n".join(str(x) for x in lines)) + "</pre>"


#: how a three-valued answer is shown (the same words everywhere: TRUE / FALSE / UNKNOWN)
TRUTH_MARKS = {"true": "✓", "false": "✗", "unknown": "?"}


def truth_word(value: str) -> str:
    """``"true"`` → ``"✓ TRUE"`` (the display of :class:`~exactdp.numbers.truth.Truth` and of verdicts)."""
    return f"{TRUTH_MARKS.get(value, '')} {value.upper()}".strip()


# -- the objects' rich displays (Jupyter: _repr_latex_ / _repr_html_ / _repr_markdown_) ------------------
# Written against the objects' public attributes (no import of their layers), so an object of any layer
# displays itself by inheriting exactdp.numbers.rich.RichDisplay.

def _note(*exprs: Any) -> str:
    return rf", \quad {T_NOTE}" if uses_t(*exprs) else ""


def _is_exact_number(v: Any) -> bool:
    return not (isinstance(v, sympy.Basic) and v.free_symbols)


def _cell_html(v: Any) -> str:
    """A kernel entry in HTML: ``3/4`` as text, a parametric entry as a formula."""
    return esc(v) if _is_exact_number(v) else html_math(to_latex(entry_form(v)))


def kernel_latex(K: Any, entry: Any = entry_form) -> str:
    r"""``K = \begin{pmatrix}…\end{pmatrix}`` (entries in e^ε; ``entry`` simplifies each, by default
    cancelled and factored)."""
    return "K = " + matrix_latex(K.rows, entry)


def kernel_repr_latex(K: Any) -> str:
    return f"$$ {kernel_latex(K)} $$"


def kernel_repr_html(K: Any) -> str:
    head = f"<b>{escape.html(K.name or 'Kernel')}</b> ({K.N}×{K.M}, {esc(K.domain)}; rows x, columns y)"
    if uses_t(*[e for r in K.rows for e in r]):
        head += f" with {html_math(T_NOTE)}"
    rows = [[f"<b>x = {x}</b>"] + [_cell_html(v) for v in r] for x, r in enumerate(K.rows)]
    return f"<div>{head}{html_table([''] + [f'y = {y}' for y in range(K.M)], rows)}</div>"


def kernel_repr_markdown(K: Any) -> str:
    name = (K.name or "").strip() or "Kernel"  # **…** is bold only without white space inside its ends
    return f"**{escape.markdown(name)}** ({K.N}×{K.M}, {K.domain})\n\n$$ {kernel_latex(K)} $$"


def truth_repr_latex(truth: Any) -> str:
    return rf"$\mathsf{{{truth.value.upper()}}}$"


def truth_repr_html(truth: Any) -> str:
    return f'<span class="exactdp-truth" title="exactdp Truth (three-valued)">{esc(truth_word(truth.value))}</span>'


def truth_repr_markdown(truth: Any) -> str:
    return f"**{truth_word(truth.value)}**"


def bound_statement(b: Any) -> str:
    """A registry bound's statement ``quantity ≤ formula`` (``symbol = formula`` for a definition)."""
    lhs = b.quantity_latex if b.direction != "definition" else b.symbol_latex
    return relation_latex(lhs, b.direction, to_latex(b.expr))


def bound_domain(b: Any) -> str:
    return ", ".join(to_latex(cnd) for cnd in b.domain())


def _source_text(b: Any) -> str:
    return f"{b.source}" + (" (reconstructed)" if b.reconstructed else "")


def bound_repr_latex(b: Any) -> str:
    return f"$$ {bound_statement(b)}{_note(b.expr)} $$"


def bound_repr_html(b: Any) -> str:
    dom = bound_domain(b)
    return (f"<div><b><code>{esc(b.name)}</code></b>: {esc(b.quantity)}"
            f"<div>{html_math(bound_statement(b) + _note(b.expr), display=True)}</div>"
            + (f"<div>for {html_math(dom)}</div>" if dom else "")
            + f"<div><small>{esc(_source_text(b))}; items {esc(', '.join(b.catalogue))}</small></div></div>")


def bound_repr_markdown(b: Any) -> str:
    dom = bound_domain(b)
    return (f"**`{b.name}`**: {b.quantity}\n\n$$ {bound_statement(b)}{_note(b.expr)} $$\n\n"
            + (f"for ${dom}$; " if dom else "") + f"{_source_text(b)}")


def profile_latex(P: Any) -> str:
    r"""δ(γ) of a :class:`~exactdp.measures.privacy.PrivacyProfile` as ``\begin{cases}`` (γ = e^ε)."""
    gamma = sympy.Symbol("gamma", nonnegative=True)
    return rf"\delta(\gamma) = {to_latex(P.to_sympy(gamma), cases=True)}, \quad \gamma = e^{{\varepsilon}} \geq 0"


def profile_repr_latex(P: Any) -> str:
    return f"$$ {profile_latex(P)} $$"


def profile_repr_markdown(P: Any) -> str:
    return f"**Privacy profile** (exact, piecewise linear; (ε, δ)-LDP iff δ(e^ε) ≤ δ)\n\n$$ {profile_latex(P)} $$"


_PROFILE_DEF = html_math(r"\delta(\gamma) = \eta_{E_\gamma}(K)")
_PROFILE_LDP = html_math(r"\delta(e^{\varepsilon}) \le \delta")


def profile_repr_html(P: Any) -> str:
    gamma = sympy.Symbol("gamma", nonnegative=True)
    edges = (0,) + tuple(P.breakpoints)
    rows = []
    for k, (p, q) in enumerate(P.pieces):
        lo, hi = edges[k], (P.breakpoints[k] if k < len(P.breakpoints) else None)
        interval = f"[{esc(lo)}, {esc(hi)}]" if hi is not None else f"[{esc(lo)}, ∞)"
        rows.append([interval, html_math(to_latex(as_display_expr(p) - as_display_expr(q) * gamma))])
    return (f"<div><b>Privacy profile</b> {_PROFILE_DEF}, exact and piecewise linear in γ = e^ε; "
            f"(ε, δ)-LDP iff {_PROFILE_LDP}" + html_table(["γ", "δ(γ)"], rows) + "</div>")


def risk_bound_latex(rb: Any) -> str:
    return rf"\text{{{rb.spec.title}}} = {to_latex(rb.value)}"


def risk_bound_repr_latex(rb: Any) -> str:
    return f"$$ {risk_bound_latex(rb)} $$"


def risk_bound_repr_html(rb: Any) -> str:
    recon = " (reconstructed)" if rb.spec.reconstructed else ""
    return (f"<div><b>{esc(rb.spec.title)}</b> = {html_math(to_latex(rb.value))} <small>({esc(rb.kind)}; "
            f"{esc(rb.spec.source)}{recon})</small><div>{html_math(rb.spec.latex, display=True)}</div></div>")


def risk_bound_repr_markdown(rb: Any) -> str:
    recon = " (reconstructed)" if rb.spec.reconstructed else ""
    return f"**{rb.spec.title}** = ${to_latex(rb.value)}$ ({rb.kind}; {rb.spec.source}{recon})\n\n$$ {rb.spec.latex} $$"


_PARAM_TEX = {"t": r"e^{\varepsilon}", "c": "c", "delta": r"\delta", "gamma": r"\gamma", "N": "N", "M": "M"}


def _extremal_quantity(res: Any) -> str:
    p = res.params
    inf = bool(res.lps) and res.lps[0].sense < 0
    op = r"\inf" if inf else r"\sup"
    if res.quantity == "eta":
        g = p.get("gamma", 1)
        eta = r"\eta_{\mathrm{TV}}(K)" if g == 1 else r"\eta_{E_{\gamma}}(K)"
        return rf"{op}_{{K}} {eta}"
    return rf"{op}_{{K}} \text{{{_latex_words(res.quantity)}}}"


def _extremal_class(res: Any) -> str:
    p = res.params
    kind = r"(\varepsilon, c)\text{-PML}" if p.get("c") is not None else r"(\varepsilon, \delta)\text{-LDP}"
    values = ", ".join(f"{_PARAM_TEX.get(k, k)} = {to_latex(v)}" for k, v in p.items()
                       if v is not None and k in _PARAM_TEX)
    return rf"\text{{over }} {kind} \text{{ kernels}}" + (rf", \; {values}" if values else "")


def extremal_latex(res: Any) -> str:
    r"""The value of an extremal result and its optimal kernel: ``\sup_K η(K) = v, \quad K^\star = (…)``."""
    return (rf"{_extremal_quantity(res)} = {to_latex(res.value)} \quad \left({_extremal_class(res)}\right), "
            rf"\quad K^\star = " + matrix_latex(res.kernel.rows))


def extremal_repr_latex(res: Any) -> str:
    return f"$$ {extremal_latex(res)} $$"


def _recheck(res: Any) -> str:
    bad = res.failures()
    return "all certificates re-checked ✓" if not bad else "certificate re-check FAILED ✗: " + "; ".join(bad)


def extremal_repr_html(res: Any) -> str:
    """Value, kernel and the exact re-check of every certificate; the LPs behind a ``<details>`` toggle."""
    lps = "".join(f"<li><code>{esc(cl.label)}</code>: value {esc(cl.value)}, "
                  f"{esc(getattr(cl.solution, 'pivots', '?'))} pivots{html_pre([cl.lp])}</li>" for cl in res.lps)
    value = html_math(f"{_extremal_quantity(res)} = {to_latex(res.value)}")
    return (f"<div>{value} <small>{html_math(_extremal_class(res))}</small>"
            f"<div><b>{esc(_recheck(res))}</b></div><div>optimal kernel:</div>{kernel_repr_html(res.kernel)}"
            + html_details(f"{len(res.lps)} linear program(s) with exact primal/dual certificates", f"<ul>{lps}</ul>")
            + "</div>")


def extremal_repr_markdown(res: Any) -> str:
    return f"$$ {extremal_latex(res)} $$\n\n**{_recheck(res)}**"


def verdict_word(value: str) -> str:
    return value.upper().replace("-", " ")


def outcome_repr_html(o: Any, title: str = "") -> str:
    """A claim check's outcome (verdict, summary, scope, evidence in ``<details>``)."""
    parts = [f"<b>{esc(verdict_word(o.verdict.value))}</b>" + (f" — <b>{esc(title)}</b>" if title else "")
             + f": {esc(o.summary)}"]
    if getattr(o, "scope", ""):
        parts.append(f"<div><i>scope</i>: {esc(o.scope)}</div>")
    if getattr(o, "rests_on", ()):
        parts.append(f"<div><i>rests on</i>: {esc(', '.join(o.rests_on))}</div>")
    if o.instances:
        parts.append(f"<div><i>instances</i>: {o.instances}</div>")
    if o.reason:
        parts.append(f"<div><i>reason</i>: {esc(o.reason)}</div>")
    if o.counterexample:
        parts.append(html_details("counterexample", html_pre(f"{k} = {v}" for k, v in o.counterexample.items())))
    if o.derivation:
        parts.append(html_details(f"derivation ({len(o.derivation)} lines)", html_pre(o.derivation)))
    return "<div>" + "".join(parts) + "</div>"


def outcome_repr_markdown(o: Any) -> str:
    scope = f" (scope: {o.scope})" if getattr(o, "scope", "") else ""
    return f"**{verdict_word(o.verdict.value)}**{scope}: {o.summary}"


def _latex_words(text: Any) -> str:
    """Text for ``\\text{…}`` in a formula: the characters that would break it escaped."""
    out = str(text)
    for a, b in (("\\", " "), ("{", "("), ("}", ")"), ("$", ""), ("&", "and"), ("#", "no."), ("%", " percent"),
                 ("_", r"\_"), ("^", " ")):
        out = out.replace(a, b)
    return out


def outcome_repr_latex(o: Any) -> str:
    scope = rf" \quad \text{{(scope: {_latex_words(o.scope)})}}" if getattr(o, "scope", "") else ""
    return rf"$\textbf{{{verdict_word(o.verdict.value)}}}{scope}$"


def claim_result_repr_html(r: Any) -> str:
    c = r.claim
    scope = getattr(r, "scope", "")
    head = (f"<div><b><code>{esc(c.id)}</code></b> ({esc(', '.join(c.catalogue))}) — {esc(c.title)}<br>"
            f"<b>{esc(verdict_word(r.verdict.value))}</b>" + (f", scope: {esc(scope)}" if scope else "")
            + f"; expected {esc(c.expected.value)}{'' if r.matches else ' (DIFFERS)'}; {r.instances} instances</div>")
    checks = "".join(f"<li>{outcome_repr_html(cr.outcome, cr.check.name)}</li>" for cr in r.checks)
    return head + html_details(f"evidence of {len(r.checks)} check(s)", f"<ul>{checks}</ul>")


def claim_result_repr_markdown(r: Any) -> str:
    c = r.claim
    scope = getattr(r, "scope", "")
    lines = [f"**`{c.id}`** — {c.title}: **{verdict_word(r.verdict.value)}**" + (f" (scope: {scope})" if scope else "")]
    lines += [f"- {cr.check.name}: {outcome_repr_markdown(cr.outcome)}" for cr in r.checks]
    return "\n".join(lines)


def claim_result_repr_latex(r: Any) -> str:
    scope = getattr(r, "scope", "")
    return (rf"$\texttt{{{_latex_words(r.claim.id)}}}\text{{: }}\textbf{{{verdict_word(r.verdict.value)}}}"
            + (rf"\text{{ (scope: {_latex_words(scope)})}}" if scope else "") + "$")


def check_result_repr_html(res: Any) -> str:
    """A conjecture search's result (:class:`~exactdp.verification.conjecture.api.CheckResult`)."""
    parts = [f"<div><b>{esc(verdict_word(res.verdict))}</b>: <code>{esc(res.conjecture)}</code></div>",
             f"<div><i>classes</i>: {esc(', '.join(map(str, res.classes)))}"
             + (f"; <i>scope</i>: {esc(res.scope)}" if getattr(res, "scope", "") else "") + "</div>"]
    if res.rests_on:
        parts.append(f"<div><i>rests on</i>: {esc(', '.join(res.rests_on))}</div>")
    if res.counterexample:
        parts.append("<div><i>counterexample</i>:</div>" + html_pre(f"{k} = {v}" for k, v in res.counterexample.items()))
    if res.proof:
        parts.append(html_details(f"proof ({len(res.proof)} lines)", html_pre(res.proof)))
    if res.certificates:
        parts.append(f"<div>{len(res.certificates)} certificate(s) re-checked ✓</div>")
    stats = {k: v for k, v in res.stats.items() if isinstance(v, (int, str))}
    if stats:
        parts.append(html_details("search statistics", html_pre(f"{k}: {v}" for k, v in stats.items())))
    return "<div>" + "".join(parts) + "</div>"


def check_result_repr_markdown(res: Any) -> str:
    scope = f" (scope: {res.scope})" if getattr(res, "scope", "") else ""
    ce = ""
    if res.counterexample:  # the kernel and the distributions; the rest (enclosures, the search) in the HTML
        shown = [k for k in ("rows", "params", "P", "Q", "slack") if k in res.counterexample]
        ce = "\n\ncounterexample: " + ", ".join(f"`{k} = {res.counterexample[k]}`" for k in shown)
    return f"**{verdict_word(res.verdict)}**{scope}: `{res.conjecture}`{ce}"


def check_result_repr_latex(res: Any) -> str:
    scope = rf"\text{{ (scope: {_latex_words(res.scope)})}}" if getattr(res, "scope", "") else ""
    return rf"$\textbf{{{verdict_word(res.verdict)}}}{scope}\text{{: {_latex_words(res.conjecture)}}}$"


_TEXT = TextPrinter({"order": None})
