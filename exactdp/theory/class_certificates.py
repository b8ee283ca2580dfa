r"""Fixed-combination ("Farkas") certificates that prove the papers' bounds for ALL N and M.

Each privacy class is seen through the *aggregated* quantities of one pair of rows (x, x′) and one output
set A ⊆ [M]: a = K_x(A), b = K_{x′}(A) ∈ [0, 1] (and, for (ε,c)-PML, S = Σ_x K_x(A)).  Dobrushin's
coefficient is η_TV(K) = max_{x,x′} max_A (K_x(A) − K_{x′}(A)) (B-1), so a bound on a − b that holds for
every (x, x′, A) of every kernel of the class bounds η_TV over the class, whatever N and M are.  The step
needs no citation: it is the two-point bound of :mod:`exactdp.theory.structural_lemmas` (:data:`TWO_POINT`
names it in derivations), and the per-output constraints are summed over A by its aggregation lemma — each a
certificate of its own that the certificates here name in their ``uses`` field, so every outcome carries,
exports and re-checks it.  :func:`aggregation_identity` and :func:`two_point_identity` cross-check the two
lemmas on symbolic kernels of given sizes (the tests run them for several (N, M, A)).

Certificates (:class:`~exactdp.algebra.certificates.linear_combination.LinearCombination`; checking
one = one exact cancellation and prover sign decisions of the multipliers on the region):

* :func:`ldp_tv` — (ε,δ)-LDP, t = e^ε ≥ 1, δ ∈ [0,1]: a ≤ t b + δ (set A, rows (x, x′)) and
  1 − b ≤ t(1 − a) + δ (set Aᶜ, rows (x′, x)), multipliers 1/(t+1) each ⇒ a − b ≤ (t − 1 + 2δ)/(t + 1)
  (B-4 upper bound; with φ ≥ that value, [A]'s φ-lemma A-7 for η_TV).
* :func:`pml_tv` — (ε,c)-PML ([G] Def. 2 in the per-output form D-9:
  K(y|x) ≤ t(c S_y + (1 − Nc) K(y|x₀)) for all y, x, x₀): summed over y ∈ A for (x, x′) and over Aᶜ for
  (x′, x), multipliers 1/(1 + t(1 − Nc)) each ⇒ a − b ≤ (t − 1)/(t(1 − Nc) + 1) ([G] Thm 1 / Thm 3 upper
  bound, G-15, G-18).  Written with u = N·c so that every sign condition has two parameters.
* :func:`trivial_tv` — a ≤ 1, b ≥ 0 ⇒ a − b ≤ 1 (the other branch of Ξ's min).
* :func:`zero_entries` — [G] Lemma 1 (G-12): a non-zero column y with a zero at x₀ and w = N − z non-zero
  entries: m = max_x K(y|x) ≤ t c S_y (PML at x₀), S_y ≤ w m, and w ≤ v := N − l for z ≥ l ⇒
  m (t c v − 1) ≥ 0, so t ≥ 1/((N − l)c) (m > 0): below that level no column has l zeros.
* :func:`zero_column_witness_level` — Lemma 1 is tight: the witness with z zeros in a column has level
  exactly 1/((N − z)c) (its other column's ratio is at most that, a Farkas certificate in (N, c)).
* :func:`lemma2_statements` — [G] Lemma 2 (G-14): the pair U ± (s/2)(e_x − e_{x′}) lies in Q_X(c).
* :func:`lemma4_ratio` — [G] Lemma 4 (G-23 bound): for P, Q ∈ Q_X(c) and output y,
  (K∘P)(y) ≤ ((1 − Nc)t + 1)(K∘Q)(y).
* :func:`disjoint_rows_witness_statements` — [G] Thm 2 (G-16): the witness with rows (1,0), (0,1) and
  (½,½) is in M(ε,c) exactly when t·Nc ≥ 2, and the Thm 3 bound is < 1 exactly when t·Nc < 2 (converse).
"""

from __future__ import annotations

import itertools

import sympy

from exactdp import bounds
from exactdp.algebra.certificates import relation_text
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.theory import structural_lemmas as SL

# parameters (plain real symbols: every condition is in the certificate's region) and variables
t, c, u, delta, v = sympy.symbols("t c u delta v", real=True)  # u = N*c, v = N - l
a, b, S, m, w, p, q, k = sympy.symbols("a b S m w p q k", real=True)

#: how the parameters u and v of the certificates here (and of :mod:`exactdp.theory.pml_attainment`) stand for the
#: papers' sizes: u = N·c, v = N − l.  A claim states its bound in N (and l); the engine files a certificate in u
#: (v) as a step and carries the claim by its ``instantiation`` at this substitution
#: (:func:`exactdp.verification.engine.instantiating`), which every checker decides
SIZE_SUBSTITUTIONS = (("u", "N*c"), ("v", "N - l"))

