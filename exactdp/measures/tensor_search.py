r"""The pair-type search of n-fold products, shared by the public API and its enclosure and inversion layers.

The algorithm (pair classes, compositions, exact branch and bound, the certified filter of
:mod:`exactdp.measures.composition_filter`) is described in :mod:`exactdp.measures.tensor`; this module holds
its implementation — :class:`TensorSearch`, the cost estimates checked before any work starts, and the
argument checks — so that :mod:`exactdp.measures.tensor`, :mod:`exactdp.measures.tensor_enclosure` and
:mod:`exactdp.measures.profile_inversion` import it from below, and the last two never import the first
(docs/claims.md B-10, D-7).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any, Protocol, TypeAlias, TypedDict, TypeVar

from flint import fmpq, fmpz

from exactdp.distributions import as_distribution
from exactdp.errors import ParameterError, ShapeError
from exactdp.kernels import Kernel, KernelInput, as_kernel
from exactdp.limits import ESTIMATE_CAP, fmt_estimate, require
from exactdp.measures import composition_filter
from exactdp.measures.binomial_trinomial import (
    binomial_trinomial_cost,
    binomial_trinomial_gamma_for,
    binomial_trinomial_loss,
    binomial_trinomial_piece,
)
from exactdp.measures.composition_filter import Plan, Selection
from exactdp.measures.enclosure_routine import Groups, Totals
from exactdp.measures.near_corner import CornerSplit, corner_split, near_corner_gamma_for, near_corner_piece
from exactdp.measures.rank_one import rank_one_cost, rank_one_piece, rank_one_product, rank_one_root_start
from exactdp.measures.quadrinomial import (
    quadrinomial_cost,
    quadrinomial_linear_piece,
    quadrinomial_loss,
    quadrinomial_root_start,
)
from exactdp.measures.root_start import trinomial_root_start
from exactdp.measures.privacy_loss import (
    PairLoss,
    ProductLoss,
    binomial_gamma_for,
    binomial_hockey_stick,
    binomial_linear_piece,
    binomial_loss,
    hockey_stick_product_losses,
    newton_from_left,
    product_loss,
    ratio_exponents,
    trinomial_linear_piece,
    trinomial_loss,
)
from exactdp.numbers.qq import ONE, ZERO, RationalInput, to_qq

#: a product of kernels: ``[(K_1, n_1), ..., (K_m, n_m)]``, a bare kernel counting once (:func:`normalize_factors`)
Factors: TypeAlias = "Kernel | Iterable[KernelInput | tuple[KernelInput, int]]"
#: class counts of a composition, indexed like the search's pair classes
Counts: TypeAlias = tuple[int, ...]
#: a box of compositions: lower and upper class counts
Box: TypeAlias = tuple[Counts, Counts]
#: the exact value of a composition (E_γ at the search's γ)
Evaluate: TypeAlias = Callable[[Counts], fmpq]
#: (rank D, terms, bits, work, memory) of one evaluation (:func:`evaluation_cost`)
EvaluationCost: TypeAlias = tuple[int, int, int, int, int]

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)


class ResultFuture(Protocol[_T_co]):
    """What an executor's ``submit`` returns (a ``concurrent.futures.Future``, a ``distributed`` future)."""

    def result(self) -> _T_co: ...


class Executor(Protocol):
    """Anything with ``submit(fn, *args)`` returning a future: a process pool, a ``distributed.Client``."""

    def submit(self, fn: Callable[..., _T], /, *args: Any) -> ResultFuture[_T]: ...


class WitnessOptions(TypedDict, total=False):
    """The keyword options of :func:`eta_hockey_stick_tensor_product_witness` that callers pass through."""

    max_evaluations: int
    exhaustive_limit: int
    executor: Executor | None
    filtered: bool | None


class SearchOptions(WitnessOptions, total=False):
    """The keyword options of :class:`TensorSearch` that the enclosures pass through (``**kw``)."""

    keep_bytes: int


#: default cap on the number of exact E_γ evaluations of one pair-type search
MAX_EVALUATIONS = 20_000
#: up to this many compositions the search evaluates them all (the bound boxes of branch and bound cost
#: more than a leaf, and with two classes of similar strength little is pruned)
EXHAUSTIVE_LIMIT = 5_000


@dataclass(frozen=True)
class PairClass:
    """A class of ordered row pairs (x, x') of one kernel with one privacy-loss distribution."""

    loss: PairLoss
    x: int  # a representative pair
    x_prime: int
    factor: int  # index of the kernel in the product


#: ``(classes, groups, totals, work)`` of :func:`classify`
Classified: TypeAlias = tuple[list[PairClass], list[list[int]], list[int], int]


@dataclass(frozen=True)
class TensorWitness:
    r"""The exact maximum and a maximizing composition of a pair-type search.

    ``composition`` lists ``(factor, x, x', count)``: ``count`` coordinates of factor ``factor`` carry
    the inputs (x, x'); all other coordinates of that factor are equal in both sequences.
    """

    value: fmpq
    composition: tuple[tuple[int, int, int, int], ...]
    classes: int  # pair classes searched (after merging equal ones and dropping dominated ones)
    evaluations: int  # exact E_γ evaluations (boxes bounded or leaves)
    counts: tuple[int, ...] = ()  # the maximizing class counts, in the order of the search's pair classes
    discarded: int = 0  # compositions the certified filter (measures/composition_filter.py) ruled out

    def input_sequences(self, factors: Factors) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The two input sequences x^n, x'^n (factor by factor, in order) realizing ``value``."""
        seqs: tuple[list[int], list[int]] = ([], [])
        for j, (_, n_j) in enumerate(normalize_factors(factors)):
            used = [(x, xp, c) for f, x, xp, c in self.composition if f == j]
            for x, xp, c in used:
                seqs[0].extend([x] * c)
                seqs[1].extend([xp] * c)
            rest = n_j - sum(c for _, _, c in used)
            seqs[0].extend([0] * rest)
            seqs[1].extend([0] * rest)
        return tuple(seqs[0]), tuple(seqs[1])


def normalize_factors(factors: Factors) -> list[tuple[Kernel, int]]:
    """Normalize ``[(K, n), ...]`` / ``[K, ...]`` into a list of (Kernel, multiplicity)."""
    if isinstance(factors, Kernel):
        factors = [factors]
    out = []
    for item in factors:
        K, n = (item, 1) if isinstance(item, Kernel) else item
        K = as_kernel(K)
        if K.symbolic:
            raise ParameterError("K: tensor powers are computed for rational (QQ) kernels; substitute values first")
        out.append((K, check_n(n)))
    if not out:
        raise ParameterError("factors: must contain at least one kernel")
    return out


