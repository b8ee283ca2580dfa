"""Instance families for checks, tests, benchmarks and searches: seeded, exact, reproducible.

Every generator takes a :class:`random.Random` (or a seed) and returns exact objects; the same seed gives
the same instances on every machine (only integer draws are used).
"""

from __future__ import annotations

import itertools
import random

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel


def _rng(rng) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def random_composition(rng, total: int, parts: int, *, allow_zero: bool = True) -> list[int]:
    """A uniformly random ordered composition of ``total`` into ``parts`` non-negative integers."""
    rng = _rng(rng)
    if not allow_zero:
        if total < parts:
            raise ValueError("total must be >= parts when zeros are not allowed")
        return [v + 1 for v in random_composition(rng, total - parts, parts)]
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[k + 1] - bounds[k] for k in range(parts)]


def _random_parts(rng: random.Random, n: int, max_den: int, full_support: bool) -> tuple[list[int], int]:
    d = rng.randint(max(n, 1), max(max_den, n))
    return random_composition(rng, d, n, allow_zero=not full_support), d


def random_distribution(rng, n: int, max_den: int = 12, *, full_support: bool = False) -> Distribution:
    """A random exact distribution whose entries have common denominator d ∈ [n, max_den]."""
    parts, d = _random_parts(_rng(rng), n, max_den, full_support)
    return Distribution.from_exact_probs(tuple(fmpq(p, d) for p in parts), False)


def random_kernel(rng, N: int, M: int, max_den: int = 12, *, full_support: bool = False,
                  name: str | None = None) -> Kernel:
    """A random exact N×M kernel; row x has its own denominator d_x ∈ [M, max_den].

    The kernel carries its integer form (numerators over d_x) from the draw, so the vectorized exact
    routines need no conversion.
    """
    from exactdp.numbers.linalg import IntRows

    rng = _rng(rng)
    draws = [_random_parts(rng, M, max_den, full_support) for _ in range(N)]
    rows = [tuple(fmpq(p, d) for p in parts) for parts, d in draws]
    int_rows = IntRows([parts for parts, _ in draws], [d for _, d in draws])
    return Kernel.from_exact_rows(rows, name=name, int_rows=int_rows)


def random_kernels(seed, count: int, sizes=((2, 2), (2, 3), (3, 2), (3, 3), (4, 4)), max_den: int = 12,
                   **kw):
    """``count`` random kernels cycling through ``sizes``."""
    rng = _rng(seed)
    for k in range(count):
        N, M = sizes[k % len(sizes)]
        yield random_kernel(rng, N, M, max_den, **kw)


def grid_rows(M: int, den: int):
    """Every probability vector of length M with entries in {0, 1/den, ..., 1}."""
    for parts in itertools.product(range(den + 1), repeat=M - 1):
        s = sum(parts)
        if s <= den:
            yield tuple(fmpq(p, den) for p in parts) + (fmpq(den - s, den),)


def grid_kernels(N: int, M: int, den: int):
    """Every N×M kernel with entries in {0, 1/den, ..., 1} (rows as multisets: unordered, with repeats)."""
    rows = list(grid_rows(M, den))
    for combo in itertools.combinations_with_replacement(range(len(rows)), N):
        yield Kernel.from_exact_rows([rows[i] for i in combo], False)


# -- families used by the verification proofs ---------------------------------------------

