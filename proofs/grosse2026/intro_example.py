r"""[G] §I introduction example (G-2): two kernels with LDP = ∞ that PML tells apart.

Statement: K₁ (4×4, one zero per column, entries 1/3) and K₂ = I₄ both have LDP = ∞, yet
           e^{C(K₁,Q(c))} = 1/(3c) and e^{C(I₄,Q(c))} = 1/c; η_TV(K₁) = 1/3, η_TV(I₄) = 1; Theorem 1 at
           ε₁ = −log(3c) gives (1 − 3c)/(1 − c) ≥ 1/3 with equality at c = 1/4 ([DERIVED] values).
Checked:   every fact exactly on a grid of c ∈ (0, 1/4]; the identity Ξ(−log 3c, c) = (1−3c)/(1−c) symbolically.
Not shown: —
"""

import sympy
from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.mechanisms import grosse_intro_K1, grosse_intro_K2
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data, prove_zero
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import xi, xi_first

CS = (fmpq(1, 4), fmpq(1, 5), fmpq(1, 8), fmpq(1, 12), fmpq(1, 100), fmpq(1, 1000))


def _facts(ctx):
    K1, K2 = grosse_intro_K1(), grosse_intro_K2()

    def test(c):
        zeros_ok = all(list(K1.column(y)).count(0) == 1 and sum(K1.column(y), fmpq(0)) == 1 for y in range(4))
        r1, r2 = pml_ratio(K1, c), pml_ratio(K2, c)
        x = xi(r1, c, 4)
        ok = (zeros_ok and ldp_ratio(K1) == sympy.oo and ldp_ratio(K2) == sympy.oo and r1 == 1 / (3 * c)
              and r2 == 1 / c and eta_tv(K1) == fmpq(1, 3) and eta_tv(K2) == 1
              and x == (1 - 3 * c) / (1 - c) and x >= fmpq(1, 3) and (x == fmpq(1, 3)) == (c == fmpq(1, 4)))
        return ok, exact_data(c=c, pml_ratio_K1=r1, pml_ratio_K2=r2, Xi_at_eps1=x, eta_K1=eta_tv(K1))

    return check_instances([("c grid in (0, 1/4]", CS)], test, claim="K1, K2 exact facts")


def _identity(ctx):
    c = sympy.Symbol("c", positive=True)
    return prove_zero(xi_first(1 / (3 * c), c, 4) - (1 - 3 * c) / (1 - c),
                      claim="Thm 1's bound at e^eps = 1/(3c), N = 4 is (1-3c)/(1-c)")


register(Claim(
    id="grosse2026.intro_example",
    catalogue=("G-2",),
    source=Source(GROSSE2026, "introduction example", section="I"),
    title="Intro example: K1 and I_4 both have LDP = inf, but PML 1/(3c) vs 1/c",
    statement=r"e^{C(K_1,\mathcal Q(c))}=\frac1{3c},\quad e^{C(I_4,\mathcal Q(c))}=\frac1c,\quad \eta_{TV}(K_1)=\frac13,\quad \Xi(-\log 3c,c)=\frac{1-3c}{1-c}",
    hypotheses="`0 < c <= 1/4`",
    checks=(Check("exact facts", _facts), Check("Thm 1 value", _identity)),
    expected=Verdict.VERIFIED,
    kind="example",
    formulas=("exp(C(K1, c)) = 1/(3*c)",
              "exp(C(I_4, c)) = 1/c",
              "eta_tv(K1) = 1/3",
              "Xi(-log(3*c), c) = (1 - 3*c)/(1 - c)"),
))
