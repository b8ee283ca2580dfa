r"""The ``"split-tree"`` certificate: a bound Min_i A_i − o ≥ 0 from Farkas combinations that hold on the cells of
split trees, the cells derived from the trees (so that what is proved is bound to the data, not to prose).

Data: variables v (a, b, S), parameters p on a domain D (``region``), named constraints g_j(v, p) ≥ 0 (the
two-point LP's rows and bounds), an objective o(v) (a − γb), the arguments A_1, …, A_k (in p; a Max allowed), one
**split tree** per argument and per leaf ℓ its multipliers λ_ℓ(p) and a branch E_ℓ(p).  An inner node
``("split", "g >= 0", yes, no)`` gives its children the cells (path, g ≥ 0) and (path, −g ≥ 0): closed and
complementary, so the leaves of a tree cover D whatever g is; a leaf is ``("leaf", "ℓ")``; an ``("open", …)`` leaf
is a gap.  Every leaf index occurs exactly once in all the trees; the argument a leaf serves is that of its tree.

Check (each step exact):

1. per leaf ℓ in tree i, on its cell C_ℓ = D ∩ path: the slack s_ℓ = E_ℓ − o − Σ_j λ_ℓ,j g_j, after exact
   cancellation, is free of the variables, and the ``linear-combination`` "E_ℓ − o ≥ 0 with multipliers λ_ℓ and
   slack s_ℓ on C_ℓ" checks TRUE (its identity holds by construction; every λ_ℓ,j ≥ 0 and s_ℓ ≥ 0 on C_ℓ decided
   by the prover, :class:`~exactdp.algebra.certificates.linear_combination.LinearCombination`): so o ≤ E_ℓ on C_ℓ
   under the constraints;
2. E_ℓ ≤ A_i, decided on D (which contains C_ℓ; ``symbolic-statements``, the prover taking A_i's Max apart);
3. coverage is structural (step 0: the cells are the trees' paths, never stated separately).

TRUE means: for every p ∈ D and every v with g_j(v, p) ≥ 0, o ≤ E_ℓ ≤ A_i on the cell holding p, for every i; so
Min_i A_i − o ≥ 0 — the certificate's conclusion (:meth:`SplitTreeCertificate.conclusion`), which
:func:`exactdp.claim_statement.binding` binds to a statement like a linear combination's.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

import sympy

from exactdp.algebra.certificates import (
    Certificate,
    CertificateCheck,
    check,
    combine_truths,
    expr_text,
    register_kind,
    relation_text,
)
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.algebra.regions import relation_to_positive
from exactdp.claim_statement import split_tree_conclusion
from exactdp.numbers.truth import Truth


def walk_trees(trees: Any, n_leaves: int, read: Any) -> tuple[list[tuple[int, int, list[Any]]], list[str]]:
    """([(leaf, argument, cell conditions g ≥ 0 as sympy relations)], failures) of the trees: every split
    ``"g >= 0"`` (non-strict) gives g ≥ 0 and −g ≥ 0; every leaf index once; an open leaf is a gap.  ``read``
    reads a condition text as a sympy relation."""
    out: list[tuple[int, int, list[Any]]] = []
    bad: list[str] = []

    def walk(node: Any, i: int, path: list[Any]) -> None:
        if not isinstance(node, (tuple, list)) or not node:
            bad.append("malformed tree node")
            return
        tag = node[0]
        if tag == "split" and len(node) == 4:
            g, strict = relation_to_positive(read(node[1]))
            if strict:
                bad.append(f"the split {node[1]!r} is strict: its cells would not be closed complements")
                return
            walk(node[2], i, path + [sympy.GreaterThan(sympy.expand(g), 0, evaluate=False)])
            walk(node[3], i, path + [sympy.GreaterThan(sympy.expand(-g), 0, evaluate=False)])
        elif tag == "leaf" and len(node) == 2 and str(node[1]).isdigit() and int(node[1]) < n_leaves:
            out.append((int(node[1]), i, path))
        elif tag == "open":
            bad.append(f"coverage gap: the cell {' and '.join(map(str, path)) or 'the whole domain'} has no leaf")
        else:
            bad.append(f"unknown tree node {str(tag)[:20]!r} (or a leaf index out of range)")

    for i, tree in enumerate(trees):
        walk(tree, i, [])
    seen = sorted(k for k, _, _ in out)
    if seen != list(range(n_leaves)):
        bad.append(f"the trees' leaves {seen} are not each of the {n_leaves} leaves exactly once")
    return out, bad


@register_kind
@dataclass(frozen=True, kw_only=True)
class SplitTreeCertificate(Certificate):
    """Min_i A_i − o ≥ 0 under the constraints from split trees of Farkas combinations (module docstring)."""

    kind = "split-tree"
    variables: tuple[str, ...]
    constraints: tuple[tuple[str, str], ...]  # (label, g) meaning g >= 0
    objective: str
    arguments: tuple[str, ...]
    trees: tuple[Any, ...]
    leaf_multipliers: tuple[tuple[str, ...], ...]
    leaf_branches: tuple[str, ...]
    uses: tuple[str, ...] = ()

    def conclusion(self) -> str:
        """Min(A_1, …, A_k) − (o): what h ≥ 0 the certificate proves
        (:func:`exactdp.claim_statement.split_tree_conclusion`)."""
        return split_tree_conclusion({"arguments": self.arguments, "objective": self.objective})

    def leaves(self) -> tuple[list[tuple[int, int, list[Any]]], list[str]]:
        """:func:`walk_trees` of the certificate's trees."""
        sy = self.symbols()
        return walk_trees(self.trees, len(self.leaf_branches),
                          lambda txt: self.read(str(txt), sy, "split condition", relations=True))

    def leaf_combination(self, k: int, cell: list[Any]) -> Any:
        """Leaf k's ``linear-combination`` on D ∩ cell, its slack derived (None: the branch or the slack depends on
        the variables, so the leaf bounds o by no function of the parameters)."""
        sy = self.symbols(self.variables)
        xs = {sy[v] for v in self.variables}
        g = [self.read(txt, sy, f"constraint {lab}") for lab, txt in self.constraints]
        lam = [self.read(m, sy, f"leaf {k} multiplier") for m in self.leaf_multipliers[k]]
        E = self.read(self.leaf_branches[k], sy, f"leaf {k} branch")
        h = E - self.read(self.objective, sy, "objective")
        s = sympy.cancel(sympy.together(h - sympy.Add(*[m * gi for m, gi in zip(lam, g)])))
        if (s.free_symbols | E.free_symbols) & xs:
            return None
        return LinearCombination(
            parameters=self.parameters, assumptions=self.assumptions,
            region=(*self.region, *(relation_text(c) for c in cell)), sizes=self.sizes, variables=self.variables,
            constraints=self.constraints, multipliers=self.leaf_multipliers[k], conclusion=expr_text(h),
            slack=expr_text(s), uses=self.uses)

    def _check(self) -> CertificateCheck:
        n = len(self.leaf_branches)
        if len(self.leaf_multipliers) != n or len(self.trees) != len(self.arguments) or not n:
            return CertificateCheck(Truth.FALSE, (), ("inconsistent numbers of leaves, trees and arguments",))
        if any(len(m) != len(self.constraints) for m in self.leaf_multipliers):
            return CertificateCheck(Truth.FALSE, (), ("a leaf's multipliers do not match the constraints",))
        found, bad = self.leaves()
        steps = [f"coverage: {len(self.trees)} split tree(s) of complementary closed cells (g >= 0 | -g >= 0) with "
                 f"{len(found)} leaves cover the domain {' and '.join(self.region)} (structural)"]
        if bad:
            return CertificateCheck(Truth.UNKNOWN if all(b.startswith("coverage gap") for b in bad) else Truth.FALSE,
                                    tuple(steps), tuple(bad))
        truths = []
        fails: list[str] = []
        sy = self.symbols()
        pairs: dict[tuple[int, str], None] = {}
        for k, i, cell in sorted(found):
            where = " and ".join(map(str, cell)) or "the whole domain"
            combo = self.leaf_combination(k, cell)
            if combo is None:
                truths.append(Truth.FALSE)
                fails.append(f"leaf {k}: the branch, or branch - objective - sum(multiplier * constraint), depends "
                             f"on the variables")
                continue
            res = check(combo)
            truths.append(res.truth)
            steps.append(f"leaf {k} (argument {i}, cell {where}): {self.objective} <= {self.leaf_branches[k]}: "
                         f"linear combination with slack {combo.slack}: {res.truth}")
            fails += [f"leaf {k}: {f}" for f in res.failures[:2]]
            pairs[(i, self.leaf_branches[k])] = None
        for i, E in pairs:
            A = self.read(self.arguments[i], sy, f"argument {i}")
            e = self.read(E, sy, "branch")
            if not A.has(sympy.Max, sympy.Min) and sympy.cancel(sympy.together(A - e)) == 0:
                steps.append(f"branch {E} is argument {i} itself")
                continue
            st = SymbolicStatements(parameters=self.parameters, assumptions=self.assumptions, region=self.region,
                                    sizes=self.sizes, statements=(statement(f"branch <= argument {i}",
                                                                            sympy.LessThan(e, A, evaluate=False)),))
            res = check(st)
            truths.append(res.truth)
            steps.append(f"branch {E} <= argument {i} on the domain: {res.truth}")
            fails += [f"branch {E} <= argument {i}: {f}" for f in res.failures[:1]]
        truth = combine_truths(truths)
        if truth is Truth.TRUE:
            steps.append(f"hence {self.conclusion()} >= 0 whenever every constraint holds, on the whole domain")
        return CertificateCheck(truth, tuple(steps), tuple(fails))


__all__ = ["SplitTreeCertificate", "walk_trees"]
