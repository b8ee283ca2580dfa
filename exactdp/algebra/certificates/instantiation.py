r"""The ``"instantiation"`` and ``"cases"`` certificates: a statement proved from other certificates' statements, so
that a proof's change of variable and its split into cases are checked, not written in prose.

**instantiation** — data: the name of a source certificate and its statement S, copied ("for every p of D_S
and every v with g(v, p) ≥ 0: s(v, p) ≥ 0"), a substitution σ = [(x, v)] of S's parameters that are not the
certificate's by polynomials in the certificate's parameters (defined at every point: an image with a pole inside
D, such as (N²c − 2Nc)/(N − 2) for N·c, would leave the statement undefined there, so it is refused), and the
certificate's region D.  Check: every
condition of σ(D_S) holds on D (decided by the prover), so every point q of D gives the point σ(q) of D_S; hence
for every v with σ(g)(v, q) ≥ 0, σ(s)(v, q) ≥ 0.  The every-N (ε,c)-PML proof (:mod:`exactdp.verification.conjecture.pieces`)
proves its bound in u = N·c on D₃ = {t ≥ 1, c > 0, 3c ≤ u ≤ 1}; with σ = (u ↦ N·c) and D = {t ≥ 1, c > 0, N ≥ 3,
N·c ≤ 1} the check decides N·c − 3c ≥ 0 on D (and the other conditions), and the statement it derives is the
conjecture at N, term by term — what :func:`exactdp.claim_statement.binding` compares with the statement the
certificate carries (a Min's arguments one by one after exact cancellation, :func:`exactdp.claim_statement.same_value`).

σ may also replace some of S's **variables** (a change of variable under the quantifier, with its hypotheses):
S holds for every real v with g(v, p) ≥ 0, so it holds at v = σ(v)(w, q) for every point q of D and every w
with σ(g)(w, q) ≥ 0.  The rule: a variable's image is a polynomial in the certificate's parameters and variables
(defined, and real, at every point: no denominator, no root), the variables S keeps are the certificate's, no
size (an integer) is replaced, and — as for a parameter-only σ — the hypotheses proved are the substituted ones,
σ(g) ≥ 0, each of which the statement the instantiation is bound to must state exactly (the binding's rule for a
derived hypothesis, :func:`exactdp.claim_statement.binding`: the same g up to an exact cancellation, so a target
hypothesis never weaker than the substituted source's; a conclusion's "when" conditions and equations are
substituted likewise).  [G] G-20's achievers are proved in α = c·q and u = N·c (m = (1 − tα)/z ≥ 0 for every α
with tα ≤ 1, z = t(1 − u) + 1) and stated in N, c and a real q: σ = (u ↦ N·c, α ↦ c·q) gives the hypothesis
t·c·q ≤ 1, which the stated part has, and its conclusion (1 − t·c·q)/(1 + t(1 − N·c)) ≥ 0, term by term.  A
source certificate's own definitions (m, M, z of a linear combination) never reach the instantiation: its source
statement is written out without them, and the source certificate's binding to that statement substitutes its
definitions and compares (an edited definition is a certificate that does not prove the copied statement).

**cases** — data: an integer size n (one of the sizes, e.g. N of "all N, M"), the hypotheses and conclusions
proved on the region, and parts (name, lo, hi) with their statements copied: each part proves them with n = lo
(lo = hi: its statement at that integer) or lo ≤ n (≤ hi).  Check (:func:`exactdp.claim_statement.chain_of`): each
part's hypotheses are the certificate's (at n = lo), the certificate's conclusions are the part's (term by term),
each part's domain holds on the region with its case (decided); the cases are consecutive integer ranges, the
last unbounded, and the region gives n ≥ the first lo.  Integrality is used there and only there: for an integer
size n ≥ 2, n ≠ 2 gives n ≥ 3 (exact integer arithmetic on the cases' bounds, hi + 1 = the next lo), which no
decision over the real numbers could see.

Both rest on certificates named in the data: a checker of a whole proof (:func:`citation_failures`, ``exactdp
recheck``) requires a certificate of that name carrying exactly the copied statement in the same proof, so the
chain can neither point at nothing nor at an edited statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy

from exactdp.algebra.certificates import (
    FUNCTIONS,
    Certificate,
    CertificateCheck,
    ClaimStatement,
    combine_truths,
    decide_sign,
    register_kind,
)
from exactdp.claim_statement import Chain, chain_of
from exactdp.numbers.truth import Truth


def _checked_chain(cert: Certificate) -> CertificateCheck:
    """:func:`exactdp.claim_statement.chain_of` of the certificate, its obligations decided by the prover."""
    variables: tuple[str, ...] = getattr(cert, "variables", ())
    syms = cert.symbols(variables)
    funcs = dict(FUNCTIONS)
    region = cert.region_conditions(syms) + _assumed(cert, syms)
    ch: Chain = chain_of(cert.to_json(), syms, funcs, region)
    if ch.failures:
        return CertificateCheck(Truth.FALSE, tuple(ch.steps), tuple(ch.failures))
    steps: list[Any] = list(ch.steps)
    fails: list[str] = []
    truths = []
    for what, rel, conds in ch.obligations:
        truth, step = decide_sign(rel.lhs - rel.rhs if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan))
                                  else rel.rhs - rel.lhs, list(conds),
                                  strict=isinstance(rel, (sympy.StrictGreaterThan, sympy.StrictLessThan)))
        truths.append(truth)
        steps.append(f"{what}: {truth}")
        if truth is not Truth.TRUE:
            fails.append(f"{what}: {truth} ({step})")
    return CertificateCheck(combine_truths(truths), tuple(steps), tuple(fails))


def _assumed(cert: Certificate, syms: dict[str, Any]) -> list[Any]:
    """The parameters' sign assumptions as relations (a positive c is c > 0)."""
    out: list[Any] = []
    for name, assumed in cert.assumptions:
        for a in (x.strip() for x in assumed.split(",")):
            if a == "positive":
                out.append(sympy.StrictGreaterThan(syms[name], 0))
            elif a == "nonnegative":
                out.append(sympy.GreaterThan(syms[name], 0))
    return out


