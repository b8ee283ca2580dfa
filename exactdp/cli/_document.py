"""A command's result as a small document a researcher pastes: ``--format markdown|latex|html``.

A document is a title and a list of blocks:

* ``("rows", [(label, value), ...])`` — a two-column table *quantity | value* (``$…$`` in a label is LaTeX
  maths: ``$\\eta_{\\mathrm{TV}}$ (Dobrushin)``); an exact value (a sympy
  expression, an ``fmpq``, or a string the one safe reader reads as a formula) is mathematics — ``$…$`` in
  Markdown, math mode in LaTeX, MathML (sympy's presentation printer) in HTML — anything else is text; a
  value longer than :data:`exactdp.cli._common.MAX_SHOWN` characters is shown as its certified abbreviation
  (the exact value stays in ``--format json``);
* ``("matrix", label, rows)`` — a kernel, rows of exact entries (a ``pmatrix`` / MathML table);
* ``("heading", text)`` — a sub-heading;
* ``("lines", label, lines)`` — prose lines of the engine (proof or derivation steps), formulas in them
  printed by :func:`exactdp.cli._common.math_line`.

The title (it holds user-given text: a kernel's name, a file name) is data in every format: it passes
through the format's escaper of :mod:`exactdp.numbers.escape` (in LaTeX also in the ``%`` comment line).

Markdown is a heading, a pipe table and lists; LaTeX is a snippet for a document that loads ``amsmath`` and
``booktabs`` (no preamble; the table's two columns wrap within the line width); HTML is one self-contained fragment (no script, no network).
"""

from __future__ import annotations

import re

from exactdp.cli import _common
from exactdp.numbers import escape

#: the ``--format`` choices of a command that renders a document
DOCUMENT_FORMATS = ("text", "json", "markdown", "latex", "html")

_MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_FORMULA_CHARS = re.compile(r"[0-9A-Za-z_+\-*/^().,\s]+")


def exact(value):
    """The sympy expression of an exact value (sympy, ``fmpq``, int, or a string the safe reader reads,
    every name a symbol), or None for text."""
    import sympy

    from exactdp.errors import ExactDPError
    from exactdp.numbers.reader import MATH_FUNCTIONS, read_expression

    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, int):
        return sympy.Integer(value)
    if type(value).__name__ == "fmpq":
        return sympy.Rational(int(value.p), int(value.q))
    text = str(value).strip()
    if not text or "." in text or not _FORMULA_CHARS.fullmatch(text) or len(text) > 10_000:  # decimals: text
        return None
    if text in ("inf", "oo"):
        return sympy.oo
    if re.fullmatch(r"[A-Za-z_]\w+", text):  # one word (true, false, unknown, a name): text
        return None
    names = {n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_]\w*", text) if n not in MATH_FUNCTIONS
             and n not in ("pi", "E")}
    try:
        return read_expression(text, name="value", symbols=names)
    except (ExactDPError, ValueError, TypeError, RecursionError):
        return None


def _short(value, expr) -> bool:
    return expr is not None and len(_common.math_text(expr)) <= _common.MAX_SHOWN


def _text_of(value, expr) -> str:
    return _common.abbreviate(expr) if expr is not None else _common.math_text(value)


def _segments(label) -> list[tuple[bool, str]]:
    """A label's ``(is maths, text)`` pieces: ``$…$`` spans are LaTeX maths, the rest is text."""
    parts = str(label).split("$")
    if len(parts) % 2 == 0:  # an unpaired $: all text
        return [(False, str(label))]
    return [(k % 2 == 1, p) for k, p in enumerate(parts) if p]


# ---------------------------------------------------------------------------------------------- Markdown
def _md_cell(text: str) -> str:
    return text.replace("|", r"\|").replace("\n", " ")


def _md_label(label) -> str:
    return "".join(f"${p}$" if m else _md_cell(p) for m, p in _segments(label))


def _md_value(value) -> str:
    from exactdp.output.latex import to_latex

    expr = exact(value)
    if _short(value, expr):
        return "$" + to_latex(expr).replace("|", r"\vert ") + "$"
    return _md_cell(_text_of(value, expr))


def markdown(title: str, blocks) -> str:
    out = [f"### {escape.markdown(title)}", ""]
    for block in blocks:
        kind = block[0]
        if kind == "heading":
            out.append(f"**{_md_cell(block[1])}**")
        elif kind == "rows":
            out += ["| quantity | value |", "|---|---|"]
            out += [f"| {_md_label(label)} | {_md_value(v)} |" for label, v in block[1]]
        elif kind == "matrix":
            from exactdp.output.latex import to_latex

            cells = [" & ".join(to_latex(exact(e)) if exact(e) is not None else str(e) for e in row)
                     for row in block[2]]
            out += [f"{_md_label(block[1])}:", "", "$$\\begin{pmatrix}" + r" \\ ".join(cells) + "\\end{pmatrix}$$"]
        elif kind == "lines":
            out += [f"{_md_cell(block[1])}:", ""] + [f"- {_common.math_line(s).strip()}" for s in block[2]]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------- LaTeX
def _tex_value(value) -> str:
    from exactdp.output.latex import latex_text, to_latex

    expr = exact(value)
    if _short(value, expr):
        return f"${to_latex(expr)}$"
    return latex_text(_text_of(value, expr))


