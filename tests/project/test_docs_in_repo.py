"""The code cites only documents that are in the repository: the claims catalogue and the design notes are
docs/claims.md and docs/design.md, and no docstring or comment points to an issue tracker entry."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for d in ("exactdp", "proofs") for p in (ROOT / d).rglob("*.py"))


def test_the_cited_documents_are_in_the_repository():
    assert (ROOT / "docs" / "claims.md").is_file() and (ROOT / "docs" / "design.md").is_file()
    assert "## 0. Provenance" in (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")


def test_no_source_cites_a_document_outside_the_repository():
    outside = re.compile(r"(?<![\w/])(?:claims\.md|DESIGN\.md|design\.md)|shared/|\b[Ii]ssues? \d+")
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if outside.search(line)]
    assert hits == []
