r"""Checks built from exact symbolic decisions (identities and inequalities), for ``proofs/`` modules.

:func:`symbolic_check` turns a list of named statements — identities ``Eq(a, b)`` decided by
:func:`exactdp.algebra.prover.prove_identity`, inequalities decided by :func:`exactdp.algebra.prover.decide`
on a region — into a ``"symbolic-statements"`` certificate
(:class:`~exactdp.algebra.certificates.statements.SymbolicStatements`: the statements as reader text, the
parameters with their sign assumptions) and checks it.  The outcome is PROVED with that certificate (every
statement TRUE, the derivation lists each step), REFUTED (a statement FALSE, with its exact
counterexample) or UNDECIDED (with the reason).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from exactdp.algebra.certificates import assumptions_of, check, functions_of, symbols_of
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.scopes import sizes_of, with_sizes
from exactdp.numbers.truth import Truth
from exactdp.verification.claims import Check, Outcome, Verdict, proved


@dataclass(frozen=True)
class Statement:
    """One symbolic fact: ``Eq(a, b)`` (an identity) or an inequality, on an optional region."""

    label: str
    relation: object
    region: tuple = ()  # sympy conditions (only for inequalities)


def Eq(a, b) -> sympy.Eq:
    """An unevaluated identity a = b (sympy would collapse structurally equal sides to ``True``)."""
    return sympy.Eq(a, b, evaluate=False)


def at(expr, *substitutions):
    """``expr`` at x = v for each ``(x, v)`` in turn, recorded (``Subs``) for the checkers to carry out: a
    statement "expr at x = v equals r" then keeps expr and v instead of the substituted result, which may be r
    itself (a textual tautology that proves nothing)."""
    for x, v in substitutions:
        expr = sympy.Subs(expr, x, v)
    return expr


def limit_at(expr, x, point):
    """The one-sided limit of ``expr`` as x → point⁺, recorded (``Limit``) for the checkers to compute."""
    return sympy.Limit(expr, x, point, "+")


def statements_certificate(name: str, statements, scope: str = "all parameters") -> SymbolicStatements:
    """The ``"symbolic-statements"`` certificate of the statements (parameters = their free symbols)."""
    syms: set = set()
    rows = []
    for s in statements:
        if s.relation is sympy.true or s.relation is sympy.false:
            raise TypeError(f"{s.label}: the relation was evaluated to {s.relation} by sympy; build identities "
                            f"with exactdp.verification.identities.Eq (unevaluated)")
        syms |= symbols_of(s.relation)  # with the variables of recorded substitutions and limits
        for c in s.region:
            syms |= c.free_symbols
        rows.append(statement(s.label, s.relation, () if isinstance(s.relation, sympy.Eq) else s.region))
    integers = [str(x) for x in syms if x.is_integer]  # an integer parameter is a size: it shows in the scope
    return SymbolicStatements(name=name, parameters=tuple(sorted(map(str, syms))), assumptions=assumptions_of(syms),
                              functions=functions_of(*[s.relation for s in statements]), scope=scope,
                              sizes=with_sizes(sizes_of(scope), integers), statements=tuple(rows))


def symbolic_outcome(statements, name: str = "symbolic statements", scope: str = "all parameters") -> Outcome:
    statements = tuple(statements)
    cert = statements_certificate(name, statements, scope)
    result = check(cert)
    derivation = tuple(result.steps)
    if result.truth is Truth.TRUE:
        return proved(f"{len(statements)} symbolic statement(s) proved exactly", (cert,), scope,
                      derivation=derivation)
    if result.truth is Truth.FALSE:
        ce = cert.counterexample() or {"statement": "; ".join(result.failures)}
        return Outcome(Verdict.REFUTED, f"{result.failures[0]}", derivation=derivation, counterexample=ce,
                       details={"failures": list(result.failures)})
    return Outcome(Verdict.UNDECIDED, "a symbolic statement could not be decided", derivation=derivation,
                   reason="; ".join(result.failures) or "undecided")


def symbolic_check(name: str, statements, description: str = "", scope: str = "all parameters") -> Check:
    """A :class:`Check` proving the statements exactly (deterministic; ignores the seed).  ``scope`` says
    what the statements cover (their regions are part of the certificate)."""
    statements = tuple(statements)
    return Check(name, lambda ctx: symbolic_outcome(statements, name, scope), description)
