r"""D-7: non-interactive multi-sample mechanisms are product kernels K₁⊗…⊗K_n.

Statement: the product kernel has rows (K₁⊗…⊗K_n)((y_i)|(x_i)) = ∏_i K_i(y_i|x_i) (Kronecker products),
           and its LDP ratio is the product of the factors' ratios: e^{LDP(K₁⊗…⊗K_n)} = ∏_i e^{LDP(K_i)}
           (so n ε-LDP mechanisms compose to exactly nε-LDP, no better).
Checked:   the rows of ``Kernel.tensor`` against the product formula; the LDP ratio of random products
           and of tensor powers K^{⊗n} (n ≤ 3) against the product of ratios, exactly.
Not shown: sequentially interactive mechanisms (their kernels are not products).
"""

import itertools

from exactdp.measures.privacy import ldp_ratio
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register


def power_ratio_check(exponent=lambda n: n):
    """ldp_ratio(K^{⊗n}) == ldp_ratio(K)^{exponent(n)} on full-support kernels (exponent(n) = n is the claim)."""

    def run(ctx):
        rng = ctx.rng("d7")

        def test(k):
            K = inst.random_kernel(rng, 2, 2 + k % 2, 8, full_support=True)
            n = 2 + k % 2
            lhs, r = ldp_ratio(K.tensor_power(n)), ldp_ratio(K)
            rhs = r ** exponent(n)
            return lhs == rhs, exact_data(K=K, n=n, ldp_ratio_product=lhs, claimed=rhs)

        return check_instances([("K^(x n), n in {2,3}", range(ctx.size(6, 30)))], test,
                               claim="LDP ratio of the n-fold product is the n-th power")
    return run


def _rows(ctx):
    rng = ctx.rng("d7r")

    def test(k):
        A = inst.random_kernel(rng, 2 + k % 2, 2, 6, full_support=True)
        B = inst.random_kernel(rng, 2, 2 + k % 3, 6, full_support=True)
        T = A.tensor(B)
        ok = all(T[x * B.N + x2, y * B.M + y2] == A[x, y] * B[x2, y2]
                 for x, x2, y, y2 in itertools.product(range(A.N), range(B.N), range(A.M), range(B.M)))
        ok = ok and ldp_ratio(T) == ldp_ratio(A) * ldp_ratio(B)
        return ok, exact_data(A=A, B=B)

    return check_instances([("random pairs of kernels", range(ctx.size(8, 60)))], test,
                           claim="product rows are Kronecker products; LDP ratios multiply")


register(Claim(
    id="background.d07_product_kernels",
    catalogue=("D-7",),
    source=Source(ASOODEH2021, "multi-sample mechanisms", section="IV, VI"),
    title="Non-interactive mechanisms are product kernels; LDP ratios multiply",
    statement=r"(K_1\otimes\cdots\otimes K_n)(y^n|x^n)=\prod_i K_i(y_i|x_i),\qquad e^{\mathrm{LDP}(K_1\otimes\cdots\otimes K_n)}=\prod_i e^{\mathrm{LDP}(K_i)}",
    hypotheses="finite kernels; non-interactive",
    checks=(Check("Kronecker rows", _rows), Check("tensor powers", power_ratio_check())),
    expected=Verdict.VERIFIED,
    kind="definition",
    formulas=("K_n(y_n, x_n) = prod_K_i(y_i, x_i)", "exp(LDP(K_n)) = prod_exp_LDP_K_i"),
))
