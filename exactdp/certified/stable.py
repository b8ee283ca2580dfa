r"""Certified evaluators of the registry's closed forms, in forms that do not cancel.

Each function takes exact parameters in the order of :mod:`exactdp.formulas` (the privacy level first:
``t`` = e^ε ≥ 1, or ``eps=`` ε ≥ 0 rational or a symbol-free sympy expression such as ``log(3)``; δ, c
rational; n, N positive integers) and returns an :class:`~exactdp.numbers.rb.RB`.  The balls are formed
in ε (``eps=1e-30`` is the point: ε below float range), so a level given as ``t`` is read as ε = log t.
The formula is the bounds registry's entry (:mod:`exactdp.bounds`, the one definition): balls
come from the entry's *evaluation form* (``Bound.ball_form``, written with expm1/log1p in ε) through
:func:`exactdp.numbers.rb.ball_of_form`, and the exact sympy expression (built only if an exact
tie-break needs it) is the entry's expression at t = e^ε:

* e^ε                                            arb exp: no overflow for ε in the thousands
* φⁿ (registry ``phi_n``): balls of −expm1(n(log1p(−δ) − ε)); φ = φ¹;
  its complement e^{−nε}(1−δ)ⁿ from exp(n(log1p(−δ) − ε))
* Ξ (registry ``xi``): balls of min{expm1(ε)/(e^ε(1−Nc)+1), 1}   ([G] Thm 1, D-11)
* the tight (ε,δ)-LDP Dobrushin value (registry ``ldp_dobrushin_tight``): (expm1(ε)+2δ)/(e^ε+1)   (B-4)

The min in Ξ needs no decision to be enclosed (arb's min of two balls); :func:`xi_regime` decides
which branch is active, ε ≥ log(2/(Nc)) ([G] Thm 2/3, G-16/G-18), exactly at the threshold.

>>> phi_n(eps="1e-30", n=10**6).evalf(5)
'1.0000e-24'
"""

from __future__ import annotations

import sympy
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.rb import RB, START_PREC, ball_of_form, exact_expr
from exactdp import bounds as B
from exactdp.numbers.truth import Sign, Truth
from exactdp.parameters import check_c, check_count, check_delta, eps_value, t_value

#: Above this many digits the exact expression of φⁿ (a rational power) is not built.
_EXACT_POWER_DIGITS = 20_000


def _digits_of(d: fmpq) -> int:
    """Decimal digits of the larger of numerator and denominator, from the bit size (no int -> str)."""
    return max(int(d.p).bit_length(), int(d.q).bit_length()) * 30103 // 100000 + 1


def _eps(t, eps) -> RB:
    """ε as a certified real from exactly one of ``t`` = e^ε (ε = log t) and ``eps`` (``"log(3)"`` read by the
    safe reader), checked ε ≥ 0 by the one rule (:func:`exactdp.parameters.t_value` / ``eps_value``)."""
    if (t is None) == (eps is None):
        raise ParameterError("t, eps: give exactly one of t = e^eps and eps")
    if t is not None:
        tv = t_value(t)
        return RB(sympy.log(qq_to_sympy(tv) if isinstance(tv, fmpq) else tv), "eps")
    return RB(exact_expr(eps_value(eps), "eps"), "eps")


def _unit(value, name: str) -> fmpq:
    """δ ∈ [0, 1] (the one rule: :func:`exactdp.parameters.check_delta`)."""
    return check_delta(value, name)


def _posint(n, name: str) -> int:
    return check_count(n, name)
    return n


def exp_eps(eps) -> RB:
    """γ = e^ε as a certified real (ε ≥ 0 exact); e^{5000} is fine, float64 overflows past ε ≈ 709.78."""
    return RB(sympy.exp(_eps(None, eps).exact))


def _log_one_minus(d: fmpq) -> arb:
    """log(1 − δ) at the current precision: log1p(−δ) for small δ, log of the exact 1 − δ near 1."""
    return arb(-d).log1p() if d <= fmpq(1, 2) else arb(1 - d).log()


def _registry_rb(name: str, form, values: dict, exact, label: str) -> RB:
    """An RB for registry entry ``name``: balls from its evaluation form ``form`` (the registry's
    ``ball_form`` or a companion of it) at ``values``, the exact side from ``exact()``."""

    def ball():
        return ball_of_form(form, values)

    return RB.from_evaluator(ball, exact, label=label)


def _phi_n_parts(t, eps, delta, n):
    e, d, n = _eps(t, eps), _unit(delta, "delta"), _posint(n, "n")
    values = {"eps": e.exact, "delta": d, "n": fmpq(n)}
    big = d != 1 and n * _digits_of(d) > _EXACT_POWER_DIGITS  # no exact rational power beyond this
    return e, d, n, values, big


def phi_n(t=None, delta=0, n: int = 1, *, eps=None) -> RB:
    r"""φⁿ(ε,δ), the registry's ``phi_n`` ([A] §III, D-13, A-8), balls from its evaluation form
    −expm1(n·(log1p(−δ) − ε)).

    The superscript n is a label, not a power (F-A1).  Stable for tiny ε, tiny δ and huge n
    (ε = 10⁻³⁰, n = 10⁶: φⁿ ≈ 10⁻²⁴ where the naive float formula gives 0).  δ = 1 gives exactly 1.
    """
    e, d, n, values, big = _phi_n_parts(t, eps, delta, n)
    if d == 1:
        return RB(sympy.Integer(1))
    entry = B.get("phi_n")
    exact = (lambda: None) if big else (lambda: entry.at(t=sympy.exp(e.exact), delta=d, n=n))
    return _registry_rb("phi_n", entry.ball_form, values, lambda: _sym(exact()),
                        f"phi^{n}({e.exact}, {qq_to_sympy(d)})")


