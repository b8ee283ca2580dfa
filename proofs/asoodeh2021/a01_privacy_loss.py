r"""[A] §I-C (A-1): the informal privacy-loss description of (approximate) LDP.

Statement: pure ε-LDP ⟺ the privacy loss log K(Z|x)/K(Z|x') is ≤ ε almost surely (Z ~ K_x);
           "with probability ≥ 1 − δ" describes (ε,δ)-LDP.
Checked:   (pure) the a.s. bound ⟺ ε-LDP on random kernels at γ = e^ε on both sides of the LDP ratio;
           (approximate) the probabilistic form is *sufficient*: with δ_loss = max_{x,x'} P_{K_x}(loss > ε),
           K is (ε, δ_loss)-LDP, on random kernels and rational γ.
Not shown: the converse of the approximate form, which is false — findings.fa06_probabilistic_ldp gives
           the exact counterexample (F-A6).  Checkers use D-6, never the probabilistic form.
"""

from flint import fmpq

from exactdp.measures.privacy import is_ldp, ldp_ratio
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import privacy_loss_tail


def max_tail(K, g):
    return max(privacy_loss_tail(K[x], K[x2], g) for x in range(K.N) for x2 in range(K.N) if x != x2)


def _pure(ctx):
    rng = ctx.rng("a1p")

    def instances():
        for k in range(ctx.size(20, 200)):
            K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 3, 10, full_support=True)
            r = ldp_ratio(K)
            for g in (r, r * fmpq(11, 10), max(fmpq(1), r * fmpq(9, 10))):
                yield K, g

    def test(x):
        K, g = x
        a, b = max_tail(K, g) == 0, bool(is_ldp(K, t=g))
        return a == b, exact_data(K=K, gamma=g, loss_bounded_as=a, eps_ldp=b)

    return check_instances([("random kernels, gamma at / above / below the LDP ratio", instances())], test,
                           claim="loss <= eps almost surely iff eps-LDP")


def _sufficient(ctx):
    rng = ctx.rng("a1s")

    def test(k):
        K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 4, 10)
        g = inst.random_rational(rng, 1, 4, 6)
        d = max_tail(K, g)
        return bool(is_ldp(K, t=g, delta=d)), exact_data(K=K, gamma=g, delta_loss=d)

    return check_instances([("random kernels, gamma in [1,4]", range(ctx.size(30, 300)))], test,
                           claim="P(loss > eps) <= delta for all x, x' implies (eps,delta)-LDP")


register(Claim(
    id="asoodeh2021.a01_privacy_loss",
    catalogue=("A-1",),
    source=Source(ASOODEH2021, "informal privacy-loss description", section="I-C", page="1"),
    title="Privacy loss bounded a.s. (pure LDP) / with probability >= 1 - delta (sufficient for approximate LDP)",
    statement=r"\Pr_{Z\sim K_x}\Big[\log\frac{K(Z|x)}{K(Z|x')}>\varepsilon\Big]\le\delta\ \ \forall x,x'\ \Longrightarrow\ K\ (\varepsilon,\delta)\text{-LDP}",
    hypotheses="finite kernels; `e^eps` rational",
    checks=(Check("pure LDP equivalence", _pure), Check("approximate: sufficiency", _sufficient)),
    expected=Verdict.VERIFIED,
    notes="Only sufficiency holds for delta > 0; the equivalence is refuted in findings.fa06_probabilistic_ldp.",
    related=("findings.fa06_probabilistic_ldp",),
    formulas=("P_loss(K, x, xp, eps) <= delta ⟹ delta_K(eps) <= delta",),
))
