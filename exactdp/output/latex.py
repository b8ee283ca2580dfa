r"""LaTeX a researcher can paste: closed forms, bounds, kernels, derivations and the verify report.

Every formula is printed by the one printer of :mod:`exactdp.numbers.display` (t = e^ε as
``e^{\varepsilon}``, ``\frac``, ``\min``/``\max``, the papers' symbols); prose is text mode, escaped by
:func:`latex_text` (unicode maths such as ε ≤ δ becomes inline maths, ASCII ``<=`` becomes ≤,
``K(y|x)`` keeps its bar).

* :func:`latex` — the "copy this" API (``exactdp.latex``): the LaTeX of a closed form (sympy expression,
  fmpq), a registry ``Bound``, a ``Kernel``, a ``Truth``, a verdict or claim ``Outcome``, a
  ``PrivacyProfile``, an extremal result, a ``RiskBound`` or a ``CheckResult``;
* :func:`equation_latex` — a displayed equation, broken over lines (``align*``) when it is long, and
  scaled to the line width only if one piece alone is still too wide (never an overfull box);
* :func:`derivation_document` — ``exactdp derive --format latex``: the simplified kernel, then each derivation
  step as an equation ``quantity = value`` explained by its text (:class:`exactdp.symbolic.derive.Step`);
* :func:`bound_table` — ``exactdp derive --bounds``: the registry as a ``longtable`` (``booktabs``);
* :func:`verify_report_latex` — ``exactdp verify``'s LaTeX report: a summary table (claim, scope,
  verdict) and a table of contents first, then each claim's statement, verdict and evidence;
* :func:`document` — a complete ``article`` (T1 fonts, UTF-8 input, amsmath, booktabs, longtable).

Formulas are returned without ``$``; :func:`inline` / :func:`display` add them.
"""

from __future__ import annotations

import json
import re

import sympy

from exactdp.numbers.display import (  # noqa: F401  (re-exported: the printer's home is numbers.display)
    EPS,
    SYMBOL_LATEX,
    PaperLatexPrinter,
    as_display_expr,
    matrix_latex,
    printer,
    relation_latex as relation,
    to_latex,
)
from exactdp.numbers.formula_text import DerivationStep, formula_latex_of, scope_step
from exactdp.output.ascii_math import prose_latex
from exactdp.output.display import bound_statement, kernel_latex, statement_latex_lines
from exactdp.output.presenters import present
# the text-mode escaper and its tables: with every format's escaper in numbers/escape.py (re-exported)
from exactdp.numbers.escape import UNICODE_MATH, UNICODE_TEXT, latex_comment, latex_text  # noqa: F401

# -- text mode ---------------------------------------------------------------------------------------
def escape_text(text: str) -> str:
    """Escape LaTeX special characters in running text (alias of :func:`latex_text`)."""
    return latex_text(text)


def latex_math_text(text: str) -> str:
    """Unicode inside a LaTeX (maths) string mapped to commands; other non-ASCII dropped."""
    out = []
    for ch in text:
        if ch in UNICODE_MATH:
            out.append(UNICODE_MATH[ch] + " ")
        elif ch in UNICODE_TEXT and ch not in "§✓✗":
            out.append(UNICODE_TEXT[ch] if ch != "\u00a0" else " ")
        elif ord(ch) < 128:
            out.append(ch)
    return "".join(out)


def brace_depths(tex: str):
    r"""The one scanner of LaTeX brace groups: ``(index, depth after the character)`` for every character of
    ``tex`` that is not escaped (``\{``, ``\}`` of ``\left\{`` and the character after any backslash are
    skipped).  :func:`_group`, :func:`_balanced` and :func:`_lhs_of` read groups through it."""
    depth, j = 0, 0
    while j < len(tex):
        if tex[j] == "\\":
            j += 2
            continue
        depth += tex[j] == "{"
        depth -= tex[j] == "}"
        yield j, depth
        j += 1


def _balanced(text: str) -> bool:
    """Whether every brace group of ``text`` closes and none closes before it opens."""
    depth = 0
    for _, depth in brace_depths(text):
        if depth < 0:
            return False
    return depth == 0


def texttt(identifier: str) -> str:
    r"""An identifier (claim id, bound name) in typewriter type, breakable after ``_`` and ``.``."""
    return r"\texttt{" + latex_text(identifier) + "}"


