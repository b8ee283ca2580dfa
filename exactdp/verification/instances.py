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
    return Distribution._trusted(tuple(fmpq(p, d) for p in parts), False)


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
    K = Kernel._trusted(rows, False, name=name)
    K._int_rows = IntRows([parts for parts, _ in draws], [d for _, d in draws])
    return K


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
        yield Kernel._trusted([rows[i] for i in combo], False)
