r"""Claims, checks and verdicts: the objects ``exactdp verify`` runs and reports.

A :class:`Claim` is one statement of a paper (or one finding of claims.md §6) with a stable id
(``grosse2026.thm1``), the catalogue items it covers (``G-15``), its source, its LaTeX statement, its
hypotheses and one or more :class:`Check`\ s.  A check returns an :class:`Outcome` carrying exactly one
:class:`Verdict` and its evidence:

* PROVED — for all parameters in the hypotheses, by exact symbolic reasoning (``derivation`` kept);
* VERIFIED — on every instance checked, all exactly/certified (``instances`` and ``families``);
* REFUTED — with an exact, re-checkable ``counterexample``;
* UNDECIDED — with the ``reason``; NOT_CHECKABLE — the statement is not known well enough.

Proof modules in ``proofs/`` declare claims with :func:`register`; they hold no algorithms.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Callable

from exactdp.sources import Source


class Verdict(str, enum.Enum):
    PROVED = "proved"
    VERIFIED = "verified"
    REFUTED = "refuted"
    UNDECIDED = "undecided"
    NOT_CHECKABLE = "not-checkable"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    """The result of one check: a verdict and the evidence behind it.

    Exact values in ``details`` and ``counterexample`` are strings (``"3/5"``, ``"inf"``) so reports
    and JSON carry them unchanged.
    """

    verdict: Verdict
    summary: str
    instances: int = 0
    families: tuple[tuple[str, int], ...] = ()
    derivation: tuple[str, ...] = ()
    counterexample: dict | None = None
    details: dict = field(default_factory=dict)
    reason: str = ""

    def __post_init__(self):
        if self.verdict is Verdict.REFUTED and not self.counterexample:
            raise ValueError("a REFUTED outcome must carry its counterexample")
        if self.verdict is Verdict.PROVED and not self.derivation:
            raise ValueError("a PROVED outcome must carry its derivation")
        if self.verdict in (Verdict.UNDECIDED, Verdict.NOT_CHECKABLE) and not self.reason:
            raise ValueError(f"a {self.verdict.value} outcome must say why")
        if self.verdict is Verdict.VERIFIED and self.instances <= 0:
            raise ValueError("a VERIFIED outcome must count the instances it checked")


@dataclass(frozen=True)
class CheckContext:
    """What a check may depend on: the seed and the size of the run.  Same seed → same outcome."""

    seed: int = 0
    quick: bool = False

    def rng(self, salt: str) -> random.Random:
        """A deterministic random generator for one check (seeded by seed and a per-check salt)."""
        return random.Random(f"{self.seed}:{salt}")

    def size(self, quick: int, full: int) -> int:
        return quick if self.quick else full


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[CheckContext], Outcome]
    description: str = ""


@dataclass(frozen=True)
class Claim:
    id: str
    catalogue: tuple[str, ...]
    source: Source
    title: str
    statement: str  # LaTeX
    hypotheses: str
    checks: tuple[Check, ...]
    expected: Verdict
    reconstructed: bool = False  # the catalogue marks the statement [RECON]
    kind: str = "theorem"  # theorem | lemma | corollary | definition | example | finding | background
    notes: str = ""


REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    """Add a claim to the registry (ids are unique)."""
    if claim.id in REGISTRY and REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim id {claim.id!r} is registered twice")
    REGISTRY[claim.id] = claim
    return claim


def combine(outcomes) -> Verdict:
    """The claim-level verdict: REFUTED if any check refutes, UNDECIDED if any is undecided, PROVED only
    if every checkable check proves, NOT_CHECKABLE if none is checkable, VERIFIED otherwise."""
    vs = [o.verdict for o in outcomes]
    if Verdict.REFUTED in vs:
        return Verdict.REFUTED
    if Verdict.UNDECIDED in vs:
        return Verdict.UNDECIDED
    checkable = [v for v in vs if v is not Verdict.NOT_CHECKABLE]
    if not checkable:
        return Verdict.NOT_CHECKABLE
    if all(v is Verdict.PROVED for v in checkable):
        return Verdict.PROVED
    return Verdict.VERIFIED


def load_all() -> dict[str, Claim]:
    """Import every module under the ``proofs`` package so their claims register; return the registry."""
    import importlib
    import pkgutil

    import proofs

    for info in pkgutil.walk_packages(proofs.__path__, prefix="proofs."):
        importlib.import_module(info.name)
    return REGISTRY
