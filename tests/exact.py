"""Exact numbers for tests, written once: a rational from text, an mpmath value of it, a tight arb ball.

Tests state expected values as exact strings ("3/7"); these helpers turn them into the three number types
the library works with, so no test parses fractions by hand.
"""

from __future__ import annotations

import mpmath
from flint import arb, ctx, fmpq

from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.reader import read_rational


def q(text) -> fmpq:
    """The exact rational written ``"3/7"``, ``"-2"``, ``"1/10"`` (through the library's one safe reader)."""
    return read_rational(str(text))


def mp(text) -> mpmath.mpf:
    """The rational ``text`` as an mpmath number at the current mpmath precision (one rounding)."""
    r = q(text)
    return mpmath.mpf(int(r.p)) / int(r.q)


def ball(x, prec: int = 200) -> arb:
    """A tight ball (``prec`` bits) around the exact rational ``x``, for containment checks."""
    with ctx.workprec(prec):
        return arb(q(x) if isinstance(x, str) else x)


def assert_rounds(decimal: str, value, prec: int = 300) -> None:
    """``decimal`` (as printed, e.g. ``"0.955511445027"``) is the correctly rounded value of the real that
    ``value()`` encloses at ``prec`` bits: the ball lies strictly within half a unit of the last printed digit
    around it, an exact check of a certified decimal."""
    half = fmpq(1, 2 * 10 ** len(decimal.partition(".")[2]))
    d = q(decimal)
    with ctx.workprec(prec):
        assert arb(d - half) < value() < arb(d + half), (decimal, value())


def random_distribution(rng, size: int, zero: int | None = None) -> list[fmpq]:
    """A random exact distribution on ``size`` outputs (weights 1..9 from ``rng``; entry ``zero`` set to 0)."""
    w = [rng.randint(1, 9) for _ in range(size)]
    if zero is not None:
        w[zero] = 0
    return [fmpq(x, sum(w)) for x in w]


def random_loss(rng, size: int, classes: int, p_only: bool) -> PairLoss:
    """A random pair loss of two distributions on ``size`` outputs (one more, zero under q, when ``p_only``) with
    exactly ``classes`` finite ratio classes: drawn until it has them."""
    while True:
        p = random_distribution(rng, size + p_only)
        q = random_distribution(rng, size + p_only, zero=size if p_only else None)
        loss = PairLoss.of(p, q)
        if len(loss.classes) == classes:
            return loss
