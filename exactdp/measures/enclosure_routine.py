r"""The protocol of the composition filter's enclosure routines (:mod:`exactdp.measures.composition_filter`).

A routine encloses E_γ(P^{⊗k}‖Q^{⊗k}) for every composition k of a class structure of the pair losses: its
``estimate`` gives the work and candidate count before anything is computed (``None``: the routine does not
apply), its ``enclose`` the certified rational bounds.  The two-ratio routine lives in ``composition_filter``,
the three-ratio (lattice) routine in ``lattice_interval``; this module is below both so neither imports the
other's caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flint import fmpq

from exactdp.measures.privacy_loss import PairLoss


@dataclass(frozen=True)
class EnclosureRoutine:
    """An enclosure of E_γ for every composition of a class structure (see the module docstring)."""

    name: str
    estimate: Callable[[Sequence[PairLoss], Sequence[Sequence[int]], Sequence[int]], tuple[int, int] | None]
    enclose: Callable[[Sequence[PairLoss], Sequence[Sequence[int]], Sequence[int], fmpq], list]
