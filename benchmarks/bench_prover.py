"""Speed of the exact prover against sympy's own decision routes, measured in the same run.

Univariate: decide ``P(t) >= 0`` on t >= 1 for random integer polynomials of degree 2..8, against
``sympy.solve_univariate_inequality`` (then a subset test).  Bivariate: the bound comparisons of the
registry (exactdp only: sympy has no complete two-parameter route).  Three parameters: [G]'s Ξ statements
with symbolic N, decided once in (t, c, N) by projection and lifting, against the reduction u = Nc (two
parameters) and against the former route (one two-parameter decision per N = 2..5, which proves less).
Boolean: coverage of the PML domain by Theorem 1's regions and formulas with strict atoms (lifted over
algebraic abscissae), against the single-inequality route where one exists.  Four parameters and square
roots (issue 21): the sum of squares false only at its centre and true claims in four parameters, against the
same claims in three (same run), and square roots of expressions eliminated as r >= 0, r^2 = A.  Signs from
factors (issue 25): the multipliers of a lifted (eps,c)-PML basis on the region their numerators cut out, decided
with the prover's factor route and, in the same run, without it (one decomposition of the whole claim and every
region constraint).  Prints times and ratios; no assertion (speed is not a test).  Run: ``PYTHONPATH=. python benchmarks/bench_prover.py``.
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


def _time(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def bench_three_parameters():
    c, N, u = B.c, B.N, sympy.Symbol("u", positive=True)
    phi0, xi1 = B.phi.subs(B.delta, 0), B.xi_raw
    claims = [(lambda e: e <= 1, 2, "<="), (lambda e: e > 1, 2, ">"), (lambda e: e <= phi0, 1, "<="),
              (lambda e: sympy.diff(e, t) >= 0, 2, "<=")]

    def in_tcn():
        return [decide(rel(xi1), Region.of(t >= 1, N >= 2, N * c <= 1, N * c * t <= k if op == "<=" else
                                           N * c * t > k, variables=(t, c, N))).truth for rel, k, op in claims]

    def in_tu():
        x = xi1.subs(c, u / N)
        return [decide(rel(x), Region.of(t >= 1, u <= 1, u * t <= k if op == "<=" else u * t > k)).truth
                for rel, k, op in claims]

    def per_n():
        return [decide(rel(xi1.subs(N, n)), Region.of(t >= 1, c <= sympy.Rational(1, n), n * c * t <= k if op == "<="
                                                      else n * c * t > k)).truth
                for n in range(2, 6) for rel, k, op in claims]

    t3, a = _time(in_tcn)
    t2, b = _time(in_tu)
    tn, d = _time(per_n)
    print(f"three parameters ({len(claims)} Xi claims, all N): (t, c, N) cells {t3:.3f} s {[str(x) for x in a]}; "
          f"u = Nc reduction {t2:.3f} s {[str(x) for x in b]}; per N = 2..5 {tn:.3f} s (4 N only, "
          f"{sum(str(x) == 'true' for x in d)}/{len(d)} true); ratio (t,c,N)/(t,u) {t3 / t2:.1f}x, "
          f"(t,c,N)/per-N {t3 / tn:.2f}x")


def bench_boolean():
    from exactdp.algebra.boolean import Implies, covers, decide_formula

    c = B.c
    x, y = sympy.symbols("x y", real=True)
    domain = Region.of(t >= 1, c <= sympy.Rational(1, 3))
    parts = [3 * c * t <= 1, sympy.And(3 * c * t >= 1, (t - 1) * (1 - 3 * c) <= 1), 3 * c * t + t * c >= 2]
    tc, cov = _time(lambda: covers(parts, domain).truth)
    print(f"coverage of t >= 1, 0 < c <= 1/3 by three regions with curved boundaries (they leave a gap): {tc:.3f} s ({cov})")
    box = Region.of(x >= -2, x <= 2, y >= -2, y <= 2)
    tf, a = _time(lambda: decide_formula(x**2 + y**2 - 2 * x * y >= 0, box).truth)
    tp, b = _time(lambda: decide(x**2 + y**2 - 2 * x * y >= 0, box).truth)
    print(f"one inequality, (x - y)^2 >= 0 on a box: Boolean route {tf:.3f} s ({a}), prover route {tp:.3f} s "
          f"({b}); ratio {tf / tp:.1f}x")
    ti, d = _time(lambda: decide_formula(Implies(x**2 + y**2 <= 2, x * y <= 1), box).truth)
    print(f"x^2 + y^2 <= 2 => xy <= 1 (strict atom, tangency at irrational abscissae, lifted in Q(sqrt 2)): "
          f"{ti:.3f} s ({d})")


def bench_four_parameters():
    """Each claim decided once (decisions are remembered): its first decision is the one timed."""
    w, x, y, z = sympy.symbols("w x y z", real=True)
    Q = sympy.Rational
    centre = {w: Q(1, 7), x: Q(2, 9), y: Q(1, 5), z: Q(1, 5)}

    def squares(vs):
        return sum((v - centre[v]) ** 2 for v in vs)

    rows = [("sum of squares > 0 (false at the centre)", lambda vs: squares(vs) > 0),
            ("(v1 v2 - v3 ... vk)^2 + 1 > 0, expanded", lambda vs: sympy.expand(
                (vs[0] * vs[1] - sympy.Mul(*vs[2:])) ** 2) + 1 > 0),
            ("(sum)^2 <= k * sum of squares on the orthant", lambda vs: sympy.LessThan(
                sum(vs) ** 2, len(vs) * sum(v**2 for v in vs), evaluate=False))]
    for name, claim in rows:
        times = {}
        for vs in ((x, y, z), (w, x, y, z)):
            conds = [v >= 0 for v in vs] if "orthant" in name else []
            times[len(vs)], truth = _time(lambda: decide(claim(vs), Region.of(*conds, variables=vs)).truth)
            times[len(vs), "truth"] = truth
        print(f"{name}: 3 parameters {times[3]:.3f} s ({times[3, 'truth']}), 4 parameters {times[4]:.3f} s "
              f"({times[4, 'truth']}); ratio 4/3 {times[4] / times[3]:.1f}x")
    for name, claim in (("sqrt(x^2 + 1) > x + 1/10^6 (false far out)", sympy.sqrt(x**2 + 1) > x + Q(1, 10**6)),
                        ("sqrt(x^2 + 1) >= x", sympy.sqrt(x**2 + 1) >= x),
                        ("sqrt(x^2 + y^2) >= x", sympy.sqrt(x**2 + y**2) >= x)):
        dt, truth = _time(lambda: decide(claim, Region.of(variables=sorted(claim.free_symbols, key=str))).truth)
        print(f"{name}: {dt:.3f} s ({truth})")


def bench_factor_signs():
    """The three multipliers of the lifted basis (0, 2, 5) of the two-point LP of (eps,c)-PML (gamma = 2, u = N*c)
    on its piece of the every-N synthesis (tests/algebra/test_prover_factor_signs.py), with and without
    prover._by_factors."""
    from exactdp.algebra import prover
    from exactdp.algebra.certificates import decide_sign

    c, u = sympy.symbols("c u", real=True)
    tr = sympy.Symbol("t", real=True)
    piece = [tr >= 1, c > 0, u >= 2 * c, u <= 1, 3 * c * tr - 2 * tr * u + 2 * tr - 1 >= 0,
             3 * c * tr - tr * u + tr - 2 >= 0,
             (u - 2 * c) * (-4 * c * tr**2 * u + 4 * c * tr**2 + 5 * c * tr + 2 * tr**2 * u**2 - 4 * tr**2 * u
                            + 2 * tr**2 - 3) >= 0]
    den = -2 * c * tr**2 * u + 2 * c * tr**2 + 2 * c * tr + tr**2 * u**2 - 2 * tr**2 * u + tr**2 - 1
    multipliers = [(3 * c * tr - 2 * tr * u + 2 * tr - 1) / den, (3 * c * tr - tr * u + tr - 2) / den,
                   -tr / (-2 * c * tr + tr * u - tr + 1)]
    route = prover._by_factors
    for m in multipliers:
        times = {}
        for name, f in (("factors", route), ("whole", lambda *args: False)):
            prover._DECISIONS.clear()  # decisions are remembered: each route decides afresh
            prover._by_factors = f
            try:
                times[name], truth = _time(lambda: decide_sign(m, piece)[0])
            finally:
                prover._by_factors = route
            times[name, "truth"] = truth
        print(f"{m} >= 0 on the piece: factors {times['factors']:.2f} s ({times['factors', 'truth']}), whole "
              f"{times['whole']:.2f} s ({times['whole', 'truth']}); ratio {times['whole'] / times['factors']:.0f}x")


if __name__ == "__main__":
    bench_univariate()
    bench_bivariate()
    bench_three_parameters()
    bench_boolean()
    bench_four_parameters()
    bench_factor_signs()
