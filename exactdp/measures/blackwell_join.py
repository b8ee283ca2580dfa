r"""The Blackwell join of dichotomies, and its chord majorant on a grid of ratios.

A dichotomy (P ‖ Q) is known, up to garbling, by its privacy profile γ ↦ E_γ(P‖Q) = sup_A P(A) − γQ(A)
(γ ≥ 0).  A function F on [0, ∞) is such a profile iff it is convex, non-increasing, F(0) = 1 and
F(γ) ≥ (1 − γ)_+ (Blackwell's theorem for dichotomies; the dichotomy is read off F's breakpoints: a slope
increase Δ at γ = r is a ratio class with Q-mass Δ and P-mass rΔ, F(∞) is the P-only mass, 1 + F′(0+) the
Q-only mass).  Hence for dichotomies D_1, …, D_k:

* the **join** J, E_γ(J) = max_i E_γ(D_i), is a dichotomy (a maximum of profiles keeps all four properties);
* every **convex majorant** of that maximum that still satisfies them — here the chord interpolation of the
  maximum at 0 and a grid g_1 < … < g_m, constant after g_m — is one too, with atoms on the grid only.

Either dominates every D_i in Blackwell's order, so each D_i is a garbling of it, and by data processing

.. math::  E_\gamma(R \otimes D_i) \le E_\gamma(R \otimes J) \qquad \text{for every dichotomy } R \text{ and every } \gamma \ge 0 .

This is how one evaluation bounds a whole family of product compositions at once: a window of compositions
k0 … k0 + j of a row pair (the j varying coordinates replaced by the join of their j + 1 directions), or a box
of compositions of a three-row kernel (the free coordinates replaced by the join of the ratio classes they
may take) — docs/tensorization.md.  The grid form keeps the atoms on a lattice coset of the product's ratios,
so the majorant composes with the exact lattice blocks.

Exact throughout (``fmpq``) but for the floats that choose :func:`window_majorant`'s grid (floats of exact maxima,
:func:`profile_max_floats`); the profile property of every result is checked exactly before it is returned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from flint import fmpq

from exactdp.measures.privacy_loss import PairLoss, ProductLoss, product_loss
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import ONE, ZERO


def profile_values(loss: PairLoss, gammas: Sequence[fmpq]) -> list[fmpq]:
    r"""E_γ(loss) at each γ of the increasing sequence ``gammas`` (γ ≥ 0): one merge of the ratio classes
    (decreasing) against the γ's, E_γ = p_∞ + Σ_{r > γ} P_r − γ Σ_{r > γ} Q_r — O(classes + len(gammas))."""
    classes = loss.classes
    out: list[fmpq] = []
    n, i = len(classes), 0
    P, Q = ZERO, ZERO  # walk γ from the largest down, adding the classes whose ratio exceeds it
    for g in reversed(gammas):
        while i < n and classes[i][0] > g:
            r, Pl = classes[i]
            P, Q = P + Pl, Q + Pl / r
            i += 1
        out.append(loss.p_only + P - g * Q)
    out.reverse()
    return out


def as_pair_loss(product: ProductLoss) -> PairLoss:
    r"""The :class:`PairLoss` of a :class:`ProductLoss`: class c has ratio (P_c/DP)/(Q_c/DQ) and P-mass P_c/DP
    (classes of equal ratio merged)."""
    masses: dict[fmpq, fmpq] = {}
    for Pc, Qc in zip(product.P, product.Q):
        r = fmpq(Pc * product.DQ, Qc * product.DP)
        masses[r] = masses.get(r, ZERO) + fmpq(Pc, product.DP)
    classes = tuple(sorted(masses.items(), key=lambda item: item[0], reverse=True))
    return PairLoss(classes, product.p_inf)


