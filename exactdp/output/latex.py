r"""LaTeX for closed forms, bound tables and derivations, in the papers' notation.

* t = e^ε is printed as ``e^{\varepsilon}`` (powers as ``e^{2 \varepsilon}``), δ, γ, c, N as themselves;
* fractions with ``\frac``; ``Min``/``Max`` as ``\min``/``\max``;
* ``Piecewise`` as ``\left\{ a \;\text{if}\; \dots,\quad b \;\text{otherwise} \right.`` (no ``cases``
  environment, so every formula also parses with matplotlib's mathtext — the test suite checks this);
* :func:`document` wraps pieces into a compilable ``article``.

Formulas are returned without ``$``; :func:`inline` / :func:`display` add them.
"""

from __future__ import annotations

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


class PaperLatexPrinter(LatexPrinter):
    """sympy's LaTeX printer with a mathtext-compatible Piecewise and the papers' symbol names."""

    def _print_Piecewise(self, expr):
        parts = []
        for e, c in expr.args:
            if c is sympy.true:
                parts.append(rf"{self._print(e)} \;\text{{otherwise}}")
            else:
                parts.append(rf"{self._print(e)} \;\text{{if}}\; {self._print(c)}")
        return r"\left\{ " + r",\quad ".join(parts) + r" \right."

    def _print_Add(self, expr, order=None):
        """Default term order, except that a positive term leads ("1 - Nc", not "- Nc + 1")."""
        terms = list(self._as_ordered_terms(expr, order=order))
        lead = next((k for k, term in enumerate(terms) if not term.could_extract_minus_sign()), 0)
        terms = [terms[lead]] + terms[:lead] + terms[lead + 1:]
        tex = ""
        for i, term in enumerate(terms):
            if i == 0:
                pass
            elif term.could_extract_minus_sign():
                tex += " - "
                term = -term
            else:
                tex += " + "
            term_tex = self._print(term)
            if self._needs_add_brackets(term):
                term_tex = rf"\left({term_tex}\right)"
            tex += term_tex
        return tex

    def _print_Symbol(self, expr, style="plain"):
        name = expr.name
        if name in SYMBOL_LATEX:
            return SYMBOL_LATEX[name]
        return super()._print_Symbol(expr, style=style)


def _exp_form(expr, t_names=("t",)):
    """Replace t by e^ε (DESIGN principle 5: proofs run in t, papers are written in ε)."""
    expr = as_expr(expr)
    subs = {s: sympy.exp(EPS) for s in expr.free_symbols if s.name in t_names}
    return expr.xreplace(subs) if subs else expr


def to_latex(expr, *, t_as_exp: bool = True) -> str:
    """LaTeX of a sympy expression (or fmpq / ``oo``) in the papers' notation.

    >>> t = sympy.Symbol("t", positive=True)
    >>> to_latex((t - 1) / (t + 1))
    '\\\\frac{e^{\\\\varepsilon} - 1}{e^{\\\\varepsilon} + 1}'
    """
    from exactdp.numbers.sr import as_sympy

    if not isinstance(expr, (sympy.Basic, bool)):
        expr = as_sympy(expr)
    if isinstance(expr, sympy.Basic) and t_as_exp:
        expr = _exp_form(expr)
    printer = PaperLatexPrinter({"mul_symbol": None, "inv_trig_style": "abbreviated"})
    return printer.doprint(expr)


def inline(tex: str) -> str:
    return f"${tex}$"


def display(tex: str) -> str:
    return f"\\[\n{tex}\n\\]"


def relation(lhs_tex: str, rel: str, rhs) -> str:
    """``lhs rel rhs`` with rel one of = ≤ ≥ < >."""
    ops = {"=": "=", "<=": r"\leq", ">=": r"\geq", "<": "<", ">": ">", "upper": r"\leq", "lower": r"\geq",
           "equals": "="}
    rhs_tex = rhs if isinstance(rhs, str) else to_latex(rhs)
    return f"{lhs_tex} {ops[rel]} {rhs_tex}"


def escape_text(text: str) -> str:
    """Escape LaTeX special characters in running text."""
    out = text
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
        out = out.replace(a, b)
    return out


