r"""Claims, checks and verdicts: the objects ``exactdp verify`` runs and reports.

A :class:`Claim` is one statement of a paper (or one finding of claims.md §6) with a stable id
(``grosse2026.thm1``), the catalogue items it covers (``G-15``), its source, its LaTeX statement, its
hypotheses and one or more :class:`Check`\ s.  A check returns an :class:`Outcome` carrying exactly one
:class:`Verdict` and its evidence:

* PROVED — for all parameters in the hypotheses, by exact symbolic reasoning (``derivation`` kept);
* VERIFIED — on every instance checked, all exactly/certified (``instances`` and ``families``);
* REFUTED — with an exact, re-checkable ``counterexample``;
* UNDECIDED — with the ``reason``; NOT_CHECKABLE — the statement is not known well enough.

Proof modules declare claims with :func:`register`; they hold no algorithms.  The engine finds them through
a registration, not an import: the entry-point group ``exactdp.claims`` names packages of proof modules
(this project registers ``exactdp_proofs``, the repository's ``proofs/`` folder), see :func:`load_all`.
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
    #: ids of the other claims this one refers to (its notes, statement or proof module name them);
    #: tests/proofs/test_related.py checks that each resolves to a registered claim
    related: tuple[str, ...] = ()


REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    """Add a claim to the registry (ids are unique)."""
    if claim.id in REGISTRY and REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim id {claim.id!r} is registered twice")
    REGISTRY[claim.id] = claim
    return claim


#: former claim id -> current id (ids renamed by the package that declares them); selectors accept both
RENAMED: dict[str, str] = {}


def rename(old: str, new: str) -> None:
    """Record that the claim ``new`` was called ``old`` (``exactdp show OLD`` and selectors keep working)."""
    if RENAMED.get(old, new) != new:
        raise ValueError(f"claim id {old!r} is renamed twice")
    RENAMED[old] = new


def resolve(claim_id: str) -> str:
    """The current id of ``claim_id`` (itself unless it is a former id)."""
    return RENAMED.get(claim_id, claim_id)


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


#: the entry-point group through which packages of proof modules register their claims
ENTRY_POINT_GROUP = "exactdp.claims"

#: the package used when no distribution registers one (e.g. the library imported without its metadata)
DEFAULT_CLAIM_PACKAGES: tuple[str, ...] = ("exactdp_proofs",)


def claim_packages() -> tuple[str, ...]:
    """The module paths of the packages whose modules declare claims: every entry point of the group
    :data:`ENTRY_POINT_GROUP` (its value is a package's module path), else :data:`DEFAULT_CLAIM_PACKAGES`."""
    from importlib.metadata import entry_points

    found = sorted({ep.value.split(":")[0].strip() for ep in entry_points(group=ENTRY_POINT_GROUP)})
    return tuple(found) or DEFAULT_CLAIM_PACKAGES


def load_claims(packages: str | tuple[str, ...] | list[str]) -> dict[str, Claim]:
    """Import every module of the given packages (module paths such as ``"exactdp_proofs"``) so their
    claims register; return the registry.

    Raises:
        ParameterError: a name that is not an importable package.
    """
    import importlib
    import pkgutil

    for name in (packages,) if isinstance(packages, str) else packages:
        try:
            pkg = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise  # a missing dependency inside the package is not a bad package name
            from exactdp.errors import ParameterError

            raise ParameterError(f"claims: no package of proof modules named {name!r}") from None
        if not hasattr(pkg, "__path__"):
            from exactdp.errors import ParameterError

            raise ParameterError(f"claims: {name!r} is a module, not a package of proof modules")
        for info in pkgutil.walk_packages(pkg.__path__, prefix=name + "."):
            importlib.import_module(info.name)
    return REGISTRY


def load_all(packages: str | tuple[str, ...] | list[str] | None = None) -> dict[str, Claim]:
    """The registry with the claims of ``packages`` loaded (default: the registered packages, see
    :func:`claim_packages`)."""
    return load_claims(claim_packages() if packages is None else packages)
