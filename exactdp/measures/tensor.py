r"""n-fold products of kernels, exactly, without building them ([A] §III A-8, B-9, B-10; docs/claims.md D-7).

η_{E_γ}(K₁^{⊗n₁} ⊗ … ⊗ K_m^{⊗n_m}) = max over pairs of input sequences of E_γ between the product rows
(two-point formula B-2).  Three facts make this polynomial in n:

1. **Equal coordinates drop out.**  E_γ(P⊗R ‖ Q⊗R) = Σ_z R(z) Σ_y (P(y) − γQ(y))_+ = E_γ(P‖Q) for
   every γ, so only the coordinates where x_i ≠ x'_i matter, and there only the *pair class* of
   (K_{x_i}, K_{x'_i}) — its privacy-loss distribution (:class:`~exactdp.measures.privacy_loss.PairLoss`);
   row pairs with equal loss distributions (e.g. (x, x') and (x', x) of a symmetric kernel) are one class.
2. **More differing coordinates never hurt.**  Dropping a coordinate is post-processing, so by data
   processing E_γ is non-decreasing in each class count; the maximum is over *compositions* of each n_j
   over the classes of K_j (every coordinate differing), and a class that is a Blackwell garbling of
   another (:meth:`PairLoss.dominates`) can be dropped.
3. **Type classes.**  For one composition, E_γ of the product is a sum over merged type classes
   (:func:`~exactdp.measures.privacy_loss.product_loss`), O(n^D) terms (D = rank of the ratio lattice;
   D = 1 for randomized response).  One class with at most two ratios (randomized response, every row
   pair on two outputs) is summed as two binomial tails by binary splitting instead
   (:func:`~exactdp.measures.privacy_loss.binomial_hockey_stick`, quasi-linear in n).  Two losses whose
   ratios each lie on one progression r_min·ρ^m (RR, k-RR, unary encodings: products of different kernels) are
   summed over their exponent sums (:mod:`exactdp.measures.rank_one`, O(n) classes per block).

The compositions (C(n + C − 1, C − 1) of them for C classes) are evaluated one by one up to
``exhaustive_limit``, beyond that by an exact branch and bound: a box lo ≤ k ≤ hi of class counts is
bounded above by the exact E_γ at the (infeasible, larger) count vector hi — valid by fact 2 — and
discarded when that bound does not exceed the best exact value found.  At γ = 1 a composition and its
reverse (both input sequences swapped: every class replaced by its reverse) have the same TV and share
one evaluation.
Two pair classes with two ratio classes each (every asymmetric kernel with two rows on two outputs) are
first passed through a certified filter (:mod:`exactdp.measures.composition_filter`): float64 enclosures
with rigorously bounded rounding of E_γ of every composition, converted to exact rationals, rule out every
composition whose upper bound is below the greatest lower bound; only the few candidates left are evaluated
exactly (the first maximizer in enumeration order, as the exhaustive search returns).
A kernel whose row pairs fall into one class (randomized response, every symmetric catalogue kernel)
needs one evaluation.  The search is complete: the returned value is the exact maximum, with a
maximizing composition as witness.  Cost: one polynomial power per evaluated box; the number of boxes
is reported (``TensorWitness.evaluations``) and capped by ``max_evaluations``.

The search itself (:class:`~exactdp.measures.tensor_search.TensorSearch`, its cost estimates and argument
checks) lives in :mod:`exactdp.measures.tensor_search`, below this module and below the enclosure
(:mod:`exactdp.measures.tensor_enclosure`) and inversion (:mod:`exactdp.measures.profile_inversion`) layers
that this module's public functions call.

γ = e^ε ≥ 1 throughout (privacy is parametrized by γ); δ_n(γ) = η_{E_γ}(K^{⊗n}) is the exact privacy
profile of the n-fold composition ([A] Thm 1, A-6).
"""

from __future__ import annotations

from typing import Literal, Unpack, overload

