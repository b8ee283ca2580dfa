"""The one vocabulary of the ``exactdp`` subcommands: shared flags, output, progress, display.

Flags (the same names in every command):

* ``--eps EPS`` (ε) or ``--t T`` (t = e^ε), one of them per call, exact values read by the safe reader
  (:mod:`exactdp.numbers.reader`): ``--eps 1/2``, ``--eps "log(3)"`` (then t = 3 exactly), ``--t 5/2``;
  ``--gamma`` is only ever the order γ of E_γ; ``--c`` (prior floor of (ε,c)-PML), ``--delta``, ``--n``.
* ``--format text|json|markdown|latex|html`` (what a command supports) and ``-o FILE`` (stdout by default);
  ``--no-progress``.

Display: :func:`math_text` prints exact values as mathematics by the one text printer
(:func:`exactdp.numbers.display.to_text`: ``4·c·t = 1``, not ``Eq(t, 1/(4*c))``; no ``Piecewise(…)``, no Python
list reprs; what it prints the safe reader reads back); :func:`shown` adds the certified decimal of a
non-rational value; :func:`abbreviate` shortens long exact numbers to a certified
(truncated) decimal with the digit count, the exact value staying in ``--format json``; :func:`table` fits a
table to the terminal width; :func:`progress` draws a ``rich`` progress bar with elapsed time and ETA on
stderr, only on a terminal and without ``--no-progress``; :func:`math_line` prints the formulas inside an
engine line (a proof or derivation step) as mathematics, display only.  The Markdown, LaTeX and HTML
documents of the commands are :mod:`exactdp.cli._document`.

The JSON documents share one envelope, ``{"command", "version", "schema", "result"}`` (see
:func:`envelope`); exact numbers are strings (``"3/7"``); the JSON Schemas are ``exactdp/schemas/*.json``.
"""

from __future__ import annotations

import re
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

#: every output format of the vocabulary (a command accepts the subset it can produce)
FORMATS = ("text", "json", "markdown", "latex", "html")

#: exact values printed in full up to this many characters; longer ones are abbreviated (see abbreviate)
MAX_SHOWN = 60

#: table width when stdout is not a terminal and $COLUMNS is unset (deterministic output for files/pipes)
DEFAULT_WIDTH = 100


# --------------------------------------------------------------------------------------------------- notes
#: notes waiting for the end of a successful command (a failing command prints only its one error line)
_PENDING: list[str] = []


def note(text: str) -> None:
    """A one-line note for stderr (e.g. the CSV labels a file read skipped), printed by :func:`flush_notes`
    once the command has succeeded, so that every failure stays one line."""
    if text not in _PENDING:
        _PENDING.append(text)


def flush_notes(write: bool = True) -> None:
    """Print (or, after a failure, drop) the pending notes: ``exactdp: note: ...`` on stderr, never stdout."""
    if write:
        for text in _PENDING:
            sys.stderr.write(f"exactdp: note: {text}\n")
    _PENDING.clear()


# ---------------------------------------------------------------------------------------------- parameters
def add_privacy(p, *, required: bool = False, what: str = "", t_metavar: str = "T", eps_metavar: str = "EPS"):
    """``--eps EPS`` | ``--t T`` (mutually exclusive); ``--gamma`` never means e^ε (only the order of E_γ).
    Read the value with :func:`read_t`."""
    g = p.add_mutually_exclusive_group(required=required)
    suffix = f" ({what})" if what else ""
    g.add_argument("--eps", default=None, metavar=eps_metavar,
                   help=f"the privacy level eps, exact (e.g. 1/2, 'log(3)'){suffix}")
    g.add_argument("--t", default=None, metavar=t_metavar, help=f"t = e^eps >= 1, exact (e.g. 5/2){suffix}")
    return g


def add_c(p, help_text: str = "prior mass floor c in (0, 1/N] of (eps,c)-PML", default=None):
    p.add_argument("--c", default=default, metavar="C", help=help_text)


