"""Shared checks for the certified tests: containment of an independently computed value.

The independent value comes from mpmath at 150 significant digits (inside ``mpmath.workdps``, never a
global setting) or from an exact rational; our ball is asked for at a lower precision and must both
contain it and be tight (so the check can fail).
"""

from __future__ import annotations

import mpmath
from flint import arb, ctx, fmpq

from exactdp.numbers.rb import RB

MP_DIGITS = 150


def mp_ball(compute) -> arb:
    """An arb ball around ``compute()`` evaluated by mpmath at MP_DIGITS digits (radius 10^-140 relative)."""
    with mpmath.workdps(MP_DIGITS):
        v = compute()
        if v == 0:
            text = "0 +/- 1e-140"
        else:
            s = mpmath.nstr(v, MP_DIGITS - 5, min_fixed=1, max_fixed=0)
            err = mpmath.nstr(abs(v) * mpmath.mpf(10) ** -140, 5, min_fixed=1, max_fixed=0)
            text = f"{s} +/- {err}"
    with ctx.workprec(700):
        return arb(text)


def assert_encloses(x, compute=None, *, exact: fmpq | None = None, prec: int = 200, min_bits: int = 100):
    """The ball of x at ``prec`` bits contains the independent value and has ≥ ``min_bits`` relative accuracy."""
    b = (x if isinstance(x, RB) else RB(x)).ball(prec)
    assert b.is_finite(), f"non-finite ball {b}"
    if exact is not None:
        with ctx.workprec(4 * prec):
            assert b.contains(arb(exact)) or b.overlaps(arb(exact)), f"{b} misses {exact}"
        with ctx.workprec(4 * prec):
            ref = arb(exact)
    else:
        ref = mp_ball(compute)
        assert b.overlaps(ref), f"ball {b.str(30)} misses the mpmath value {ref.str(30)}"
    if not b.is_zero():
        assert b.rel_accuracy_bits() >= min_bits, f"ball {b} too wide ({b.rel_accuracy_bits()} bits)"
    return b
