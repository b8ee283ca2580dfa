r"""Exact E_γ of a product of a two-ratio loss and a three-ratio loss, streamed (docs/claims.md B-10, D-7).

A product of different kernels K₁^{⊗n₁} ⊗ K₂^{⊗n₂} (randomized response and a 2×3 kernel: ``exactdp tensor
rr.json:500 k23.json:500``) has, at a homogeneous composition, the pair loss (u, v)^{⊗K} ⊗ (p, q)^{⊗N} with
(u, v) of two finite ratio classes r_h > r_l and (p, q) of three, r₁ > r₂ > r₃.  Its type classes — (j; a₁, a₂,
a₃) with product ratio r_h^j r_l^{K−j} r₁^{a₁} r₂^{a₂} r₃^{a₃} — number about K·N²/2 (10⁸ at K = N = 500) and
their merged classes form a two-variable lattice of O(n²) classes of O(n)-bit integers (1.5·10⁶ classes of
2 500-bit integers there).  The linear piece of E_γ just right of γ is, exactly ([A] Thm 1, B-10),

.. math::  A = p_\infty + \sum_{a_1, a_2} W^P(a_1, a_2)\, T^P\big(j^*(a_1, a_2)\big), \qquad
           B = \sum_{a_1, a_2} W^Q(a_1, a_2)\, T^Q\big(j^*(a_1, a_2)\big),

with W^P(a₁, a₂) = C(N; a₁, a₂, a₃) P₁^{a₁} P₂^{a₂} P₃^{a₃} the trinomial weight, T^P(j) = Σ_{i ≥ j} C(K, i)
P_h^i P_l^{K−i} the binomial tail (Q alike), and j* the least j whose product ratio exceeds γ (K + 1 if none):
for fixed (a₁, a₂) the ratio grows with j, so the binomial coordinates above γ are a tail.  In log form
j* = ⌊x⌋ + 1 clipped to [0, K + 1], x = (log γ − K log r_l − Σ a_l log r_l) / log(r_h/r_l) — a tie (ratio = γ)
is not above, which ⌊x⌋ + 1 respects.

**Rows.**  For each a₁ (m = N − a₁) the weights C(m, a₂) P₂^{a₂} P₃^{m−a₂} are the coefficients of
(P₂ z + P₃)^m (one ``fmpz_poly`` multiplication from the previous row), and x decreases linearly in a₂, so j*
is non-increasing along the row: it is constant on *runs* of a₂.  A float guess of j* for the row (numpy;
only a guess) proposes the runs; each run [u, w] with value J is certified by two comparisons at its ends —
J − 1 ≤ x(w) and x(u) < J, x linear — decided by arb balls and, where a ball cannot decide (a tie), by the
exact rational product ratio.  A row whose guess fails a check is redone with a certified floor per a₂.  The
row sum is then Σ_runs T(J) · (Σ_{a₂ ∈ run} W(a₂)): additions inside runs, one multiplication per run.

Everything that enters A and B is an exact integer; floats only propose run boundaries that are then
certified.  Cost: O(N²) additions and O(N·min(N, K)) multiplications of O(n)-bit integers per piece, O(N + K)
memory of such integers.  Tested equal to the type classes of
:func:`~exactdp.measures.privacy_loss.product_loss` (tests/measures/test_binomial_trinomial.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from flint import arb, ctx, fmpq, fmpz, fmpz_poly

from exactdp.errors import ParameterError
from exactdp.measures.privacy_loss import PairLoss, int_masses, merged_losses, newton_from_left
from exactdp.numbers.qq import ONE, ZERO

#: working precision (bits) of the balls that certify the run boundaries (exact fallback where they cannot)
_PREC = 192
#: cost units per type class (a weight added into its run) and per run (a multiplication): for the cost guard
_PER_TYPE = 60
_PER_RUN = 600


def binomial_trinomial_loss(factors: Sequence[tuple[PairLoss, int]]) -> tuple[PairLoss, int, PairLoss, int] | None:
    """``(two, K, three, N)`` when the product ``[(PairLoss_j, k_j), ...]`` is, after merging equal losses and
    dropping k_j = 0, one loss with exactly two finite ratio classes (K coordinates) times one loss with exactly
    three (N coordinates); None otherwise."""
    merged = merged_losses(factors)
    if len(merged) != 2:
        return None
    two = [(loss, k) for loss, k in merged.items() if len(loss.classes) == 2]
    three = [(loss, k) for loss, k in merged.items() if len(loss.classes) == 3]
    if len(two) != 1 or len(three) != 1:
        return None
    return two[0][0], two[0][1], three[0][0], three[0][1]


def _tails(K: int, hi: int, lo: int) -> list[fmpz]:
    """T(j) = Σ_{i ≥ j} C(K, i) hi^i lo^{K−i} for j = 0..K + 1 (T(K + 1) = 0)."""
    terms = (fmpz_poly([lo, hi]) ** K).coeffs()
    terms += [fmpz(0)] * (K + 1 - len(terms))
    out = [fmpz(0)] * (K + 2)
    acc = fmpz(0)
    for j in range(K, -1, -1):
        acc += terms[j]
        out[j] = acc
    return out


def binomial_trinomial_cost(K: int, N: int, bits: int) -> int:
    """Work units of one :func:`binomial_trinomial_piece` (``bits``: size of the integers of one type)."""
    limbs = bits // 64 + 1
    types = (N + 1) * (N + 2) // 2
    runs = (N + 1) * (min(N, K) + 2)
    return 2 * (types * (_PER_TYPE + limbs) + runs * (_PER_RUN + limbs * limbs.bit_length()))


class _Rows:
    """The certified thresholds j*(a₁, a₂) of a product (two-ratio loss)^K ⊗ (three-ratio loss)^N at γ."""

    def __init__(self, two: PairLoss, K: int, three: PairLoss, N: int, gamma: fmpq):
        (self.rh, _), (self.rl, _) = two.classes
        (self.r1, _), (self.r2, _), (self.r3, _) = three.classes
        self.K, self.N, self.g = K, N, gamma
        with ctx.workprec(_PREC):
            lrho = arb(self.rh / self.rl).log()
            self.x0 = (arb(gamma).log() - K * arb(self.rl).log() - N * arb(self.r3).log()) / lrho
            self.s1 = arb(self.r1 / self.r3).log() / lrho
            self.s2 = arb(self.r2 / self.r3).log() / lrho
        self.f0, self.f1, self.f2 = (float(b.mid()) for b in (self.x0, self.s1, self.s2))

    def _above(self, a1: int, a2: int, j: int) -> bool:
        """Whether the type (j; a₁, a₂, N − a₁ − a₂) has product ratio > γ: x(a₁, a₂) < j, by a ball, exactly
        where the ball cannot decide."""
        with ctx.workprec(_PREC):
            x = self.x0 - a1 * self.s1 - a2 * self.s2
            if x < j:
                return True
            if x > j:
                return False
        m = self.N - a1
        ratio = self.r1 ** a1 * self.r2 ** a2 * self.r3 ** (m - a2) * self.rh ** j * self.rl ** (self.K - j)
        return ratio > self.g

    def _threshold(self, a1: int, a2: int) -> int:
        """j*(a₁, a₂), certified: the least j in 0..K with ratio > γ (K + 1 if none)."""
        with ctx.workprec(_PREC):
            x = self.x0 - a1 * self.s1 - a2 * self.s2
        guess = min(max(int(np.floor(float(x.mid()))) + 1, 0), self.K + 1)
        j = guess
        while j > 0 and self._above(a1, a2, j - 1):
            j -= 1
        while j <= self.K and not self._above(a1, a2, j):
            j += 1
        return j

    def runs(self, a1: int) -> list[tuple[int, int, int]]:
        """``(u, w, J)``: j* = J for every a₂ in [u, w], covering a₂ = 0..N − a₁ (module docstring)."""
        m, K = self.N - a1, self.K
        with np.errstate(invalid="ignore"):
            xs = self.f0 - a1 * self.f1 - np.arange(m + 1) * self.f2
            js = np.clip(np.floor(xs) + 1, 0, K + 1)
        if not np.all(np.isfinite(js)):
            return [(a2, a2, self._threshold(a1, a2)) for a2 in range(m + 1)]
        cuts = np.flatnonzero(np.diff(js)) + 1
        starts = [0, *cuts.tolist()]
        ends = [*(cuts - 1).tolist(), m]
        out = []
        for u, w in zip(starts, ends):
            J = int(js[u])
            # j* = J on [u, w]: J ≤ K ⇒ type (J; u) above (x(u) < J; x falls with a₂, so every a₂ ≥ u too), and
            # J ≥ 1 ⇒ type (J − 1; w) not above (x(w) ≥ J − 1; so every a₂ ≤ w too)
            if (J <= K and not self._above(a1, u, J)) or (J >= 1 and self._above(a1, w, J - 1)):
                return [(a2, a2, self._threshold(a1, a2)) for a2 in range(m + 1)]
            out.append((u, w, J))
        return out


def binomial_trinomial_piece(two: PairLoss, K: int, three: PairLoss, N: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)`` with E_γ'((u, v)^{⊗K} ⊗ (p, q)^{⊗N}) = A − γ'B on the piece just right of the rational γ ≥ 0
    (the type classes with product ratio > γ), for ``two`` with exactly two finite ratio classes and ``three``
    with exactly three — streamed rows (module docstring), equal to ``product_loss(...).linear_piece(...)``.

    >>> from flint import fmpq as F
    >>> rr = PairLoss.of([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
    >>> k23 = PairLoss.of([F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)])
    >>> binomial_trinomial_piece(rr, 1, k23, 1, F(1))
    (5/8, 1/8)
    """
    if len(two.classes) != 2 or len(three.classes) != 3:
        raise ValueError("binomial_trinomial_piece: needs a loss with two and a loss with three ratio classes")
    if not isinstance(gamma, fmpq) or gamma < 0:
        raise ParameterError(f"gamma: must be an exact rational >= 0, got {gamma!r}")
    p_inf = ONE - (ONE - two.p_only) ** K * (ONE - three.p_only) ** N
    (ph, pl), dPb = int_masses([P for _, P in two.classes])
    (qh, ql), dQb = int_masses(list(two.q_masses))
    (x1, x2, x3), dPt = int_masses([P for _, P in three.classes])
    (y1, y2, y3), dQt = int_masses(list(three.q_masses))
    if gamma == 0:  # every finite type is above 0
        return ONE, sum(two.q_masses, ZERO) ** K * sum(three.q_masses, ZERO) ** N
    TP, TQ = _tails(K, ph, pl), _tails(K, qh, ql)
    rows = _Rows(two, K, three, N, gamma)
    AP, BQ = fmpz(0), fmpz(0)
    rowP, rowQ = fmpz_poly([1]), fmpz_poly([1])  # (x2 z + x3)^m, (y2 z + y3)^m at m = 0
    stepP, stepQ = fmpz_poly([x3, x2]), fmpz_poly([y3, y2])
    baseP, baseQ = fmpz(x1) ** N, fmpz(y1) ** N  # C(N, a1) x1^a1 at a1 = N
    for a1 in range(N, -1, -1):
        if a1 < N:
            rowP, rowQ = rowP * stepP, rowQ * stepQ
            # C(N, a1) x1^a1 from C(N, a1 + 1) x1^{a1+1}: times (a1 + 1) / ((N − a1) x1), an exact division
            baseP = baseP * (a1 + 1) // ((N - a1) * x1)
            baseQ = baseQ * (a1 + 1) // ((N - a1) * y1)
        cP, cQ = rowP.coeffs(), rowQ.coeffs()
        SP, SQ = fmpz(0), fmpz(0)
        for u, w, J in rows.runs(a1):
            if J > K:
                continue
            SP += sum(cP[u:w + 1], fmpz(0)) * TP[J]
            SQ += sum(cQ[u:w + 1], fmpz(0)) * TQ[J]
        AP += baseP * SP
        BQ += baseQ * SQ
    return p_inf + fmpq(AP, fmpz(dPb) ** K * fmpz(dPt) ** N), fmpq(BQ, fmpz(dQb) ** K * fmpz(dQt) ** N)


def binomial_trinomial_gamma_for(two: PairLoss, K: int, three: PairLoss, N: int, delta: fmpq,
                                 start: fmpq = ZERO, max_steps: int = 20_000,
                                 piece: Callable[[fmpq], tuple[fmpq, fmpq]] | None = None) -> fmpq | None:
    r"""The least γ ≥ 0 with E_γ((u, v)^{⊗K} ⊗ (p, q)^{⊗N}) ≤ δ, exactly (None: the P-only mass exceeds δ).

    Newton's method from the left on its pieces (:func:`~exactdp.measures.privacy_loss.newton_from_left`);
    ``piece``: the pieces of another product of the same floor (a caller's kept pieces)."""

    def at(g: fmpq) -> tuple[fmpq, fmpq]:
        return piece(g) if piece is not None else binomial_trinomial_piece(two, K, three, N, g)

    floor = ONE - (ONE - two.p_only) ** K * (ONE - three.p_only) ** N
    return newton_from_left(floor, delta, at, start, max_steps)