def add_delta(p, help_text: str = "delta of the (eps,delta)-LDP level", default=None):
    p.add_argument("--delta", default=default, metavar="DELTA", help=help_text)


def read_t(args, *, rational: bool = False, plain_fmpq: bool = False):
    """The exact t = e^ε from ``--t`` or ``--eps`` (None when neither is given).

    ``--t`` is read as an exact expression (``5/2``, ``exp(1/2)``); ``--eps`` as an exact ε ≥ 0 and
    t = exp(ε) (``--eps "log(3)"`` gives t = 3).  With ``rational`` a non-rational t is refused in one line
    naming the flag.  With ``plain_fmpq`` a plain ``--t p/q`` comes back as an ``fmpq`` read by flint (no
    sympy import: ``exactdp analyze`` of a rational kernel starts without it); every other form as before."""
    from exactdp.errors import ParameterError
    from exactdp.limits import quote

    t_text, eps_text = getattr(args, "t", None), getattr(args, "eps", None)
    if t_text is None and eps_text is None:
        return None
    if plain_fmpq and eps_text is None and t_text is not None:
        from exactdp.numbers.qq import SIMPLE_RATIONAL, parse_rational_string

        if SIMPLE_RATIONAL.fullmatch(t_text.strip()):
            t = parse_rational_string(t_text.strip(), "--t")
            if t < 1:
                raise ParameterError(f"--t: t = e^eps must be >= 1, got {quote(t_text)}")
            return t

    import sympy

    from exactdp.numbers.reader import read_expression

    if eps_text is not None:
        eps = read_expression(eps_text, name="--eps")
        if eps.is_negative or not eps.is_real:
            raise ParameterError(f"--eps: must be a real number >= 0, got {quote(eps_text)}")
        t, flag, shown = sympy.exp(eps), "--eps", eps_text
    else:
        assert t_text is not None
        t, flag, shown = read_expression(t_text, name="--t"), "--t", t_text
        if not t.is_real:
            raise ParameterError(f"--t: must be a real number >= 1, got {quote(t_text)}")
    if rational and not isinstance(t, sympy.Rational):
        raise ParameterError(f"{flag}: this command needs a rational t = e^eps, got {quote(shown)} "
                             f"(give --t T, or --eps 'log(T)' with T rational)")
    if isinstance(t, sympy.Rational) and t < 1:
        raise ParameterError(f"{flag}: t = e^eps must be >= 1, got {quote(shown)}")
    return t


def read_delta(args):
    """The exact δ of ``--delta`` (a rational in [0, 1], read by the safe reader: ``1/10``, ``1e-5``), or None."""
    from exactdp.errors import ParameterError
    from exactdp.limits import quote
    from exactdp.numbers.reader import read_rational

    text = getattr(args, "delta", None)
    if text is None:
        return None
    d = read_rational(text, "--delta")
    if d < 0 or d > 1:
        raise ParameterError(f"--delta: must lie in [0, 1], got {quote(text)}")
    return d


def decimal(value, digits: int = 12) -> str | None:
    """The certified decimal (``digits`` correctly rounded significant digits) of an exact value that is not
    rational, for the ``decimal`` fields of the JSON documents; None for a rational, a symbolic value or ∞."""
    import sympy

    from exactdp.numbers.digits import evalf

    if not isinstance(value, sympy.Basic) or value.is_Rational or value.free_symbols or not value.is_finite:
        return None
    return evalf(value, digits)


def shown(value, digits: int = 12) -> str:
    """An exact value for the terminal: its exact form and, when it is not rational, its certified decimal
    (``log(13/5) ≈ 0.955511445027``); long forms abbreviated by :func:`abbreviate`."""
    text = abbreviate(value, digits)
    dec = decimal(value, digits)
    return text if dec is None or "≈" in text else f"{text} ≈ {dec}"


def t_text(t) -> str:
    """``t`` as the text the library's readers accept (``"5/2"``, ``"exp(1/2)"``)."""
    return str(t)