import sympy
from flint import fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.kernels import KernelInput, as_kernel
from exactdp.measures.privacy import PrivacyProfile, profile_from_lines
from exactdp.measures.privacy_loss import binomial_linear_piece, binomial_loss, product_loss
from exactdp.measures.profile_inversion import delta_tensor_power_eps_search
from exactdp.measures.tensor_enclosure import (  # re-exported: delta_tensor_power_batch is public
    TensorEnclosure,
    delta_tensor_power_batch as delta_tensor_power_batch,
    delta_tensor_power_enclosure,
)
from exactdp.measures.tensor_search import (  # re-exported (``X as X``): the public API of this module
    EXHAUSTIVE_LIMIT as EXHAUSTIVE_LIMIT,
    MAX_EVALUATIONS as MAX_EVALUATIONS,
    PairClass as PairClass,
    TensorCost as TensorCost,
    TensorSearch as TensorSearch,
    TensorWitness as TensorWitness,
    binom_small as binom_small,
    check_gamma as check_gamma,
    check_n as check_n,
    classify as classify,
    eta_hockey_stick_tensor_product_witness as eta_hockey_stick_tensor_product_witness,
    hockey_stick_product as hockey_stick_product,
    pair_classes as pair_classes,
    pair_compositions as pair_compositions,
    power_cost as power_cost,
    product_pair_losses as product_pair_losses,
    require_cost as require_cost,
    require_enumeration as require_enumeration,
    short_number as short_number,
    tensor_search_cost as tensor_search_cost,
)
from exactdp.measures.tensor_search import Factors, WitnessOptions
from exactdp.numbers.qq import ONE, ZERO, RationalInput, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB
from exactdp.numbers.reader import as_expr
from exactdp.numbers.sr import to_exact
from exactdp.numbers.truth import Sign


def eta_hockey_stick_tensor_product(factors: Factors, gamma: RationalInput, **kw: Unpack[WitnessOptions]) -> fmpq:
    r"""η_{E_γ}(K₁^{⊗n₁} ⊗ … ⊗ K_m^{⊗n_m}), exact (heterogeneous products; see the module docstring).

    >>> from exactdp.mechanisms import randomized_response
    >>> eta_hockey_stick_tensor_product([(randomized_response(2, 3), 2), (randomized_response(2, 2), 1)], 1)
    5/8
    """
    return eta_hockey_stick_tensor_product_witness(factors, gamma, **kw).value


def eta_hockey_stick_tensor_power(K: KernelInput, n: int, gamma: RationalInput,
                                  **kw: Unpack[WitnessOptions]) -> fmpq:
    r"""η_{E_γ}(K^{⊗n}) = max_{x^n, x'^n} E_γ(K_{x^n}‖K_{x'^n}) for rational γ ≥ 1, exactly.

    Equals δ_n(γ), the privacy profile of the n-fold composition of K ([A] Thm 1): K^{⊗n} is
    (log γ, δ)-LDP iff δ ≥ this value.  Cost polynomial in n (one polynomial power per pair type
    examined; a single evaluation for kernels whose row pairs form one loss class).

    >>> from exactdp.mechanisms import randomized_response
    >>> eta_hockey_stick_tensor_power(randomized_response(2, 3), 3, 2)
    17/32
    """
    return eta_hockey_stick_tensor_product_witness([(as_kernel(K), check_n(n))], gamma, **kw).value


def eta_tv_tensor_power(K: KernelInput, n: int, **kw: Unpack[WitnessOptions]) -> fmpq:
    r"""η_TV(K^{⊗n}), the Dobrushin coefficient of the n-fold product, exactly (A-8, F-A1).

    >>> from exactdp.mechanisms import randomized_response
    >>> [eta_tv_tensor_power(randomized_response(2, 3), n) for n in (1, 2, 3, 5)]
    [1/2, 1/2, 11/16, 203/256]
    """
    return eta_hockey_stick_tensor_power(K, n, ONE, **kw)


