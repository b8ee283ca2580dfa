"""Speed of the exact prover against sympy's own decision routes, measured in the same run.

Univariate: decide ``P(t) >= 0`` on t >= 1 for random integer polynomials of degree 2..8, against
``sympy.solve_univariate_inequality`` (then a subset test).  Bivariate: the bound comparisons of the
registry (exactdp only: sympy has no complete two-parameter route).  Prints times and ratios; no
assertion (speed is not a test).  Run: ``PYTHONPATH=. python benchmarks/bench_prover.py``.
"""

import random
import time

import sympy

from exactdp import bounds as B
from exactdp.algebra.prover import Region, decide

t = sympy.Symbol("t", positive=True)


def _polys(n=40, seed=0):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deg = rng.randint(2, 8)
        out.append(sum(rng.randint(-5, 5) * t**k for k in range(deg + 1)) + t**deg)
    return out


def bench_univariate():
    polys = _polys()
    region = Region.of(t >= 1)
    t0 = time.perf_counter()
    ours = [decide(P >= 0, region).truth for P in polys]
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    x = sympy.Symbol("x", real=True)
    theirs = []
    for P in polys:
        try:
            sol = sympy.solve_univariate_inequality(P.subs(t, x) >= 0, x, relational=False)
            theirs.append(sympy.Interval(1, sympy.oo).is_subset(sol))
        except (NotImplementedError, ValueError):
            theirs.append(None)  # sympy gives up
    t_sympy = time.perf_counter() - t0
    agree = sum(str(a) == ("true" if b else "false") for a, b in zip(ours, theirs) if b is not None)
    failed = sum(b is None for b in theirs)
    print(f"univariate ({len(polys)} claims): exactdp {t_ours:.3f} s (all decided), sympy {t_sympy:.3f} s "
          f"({failed} not solved), ratio sympy/exactdp {t_sympy / t_ours:.1f}x, "
          f"agreement {agree}/{len(polys) - failed}")


def bench_bivariate():
    pairs = [("grosse_thm1", "phi", {"N": 4, "delta": 0}), ("ldp_dobrushin_tight", "phi", {}),
             ("gamma_max_exact", "gamma_max_lemma4", {"N": 3})]
    for a, b, at in pairs:
        t0 = time.perf_counter()
        cmp = B.get(a).compare(B.get(b), at=at)
        dt = time.perf_counter() - t0
        print(f"compare {a} vs {b} {at}: {dt:.3f} s  (<=: {cmp.le.truth}, >=: {cmp.ge.truth})")


if __name__ == "__main__":
    bench_univariate()
    bench_bivariate()
