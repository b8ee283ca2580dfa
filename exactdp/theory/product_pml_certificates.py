r"""Certificates: the PML level of K₁ ⊗ K₂ over product priors is the product of the factors' levels.

Notation ([G] Def. 2, D-8, D-9; :mod:`exactdp.measures.product_prior`): t_i = e^{ε_i*} = sup over P_i ∈ Q(c_i)
of max_{y_i} max_{x_i} K_i(y_i|x_i)/(K_i∘P_i)(y_i), the (ε,c_i)-PML level of K_i; the class ProductPrior(c₁, c₂)
of priors P₁ ⊗ P₂, P_i ∈ Q(c_i).  Fix an output y = (y₁, y₂) and a product prior; write k_i(x_i) = K_i(y_i|x_i),
h_i = max_{x_i} k_i(x_i), m_i = (K_i∘P_i)(y_i) > 0 (every prior of Q(c_i) has full support, so m_i ≥ c_i h_i > 0
when h_i > 0) and r_i = h_i/m_i ≤ t_i.

* **(K∘P)(y) = m₁m₂**: the summand P₁(x₁)P₂(x₂)·k₁(x₁)k₂(x₂) is (P₁(x₁)k₁(x₁))·(P₂(x₂)k₂(x₂)), and finite sums
  distribute over products (:func:`product_statements`, the summand identity);
* **max_x K(y|x) = h₁h₂**: k₁(x₁)k₂(x₂) ≤ h₁h₂ for 0 ≤ k_i ≤ h_i (:func:`bounded_product`), with equality at the
  maximising inputs;
* **the leakage is r₁r₂**: h₁h₂/(m₁m₂) = (h₁/m₁)(h₂/m₂) (:func:`product_statements`);
* **≤ t₁t₂**: r₁r₂ ≤ t₁t₂ for 0 ≤ r_i ≤ t_i (:func:`bounded_product` again);
* **attained**: at the worst output y_i* and worst prior P_i* of each factor (a vertex of Q(c_i), D-9) r_i = t_i,
  and P₁* ⊗ P₂* is in the class: the level is t₁t₂ exactly (:func:`product_statements`, the last statement).

So sup over ProductPrior(c₁, c₂) of the PML of K₁ ⊗ K₂ is t₁·t₂, every N₁, N₂, M₁, M₂; n factors follow by
grouping (a product of product priors is a product prior).  The floor class Q(c₁c₂) does not compose so:
``findings.fg12_floor_class_composition`` holds the exact witness.
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements

u1, u2, v1, v2 = sympy.symbols("u1 u2 v1 v2", real=True)


def bounded_product() -> LinearCombination:
    """v₁v₂ − u₁u₂ = v₂(v₁ − u₁) + u₁(v₂ − u₂) ≥ 0 for 0 ≤ u_i ≤ v_i: each constraint is a product of two
    non-negative factors (u₁ ≥ 0, v₂ ≥ 0, v_i − u_i ≥ 0).  Used for the entries (u = k, v = h) and the ratios
    (u = r, v = t)."""
    return LinearCombination.build(
        name="product of bounded nonnegative factors", parameters=(v1, v2), variables=(u1, u2),
        constraints=[("v2 >= 0 times u1 <= v1: v2 (v1 - u1) >= 0", v2 * (v1 - u1)),
                     ("u1 >= 0 times u2 <= v2: u1 (v2 - u2) >= 0", u1 * (v2 - u2))],
        multipliers=[1, 1], conclusion=v1 * v2 - u1 * u2, region=(v1 >= 0, v2 >= 0),
        scope="every pair of bounded nonnegative factors")


def product_statements() -> SymbolicStatements:
    """The identities of the module docstring: the summand of (K∘P)(y) over pairs of inputs, the leakage of the
    product as the product of the factors' leakages, and the attained value at the factors' worst outputs and
    priors."""
    return SymbolicStatements(
        name="PML of a product kernel under a product prior",
        parameters=("x1", "x2", "h1", "h2", "m1", "m2", "t1", "t2"),
        functions=("P1", "P2", "k1", "k2"), scope="every output and product prior; all N, M",
        statements=(
            ("summand of (K o P)(y) over (x1, x2) for P = P1 (x) P2: P1(x1) P2(x2) K1(y1|x1) K2(y2|x2) = "
             "(P1(x1) K1(y1|x1)) (P2(x2) K2(y2|x2)); summed (finite sums distribute over products): m1 m2",
             "P1(x1)*P2(x2)*(k1(x1)*k2(x2))", "==", "(P1(x1)*k1(x1))*(P2(x2)*k2(x2))", ()),
            ("the leakage ratio of output (y1, y2): max_x K(y|x)/(K o P)(y) = h1 h2/(m1 m2) = (h1/m1) (h2/m2)",
             "(h1*h2)/(m1*m2)", "==", "(h1/m1)*(h2/m2)", ("m1 > 0", "m2 > 0")),
            ("attained: at each factor's worst output and worst prior h_i/m_i = t_i, and the product prior of the "
             "two worst priors is in the class: the ratio is t1 t2",
             "Subs(Subs((h1/m1)*(h2/m2), h1, t1*m1), h2, t2*m2)", "==", "t1*t2", ("m1 > 0", "m2 > 0")),
        ))


def product_pml_certificates() -> tuple:
    """The certificates of the theorem (module docstring): every N₁, N₂, M₁, M₂ and floors c_i ∈ (0, 1/N_i]."""
    return (product_statements(), bounded_product())


__all__ = ["bounded_product", "product_pml_certificates", "product_statements"]
