r"""Certificates for the E_γ contraction of (ε,δ)-LDP kernels, every N and M ([A] Thm 1 and Thm 3).

Notation: t = γ = e^ε ≥ 1, P, Q distributions on the inputs, e = E_t(P‖Q) = Σ_x (P(x) − tQ(x))₊,
p(x) = (P(x) − tQ(x))₊, n(x) = (tQ(x) − P(x))₊ (so P − tQ = p − n, Σ p = e and, since Σ(P − tQ) = 1 − t,
Σ n = f := e + t − 1), A a set of outputs and k(x) = K_x(A).

**The reduction to fixed size.**  Every sum over inputs, outputs or pairs of inputs that the proofs use is
written as a sum of *summands*, and each summand fact is checked as an exact statement in the summand's own
values (:func:`event_form`, :func:`thm1_summands`, :func:`nonnegative_product`): symbols such as z = P(y) − tQ(y)
or uninterpreted functions p(x), n(x′), k(x) of symbolic indices.  A statement that holds for every value of
the summand holds for each term of a finite sum, and finite sums preserve ≤ and = term by term and distribute
over products ((Σ_x a_x)(Σ_{x′} b_{x′}) = Σ_{x,x′} a_x b_{x′}); those are the only facts about sums used, so the
number of terms — N, M — never enters.  The summed quantities are the variables of the linear-combination
certificates below, whose constraint labels say which summand statement was summed over which index set:

* A⁺ = Σ_x p(x) k(x), A⁻ = Σ_x n(x) k(x): (KP)(A) − t(KQ)(A) = Σ_x (P(x) − tQ(x)) k(x) = A⁺ − A⁻
  (:func:`event_form`'s positive/negative-part statements times k(x), summed over x);
* L = Σ_{x,x′} p(x) n(x′) (δ + t k(x′) − k(x)) = δ e f + t e A⁻ − f A⁺ (:func:`thm1_summands`, summed over
  pairs), L ≥ 0 since each summand is a product of non-negatives ((ε,δ)-LDP on A for rows x, x′ — [A] D-6 —
  and :func:`nonnegative_product`).

Certificates:

* :func:`thm1_contraction` — [A] Thm 1 (⇒) for e > 0: f·(δe − (A⁺ − A⁻)) = L + (t − 1)(1 − e) A⁻, i.e.
  multipliers 1/f and (t − 1)(1 − e)/f on L ≥ 0 and A⁻ ≥ 0 give (KP)(A) − t(KQ)(A) ≤ δ·e for every A, hence
  E_t(KP‖KQ) ≤ δ·E_t(P‖Q) (the maximum over A is attained, :func:`event_form`);
* :func:`thm1_no_excess` — the case e = 0 (P ≤ tQ): then A⁺ = 0 and (KP)(A) − t(KQ)(A) = −A⁻ ≤ 0;
* :func:`thm1_converse` — [A] Thm 1 (⇐): with the point masses at x ≠ x′ (E_t = 1, :func:`point_masses`),
  η_t(K) ≤ δ gives K_x(A) − tK_{x′}(A) ≤ E_t(K_x‖K_{x′}) ≤ η_t(K) ≤ δ;
* :func:`pairwise_level` — (ε,δ)-LDP gives E_t(K_x‖K_{x′}) ≤ δ for every pair of rows (the attaining event);
* :func:`two_point_ldp` — [A] Thm 3 (≤): every kernel is (ε, δ*)-LDP with δ* = max_{x,x′} E_t(K_x‖K_{x′}),
  so Thm 1 (⇒) gives η_t(K) ≤ δ*; (≥) is the point masses (:func:`point_masses`, the definition of η_t as a
  supremum of E_t(KP‖KQ)/E_t(P‖Q)).
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements

#: the scope of every certificate here: every kernel, every number of inputs and outputs
SCOPE = "all N, M; t = e^eps >= 1, 0 <= delta <= 1"

t, delta, e = sympy.symbols("t delta e", real=True)
Ap, An, a, b, H, D, eta, g = sympy.symbols("Ap An a b H D eta g", real=True)
p0, n0 = sympy.symbols("p n", real=True)

_LDP_REGION = (t >= 1, delta >= 0, delta <= 1)


def event_form() -> SymbolicStatements:
    """The summand facts of E_t as a maximum over events, z = P(y) − tQ(y) (sums over y ∈ A / over y):
    z ≤ z₊ (y ∈ A), 0 ≤ z₊ (y ∉ A) give P(A) − tQ(A) ≤ E_t(P‖Q); z₊ = z for z ≥ 0 and z₊ = 0 for z ≤ 0 give
    equality at A* = {y: P(y) > tQ(y)}; z₊ − (−z)₊ = z splits P − tQ into positive and negative parts."""
    return SymbolicStatements(
        name="E_gamma as a maximum over events (summands)", parameters=("z",), scope="every summand; all N, M",
        statements=(
            ("y in A: z <= Max(z, 0); summed over y in A and y not in A: P(A) - t Q(A) <= E_t(P||Q)",
             "z", "<=", "Max(z, 0)", ()),
            ("y not in A: 0 <= Max(z, 0)", "0", "<=", "Max(z, 0)", ()),
            ("attained at A* = {z > 0}: Max(z, 0) <= z where z >= 0", "Max(z, 0)", "<=", "z", ("z >= 0",)),
            ("attained at A* = {z > 0}: Max(z, 0) <= 0 where z <= 0", "Max(z, 0)", "<=", "0", ("z <= 0",)),
            ("positive and negative parts: Max(z, 0) - Max(-z, 0) <= z", "Max(z, 0) - Max(-z, 0)", "<=", "z", ()),
            ("positive and negative parts: Max(z, 0) - Max(-z, 0) >= z", "Max(z, 0) - Max(-z, 0)", ">=", "z", ()),
        ))


def point_masses() -> SymbolicStatements:
    """E_t between point masses: E_t(1_x‖1_{x′}) = max(1, 0) + max(−t, 0) = 1 for x ≠ x′ and t ≥ 0, and
    E_t(1_x‖1_x) = max(1 − t, 0) = 0 for t ≥ 1; E_t(K·1_x‖K·1_{x′}) = E_t(K_x‖K_{x′})."""
    return SymbolicStatements(
        name="E_gamma between point masses", parameters=("t",), region=("t >= 1",), scope="t >= 1",
        statements=(
            ("x != x': E_t(1_x||1_x') = Max(1 - t*0, 0) + Max(0 - t*1, 0) <= 1", "Max(1 - t*0, 0) + Max(0 - t*1, 0)",
             "<=", "1", ()),
            ("x != x': E_t(1_x||1_x') >= 1", "Max(1 - t*0, 0) + Max(0 - t*1, 0)", ">=", "1", ()),
            ("x = x': E_t(1_x||1_x) = Max(1 - t, 0) <= 0", "Max(1 - t, 0)", "<=", "0", ()),
        ))


def thm1_summands() -> SymbolicStatements:
    """The summand of L = Σ_{x,x′} p(x) n(x′) (δ + t k(x′) − k(x)) expanded: summed over pairs it is
    δ e f + t e A⁻ − f A⁺ (e = Σ p, f = Σ n, A⁺ = Σ p k, A⁻ = Σ n k), and the summand of (KP)(A) − t(KQ)(A)."""
    return SymbolicStatements(
        name="[A] Thm 1: summands of the weighted (eps,delta)-LDP sum", parameters=("t", "delta", "x", "xp"),
        functions=("k", "n", "p"), scope="every pair of inputs; all N, M",
        statements=(
            ("summand of L over pairs (x, x'): p(x) n(x') (delta + t k(x') - k(x)) = delta p(x) n(x') + "
             "t p(x) (n(x') k(x')) - n(x') (p(x) k(x)); summed: L = delta e f + t e An - f Ap",
             "p(x)*n(xp)*(delta + t*k(xp) - k(x))", "==",
             "delta*p(x)*n(xp) + t*p(x)*(n(xp)*k(xp)) - n(xp)*(p(x)*k(x))", ()),
            ("summand of (KP)(A) - t (KQ)(A) with P(x) - t Q(x) = p(x) - n(x): summed: Ap - An",
             "(p(x) - n(x))*k(x)", "==", "p(x)*k(x) - n(x)*k(x)", ()),
        ))


#: why g ≥ 0 in [A] Thm 1's weighted sum
LDP_ON_A = "(eps,delta)-LDP on A, rows (x, x'): g = delta + t k(x') - k(x) >= 0"


def nonnegative_product(why: str = LDP_ON_A) -> LinearCombination:
    """p·n·g ≥ 0 for p, n, g ≥ 0: each summand of L is non-negative (p = (P − tQ)₊ ≥ 0, n = (tQ − P)₊ ≥ 0 by
    :func:`event_form`, g = δ + t k(x′) − k(x) ≥ 0 by (ε,δ)-LDP on A, [A] D-6); ``why`` labels the constraint
    g ≥ 0 (B-7's weighted sum uses its own per-pair bound, :mod:`exactdp.theory.ldp_sdpi_certificates`)."""
    return LinearCombination.build(
        name="summand of the weighted LDP sum is >= 0", parameters=(p0, n0), variables=(g,),
        constraints=[(why, g)],
        multipliers=[p0 * n0], conclusion=p0 * n0 * g, region=(p0 >= 0, n0 >= 0),
        scope="every pair of inputs; all N, M")


def thm1_contraction() -> LinearCombination:
    """[A] Thm 1 (⇒), e = E_t(P‖Q) > 0: (KP)(A) − t(KQ)(A) = A⁺ − A⁻ ≤ δ·e for every set A."""
    f = e + t - 1
    return LinearCombination.build(
        name="[A] Thm 1: E_gamma contraction of (eps,delta)-LDP kernels", parameters=(t, delta, e),
        variables=(Ap, An),
        constraints=[("L = sum over pairs (x, x') of p(x) n(x') (delta + t k(x') - k(x)) >= 0 (summands "
                      "nonnegative): delta e (e + t - 1) + t e An - (e + t - 1) Ap >= 0",
                      delta * e * f + t * e * An - f * Ap),
                     ("An = sum_x n(x) K_x(A) >= 0", An)],
        multipliers=[1 / f, (t - 1) * (1 - e) / f], conclusion=delta * e - (Ap - An),
        region=(*_LDP_REGION, e > 0, e <= 1), scope=SCOPE + ", 0 < E_t(P||Q) <= 1",
        uses=(thm1_summands().name, nonnegative_product().name))


def thm1_no_excess() -> LinearCombination:
    """[A] Thm 1 (⇒), e = 0: A⁺ = Σ p k with p = 0, so (KP)(A) − t(KQ)(A) = −A⁻ ≤ 0 = δ·e."""
    return LinearCombination.build(
        name="[A] Thm 1: E_gamma(P||Q) = 0", parameters=(t, delta), variables=(Ap, An),
        constraints=[("Ap = sum_x p(x) K_x(A) <= sum_x p(x) = E_t(P||Q) = 0", -Ap), ("An >= 0", An)],
        multipliers=[1, 1], conclusion=delta * 0 - (Ap - An), region=_LDP_REGION, scope=SCOPE + ", E_t(P||Q) = 0")


def thm1_converse() -> LinearCombination:
    """[A] Thm 1 (⇐): η_t(K) ≤ δ ⇒ K_x(A) ≤ t K_{x′}(A) + δ for all rows x ≠ x′ and sets A (point masses)."""
    return LinearCombination.build(
        name="[A] Thm 1 converse: point masses", parameters=(t, delta), variables=(a, b, H, eta),
        constraints=[("event form summed over y: H = E_t(K_x||K_x') >= K_x(A) - t K_x'(A) = a - t b", H - (a - t * b)),
                     ("eta_t(K) >= E_t(K 1_x||K 1_x')/E_t(1_x||1_x') = H/1 (point masses, x != x')", eta - H),
                     ("hypothesis eta_t(K) <= delta", delta - eta)],
        multipliers=[1, 1, 1], conclusion=t * b + delta - a, region=_LDP_REGION, scope=SCOPE)


def pairwise_level() -> LinearCombination:
    """(ε,δ)-LDP ⇒ E_t(K_x‖K_{x′}) ≤ δ for every pair of rows: E_t(K_x‖K_{x′}) = K_x(A*) − tK_{x′}(A*) at the
    attaining event A* (:func:`event_form`), and (ε,δ)-LDP on A*."""
    return LinearCombination.build(
        name="(eps,delta)-LDP bounds E_gamma of every pair of rows", parameters=(t, delta), variables=(a, b, H),
        constraints=[("attained at A* = {K_x > t K_x'} (event form summed over y): a - t b - H >= 0, "
                      "a = K_x(A*), b = K_x'(A*), H = E_t(K_x||K_x')", a - t * b - H),
                     ("(eps,delta)-LDP on A*, rows (x, x'): t b + delta - a >= 0", t * b + delta - a)],
        multipliers=[1, 1], conclusion=delta - H, region=_LDP_REGION, scope=SCOPE)


def two_point_ldp() -> LinearCombination:
    """[A] Thm 3 (≤): every kernel is (ε, δ*)-LDP, δ* = max_{x,x′} E_t(K_x‖K_{x′})."""
    return LinearCombination.build(
        name="[A] Thm 3: every kernel is (eps, delta*)-LDP", parameters=(t,), variables=(a, b, H, D),
        constraints=[("event form summed over y: H = E_t(K_x||K_x') >= a - t b (a = K_x(A), b = K_x'(A))",
                      H - (a - t * b)),
                     ("D = max over pairs of rows of E_t(K_x||K_x') >= H", D - H)],
        multipliers=[1, 1], conclusion=t * b + D - a, region=(t >= 1,), scope="all N, M; t >= 1")


def e_gamma_below_tv() -> SymbolicStatements:
    """E_t ≤ E_1 = TV for t ≥ 1, per output y: P(y) − tQ(y) = z − w with z = P(y) − Q(y), w = (t − 1)Q(y) ≥ 0,
    and (z − w)₊ ≤ z₊; summed over y, E_t(P‖Q) ≤ TV(P, Q), so η_t(K) ≤ η_TV(K) by the two-point formulas."""
    return SymbolicStatements(
        name="E_gamma <= TV for gamma >= 1 (summands)", parameters=("z", "w", "t", "Qy"),
        scope="every summand; t >= 1",
        statements=(
            ("w = (t - 1) Q(y) >= 0", "(t - 1)*Qy", ">=", "0", ("t >= 1", "Qy >= 0")),
            ("(P(y) - t Q(y))_+ = (z - w)_+ <= z_+ = (P(y) - Q(y))_+; summed over y: E_t(P||Q) <= TV(P, Q)",
             "Max(z - w, 0)", "<=", "Max(z, 0)", ("w >= 0",)),
        ))


#: the two-point step from a per-pair bound to η_TV, with the certificates that prove it (:func:`thm3_certificates`)
TV_TWO_POINT = ("eta_TV(K) = max over rows x, x' and sets A of K_x(A) - K_x'(A): the two-point formula at gamma = 1 "
                "([A] Thm 3, B-1; the certificates of thm3_certificates, checked with the others)")


def thm1_certificates() -> tuple:
    """[A] Thm 1 (both directions), every N and M: the summand statements and the combinations."""
    return (event_form(), thm1_summands(), nonnegative_product(), thm1_contraction(), thm1_no_excess(),
            point_masses(), thm1_converse())


def contraction_certificates() -> tuple:
    """[A] Thm 1 (⇒) alone: η_t(K) ≤ δ for every (ε,δ)-LDP kernel, every N and M."""
    return (event_form(), thm1_summands(), nonnegative_product(), thm1_contraction(), thm1_no_excess())


def thm3_certificates() -> tuple:
    """[A] Thm 3, every N and M: (≤) by :func:`two_point_ldp` and Thm 1 (⇒); (≥) by the point masses."""
    return (two_point_ldp(), *contraction_certificates(), point_masses())


__all__ = ["SCOPE", "TV_TWO_POINT", "contraction_certificates", "e_gamma_below_tv", "event_form", "nonnegative_product", "pairwise_level", "point_masses",
           "thm1_certificates", "thm1_contraction", "thm1_converse", "thm1_no_excess", "thm1_summands",
           "thm3_certificates", "two_point_ldp"]
