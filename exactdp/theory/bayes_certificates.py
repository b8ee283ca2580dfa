r"""Certificates for [A] Thm 2 (A-14, reconstructed statement): the private Bayes risk bound via E_γ.

Setting (docs/claims.md A-14): θ from a prior on a finite set, X^n i.i.d. given θ, Z^n = K^{⊗n}(X^n) for an
(ε,δ)-LDP kernel K (non-interactive), an estimator θ̂(Z^n), a loss ℓ ≥ 0, ζ > 0, t = e^ε,
L(ζ) = max_a P_θ(ℓ(θ, a) < ζ), I_t(θ; Y) = E_t(P_{θY}‖P_θ⊗P_Y).  Claim:
R_B ≥ ζ[1 − t L(ζ) − ψ_n I_t(θ; X^n)] with ψ₁ = δ and ψ_n = φⁿ(ε,δ).

Steps, each a checked certificate (sums reduced to summands as in :mod:`exactdp.theory.e_gamma_certificates`):

* Markov, summand-wise (:func:`markov_summands`): ℓ ≥ ζ·1[ℓ ≥ ζ] for ℓ ≥ 0, so R(θ̂) ≥ ζ·P(ℓ ≥ ζ) = ζ(1 − G),
  G = P_{θZ}(A), A = {(θ, z): ℓ(θ, θ̂(z)) < ζ};
* the event form of E_t (:func:`exactdp.theory.e_gamma_certificates.event_form`): G ≤ t B + I_t(θ; Z^n) with
  B = (P_θ⊗P_Z)(A) = Σ_z P_Z(z) P_θ(ℓ(θ, θ̂(z)) < ζ) ≤ L(ζ);
* the strong data processing step (:func:`sdpi_step`): given θ, P_{θZ}(θ, ·) = p(θ)·K^{⊗n}P_{X^n|θ} and
  (P_θ⊗P_Z)(θ, ·) = p(θ)·K^{⊗n}P_{X^n}, E_t is positively homogeneous (:func:`markov_summands`), so
  I_t(θ; Z^n) = Σ_θ p(θ) E_t(K^{⊗n}P_{X^n|θ}‖K^{⊗n}P_{X^n}) ≤ η_t(K^{⊗n}) I_t(θ; X^n) ≤ ψ_n I_t(θ; X^n),
  with η_t(K) ≤ δ ([A] Thm 1) and η_{e^ε}(K^{⊗n}) ≤ φⁿ (A-8);
* :func:`thm2_combination`: multipliers 1, ζ, ζt, ζ give R(θ̂) ≥ ζ[1 − t L(ζ) − ψ_n I_t(θ; X^n)] for every
  deterministic θ̂; a randomized estimator is a finite mixture of them, so the Bayes risk obeys the bound.
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements

#: the scope of the Bayes-risk certificates
SCOPE = "all finite alphabets, every n >= 1, nonnegative loss, zeta > 0; t = e^eps >= 1, 0 <= delta <= 1"

t, zeta, psi, L = sympy.symbols("t zeta psi L", real=True)
R, G, B, Iz, Ix, eta = sympy.symbols("R G B Iz Ix eta", real=True)


def markov_summands() -> SymbolicStatements:
    """ℓ ≥ ζ·1[ℓ ≥ ζ] for ℓ ≥ 0 (both values of the indicator), and E_t's positive homogeneity per summand:
    max(p z, 0) = p max(z, 0) for p ≥ 0."""
    return SymbolicStatements(
        name="[A] Thm 2: Markov and homogeneity (summands)", parameters=("l", "zeta", "p", "z"),
        scope="every summand; zeta > 0, loss >= 0",
        statements=(
            ("Markov, loss >= zeta: l >= zeta*1; weighted by P(theta, z) and summed: R >= zeta P(loss >= zeta)",
             "l", ">=", "zeta*1", ("l >= zeta", "zeta > 0")),
            ("Markov, 0 <= loss < zeta: l >= zeta*0", "l", ">=", "zeta*0", ("l >= 0", "l < zeta", "zeta > 0")),
            ("homogeneity: Max(p*z, 0) <= p*Max(z, 0) for p >= 0", "Max(p*z, 0)", "<=", "p*Max(z, 0)", ("p >= 0",)),
            ("homogeneity: Max(p*z, 0) >= p*Max(z, 0) for p >= 0; summed over z: E_t(p P'||p Q') = p E_t(P'||Q')",
             "Max(p*z, 0)", ">=", "p*Max(z, 0)", ("p >= 0",)),
        ))


def sdpi_step() -> LinearCombination:
    """I_t(θ; Zⁿ) ≤ ψ I_t(θ; Xⁿ) from I_t(θ; Zⁿ) ≤ η I_t(θ; Xⁿ) (η = η_t(K^{⊗n}), per θ and summed) and η ≤ ψ."""
    return LinearCombination.build(
        name="[A] Thm 2: strong data processing for I_gamma", parameters=(psi, Ix), variables=(Iz, eta),
        constraints=[("per theta, E_t(K P_{X|theta}||K P_X) <= eta E_t(P_{X|theta}||P_X) (eta = eta_t of the "
                      "channel, its definition), weighted p(theta) and summed (homogeneity): eta Ix - Iz >= 0",
                      eta * Ix - Iz),
                     ("eta <= psi: eta_t(K) <= delta ([A] Thm 1, n = 1), eta_{e^eps}(K^(x n)) <= phi^n (A-8)",
                      psi - eta)],
        multipliers=[1, Ix], conclusion=psi * Ix - Iz, region=(Ix >= 0,), scope=SCOPE)


def thm2_combination() -> LinearCombination:
    """R(θ̂) ≥ ζ[1 − t L(ζ) − ψ I_t(θ; Xⁿ)] from Markov, the event form, the small-ball bound and the SDPI."""
    return LinearCombination.build(
        name="[A] Thm 2: Bayes risk bound", parameters=(t, zeta, psi, L), variables=(R, G, B, Iz, Ix),
        constraints=[("Markov: R >= zeta P(loss >= zeta) = zeta (1 - G), G = P_{theta Z}(A)", R - zeta * (1 - G)),
                     ("event form of E_t on A: G <= t B + Iz, B = (P_theta (x) P_Z)(A), Iz = I_t(theta; Z^n)",
                      t * B + Iz - G),
                     ("small ball: B = sum_z P_Z(z) P_theta(loss(theta, thetahat(z)) < zeta) <= L(zeta)", L - B),
                     ("strong data processing: Iz <= psi Ix, Ix = I_t(theta; X^n)", psi * Ix - Iz)],
        multipliers=[1, zeta, zeta * t, zeta], conclusion=R - zeta * (1 - t * L - psi * Ix),
        region=(t >= 1, zeta > 0), scope=SCOPE)


def thm2_certificates() -> tuple:
    """The Bayes-specific certificates (the contraction bounds ψ come from [A] Thm 1 and A-8)."""
    return (markov_summands(), sdpi_step(), thm2_combination())


__all__ = ["SCOPE", "markov_summands", "sdpi_step", "thm2_certificates", "thm2_combination"]
