import os

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def quick_verify_results():
    """Every registered claim run as ``exactdp verify --quick`` (seed 0, in process), once per test process:
    the verdict, report and LaTeX tests read these results instead of each re-running all claims."""
    from exactdp.verification.engine import verify

    return verify((), seed=0, quick=True)


@pytest.fixture(scope="session")
def full_verify_results():
    """Every registered claim run as ``exactdp verify`` (full size, seed 0, in process), once per test process
    (slow: one test, the whole report's formulas and its LaTeX, so one worker computes it)."""
    from exactdp.verification.engine import verify

    return verify((), seed=0, quick=False)