def verbatim_block(lines, *, width: int = 96, max_lines: int = 40, note: str = "") -> str:
    """Lines of plain text (sympy-style derivations, counterexamples) in a small ``verbatim``, each wrapped
    at ``width`` characters so nothing overflows; more than ``max_lines`` are cut with a note."""
    wrapped: list[str] = []
    for line in lines:
        line = _ascii(str(line)).replace("**", "^").rstrip()
        indent = len(line) - len(line.lstrip())
        while len(line) > width:
            cut = line.rfind(" ", indent + 20, width)
            cut = cut if cut > 0 else width
            wrapped.append(line[:cut])
            line = " " * (indent + 4) + line[cut:].lstrip()
        wrapped.append(line)
    if len(wrapped) > max_lines:
        more = len(wrapped) - max_lines
        wrapped = wrapped[:max_lines] + [f"... ({more} more lines{note})"]
    body = "\n".join(wrapped).replace(r"\end{verbatim}", r"\end {verbatim}")
    return "{\\footnotesize\n\\begin{verbatim}\n" + body + "\n\\end{verbatim}\n}"


_ASCII_OF = {"ε": "eps", "δ": "delta", "γ": "gamma", "η": "eta", "φ": "phi", "Γ": "Gamma", "Ξ": "Xi",
             "≤": "<=", "≥": ">=", "≠": "!=", "→": "->", "−": "-", "·": "*", "×": "x", "‖": "||", "∞": "oo",
             "—": "--", "–": "-", "…": "...", "⊗": "(x)", "√": "sqrt", "∈": " in ", "ψ": "psi", "ζ": "zeta"}


def _ascii(text: str) -> str:
    return "".join(ch if ord(ch) < 128 else _ASCII_OF.get(ch, f"<U+{ord(ch):04X}>") for ch in text)


# -- formulas ----------------------------------------------------------------------------------------

def inline(tex: str) -> str:
    return f"${tex}$"


def display(tex: str) -> str:
    """A displayed formula that never overflows: scaled to the line width only when it is wider
    (``\\fitdisplay`` of :data:`PREAMBLE`)."""
    return r"\fitdisplay{" + tex + "}"


#: the width (in :func:`_width` units) above which an equation is broken: measured with pdflatex, a unit is
#: 10-14 pt of 10 pt display maths, so 32 units fit the 457 pt of an enumerate item in a 2 cm-margin A4 page
LINE_UNITS = 32


def _group(tex: str, i: int) -> tuple[str, int]:
    """The brace group (or single token) starting at tex[i]: (content, index after it)."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        for j, depth in brace_depths(tex[i:]):
            if depth == 0:
                return tex[i + 1:i + j], i + j + 1
        return tex[i + 1:], len(tex)
    m = re.match(r"\\[A-Za-z]+|\\.|.", tex[i:], re.S)
    tok = m.group(0) if m else tex[i:]  # (only the empty rest does not match)
    return tok, i + len(tok)


_ZERO_WIDTH = {r"\left", r"\right", r"\displaystyle", r"\begin", r"\end", r"\limits", r"\nolimits", r"\!"}
_SPACES = {r"\,": 0.2, r"\;": 0.3, r"\:": 0.25, r"\quad": 1.0, r"\qquad": 2.0, r"\ ": 0.3}


def _width(tex: str) -> float:
    """A rough printed width of a LaTeX formula (fractions count their wider part, scripts 0.7, a letter
    0.5, a relation or binary operator 1)."""
    w, i = 0.0, 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            m = re.match(r"\\[A-Za-z]+|\\.", tex[i:], re.S)
            cmd = m.group(0) if m else "\\"  # a trailing backslash
            i += len(cmd)
            if cmd in (r"\frac", r"\dfrac", r"\tfrac"):
                a, i = _group(tex, i)
                b, i = _group(tex, i)
                w += max(_width(a), _width(b)) + 0.3
            elif cmd in (r"\text", r"\mathrm", r"\operatorname", r"\textbf", r"\mathsf"):
                a, i = _group(tex, i)
                w += 0.5 * len(a) if cmd == r"\text" else _width(a)
            elif cmd in (r"\begin", r"\end"):
                _, i = _group(tex, i)
            elif cmd in _SPACES:
                w += _SPACES[cmd]
            elif cmd not in _ZERO_WIDTH:
                w += 0.6
        elif ch in "^_":
            a, i = _group(tex, i + 1)
            w += 0.7 * _width(a)
        elif ch in "{} ":
            i += 1
        elif ch in "=<>+-,":
            w += 1.0 if ch != "," else 0.4
            i += 1
        else:
            w += 0.5
            i += 1
    return w


def _pieces(expr, pr) -> list[str]:
    """A long right-hand side in pieces that may start a new line: the signed terms of a sum, or the
    conditions of a conjunction (each piece led by its operator)."""
    if isinstance(expr, sympy.Add):
        return pr.add_terms(expr)
    if isinstance(expr, (sympy.And, sympy.Or)):
        op = r"\wedge " if isinstance(expr, sympy.And) else r"\vee "
        args = [pr._print(a) for a in expr.args]
        return [args[0]] + [op + a for a in args[1:]]
    return [pr._print(expr)]


def equation_latex(lhs: str, expr, *, rel: str = "=") -> str:
    r"""The displayed equation ``lhs rel expr`` (``expr`` alone when ``lhs`` is empty).  A long sum or
    conjunction is broken over lines of at most :data:`LINE_UNITS` in ``align*``; a piece still wider than
    the line (a large fraction) is scaled down to the line width, never left overfull."""
    pr = printer(cases=True)
    expr = as_display_expr(expr)
    pieces = _pieces(expr, pr) if isinstance(expr, sympy.Basic) else [to_latex(expr)]
    rel_tex = {"=": "=", "<=": r"\leq", ">=": r"\geq"}.get(rel, rel)
    head = f"{lhs} {rel_tex} " if lhs else ""
    whole = head + " ".join(pieces)
    if _width(whole) <= LINE_UNITS or len(pieces) == 1:
        return display(whole)
    lines, cur = [], ""
    budget = LINE_UNITS - (_width(head) if _width(head) < LINE_UNITS / 2 else 0)
    for p in pieces:
        if cur and _width(cur + " " + p) > budget:
            lines.append(cur)
            cur = p
        else:
            cur = (cur + " " + p).strip()
    lines.append(cur)
    fit = [ln if _width(ln) <= budget else r"\fitmath{" + ln + "}" for ln in lines]
    if lhs and _width(head) < LINE_UNITS / 2:
        body = f"{lhs} &{rel_tex} {fit[0]}" + "".join(rf" \\ &\quad {ln}" for ln in fit[1:])
    else:
        first = rf"{lhs} {rel_tex} \\ " if lhs else ""
        body = first + r"&\quad " + r" \\ &\quad ".join(fit)
    return "\\begin{align*}\n" + body + "\n\\end{align*}"


# -- bounds -------------------------------------------------------------------------------------------

def bound_latex(b) -> str:
    """The formula of a registry bound (:class:`exactdp.bounds.Bound`) in LaTeX."""
    return to_latex(b.expr)


def bound_domain_latex(b) -> str:
    """The parameter domain of a registry bound in LaTeX (``t \\geq 1, 0 < c \\leq 1/N``, ...)."""
    return ", ".join(to_latex(cnd) for cnd in b.domain())


def bound_statement_latex(b) -> str:
    """The statement of a registry bound: ``quantity \\leq formula`` (or ``=`` for definitions)."""
    return bound_statement(b)


def bounds_markdown_table(bounds) -> str:
    """Registry bounds as a Markdown table (name, statement in LaTeX, source, catalogue items): the README's."""
    rows = ["| name | statement | source | items |", "|---|---|---|---|"]
    for b in bounds:
        recon = " *(reconstructed)*" if b.reconstructed else ""
        tex = bound_statement_latex(b).replace(r"\|", r"\Vert ").replace("|", r"\vert ")  # no bare | in a table
        rows.append(f"| `{b.name}` | ${tex}$ | {b.source}{recon} | {', '.join(b.catalogue)} |")
    return "\n".join(rows)


