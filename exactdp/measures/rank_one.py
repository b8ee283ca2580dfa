r"""Exact E_γ of a product of losses whose ratios each lie on one geometric progression (docs/claims.md B-10, D-7).

A pair loss (p, q) is *rank one* when all its finite ratio classes are r_l = r_min·ρ^{m_l} for one rational ρ > 1
and integers m_l ≥ 0 (ρ found exactly from the prime valuations of the ratios: :func:`rank_one`).  Every two-ratio
loss is (randomized response), and so is every ordered row pair of k-ary randomized response — ratios
(a/b, 1, b/a) = (b/a)·(1, ρ, ρ²) with ρ = a/b — and of the unary encodings (two bits differ: ratios ρ, 1, 1/ρ with
ρ = p(1 − q)/(q(1 − p))): the outputs that do not tell x from x' have ratio 1, the two that do are swapped by the
reversal.  In an N-fold product of such a loss an outcome's ratio depends only on the exponent sum
s = Σ_l a_l·m_l: r_min^N·ρ^s, increasing in s.  So its merged classes are the N·max m + 1 values of s, with
P-weights the coefficients of (Σ_l P_l z^{m_l})^N and Q-weights those of (Σ_l Q_l z^{m_l})^N (one polynomial power
each, in integers over the common denominators) — one dimension instead of the O(N^{L−1}) type classes of the
L ratio classes.

**Groups.**  Losses whose progressions are commensurable (ρ_i^a = ρ_j^b exactly: parallel prime-valuation vectors,
e.g. RR with e^ε = 3, ρ = 9, and a unary encoding with ρ = 3) share one base σ with ρ_i = σ^{a_i}; their product is
one block on σ, the polynomial product Π_i (Σ_l P_{il} z^{a_i m_{il}})^{k_i} (:class:`RankOneGroup`), so any
number of same-base factors is one block of Σ_i k_i a_i max m_i + 1 classes.  Where that product costs more than
looking the members up against each other (two large members and nothing else: RR ⊗ UE) they are kept as blocks of
their own — each class merged or not, whichever plan :func:`rank_one_cost` estimates cheaper (:func:`rank_one_plans`).

**Lookup.**  With groups g = 1..r (blocks of S_g + 1 classes, in the order :func:`_ordered` chooses) an outcome
(s_1, …, s_r) has ratio R = c·Π_g σ_g^{s_g}, c = Π r_min^k, increasing in s_r, so for each outer tuple
(s_1, …, s_{r−1}) the classes above γ are a tail s_r ≥ s_r* and ([A] Thm 1, B-10)

.. math::  E_\gamma = p_\infty + \sum_{s_1..s_{r-1}} \prod_g W_g^P(s_g)\,T_r^P(s_r^*)
                      - \gamma \sum_{s_1..s_{r-1}} \prod_g W_g^Q(s_g)\,T_r^Q(s_r^*),

T_r the suffix sums of the last block's weights, p_∞ = 1 − Π(1 − p_{i,∞})^{k_i}.  s_r* = ⌊x⌋ + 1 clipped to
[0, S_r + 1], x = (log γ − log c − Σ_{g<r} s_g log σ_g)/log σ_r; a tie R = γ is not above, which ⌊x⌋ + 1 respects.
The floor is certified by an arb ball (:data:`PREC` bits), or in machine integers from the ball's exact endpoints
(:func:`_band_thresholds`); where the ball contains an integer the exact rational comparison of R with γ decides.
Everything summed is an exact integer; floats never enter a sum.

The loop is pruned at every level: s_r* is non-increasing in each s_g, so along the innermost outer group s_{r−1}
the tails are empty, then partial (the *band*), then the whole block, found by two bisections; the whole-block part
is one product of suffix sums, and inside the band each run of equal s_r* is one product (its weights summed as a
difference of suffix sums: a slope λ = log σ_{r−1}/log σ_r < 1 gives runs of about 1/λ classes).  At the levels
above, a class whose whole inner range lies past the block (x − s·λ_g − Σ_{inner} S·λ ≥ S_r) adds nothing and one
whose inner range lies below 0 adds its weight times the inner totals — both certified by the ball, an undecided
class walked.  :func:`rank_one_cost` bounds the rows and runs from the sizes before anything is built (the search's
cost guard refuses over ``max_work``), and :func:`_ordered` picks the order of least estimate.  The blocks are
independent of γ and kept (a :class:`~exactdp.numbers.memo.Memo`) for the next γ of an inversion.

Cost: the members' polynomial powers and their products per group (S_g + 1 coefficients of about Σ k_i·b_i bits,
b the bits of the masses' denominator), and per γ Π_{g<r−1}(S_g + 1) bands of at most min(S_{r−1} + 1, S_r + 2,
⌈S_{r−1}·λ⌉ + 2) runs, one product each (:func:`rank_one_lookups`).
Tested equal to the type classes of :func:`~exactdp.measures.privacy_loss.product_loss` and to brute force
(tests/measures/test_rank_one.py).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from math import gcd
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from flint import arb, ctx, fmpq, fmpz, fmpz_poly

from exactdp.errors import UndecidedError
from exactdp.limits import ESTIMATE_CAP
from exactdp.measures.privacy_loss import PairLoss, first_true, int_masses, merged_losses, valuation
from exactdp.measures.root_start import float_root_start, log_int, log_rational
from exactdp.numbers.exact_zero import coprime_basis
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import ONE, ZERO
from exactdp.numbers.rb import ball_endpoints

#: working precision (bits) of the balls that certify the thresholds s_r*, plus the bits of γ's size
PREC = 256
#: cost units per coefficient of a block's weights (a multiplication and an addition in the suffix sums)
_PER_COEFF = 200
#: cost units per band of :func:`rank_one_piece` (two bisections of ball thresholds, the band's numpy arrays) and
#: per class of the innermost group in it (:func:`_band_thresholds`)
_PER_ROW = 30_000
_PER_ENTRY = 20

_V = TypeVar("_V")

#: the rank-one structure of a loss: ``(ρ, exponents m_l, r_min)`` (ρ > 1 rational, one m_l per ratio class)
RankOne = tuple[fmpq, tuple[int, ...], fmpq]

_STRUCTURE: Memo[tuple[RankOne | None]] = Memo()
#: the weights of the last few blocks (an inversion evaluates the same blocks at several γ)
_BLOCKS: Memo[_Block] = Memo(8)


def rank_one(loss: PairLoss) -> RankOne | None:
    """``(ρ, (m_l), r_min)`` with r_l = r_min·ρ^{m_l} (ρ > 1, integers m_l ≥ 0, gcd 1) for every finite ratio class
    of ``loss``, exactly; None when the ratios do not lie on one progression (rank ≥ 2) or there is one class."""
    return _kept(_STRUCTURE, loss, lambda: _rank_one(loss))


def _kept(memo: Memo[tuple[_V | None]], key: Hashable, make: Callable[[], _V | None]) -> _V | None:
    """``make()`` kept in ``memo`` under ``key`` (None answers too: "not rank one" is asked as often)."""
    known = memo.get(key)
    if known is not None:
        return known[0]
    found = make()
    memo.put(key, (found,))
    return found


def _rank_one(loss: PairLoss) -> RankOne | None:
    ratios = [r for r, _ in loss.classes]
    if len(ratios) < 2:
        return None
    r_min = ratios[-1]
    quotients = [r / r_min for r in ratios]  # ≥ 1, the last one 1
    basis = coprime_basis([int(v.p) for v in quotients] + [int(v.q) for v in quotients])
    vectors = [[valuation(int(v.p), b) - valuation(int(v.q), b) for b in basis] for v in quotients]
    ref = next(v for v in vectors if any(v))  # the largest ratio's quotient (> 1: classes are distinct)
    g = 0
    for e in ref:
        g = gcd(g, e)
    prim = [e // g for e in ref]
    lead = next(i for i, e in enumerate(prim) if e)
    exps: list[int] = []
    for v in vectors:
        if v[lead] % prim[lead]:
            return None
        m = v[lead] // prim[lead]
        if any(a != m * b for a, b in zip(v, prim)):
            return None  # not a multiple of the primitive vector: the ratios span rank ≥ 2
        exps.append(m)
    rho = ONE
    for b, e in zip(basis, prim):
        rho *= fmpq(b) ** e if e >= 0 else ONE / fmpq(b) ** (-e)
    # ref = g·prim is the largest quotient (> 1), so ρ^g > 1: ρ > 1, and every m_l ≥ 0 (quotients ≥ 1)
    return rho, tuple(exps), r_min


@dataclass(frozen=True)
class RankOneGroup:
    """Rank-one losses whose progressions are commensurable, on one common base σ > 1: ``members`` lists
    ``(loss, k, a)`` with loss's ratios r_min·σ^{a·m_l} (ρ_loss = σ^a), k its multiplicity.  Their product is one
    block of exponent sums s = 0..``span`` (:func:`_block`)."""

    base: fmpq
    members: tuple[tuple[PairLoss, int, int], ...]

    @property
    def span(self) -> int:
        return sum(k * a * max(_exponents(loss)) for loss, k, a in self.members)


@dataclass(frozen=True)
class RankOneProduct:
    """A product of rank-one losses as blocks: ``groups`` in the order of the lookup (the last is looked up by its
    suffix sums, the others are looped over, the one before the last innermost: :func:`_ordered`), ``c`` = Π r_min^k (the least product ratio), ``p_inf`` the P-only mass."""

    groups: tuple[RankOneGroup, ...]
    c: fmpq
    p_inf: fmpq

    @property
    def losses(self) -> int:
        return sum(len(g.members) for g in self.groups)


_PRODUCTS: Memo[tuple[RankOneProduct | None]] = Memo()
#: at most this many merge plans are compared (the first ones: classes past the twelfth are merged)
_PLANS = 4096
#: orders of the groups compared (:func:`_ordered`): all permutations of up to this many groups
_ORDERS = 5
#: float grids of the root's start beyond this many outer classes are not built (the start is then 0)
_START_GRID = 1 << 22


def _exponents(loss: PairLoss) -> tuple[int, ...]:
    structure = rank_one(loss)
    assert structure is not None  # a member of a RankOneGroup
    return structure[1]


def rank_one_product(factors: Sequence[tuple[PairLoss, int]]) -> RankOneProduct | None:
    """The :class:`RankOneProduct` of ``[(PairLoss, k), ...]`` when, after merging equal losses and dropping k = 0,
    there are two or more losses, each rank one (:func:`rank_one`); None otherwise, and None for two-ratio losses
    that all lie on one progression (their merged type classes are already O(n): (x, x') and (x', x) of a 2×2
    kernel, summed as before).

    Two progressions ρ_i, ρ_j are commensurable when ρ_i^a = ρ_j^b for positive integers a, b: exactly when their
    prime-valuation vectors are parallel (both point the same way, as ρ > 1).  Each class of parallel vectors is
    one :class:`RankOneGroup` on the base σ = Π b^{G·u_b} (u the primitive vector, G the gcd of the members'
    multiples of it), so a member's exponents are a·m_l with a = its multiple / G.  Each such class is merged into one
    block or kept as blocks of their own, whichever plan (:func:`rank_one_plans`) :func:`rank_one_cost` estimates
    cheaper: a merge costs the polynomial product of the members' blocks, keeping them apart multiplies the lookup's
    outer loop by their classes."""
    merged = merged_losses(factors)
    if len(merged) < 2:
        return None
    return _kept(_PRODUCTS, tuple(merged.items()), lambda: _cheapest(_rank_one_plans(merged)))


def _cheapest(plans: list[RankOneProduct] | None) -> RankOneProduct | None:
    return None if plans is None else min(plans, key=lambda plan: rank_one_cost(plan)[3])  # the first of least work


def rank_one_plans(factors: Sequence[tuple[PairLoss, int]]) -> list[RankOneProduct] | None:
    """Every plan :func:`rank_one_product` chooses from (each class of commensurable losses merged into one block,
    first, or kept as blocks of their own); None where it answers None.  All plans give the same exact E_γ."""
    merged = merged_losses(factors)
    return _rank_one_plans(merged) if len(merged) >= 2 else None


def _rank_one_plans(merged: dict[PairLoss, int]) -> list[RankOneProduct] | None:
    structures = {loss: rank_one(loss) for loss in merged}
    if any(s is None for s in structures.values()):
        return None
    rhos = [s[0] for s in structures.values() if s is not None]
    basis = coprime_basis([int(r.p) for r in rhos] + [int(r.q) for r in rhos])
    parallel: dict[tuple[int, ...], list[tuple[PairLoss, int, int]]] = {}
    for (loss, k), rho in zip(merged.items(), rhos):
        v = [valuation(int(rho.p), b) - valuation(int(rho.q), b) for b in basis]
        g = 0
        for e in v:
            g = gcd(g, e)
        parallel.setdefault(tuple(e // g for e in v), []).append((loss, k, g))
    if len(parallel) == 1 and all(len(loss.classes) <= 2 for loss in merged):
        return None  # one progression of two-ratio losses: their merged type classes are already O(n)
    # each class of commensurable losses merged into one block (first) or kept as blocks of their own: RR ⊗ UE at
    # 5000 + 5000 merged is a product of two 10⁴-coefficient polynomials of 10⁴-bit and 2.5·10⁴-bit coefficients,
    # dearer than looking one block up against the other; three such losses merged spare a two-dimensional loop
    options: list[list[list[RankOneGroup]]] = []
    for u, members in parallel.items():
        G = 0
        for _, _, g in members:
            G = gcd(G, g)
        base = ONE
        for b, e in zip(basis, u):
            base *= _pow(fmpq(b), G * e)
        merged_group = [RankOneGroup(base, tuple((loss, k, g // G) for loss, k, g in members))]
        apart = [RankOneGroup(_pow(base, g // G), ((loss, k, 1),)) for loss, k, g in members]
        options.append([merged_group, apart] if len(members) > 1 else [merged_group])
    c, fin = ONE, ONE
    for loss, k in merged.items():
        s = structures[loss]
        assert s is not None
        c *= s[2] ** k
        fin *= (ONE - loss.p_only) ** k
    return [_ordered([grp for part in choice for grp in part], c, ONE - fin)
            for choice in itertools.islice(itertools.product(*options), _PLANS)]


def _ordered(groups: list[RankOneGroup], c: fmpq, p_inf: fmpq) -> RankOneProduct:
    """The product with its groups in the order :func:`rank_one_cost` estimates cheapest — which group is looked up
    and which is the innermost loop (a small slope log σ_M / log σ_L gives long runs of one threshold) — among all
    orders of up to :data:`_ORDERS` groups (the first of least work, from the order by increasing span), otherwise
    by increasing span (the largest last).  Every order gives the same exact E_γ."""
    by_span = sorted(groups, key=lambda grp: grp.span)  # stably: the largest last
    if len(groups) > _ORDERS:
        return RankOneProduct(tuple(by_span), c, p_inf)
    orders = [RankOneProduct(order, c, p_inf) for order in itertools.permutations(by_span)]
    return min(orders, key=lambda prod: rank_one_cost(prod)[3])


@dataclass
class _Block:
    """The γ-independent weights of one group's product by exponent sum s = 0..S: integer numerators ``wp``, ``wq``
    over ``dp``, ``dq`` (the products of the masses' common denominators to the powers k) and their suffix sums
    ``tp``, ``tq`` (``tp[j]`` = Σ_{s ≥ j} wp[s], ``tp[S + 1]`` = 0); ``logs``: their natural logarithms as floats,
    made on demand for the root's starting guess only (:func:`rank_one_root_start`)."""

    wp: list[fmpz]
    wq: list[fmpz]
    dp: fmpz
    dq: fmpz
    tp: list[fmpz]
    tq: list[fmpz]
    logs: tuple[npt.NDArray[np.float64], ...] | None = None


def _block(group: RankOneGroup) -> _Block:
    """The :class:`_Block` of a group: the coefficients of Π_i (Σ_l P_{il} z^{a_i m_{il}})^{k_i} and of the same with
    the Q-masses — one polynomial power per member and loss side, multiplied over the members (exact integers)."""
    kept = _BLOCKS.get(group)
    if kept is not None:
        return kept
    polys = [fmpz_poly([1]), fmpz_poly([1])]
    dens = [fmpz(1), fmpz(1)]
    for loss, k, a in group.members:
        exps = _exponents(loss)
        for side, masses in enumerate(([m for _, m in loss.classes], [m / r for r, m in loss.classes])):
            nums, den = int_masses(masses)
            coeffs = [0] * (a * max(exps) + 1)
            for e, v in zip(exps, nums):
                coeffs[a * e] += v
            polys[side] *= fmpz_poly(coeffs) ** k
            dens[side] *= fmpz(den) ** k
    size = group.span + 1
    wp, wq = polys[0].coeffs(), polys[1].coeffs()
    wp += [fmpz(0)] * (size - len(wp))
    wq += [fmpz(0)] * (size - len(wq))
    out = _Block(wp, wq, dens[0], dens[1], _suffix(wp), _suffix(wq))
    _BLOCKS.put(group, out)
    return out


def _suffix(w: list[fmpz]) -> list[fmpz]:
    out = [fmpz(0)] * (len(w) + 1)
    acc = fmpz(0)
    for s in range(len(w) - 1, -1, -1):
        acc += w[s]
        out[s] = acc
    return out


def _logs(block: _Block) -> tuple[npt.NDArray[np.float64], ...]:
    """(log wp − log dp, log wq − log dq, log tp − log dp, log tq − log dq) as float arrays (kept on the block)."""
    if block.logs is None:
        ldp, ldq = log_int(block.dp), log_int(block.dq)
        block.logs = (np.array([log_int(v) for v in block.wp]) - ldp, np.array([log_int(v) for v in block.wq]) - ldq,
                      np.array([log_int(v) for v in block.tp]) - ldp, np.array([log_int(v) for v in block.tq]) - ldq)
    return block.logs


def _lse(v: npt.NDArray[np.float64]) -> float:
    top = float(np.max(v)) if v.size else -math.inf
    return top if top == -math.inf else top + math.log(float(np.sum(np.exp(v - top))))


def _outer_size(prod: RankOneProduct) -> int:
    """The number of outer class tuples (s_1, …, s_{r−1}) of :func:`rank_one_piece` (1 for one group), capped."""
    size = 1
    for grp in prod.groups[:-1]:
        size = min(size * (grp.span + 1), ESTIMATE_CAP)
    return size


def rank_one_root_start(prod: RankOneProduct, delta: fmpq) -> fmpq:
    r"""A rational γ with E_γ(prod) > δ (exactly) near the least γ with E_γ ≤ δ, or 0: a start for the exact Newton
    iteration from the left (:func:`~exactdp.measures.privacy_loss.newton_from_left`).

    The floats only choose trial points: a bisection on θ = log γ of E_γ computed from float logarithms of the
    blocks' weights (the outer groups' classes as one flattened grid, not built past :data:`_START_GRID` entries),
    then e^{θ − m} for growing margins m, each kept only if the exact piece there (:func:`rank_one_piece`) shows
    E > δ (:func:`~exactdp.measures.root_start.float_root_start`)."""
    if _outer_size(prod) > _START_GRID:
        return ZERO
    blocks = [_block(grp) for grp in prod.groups]
    lp, lq, off = np.zeros(1), np.zeros(1), np.zeros(1)
    for grp, b in zip(prod.groups[:-1], blocks[:-1]):
        lpb, lqb, _, _ = _logs(b)
        steps = np.arange(len(lpb), dtype=np.float64) * log_rational(grp.base)
        lp, lq = np.add.outer(lp, lpb).ravel(), np.add.outer(lq, lqb).ravel()
        off = np.add.outer(off, steps).ravel()
    _, _, ltp, ltq = _logs(blocks[-1])
    l2 = log_rational(prod.groups[-1].base)
    logc = log_rational(prod.c)
    top = len(blocks[-1].wp)
    p_inf = float(prod.p_inf)
    d = float(delta)

    def excess(theta: float) -> float:  # E_γ − δ at γ = e^θ, in floats
        j = np.clip(np.floor((theta - logc - off) / l2) + 1, 0, top).astype(np.int64)
        a, b = _lse(lp + ltp[j]), _lse(theta + lq + ltq[j])
        return p_inf + math.exp(a) - math.exp(b) - d if a > -700 or b > -700 else p_inf - d

    theta_top = logc + sum(grp.span * log_rational(grp.base) for grp in prod.groups)
    return float_root_start(excess, theta_top, lambda g: rank_one_piece(prod, g), delta)


def rank_one_piece(prod: RankOneProduct, gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)``: E_γ' = A − γ'B of the product on the linear piece just right of γ (the classes of ratio > γ);
    exact (see the module docstring: a loop over the outer groups' exponent sums, one certified threshold and one
    suffix-sum lookup in the last group per outer tuple)."""
    blocks = [_block(grp) for grp in prod.groups]
    outer, last = blocks[:-1], blocks[-1]
    dp, dq = fmpz(1), fmpz(1)
    for b in blocks:
        dp, dq = dp * b.dp, dq * b.dq
    if gamma <= 0:  # every finite class is above γ: the whole masses
        A, B = fmpz(1), fmpz(1)
        for b in blocks:
            A, B = A * b.tp[0], B * b.tq[0]
        return prod.p_inf + fmpq(A, dp), fmpq(B, dq)
    c, top = prod.c, len(last.wp)  # top = S + 1: the empty tail
    bases = [grp.base for grp in prod.groups]
    prec = PREC + max(int(gamma.p).bit_length(), int(gamma.q).bit_length(), int(c.p).bit_length(),
                      int(c.q).bit_length()).bit_length() + sum(len(b.wp) for b in blocks).bit_length()
    index = [0] * len(outer)

    def threshold(x: arb) -> int:
        """The first exponent sum of the last group above γ at the outer tuple ``index``, clipped to [0, top]."""
        f = x.floor().unique_fmpz()
        if f is not None:
            j = int(f) + 1
        else:  # x within the ball's radius (< 1/4) of an integer m: R(index, m) > γ decides between m and m + 1
            if not x.rad() < arb(1) / 4:
                raise UndecidedError(f"rank_one_piece: the threshold at {tuple(index)} needs more than {prec} bits")
            near = (x.mid() + arb(1) / 2).floor().unique_fmpz()
            assert near is not None  # the floor of an exact ball
            m = int(near)
            if m < 0 or m >= top:  # m and m + 1 clip to the same end: no comparison (nor a power of size |m|)
                j = m
            else:
                ratio = c * _pow(bases[-1], m)
                for base, s in zip(bases, index):
                    ratio *= _pow(base, s)
                j = m if ratio > gamma else m + 1
        return min(max(j, 0), top)

    def walk(level: int, x: arb) -> tuple[fmpz, fmpz]:
        """Σ over the outer sums of levels ≥ level of their weights times the last group's tails (x: the threshold
        so far)."""
        if level == len(outer):
            j = threshold(x)
            return last.tp[j], last.tq[j]
        b, slope = outer[level], slopes[level]
        size = len(b.wp)
        if level < len(outer) - 1:
            # prune: below ``first`` every tail of the levels inside is empty (x − s·slope − reach ≥ S + 1 − 1, the
            # least threshold over them already past the block), from ``full`` on every tail is the whole block
            # (x − s·slope < 0): one product of totals; both certified by the ball, undecided sums are walked
            reach = reaches[level + 1]
            first = first_true(lambda s: not x - s * slope - reach >= top - 1, 0, size)
            full = first_true(lambda s: bool(x - s * slope < 0), first, size)
            a_sum, b_sum = b.tp[full] * totals[level + 1][0], b.tq[full] * totals[level + 1][1]
            for s in range(first, full):
                if not b.wp[s] and not b.wq[s]:
                    continue
                index[level] = s
                ta, tb = walk(level + 1, x - s * slope)
                a_sum += b.wp[s] * ta
                b_sum += b.wq[s] * tb
            return a_sum, b_sum

        def at(s: int) -> int:
            index[level] = s
            return threshold(x - s * slope)

        # the innermost outer level: j(s) is non-increasing in s (R grows with s), so the s with an empty tail
        # (j = top) come first and those with the whole block (j = 0) last — two bisections find the band between,
        # and the whole-block part is one product of suffix sums; inside the band the thresholds are certified in
        # machine integers (:func:`_band_thresholds`) and each run of equal j is one product: its weights summed
        # as a difference of suffix sums (a slope below 1 gives runs of about 1/slope sums)
        first = first_true(lambda s: at(s) < top, 0, size)
        full = first_true(lambda s: at(s) == 0, first, size)
        a_sum, b_sum = b.tp[full] * last.tp[0], b.tq[full] * last.tq[0]
        if full <= first:
            return a_sum, b_sum
        js = _band_thresholds(x - first * slope, slope, full - first, top, lambda i: at(first + i))
        cuts = [first, *(np.flatnonzero(js[1:] != js[:-1]) + 1 + first).tolist(), full]
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            j = int(js[lo - first])
            if j >= top:
                continue
            if hi == lo + 1:
                a_sum += b.wp[lo] * last.tp[j]
                b_sum += b.wq[lo] * last.tq[j]
            else:
                a_sum += (b.tp[lo] - b.tp[hi]) * last.tp[j]
                b_sum += (b.tq[lo] - b.tq[hi]) * last.tq[j]
        return a_sum, b_sum

    with ctx.workprec(prec):
        l2 = arb(bases[-1]).log()
        x0 = (arb(gamma).log() - arb(c).log()) / l2
        slopes = [arb(base).log() / l2 for base in bases[:-1]]
        # reaches[g]: how far the levels g.. can lower x (Σ S·slope); totals[g]: Π of their whole-block weights
        # times the last group's, (P, Q)
        reaches = [arb(0)] * (len(outer) + 1)
        totals = [(last.tp[0], last.tq[0])] * (len(outer) + 1)
        for g in range(len(outer) - 1, -1, -1):
            reaches[g] = reaches[g + 1] + (len(outer[g].wp) - 1) * slopes[g]
            totals[g] = (totals[g + 1][0] * outer[g].tp[0], totals[g + 1][1] * outer[g].tq[0])
        a_sum, b_sum = walk(0, x0)
    return prod.p_inf + fmpq(a_sum, dp), fmpq(b_sum, dq)


def _band_thresholds(x: arb, slope: arb, n: int, top: int, exact: Callable[[int], int]) -> npt.NDArray[np.int64]:
    """j_i = ⌊x − i·slope⌋ + 1 clipped to [0, ``top``] for i = 0..n − 1, certified in machine integers: with the
    balls' exact endpoints scaled by 2^P and rounded outward (X⁻ ≤ x·2^P ≤ X⁺, L⁻ ≤ slope·2^P ≤ L⁺, slope > 0),
    x − i·slope lies in [(X⁻ − i·L⁺)/2^P, (X⁺ − i·L⁻)/2^P], so where both ends have one floor (an arithmetic shift)
    that is ⌊x − i·slope⌋; elsewhere — the ball or its rounding straddles an integer — ``exact(i)`` decides (the
    ball at its precision, then the exact comparison of the ratio with γ)."""
    ends_x, ends_s = ball_endpoints(x), ball_endpoints(slope)
    if ends_x is None or ends_s is None:
        return np.array([exact(i) for i in range(n)], dtype=np.int64)
    reach = int(abs(ends_x[0]).floor()) + int(abs(ends_x[1]).floor()) + n * (int(ends_s[1].floor()) + 1) + 2
    shift = 61 - reach.bit_length()  # |X±| + i·|L±| < 2^61: no int64 overflow
    if shift < 8:
        return np.array([exact(i) for i in range(n)], dtype=np.int64)
    scale = fmpz(1) << shift
    x_lo, x_hi = int((ends_x[0] * scale).floor()), int((ends_x[1] * scale).ceil())
    s_lo, s_hi = int((ends_s[0] * scale).floor()), int((ends_s[1] * scale).ceil())
    i = np.arange(n, dtype=np.int64)
    f_lo = (x_lo - i * s_hi) >> shift
    f_hi = (x_hi - i * s_lo) >> shift
    js: npt.NDArray[np.int64] = np.clip(f_lo + 1, 0, top)
    for k in np.flatnonzero(f_lo != f_hi).tolist():
        js[k] = exact(k)
    return js


def _pow(r: fmpq, e: int) -> fmpq:
    return r ** e if e >= 0 else ONE / r ** (-e)


def rank_one_lookups(groups: Sequence[RankOneGroup]) -> tuple[int, int]:
    """(rows, lookups) of :func:`rank_one_piece` with ``groups`` in this order (the last looked up, the one before it
    the innermost loop), upper bounds from the sizes alone: rows = Π (S_g + 1) over the groups before the innermost
    one (its bands, one per outer tuple), lookups = rows × the runs of equal threshold in a band, at most
    min(S_M + 1, S_L + 1, ⌈S_M·λ⌉ + 2, ⌊S_L/λ⌋ + 2) with λ = log σ_M / log σ_L: a band's thresholds lie in 1..S_L
    (x − s·λ ∈ [0, S_L)), which holds at most S_L/λ + 1 of the s, and ⌊x − s·λ⌋ takes at most ⌈S_M·λ⌉ + 1 values
    over s = 0..S_M; λ from float logarithms, inflated by 10⁻⁹ — far above their error — so the bound holds.
    Capped."""
    if len(groups) < 2:
        return 1, 1
    rows = 1
    for grp in groups[:-2]:
        rows = min(rows * (grp.span + 1), ESTIMATE_CAP)
    inner, last = groups[-2], groups[-1]
    slope = log_rational(inner.base) / log_rational(last.base) * (1 + 1e-9)
    runs = min(inner.span + 1, last.span + 1, math.ceil(inner.span * slope) + 2, math.floor(last.span / slope * (1 + 2e-9)) + 2)
    return rows, min(rows * runs, ESTIMATE_CAP)


def rank_one_cost(prod: RankOneProduct, extra_bits: int = 0) -> tuple[int, int, int, int, int]:
    """(rank, lookups, bits, work, memory) of :func:`rank_one_piece` (rank: the number of groups; lookups: the
    products of a band's summed weights with a tail of the last block, :func:`rank_one_lookups`): each member's
    polynomial powers (a·k·max m + 1 coefficients of ≈ k·b bits, b the bits of its masses' denominator;
    quasi-linear, charged as limbs·log2(limbs) per coefficient) and the products over a group's members, then per
    evaluation two products of the innermost and the last group's sizes per lookup, two of the whole product's size
    per row (the outer levels' sums) plus the band's bisections and machine-integer thresholds, and the suffix sums;
    memory the blocks' weight vectors and suffix sums and the root start's float grid.  All from the sizes: nothing
    is built before the estimate is checked."""
    bits, work, memory = extra_bits + 1, 0, 0
    sizes: list[int] = []
    for grp in prod.groups:
        size, gbits = grp.span + 1, 0
        for loss, k, a in grp.members:
            b = max(int_masses([m for _, m in loss.classes])[1], int_masses([m / r for r, m in loss.classes])[1]).bit_length()
            limbs = (k * b) // 64 + 1
            work += 3 * (k * a * max(_exponents(loss)) + 1) * (limbs * limbs.bit_length() + _PER_COEFF)
            gbits += k * b
        limbs = gbits // 64 + 1
        work += 2 * (len(grp.members) - 1) * size * (limbs * limbs.bit_length() + _PER_COEFF)
        sizes.append(gbits)
        bits += gbits
        memory += 4 * size * (limbs * 8 + 100)
    rows, lookups = rank_one_lookups(prod.groups)
    limbs = bits // 64 + 1
    pair = sum(sizes[-2:]) // 64 + 1  # the band's products are of weights only: γ enters the thresholds, not them
    band = prod.groups[-2].span + 1 if len(prod.groups) > 1 else 1
    work += lookups * 2 * (pair * pair.bit_length() + _PER_COEFF)
    work += rows * (2 * (limbs * limbs.bit_length() + _PER_COEFF) + _PER_ROW + band * _PER_ENTRY)
    memory += 32 * min(_outer_size(prod), _START_GRID)
    return len(prod.groups), lookups, bits, min(work, ESTIMATE_CAP), min(memory, ESTIMATE_CAP)
