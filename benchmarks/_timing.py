"""The one timer of the benchmarks: best wall-clock time of several runs (``time.perf_counter``)."""

from __future__ import annotations

import time


def best_time(fn, repeat: int) -> tuple[float, object]:
    """(fastest of ``repeat`` runs of ``fn()`` in seconds, the value of the last run)."""
    best, value = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value
