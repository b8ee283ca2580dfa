r"""The prover's case split and its rational-function check.

* :func:`cases` — ``Min``/``Max``/``Piecewise`` are expanded into cases; each case condition joins the
  region (step 1 of :mod:`exactdp.algebra.prover`).  The number of conjunctions is counted before the
  disjunctive normal form is built (:func:`dnf_terms`) and charged to the ``max_work`` limit.
* :func:`rational_check` — an expression outside the rational functions of the parameters (log, exp,
  LambertW, a non-integer power of a parameter) is not decided: :class:`~exactdp.algebra.decision.ProverUndecided`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sympy

from exactdp.algebra.decision import ProverUndecided
from exactdp.algebra.regions import Region
from exactdp.limits import require


def rational_check(expr: Any) -> None:
    for a in sympy.preorder_traversal(expr):
        if isinstance(a, (sympy.log, sympy.exp, sympy.LambertW)) or (
                isinstance(a, sympy.Pow) and not a.exp.is_Integer and a.base.free_symbols):
            raise ProverUndecided(f"not a rational function of the parameters: {a}")
        if isinstance(a, sympy.Function) and not isinstance(a, (sympy.Min, sympy.Max, sympy.Piecewise)):
            raise ProverUndecided(f"not a rational function of the parameters: {a}")


def cases(expr: Any, region: Region) -> Iterator[tuple[Any, Region]]:
    """Expand Min/Max/Piecewise: yield (expression without them, region)."""
    expr = expr.rewrite(sympy.Piecewise) if expr.has(sympy.Min, sympy.Max) else expr
    expr = sympy.piecewise_fold(expr)
    if not isinstance(expr, sympy.Piecewise):
        yield expr, region
        return
    previous: list[Any] = []
    for e, cond in expr.args:
        full = sympy.And(cond, *[sympy.Not(p) for p in previous])
        previous.append(cond)
        if full is sympy.false:
            continue
        require("max_work", _DNF_TERM_COST * dnf_terms(full),
                "prover: case split of a piecewise expression (conjunctions of its negated conditions)")
        dnf = sympy.to_dnf(full, simplify=False)
        for conj in (dnf.args if isinstance(dnf, sympy.Or) else (dnf,)):
            if conj is sympy.false:
                continue
            rels = conj.args if isinstance(conj, sympy.And) else (conj,)
            rels = [_canon(r) for r in rels]
            if any(r is sympy.false for r in rels):
                continue
            sub = region.with_conditions(*[r for r in rels if r is not sympy.true])
            yield from cases(e, sub)


#: work units charged per conjunction of a case split (each becomes a region the prover decides: sympy
#: substitutions and sign decisions, far more than one elementary operation)
_DNF_TERM_COST = 10**5


def dnf_terms(cond: Any, dnf: bool = True) -> int:
    """Number of conjunctions in the disjunctive normal form of ``cond`` without building it (``dnf=False``:
    clauses of the conjunctive one): an And multiplies the DNF counts of its arguments and adds their CNF
    counts, an Or the reverse, a Not swaps the two forms; capped at 10^18.  ``to_dnf`` of
    And(cond, Not(p₁), …, Not(p_k)) has up to Π|p_i| terms, exponential in the number of pieces."""
    if isinstance(cond, sympy.Not):
        return dnf_terms(cond.args[0], not dnf)
    if not isinstance(cond, (sympy.And, sympy.Or)):
        return 1
    counts = [dnf_terms(arg, dnf) for arg in cond.args]
    if isinstance(cond, sympy.And) == dnf:
        out = 1
        for k in counts:
            out = min(10**18, out * k)
        return out
    return min(10**18, sum(counts))


def _canon(r: Any) -> Any:
    if isinstance(r, sympy.Not):
        r = r.args[0]
        return {sympy.StrictLessThan: sympy.GreaterThan, sympy.LessThan: sympy.StrictGreaterThan,
                sympy.StrictGreaterThan: sympy.LessThan, sympy.GreaterThan: sympy.StrictLessThan}[type(r)](
            r.lhs, r.rhs)
    if isinstance(r, (sympy.Eq, sympy.Ne)):
        raise ProverUndecided(f"equality conditions are not regions: {r}")
    return r