def check_n(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ParameterError(f"n: must be a positive integer, got {n!r}")
    return n


def check_gamma(gamma: RationalInput) -> fmpq:
    g = to_qq(gamma, "gamma")
    if g < 1:
        raise ParameterError(f"gamma: must be >= 1 (gamma = e^eps), got {g}")
    return g


# -- cost estimates: checked before any polynomial power is formed ------------------------

COST_CAP = ESTIMATE_CAP  # exactdp.limits
#: cost units of one Python-level step per coefficient (object creation, dict/list entry): the unit of
#: ``max_work`` is about one machine-word operation of the big-integer arithmetic
PER_TERM = 400
_PER_TERM_MPOLY = 1_200
_PER_PAIR = 2_000  # per (row pair, output) when the row pairs of a kernel are classified (PairLoss.of)
_PER_DOMINANCE = 4_000  # per Blackwell comparison of two classes (about 20 us), plus 20 per (output)^2
_PER_BINOMIAL_TERM = 100  # per term of a binomial sum (the machine-size leaves of the binary splitting)


def rational_bits(v: fmpq | int) -> int:
    """Bits of the larger of numerator and denominator of a rational."""
    v = fmpq(v) if not isinstance(v, fmpq) else v
    return max(int(v.p).bit_length(), int(v.q).bit_length(), 1)


def _den_bits(values: Iterable[fmpq]) -> int:
    """Bits of the common denominator of ``values`` (what privacy_loss.int_masses builds)."""
    from math import lcm

    den = 1
    for v in values:
        den = lcm(den, int(v.q))
    return (den - 1).bit_length()  # ceil(log2(den)): the bits per factor of a power of den


@dataclass(frozen=True)
class TensorCost:
    """An up-front estimate of one exact pair-type search (or of a product of given multiplicities).

    ``terms``: merged type classes of one evaluation (distinct product ratios), at most the number of types
    ∏ C(k + L − 1, L − 1) and at most the lattice box ∏_v (Σ k·span_v + 1) of the D exponent coordinates;
    ``bits``: size of the integer masses of one evaluation (≈ n·log2 of the denominators, plus γ);
    ``evaluations``: compositions searched (all of them, halved at γ = 1; the branch and bound is charged
    up to twice the compositions, capped by ``max_evaluations``); ``work`` = evaluations × terms ×
    (limbs·log2(limbs) + a per-term constant), the unit of ``max_work``; ``memory`` ≈ four polynomials
    (P, Q and the temporaries of the power) of ``terms`` coefficients of ``bits`` bits, in bytes.
    """

    n: int
    rank: int
    terms: int
    bits: int
    evaluations: int
    work: int
    memory: int
    #: what ``terms`` counts (:func:`evaluation_unit`)
    unit: str = "type classes"

    def describe(self) -> str:
        return (f"{short_number(self.terms)} {self.unit} of {short_number(self.bits)}-bit integers per evaluation, "
                f"{short_number(self.evaluations)} evaluation{'s' if self.evaluations != 1 else ''}")


def short_number(x: int) -> str:
    return fmt_estimate(x, exact_below=10**7)


def evaluation_cost(losses: Sequence[PairLoss], counts: Sequence[int], extra_bits: int = 0,
                    binomial: bool = True) -> EvaluationCost:
    """(rank D, terms, bits, work, memory) of one E_γ evaluation of ``[(PairLoss, k), ...]`` — integer
    arithmetic on the sizes only (bit lengths and binomials of capped size; nothing of size k is built).

    With ``binomial`` an evaluation that :func:`_hockey_stick` sums as a binomial is estimated as such
    (:func:`_binomial_cost`); otherwise as the polynomial powers of :func:`product_loss`."""
    items = [(loss, k) for loss, k in zip(losses, counts) if k]
    if not items:
        return 0, 1, 1, 1, 1
    if binomial and (one := binomial_loss(items)) is not None:
        return _binomial_cost(*one, extra_bits)
    if binomial and (one := trinomial_loss(items)) is not None:
        return _trinomial_cost(*one, extra_bits)
    if binomial and (ranked := rank_one_product(items)) is not None:
        return rank_one_cost(ranked, extra_bits)
    if binomial and (four := quadrinomial_loss(items)) is not None:
        return _quadrinomial_cost(*four, extra_bits)
    if binomial and (mixed := binomial_trinomial_loss(items)) is not None:
        return _binomial_trinomial_cost(*mixed, extra_bits)
    if binomial and corner_route(items) is not None:  # a composition next to a corner: near_corner
        corner = _corner_cost(items, extra_bits)
        assert corner is not None  # corner_route found the split
        return corner
    return _type_class_cost(items, extra_bits)


def _type_class_cost(items: Sequence[tuple[PairLoss, int]], extra_bits: int) -> EvaluationCost:
    """(rank D, terms, bits, work, memory) of the type classes of :func:`product_loss` for the non-empty ``items``."""
    groups = [[r for r, _ in loss.classes] or [ONE] for loss, _ in items]
    keys, D = ratio_exponents(groups)
    types = 1
    for loss, k in items:
        types = min(types * binom_small(k, max(len(loss.classes), 1) - 1), COST_CAP)
    box = 1
    for v in range(D):
        span = 0
        for (loss, k), ks in zip(items, keys):
            col = [e[v] for e in ks]
            span += k * (max(col) - min(col)) if col else 0
        box = min(box * (span + 1), COST_CAP)
    terms = max(min(types, box), 1)
    bits = extra_bits + 1
    for loss, k in items:
        b = max(_den_bits([P for _, P in loss.classes] or [ONE]), _den_bits(loss.q_masses or (ONE,)))
        bits += k * b
    limbs = bits // 64 + 1
    per_term = limbs * limbs.bit_length() + (_PER_TERM_MPOLY if D >= 2 else PER_TERM)
    return D, terms, bits, min(terms * per_term, COST_CAP), min(4 * terms * (bits // 8 + 100), COST_CAP)


def _corner_cost(items: Sequence[tuple[PairLoss, int]], extra_bits: int) -> EvaluationCost | None:
    """(rank, terms, bits, work, memory) of :func:`~exactdp.measures.near_corner.near_corner_piece` — the type classes
    of the small side (their own cost) plus one streamed evaluation of the large side per class — or None where
    :func:`~exactdp.measures.near_corner.corner_split` does not apply.  The classes of the small side are counted
    from its sizes (a multinomial bound per loss, capped), nothing is built."""
    split = corner_split(items)
    if split is None:
        return None
    big, K, rest = split
    classes = 1
    for loss, k in rest:
        classes = min(classes * binom_small(k + max(len(loss.classes), 1) - 1, max(len(loss.classes), 1) - 1),
                      COST_CAP)
    small = _type_class_cost(rest, extra_bits)
    if len(big.classes) <= 2:
        one = _binomial_cost(big, K, extra_bits + small[2])
    elif len(big.classes) == 3:
        one = _trinomial_cost(big, K, extra_bits + small[2])
    else:
        one = _quadrinomial_cost(big, K, extra_bits + small[2])
    work = min(small[3] + classes * (one[3] + PER_TERM), COST_CAP)
    return one[0], min(classes * one[1], COST_CAP), one[2] + small[2], work, min(small[4] + one[4], COST_CAP)


def corner_route(items: Sequence[tuple[PairLoss, int]]) -> CornerSplit | None:
    """The split of :func:`~exactdp.measures.near_corner.corner_split` when its estimate is below that of the type
    classes (a composition next to a corner: k or n − k small), else None — the one decision that
    :func:`evaluation_cost` and the evaluations (:meth:`TensorSearch.piece`, :func:`_hockey_stick`) share."""
    nonzero = [(loss, k) for loss, k in items if k]
    if not nonzero:
        return None
    corner = _corner_cost(nonzero, 0)
    if corner is None or corner[3] >= _type_class_cost(nonzero, 0)[3]:
        return None
    return corner_split(nonzero)


#: what the terms of a rank-one evaluation count (:func:`~exactdp.measures.rank_one.rank_one_lookups`)
RANK_ONE_UNIT = "lookups (a band's weights times a tail of the last block)"


def evaluation_unit(losses: Sequence[PairLoss], counts: Sequence[int], binomial: bool = True) -> str:
    """What the terms of :func:`evaluation_cost` count for this product: the lookups of the rank-one route, otherwise
    type classes (the binomial and trinomial sums are charged by their terms as type classes)."""
    items = [(loss, k) for loss, k in zip(losses, counts) if k]
    if (binomial and items and binomial_loss(items) is None and trinomial_loss(items) is None
            and rank_one_product(items) is not None):
        return RANK_ONE_UNIT
    return "type classes"


def _binomial_cost(loss: PairLoss, k: int, extra_bits: int = 0) -> EvaluationCost:
    r"""(rank, terms, bits, work, memory) of :func:`~exactdp.measures.privacy_loss.binomial_hockey_stick`
    at multiplicity k.

    The binary splitting multiplies integers of up to k·(log2 k + b) bits (b = bits of the masses) in
    log2 k levels, and the result is one fraction of about 2k·b bits reduced by one gcd: work ≈
    2·s·log2(s)·log2(k) + 2·r·log2(r)² + 100·k in limbs s, r of those sizes (calibrated with benchmarks/bench_tensor.py); memory a few integers of the splitting size, not the k + 1 coefficients.
    """
    L = len(loss.classes)
    b = max(_den_bits([P for _, P in loss.classes] or [ONE]), _den_bits(loss.q_masses or (ONE,))) + 1
    bits = extra_bits + 1 + k * (b - 1)
    split = k * (k.bit_length() + b)
    result = 2 * k * b + extra_bits
    ls, lr = split // 64 + 1, result // 64 + 1
    work = 2 * ls * ls.bit_length() * k.bit_length() + 2 * lr * lr.bit_length() ** 2 + _PER_BINOMIAL_TERM * k
    memory = 8 * (max(split, result) // 8 + 100)
    return min(L, 1), (k + 1 if L == 2 else 1), bits, min(work, COST_CAP), min(memory, COST_CAP)


def _trinomial_cost(loss: PairLoss, k: int, extra_bits: int = 0) -> EvaluationCost:
    r"""(rank, terms, bits, work, memory) of :func:`~exactdp.measures.privacy_loss.trinomial_linear_piece` at
    multiplicity k: k + 1 slices, each a few fresh terms C(m, b) x^b y^{m−b} and two products of integers of
    about k·b bits (b = bits of the masses), plus a per-slice constant; memory a few such integers."""
    b = max(_den_bits([P for _, P in loss.classes]), _den_bits(loss.q_masses)) + 1
    bits = extra_bits + 1 + k * b
    limbs = bits // 64 + 1
    work = (k + 1) * (12 * limbs * limbs.bit_length() + 20 * PER_TERM)
    return 2, (k + 1) * (k + 2) // 2, bits, min(work, COST_CAP), min(16 * (bits // 8 + 100), COST_CAP)


def _quadrinomial_cost(loss: PairLoss, k: int, extra_bits: int = 0) -> EvaluationCost:
    """(rank, terms, bits, work, memory) of :func:`~exactdp.measures.quadrinomial.quadrinomial_linear_piece`."""
    terms, bits, work, memory = quadrinomial_cost(loss, k, extra_bits)
    return 3, terms, bits, min(work, COST_CAP), min(memory, COST_CAP)


def _binomial_trinomial_cost(two: PairLoss, K: int, three: PairLoss, N: int,
                             extra_bits: int = 0) -> tuple[int, int, int, int, int]:
    r"""(rank, terms, bits, work, memory) of :func:`~exactdp.measures.binomial_trinomial.binomial_trinomial_piece`:
    O(N²) type weights added into runs and O(N·min(N, K)) multiplications of integers of the product's size; memory
    the K + 2 binomial tails and two rows of N + 1 such integers."""
    b2 = max(_den_bits([P for _, P in two.classes]), _den_bits(two.q_masses)) + 1
    b3 = max(_den_bits([P for _, P in three.classes]), _den_bits(three.q_masses)) + 1
    bits = extra_bits + 1 + K * b2 + N * b3
    work = binomial_trinomial_cost(K, N, bits)
    memory = 4 * (K + N + 4) * (bits // 8 + 100)
    return 2, (N + 1) * (N + 2) // 2, bits, min(work, COST_CAP), min(memory, COST_CAP)


def tensor_search_cost(factors: Factors, gamma: RationalInput = ONE, *, max_evaluations: int = MAX_EVALUATIONS,
                       exhaustive_limit: int = EXHAUSTIVE_LIMIT, gamma_power: int = 1,
                       filtered: bool | None = None) -> TensorCost:
    r"""The estimate :func:`eta_hockey_stick_tensor_product_witness` checks against ``max_work`` and
    ``max_memory`` before it starts (see :class:`TensorCost`); cheap: sizes only.

    >>> from exactdp.mechanisms import randomized_response
    >>> c = tensor_search_cost([(randomized_response(2, 3), 1000)])
    >>> c.terms, c.evaluations
    (1001, 1)
    >>> tensor_search_cost([(randomized_response(2, 3), 10**12)]).work > 10**9
    True

    ``gamma_power`` = k estimates the search at γ^k without computing γ^k (``exactdp tensor`` evaluates
    δ_n at γ^n).  Where the search runs the certified filter (``filtered`` as in :class:`TensorSearch`) the
    estimate is the filter's plus two exact evaluations.
    """
    g = check_gamma(gamma)
    facs = normalize_factors(factors)
    classified = classify(facs)
    cost = search_cost(facs, g, classified, max_evaluations, exhaustive_limit, gamma_power)
    return _filtered_cost(g, classified, cost, gamma_power, filtered)


def _filter_plan(classified: Classified, g: fmpq, gamma_power: int, cost: TensorCost,
                 filtered: bool | None) -> Plan | None:
    """The certified filter's plan (:func:`exactdp.measures.composition_filter.plan`) when one applies and is
    wanted: always with ``filtered=True``; by default (None) when its estimate plus two exact evaluations is
    below the exact search's estimate ``cost``; never with False."""
    classes, groups, totals, _ = classified
    if filtered is False or not classes or _composition_count(groups, totals) < 3:
        return None
    # the γ the search runs at (γ^k for an estimate at gamma_power = k), where forming it is cheap: a routine meant
    # for some γ only (the deep tail) is chosen by it
    at = g ** gamma_power if gamma_power == 1 or gamma_power * rational_bits(g) <= 2**20 else None
    planned = composition_filter.plan([c.loss for c in classes], groups, totals, at)
    if planned is None:
        return None
    if filtered is None and planned.work + 2 * _worst_evaluation(classes, groups, totals, g, gamma_power)[3] >= cost.work:
        return None  # the exact search is estimated cheaper (small n)
    return planned


def _filtered_cost(g: fmpq, classified: Classified, cost: TensorCost, gamma_power: int,
                   filtered: bool | None) -> TensorCost:
    """``cost``, or where the certified filter runs the estimate of the filtered search: the filter plus two
    exact evaluations (the candidates are charged again, each at its own estimate, once they are known)."""
    planned = _filter_plan(classified, g, gamma_power, cost, filtered)
    if planned is None:
        return cost
    classes, groups, totals, classify_work = classified
    D, terms, bits, per_eval, memory = _worst_evaluation(classes, groups, totals, g, gamma_power)
    return TensorCost(cost.n, D, terms, bits, 2, min(classify_work + planned.work + 2 * per_eval, COST_CAP),
                      max(memory, planned.memory))


def search_cost(facs: Sequence[tuple[Kernel, int]], g: fmpq, classified: Classified, max_evaluations: int,
                exhaustive_limit: int, gamma_power: int = 1) -> TensorCost:
    classes, groups, totals, classify_work = classified
    n = sum(n_j for _, n_j in facs)
    if not classes:
        return TensorCost(n, 0, 1, 1, 0, classify_work, 0)
    count = _composition_count(groups, totals)
    if count <= exhaustive_limit:
        evaluations = count
        if g == 1 and reversal(classes) is not None:
            evaluations = count // 2 + 1
    else:
        evaluations = min(2 * count, max_evaluations + 1)
    D, terms, bits, per_eval, memory = _worst_evaluation(classes, groups, totals, g, gamma_power)
    unit = "type classes"
    if all(len(members) == 1 for members in groups):  # one composition: name what its evaluation counts
        counts = [0] * len(classes)
        for (i,), k in zip(groups, totals):
            counts[i] = k
        unit = evaluation_unit([c.loss for c in classes], counts)
    return TensorCost(n, D, terms, bits, evaluations, min(classify_work + evaluations * per_eval, COST_CAP), memory,
                      unit)


def _worst_evaluation(classes: Sequence[PairClass], groups: Groups, totals: Totals, g: fmpq,
                      gamma_power: int) -> EvaluationCost:
    """(rank, terms, bits, work, memory) of the most expensive evaluation: every coordinate of a factor in its
    costliest class (a corner); with one class per factor that is the only evaluation and may be a binomial
    sum, otherwise the interior compositions are type-class products and the corner is estimated as one."""
    binomial = all(len(members) == 1 for members in groups)
    worst: EvaluationCost | None = None
    for choice in itertools.islice(itertools.product(*groups), 64):
        counts = [0] * len(classes)
        for gi, i in enumerate(choice):
            counts[i] = totals[gi]
        est = evaluation_cost([c.loss for c in classes], counts, min(gamma_power * rational_bits(g), COST_CAP), binomial)
        worst = est if worst is None or est[3] > worst[3] else worst
    assert worst is not None  # itertools.product of non-empty groups yields at least one choice
    return worst


def power_cost(base: RationalInput, n: int) -> TensorCost:
    """The estimate of an exact rational power ``base**n`` (bits = n · bits of base; work ≈ limbs·log2(limbs))."""
    b = to_qq(base)
    bits = 1 if b in (ZERO, ONE) else min(n * rational_bits(b), COST_CAP)
    limbs = bits // 64 + 1
    return TensorCost(n, 0, 1, bits, 1, min(limbs * limbs.bit_length(), COST_CAP), min(4 * (bits // 8 + 100), COST_CAP))


def require_cost(cost: TensorCost, what: str) -> None:
    require("max_work", cost.work, f"{what}: {cost.describe()}")
    require("max_memory", cost.memory, f"{what}: {cost.describe()}")


def require_enumeration(K: Kernel, n: int, classes: Sequence[PairClass], count: int, what: str, classify_work: int = 0,
                         binomial: bool = False) -> None:
    """Guard a loop that evaluates every one of ``count`` compositions of n (profiles, irrational e^ε);
    ``binomial``: the loop sums one class as a binomial (:func:`_binomial_cost`)."""
    losses = [c.loss for c in classes]
    worst = max((evaluation_cost(losses, [n if i == j else 0 for i in range(len(classes))], binomial=binomial)
                 for j in range(len(classes))), key=lambda e: e[3])
    _, terms, bits, per_eval, memory = worst
    cost = TensorCost(n, worst[0], terms, bits, count, min(classify_work + count * per_eval, COST_CAP), memory)
    require_cost(cost, f"{what}: n = {short_number(n)} for a {K.N}x{K.M} kernel")


def shape_text(facs: Iterable[tuple[Kernel, int]]) -> str:
    """``n = 10000 for a 2x3 kernel`` / ``n = 3, 1 for a 2x2 kernel, a 3x3 kernel``, for messages."""
    ns = ", ".join(short_number(n) for _, n in facs)
    return f"n = {ns} for " + ", ".join(f"a {K.N}x{K.M} kernel" for K, _ in facs)


def classify(facs: Iterable[tuple[Kernel, int]]) -> Classified:
    """``(classes, groups, totals, work)`` of the factors: the pair classes of every factor, the class
    indices of each factor that has any, its multiplicity, and the work units the classification took."""
    classes: list[PairClass] = []
    groups: list[list[int]] = []
    totals: list[int] = []
    work = 0
    for j, (K, n_j) in enumerate(facs):
        cls, w = _pair_classes(K, j, True)
        work += w
        if cls:
            groups.append(list(range(len(classes), len(classes) + len(cls))))
            totals.append(n_j)
            classes.extend(cls)
    return classes, groups, totals, work


def binom_small(k: int, r: int) -> int:
    """C(k + r, r), capped (r small: a product of r factors; astronomically large k is capped)."""
    if r == 0:
        return 1
    if r > 64 or k.bit_length() > 4000:
        return COST_CAP
    return min(comb(k + r, r), COST_CAP)


def _composition_count(groups: Groups, totals: Totals) -> int:
    count = 1
    for members, n_g in zip(groups, totals):
        count = min(count * binom_small(n_g, len(members) - 1), COST_CAP)
    return count


def pair_classes(K: KernelInput, factor: int = 0, *, prune_dominated: bool = True) -> list[PairClass]:
    """The distinct privacy-loss classes of ordered row pairs of K with K_x ≠ K_{x'}.

    With ``prune_dominated`` a class that is a Blackwell garbling of another is dropped (fact 2 of the
    module docstring); the survivors are an antichain.  Both steps are checked against ``max_work`` before
    they start (N(N−1)·M for the classification, classes² comparisons for the pruning).
    """
    return _pair_classes(as_kernel(K), factor, prune_dominated)[0]


def _classification_work(K: Kernel) -> int:
    return K.N * (K.N - 1) * K.M * _PER_PAIR


def _pruning_work(K: Kernel, count: int) -> int:
    return count * count * (_PER_DOMINANCE + 20 * K.M * K.M)


def _pair_classes(K: Kernel, factor: int, prune_dominated: bool) -> tuple[list[PairClass], int]:
    """``(classes, work)``: the classes of :func:`pair_classes` and the work units spent on them."""
    work = _classification_work(K)
    require("max_work", work, f"pair_classes: the {K.N * (K.N - 1)} ordered row pairs of a {K.N}x{K.M} kernel")
    seen: dict[PairLoss, PairClass] = {}
    for x, xp in itertools.permutations(range(K.N), 2):
        if K[x] != K[xp]:
            loss = PairLoss.of(K[x], K[xp])
            seen.setdefault(loss, PairClass(loss, x, xp, factor))
    classes = list(seen.values())
    if prune_dominated:
        prune = _pruning_work(K, len(classes))
        require("max_work", work + prune,
                f"pair_classes: Blackwell comparisons of {len(classes)} loss classes of a {K.N}x{K.M} kernel")
        work += prune
        classes = [c for c in classes
                   if not any(d is not c and d.loss.dominates(c.loss) for d in classes)]
    return classes, work


def _tighten(lo: Sequence[int], hi: Sequence[int], groups: Groups, totals: Totals) -> Box | None:
    """Shrink a box to its intersection with {Σ_{i∈g} k_i = n_g}; None if empty."""
    lo, hi = list(lo), list(hi)
    changed = True
    while changed:
        changed = False
        for g, members in enumerate(groups):
            slo, shi = sum(lo[i] for i in members), sum(hi[i] for i in members)
            if slo > totals[g] or shi < totals[g]:
                return None
            for i in members:
                new_hi = min(hi[i], totals[g] - (slo - lo[i]))
                new_lo = max(lo[i], totals[g] - (shi - hi[i]))
                if (new_lo, new_hi) != (lo[i], hi[i]):
                    lo[i], hi[i], changed = new_lo, new_hi, True
                    slo, shi = sum(lo[k] for k in members), sum(hi[k] for k in members)
    return tuple(lo), tuple(hi)


def reversal(classes: list[PairClass]) -> list[int] | None:
    """``rev[i]`` = the index of the class of the swapped pairs (x', x), or None if one is missing."""
    index = {(c.factor, c.loss): i for i, c in enumerate(classes)}
    rev = [index.get((c.factor, c.loss.reverse())) for c in classes]
    found = [i for i in rev if i is not None]
    return found if len(found) == len(rev) else None


def all_compositions(groups: Groups, totals: Totals, size: int) -> Iterator[Counts]:
    """Every composition of every n_g over its group's classes, as class-count tuples, in a fixed order."""
    for parts in itertools.product(*(pair_compositions(n_g, len(m)) for m, n_g in zip(groups, totals))):
        counts = [0] * size
        for members, part in zip(groups, parts):
            for i, k in zip(members, part):
                counts[i] = k
        yield tuple(counts)


def _exhaustive(value: Evaluate, groups: Groups, totals: Totals, size: int) -> tuple[fmpq, Counts]:
    """Every composition of every n_g over its group's classes, evaluated exactly."""
    best, best_counts = None, None
    for counts in all_compositions(groups, totals, size):
        v = value(counts)
        if best is None or v > best:
            best, best_counts = v, counts
    assert best is not None and best_counts is not None  # every n_g has at least one composition
    return best, best_counts


def _best_of(value: Evaluate, candidates: Iterable[Counts]) -> tuple[fmpq, Counts]:
    """The first maximum of ``value`` over ``candidates`` (in the order given)."""
    best, best_counts = None, None
    for counts in candidates:
        v = value(counts)
        if best is None or v > best:
            best, best_counts = v, counts
    assert best is not None and best_counts is not None, "no candidates"
    return best, best_counts


def _branch_and_bound(value: Evaluate, groups: Groups, totals: Totals, size: int) -> tuple[fmpq, Counts]:
    """Best-first branch and bound over boxes of class counts; the bound of a box is E_γ at its top
    corner ``hi`` (data processing: every composition in the box is ≤ hi coordinate-wise)."""
    best, best_counts = None, None
    for choice in itertools.product(*groups):  # seeds: the corners (a factor's coordinates in one class)
        counts = [0] * size
        for gi, i in enumerate(choice):
            counts[i] = totals[gi]
        v = value(tuple(counts))
        if best is None or v > best:
            best, best_counts = v, tuple(counts)
    root = _tighten((0,) * size, tuple(totals[gi] for gi, m in enumerate(groups) for _ in m), groups, totals)
    assert root is not None and best is not None and best_counts is not None  # the whole box holds the corners
    heap = [(-value(root[1]), 0, root)]
    tick = 1
    while heap:
        neg_ub, _, (lo, hi) = heapq.heappop(heap)
        if -neg_ub <= best:
            break
        if lo == hi:  # a leaf: its bound is its exact value
            best, best_counts = -neg_ub, hi
            continue
        i = max(range(size), key=lambda k: hi[k] - lo[k])
        mid = (lo[i] + hi[i]) // 2
        for a, b in ((lo[i], mid), (mid + 1, hi[i])):
            box = _tighten(lo[:i] + (a,) + lo[i + 1:], hi[:i] + (b,) + hi[i + 1:], groups, totals)
            if box is None:
                continue
            ub = value(box[1])
            if box[0] == box[1] and ub > best:
                best, best_counts = ub, box[1]
            elif ub > best:
                heapq.heappush(heap, (-ub, tick, box))
                tick += 1
    return best, best_counts


def eta_hockey_stick_tensor_product_witness(factors: Factors, gamma: RationalInput, *,
                                            max_evaluations: int = MAX_EVALUATIONS,
                                            exhaustive_limit: int = EXHAUSTIVE_LIMIT, executor: Executor | None = None,
                                            filtered: bool | None = None) -> TensorWitness:
    r"""η_{E_γ}(K₁^{⊗n₁} ⊗ … ⊗ K_m^{⊗n_m}) with a maximizing pair type, by exact branch and bound.

    Args:
        factors: ``[(K_1, n_1), ..., (K_m, n_m)]`` (a bare Kernel counts once).
        gamma: γ ≥ 1, exact rational.
        max_evaluations: cap on exact E_γ evaluations; exceeding it raises (no partial answers).
        exhaustive_limit: up to this many compositions every one is evaluated; beyond, branch and bound.
        executor: optional process pool or ``distributed.Client`` for the exhaustive phase (see TensorSearch).
        filtered: the certified filter first where it applies and pays (None), always (True), never (False).
    Raises:
        ParameterError: γ < 1, n < 1, a symbolic kernel, or the search exceeded ``max_evaluations``.
    """
    return TensorSearch(factors, max_evaluations=max_evaluations, exhaustive_limit=exhaustive_limit,
                        executor=executor, filtered=filtered).witness(gamma)


def _hockey_stick_chunk(classes: Sequence[PairClass], chunk: Iterable[Counts], g: fmpq) -> list[fmpq]:
    """E_γ of every composition of ``chunk`` (run by an executor's worker: pure, picklable arguments)."""
    return [hockey_stick_product_losses([(c.loss, k) for c, k in zip(classes, counts)], g) for counts in chunk]


class TensorSearch:
    r"""The pair-type search of one product ``[(K_j, n_j)]``, reusable at several γ.

    The pair classes are computed once; the type classes of every composition evaluated by the polynomial
    route (:class:`~exactdp.measures.privacy_loss.ProductLoss`, independent of γ) are kept up to
    ``keep_bytes`` of coefficients, so a second γ re-reads them (one bisection over the classes) instead of
    forming the powers again — the profile inversions of :mod:`exactdp.measures.profile_inversion` evaluate
    the same compositions at a few nearby γ.  Every call of :meth:`witness` runs the cost guard first.
    """

    def __init__(self, factors: Factors, *, max_evaluations: int = MAX_EVALUATIONS,
                 exhaustive_limit: int = EXHAUSTIVE_LIMIT, keep_bytes: int = 256 * 2**20,
                 executor: Executor | None = None, filtered: bool | None = None):
        """``executor``: optional, anything with ``submit(fn, *args)`` returning futures (a process pool, a
        ``distributed.Client``; :func:`exactdp.verification.conjecture.runner.open_executor` makes one from
        a scheduler address).  It evaluates the compositions of the exhaustive phase in chunks; the cache
        it fills holds the same exact values, so the witness is identical to the in-process search.

        ``filtered``: run the certified filter of :mod:`exactdp.measures.composition_filter` first where a
        routine applies (two pair classes with two ratio classes each) and, by default (None), its estimate
        is below the exact search's; it evaluates exactly only the compositions it cannot rule out.  True:
        whenever a routine applies; False: never (the unfiltered exact search; same value)."""
        self.executor = executor
        self.filtered = filtered
        self.facs = normalize_factors(factors)
        self.classified = classify(self.facs)
        self.max_evaluations, self.exhaustive_limit = max_evaluations, exhaustive_limit
        self.keep_bytes, self._kept_bytes = keep_bytes, 0
        self._losses: dict[Counts, ProductLoss] = {}  # counts -> ProductLoss (γ-independent)
        self._pieces: dict[tuple[tuple[int, ...], fmpq], tuple[fmpq, fmpq]] = {}  # (counts, γ) -> (A, B) of the streamed two-ratio × three-ratio route, the last few
        self.evaluations = 0  # exact E_γ evaluations over all calls

    @property
    def classes(self) -> list[PairClass]:
        return self.classified[0]

    def _product(self, counts: Counts) -> ProductLoss:
        """The γ-independent type classes of one composition (kept while within ``keep_bytes``)."""
        loss = self._losses.get(counts)
        if loss is None:
            loss = product_loss([(c.loss, k) for c, k in zip(self.classes, counts)])
            size = len(loss.P) * (int(loss.DP).bit_length() + int(loss.DQ).bit_length()) // 8 + 200
            if self._kept_bytes + size <= self.keep_bytes:
                self._losses[counts] = loss
                self._kept_bytes += size
        return loss

    def composition(self, counts: Counts) -> tuple[tuple[int, int, int, int], ...]:
        """``(factor, x, x', count)`` of the class counts ``counts`` (as in :class:`TensorWitness`)."""
        return tuple((c.factor, c.x, c.x_prime, k) for c, k in zip(self.classes, counts) if k)

    def hockey_stick(self, counts: Counts, g: fmpq) -> fmpq:
        """E_γ of one composition (binomial sum for one class with two ratios, streamed rows for a two-ratio loss
        times a three-ratio loss, else its type classes)."""
        items = [(c.loss, k) for c, k in zip(self.classes, counts)]
        if (rank_one_product(items) is not None or binomial_trinomial_loss(items) is not None
                or quadrinomial_loss(items) is not None or corner_route(items) is not None):
            A, B = self.piece(counts, g)
            return A - g * B
        return hockey_stick_product_losses([(c.loss, k) for c, k in zip(self.classes, counts)], g,
                                           lambda _: self._product(counts))

    def piece(self, counts: Counts, g: fmpq) -> tuple[fmpq, fmpq]:
        r"""``(A, B)``: E_γ' = A − γ'B of the composition ``counts`` on the linear piece just right of γ
        (the classes with ratio > γ; a supporting line of the convex profile at γ)."""
        items = [(c.loss, k) for c, k in zip(self.classes, counts)]
        single = binomial_loss(items)
        if single is not None:
            return binomial_linear_piece(single[0], single[1], lambda r: g < r)
        tri = trinomial_loss(items)
        if tri is not None:
            return trinomial_linear_piece(tri[0], tri[1], g)
        ranked = rank_one_product(items)
        if ranked is not None:  # rank-one losses: exponent sums (their blocks' weights kept by rank_one)
            return rank_one_piece(ranked, g)
        four = quadrinomial_loss(items)
        if four is not None:  # one loss of four ratio classes: conditioned on one class's count, streamed slices
            return quadrinomial_linear_piece(four[0], four[1], g)
        mixed = binomial_trinomial_loss(items)
        if mixed is not None:  # streamed rows, the last few kept (an inversion reads a piece again at γ*)
            key = (tuple(counts), g)
            if key not in self._pieces:
                if len(self._pieces) >= 8:
                    self._pieces.pop(next(iter(self._pieces)))
                A, B = binomial_trinomial_piece(*mixed, g)
                self._pieces[key] = (fmpq(A), fmpq(B))
            return self._pieces[key]
        corner = corner_route(items)
        if corner is not None:  # next to a corner: one streamed evaluation per class of the small side
            return near_corner_piece(*corner, g)
        loss = self._product(counts)
        a, b = fmpz(g.q) * loss.DQ, fmpz(g.p) * loss.DP
        return loss.linear_piece(lambda Pc, Qc: Pc * a > Qc * b)

    def gamma_for(self, counts: Counts, delta: fmpq, start: fmpq = ZERO) -> fmpq | None:
        """The least γ ≥ 0 with E_γ(composition) ≤ δ, exactly (None: never — its P-only mass exceeds δ).

        ``start``: a trial γ for the Newton iteration of a three-ratio composition (any rational; it is used only
        when E_start > δ holds exactly, i.e. it lies left of the root, where the iteration from it converges to
        the root as from 0 — a start near the root saves most of the steps)."""
        items = [(c.loss, k) for c, k in zip(self.classes, counts)]
        single = binomial_loss(items)
        if single is not None:
            return binomial_gamma_for(single[0], single[1], delta)
        tri = trinomial_loss(items)
        ranked = rank_one_product(items)
        if ranked is not None:  # Newton from the left, started near the root, exactly left of it (floats choose it)
            return newton_from_left(ranked.p_inf, delta, lambda x: self.piece(counts, x),
                                    max(start, rank_one_root_start(ranked, delta)), MAX_EVALUATIONS)
        mixed = binomial_trinomial_loss(items)
        if mixed is not None:  # Newton from the left on the pieces (products of different kernels)
            return binomial_trinomial_gamma_for(*mixed, delta, start, MAX_EVALUATIONS,
                                                piece=lambda x: self.piece(counts, x))
        if tri is not None:  # Newton from the left on this composition's own pieces (exact, finite)
            floor = ONE - (ONE - tri[0].p_only) ** tri[1]
            return newton_from_left(floor, delta, lambda x: trinomial_linear_piece(tri[0], tri[1], x), start,
                                    MAX_EVALUATIONS, jump=lambda: trinomial_root_start(tri[0], tri[1], delta))
        four = quadrinomial_loss(items)
        if four is not None:  # the same on the conditioned pieces, the jump from a float model and a tangent step
            floor = ONE - (ONE - four[0].p_only) ** four[1]  # (the pieces are kept: the start's is Newton's next)
            return newton_from_left(floor, delta, lambda x: quadrinomial_linear_piece(four[0], four[1], x), start,
                                    MAX_EVALUATIONS, jump=lambda: quadrinomial_root_start(four[0], four[1], delta),
                                    patience=2)
        corner = corner_route(items)
        if corner is not None:  # next to a corner: Newton from the left on the summed streamed pieces
            return near_corner_gamma_for(*corner, delta, start, MAX_EVALUATIONS)
        return self._product(counts).gamma_for(delta)

    def witness(self, gamma: RationalInput, *, gamma_power: int = 1) -> TensorWitness:
        """The exact maximum over the compositions at γ, with a maximizing composition (cost guard first)."""
        g = check_gamma(gamma)
        cost = search_cost(self.facs, g, self.classified, self.max_evaluations, self.exhaustive_limit, gamma_power)
        classes, groups, totals, _ = self.classified
        self._filter_note = ""  # set by _select when the filter ran and could not narrow the search
        selection = self._select(g, gamma_power, cost) if self.filtered is not False and classes else None
        if selection is None:
            require_cost(cost, f"tensor: {shape_text(self.facs)}{self._filter_note}")
        if not classes:  # every factor has identical rows: all products of rows coincide
            return TensorWitness(ZERO, (), 0, 0)
        cache: dict[Counts, fmpq] = {}
        # TV is symmetric: swapping the two input sequences maps every class to its reverse (q, p) and
        # keeps E_1, so at γ = 1 a composition and its reverse share one evaluation (when the class set is
        # closed under reversal, as it is for all ordered pairs of a kernel: garbling commutes with the swap)
        rev = reversal(classes) if g == 1 else None

        def value(counts: Counts) -> fmpq:
            if rev is not None:
                counts = min(counts, tuple(counts[rev[i]] for i in range(len(counts))))
            if counts not in cache:
                if len(cache) >= self.max_evaluations:
                    raise ParameterError(
                        f"max_evaluations: the exact pair-type search over {len(classes)} classes needed more "
                        f"than {self.max_evaluations} E_gamma evaluations; raise max_evaluations or lower n")
                cache[counts] = self.hockey_stick(counts, g)
            return cache[counts]

        count = _composition_count(groups, totals)
        if selection is not None:  # the first maximizer in enumeration order, as the exhaustive search finds
            known = selection.known
            best, best_counts = _best_of(lambda c: known[c] if c in known else value(c), selection.candidates)
        elif count <= self.exhaustive_limit:
            if self.executor is not None:
                self._prefill(cache, rev, g, groups, totals)
            best, best_counts = _exhaustive(value, groups, totals, len(classes))
        else:
            best, best_counts = _branch_and_bound(value, groups, totals, len(classes))
        self.evaluations += len(cache)
        composition = self.composition(best_counts)
        return TensorWitness(best, composition, len(classes), len(cache), best_counts,
                             selection.discarded if selection is not None else 0)

    def _select(self, g: fmpq, gamma_power: int, cost: TensorCost) -> Selection | None:
        """The certified filter's candidates (:func:`exactdp.measures.composition_filter.select`, its own
        estimate charged first), then the exact evaluation of every candidate charged before it starts;
        None where no routine applies or too many candidates survive (the caller runs the exact search)."""
        classes, groups, totals, classify_work = self.classified
        planned = _filter_plan(self.classified, g, gamma_power, cost, self.filtered)
        if planned is None:
            return None
        what = f"tensor: {shape_text(self.facs)}"
        selection = composition_filter.select(planned.losses, groups, totals, g, what, planned=planned)
        if selection is None:  # e.g. every E_γ below the float range of the bounds (δ_n((3/2)^n), n = 10⁴)
            self._filter_note = (f", exact search (the certified filter, {planned.routine.name}, ran and left more "
                                 f"than {composition_filter.MAX_CANDIDATES} candidates, or stopped at max_work with "
                                 "compositions open)")
            return None
        n = sum(n_j for _, n_j in self.facs)
        exact = len(selection.candidates) - len(selection.known)
        # each candidate at its own estimate: a homogeneous one is streamed (binomial / trinomial slices), not
        # charged as the type classes of a mixed composition
        each = [evaluation_cost([c.loss for c in classes], counts, min(gamma_power * rational_bits(g), COST_CAP))
                for counts in selection.candidates if counts not in selection.known] or [(0, 1, 1, 0, 1)]
        D, terms, bits, _, memory = max(each, key=lambda e: e[3])
        require_cost(TensorCost(n, D, terms, bits, exact, min(classify_work + selection.work + sum(e[3] for e in each),
                                                                COST_CAP), memory), f"{what} (filtered)")
        return selection


    def _prefill(self, cache: dict[Counts, fmpq], rev: Sequence[int] | None, g: fmpq, groups: Groups,
                 totals: Totals) -> None:
        """Evaluate the distinct compositions on ``self.executor`` in chunks, results in submission order.
        Beyond ``max_evaluations`` nothing is sent: the in-process search then raises at the same point."""
        todo = list(dict.fromkeys(
            min(c, tuple(c[rev[i]] for i in range(len(c)))) if rev is not None else c
            for c in all_compositions(groups, totals, len(self.classes))))
        if len(todo) > self.max_evaluations:
            return
        chunk = max(1, -(-len(todo) // 64))
        parts = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
        assert self.executor is not None  # called only with an executor
        futures = [self.executor.submit(_hockey_stick_chunk, self.classes, part, g) for part in parts]
        for part, fut in zip(parts, futures):
            cache.update(zip(part, fut.result()))


def pair_compositions(n: int, parts: int) -> Iterator[Counts]:
    """All ordered compositions of n into ``parts`` non-negative integers."""
    for cuts in itertools.combinations(range(n + parts - 1), parts - 1):
        bounds = (-1, *cuts, n + parts - 1)
        yield tuple(bounds[k + 1] - bounds[k] - 1 for k in range(parts))


def hockey_stick_product(factors: Iterable[tuple[object, object, int]], gamma: RationalInput) -> fmpq:
    r"""E_γ(⊗_j p_j^{⊗k_j} ‖ ⊗_j q_j^{⊗k_j}) for ``factors = [(p_j, q_j, k_j), ...]``, γ ≥ 0 exact.

    The product distributions are never built: type classes of the privacy-loss distributions
    (:mod:`exactdp.measures.privacy_loss`).  E₁ is the TV distance of the products.

    >>> hockey_stick_product([(["3/4", "1/4"], ["1/4", "3/4"], 2)], 1)
    1/2
    """
    g, losses = product_pair_losses(factors, gamma)
    D, terms, bits, work, memory = evaluation_cost([lo for lo, _ in losses], [k for _, k in losses], rational_bits(g))
    cost = TensorCost(sum(k for _, k in losses), D, terms, bits, 1, work, memory)
    require_cost(cost, f"hockey_stick_product: multiplicities {', '.join(short_number(k) for *_, k in factors)}")
    return _hockey_stick(losses, g)


def product_pair_losses(factors: Iterable[tuple[object, object, int]],
                        gamma: RationalInput) -> tuple[fmpq, list[tuple[PairLoss, int]]]:
    """``(γ, [(PairLoss_j, k_j), ...])`` of ``factors = [(p_j, q_j, k_j), ...]``, validated (γ ≥ 0 exact)."""
    g = to_qq(gamma, "gamma")
    if g < 0:
        raise ParameterError(f"gamma: must be >= 0, got {g}")
    losses: list[tuple[PairLoss, int]] = []
    for j, item in enumerate(factors):
        if len(item) != 3:
            raise ParameterError(f"factors[{j}]: expected (p, q, multiplicity), got {item!r}")
        p, q, k = item
        p, q = as_distribution(p, "p"), as_distribution(q, "q")
        if len(p) != len(q):
            raise ShapeError(f"factors[{j}]: p has {len(p)} entries but q has {len(q)}")
        if p.symbolic or q.symbolic:
            raise ParameterError(f"factors[{j}]: products are computed for rational distributions only")
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise ParameterError(f"factors[{j}]: multiplicity must be an integer >= 0, got {k!r}")
        losses.append((PairLoss.of(p.probs, q.probs), k))
    return g, losses


def _hockey_stick(items: Sequence[tuple[PairLoss, int]], gamma: fmpq) -> fmpq:
    r"""E_γ of the product ``[(PairLoss, k), ...]``: one loss with at most two ratio classes (randomized
    response, every row pair of a 2×M kernel with two distinct ratios) as a binomial sum by binary splitting
    (:func:`~exactdp.measures.privacy_loss.binomial_hockey_stick`, quasi-linear in n), everything else by
    the type classes of :func:`~exactdp.measures.privacy_loss.product_loss`.  Both exact and equal."""
    single = binomial_loss(items)
    if single is not None:
        return binomial_hockey_stick(single[0], single[1], gamma)
    tri = trinomial_loss(items)
    if tri is not None:  # one loss with three ratio classes: streamed slices, O(n) memory
        A, B = trinomial_linear_piece(tri[0], tri[1], gamma)
        return A - gamma * B
    ranked = rank_one_product(items)
    if ranked is not None:  # losses of one ratio progression each: exponent sums
        A, B = rank_one_piece(ranked, gamma)
        return A - gamma * B
    four = quadrinomial_loss(items)
    if four is not None:  # one loss of four ratio classes: conditioned on one class's count, streamed slices
        A, B = quadrinomial_linear_piece(four[0], four[1], gamma)
        return A - gamma * B
    mixed = binomial_trinomial_loss(items)
    if mixed is not None:  # a two-ratio loss times a three-ratio loss: streamed rows
        A, B = binomial_trinomial_piece(*mixed, gamma)
        return A - gamma * B
    corner = corner_route(items)
    if corner is not None:  # next to a corner: one streamed evaluation per class of the small side
        A, B = near_corner_piece(*corner, gamma)
        return A - gamma * B
    return product_loss(items).hockey_stick(gamma)
