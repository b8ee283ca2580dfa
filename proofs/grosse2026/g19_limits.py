r"""[G] limits after Theorem 3 (G-19): c → 0 recovers eq. (13); the value at c = 1/N.

Statement: lim_{c→0} Ξ(ε,c) = (e^ε−1)/(e^ε+1) (eq. (13)); at c = 1/N the value is min{e^ε − 1, 1}
           (the paper's unqualified "= e^ε − 1" is findings.fg01_uniform_range).
Checked:   the limit exactly (continuity of the rational Ξ₁ at c = 0, all N); at c = 1/N, attainment of min{e^ε − 1, 1} exactly: for e^ε ≤ 2 by the
           G-20 mechanism with q = N/2 (PML ratio ≤ e^ε, η_TV = e^ε − 1) and for e^ε ≥ 2 by the Thm 2 witness
           (PML ratio 2 ≤ e^ε, η_TV = 1), N ∈ {2, 4, 6}.  The upper bound is Theorem 1 (extremal module).
Not shown: Remark 1 (text not stored).
"""

import sympy
from flint import fmpq

from exactdp.bounds import c, t, xi_raw

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import disjoint_rows_witness, grosse_pml_mechanism
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import xi
from exactdp.verification.identities import Eq, Statement, at, symbolic_outcome

GS = (fmpq(1), fmpq(11, 10), fmpq(6, 5), fmpq(3, 2), fmpq(2), fmpq(5, 2), fmpq(3), fmpq(10))


def _limit(ctx):
    """lim_{c→0} Ξ₁ = Ξ₁(c = 0) by continuity: Ξ₁ is rational in c with denominator t(1 − Nc) + 1, which is
    t + 1 > 0 at c = 0; the value there is (t − 1)/(t + 1) (identity).  Ξ₁ = Ξ near c = 0 since (t−1)/(t+1) < 1."""
    return symbolic_outcome((
        Statement("denominator of Xi1 at c = 0 is t + 1", Eq(at(sympy.denom(sympy.together(xi_raw)), (c, 0)), t + 1)),
        Statement("t + 1 >= 2 > 0 (continuity of Xi1 at c = 0)", t + 1 >= 2, (t >= 1,)),
        Statement("Xi1(c = 0) = (t-1)/(t+1)", Eq(at(xi_raw, (c, 0)), (t - 1) / (t + 1))),
        Statement("(t-1)/(t+1) < 1, so Xi = Xi1 near c = 0", (t - 1) / (t + 1) < 1, (t >= 1,)),
    ), "lim_{c->0} Xi = (e^eps-1)/(e^eps+1)", scope="all parameters")


def uniform_attainment_check(ctx):
    def instances():
        for N in (2, 4, 6):
            for g in GS:
                yield N, g

    def test(x):
        N, g = x
        c = fmpq(1, N)
        K = grosse_pml_mechanism(N, g, c, N // 2) if g <= 2 else disjoint_rows_witness(N)
        r, e = pml_ratio(K, c), eta_tv(K)
        target = min(g - 1, fmpq(1))
        return r <= g and e == target == xi(g, c, N), exact_data(N=N, e_eps=g, kernel=K, pml_ratio=r, eta_tv=e,
                                                                target=target)

    return check_instances([("N in {2,4,6} x e^eps grid, c = 1/N", instances())], test,
                           claim="min{e^eps - 1, 1} is attained at c = 1/N")


register(Claim(
    id="grosse2026.g19_limits",
    catalogue=("G-19",),
    source=Source(GROSSE2026, "limits after Theorem 3", section="III"),
    title="Limits: c -> 0 recovers eq. (13); c = 1/N gives min{e^eps - 1, 1}",
    statement=r"\lim_{c\to0}\Xi(\varepsilon,c)=\frac{e^\varepsilon-1}{e^\varepsilon+1},\qquad \eta_{TV}(\varepsilon,1/N)=\min\{e^\varepsilon-1,1\}",
    hypotheses="`N >= 2`",
    checks=(Check("c -> 0", _limit), Check("c = 1/N attained", uniform_attainment_check)),
    expected=Verdict.VERIFIED,
    notes="The corrected c = 1/N value; the paper's 'e^eps - 1' fails for e^eps > 2 (findings.fg01_uniform_range).",
    related=("findings.fg01_uniform_range",),
    formulas=("lim_c0_Xi(eps) = (exp(eps) - 1)/(exp(eps) + 1)", "eta_tv(eps, 1/N) = Min(exp(eps) - 1, 1)"),
))