#: how the certificates' other abbreviations stand for the papers' quantities: α = c·q, the prior mass of G-20's q
#: rows at M (:func:`exactdp.theory.pml_attainment.g20_feasibility`; q real, a variable of the claim's statement).  A
#: certificate in α (a parameter or a variable) is carried to a part in q by the instantiation at α ↦ c·q, whose
#: hypotheses are the substituted ones (t·α ≤ 1 becomes t·c·q ≤ 1, which the part must state)
VARIABLE_SUBSTITUTIONS = (("alpha", "c*q"),)

#: every substitution the engine's automatic instantiation applies (:func:`exactdp.verification.engine.instantiating`),
#: as (name, image, whether it replaces a variable too): a size's abbreviation replaces a parameter only (a
#: certificate quantifying u as a variable, the t ≥ 1/c witness, keeps it), α a parameter or a variable
SUBSTITUTIONS = (*((x, v, False) for x, v in SIZE_SUBSTITUTIONS), *((x, v, True) for x, v in VARIABLE_SUBSTITUTIONS))

#: the scope phrase of a proof for every number of inputs N >= 2 and outputs M >= 2 (reports group by it)
ALL_N_M = "all N, M"
_Q = sympy.Rational

#: why a bound on K_x(A) - K_x'(A) for every rows x, x' and set A bounds eta_TV(K) (no citation of B-1 needed):
#: the structural lemma of that name, whose certificates every such proof carries (derivation text)
TWO_POINT = (f"the lemma '{SL.TWO_POINT.name}' (certificates {', '.join(SL.TWO_POINT.uses)}): "
             f"{SL.TWO_POINT.statement}")

#: the registry's formulas with N*c written u (Ξ, Lemma 4's Γ) and the (ε,δ) values
XI_FIRST = (t - 1) / (t * (1 - u) + 1)
GAMMA_LEMMA4 = (1 - u) * t + 1


def _pml_region():
    return (t >= 1, c > 0, u >= 2 * c, u <= 1)


def ldp_tv() -> LinearCombination:
    """(ε,δ)-LDP: a − b ≤ (t − 1 + 2δ)/(t + 1) for every pair of rows and set A (B-4 upper bound)."""
    return LinearCombination.build(
        name="(eps,delta)-LDP Dobrushin bound", parameters=(t, delta), variables=(a, b),
        constraints=[("(eps,delta)-LDP ([A] D-6) on A, rows (x, x'): t*b + delta - a >= 0", t * b + delta - a),
                     ("(eps,delta)-LDP ([A] D-6) on A^c, rows (x', x): t*(1 - a) + delta - (1 - b) >= 0",
                      t * (1 - a) + delta - (1 - b))],
        multipliers=[1 / (t + 1), 1 / (t + 1)], conclusion=(t - 1 + 2 * delta) / (t + 1) - (a - b),
        region=(t >= 1, delta >= 0, delta <= 1), scope=ALL_N_M + "; t >= 1, 0 <= delta <= 1",
        uses=SL.AGGREGATION.uses + SL.TWO_POINT.uses)


def pml_tv() -> LinearCombination:
    """(ε,c)-PML: a − b ≤ (t − 1)/(t(1 − Nc) + 1) for every pair of rows and set A ([G] Thm 1/3 upper bound)."""
    return LinearCombination.build(
        name="(eps,c)-PML Dobrushin bound", parameters=(t, c, u), variables=(a, b, S),
        constraints=[("PML ([G] D-9) summed over y in A, rows (x, x'): t*(c*S + (1 - u)*b) - a >= 0",
                      t * (c * S + (1 - u) * b) - a),
                     ("PML ([G] D-9) summed over y in A^c, rows (x', x): t*(u - c*S + (1 - u)*(1 - a)) - (1 - b) >= 0",
                      t * (u - c * S + (1 - u) * (1 - a)) - (1 - b))],
        multipliers=[1 / (1 + t * (1 - u)), 1 / (1 + t * (1 - u))], conclusion=XI_FIRST - (a - b),
        region=_pml_region(), scope=ALL_N_M + "; t >= 1, 0 < c <= 1/N (u = N*c)",
        uses=SL.AGGREGATION.uses + SL.TWO_POINT.uses)


