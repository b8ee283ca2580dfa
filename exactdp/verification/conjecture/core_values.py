r"""The exact values of a conjecture's quantities at an instance, from the core functions.

:func:`core_values` evaluates every quantity of the conjecture (η_TV, η_{E_γ}, η_χ², η_KL, KL, χ², H², TV, E_γ, the
privacy levels, the tensor coefficient...) at an instance with the library's own exact functions, as sympy
numbers: the independent re-check of a violation (:func:`exactdp.verification.conjecture.api.recheck`) and the
exact zero test of a slack the balls cannot separate from 0 (:mod:`exactdp.verification.conjecture.search`).
"""

from __future__ import annotations

import sympy
from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.limits import limit
from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.measures.divergences import chi2, hellinger2, hockey_stick, kl, tv
from exactdp.measures.privacy import ldp_epsilon, max_leakage, pml_epsilon
from exactdp.numbers.reader import as_expr
from exactdp.verification.conjecture import values as V
from exactdp.verification.conjecture.parser import KERNEL_CONSTANTS, Conjecture, conjecture_symbols
from exactdp.verification.conjecture.quantities import Instance, eta_chi2_two_inputs


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


def _rational(expr, what: str) -> fmpq:
    try:
        e = sympy.nsimplify(expr) if not expr.is_Rational else expr
    except (OverflowError, ValueError, TypeError, ZeroDivisionError):  # huge or odd arguments: no value here
        raise V.Undefined(f"{what}: {expr} cannot be read as an exact rational") from None
    if not e.is_Rational:
        raise V.Undefined(f"{what}: {expr} is not rational")
    return fmpq(int(e.p), int(e.q))


def eta_hockey_stick_exact(K: Kernel, g):
    """η_{E_g}(K) = max over x ≠ x' of Σ_y (K(y|x) − g K(y|x'))₊ for an exact (possibly irrational) g ≥ 0,
    as an exact sympy number (rational g goes through the core's fmpq path)."""
    if g.is_Rational:
        return exact_sympy(eta_hockey_stick(K, fmpq(int(g.p), int(g.q))))
    best = sympy.Integer(0)
    for i in range(K.N):
        for j in range(K.N):
            if i != j:
                best = sympy.Max(best, sympy.Add(*[sympy.Max(exact_sympy(a) - g * exact_sympy(b), 0) for a, b in zip(K[i], K[j])]))
    return best


def core_values(conj: Conjecture, inst: Instance) -> dict:
    """Every quantity and parameter of the conjecture at the instance, as exact sympy values from the core."""
    params = {sympy.Symbol(k, **_assume(k)): v for k, v in inst.params_sympy().items()}
    K, out = inst.K, dict(params)
    nodes = set()
    for side in (conj.lhs, conj.rhs):
        nodes |= {a for a in sympy.preorder_traversal(side)
                  if isinstance(a, sympy.core.function.AppliedUndef) or
                  (isinstance(a, sympy.Symbol) and a.name in KERNEL_CONSTANTS)}
    # innermost first, so arguments are already numbers
    for node in sorted(nodes, key=lambda a: len(list(sympy.preorder_traversal(a)))):
        name = node.name if isinstance(node, sympy.Symbol) else node.func.__name__
        args = [] if isinstance(node, sympy.Symbol) else [a.xreplace(out) for a in node.args]
        if name in ("K", "row"):
            continue
        if name == "eta_tv":
            out[node] = exact_sympy(eta_tv(K))
        elif name == "ldp_eps":
            out[node] = ldp_epsilon(K)
        elif name == "max_leakage":
            out[node] = max_leakage(K)
        elif name in ("eta_chi2", "eta_kl"):
            out[node] = eta_chi2_two_inputs(K).as_sympy()
        elif name == "pml_eps":
            out[node] = pml_epsilon(K, _rational(args[0], "pml_eps(c)"))
        elif name == "eta_hs":
            out[node] = exact_sympy(eta_hockey_stick(K, _rational(args[0], "eta_hs(gamma)")))
        elif name == "delta_K":
            if not args[0].is_number or args[0].is_negative or abs(args[0]) > _max_exp():
                raise V.Undefined(f"delta(eps) needs 0 <= eps <= {_max_exp()}, got {str(args[0])[:80]}")
            out[node] = eta_hockey_stick_exact(K, sympy.exp(args[0]))
        elif name == "eta_tv_tensor":
            k = int(_rational(args[0], "eta_tv_tensor(n)"))
            out[node] = exact_sympy(eta_tv(K.tensor_power(k)) if k > 1 else eta_tv(K))
        else:
            A, B = _core_dist(node.args[0], inst), _core_dist(node.args[1], inst)
            f = {"tv": tv, "kl": kl, "hellinger2": hellinger2, "chi2": chi2}.get(name)
            out[node] = exact_sympy(f(A, B) if f else hockey_stick(A, B, _rational(args[2], "hs(A,B,gamma)")))
    return out


def _max_exp() -> int:
    return limit("max_exp_argument")


def _assume(name: str) -> dict:
    s = conjecture_symbols().get(name)
    return s.assumptions0 if s is not None else {}
