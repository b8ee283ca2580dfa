r"""Certificates: Zamanlooy–Asoodeh's bounds for ε-LDP kernels, every N and M (B-7: the E_γ form, and the f
form through Binette's inequality, a structural lemma).

Statement (docs/claims.md B-7, reconstructed): for an ε-LDP kernel K (t = e^ε ≥ 1), γ ≥ 1 and distributions
P, Q on the inputs,

    E_γ(KP‖KQ) ≤ C·TV(P, Q),    C = (t − γ)₊/(t + 1).

Notation: per input x, w(x) = min(P(x), Q(x)), p(x) = (P(x) − Q(x))₊, n(x) = (Q(x) − P(x))₊, so P = w + p and
Q = w + n, and Σ p = Σ n = d = TV(P, Q) (Σ(P − Q) = 0).  For a set A of outputs, k(x) = K_x(A), Bp = Σ_x p(x)k(x),
Bn = Σ_x n(x)k(x), W = Σ_x w(x)k(x) ≥ 0.  As in :mod:`exactdp.theory.e_gamma_certificates`, every sum is a sum of
summands whose facts are checked as statements in the summand's own values, so N and M never enter.

* :func:`summands` — P = w + p, Q = w + n, p − n = P − Q, w ≥ 0 per input; the summand of
  (KP)(A) − γ(KQ)(A) = Bp − γBn − (γ − 1)W; the summand of L = Σ_{x,x′} p(x)n(x′)(C − k(x) + γk(x′)), which
  summed is C d² − d Bp + γ d Bn;
* :func:`pair_bound_below_t` and :func:`pair_bound_beyond_t` — the per-pair bound k(x) − γk(x′) ≤ C from ε-LDP
  on A and on its complement (a = k(x) ≤ t b, 1 − b ≤ t(1 − a), b = k(x′) ≥ 0), in the two cases of the
  positive part: γ = 1 + θ(t − 1) with θ ∈ [0, 1] (C = (1 − θ)(t − 1)/(t + 1): the TV bound a − b ≤
  (t − 1)/(t + 1) and a ≤ tb mixed with weights 1 − θ and θ) and γ = t + s with s ≥ 0 (C = 0); each
  multiplier is a polynomial in the case's own parameter, so t = 1 is included;
* :func:`coefficient_cases` — C = Max(t − γ, 0)/(t + 1) in both cases, and every γ ≥ 1 is in one of them;
* :func:`pair_summand_nonnegative` — p(x)n(x′)·(C − k(x) + γk(x′)) ≥ 0, so L ≥ 0;
* :func:`contraction` — for d > 0: C d − (Bp − γBn − (γ − 1)W) = L/d + (γ − 1)W ≥ 0; :func:`equal_inputs` —
  d = 0 (then p = 0, Bp ≤ Σ p = 0);
* :func:`exactdp.theory.e_gamma_certificates.event_form` — E_γ(KP‖KQ) is the largest (KP)(A) − γ(KQ)(A) over
  sets A (attained), so the bound for every A is the bound for E_γ.

The f form, D_f(KP‖KQ) ≤ (f(t) + t f(1/t))/(t + 1)·TV(P, Q) (B-7), for f convex with f(1) = 0:
:func:`ratio_bound` — (KP)(y) ≤ t(KQ)(y), so every ratio of KP to KQ lies in [1/t, t], Binette's range;
:func:`exactdp.theory.class_certificates.ldp_tv` at δ = 0 — TV(KP, KQ) ≤ (t − 1)/(t + 1)·TV(P, Q);
:func:`binette_with_tv` — Binette's inequality (the structural lemma
:data:`~exactdp.theory.structural_lemmas.BINETTE`) at (1/t, t) with that TV bound;
:func:`f_form_coefficients` — (t − 1)/(t + 1) times Binette's coefficient at (1/t, t) is the B-7 coefficient, for
every f and in closed form for KL, H² and χ².
"""