_P = r">{\raggedright\arraybackslash}p"


def bound_table(bounds) -> str:
    """The registry bounds as a ``longtable``: per bound a row (name, source, catalogue items) and below it
    the statement ``quantity ≤ formula`` across the page (scaled down only if wider than the line)."""
    head = (r"\toprule name & source & items \\ \midrule")
    rows = [r"\begin{longtable}{@{}" + _P + r"{0.27\linewidth}" + _P + r"{0.5\linewidth}"
            + _P + r"{0.17\linewidth}@{}}", head, r"\endfirsthead", head, r"\endhead",
            r"\bottomrule", r"\endlastfoot"]
    for k, b in enumerate(bounds):
        recon = " (reconstructed)" if b.reconstructed else ""
        rows.append(f"{texttt(b.name)} & {latex_text(str(b.source))}{recon} & {latex_text(', '.join(b.catalogue))}"
                    r" \\*")
        rows.append(r"\multicolumn{3}{@{}p{\linewidth}@{}}{\hspace*{1em}\fitmath{" + bound_statement_latex(b)
                    + r"}} \\" + (r"[0.6ex]" if k + 1 < len(bounds) else ""))
    rows.append(r"\end{longtable}")
    return "\n".join(rows)


# -- derivations ----------------------------------------------------------------------------------------

def _lhs_of(definition: str) -> str:
    """The defined symbol of a definition ``A = B`` (``A``), or "" without one."""
    for i, depth in brace_depths(definition):
        if definition[i] == "=" and depth == 0:
            return definition[:i].strip()
    return ""


