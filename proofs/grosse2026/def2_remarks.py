r"""[G] Def. 2 and its remarks (G-11): (ε,c)-PML, M(ε,c), and "every mechanism is (−log c, c)-PML".

Statement: K ∈ M(ε,c) iff C(K, Q_X(c)) ≤ ε; (a) c interpolates between the uniform prior (c = 1/N) and
           LDP (c → 0); (b) every mechanism, even the identity, satisfies (−log c, c)-PML.
Checked:   exactly on random kernels (half with zeros): e^{C(K,Q(c))} ≤ 1/c with equality for the
           identity; C(K, Q_X(c)) is non-increasing in c; (a) is checked in
           grosse2026.pml_capacity_closed_form (c = 1/N) and grosse2026.eq2_ldp_sup_pml (c → 0).
Not shown: —
"""

from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.measures.privacy import pml_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def everything_is_pml_check(ctx):
    rng = ctx.rng("g11")

    def instances():
        for k in range(ctx.size(30, 300)):
            N = 2 + k % 4
            K = inst.random_kernel_with_zeros(rng, N, 2 + k % 4) if k % 2 else inst.random_kernel(rng, N, 2 + k % 4)
            yield K, inst.random_rational(rng, fmpq(1, 50), fmpq(1, N), 50)
        for N in (2, 3, 5):
            yield Kernel.identity(N), fmpq(1, N + 1)

    def test(x):
        K, c = x
        r = pml_ratio(K, c)
        c2 = (c + fmpq(1, K.N)) / 2
        ok = r <= 1 / c and pml_ratio(K, c2) <= r
        if K == Kernel.identity(K.N):
            ok = ok and r == 1 / c
        return ok, exact_data(K=K, c=c, pml_ratio=r, one_over_c=1 / c)

    return check_instances([("random kernels and identities", instances())], test,
                           claim="e^{C(K,Q(c))} <= 1/c (identity attains), non-increasing in c")


register(Claim(
    id="grosse2026.def2_remarks",
    catalogue=("G-11",),
    source=Source(GROSSE2026, "Definition 2 and remarks", section="III"),
    title="(eps,c)-PML: every mechanism is (-log c, c)-PML; monotone in c",
    statement=r"C(K,\mathcal Q_{\mathcal X}(c))\le-\log c\ \ \text{for every }K,\ \text{with equality for the identity}",
    hypotheses="`0 < c <= 1/N`",
    checks=(Check("(-log c, c)-PML and monotonicity", everything_is_pml_check),),
    expected=Verdict.VERIFIED,
    kind="definition",
    related=("grosse2026.eq2_ldp_sup_pml", "grosse2026.pml_capacity_closed_form"),
    formulas=("C(K, c) <= -log(c)", "C(I_N, c) = -log(c)"),
))
