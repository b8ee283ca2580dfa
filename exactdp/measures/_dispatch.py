"""Routes for non-rational inputs of the measures (symbolic kernels, irrational γ).

The rational (QQ) algorithms live beside their definitions; this module chooses the SR
(symbolic, :mod:`exactdp.symbolic`) or RB (certified, :mod:`exactdp.certified`) implementation when
an input is not an exact rational.  Kept separate so the QQ modules do not import the heavier layers.
"""

from __future__ import annotations

import sympy

from exactdp.errors import CoercionError
from exactdp.numbers.reader import as_expr


def eta_hockey_stick_witness_nonrational(K, gamma):
    """η_{E_γ}(K) with the maximizing pair, for a symbolic kernel or an irrational γ."""
    if K.symbolic:
        try:
            from exactdp.symbolic import eta_hockey_stick_witness_symbolic
        except ImportError:  # symbolic layer not installed in this build
            eta_hockey_stick_witness_symbolic = None
        if eta_hockey_stick_witness_symbolic is not None:
            return eta_hockey_stick_witness_symbolic(K, gamma)
        from exactdp.measures.divergences import hockey_stick

        values = [hockey_stick(K.row(i), K.row(j), gamma) for i in range(K.N) for j in range(K.N) if i != j]
        return sympy.Max(*[as_expr(v) for v in values]), None, None
    try:
        from exactdp.certified import eta_hockey_stick_certified
    except ImportError as exc:
        raise CoercionError(
            f"gamma: an irrational value ({gamma}) needs the certified layer, which is unavailable: {exc}"
        ) from exc
    return eta_hockey_stick_certified(K, gamma)
