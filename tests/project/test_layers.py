"""The layer contract of pyproject.toml holds (import-linter): no module imports from a higher layer."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter is in the test extra")
def test_layer_contract_is_kept():
    r = subprocess.run(["lint-imports", "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-1000:]
    assert "1 kept, 0 broken" in r.stdout


def test_the_contract_can_fail(tmp_path):
    """An upward import (numbers importing measures) is reported: the check is not vacuous."""
    if shutil.which("lint-imports") is None:
        pytest.skip("import-linter is in the test extra")
    config = tmp_path / "contract.toml"
    config.write_text('[tool.importlinter]\nroot_package = "exactdp"\n[[tool.importlinter.contracts]]\n'
                      'name = "inverted"\ntype = "layers"\ncontainers = ["exactdp"]\n'
                      'layers = ["numbers", "measures"]\n')
    r = subprocess.run(["lint-imports", "--no-cache", "--config", str(config)], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode != 0 and "BROKEN" in r.stdout