@register_kind
@dataclass(frozen=True, kw_only=True)
class Instantiation(Certificate):
    """A source certificate's statement at a substitution of its parameters (module docstring)."""

    kind = "instantiation"
    variables: tuple[str, ...]
    source: str
    source_statement: ClaimStatement
    substitution: tuple[tuple[str, str], ...]

    def cites(self) -> list[tuple[str, ClaimStatement]]:
        """(name, statement) of the certificate this one rests on."""
        return [(self.source, self.source_statement)]

    def _check(self) -> CertificateCheck:
        return _checked_chain(self)


@register_kind
@dataclass(frozen=True, kw_only=True)
class Cases(Certificate):
    """Hypotheses ⇒ conclusions on the region from parts that prove them for integer ranges of a size (module
    docstring)."""

    kind = "cases"
    variables: tuple[str, ...]
    size: str
    hypotheses: tuple[str, ...]
    conclusions: tuple[str, ...]
    parts: tuple[tuple[str, str, str], ...]
    part_statements: tuple[ClaimStatement, ...]

    def cites(self) -> list[tuple[str, ClaimStatement]]:
        """(name, statement) of each part."""
        return [(p[0], st) for p, st in zip(self.parts, self.part_statements)]

    def _check(self) -> CertificateCheck:
        return _checked_chain(self)


def citation_failures(certificates: Any) -> list[str]:
    """Why a proof's certificates do not support each other: a certificate that rests on another (``cites``) whose
    name is not among them, or is there with another statement than the one copied."""
    by_name: dict[str, list[Any]] = {}
    for c in certificates:
        by_name.setdefault(c.name, []).append(c.statement)
    out = []
    for c in certificates:
        for name, st in getattr(c, "cites", lambda: [])():
            found = by_name.get(name)
            if not found:
                out.append(f"{c.kind} {c.name[:60]!r} rests on {name[:60]!r}, which the proof does not carry")
            elif st not in found:
                out.append(f"{c.kind} {c.name[:60]!r} rests on {name[:60]!r} with a statement that is not the one "
                           f"that certificate carries")
    return out


__all__ = ["Cases", "Instantiation", "citation_failures"]
