"""Certified E_gamma-information of the Bernoulli example versus float64 baselines, measured in the same run.

    PYTHONPATH=. python benchmarks/bench_estimation.py

Prints seconds per evaluation and the ratio to a float64 trapezoid rule (2001 points, same formula) and to a
float64 root-bracketing integral (numpy roots + polynomial antiderivatives), so the cost of certification is
read against a baseline from the same machine and run.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import sympy

from _timing import best_time
from exactdp.theory.bernoulli import bernoulli_e_gamma_information
from exactdp.parameters import t_value
from exactdp.theory.estimation import bernoulli_bayes_point


def _time(f, repeat=5):
    return best_time(f, repeat)[0]


def float_trapezoid(n, gamma):
    grid = np.linspace(0, 1, 2001)
    vals = sum(np.maximum(comb(n, s) * grid**s * (1 - grid) ** (n - s) - gamma / (n + 1), 0) for s in range(n + 1))
    return np.trapezoid(vals, grid) if hasattr(np, "trapezoid") else np.trapz(vals, grid)


def float_roots(n, gamma):
    total = 0.0
    for s in range(n + 1):
        p = comb(n, s) * np.polynomial.Polynomial([0, 1]) ** s * np.polynomial.Polynomial([1, -1]) ** (n - s)
        g = p - gamma / (n + 1)
        r = sorted(x.real for x in g.roots() if abs(x.imag) < 1e-12 and 0 <= x.real <= 1)
        pts = [0.0, *r, 1.0]
        G = g.integ()
        total += sum(G(b) - G(a) for a, b in itertools.pairwise(pts) if g((a + b) / 2) > 0)
    return total


def main():
    n, gamma = 20, float(sympy.exp(sympy.Rational(1, 100)))
    cert = _time(lambda: bernoulli_e_gamma_information(n, t_value(eps="0.01")))
    cert40 = _time(lambda: bernoulli_e_gamma_information(n, t_value(eps="0.01"), bits=40))
    trap = _time(lambda: float_trapezoid(n, gamma))
    roots = _time(lambda: float_roots(n, gamma))
    point = _time(lambda: bernoulli_bayes_point("0.01"), repeat=3)
    print(f"I_gamma(theta;X^20), gamma = e^0.01, certified (100-bit roots): {cert * 1e3:8.2f} ms")
    print(f"                             certified (40-bit roots):  {cert40 * 1e3:8.2f} ms")
    print(f"                             float64 trapezoid 2001 pts:{trap * 1e3:8.2f} ms  ratio {cert / trap:6.1f}x")
    print(f"                             float64 numpy roots:       {roots * 1e3:8.2f} ms  ratio {cert / roots:6.1f}x")
    print(f"one [A] Fig. 1 point (both bounds, certified):          {point * 1e3:8.2f} ms")
    ball = bernoulli_e_gamma_information(n, t_value(eps="0.01"))
    print(f"certified {ball.str(16)}; trapezoid {float_trapezoid(n, gamma)!r}; roots {float_roots(n, gamma)!r}")


if __name__ == "__main__":
    main()
