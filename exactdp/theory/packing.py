r"""Packings for the private Fano bound ([A] §IV-B appendix, docs/claims.md A-13, F-A11).

[A] uses 𝒱 ⊂ {−1,+1}^k with pairwise ℓ₁ ≥ k/2 (Hamming ≥ k/4) and |𝒱| ≥ ⌈e^{k/16}⌉ (Gilbert–Varshamov).
In {0,1}^k the same ℓ₁ condition is Hamming ≥ k/2, and Plotkin's bound allows at most 2k codewords,
fewer than e^{k/16} once k is large (F-A11) — :func:`plotkin_crossover` finds the first such k, certified.
"""

from __future__ import annotations

import random

from flint import arb, ctx

from exactdp.errors import ParameterError
from exactdp.parameters import check_count


def gv_size(k: int) -> int:
    """⌈e^{k/16}⌉, exactly (certified ceiling of an arb ball)."""
    with ctx.workprec(128):
        v = (arb(k) / 16).exp()
        lo_z, hi_z = v.lower().floor().unique_fmpz(), v.upper().ceil().unique_fmpz()
    assert lo_z is not None and hi_z is not None  # the floor/ceiling of an exact endpoint is an integer
    lo, hi = int(lo_z), int(hi_z)
    for cand in range(lo, hi + 1):  # the smallest integer certified >= e^{k/16}
        with ctx.workprec(128):
            if arb(cand) >= v:
                return cand
    raise ParameterError(f"k: could not certify ceil(e^(k/16)) for k = {k}")  # pragma: no cover


def sign_packing(k: int, seed: int = 0, tries: int = 2000) -> list[tuple[int, ...]]:
    """A greedy packing in {−1,+1}^k with pairwise ℓ₁ distance ≥ k/2 (= 2·Hamming), from seeded candidates.

    Deterministic given ``seed``; stops once it holds ⌈e^{k/16}⌉ codewords (or after ``tries`` candidates).
    """
    check_count(k, "k")
    rng = random.Random(f"packing:{seed}:{k}")
    target, code = gv_size(k), [tuple([1] * k)]
    for _ in range(tries):
        if len(code) >= target:
            break
        v = tuple(rng.choice((-1, 1)) for _ in range(k))
        if all(2 * sum(a != b for a, b in zip(v, w)) * 2 >= k for w in code):
            code.append(v)
    return code


def l1(v, w) -> int:
    return sum(abs(a - b) for a, b in zip(v, w))


def plotkin_crossover(k_max: int = 400) -> int:
    """The least k with ⌈e^{k/16}⌉ > 2k (it stays so: e^{x/16}/x increases for x > 16): from there on no
    {0,1}^k code with Hamming distance ≥ k/2 reaches [A]'s packing size (Plotkin, F-A11)."""
    for k in range(17, k_max + 1):
        if gv_size(k) > 2 * k:
            return k
    raise ParameterError(f"k_max: no crossover up to {k_max}")