from __future__ import annotations

import sympy

from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.theory import structural_lemmas as SL
from exactdp.theory.class_certificates import ldp_tv
from exactdp.theory.e_gamma_certificates import event_form, nonnegative_product

t, theta, s, gamma, C, d = sympy.symbols("t theta s gamma C d", real=True)
a, b, Bp, Bn, W = sympy.symbols("a b Bp Bn W", real=True)
p, q, m, k = sympy.symbols("p q m k", real=True)

#: the scope of the per-pair and summed certificates
SCOPE = "all N, M; t = e^eps >= 1, gamma >= 1"

#: Zamanlooy–Asoodeh's E_γ coefficient (t − γ)₊/(t + 1) (B-7)
COEFFICIENT = sympy.Max(t - gamma, 0) / (t + 1)


def summands() -> SymbolicStatements:
    """The summand facts of the module docstring (P = w + p, Q = w + n, the summands of (KP)(A) − γ(KQ)(A) and
    of L)."""
    return SymbolicStatements(
        name="B-7: summands of the E_gamma bound for eps-LDP", parameters=("Px", "Qx", "wx", "px", "nx", "kx",
                                                                          "gamma", "C", "x", "xp"),
        functions=("p", "n", "k"), scope="every input and pair of inputs; all N, M",
        statements=(
            ("P(x) = w(x) + p(x): Min(P, Q) + Max(P - Q, 0) <= P", "Min(Px, Qx) + Max(Px - Qx, 0)", "<=", "Px", ()),
            ("P(x) = w(x) + p(x): Min(P, Q) + Max(P - Q, 0) >= P", "Min(Px, Qx) + Max(Px - Qx, 0)", ">=", "Px", ()),
            ("Q(x) = w(x) + n(x): Min(P, Q) + Max(Q - P, 0) <= Q", "Min(Px, Qx) + Max(Qx - Px, 0)", "<=", "Qx", ()),
            ("Q(x) = w(x) + n(x): Min(P, Q) + Max(Q - P, 0) >= Q", "Min(Px, Qx) + Max(Qx - Px, 0)", ">=", "Qx", ()),
            ("p(x) - n(x) <= P(x) - Q(x)", "Max(Px - Qx, 0) - Max(Qx - Px, 0)", "<=", "Px - Qx", ()),
            ("p(x) - n(x) >= P(x) - Q(x); summed over x (sum P = sum Q = 1): sum p = sum n = d = TV(P, Q)",
             "Max(Px - Qx, 0) - Max(Qx - Px, 0)", ">=", "Px - Qx", ()),
            ("w(x) = Min(P(x), Q(x)) >= 0", "Min(Px, Qx)", ">=", "0", ("Px >= 0", "Qx >= 0")),
            ("summand of (KP)(A) - gamma (KQ)(A) with P = w + p, Q = w + n, k = K_x(A); summed over x: "
             "Bp - gamma Bn - (gamma - 1) W", "(wx + px - gamma*(wx + nx))*kx", "==",
             "px*kx - gamma*(nx*kx) - (gamma - 1)*(wx*kx)", ()),
            ("summand of L over pairs (x, x'): p(x) n(x') (C - k(x) + gamma k(x')); summed (sum p = sum n = d): "
             "L = C d^2 - d Bp + gamma d Bn", "p(x)*n(xp)*(C - k(x) + gamma*k(xp))", "==",
             "C*(p(x)*n(xp)) - n(xp)*(p(x)*k(x)) + gamma*(p(x)*(n(xp)*k(xp)))", ()),
        ))


