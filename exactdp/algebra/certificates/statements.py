r"""The ``"symbolic-statements"`` certificate: identities and inequalities decided exactly by the prover.

Each statement is ``(label, lhs, op, rhs, conditions)`` with ``op`` one of ``==``, ``<=``, ``<``, ``>=``,
``>`` and ``conditions`` extra region inequalities (reader text).  A side may record a substitution or a limit
(``Subs(e, x, v)``, ``Limit(e, x, p)``): the check re-does it (:func:`~exactdp.algebra.certificates.redo`), so a
statement that stands for "e at x = v equals r" keeps e and v instead of a result computed before export; a
statement whose two sides are the same text (a textual tautology) is FALSE: it proves nothing.  An identity ``lhs == rhs`` is decided everywhere
by :func:`exactdp.algebra.prover.prove_identity` (exact cancellation; sympy simplification for non-rational
terms), so its conditions only document where it is used; an inequality by :func:`exactdp.algebra.prover.decide` on the certificate's region ∩ the
statement's conditions (the parameters' assumptions included).  An inequality ``e >= 0`` that the cell
decomposition may not decide (more than two parameters) is first tried by the *orthant rule*, which applies
when every parameter of ``e`` is ≥ 0 on a region without further constraints: if the numerator's and the denominator's coefficients each have
one sign and their product is ≥ 0, then e ≥ 0 on the closed orthant.  TRUE iff every statement is TRUE.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

import sympy

from exactdp.algebra.certificates import Certificate, CertificateCheck, combine_truths, redo, register_kind
from exactdp.numbers.formula_text import DerivationStep, formula_text, inline_step, prefixed
from exactdp.numbers.truth import Truth

_OPS = {"==": None, "<=": sympy.LessThan, "<": sympy.StrictLessThan, ">=": sympy.GreaterThan,
        ">": sympy.StrictGreaterThan}


@register_kind
@dataclass(frozen=True, kw_only=True)
class SymbolicStatements(Certificate):
    """Named statements ``(label, lhs, op, rhs, conditions)`` decided by the prover (module docstring)."""

    kind = "symbolic-statements"
    statements: tuple[tuple[str, str, str, str, tuple[str, ...]], ...]

    def _check(self) -> CertificateCheck:
        from exactdp.algebra.prover import Decision, Region, decide, prove_identity

        if not self.statements:
            return CertificateCheck(Truth.FALSE, (), ("no statement to check",))
        syms = self.symbols()
        base = self.region_conditions(syms)
        steps: list[Any] = []
        fails: list[Any] = []
        truths: list[Any] = []
        for i, st in enumerate(self.statements):
            if len(st) != 5 or st[2] not in _OPS:
                return CertificateCheck(Truth.FALSE, tuple(steps), (f"statement {i}: expected (label, lhs, op, rhs, "
                                                                    f"conditions) with op in {list(_OPS)}",))
            label, lhs_t, op, rhs_t, conds = st
            if lhs_t.replace(" ", "") == rhs_t.replace(" ", ""):
                return CertificateCheck(Truth.FALSE, tuple(steps), (
                    f"{label}: both sides are the text {lhs_t[:80]!r}: a textual tautology proves nothing (record "
                    f"the substitution or limit it stands for: Subs(e, x, v), Limit(e, x, p))",))
            lhs, rhs = self.read(lhs_t, syms, f"{label} lhs"), self.read(rhs_t, syms, f"{label} rhs")
            try:
                (lhs, done_l), (rhs, done_r) = redo(lhs), redo(rhs)
            except ValueError as exc:
                return CertificateCheck(Truth.FALSE, tuple(steps), (f"{label}: {exc}",))
            steps.extend(prefixed(f"{label}: ", s) for s in done_l + done_r)
            extra = _Conditions(self, syms, conds, label).relations()
            conditions: tuple[str, ...] = ()
            if op == "==":  # an identity, decided everywhere (so on any region)
                d = prove_identity(lhs, rhs)
            else:
                rel = _OPS[op](lhs, rhs, evaluate=False)
                region = Region.of(*base, *extra, variables=_vars(lhs, rhs))
                whole = region.as_sympy()  # its args are ordered; And.make_args is a frozenset (hash order)
                conditions = tuple(formula_text(c) for c in (whole.args if isinstance(whole, sympy.And) else (whole,))
                                   if c is not sympy.true)
                orth = _orthant(rhs - lhs if op == "<=" else lhs - rhs, region) if op in ("<=", ">=") else ""
                d = Decision(Truth.TRUE, rel, region, [orth]) if orth else decide(rel, region, crossings=False)
            # prose (the label) and mathematics (the statement, its region) apart, the statement as written
            steps.append(DerivationStep(label, (f"{lhs_t} {'=' if op == '==' else op} {rhs_t}",), conditions,
                                        str(d.truth), tuple(self.parameters)))
            steps.extend(prefixed("    ", s) for s in d.steps)
            truths.append(d.truth)
            if d.truth is Truth.FALSE:
                ce = d.counterexample or {}
                fails.append(f"{label} is false" + (f"; counterexample {ce}" if ce else ""))
            elif d.truth is Truth.UNKNOWN:
                fails.append(f"{label}: undecided ({d.reason or 'no reason given'})")
        return CertificateCheck(combine_truths(truths), tuple(steps), tuple(fails))

    def counterexample(self) -> dict[Any, Any] | None:
        """The exact counterexample of the first false statement, re-derived (None if none is false)."""
        from exactdp.algebra.prover import Region, decide, prove_identity

        syms = self.symbols()
        base = self.region_conditions(syms)
        for label, lhs_t, op, rhs_t, conds in self.statements:
            lhs, rhs = self.read(lhs_t, syms, f"{label} lhs"), self.read(rhs_t, syms, f"{label} rhs")
            lhs, rhs = redo(lhs)[0], redo(rhs)[0]
            extra = _Conditions(self, syms, conds, label).relations()
            if op == "==":  # decided as _check does: everywhere, with prove_identity's witness
                d = prove_identity(lhs, rhs)
            else:
                d = decide(_OPS[op](lhs, rhs, evaluate=False), Region.of(*base, *extra, variables=_vars(lhs, rhs)),
                           crossings=False)
            if d.truth is Truth.FALSE:
                return {str(k): str(v) for k, v in (d.counterexample or {}).items()} or {"statement": label}
        return None


@dataclass(frozen=True)
class _Conditions:
    cert: SymbolicStatements
    syms: dict[Any, Any]
    texts: tuple[Any, ...]
    label: str

    def relations(self) -> list[Any]:
        out: list[Any] = []
        for j, text in enumerate(self.texts):
            rel = self.cert.read(text, self.syms, f"{self.label} condition {j}", relations=True)
            if rel is not sympy.true:
                out.extend(rel.args if isinstance(rel, sympy.And) else (rel,))
        return out


def _vars(*exprs: Any) -> list[Any]:
    return sorted(set().union(*[e.free_symbols for e in exprs]), key=str)


def _orthant(e: Any, region: Any) -> Any:
    """The orthant rule (module docstring): a derivation step if it proves e ≥ 0 on the region, else ''."""
    syms = sorted(e.free_symbols, key=str)
    if not syms or region.constraints or e.has(sympy.Min, sympy.Max, sympy.Abs, sympy.Piecewise):
        return ""  # the rule reads polynomial coefficients; piecewise terms go to the cell decomposition
    for s in syms:
        b = region.bounds(s)
        if b.lo is None or b.lo < 0:
            return ""
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    signs = []
    for p in (num, den):
        coeffs = sympy.Poly(sympy.expand(p), *syms).coeffs()
        if not all(c.is_Rational for c in coeffs):
            return ""
        if all(c >= 0 for c in coeffs):
            signs.append(1)
        elif all(c <= 0 for c in coeffs):
            signs.append(-1)
        else:
            return ""
    if signs[0] * signs[1] < 0 and num != 0:
        return ""
    sign = {1: "nonnegative", -1: "nonpositive"}
    return inline_step(f"orthant rule: every parameter is nonnegative on the region ({{}}); the numerator {{}} "
                       f"has {sign[signs[0]]} and the denominator {{}} {sign[signs[1]]} coefficients, so {{}} is "
                       f"nonnegative there: hence {{}}", sympy.And(*[sympy.GreaterThan(x, 0, evaluate=False) for x in syms]),
                       sympy.expand(num), sympy.expand(den), e, sympy.GreaterThan(e, 0, evaluate=False))


def statement(label: str, relation: Any, conditions: Any = ()) -> tuple[Any, ...]:
    """One statement tuple from a sympy relation (``Eq`` or an inequality) and sympy conditions."""
    from exactdp.algebra.certificates import expr_text, relation_text

    op: str | None = None
    if isinstance(relation, sympy.Eq):
        op = "=="
    else:
        op = {sympy.LessThan: "<=", sympy.StrictLessThan: "<", sympy.GreaterThan: ">=",
              sympy.StrictGreaterThan: ">"}.get(type(relation))
        if op is None:
            raise ValueError(f"{label}: {relation} is neither an identity nor an inequality")
    return (label, expr_text(relation.lhs), op, expr_text(relation.rhs),
            tuple(relation_text(c) for c in conditions))
