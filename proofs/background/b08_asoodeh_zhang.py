r"""B-8 (Asoodeh–Zhang, JSAIT 2024, [G] [9]): η_{χ²}(K) ≤ ((e^ε−1)/(e^ε+1))² for ε-LDP K — recalled, [RECON].

Statement ([RECON]): for ε-LDP K, D_f(KP‖KQ) ≤ ((e^ε−1)/(e^ε+1))²·D_f(P‖Q) for f = χ² (and KL, H² per the abstract).
Checked:   random full-support kernels (e^ε = ldp_ratio(K)) and random input pairs: χ² exactly, KL and H²
           certified.
Proved:    for two inputs (N = 2, every M, every t = e^ε ≥ 1) by the certificate of
           :mod:`exactdp.theory.chi2_certificates` (the χ² ratio of a binary-input kernel is
           1 − Σ_y b_y φ_α(a_y/b_y), φ_α concave above its chord on [1/t, t], the chord sums to randomized
           response's value), filed under this claim's statement on its domain t ≥ 1 (``Claim.domain``); the
           exact η_χ²(K) of random two-input kernels (:func:`exactdp.measures.chi2_contraction.eta_chi2`) is
           checked against the bound too.  The claim's verdict stays "verified", its scope "proved for N = 2,
           all M; t >= 1; instances beyond".
Not shown: N ≥ 3 (sampled inputs only: the chord argument needs the one-dimensional prior family of two
           inputs); the statement itself is recalled, not stored.
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
from exactdp.theory.chi2_certificates import asoodeh_zhang_two_inputs
from exactdp.verification.claims import Check, Claim, Verdict, proved, register


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


def _two_input_proof(ctx):
    """η_χ²(K) ≤ ((t − 1)/(t + 1))² for every t-LDP kernel with two inputs, from the certificate."""
    return proved("eta_chi2(K) <= ((t-1)/(t+1))^2 for every t-LDP kernel with two inputs and any number of outputs",
                  (asoodeh_zhang_two_inputs(),), "N = 2, all M; t >= 1")


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
    id="background.b08_asoodeh_zhang",
    catalogue=("B-8",),
    source=Source(GROSSE2026, "reference [9] (Asoodeh-Zhang 2024)"),
    title="Asoodeh-Zhang: f-divergence contraction of eps-LDP kernels",
    statement=r"\eta_{\chi^2}(K)\le\Big(\frac{e^\varepsilon-1}{e^\varepsilon+1}\Big)^2",
    hypotheses="`K` `eps`-LDP",
    checks=(Check("sampled inputs", _run),
            Check("two-input proof", _two_input_proof, "certificate: chord of the concave phi_alpha; N = 2, all M"),
            Check("two-input values", _two_input_values, "exact eta_chi2(K) of two-input kernels", supporting=True)),
    expected=Verdict.VERIFIED,
    reconstructed=True,
    kind="background",
    formulas=("eta_chi2(K) <= ((exp(eps) - 1)/(exp(eps) + 1))^2",),
    #: eps >= 0 (docs/claims.md B-8): the two-input certificate is filed under the claim on t = e^eps >= 1
    domain=("t >= 1",),
))
