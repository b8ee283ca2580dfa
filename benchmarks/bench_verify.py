"""CPU cost of a full ``exactdp verify`` (every process: the parent and its workers), against the start-up of
the same command measured in the same run (the baseline: ``exactdp verify --list`` imports the package and
loads every claim, then stops).

CPU rather than wall time: on a shared machine the wall time of a two-process run depends on the other load,
its CPU time much less.  The aim (issue 24 item 4): at most 60 s of CPU for the full run on the 2-core
machine.  Also prints the claims with the largest share of the run (``--timings``: wall seconds inside the
worker).  No assertion (speed is not a test).
Run: ``PYTHONPATH=. python benchmarks/bench_verify.py [--quick] [--jobs J]``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_of(args: list[str]) -> tuple[float, float]:
    """(CPU seconds of the command and every process it waited for, wall seconds)."""
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "exactdp", *args], check=True, stdout=subprocess.DEVNULL)
    return _children_cpu() - c0, time.perf_counter() - t0


def main(quick: bool = False, jobs: str | None = None) -> None:
    base_cpu, base_wall = cpu_of(["verify", "--list"])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        args = ["verify", "--no-progress", "--timings", "--format", "json", "-o", out]
        args += ["--quick"] if quick else []
        args += ["--jobs", jobs] if jobs else []
        cpu, wall = cpu_of(args)
        with open(out, encoding="utf-8") as fh:
            claims = json.load(fh)["result"]["claims"]
    print(f"{'run':<34} {'CPU (s)':>8} {'wall (s)':>9} {'ratio':>7}")
    print(f"{'verify --list (start-up, baseline)':<34} {base_cpu:>8.1f} {base_wall:>9.1f} {1:>6.0f}x")
    label = "verify --quick" if quick else "verify (full)"
    print(f"{label:<34} {cpu:>8.1f} {wall:>9.1f} {cpu / base_cpu:>6.0f}x   aim: at most 60 s CPU (full run)")
    total = sum(float(c["seconds"]) for c in claims)
    print(f"\n{len(claims)} claims; the largest shares of the claims' {total:.0f} s (wall inside the workers):")
    for c in sorted(claims, key=lambda c: -float(c["seconds"]))[:12]:
        print(f"  {100 * float(c['seconds']) / total:5.1f} %  {c['id']}")


if __name__ == "__main__":
    argv = sys.argv[1:]
    main("--quick" in argv, argv[argv.index("--jobs") + 1] if "--jobs" in argv else None)
