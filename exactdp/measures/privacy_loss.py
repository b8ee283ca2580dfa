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

Exact throughout (python-flint fmpz/fmpq); floats never enter.  References: claims.md D-2, D-7, B-10;
the type-class / PLD view is the one differential-privacy accountants discretize (Meiser–Mohammadi 2018,
Koskela et al. 2020, Google ``dp_accounting``), here without discretization.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from flint import fmpq, fmpz, fmpz_mat, fmpz_mpoly_ctx, fmpz_poly

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

    @classmethod
    def of(cls, p, q) -> PairLoss:
        """Group the outputs of (p, q) by likelihood ratio p(y)/q(y)."""
        masses: dict = {}
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

def _valuation(v: int, b: int) -> int:
    e = 0
    while v % b == 0:
        v //= b
        e += 1
    return e


def ratio_exponents(groups) -> tuple[list, int]:
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
    full = {r: [_valuation(int(r.p), b) - _valuation(int(r.q), b) for b in basis] for r in ratios}
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
    P: tuple  # fmpz numerators, one per finite class
    Q: tuple
    DP: fmpz
    DQ: fmpz
    ordered: bool = False  # the ratios P_c/Q_c are monotone along the classes (D ≤ 1)

    def linear_piece(self, above) -> tuple[fmpq, fmpq]:
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


def _int_masses(values) -> tuple[list, fmpz]:
    den = 1
    for v in values:
        den = den * int(v.q) // gcd(den, int(v.q))
    return [fmpz(int(v.p) * (den // int(v.q))) for v in values], fmpz(den)


def product_loss(factors) -> ProductLoss:
    r"""The :class:`ProductLoss` of ⊗_j (p_j, q_j)^{⊗k_j} from ``[(PairLoss_j, k_j), ...]``.

    Factors with equal :class:`PairLoss` are merged; k_j = 0 factors are dropped.
    """
    merged: dict = {}
    for loss, k in factors:
        if k:
            merged[loss] = merged.get(loss, 0) + k
    items = list(merged.items())
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
        Pn, dP = _int_masses([P for _, P in loss.classes])
        Qn, dQ = _int_masses(loss.q_masses)
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


def hockey_stick_product_losses(factors, gamma: fmpq) -> fmpq:
    """E_γ(⊗ p_j^{⊗k_j} ‖ ⊗ q_j^{⊗k_j}) from ``[(PairLoss_j, k_j)]`` (γ ≥ 0 exact)."""
    return product_loss(factors).hockey_stick(gamma)