def pair_bound_below_t() -> LinearCombination:
    """1 ≤ γ ≤ t, written γ = 1 + θ(t − 1), θ ∈ [0, 1]: a − γb ≤ (1 − θ)(t − 1)/(t + 1) = (t − γ)/(t + 1)."""
    return LinearCombination.build(
        name="B-7: per pair of rows, gamma = 1 + theta (t - 1) in [1, t]", parameters=(t, theta),
        variables=(a, b),
        constraints=[("eps-LDP on A, rows (x, x'): t b - a >= 0 (a = K_x(A), b = K_x'(A))", t * b - a),
                     ("eps-LDP on the complement of A: t (1 - a) - (1 - b) >= 0", t * (1 - a) - (1 - b))],
        multipliers=[(1 - theta) / (t + 1) + theta, (1 - theta) / (t + 1)],
        conclusion=(1 - theta) * (t - 1) / (t + 1) - a + (1 + theta * (t - 1)) * b,
        region=(t >= 1, theta >= 0, theta <= 1), scope=SCOPE + ", gamma <= t")


def pair_bound_beyond_t() -> LinearCombination:
    """γ ≥ t, written γ = t + s, s ≥ 0: a − γb ≤ 0 = (t − γ)₊/(t + 1)."""
    return LinearCombination.build(
        name="B-7: per pair of rows, gamma = t + s >= t", parameters=(t, s), variables=(a, b),
        constraints=[("eps-LDP on A, rows (x, x'): t b - a >= 0 (a = K_x(A), b = K_x'(A))", t * b - a),
                     ("b = K_x'(A) >= 0", b)],
        multipliers=[1, s], conclusion=-a + (t + s) * b, region=(t >= 1, s >= 0), scope=SCOPE + ", gamma >= t")


def coefficient_cases() -> SymbolicStatements:
    """C = Max(t − γ, 0)/(t + 1) in the two cases of the per-pair bounds, and every γ ≥ 1 lies in one of them
    (θ = (γ − 1)/(t − 1) when γ ≤ t, t > 1; s = γ − t when γ ≥ t; t = 1 forces γ ≥ t)."""
    below = "Subs(Max(t - gamma, 0)/(t + 1), gamma, 1 + theta*(t - 1))"
    beyond = "Subs(Max(t - gamma, 0)/(t + 1), gamma, t + s)"
    return SymbolicStatements(
        name="B-7: the coefficient (t - gamma)_+/(t + 1) in the two cases", parameters=("t", "theta", "s", "gamma"),
        region=("t >= 1", "theta >= 0", "theta <= 1", "s >= 0"), scope="t >= 1, gamma >= 1",
        statements=(
            ("gamma = 1 + theta (t - 1): (t - gamma)_+/(t + 1) <= (1 - theta)(t - 1)/(t + 1)", below, "<=",
             "(1 - theta)*(t - 1)/(t + 1)", ()),
            ("gamma = 1 + theta (t - 1): (t - gamma)_+/(t + 1) >= (1 - theta)(t - 1)/(t + 1)", below, ">=",
             "(1 - theta)*(t - 1)/(t + 1)", ()),
            ("gamma = t + s: (t - gamma)_+/(t + 1) <= 0", beyond, "<=", "0", ()),
            ("gamma = t + s: (t - gamma)_+/(t + 1) >= 0", beyond, ">=", "0", ()),
            ("1 <= gamma <= t, t > 1: theta = (gamma - 1)/(t - 1) gives gamma", "Subs(1 + theta*(t - 1), theta, "
             "(gamma - 1)/(t - 1))", "==", "gamma", ("t > 1",)),
            ("gamma >= t: s = gamma - t gives gamma", "Subs(t + s, s, gamma - t)", "==", "gamma", ()),
        ))


def pair_summand_nonnegative() -> LinearCombination:
    """p(x)n(x′)·g ≥ 0 with g = C − k(x) + γk(x′) ≥ 0 (the per-pair bound), p, n ≥ 0 (positive parts)."""
    return nonnegative_product("per-pair bound: g = C - K_x(A) + gamma K_x'(A) >= 0")


