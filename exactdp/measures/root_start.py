r"""A start for the exact Newton iteration from the left, chosen by floats and certified by one exact piece.

The least γ with E_γ ≤ δ of one composition (the root behind ε(δ), [A] Thm 1 with docs/claims.md B-10) is found
exactly by :func:`~exactdp.measures.privacy_loss.newton_from_left`: from a γ with E_γ > δ, each step goes to where
the current linear piece meets δ.  From γ = 0 that takes one step per piece crossed — 66 to 143 exact pieces for the
homogeneous compositions of a 3×3 kernel at n = 1000 (seed 1000 of the random 3x3 kernels, δ = 10⁻⁶: most of its ε
query's time; docs/speed.md).  Started just left of the root it takes at most four
(tests/measures/test_root_start.py).

:func:`float_root_start` finds θ ≈ log γ* by bisection on a float model of E_{e^θ} − δ, then proposes e^{θ − m} for
growing margins m and keeps the first at which the *exact* piece shows E > δ — so the start is left of the root
whatever the floats did, and a model that misleads costs at most :data:`START_TRIALS` exact evaluations (0 is
returned then: Newton starts from γ = 0, as without a start).  The float models are per route:
:func:`~exactdp.measures.rank_one.rank_one_root_start` (rank-one products) and :func:`trinomial_root_start` (one loss
with three ratio classes, the streamed slices of :func:`~exactdp.measures.privacy_loss.trinomial_linear_piece`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from flint import arb, ctx, fmpq, fmpz

from exactdp.measures.privacy_loss import PairLoss, trinomial_linear_piece
from exactdp.numbers.qq import ZERO
from exactdp.numbers.rb import arb_to_fmpq

#: the float bisection stops at this width relative to θ (a tenth of the first margin)
START_WIDTH = 1e-10
#: exact evaluations spent on the start of a root
START_TRIALS = 4
#: the float model of :func:`trinomial_root_start` holds the (n + 1)(n + 2)/2 type classes; not built past this many
#: (n ≈ 2900); beyond it Newton starts from 0
TRINOMIAL_GRID = 1 << 22


def float_root_start(excess: Callable[[float], float], top: float, piece: Callable[[fmpq], tuple[fmpq, fmpq]],
                     delta: fmpq) -> fmpq:
    r"""A rational γ with E_γ > δ exactly, near the least γ with E_γ ≤ δ; or 0.

    ``excess(θ)`` is a float model of E_{e^θ} − δ (non-increasing), ``top`` a θ where it is ≤ 0, ``piece(γ)`` the
    exact (A, B) with E_γ' = A − γ'B just right of γ.  Bisection on θ ∈ [0, top] to :data:`START_WIDTH`, then e^{θ − m}
    for m = 10⁻⁹·max(θ, 1), ×100 per trial, each kept only if A − γB > δ (module docstring)."""
    lo, hi = 0.0, max(top, 1.0)
    if excess(lo) <= 0 or excess(hi) > 0:
        return ZERO
    while hi - lo > START_WIDTH * max(lo, 1.0):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    margin = 1e-9 * max(lo, 1.0)
    for _ in range(START_TRIALS):
        if lo - margin <= 0:
            break
        with ctx.workprec(64):
            x = arb(lo - margin).exp().mid()
        g = arb_to_fmpq(x)
        A, B = piece(g)
        if A - g * B > delta:
            return g
        margin *= 100
    return ZERO


def log_int(v: fmpz) -> float:
    """log v as a float for an integer v ≥ 0 of any size (−inf for 0): a guide, never a result."""
    b = v.bit_length()
    if b == 0:
        return -math.inf
    shift = max(b - 60, 0)
    return math.log(int(v >> shift)) + shift * math.log(2)


def log_rational(v: fmpq) -> float:
    """log v as a float for a rational v > 0 of any size (no overflow or underflow of float(v)): a guide only."""
    return log_int(fmpz(v.p)) - log_int(fmpz(v.q))


def trinomial_root_start(loss: PairLoss, n: int, delta: fmpq) -> fmpq:
    r"""A start for the root of E_γ(p^{⊗n} ‖ q^{⊗n}) = δ, p ‖ q a loss with three finite ratio classes
    (:func:`float_root_start`).  The float model: every type class (a, b, n − a − b) with log P from log-factorials
    and its privacy loss L = a·log r₁ + b·log r₂ + (n − a − b)·log r₃, sorted by L, with running log-sums of P and
    Q = P e^{−L} from the top; E_{e^θ} = p_∞ + ΣP − e^θ ΣQ over the classes with L > θ is then one binary search."""
    size = (n + 1) * (n + 2) // 2
    if len(loss.classes) != 3 or size > TRINOMIAL_GRID:
        return ZERO
    p_inf = 1 - (1 - float(loss.p_only)) ** n if loss.p_only else 0.0
    (r1, P1), (r2, P2), (r3, P3) = loss.classes
    lr = [log_rational(r) for r in (r1, r2, r3)]
    lp = [log_rational(P) for P in (P1, P2, P3)]
    lf = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, n + 1, dtype=np.float64)))))
    a, b = np.triu_indices(n + 1)  # a ≤ b: a = class-1 count, b − a = class-2 count
    b = b - a
    c = n - a - b
    keep = c >= 0
    a, b, c = a[keep], b[keep], c[keep]
    logp = lf[n] - lf[a] - lf[b] - lf[c] + a * lp[0] + b * lp[1] + c * lp[2]
    L = a * lr[0] + b * lr[1] + c * lr[2]
    order = np.argsort(-L)
    L, logp = L[order], logp[order]
    cum_p = np.logaddexp.accumulate(logp)
    cum_q = np.logaddexp.accumulate(logp - L)
    falling = -L  # ascending
    d = float(delta)

    def excess(theta: float) -> float:
        k = int(np.searchsorted(falling, -theta, side="left"))  # the classes with L > θ
        if k == 0:
            return p_inf - d
        return p_inf + math.exp(cum_p[k - 1]) - math.exp(min(theta + cum_q[k - 1], 700.0)) - d

    return float_root_start(excess, float(L[0]), lambda g: trinomial_linear_piece(loss, n, g), delta)
