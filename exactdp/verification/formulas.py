r"""The papers' closed forms as the checks use them: a thin layer over the bounds registry.

Every formula lives once, in :mod:`exactdp.bounds` (privacy parametrized by t = γ = e^ε).  These
helpers substitute the arguments into a registry expression: exact rationals give an ``fmpq``, sympy
arguments (symbols, irrational values) an exact expression for symbolic proofs:

* φ(ε,δ) = 1 − (1−δ)/t, φⁿ = 1 − (1−δ)ⁿ/tⁿ                  ([A] §III; registry ``phi``, ``phi_n``)
* (t − 1 + 2δ)/(t + 1), the tight (ε,δ)-LDP Dobrushin value   (B-4; ``ldp_dobrushin_tight``)
* Ξ(ε,c) = min{(t − 1)/(t(1 − Nc) + 1), 1}                    ([G] §IV; ``xi``; first branch ``xi_raw``)
* Lemma 4's Γ_max bound (1 − Nc)t + 1                          ([G] §IV; ``gamma_max_lemma4``)
* Zamanlooy–Asoodeh (t − γ)⁺/(t + 1)                           (B-7; ``zamanlooy_asoodeh_egamma``)
* Binette's coefficient f(m)/(1−m) + f(M)/(M−1) for a generic f (B-6)
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp import bounds as B
from exactdp.numbers.reader import as_expr


def to_sym(v):
    """fmpq / int → sympy Rational (sympy values unchanged)."""
    if isinstance(v, fmpq):
        return sympy.Rational(int(v.p), int(v.q))
    if isinstance(v, int):
        return sympy.Integer(v)
    return v


def _at(name: str, expr=None, **values):
    """Registry entry ``name`` (or ``expr``) at ``values`` (:func:`exactdp.bounds.exact_at`): an
    ``fmpq`` when rational, else the exact sympy expression; floats raise ``CoercionError``.  (Callers
    pass values inside the registry's domain; ``Bound.evaluate`` re-checks the domain but is ~10× slower
    in instance loops.)"""
    return B.exact_at(B.get(name).expr if expr is None else expr, values)


def phi(gamma, delta):
    """φ(ε,δ) = 1 − (1 − δ)/γ with γ = e^ε ([A] §III)."""
    return _at("phi", t=gamma, delta=delta)


def phi_n(gamma, delta, n: int):
    """φⁿ(ε,δ) = 1 − (1 − δ)ⁿ/γⁿ ([A] §III; the superscript is a label, F-A1)."""
    return _at("phi_n", t=gamma, delta=delta, n=n)


def tight_ldp_eta(gamma, delta):
    """sup of η_TV over (ε,δ)-LDP kernels: (γ − 1 + 2δ)/(γ + 1) (B-4)."""
    return _at("ldp_dobrushin_tight", t=gamma, delta=delta)


def xi_first(gamma, c, N):
    """The first branch of Ξ: (γ − 1)/(γ(1 − Nc) + 1) (the registry's ``xi_raw``)."""
    return _at("xi", B.xi_raw, t=gamma, c=c, N=N)


def xi(gamma, c, N):
    """Ξ(ε,c) = min{(γ − 1)/(γ(1 − Nc) + 1), 1} ([G] §IV, D-11)."""
    return _at("xi", t=gamma, c=c, N=N)


def lemma4_gamma_max(gamma, c, N):
    """Lemma 4's upper bound on Γ_max(ε,c): (1 − Nc)γ + 1 ([G] §IV, G-23)."""
    return _at("gamma_max_lemma4", t=gamma, c=c, N=N)


def za_hockey_stick_coefficient(e_gamma, gamma):
    """(e^ε − γ)₊/(e^ε + 1): Zamanlooy–Asoodeh's E_γ contraction constant for ε-LDP ([RECON], B-7)."""
    return _at("zamanlooy_asoodeh_egamma", t=e_gamma, gamma=gamma)


def binette_coefficient(f, m, M):
    """f(m)/(1 − m) + f(M)/(M − 1) for a sympy Lambda/function f (B-6); exact sympy result."""
    m, M = as_expr(to_sym(m)), as_expr(to_sym(M))
    return f(m) / (1 - m) + f(M) / (M - 1)


_t = sympy.Symbol("t", positive=True)
KL_F = sympy.Lambda(_t, _t * sympy.log(_t))
H2_F = sympy.Lambda(_t, (sympy.sqrt(_t) - 1) ** 2)
