"""Certified (ε,δ)-LDP with an irrational γ = e^{1/2} against float64 doing the same formula, same run.

Prints, per kernel size, the time of: float64 max_{x,x'} Σ_y (K_x(y) − γ K_{x'}(y))₊ (numpy), the exact
QQ path at the rational γ = 33/20 (exactdp.eta_hockey_stick) and the certified path at γ = e^{1/2}
(exactdp.is_ldp with eps="1/2"), and the ratios to float64.  Run from the repository root:
``PYTHONPATH=. python benchmarks/bench_certified.py``.

Then (issue 15 item 6) KL, H² and Rényi (α = 2, 1/2) of two random 256-point distributions to 30 certified
digits: the one-pass balls of ``exactdp.certified.divergences`` against scipy/numpy float64 and against the
exact sympy expression evaluated by ``evalf`` (the route before), same run, digits checked equal.
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


def divergences(n: int = 256, repeat: int = 20) -> None:
    import scipy.special

    from exactdp import hellinger2, kl, renyi
    from exactdp.certified.divergences import hellinger2_certified, kl_certified, renyi_certified
    from exactdp.numbers.digits import evalf

    rng = random.Random(1)

    def dist():
        w = [rng.randint(1, 1000) for _ in range(n)]
        return [fmpq(v, sum(w)) for v in w]

    P, Q = dist(), dist()
    pf, qf = np.array([float(p) for p in P]), np.array([float(q) for q in Q])
    rows = [
        ("KL", lambda: kl_certified(P, Q), lambda: kl(P, Q), lambda: scipy.special.rel_entr(pf, qf).sum()),
        ("H^2", lambda: hellinger2_certified(P, Q), lambda: hellinger2(P, Q),
         lambda: ((np.sqrt(pf) - np.sqrt(qf)) ** 2).sum()),
        ("Renyi 2", lambda: renyi_certified(P, Q, 2), lambda: renyi(P, Q, 2), lambda: np.log((pf ** 2 / qf).sum())),
        ("Renyi 1/2", lambda: renyi_certified(P, Q, fmpq(1, 2)), lambda: renyi(P, Q, fmpq(1, 2)),
         lambda: -2 * np.log(np.sqrt(pf * qf).sum())),
    ]
    kl_certified(P, Q)  # the prime sieve is built once per process
    print(f"\n{n}-point distributions, 30 certified digits: {'balls':>9} {'sympy route':>12} {'float64':>9} "
          f"{'balls/f64':>10} {'sympy/balls':>12}")
    for name, cert, exact, flt in rows:
        t_c = best_of(lambda: evalf(cert(), 30), repeat)
        t_e = best_of(lambda: evalf(exact(), 30), 2)
        t_f = best_of(lambda: flt(), 200)
        assert evalf(cert(), 30) == evalf(exact(), 30)
        print(f"{name:>10} {t_c * 1e3:>54.2f}ms {t_e * 1e3:>11.1f}ms {t_f * 1e6:>7.1f}us "
              f"{t_c / t_f:>9.0f}x {t_e / t_c:>11.0f}x")


if __name__ == "__main__":
    main()
    divergences()
