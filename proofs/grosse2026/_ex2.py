r"""[G] Example 2 and Fig. 1 (G-27): the kernel K₁ (rows (15/16, 1/16) and (1/16, 15/16)); K₂ and Fig. 1.

Statement ([DERIVED] facts): for even N and u = Nc ∈ (0, 1]: LDP(K₁) = log 15, e^{C(K₁,Q(c))} = 15/(1+7u),
           η_TV(K₁) = 7/8 = Ξ(ε_c, c) for every c (K₁ is Dobrushin-optimal), Lemma 4's Γ = 8(2−u)/(1+7u).
Checked:   every fact exactly for N ∈ {2, 4, 10} and a grid of c; the docs/claims.md table of KL/TV and H²/TV at
           the extreme pair in Q_X(c) against Cor 1–2 (N = 4), reproduced to 4 decimals with certified
           enclosures, with each corollary above the true ratio; K₂, N and Fig. 1 are not stored
           (grosse2026.ex2_k2_fig1 is NOT_CHECKABLE).
Not shown: the curves of Fig. 1.
"""

import sympy
from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.measures.contraction import eta_tv
from exactdp.measures.divergences import hellinger2, kl, tv
from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.mechanisms import grosse_example2_K1
from exactdp.numbers.rb import decide_le, to_sympy
from exactdp.numbers.digits import enclosure
from exactdp.verification.checking import check_instances, exact_data
from exactdp.formulas import lemma4_gamma_max, xi

US = (fmpq(1, 10**6), fmpq(1, 10), fmpq(1, 4), fmpq(1, 2), fmpq(3, 4), fmpq(1))


def _facts(ctx):
    def instances():
        for N in (2, 4, 10):
            for u in US:
                yield N, u / N

    def test(x):
        N, c = x
        K = grosse_example2_K1(N)
        u = N * c
        r = pml_ratio(K, c)
        ok = (ldp_ratio(K) == 15 and r == 15 / (1 + 7 * u) and eta_tv(K) == fmpq(7, 8)
              and xi(r, c, N) == fmpq(7, 8) and lemma4_gamma_max(r, c, N) == 8 * (2 - u) / (1 + 7 * u))
        return ok, exact_data(N=N, c=c, pml_ratio=r, Xi=xi(r, c, N), Lemma4_Gamma=lemma4_gamma_max(r, c, N))

    return check_instances([("N in {2,4,10} x u grid", instances())], test, claim="K1 exact facts")


#: docs/claims.md G-27 table: u -> (true KL/TV, Cor 1, true H2/TV, Cor 2) at the extreme pair, 4 decimals
TABLE = {
    fmpq(1, 10**6): ("2.3695", "2.4260", "1.0318", "1.0500"),
    fmpq(1, 10): ("1.8634", "1.9168", "0.8526", "0.8728"),
    fmpq(1, 4): ("1.3758", "1.4240", "0.6546", "0.6752"),
    fmpq(1, 2): ("0.8210", "0.8582", "0.4031", "0.4207"),
    fmpq(3, 4): ("0.3891", "0.4113", "0.1938", "0.2047"),
}


def _table(ctx):
    """Reproduce the G-27 table (4 decimals, certified) and check Cor 1-2 exceed the extreme-pair ratios."""
    half = sympy.Rational(1, 20000)

    def close(value, text):
        t = sympy.Rational(text)
        return decide_le(t - half, value) & decide_le(value, t + half)

    def test(u):
        N = 4
        c = u / N
        K = grosse_example2_K1(N)
        rest = 1 - N * c
        P = Distribution([c + rest / 2, c + rest / 2, c, c])
        Q = Distribution([c, c, c + rest / 2, c + rest / 2])
        d = to_sympy(tv(P, Q))
        G = to_sympy(lemma4_gamma_max(pml_ratio(K, c), c, N))
        r_kl = kl(K.apply(P), K.apply(Q)) / d
        r_h2 = to_sympy(hellinger2(K.apply(P), K.apply(Q))) / d
        cor1 = sympy.Rational(7, 8) * sympy.log(G)
        cor2 = sympy.Rational(7, 8) * (2 - 4 / (sympy.sqrt(G) + 1))
        want = TABLE[u]
        truth = (close(r_kl, want[0]) & close(cor1, want[1]) & close(r_h2, want[2]) & close(cor2, want[3])
                 & decide_le(r_kl, cor1) & decide_le(r_h2, cor2))
        return truth, exact_data(u=u, kl_over_tv=enclosure(r_kl), cor1=enclosure(cor1), h2_over_tv=enclosure(r_h2),
                                 cor2=enclosure(cor2), table=list(want))

    return check_instances([("docs/claims.md G-27 table rows", sorted(TABLE))], test,
                           claim="G-27 table reproduced; Cor 1-2 above the extreme-pair ratios")
