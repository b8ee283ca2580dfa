"""Certified (ε,δ)-LDP with an irrational γ = e^{1/2} against float64 doing the same formula, same run.

Prints, per kernel size, the time of: float64 max_{x,x'} Σ_y (K_x(y) − γ K_{x'}(y))₊ (numpy), the exact
QQ path at the rational γ = 33/20 (exactdp.eta_hockey_stick) and the certified path at γ = e^{1/2}
(exactdp.is_ldp with eps="1/2"), and the ratios to float64.  Run from the repository root:
``PYTHONPATH=. python benchmarks/bench_certified.py``.
"""

from __future__ import annotations

import random
import time

import numpy as np
from flint import fmpq

from exactdp import Kernel, eta_hockey_stick, is_ldp


def random_kernel(rng: random.Random, N: int, den: int = 1000) -> Kernel:
    rows = []
    for _ in range(N):
        w = [rng.randint(1, den) for _ in range(N)]
        s = sum(w)
        rows.append([fmpq(x, s) for x in w])
    return Kernel(rows)


def best_of(f, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(K: Kernel) -> tuple[float, float, float]:
    """Seconds for float64, the exact QQ path (γ = 33/20) and the certified path (γ = e^{1/2})."""
    F = np.array([[float(v) for v in r] for r in K.rows])
    g = float(np.exp(0.5))

    def flt():
        return max(np.maximum(F[i][None, :] - g * F, 0).sum(axis=1).max() for i in range(K.N))

    tf = best_of(flt)
    tq = best_of(lambda: eta_hockey_stick(K, fmpq(33, 20)))
    tc = best_of(lambda: is_ldp(K, eps="1/2", delta="1/2"))
    return tf, tq, tc


def main() -> None:
    rng = random.Random(0)
    print(f"{'N':>4} {'float64 s':>10} {'QQ s':>9} {'certified s':>12} {'QQ/float':>9} {'cert/float':>11}")
    for N in (8, 16, 32, 64, 128):
        tf, tq, tc = measure(random_kernel(rng, N))
        print(f"{N:>4} {tf:>10.5f} {tq:>9.5f} {tc:>12.5f} {tq / tf:>9.1f} {tc / tf:>11.1f}")


if __name__ == "__main__":
    main()