def from_profile(grid: Sequence[fmpq], values: Sequence[fmpq]) -> PairLoss:
    r"""The dichotomy whose profile is the piecewise-linear interpolation of (0, 1), (g_1, v_1), …, (g_m, v_m),
    constant = v_m after g_m (0 < g_1 < … < g_m).

    A slope increase Δ > 0 at g_k is a class of ratio g_k and P-mass g_k·Δ; v_m is the P-only mass.  Raises
    ``ValueError`` unless the interpolation is a profile: first slope ≥ −1, slopes non-decreasing up to 0 and
    v_m ≥ 0 (the property the join's soundness rests on, checked exactly, never assumed)."""
    if len(grid) != len(values) or not grid:
        raise ValueError("from_profile: one value per grid point, at least one point")
    xs, ys = [ZERO, *grid], [ONE, *values]
    if any(b <= a for a, b in zip(xs, xs[1:])):
        raise ValueError("from_profile: the grid must be positive and increasing")
    slopes = [(y1 - y0) / (x1 - x0) for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:])] + [ZERO]
    if slopes[0] < -1 or ys[-1] < 0:
        raise ValueError("from_profile: the values are not a privacy profile (slope below -1 or negative end)")
    classes = []
    for k in range(1, len(xs)):
        jump = slopes[k] - slopes[k - 1]
        if jump < 0:
            raise ValueError(f"from_profile: the values are not convex and non-increasing at {xs[k]}")
        if jump:
            classes.append((xs[k], xs[k] * jump))
    classes.reverse()
    return PairLoss(tuple(classes), ys[-1])


def chord_majorant(parts: Sequence[PairLoss], grid: Sequence[fmpq]) -> PairLoss:
    r"""The dichotomy whose profile interpolates max_i E_γ(parts_i) at 0 and at the increasing positive ``grid``
    (constant after the last point): it dominates every part (a chord of a convex function lies above it, and
    after g_m the maximum is at most its value there), with ratio classes on the grid only."""
    grid = sorted(set(grid))
    if not parts or not grid:
        raise ValueError("chord_majorant: at least one part and one grid point")
    best = profile_values(parts[0], grid)
    for part in parts[1:]:
        best = [max(a, b) for a, b in zip(best, profile_values(part, grid))]
    return from_profile(grid, best)


def _crossings(lines: list[tuple[fmpq, fmpq]], a: fmpq, b: fmpq) -> list[fmpq]:
    r"""The breakpoints inside (a, b) of the upper envelope of the lines γ ↦ A − Bγ (``(A, B)`` pairs): walk
    from a, switching at each point to the flatter line that overtakes the current one first."""
    cur = max(lines, key=lambda ln: (ln[0] - a * ln[1], -ln[1]))
    out: list[fmpq] = []
    x = a
    while True:
        nxt: tuple[fmpq, tuple[fmpq, fmpq]] | None = None
        for ln in lines:
            if ln[1] < cur[1]:
                at = (cur[0] - ln[0]) / (cur[1] - ln[1])
                if at > x and (nxt is None or (at, -ln[1]) < (nxt[0], -nxt[1][1])):
                    nxt = (at, ln)
        if nxt is None or nxt[0] >= b:
            return out
        x, cur = nxt
        out.append(x)


def join(parts: Sequence[PairLoss]) -> PairLoss:
    r"""The Blackwell join of ``parts``: the dichotomy with E_γ = max_i E_γ(parts_i) for every γ ≥ 0, exactly.

    Between consecutive ratios of all parts every profile is linear, so the maximum's breakpoints are those
    ratios and the crossings of the upper envelope of the pieces there; the join is the chord majorant on all
    of them (which then equals the maximum)."""
    if not parts:
        raise ValueError("join: at least one part")
    ratios = sorted({r for part in parts for r, _ in part.classes})
    if not ratios:
        return PairLoss((), max(part.p_only for part in parts))
    points = [ZERO, *ratios]
    grid = set(ratios)
    for a, b in zip(points, points[1:]):
        lines = []
        for part in parts:  # the piece of E_γ(part) on (a, b): classes with ratio ≥ b are above every γ there
            P = part.p_only + sum((Pl for r, Pl in part.classes if r >= b), ZERO)
            Q = sum((Pl / r for r, Pl in part.classes if r >= b), ZERO)
            lines.append((P, Q))
        grid.update(_crossings(lines, a, b))
    return chord_majorant(parts, sorted(grid))