# ---------------------------------------------------------------------------------------------- output
def add_csv_labels(p):
    """``--header`` / ``--row-labels`` of a command reading a kernel file: the CSV's first row / first column
    are labels, skipped whatever they hold (outputs named 0, 1, 2 are not told from a row otherwise).  Without
    them labels are detected (:func:`exactdp.io.csv_labels`) and the skip is reported on stderr."""
    p.add_argument("--header", action="store_const", const=True, default=None,
                   help="the CSV file's first row is a header (skipped; detected when it holds words)")
    p.add_argument("--row-labels", action="store_const", const=True, default=None,
                   help="the CSV file's first column holds row labels (skipped; detected when they are words)")


def add_output(p, formats=("text", "json")):
    """``--format`` (the formats this command produces), ``-o FILE``."""
    p.add_argument("--format", choices=formats, default="text",
                   help=f"output format: {'|'.join(formats)} (default text)")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="write the output to FILE (default: stdout)")


def add_no_progress(p):
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (it is drawn only when stderr is a terminal)")


def check_output_path(path, option: str = "-o") -> None:
    """Refuse an output path that cannot be written before any work: empty, a directory, a missing folder,
    or anything but a regular file (a FIFO, a device, a socket, a symbolic link leaving its folder)."""
    if path is None:
        return
    from exactdp.errors import ParameterError
    from exactdp.limits import quote
    from exactdp.regular_files import check_regular

    p = Path(path)
    if not str(path).strip():
        raise ParameterError(f"{option}: give a file name")
    if p.is_dir():
        raise ParameterError(f"{option}: {quote(path)} is a directory")
    if not p.parent.is_dir():
        raise ParameterError(f"{option}: the folder of {quote(path)} does not exist")
    check_regular(p, option, write=True)


def emit(args, text: str) -> None:
    """Write ``text`` (one trailing newline) to ``-o FILE`` (atomically: :func:`exactdp.atomic_io.write_atomic`,
    a failed write keeps the previous file) or stdout."""
    text = text if text.endswith("\n") else text + "\n"
    out = getattr(args, "output", None)
    if out:
        from exactdp.atomic_io import write_atomic

        check_output_path(out)
        write_atomic(out, text, "-o")
    else:
        sys.stdout.write(text)


def envelope(command: str, result, **extra) -> dict:
    """The common JSON envelope: ``{"command", "version", "schema", "result", ...}``; ``schema`` names the
    file ``exactdp/schemas/<command>.json`` that describes the document."""
    from exactdp import __version__

    doc = {"command": command, "version": __version__, "schema": f"exactdp/schemas/{command}.json"}
    doc.update(extra)
    doc["result"] = result
    return doc


def to_json(doc) -> str:
    """The JSON text of ``doc``, valid UTF-8 whatever names it holds (:func:`exactdp.numbers.escape.json_dumps`)."""
    from exactdp.numbers.escape import json_dumps

    return json_dumps(doc, indent=2)


def emit_json(args, command: str, result, **extra) -> None:
    emit(args, to_json(envelope(command, result, **extra)))


# ---------------------------------------------------------------------------------------------- progress
class _NoProgress:
    def advance(self, k: int = 1) -> None:
        pass

    def update(self, **kw) -> None:
        pass


@contextmanager
def progress(args, total: int | None, description: str):
    """A ``rich`` progress bar (bar, count, elapsed time, ETA) on stderr; a no-op when stderr is not a
    terminal or with ``--no-progress``.  Yields an object with ``advance(k)`` and ``update(completed=…,
    total=…, description=…)``."""
    if getattr(args, "no_progress", False) or not sys.stderr.isatty():
        yield _NoProgress()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task(description, total=total)

        class _Handle:
            def advance(self, k: int = 1) -> None:
                bar.advance(task, k)

            def update(self, **kw) -> None:
                bar.update(task, **kw)

        yield _Handle()


