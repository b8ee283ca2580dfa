r"""[G] eq. (1) (G-1) and D-5: the LDP functional.

Statement: LDP(K) = sup_y sup_{x,x'} log K(y|x)/K(y|x'); it is +∞ iff some column has both a zero and a
           non-zero entry; K is ε-LDP iff LDP(K) ≤ ε.
Checked:   the vectorized ``ldp_ratio`` against brute force over all (y, x, x') on random exact kernels,
           kernels with zeros and edge cases; the ∞ criterion; ε-LDP at γ = ldp_ratio and not below
           (through the E_γ decision at δ = 0).
Not shown: irrational γ (exact rational γ only here).
"""

import sympy

from exactdp.measures.privacy import is_ldp, ldp_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import ldp_ratio_by_pairs


def _families(ctx):
    rng = ctx.rng("eq1")
    n = ctx.size(30, 300)
    return [("random kernels", (inst.random_kernel(rng, 2 + k % 3, 2 + k % 4) for k in range(n))),
            ("kernels with zeros", (inst.random_kernel_with_zeros(rng, 2 + k % 3, 2 + k % 3) for k in range(n // 3))),
            ("edge cases", inst.edge_kernels()), ("mechanism catalogue", inst.catalogue_kernels()),
            ("exhaustive small grids", inst.small_grid_kernels(ctx.quick))]


def _test(K):
    r, b = ldp_ratio(K), ldp_ratio_by_pairs(K)
    mixes = any(0 in K.column(y) and any(v != 0 for v in K.column(y)) for y in range(K.M))
    ok = (str(r) == str(b)) and ((r == sympy.oo) == mixes)
    if ok and r != sympy.oo:
        ok = bool(is_ldp(K, t=r)) and (r == 1 or not bool(is_ldp(K, t=r - (r - 1) / 1000)))
    return ok, exact_data(K=K, ldp_ratio=r, brute_force=b)


register(Claim(
    id="grosse2026.eq1_ldp",
    catalogue=("G-1", "D-5"),
    source=Source(GROSSE2026, "eq. (1)", section="I", equation="1"),
    title="The LDP functional and its infinite case",
    statement=r"\mathrm{LDP}(K)=\sup_y\sup_{x,x'}\log\frac{K_{Y|X=x}(y)}{K_{Y|X=x'}(y)}",
    hypotheses="finite kernels with rational entries",
    checks=(Check("closed form vs brute force", lambda ctx: check_instances(_families(ctx), _test,
                  claim="ldp_ratio = brute force; infinite iff a column mixes 0 and >0; eps-LDP exactly at it")),),
    expected=Verdict.VERIFIED,
    kind="definition",
    formulas=("LDP(K) = sup_log_ratio(K)",),
))
