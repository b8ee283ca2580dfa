"""Names are data in every output format: a kernel's name, a kernel file's name, a title reach LaTeX, HTML,
Markdown, SVG, JSON and the terminal only through the format's escaper (:mod:`exactdp.numbers.escape`).

The hostile names are the ones that broke the writers before: a LaTeX name that ``\\input`` a file and calls
``\\write18``, an ``<img onerror>`` name for a Markdown renderer that allows raw HTML, names with newlines,
ANSI escapes and a bidi override (U+202E) that spoof lines of the text output, and a file name with
non-UTF-8 bytes (lone surrogates after ``os.fsdecode``).  Every check is on the produced document itself:
parsed (``html.parser``, ``markdown-it-py`` with HTML on, ``json``, ``xml.etree``) or compiled
(``pdflatex -no-shell-escape``, skipped where pdflatex is not installed), compared with the document of a
harmless name, and searched for the name in its escaped form.  The fuzz targets feed random Unicode names
(controls, bidi, surrogates and the payloads' fragments) through the same writers.
"""

from __future__ import annotations

import html.parser
import json
import os
import shutil
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp import Kernel
from exactdp.cli import main, one_line
from exactdp.errors import InvalidKernelError, ParameterError
from exactdp.io import kernel_from_text
from exactdp.numbers import escape

ROOT = Path(__file__).resolve().parents[2]
PDFLATEX = shutil.which("pdflatex") and shutil.which("pdftotext")
needs_pdflatex = pytest.mark.skipif(not PDFLATEX, reason="needs pdflatex and pdftotext")

#: the issue's LaTeX payload: reads a file and runs a command under -shell-escape when not escaped
LATEX_PAYLOAD = "x\n\\input{/etc/hostname}\\immediate\\write18{touch PWNED}\n%"
#: the same as a file name (no "/"): \input of a file in the folder pdflatex runs in
LATEX_FILE_PAYLOAD = "x\n\\input{SECRETFILE}\\immediate\\write18{touch PWNED}\n%"
SECRET_MARKER = "SECRETMARKERQZX"
MARKDOWN_PAYLOAD = "<img src=x onerror=alert(1)>"
TERMINAL_PAYLOAD = "rr\nfake: line\r\x1b[2J\x1b[31m\u202eevil\u2066\u200f\u2028x"
SURROGATE_NAME = os.fsdecode(b"k\xff\xfe")  # a non-UTF-8 file name as Python sees it: 'k\udcff\udcfe'
PAYLOADS = [LATEX_PAYLOAD, LATEX_FILE_PAYLOAD, MARKDOWN_PAYLOAD, TERMINAL_PAYLOAD, SURROGATE_NAME,
            "a $\\frac{1}{0}$ b", "`code` *em* [link](http://x) www.example.com | # &amp; \\", "]x[ {y} ~^_"]
ROWS = [["3/4", "1/4"], ["1/4", "3/4"]]
#: the characters that must never reach a terminal raw (a newline only where the writer puts one)
HIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}


# ---------------------------------------------------------------------------------------------- helpers
def kernel_file(folder: Path, name: str, stem: str = "k") -> Path:
    """A kernel file whose ``"name"`` is ``name`` (JSON escapes carry any string, lone surrogates too)."""
    path = folder / f"{stem}.json"
    path.write_text(json.dumps({"name": name, "rows": ROWS}), encoding="ascii")
    return path


def analyze(path, fmt: str, out: Path, *extra: str) -> bytes:
    """``exactdp analyze PATH --format FMT -o OUT`` in this process; the bytes written."""
    assert main(["analyze", os.fspath(path), "--t", "2", "--format", fmt, "-o", os.fspath(out), *extra]) == 0
    return out.read_bytes()


