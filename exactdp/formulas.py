r"""The papers' closed forms as the checks use them: a thin layer over the bounds registry.

Every formula lives once, in :mod:`exactdp.bounds` (privacy parametrized by t = e^ε).  These
helpers substitute the arguments into a registry expression: exact rationals give an ``fmpq``, sympy
arguments (symbols, irrational values) an exact expression for symbolic proofs.  They are the one public
``xi``, ``phi`` and ``phi_n`` of the exact domains (QQ and SR; the certified-ball ones are in
:mod:`exactdp.certified.stable`), all with the privacy level first: ``t`` = e^ε, or ``eps=`` ε
(:func:`exactdp.parameters.t_value`); numeric δ, c, n are checked by :mod:`exactdp.parameters`:

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

from exactdp.errors import ParameterError

from exactdp import bounds as B
from exactdp.numbers.reader import as_expr
from exactdp.parameters import check_c, check_count, check_delta, t_value


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
    pass values inside the registry's domain; ``Bound.evaluate`` re-checks the domain, which costs more
    in instance loops.)"""
    return B.exact_at(B.get(name).expr if expr is None else expr, values)


def _number(v) -> bool:
    """A plain exact number (checked here); sympy values are kept as given (symbolic proofs)."""
    return isinstance(v, (int, str, fmpq))


def _level(t, eps, delta=None) -> dict:
    """{"t": t = e^ε} from ``t`` or ``eps`` (and δ); numbers are checked, symbols pass."""
    if eps is not None or t is None or _number(t):
        t = t_value(t, eps)
    out = {"t": t}
    if delta is not None:
        out["delta"] = check_delta(delta) if _number(delta) else delta
    return out


def _pml(c, N) -> dict:
    """{"c": c, "N": N}; numbers are checked (N ≥ 1, c ∈ [0, 1/N]), symbols pass."""
    if c is None or N is None:
        raise ParameterError(f"{'c' if c is None else 'N'}: missing (give t or eps, c and N)")
    if _number(N):
        N = check_count(N, "N")
        if _number(c):
            c = check_c(c, N)
    return {"c": c, "N": N}


def phi(t=None, delta=0, *, eps=None):
    """φ(ε,δ) = 1 − (1 − δ)/t with t = e^ε ([A] §III)."""
    return _at("phi", **_level(t, eps, delta))


def phi_n(t=None, delta=0, n: int = 1, *, eps=None):
    """φⁿ(ε,δ) = 1 − (1 − δ)ⁿ/tⁿ ([A] §III; the superscript is a label, F-A1).

    >>> phi_n(3, 0), phi_n(3, 0, 2), phi_n(eps="log(3)", n=2)
    (2/3, 8/9, 8/9)
    """
    return _at("phi_n", **_level(t, eps, delta), n=check_count(n) if _number(n) else n)


def tight_ldp_eta(t=None, delta=0, *, eps=None):
    """sup of η_TV over (ε,δ)-LDP kernels: (t − 1 + 2δ)/(t + 1) (B-4)."""
    return _at("ldp_dobrushin_tight", **_level(t, eps, delta))


def xi_first(t=None, c=None, N=None, *, eps=None):
    """The first branch of Ξ: (t − 1)/(t(1 − Nc) + 1) (the registry's ``xi_raw``)."""
    return _at("xi", B.xi_raw, **_level(t, eps), **_pml(c, N))


def xi(t=None, c=None, N=None, *, eps=None):
    """Ξ(ε,c) = min{(t − 1)/(t(1 − Nc) + 1), 1} ([G] §IV, D-11).

    >>> xi(3, "1/8", 4), xi(5, "1/8", 4), xi(eps="log(3)", c="1/4", N=2)
    (4/5, 1, 4/5)
    """
    return _at("xi", **_level(t, eps), **_pml(c, N))


def lemma4_gamma_max(t=None, c=None, N=None, *, eps=None):
    """Lemma 4's upper bound on Γ_max(ε,c): (1 − Nc)t + 1 ([G] §IV, G-23)."""
    return _at("gamma_max_lemma4", **_level(t, eps), **_pml(c, N))


def za_hockey_stick_coefficient(t, gamma):
    """(e^ε − γ)₊/(e^ε + 1) with t = e^ε: Zamanlooy–Asoodeh's E_γ contraction constant for ε-LDP
    ([RECON], B-7); ``gamma`` is the order of E_γ."""
    return _at("zamanlooy_asoodeh_egamma", t=t, gamma=gamma)


def binette_coefficient(f, m, M):
    """f(m)/(1 − m) + f(M)/(M − 1) for a sympy Lambda/function f (B-6); exact sympy result."""
    m, M = as_expr(to_sym(m)), as_expr(to_sym(M))
    return f(m) / (1 - m) + f(M) / (M - 1)


_t = sympy.Symbol("t", positive=True)
KL_F = sympy.Lambda(_t, _t * sympy.log(_t))
H2_F = sympy.Lambda(_t, (sympy.sqrt(_t) - 1) ** 2)
