r"""[A] appendix Theorem 3 (A-20), B-2 and A-4: the two-point formula for η_γ.

Statement: for every γ ≥ 1 and kernel K, η_γ(K) = sup_{x,x'} E_γ(K_x‖K_{x'})  (Asoodeh–Diaz–Calmon).
Checked:   exact LP certificates (exact simplex with re-checked duals, one LP per output set) that
           E_γ(KP‖KQ) ≤ t·E_γ(P‖Q) for all P, Q with t the two-point value, plus attainment by the point
           masses, for γ ∈ {1, 6/5, 3/2, 2, 3, 5} on random kernels up to 4×4 and edge cases.
Not shown: larger kernels; irrational γ.
"""

from flint import fmpq

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ..background.b01_dobrushin import lp_check

GAMMAS = (fmpq(1), fmpq(6, 5), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(5))

register(Claim(
    id="asoodeh2021.thm3_two_point",
    catalogue=("A-20", "B-2", "A-4"),
    source=Source(ASOODEH2021, "Theorem 3", section="appendix", page="11"),
    title="Two-point formula for the E_gamma contraction coefficient (exact LP certificate)",
    statement=r"\eta_\gamma(K)=\sup_{x,x'}E_\gamma(K_x\|K_{x'})\quad(\gamma\ge1)",
    hypotheses="gamma >= 1 rational, finite kernels",
    checks=(Check("LP certificate", lp_check(GAMMAS, "b2", (4, 14))),),
    expected=Verdict.VERIFIED,
))
