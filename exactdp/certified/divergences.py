r"""Certified divergences of long exact vectors, evaluated directly as arb balls.

:func:`exactdp.kl` and friends return exact sympy expressions (Σ p log(p/q) with one ``log`` per output);
building and evaluating that expression costs milliseconds per 256 points.  Here the same numbers are
:class:`~exactdp.numbers.rb.RB` values whose balls come from one pass over the integer form of the two
distributions — P = A/D, Q = B/E with integer numerators over common denominators — and whose exact
sympy expression is built only if a tie-break asks for it:

* KL(P‖Q) = (1/D) Σ_{A_i>0} A_i (log A_i − log B_i) + log E − log D   (docs/claims.md D-2),
* H²(P, Q) = Σ (√P − √Q)² = 2 − 2 Σ √(A_i B_i) / √(DE)   (no ½, F-G6; one square root per output; when
  P ≈ Q the subtraction cancels and :func:`~exactdp.numbers.digits.evalf` raises the precision until the
  digits are certified),
* D_α(P‖Q) = log(Σ A_i^α B_i^{1−α}) / (α − 1) − (α/(α−1)) log D + log E   (α rational, α ∉ {0, 1}, full
  support of P inside that of Q; every other case — α ∈ {0, 1, ∞}, zero masses — is the exact
  expression of :func:`exactdp.renyi`, as an RB).

Logs of equal integers are computed once.  ``evalf(kl_certified(P, Q), 30)`` prints 30 guaranteed digits;
an exact zero (P = Q) is returned as the rational 0, so it is never an undecided sign.
"""

from __future__ import annotations

from typing import Any

import sympy
from flint import arb, fmpq_mat

from exactdp.distributions import as_pair
from exactdp.errors import ParameterError
from exactdp.numbers.qq import ONE, ZERO, to_qq
from exactdp.numbers.rb import RB


def _int_form(P, Q) -> tuple[list[int], int, list[int], int]:
    """``(A, D, B, E)`` with P = A/D and Q = B/E (numerators over the lcm of the denominators)."""
    out = []
    for probs in (P.probs, Q.probs):
        num, den = fmpq_mat(1, len(probs), list(probs)).numer_denom()
        out.append((list(map(int, num.entries())), int(den)))
    (A, D), (B, E) = out
    return A, D, B, E


def _pair(P, Q):
    return as_pair(P, Q, rational="certified divergences take rational distributions (use exactdp.kl for "
                                  "symbolic ones)")


class _Logs:
    """log n of integers at the current working precision, each computed once per precision."""

    def __init__(self) -> None:
        self.cache: dict[int, arb] = {}

    def __call__(self, n: int) -> arb:
        v = self.cache.get(n)
        if v is None:
            v = self.cache[n] = arb(n).log()
        return v


def kl_certified(P, Q) -> Any:
    r"""KL(P‖Q) in nats as a certified real (:class:`~exactdp.numbers.rb.RB`), ``sympy.oo`` if Q(y) = 0 < P(y).

    Numerators up to 2^20: Σ A_i (log A_i − log B_i) = Σ_p c_p log p over the primes p dividing them, with
    exact integer weights c_p from a smallest-prime-factor sieve (vectorized), so one pass costs a few
    hundred ball operations on cached prime logarithms instead of one log per output; larger numerators:
    one log per distinct integer.

    >>> from exactdp.numbers.digits import evalf
    >>> evalf(kl_certified(["1/2", "1/2"], ["1/4", "3/4"]), 20)
    '0.14384103622589046372'
    """
    P, Q = _pair(P, Q)
    A, D, B, E = _int_form(P, Q)
    if any(a and not b for a, b in zip(A, B)):
        return sympy.oo
    if P.probs == Q.probs:
        return RB(0)
    pairs = [(a, b) for a, b in zip(A, B) if a]
    primes = _prime_weights(pairs)

    def ball() -> arb:
        log = _Logs()
        s = arb(0)
        if primes is not None:
            logp = _prime_logs()
            for p, c in primes:
                s += c * logp(p)
        else:
            for a, b in pairs:
                s += a * (log(a) - log(b))
        return s / D + log(E) - log(D)

    from exactdp.measures.divergences import kl

    return RB.from_evaluator(ball, exact=lambda: kl(P, Q), label="KL(P||Q)")


#: integers up to this bound are factored with the sieve (4 MB of int32, built once on first use)
SIEVE_LIMIT = 1 << 20
_SPF: list = []
_PRIME_LOGS: dict[int, dict[int, arb]] = {}


def _sieve():
    """Smallest prime factor of every n ≤ SIEVE_LIMIT (numpy int32; built once)."""
    if not _SPF:
        import numpy as np

        spf = np.zeros(SIEVE_LIMIT + 1, dtype=np.int32)
        for p in range(2, int(SIEVE_LIMIT ** 0.5) + 1):
            if spf[p] == 0:
                block = spf[p * p::p]
                block[block == 0] = p
        idx = np.flatnonzero(spf == 0)
        spf[idx] = idx  # primes; spf[1] = 1 ends a factorization, 0 is never looked up
        _SPF.append(spf)
    return _SPF[0]