def derivation_latex(derivation, title: str | None = None) -> str:
    """A derivation (:class:`exactdp.symbolic.Derivation`): its definition, then each step as an equation
    ``step.math = value`` with the step's text as prose, then the result."""
    from exactdp.symbolic.derive import Step

    heading = title or derivation.title or derivation.quantity
    lines = [r"\section*{" + latex_text(heading) + "}"]
    if derivation.math:
        lines.append(r"Definition:" + "\n" + display(derivation.math))
    lines.append(r"\begin{enumerate}")
    for step in derivation.steps:
        step = step if isinstance(step, Step) else Step(*step)
        item = rf"\item {latex_text(step.text[:1].upper() + step.text[1:])}:"
        if step.expr is not None:
            item += "\n" + equation_latex(step.math, step.expr)
        elif step.math:
            item += "\n" + display(step.math)
        lines.append(item)
    lines.append(r"\end{enumerate}")
    if derivation.result is not None:
        lines.append("Result:\n" + equation_latex(_lhs_of(derivation.math), derivation.result))
    return "\n".join(lines)


def derivation_document(K, derivations, title: str = "exactdp derivations") -> str:
    """A complete LaTeX document: the simplified kernel and its region, then each derivation (what
    ``exactdp derive --format latex`` prints)."""
    from exactdp.symbolic.region import declared_conditions

    name = f" {texttt(K.name)}" if K.name else ""
    head = [f"Kernel{name} with {K.N} inputs $x$ (rows) and {K.M} outputs $y$ (columns), "
            r"$K(y \mid x)$ in row $x$, column $y$, and $t = e^{\varepsilon}$:", display(kernel_latex(K))]
    conds = [c for c in declared_conditions(K) if c is not sympy.true]
    if conds:
        head.append("on the declared region")
        head.append(equation_latex("", sympy.And(*conds)) if len(conds) > 1 else display(to_latex(conds[0])))
    return document("\n".join(head), *[derivation_latex(d) for d in derivations], title=title)


# -- documents ------------------------------------------------------------------------------------------

def _unicode_declarations() -> str:
    lines = []
    for ch, tex in UNICODE_MATH.items():
        lines.append(rf"\DeclareUnicodeCharacter{{{ord(ch):04X}}}{{\ensuremath{{{tex}}}}}")
    for ch in "✓✗":
        lines.append(rf"\DeclareUnicodeCharacter{{{ord(ch):04X}}}{{{UNICODE_TEXT[ch]}}}")
    return "\n".join(lines)


#: the preamble of every generated document: T1 fonts and UTF-8 input (every maths character of the
#: texts declared), amsmath, booktabs + longtable + array for tables, a ragged section style (long claim
#: ids never run into the margin) and ``\fitmath``/``\fitdisplay`` (a formula wider than the line is
#: scaled to it instead of overflowing)
PREAMBLE = "\n".join([
    r"\documentclass[10pt]{article}",
    r"\usepackage[T1]{fontenc}",
    r"\usepackage[utf8]{inputenc}",
    r"\IfFileExists{lmodern.sty}{\usepackage{lmodern}}{}",
    r"\usepackage[margin=2cm]{geometry}",
    r"\usepackage{amsmath,amssymb}",
    r"\usepackage{graphicx,array,booktabs,longtable}",
    r"\IfFileExists{hyperref.sty}{\usepackage[hidelinks]{hyperref}}{}",
    r"\setlength{\parindent}{0pt}",
    r"\setlength{\parskip}{0.5ex}",
    r"\setlength{\emergencystretch}{3em}",
    # ragged right: typewriter evidence (certificate names, reader text) has no stretchable space, so a justified
    # line with a long code token overflowed the margin by a few points (the quick report: 12 such lines)
    r"\AtBeginDocument{\raggedright}",
    r"\setcounter{MaxMatrixCols}{40}",
    r"\setcounter{secnumdepth}{0}",
    r"\providecommand{\checkmark}{\ensuremath{\surd}}",
    r"\newsavebox{\fitbox}",
    r"\newcommand{\fitmath}[1]{\sbox{\fitbox}{$\displaystyle #1$}\ifdim\wd\fitbox>\linewidth"
    r"\resizebox{\linewidth}{!}{\usebox{\fitbox}}\else\usebox{\fitbox}\fi}",
    r"\newcommand{\fitdisplay}[1]{\par\smallskip\noindent\makebox[\linewidth]{\fitmath{#1}}\par\smallskip}",
    r"\makeatletter",
    r"\renewcommand\section{\@startsection{section}{1}{\z@}{-3ex \@plus -1ex \@minus -.2ex}{1.2ex \@plus .2ex}"
    r"{\normalfont\large\bfseries\raggedright}}",
    r"\renewcommand\subsection{\@startsection{subsection}{2}{\z@}{-2ex \@plus -1ex \@minus -.2ex}"
    r"{0.8ex \@plus .2ex}{\normalfont\normalsize\bfseries\raggedright}}",
    r"\renewcommand\@maketitle{\begin{center}{\Large\bfseries\raggedright\@title\par}\vskip 1ex"
    r"{\normalsize\@author\par}\end{center}\par\vskip 1ex}",
    r"\renewcommand*\l@section{\@dottedtocline{1}{0em}{1.5em}}",
    r"\makeatother",
    _unicode_declarations(),
])


