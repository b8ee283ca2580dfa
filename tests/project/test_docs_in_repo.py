"""The code cites only documents that are in the repository: the claims catalogue and the design notes are
docs/claims.md and docs/design.md, and no docstring or comment points to an issue tracker entry.  No docstring
holds a measured time: it goes stale with the next change of the machine or the code; timings belong in
``benchmarks/`` and ``docs/speed.md`` (with the command that reproduces them), history in ``git log``."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for d in ("exactdp", "proofs") for p in (ROOT / d).rglob("*.py"))
#: every text file of the package and the proofs (schemas, templates, data as well as code)
TEXTS = [p for base in ("exactdp", "proofs") for p in sorted((ROOT / base).rglob("*"))
         if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".json", ".md", ".txt", ".html",
                                                                        ".tex", ".css", ".j2", ".jinja")]


def test_the_cited_documents_are_in_the_repository():
    assert (ROOT / "docs" / "claims.md").is_file() and (ROOT / "docs" / "design.md").is_file()
    assert "## 0. Provenance" in (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")


def test_no_source_cites_a_document_outside_the_repository():
    outside = re.compile(r"(?<![\w/])(?:claims\.md|DESIGN\.md|design\.md)|shared/|\b[Ii]ssues? \d+")
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if outside.search(line)]
    assert hits == []


_NUMBER = r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?[–-]\s?\d+(?:[.,]\d+)*)?"
#: a measured time: a number with a unit of time ("0.2 s", "2–5 ms", "30 µs", "17 s at n = 10⁴"), a vague one
#: ("a few seconds"), or a speed ratio ("10× slower", "(17×)"); "2×3 kernel" and "4 × max_prec" are not
TIMING = re.compile(_NUMBER + r"\s?(?:ms|µs|us|ns|s|secs?|seconds?|min|minutes?|hours?)\b"
                    r"|\b(?:a few|several)\s+(?:milli|micro)?seconds\b|"
                    + _NUMBER + r"\s?×\s*(?:slower|faster)\b|\(\s*[~≈]?\d+(?:\.\d+)?\s?×\s*\)", re.I)
#: a path of a document (Markdown, reStructuredText) as cited in prose
DOCUMENT = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:md|rst))\b")


def docstrings(path: Path):
    """(line, text) of every docstring and ``#:`` comment of a Python file."""
    text = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.body[0].lineno, doc
    for no, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith("#:"):
            yield no, line


def where(path: Path, line: int | None = None) -> str:
    return f"{path.relative_to(ROOT).as_posix()}" + (f":{line}" if line is not None else "")


def test_the_scan_reads_the_package():
    assert len(TEXTS) > 200 and ROOT / "exactdp" / "measures" / "tensor.py" in TEXTS


def test_no_docstring_holds_a_measured_time():
    found = [f"{where(p, no)}: {m.group(0)!r}" for p in SOURCES
             for no, doc in docstrings(p) for m in TIMING.finditer(doc)]
    assert not found, "timings belong in benchmarks/ and docs/speed.md:\n" + "\n".join(found)


def test_every_cited_document_is_in_the_repository():
    found = [f"{where(p)}: {m.group(1)}" for p in TEXTS for m in DOCUMENT.finditer(p.read_text(encoding="utf-8"))
             if not (ROOT / m.group(1)).is_file()]
    assert not found, "cite documents by their path in the repository (docs/claims.md, docs/design.md):\n" + \
        "\n".join(found)


@pytest.mark.parametrize("text, timing", [
    ("n = 10⁵ in ≈ 0.1 s).", True), ("about 2–5 ms at 100–200 bits", True), ("about 30 µs a slice", True),
    ("a random 512×512 kernel takes\n    a few seconds", True), ("is ~10× slower", True), ("8.4 s (32×)", True),
    ("17 s at n = 10⁴", True), ("a 2×3 kernel's maximizer", False), ("4 × ``max_prec``", False),
    ("the time limit, in seconds", False), ("N×2 witness kernels", False), ("up to 2× loose", False),
])
def test_the_timing_pattern(text, timing):
    assert bool(TIMING.search(text)) is timing


@pytest.mark.parametrize("text, cited", [
    ("see claims.md §7", "claims.md"), ("docs/claims.md D-2", "docs/claims.md"), ("DESIGN.md", "DESIGN.md"),
    ("the file x.json", None),
])
def test_the_document_pattern(text, cited):
    m = DOCUMENT.search(text)
    assert (m.group(1) if m else None) == cited
    assert (ROOT / "docs/claims.md").is_file() and not (ROOT / "claims.md").exists()



#: a Markdown link with a relative target, a file with a suffix and/or an anchor: [text](path.md#anchor); a
#: bracket followed by parentheses in mathematics ("[0, 1](1-Nc)") is not one
LINK = re.compile(r"\]\((?!https?:|mailto:)((?:[\w.-]+/)*[\w-]+\.\w+|)(?:#([\w-]+))?\)")


def anchors(text: str) -> set[str]:
    """GitHub's anchors of a Markdown document's headings (lower case, punctuation dropped, spaces to -)."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_every_link_of_the_readme_and_docs_resolves():
    """The README sends a newcomer to docs/; a moved section must not leave a dead link or anchor behind."""
    documents = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
    dead, links = [], 0
    for doc in documents:
        for target, anchor in LINK.findall(doc.read_text(encoding="utf-8")):
            links += 1
            path = (doc.parent / target).resolve() if target else doc
            if not path.is_file():
                dead.append(f"{doc.relative_to(ROOT)}: {target}")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path.read_text(encoding="utf-8")):
                dead.append(f"{doc.relative_to(ROOT)}: {target}#{anchor}")
    assert links >= 20 and not dead, dead


def test_the_anchor_rule():
    assert anchors("# x\n## What proved means here\n### Tensor powers (D = 1)\n") == {
        "x", "what-proved-means-here", "tensor-powers-d--1"}
    assert LINK.findall("see [x](speed.md#tensor-powers), [y](../ARCHITECTURE.md), [0, 1](1-Nc) and [z](#top)") == [
        ("speed.md", "tensor-powers"), ("../ARCHITECTURE.md", ""), ("", "top")]
