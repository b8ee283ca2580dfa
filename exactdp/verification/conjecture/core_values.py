r"""The exact values of a conjecture's quantities at an instance, from the core functions.

:func:`core_values` evaluates every quantity of the conjecture (η_TV, η_{E_γ}, η_χ², η_KL, KL, χ², H², TV, E_γ, the
privacy levels, the tensor coefficient...) at an instance with the library's own exact functions, as sympy
numbers: the independent re-check of a violation (:func:`exactdp.verification.conjecture.api.recheck`) and the
exact zero test of a slack the balls cannot separate from 0 (:mod:`exactdp.verification.conjecture.search`).
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.measures import registry
from exactdp.numbers.reader import as_expr
from exactdp.numbers import loglin as V
from exactdp.verification.conjecture import kernel_terms
from exactdp.verification.conjecture.parser import Conjecture, conjecture_symbols
from exactdp.verification.conjecture.quantities import Instance


def exact_sympy(v):
    """An exact value (fmpq, or anything the safe reader takes) as a sympy number."""
    if isinstance(v, fmpq):
        return sympy.Rational(int(v.p), int(v.q))
    return as_expr(v)


def _core_dist(node, inst: Instance):
    if isinstance(node, sympy.Symbol):
        return inst.P if node.name == "P" else inst.Q
    if node.func.__name__ == "row":
        return inst.K.row(int(node.args[0]))
    return inst.K.apply(_core_dist(node.args[0], inst))


def core_values(conj: Conjecture, inst: Instance, lower: frozenset = frozenset(), used: set | None = None) -> dict:
    """Every quantity and parameter of the conjecture at the instance, as exact sympy values from the core: each
    quantity by the ``exact`` evaluator of its registration (:mod:`exactdp.measures.registry`).  A quantity named
    in ``lower`` that has no exact value here takes its exact lower bound
    (:func:`~exactdp.measures.registry.exact_lower_bound`) — the caller's business to use it only where a lower
    bound decides (the small side of ``Z <= bound``); the names that did are added to ``used``."""
    params = {sympy.Symbol(k, **_assume(k)): v for k, v in inst.params_sympy().items()}
    K, out = inst.K, dict(params)
    constants = registry.kernel_constants()
    nodes = set()
    for side in (conj.lhs, conj.rhs):
        nodes |= {a for a in sympy.preorder_traversal(side)
                  if isinstance(a, sympy.core.function.AppliedUndef) or
                  (isinstance(a, sympy.Symbol) and a.name in constants)}
    # innermost first, so arguments are already numbers
    for node in sorted(nodes, key=lambda a: len(list(sympy.preorder_traversal(a)))):
        name = node.name if isinstance(node, sympy.Symbol) else node.func.__name__
        if name in ("K", "row") or kernel_terms.is_term(node):
            continue
        if not isinstance(node, sympy.Symbol) and node.args and kernel_terms.is_term(node.args[0]):
            # a quantity of a product or power of K and K2: on the explicit product kernel (an evaluation
            # independent of the search's pair-type route for eta_tv and eta_hs)
            try:
                fs = kernel_terms.factors(node.args[0], K, inst.K2, inst.n)
                out[node] = exact_sympy(kernel_terms.exact_value(
                    name, fs, tuple(a.xreplace(out) for a in node.args[1:]), explicit=True))
            except registry.Undefined as exc:
                raise V.Undefined(str(exc)) from None
            continue
        q = registry.quantity(name)
        if q is None or q.exact is None:
            raise V.Undefined(f"{name} has no exact evaluator")
        k = q.distributions
        first = [_core_dist(a, inst) for a in node.args[:k]] if k else [K]
        args = [] if isinstance(node, sympy.Symbol) else [a.xreplace(out) for a in node.args[k:]]
        try:
            out[node] = exact_sympy(q.exact(*first, *args))
        except registry.Undefined as exc:
            low = registry.exact_lower_bound(name, K) if name in lower and not args else None
            if low is None:
                raise V.Undefined(str(exc)) from None
            out[node] = exact_sympy(low)
            if used is not None:
                used.add(name)
    return out


def _assume(name: str) -> dict:
    s = conjecture_symbols().get(name)
    return s.assumptions0 if s is not None else {}