class Elements(html.parser.HTMLParser):
    """Every start tag with its attribute names, and the text, of an HTML document."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.data: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(sorted(a for a, _ in attrs))))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.data.append(data)

    @property
    def text(self) -> str:
        return "".join(self.data)


def rendered_markdown(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table").render(text)


def raw_hidden(text: str, allowed: str = "\n") -> list[str]:
    return [c for c in text if unicodedata.category(c) in HIDDEN and c not in allowed]


LATEX_WRAPPER = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{amsmath,amssymb,booktabs}\n"
                 "\\begin{document}\n%s\n\\end{document}\n")


def pdflatex(folder: Path, tex: str) -> tuple[str, str]:
    """Compile ``tex`` in ``folder`` (holding ``SECRETFILE.tex``) with ``-no-shell-escape``; the log and the
    PDF's text.  The compile must succeed: the escaped document is valid LaTeX."""
    (folder / "SECRETFILE.tex").write_text(SECRET_MARKER + "\n")
    (folder / "doc.tex").write_text(tex, encoding="utf-8")
    res = subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                         cwd=folder, capture_output=True, timeout=120, check=False)
    log = (folder / "doc.log").read_text(encoding="latin-1")
    assert res.returncode == 0, log[-3000:]
    pdf = subprocess.run(["pdftotext", "doc.pdf", "-"], cwd=folder, capture_output=True, timeout=60, check=True)
    return log, pdf.stdout.decode("utf-8", "replace")


def assert_inert_latex(folder: Path, log: str, pdf_text: str) -> None:
    """No file was read but the document, nothing was run or written."""
    assert SECRET_MARKER not in pdf_text
    assert "(./SECRETFILE" not in log and "(/etc/hostname" not in log
    assert "runsystem" not in log
    assert not (folder / "PWNED").exists()


# ---------------------------------------------------------------------------------------------- the escapers
def test_visible_shows_every_hidden_character_escaped():
    assert escape.visible(TERMINAL_PAYLOAD) == "rr\\nfake: line\\r\\x1b[2J\\x1b[31m\\u202eevil\\u2066\\u200f\\u2028x"
    assert escape.visible(SURROGATE_NAME) == "k\\udcff\\udcfe"
    assert escape.visible("a\nb\tc", keep="\n") == "a\nb\\tc"
    assert escape.visible("ε ≤ δ — ok") == "ε ≤ δ — ok"  # printable text is unchanged
    assert escape.visible("\U000e0001") == "\\U000e0001"  # a tag character (format) beyond the BMP


def test_latex_text_leaves_no_command_comment_or_line_end():
    tex = escape.latex_text(LATEX_PAYLOAD)
    assert "\\input" not in tex and "\\immediate" not in tex and "\\write18" not in tex
    assert "\n" not in tex and "%" not in tex.replace("\\%", "")
    assert tex == ("x \\textbackslash{}input\\{/\\allowbreak{}etc/\\allowbreak{}hostname\\}\\textbackslash{}immediate"
                   "\\textbackslash{}write18\\{touch PWNED\\} \\%")
    assert escape.latex_text("[G] \\catcode`\\%=12 \x00\x7f\u202e") == \
        "{[}G{]} \\textbackslash{}catcode`\\textbackslash{}\\%=12 \\texttt{U+0000}\\texttt{U+007F}\\texttt{U+202E}"


def test_latex_comment_is_one_line_of_printable_ascii():
    line = escape.latex_comment(LATEX_PAYLOAD + TERMINAL_PAYLOAD + SURROGATE_NAME + "é")
    assert line.isascii() and line.isprintable()
    assert line.startswith("x\\n\\input{/etc/hostname}") and line.endswith("k\\udcff\\udcfe\\xe9")


def test_html_escapes_text_and_attribute_contexts():
    for payload in PAYLOADS:
        for doc in (f"<p>{escape.html(payload)}</p>", f'<p title="{escape.html(payload)}">x</p>',
                    f"<p title='{escape.html(payload)}'>x</p>"):
            parsed = Elements(doc)
            assert parsed.tags == [("p", ("title",) if "title" in doc else ())]
    assert escape.html('"\'<>&') == "&quot;&#x27;&lt;&gt;&amp;"


def test_markdown_name_renders_as_exactly_its_text():
    for payload in PAYLOADS:
        out = rendered_markdown(f"**{escape.markdown(payload)}** and text\n")
        parsed = Elements(out)
        assert parsed.tags == [("p", ()), ("strong", ())], (payload, out)
        assert parsed.text == f"{escape.visible(payload)} and text\n"


def test_mathtext_escapes_dollars():
    assert escape.mathtext("a $\\frac{1}{0}$ b\n") == "a \\$\\frac{1}{0}\\$ b\\n"


def test_json_dumps_is_utf8_and_round_trips_surrogates():
    doc = {"name": SURROGATE_NAME + TERMINAL_PAYLOAD, SURROGATE_NAME: [SURROGATE_NAME]}
    text = escape.json_dumps(doc, indent=2)
    assert json.loads(text.encode("utf-8").decode("utf-8")) == doc
    with pytest.raises(UnicodeEncodeError):  # what it replaces: json.dumps alone cannot be written as UTF-8
        json.dumps(doc, ensure_ascii=False).encode("utf-8")


