r"""Claims, checks and verdicts: the objects ``exactdp verify`` runs and reports.

A :class:`Claim` is one statement of a paper (or one finding of docs/claims.md §6) with a stable id
(``grosse2026.thm1``), the catalogue items it covers (``G-15``), its source, its LaTeX statement, its
hypotheses and one or more :class:`Check`\ s.  A check returns an :class:`Outcome` carrying exactly one
:class:`Verdict` and its evidence:

* PROVED — for every point of its ``scope``, by checked certificates (``certificates``, ``derivation``);
* PROVED_MODULO — likewise, but the proof also cites theorems or claims named in ``rests_on``;
* VERIFIED — on every instance checked, all exactly/certified (``instances`` and ``families``);
* REFUTED — with an exact, re-checkable ``counterexample``;
* UNDECIDED — with the ``reason``; NOT_CHECKABLE — the statement is not known well enough.

Proof modules declare claims with :func:`register`; they hold no algorithms.  The engine finds them through
a registration, not an import: the entry-point group ``exactdp.claims`` names packages of proof modules
(this project registers ``exactdp_proofs``, the repository's ``proofs/`` folder), see :func:`load_all`.

**The one place that issues "proved"** is :class:`Outcome` itself: an outcome with verdict PROVED or
PROVED_MODULO must carry at least one :class:`~exactdp.algebra.certificates.Certificate` and a ``scope``,
and on construction every certificate is re-checked (:func:`exactdp.algebra.certificates.check`, cached);
one that is not TRUE raises ``ValueError``.  So no proved verdict exists without a checked certificate.
A certificate that rests on others names them in ``uses``: the outcome adds the structural lemmas it names
(:func:`exactdp.theory.structural_lemmas.with_lemmas`) and raises ``ValueError`` when any other named certificate
is not among its own.  Build such outcomes with :func:`proved`.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
import re
from dataclasses import dataclass, field
from typing import Callable

from exactdp.numbers.truth import Truth
from exactdp.numbers.rich import RichDisplay
from exactdp.sources import Source


class Verdict(str, enum.Enum):
    PROVED = "proved"
    PROVED_MODULO = "proved-modulo"
    VERIFIED = "verified"
    REFUTED = "refuted"
    UNDECIDED = "undecided"
    NOT_CHECKABLE = "not-checkable"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome(RichDisplay):
    """The result of one check: a verdict and the evidence behind it.

    Exact values in ``details`` and ``counterexample`` are strings (``"3/5"``, ``"inf"``) so reports
    and JSON carry them unchanged.
    """

    verdict: Verdict
    summary: str
    instances: int = 0
    families: tuple[tuple[str, int], ...] = ()
    #: the steps of the proof: text lines, or :class:`~exactdp.numbers.formula_text.DerivationStep` (prose and
    #: formulas apart) where the step's mathematics is known as expressions
    derivation: tuple = ()
    counterexample: dict | None = None
    details: dict = field(default_factory=dict)
    reason: str = ""
    #: the checked certificates a PROVED / PROVED_MODULO verdict rests on (re-checked on construction)
    certificates: tuple = ()
    #: what the proof covers, in words: "all parameters", "all N, M", "N = 2..8", "instances", ...
    scope: str = ""
    #: claim ids or names of cited theorems the proof uses without proving them (PROVED_MODULO only)
    rests_on: tuple[str, ...] = ()

    def __post_init__(self):
        if self.verdict is Verdict.REFUTED and not self.counterexample:
            raise ValueError("a REFUTED outcome must carry its counterexample")
        if self.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO):
            from exactdp.theory.structural_lemmas import with_lemmas  # deferred: start-up

            object.__setattr__(self, "certificates", with_lemmas(self.certificates))
            _require_checked(self)
        elif self.rests_on:
            raise ValueError(f"only a proved-modulo outcome rests on cited results, not a {self.verdict.value} one")
        if self.verdict in (Verdict.UNDECIDED, Verdict.NOT_CHECKABLE) and not self.reason:
            raise ValueError(f"a {self.verdict.value} outcome must say why")
        if self.verdict is Verdict.VERIFIED and self.instances <= 0:
            raise ValueError("a VERIFIED outcome must count the instances it checked")

    @property
    def scope_step(self):
        """:attr:`scope` with prose and formulas apart, each formula read once by the safe reader
        (:func:`exactdp.numbers.formula_text.scope_step`): what every output prints it from."""
        from exactdp.numbers.formula_text import scope_step

        return scope_step(self.scope)


def _require_checked(o: Outcome) -> None:
    """The rule of the one place that issues "proved" (module docstring); raises ValueError."""
    from exactdp.algebra.certificates import Certificate, check

    what = o.verdict.value
    if not o.derivation:
        raise ValueError(f"a {what} outcome must carry its derivation")
    if not o.certificates:
        raise ValueError(f"a {what} outcome must carry at least one certificate")
    if not o.scope:
        raise ValueError(f"a {what} outcome must state its scope")
    if (o.verdict is Verdict.PROVED_MODULO) != bool(o.rests_on):
        raise ValueError("a proved-modulo outcome must name what it rests on (rests_on), and only it may")
    for cert in o.certificates:
        if not isinstance(cert, Certificate):
            raise ValueError(f"a {what} outcome needs Certificate objects, got {type(cert).__name__}")
        result = check(cert)
        if result.truth is not Truth.TRUE:
            raise ValueError(f"certificate {cert.name!r} ({cert.kind}) does not check ({result.truth}): "
                             f"{'; '.join(result.failures) or 'no reason given'}")
    names = {c.name for c in o.certificates}
    for cert in o.certificates:  # a certificate's structural lemmas and sibling steps are carried with it
        missing = [n for n in getattr(cert, "uses", ()) if n not in names]
        if missing:
            raise ValueError(f"certificate {cert.name!r} rests on {missing}, which the outcome does not carry")
    from exactdp.algebra.certificates.instantiation import citation_failures

    cited = citation_failures(o.certificates)  # an instantiation's source, a join's parts, with their statements
    if cited:
        raise ValueError("; ".join(cited[:2]))


def proved(summary: str, certificates, scope: str, *, derivation=(), rests_on=(), **evidence) -> Outcome:
    """A PROVED outcome (PROVED_MODULO when ``rests_on`` names cited results) from certificates, each re-checked.

    ``derivation`` defaults to the certificates' check steps.  Raises ValueError when a certificate fails.
    """
    from exactdp.algebra.certificates import check
    from exactdp.theory.structural_lemmas import with_lemmas  # deferred: start-up

    certificates = with_lemmas(certificates)
    if not derivation:  # each step marked with its certificate (a structured step keeps its fields apart)
        derivation = tuple(_marked(c.name, step) for c in certificates for step in check(c).steps)
    verdict = Verdict.PROVED_MODULO if rests_on else Verdict.PROVED
    return Outcome(verdict, summary, derivation=tuple(derivation), certificates=certificates, scope=scope,
                   rests_on=tuple(rests_on), **evidence)


def _marked(name: str, step):
    """A certificate's check step marked ``[name]``: a text line or a :class:`DerivationStep`'s prose."""
    from exactdp.numbers.formula_text import marked

    return marked(name, step)


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
    #: extra evidence for a statement that the claim's proving checks already cover (e.g. instances of a
    #: theorem proved for all N, M): it can refute or leave the claim undecided, but its VERIFIED verdict
    #: does not demote a proved claim (see :func:`claim_verdict`)
    supporting: bool = False


@dataclass(frozen=True)
class Claim:
    id: str
    catalogue: tuple[str, ...]
    source: Source
    title: str
    statement: str  # LaTeX
    #: the statement's hypotheses in words with each formula between backticks in the safe reader's text
    #: (``"`N >= 2`, `0 < c <= 1/N`; `Gamma` as in D-12"``): prose and mathematics apart, read once by
    #: :attr:`hypotheses_step` (at registration) and printed from the expressions in every output;
    #: :attr:`hypotheses_text` is the plain text (the JSON report's ``hypotheses`` string)
    hypotheses: str
    checks: tuple[Check, ...]
    expected: Verdict
    reconstructed: bool = False  # the catalogue marks the statement [RECON]
    kind: str = "theorem"  # theorem | lemma | corollary | definition | example | finding | background
    notes: str = ""
    #: ids of the other claims this one refers to (its notes, statement or proof module name them);
    #: tests/proofs/test_related.py checks that each resolves to a registered claim
    related: tuple[str, ...] = ()
    #: the statement's mathematics as expressions, in the safe reader's text ("eps > log((1+√2)/2)"; relations
    #: <, <=, >, >=, " = ", " ⟹ ", " ⟺ "; names are symbols, called names functions); every output prints
    #: these from the expressions (:mod:`exactdp.numbers.formula_text`), never a conversion of the LaTeX
    #: ``statement``
    formulas: tuple[str, ...] = ()
    #: the statement's hypotheses on its parameters in machine form (reader text: ``("t >= 1", "delta >= 0")``;
    #: u = N*c), written from docs/claims.md: every certificate of a proof is filed under the claim with its
    #: conclusions on this domain, which both checkers show non-empty and inside the certificate's region
    #: (:func:`exactdp.verification.engine.filed_under`); None: not written, the certificates are not bound
    domain: tuple[str, ...] | None = None
    #: the claim's statement in machine form, written once from docs/claims.md (never copied from a certificate):
    #: its parts (:class:`exactdp.claim_statement.ClaimStatement`), each in the variables of the reduction the
    #: certificates use, with that reduction as a quantifier (a = K_x(A), b = K_x'(A) for every pair of rows and
    #: every output set A).  Every part must be implied by a certificate of the proof, which the engine, ``recheck``
    #: and the SMT path each decide; the other certificates are steps (:func:`exactdp.verification.engine.filed_under`)
    written: tuple = ()


    @functools.cached_property
    def hypotheses_step(self):
        """The hypotheses as an inline :class:`~exactdp.numbers.formula_text.DerivationStep` (prose with slots,
        the formulas as reader text, each read once here: a formula the reader cannot read fails at
        registration, naming the claim)."""
        from exactdp.numbers.formula_text import written_step

        return written_step(self.hypotheses, what=f"{self.id} hypotheses")

    @property
    def hypotheses_text(self) -> str:
        """The hypotheses as plain text: the words with each formula's reader text (no backticks)."""
        return str(self.hypotheses_step)


