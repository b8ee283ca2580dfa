r"""Exact privacy-loss distributions of a pair (p, q) and of products of pairs, by type classes.

For a pair of distributions (p, q) on M outputs, the outputs with both masses positive are grouped by
their likelihood ratio r = p(y)/q(y); class l carries the masses (P_l, Q_l) = Σ_{p/q = r_l} (p, q)(y),
with P_l = r_l Q_l.  Outputs with q(y) = 0 < p(y) form the "P-only" mass p_∞ (ratio +∞); outputs with
p(y) = 0 are irrelevant to E_γ for γ ≥ 0.  Merging outputs of equal ratio is a post-processing that
loses nothing (the ratio is a sufficient statistic), so every f-divergence — in particular

.. math::  E_\gamma(p\|q) = p_\infty + \sum_l (P_l - \gamma Q_l)_+ ,

depends on the pair only through its :class:`PairLoss` (its privacy-loss distribution).

**Products.** For ⊗_j (p_j, q_j)^{⊗k_j} the ratio of an outcome is the product of the coordinates'
ratios, so all outcomes of one *type* (counts of each (factor, ratio class)) have one ratio, hence one
sign of P − γQ, and E_γ of the product is a sum over types with multinomial weights.  Types with equal
product ratio are merged as well: every finite ratio is written over a pairwise-coprime basis of the
integers appearing in the ratios (factor refinement — no integer factoring), giving an exponent vector
e_l ∈ ℤ^B; outcome ratios are equal iff the summed exponent vectors are equal.  Projecting onto D
columns on which the exponent matrix has full rank D keeps that injective, so the product masses are the
coefficients of

.. math::  \prod_j \Big(\sum_l P_{jl}\, x^{e_{jl}}\Big)^{k_j}, \qquad \prod_j \Big(\sum_l Q_{jl}\, x^{e_{jl}}\Big)^{k_j}

(python-flint ``fmpz_poly`` when D = 1, ``fmpz_mpoly`` otherwise, on integer numerators over the common
denominators ∏ d_j^{k_j}).  The number of terms is the number of distinct product ratios, at most
∏_j C(k_j + L_j − 1, L_j − 1) and O(n^D) — for randomized response (D = 1) it is 2n + 1.

P-only outcomes: an outcome with some P-only coordinate and no zero-p coordinate has Q = 0 < P and
contributes its full P-mass, in total 1 − ∏_j (1 − p_{∞,j})^{k_j}.

Exact throughout (python-flint fmpz/fmpq); floats never enter.  References: docs/claims.md D-2, D-7, B-10;
the type-class / PLD view is the one differential-privacy accountants discretize (Meiser–Mohammadi 2018,
Koskela et al. 2020, Google ``dp_accounting``), here without discretization.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import itertools
from dataclasses import dataclass
from math import gcd

import numpy as np
from flint import arb, ctx, fmpq, fmpz, fmpz_mat, fmpz_mpoly_ctx, fmpz_poly

from exactdp.errors import ParameterError
from exactdp.numbers.exact_zero import coprime_basis
from exactdp.numbers.qq import ONE, ZERO


@dataclass(frozen=True)
class PairLoss:
    r"""The privacy-loss distribution of a pair (p, q): ratio classes and the P-only mass.

    ``classes`` is a tuple of ``(r_l, P_l)`` (exact ``fmpq``), sorted by decreasing ratio, with
    ``Q_l = P_l / r_l``; ``p_only`` = p(q = 0).  Two pairs with equal ``PairLoss`` have equal
    E_γ for every γ, alone and inside any product.
    """

    classes: tuple[tuple[fmpq, fmpq], ...]
    p_only: fmpq

    def __hash__(self) -> int:
        """The hash of the fields, computed once: a loss keys the kept blocks and moments of
        :mod:`exactdp.measures.lattice_interval` (thousands of look-ups a search), and an ``fmpq`` hashes through a
        ``Fraction``, so hashing the classes at every look-up was a visible part of a lattice leaf's time
        (docs/speed.md)."""
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.classes, self.p_only))
            object.__setattr__(self, "_hash", h)
        return h

    @classmethod
    def of(cls, p: Any, q: Any) -> PairLoss:
        """Group the outputs of (p, q) by likelihood ratio p(y)/q(y)."""
        masses: dict[Any, Any] = {}
        p_only = ZERO
        for a, b in zip(p, q):
            if a == 0:
                continue
            if b == 0:
                p_only += a
                continue
            r = a / b
            masses[r] = masses.get(r, ZERO) + a
        classes = tuple(sorted(masses.items(), key=lambda item: item[0], reverse=True))
        return cls(classes, p_only)

    @property
    def q_masses(self) -> tuple[fmpq, ...]:
        return tuple(P / r for r, P in self.classes)

    def hockey_stick(self, gamma: fmpq) -> fmpq:
        """E_γ(p‖q) = p_∞ + Σ_l (P_l − γ Q_l)_+ (γ ≥ 0)."""
        return self.p_only + sum((P - gamma * P / r for r, P in self.classes if r > gamma), ZERO)

    def reverse(self) -> PairLoss:
        """The loss of the swapped pair (q, p): ratios 1/r_l with masses Q_l; its P-only mass is q(p = 0)."""
        classes = tuple(sorted(((1 / r, P / r) for r, P in self.classes), key=lambda item: item[0], reverse=True))
        return PairLoss(classes, ONE - sum((P / r for r, P in self.classes), ZERO))

    def dominates(self, other: PairLoss) -> bool:
        r"""Blackwell order of dichotomies: E_γ(self) ≥ E_γ(other) for every γ ≥ 0.

        Both sides are piecewise linear in γ with breakpoints at the class ratios and constant
        (= p_∞) after the last one, so comparing at every breakpoint of either pair and the limits
        decides it exactly.  By Blackwell's theorem for dichotomies this holds iff ``other`` is a
        garbling of ``self`` (p' = pW, q' = qW for a channel W); then by data processing replacing an
        ``other`` coordinate by a ``self`` coordinate never lowers E_γ of a product.
        """
        if self.p_only < other.p_only:
            return False
        points = {r for r, _ in self.classes} | {r for r, _ in other.classes}
        return all(self.hockey_stick(g) >= other.hockey_stick(g) for g in points)


# -- the ratio lattice ----------------------------------------------------------------------------

def valuation(v: int, b: int) -> int:
    """The exponent of ``b`` in the non-zero integer ``v`` (the largest e with b^e | v; b ≥ 2)."""
    e = 0
    while v % b == 0:
        v //= b
        e += 1
    return e


def ratio_exponents(groups: Any) -> tuple[list[Any], int]:
    r"""Exponent coordinates of the ratios of several factors, in a lattice of minimal dimension D.

    ``groups`` is a list of lists of positive rationals (the class ratios of each factor).  Returns
    ``(keys, D)``: ``keys[j][l]`` is a D-tuple of integers such that, for any two outcomes of one
    composition (the same number of coordinates of each factor), the product ratios are equal iff the
    summed keys are equal.  Only differences inside a factor matter (every outcome of a composition
    has the same number of coordinates of factor j), so the keys are the exponent vectors of
    r_{jl}/r_{j0} over a pairwise-coprime basis, projected onto D columns on which they have full rank
    (an injective map on their span).  Randomized response and every 2×2 kernel give D = 1.
    """
    ratios = list(dict.fromkeys(r for grp in groups for r in grp))
    basis = coprime_basis([int(r.p) for r in ratios] + [int(r.q) for r in ratios])
    full = {r: [valuation(int(r.p), b) - valuation(int(r.q), b) for b in basis] for r in ratios}
    diffs = [[[a - b for a, b in zip(full[r], full[grp[0]])] for r in grp] for grp in groups]
    rows = [d for grp in diffs for d in grp]
    cols: list[int] = []
    rank = 0
    for c in range(len(basis)):
        trial = cols + [c]
        if fmpz_mat([[d[k] for k in trial] for d in rows]).rank() > rank:
            cols, rank = trial, rank + 1
    return [[tuple(d[k] for k in cols) for d in grp] for grp in diffs], rank


# -- products -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProductLoss:
    r"""The merged ratio classes of a product ⊗_j (p_j, q_j)^{⊗k_j}.

    ``p_inf`` is the P-mass of the outcomes with Q = 0 < P; the finite classes have masses
    ``P_c / DP`` and ``Q_c / DQ`` (integer numerators ``P``, ``Q``, common denominators ``DP``, ``DQ``).
    """

    p_inf: fmpq
    P: tuple[Any, ...]  # fmpz numerators, one per finite class
    Q: tuple[Any, ...]
    DP: fmpz
    DQ: fmpz
    ordered: bool = False  # the ratios P_c/Q_c are monotone along the classes (D ≤ 1)

    def linear_piece(self, above: Any) -> tuple[fmpq, fmpq]:
        r"""``(A, B)`` with E_γ = A − γB on the linear piece of γ selected by ``above``.

        ``above(P_c, Q_c)`` must say whether class c's ratio (P_c/DP)/(Q_c/DQ) exceeds γ; then
        A = p_inf + Σ_{above} P_c/DP and B = Σ_{above} Q_c/DQ.  When the ratios are monotone along the
        classes the classes above γ are a prefix or a suffix, found by bisection (O(log n) calls).
        """
        P, Q = self.P, self.Q
        if self.ordered and len(P) > 1:
            if P[0] * Q[-1] < P[-1] * Q[0]:  # increasing ratios: read the classes backwards
                P, Q = P[::-1], Q[::-1]
            lo, hi = 0, len(P)  # first index not above γ
            while lo < hi:
                mid = (lo + hi) // 2
                if above(P[mid], Q[mid]):
                    lo = mid + 1
                else:
                    hi = mid
            Ps, Qs = sum(P[:lo], fmpz(0)), sum(Q[:lo], fmpz(0))
        else:
            Ps, Qs = fmpz(0), fmpz(0)
            for Pc, Qc in zip(P, Q):
                if above(Pc, Qc):
                    Ps, Qs = Ps + Pc, Qs + Qc
        return self.p_inf + fmpq(Ps, self.DP), fmpq(Qs, self.DQ)

    def hockey_stick(self, gamma: fmpq) -> fmpq:
        r"""E_γ of the product = p_inf + Σ_c (P_c/DP − γ Q_c/DQ)_+ (rational γ, integer comparisons)."""
        a, b = fmpz(gamma.q) * self.DQ, fmpz(gamma.p) * self.DP
        A, B = self.linear_piece(lambda Pc, Qc: Pc * a > Qc * b)
        return A - gamma * B

    def lines(self) -> list[tuple[fmpq, fmpq]]:
        r"""The lines (P(A), Q(A)) of E_γ = max_A P(A) − γQ(A) over the upper sets A of the ratio.

        Classes sorted by decreasing ratio; A_0 = the P-only outcomes, then one class more at a time.
        """
        order = sorted(range(len(self.P)), key=lambda c: fmpq(self.P[c], self.Q[c]), reverse=True)
        lines = [(ZERO, ZERO)]
        Pn, Qn = fmpz(0), fmpz(0)
        if self.p_inf != 0:
            lines.append((self.p_inf, ZERO))
        for c in order:
            Pn += self.P[c]
            Qn += self.Q[c]
            lines.append((self.p_inf + fmpq(Pn, self.DP), fmpq(Qn, self.DQ)))
        return lines

    def gamma_for(self, delta: fmpq) -> fmpq | None:
        r"""The least γ ≥ 0 with E_γ ≤ δ (None: E_γ ≥ p_inf > δ for every γ), exactly.

        E_γ = max over the lines (P(A), Q(A)) of :meth:`lines` of P(A) − γQ(A), so E_γ ≤ δ iff
        γ ≥ (P(A) − δ)/Q(A) for every line with Q(A) > 0 (and P(A) ≤ δ where Q(A) = 0): the answer is the
        largest of those roots (the per-composition step of the profile inversion).
        """
        if self.p_inf > delta:
            return None
        return max([(P - delta) / Q for P, Q in self.lines() if Q != 0] + [ZERO])


def first_true(holds: Callable[[int], bool], lo: int, hi: int) -> int:
    """The least i in [lo, hi) where the monotone predicate ``holds`` (false, then true) is true; hi if none: a
    bisection of O(log(hi − lo)) calls (the thresholds of the streamed and rank-one routes)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def newton_from_left(floor: fmpq, delta: fmpq, piece: Callable[[fmpq], tuple[fmpq, fmpq]], start: fmpq = ZERO,
                     max_steps: int = 20_000, *, jump: Callable[[], fmpq] | None = None,
                     patience: int = 4) -> fmpq | None:
    r"""The least γ ≥ 0 with E_γ ≤ δ of a convex, non-increasing, piecewise-linear E_γ whose piece just right of γ
    is ``piece(γ)`` = (A, B) (E_γ' = A − γ'B there), exactly; None when its floor (the P-only mass, E_∞) exceeds δ.

    Newton's method from the left: at g with E_g > δ the piece meets δ at (A − δ)/B, which is ≤ the root (E lies
    above its supporting line) and > g; the iteration passes at least one breakpoint per step and stops on the piece
    that reaches δ — finitely many steps, each exact.  ``start``: a trial γ used only when E_start > δ holds exactly
    (left of the root); a start near the root saves most of the steps.  ``jump``: called once — at once without a
    usable start, else if the iteration has not ended after ``patience`` steps — for a trial γ to continue from
    where it is further right, used only when E_γ > δ holds exactly there (as ``start``): a start that costs more
    than a few steps to find (:mod:`exactdp.measures.root_start`) is sought only where the cheap start was not
    enough."""
    if floor > delta:
        return None
    g, known = ZERO, None
    if start > 0:
        A, B = piece(start)
        if A - start * B > delta:
            g, known = start, (A, B)
    for step in range(max_steps):
        if jump is not None and (step == patience or g == 0):
            ahead, jump = jump(), None
            if ahead > g:  # kept only where E_ahead > δ holds exactly (still left of the root), as ``start``
                A, B = piece(ahead)
                if A - ahead * B > delta:
                    g, known = ahead, (A, B)
        A, B = known if known is not None else piece(g)
        known = None
        if A - g * B <= delta:
            return g
        g = (A - delta) / B  # B > 0: above the P-only floor the piece falls
    raise ParameterError("max_evaluations: the root of one composition took too many steps")


