r"""The protocol of the composition filter's enclosure routines (:mod:`exactdp.measures.composition_filter`).

A routine encloses E_γ(P^{⊗k}‖Q^{⊗k}) for every composition k of a class structure of the pair losses: its
``estimate`` gives the work and candidate count before anything is computed (``None``: the routine does not
apply), its ``enclose`` the certified rational bounds, its optional ``applies_at`` the values of γ it is meant for
(the deep-tail routine of :mod:`exactdp.measures.deep_tail`: only where every E_γ is below the float range).  The two-ratio routine lives in ``composition_filter``,
the three-ratio (lattice) routine in ``lattice_interval``; this module is below both so neither imports the
other's caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from flint import fmpq

from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.qq import ONE, ZERO

#: the pair losses of a class structure, its groups (indices into the losses, one group a factor) and the
#: number of factors of each group
Losses: TypeAlias = Sequence[PairLoss]
Groups: TypeAlias = Sequence[Sequence[int]]
Totals: TypeAlias = Sequence[int]
#: a composition (count of each class, indexed like the losses) with exact rational bounds lo <= E_γ <= hi
CompositionBounds: TypeAlias = tuple[tuple[int, ...], fmpq, fmpq]


@dataclass(frozen=True)
class EnclosureRoutine:
    """An enclosure of E_γ for every composition of a class structure (see the module docstring)."""

    name: str
    estimate: Callable[[Losses, Groups, Totals], tuple[int, int] | None]
    enclose: Callable[[Losses, Groups, Totals, fmpq], list[CompositionBounds]]
    #: a routine that suits only some γ of a structure says which (None: every γ where ``estimate`` applies);
    #: :func:`exactdp.measures.composition_filter.plan` skips it when γ is not given
    applies_at: Callable[[Losses, Groups, Totals, fmpq], bool] | None = None
    #: a routine over more compositions than can be listed (three or more pair classes:
    #: :mod:`exactdp.measures.simplex_filter`) gives only those it did not rule out, ``(rows, ruled_out)``, rows in
    #: the order of ``enclose``; None when it could not settle them within its budget (``enclose`` is not called)
    candidates: Callable[[Losses, Groups, Totals, fmpq], tuple[list[CompositionBounds], int] | None] | None = None


def two_class_rows(out: dict[int, tuple[fmpq, fmpq]], size: int, i: int, j: int, n: int,
                   fixed: dict[int, int] | None = None) -> list[CompositionBounds]:
    """``(counts, lo, hi)`` of every composition (k of class i, n − k of class j, ``size`` classes in all) in the
    order of ``tensor_search.all_compositions`` (k = 0..n), from ``out``: k → (lo, hi); a k not in ``out``
    gets the trivial bounds (0, 1).  The rows a routine over one factor with two pair classes returns;
    ``fixed``: class index → count of the other factors' single classes (the same in every composition)."""
    rows: list[CompositionBounds] = []
    for k in range(n + 1):
        counts = [0] * size
        for c, m in (fixed or {}).items():
            counts[c] = m
        counts[i], counts[j] = k, n - k
        lo, hi = out.get(k, (ZERO, ONE))
        rows.append((tuple(counts), lo, hi))
    return rows
