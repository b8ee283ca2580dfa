r"""Inconsistencies between the stored summaries (claims.md §6, last list).

* Summary 001 lists only "Leonhard Grosse1," as author; the HTML gives four authors.
* Summary 000 writes φ^n (appendix) and "ϕn" (§III) for the same quantity — a label, not a power (F-A1,
  checked by findings.fa1_phi_power, tensor module).
* Summary 002 calls the bounds "ajustado" (tight): right for TV (G-15, the G-21 kernel attains Ξ — checked
  here exactly), not for the f-divergence corollaries (F-G2, extremal module).
The first two concern the summaries, not mathematics: NOT_CHECKABLE.
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import grosse_binary_mechanism
from exactdp.sources import CATALOGUE, Source
from exactdp.verification.checking import check_instances, exact_data, not_checkable
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.formulas import xi

SRC = Source(CATALOGUE, "§6 inconsistencies between the summaries")

register(Claim(
    id="findings.summary_authors",
    catalogue=("S-1",),
    source=SRC,
    title="Summary 001 lists one author; the HTML lists four",
    statement=r"\text{(bibliographic)}",
    hypotheses="—",
    checks=(Check("authors", lambda ctx: not_checkable("bibliographic inconsistency between summaries")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="finding",
))

register(Claim(
    id="findings.summary_phi_notation",
    catalogue=("S-2", "F-A1"),
    source=SRC,
    title="Summary 000 writes phi^n and 'phi n' for the same quantity (a label, not a power)",
    statement=r"\varphi^n(\varepsilon,\delta)=1-e^{-n\varepsilon}(1-\delta)^n",
    hypotheses="—",
    checks=(Check("notation", lambda ctx: not_checkable(
        "notation in the summaries; the mathematics (power reading false) is findings.fa1_phi_power")),),
    expected=Verdict.NOT_CHECKABLE,
    kind="finding",
))


def _tv_tight(ctx):
    def test(x):
        g, c = x
        K = grosse_binary_mechanism(g, c)
        r = pml_ratio(K, c)
        return r == g and eta_tv(K) == xi(g, c, 2), exact_data(e_eps=g, c=c, pml_ratio=r, eta_tv=eta_tv(K))

    grid = [(fmpq(3), fmpq(1, 4)), (fmpq(2), fmpq(1, 3)), (fmpq(3, 2), fmpq(1, 10)), (fmpq(5), fmpq(1, 5))]
    return check_instances([("Example 1 kernel (N = 2)", grid)], test, claim="the TV bound is attained")


register(Claim(
    id="findings.summary_tightness_wording",
    catalogue=("S-3",),
    source=SRC,
    title="Summary 002's 'tight': attained for TV; the f-divergence bounds are not tight (F-G2)",
    statement=r"\eta_{TV}(K)=\Xi(\varepsilon,c)\ \text{for the Example 1 kernel}",
    hypotheses="N = 2",
    checks=(Check("TV attained", _tv_tight),
            Check("f-divergences", lambda ctx: not_checkable("looseness of the corollaries is findings.fg2_lemma4_loose"))),
    expected=Verdict.VERIFIED,
    kind="finding",
))
