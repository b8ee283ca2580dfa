r"""F-A6 (docs/claims.md §6, A-1): the probabilistic reading of approximate LDP is not equivalent to D-6.

Statement checked (and refuted): "K is (ε,δ)-LDP ⟺ P_{Z~K_x}[log K(Z|x)/K(Z|x') > ε] ≤ δ for all x, x'".
Witness:   ε = 0, K_x = (3/5, 2/5), K_{x'} = (1/2, 1/2), δ = 1/10: K is (0, 1/10)-LDP (TV = 1/10) but
           P_{K_x}(loss > 0) = 3/5 > 1/10.  Only the direction "probabilistic ⟹ (ε,δ)-LDP" holds
           (asoodeh2021.a01_privacy_loss).
"""

from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.measures.privacy import is_ldp
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import privacy_loss_tail

WITNESS = (Kernel([["3/5", "2/5"], ["1/2", "1/2"]]), fmpq(1), fmpq(1, 10))


def _run(ctx):
    rng = ctx.rng("fa6")

    def test(x):
        K, g, d = x
        a = bool(is_ldp(K, t=g, delta=d))
        tail = max(privacy_loss_tail(K[i], K[j], g) for i in range(K.N) for j in range(K.N) if i != j)
        b = tail <= d
        return a == b, exact_data(K=K, e_eps=g, delta=d, eps_delta_ldp=a, max_loss_tail=tail)

    randoms = ((K, g, d) for K in (inst.random_kernel(rng, 2, 2) for _ in range(ctx.size(5, 30)))
               for g in (fmpq(1),) for d in (fmpq(1, 10),))
    return check_instances([("F-A6 witness", [WITNESS]), ("random kernels", randoms)], test,
                           claim="(eps,delta)-LDP iff P(loss > eps) <= delta")


register(Claim(
    id="findings.fa06_probabilistic_ldp",
    catalogue=("F-A6", "A-1"),
    source=Source(ASOODEH2021, "informal description of approximate LDP", section="I-C", page="1"),
    title="The 'loss <= eps with probability >= 1 - delta' reading is not equivalent to (eps,delta)-LDP",
    statement=r"K\ (\varepsilon,\delta)\text{-LDP}\iff\Pr_{Z\sim K_x}\Big[\log\tfrac{K(Z|x)}{K(Z|x')}>\varepsilon\Big]\le\delta\ \ \forall x,x'",
    hypotheses="as read from the informal description",
    checks=(Check("equivalence on the witness", _run),),
    expected=Verdict.REFUTED,
    kind="finding",
    related=("asoodeh2021.a01_privacy_loss",),
    formulas=("delta_K(eps) <= delta ⟺ P_loss(K, x, xp, eps) <= delta",),
))
