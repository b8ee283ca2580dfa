r"""Checks built from exact symbolic decisions (identities and inequalities), for ``proofs/`` modules.

:func:`symbolic_check` turns a list of named statements — identities ``Eq(a, b)`` decided by
:func:`exactdp.algebra.prover.prove_identity`, inequalities decided by :func:`exactdp.algebra.prover.decide`
on a region — into one :class:`~exactdp.verification.claims.Outcome`: PROVED (every statement TRUE,
the derivation lists each step), REFUTED (a statement FALSE, with its exact counterexample) or
UNDECIDED (with the reason).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from exactdp.numbers.truth import Truth
from exactdp.algebra.prover import Region, decide, prove_identity
from exactdp.verification.claims import Check, Outcome, Verdict


@dataclass(frozen=True)
class Statement:
    """One symbolic fact: ``Eq(a, b)`` (an identity) or an inequality, on an optional region."""

    label: str
    relation: object
    region: tuple = ()  # sympy conditions (only for inequalities)


def Eq(a, b) -> sympy.Eq:
    """An unevaluated identity a = b (sympy would collapse structurally equal sides to ``True``)."""
    return sympy.Eq(a, b, evaluate=False)


def decide_statement(s: Statement):
    if s.relation is sympy.true or s.relation is sympy.false:
        raise TypeError(f"{s.label}: the relation was evaluated to {s.relation} by sympy; build identities "
                        f"with exactdp.verification.identities.Eq (unevaluated)")
    if isinstance(s.relation, sympy.Eq):
        return prove_identity(s.relation.lhs, s.relation.rhs)
    region = Region.of(*s.region, variables=sorted(s.relation.free_symbols, key=str))
    return decide(s.relation, region)


def symbolic_outcome(statements) -> Outcome:
    derivation, crossings = [], {}
    for s in statements:
        d = decide_statement(s)
        where = f" on {d.region}" if d.region is not None and s.region else ""
        derivation.append(f"{s.label}: {s.relation}{where} -> {d.truth}")
        derivation.extend(f"    {step}" for step in d.steps)
        if d.crossings:
            crossings[s.label] = "; ".join(str(x) for x in d.crossings)
        if d.truth is Truth.FALSE:
            ce = {str(k): str(v) for k, v in (d.counterexample or {}).items()} or {"statement": str(s.relation)}
            return Outcome(Verdict.REFUTED, f"{s.label} is false", derivation=tuple(derivation),
                           counterexample=ce, details={"statement": str(s.relation)})
        if d.truth is Truth.UNKNOWN:
            return Outcome(Verdict.UNDECIDED, f"{s.label} could not be decided", derivation=tuple(derivation),
                           reason=d.reason or "undecided")
    return Outcome(Verdict.PROVED, f"{len(statements)} symbolic statement(s) proved exactly",
                   derivation=tuple(derivation), details={"crossings": crossings} if crossings else {})


def symbolic_check(name: str, statements, description: str = "") -> Check:
    """A :class:`Check` proving the statements exactly (deterministic; ignores the seed)."""
    statements = tuple(statements)
    return Check(name, lambda ctx: symbolic_outcome(statements), description)