# ---------------------------------------------------------------------------------------------- names: the schema
@pytest.mark.parametrize("bad", ["[1, 2]", "5", "null", "{\"a\": 1}", "true"])
def test_kernel_file_name_must_be_a_string(bad):
    with pytest.raises(InvalidKernelError, match=r'"name" must be a string \(exactdp/schemas/kernel.json\)'):
        kernel_from_text(f'{{"rows": [["1"]], "name": {bad}}}')


def test_kernel_name_must_be_a_string_in_python():
    with pytest.raises(ParameterError, match="name: a kernel's name must be a string, got list"):
        Kernel(ROWS, name=["a"])
    with pytest.raises(ParameterError, match="got int"):
        Kernel(ROWS).with_name(3)
    assert Kernel(ROWS, name="ok").name == "ok"


def test_derive_file_name_must_be_a_string(tmp_path):
    from exactdp.symbolic.derive import parametric_kernel_from_json

    with pytest.raises(InvalidKernelError, match='"name" must be a string'):
        parametric_kernel_from_json('{"rows": [["1-p", "p"]], "parameters": {"p": "positive"}, "name": [1]}')


@pytest.mark.parametrize("bad", ["a`b", "x<img src=x>", "a\nb", "a b", "", "\\input", "a\u202e", ".x", 5])
def test_claim_ids_are_inert_by_construction(bad):
    import dataclasses

    from exactdp.verification.claims import REGISTRY, load_all, register

    load_all()
    before = dict(REGISTRY)
    with pytest.raises(ValueError, match="claim id .*: not of the form"):
        register(dataclasses.replace(next(iter(REGISTRY.values())), id=bad))
    assert REGISTRY == before


def test_cli_refuses_a_list_name_in_one_line(tmp_path, capsys):
    path = tmp_path / "k.json"
    path.write_text('{"name": ["a", "b"], "rows": [["1"]]}')
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and '"name" must be a string' in err


# ---------------------------------------------------------------------------------------------- every writer
@needs_pdflatex
def test_latex_payloads_are_inert_under_pdflatex(tmp_path):
    """The acceptance case: the LaTeX of ``analyze`` for the payload names (in the file and as the file's
    name) and ``derive --format latex`` for a file named by the payload compile and read no file."""
    snippets = [analyze(kernel_file(tmp_path, p, f"k{i}"), "latex", tmp_path / f"o{i}.tex").decode("utf-8")
                for i, p in enumerate(PAYLOADS)]
    named = tmp_path / f"{LATEX_FILE_PAYLOAD}.json"
    named.write_text(json.dumps({"rows": ROWS}))
    snippets.append(analyze(named, "latex", tmp_path / "named.tex").decode("utf-8"))
    for s in snippets:
        first, _ = s.split("\n", 1)
        assert first.startswith("% exactdp: ") and first.isascii() and first.isprintable()
    log, text = pdflatex(tmp_path, LATEX_WRAPPER % "\n".join(snippets))
    assert_inert_latex(tmp_path, log, text)
    assert "\\input{/etc/hostname}\\immediate\\write18{touch" in text  # the name is printed, as text
    assert "<img src=x onerror=alert(1)>" in text


@needs_pdflatex
def test_derive_latex_of_a_hostile_file_name_is_inert(tmp_path):
    named = tmp_path / f"{LATEX_FILE_PAYLOAD}{MARKDOWN_PAYLOAD}.json"
    named.write_text(json.dumps({"rows": [["1-p", "p"], ["p", "1-p"]], "parameters": {"p": "positive"},
                                 "region": ["p <= 1/2"]}))
    out = tmp_path / "derive.tex"
    assert main(["derive", "--file", str(named), "--quantity", "eta_tv", "--format", "latex", "-o", str(out)]) == 0
    log, text = pdflatex(tmp_path, out.read_text(encoding="utf-8"))
    assert_inert_latex(tmp_path, log, text)
    assert "\\input{SECRETFILE}" in text