def phi_n_complement(t=None, delta=0, n: int = 1, *, eps=None) -> RB:
    r"""1 − φⁿ(ε,δ) = e^{−nε}(1−δ)ⁿ, balls from exp(n·(log1p(−δ) − ε)): certified positive for δ < 1.

    Use it to decide φⁿ < 1: at ε = 10⁻³⁰, δ = 1 − 10⁻³⁰, n = 10⁶ the gap is about 10^{−3·10⁷},
    which no ball around φⁿ itself can separate from 1.
    """
    e, d, n, values, big = _phi_n_parts(t, eps, delta, n)
    if d == 1:
        return RB(sympy.Integer(0))
    entry = B.get("phi_n")
    exact = (lambda: None) if big else (lambda: 1 - _sym(entry.at(t=sympy.exp(e.exact), delta=d, n=n)))
    return _registry_rb("phi_n", B.phi_n_complement_ball, values, exact,
                        f"1 - phi^{n}({e.exact}, {qq_to_sympy(d)})")


def phi(t=None, delta=0, *, eps=None) -> RB:
    """φ(ε,δ) = 1 − e^{−ε}(1−δ)  ([A] §III, A-7): φⁿ with n = 1."""
    return phi_n(t, delta, 1, eps=eps)


def _sym(v):
    return None if v is None else (qq_to_sympy(v) if isinstance(v, fmpq) else v)


def _pml(c, N) -> tuple[fmpq, int]:
    """(c, N) checked: N ≥ 1 an integer, c ∈ [0, 1/N] (the one rule, :mod:`exactdp.parameters`)."""
    N = check_count(N, "N")
    return check_c(c, N), N


def xi_threshold(c, N: int) -> sympy.Expr:
    """The regime switch ε* = log(2/(Nc)) of [G] Thm 2/3 (``sympy.oo`` at c = 0)."""
    c, N = _pml(c, N)
    return sympy.oo if c == 0 else sympy.log(qq_to_sympy(2 / (N * c)))


def xi_regime(t=None, c=None, N=None, *, eps=None, max_prec: int | None = None) -> Truth:
    """Is ε ≥ log(2/(Nc)) (the no-contraction regime, Ξ = 1)?  Decided via e^ε·Nc ≥ 2, exactly at the tie."""
    e, (c, N) = _eps(t, eps), _pml(c, N)
    if c == 0:
        return Truth.FALSE
    r = 2 / (N * c)
    # magnitudes first: log r < bits(numerator of r), so eps at or above that is in the regime without
    # forming e^eps (eps = 10^10 is decided in constant time)
    if e.compare_rational(fmpq(int(r.p).bit_length()), max_prec=START_PREC) in (Sign.POSITIVE, Sign.ZERO):
        return Truth.TRUE
    s = RB(sympy.exp(e.exact)).compare_rational(r, max_prec=max_prec)
    if s is None:
        return Truth.UNKNOWN
    return Truth.of(s is not Sign.NEGATIVE)


def xi(t=None, c=None, N=None, *, eps=None) -> RB:
    r"""Ξ(ε,c), the registry's ``xi`` ([G] §IV, D-11; Thm 1), c ∈ [0, 1/N] (c = 0: the LDP limit).

    Balls from its evaluation form min(expm1(ε)/(e^ε·(1−Nc) + 1), 1) with 1 − Nc exact: no cancellation
    as c → 0, at Nc = 1 (Ξ = min{e^ε − 1, 1}) or for ε → 0 (Ξ ≈ ε/(2 − Nc)).  The exact side is the
    active branch (decided by :func:`xi_regime`).
    """
    e, (c, N) = _eps(t, eps), _pml(c, N)
    E = e.exact

    def exact():
        regime = xi_regime(c=c, N=N, eps=E)
        if regime is Truth.UNKNOWN:
            return None
        if regime is Truth.TRUE:
            return sympy.Integer(1)
        return _sym(B.exact_at(B.xi_raw, {"t": sympy.exp(E), "c": c, "N": N}))

    return _registry_rb("xi", B.get("xi").ball_form, {"eps": E, "c": c, "N": fmpq(N)}, exact,
                        f"Xi({E}, {c}, N={N})")


def tight_ldp_eta(t=None, delta=0, *, eps=None) -> RB:
    r"""sup over (ε,δ)-LDP kernels of η_TV, the registry's ``ldp_dobrushin_tight`` (B-4), balls from
    (expm1(ε) + 2δ)/(e^ε + 1)."""
    e, d = _eps(t, eps), _unit(delta, "delta")
    entry = B.get("ldp_dobrushin_tight")
    return _registry_rb("ldp_dobrushin_tight", entry.ball_form, {"eps": e.exact, "delta": d},
                        lambda: _sym(entry.at(t=sympy.exp(e.exact), delta=d)),
                        f"tight_ldp({e.exact}, {qq_to_sympy(d)})")