class EngineProgress:
    """The verification engine's progress interface (``start(label)``, ``advance()``, ``close()``, ``total``)
    drawn by :func:`progress`."""

    def __init__(self, args, total: int, description: str = "verify"):
        self.total, self._args, self._description = total, args, description
        self._cm = None
        self._handle = _NoProgress()

    def __enter__(self):
        self._cm = progress(self._args, self.total, self._description)
        self._handle = self._cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc) if self._cm is not None else False

    def start(self, label: str) -> None:
        self._handle.update(total=self.total, description=f"{self._description} {label[:40]}")

    def advance(self) -> None:
        self._handle.advance(1)

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------------------------------- display
def terminal_width() -> int:
    """The width tables fit: the terminal's when stdout is one, else $COLUMNS, else 100."""
    import os

    if os.environ.get("COLUMNS", "").isdigit():
        return max(int(os.environ["COLUMNS"]), 40)
    if sys.stdout.isatty():
        return max(shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns, 40)
    return DEFAULT_WIDTH


def table(rows: list[list[str]], *, right=(), wrap=(), width: int | None = None) -> str:
    """A plain-text table (header, dashes, rows) fitted to ``width`` (default :func:`terminal_width`):
    every cell shown by :func:`exactdp.numbers.escape.terminal`; when too wide, the columns in ``wrap`` are
    narrowed (in the order listed, each to at least 12 characters) and their cells wrapped."""
    import textwrap

    from exactdp.numbers.escape import terminal

    rows = [[terminal(c) for c in r] for r in rows]  # cells are data (claim ids, titles)
    width = width or terminal_width()
    ncol = len(rows[0])
    widths = [max(len(str(r[k])) for r in rows) for k in range(ncol)]
    excess = sum(widths) + 2 * (ncol - 1) - width
    wrap = [k for k in wrap if k < ncol]
    for k in wrap:  # in the order given: the first listed column gives up its width first
        if excess <= 0:
            break
        floor = max(len(str(rows[0][k])), 12)
        cut = max(min(excess, widths[k] - floor), 0)
        widths[k] -= cut
        excess -= cut
    out = []
    for i, r in enumerate(rows):
        cells = [textwrap.wrap(str(c), widths[k], break_long_words=True, break_on_hyphens=False) or [""]
                 if len(str(c)) > widths[k] else [str(c)] for k, c in enumerate(r)]
        for line in range(max(len(c) for c in cells)):
            parts = []
            for k, c in enumerate(cells):
                s = c[line] if line < len(c) else ""
                parts.append(s.rjust(widths[k]) if k in right else s.ljust(widths[k]))
            out.append("  ".join(parts).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _group_digits(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _truncated_decimal(q, digits: int) -> str:
    """The decimal expansion of the rational ``q`` cut (not rounded) after ``digits`` significant digits,
    followed by ``…`` when digits were cut: every printed digit is exact (scientific notation below 10^-4
    and from 10^digits on)."""
    from exactdp.numbers.qq import to_qq

    q = to_qq(q)
    p, d = abs(int(q.p)), int(q.q)
    if p == 0:
        return "0"
    sign = "-" if q < 0 else ""
    e = len(str(p)) - len(str(d))  # 10^e <= p/d < 10^(e+1)
    if p * 10 ** max(0, -e) < d * 10 ** max(0, e):
        e -= 1
    shift = digits - 1 - e
    num, den = (p * 10 ** shift, d) if shift >= 0 else (p, d * 10 ** (-shift))
    mant, rest = divmod(num, den)
    m = str(mant)
    if -4 <= e < digits:
        whole, frac = (m[:e + 1], m[e + 1:]) if e >= 0 else ("0", "0" * (-e - 1) + m)
        if not rest:
            frac = frac.rstrip("0")
        body = whole + ("." + frac if frac else "")
    else:
        frac = m[1:] if rest else m[1:].rstrip("0")
        body = m[0] + ("." + frac if frac else "") + f"e{e:+d}"
        return sign + (body.replace("e", "…e", 1) if rest else body)
    return sign + body + ("…" if rest else "")


def abbreviate(value, digits: int = 12, width: int = MAX_SHOWN) -> str:
    """An exact value as text; a rational longer than ``width`` characters becomes a certified decimal
    (cut, never rounded) with its digit count, e.g. ``0.731058578630… (2 400 digits; exact value in
    --format json)``."""
    text = math_text(value)
    if len(text) <= width:
        return text
    try:
        from exactdp.numbers.qq import to_qq

        q = to_qq(value)
    except Exception:  # noqa: BLE001 - not a rational: correctly rounded certified digits
        return _abbreviate_real(value, text, digits)
    ndig = len(str(abs(int(q.p)))) + (len(str(int(q.q))) if q.q != 1 else 0)
    shown = _truncated_decimal(q, digits)
    if 0 < q < 1 and (1 - q) * 10**digits < 1:  # 0.999999999999…: show the complement's digits instead
        shown = f"1 - {_truncated_decimal(1 - q, digits)}"
    return f"{shown} ({_group_digits(ndig)} digits; exact value in --format json)"


def _abbreviate_real(value, text: str, digits: int) -> str:
    """A long exact real (``A - B·exp(1/2)`` with huge A, B): its correctly rounded certified digits and the
    size of the exact form; unchanged when it cannot be evaluated."""
    import sympy

    from exactdp.errors import ExactDPError
    from exactdp.numbers.digits import evalf

    if not isinstance(value, sympy.Basic) or value.free_symbols:
        return text
    try:
        shown = "≈ " + evalf(value, digits)
        if shown.replace(".", "").replace("≈ ", "").strip("0") == "1":  # 1.00000000000: the complement's digits
            shown = "1 - ≈ " + evalf(sympy.expand(1 - value), digits)
    except (ExactDPError, ValueError, TypeError):
        return text
    return f"{shown} (correctly rounded; exact form of {_group_digits(len(text))} characters in --format json)"


def math_text(value) -> str:
    """An exact value as mathematics for the terminal: the one text printer,
    :func:`exactdp.numbers.display.to_text` (relations cleared of denominators, ``·`` products, ``√``, ``^``;
    the printed text reads back into the same expression)."""
    from exactdp.numbers.display import to_text

    return to_text(value)


# ---------------------------------------------------------------------------------------------- formulas in lines
#: the symbols of a line rewritten for the terminal, token by token: a power, a product between two operands
#: (``t*(1 - c)``, not the ``*`` of "eps* is false"), the relations and a conjunction
_LINE_TOKENS = re.compile(r"\*\*|(?<=[\w)\]])\*(?=[\w(])|<=|>=|!=|(?<= )==(?= )|(?<= )&(?= )")
_LINE_SYMBOLS = {"**": "^", "*": "·", "<=": "≤", ">=": "≥", "!=": "≠", "==": "=", "&": "and"}


def math_line(line: str) -> str:
    """A line of the engine's text (a proof step, a derivation step) for the terminal: ``*`` between operands
    as ``·``, ``**`` as ``^``, relations as ``≤ ≥ ≠ =`` and ``&`` as ``and`` — symbol by symbol, outside quoted
    names.  Nothing is re-read, reordered or evaluated, so the screen states exactly the formula of the stored
    line (re-printing through sympy had turned "-delta + delta <= 0" into "0 ≤ 0" and "(t - 1)(1 - e)" into
    "t - 1(1 - e)"):

    >>> math_line("the conjecture reads eta_tv <= Min(1, (t - 1)/(t*(-N*c + 1) + 1))")
    'the conjecture reads eta_tv ≤ Min(1, (t - 1)/(t·(-N·c + 1) + 1))'
    >>> math_line("the statement with 0.22398 in place of eps* is false")  # prose, not a product
    'the statement with 0.22398 in place of eps* is false'
    >>> math_line("claim: 0 >= 0 on (t >= 1) & (c <= 1/2)")
    'claim: 0 ≥ 0 on (t ≥ 1) and (c ≤ 1/2)'
    """
    parts = re.split(r"('[^']*')", str(line))  # quoted names stay as they are
    return "".join(p if k % 2 else _LINE_TOKENS.sub(lambda m: _LINE_SYMBOLS[m.group(0)], p)
                   for k, p in enumerate(parts))
