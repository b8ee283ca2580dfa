r"""The papers' closed-form bounds, written once, as functions of γ = e^ε (exact for rational inputs).

Each works on ``fmpq`` (exact rationals) and on sympy expressions (symbolic proofs) alike.

* φ(ε,δ) = 1 − e^{−ε}(1−δ)                       [A] §III (D-13, A-7)
* φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ  (a label, not a power; F-A1)   [A] §III
* tight (ε,δ)-LDP Dobrushin value (γ − 1 + 2δ)/(γ + 1)     (B-4)
* Ξ(ε,c) = min{(γ − 1)/(γ(1 − Nc) + 1), 1}        [G] §IV (D-11)
* Lemma 4's bound Γ_max ≤ (1 − Nc)γ + 1            [G] §IV (G-23)
* Binette's coefficient f(m)/(1−m) + f(M)/(M−1)    (B-6)
* Zamanlooy–Asoodeh E_γ coefficient (γ' − γ)₊/(γ' + 1) with γ' = e^ε  (B-7, [RECON])
"""

from __future__ import annotations

import sympy
from flint import fmpq


def _is_sym(*vals) -> bool:
    return any(isinstance(v, sympy.Basic) and not v.is_Rational for v in vals)


def phi(gamma, delta):
    """φ(ε,δ) = 1 − (1 − δ)/γ with γ = e^ε ([A] §III)."""
    return 1 - (1 - delta) / gamma


def phi_n(gamma, delta, n: int):
    """φⁿ(ε,δ) = 1 − (1 − δ)ⁿ/γⁿ ([A] §III; the superscript is a label, F-A1)."""
    return 1 - (1 - delta) ** n / gamma ** n


def tight_ldp_eta(gamma, delta):
    """sup of η_TV over (ε,δ)-LDP kernels: (γ − 1 + 2δ)/(γ + 1) (B-4)."""
    return (gamma - 1 + 2 * delta) / (gamma + 1)


def xi_first(gamma, c, N):
    """The first branch of Ξ: (γ − 1)/(γ(1 − Nc) + 1)."""
    return (gamma - 1) / (gamma * (1 - N * c) + 1)


def xi(gamma, c, N):
    """Ξ(ε,c) = min{(γ − 1)/(γ(1 − Nc) + 1), 1} ([G] §IV, D-11)."""
    v = xi_first(gamma, c, N)
    if _is_sym(gamma, c, N):
        return sympy.Min(v, 1)
    return v if v < 1 else fmpq(1) if isinstance(v, fmpq) else 1


def lemma4_gamma_max(gamma, c, N):
    """Lemma 4's upper bound on Γ_max(ε,c): (1 − Nc)γ + 1 ([G] §IV, G-23)."""
    return (1 - N * c) * gamma + 1


def binette_coefficient(f, m, M):
    """f(m)/(1 − m) + f(M)/(M − 1) for a sympy Lambda/function f (B-6); exact sympy result."""
    m, M = sympy.sympify(_s(m)), sympy.sympify(_s(M))
    return f(m) / (1 - m) + f(M) / (M - 1)


def za_hockey_stick_coefficient(e_gamma, gamma):
    """(e^ε − γ)₊/(e^ε + 1): Zamanlooy–Asoodeh's E_γ contraction constant for ε-LDP ([RECON], B-7)."""
    d = e_gamma - gamma
    return (d if d > 0 else 0 * d) / (e_gamma + 1)


def _s(v):
    if isinstance(v, fmpq):
        return sympy.Rational(int(v.p), int(v.q))
    return v


def to_sym(v):
    """fmpq → sympy Rational (other values unchanged)."""
    return _s(v)


KL_F = sympy.Lambda(sympy.Symbol("t", positive=True), sympy.Symbol("t", positive=True) * sympy.log(sympy.Symbol("t", positive=True)))
H2_F = sympy.Lambda(sympy.Symbol("t", positive=True), (sympy.sqrt(sympy.Symbol("t", positive=True)) - 1) ** 2)
