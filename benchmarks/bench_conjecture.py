"""Conjecture search throughput: exact/certified instances per second against float64 doing the same
formulas, and the same search on 1 process vs 2 local processes, all measured in this run.

For three conjectures (rational, log-linear and square-root slacks) it times

* the exact search (``exactdp.check``, in-process) over a fixed budget of kernels, and
* a float64 baseline evaluating the same slack on the same instances (numpy, no certification),

and prints kernels/s and the ratio exact/float64.  Then it runs one search with ``workers=2`` and prints
the speed-up (on a loaded 2-core machine expect little).  Run from the repository root:
``PYTHONPATH=. python benchmarks/bench_conjecture.py``.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np

from exactdp.verification.conjecture import check
from exactdp.verification.conjecture.classes import make_instances
from exactdp.verification.instances import random_kernel

CASES = {
    "rational (eta_tv vs (E-1)/(E+1))": "eta_tv <= (exp(eps)-1)/(exp(eps)+1)",
    "log-linear (KL vs Zamanlooy-Asoodeh)": "kl(K(P),K(Q)) <= eps*(exp(eps)-1)/(exp(eps)+1)*tv(P,Q)",
    "roots (H^2 data processing)": "hellinger2(K(P),K(Q)) <= hellinger2(P,Q)",
}


def _float_slack(name: str, K: np.ndarray, E: float, P, Q) -> float:
    eta = max(0.5 * np.abs(K[i] - K[j]).sum() for i in range(len(K)) for j in range(len(K)))
    if name.startswith("rational"):
        return (E - 1) / (E + 1) - eta
    KP, KQ = P @ K, Q @ K
    if name.startswith("log"):
        kl = sum(a * math.log(a / b) for a, b in zip(KP, KQ) if a > 0)
        return math.log(E) * (E - 1) / (E + 1) * 0.5 * np.abs(P - Q).sum() - kl
    h = lambda a, b: ((np.sqrt(a) - np.sqrt(b)) ** 2).sum()  # noqa: E731
    return h(P, Q) - h(KP, KQ)


def float_baseline(name: str, text: str, budget: int) -> float:
    """Seconds for float64 evaluations of the same slack on the same kind and number of instances."""
    rng = random.Random(0)
    insts = []
    for _ in range(budget):
        K = random_kernel(rng, 3, 3, 12, full_support=True)
        for inst in make_instances("ldp", K, rng, uses_inputs="P" in text, uses_n=False):
            F = np.array([[float(v) for v in r] for r in inst.K.rows])
            P = np.array([float(v) for v in inst.P.probs]) if inst.P is not None else None
            Q = np.array([float(v) for v in inst.Q.probs]) if inst.Q is not None else None
            insts.append((F, float(inst.gamma), P, Q))
    t = time.perf_counter()
    for F, E, P, Q in insts:
        _float_slack(name, F, E, P, Q)
    return time.perf_counter() - t


def main(budget: int = 300) -> None:
    print(f"{'conjecture':40s} {'exact s':>8s} {'kernels/s':>10s} {'float64 s':>10s} {'ratio':>8s}")
    for name, text in CASES.items():
        t = time.perf_counter()
        r = check(text, "ldp", N=3, M=3, budget=budget)
        exact = time.perf_counter() - t
        base = float_baseline(name, text, budget)
        print(f"{name:40s} {exact:8.2f} {r.stats['kernels'] / exact:10.0f} {base:10.3f} {exact / base:8.0f}x")
    text = CASES["log-linear (KL vs Zamanlooy-Asoodeh)"]
    t = time.perf_counter()
    check(text, "ldp", N=3, M=3, budget=2 * budget)
    one = time.perf_counter() - t
    t = time.perf_counter()
    check(text, "ldp", N=3, M=3, budget=2 * budget, workers=2)
    two = time.perf_counter() - t
    print(f"same search, 1 process {one:.2f} s, 2 processes {two:.2f} s: speed-up {one / two:.2f}x")


if __name__ == "__main__":
    main()
