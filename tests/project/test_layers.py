"""The layer contract of pyproject.toml holds (import-linter): no module imports from a higher layer.

import-linter runs through this interpreter (``sys.executable``), not a ``lint-imports`` script found on
PATH: a venv's python run without activating the venv would otherwise skip the check and stay green.  It is
in the ``test`` extra, so a missing import-linter fails the test instead of skipping it.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_RUN = ("import sys\nfrom importlinter.cli import lint_imports\n"
        "sys.exit(lint_imports(config_filename=sys.argv[1] if len(sys.argv) > 1 else None, no_cache=True))")


def _lint(*config: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _RUN, *config], cwd=ROOT, capture_output=True, text=True)


def test_import_linter_is_installed():
    """The check below cannot be skipped: import-linter must be importable by this interpreter."""
    r = subprocess.run([sys.executable, "-c", "import importlinter.cli"], capture_output=True, text=True)
    assert r.returncode == 0, "import-linter (test extra) is not installed for " + sys.executable + "\n" + r.stderr


def test_layer_contract_is_kept():
    r = _lint()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-1000:]
    assert "1 kept, 0 broken" in r.stdout


def test_the_contract_can_fail(tmp_path):
    """An upward import (numbers importing measures) is reported: the check is not vacuous."""
    config = tmp_path / "contract.toml"
    config.write_text('[tool.importlinter]\nroot_package = "exactdp"\n[[tool.importlinter.contracts]]\n'
                      'name = "inverted"\ntype = "layers"\ncontainers = ["exactdp"]\n'
                      'layers = ["numbers", "measures"]\n')
    r = _lint(str(config))
    assert r.returncode != 0 and "BROKEN" in r.stdout
