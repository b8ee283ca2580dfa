r"""The privacy parameters, validated in one place: the privacy level, δ, the prior floor c, counts n.

* :class:`PrivacyLevel` — the one type of an (ε,δ) privacy level.  Every public signature that asks for a
  privacy level accepts ``t=`` (t = e^ε ≥ 1, exact) or ``eps=`` (ε ≥ 0, exact: ``"1/2"``, ``"log(3)"``,
  ``sympy.log(3)``), never both (docs/design.md principle 5: privacy is parametrized by t = e^ε, so every
  kernel is rational when t is).  ``gamma`` names only the order γ of the hockey-stick divergence E_γ.
* :class:`PMLLevel` — the prior floor c ∈ [0, 1/N] of (ε,c)-PML with its number of inputs N.
* :func:`check_delta`, :func:`check_c`, :func:`check_count` — the one check each of δ ∈ [0, 1],
  c ∈ [0, 1/N] and of an integer count n ≥ 1; errors name the argument, the rule and the value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flint import fmpq

from exactdp.errors import CoercionError, ParameterError, UndecidedError
from exactdp.numbers.qq import ONE, ZERO, to_qq

if TYPE_CHECKING:
    import sympy


def exact_real(value: Any, name: str) -> tuple[fmpq | sympy.Expr, bool]:
    """``(x, symbolic)`` as :func:`exactdp.numbers.sr.to_exact`, and text that is not a plain rational read
    by the safe reader as an exact constant (``"log(3)"``, ``"exp(1/2)"``; no names, no ``eval``)."""
    from exactdp.numbers.reader import read_expression  # deferred: start-up (sympy only for ε, t)
    from exactdp.numbers.sr import to_exact  # deferred: start-up

    if isinstance(value, str):
        try:
            return to_qq(value, name), False
        except CoercionError:
            value = read_expression(value, name=name)
    return to_exact(value, name)


def check_delta(delta: Any, name: str = "delta") -> fmpq:
    """δ as an exact rational in [0, 1] (the slack of (ε,δ)-LDP, [A] Def. 1)."""
    d = to_qq(delta, name)
    if d < ZERO or d > ONE:
        raise ParameterError(f"{name}: must lie in [0, 1], got {d}")
    return d


def check_count(n: Any, name: str = "n", low: int = 1) -> int:
    """An integer ≥ ``low`` (a number of samples, inputs or outputs); bools and floats are refused."""
    if isinstance(n, bool) or not isinstance(n, int) or n < low:
        rule = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise ParameterError(f"{name}: must be {rule}, got {n!r}")
    return n


def check_c(c: Any, N: int, name: str = "c") -> fmpq:
    """The prior floor c ∈ [0, 1/N] of the class M(ε,c) ([G] Def. 3) as an exact rational."""
    cc = to_qq(c, name)
    if cc < ZERO or cc * N > ONE:
        raise ParameterError(f"{name}: must lie in [0, 1/N] = [0, 1/{N}], got {cc}")
    return cc


def eps_value(eps: Any, name: str = "eps") -> fmpq | sympy.Expr:
    """ε ≥ 0 exact: an ``fmpq``, or a sympy expression (``log(3)``); a symbol-free ε is certified ≥ 0 by
    balls (:class:`~exactdp.errors.UndecidedError` if that cannot be decided).  Expressions with free
    symbols (parametric kernels) are returned unless they are known negative."""
    e, _ = exact_real(eps, name)
    if isinstance(e, fmpq):
        if e < ZERO:
            raise ParameterError(f"{name}: must be >= 0, got {e}")
        return e
    if e.free_symbols:
        if e.is_negative:
            raise ParameterError(f"{name}: must be >= 0, got {e}")
        return e
    from exactdp.numbers.rb import RB

    s = RB(e, name).sign().sign
    if s is None:
        raise UndecidedError(f"{name}: cannot certify that {name} = {e} is >= 0")
    if s < 0:
        raise ParameterError(f"{name}: must be >= 0, got {e}")
    return e


def _t_of_eps(e: fmpq | sympy.Expr) -> fmpq | sympy.Expr:
    """t = e^ε for a validated ε: ``fmpq`` when rational (ε = 0, ε = log 3), else a sympy expression.
    A large ε stays symbolic (``exp(10**10)`` is never expanded); a small expression is simplified exactly
    (e^{log 2 + log(3/2)} = 3)."""
    import sympy  # deferred: start-up

    if isinstance(e, fmpq):
        return ONE if e == 0 else sympy.exp(sympy.Rational(int(e.p), int(e.q)))
    g = sympy.exp(e)
    if not g.is_Rational and _small_expression(g):
        g = sympy.simplify(g)
    return to_qq(g, "t") if g.is_Rational else g


def _small_expression(expr: Any, max_ops: int = 50, max_bits: int = 1024) -> bool:
    """Few operations and no huge rationals: safe to hand to ``sympy.simplify``."""
    import sympy  # deferred: start-up

    if sympy.count_ops(expr) > max_ops:
        return False
    return all(max(abs(int(a.p)).bit_length(), int(a.q).bit_length()) <= max_bits
               for a in sympy.preorder_traversal(expr) if isinstance(a, sympy.Rational))


def t_value(t: Any = None, eps: Any = None, *, name: str = "t") -> fmpq | sympy.Expr:
    """t = e^ε from exactly one of ``t`` / ``eps``, checked t ≥ 1 (ε ≥ 0): an ``fmpq`` when rational, else
    an exact sympy expression (possibly with the free symbols of a parametric kernel)."""
    if (t is None) == (eps is None):
        raise ParameterError(f"{name}, eps: give exactly one of {name} = e^eps and eps")
    if eps is not None:
        return _t_of_eps(eps_value(eps))
    tv, _ = exact_real(t, name)
    if tv < ONE if isinstance(tv, fmpq) else (tv - 1).is_negative:
        raise ParameterError(f"{name}: {name} = e^eps must be >= 1, got {tv}")
    return tv


@dataclass(frozen=True)
class PrivacyLevel:
    """An (ε,δ) privacy level, validated once: t = e^ε ≥ 1 exact (rational or a sympy number such as
    ``exp(1/2)``), δ ∈ [0, 1] rational.  ``PrivacyLevel.of(t=3, delta="1/10")``, ``.of(eps="1/2")`` or
    ``.of(eps="log(3)")`` (then t = 3).  ``eps`` keeps the ε given (None when t was given): routes that
    must not form e^ε (ε = 10^10) read it."""

    t: Any
    delta: fmpq = ZERO
    eps: Any = field(default=None, compare=False)

    @classmethod
    def of(cls, t: Any = None, delta: Any = 0, *, eps: Any = None) -> PrivacyLevel:
        if eps is None or t is not None:
            return cls(t_value(t, eps), check_delta(delta))
        e = eps_value(eps)
        return cls(_t_of_eps(e), check_delta(delta), e)


@dataclass(frozen=True)
class PMLLevel:
    """A PML prior floor c with its number of inputs N, validated once: N ≥ 1 an integer (``min_N``) and
    c ∈ [0, 1/N] rational — c = 0 is the ε-LDP limit of the class M(ε,c); the papers' statements (the
    registry's :data:`exactdp.bounds.DOMAINS`) take c > 0, and :meth:`exactdp.bounds.Bound.evaluate`
    keeps that."""

    c: fmpq
    N: int

    @classmethod
    def of(cls, c: Any, N: Any, *, min_N: int = 1) -> PMLLevel:
        n = check_count(N, "N", min_N)
        return cls(check_c(c, n), n)
