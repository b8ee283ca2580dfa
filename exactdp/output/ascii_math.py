r"""ASCII mathematics inside prose, typeset: ``eta_TV(K) <= phi(eps, delta) for every (eps,delta)-LDP K``
becomes ``$\eta_{\mathrm{TV}}(K) \leq \varphi(\varepsilon, \delta)$ for every $(\varepsilon,\delta)$-LDP $K$``.

The claims' titles, notes, the checks' summaries and hand-written derivation lines, and a conjecture's text
are written in ASCII (``e^eps``, ``<=``, ``delta``) so the terminal and the JSON report show them as stored.
A document typesets them (no ASCII maths is left in the LaTeX report).  This module is the one place that
does, for LaTeX and for the Jupyter displays.  (A claim's hypotheses and every scope are not typeset here: they
are stored with prose and formulas apart and printed from expressions,
:attr:`exactdp.verification.claims.Claim.hypotheses_step` and :func:`exactdp.numbers.formula_text.scope_step`.)

* :func:`segments` splits a text into prose and formula pieces.  A formula is a maximal run of tokens that
  are mathematics — a number, a one-letter name, a Greek or quantity name (``eps``, ``delta``, ``eta_TV``),
  an operator (``<=``, ``=``, ``+``, ``*``, ``^``, ``/``), a call of a known function (``log(``) — joined by
  spaces, commas, brackets and ``-``, with balanced brackets.  Words, claim ids (``findings.fa02``) and
  catalogue codes (``B-3``) are prose.
* :func:`formula_latex` transliterates one formula token by token: names to the papers' symbols
  (:data:`exactdp.numbers.display.SYMBOL_LATEX` and the Greek alphabet), ``a^b`` to ``a^{b}`` (the exponent
  one operand: a name, a number, a brace or parenthesis group), ``x_i`` to ``x_{i}``, ``<=`` to ``\leq``,
  ``*`` to ``\cdot``, ``&`` to ``\wedge``.  Nothing is reordered, regrouped or evaluated: the typeset
  formula has the tokens of the stored one, so it cannot state another formula (the failure of a regex
  rewrite of LaTeX into text).
* :func:`prose_latex` is the LaTeX text of the whole: prose escaped by
  :func:`exactdp.numbers.escape.latex_text`, formulas as ``$…$``.

The text is data: it is tokenised, never evaluated, and every prose character goes through the one LaTeX
escaper, so no text becomes a LaTeX command.
"""

from __future__ import annotations

import re

from exactdp.numbers.display import SYMBOL_LATEX
from exactdp.numbers.escape import latex_text

#: the Greek letters a name may spell (``eps`` and ``phi`` in the papers' variant forms)
GREEK = {name: "\\" + name for name in (
    "alpha", "beta", "gamma", "delta", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi",
    "pi", "rho", "sigma", "tau", "upsilon", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi",
    "Pi", "Sigma", "Phi", "Psi", "Omega")}
GREEK.update({"eps": r"\varepsilon", "epsilon": r"\varepsilon", "phi": r"\varphi"})

#: functions typeset as operators (``\log``), and those typeset upright by name
OPERATORS = {"log": r"\log", "exp": r"\exp", "min": r"\min", "max": r"\max", "Min": r"\min", "Max": r"\max",
             "sup": r"\sup", "inf": r"\inf", "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh",
             "sin": r"\sin", "cos": r"\cos", "ln": r"\ln", "det": r"\det", "Pr": r"\Pr"}
#: names that are mathematics wherever they stand (``sqrt`` is handled apart: ``\sqrt{…}``)
MATH_NAMES = frozenset(GREEK) | {"oo", "sqrt", "TV", "KL"} | {k for k in SYMBOL_LATEX if "_" not in k}
#: quantity functions of the conjecture language, mathematics when called (``kl(P, Q)``)
FUNCTIONS = frozenset({"kl", "tv", "chi2", "hellinger2", "renyi", "hs", "hockey_stick", "eta_tv", "eta_hs",
                       "eta_kl", "eta_chi2", "pml", "ldp"})
