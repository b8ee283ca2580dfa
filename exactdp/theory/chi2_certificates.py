r"""Certificates: Asoodeh–Zhang's η_χ²(K) ≤ ((t − 1)/(t + 1))² for every t-LDP kernel, every N and M (B-8).

η_χ²(K) is the supremum of Y/X over priors P and Q ≪ P with X = χ²(Q‖P) > 0, Y = χ²(KQ‖KP).  Restrict the
inputs to the support of P (the rows kept are still t-LDP; Q puts no mass outside it when X < ∞) and write
g(x) = Q(x)/P(x) − 1, so Σ_x P(x)g(x) = 0 and X = Σ_x P(x)g(x)²; per output m_y = (KP)(y) and
h_y = (KQ − KP)(y) = Σ_x P(x)g(x)K(y|x), so Y = Σ_y h_y²/m_y (outputs with m_y = 0 carry no mass of KP or KQ).

1. Law of total variance in pair form (:func:`summands`).  Per output,
   Σ_x P(x)K(y|x)g(x)² − h_y²/m_y = (1/(2m_y)) Σ_{x,x′} P(x)P(x′)K(y|x)K(y|x′)(g(x) − g(x′))²  (expand the square,
   Σ_{x′} P(x′)K(y|x′) = m_y); summed over y (rows sum to 1) and with the sums exchanged,
   X − Y = Z := ½ Σ_{x,x′} P(x)P(x′)(g(x) − g(x′))²·c_{xx′},   c_{xx′} = Σ_y K(y|x)K(y|x′)/m_y,
   and likewise X = ½ Σ_{x,x′} P(x)P(x′)(g(x) − g(x′))² (Σ P = 1, Σ P g = 0).
2. Every pair coefficient is at least κ = 4t/(t + 1)² (:func:`pair_coefficient`), whatever the prior:
   per output s²/m ≥ 2λs − λ²m (m > 0) with s = √(K(y|x)K(y|x′)); summed (Σ m_y = 1) at λ = BC = Σ_y s_y, the
   Bhattacharyya coefficient of the two rows, c_{xx′} ≥ BC² (Cauchy–Schwarz).  t-LDP puts a/b = K(y|x)/K(y|x′) in
   [1/t, t]; with T = √t and ρ = √(a/b) ∈ [1/T, T], √(ab) = bρ and the concave √ lies above its chord on
   [1/T², T²], an affine function of ρ² = a/b, so summed with Σ a = Σ b = 1 the chord gives BC ≥ 2T/(T² + 1) = 2√t/(t + 1)
   (binary randomized response's value; outputs with b = 0 have a = 0 and drop out).  Squared: c_{xx′} ≥ κ.
3. So Z ≥ κX (weights P(x)P(x′)(g(x) − g(x′))²/2 ≥ 0), and Y = X − Z ≤ (1 − κ)X = ((t − 1)/(t + 1))²X
   (:func:`contraction`).  Binary randomized response at P = (½, ½) attains it.

Every step is a statement the prover decides (identities by cancellation, inequalities as sign conditions on
their regions) about one summand — an input, a pair of inputs, an output —; the sums use only the trusted
finite-sum rules of :mod:`exactdp.theory.structural_lemmas`, so N and M never enter.  Scope: all N, M, t ≥ 1.
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements

#: the sizes every certificate here ranges over
SCOPE = "all N, M; t >= 1"

#: κ = 4t/(t + 1)²: the squared Bhattacharyya coefficient of binary randomized response, 1 − ((t − 1)/(t + 1))²
_KAPPA = "4*t/(t + 1)**2"
#: the chord of √ on [1/T², T²] as a function of r = ρ² (T = √t)
_CHORD = "1/T + T/(T**2 + 1)*(r - 1/T**2)"


def summands() -> SymbolicStatements:
    """Step 1 of the module docstring: the input, pair and output summands of X, Y and Z."""
    return SymbolicStatements(
        name="B-8: summands of the chi^2 ratio (law of total variance in pair form)",
        parameters=("Px", "Pxp", "Qx", "gx", "gxp", "Kx", "Kxp", "m", "c", "t"), sizes="all N, M",
        region=("t >= 1",),
        statements=(
            ("per input x in the support of P: g(x) = Q(x)/P(x) - 1 gives P g = Q - P; summed: sum_x P g = 0",
             "Subs(Px*gx, gx, Qx/Px - 1)", "==", "Qx - Px", ("Px > 0",)),
            ("per input: P g^2 is the chi^2 summand of (Q, P); summed: X = chi2(Q||P) = sum_x P(x) g(x)^2",
             "Subs(Px*gx**2, gx, Qx/Px - 1)", "==", "(Qx - Px)**2/Px", ("Px > 0",)),
            ("per input and output: P g K(y|x) = (Q - P) K(y|x); summed over x: h_y = (KQ)(y) - (KP)(y), so "
             "Y = chi2(KQ||KP) = sum_y h_y^2/m_y",
             "Subs(Px*gx*Kx, gx, Qx/Px - 1)", "==", "(Qx - Px)*Kx", ("Px > 0",)),
            ("per pair (x, x'): P P' (g - g')^2/2 expanded; summed over pairs (sum P = 1, sum P g = 0): "
             "X = (1/2) sum_{x,x'} P(x) P(x') (g(x) - g(x'))^2",
             "Px*Pxp*(gx - gxp)**2/2", "==", "Pxp*(Px*gx**2)/2 + Px*(Pxp*gxp**2)/2 - (Px*gx)*(Pxp*gxp)", ()),
            ("per output y and pair: the weight P P' (g - g')^2/2 times K(y|x) K(y|x')/m_y expanded; summed over "
             "pairs (sum_x' P(x') K(y|x') = m_y, sum_x P g K(y|x) = h_y): sum_x P K(y|x) g^2 - h_y^2/m_y; summed over "
             "y (rows sum to 1), sums exchanged: Z = (1/2) sum_{x,x'} P P' (g - g')^2 c_xx' = X - Y, "
             "c_xx' = sum_y K(y|x) K(y|x')/m_y",
             "Px*Pxp*(gx - gxp)**2/2*(Kx*Kxp/m)", "==",
             "(Pxp*Kxp)*(Px*Kx*gx**2)/(2*m) + (Px*Kx)*(Pxp*Kxp*gxp**2)/(2*m) - (Px*Kx*gx)*(Pxp*Kxp*gxp)/m",
             ("m > 0",)),
            ("per pair: weight >= 0 and c_xx' >= kappa = 4t/(t + 1)^2 (pair coefficient); summed: Z >= kappa X",
             "Px*Pxp*(gx - gxp)**2/2*c", ">=", f"Px*Pxp*(gx - gxp)**2/2*({_KAPPA})",
             ("Px >= 0", "Pxp >= 0", f"c >= {_KAPPA}")),
        ))


def pair_coefficient() -> SymbolicStatements:
    """Step 2 of the module docstring: c_{xx′} = Σ_y K(y|x)K(y|x′)/m_y ≥ BC² ≥ 4t/(t + 1)² for t-LDP rows."""
    return SymbolicStatements(
        name="B-8: every pair coefficient c_xx' >= 4t/(t + 1)^2 for t-LDP K",
        parameters=("s", "m", "lam", "B", "a", "b", "rho", "r", "T", "t"), sizes="all N, M",
        region=("T >= 1",),
        statements=(
            ("per output, m = m_y > 0, s = sqrt(K(y|x) K(y|x')): s^2/m >= 2 lam s - lam^2 m; summed (sum_y m_y = 1): "
             "c_xx' >= 2 lam BC - lam^2, BC = sum_y s_y",
             "s**2/m", ">=", "2*lam*s - lam**2*m", ("m > 0",)),
            ("at lam = BC: c_xx' >= BC^2 (Cauchy-Schwarz)", "Subs(2*lam*B - lam**2, lam, B)", "==", "B**2", ()),
            ("per output, a = K(y|x), b = K(y|x') > 0, rho = sqrt(a/b): sqrt(a b) = b rho",
             "Subs(a*b, a, b*rho**2)", "==", "(b*rho)**2", ("b > 0",)),
            ("t-LDP: a/b in [1/t, t], so rho in [1/T, T] (T = sqrt(t)); the concave sqrt is above its chord on "
             "[1/T^2, T^2]", "rho", ">=", f"Subs({_CHORD}, r, rho**2)", ("rho >= 1/T", "rho <= T")),
            ("per output: b times the chord at a/b is affine in (a, b); summed (sum a = sum b = 1; b = 0 forces "
             "a = 0): BC >= the chord at 1",
             f"b*Subs({_CHORD}, r, a/b)", "==", f"b*Subs({_CHORD}, r, 1) + T/(T**2 + 1)*(a - b)", ("b > 0",)),
            ("the chord at 1 is 2T/(T^2 + 1) = 2 sqrt(t)/(t + 1), binary randomized response's BC",
             f"Subs({_CHORD}, r, 1)", "==", "2*T/(T**2 + 1)", ()),
            ("BC >= 2T/(T^2 + 1) >= 0, squared", "B**2", ">=", "(2*T/(T**2 + 1))**2", ("B >= 2*T/(T**2 + 1)",)),
            ("(2T/(T^2 + 1))^2 is kappa = 4t/(t + 1)^2 at t = T^2", "(2*T/(T**2 + 1))**2", "==",
             f"Subs({_KAPPA}, t, T**2)", ()),
        ))


def contraction() -> LinearCombination:
    """Step 3 of the module docstring: Y = X − Z and Z ≥ κX give Y ≤ ((t − 1)/(t + 1))² X."""
    t = sympy.Symbol("t", real=True)
    X, Y, Z = sympy.symbols("X Y Z", real=True)
    kappa = 4 * t / (t + 1) ** 2
    return LinearCombination.build(
        name="B-8: chi2(KQ||KP) <= ((t - 1)/(t + 1))^2 chi2(Q||P) for t-LDP K", parameters=(t,),
        variables=(X, Y, Z),
        constraints=[("law of total variance in pair form: X - Y - Z >= 0 (an equality, Z = X - Y)", X - Y - Z),
                     ("pair coefficients >= kappa, weights >= 0: Z - 4t/(t + 1)^2 X >= 0", Z - kappa * X)],
        multipliers=[1, 1], conclusion=((t - 1) / (t + 1)) ** 2 * X - Y, region=(t >= 1,), scope=SCOPE,
        uses=(summands().name, pair_coefficient().name))


def asoodeh_zhang() -> tuple:
    """The certificates of the module docstring's proof (B-8, every N, M, t ≥ 1)."""
    return (summands(), pair_coefficient(), contraction())