@needs_pdflatex
def test_the_harness_detects_an_input(tmp_path):
    """The checks above can fail: an unescaped ``\\input`` is seen in the PDF text and in the log."""
    log, text = pdflatex(tmp_path, LATEX_WRAPPER % "before \\input{SECRETFILE} after")
    assert SECRET_MARKER in text and "(./SECRETFILE" in log


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_has_no_element_from_the_name(tmp_path, payload):
    """The acceptance case: ``analyze --format markdown`` rendered by a CommonMark renderer with raw HTML on
    has the elements of a harmless name's document, and the name as its text."""
    benign = rendered_markdown(analyze(kernel_file(tmp_path, "K", "b"), "markdown", tmp_path / "b.md").decode())
    doc = analyze(kernel_file(tmp_path, payload), "markdown", tmp_path / "o.md").decode("utf-8")
    parsed = Elements(rendered_markdown(doc))
    assert parsed.tags == Elements(benign).tags
    assert f"exactdp analyze: {escape.visible(payload)} (2 inputs x 2 outputs)" in parsed.text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_html_has_no_element_from_the_name(tmp_path, payload):
    benign = analyze(kernel_file(tmp_path, "K", "b"), "html", tmp_path / "b.html").decode()
    doc = analyze(kernel_file(tmp_path, payload), "html", tmp_path / "o.html").decode("utf-8")
    parsed = Elements(doc)
    assert parsed.tags == Elements(benign).tags
    assert f"exactdp analyze: {escape.visible(payload)} (2 inputs x 2 outputs)" in parsed.text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_json_is_utf8_and_keeps_the_name(tmp_path, payload):
    doc = json.loads(analyze(kernel_file(tmp_path, payload), "json", tmp_path / "o.json").decode("utf-8"))
    assert doc["result"]["name"] == payload


@pytest.mark.parametrize("payload", PAYLOADS)
def test_text_output_shows_the_name_escaped(tmp_path, payload):
    benign = analyze(kernel_file(tmp_path, "K", "b"), "text", tmp_path / "b.txt").decode()
    text = analyze(kernel_file(tmp_path, payload), "text", tmp_path / "o.txt").decode("utf-8")
    assert not raw_hidden(text)
    assert text.count("\n") == benign.count("\n")
    assert text.startswith(f"{escape.visible(payload)}: 2 inputs x 2 outputs (QQ)\n")


def test_rich_display_of_a_hostile_name():
    for payload in PAYLOADS:
        K = Kernel(ROWS, name=payload)
        assert Elements(K._repr_html_()).tags == Elements(Kernel(ROWS, name="K")._repr_html_()).tags
        md = Elements(rendered_markdown(K._repr_markdown_()))
        assert md.tags == Elements(rendered_markdown(Kernel(ROWS, name="K")._repr_markdown_())).tags
        assert md.text.startswith(escape.visible(payload) + " (2×2, QQ)")
        shown = str(K)
        assert not raw_hidden(shown) and shown.startswith(escape.visible(payload) + " (2×2, QQ)\n")