def trivial_tv() -> LinearCombination:
    """a ≤ 1 and b ≥ 0 give a − b ≤ 1 (η_TV ≤ 1 for every kernel)."""
    return LinearCombination.build(
        name="eta_TV <= 1", parameters=(), variables=(a, b),
        constraints=[("a = K_x(A) <= 1", 1 - a), ("b = K_x'(A) >= 0", b)], multipliers=[1, 1],
        conclusion=1 - (a - b), scope="all kernels", uses=SL.SET_MASS.uses + SL.TWO_POINT.uses)


def zero_entries() -> LinearCombination:
    """[G] Lemma 1: m·(t c v − 1) ≥ 0 for a column with a zero, w ≤ v non-zero entries and maximum m."""
    return LinearCombination.build(
        name="[G] Lemma 1 zero entries", parameters=(t, c, v), variables=(m, S, w),
        constraints=[("PML at a zero entry x0 of column y: t*c*S_y - m >= 0 (K(y|x0) = 0)", t * c * S - m),
                     ("S_y <= w m: w = N - z non-zero entries, each <= m", w * m - S),
                     ("z >= l zeros: (v - w) m >= 0 with v = N - l, m >= 0", (v - w) * m)],
        multipliers=[1, t * c, t * c], conclusion=m * (t * c * v - 1),
        region=(t >= 1, c > 0, v >= 1), scope=ALL_N_M + "; t >= 1, c > 0, 1 <= l <= N - 1",
        uses=SL.DIVISION.uses)


def zero_column_witness_level() -> LinearCombination:
    """[G] Lemma 1 is tight: in ``zero_column_witness(N, z)`` (z rows (0, 1), w = N − z rows (1/N, 1 − 1/N))
    column 0 has PML ratio (1/N)/(c·w/N) = 1/(wc), and column 1's ratio 1/(c S₁ + (1 − Nc)(1 − 1/N)),
    S₁ = z + w(1 − 1/N), is at most 1/(wc): h = c S₁ + (1 − Nc)(1 − 1/N) − wc ≥ 0 for 1 ≤ w ≤ N − 1,
    0 < c ≤ 1/N (the definitions z, S₁ and the smallest entry lo = 1 − 1/N are substituted by the checkers;
    from h ≥ 0 to the ratios by :data:`~exactdp.theory.structural_lemmas.DIVISION`).  So the witness's level is
    exactly 1/((N − z)c), the least level Lemma 1 allows for z zeros."""
    n = sympy.Symbol("N", real=True)
    z, S1, lo = sympy.symbols("z S1 lo", real=True)
    return LinearCombination.build(
        name="[G] Lemma 1 witness level", parameters=(n, c), variables=(w,),
        definitions=((z, n - w), (S1, z * 1 + w * (1 - 1 / n)), (lo, 1 - 1 / n)),
        constraints=[("w = N - z <= N - 1 (z >= 1)", n - 1 - w), ("c <= 1/N", 1 / n - c)],
        multipliers=[c * (1 + 1 / n), n - 1 - 1 / n], slack=1 / n ** 2, conclusion=c * S1 + (1 - n * c) * lo - w * c,
        region=(n >= 2, c > 0), scope=ALL_N_M + "; 1 <= z <= N - 1, 0 < c <= 1/N", uses=SL.DIVISION.uses)


def lemma2_statements() -> SymbolicStatements:
    """[G] Lemma 2 (c < 1/N): P, Q = U ± (s/2)(e_x − e_{x′}) with s = 1/N − c lie in Q_X(c) and have
    TV(P, Q) = s, so their TV ratio is TV(K_x, K_{x′}) (linearity) for every pair x, x′ of any kernel."""
    n, W = sympy.Symbol("N", real=True), sympy.Symbol("w", real=True)  # w = 1/N
    s_ = W - c
    reg = (c > 0, W > c, W <= _Q(1, 2))
    rows = (statement("s = 1/N - c > 0", sympy.StrictGreaterThan(s_, 0, evaluate=False), reg),
            statement("P(x') = Q(x) = 1/N - s/2 >= c", sympy.GreaterThan(W - s_ / 2, c, evaluate=False), reg),
            statement("P(x) = Q(x') = 1/N + s/2 <= 1", sympy.LessThan(W + s_ / 2, 1, evaluate=False), reg),
            statement("the other entries 1/N >= c", sympy.GreaterThan(W, c, evaluate=False), reg),
            statement("P sums to 1: (N - 2)/N + (1/N + s/2) + (1/N - s/2) = 1",
                      sympy.Eq((n - 2) / n + (1 / n + (1 / n - c) / 2) + (1 / n - (1 / n - c) / 2), 1, evaluate=False)),
            statement("TV(P, Q) = ((P(x) - Q(x)) + (Q(x') - P(x')))/2 = s (both differences are s > 0)",
                      sympy.Eq(sympy.Mul(sympy.Add(W + s_ / 2, -(W - s_ / 2), W + s_ / 2, -(W - s_ / 2), evaluate=False),
                                         _Q(1, 2), evaluate=False), s_, evaluate=False)))
    return SymbolicStatements(name="[G] Lemma 2 pair in Q_X(c)", parameters=("N", "w", "c"), region=(),
                              scope=ALL_N_M + "; 0 < c < 1/N (w = 1/N)", statements=rows)


