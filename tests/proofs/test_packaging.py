"""Packaging of the proof documents (issue 13, item 5) and claim discovery by registration (item 4).

The repository keeps the proof modules in the top-level ``proofs/`` folder; they install as the package
``exactdp_proofs`` (so ``pip install .`` adds no generic top-level ``proofs``), and the verification engine
finds them through the ``exactdp.claims`` entry-point group, never by importing them itself.
"""

from __future__ import annotations

import filecmp
import re
import tomllib
from pathlib import Path

import pytest

from exactdp.errors import ParameterError
from exactdp.verification import claims as claims_mod

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _package_folders(folder: str, name: str) -> set[str]:
    base = ROOT / folder
    return {".".join([name, *p.parent.relative_to(base).parts]) for p in base.rglob("__init__.py")
            if "__pycache__" not in p.parts}


def test_package_list_covers_every_package_folder():
    """The explicit package list (packages.find cannot rename proofs/) names every package folder."""
    expected = _package_folders("exactdp", "exactdp") | _package_folders("proofs", "exactdp_proofs")
    assert set(SETUPTOOLS["packages"]) == expected


def test_proofs_install_under_the_project_name():
    assert SETUPTOOLS["package-dir"] == {"exactdp_proofs": "proofs"}
    assert not any(p == "proofs" or p.startswith("proofs.") for p in SETUPTOOLS["packages"])


def test_claims_are_registered_by_entry_point():
    group = PYPROJECT["project"]["entry-points"][claims_mod.ENTRY_POINT_GROUP]
    assert set(group.values()) == {"exactdp_proofs"}
    assert claims_mod.DEFAULT_CLAIM_PACKAGES == ("exactdp_proofs",)
    assert "exactdp_proofs" in claims_mod.claim_packages()


def test_imported_proofs_are_the_repository_folder():
    """The importable ``exactdp_proofs`` is this checkout's ``proofs/`` (editable install) or an identical
    copy of it (``pip install .`` of this checkout): a stale install cannot silently shadow the folder."""
    import exactdp_proofs

    installed = Path(exactdp_proofs.__file__).resolve().parent
    if installed == (ROOT / "proofs").resolve():
        return
    differ = [str(p.relative_to(ROOT / "proofs")) for p in (ROOT / "proofs").rglob("*.py")
              if "__pycache__" not in p.parts
              and not filecmp.cmp(p, installed / p.relative_to(ROOT / "proofs"), shallow=False)
              if (installed / p.relative_to(ROOT / "proofs")).exists()]
    missing = [str(p.relative_to(ROOT / "proofs")) for p in (ROOT / "proofs").rglob("*.py")
               if "__pycache__" not in p.parts and not (installed / p.relative_to(ROOT / "proofs")).exists()]
    assert not differ and not missing, (f"the installed exactdp_proofs ({installed}) is not this checkout's "
                                        f"proofs/: reinstall (pip install .); differ {differ}, missing {missing}")


_IMPORT_PROOFS = re.compile(r"^\s*(from|import)\s+(proofs|exactdp_proofs)\b", re.MULTILINE)


@pytest.mark.parametrize("folder", ["exactdp", "proofs", "tests", "benchmarks"])
def test_nothing_imports_proofs_by_its_folder_name_and_the_library_not_at_all(folder):
    """The library finds claims by registration (no import of the documents); proof modules import each
    other relatively; nothing imports the folder name ``proofs`` (it would register every claim twice)."""
    bad = []
    for p in (ROOT / folder).rglob("*.py"):
        for m in _IMPORT_PROOFS.finditer(p.read_text(encoding="utf-8")):
            if m.group(2) == "proofs" or folder in ("exactdp", "proofs"):
                bad.append(f"{p.relative_to(ROOT)}: {m.group(0).strip()}")
    assert not bad


def test_the_engine_is_given_the_claim_packages():
    from exactdp.verification.engine import select_claims

    ids = [c.id for c in select_claims(["findings"], packages=("exactdp_proofs.findings",))]
    assert ids and all(i.startswith("findings.") for i in ids)
    with pytest.raises(ParameterError):
        claims_mod.load_all(("exactdp_no_such_claims",))
    with pytest.raises(ParameterError):
        claims_mod.load_all(("exactdp_proofs.grosse2026.thm2",))  # a module, not a package