def test_error_lines_show_hidden_characters_escaped(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / f"{TERMINAL_PAYLOAD}.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not raw_hidden(err)
    assert one_line("a\x1b[2Jb \u202ec\nd") == "a\\x1b[2Jb \\u202ec d"


def test_check_echoes_the_conjecture_on_one_line(capsys):
    """A conjecture the reader accepts may hold line ends (white space): the text report shows them escaped."""
    assert main(["check", "eta_tv <=\n\n 1", "--N", "2", "--M", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.split("\n")[:2] == ["conjecture: eta_tv <=\\n\\n 1", "classes:    ldp"]


def test_recheck_text_shows_a_crafted_certificate_escaped(tmp_path, capsys):
    """``recheck DIR``: a certificate's name and kind and its file's name come from the folder, not from
    exactdp; the report keeps one line per certificate and its reason, with nothing raw."""
    folder = tmp_path / "certs"
    folder.mkdir()
    (folder / "c\x1b[31m\nx.json").write_text(json.dumps({"name": "evil\nOK       fake\x1b[2J\u202e",
                                                            "kind": "bo\ngus\x1b[31m"}))
    assert main(["recheck", str(folder)]) == 1
    lines = capsys.readouterr().out.split("\n")
    assert lines[0].startswith("REJECTED index")  # no index.json: filed under no claim
    k = lines.index("REJECTED bo\\ngus\\x1b[31m      evil\\nOK       fake\\x1b[2J\\u202e  "
                    "[c\\x1b[31m\\nx.json]")
    assert lines[k + 1].startswith("         rejected: unknown kind 'bo\\ngus\\x1b[31m'")
    assert any(x.startswith("2 certificates: 0 OK") for x in lines) and not raw_hidden("\n".join(lines))


def test_svg_title_is_text_not_mathtext(tmp_path):
    """A name (or ``--title``) with ``$…$`` is printed as it is: no mathtext is parsed (a malformed formula
    would fail the plot), the SVG is well-formed and holds no element a harmless title does not."""
    tags = {}
    for key, title in (("benign", "K"), ("hostile", "a $\\frac{1}{$ <script>x</script> \u202e\x1b\n %")):
        out = tmp_path / f"{key}.svg"
        assert main(["plot", "profile", str(kernel_file(tmp_path, "K")), "--title", title, "-o", str(out)]) == 0
        tags[key] = {el.tag for el in ET.parse(out).iter()}
    assert tags["hostile"] <= tags["benign"]


# ---------------------------------------------------------------------------------------------- a real process
def test_acceptance_terminal_and_non_utf8_file_names(tmp_path):
    """The installed command in its own process: a file named with a newline, ANSI escapes and U+202E prints
    its name escaped (no extra line, no raw control character); a non-UTF-8 file name gives valid UTF-8 JSON
    and text."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    hostile = os.fsencode(tmp_path) + b"/rr\nfake\x1b[2J\x1b[31m\xe2\x80\xaeevil.json"
    nonutf8 = os.fsencode(tmp_path) + b"/k\xff\xfe.json"
    for path in (hostile, nonutf8):
        with open(path, "w") as fh:
            json.dump(ROWS, fh)
    cmd = [sys.executable, "-m", "exactdp", "analyze"]
    text = subprocess.run(cmd + [hostile], capture_output=True, env=env, timeout=120, check=True).stdout
    first = text.decode("utf-8").split("\n")[0]
    assert first == "rr\\nfake\\x1b[2J\\x1b[31m\\u202eevil: 2 inputs x 2 outputs (QQ)"
    assert not raw_hidden(text.decode("utf-8"))
    res = subprocess.run(cmd + [nonutf8, "--format", "json"], capture_output=True, env=env, timeout=120, check=True)
    assert json.loads(res.stdout.decode("utf-8"))["result"]["name"] == "k\udcff\udcfe"  # strict UTF-8


def test_non_utf8_file_name_in_every_format(tmp_path):
    """The other formats of a file named with non-UTF-8 bytes (run in this process: same writers)."""
    path = tmp_path / f"{SURROGATE_NAME}.json"
    with open(os.fsencode(path), "w") as fh:
        json.dump(ROWS, fh)
    shown = {"text": "k\\udcff\\udcfe: 2 inputs",
             "markdown": "### exactdp analyze: k\\\\udcff\\\\udcfe (2",
             "latex": "analyze: k\\texttt{U+DCFF}\\texttt{U+DCFE} (2",
             "html": "<h3>exactdp analyze: k\\udcff\\udcfe (2"}
    for fmt, expected in shown.items():
        assert expected in analyze(path, fmt, tmp_path / f"o.{fmt}").decode("utf-8")  # strict UTF-8


# ---------------------------------------------------------------------------------------------- fuzz targets
#: characters the fuzz names are built from: any code point (with controls, bidi and format characters),
#: lone surrogates, and fragments of every payload
_FRAGMENTS = ["\\input{SECRETFILE}", "\\immediate\\write18{touch PWNED}", "%", "\n", "$", "\\", "{", "}", "[", "]",
              "<img src=x onerror=alert(1)>", "<script>", "&amp;", "`", "*", "_", "|", "#", "\x1b[31m", "\u202e",
              "\u2066", "\u200e", "\r", "\t", "\x00", "\x7f", "\x85", "\u2028", "http://x", "$\\frac{1}{$"]
NAMES = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.characters(),
                           st.integers(0xDC80, 0xDCFF).map(chr),
                           st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Zs"])),
                 min_size=1, max_size=12).map("".join)
FUZZ = settings(max_examples=4, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _fuzz_text(folder: Path, name: str) -> None:
    text = analyze(kernel_file(folder, name), "text", folder / "o.txt").decode("utf-8")
    assert not raw_hidden(text) and text.count("\n") == 13
    assert text.startswith(f"{escape.visible(name)}: 2 inputs x 2 outputs (QQ)\n")
    shown = str(Kernel(ROWS, name=name))
    assert not raw_hidden(shown) and shown.count("\n") == 2


def _fuzz_json(folder: Path, name: str) -> None:
    doc = json.loads(analyze(kernel_file(folder, name), "json", folder / "o.json").decode("utf-8"))
    assert doc["result"]["name"] == name


_BENIGN: dict[str, list] = {}


def _benign_tags(folder: Path, fmt: str) -> list:
    if fmt not in _BENIGN:
        doc = analyze(kernel_file(folder, "K", "benign"), fmt, folder / f"benign.{fmt}").decode("utf-8")
        _BENIGN[fmt] = Elements(doc if fmt == "html" else rendered_markdown(doc)).tags
    return _BENIGN[fmt]


def _fuzz_html(folder: Path, name: str) -> None:
    parsed = Elements(analyze(kernel_file(folder, name), "html", folder / "o.html").decode("utf-8"))
    assert parsed.tags == _benign_tags(folder, "html")
    assert f"exactdp analyze: {escape.visible(name)} (2 inputs" in parsed.text
    assert Elements(Kernel(ROWS, name=name)._repr_html_()).tags == Elements(Kernel(ROWS)._repr_html_()).tags


def _fuzz_markdown(folder: Path, name: str) -> None:
    doc = analyze(kernel_file(folder, name), "markdown", folder / "o.md").decode("utf-8")
    parsed = Elements(rendered_markdown(doc))
    assert parsed.tags == _benign_tags(folder, "markdown")
    assert f"exactdp analyze: {escape.visible(name)} (2 inputs" in parsed.text
    rich = Elements(rendered_markdown(Kernel(ROWS, name=name)._repr_markdown_()))
    assert rich.tags == Elements(rendered_markdown(Kernel(ROWS, name="K")._repr_markdown_())).tags


def _fuzz_svg(folder: Path, name: str) -> None:
    out = folder / "o.svg"
    assert main(["plot", "profile", str(kernel_file(folder, name)), "-o", str(out)]) == 0
    assert {el.tag for el in ET.parse(out).iter()} <= {el.tag for el in ET.parse(_benign_svg(folder)).iter()}


def _benign_svg(folder: Path) -> Path:
    out = folder / "benign.svg"
    if not out.exists():
        assert main(["plot", "profile", str(kernel_file(folder, "K", "benign")), "-o", str(out)]) == 0
    return out


def _fuzz_latex(folder: Path, names: list[str]) -> None:
    from exactdp.output.latex import texttt

    snippets = []
    for i, name in enumerate(names):
        s = analyze(kernel_file(folder, name, f"k{i}"), "latex", folder / f"o{i}.tex").decode("utf-8")
        assert s.split("\n", 1)[0].isascii() and s.split("\n", 1)[0].isprintable()
        snippets += [s, texttt(name) + "\\par"]
    for stale in ("doc.pdf", "doc.log", "PWNED"):
        (folder / stale).unlink(missing_ok=True)
    log, text = pdflatex(folder, LATEX_WRAPPER % "\n".join(snippets))
    assert_inert_latex(folder, log, text)


FORMATS = {"text": _fuzz_text, "json": _fuzz_json, "html": _fuzz_html, "markdown": _fuzz_markdown,
           "svg": _fuzz_svg, "latex": _fuzz_latex}
#: examples per run: a quick run (a figure costs about a second, a pdflatex run about as much for a list of
#: names) and the ``slow`` one
EXAMPLES = {"quick": {"svg": 2, "latex": 2, "other": 4}, "many": {"svg": 20, "latex": 25, "other": 150}}


@pytest.mark.filterwarnings("ignore:Glyph .* missing from font")  # a random code point matplotlib cannot draw
@pytest.mark.parametrize("size", ["quick", pytest.param("many", marks=pytest.mark.slow)])
@pytest.mark.parametrize("fmt", [*sorted(set(FORMATS) - {"latex"}), pytest.param("latex", marks=needs_pdflatex)])
def test_fuzz_names(tmp_path, fmt, size):
    """Random Unicode names through the writer of ``fmt`` (LaTeX: a list of names in one compiled document)."""
    _BENIGN.clear()
    names = st.lists(NAMES, min_size=4, max_size=8) if fmt == "latex" else NAMES

    @settings(FUZZ, max_examples=EXAMPLES[size].get(fmt, EXAMPLES[size]["other"]))
    @given(name=names)
    def check(name):
        FORMATS[fmt](tmp_path, name)

    check()
