r"""F-A2 (docs/claims.md §6): [A]'s φ(ε,δ) is valid but never tight except at ε = 0 or δ = 1.

Statement: the tight sup of η_TV over (ε,δ)-LDP kernels is (e^ε − 1 + 2δ)/(e^ε + 1) (B-4), attained by the
           binary kernel with a = (e^ε+δ)/(e^ε+1), b = (1−δ)/(e^ε+1); φ exceeds it by exactly
           (1 − δ)(e^ε − 1)/(e^ε(e^ε + 1)) > 0 unless ε = 0 or δ = 1.
Checked:   exactly on a grid of rational e^ε and δ: the attaining kernel is (ε,δ)-LDP (events and E_γ), its
           η_TV equals the tight value, φ − η_TV equals the gap formula, and the gap is 0 iff e^ε = 1 or δ = 1;
           the docs/claims.md A-7 test vectors (irrational e^ε) to 5 decimals, certified.
Not shown: that nothing exceeds the tight value (B-4, extremal module); the symbolic identity
           (symbolic module, asoodeh2021.a07_phi_vs_tight).
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import is_ldp
from exactdp.mechanisms import optimal_binary_approx_ldp
from exactdp.sources import CATALOGUE, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import phi, tight_ldp_eta
from exactdp.verification.quantities import is_ldp_by_subsets

GS = (fmpq(1), fmpq(11, 10), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(10))
DS = (fmpq(0), fmpq(1, 10000), fmpq(1, 10), fmpq(3, 10), fmpq(1))


def _run(ctx):
    def test(x):
        g, d = x
        K = optimal_binary_approx_ldp(g, d)
        e = eta_tv(K)
        gap = phi(g, d) - e
        formula = (1 - d) * (g - 1) / (g * (g + 1))
        ok = (bool(is_ldp(K, t=g, delta=d)) and is_ldp_by_subsets(K, g, d) and e == tight_ldp_eta(g, d)
              and gap == formula and (gap == 0) == (g == 1 or d == 1))
        return ok, exact_data(e_eps=g, delta=d, phi=phi(g, d), tight=e, gap=gap)

    return check_instances([("e^eps x delta grid", [(g, d) for g in GS for d in DS])], test,
                           claim="phi - tight = (1-delta)(e^eps-1)/(e^eps(e^eps+1))")


#: docs/claims.md A-7 test vectors: (eps, delta) -> (phi, tight value), 5 decimals
TABLE = {("1/2", "0"): ("0.39347", "0.24492"), ("1/2", "1/10"): ("0.45412", "0.32043"),
         ("1", "1/10000"): ("0.63216", "0.46217"), ("2", "3/10"): ("0.90527", "0.83312")}


def _table(ctx):
    import sympy

    from exactdp.numbers.rb import decide_le
    from exactdp.numbers.digits import enclosure

    half = sympy.Rational(1, 200000)

    def close(v, text):
        t = sympy.Rational(text)
        return decide_le(t - half, v) & decide_le(v, t + half)

    def test(key):
        eps, d = sympy.Rational(key[0]), sympy.Rational(key[1])
        E = sympy.exp(eps)
        p, tight = phi(E, d), tight_ldp_eta(E, d)
        want = TABLE[key]
        return close(p, want[0]) & close(tight, want[1]) & decide_le(tight, p), exact_data(
            eps=key[0], delta=key[1], phi=enclosure(p), tight=enclosure(tight), table=list(want))

    return check_instances([("docs/claims.md A-7 test vectors", sorted(TABLE))], test,
                           claim="A-7 table reproduced (irrational e^eps, certified)")


register(Claim(
    id="findings.fa02_phi_not_tight",
    catalogue=("F-A2", "X-1"),
    source=Source(CATALOGUE, "F-A2"),
    title="phi(eps,delta) is valid but not tight: exact gap to the tight (eps,delta)-LDP value",
    statement=r"\varphi(\varepsilon,\delta)-\frac{e^\varepsilon-1+2\delta}{e^\varepsilon+1}=\frac{(1-\delta)(e^\varepsilon-1)}{e^\varepsilon(e^\varepsilon+1)}",
    hypotheses="`eps >= 0`, `0 <= delta <= 1`",
    checks=(Check("attaining kernel and gap", _run), Check("A-7 table", _table)),
    expected=Verdict.VERIFIED,
    kind="finding",
    related=("asoodeh2021.a07_phi_vs_tight",),
    formulas=("phi(eps, delta) - (exp(eps) - 1 + 2*delta)/(exp(eps) + 1)"
               " = (1 - delta)*(exp(eps) - 1)/(exp(eps)*(exp(eps) + 1))",),
))