def lemma4_ratio() -> LinearCombination:
    """[G] Lemma 4: (K∘P)(y) ≤ ((1 − Nc)t + 1)(K∘Q)(y) for K ∈ M(ε,c), P, Q ∈ Q_X(c) (the first two constraints
    by the vertex lemma of Q_X(c)); dividing by (K∘Q)(y) > 0, Γ_max ≤ (1 − Nc)t + 1, and Γ_min ≥ 1/((1 − Nc)t + 1)
    with P and Q exchanged."""
    return LinearCombination.build(
        name="[G] Lemma 4 ratio bound", parameters=(t, c, u), variables=(p, q, S, m, k),
        constraints=[("P in Q_X(c): p = (KP)(y) <= c S_y + (1 - Nc) m", c * S + (1 - u) * m - p),
                     ("Q in Q_X(c): q = (KQ)(y) >= c S_y + (1 - Nc) k", q - c * S - (1 - u) * k),
                     ("PML (D-9), x = argmax, x0 = argmin of column y: m <= t (c S_y + (1 - Nc) k)",
                      t * (c * S + (1 - u) * k) - m),
                     ("k = min_x K(y|x) >= 0", k)],
        multipliers=[1, GAMMA_LEMMA4, 1 - u, 1 - u], conclusion=GAMMA_LEMMA4 * q - p,
        region=_pml_region(), scope=ALL_N_M + "; t >= 1, 0 < c <= 1/N (u = N*c)",
        uses=SL.VERTEX.uses + SL.DIVISION.uses)


def xi_statements() -> SymbolicStatements:
    """Ξ from the registry is min{the certified bound, 1}; Thm 3's bound is < 1 exactly when t·Nc < 2."""
    # the registry's Xi at N = u/c, recorded (Subs) so that the checkers carry the substitution out
    xi = sympy.Subs(bounds.REGISTRY["xi"].expr.subs({bounds.t: t, bounds.c: c}), bounds.N, u / c)
    return SymbolicStatements(name="Xi and the Theorem 3 regime", parameters=("N", "t", "c", "u"),
                              region=("t >= 1", "c > 0", "u <= 1", "u >= 2*c"),
                              scope=ALL_N_M + "; t >= 1, 0 < c <= 1/N (u = N*c)", statements=(
        statement("registry Xi = min{(t-1)/(t(1-Nc)+1), 1}", sympy.Eq(xi, sympy.Min(XI_FIRST, 1), evaluate=False)),
        statement("t Nc < 2: (t-1)/(t(1-Nc)+1) < 1", sympy.StrictLessThan(XI_FIRST, 1, evaluate=False),
                  (t >= 1, u > 0, u <= 1, t * u < 2)),
        statement("t Nc >= 2: (t-1)/(t(1-Nc)+1) >= 1", sympy.GreaterThan(XI_FIRST, 1, evaluate=False),
                  (t >= 1, u > 0, u <= 1, t * u >= 2)),
    ))


def disjoint_rows_witness_statements() -> SymbolicStatements:
    """[G] Thm 2 witness (rows (1,0), (0,1), the rest (½,½)): column sums N/2, every PML constraint
    K(y|x) ≤ t(c·N/2 + (1 − Nc)K(y|x₀)) holds for t·Nc ≥ 2 (all entry pairs in {0, ½, 1})."""
    n = sympy.Symbol("N", real=True)
    rows = [statement("column sums: 1 + 0 + (N - 2)/2 = N/2",
                      sympy.Eq(sympy.Add(1, 0, (n - 2) / 2, evaluate=False), n / 2, evaluate=False))]
    for kx, k0 in itertools.product((0, _Q(1, 2), 1), repeat=2):
        rows.append(statement(f"PML, K(y|x) = {kx}, K(y|x0) = {k0}: {kx} <= t (u/2 + (1 - u) {k0})",
                              sympy.LessThan(kx, t * (u / 2 + (1 - u) * k0), evaluate=False),
                              (t >= 1, u > 0, u <= 1, t * u >= 2)))
    return SymbolicStatements(name="[G] Thm 2 disjoint-rows witness", parameters=("t", "u", "N"),
                              region=(), scope=ALL_N_M + "; a witness with M = 2, padded with outputs of mass 0; t Nc >= 2",
                              statements=tuple(rows))