@overload
def delta_tensor_power(K: KernelInput, n: int, gamma: RationalInput, *, enclosure: Literal[False] = False,
                       rel_width: None = None, **kw: Unpack[WitnessOptions]) -> fmpq: ...


@overload
def delta_tensor_power(K: KernelInput, n: int, gamma: RationalInput, *, enclosure: Literal[True],
                       rel_width: RationalInput | None = None, **kw: Unpack[WitnessOptions]) -> TensorEnclosure: ...


@overload
def delta_tensor_power(K: KernelInput, n: int, gamma: RationalInput, *, enclosure: bool,
                       rel_width: RationalInput | None = None,
                       **kw: Unpack[WitnessOptions]) -> fmpq | TensorEnclosure: ...


def delta_tensor_power(K: KernelInput, n: int, gamma: RationalInput, *, enclosure: bool = False,
                       rel_width: RationalInput | None = None,
                       **kw: Unpack[WitnessOptions]) -> fmpq | TensorEnclosure:
    r"""δ_n(γ): the least δ such that the n-fold composition K^{⊗n} is (log γ, δ)-LDP (B-10).

    The same quantity as :func:`eta_hockey_stick_tensor_power` read as a privacy profile.  With
    ``enclosure=True`` the result is a :class:`~exactdp.measures.tensor_enclosure.TensorEnclosure`: the exact
    value where it fits the cost guard, else a certified enclosure of relative width ≤ ``rel_width`` (default
    10⁻⁶; kernels whose row pairs form one loss class of at most three ratios), which says which it is.
    """
    if enclosure:
        return delta_tensor_power_enclosure(K, n, gamma, rel_width=rel_width, **kw)
    if rel_width is not None:
        raise ParameterError("rel_width: only with enclosure=True (the default result is exact)")
    return eta_hockey_stick_tensor_power(K, n, gamma, **kw)


def privacy_profile_tensor_power(K: KernelInput, n: int, *, max_compositions: int = 2_000) -> PrivacyProfile:
    r"""The whole exact privacy profile γ ↦ δ_n(γ) = η_{E_γ}(K^{⊗n}), γ ≥ 0 (piecewise linear, see PrivacyProfile).

    The upper envelope, over the compositions of n into the pair classes of K, of the lines
    (P(A), Q(A)) of each composition's upper ratio sets.  Every composition is enumerated, so this is
    for kernels with few classes (one class: one composition, O(n) lines for D = 1).

    Raises:
        ParameterError: more than ``max_compositions`` compositions.
    """
    K = as_kernel(K)
    check_n(n)
    classes, _, _, classify_work = classify([(K, n)])
    if not classes:  # identical rows: E_γ(p‖p) = (1 − γ)_+ when there are two inputs
        return profile_from_lines([(ZERO, ZERO)] + ([(ONE, ONE)] if K.N > 1 else []))
    count = binom_small(n, len(classes) - 1)
    if count > max_compositions:
        raise ParameterError(f"max_compositions: K^{{⊗{n}}} has {count} pair compositions over "
                             f"{len(classes)} classes (> {max_compositions}); evaluate delta_tensor_power at a gamma")
    require_enumeration(K, n, classes, count, "privacy_profile_tensor_power", classify_work)
    lines = []
    for counts in pair_compositions(n, len(classes)):
        lines.extend(product_loss([(c.loss, k) for c, k in zip(classes, counts)]).lines())
    return profile_from_lines(lines)


