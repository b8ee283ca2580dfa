"""The package is mypy-clean: ``python -m mypy`` with the [tool.mypy] section of pyproject.toml (``files``:
the whole package; numbers/ strictly), and it ships ``py.typed`` so that users' type checkers read it."""

import importlib.util
import subprocess
import tomllib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is in the test extra")


def _mypy(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_typed_packages_pass_mypy(tmp_path):
    r = _mypy(cache=tmp_path / "cache")
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-1000:]
    assert "Success" in r.stdout


def test_the_check_can_fail(tmp_path):
    """A type error is reported with the same configuration: the check is not vacuous."""
    bad = tmp_path / "bad.py"
    bad.write_text("from exactdp.kernels import Kernel\n\nn: str = Kernel([[1]]).N\n")
    r = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(bad), cache=tmp_path / "cache")
    assert r.returncode != 0 and "Incompatible types" in r.stdout, r.stdout + r.stderr


def test_py_typed_is_shipped():
    """PEP 561: the marker file exists and is package data (installed with the package)."""
    assert (ROOT / "exactdp" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["exactdp"]
    assert config["tool"]["mypy"]["files"] == ["exactdp"]
