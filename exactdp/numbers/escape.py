r"""User-given text (kernel names, titles, file names, claim ids) as inert data in every output format.

A name is data: whatever characters it holds, it must come out of a writer as literal text of that format —
never a LaTeX command or comment, an HTML or Markdown element, a mathtext formula, an ANSI escape or a bidi
override on a terminal, invalid UTF-8 in a file.  Every writer passes such text through the one escaper of its
format here (this module sits in the lowest layer, so the display code of ``numbers/`` can use it too):

* :func:`visible` — the characters a reader cannot see or that move the cursor shown as Python-style
  escapes: control characters (``\x1b``, ``\n``), format characters (bidi overrides and isolates U+202A–U+202E,
  U+2066–U+2069, marks U+200E/U+200F, zero-width characters), line and paragraph separators, and the lone
  surrogates that ``os.fsdecode`` makes of a file name's non-UTF-8 bytes (``\udcff``: such text cannot be
  written as UTF-8 at all);
* :func:`terminal` — text for the terminal: :func:`visible`, so a name cannot start a line, erase one or
  reverse the text after it;
* :func:`latex_text` — LaTeX text mode: every special (``\ { } $ & # % ^ ~ _``) as a text command, ``[ ]``
  braced (never an optional argument), unicode maths as maths, other non-ASCII and every control character
  spelled ``U+XXXX``; a backslash never survives, so ``\input``, ``\write18``, ``\catcode`` are text;
* :func:`latex_comment` — the text of a ``%`` comment line: printable ASCII only (a newline would end the
  comment), everything else a backslash escape;
* :func:`html` — HTML text and double- or single-quoted attribute values (``html.escape``), after
  :func:`visible`;
* :func:`markdown` — CommonMark inline text: after :func:`visible` (so no new block can start), every
  character that can start inline markup backslash-escaped, which CommonMark defines as the literal
  character (no emphasis, link, autolink, raw HTML, entity, code span, table cell break or ``$`` maths);
* :func:`mathtext` — a matplotlib title or label (also the text of an SVG): ``$`` escaped so no mathtext
  formula is parsed, after :func:`visible`;
* :func:`json_dumps` — ``json.dumps`` whose output is always valid UTF-8: a lone surrogate becomes the JSON
  escape ``\udcXX``, which reads back to the same string.
"""

from __future__ import annotations

import html as _html
import json
import re
import unicodedata
from typing import Any

#: the unicode categories :func:`visible` shows escaped: control, format, surrogate, line/paragraph separator
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHORT = {"\n": r"\n", "\r": r"\r", "\t": r"\t"}