#: connecting words typeset as symbols between two formula tokens ("delta in [0, 1]")
CONNECTIVES = {"in": r"\in", "iff": r"\iff"}
#: one-letter words of prose
PROSE_LETTERS = frozenset({"a", "A", "I"})
#: the relation and operator tokens and their LaTeX
OPS = {"<=": r"\leq", ">=": r"\geq", "!=": r"\neq", "==": "=", "->": r"\to", "=>": r"\Rightarrow",
       "<": "<", ">": ">", "=": "=", "+": "+", "*": r"\cdot", "**": "^", "/": "/", "^": "^", "|": "|", "&": r"\wedge",
       "~": r"\sim", "||": r"\|"}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<code>[A-Z]{1,2}-\d+[a-z]?\b|\b[IVX]+-[A-Z]\b|\bp\.\d+(?:-\d+)?)  # B-3, section I-C, page p.1-2
  | (?P<ident>[A-Za-z]\w*(?:\.[A-Za-z]\w*)+\.?)                         # a dotted id (claim id, a.s.)
  | (?P<name>[A-Za-z][A-Za-z0-9]*(?:_(?:\{[^{}]*\}|[A-Za-z0-9]+))*'*)    # a name, its subscripts, primes
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<op><=|>=|!=|==|->|=>|\*\*|[<>=+*/^|&~])
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)

#: capitalised two-letter words of prose (other mixed-case pairs such as Nc are products of symbols)
_PROSE_PAIRS = frozenset({"By", "In", "On", "At", "Of", "If", "It", "As", "An", "Is", "Or", "To", "No", "So",
                          "Be", "We", "Up", "Do", "Go", "Me", "My", "Us"})


