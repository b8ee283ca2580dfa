r"""The shell examples of the README and of docs/ run as transcripts: documentation that cannot drift.

Every fenced block of README.md and of every ``docs/*.md`` file opened with ```` ```console ```` is a transcript: a line ``$ exactdp ARGS``
(an optional trailing ``# comment`` is ignored) is run, and the lines after it, up to the next ``$`` line or
the end of the block, are its expected standard output.  Only ``exactdp`` commands are run (the text is
split with :mod:`shlex` and handed to :func:`exactdp.cli.main` in this process — never to a shell), in a
fresh temporary folder holding the example files below, with ``$COLUMNS`` unset (tables are 100 columns
wide) and stdout not a terminal (no progress bar).  The exit status must be 0 or 1 (1: a refuted
conjecture or a differing verdict); stderr (notes) is not compared.

Masking rules (applied to the expected and the actual text alike, so timings and paths never fail a run):

* a duration — a number followed by `` s`` (``in 0.338 s``, ``2.5 s``) — becomes ``<T> s``;
* the temporary folder's path becomes ``<TMP>``;
* trailing spaces are dropped from every line;
* an expected line that is exactly ``...`` matches any number of actual lines (a long output shown in part).

Example files in the folder: ``rr.json`` — binary randomized response with e^ε = 3,
``[["3/4", "1/4"], ["1/4", "3/4"]]``; ``kernel.json`` — the same kernel; ``rr.csv`` — the same kernel as a
CSV table with a header row and row labels (the README's "Analyse your own mechanism").
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from exactdp.cli import main

ROOT = Path(__file__).resolve().parents[2]
#: every Markdown document a reader is sent to: the README and docs/ (a new docs file is picked up by itself)
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FILES = {"rr.json": '[["3/4", "1/4"], ["1/4", "3/4"]]\n', "kernel.json": '[["3/4", "1/4"], ["1/4", "3/4"]]\n',
         "rr.csv": "input,y=0,y=1\nx=0,3/4,1/4\nx=1,1/4,3/4\n"}
DURATION = re.compile(r"\b\d+(?:\.\d+)? s\b")


def transcripts(text: str, where: str = "README.md") -> list[tuple[int, str, list[str]]]:
    """(line number, command, expected output lines) of every ``$`` line in the ```console blocks of the
    document ``where`` (named in the errors)."""
    out, block, lines = [], None, text.splitlines()
    for no, line in enumerate(lines, 1):
        if block is None:
            if line.strip() == "```console":
                block = []
            continue
        if line.strip() == "```":
            out += block
            block = None
        elif line.startswith("$ "):
            block.append((no, line[2:], []))
        elif block:
            block[-1][2].append(line)
        elif line.strip():
            raise AssertionError(f"{where}:{no}: a console block must start with a '$ ' line, got {line!r}")
    assert block is None, f"{where}: unterminated ```console block"
    return out


def mask(text: str, tmp: str) -> list[str]:
    text = text.replace(tmp, "<TMP>")
    return [DURATION.sub("<T> s", line).rstrip() for line in text.splitlines()]


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` equals ``actual``, an expected ``...`` line standing for any run of actual lines."""
    chunks, cur = [], []
    for line in expected:
        if line == "...":
            chunks.append(cur)
            cur = []
        else:
            cur.append(line)
    chunks.append(cur)
    if len(chunks) == 1:
        return expected == actual
    if actual[:len(chunks[0])] != chunks[0] or (chunks[-1] and actual[-len(chunks[-1]):] != chunks[-1]):
        return False
    pos, end = len(chunks[0]), len(actual) - len(chunks[-1])
    for chunk in chunks[1:-1]:
        for start in range(pos, end - len(chunk) + 1):
            if actual[start:start + len(chunk)] == chunk:
                pos = start + len(chunk)
                break
        else:
            return False
    return pos <= end


CASES = [(f"{doc.relative_to(ROOT).as_posix()}:{no}", command, expected) for doc in DOCUMENTS
         for no, command, expected in transcripts(doc.read_text(encoding="utf-8"), doc.relative_to(ROOT).as_posix())]

#: transcripts that cost tens of seconds (a synthesised proof for every N): run in the full suite, not the quick one
SLOW_COMMANDS = {'exactdp check "eta_hs(2) <= Min((exp(eps)-1)/(exp(eps)*(1-N*c)+1), 1)" --class pml --budget 40'}


def test_the_documents_have_transcripts():
    """The README keeps a few (the tour, your own mechanism, check, compose) and the moved ones run where
    they now live (docs/cli.md, docs/conjectures.md, docs/guide.md)."""
    where = {line.split(":")[0] for line, _, _ in CASES}
    assert {"README.md", "docs/cli.md", "docs/conjectures.md", "docs/guide.md"} <= where
    assert sum(line.startswith("README.md:") for line, _, _ in CASES) >= 4 and len(CASES) >= 12
    assert all(cmd.split()[0] == "exactdp" for _, cmd, _ in CASES)


@pytest.mark.parametrize("line, command, expected", [
    pytest.param(*case, id=case[0], marks=[pytest.mark.slow] if case[1] in SLOW_COMMANDS else []) for case in CASES])
def test_transcript(line, command, expected, tmp_path, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.chdir(tmp_path)
    for name, content in FILES.items():
        (tmp_path / name).write_text(content)
    argv = shlex.split(command, comments=True)
    assert argv[0] == "exactdp", f"{line}: only exactdp commands are run, got {argv[0]!r}"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv[1:])
    assert status in (0, 1), f"{line}: exit status {status}: {err.getvalue()}"
    tmp = str(tmp_path)
    actual, want = mask(out.getvalue(), tmp), mask("\n".join(expected), tmp)
    while want and not want[-1]:
        want.pop()
    assert matches(want, actual), (f"{line}: `{command}` printed\n" + "\n".join(actual)
                                   + "\n\nbut the document shows\n" + "\n".join(want))


def test_masking_and_ellipsis():
    assert mask("searched 2 kernels in 0.091 s, 12 s total  ", "/x") == ["searched 2 kernels in <T> s, <T> s total"]
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a", "...", "d"], ["a", "b"])
    assert matches(["a", "...", "c", "..."], ["a", "b", "c", "x"]) and not matches(["a", "b"], ["a", "b", "c"])