def ldp_statements() -> SymbolicStatements:
    """φ ≥ (t−1+2δ)/(t+1) (registry entries) and the binary kernel a = (t+δ)/(t+1), b = (1−δ)/(t+1) of B-4:
    a stochastic (ε,δ)-LDP kernel with a − b = (t−1+2δ)/(t+1) (equality)."""
    B = {bounds.t: t, bounds.delta: delta}
    phi = bounds.REGISTRY["phi"].expr.subs(B)
    tight = bounds.REGISTRY["ldp_dobrushin_tight"].expr.subs(B)
    a0, b0 = (t + delta) / (t + 1), (1 - delta) / (t + 1)
    reg = (t >= 1, delta >= 0, delta <= 1)
    rows = [statement("phi(eps, delta) >= (t - 1 + 2 delta)/(t + 1)", sympy.GreaterThan(phi, tight, evaluate=False)),
            statement("binary kernel: a - b = (t - 1 + 2 delta)/(t + 1)", sympy.Eq(a0 - b0, tight, evaluate=False)),
            statement("binary kernel: a <= 1", sympy.LessThan(a0, 1, evaluate=False)),
            statement("binary kernel: b >= 0", sympy.GreaterThan(b0, 0, evaluate=False))]
    for name, lhs, rhs in (("{0}, (x, x')", a0, t * b0 + delta), ("{1}, (x, x')", 1 - a0, t * (1 - b0) + delta),
                           ("{0}, (x', x)", b0, t * a0 + delta), ("{1}, (x', x)", 1 - b0, t * (1 - a0) + delta)):
        rows.append(statement(f"binary kernel is (eps,delta)-LDP on {name}", sympy.LessThan(lhs, rhs, evaluate=False)))
    return SymbolicStatements(name="(eps,delta)-LDP: phi and the attaining binary kernel", parameters=("t", "delta"),
                              region=tuple(relation_text(r) for r in reg),
                              scope=ALL_N_M + "; t >= 1, 0 <= delta <= 1", statements=tuple(rows))


def aggregation_identity(N: int, M: int, A: tuple[int, ...], x: int = 0, x1: int = 1) -> sympy.Expr:
    """Σ_{y∈A} [t(c S_y + (1−Nc)K(y|x₁)) − K(y|x)] minus the aggregated constraint of :func:`pml_tv` (with
    u = Nc, a = K_x(A), b = K_{x₁}(A), S = Σ_x K_x(A)) on a kernel of symbols: 0 when the aggregation
    lemma holds for this (N, M, A) (exact cancellation)."""
    K = [[sympy.Symbol(f"K_{i}_{y}", real=True) for y in range(M)] for i in range(N)]
    Sy = [sum(K[i][y] for i in range(N)) for y in range(M)]
    summed = sum(t * (c * Sy[y] + (1 - N * c) * K[x1][y]) - K[x][y] for y in A)
    aggregated = (t * (c * S + (1 - u) * b) - a).subs({
        S: sum(Sy[y] for y in A), b: sum(K[x1][y] for y in A), a: sum(K[x][y] for y in A), u: N * c})
    return sympy.expand(summed - aggregated)


def two_point_identity(N: int) -> sympy.Expr:
    """The step of :data:`TWO_POINT` as an exact identity for N inputs: with μ, ν distributions (last entries
    1 − Σ of the others), Σ_x (μ(x) − ν(x)) K_x(A) − Σ_{x,x′} μ(x) ν(x′) (K_x(A) − K_{x′}(A)), expanded:
    0 when the convex-combination step holds for this N."""
    mu = [sympy.Symbol(f"mu_{i}", real=True) for i in range(N - 1)]
    nu = [sympy.Symbol(f"nu_{i}", real=True) for i in range(N - 1)]
    mu.append(1 - sum(mu))
    nu.append(1 - sum(nu))
    KA = [sympy.Symbol(f"KA_{i}", real=True) for i in range(N)]
    direct = sum((mu[i] - nu[i]) * KA[i] for i in range(N))
    pairs = sum(mu[i] * nu[j] * (KA[i] - KA[j]) for i in range(N) for j in range(N))
    return sympy.expand(direct - pairs)


#: every certificate of this module, by name (for export and the tests)
def all_certificates() -> tuple:
    return (ldp_tv(), pml_tv(), trivial_tv(), zero_entries(), zero_column_witness_level(), lemma4_ratio(),
            xi_statements(), disjoint_rows_witness_statements(), ldp_statements(), lemma2_statements())
