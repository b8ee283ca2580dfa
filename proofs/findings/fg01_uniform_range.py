r"""F-G1 (docs/claims.md §6, G-19): "η_TV(ε, 1/N) = e^ε − 1" holds only for e^ε ≤ 2.

Statement checked (and refuted): η_TV(ε, 1/N) = e^ε − 1 for every ε ≥ 0 ([G] after Theorem 3).
Witness:   any e^ε > 2, e.g. N = 2, c = 1/2, e^ε = 3: the claimed value 2 exceeds 1, and every Dobrushin
           coefficient is ≤ 1.  The correct value is min{e^ε − 1, 1} (attained: grosse2026.g19_limits).
"""

from flint import fmpq

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register

GS = (fmpq(1), fmpq(6, 5), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(10))


def _run(ctx):
    def test(x):
        N, g = x
        claimed = g - 1
        return claimed <= 1, exact_data(N=N, c=fmpq(1, N), e_eps=g, claimed_eta_tv=claimed,
                                        reason="a Dobrushin coefficient is at most 1")

    return check_instances([("N in {2,4} x e^eps grid, c = 1/N", [(N, g) for N in (2, 4) for g in GS])], test,
                           claim="eta_TV(eps, 1/N) = e^eps - 1 is a possible Dobrushin coefficient")


register(Claim(
    id="findings.fg01_uniform_range",
    catalogue=("F-G1", "G-19"),
    source=Source(GROSSE2026, "remark after Theorem 3", section="III"),
    title="eta_TV(eps, 1/N) = e^eps - 1 fails for e^eps > 2 (the value is 1 there)",
    statement=r"\eta_{TV}(\varepsilon,1/N)=e^\varepsilon-1",
    hypotheses="as stated: every `eps >= 0`",
    checks=(Check("range", _run),),
    expected=Verdict.REFUTED,
    kind="finding",
    related=("grosse2026.g19_limits",),
    formulas=("eta_tv(eps, 1/N) = exp(eps) - 1",),
))