def document(*parts: str, title: str = "exactdp", author: str = "") -> str:
    """A complete LaTeX document (:data:`PREAMBLE`) containing the given pieces; ``title`` is text."""
    body = "\n\n".join(parts)
    return (f"{PREAMBLE}\n\\title{{{latex_text(title)}}}\n\\author{{{author}}}\n\\date{{}}\n"
            f"\\begin{{document}}\n\\maketitle\n{body}\n\\end{{document}}\n")


# -- the verify report --------------------------------------------------------------------------------

def latex_statement(statement: str) -> str:
    """A claim's LaTeX statement: a display (maths), or text when it already contains ``$``; verbatim when
    it does not parse as LaTeX (unbalanced braces, alignment ``&`` outside an environment)."""
    s = re.sub(r"\n\s*\n", "\n", latex_math_text(statement.strip()))
    if not s:
        return r"\emph{(no statement)}"
    if not _balanced(s) or r"\end{verbatim}" in s or ("&" in s and r"\begin{" not in s):
        return verbatim_block(statement.strip().splitlines())
    if re.search(r"(?<!\\)\$|(?<!\\)\\\(", s):  # an unescaped $ or \( (not the \\ of a new row before "(")
        return s + r"\par"  # text with inline maths
    return display(s)


def _scope(res) -> str:
    """The scope of a claim's verdict as LaTeX: what a proof covers (the engine's ``scope``: "all N, M",
    "N = 2..8", its formulas typeset from their expressions: :func:`phrase_latex`), the number of instances a
    verification checked, and for a proved-modulo verdict what it rests on; "--" when nothing was established
    (undecided, not checkable)."""
    scope = str(getattr(res, "scope", "") or "")
    if not scope:
        scopes = [str(getattr(o, "scope", "") or "") for o in res.outcomes]
        scope = "; ".join(dict.fromkeys(x for x in scopes if x))
    if res.verdict.value in ("undecided", "not-checkable"):
        return "--"
    if res.verdict.value == "refuted":
        return "an exact counterexample"
    if scope in ("", "instances"):
        scope = f"{res.instances} instances" if res.instances else scope
    rests = tuple(getattr(res, "rests_on", ()) or ())
    return (phrase_latex(scope_step(scope)) + (latex_text(f"; rests on {', '.join(rests)}") if rests else ""))


def phrase_latex(step) -> str:
    """A phrase of prose and formulas (a claim's hypotheses, a verdict's scope:
    :class:`~exactdp.numbers.formula_text.DerivationStep`) in LaTeX text mode: the prose escaped
    (:func:`~exactdp.numbers.escape.latex_text`, nothing typeset from its characters), each formula ``$…$``
    printed from its expression (:func:`~exactdp.numbers.formula_text.formula_latex_of`)."""
    return step.render(latex_text, lambda f: "$" + formula_latex_of(f) + "$")


def _label(claim_id: str) -> str:
    return "claim:" + re.sub(r"[^A-Za-z0-9.:-]", "-", claim_id)


def summary_table(results) -> str:
    """The verify report's summary: one ``longtable`` row per claim (claim id and items, scope, verdict)."""
    from exactdp.output.verdicts import verdict_text  # deferred: start-up

    head = r"\toprule claim (catalogue items) & scope & verdict \\ \midrule"
    rows = [r"{\small", r"\begin{longtable}{@{}" + _P + r"{0.36\linewidth}" + _P + r"{0.38\linewidth}"
            + _P + r"{0.2\linewidth}@{}}", head, r"\endfirsthead", head, r"\endhead", r"\bottomrule",
            r"\endlastfoot"]
    for r in results:
        c = r.claim
        verdict = latex_text(verdict_text(r)) + ("" if r.matches else r" \textbf{(differs from expected)}")
        rows.append(r"\hyperref[" + _label(c.id) + "]{" + texttt(c.id) + "} (" + latex_text(", ".join(c.catalogue))
                    + ") & " + _scope(r) + r" & \emph{" + verdict + r"} \\")
    rows += [r"\end{longtable}", "}"]
    return "\n".join(rows)


#: a decided statement in a derivation: ``label: lhs <= rhs [on region] -> true`` (the prover's and the
#: identity checker's lines)
_DECIDED = re.compile(r"^(?P<label>[^:]{1,120}): (?P<rel>.+?)(?: on (?P<region>.+?))? -> (?P<truth>true|false|unknown)$")


