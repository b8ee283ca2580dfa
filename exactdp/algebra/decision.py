"""The answer of the exact prover, and its "cannot decide" exception.

:class:`Decision` is what :func:`exactdp.algebra.prover.decide` and
:func:`exactdp.algebra.boolean.decide_formula` return: TRUE / FALSE / UNKNOWN with the derivation, never a
guess.  :class:`ProverUndecided` is raised inside the procedures when a sign cannot be decided exactly; the
public entry points turn it into an UNKNOWN decision with the reason.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass, field

from exactdp.algebra.regions import Region
from exactdp.errors import UndecidedError
from exactdp.numbers.truth import Truth


@dataclass
class Decision:
    """The answer of :func:`decide`: a Truth, its derivation, the crossing points and a counterexample."""

    truth: Truth
    statement: object
    region: Region | None
    steps: list[Any] = field(default_factory=list)
    crossings: list[Any] = field(default_factory=list)  # exact points/curves where lhs = rhs in the region
    counterexample: dict[Any, Any] | None = None
    reason: str = ""

    def __bool__(self) -> bool:
        return bool(self.truth)

    def __str__(self) -> str:
        head = f"{self.truth}: {self.statement} on {self.region}"
        if self.counterexample:
            head += f"; counterexample {self.counterexample}"
        if self.reason:
            head += f" ({self.reason})"
        return head



class ProverUndecided(UndecidedError):
    """The exact prover cannot decide a sign (an :class:`~exactdp.errors.UndecidedError`, never bad input)."""
