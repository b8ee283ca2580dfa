r"""The number domain of a measure's inputs: the one choice every measure makes (ARCHITECTURE.md, "Number domains").

A measure of a kernel K (and of extra exact inputs: the order γ of E_γ (B-2), the class parameter c of the
PML level (D-9), two distributions of a divergence (D-2)) runs in the least of QQ ⊂ RB ⊂ SR holding all its
inputs, chosen by :func:`exactdp.numbers.domain.unify`:

* QQ when every entry and every extra input is rational;
* RB (certified balls with exact tie-breaks) when some entry or input is an irrational constant — ``sqrt(2)``,
  ``E``, ``exp(1/2)``, ``pi`` — and none has free symbols;
* SR when some entry or input has free symbols: the domain of a region, built here (above
  :mod:`exactdp.numbers`) by the measure's ``sr`` builder; by default the kernel's declared region.

So η_{E_γ}, the LDP level, the PML level, the maximal leakage, the privacy profile and the divergences of the
same inputs take the same domain: a kernel with irrational constant entries is RB for all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from exactdp.numbers.domain import Domain, unify

if TYPE_CHECKING:
    from exactdp.kernels import Kernel


def kernel_domain_name(K: Kernel) -> str:
    """The least domain holding the kernel's entries: ``"QQ"`` (``fmpq`` entries), ``"RB"`` (sympy entries
    without free symbols: irrational constants) or ``"SR"`` (entries with parameters)."""
    if not K.symbolic:
        return "QQ"
    return "SR" if K.free_symbols else "RB"


def input_domain(what: str, values: Sequence[Any] = (), *, kernel: Kernel | None = None,
                 sr: Callable[[], Domain[Any]] | None = None) -> Domain[Any]:
    """The number domain of a measure named ``what`` on ``kernel`` (optional) and the exact ``values``
    (:func:`exactdp.numbers.domain.unify`); SR: ``sr()``, by default the SR domain of the kernel's region."""
    D = unify(values, what, least=kernel_domain_name(kernel) if kernel is not None else "QQ")
    if D is not None:
        return D
    if sr is not None:
        return sr()
    if kernel is None:
        raise TypeError("input_domain: an SR choice needs a kernel or an sr builder")
    return region_domain(kernel)


def region_domain(K: Kernel, gamma: Any = None) -> Domain[Any]:
    """The SR domain of the kernel's region (:func:`exactdp.symbolic.region.kernel_region`), the own symbols of
    γ (the order of E_γ, when given) taken ≥ 0."""
    from exactdp.numbers.sr import as_sympy
    from exactdp.symbolic.closedforms import gamma_region, sr_domain  # deferred: start-up (sympy, the prover)
    from exactdp.symbolic.region import kernel_region  # deferred: start-up

    region = kernel_region(K)
    return sr_domain(region if gamma is None else gamma_region(region, as_sympy(gamma)))
