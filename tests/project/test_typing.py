"""The package is mypy-clean: ``python -m mypy`` with the [tool.mypy] section of pyproject.toml (``files``:
the whole package; numbers/, algebra/ and measures/ strictly), and it ships ``py.typed`` so that users' type
checkers read it.  mypy is in the ``test`` extra: a missing mypy fails the check instead of skipping it."""

import importlib.util
import subprocess
import tomllib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_is_installed():
    """The checks below cannot be skipped: mypy must be importable by this interpreter."""
    assert importlib.util.find_spec("mypy") is not None, "mypy (test extra) is not installed for " + sys.executable


def _mypy(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory) -> Path:
    """One incremental cache for both runs below (same configuration): the second re-reads the package's
    results instead of type-checking exactdp again; mypy's incremental mode gives the same diagnostics."""
    return tmp_path_factory.mktemp("mypy-cache")


@pytest.mark.slow
def test_typed_packages_pass_mypy(mypy_cache):
    r = _mypy(cache=mypy_cache)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-1000:]
    assert "Success" in r.stdout


def test_the_check_can_fail(tmp_path, mypy_cache):
    """A type error is reported with the same configuration: the check is not vacuous."""
    bad = tmp_path / "bad.py"
    bad.write_text("from exactdp.kernels import Kernel\n\nn: str = Kernel([[1]]).N\n")
    r = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(bad), cache=mypy_cache)
    assert r.returncode != 0 and "Incompatible types" in r.stdout, r.stdout + r.stderr


#: the measures/ modules not yet in the strict override: none left (the tensor search's seven became strict,
#: issue 22 item 7); the set may only shrink (a module named here must exist and must not be strict already)
NOT_YET_STRICT: frozenset[str] = frozenset()


def test_the_strict_modules_are_checked_strictly():
    """Every numbers/, every algebra/ and every measures/ module (but :data:`NOT_YET_STRICT`, now empty) is in the
    strict override (mypy --strict's per-module flags)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    strict = next(o for o in config["tool"]["mypy"]["overrides"] if o.get("disallow_untyped_defs"))
    numbers = {f"exactdp.numbers.{p.stem}" for p in (ROOT / "exactdp" / "numbers").glob("*.py") if p.stem != "__init__"}
    assert "exactdp.numbers.linalg" in numbers and numbers <= set(strict["module"]), sorted(numbers - set(strict["module"]))
    algebra = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
               for p in (ROOT / "exactdp" / "algebra").rglob("*.py")}
    assert "exactdp.algebra.prover" in algebra and "exactdp.algebra.certificates" in algebra
    assert algebra <= set(strict["module"]), sorted(algebra - set(strict["module"]))
    measures = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                for p in (ROOT / "exactdp" / "measures").glob("*.py")}
    assert "exactdp.measures.privacy" in measures and NOT_YET_STRICT <= measures, sorted(NOT_YET_STRICT - measures)
    assert measures - NOT_YET_STRICT <= set(strict["module"]), sorted(measures - NOT_YET_STRICT - set(strict["module"]))
    assert not NOT_YET_STRICT & set(strict["module"]), "strict now: take it off NOT_YET_STRICT"
    assert not any("disable_error_code" in o for o in config["tool"]["mypy"]["overrides"])


def test_py_typed_is_shipped():
    """PEP 561: the marker file exists and is package data (installed with the package)."""
    assert (ROOT / "exactdp" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["exactdp"]
    assert config["tool"]["mypy"]["files"] == ["exactdp"]