def contraction() -> LinearCombination:
    """d = TV(P, Q) > 0: (KP)(A) − γ(KQ)(A) = Bp − γBn − (γ − 1)W ≤ C·d with C = (t − γ)₊/(t + 1), the
    coefficient written out (so the certificate is in the statement's parameters t, γ, d)."""
    return LinearCombination.build(
        name="B-7: E_gamma(KP||KQ) <= C TV(P, Q) for eps-LDP K", parameters=(t, gamma, d), variables=(Bp, Bn, W),
        constraints=[("L = sum over pairs of p(x) n(x') (C - K_x(A) + gamma K_x'(A)) >= 0 (summands nonnegative), "
                      "C = Max(t - gamma, 0)/(t + 1): C d^2 - d Bp + gamma d Bn >= 0",
                      COEFFICIENT * d**2 - d * Bp + gamma * d * Bn),
                     ("W = sum_x Min(P(x), Q(x)) K_x(A) >= 0", W)],
        multipliers=[1 / d, gamma - 1], conclusion=COEFFICIENT * d - (Bp - gamma * Bn - (gamma - 1) * W),
        region=(t >= 1, d > 0, d <= 1, gamma >= 1), scope=SCOPE + ", 0 < TV(P, Q) <= 1",
        uses=(summands().name, pair_summand_nonnegative().name))


def equal_inputs() -> LinearCombination:
    """d = TV(P, Q) = 0: p = 0, so Bp = 0 and (KP)(A) − γ(KQ)(A) = −γBn − (γ − 1)W ≤ 0 = C·d."""
    return LinearCombination.build(
        name="B-7: TV(P, Q) = 0", parameters=(gamma,), variables=(Bp, Bn, W),
        constraints=[("Bp = sum_x p(x) K_x(A) <= sum_x p(x) = TV(P, Q) = 0", -Bp), ("Bn >= 0", Bn), ("W >= 0", W)],
        multipliers=[1, gamma, gamma - 1], conclusion=-(Bp - gamma * Bn - (gamma - 1) * W),
        region=(gamma >= 1,), scope=SCOPE + ", TV(P, Q) = 0")


def ratio_bound() -> LinearCombination:
    """ε-LDP: p = (KP)(y) ≤ t·(KQ)(y) = t q for every P, Q and output y (step 1 of the f form): p ≤ m and q ≥ k,
    m = max_x K(y|x), k = min_x K(y|x) (a mean lies between the extremes: the vertex lemma at c = 0), and
    m ≤ t k (ε-LDP at the rows attaining them); dividing by q > 0 (:data:`~exactdp.theory.structural_lemmas.DIVISION`),
    p/q ≤ t, and q/p ≤ t with P and Q exchanged: every likelihood ratio of KP to KQ lies in [1/t, t]."""
    return LinearCombination.build(
        name="B-7: (KP)(y) <= t (KQ)(y) for eps-LDP K", parameters=(t,), variables=(p, q, m, k),
        constraints=[("p = (KP)(y) = sum_x P(x) K(y|x) <= m = max_x K(y|x)", m - p),
                     ("q = (KQ)(y) = sum_x Q(x) K(y|x) >= k = min_x K(y|x)", q - k),
                     ("eps-LDP at output y, rows x = argmax, x' = argmin: t k - m >= 0", t * k - m)],
        multipliers=[1, t, 1], conclusion=t * q - p, region=(t >= 1,), scope="all N, M; t = e^eps >= 1",
        uses=SL.VERTEX.uses + SL.DIVISION.uses)


def _binette_times_tv(fn):
    """(t − 1)/(t + 1) · (f(1/t)/(1 − 1/t) + f(t)/(t − 1)): the TV coefficient of step 2 times Binette's
    coefficient at (1/t, t) (B-6)."""
    return (t - 1) / (t + 1) * (fn(1 / t) / (1 - 1 / t) + fn(t) / (t - 1))


