r"""[A] appendix Theorem 3 (A-20), B-2 and A-4: the two-point formula for η_γ.

Statement: for every γ ≥ 1 and kernel K, η_γ(K) = sup_{x,x'} E_γ(K_x‖K_{x'})  (Asoodeh–Diaz–Calmon).
Proved:    for all N, M and real γ = t ≥ 1 (:mod:`exactdp.theory.e_gamma_certificates`).  (≤) With
           δ* = max_{x,x′} E_t(K_x‖K_{x′}) every kernel is (ε, δ*)-LDP (K_x(A) − tK_{x′}(A) ≤ E_t(K_x‖K_{x′}) ≤ δ*,
           the event form), so [A] Thm 1 (⇒, its certificates) gives η_t(K) ≤ δ*.  (≥) The point masses at
           x ≠ x′ have E_t(1_x‖1_{x′}) = 1, so η_t(K) ≥ E_t(K_x‖K_{x′}); the pairs x = x′ contribute 0.
Supporting: exact LP certificates (exact simplex with re-checked duals, one LP per output set) that
           E_γ(KP‖KQ) ≤ t·E_γ(P‖Q) for all P, Q with t the two-point value, plus attainment by the point
           masses, for γ ∈ {1, 6/5, 3/2, 2, 3, 5} on random kernels up to 4×4 and edge cases.
Not shown: nothing within the statement.
"""

from flint import fmpq

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step

from ..background.b01_dobrushin import lp_check
from .._statements import e_gamma_contraction, rows_bound

GAMMAS = (fmpq(1), fmpq(6, 5), fmpq(3, 2), fmpq(2), fmpq(3), fmpq(5))


def proof_check(ctx):
    """Both inequalities for every N, M from the certificates of :mod:`exactdp.theory.e_gamma_certificates`."""
    return proved("eta_gamma(K) = max over pairs of rows of E_gamma(K_x||K_x'), every N, M, real gamma >= 1",
                  EG.thm3_certificates(), "all N, M; gamma = t >= 1", derivation=(
                      step("(<=) with delta_star the largest `E_t(row_x, row_xp)` over pairs of rows row_x, row_xp: "
                           "`K_x(A) - t*K_xp(A) <= E_t(row_x, row_xp)`, at most delta_star (event form summed over "
                           "y), so K is (eps, delta_star)-LDP"),
                      step("[A] Thm 1 (=>) at delta = delta_star (its certificates below): "
                           "`eta_t(K) <= delta_star`"),
                      step("(>=) for distinct rows x, x' the point masses have E_t equal to 1, so "
                           "`eta_t(K) >= E_t(row_x, row_xp)`; the pairs with x = x' give `E_t(row_x, row_x) = 0`, at "
                           "most `eta_t(K)`")))


register(Claim(
    written=(*e_gamma_contraction("asoodeh2021.thm3_two_point"), rows_bound("asoodeh2021.thm3_two_point")),
    id="asoodeh2021.thm3_two_point",
    domain=("t >= 1",),
    catalogue=("A-20", "B-2", "A-4"),
    source=Source(ASOODEH2021, "Theorem 3", section="appendix", page="11"),
    title="Two-point formula for the E_gamma contraction coefficient (all N, M)",
    statement=r"\eta_\gamma(K)=\sup_{x,x'}E_\gamma(K_x\|K_{x'})\quad(\gamma\ge1)",
    hypotheses="`gamma >= 1` real (LP instances: rational), finite kernels",
    checks=(Check("proof", proof_check, "certificates, all N, M"),
            Check("LP certificate", lp_check(GAMMAS, "b2", (4, 14)), supporting=True)),
    expected=Verdict.PROVED,
    related=("asoodeh2021.thm1",),
    formulas=("eta_gamma(K) = sup_E_rows(gamma, K)", "gamma >= 1"),
))