def delta_tensor_power_eps(K: KernelInput, n: int, eps: RationalInput | sympy.Expr, *,
                           max_compositions: int | None = None, max_evaluations: int = MAX_EVALUATIONS) -> sympy.Expr:
    r"""δ_n(e^ε) for an exact ε ≥ 0 (``"1/2"``, ``Fraction``, ``sympy.log(3)/2``): the sympy expression A − B·e^ε.

    When e^ε is rational this is :func:`delta_tensor_power`.  Otherwise every comparison of e^ε with a
    rational is certified (:class:`exactdp.numbers.rb.RB`; a ratio cannot equal a transcendental e^ε, and
    exact ties are decided by the exact layer).  One pair class with two ratios: the binomial piece, its
    threshold by certified comparisons.  Otherwise e^ε is bracketed by two rationals and the
    pair-type search at the bracket's ends (and at the crossing of their supporting lines, when a
    breakpoint lies in between) gives the linear piece containing e^ε
    (:func:`exactdp.measures.profile_inversion.delta_tensor_power_eps_search`): a few searches, not an
    enumeration of the compositions.

    Args:
        max_compositions: optional cap on the pair compositions of K^{⊗n} (refused above it).
        max_evaluations: cap on the exact evaluations of each search.
    Raises:
        UndecidedError: a comparison could not be certified (never a guess).
        ParameterError: ε < 0, or more than ``max_compositions`` compositions.

    >>> from exactdp.mechanisms import randomized_response
    >>> delta_tensor_power_eps(randomized_response(2, 3), 2, "1/2")
    9/16 - exp(1/2)/16
    """
    K = as_kernel(K)
    check_n(n)
    e, symbolic = to_exact(eps, "eps")
    e = as_expr(e if symbolic else qq_to_sympy(e))
    if e.is_negative or e.free_symbols:
        raise ParameterError(f"eps: must be an exact real number >= 0, got {e}")
    gamma = sympy.exp(e)
    if gamma.is_Rational:
        return qq_to_sympy(delta_tensor_power(K, n, to_qq(gamma), max_evaluations=max_evaluations))
    classes, _, _, classify_work = classify([(K, n)])
    if not classes:
        return sympy.Integer(0)
    count = binom_small(n, len(classes) - 1)
    if max_compositions is not None and count > max_compositions:
        raise ParameterError(f"max_compositions: K^{{⊗{n}}} has {count} pair compositions (> {max_compositions})")
    single = binomial_loss([(classes[0].loss, n)]) if len(classes) == 1 else None
    if single is not None:  # one class with two ratios: the binomial piece, threshold by certified comparisons
        require_enumeration(K, n, classes, 1, "delta_tensor_power_eps", classify_work, True)
        g = RB(gamma, "e^eps")

        def below(r: fmpq) -> bool:
            s = g.compare_rational(r)
            if s is None:
                raise UndecidedError(f"eps: e^{e} could not be compared with the rational {r}")
            return s is Sign.NEGATIVE

        A, B = binomial_linear_piece(single[0], n, below)
    else:
        A, B, _ = delta_tensor_power_eps_search(K, n, gamma, max_evaluations=max_evaluations)
    return qq_to_sympy(A) - qq_to_sympy(B) * gamma


def phi_n(t: RationalInput | None = None, delta: RationalInput = 0, n: int = 1, *,
          eps: RationalInput | sympy.Expr | None = None) -> fmpq:
    r"""φⁿ(ε,δ), the registry's ``phi_n`` at t = e^ε rational ([A] §III, D-13; a label, not a power),
    after the cost guard on the exact power ((1−δ)/t)ⁿ: the QQ accessor (the exact/symbolic one is
    :func:`exactdp.formulas.phi_n`, same arguments)."""
    from exactdp.bounds import get
    from exactdp.parameters import PrivacyLevel

    level = PrivacyLevel.of(t, delta, eps=eps)
    g = to_qq(level.t, "eps" if eps is not None else "t")
    base = (ONE - level.delta) / g
    require_cost(power_cost(base, check_n(n)), f"phi_n: ({base})^n at n = {short_number(n)}")
    value = get("phi_n").at(t=level.t, delta=level.delta, n=n)
    assert isinstance(value, fmpq)  # t and δ rational: the entry is rational
    return value