def statement_formulas(claim: Claim) -> tuple:
    """The claim's :attr:`Claim.formulas` read once by the safe reader into sympy
    (:func:`exactdp.numbers.formula_text.read_formula`: relations, ``a = b`` as ``Eq(a, b)``, ``⟺``, ``⟹``;
    every name a symbol, every called name other than the reader's functions an undefined function, so
    φ(ε, 0) is ``phi(eps, 0)``)."""
    from exactdp.numbers.formula_text import read_formula

    return tuple(read_formula(text, f"{claim.id} formula") for text in claim.formulas)


REGISTRY: dict[str, Claim] = {}

#: a claim id: letters, digits, ``_``, ``.``, ``-`` (``group.item``), so an id is the same inert text in every
#: output format (a LaTeX label, a Markdown code span, an HTML attribute, a file name, the terminal)
CLAIM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,119}")


def register(claim: Claim) -> Claim:
    """Add a claim to the registry (ids are unique and of the form :data:`CLAIM_ID`)."""
    if not isinstance(claim.id, str) or not CLAIM_ID.fullmatch(claim.id):
        raise ValueError(f"claim id {claim.id!r}: not of the form {CLAIM_ID.pattern}")
    if claim.id in REGISTRY and REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim id {claim.id!r} is registered twice")
    claim.hypotheses_step  # read once: a hypothesis formula the reader cannot read fails here
    REGISTRY[claim.id] = claim
    return claim