def _tex_label(label) -> str:
    from exactdp.output.latex import latex_text

    return "".join(f"${p}$" if m else latex_text(p) for m, p in _segments(label))


def latex(title: str, blocks) -> str:
    from exactdp.output.latex import latex_text, to_latex

    out = [f"% exactdp: {escape.latex_comment(title)} (needs amsmath and booktabs)", r"\begingroup\sloppy",
           rf"\medskip\noindent\textbf{{{latex_text(title)}}}\par"]
    for block in blocks:
        kind = block[0]
        if kind == "heading":
            out.append(rf"\medskip\noindent\textit{{{latex_text(block[1])}}}\par")
        elif kind == "rows":
            out += [r"\noindent\begin{tabular}{@{}p{0.42\linewidth}p{0.54\linewidth}@{}}", r"\toprule",
                    r"quantity & value \\", r"\midrule"]
            out += [f"{_tex_label(label)} & {_tex_value(v)} \\\\" for label, v in block[1]]
            out += [r"\bottomrule", r"\end{tabular}"]
        elif kind == "matrix":
            cells = [" & ".join(to_latex(exact(e)) if exact(e) is not None else latex_text(str(e)) for e in row)
                     for row in block[2]]
            out += [f"{_tex_label(block[1])}:", r"\[", r"\begin{pmatrix}", " \\\\\n".join(cells), r"\end{pmatrix}",
                    r"\]"]
        elif kind == "lines":
            out += [f"{latex_text(block[1])}:", r"\begin{itemize}"]
            out += [rf"\item {latex_text(_common.math_line(s).strip())}" for s in block[2]]
            out.append(r"\end{itemize}")
        out.append("")
    out.append(r"\endgroup")
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------- HTML
def _esc(text) -> str:
    return escape.html(text)


def mathml(expr) -> str:
    """``expr`` as an inline ``<math>`` element (sympy's presentation MathML printer), t written e^ε as in the
    LaTeX of :func:`exactdp.output.latex.to_latex`."""
    from sympy import mathml as to_mathml

    from exactdp.numbers.display import as_display_expr

    expr = as_display_expr(expr)

    body = to_mathml(expr, printer="presentation").replace("<mi>eps</mi>", "<mi>&#949;</mi>")  # ε
    return f'<math xmlns="{_MATHML_NS}">{body}</math>'


def _html_value(value) -> str:
    expr = exact(value)
    if _short(value, expr):
        return mathml(expr)
    return _esc(_text_of(value, expr))


def _html_label(label) -> str:
    from exactdp.output.html import statement_mathml

    return "".join(statement_mathml(p)[0] if m else _esc(p) for m, p in _segments(label))


def html_fragment(title: str, blocks) -> str:
    out = ['<section class="exactdp">', f"<h3>{_esc(title)}</h3>"]
    for block in blocks:
        kind = block[0]
        if kind == "heading":
            out.append(f"<h4>{_esc(block[1])}</h4>")
        elif kind == "rows":
            out.append("<table><thead><tr><th>quantity</th><th>value</th></tr></thead><tbody>")
            out += [f"<tr><td>{_html_label(label)}</td><td>{_html_value(v)}</td></tr>" for label, v in block[1]]
            out.append("</tbody></table>")
        elif kind == "matrix":
            from sympy import mathml as to_mathml

            rows = "".join("<mtr>" + "".join(
                f"<mtd>{to_mathml(exact(e), printer='presentation')}</mtd>" if exact(e) is not None
                else f"<mtd><mtext>{_esc(e)}</mtext></mtd>" for e in row) + "</mtr>" for row in block[2])
            out.append(f'<p>{_html_label(block[1])}: <math xmlns="{_MATHML_NS}"><mrow><mo>(</mo><mtable>{rows}</mtable>'
                       f"<mo>)</mo></mrow></math></p>")
        elif kind == "lines":
            out.append(f"<p>{_esc(block[1])}:</p><ul>")
            out += [f"<li>{_esc(_common.math_line(s).strip())}</li>" for s in block[2]]
            out.append("</ul>")
    out.append("</section>")
    return "\n".join(out) + "\n"


#: a kernel with more entries than this is not printed as a matrix (a line gives its shape; JSON has it)
MAX_MATRIX_ENTRIES = 144


def _fit(blocks) -> list:
    """Large matrices replaced by one row giving their shape (a 512x512 kernel is no table to paste)."""
    out = []
    for block in blocks:
        if block[0] == "matrix" and sum(len(r) for r in block[2]) > MAX_MATRIX_ENTRIES:
            n, m = len(block[2]), len(block[2][0]) if block[2] else 0
            out.append(("rows", [(block[1], f"{n} x {m} matrix (entries in --format json)")]))
        else:
            out.append(block)
    return out


def render(fmt: str, title: str, blocks) -> str:
    """The document in ``fmt`` (markdown, latex or html)."""
    blocks = _fit(blocks)
    if fmt == "markdown":
        return markdown(title, blocks)
    if fmt == "latex":
        return latex(title, blocks)
    if fmt == "html":
        return html_fragment(title, blocks)
    raise ValueError(f"not a document format: {fmt}")


def emit(args, title: str, blocks) -> None:
    """Write the document in ``args.format`` to ``-o FILE`` or stdout."""
    _common.emit(args, render(args.format, title, blocks))
