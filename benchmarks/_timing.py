"""The timers of the benchmarks: wall-clock times of several runs (``time.perf_counter``)."""

from __future__ import annotations

import statistics
import time


def run_times(fn, repeat: int) -> tuple[list[float], object]:
    """(the wall times of ``repeat`` runs of ``fn()`` in seconds, the value of the last run)."""
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return times, value


def best_time(fn, repeat: int) -> tuple[float, object]:
    """(fastest of ``repeat`` runs of ``fn()`` in seconds, the value of the last run)."""
    times, value = run_times(fn, repeat)
    return min(times), value


def best_median(fn, repeat: int) -> tuple[float, float, object]:
    """(fastest and median of ``repeat`` runs of ``fn()`` in seconds, the value of the last run)."""
    times, value = run_times(fn, repeat)
    return min(times), statistics.median(times), value
