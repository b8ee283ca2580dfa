"""η_χ²(K) for three and four inputs by the certified branch and bound over priors: the enclosure contains an
independent 50-digit optimisation (mpmath's SVD over a prior grid and a compass search), every box that passes
the test is below u at sampled priors, and the B-8 bound ((t − 1)/(t + 1))² on three-input LDP kernels."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx, fmpq

from exactdp import Kernel
from exactdp.errors import InputError
from exactdp.limits import ResourceLimitError
from exactdp.measures import chi2_branch_bound as bb
from exactdp.measures.chi2_contraction import eta_chi2, eta_chi2_prior
from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import ldp_ratio
from exactdp.measures.registry import chi2_search_enclosure
from exactdp.numbers.truth import Truth


def _row(rng, M, den):
    w = [rng.randint(1, den) for _ in range(M)]
    return [Fraction(v, sum(w)) for v in w]


def _sigma2_sq(rows, prior):
    """Squared second singular value of D_P^{1/2} K D_PK^{-1/2} by mpmath's SVD (independent of the module)."""
    N, M = len(rows), len(rows[0])
    out = [mpmath.fsum(prior[x] * rows[x][y] for x in range(N)) for y in range(M)]
    B = mpmath.matrix(N, M)
    for x in range(N):
        for y in range(M):
            B[x, y] = mpmath.sqrt(prior[x]) * rows[x][y] / mpmath.sqrt(out[y])
    s = sorted(mpmath.svd_r(B, compute_uv=False), reverse=True)
    return s[1] ** 2


def _independent_sup(rows, grid=12):
    """sup_P σ₂² at 50 digits: the best point of a simplex grid (edges included), then a compass search that
    halves its step down to 1e-12 (an approximation from below: every value is at an actual prior)."""
    with mpmath.workdps(50):
        N = len(rows)
        mp_rows = [[mpmath.mpf(x.numerator) / x.denominator for x in row] for row in rows]

        def f(p):
            t = mpmath.fsum(p)
            return _sigma2_sq(mp_rows, [v / t for v in p])

        pts = []
        for c in __import__("itertools").product(range(grid + 1), repeat=N):
            if sum(c) == grid and sum(1 for v in c if v) >= 2:
                pts.append([mpmath.mpf(v) / grid for v in c])
        best = max(pts, key=f)
        fb, step = f(best), mpmath.mpf(1) / grid
        while step > mpmath.mpf(10) ** -12:
            moved = False
            for i in range(N):
                for sgn in (1, -1):
                    q = list(best)
                    q[i] = max(q[i] + sgn * step, mpmath.mpf(0))
                    if sum(1 for v in q if v > 0) >= 2:
                        fq = f(q)
                        if fq > fb:
                            best, fb, moved = q, fq, True
            if not moved:
                step /= 2
        return fb


def _mp(x):
    return mpmath.mpf(int(x.p)) / int(x.q)


@pytest.mark.parametrize("seed,N,M", [(1, 3, 2), (2, 3, 3), (3, 3, 4), (4, 4, 2)])
def test_enclosure_contains_the_independent_optimum(seed, N, M):
    """The certified [L, L + w] (w = 10⁻³) contains the independent optimisation's value, which is itself a
    value at a prior (so ≤ the supremum ≤ L + w), and lies above L − 10⁻⁹ (the compass search's own error)."""
    rng = random.Random(seed)
    rows = [_row(rng, M, 9) for _ in range(N)]
    K = Kernel([[str(v) for v in row] for row in rows])
    r = eta_chi2(K, "1/1000")
    assert r.upper - r.lower <= fmpq(1, 1000) and r.boxes > 0
    assert r.upper <= eta_tv(K)
    best = _independent_sup(rows)
    with mpmath.workdps(50):
        assert best <= _mp(r.upper)
        assert _mp(r.lower) - mpmath.mpf(10) ** -9 <= best
    if r.prior is not None:  # the lower end is the exact value at the reported prior
        v = eta_chi2_prior([str(p) for p in r.prior], K)
        assert v.compare_rational(r.lower) >= 0


@pytest.mark.slow
def test_default_width_one_in_a_million_on_three_inputs():
    rng = random.Random(8)
    rows = [_row(rng, 3, 9) for _ in range(3)]
    K = Kernel([[str(v) for v in row] for row in rows])
    r = eta_chi2(K)
    assert r.upper - r.lower <= fmpq(1, 10**6)
    best = _independent_sup(rows)
    with mpmath.workdps(50):
        assert _mp(r.lower) - mpmath.mpf(10) ** -9 <= best <= _mp(r.upper)


