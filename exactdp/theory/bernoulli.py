r"""The uniform-prior Bernoulli example of [A] §V (docs/claims.md A-16, A-17): exact and certified information.

Setting `[RECON]` (docs/claims.md A-16; the paper's full text is not stored): θ ~ Uniform[0,1], X_1..X_n i.i.d.
Bernoulli(θ) given θ.  S = ΣX_i is sufficient and uniform on {0,…,n}; b_s(θ) := Bin(s; n, θ).

* Mutual information, an **exact closed form** (rational numbers and logs of integers):

  I(θ;Xⁿ) = log(n+1) − ∫₀¹ H(Bin(n,θ)) dθ = log(n+1) − n/2 + log(Π_s C(n,s))/(n+1),

  using ∫₀¹ b_s = 1/(n+1), ∫₀¹ b_s log θ dθ = (H_s − H_{n+1})/(n+1) (H_k harmonic numbers) and
  Σ_{s≤n} s·H_s = n(n+1)H_{n+1}/2 − n(n+1)/4.

* E_γ-information, a **certified ball**: I_γ(θ;Xⁿ) = E_γ(P_{θXⁿ} ‖ P_θ⊗P_{Xⁿ})
  = ∫₀¹ Σ_s (b_s(θ) − γ/(n+1))₊ dθ.  Each b_s is unimodal on [0,1] (peak at s/n), so {b_s > γ/(n+1)} is
  an interval [a_s, c_s] whose ends are roots of a degree-n polynomial.  The roots are enclosed by exact
  rational bisection on the monotone pieces (signs decided exactly for rational γ, by ball comparison
  for γ = e^ε), and the integral is G(c_s) − G(a_s) with G(x) = ∫₀ˣ b_s − γx/(n+1), evaluated on the
  root balls in arb.  The enclosure is rigorous; its width is set by ``bits``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sympy
from flint import arb, ctx, fmpq, fmpq_poly, fmpz

from exactdp.errors import ParameterError, UndecidedError
from exactdp.numbers.rb import DEFAULT_PREC, arb_eval, ball_sign
from exactdp.parameters import check_count


def _n(n) -> int:
    return check_count(n, "n")


def integrated_binomial_entropy(n: int) -> sympy.Expr:
    r"""∫₀¹ H(Bin(n,θ)) dθ = n/2 − log(Π_s C(n,s))/(n+1) in nats, exactly.

    Derivation: −∫ b_s log b_s = −[log C(n,s) + s(H_s − H_{n+1}) + (n−s)(H_{n−s} − H_{n+1})]/(n+1) (Beta-integral
    derivative), and Σ_{s≤n} s·H_s = n(n+1)H_{n+1}/2 − n(n+1)/4 collapses the harmonic numbers to n/2.

    >>> integrated_binomial_entropy(1)
    1/2
    """
    n = _n(n)
    prod = 1
    for s in range(n + 1):
        prod *= int(fmpz.bin_uiui(n, s))
    return sympy.Rational(n, 2) - sympy.log(sympy.Integer(prod)) / (n + 1)


def bernoulli_mutual_information(n: int) -> sympy.Expr:
    r"""I(θ;Xⁿ) = log(n+1) − ∫₀¹ H(Bin(n,θ)) dθ (nats), θ ~ U[0,1], exact (docs/claims.md A-16).

    >>> bernoulli_mutual_information(1)
    -1/2 + log(2)
    """
    n = _n(n)
    return sympy.log(sympy.Integer(n + 1)) - integrated_binomial_entropy(n)


@cache
def _bernstein(n: int, s: int) -> tuple[fmpq_poly, fmpq_poly]:
    """(b_s, ∫₀ˣ b_s) as exact polynomials in θ."""
    b = fmpq_poly([int(fmpz.bin_uiui(n, s))]) * fmpq_poly([0, 1]) ** s * fmpq_poly([1, -1]) ** (n - s)
    return b, b.integral()


def _level_sign(value: fmpq, level) -> int:
    """sign(value − level): exact for rational level, certified for an arb level (raises if undecided)."""
    if isinstance(level, fmpq):
        return (value > level) - (value < level)
    s = ball_sign(arb(value) - level)  # the one ball test (exactdp.numbers.rb)
    if s is not None:
        return int(s)
    raise UndecidedError("E_gamma information: b_s(θ) − γ/(n+1) has an undecided sign; raise prec")


def _root_bracket(b: fmpq_poly, level, lo: fmpq, hi: fmpq, rising: bool, bits: int) -> tuple[fmpq, fmpq]:
    """[lo, hi] ∋ the unique root of b − level on a piece where b is monotone (rising or falling)."""
    width = fmpq(1, 2**bits)
    while hi - lo > width:
        mid = (lo + hi) / 2
        try:
            s = _level_sign(b(mid), level)
        except UndecidedError:
            break  # mid is within the level's ball radius of the root: the bracket is still valid
        if s == 0:
            return mid, mid
        if (s > 0) == rising:
            hi = mid
        else:
            lo = mid
    return lo, hi


def _ball(lo: fmpq, hi: fmpq) -> arb:
    return arb(lo).union(arb(hi)) if lo != hi else arb(lo)


def bernoulli_e_gamma_information(n: int, gamma, *, bits: int = 100, prec: int = DEFAULT_PREC) -> arb:
    r"""A certified ball for I_γ(θ;Xⁿ) = ∫₀¹ Σ_s (Bin(s;n,θ) − γ/(n+1))₊ dθ, θ ~ U[0,1] (A-16).

    Args:
        n: sample size ≥ 1.
        gamma: γ ≥ 1 — an exact rational, or an exact sympy expression such as ``exp(1/100)``.
        bits: the root brackets are narrowed to width 2^-bits (this sets the ball's radius).
        prec: working precision of the arb evaluation.

    For n = 1, I_γ = (1 − γ/2)²₊ exactly (a test cross-check):

    >>> bernoulli_e_gamma_information(1, 1).contains(arb(fmpq(1, 4)))
    True
    """
    n = _n(n)
    exact_level = not isinstance(gamma, (sympy.Basic, arb)) or (isinstance(gamma, sympy.Basic) and gamma.is_Rational)
    if exact_level:
        from exactdp.numbers.qq import to_qq

        g: Any = to_qq(gamma, "gamma")  # fmpq here, an arb ball for an irrational gamma
        if g < 1:
            raise ParameterError(f"gamma: must be >= 1, got {g}")
        level: Any = g / (n + 1)
    else:
        g = arb_eval(gamma, prec)
        if not g >= 1:
            raise ParameterError(f"gamma: must be certified >= 1, got {g}")
        with ctx.workprec(prec):
            level = g / (n + 1)
    total = arb(0)
    with ctx.workprec(prec):
        lv = arb(level) if isinstance(level, fmpq) else level
        for s in range(n + 1):
            b, B = _bernstein(n, s)
            peak_x = fmpq(s, n)
            if _level_sign(b(peak_x), level) <= 0:
                continue  # b_s ≤ γ/(n+1) everywhere: no contribution
            if s == 0:
                a_lo = a_hi = fmpq(0)
            else:
                a_lo, a_hi = _root_bracket(b, level, fmpq(0), peak_x, True, bits)
            if s == n:
                c_lo = c_hi = fmpq(1)
            else:
                c_lo, c_hi = _root_bracket(b, level, peak_x, fmpq(1), False, bits)
            A, C = _ball(a_lo, a_hi), _ball(c_lo, c_hi)
            Barb = B.coeffs()
            total += _poly_eval(Barb, C) - _poly_eval(Barb, A) - lv * (C - A)
    return total


def _poly_eval(coeffs, x: arb) -> arb:
    out = arb(0)
    for c in reversed(coeffs):
        out = out * x + arb(c)
    return out


def bernoulli_e_gamma_information_rb(n: int, gamma):
    r"""I_γ(θ;Xⁿ) as an :class:`~exactdp.numbers.rb.RB`: balls at any precision on demand (the root brackets
    are narrowed to the working precision), so RB decisions refine automatically.

    >>> from exactdp.numbers.rb import RB
    >>> bernoulli_e_gamma_information_rb(1, 1) > RB("0.2499")
    <Truth.TRUE: 'true'>
    """
    from exactdp.numbers.rb import RB

    n = _n(n)

    def evaluator() -> arb:
        p = ctx.prec
        return bernoulli_e_gamma_information(n, gamma, bits=max(p - 16, 16), prec=p)

    return RB.from_evaluator(evaluator, label=f"I_gamma(theta;X^{n})")