def combine(outcomes) -> Verdict:
    """The claim-level verdict: REFUTED if any check refutes, UNDECIDED if any is undecided, PROVED only
    if every checkable check proves, PROVED_MODULO if every checkable check proves or proves modulo cited
    results, NOT_CHECKABLE if none is checkable, VERIFIED otherwise."""
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
    if all(v in (Verdict.PROVED, Verdict.PROVED_MODULO) for v in checkable):
        return Verdict.PROVED_MODULO
    return Verdict.VERIFIED


def claim_verdict(checks, outcomes) -> Verdict:
    """The verdict of a claim from its checks and their outcomes (same order): :func:`combine`, except that
    a VERIFIED supporting check (:attr:`Check.supporting`) does not demote proving checks."""
    outcomes = list(outcomes)
    if not outcomes:
        return Verdict.NOT_CHECKABLE
    core = [o for c, o in zip(checks, outcomes) if not (c.supporting and o.verdict is Verdict.VERIFIED)]
    verdict = combine(core) if core else Verdict.NOT_CHECKABLE
    if verdict is Verdict.NOT_CHECKABLE and len(core) < len(outcomes):
        return Verdict.VERIFIED  # only supporting instances were checkable
    return verdict


def scope_of(outcomes) -> str:
    """The claim-level scope: the scopes of its proved checks joined ("; "), "instances" if none proves.
    "all parameters" (an identity, no restriction) is left out when another scope is present."""
    scopes = []
    for o in outcomes:
        if o.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO) and o.scope not in scopes:
            scopes.append(o.scope)
    if len(scopes) > 1 and "all parameters" in scopes:
        scopes.remove("all parameters")
    if scopes:
        return "; ".join(scopes)
    return "instances" if any(o.verdict is Verdict.VERIFIED for o in outcomes) else ""


