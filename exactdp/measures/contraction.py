r"""Contraction coefficients by the two-point formulas (D-3, D-4, B-1, B-2; [A] Thm 3).

η_{E_γ}(K) = max_{x,x'} E_γ(K_x‖K_{x'})  for γ ≥ 1 (Asoodeh–Diaz–Calmon; [A] appendix Thm 3),
η_TV(K)    = max_{x,x'} TV(K_x, K_{x'})  (Dobrushin 1956; γ = 1).

For rational kernels the maximum is computed exactly with integer arithmetic, vectorized over partner
rows (see :mod:`exactdp.measures.pairwise_hockey_stick`); the maximizing pair is returned by the ``*_witness`` functions.
Kernels with irrational constant entries (or an irrational γ) take the certified route of RB; parametric
kernels the one two-point maximum :func:`eta_in` over the SR domain of their region
(:func:`exactdp.symbolic.closedforms.sr_domain`); the domain is the one choice of
:func:`exactdp.measures.input_domain.input_domain`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flint import fmpq

from exactdp.kernels import Kernel, KernelInput, as_kernel
from exactdp.measures.divergences import gamma_order, hockey_stick
from exactdp.measures.input_domain import input_domain, region_domain
from exactdp.measures.irrational_gamma import eta_hockey_stick_certified
from exactdp.measures.two_point import Observer, eta_in  # noqa: F401  (re-exported)
from exactdp.numbers.domain import QQ, RB, Domain, Exact
from exactdp.measures.pairwise_hockey_stick import max_pairwise_hockey_stick

if TYPE_CHECKING:
    from exactdp.symbolic.families import SymmetricFamily


@QQ.fast_path("eta_hockey_stick")
def _exact_witness_qq(D: Domain[Any], K: Kernel, g: fmpq) -> tuple[fmpq, int, int]:
    """QQ's route of :func:`eta_hockey_stick_witness`: max_{x≠x'} E_g(K_x‖K_x') with the first maximizing pair
    (lexicographic), exactly.

    Integer cross-multiplication over the rows' own denominators, vectorized over partner rows
    (:func:`exactdp.measures.pairwise_hockey_stick.max_pairwise_hockey_stick`); only pairs x < x' when g = 1 (TV is
    symmetric).
    """
    if K.N == 1:
        return fmpq(0), 0, 0
    if K.N * K.N * K.M <= SMALL_PAIRWISE:
        return _exact_witness_small(K, g)
    num, den, i, j = max_pairwise_hockey_stick(K.int_rows(), int(g.p), int(g.q), symmetric=(g == 1))
    return fmpq(num, den), i, j


#: below this many pair terms N²M, plain fmpq loops beat numpy's per-call overhead (searches call the
#: coefficients on many tiny kernels); both routes are tested against each other
SMALL_PAIRWISE = 128


def _exact_witness_small(K: Kernel, g: fmpq) -> tuple[fmpq, int, int]:
    """The same maximum as :func:`_exact_witness_qq` by direct fmpq sums Σ_y (K_x(y) − g K_x'(y))₊."""
    best, arg = fmpq(0), (0, 1)
    rows = K.rows
    for i, p in enumerate(rows):
        for j in range(i + 1 if g == 1 else 0, K.N):
            if i == j:
                continue
            v = sum((a - g * b for a, b in zip(p, rows[j]) if a > g * b), fmpq(0))
            if v > best:
                best, arg = v, (i, j)
    return best, arg[0], arg[1]


def eta_hockey_stick_witness(K: KernelInput, gamma: Any) -> tuple[Exact, int | None, int | None]:
    """``(η_{E_γ}(K), x, x')`` with ``E_γ(K_x‖K_x') = η_{E_γ}(K)``; see :func:`eta_hockey_stick`.

    In the one domain of the kernel and γ (:func:`exactdp.measures.input_domain.input_domain`): QQ (rational
    kernel and γ) on the integer fast path; RB (an irrational constant entry or γ such as e^{1/2}) by the
    certified comparisons of γ with the kernel's likelihood ratios (:mod:`exactdp.measures.irrational_gamma`);
    SR (a kernel or γ with parameters) as a closed form on the kernel's region by :func:`eta_in` (on a
    one-parameter box by exact cell decomposition; ``(value, None, None)`` when the maximizing pair changes
    over the region).
    """
    K = as_kernel(K)
    g, _ = gamma_order(gamma)
    D = input_domain("eta_hockey_stick", (g,), kernel=K, sr=lambda: region_domain(K, g))
    found: tuple[Exact, int | None, int | None] = D.run("eta_hockey_stick", eta_in, K, g)
    return found


@RB.fast_path("eta_hockey_stick")
def _certified_witness(D: Domain[Any], K: Kernel, g: Any) -> Any:
    """RB's route of :func:`eta_hockey_stick_witness` (an irrational constant entry or γ): certified
    comparisons of γ with the kernel's likelihood ratios (:func:`eta_hockey_stick_certified`)."""
    return eta_hockey_stick_certified(K, g)


def eta_hockey_stick(K: KernelInput | SymmetricFamily, gamma: Any) -> Exact:
    r"""η_{E_γ}(K) = max_{x,x'} E_γ(K_x‖K_{x'}), the E_γ contraction coefficient (B-2; [A] Thm 3).

    Exact for rational γ ≥ 0 (for γ < 1 this is the two-point value of the un-normalised E_γ).
    By [A] Thm 1, K is (ε,δ)-LDP iff ``eta_hockey_stick(K, e^ε) <= δ``.

    Args:
        K: a Kernel (or rows).  gamma: γ ≥ 0, exact.
    Returns:
        fmpq (rational case).
    Raises:
        ParameterError: γ < 0.  CoercionError: γ a float.

    >>> from exactdp.mechanisms import randomized_response
    >>> eta_hockey_stick(randomized_response(2, 3), 2)
    1/4
    """
    family = _family(K)
    if family is not None:
        return family.eta_hockey_stick(gamma)
    return eta_hockey_stick_witness(cast("KernelInput", K), gamma)[0]  # not a family (_family)


def _family(K: KernelInput | SymmetricFamily) -> SymmetricFamily | None:
    """``K`` when it is a family of symbolic size (:class:`exactdp.symbolic.families.SymmetricFamily`: k-ary
    randomized response, unary encodings), whose closed forms come from its column types; else None."""
    if isinstance(K, (Kernel, list, tuple)):
        return None
    from exactdp.symbolic.families import SymmetricFamily

    return K if isinstance(K, SymmetricFamily) else None


def eta_tv_witness(K: KernelInput) -> tuple[Exact, int | None, int | None]:
    """``(η_TV(K), x, x')``: the Dobrushin coefficient and a maximizing pair of inputs."""
    return eta_hockey_stick_witness(K, 1)


def eta_tv(K: KernelInput | SymmetricFamily) -> Exact:
    r"""η_TV(K) = max_{x,x'} TV(K_x, K_{x'}), the Dobrushin coefficient (D-4, B-1).

    Also for a family of symbolic size (``exactdp.symbolic.families.randomized_response_family()``):
    its closed form for every k.

    >>> from exactdp.mechanisms import randomized_response
    >>> eta_tv(randomized_response(3, 2))
    1/4
    >>> from exactdp.symbolic.families import randomized_response_family
    >>> eta_tv(randomized_response_family())
    (t - 1)/(k + t - 1)
    """
    family = _family(K)
    if family is not None:
        return family.eta_tv()
    return eta_tv_witness(cast("KernelInput", K))[0]  # not a family (_family)


def eta_hockey_stick_pairs(K: KernelInput, gamma: Any) -> list[list[Exact]]:
    """The full matrix E_γ(K_x‖K_{x'}) (small kernels; used by reports and brute-force tests)."""
    K = as_kernel(K)
    return [[hockey_stick(K.row(i), K.row(j), gamma) for j in range(K.N)] for i in range(K.N)]
