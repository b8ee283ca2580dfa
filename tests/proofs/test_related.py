"""Cross-references between claims are a field, not free text (issue 13, item 5): ``Claim.related`` lists
claim ids, each must name a registered claim, and every claim id written in a claim's own proof module
(docstring, statement, notes, reasons) is listed there — so a renamed or mistyped reference fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exactdp.verification.claims import load_all

PROOFS = Path(__file__).resolve().parents[2] / "proofs"
REGISTRY = load_all()
GROUPS = sorted({cid.split(".")[0] for cid in REGISTRY})
# a claim-id-shaped word: group.name (not part of a longer dotted name such as a module path)
ID_WORD = re.compile(r"(?<![\w.])((?:" + "|".join(GROUPS) + r")\.[a-z][a-z0-9_]*)(?![\w.])")


@pytest.mark.parametrize("cid", sorted(REGISTRY))
def test_related_ids_resolve(cid):
    claim = REGISTRY[cid]
    assert isinstance(claim.related, tuple)
    assert len(set(claim.related)) == len(claim.related), claim.related
    for ref in claim.related:
        assert ref != cid, f"{cid} refers to itself"
        assert ref in REGISTRY, f"{cid}: related {ref!r} is not a registered claim id"


@pytest.mark.parametrize("cid", sorted(REGISTRY))
def test_ids_written_in_a_claim_module_are_listed_in_related(cid):
    group, name = cid.split(".", 1)
    text = (PROOFS / group / f"{name}.py").read_text(encoding="utf-8")
    written = {m.group(1) for m in ID_WORD.finditer(text)} - {cid}
    unknown = sorted(w for w in written if w not in REGISTRY)
    assert not unknown, f"{cid}: its module names claims that do not exist: {unknown}"
    assert written <= set(REGISTRY[cid].related), f"{cid}: add to related: {sorted(written - set(REGISTRY[cid].related))}"


def test_ids_written_in_shared_modules_exist():
    """The shared ``_…`` modules (checks of several claims) may name claims too; each must exist."""
    for path in PROOFS.glob("*/_*.py"):
        if path.name == "__init__.py":
            continue
        unknown = sorted({m.group(1) for m in ID_WORD.finditer(path.read_text(encoding="utf-8"))} - set(REGISTRY))
        assert not unknown, f"{path.relative_to(PROOFS)}: {unknown}"


def test_show_prints_related():
    from exactdp.cli.show import format_result
    from exactdp.verification.claims import CheckContext
    from exactdp.verification.engine import run_claim

    out = format_result(run_claim(REGISTRY["findings.fa06_probabilistic_ldp"], CheckContext(quick=True)))
    assert "  related:    asoodeh2021.a01_privacy_loss" in out