def rests_on_of(outcomes) -> tuple[str, ...]:
    """Every cited result the claim's proved-modulo checks rest on, in first-seen order."""
    out: list[str] = []
    for o in outcomes:
        out.extend(r for r in o.rests_on if r not in out)
    return tuple(out)


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

    Only packages registered in the ``exactdp.claims`` entry-point group (:func:`claim_packages`) and their
    subpackages are imported: a package name is user text, and importing any installed package with all
    its submodules would run arbitrary code (``venv``'s command line).

    Raises:
        ParameterError: a name that is not a registered package of proof modules (or a subpackage of
        one), or not an importable package.
    """
    import importlib
    import pkgutil
    import re

    from exactdp.errors import ParameterError
    from exactdp.limits import quote

    registered = claim_packages()
    for name in (packages,) if isinstance(packages, str) else packages:
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name, re.ASCII):
            raise ParameterError(f"claims: {quote(name, 60)} is not a package name (dotted Python identifiers, "
                                 f"e.g. {registered[0]})")
        if not any(name == r or name.startswith(r + ".") for r in registered):
            raise ParameterError(f"claims: no package of proof modules named {name!r}: only packages registered "
                                 f"in the {ENTRY_POINT_GROUP!r} entry-point group and their subpackages are loaded "
                                 f"(registered: {', '.join(registered)})")
        try:
            pkg = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise  # a missing dependency inside the package is not a bad package name
            raise ParameterError(f"claims: no package of proof modules named {name!r}") from None
        if not hasattr(pkg, "__path__"):
            raise ParameterError(f"claims: {name!r} is a module, not a package of proof modules")
        for info in pkgutil.walk_packages(pkg.__path__, prefix=name + "."):
            importlib.import_module(info.name)
    return REGISTRY


def load_all(packages: str | tuple[str, ...] | list[str] | None = None) -> dict[str, Claim]:
    """The registry with the claims of ``packages`` loaded (default: the registered packages, see
    :func:`claim_packages`)."""
    return load_claims(claim_packages() if packages is None else packages)
