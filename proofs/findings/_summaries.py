r"""Inconsistencies between the stored summaries (docs/claims.md §6, last list).

* Summary 001 lists only "Leonhard Grosse1," as author; the HTML gives four authors.
* Summary 000 writes φ^n (appendix) and "ϕn" (§III) for the same quantity — a label, not a power (F-A1,
  checked by findings.fa01_phi_power, tensor module).
* Summary 002 calls the bounds "ajustado" (tight): right for TV (G-15, the G-21 kernel attains Ξ — checked
  here exactly), not for the f-divergence corollaries (F-G2, extremal module).
The first two concern the summaries, not mathematics: NOT_CHECKABLE.
"""

from flint import fmpq

from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import grosse_binary_mechanism
from exactdp.sources import CATALOGUE, Source
from exactdp.verification.checking import check_instances, exact_data
from exactdp.formulas import xi

SRC = Source(CATALOGUE, "§6 inconsistencies between the summaries")


def _tv_tight(ctx):
    def test(x):
        g, c = x
        K = grosse_binary_mechanism(g, c)
        r = pml_ratio(K, c)
        return r == g and eta_tv(K) == xi(g, c, 2), exact_data(e_eps=g, c=c, pml_ratio=r, eta_tv=eta_tv(K))

    grid = [(fmpq(3), fmpq(1, 4)), (fmpq(2), fmpq(1, 3)), (fmpq(3, 2), fmpq(1, 10)), (fmpq(5), fmpq(1, 5))]
    return check_instances([("Example 1 kernel (N = 2)", grid)], test, claim="the TV bound is attained")