def random_rational(rng, low, high, max_den: int = 12) -> fmpq:
    """A random rational in [low, high] with denominator ≤ max_den (low, high exact)."""
    rng = _rng(rng)
    low, high = fmpq(low) if not isinstance(low, fmpq) else low, fmpq(high) if not isinstance(high, fmpq) else high
    d = rng.randint(1, max_den)
    lo_n = -((-low.p * d) // low.q)  # ceil(low*d)
    hi_n = (high.p * d) // high.q  # floor(high*d)
    if hi_n < lo_n:
        return low
    return fmpq(rng.randint(int(lo_n), int(hi_n)), d)


def random_prior_in_Q(rng, N: int, c, max_den: int = 12) -> Distribution:
    """A random P in Q_X(c) = {P : min_x P(x) ≥ c}: P = c·𝟙 + (1 − Nc)·(random distribution)."""
    rng = _rng(rng)
    c = fmpq(c) if not isinstance(c, fmpq) else c
    base = random_distribution(rng, N, max_den).probs
    return Distribution.from_exact_probs(tuple(c + (1 - N * c) * b for b in base), False)


def prior_vertices(N: int, c) -> list[Distribution]:
    """The N vertices c·𝟙 + (1 − Nc)·e_x of Q_X(c) ([G] §III; D-9)."""
    c = fmpq(c) if not isinstance(c, fmpq) else c
    return [Distribution.from_exact_probs(tuple(c + ((1 - N * c) if k == x else 0) for k in range(N)), False)
            for x in range(N)]


def random_kernel_with_zeros(rng, N: int, M: int, max_den: int = 12) -> Kernel:
    """A random kernel in which at least one column mixes zero and non-zero entries (LDP = ∞)."""
    rng = _rng(rng)
    while True:
        K = random_kernel(rng, N, M, max_den)
        if any(0 in K.column(y) and any(v != 0 for v in K.column(y)) for y in range(M)):
            return K


def random_kernel_with_disjoint_rows(rng, N: int, M: int, max_den: int = 12) -> Kernel:
    """A random kernel whose rows 0 and 1 have disjoint supports (M ≥ 2); other rows arbitrary."""
    rng = _rng(rng)
    split = rng.randint(1, M - 1)
    d0, d1 = rng.randint(split, max(split, max_den)), rng.randint(M - split, max(M - split, max_den))
    r0 = [fmpq(v, d0) for v in random_composition(rng, d0, split)] + [fmpq(0)] * (M - split)
    r1 = [fmpq(0)] * split + [fmpq(v, d1) for v in random_composition(rng, d1, M - split)]
    rest = [random_distribution(rng, M, max_den).probs for _ in range(N - 2)]
    order = list(range(M))
    rng.shuffle(order)
    rows = [[r[k] for k in order] for r in [r0, r1, *rest]]
    return Kernel.from_exact_rows(rows, False)


def edge_kernels() -> list[Kernel]:
    """Edge cases: identity, constant rows, zero entries, a single input, unequal output sizes."""
    h, t, q = fmpq(1, 2), fmpq(1, 3), fmpq(1, 4)
    kernels = [
        Kernel.identity(2), Kernel.identity(3),
        Kernel.from_exact_rows([[h, h], [h, h]], False),
        Kernel.from_exact_rows([[1, 0], [h, h]], False),
        Kernel.from_exact_rows([[t, t, t], [h, h, 0], [0, 0, 1]], False),
        Kernel.from_exact_rows([[q, q, q, q], [1, 0, 0, 0]], False),
        Kernel.from_exact_rows([[t, 2 * t]], False),
        Kernel.from_exact_rows([[1, 0, 0, 0, 0], [0, q, q, q, q], [fmpq(1, 5)] * 5], False),
    ]
    return [Kernel.from_exact_rows([[fmpq(v) for v in r] for r in K.rows], False) for K in kernels]


def catalogue_kernels() -> list[Kernel]:
    """The mechanism catalogue at a few exact parameters (RR, unary encodings, [G]'s kernels, identities)."""
    from exactdp import mechanisms as m

    out = [m.randomized_response(k, g) for k in (2, 3, 4) for g in (fmpq(1), fmpq(2), fmpq(7, 3), fmpq(9))]
    out += [m.optimized_unary_encoding(3, fmpq(3)), m.symmetric_unary_encoding(2, fmpq(4))]
    out += [m.optimal_binary_approx_ldp(fmpq(2), fmpq(1, 10)), m.grosse_binary_mechanism(fmpq(3), fmpq(1, 4))]
    out += [m.grosse_pml_mechanism(4, fmpq(3), fmpq(1, 8)), m.grosse_intro_K1(), m.grosse_intro_K2(),
            m.grosse_example2_K1(4), m.disjoint_rows_witness(3)]
    return out


def small_grid_kernels(quick: bool) -> list[Kernel]:
    """Exhaustive families: every 2×2 kernel with entries in (1/6)ℤ, every 2×3 one in (1/3)ℤ (and, in the full
    run, every 3×2 one in (1/4)ℤ)."""
    out = list(grid_kernels(2, 2, 6)) + list(grid_kernels(2, 3, 3))
    if not quick:
        out += list(grid_kernels(3, 2, 4))
    return out
