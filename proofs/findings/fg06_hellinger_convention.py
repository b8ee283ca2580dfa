r"""F-G6 (docs/claims.md §6, G-26): Corollary 2's formula is the H² = Σ(√p − √q)² convention (no ½).

Statement: Binette's coefficient for f(t) = (√t − 1)² at m = 1/M is 2 − 4/(√M + 1), Corollary 2's factor;
           with the ½ convention, f(t) = ½(√t − 1)², it is 1 − 2/(√M + 1) — half of it.
Checked:   both identities symbolically (sympy simplification to 0, M > 1).
"""

import sympy

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import prove_zero
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import binette_coefficient
from .._statements import hellinger_conventions

M = sympy.Symbol("M", positive=True)
_t = sympy.Symbol("t", positive=True)


def _no_half(ctx):
    f = sympy.Lambda(_t, (sympy.sqrt(_t) - 1) ** 2)
    return prove_zero(binette_coefficient(f, 1 / M, M) - (2 - 4 / (sympy.sqrt(M) + 1)),
                      claim="Binette(H2 without 1/2, 1/M, M) = 2 - 4/(sqrt M + 1)", symbols=(M,),
                      domain=lambda p: p[M] > 1)


def _half(ctx):
    f = sympy.Lambda(_t, (sympy.sqrt(_t) - 1) ** 2 / 2)
    return prove_zero(binette_coefficient(f, 1 / M, M) - (1 - 2 / (sympy.sqrt(M) + 1)),
                      claim="Binette(H2 with 1/2, 1/M, M) = 1 - 2/(sqrt M + 1)", symbols=(M,),
                      domain=lambda p: p[M] > 1)


register(Claim(
    written=hellinger_conventions("findings.fg06_hellinger_convention"),
    id="findings.fg06_hellinger_convention",
    domain=(),
    catalogue=("F-G6", "G-26"),
    source=Source(GROSSE2026, "Corollary 2", section="IV"),
    title="Corollary 2 uses H^2 = sum (sqrt p - sqrt q)^2 (no 1/2)",
    statement=r"\frac{f(1/M)}{1-1/M}+\frac{f(M)}{M-1}=2-\frac{4}{\sqrt M+1}\quad\text{for } f(t)=(\sqrt t-1)^2",
    hypotheses="`M > 1`",
    checks=(Check("no-1/2 convention", _no_half), Check("1/2 convention halves it", _half)),
    expected=Verdict.PROVED,
    kind="finding",
    formulas=("f(t) = (√t - 1)^2 ⟹ (f(1/M)/(1 - 1/M) + f(M)/(M - 1) = 2 - 4/(√M + 1))",),
))
