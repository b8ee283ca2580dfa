r"""Exact E_γ of a product of two losses whose ratios each lie on one geometric progression (docs/claims.md B-10, D-7).

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

For two such losses (K₁ coordinates of the first, K₂ of the second: ``exactdp tensor rr.json:5000 krr3.json:5000``)
an outcome (s₁, s₂) has ratio R(s₁, s₂) = c·ρ₁^{s₁}ρ₂^{s₂}, c = r_{1,min}^{K₁} r_{2,min}^{K₂}, increasing in s₂, so
for each s₁ the classes above γ are a tail s₂ ≥ s₂*(s₁) and ([A] Thm 1, B-10)

.. math::  E_\gamma = p_\infty + \sum_{s_1} W_1^P(s_1)\,T_2^P(s_2^*(s_1))
                      - \gamma \sum_{s_1} W_1^Q(s_1)\,T_2^Q(s_2^*(s_1)),

T₂ the suffix sums of block 2's weights, p_∞ = 1 − (1 − p_{1,∞})^{K₁}(1 − p_{2,∞})^{K₂}.  s₂*(s₁) = ⌊x⌋ + 1 clipped
to [0, S₂ + 1], x = (log γ − log c − s₁ log ρ₁)/log ρ₂; a tie R = γ is not above, which ⌊x⌋ + 1 respects.  The floor
is certified by an arb ball (:data:`PREC` bits); where the ball contains an integer the exact rational comparison of
R with γ decides.  Everything summed is an exact integer; floats never enter.  The P-weights and Q-weights of a block
are independent of γ and kept (a :class:`~exactdp.numbers.memo.Memo`) for the next γ of an inversion.

Cost: two polynomial powers per block (S_j + 1 coefficients of about K_j·b bits, b the bits of the masses'
denominator) and S₁ + 1 products of such integers per γ (:func:`rank_one_pair_cost`).  Tested equal to the type
classes of :func:`~exactdp.measures.privacy_loss.product_loss` (tests/measures/test_rank_one.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt

from flint import arb, ctx, fmpq, fmpz, fmpz_poly

from exactdp.errors import UndecidedError
from exactdp.measures.privacy_loss import PairLoss, int_masses, merged_losses, ratio_exponents, valuation
from exactdp.numbers.exact_zero import coprime_basis
from exactdp.numbers.memo import Memo
from exactdp.numbers.qq import ONE, ZERO
from exactdp.numbers.rb import arb_to_fmpq

#: working precision (bits) of the balls that certify the thresholds s₂*(s₁), plus the bits of γ's size
PREC = 256
#: exact evaluations spent on the start of a root (:func:`rank_one_root_start`)
_START_TRIALS = 4
#: cost units per coefficient of a block's weights (a multiplication and an addition in the suffix sums)
_PER_COEFF = 200

#: the rank-one structure of a loss: ``(ρ, exponents m_l, r_min)`` (ρ > 1 rational, one m_l per ratio class)
RankOne = tuple[fmpq, tuple[int, ...], fmpq]

_STRUCTURE: Memo[tuple[RankOne | None]] = Memo()
#: the weights of the last few blocks (an inversion evaluates the same two blocks at several γ)
_BLOCKS: Memo[_Block] = Memo(4)


def rank_one(loss: PairLoss) -> RankOne | None:
    """``(ρ, (m_l), r_min)`` with r_l = r_min·ρ^{m_l} (ρ > 1, integers m_l ≥ 0, gcd 1) for every finite ratio class
    of ``loss``, exactly; None when the ratios do not lie on one progression (rank ≥ 2) or there is one class."""
    known = _STRUCTURE.get(loss)
    if known is not None:
        return known[0]
    found = _rank_one(loss)
    _STRUCTURE.put(loss, (found,))
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


def rank_one_pair(factors: Sequence[tuple[PairLoss, int]]) -> tuple[PairLoss, int, PairLoss, int] | None:
    """``(L₁, K₁, L₂, K₂)`` when the product ``[(PairLoss, k), ...]`` is, after merging equal losses and dropping
    k = 0, exactly two losses, each rank one (:func:`rank_one`) — two two-ratio losses only when their progressions
    are independent (RR with e^ε = 3 times RR with e^ε = 2: O(n²) merged type classes otherwise; on a common
    progression, as (x, x') and (x', x) of a 2×2 kernel, the type classes are O(n) and are summed as before); None
    otherwise.  The block of the larger exponent span is
    second (the suffix sums), the other is looped over."""
    merged = merged_losses(factors)
    if len(merged) != 2:
        return None
    (a, ka), (b, kb) = merged.items()
    if max(len(a.classes), len(b.classes)) < 3 and ratio_exponents([[r for r, _ in a.classes],
                                                                     [r for r, _ in b.classes]])[1] < 2:
        return None  # two two-ratio losses on one progression: their merged type classes are already O(n)
    sa, sb = rank_one(a), rank_one(b)
    if sa is None or sb is None:
        return None
    if ka * max(sa[1]) > kb * max(sb[1]):
        return b, kb, a, ka
    return a, ka, b, kb


@dataclass
class _Block:
    """The γ-independent weights of ``loss^{⊗k}`` by exponent sum s = 0..S: integer numerators ``wp``, ``wq`` over
    ``dp``, ``dq`` (the k-th powers of the masses' common denominators) and their suffix sums ``tp``, ``tq``
    (``tp[j]`` = Σ_{s ≥ j} wp[s], ``tp[S + 1]`` = 0); ``logs``: their natural logarithms as floats, made on demand for
    the root's starting guess only (:func:`rank_one_root_guess`)."""

    wp: list[fmpz]
    wq: list[fmpz]
    dp: fmpz
    dq: fmpz
    tp: list[fmpz]
    tq: list[fmpz]
    logs: tuple[npt.NDArray[np.float64], ...] | None = None


def _block(loss: PairLoss, k: int) -> _Block:
    """The :class:`_Block` of ``loss^{⊗k}``: the coefficients of (Σ_l P_l z^{m_l})^k and (Σ_l Q_l z^{m_l})^k."""
    key = (loss, k)
    kept = _BLOCKS.get(key)
    if kept is not None:
        return kept
    structure = rank_one(loss)
    assert structure is not None  # callers checked rank_one_pair
    _, exps, _ = structure
    P, dp = int_masses([m for _, m in loss.classes])
    Q, dq = int_masses([m / r for r, m in loss.classes])
    span = max(exps)
    cp, cq = [0] * (span + 1), [0] * (span + 1)
    for e, p, q in zip(exps, P, Q):
        cp[e] += p
        cq[e] += q
    size = k * span + 1
    wp = (fmpz_poly(cp) ** k).coeffs()
    wq = (fmpz_poly(cq) ** k).coeffs()
    wp += [fmpz(0)] * (size - len(wp))
    wq += [fmpz(0)] * (size - len(wq))
    out = _Block(wp, wq, fmpz(dp) ** k, fmpz(dq) ** k, _suffix(wp), _suffix(wq))
    _BLOCKS.put(key, out)
    return out


def _suffix(w: list[fmpz]) -> list[fmpz]:
    out = [fmpz(0)] * (len(w) + 1)
    acc = fmpz(0)
    for s in range(len(w) - 1, -1, -1):
        acc += w[s]
        out[s] = acc
    return out


def _log_int(v: fmpz) -> float:
    """log v as a float for an integer v ≥ 0 of any size (−inf for 0): a guide, never a result."""
    b = int(v).bit_length()
    if b == 0:
        return -math.inf
    shift = max(b - 60, 0)
    return math.log(int(v) >> shift) + shift * math.log(2)


def _log_rational(v: fmpq) -> float:
    """log v as a float for a rational v > 0 of any size (no overflow or underflow of float(v)): a guide only."""
    return _log_int(fmpz(v.p)) - _log_int(fmpz(v.q))


def _logs(block: _Block) -> tuple[npt.NDArray[np.float64], ...]:
    """(log wp − log dp, log wq − log dq, log tp − log dp, log tq − log dq) as float arrays (kept on the block)."""
    if block.logs is None:
        ldp, ldq = _log_int(block.dp), _log_int(block.dq)
        block.logs = (np.array([_log_int(v) for v in block.wp]) - ldp, np.array([_log_int(v) for v in block.wq]) - ldq,
                      np.array([_log_int(v) for v in block.tp]) - ldp, np.array([_log_int(v) for v in block.tq]) - ldq)
    return block.logs


def _lse(v: npt.NDArray[np.float64]) -> float:
    top = float(np.max(v)) if v.size else -math.inf
    return top if top == -math.inf else top + math.log(float(np.sum(np.exp(v - top))))


def rank_one_root_start(one: PairLoss, k1: int, two: PairLoss, k2: int, delta: fmpq) -> fmpq:
    r"""A rational γ with E_γ(one^{⊗k1} ⊗ two^{⊗k2}) > δ (exactly) near the least γ with E_γ ≤ δ, or 0: a start
    for the exact Newton iteration from the left (:meth:`exactdp.measures.tensor_search.TensorSearch.gamma_for`).

    The floats only choose trial points: a bisection on θ = log γ of E_γ computed from float logarithms of the
    blocks' weights, then e^{θ − m} for growing margins m, each kept only if the exact piece there
    (:func:`rank_one_pair_piece`) shows E > δ — at most :data:`_START_TRIALS` exact evaluations."""
    s1, s2 = rank_one(one), rank_one(two)
    assert s1 is not None and s2 is not None
    b1, b2 = _block(one, k1), _block(two, k2)
    lp1, lq1, _, _ = _logs(b1)
    _, _, ltp2, ltq2 = _logs(b2)
    (rho1, _, rmin1), (rho2, _, rmin2) = s1, s2
    l1, l2 = _log_rational(rho1), _log_rational(rho2)
    logc = k1 * _log_rational(rmin1) + k2 * _log_rational(rmin2)
    top = len(b2.wp)
    steps = np.arange(len(lp1), dtype=np.float64)
    p_inf = 1.0 - (1.0 - float(one.p_only)) ** k1 * (1.0 - float(two.p_only)) ** k2
    d = float(delta)

    def excess(theta: float) -> float:  # E_γ − δ at γ = e^θ, in floats
        j = np.clip(np.floor((theta - logc - steps * l1) / l2) + 1, 0, top).astype(np.int64)
        a, b = _lse(lp1 + ltp2[j]), _lse(theta + lq1 + ltq2[j])
        return p_inf + math.exp(a) - math.exp(b) - d if a > -700 or b > -700 else p_inf - d

    lo, hi = 0.0, max(logc + (len(lp1) - 1) * l1 + (top - 1) * l2, 1.0)
    if excess(lo) <= 0 or excess(hi) > 0:
        return ZERO
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    margin = 1e-9 * max(lo, 1.0)
    for _ in range(_START_TRIALS):
        if lo - margin <= 0:
            break
        with ctx.workprec(64):
            x = arb(lo - margin).exp().mid()
        g = arb_to_fmpq(x)
        A, B = rank_one_pair_piece(one, k1, two, k2, g)
        if A - g * B > delta:
            return g
        margin *= 100
    return ZERO


def rank_one_pair_piece(one: PairLoss, k1: int, two: PairLoss, k2: int, gamma: fmpq) -> tuple[fmpq, fmpq]:
    r"""``(A, B)``: E_γ' = A − γ'B of ``one^{⊗k1} ⊗ two^{⊗k2}`` on the linear piece just right of γ (the classes of
    ratio > γ), both losses rank one (see the module docstring); exact."""
    s1, s2 = rank_one(one), rank_one(two)
    assert s1 is not None and s2 is not None  # callers checked rank_one_pair
    (rho1, _, rmin1), (rho2, _, rmin2) = s1, s2
    b1, b2 = _block(one, k1), _block(two, k2)
    wp1, wq1, dp1, dq1 = b1.wp, b1.wq, b1.dp, b1.dq
    tp2, tq2, dp2, dq2 = b2.tp, b2.tq, b2.dp, b2.dq
    top = len(b2.wp)  # S₂ + 1: the empty tail
    c = rmin1 ** k1 * rmin2 ** k2
    prec = PREC + max(int(gamma.p).bit_length(), int(gamma.q).bit_length(), int(c.p).bit_length(),
                      int(c.q).bit_length()).bit_length() + (len(wp1) + top).bit_length()
    a_sum, b_sum = fmpz(0), fmpz(0)
    p_inf = ONE - (ONE - one.p_only) ** k1 * (ONE - two.p_only) ** k2
    if gamma <= 0:  # every finite class is above γ: the whole masses
        return p_inf + fmpq(sum(wp1, fmpz(0)) * tp2[0], dp1 * dp2), fmpq(sum(wq1, fmpz(0)) * tq2[0], dq1 * dq2)
    with ctx.workprec(prec):
        l2 = arb(rho2).log()
        x0 = (arb(gamma).log() - arb(c).log()) / l2
        slope = arb(rho1).log() / l2
    for s in range(len(wp1)):
        if not wp1[s] and not wq1[s]:
            continue
        with ctx.workprec(prec):
            x = x0 - s * slope
            f = x.floor().unique_fmpz()
        if f is not None:
            j = int(f) + 1
        else:  # x within the ball's radius (< 1/4) of an integer m: R(s, m) > γ decides between m and m + 1 exactly
            if not x.rad() < arb(1) / 4:
                raise UndecidedError(f"rank_one_pair_piece: the threshold at s = {s} needs more than {prec} bits")
            near = (x.mid() + arb(1) / 2).floor().unique_fmpz()
            assert near is not None  # the floor of an exact ball
            m = int(near)
            if m < 0 or m >= top:  # m and m + 1 clip to the same end: no comparison (nor a power of size |m|)
                j = m
            else:
                j = m if c * rho1 ** s * _pow(rho2, m) > gamma else m + 1
        j = min(max(j, 0), top)
        a_sum += wp1[s] * tp2[j]
        b_sum += wq1[s] * tq2[j]
    return p_inf + fmpq(a_sum, dp1 * dp2), fmpq(b_sum, dq1 * dq2)


def _pow(r: fmpq, e: int) -> fmpq:
    return r ** e if e >= 0 else ONE / r ** (-e)


def rank_one_pair_cost(one: PairLoss, k1: int, two: PairLoss, k2: int, extra_bits: int = 0) -> tuple[int, int, int, int, int]:
    """(rank, terms, bits, work, memory) of :func:`rank_one_pair_piece`: the two blocks' polynomial powers (S_j + 1
    coefficients of ≈ k_j·b_j bits; quasi-linear, charged as limbs·log2(limbs) per coefficient) and one product of
    such integers per exponent sum of the first block, plus the suffix sums; memory the four weight vectors and the
    two suffix sums."""
    s1, s2 = rank_one(one), rank_one(two)
    assert s1 is not None and s2 is not None
    terms, bits, work, memory = 0, extra_bits + 1, 0, 0
    for loss, k, st in ((one, k1, s1), (two, k2, s2)):
        b = max(int_masses([m for _, m in loss.classes])[1], int_masses([m / r for r, m in loss.classes])[1]).bit_length()
        size = k * max(st[1]) + 1
        limbs = (k * b) // 64 + 1
        terms += size
        bits += k * b
        work += 3 * size * (limbs * limbs.bit_length() + _PER_COEFF)
        memory += 4 * size * (limbs * 8 + 100)
    limbs = bits // 64 + 1
    work += (k1 * max(s1[1]) + 1) * 2 * (limbs * limbs.bit_length() + _PER_COEFF)
    return 2, terms, bits, work, memory
