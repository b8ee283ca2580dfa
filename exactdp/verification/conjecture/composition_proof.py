r"""The composed PML statement of a product over product priors, proved by F-G11's certificates.

docs/claims.md F-G11: over the product priors Q(c₁) × Q(c₂) the (ε,c)-PML level of K₁ ⊗ K₂ is the product of the
factors' levels, e^{ε*} = pml_ratio(K₁, c₁) · pml_ratio(K₂, c₂), for every N₁, N₂, M₁, M₂ and floors
c_i ∈ (0, 1/N_i] (:mod:`exactdp.theory.product_pml_certificates`: the summand identity, the bounded-product
Farkas combination and the attainment at the factors' worst outputs and priors).  In the conjecture language
(:mod:`.kernel_terms`) that is

    pml_eps(tensor(A, B), c1, c2) = pml_eps(A, c1) + pml_eps(B, c2)        (A, B in {K, K2})

so a conjecture that states one direction of it (``<=`` or ``>=``, the other side equal to the sum of the
factors' levels as an exact sympy identity) is proved for every kernel pair, whatever the class, by those
certificates — checked in this run, never assumed.  Anything else (a strict inequality, a power, three factors,
a different right-hand side) is left to the search.
"""

from __future__ import annotations

import sympy

from exactdp.verification.conjecture import kernel_terms
from exactdp.verification.conjecture.parser import Conjecture
from exactdp.verification.conjecture.prove import PROVED, Proof


def _level(name: str, c: sympy.Expr) -> sympy.Expr:
    """pml_eps of one factor as the parser writes it (``pml_eps(c)`` for K, ``pml_eps(tensor(K2), c)``)."""
    f = sympy.Function("pml_eps")
    return f(c) if name == "K" else f(kernel_terms.TENSOR(kernel_terms.leaf(name)), c)


def _composed(side: sympy.Expr) -> sympy.Expr | None:
    """The sum of the factors' levels when ``side`` is pml_eps of a two-factor product with one floor per
    factor, else None."""
    if not (isinstance(side, sympy.core.function.AppliedUndef) and side.func.__name__ == "pml_eps"
            and side.args and kernel_terms.is_term(side.args[0])):
        return None
    term, floors = side.args[0], side.args[1:]
    parts = kernel_terms.leaves(term)
    if len(parts) != 2 or len(floors) != 2 or any(e != 1 for _, e in parts):
        return None
    return sympy.Add(*[_level(name, c) for (name, _), c in zip(parts, floors)])


def product_prior_proof(conj: Conjecture) -> Proof | None:
    """The proof of the conjecture from F-G11's certificates (module docstring), or None outside that shape."""
    if conj.strict:
        return None
    small, large = conj.sides()
    for product, other in ((small, large), (large, small)):
        expected = _composed(product)
        if expected is None or sympy.expand(other - expected) != 0:
            continue
        from exactdp.algebra.certificates import check  # deferred: start-up
        from exactdp.numbers.truth import Truth
        from exactdp.theory.product_pml_certificates import product_pml_certificates

        certificates = product_pml_certificates()
        results = [check(x) for x in certificates]
        if any(r.truth is not Truth.TRUE for r in results):
            return None
        names = ", ".join(f"{x.kind} {x.name!r}" for x in certificates)
        steps = (
            f"F-G11 (docs/claims.md): over product priors the PML level of a product is the product of the "
            f"factors' levels: {product} = {expected} for every kernel pair (every N1, N2, M1, M2; floors c_i in "
            f"(0, 1/N_i]), so both {product} <= {expected} and >= hold",
            f"certificates {names} checked: TRUE (the summand identity, the product of bounded non-negative "
            f"factors, the attainment at the factors' worst outputs and priors)",
        )
        return Proof(PROVED, steps, (), tuple(certificates),
                     "every pair of kernels (all N, M of both factors); all parameters of the class")
    return None
