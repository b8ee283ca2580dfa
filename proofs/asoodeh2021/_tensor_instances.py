"""Instance families shared by the n-fold product claims (A-8, A-10, B-9, B-10, F-A1, F-A7).

Kernels with exact privacy levels: for a kernel K and γ = e^ε the tight δ is η_{E_γ}(K) ([A] Thm 1),
so K is (log γ, δ)-LDP and no smaller δ works.  No algorithms here: the computations are in
:mod:`exactdp.measures.tensor`.
"""

from __future__ import annotations

import itertools

from flint import fmpq

from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import (
    grosse_binary_mechanism,
    grosse_example2_K1,
    optimal_binary_approx_ldp,
    optimized_unary_encoding,
    randomized_response,
    symmetric_unary_encoding,
)
from exactdp.numbers.digits import round_significant
from exactdp.verification import instances as inst

#: n used on catalogue kernels (quick, full)
CATALOGUE_N = ((1, 2, 3, 5, 10, 20, 100), (1, 2, 3, 5, 10, 20, 50, 100, 1000))
#: n used on random kernels, by output size M (quick, full): one pair-type search per (kernel, n);
#: 2×2 searches cost O(n) univariate products, larger M a 2-variable product per pair type
RANDOM_N = {2: ((1, 2, 3, 5, 10, 20), (1, 2, 3, 5, 10, 20, 50, 100)), 3: ((1, 2, 3, 5), (1, 2, 3, 5, 10, 20))}


def catalogue_kernels():
    """(label, K) for the catalogue mechanisms (all have one pair class: one evaluation per n)."""
    return [
        ("RR_2(3)", randomized_response(2, 3)),
        ("RR_2(5/4)", randomized_response(2, fmpq(5, 4))),
        ("RR_3(2)", randomized_response(3, 2)),
        ("RR_4(3/2)", randomized_response(4, fmpq(3, 2))),
        ("OptBin(2, 1/10)", optimal_binary_approx_ldp(2, fmpq(1, 10))),
        ("OptBin(3/2, 1/100)", optimal_binary_approx_ldp(fmpq(3, 2), fmpq(1, 100))),
        ("Grosse Ex.1 (3, 1/4)", grosse_binary_mechanism(3, fmpq(1, 4))),
        ("Grosse Ex.2 K1 (N=4)", grosse_example2_K1(4)),
        ("OUE_3(3)", optimized_unary_encoding(3, 3)),
        ("SUE_3(4)", symmetric_unary_encoding(3, 4)),
    ]


def levels(K):
    """Exact (γ, δ) privacy levels of K: (LDP ratio, 0) when finite, and the midpoint γ with its tight δ."""
    out = []
    r = ldp_ratio(K)
    if isinstance(r, fmpq):
        out.append((r, fmpq(0)))
        mid = (1 + r) / 2
    else:
        mid = fmpq(2)
    if mid > 1:
        out.append((mid, eta_hockey_stick(K, mid)))
    return out


def random_kernels(ctx, salt: str, count_quick: int = 4, count_full: int = 12):
    """Seeded ``(K, ns)``: random 2×2, 2×3, 3×2 kernels with full support (finite LDP ratio) and the n
    to check; in full mode the first 2×2 kernel also gets n = 1000."""
    rng = ctx.rng(salt)
    shapes = ((2, 2), (2, 3), (3, 2))
    out = []
    for k in range(ctx.size(count_quick, count_full)):
        K = inst.random_kernel(rng, *shapes[k % 3], 9, full_support=True)
        ns = RANDOM_N[K.M][0 if ctx.quick else 1]
        out.append((K, ns + ((1000,) if k == 0 and not ctx.quick else ())))
    return out


def catalogue_items(ctx):
    """``(name, K, ns)`` for every catalogue kernel, n ≤ 100 (quick) or ≤ 1000 (full)."""
    ns = CATALOGUE_N[0 if ctx.quick else 1]
    return [(name, K, ns) for name, K in catalogue_kernels()]


def random_items(ctx, salt: str):
    """``(name, K, ns)`` for the seeded random kernels of :func:`random_kernels` (4 quick, 6 full: the claims
    using them, A-8 and B-10, are proved for every n by certificates, so these are supporting instances)."""
    return [(f"random#{k}", K, ns) for k, (K, ns) in enumerate(random_kernels(ctx, salt, 4, 6))]


def leveled(items):
    """Flatten ``(name, K, ns)`` items into ``(name, K, γ, δ, n, last)`` over the exact levels of each K;
    ``last`` marks the largest n of a (K, level) — where the checks report tightness."""
    for name, K, ns in items:
        for g, d in levels(K):
            for n in ns:
                yield name, K, g, d, n, n == ns[-1]


def common_level_products(ctx, salt: str, gammas=(2, 3), splits=((1, 1), (2, 3), (4, 4))):
    """Seeded ``(K1, K2, γ, δ, a, b)``: consecutive random kernels at a common level γ with
    δ = max(η_{E_γ}(K1), η_{E_γ}(K2)) (both are (log γ, δ)-LDP), for the products K1^{⊗a} ⊗ K2^{⊗b}."""
    kernels = [K for K, _ in random_kernels(ctx, salt, 4, 8)]
    for K1, K2 in itertools.pairwise(kernels):
        for g in gammas:
            d = max(eta_hockey_stick(K1, g), eta_hockey_stick(K2, g))
            for a, b in splits:
                yield K1, K2, fmpq(g), d, a, b


def approx(q, digits: int = 6) -> str:
    """A correctly rounded decimal of an exact rational, for reports (the exact value is kept elsewhere)."""
    return "≈" + round_significant(q, digits)
