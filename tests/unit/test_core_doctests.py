"""The docstring examples of the core modules run as tests (DESIGN.md: doctests run in CI).

A dedicated test (rather than ``--doctest-modules`` on the whole package) keeps modules of other layers
that import optional packages out of collection.
"""

import doctest
import importlib

import pytest

CORE_MODULES = [
    "exactdp.numbers.qq", "exactdp.numbers.sr", "exactdp.numbers.truth", "exactdp.numbers.linalg",
    "exactdp.kernels", "exactdp.distributions", "exactdp._vectors", "exactdp.measures.divergences",
    "exactdp.measures.contraction", "exactdp.measures.privacy", "exactdp.mechanisms", "exactdp.io",
    "exactdp.analysis", "exactdp.errors",
]
WITH_EXAMPLES = {"exactdp.numbers.qq", "exactdp.kernels", "exactdp.distributions", "exactdp.measures.divergences",
                 "exactdp.measures.contraction", "exactdp.measures.privacy", "exactdp.mechanisms", "exactdp.io"}


@pytest.mark.parametrize("name", CORE_MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} lost its examples"
