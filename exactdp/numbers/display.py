r"""Display of exact values in the papers' notation: LaTeX, HTML and Markdown building blocks.

The lowest layer of the rich display (issue 16): the objects' ``_repr_latex_`` / ``_repr_html_`` /
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

import html

import sympy
from sympy.printing.latex import LatexPrinter

from exactdp.numbers.reader import as_expr

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

    def __init__(self, settings=None, *, cases: bool = False):
        super().__init__(settings)
        self.cases = cases

    def _print_Piecewise(self, expr):
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

    def add_terms(self, expr, order=None) -> list[str]:
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

    def _print_Add(self, expr, order=None):
        """Default term order, except that a positive term leads ("1 - Nc", not "- Nc + 1")."""
        return " ".join(self.add_terms(expr, order))

    def _print_Symbol(self, expr, style="plain"):
        name = expr.name
        if name in SYMBOL_LATEX:
            return SYMBOL_LATEX[name]
        return super()._print_Symbol(expr, style=style)


def exp_form(expr, t_names=("t",)):
    """Replace t by e^ε (DESIGN principle 5: proofs run in t, papers are written in ε)."""
    expr = as_expr(expr)
    subs = {s: sympy.exp(EPS) for s in expr.free_symbols if s.name in t_names}
    return expr.xreplace(subs) if subs else expr


def printer(*, cases: bool = False) -> PaperLatexPrinter:
    return PaperLatexPrinter({"mul_symbol": None, "inv_trig_style": "abbreviated"}, cases=cases)


def as_display_expr(expr, *, t_as_exp: bool = True):
    """A sympy value of an exact number or expression (fmpq, int, ``oo``, sympy), t → e^ε if asked."""
    from exactdp.numbers.sr import as_sympy

    if not isinstance(expr, (sympy.Basic, bool)):
        expr = as_sympy(expr)
    if isinstance(expr, sympy.Basic) and t_as_exp:
        expr = exp_form(expr)
    return expr


def to_latex(expr, *, t_as_exp: bool = True, cases: bool = False) -> str:
    """LaTeX of a sympy expression (or fmpq / ``oo``) in the papers' notation, without ``$``.

    >>> t = sympy.Symbol("t", positive=True)
    >>> to_latex((t - 1) / (t + 1))
    '\\\\frac{e^{\\\\varepsilon} - 1}{e^{\\\\varepsilon} + 1}'
    """
    return printer(cases=cases).doprint(as_display_expr(expr, t_as_exp=t_as_exp))


def uses_t(*exprs) -> bool:
    """Whether any of the values is written in t (then its display is in e^ε and says so)."""
    return any(isinstance(e, sympy.Basic) and any(s.name == "t" for s in e.free_symbols) for e in exprs)


def entry_form(e):
    """An entry of a kernel as displayed: cancelled and factored when it has parameters."""
    e = as_display_expr(e, t_as_exp=False)
    if isinstance(e, sympy.Expr) and e.free_symbols:
        return sympy.factor(sympy.cancel(e))
    return e


def matrix_latex(rows, *, simplify: bool = True) -> str:
    r"""``\begin{pmatrix} … \end{pmatrix}`` of a matrix of exact values (rows), entries in e^ε."""
    body = r" \\ ".join(" & ".join(to_latex(entry_form(e) if simplify else e) for e in r) for r in rows)
    return r"\begin{pmatrix} " + body + r" \end{pmatrix}"


RELATIONS = {"=": "=", "<=": r"\leq", ">=": r"\geq", "<": "<", ">": ">", "upper": r"\leq", "lower": r"\geq",
             "equals": "=", "definition": "="}


def relation_latex(lhs_tex: str, rel: str, rhs) -> str:
    """``lhs rel rhs`` with rel one of = ≤ ≥ < > (or a registry direction: upper, lower, equals)."""
    rhs_tex = rhs if isinstance(rhs, str) else to_latex(rhs)
    return f"{lhs_tex} {RELATIONS[rel]} {rhs_tex}"


# -- HTML / Markdown -------------------------------------------------------------------------------

def esc(text) -> str:
    """HTML-escaped text."""
    return html.escape(str(text), quote=True)


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
