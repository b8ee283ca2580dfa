r"""Certificates for the composition of (ε,δ)-LDP kernels, every n and every size (B-10's i = 0 term).

Statement: if K_i is (ε_i, δ_i)-LDP for i = 1..n (any inputs and outputs, levels may differ), then
K₁⊗…⊗K_n is (Σε_i, 1 − Π(1 − δ_i))-LDP; with equal levels (nε, 1 − (1 − δ)ⁿ).

**Two-fold lemma.**  For distributions P_i, Q_i and t_i ≥ 1 with e_i = E_{t_i}(P_i‖Q_i): split
P_i = m_i + r_i with m_i = min(P_i, t_iQ_i), r_i = (P_i − t_iQ_i)₊ (masses 1 − e_i and e_i).  Then
m₁⊗m₂ ≤ t₁t₂ Q₁⊗Q₂ pointwise, so P₁⊗P₂ − t₁t₂Q₁⊗Q₂ ≤ r′ := P₁⊗P₂ − m₁⊗m₂ = r₁⊗P₂ + m₁⊗r₂ ≥ 0, whence
E_{t₁t₂}(P₁⊗P₂‖Q₁⊗Q₂) = Σ (P₁⊗P₂ − t₁t₂Q₁⊗Q₂)₊ ≤ Σ r′ = e₁ + (1 − e₁)e₂ = 1 − (1 − e₁)(1 − e₂).
The summand facts (per output y of one factor, or pair (y₁, y₂)) are :func:`split_summands`,
:func:`product_domination` and :func:`rest_nonnegative`; summed (finite sums keep ≤ and =, and
Σ_{y₁,y₂} a(y₁)b(y₂) = (Σ a)(Σ b)) they give the aggregated constraints of :func:`two_fold`.

**Induction on n** (symbolic n, heterogeneous levels).  C(n): for every n pairs (P_i, Q_i) with
E_{t_i}(P_i‖Q_i) ≤ δ_i, E_{Γ_n}(⊗P_i‖⊗Q_i) ≤ 1 − π_n, where Γ_n = Π t_i ≥ 1 and π_n = Π(1 − δ_i) ∈ [0, 1].
C(0): the empty product is the point mass on one point, E_1(1‖1) = 0 = 1 − π₀ (π₀ = 1, Γ₀ = 1).
C(n) ⇒ C(n + 1): the two-fold lemma with (⊗_{i≤n}P_i, ⊗_{i≤n}Q_i, Γ_n) and (P_{n+1}, Q_{n+1}, t_{n+1}), then
:func:`induction_step` (multipliers 1, 1 − e_{n+1}, π_n); the invariants Γ_{n+1} = Γ_n t_{n+1} ≥ 1 and
π_{n+1} = π_n(1 − δ_{n+1}) ∈ [0, 1] are :func:`induction_invariants`, which also records the equal-level
case π_n = (1 − δ)ⁿ, Γ_n = tⁿ.  For the product kernel, P_i, Q_i are the rows K_{i,x_i}, K_{i,x′_i}
(E_{t_i} ≤ δ_i by (ε_i,δ_i)-LDP on the attaining event, :func:`exactdp.theory.e_gamma_certificates.pairwise_level`)
and the bound on E_{Γ_n} of every pair of rows is (Σε_i, 1 − π_n)-LDP on every event
(:func:`exactdp.theory.e_gamma_certificates.two_point_ldp`).
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements
from exactdp.theory import e_gamma_certificates as EG

#: the scope: every number of factors, every size of each factor, each level its own
SCOPE = "all n >= 1, all N_i, M_i; t_i = e^eps_i >= 1, 0 <= delta_i <= 1 (levels may differ)"

m1, w1, m2, w2, r1, r2, P2 = sympy.symbols("m1 w1 m2 w2 r1 r2 P2", real=True)
e1, e2, E, R, e, pi, d1 = sympy.symbols("e1 e2 E R e pi d1", real=True)


def split_summands() -> SymbolicStatements:
    """Per output y of a factor (a = P_i(y) ≥ 0, w = t_iQ_i(y) ≥ 0): min(a, w) + (a − w)₊ = a, min(a, w) ≤ w,
    both parts ≥ 0; per pair (y₁, y₂): z ≤ r′, r′ ≥ 0 ⇒ z₊ ≤ r′, and r′'s expansion and mass."""
    nonneg = ("a >= 0", "w >= 0")
    return SymbolicStatements(
        name="composition: summands of the split P = min(P, tQ) + (P - tQ)_+",
        parameters=("a", "w", "z", "r", "m1", "m2", "r1", "r2", "e1", "e2"), scope="every summand; all N_i, M_i",
        statements=(
            ("m + r = P: Min(a, w) + Max(a - w, 0) <= a", "Min(a, w) + Max(a - w, 0)", "<=", "a", ()),
            ("m + r = P: Min(a, w) + Max(a - w, 0) >= a", "Min(a, w) + Max(a - w, 0)", ">=", "a", ()),
            ("m <= t Q: Min(a, w) <= w", "Min(a, w)", "<=", "w", ()),
            ("m >= 0", "Min(a, w)", ">=", "0", nonneg),
            ("r >= 0; summed over y: sum r_i = E_t_i(P_i||Q_i) = e_i, sum m_i = 1 - e_i",
             "Max(a - w, 0)", ">=", "0", ()),
            ("per pair (y1, y2): z = P1 P2 - t1 t2 Q1 Q2 <= r' and r' >= 0 give Max(z, 0) <= r'",
             "Max(z, 0)", "<=", "r", ("z <= r", "r >= 0")),
            ("r' = P1 P2 - m1 m2 = r1 P2 + m1 r2 (P_i = m_i + r_i)", "(m1 + r1)*(m2 + r2) - m1*m2", "==",
             "r1*(m2 + r2) + m1*r2", ()),
            ("mass of r': summed over (y1, y2), e1*1 + (1 - e1)*e2 = 1 - (1 - e1)(1 - e2)", "e1*1 + (1 - e1)*e2",
             "==", "1 - (1 - e1)*(1 - e2)", ()),
        ))