def int_masses(values: Any) -> tuple[list[Any], fmpz]:
    """Integer numerators (``fmpz``) of the rationals ``values`` over their least common denominator, and that
    denominator: masses summed and powered in integers, divided once."""
    den = 1
    for v in values:
        den = den * int(v.q) // gcd(den, int(v.q))
    return [fmpz(int(v.p) * (den // int(v.q))) for v in values], fmpz(den)


def product_loss(factors: Any) -> ProductLoss:
    r"""The :class:`ProductLoss` of ⊗_j (p_j, q_j)^{⊗k_j} from ``[(PairLoss_j, k_j), ...]``.

    Factors with equal :class:`PairLoss` are merged; k_j = 0 factors are dropped (none left: the empty product).
    """
    merged: dict[Any, Any] = {}
    for loss, k in factors:
        if k:
            merged[loss] = merged.get(loss, 0) + k
    items = list(merged.items())
    if not items:  # the empty product: one outcome of probability 1 under both, ratio 1 (E_γ = (1 − γ)_+)
        return ProductLoss(ZERO, (fmpz(1),), (fmpz(1),), fmpz(1), fmpz(1), True)
    fin = ONE
    for loss, k in items:
        fin *= (ONE - loss.p_only) ** k
    p_inf = ONE - fin
    if fin == 0:
        return ProductLoss(p_inf, (), (), fmpz(1), fmpz(1))
    keys_all, D = ratio_exponents([[r for r, _ in loss.classes] for loss, _ in items])
    # per-variable shift (exponents >= 0) and gcd compression of each factor's exponents
    shifts = [tuple(min(e[v] for e in keys) for v in range(D)) for keys in keys_all]
    g = [0] * D
    for keys, s in zip(keys_all, shifts):
        for e in keys:
            for v in range(D):
                g[v] = gcd(g[v], e[v] - s[v])
    g = [x or 1 for x in g]
    DP, DQ = fmpz(1), fmpz(1)
    polys_P, polys_Q = [], []
    ctx = fmpz_mpoly_ctx.get(tuple(f"z{v}" for v in range(D)), "lex") if D >= 2 else None
    for (loss, k), s, raw in zip(items, shifts, keys_all):
        Pn, dP = int_masses([P for _, P in loss.classes])
        Qn, dQ = int_masses(loss.q_masses)
        DP, DQ = DP * dP**k, DQ * dQ**k
        keys = [tuple((e[v] - s[v]) // g[v] for v in range(D)) for e in raw]
        if D == 0:
            polys_P.append(sum(Pn, fmpz(0)) ** k)
            polys_Q.append(sum(Qn, fmpz(0)) ** k)
        elif D == 1:
            for nums, out in ((Pn, polys_P), (Qn, polys_Q)):
                coeffs = [0] * (max(e[0] for e in keys) + 1)
                for (e,), c in zip(keys, nums):
                    coeffs[e] = c
                out.append(fmpz_poly(coeffs) ** k)
        else:
            assert ctx is not None  # D >= 2
            polys_P.append(ctx.from_dict(dict(zip(keys, Pn))) ** k)
            polys_Q.append(ctx.from_dict(dict(zip(keys, Qn))) ** k)
    Ppoly, Qpoly = polys_P[0], polys_Q[0]
    for a, b in zip(polys_P[1:], polys_Q[1:]):
        Ppoly, Qpoly = Ppoly * a, Qpoly * b
    if D == 0:
        return ProductLoss(p_inf, (Ppoly,), (Qpoly,), DP, DQ, True)
    if D == 1:
        Pc, Qc = Ppoly.coeffs(), Qpoly.coeffs()
        pairs = [(a, b) for a, b in zip(Pc, Qc) if a != 0]
    else:
        Pd, Qd = Ppoly.to_dict(), Qpoly.to_dict()
        pairs = [(Pd[m], Qd[m]) for m in Pd]
    return ProductLoss(p_inf, tuple(a for a, _ in pairs), tuple(b for _, b in pairs), DP, DQ, D == 1)


def hockey_stick_product_losses(factors: Any, gamma: fmpq, product: Any=None) -> fmpq:
    """E_γ(⊗ p_j^{⊗k_j} ‖ ⊗ q_j^{⊗k_j}) from ``[(PairLoss_j, k_j)]`` (γ ≥ 0 exact).

    One loss with at most two ratio classes (randomized response, any pair on two outputs) is summed
    as a binomial (:func:`binomial_hockey_stick`); everything else by the type classes of
    :func:`product_loss` (or of ``product(factors)``, e.g. a cached one).  Both are exact and agree."""
    factors = list(factors)
    if not any(k for _, k in factors):  # the empty product: two point masses
        return max(ONE - gamma, ZERO)
    single = binomial_loss(factors)
    if single is not None:
        return binomial_hockey_stick(single[0], single[1], gamma)
    tri = trinomial_loss(factors)
    if tri is not None:
        A, B = trinomial_linear_piece(tri[0], tri[1], gamma)
        return A - gamma * B
    return (product or product_loss)(factors).hockey_stick(gamma)


# -- one loss with at most two ratio classes: binomial sums ------------------------------
#
# E_γ(p^{⊗n} ‖ q^{⊗n}) for a pair with two finite ratio classes r_hi > r_lo is
#     p_inf + Σ_{j ≥ t} C(n, j) (P_hi^j P_lo^{n−j} − γ Q_hi^j Q_lo^{n−j}),
# j = the number of coordinates in the class r_hi, t = the first j with r_hi^j r_lo^{n−j} > γ (the ratio
# grows with j).  The tail sums are evaluated by binary splitting of the hypergeometric term ratio
# C(n, j+1) x^{j+1} y^{n−j−1} / (C(n, j) x^j y^{n−j}) = (n−j) x / ((j+1) y): O(log n) levels of products of
# fmpz integers (quasi-linear in the size of the result) instead of the n + 1 coefficients of (x z + y)^n,
# whose total size is quadratic in n.  Exact integers only; t is found by integer comparisons.

#: ranges of at most this many terms are summed by a loop over machine-size integers
_LEAF = 24


def binomial_loss(factors: Any) -> tuple[PairLoss, int] | None:
    """``(loss, k)`` when the product ``[(PairLoss_j, k_j), ...]`` is one loss (after merging equal ones)
    with at most two finite ratio classes — the binomial case; None otherwise."""
    single = single_loss(factors)
    return single if single is not None and len(single[0].classes) <= 2 else None


def merged_losses(factors: Any) -> dict[Any, int]:
    """The multiplicity of each distinct loss of the product ``[(PairLoss_j, k_j), ...]`` (equal losses merged, k_j = 0
    dropped), in order of first appearance."""
    merged: dict[Any, int] = {}
    for loss, k in factors:
        if k:
            merged[loss] = merged.get(loss, 0) + k
    return merged


def single_loss(factors: Any) -> tuple[PairLoss, int] | None:
    """``(loss, k)`` when the product ``[(PairLoss_j, k_j), ...]`` is the k-th power of one loss (after merging
    equal ones and dropping k_j = 0); None otherwise."""
    merged = merged_losses(factors)
    if len(merged) != 1:
        return None
    (loss, k), = merged.items()
    return loss, k


def _split(n: int, x: int, y: int, a: int, b: int) -> Any:
    """Binary splitting over [a, b) of p_j = (n − j) x, q_j = (j + 1) y: ``(Π p_j, Π q_j, T)`` with
    T = Σ_{i=a}^{b−1} Π_{a≤j<i} p_j · Π_{i≤j<b} q_j."""
    if b - a <= _LEAF:
        P, Q, T = 1, 1, 0
        for j in range(b - 1, a - 1, -1):  # T(j, b) = q_j Q(j+1, b) + p_j T(j+1, b)
            pj, qj = (n - j) * x, (j + 1) * y
            T = qj * Q + pj * T
            P, Q = P * pj, Q * qj
        return fmpz(P), fmpz(Q), fmpz(T)
    m = (a + b) // 2
    P1, Q1, T1 = _split(n, x, y, a, m)
    P2, Q2, T2 = _split(n, x, y, m, b)
    return P1 * P2, Q1 * Q2, T1 * Q2 + P1 * T2


def binomial_sum(n: int, x: Any, y: Any, a: int, b: int) -> fmpz:
    r"""Σ_{j=a}^{b−1} C(n, j) x^j y^{n−j} for integers x, y ≥ 0, exactly (the range is clipped to 0..n).

    >>> binomial_sum(4, 3, 1, 2, 5)  # C(4,2)·9 + C(4,3)·27 + C(4,4)·81
    243
    """
    x, y = int(x), int(y)
    a, b = max(a, 0), min(b, n + 1)
    if a >= b:
        return fmpz(0)
    if x == 0 or y == 0:  # a single nonzero term: j = 0 (x = 0) or j = n (y = 0)
        j = 0 if x == 0 else n
        return fmpz(y if x == 0 else x) ** n if a <= j < b else fmpz(0)
    if b - a == n + 1:
        return fmpz(x + y) ** n
    if 2 * (b - a) > n + 1 and (a == 0 or b == n + 1):  # the complement is shorter
        rest = binomial_sum(n, x, y, b, n + 1) if a == 0 else binomial_sum(n, x, y, 0, a)
        return fmpz(x + y) ** n - rest
    _, Q, T = _split(n, x, y, a, b)
    # Σ = term_a · T / Q with term_a = C(n, a) x^a y^{n−a} (an exact division)
    total: fmpz = fmpz.bin_uiui(n, a) * fmpz(x) ** a * fmpz(y) ** (n - a) * T // Q
    return total


def _log_guess(r_hi: fmpq, r_lo: fmpq, n: int, gamma: fmpq) -> int | None:
    """A guess of the threshold from arb balls: ⌊(log γ − n log r_lo) / log(r_hi/r_lo)⌋ + 1, or None.

    Only a starting point: :func:`_first_above` verifies it by exact integer comparisons."""
    try:
        x = ((arb(gamma).log() - n * arb(r_lo).log()) / arb(r_hi / r_lo).log()).mid().floor().unique_fmpz()
    except (ValueError, ArithmeticError):  # an infinite or NaN ball: no guess
        return None
    return None if x is None else int(x) + 1


def _first_above(r_hi: fmpq, r_lo: fmpq, n: int, gamma: fmpq) -> int:
    """The least j in 0..n with r_hi^j r_lo^{n−j} > γ (n + 1 if none; r_hi > r_lo > 0).

    Exact: with r_hi / r_lo = u/v, the test is the integer comparison u^j · num(r_lo)^n · den(γ) >
    v^j · den(r_lo)^n · num(γ) (no floats).  A bisection whose first two probes are the guess of
    :func:`_log_guess` and its neighbour, so that usually two comparisons settle it."""
    if gamma <= 0:
        return 0
    rho = r_hi / r_lo
    u, v = fmpz(rho.p), fmpz(rho.q)
    L = fmpz(r_lo.p) ** n * fmpz(gamma.q)
    R = fmpz(r_lo.q) ** n * fmpz(gamma.p)
    guess = _log_guess(r_hi, r_lo, n, gamma)
    lo, hi = 0, n + 1  # the answer lies in [lo, hi]: lo = 0 or j = lo − 1 is not above, hi = n + 1 or hi is
    for _ in range(2 if guess is not None else 0):
        if not lo < hi or guess is None:
            break
        mid = min(max(guess, lo), hi - 1)
        if u ** mid * L > v ** mid * R:
            hi, guess = mid, mid - 1
        else:
            lo, guess = mid + 1, mid + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if u ** mid * L > v ** mid * R:
            hi = mid
        else:
            lo = mid + 1
    return lo


def binomial_hockey_stick(loss: PairLoss, n: int, gamma: fmpq) -> fmpq:
    r"""E_γ(p^{⊗n} ‖ q^{⊗n}) for a pair whose loss has at most two finite ratio classes (γ ≥ 0 exact).

    Equal to ``product_loss([(loss, n)]).hockey_stick(gamma)`` without forming the n + 1 type classes:
    two binomial tail sums by binary splitting (see above).

    >>> binomial_hockey_stick(PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)]), 5, fmpq(1))
    203/256
    """
    if len(loss.classes) > 2:
        raise ValueError("binomial_hockey_stick: the loss has more than two ratio classes")
    if n == 0:
        return max(ONE - gamma, ZERO)
    p_inf = ONE - (ONE - loss.p_only) ** n if loss.p_only else ZERO
    if not loss.classes:
        return p_inf
    if len(loss.classes) == 1:
        (r, P), = loss.classes
        Pn, Qn = P ** n, (P / r) ** n
        return p_inf + max(Pn - gamma * Qn, ZERO)  # P^n > γ Q^n iff r^n > γ
    (r_hi, P_hi), (r_lo, P_lo) = loss.classes
    (ph, pl), dP = int_masses([P_hi, P_lo])
    (qh, ql), dQ = int_masses([P_hi / r_hi, P_lo / r_lo])
    t = _first_above(r_hi, r_lo, n, gamma)
    if t > n:
        return p_inf
    SP = binomial_sum(n, ph, pl, t, n + 1)
    SQ = binomial_sum(n, qh, ql, t, n + 1) if gamma != 0 else fmpz(0)
    # one fraction over lcm(dP, dQ)^n · den(γ), so that only one gcd of the full size is taken
    D = dP * dQ // dP.gcd(dQ)
    num = SP * (D // dP) ** n * fmpz(gamma.q) - fmpz(gamma.p) * SQ * (D // dQ) ** n
    return p_inf + fmpq(num, D ** n * fmpz(gamma.q))


def binomial_linear_piece(loss: PairLoss, n: int, above: Any) -> tuple[fmpq, fmpq]:
    r"""``(A, B)`` with E_γ(p^{⊗n} ‖ q^{⊗n}) = A − γB on the linear piece selected by ``above`` (one loss
    with at most two ratio classes; the binomial counterpart of :meth:`ProductLoss.linear_piece`).

    ``above(r)`` must say whether γ < r for a rational product ratio r (monotone in r: γ may be
    irrational, e.g. decided by certified comparisons).  The threshold is found by bisection on the
    ratios r_hi^j r_lo^{n−j} (O(log n) calls); A and B are binomial tail sums by binary splitting.
    """
    if len(loss.classes) > 2:
        raise ValueError("binomial_linear_piece: the loss has more than two ratio classes")
    p_inf = ONE - (ONE - loss.p_only) ** n if loss.p_only else ZERO
    if not loss.classes:
        return p_inf, ZERO
    if len(loss.classes) == 1:
        (r, P), = loss.classes
        return (p_inf + P ** n, (P / r) ** n) if above(r ** n) else (p_inf, ZERO)
    (r_hi, P_hi), (r_lo, P_lo) = loss.classes
    lo, hi = 0, n + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if above(r_hi ** mid * r_lo ** (n - mid)):
            hi = mid
        else:
            lo = mid + 1
    if lo > n:
        return p_inf, ZERO
    (ph, pl), dP = int_masses([P_hi, P_lo])
    (qh, ql), dQ = int_masses([P_hi / r_hi, P_lo / r_lo])
    return (p_inf + fmpq(binomial_sum(n, ph, pl, lo, n + 1), dP ** n),
            fmpq(binomial_sum(n, qh, ql, lo, n + 1), dQ ** n))


def binomial_gamma_for(loss: PairLoss, n: int, delta: fmpq) -> fmpq | None:
    r"""The least γ ≥ 0 with E_γ(p^{⊗n} ‖ q^{⊗n}) ≤ δ for a loss with at most two ratio classes (None: never),
    exactly — :meth:`ProductLoss.gamma_for` without the n + 1 type classes.

    The lines are the tails t: (P_t, Q_t) = (p_inf + Σ_{j≥t} P-terms, Σ_{j≥t} Q-terms), and the answer is
    max_t h(t), h(t) = (P_t − δ)/Q_t.  Adding class t − 1 (ratio ρ_{t−1} = r_hi^{t−1} r_lo^{n−t+1}, decreasing
    in t − 1) moves h to the mediant of h(t) and ρ_{t−1}, so h rises while ρ_{t−1} > h(t) and falls after:
    the maximum is found by bisection on that test, O(log n) pairs of binomial tail sums.

    >>> binomial_gamma_for(PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)]), 2, fmpq(1, 4))
    5
    """
    if len(loss.classes) > 2:
        raise ValueError("binomial_gamma_for: the loss has more than two ratio classes")
    p_inf = ONE - (ONE - loss.p_only) ** n if loss.p_only else ZERO
    if p_inf > delta:
        return None
    if not loss.classes:
        return ZERO
    if len(loss.classes) == 1:
        (r, P), = loss.classes
        Q = P / r
        return max((p_inf + P ** n - delta) / Q ** n, ZERO)
    (r_hi, P_hi), (r_lo, P_lo) = loss.classes
    (ph, pl), dP = int_masses([P_hi, P_lo])
    (qh, ql), dQ = int_masses([P_hi / r_hi, P_lo / r_lo])
    DPn, DQn = dP ** n, dQ ** n

    def h(t: int) -> fmpq:
        return (p_inf + fmpq(binomial_sum(n, ph, pl, t, n + 1), DPn) - delta) / fmpq(binomial_sum(n, qh, ql, t, n + 1), DQn)

    def rising(t: int) -> bool:  # does adding class t − 1 raise h?  (always for the empty set t = n + 1)
        return t > n or (t > 0 and r_hi ** (t - 1) * r_lo ** (n - t + 1) > h(t))

    lo, hi = 0, n  # the maximizing t: the least t with rising(t) — rising holds on (t*, n + 1], fails on [0, t*]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if rising(mid):
            hi = mid - 1
        else:
            lo = mid
    return max(h(lo), ZERO)


# -- one loss with three ratio classes: streamed slices -----------------------------
#
# E_γ(p^{⊗n} ‖ q^{⊗n}) for a pair with three finite ratio classes r1 > r2 > r3 (a 2×3 kernel's pair, a
# 3×3 kernel's pairs) is p_inf + Σ_a C(n, a) x1^a S_a − γ (same with the Q masses), where a counts the
# coordinates in class 1 and S_a = Σ_{b ≥ t(a)} C(m, b) x2^b x3^{m−b} (m = n − a, b = class-2 count, t(a) =
# the first b whose product ratio r1^a r2^b r3^{m−b} exceeds γ; it rises with b).  Walking a from n down
# to 0, S for m + 1 follows from S for m by Pascal's rule at the same threshold,
#     Σ_{b≥t} C(m+1, b) x^b y^{m+1−b} = (x + y)·Σ_{b≥t} C(m, b) x^b y^{m−b} + x·C(m, t−1) x^{t−1} y^{m−t+1},
# and the threshold then moves by a few terms: O(n) integer operations on O(n)-bit integers, O(n) memory
# (two running sums), instead of the O(n²) type classes of the two-variable polynomial power.


def trinomial_loss(factors: Any) -> tuple[PairLoss, int] | None:
    """``(loss, k)`` when the product ``[(PairLoss_j, k_j), ...]`` is one loss (after merging equal ones)
    with exactly three finite ratio classes of lattice rank D = 2 — the streamed-slices case; None otherwise."""
    single = single_loss(factors)
    if single is None or len(single[0].classes) != 3:
        return None
    loss, k = single
    # commensurable ratios (D = 1: k-ary randomized response, t, 1, 1/t) keep the one-variable power, which
    # has only O(n) classes and is faster there; the slices replace the O(n²) classes of D = 2
    return (loss, k) if ratio_exponents([[r for r, _ in loss.classes]])[1] >= 2 else None


def _trinomial_terms(m: int, b: int, x: int, y: int) -> fmpz:
    """C(m, b) x^b y^{m−b} (0 outside 0 ≤ b ≤ m)."""
    if b < 0 or b > m:
        return fmpz(0)
    return fmpz.bin_uiui(m, b) * fmpz(x) ** b * fmpz(y) ** (m - b)


def trinomial_linear_piece(loss: PairLoss, n: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)`` with E_γ'(p^{⊗n} ‖ q^{⊗n}) = A − γ'B on the piece just right of the rational γ ≥ 0 (the
    type classes with product ratio > γ), for a loss with exactly three finite ratio classes — streamed
    slices (see above), equal to ``product_loss([(loss, n)]).linear_piece(...)`` without its O(n²) classes.

    >>> L = PairLoss.of([fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)])
    >>> A, B = trinomial_linear_piece(L, 3, fmpq(2))
    >>> A - 2 * B == product_loss([(L, 3)]).hockey_stick(fmpq(2))
    True
    """
    if len(loss.classes) != 3:
        raise ValueError("trinomial_linear_piece: the loss must have exactly three ratio classes")
    p_inf = ONE - (ONE - loss.p_only) ** n if loss.p_only else ZERO
    xs, dP = int_masses([P for _, P in loss.classes])
    ys, dQ = int_masses(loss.q_masses)
    AP, BQ = trinomial_sums([int(v) for v in xs], [int(v) for v in ys], n, trinomial_thresholds(loss, n, gamma))
    return p_inf + fmpq(AP, dP ** n), fmpq(BQ, dQ ** n)


class _Terms:
    r"""The pair C(m, b) x^b y^{m−b}, C(m, b) u^b v^{m−b} (the P and Q terms of one slice position) at the (m, b) a slice
    walk asks for next, moved from the last position by exact small-integer steps — C(m+1, b) x^b y^{m+1−b} =
    T·(m + 1)·y / (m + 1 − b), and b ± 1 alike — instead of fresh powers of O(m)-bit integers (the divisions are exact:
    each step's result is the integer term itself).  Out of 0 ≤ b ≤ m the terms are 0; a far jump is computed afresh."""

    __slots__ = ("x", "y", "u", "v", "m", "b", "P", "Q")

    def __init__(self, x: int, y: int, u: int, v: int) -> None:
        self.x, self.y, self.u, self.v = x, y, u, v
        self.m = self.b = 0
        self.P = self.Q = fmpz(1)

    def __call__(self, m: int, b: int) -> tuple[fmpz, fmpz]:
        if b < 0 or b > m:
            return _ZERO_PAIR
        m0, b0 = self.m, self.b
        if not (0 <= m - m0 <= 2 and -8 <= b - b0 <= 8):
            self.m, self.b = m, b
            self.P, self.Q = _trinomial_terms(m, b, self.x, self.y), _trinomial_terms(m, b, self.u, self.v)
            return self.P, self.Q
        P, Q, x, y, u, v = self.P, self.Q, self.x, self.y, self.u, self.v
        while m0 < m:  # b0 ≤ m0 holds, so b0 ≤ m0 + 1
            k, d = m0 + 1, m0 + 1 - b0
            P, Q = P * (k * y) // d, Q * (k * v) // d
            m0 += 1
        while b0 > b:
            k, d = b0, m0 - b0 + 1
            P, Q = P * (k * y) // (d * x), Q * (k * v) // (d * u)
            b0 -= 1
        while b0 < b:
            k, d = m0 - b0, b0 + 1
            P, Q = P * (k * x) // (d * y), Q * (k * u) // (d * v)
            b0 += 1
        self.m, self.b, self.P, self.Q = m0, b0, P, Q
        return P, Q


_ZERO_PAIR = (fmpz(0), fmpz(0))


def trinomial_sums(xs: Any, ys: Any, n: int, thresholds: Any) -> tuple[fmpz, fmpz]:
    r"""The integer sums Σ C(n; a, b, n − a − b) x₁^a x₂^b x₃^{n−a−b} over the type classes above γ (and the same with
    the y's): for a = n, n − 1, …, 0 the slice b ≥ t(a), with ``thresholds`` yielding t(n), t(n − 1), …, t(0) as
    :func:`trinomial_thresholds` does — the streamed slices of the comment above, O(n) integer operations."""
    x1, x2, x3 = xs
    y1, y2, y3 = ys
    sxp, sxq = x2 + x3, y2 + y3
    term = _Terms(x2, x3, y2, y3)
    t = next(thresholds)  # m = 0: the one outcome b = 0
    SP = SQ = fmpz(1) if t == 0 else fmpz(0)
    AP = BQ = fmpz(0)
    WP, WQ = fmpz(x1) ** n, fmpz(y1) ** n  # C(n, a) x1^a at a = n
    for a in range(n, -1, -1):
        m = n - a
        if a < n:  # from m − 1 to m at the same threshold t (Pascal's rule), then move t
            if t == 0:
                SP, SQ = SP * sxp, SQ * sxq
            elif t <= m:
                TP, TQ = term(m - 1, t - 1)
                SP, SQ = SP * sxp + x2 * TP, SQ * sxq + y2 * TQ
            # (t > m: the sum over b ≥ t is empty for m as for m − 1)
            t_new = next(thresholds)
            while t > t_new:
                t -= 1
                TP, TQ = term(m, t)
                SP, SQ = SP + TP, SQ + TQ
            while t < t_new:
                TP, TQ = term(m, t)
                SP, SQ = SP - TP, SQ - TQ
                t += 1
            # C(n, a) x1^a from C(n, a + 1) x1^{a+1}: times (a + 1) / ((n − a) x1), an exact division
            WP = WP * (a + 1) // ((n - a) * x1)  # x1, y1 > 0: a finite ratio class has both masses
            WQ = WQ * (a + 1) // ((n - a) * y1)
        if t <= m:
            AP += WP * SP
            BQ += WQ * SQ
    return AP, BQ


def trinomial_thresholds(loss: PairLoss | None, n: int, gamma: fmpq, ratios: Any = None, fixed: Any = None) -> Any:
    r"""The slice thresholds of a loss with three ratio classes r1 > r2 > r3: for a = n, n − 1, …, 0 yield
    t(a) = the least b in 0..n − a with r1^a r2^b r3^{n−a−b} > γ (n − a + 1 if none; the ratio grows with b).

    ``ratios``: (r1, r2, r3) in place of the loss's classes (three classes of a larger loss); ``fixed`` = ((r0, c),
    …): every product ratio carries the further factor Π r0^c (the coordinates a caller has conditioned on) —
    Π r0^c · r1^a r2^b r3^{n−a−b} > γ (:mod:`exactdp.measures.quadrinomial`).

    Decided exactly: a ball of a·log(r1/r3) + b·log(r2/r3) + n·log r3 (+ c·log r0) − log γ first, the rational
    comparison when the ball does not decide (a tie, ratio = γ, is not above).  Consecutive thresholds
    differ by a few steps, so the walk costs O(n) comparisons."""
    if ratios is None:
        if loss is None:
            raise ValueError("trinomial_thresholds: the ratios come from the loss or from ratios=")
        ratios = [r for r, _ in loss.classes]
    r1, r2, r3 = ratios
    fixed = tuple(fixed) if fixed is not None else ()
    with ctx.workprec(64):  # (whatever the caller's precision: the float shortcut below needs 64-bit balls)
        l13, l23, l3 = (arb(r1 / r3).log(), arb(r2 / r3).log(), arb(r3).log())
        lg = arb(gamma).log() - sum((c * arb(r0).log() for r0, c in fixed), arb(0)) if gamma > 0 else None
    # the same sum in floats first: each float within 2^-52 relative of its ball's midpoint, the balls within 2^-60
    # (64-bit balls of logs), so a float sum off zero by more than 2^-30 of the sum of magnitudes has the exact sign
    f13, f23, f3 = (float(v.mid()) for v in (l13, l23, l3))
    fg = float(lg.mid()) if lg is not None else 0.0
    base = n * f3 - fg
    scale = n * abs(f3) + abs(fg) + 1.0

    def above(a: int, b: int) -> bool:
        if lg is None:
            return True
        f = a * f13 + b * f23 + base
        if abs(f) > 2.0 ** -30 * (a * abs(f13) + b * abs(f23) + scale):
            return f > 0
        v = a * l13 + b * l23 + n * l3 - lg
        if v > 0:
            return True
        if v < 0:
            return False
        factor: fmpq = r1 ** a * r2 ** b * r3 ** (n - a - b)
        for r0, c in fixed:
            factor *= r0 ** c
        return bool(factor > gamma)

    if lg is None:
        yield from itertools.repeat(0, n + 1)
        return
    # all t(a) at once in floats: t = ⌊x⌋ + 1 clipped to [0, n − a + 1], x = −(a·f13 + base)/f23; kept where both
    # ends are certified by the margin above (t above, t − 1 not), else the exact walk decides that a
    a = np.arange(n, -1, -1, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        x = -(a * f13 + base) / f23
        t_f = np.clip(np.floor(np.clip(x, -1.0, n + 1.0)) + 1.0, 0.0, n - a + 1.0)
        f_at = a * f13 + t_f * f23 + base
        f_below = f_at - f23
        margin = 2.0 ** -30 * (a * abs(f13) + (t_f + 1.0) * abs(f23) + scale)
        sure = (((t_f > n - a) | (f_at > margin)) & ((t_f == 0) | (f_below < -margin)))
    guess = t_f.astype(np.int64).tolist()
    ok = sure.tolist()
    t = 0
    for i, aa in enumerate(range(n, -1, -1)):
        if ok[i]:
            t = guess[i]
        else:  # the exact walk from the last threshold (a tie, or a float too close to call)
            t = min(t, n - aa + 1)
            while t > 0 and above(aa, t - 1):
                t -= 1
            while t <= n - aa and not above(aa, t):
                t += 1
        yield t