def window_majorant(A: PairLoss, B: PairLoss, j: int, points: int) -> PairLoss:
    r"""D′_j of a row pair: the chord majorant (:func:`chord_majorant`) of the profiles of A^{⊗i} ⊗ B^{⊗(j−i)},
    i = 0..j, on at most ``points`` of their ratios (j ≥ 1, ``points`` ≥ 2), so that for every dichotomy R and γ ≥ 0

    .. math::  \max_{i \le j} E_\gamma(R \otimes A^{\otimes i} \otimes B^{\otimes (j-i)}) \le E_\gamma(R \otimes D'_j)

    (each part is a garbling of D′_j): with R = A^{⊗k0} ⊗ B^{⊗(n−k0−j)} one evaluation bounds the window of
    compositions k0 … k0 + j.  D′_j depends on neither γ nor R.  The grid: the smallest and largest ratio, then
    greedily the ratio where the chord lies farthest above the maximum (times the log-width of its interval; floats
    only choose points — any grid gives a majorant, fewer points a looser one, and all the parts' ratios the
    maximum itself at each of them).  Kept per (A, B, j, points) (:data:`_WINDOWS`)."""
    key = (A, B, j, points)
    got = _WINDOWS.get(key)
    if got is not None:
        return got
    if j < 1 or points < 2:
        raise ValueError("window_majorant: j >= 1 and at least two grid points")
    parts = [as_pair_loss(product_loss([(A, i), (B, j - i)])) for i in range(j + 1)]
    full = sorted({r for part in parts for r, _ in part.classes})
    if len(full) <= points:
        out = chord_majorant(parts, full)
    else:
        y = profile_max_floats(parts, full)
        # log-ratios from the integers (a ratio of j coordinates may lie outside the float range), and the chord's
        # abscissa (x_i − x_a)/(x_b − x_a) = e^{lx_i − lx_b}·(1 − e^{lx_a − lx_i})/(1 − e^{lx_a − lx_b}) from
        # non-positive exponents: no overflow, no division by a zero width (an interval whose two ends round to one
        # float log is skipped — floats only choose the grid)
        lx = [math.log(int(r.p)) - math.log(int(r.q)) for r in full]
        def farthest(a: int, b: int) -> tuple[float, int] | None:  # the first point of largest gap inside (a, b)
            span = lx[b] - lx[a]
            if not span > 0:
                return None
            worst: tuple[float, int] | None = None
            for i in range(a + 1, b):
                t = math.exp(lx[i] - lx[b]) * math.expm1(lx[a] - lx[i]) / math.expm1(lx[a] - lx[b])
                gap = (y[a] + (y[b] - y[a]) * t - y[i]) * span
                if worst is None or gap > worst[0]:
                    worst = (gap, i)
            return worst

        # each interval's farthest point kept until the interval is split (the first of the largest gaps, in the order
        # of the intervals: the same choice as scanning every interval again)
        chosen = [0, len(full) - 1]
        inside = {(0, len(full) - 1): farthest(0, len(full) - 1)}
        while len(chosen) < points:
            pick: tuple[float, int, int, int] | None = None
            for a, b in zip(chosen, chosen[1:]):
                far = inside[(a, b)]
                if far is not None and (pick is None or far[0] > pick[0]):
                    pick = (far[0], far[1], a, b)
            if pick is None:
                break
            _, i, a, b = pick
            del inside[(a, b)]
            inside[(a, i)], inside[(i, b)] = farthest(a, i), farthest(i, b)
            chosen = sorted(chosen + [i])
        out = chord_majorant(parts, [full[i] for i in chosen])
    _WINDOWS.put(key, out)
    return out


