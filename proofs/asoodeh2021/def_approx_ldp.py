r"""D-6 and [A] §I-C/§III (A-5): (ε,δ)-LDP by events and by the hockey-stick divergence.

Statement: K(A|x) ≤ e^ε K(A|x') + δ for all A, x, x'  ⟺  max_{x,x'} E_{e^ε}(K_x‖K_{x'}) ≤ δ.
Checked:   two independent implementations — enumeration of all 2^M events and the exact E_γ sum
           (``is_ldp``) — agree on random kernels, kernels with zeros and edge cases, at δ = δ*(γ) (the
           boundary), just below it, at δ = 0, δ = 1 and γ = 1.
Not shown: irrational e^ε.
"""

from flint import fmpq

from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.privacy import is_ldp
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import is_ldp_by_subsets


def _instances(ctx):
    rng = ctx.rng("d6")
    kernels = [inst.random_kernel(rng, 2 + k % 3, 2 + k % 4) for k in range(ctx.size(15, 120))]
    kernels += inst.edge_kernels()
    for K in kernels:
        for g in (fmpq(1), inst.random_rational(rng, 1, 4, 5)):
            star = eta_hockey_stick(K, g)
            for d in sorted({star, max(star - fmpq(1, 97), fmpq(0)), fmpq(0), fmpq(1)}):
                yield K, g, d


def _test(x):
    K, g, d = x
    a, b = bool(is_ldp(K, t=g, delta=d)), is_ldp_by_subsets(K, g, d)
    return a == b, exact_data(K=K, gamma=g, delta=d, by_hockey_stick=a, by_events=b)


register(Claim(
    id="asoodeh2021.def_approx_ldp",
    catalogue=("D-6", "A-5"),
    source=Source(ASOODEH2021, "(eps,delta)-LDP definition", section="I-C, III"),
    title="(eps,delta)-LDP: events vs hockey-stick divergence",
    statement=r"K(A|x)\le e^{\varepsilon}K(A|x')+\delta\ \ \forall A,x,x'\iff\max_{x,x'}E_{e^\varepsilon}(K_x\|K_{x'})\le\delta",
    hypotheses="`eps >= 0` with `e^eps` rational, `0 <= delta <= 1`",
    checks=(Check("events vs E_gamma", lambda ctx: check_instances(
        [("kernels x gamma x delta (boundary, below, 0, 1)", _instances(ctx))], _test,
        claim="the two decisions agree")),),
    expected=Verdict.VERIFIED,
    reconstructed=True,
    kind="definition",
    notes="A-5's wording is reconstructed; its content is the summary's.",
    formulas=("K(A, x) <= exp(eps)*K(A, xp) + delta ⟺ max_E(exp(eps), K) <= delta",),
))