def test_passing_boxes_are_below_u_at_sampled_priors():
    """Soundness of the box test itself: for random boxes on every face and u near the values there, a box that
    passes has exact η_χ²(P, K) < u at random rational priors inside it."""
    rng = random.Random(4)
    for N, M in ((3, 2), (3, 4), (4, 3)):
        K = Kernel([[str(v) for v in _row(rng, M, 9)] for _ in range(N)])
        cols = [[arb(K.rows[x][y]) for x in range(N)] for y in range(M)]
        passed = 0
        for _ in range(12):
            j = rng.randrange(N)
            lo = [fmpq(rng.randint(0, 15), 16) for _ in range(N - 1)]
            hi = [a + fmpq(1, 16) for a in lo]
            w = [a + (b - a) * fmpq(rng.randint(0, 8), 8) for a, b in zip(lo, hi)]
            prior = w[:j] + [fmpq(1)] + w[j:]
            prior = [v * v if i != j else v for i, v in enumerate(prior)]
            total = sum(prior, fmpq(0))
            centre_value = eta_chi2_prior([str(p / total) for p in prior], K)
            u = centre_value.hi + fmpq(rng.randint(1, 40), 1000)
            old = ctx.prec
            ctx.prec = 128
            try:
                ok = bb.box_below(cols, j, lo, hi, arb(u))
            finally:
                ctx.prec = old
            if ok:
                passed += 1
                for _ in range(4):
                    z = [a + (b - a) * fmpq(rng.randint(0, 16), 16) for a, b in zip(lo, hi)]
                    p = z[:j] + [fmpq(1)] + z[j:]
                    p = [v * v if i != j else v for i, v in enumerate(p)]
                    t = sum(p, fmpq(0))
                    assert eta_chi2_prior([str(v / t) for v in p], K).compare_rational(u) < 0
            else:  # a box that fails at u far above every value would be a useless test
                assert u - centre_value.hi < fmpq(1, 2)
        assert passed > 0


def test_asoodeh_zhang_bound_on_three_input_ldp_kernels():
    """B-8 beyond N = 2, as certified instances: η_χ²(K) < ((t − 1)/(t + 1))² for random three-input t-LDP
    kernels (every box of priors certified below the bound, compared exactly), t = ldp_ratio(K)."""
    rng = random.Random(5)
    decided = 0
    for k in range(6):
        rows = [_row(rng, 2 + k % 2, 9) for _ in range(3)]
        K = Kernel([[str(v) for v in row] for row in rows])
        E = ldp_ratio(K)
        bound = ((E - 1) / (E + 1)) ** 2
        r = bb.below(K, lambda P: eta_chi2_prior([str(x) for x in P], K), eta_chi2(K, 1).lower, bound, 4000)
        assert r.truth is not Truth.FALSE
        decided += r.truth is Truth.TRUE
    assert decided == 6


def test_below_refutes_a_bound_under_the_value_with_an_exact_prior():
    rng = random.Random(6)
    K = Kernel([[str(v) for v in _row(rng, 3, 9)] for _ in range(3)])
    r = eta_chi2(K, "1/1000")
    exact = lambda P: eta_chi2_prior([str(x) for x in P], K)  # noqa: E731
    low = bb.below(K, exact, eta_chi2(K, 1).lower, r.lower - fmpq(1, 10**4))
    assert low.truth is Truth.FALSE and low.lower > r.lower - fmpq(1, 10**4)
    high = bb.below(K, exact, eta_chi2(K, 1).lower, r.upper + fmpq(1, 100))
    assert high.truth is Truth.TRUE


def test_refusals_and_fallbacks():
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/3", "1/3"]])
    with pytest.raises(ResourceLimitError, match="MAX_BOXES"):
        eta_chi2(K, "1/10^12", max_boxes=5)
    with pytest.raises(InputError, match="width must be > 0, got 0"):
        eta_chi2(K, "0")
    # a used column with a zero entry: the loose enclosure [two-input value, eta_TV]
    Z = Kernel([["1", "0"], ["1/2", "1/2"], ["1/2", "1/2"]])
    with pytest.raises(InputError, match="positive"):
        bb.check_kernel(Z, "eta_chi2")
    rz = eta_chi2(Z)
    assert rz.boxes == 0 and rz.upper == eta_tv(Z)
    # the search's enclosure: within its budget of boxes, else the loose one; never wider than the loose one
    e = chi2_search_enclosure(K)
    loose = eta_chi2(K, 1)
    assert loose.lower <= e.lower and e.upper <= loose.upper