def product_domination() -> LinearCombination:
    """m₁m₂ ≤ w₁w₂ from m_i ≤ w_i = t_iQ_i(y_i) and m_i ≥ 0: r′ − (P₁P₂ − t₁t₂Q₁Q₂) = w₁w₂ − m₁m₂ ≥ 0."""
    return LinearCombination.build(
        name="composition: m1 (x) m2 <= t1 t2 Q1 (x) Q2", parameters=(m1, w2), variables=(w1, m2),
        constraints=[("m1 <= w1 = t1 Q1(y1)", w1 - m1), ("m2 <= w2 = t2 Q2(y2)", w2 - m2)],
        multipliers=[w2, m1], conclusion=w1 * w2 - m1 * m2, region=(m1 >= 0, w2 >= 0),
        scope="every pair of outputs; all N_i, M_i")


def rest_nonnegative() -> LinearCombination:
    """r′ = r₁P₂ + m₁r₂ ≥ 0 from r_i ≥ 0, P₂ ≥ 0, m₁ ≥ 0."""
    return LinearCombination.build(
        name="composition: r' >= 0", parameters=(m1, P2), variables=(r1, r2),
        constraints=[("r1 = (P1 - t1 Q1)_+ >= 0", r1), ("r2 = (P2 - t2 Q2)_+ >= 0", r2)],
        multipliers=[P2, m1], conclusion=r1 * P2 + m1 * r2, region=(m1 >= 0, P2 >= 0),
        scope="every pair of outputs; all N_i, M_i")


