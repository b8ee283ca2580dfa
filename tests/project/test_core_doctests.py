"""The docstring examples of every exactdp module run as tests (DESIGN.md: doctests run in CI).

A dedicated test (rather than ``--doctest-modules``) imports each module explicitly; the modules are
discovered by walking the package, so a new module's examples run without being listed here.
"""

import doctest
import importlib
import pkgutil

import pytest

import exactdp

CORE_MODULES = [
    "exactdp.numbers.qq", "exactdp.numbers.sr", "exactdp.numbers.truth", "exactdp.numbers.linalg",
    "exactdp.kernels", "exactdp.distributions", "exactdp._vectors", "exactdp.measures.divergences",
    "exactdp.measures.contraction", "exactdp.measures.privacy", "exactdp.mechanisms", "exactdp.io",
    "exactdp.analysis", "exactdp.errors",
]
WITH_EXAMPLES = {"exactdp.numbers.qq", "exactdp.kernels", "exactdp.distributions", "exactdp.measures.divergences",
                 "exactdp.measures.contraction", "exactdp.measures.privacy", "exactdp.mechanisms", "exactdp.io"}


ALL_MODULES = sorted({info.name for info in pkgutil.walk_packages(exactdp.__path__, prefix="exactdp.")
                      if info.name != "exactdp.__main__"} | set(CORE_MODULES))


@pytest.mark.parametrize("name", ALL_MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} lost its examples"