def derivation_latex(derivation, title: str | None = None) -> str:
    """A derivation (exactdp.symbolic.Derivation) as a list of steps, each with its formula displayed."""
    lines = [rf"\paragraph{{{escape_text(title or derivation.quantity)}}}", r"\begin{enumerate}"]
    for text, expr in derivation.steps:
        item = rf"\item {escape_text(text)}"
        if expr is not None:
            item += "\n" + display(to_latex(expr))
        lines.append(item)
    lines.append(r"\end{enumerate}")
    if derivation.result is not None:
        lines.append("Result:\n" + display(to_latex(derivation.result)))
    return "\n".join(lines)


def bound_latex(b) -> str:
    """The formula of a registry bound (:class:`exactdp.bounds.Bound`) in LaTeX."""
    return to_latex(b.expr)


def bound_domain_latex(b) -> str:
    """The parameter domain of a registry bound in LaTeX (``t \\geq 1, 0 < c \\leq 1/N``, ...)."""
    return ", ".join(to_latex(cnd) for cnd in b.domain())


def bound_statement_latex(b) -> str:
    """The statement of a registry bound: ``quantity \\leq formula`` (or ``=`` for definitions)."""
    rel = {"upper": "<=", "lower": ">=", "equals": "=", "definition": "="}[b.direction]
    lhs = b.quantity_latex if b.direction != "definition" else b.symbol_latex
    return relation(lhs, rel, bound_latex(b))


def bounds_markdown_table(bounds) -> str:
    """Registry bounds as a Markdown table (name, statement in LaTeX, source, catalogue items): the README's."""
    rows = ["| name | statement | source | items |", "|---|---|---|---|"]
    for b in bounds:
        recon = " *(reconstructed)*" if b.reconstructed else ""
        tex = bound_statement_latex(b).replace(r"\|", r"\Vert ").replace("|", r"\vert ")  # no bare | in a table
        rows.append(f"| `{b.name}` | ${tex}$ | {b.source}{recon} | {', '.join(b.catalogue)} |")
    return "\n".join(rows)


def bound_table(bounds) -> str:
    """A ``tabular`` of named bounds: name, formula, what it bounds, source."""
    rows = [r"\begin{tabular}{llll}", r"name & formula & bounds & source \\ \hline"]
    for b in bounds:
        rows.append(f"{escape_text(b.name)} & {inline(bound_latex(b))} & {inline(b.quantity_latex)} "
                    f"& {escape_text(str(b.source))}{' (reconstructed)' if b.reconstructed else ''} \\\\")
    rows.append(r"\end{tabular}")
    return "\n".join(rows)


def derivation_document(K, derivations, title: str = "exactdp derivations") -> str:
    """A complete LaTeX document: the kernel, then each derivation (what ``exactdp derive --latex`` prints)."""
    from exactdp.numbers.sr import as_sympy

    rows = "\n".join(display(f"K_{{{x}}} = \\left(" + ", ".join(to_latex(as_sympy(e)) for e in r) + r"\right)")
                     for x, r in enumerate(K.rows))
    head = (f"Kernel {escape_text(K.name or '')} ({K.N} inputs, {K.M} outputs; rows $K_x$), "
            f"with $t = e^{{\\varepsilon}}$:\n" + rows)
    return document(head, *[derivation_latex(d) for d in derivations], title=title)


def document(*parts: str, title: str = "exactdp") -> str:
    """A complete LaTeX document (article, amsmath/amssymb) containing the given pieces."""
    body = "\n\n".join(parts)
    return (
        "\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\usepackage[margin=2cm]{geometry}\n"
        f"\\title{{{escape_text(title)}}}\n\\date{{}}\n\\begin{{document}}\n\\maketitle\n{body}\n\\end{{document}}\n"
    )


def formulas(tex: str) -> list[str]:
    """Every formula of a generated LaTeX text: the contents of ``$...$`` and ``\\[...\\]``."""
    import re

    out = [m.group(1).strip() for m in re.finditer(r"\\\[(.*?)\\\]", tex, flags=re.DOTALL)]
    stripped = re.sub(r"\\\[(.*?)\\\]", "", tex, flags=re.DOTALL)
    out += [m.group(1) for m in re.finditer(r"(?<!\\)\$(.+?)(?<!\\)\$", stripped, flags=re.DOTALL)]
    return out