def profile_max_floats(parts: Sequence[PairLoss], gammas: Sequence[fmpq]) -> list[float]:
    r"""float(max_i E_γ(parts_i)) at each γ of the increasing positive ``gammas``, each part's ratios among them: the
    floats of the exact maximum (as ``[float(max(vs)) for vs in zip(*(profile_values(part, gammas) ...))]``).

    Each part's profile is read in floats, E_γ = p_∞ + P(γ) − γQ(γ) from the floats of its exact suffix sums P, Q over
    the classes above γ (each float within u of its exact value, so the computed E_γ within 4u(p_∞ + P + γQ) of the
    exact one); the parts whose float value is within 10⁻¹² (p_∞ + P + γQ) of the largest are the candidates, and
    their exact values decide the maximum (the floats only choose which parts are evaluated exactly).  Where a float
    would leave the normal range (ratios past e^{±700}), every part is evaluated exactly."""
    m = len(gammas)
    pos = {g: t for t, g in enumerate(gammas)}
    sums: list[tuple[list[fmpq], list[fmpq], npt.NDArray[np.int64]]] = []
    for part in parts:
        P, Q = [ZERO], [ZERO]  # after the c classes of largest ratio
        for r, Pl in part.classes:
            P.append(P[-1] + Pl)
            Q.append(Q[-1] + Pl / r)
        at = np.array([pos[r] for r, _ in part.classes], dtype=np.int64)[::-1]  # ascending
        sums.append((P, Q, len(at) - np.searchsorted(at, np.arange(m), side="right")))  # classes with ratio > γ_t
    candidate: npt.NDArray[np.bool_] | None = None
    try:
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            gf = np.array([float(g) for g in gammas])
            vals, tols = np.empty((len(parts), m)), np.empty((len(parts), m))
            ok = bool(np.all(np.isfinite(gf)) and np.all(gf > 1e-290))
            for x, (part, (P, Q, count)) in enumerate(zip(parts, sums)):
                Pf, Qf = np.array([float(v) for v in P])[count], np.array([float(v) for v in Q])[count]
                ok = ok and bool(np.all(np.isfinite(Qf)) and np.all((Qf == 0) | (Qf > 1e-290)))
                gq = gf * Qf
                vals[x] = float(part.p_only) + Pf - gq
                tols[x] = 1e-12 * (float(part.p_only) + Pf + gq) + 1e-300
            if ok and bool(np.all(np.isfinite(vals)) and np.all(np.isfinite(tols))):
                candidate = vals + tols >= np.max(vals - tols, axis=0)
    except OverflowError:  # a ratio or a Q-sum past the float range: every part exactly
        candidate = None
    out = []
    for t, g in enumerate(gammas):
        best: fmpq | None = None
        for x in (np.flatnonzero(candidate[:, t]).tolist() if candidate is not None else range(len(parts))):
            P, Q, count = sums[x]
            c = int(count[t])
            v = parts[x].p_only + P[c] - g * Q[c]
            if best is None or v > best:
                best = v
        assert best is not None
        out.append(float(best))
    return out


#: :func:`window_majorant` by (A, B, j, points)
_WINDOWS: Memo[PairLoss] = Memo(256)


def coarse(loss: PairLoss, keep: int) -> PairLoss:
    r"""A dichotomy of at most ``keep`` ratio classes dominating ``loss``: the chord majorant of its profile on the
    ratios of its ``keep`` classes of largest P-mass (:func:`chord_majorant`).  Each class left out moves at most its
    own P-mass: its slope increase Δ = P/r at r, spread over the chord between its kept neighbours g_a < r < g_b,
    raises the profile by at most Δ·min(r − g_a, g_b − r) ≤ P (after the last kept ratio the constant exceeds the
    profile by at most the P-mass of the classes above it, before the first the chord from (0, 1) by that of the
    classes below it), so E_γ(R ⊗ coarse) ≤ E_γ(R ⊗ loss) + (P-mass left out) for every R — tight where the mass left
    out is small, sound always (the join's domination)."""
    if keep < 1:
        raise ValueError("coarse: keep at least one class")
    if len(loss.classes) <= keep:
        return loss
    kept = sorted(loss.classes, key=lambda c: c[1], reverse=True)[:keep]
    return chord_majorant([loss], [r for r, _ in kept])


def tensor(a: PairLoss, b: PairLoss) -> PairLoss:
    r"""The dichotomy a ⊗ b: ratio classes r_a·r_b of P-mass P_a·P_b (equal ratios merged), P-only mass
    p_a + (1 − p_a)·p_b (a pair is P-only when either part is) — the type classes of
    :func:`~exactdp.measures.privacy_loss.product_loss` read as a :class:`PairLoss`."""
    return as_pair_loss(product_loss([(a, 1), (b, 1)]))


def coarse_power(loss: PairLoss, w: int, keep: int) -> PairLoss:
    r"""A dichotomy of at most ``keep`` ratio classes dominating loss^{⊗w} (w ≥ 1): binary powering by
    :func:`tensor`, each product :func:`coarse`-ned to ``keep`` classes.  Sound because the tensor product keeps
    Blackwell's order (D ⪰ D′ ⇒ D ⊗ R ⪰ D′ ⊗ R, a garbling applied to one factor); by the same telescoping each
    coarsening adds at most the P-mass it leaves out to E_γ(R ⊗ ·) for every R."""
    if w < 1:
        raise ValueError("coarse_power: w >= 1")
    result: PairLoss | None = None
    base = coarse(loss, keep)
    while True:
        if w & 1:
            result = base if result is None else coarse(tensor(result, base), keep)
        w >>= 1
        if not w:
            assert result is not None
            return result
        base = coarse(tensor(base, base), keep)
