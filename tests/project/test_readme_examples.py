"""The Python blocks of the README and of docs/ are doctests: every example a reader copies must print what
the document says."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: every Markdown document a reader is sent to: the README and docs/ (a new docs file is picked up by itself)
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: (document, index, block) of every ```python block holding an example (a ``>>>`` line); a sketch of code
#: without one (docs/design.md) is prose, not an example
BLOCKS = [(doc.relative_to(ROOT).as_posix(), i, block) for doc in DOCUMENTS
          for i, block in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S))
          if ">>>" in block]


def test_the_readme_stays_a_readme():
    """The README is the first page a researcher reads: at most 250 lines (issue 23 item 7: reference material
    belongs in docs/, linked)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move material to docs/"


def test_the_documents_have_examples():
    where = {doc for doc, _, _ in BLOCKS}
    assert {"README.md", "docs/guide.md", "docs/tensorization.md"} <= where
    assert sum(doc == "README.md" for doc, _, _ in BLOCKS) >= 5


@pytest.mark.parametrize("doc, index, block", BLOCKS, ids=[f"{d}:block{i}" for d, i, _ in BLOCKS])
def test_readme_block(doc, index, block):
    test = doctest.DocTestParser().get_doctest(block, {}, f"{doc} block {index}", str(ROOT / doc), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