def f_form_coefficients() -> SymbolicStatements:
    """Step 4 of the f form: (t − 1)/(t + 1)·B_f(1/t, t) = (f(t) + t f(1/t))/(t + 1) for every f (an undefined
    function), and its closed forms (log t)(t − 1)/(t + 1) (KL, f = x log x), 2(√t − 1)²/(t + 1) (H², f =
    (√x − 1)², no ½) and (t − 1)²/t (χ², f = (x − 1)²), for t > 1; at t = 1 the three closed forms are 0."""
    f = sympy.Function("f")
    kl, h2, chi2 = (lambda x: x * sympy.log(x)), (lambda x: (sympy.sqrt(x) - 1) ** 2), (lambda x: (x - 1) ** 2)
    closed = ((t - 1) * sympy.log(t) / (t + 1), 2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1), (t - 1) ** 2 / t)
    rows = [statement("every f: (t - 1)/(t + 1) B_f(1/t, t) = (f(t) + t f(1/t))/(t + 1)",
                      sympy.Eq(_binette_times_tv(f), (f(t) + t * f(1 / t)) / (t + 1), evaluate=False))]
    for name, fn, value in zip(("KL", "H2", "chi2"), (kl, h2, chi2), closed):
        rows.append(statement(f"{name}: (t - 1)/(t + 1) B_f(1/t, t) = {value}",
                              sympy.Eq(_binette_times_tv(fn), value, evaluate=False)))
        rows.append(statement(f"{name}: (f(t) + t f(1/t))/(t + 1) = {value}",
                              sympy.Eq((fn(t) + t * fn(1 / t)) / (t + 1), value, evaluate=False)))
        rows.append(statement(f"{name} at t = 1: {value} = 0",
                              sympy.Eq(sympy.Subs(value, t, 1), 0, evaluate=False)))
    return SymbolicStatements(name="B-7: the f-form coefficient is (t - 1)/(t + 1) times Binette's at (1/t, t)",
                              parameters=("t",), functions=("f",), assumptions=(("t", "positive"),),
                              region=("t > 1",), scope="t = e^eps > 1", statements=tuple(rows))


def binette_with_tv() -> LinearCombination:
    """Step 3 of the f form, t > 1: D_f(KP‖KQ) ≤ B·TV(KP, KQ) (:data:`~exactdp.theory.structural_lemmas.BINETTE` at
    m = 1/t, M = t, the range of :func:`ratio_bound`) and TV(KP, KQ) ≤ (t − 1)/(t + 1)·d (:func:`ldp_tv`, d =
    TV(P, Q)) give D_f(KP‖KQ) ≤ B·(t − 1)/(t + 1)·d."""
    return SL.binette_step("B-7: D_f(KP||KQ) <= B (t - 1)/(t + 1) TV(P, Q)",
                           "TV(KP, KQ) <= (t - 1)/(t + 1) d, d = TV(P, Q): the eta_TV bound at delta = 0 (certificate "
                           "of this proof)", (t - 1) / (t + 1) * d, (t, d), (t > 1, d >= 0),
                           uses=(ldp_tv().name, ratio_bound().name))


def f_form_certificates() -> tuple:
    """B-7's f form, every N and M: the ratio bound, the η_TV bound at δ = 0
    (:func:`exactdp.theory.class_certificates.ldp_tv`), Binette's lemma with that bound and the coefficient
    identities."""
    return (ratio_bound(), ldp_tv(), binette_with_tv(), f_form_coefficients())


def e_gamma_form_certificates() -> tuple:
    """B-7's E_γ form, every N and M, t ≥ 1, γ ≥ 1 (module docstring)."""
    return (summands(), pair_bound_below_t(), pair_bound_beyond_t(), coefficient_cases(),
            pair_summand_nonnegative(), contraction(), equal_inputs(), event_form())


__all__ = ["COEFFICIENT", "SCOPE", "binette_with_tv", "coefficient_cases", "contraction",
           "e_gamma_form_certificates", "equal_inputs", "f_form_certificates",
           "f_form_coefficients", "pair_bound_below_t", "pair_bound_beyond_t",
           "pair_summand_nonnegative", "ratio_bound", "summands"]