def _read_math(text: str):
    """A relation or expression of a derivation line, read by the one safe reader (every name a symbol),
    or None when the text is not a formula of its grammar."""
    from exactdp.errors import ExactDPError
    from exactdp.numbers.reader import MATH_FUNCTIONS, read_expression

    def read(part):
        names = {n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", part) if n not in MATH_FUNCTIONS}
        return read_expression(part.strip(), name="derivation", symbols=names, relations=True)

    try:
        if text.count(" == ") == 1:
            a, b = text.split(" == ")
            return sympy.Eq(read(a), read(b), evaluate=False)
        if " & " in text:
            return sympy.And(*[read(part.strip().removeprefix("(").removesuffix(")")) for part in text.split(" & ")],
                             evaluate=False)
        return read(text)
    except (ExactDPError, ValueError, TypeError, RecursionError):
        return None


def _relation_tex(rel) -> str:
    """A relation printed side by side (substituting t = e^ε into an unevaluated ``Eq`` would decide it)."""
    if isinstance(rel, sympy.core.relational.Relational):
        op = {"==": "=", "<=": r"\leq", ">=": r"\geq", "<": "<", ">": ">", "!=": r"\neq"}[rel.rel_op]
        return f"{to_latex(rel.lhs)} {op} {to_latex(rel.rhs)}"
    return to_latex(rel)


def derivation_lines_latex(lines, *, max_lines: int = 60) -> str:
    r"""The derivation of a check: each decided statement (``label: a <= b on region -> true``) as displayed
    maths (read by the one safe reader, t printed as e^ε), the other lines (prose, prover steps) as a small
    list with their formulas typeset (:func:`exactdp.output.ascii_math.prose_latex`, indented lines one level
    deeper); beyond ``max_lines`` lines the JSON report has the rest."""
    lines = [x if isinstance(x, DerivationStep) else str(x) for x in lines]
    more = len(lines) - max_lines
    lines = lines[:max_lines]
    out: list[str] = []
    plain: list[str | DerivationStep] = []  # text lines and structured steps in running text

    def flush():
        if plain:
            items = [r"\item[] " + (r"\hspace*{1.5em}" if _indented(line) else "") + _plain_latex(line)
                     for line in plain]
            out.append("{\\footnotesize\n\\begin{itemize}\\setlength{\\itemsep}{0pt}\n" + "\n".join(items)
                       + "\n\\end{itemize}\n}")
            plain.clear()

    for line in lines:
        if isinstance(line, DerivationStep) and (line.inline or _indented(line) or not line.math):  # running text
            plain.append(line)
            continue
        if isinstance(line, DerivationStep):  # prose as text, the formulas printed from their expressions
            flush()
            forms = [formula_latex_of(f) for f in line.formulas()]
            tex = r",\quad ".join(forms[:len(line.math)])
            if line.region:
                tex += r" \quad \text{on } " + ", ".join(forms[len(line.math):])
            outcome = ": " + latex_text(line.outcome) if line.outcome else ""
            label = texttt(f"[{line.label}]") + " " if line.label else ""
            out.append(label + prose_latex(line.prose) + outcome + "\n" + display(tex))
            continue
        m = _DECIDED.match(line) if not line.startswith(" ") else None
        rel = _read_math(m.group("rel")) if m else None
        region = _read_math(m.group("region")) if m and m.group("region") else None
        if m is None or rel is None or isinstance(rel, sympy.logic.boolalg.BooleanAtom) or (m.group("region") and region is None):
            plain.append(line)
            continue
        flush()
        tex = _relation_tex(rel) + (r" \quad \text{on } " + to_latex(region) if region is not None else "")
        out.append(prose_latex(m.group("label")) + ": " + latex_text(m.group("truth")) + "\n"
                   + display(tex))
    flush()
    if more > 0:
        out.append(rf"\emph{{({more} more lines: the JSON report has the whole derivation)}}")
    return "\n".join(out)


def _indented(line) -> bool:
    """A sub-step (a decision's own step under the statement it decides): its text starts with a space."""
    return (line.prose if isinstance(line, DerivationStep) else line).startswith(" ")


def _plain_latex(line) -> str:
    """A derivation line in running text: a text line's formulas typeset from its ASCII
    (:func:`~exactdp.output.ascii_math.prose_latex`); a structured step's prose as text and its formulas
    printed from their expressions, inline."""
    if not isinstance(line, DerivationStep):
        return prose_latex(line.strip())
    return line.render(prose_latex, lambda f: "$" + formula_latex_of(f) + "$",
                       region=lambda conds: r" on $" + ", ".join(formula_latex_of(c) for c in conds) + "$",
                       outcome=lambda o: r" $\to$ " + latex_text(o),
                       label=lambda name: texttt(f"[{name}]") + " ").strip()


def claim_section(r, *, timings: bool = False) -> str:
    """One claim of the verify report: statement, hypotheses, verdict with its scope, the evidence of
    every check (summary, scope, families, derivation, counterexample, reason) and notes."""
    from exactdp.output.verdicts import verdict_text  # deferred: start-up

    c = r.claim
    statement = ("\n".join(display(tex) for tex in statement_latex_lines(c)) if c.formulas
                 else latex_statement(c.statement))
    lines = [r"\section[" + latex_text(c.id) + "]{" + texttt(c.id) + ": " + prose_latex(c.title) + "}",
             r"\label{" + _label(c.id) + "}",
             r"\textbf{Items:} " + latex_text(", ".join(c.catalogue)) + r". \textbf{Source:} "
             + prose_latex(str(c.source)) + r".\par", r"\textbf{Statement.}",
             statement]
    if c.hypotheses:
        lines.append(r"\textbf{Hypotheses:} " + phrase_latex(c.hypotheses_step) + r"\par")
    mark = "" if r.matches else " (differs from the expected verdict)"
    lines.append(r"\textbf{Verdict:} \emph{" + latex_text(verdict_text(r)) + "}" + latex_text(mark)
                 + r"; expected " + latex_text(c.expected.value) + f"; {r.instances} instances"
                 + (latex_text(f"; {r.seconds:.2f} s") if timings else "") + r".\par")
    lines.append(r"\begin{itemize}")
    for cr in r.checks:
        o = cr.outcome
        item = [r"\item \textbf{" + prose_latex(cr.check.name) + "} (" + latex_text(o.verdict.value) + "): "
                + prose_latex(o.summary) + "."]
        scope = str(getattr(o, "scope", "") or "")
        if scope:
            item.append(r"\textbf{Scope:} " + phrase_latex(scope_step(scope)) + ".")
        if o.families:
            item.append(r"\textbf{Families:} " + prose_latex(", ".join(f"{f} ({n})" for f, n in o.families)) + ".")
        if o.reason:
            item.append(r"\textbf{Reason:} " + prose_latex(o.reason))
        if o.derivation:
            item.append(r"\par\textbf{Derivation:}" + "\n" + derivation_lines_latex(o.derivation))
        if o.counterexample:
            ce = [f"{k} = {json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}"
                  for k, v in o.counterexample.items()]
            item.append(r"\par\textbf{Counterexample:}" + "\n" + verbatim_block(ce))
        lines.append(" ".join(item))
    lines.append(r"\end{itemize}")
    if c.notes:
        lines.append(r"\emph{Notes:} " + prose_latex(c.notes) + r"\par")
    return "\n".join(lines)


def verify_report_latex(results, *, seed: int = 0, quick: bool = False, timings: bool = False) -> str:
    """The LaTeX report of a verification run (``exactdp verify``, format latex): a complete document that
    opens with the summary table (claim, scope, verdict) and the table of contents, then one section per
    claim (:func:`claim_section`).  A pure function of the results, the seed and the run size."""
    from exactdp.output.verdicts import summary_line  # deferred: start-up

    title = (r"exactdp: verdicts for the claims of Asoodeh--Aliakbarpour--Calmon (ISIT 2021) and "
             r"Grosse--Saeidian--Oechtering--Skoglund (arXiv 2601.09498)")
    author = r"generated by \texttt{exactdp verify" + (" --quick" if quick else "") + f" --seed {seed}" + "}"
    body = [r"\section*{Summary}", prose_latex(summary_line(results)) + r"\par", summary_table(results),
            r"\tableofcontents", r"\clearpage"]
    body += [claim_section(r, timings=timings) for r in results]
    doc = document(*body, title="", author=author)
    return doc.replace(r"\title{}", r"\title{" + title + "}", 1)


# -- the "copy this" API ----------------------------------------------------------------------------------

def _strip_math(tex: str) -> str:
    tex = tex.strip()
    for d in ("$$", "$"):
        if tex.startswith(d) and tex.endswith(d) and len(tex) > 2 * len(d):
            return tex[len(d):-len(d)].strip()
    return tex


def latex(obj) -> str:
    r"""The LaTeX of an exactdp value, ready to paste (formulas without ``$``):

    * a closed form (sympy expression, fmpq, int, ``oo``): the formula in the papers' notation (t as e^ε);
    * a registry ``Bound``: its statement ``quantity ≤ formula``;
    * a ``Kernel``: ``K = \begin{pmatrix}…\end{pmatrix}`` (a parametric one with its declared region);
    * ``Truth``, ``PrivacyProfile``, ``RiskBound``, an extremal result, a claim ``Outcome``, a
      ``ClaimResult`` or a ``CheckResult``: the LaTeX of its presenter (:mod:`exactdp.output.presenters`).

    >>> import sympy
    >>> t = sympy.Symbol("t", positive=True)
    >>> latex((t - 1) / (t + 2))
    '\\frac{e^{\\varepsilon} - 1}{e^{\\varepsilon} + 2}'
    """
    from exactdp.bounds import Bound

    if isinstance(obj, float) or type(obj).__module__ == "numpy":
        from exactdp.numbers.qq import to_qq

        to_qq(obj, "latex")  # a float is refused (CoercionError): exact values only
    if isinstance(obj, Bound):
        return bound_statement_latex(obj)
    if isinstance(obj, sympy.Basic):
        return to_latex(with_quantity_symbols(obj), cases=True)
    if (isinstance(obj, int) and not isinstance(obj, bool)) or type(obj).__name__ == "fmpq":
        return to_latex(obj, cases=True)
    rep = present(obj, "latex")  # the registry of presenters, by type
    if rep is not None:
        return _strip_math(rep)
    from exactdp.errors import ParameterError

    raise ParameterError(f"latex: no LaTeX form for a {type(obj).__name__}; give a sympy expression, an exact "
                         f"number, a Bound, a Kernel, a Truth, a PrivacyProfile, a RiskBound, an extremal "
                         f"result, a verdict or a CheckResult")


def with_quantity_symbols(expr: sympy.Basic) -> sympy.Basic:
    r"""``expr`` with every registered quantity (:mod:`exactdp.measures.registry`) — a symbol such as
    ``eta_tv`` or an application such as ``eta_hs(2)``, as a parsed conjecture holds them — replaced by a
    symbol named by its LaTeX (``\eta_{\mathrm{TV}}(K)``, ``\eta_{E_{2}}(K)``), which the printer prints as
    it is (a name with a brace group is not split at ``_``); the arguments are printed first.  Other names are
    left to the printer.

    >>> latex(sympy.Symbol("eta_tv") <= sympy.Rational(1, 2))
    '\\eta_{\\mathrm{TV}}(K) \\leq \\frac{1}{2}'
    """
    from exactdp.measures import registry

    from exactdp.verification.conjecture import kernel_terms

    def named(node):
        q = registry.quantity(node.name if isinstance(node, sympy.Symbol) else node.func.__name__)
        if q is None:
            return None
        if not isinstance(node, sympy.Symbol) and node.args and kernel_terms.is_term(node.args[0]):
            return sympy.Symbol("{" + _of_term(q, node) + "}")
        if (isinstance(node, sympy.Symbol)) != (q.arity == 0):
            return None
        args = tuple(to_latex(with_quantity_symbols(a), t_as_exp=False) for a in node.args)
        tex = q.latex_of(args)
        return sympy.Symbol(tex if "{" in tex else "{" + tex + "}")

    def _of_term(q, node) -> str:
        """The quantity of a product or power of kernels (:mod:`exactdp.verification.conjecture.kernel_terms`):
        its LaTeX with the kernel K replaced by the product (the floors of product priors joined)."""
        factors = []
        for name, e in kernel_terms.leaves(node.args[0]):
            k = "K" if name == "K" else "K_{2}"
            factors.append(k if e == 1 else k + r"^{\otimes " + to_latex(e, t_as_exp=False) + "}")
        term = r" \otimes ".join(factors)
        rest = [to_latex(with_quantity_symbols(a), t_as_exp=False) for a in node.args[1:]]
        tex = q.latex_of((", ".join(rest),) if rest else ())
        if "(K" in tex:
            return tex.replace("(K", "(" + term, 1)
        if "_K" in tex:
            return tex.replace("_K", "_{" + term + "}", 1)
        return tex + "_{" + term + "}"

    subs = {}
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, (sympy.Symbol, sympy.core.function.AppliedUndef)) and node not in subs:
            new = named(node)
            if new is not None:
                subs[node] = new
    return expr.xreplace(subs) if subs else expr