def _tokens(text: str) -> list[tuple[str, str]]:
    return [(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(text)]


def _name_is_math(name: str) -> bool:
    """A name is mathematics when it is one letter (not an article), a Greek or quantity name, or such a name
    with short subscripts (``eta_TV``, ``K_i``, ``eta_{e^eps}``); ``b01_dobrushin`` and ``max_work`` are not."""
    base, _, subs = name.rstrip("'").partition("_")
    if subs:
        parts = re.findall(r"\{[^{}]*\}|[^_]+", subs)
        return (len(base) == 1 or base in MATH_NAMES) and all(
            p.startswith("{") or len(p) <= 4 or p in MATH_NAMES for p in parts)
    if re.fullmatch(r"[A-Z][a-z]|[a-z][A-Z]", base):  # Nc: the product N c
        return base not in _PROSE_PAIRS
    return (len(base) == 1 and base not in PROSE_LETTERS) or base in MATH_NAMES


def _neighbour(tokens: list[tuple[str, str]], k: int, step: int) -> tuple[str, str]:
    """The token next to k (``step`` ±1) across brackets, or ("space", "") at a space or the end."""
    j = k + step
    while 0 <= j < len(tokens) and tokens[j][0] in ("open", "close"):
        j += step
    return tokens[j] if 0 <= j < len(tokens) else ("space", "")


def _operator_near(tokens: list[tuple[str, str]], k: int) -> bool:
    """Whether an operator stands next to token k (across spaces and brackets): ``a = …``, ``(E-1)/…``."""
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(tokens) and tokens[j][0] in ("space", "open", "close"):
            j += step
        if 0 <= j < len(tokens) and (tokens[j][0] == "op" or tokens[j][1] == "-"):
            return True
    return False


def _is_math(tokens: list[tuple[str, str]], k: int) -> bool:
    """Whether token k is mathematics by itself (a formula starts and ends at such tokens)."""
    kind, text = tokens[k]
    if kind in ("num", "op"):
        return True
    if kind == "name":
        if _name_is_math(text):
            return True
        if len(text) == 1:  # "a", "A", "I": mathematics next to an operator or as an argument (K_x(A))
            return _operator_near(tokens, k) or (k >= 2 and tokens[k - 1][1] == "(" and tokens[k - 2][0] == "name")
        # a known function called right here: log(, exp(, kl(
        return (text in OPERATORS or text in FUNCTIONS) and k + 1 < len(tokens) and tokens[k + 1][1] == "("
    if kind == "code":  # E-1 in (E-1)/(E(E+1)) is a formula, B-4 in "kernels (B-4) on" a catalogue code
        return any(_neighbour(tokens, k, step)[0] in ("op", "num") for step in (-1, 1))
    return False


def _joins(tokens: list[tuple[str, str]], k: int) -> bool:
    """Whether token k may stand inside a formula between mathematical tokens."""
    kind, text = tokens[k]
    return kind in ("space", "open", "close") or text in (",", "-", ".", ":", "'") or (
        kind == "name" and text in CONNECTIVES)


def _balanced_span(tokens: list[tuple[str, str]], a: int, b: int) -> tuple[int, int]:
    """The span [a, b) shrunk until its brackets pair up (an unmatched bracket stays prose)."""
    while a < b:
        stack: list[int] = []
        bad = None
        for k in range(a, b):
            kind, text = tokens[k]
            if kind == "open":
                stack.append(k)
            elif kind == "close":
                if stack:  # any closer ends the open group: (0, 1/N] is a half-open interval
                    stack.pop()
                else:
                    bad = k
                    break
        if bad is None and not stack:
            return a, b
        if bad is not None:  # an unmatched closer: the formula ends before it
            b = bad
        else:  # an unmatched opener: the formula ends before it
            b = stack[0]
        while a < b and not _is_math(tokens, a) and tokens[a][0] != "open":
            a += 1
        while b > a and not _is_math(tokens, b - 1) and tokens[b - 1][0] != "close":
            b -= 1
    return a, b


def segments(text: str) -> list[tuple[bool, str]]:
    """``text`` as ``(is_formula, piece)`` pairs whose pieces concatenate to ``text``.

    >>> segments("holds for eps >= 0 (pure LDP)")
    [(False, 'holds for '), (True, 'eps >= 0'), (False, ' (pure LDP)')]
    """
    tokens = _tokens(str(text))
    marks = [False] * len(tokens)
    k = 0
    while k < len(tokens):
        if not (_is_math(tokens, k) or tokens[k][0] == "open"):
            k += 1
            continue
        # the longest run of joining or mathematical tokens from k, ended at a mathematical token or a closer
        end, j = None, k
        while j < len(tokens) and (_is_math(tokens, j) or _joins(tokens, j)):
            if _is_math(tokens, j) or tokens[j][0] == "close":
                end = j + 1
            j += 1
        if end is None:
            k += 1
            continue
        a, b = _balanced_span(tokens, k, end)
        # a formula holds at least one mathematical token; a lone "-" or "/" between words is prose
        core = [t for t in tokens[a:b] if t[0] not in ("space", "open", "close")]
        # and more than numbers ("on all 40 instances", "(30)" stay prose)
        if a < b and any(_is_math(tokens, i) and tokens[i][0] != "num" for i in range(a, b)) and not (
                len(core) == 1 and core[0][1] in ("/", "-", "+", "*", "&", "|", "~", "=")):
            for i in range(a, b):
                marks[i] = True
            k = b
        else:
            k += 1
    out: list[tuple[bool, str]] = []
    for (_, piece), m in zip(tokens, marks):
        if out and out[-1][0] == m:
            out[-1] = (m, out[-1][1] + piece)
        else:
            out.append((m, piece))
    return out


def _name_latex(name: str) -> str:
    primes = len(name) - len(name.rstrip("'"))
    name = name.rstrip("'")
    base, _, subs = name.partition("_")
    if name in FUNCTIONS and base not in MATH_NAMES:  # hockey_stick(P, Q, 2): one upright name
        return r"\mathrm{" + name.replace("_", r"\_") + "}" + "'" * primes
    if base in SYMBOL_LATEX and not subs:
        head = SYMBOL_LATEX[base]
    elif base in GREEK:
        head = GREEK[base]
    elif base == "oo":
        head = r"\infty"
    elif base in OPERATORS:
        head = OPERATORS[base]
    elif len(base) == 1 or re.fullmatch(r"[A-Za-z]{2}", base):
        head = base
    else:
        head = r"\mathrm{" + base + "}"
    subscripts = []
    for part in re.findall(r"\{[^{}]*\}|[^_]+", subs):
        subscripts.append(formula_latex(part[1:-1]) if part.startswith("{") else (
            _name_latex(part) if part.isalpha() and (part in MATH_NAMES or len(part) == 1)
            else (r"\mathrm{" + part + "}" if part.isalpha() else part)))
    tail = ""
    for sub in reversed(subscripts):  # eta_E_gamma: a subscript of a subscript, \eta_{E_{\gamma}}
        tail = "_{" + sub + tail + "}"
    return head + tail + "'" * primes


def _group_end(tokens: list[tuple[str, str]], k: int) -> int:
    """The index after the bracket group opened at tokens[k]."""
    depth = 0
    for j in range(k, len(tokens)):
        if tokens[j][0] == "open":
            depth += 1
        elif tokens[j][0] == "close":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(tokens)


def _operand(tokens: list[tuple[str, str]], k: int) -> tuple[str, int]:
    """The LaTeX of the operand starting at token k (after ``^`` or ``sqrt``) and the index after it: a name
    or number (a leading ``-`` kept), or a bracket group whose brackets the braces replace."""
    while k < len(tokens) and tokens[k][0] == "space":
        k += 1
    if k >= len(tokens):
        return "", k
    kind, text = tokens[k]
    if text == "-":
        inner, j = _operand(tokens, k + 1)
        return "-" + inner, j
    if kind == "open":
        j = _group_end(tokens, k)
        return _tokens_latex(tokens[k + 1:j - 1]), j
    if kind == "name" and text in OPERATORS and k + 1 < len(tokens) and tokens[k + 1][0] == "open":
        j = _group_end(tokens, k + 1)
        return _tokens_latex(tokens[k:j]), j
    return _tokens_latex(tokens[k:k + 1]), k + 1


def _tokens_latex(tokens: list[tuple[str, str]]) -> str:
    out: list[str] = []
    k = 0
    while k < len(tokens):
        kind, text = tokens[k]
        if kind == "op" and text == "*" and k and tokens[k - 1][0] == "name" and (
                k + 1 == len(tokens) or tokens[k + 1][0] in ("space", "close") or tokens[k + 1][1] in ",;:."):
            out.append("^{*}")  # eps*, delta*: a starred name, not a product
            k += 1
            continue
        if kind == "op" and text in ("^", "**"):
            inner, k = _operand(tokens, k + 1)
            out.append("^{" + inner + "}")
            continue
        if kind == "name" and text == "sqrt":
            inner, k = _operand(tokens, k + 1)
            out.append(r"\sqrt{" + inner + "}")
            continue
        if kind == "name":
            out.append(CONNECTIVES[text] if text in CONNECTIVES else _name_latex(text))
        elif kind == "op":
            out.append(OPS[text])
        elif kind == "num":
            # a long number may break (every 30 digits) rather than run into the margin
            out.append(r"\allowbreak ".join(text[i:i + 30] for i in range(0, len(text), 30)))
        elif kind == "open":
            out.append(r"\{" if text == "{" else text)
        elif kind == "close":
            out.append(r"\}" if text == "}" else text)
        elif kind == "space":
            out.append(" ")
        elif kind == "code":
            out.append(text)
        elif text in "#$%&_~^\\":
            out.append("\\" + text if text in "#$%&_" else "")
        else:
            out.append(text)
        k += 1
    tex = ""
    for piece in out:  # a command followed by a letter needs a space
        tex += (" " if re.search(r"\\[A-Za-z]+$", tex) and piece[:1].isalnum() else "") + piece
    return tex


def formula_latex(text: str) -> str:
    r"""The LaTeX of one ASCII formula, token by token (see the module docstring).

    >>> formula_latex("(e^eps - 1 + 2 delta)/(e^eps + 1)")
    '(e^{\\varepsilon} - 1 + 2 \\delta)/(e^{\\varepsilon} + 1)'
    >>> formula_latex("eta_TV(K) <= phi^n(eps,delta)")
    '\\eta_{\\mathrm{TV}}(K) \\leq \\varphi^{n}(\\varepsilon,\\delta)'
    """
    return _tokens_latex(_tokens(text)).strip()


def prose_latex(text: object) -> str:
    r"""LaTeX text mode for a text of prose and ASCII formulas: prose by
    :func:`~exactdp.numbers.escape.latex_text`, each formula as ``$…$`` (:func:`formula_latex`).

    >>> prose_latex("t = e^eps >= 1, delta in [0, 1]")
    '$t = e^{\\varepsilon} \\geq 1, \\delta \\in [0, 1]$'
    """
    return "".join(_formula_with_spaces(piece, lambda f: "$" + formula_latex(f) + "$", latex_text) if is_math
                   else _prose_latex(piece) for is_math, piece in segments(str(text)))


#: an identifier in prose (a claim id, a check or function name): words joined by ``_`` (and ``.``)
IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*_[A-Za-z0-9]+(?:[._][A-Za-z0-9]+)*\b")


def _prose_latex(text: str) -> str:
    """Prose as LaTeX text: identifiers (``findings.fa03_small_eps_direction``) in typewriter type."""
    out, last = [], 0
    for m in IDENTIFIER.finditer(text):
        out += [latex_text(text[last:m.start()]), r"\texttt{" + latex_text(m.group()) + "}"]
        last = m.end()
    return "".join(out) + latex_text(text[last:])


def _formula_with_spaces(piece: str, formula, space) -> str:
    """A formula piece rendered by ``formula`` with the white space around it kept (rendered by ``space``)."""
    lead = piece[:len(piece) - len(piece.lstrip())]
    trail = piece[len(piece.rstrip()):] if piece.strip() else ""
    return space(lead) + formula(piece.strip()) + space(trail)


def text_in_math(text: object) -> str:
    r"""Text for ``\text{…}`` inside a formula: the characters that would break it replaced (braces by
    parentheses, a backslash by a space, ``$`` dropped, the specials ``& # % _ ^`` spelled out or escaped)."""
    out = str(text)
    for a, b in (("\\", " "), ("{", "("), ("}", ")"), ("$", ""), ("&", "and"), ("#", "no."), ("%", " percent"),
                 ("_", r"\_"), ("^", " "), ("~", " ")):
        out = out.replace(a, b)
    return out


def prose_in_math(text: object) -> str:
    r"""A text of prose and ASCII formulas inside maths (a Jupyter ``_repr_latex_``, which MathJax reads as
    one formula): prose as ``\text{…}`` (:func:`text_in_math`), formulas by :func:`formula_latex`.

    >>> prose_in_math("all n >= 1")
    '\\text{all }n \\geq 1'
    """
    return "".join(_formula_with_spaces(piece, formula_latex, lambda sp: r"\ " if sp else "") if is_math
                   else r"\text{" + text_in_math(piece) + "}" for is_math, piece in segments(str(text)) if piece)


def prose_html(text: object) -> str:
    r"""A text of prose and ASCII formulas as HTML for MathJax (Jupyter): prose HTML-escaped, each formula
    ``$…$`` (its LaTeX by :func:`formula_latex`) kept on one line."""
    from exactdp.numbers.escape import html

    return "".join(
        _formula_with_spaces(piece, lambda f: '<span style="white-space:nowrap">$' + html(formula_latex(f))
                             + "$</span>", html) if is_math else html(piece)
        for is_math, piece in segments(str(text)))