def _escape_char(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    n = ord(ch)
    return rf"\x{n:02x}" if n < 0x100 else rf"\u{n:04x}" if n < 0x10000 else rf"\U{n:08x}"


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _INVISIBLE


def visible(text: object, keep: str = "") -> str:
    r"""``text`` with every control, format (bidi, zero-width), separator and lone surrogate character shown as
    its escape; characters in ``keep`` (e.g. ``"\n"`` for prose) are left as they are.

    >>> visible("rr\n\x1b[2J\u202eevil\udcff")
    'rr\\n\\x1b[2J\\u202eevil\\udcff'
    """
    s = str(text)
    if s.isprintable():  # the common case: nothing to show
        return s
    return "".join(_escape_char(c) if _invisible(c) and c not in keep else c for c in s)


def terminal(text: object) -> str:
    """Text for the terminal: one line, nothing that moves the cursor, changes colours or reorders text
    (:func:`visible`)."""
    return visible(text)


# ---------------------------------------------------------------------------------------------- LaTeX
#: unicode maths characters of the claims' texts → LaTeX maths
UNICODE_MATH = {
    "ε": r"\varepsilon", "δ": r"\delta", "γ": r"\gamma", "η": r"\eta", "φ": r"\varphi", "ϕ": r"\varphi",
    "Γ": r"\Gamma", "Ξ": r"\Xi", "θ": r"\theta", "ρ": r"\rho", "ζ": r"\zeta", "ψ": r"\psi", "Φ": r"\Phi",
    "α": r"\alpha", "β": r"\beta", "λ": r"\lambda", "μ": r"\mu", "σ": r"\sigma", "τ": r"\tau", "χ": r"\chi",
    "π": r"\pi", "ℓ": r"\ell", "Σ": r"\Sigma", "Δ": r"\Delta", "ω": r"\omega", "κ": r"\kappa", "ν": r"\nu",
    "≤": r"\le", "≥": r"\ge", "≠": r"\ne", "≈": r"\approx", "→": r"\to", "⇒": r"\Rightarrow",
    "⟹": r"\Longrightarrow", "⟺": r"\iff", "⇔": r"\iff", "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq",
    "⊂": r"\subset", "∩": r"\cap", "∪": r"\cup", "∅": r"\emptyset", "∞": r"\infty", "√": r"\surd",
    "·": r"\cdot", "×": r"\times", "⊗": r"\otimes", "∘": r"\circ", "±": r"\pm", "−": "-", "∑": r"\sum",
    "∀": r"\forall", "∃": r"\exists", "‖": r"\|", "⌊": r"\lfloor", "⌋": r"\rfloor", "⁺": r"^{+}",
    "²": r"^{2}", "³": r"^{3}", "ⁿ": r"^{n}", "₀": r"_{0}", "₁": r"_{1}", "₂": r"_{2}", "ᶜ": r"^{c}",
    "₊": r"_{+}", "ₓ": r"_{x}", "𝒫": r"\mathcal{P}", "𝒮": r"\mathcal{S}", "𝒳": r"\mathcal{X}",
    "𝒴": r"\mathcal{Y}", "𝒬": r"\mathcal{Q}", "ℚ": r"\mathbb{Q}", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}",
    "𝟙": r"\mathbf{1}", "≲": r"\lesssim", "≳": r"\gtrsim", "↦": r"\mapsto", "⊥": r"\bot", "∂": r"\partial",
    "⌈": r"\lceil", "⌉": r"\rceil", "∝": r"\propto", "≡": r"\equiv", "∧": r"\wedge", "∨": r"\vee",
    "∖": r"\setminus", "⟨": r"\langle", "⟩": r"\rangle", "∫": r"\int", "∏": r"\prod", "≪": r"\ll", "≫": r"\gg",
}
#: unicode text characters → LaTeX text
UNICODE_TEXT = {"—": "---", "–": "--", "’": "'", "‘": "`", "“": "``", "”": "''", "…": r"\ldots{}", "\u00a0": "~",
                "§": r"\S{}", "✓": r"\checkmark{}", "✗": r"$\times$", "é": r"\'e", "ö": r'\"o', "ü": r'\"u',
                "°": r"\textdegree{}", "¹": r"\textsuperscript{1}", "•": r"\textbullet{}"}
