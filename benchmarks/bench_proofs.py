"""Time to prove [G] Thm 1 with equality for N = 2..8 and the exact Γ_max closed form (G-23) for N = 2..6 by
the multi-parametric exact LP (exactdp.theory.parametric, issue 12), against the exact rational LP at one
point measured in the same run (the baseline: what the same question costs at a single (t, c)).

Per N: the parametric solve (sample, solve, lift, decide the sign conditions, split) with the independent
re-check of its ``parametric-lp`` certificate, the number of regions, and the ratio to one rational LP.
The aim (issue 12): everything under 2 minutes on a 2-core machine.  No assertion (speed is not a test).
Run: ``PYTHONPATH=. python benchmarks/bench_proofs.py [--quick]``.
"""

import sys
import time

import sympy

from exactdp.theory import extremal, parametric

t, c = sympy.symbols("t c", positive=True)


def _row(what, N, fn, baseline):
    t0 = time.perf_counter()
    res = fn()
    dt = time.perf_counter() - t0
    t0 = time.perf_counter()
    baseline()
    db = time.perf_counter() - t0
    sol = res.solutions[0]
    ok = "proved" if res.certified() else "NOT proved: " + "; ".join(res.failures())[:80]
    print(f"{what:<10} {N:>2} {len(sol.regions):>8} {dt:>9.2f} {db * 1000:>12.1f} {dt / db:>9.0f}x  {ok}")
    return dt


def main(quick: bool = False):
    eta_ns = range(2, 5) if quick else range(2, 9)
    gamma_ns = range(2, 4) if quick else range(2, 7)
    print(f"{'proof':<10} {'N':>2} {'regions':>8} {'time (s)':>9} {'1 LP (ms)':>12} {'ratio':>10}  verdict")
    total = 0.0
    for N in eta_ns:
        total += _row("Thm 1", N, lambda: parametric.sup_eta_tv(N, t=t, c=c),
                      lambda: extremal.sup_eta_tv(N, t="5/2", c=sympy.Rational(1, N + 1)))
    for N in gamma_ns:
        total += _row("Gamma_max", N, lambda: parametric.gamma_max(N, t, c),
                      lambda: extremal.gamma_max(N, "5/2", sympy.Rational(1, N + 1)))
    print(f"total {total:.1f} s (aim: under 120 s on 2 cores)")


if __name__ == "__main__":
    main("--quick" in sys.argv)