def _prime_weights(pairs) -> list[tuple[int, int]] | None:
    r"""``[(p, c_p)]`` with Σ_i a_i (log a_i − log b_i) = Σ_p c_p log p, exact; None when an integer
    exceeds :data:`SIEVE_LIMIT` (or the weights could leave int64)."""
    import numpy as np

    if not pairs or max(max(a, b) for a, b in pairs) > SIEVE_LIMIT:
        return None
    spf = _sieve()
    a = np.array([x for x, _ in pairs] + [y for _, y in pairs], dtype=np.int64)
    w = np.array([x for x, _ in pairs] * 2, dtype=np.int64)
    w[len(pairs):] *= -1
    ps = []
    while True:  # one smallest prime factor of every entry per round (spf[1] = 1: finished entries stay 1)
        p = spf[a]
        if p.max() <= 1:
            break
        ps.append(p)
        a = a // p
    if not ps:
        return []
    p_all = np.concatenate(ps)
    w_all = np.tile(w, len(ps))
    keep = p_all > 1
    p_all, w_all = p_all[keep], w_all[keep]
    order = np.argsort(p_all, kind="stable")
    p_all, w_all = p_all[order], w_all[order]
    starts = np.flatnonzero(np.r_[True, p_all[1:] != p_all[:-1]])
    sums = np.add.reduceat(w_all, starts)
    return [(int(p), int(c)) for p, c in zip(p_all[starts].tolist(), sums.tolist()) if c]


def _prime_logs():
    """log p at the current working precision, cached per precision across calls."""
    from flint import ctx

    cache = _PRIME_LOGS.setdefault(ctx.prec, {})

    def logp(p: int) -> arb:
        v = cache.get(p)
        if v is None:
            v = cache[p] = arb(p).log()
        return v

    return logp


def hellinger2_certified(P, Q) -> RB:
    r"""H²(P, Q) = Σ (√P(y) − √Q(y))² ∈ [0, 2] (no ½) as a certified real.

    >>> from exactdp.numbers.digits import evalf
    >>> evalf(hellinger2_certified(["1/2", "1/2"], ["1", "0"]), 20)
    '0.58578643762690495120'
    """
    P, Q = _pair(P, Q)
    A, D, B, E = _int_form(P, Q)
    if P.probs == Q.probs:
        return RB(0)
    prods = [a * b for a, b in zip(A, B) if a and b]  # H² = 2 − 2 Σ √(A_i B_i) / √(DE) (both sum to 1)

    def ball() -> arb:
        s = arb(0)
        for x in prods:
            s += arb(x).sqrt()
        return 2 - 2 * s / arb(D * E).sqrt()  # P ≈ Q cancels here: the evaluator is asked for more bits

    from exactdp.measures.divergences import hellinger2

    return RB.from_evaluator(ball, exact=lambda: hellinger2(P, Q), label="H^2(P,Q)")


def renyi_certified(P, Q, alpha) -> Any:
    r"""The Rényi divergence D_α(P‖Q) (nats) as a certified real; ``sympy.oo`` where it is infinite.

    Rational α ∉ {0, 1} with supp P ⊆ supp Q: one pass of balls (module docstring); every other case is
    the exact expression of :func:`exactdp.renyi` as an RB (same conventions for zero masses).

    >>> from exactdp.numbers.digits import evalf
    >>> evalf(renyi_certified(["1/2", "1/2"], ["1/4", "3/4"], 2), 20)
    '0.28768207245178092744'
    """
    from exactdp.measures.divergences import renyi

    P, Q = _pair(P, Q)
    if alpha is sympy.oo:
        value = renyi(P, Q, alpha)
        return value if value is sympy.oo else RB(value)
    a = to_qq(alpha, "alpha")
    if a < 0:
        raise ParameterError(f"alpha: must be >= 0 or oo, got {a}")
    A, D, B, E = _int_form(P, Q)
    if a in (ZERO, ONE) or any(x and not y for x, y in zip(A, B)) or any(y and not x for x, y in zip(A, B)):
        value = renyi(P, Q, alpha)
        return value if value is sympy.oo else RB(value)
    if P.probs == Q.probs:
        return RB(0)
    if a.q == 1:  # integer α ≥ 2: Σ p^α q^{1−α} is an exact rational R, and D_α = log(R)/(α − 1)
        k = int(a.p)
        R = sum((p ** k / q ** (k - 1) for p, q in zip(P.probs, Q.probs) if p), ZERO)
        return RB.from_evaluator(lambda: arb(R).log() / (k - 1), exact=lambda: renyi(P, Q, alpha),
                                 label="D_alpha(P||Q)")
    pairs = list(zip(A, B))

    def ball() -> arb:
        log = _Logs()
        al = arb(a)
        s = arb(0)
        for x, y in pairs:
            s += (al * (log(x) - log(y))).exp() * y  # x^α y^(1−α) = y · (x/y)^α
        return s.log() / (al - 1) - al / (al - 1) * log(D) + log(E)

    return RB.from_evaluator(ball, exact=lambda: renyi(P, Q, alpha), label="D_alpha(P||Q)")


__all__ = ["hellinger2_certified", "kl_certified", "renyi_certified"]
