r"""Exact E_γ of a composition next to a corner: one streamed loss times a product of few type classes (B-10, D-7).

A 2×3 row pair's compositions k × (x, x'), n − k × (x', x) with k or n − k small — the maximizer of a near-symmetric
pair at n = 1000 is often (999, 1) — are products of two three-ratio losses, whose exact type classes number
O(n²) (1.5·10⁶ classes of 4 000-bit integers at n = 1000: over the cost guard).  Conditioning on the coordinates
of the small side R = ⊗_j (p_j, q_j)^{⊗m_j} gives, exactly ([A] Thm 1 applied to each fibre; docs/claims.md D-7),

.. math::  E_\gamma(P \otimes P' \,\|\, Q \otimes Q') = P'_\infty
           + \sum_{c} P'_c\, E_{\gamma / r_c}(P \,\|\, Q),

the sum over the finite ratio classes c of R (mass P'_c, ratio r_c = P'_c/Q'_c; P'_∞ its P-only mass, on which
every outcome of the large side counts in full, Σ_x P(x) = 1), P ‖ Q = (p, q)^{⊗K} the large side.  Each
E_{γ/r_c} of the large side is one streamed evaluation (a binomial sum for ≤ 2 ratio classes, the slices of
:func:`~exactdp.measures.privacy_loss.trinomial_linear_piece` for 3, the conditioned slices of
:func:`~exactdp.measures.quadrinomial.quadrinomial_linear_piece` for 4 or more), so the composition costs (classes of R) ×
(one streamed evaluation) instead of the O(n²) type classes.  The linear piece just right of γ is the sum of the
pieces: with E_{γ'/r_c} = A_c − (γ'/r_c)·B_c just right of γ/r_c,

.. math::  A = P'_\infty + \sum_c P'_c A_c, \qquad B = \sum_c Q'_c B_c

(P'_c / r_c = Q'_c), and the root of E_γ = δ is Newton from the left on these pieces
(:func:`~exactdp.measures.privacy_loss.newton_from_left`).  Exact integers and rationals only; tested equal to
the type classes of :func:`~exactdp.measures.privacy_loss.product_loss` (tests/measures/test_near_corner.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from flint import fmpq

from exactdp.measures.privacy_loss import (
    PairLoss,
    binomial_linear_piece,
    merged_losses,
    newton_from_left,
    product_loss,
    trinomial_linear_piece,
)
from exactdp.measures.quadrinomial import quadrinomial_linear_piece
from exactdp.numbers.qq import ONE, ZERO

#: ``(large loss, its multiplicity K, the small side's items)`` of a near-corner product
CornerSplit = tuple[PairLoss, int, list[tuple[PairLoss, int]]]


def corner_split(factors: Sequence[tuple[PairLoss, int]]) -> CornerSplit | None:
    """``(loss, K, rest)`` when the product ``[(PairLoss_j, k_j), ...]`` has, after merging equal losses and dropping
    k_j = 0, at least two losses and its most frequent one has one or more finite ratio classes (a streamed
    evaluation): that loss with its multiplicity K, and the other items (the small side); None otherwise.  Whether
    the split is cheaper than the type classes is the caller's cost decision
    (:func:`~exactdp.measures.tensor_search.corner_route`)."""
    merged = merged_losses(factors)
    if len(merged) < 2:
        return None
    big, K = max(merged.items(), key=lambda item: item[1])
    if not big.classes:
        return None
    return big, K, [(loss, k) for loss, k in merged.items() if loss != big]


def _streamed_piece(loss: PairLoss, K: int, g: fmpq) -> tuple[fmpq, fmpq]:
    """(A, B) of E_γ'((p, q)^{⊗K}) = A − γ'B just right of g (one loss: a binomial sum for one or two ratio classes,
    streamed slices for three, conditioned slices for four or more)."""
    if len(loss.classes) <= 2:
        return binomial_linear_piece(loss, K, lambda r: g < r)
    if len(loss.classes) == 3:
        return trinomial_linear_piece(loss, K, g)
    return quadrinomial_linear_piece(loss, K, g)


def near_corner_piece(big: PairLoss, K: int, rest: Sequence[tuple[PairLoss, int]], gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)`` with E_γ'(big^{⊗K} ⊗ rest) = A − γ'B on the piece just right of the rational γ ≥ 0 (module
    docstring: the small side's classes, each one streamed evaluation of the large side at γ/r_c), equal to
    ``product_loss([(big, K), *rest]).linear_piece(...)``.

    >>> from flint import fmpq as F
    >>> A = PairLoss.of([F(5, 9), F(1, 3), F(1, 9)], [F(3, 8), F(1, 2), F(1, 8)])
    >>> a, b = near_corner_piece(A, 3, [(A.reverse(), 1)], F(2))
    >>> a - 2 * b == product_loss([(A, 3), (A.reverse(), 1)]).hockey_stick(F(2))
    True
    """
    R = product_loss(list(rest))
    A, B = R.p_inf, ZERO
    for Pc, Qc in zip(R.P, R.Q):
        P, Q = fmpq(Pc, R.DP), fmpq(Qc, R.DQ)
        Ac, Bc = _streamed_piece(big, K, gamma * Q / P)  # γ/r_c, r_c = P/Q
        A += P * Ac
        B += Q * Bc
    return A, B


def near_corner_gamma_for(big: PairLoss, K: int, rest: Sequence[tuple[PairLoss, int]], delta: fmpq,
                          start: fmpq = ZERO, max_steps: int = 20_000) -> fmpq | None:
    """The least γ ≥ 0 with E_γ(big^{⊗K} ⊗ rest) ≤ δ, exactly (None: its P-only mass exceeds δ) — Newton from the
    left on :func:`near_corner_piece` (``start``: a trial γ, used only when it lies left of the root)."""
    fin = (ONE - big.p_only) ** K
    for loss, k in rest:
        fin *= (ONE - loss.p_only) ** k
    return newton_from_left(ONE - fin, delta, lambda g: near_corner_piece(big, K, rest, g), start, max_steps)