def formulas(tex: str) -> list[str]:
    """Every formula of a generated LaTeX text (of its body, after ``\\begin{document}`` when there is
    one): the contents of ``\\fitdisplay{…}``, ``\\fitmath{…}``, ``\\[…\\]``, ``align*`` and ``$…$``."""
    if r"\begin{document}" in tex:
        tex = tex.split(r"\begin{document}", 1)[1]
    out: list = []
    spans: list = []
    for macro in (r"\fitdisplay", r"\fitmath"):
        start = 0
        while (k := tex.find(macro + "{", start)) >= 0:
            body, end = _group(tex, k + len(macro))
            if not any(a <= k < b for a, b in spans):  # a \fitmath inside a \fitdisplay is the same formula
                out.append(body)
                spans.append((k, end))
            start = end
    for a, b in sorted(spans, reverse=True):
        tex = tex[:a] + tex[b:]
    for m in re.finditer(r"\\begin\{align\*\}(.*?)\\end\{align\*\}", tex, flags=re.DOTALL):
        out.append(m.group(1).strip())
    stripped = re.sub(r"\\\[(.*?)\\\]", "", tex, flags=re.DOTALL)
    out += [m.group(1).strip() for m in re.finditer(r"\\\[(.*?)\\\]", tex, flags=re.DOTALL)]
    out += [m.group(1) for m in re.finditer(r"(?<!\\)\$(.+?)(?<!\\)\$", stripped, flags=re.DOTALL)]
    return out