def two_fold() -> LinearCombination:
    """E_{t₁t₂}(P₁⊗P₂‖Q₁⊗Q₂) ≤ 1 − (1 − e₁)(1 − e₂): E = Σ z₊ ≤ Σ r′ = R and R = e₁ + (1 − e₁)e₂."""
    return LinearCombination.build(
        name="composition: two-fold lemma", parameters=(e1, e2), variables=(E, R),
        constraints=[("E = sum over (y1, y2) of Max(z, 0) <= sum of r' = R", R - E),
                     ("R = sum of r1 P2 + m1 r2 = e1 + (1 - e1) e2", e1 + (1 - e1) * e2 - R)],
        multipliers=[1, 1], conclusion=1 - (1 - e1) * (1 - e2) - E,
        region=(e1 >= 0, e1 <= 1, e2 >= 0, e2 <= 1), scope="all N_i, M_i; t_i >= 1")


def induction_step() -> LinearCombination:
    """C(n) ⇒ C(n + 1): E ≤ 1 − (1 − e)(1 − e′) (two-fold), e ≤ 1 − π (C(n)), e′ ≤ δ′ ⇒ E ≤ 1 − π(1 − δ′)."""
    return LinearCombination.build(
        name="composition: induction step n -> n + 1", parameters=(pi, d1, e1), variables=(E, e),
        constraints=[("two-fold lemma at (Gamma_n, t_{n+1}): E = E_{Gamma_{n+1}} <= 1 - (1 - e)(1 - e1), "
                      "e = E_{Gamma_n}(P^(n)||Q^(n)), e1 = E_{t_{n+1}}(P_{n+1}||Q_{n+1})", 1 - (1 - e) * (1 - e1) - E),
                     ("induction hypothesis C(n): e <= 1 - pi, pi = pi_n = prod_{i <= n} (1 - delta_i)", 1 - pi - e),
                     ("factor n + 1: e1 <= d1 = delta_{n+1}", d1 - e1)],
        multipliers=[1, 1 - e1, pi], conclusion=1 - pi * (1 - d1) - E,
        region=(pi >= 0, pi <= 1, d1 >= 0, d1 <= 1, e1 >= 0, e1 <= 1), scope="every n >= 0; C(n) implies C(n + 1)")


def induction_invariants() -> SymbolicStatements:
    """The base case C(0), the invariants Γ_{n+1} ≥ 1 and π_{n+1} ∈ [0, 1], and the equal-level products."""
    unit = ("pi >= 0", "pi <= 1", "d1 >= 0", "d1 <= 1")
    return SymbolicStatements(
        name="composition: base case and invariants of the induction on n",
        parameters=("pi", "d1", "G", "g", "n", "t", "q"), assumptions=(("n", "integer,nonnegative"),),
        scope="all n >= 0",
        statements=(
            ("C(0): the empty product is the point mass on one point: E_1(1||1) = Max(1 - 1*1, 0) <= 1 - pi_0, "
             "pi_0 = 1", "Max(1 - 1*1, 0)", "<=", "1 - 1", ()),
            ("pi_{n+1} = pi_n (1 - delta_{n+1}) >= 0", "pi*(1 - d1)", ">=", "0", unit),
            ("pi_{n+1} = pi_n (1 - delta_{n+1}) <= 1", "pi*(1 - d1)", "<=", "1", unit),
            ("Gamma_{n+1} = Gamma_n t_{n+1} >= 1", "G*g", ">=", "1", ("G >= 1", "g >= 1")),
            ("equal levels, q = 1 - delta: pi_n = q^n gives pi_{n+1} = q^n q = q^(n + 1)", "q**n*q", "==",
             "q**(n + 1)", ()),
            ("equal levels: Gamma_n = t^n gives Gamma_{n+1} = t^n t = t^(n + 1) = e^((n + 1) eps)", "t**n*t", "==",
             "t**(n + 1)", ()),
        ))


def composition_certificates() -> tuple:
    """Every certificate of the composition theorem for every n (see the module docstring)."""
    return (split_summands(), product_domination(), rest_nonnegative(), two_fold(), induction_step(),
            induction_invariants(), EG.event_form(), EG.pairwise_level(), EG.two_point_ldp())


__all__ = ["SCOPE", "composition_certificates", "induction_invariants", "induction_step", "product_domination",
           "rest_nonnegative", "split_summands", "two_fold"]