#: LaTeX's special characters in text mode (``[``/``]`` braced: never the optional argument of the command
#: before them)
_TEXT_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                 "%": r"\%", "^": r"\^{}", "~": r"\textasciitilde{}", "|": r"\textbar{}", "[": "{[}", "]": "{]}"}
#: ASCII maths in prose, typeset as the symbol it stands for
_ASCII_MATH = (("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("=>", "⇒"), ("->", "→"), ("||", "‖"))
_MATH_TEXT = {"<": "<", ">": ">"}
#: white space that TeX would read as a line end or not at all: one space in the output
_SPACES = "\n\r\t\v\f\x85\u2028\u2029"


def latex_text(text: object) -> str:
    r"""Plain text → LaTeX text mode: specials escaped, unicode maths (and ASCII ``<=``, ``>=``, ``!=``,
    ``->``, ``||``) as inline maths with consecutive symbols in one ``$…$``, line breaks allowed after
    ``_``, ``/`` and a ``.`` inside a word (long identifiers), line ends as spaces (never a paragraph break
    inside an argument), other non-ASCII and control characters spelled ``U+XXXX``.

    >>> latex_text("K(y|x) <= 1/2 for ε≤δ")
    'K(y\\textbar{}x) $\\le$ 1/\\allowbreak{}2 for $\\varepsilon\\le\\delta$'
    >>> latex_text("x\n\\input{/etc/hostname}%")
    'x \\textbackslash{}input\\{/\\allowbreak{}etc/\\allowbreak{}hostname\\}\\%'
    """
    s = str(text)
    for a, b in _ASCII_MATH:
        s = s.replace(a, b)
    out: list[tuple[bool, str]] = []  # (is maths, piece)
    for i, ch in enumerate(s):
        if ch in UNICODE_MATH:
            out.append((True, UNICODE_MATH[ch]))
        elif ch in _MATH_TEXT:
            out.append((True, _MATH_TEXT[ch]))
        elif ch in _TEXT_SPECIAL:
            out.append((False, _TEXT_SPECIAL[ch]))
        elif ch in _SPACES:
            out.append((False, " "))
        elif ch == "_":
            out.append((False, r"\_\allowbreak{}"))
        elif ch == "/":
            out.append((False, r"/\allowbreak{}"))
        elif ch == "." and i + 1 < len(s) and s[i + 1].isalpha() and i and s[i - 1].isalnum():
            out.append((False, r".\allowbreak{}"))
        elif ch in UNICODE_TEXT:
            out.append((False, UNICODE_TEXT[ch]))
        elif " " <= ch < "\x7f":
            out.append((False, ch))
        else:
            out.append((False, rf"\texttt{{U+{ord(ch):04X}}}"))
    res, k = [], 0
    while k < len(out):
        if out[k][0]:
            run = []
            while k < len(out) and out[k][0]:
                run.append(out[k][1])
                k += 1
            math = ""
            for piece in run:  # a command followed by a letter needs a space
                math += (" " if math and re.search(r"\\[A-Za-z]+$", math) and piece[:1].isalpha() else "") + piece
            res.append(f"${math}$")
        else:
            res.append(out[k][1])
            k += 1
    return "".join(res)


def latex_comment(text: object) -> str:
    r"""The text of a LaTeX ``%`` comment line: printable ASCII kept, everything else (a newline would end the
    comment and start TeX code) as its backslash escape.

    >>> latex_comment("x\n\\input{a}é")
    'x\\n\\input{a}\\xe9'
    """
    return visible(text).encode("ascii", "backslashreplace").decode("ascii")


# ---------------------------------------------------------------------------------------------- HTML, Markdown
def html(text: object, keep: str = "") -> str:
    """HTML text, or the value of a quoted attribute: ``& < > " '`` as references after :func:`visible`
    (``keep``: characters left as they are, e.g. ``"\\n"`` inside ``<pre>``)."""
    return _html.escape(visible(text, keep), quote=True)


#: the ASCII punctuation that can start something inside a line of CommonMark (with GitHub's tables,
#: strikethrough and ``$`` maths): a backslash escape, code span, emphasis, link or image, raw HTML or
#: autolink, entity, table cell, strikethrough, maths, a heading's closing ``#``; CommonMark reads each one
#: backslash-escaped as the literal character.  ``_`` between two ASCII letters or digits (``RR_3``) cannot
#: open or close emphasis in CommonMark and stays as it is.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<>&|$~#!{}^]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def markdown(text: object) -> str:
    r"""CommonMark inline text (after other text on its line) that renders as exactly ``text``:
    :func:`visible` (one line, so no block can start), then every character of :data:`_MD_SPECIAL`
    backslash-escaped — no raw HTML, entity, link, autolink, emphasis, code span, ``|`` cell break or ``$``
    maths can come from it.

    >>> markdown("<img src=x onerror=alert(1)> *a* _b_ RR_3")
    '\\<img src=x onerror=alert(1)\\> \\*a\\* \\_b\\_ RR_3'
    """
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), visible(text))


# ---------------------------------------------------------------------------------------------- figures
def mathtext(text: object) -> str:
    r"""A matplotlib title or label (and so the text of an SVG) shown literally: :func:`visible`, then ``$``
    escaped, so matplotlib parses no mathtext in it.

    >>> mathtext("a $\\input$")
    'a \\$\\input\\$'
    """
    return visible(text).replace("$", r"\$")


# ---------------------------------------------------------------------------------------------- JSON
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_dumps(doc: Any, **kw: Any) -> str:
    r"""``json.dumps(doc, ensure_ascii=False, **kw)`` that encodes as UTF-8: a lone surrogate (a file name's
    non-UTF-8 byte, from ``os.fsdecode``) can stand only inside a JSON string there, and becomes the escape
    ``\udcXX``, which ``json.loads`` reads back to the same string.

    >>> json_dumps({"name": "a\udcff"})
    '{"name": "a\\udcff"}'
    """
    kw.setdefault("ensure_ascii", False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(doc, **kw))
