r"""B-8 (Asoodeh–Zhang, JSAIT 2024, [G] [9]): η_{χ²}(K) ≤ ((e^ε−1)/(e^ε+1))² for ε-LDP K — recalled, [RECON].

Statement ([RECON]): for ε-LDP K, D_f(KP‖KQ) ≤ ((e^ε−1)/(e^ε+1))²·D_f(P‖Q) for f = χ² (and KL, H² per the abstract).
Proved:    the χ² statement η_χ²(K) ≤ ((t − 1)/(t + 1))² for every N, M and t = e^ε ≥ 1, by the certificates of
           :mod:`exactdp.theory.chi2_certificates`: with g = Q/P − 1, χ²(Q‖P) − χ²(KQ‖KP) is the expected
           conditional variance of g given the output, ½ Σ_{x,x′} P(x)P(x′)(g(x) − g(x′))²·c_{xx′} with
           c_{xx′} = Σ_y K(y|x)K(y|x′)/(KP)(y); Cauchy–Schwarz gives c_{xx′} ≥ BC², BC the Bhattacharyya
           coefficient of rows x, x′, and t-LDP (√ above its chord on [1/t, t]) gives BC ≥ 2√t/(t + 1), so
           χ²(KQ‖KP) ≤ (1 − 4t/(t + 1)²)·χ²(Q‖P).  Filed under the written statement
           :func:`proofs._statements.az_chi2_bound`; it rests on no cited result.
Checked (supporting): random full-support kernels (e^ε = ldp_ratio(K)) and random input pairs: χ² exactly, KL
           and H² certified; the exact η_χ²(K) of random two-input kernels
           (:func:`exactdp.measures.chi2_contraction.eta_chi2`) against the bound.
Not shown: the KL and H² forms (sampled only; η_KL = η_χ² for input-free coefficients is not proved here); the
           statement itself is recalled, not stored.
"""
from flint import fmpq

from exactdp.measures.chi2_contraction import eta_chi2
from exactdp.measures.divergences import chi2, hellinger2, kl
from exactdp.measures.privacy import ldp_ratio
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.numbers.truth import Truth
from exactdp.theory.chi2_certificates import SCOPE, asoodeh_zhang
from exactdp.verification.claims import Check, Claim, Verdict, proved, register

from .._statements import az_chi2_bound

CID = "background.b08_asoodeh_zhang"


def _run(ctx):
    rng = ctx.rng("b8")

    def instances():
        for k in range(ctx.size(12, 100)):
            K = inst.random_kernel(rng, 2 + k % 2, 2 + k % 3, 9, full_support=True)
            P = inst.random_distribution(rng, K.N, 9, full_support=True)
            Q = inst.random_distribution(rng, K.N, 9, full_support=True)
            for name, D in (("chi2", chi2), ("KL", kl), ("H2", hellinger2)):
                yield name, D, K, P, Q

    def test(x):
        name, D, K, P, Q = x
        E = ldp_ratio(K)
        coef = ((E - 1) / (E + 1)) ** 2
        lhs, rhs = D(K.apply(P), K.apply(Q)), to_sympy(coef) * to_sympy(D(P, Q))
        return decide_le(lhs, rhs), exact_data(f=name, K=K, P=P, Q=Q, e_eps=E, lhs=lhs, rhs=rhs,
                                               lhs_enclosure=enclosure(lhs))

    return check_instances([("random eps-LDP (K, P, Q) x {chi2, KL, H2}", instances())], test,
                           claim="D_f(KP||KQ) <= ((e^eps-1)/(e^eps+1))^2 D_f(P||Q)")


def _proof(ctx):
    """η_χ²(K) ≤ ((t − 1)/(t + 1))² for every t-LDP kernel, every N and M, from the certificates."""
    return proved("eta_chi2(K) <= ((t-1)/(t+1))^2 for every t-LDP kernel (any numbers of inputs and outputs)",
                  asoodeh_zhang(), SCOPE)


def _two_input_values(ctx):
    """The exact η_χ²(K) (supremum over inputs) of random two-input kernels against the bound at t = ldp_ratio(K)."""
    rng = ctx.rng("b8-two")

    def instances():
        for k in range(ctx.size(10, 60)):
            yield inst.random_kernel(rng, 2, 2 + k % 3, 9, full_support=True)

    def test(K):
        E = ldp_ratio(K)
        bound = ((E - 1) / (E + 1)) ** 2
        value = eta_chi2(K).value
        truth = Truth.TRUE if value.compare_rational(fmpq(bound)) <= 0 else Truth.FALSE
        return truth, exact_data(K=K, e_eps=E, eta_chi2=value.approx(20), bound=bound)

    return check_instances([("random two-input eps-LDP kernels: exact eta_chi2(K)", instances())], test,
                           claim="eta_chi2(K) <= ((e^eps-1)/(e^eps+1))^2")


register(Claim(
    id=CID,
    catalogue=("B-8",),
    source=Source(GROSSE2026, "reference [9] (Asoodeh-Zhang 2024)"),
    title="Asoodeh-Zhang: f-divergence contraction of eps-LDP kernels",
    statement=r"\eta_{\chi^2}(K)\le\Big(\frac{e^\varepsilon-1}{e^\varepsilon+1}\Big)^2",
    hypotheses="`K` `eps`-LDP",
    checks=(Check("proof", _proof, "certificate: pair form of the total variance, Bhattacharyya coefficient >= "
                                   "2 sqrt(t)/(t + 1); all N, M"),
            Check("sampled inputs", _run, supporting=True),
            Check("two-input values", _two_input_values, "exact eta_chi2(K) of two-input kernels", supporting=True)),
    expected=Verdict.PROVED,
    written=(az_chi2_bound(CID),),
    reconstructed=True,
    kind="background",
    formulas=("eta_chi2(K) <= ((exp(eps) - 1)/(exp(eps) + 1))^2",),
    #: eps >= 0 (docs/claims.md B-8): the proof's steps are filed under the claim on t = e^eps >= 1
    domain=("t >= 1",),
))
