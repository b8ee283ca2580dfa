r"""The structural lemmas behind the all-N, M certificates, each stated once as checked certificates.

A linear-combination certificate about every kernel of a class works with *aggregated* quantities — a = K_x(A),
b = K_{x′}(A), S = Σ_x K_x(A), (KP)(y) — and its constraints hold because of a few structural facts.  Each fact is
a lemma here: a name, its statement, and certificates that both checkers decide (the engine and
``exactdp recheck``; ``exactdp recheck --smt`` sees their obligations).  A certificate that rests on a lemma names
its certificates in its ``uses`` field; :func:`with_lemmas` adds them to every proved outcome that carries such a
certificate, so they are exported, re-checked and listed with it.

As in :mod:`exactdp.theory.e_gamma_certificates`, sums over inputs, outputs or pairs are reduced to *summand*
statements (in the summand's own values, or in arbitrary functions of a symbolic index), and the only facts
about finite sums used are the trusted rules listed in the README ("What proved means here"): a relation that
holds for every summand holds for the sums (= and ≤ term by term; a map that is additive on two summands is
additive on any finite number, by induction on the number of terms), Σ_{A^c} = Σ_{all} − Σ_A, finite sums may
be exchanged and distribute over products, and Σ_x c = N·c.  The number of terms — N, M — never enters.

* :data:`AGGREGATION` — a per-output constraint that is linear in the column (the (ε,c)-PML form of [G] D-9,
  F(k, k₀, S) = t(cS + (1 − Nc)k₀) − k, and the ε-LDP form t k₀ − k) is additive, so summed over an output set A
  it is the same form in K_x(A), K_{x₀}(A), S_A (for a weighted sum Σ_y w_y(·) likewise); on Aᶜ the rows' sums
  and the column total give K_x(Aᶜ) = 1 − a, K_{x′}(Aᶜ) = 1 − b, S_{Aᶜ} = N − S, which turns the form on Aᶜ
  into the certificates' second constraint ((ε,δ)-LDP, [A] D-6, is defined on sets: no summation).
* :data:`SET_MASS` — the mass K_x(A) of an output set lies in [0, 1] ("probabilities lie in [0, 1]").
* :data:`TWO_POINT` — for distributions P ≠ Q and a set A, (KP − KQ)(A) = TV(P,Q)·Σ_{x,x′} μ(x)ν(x′)(K_x(A) −
  K_{x′}(A)) with μ = (P − Q)₊/TV, ν = (Q − P)₊/TV, so a bound D on every K_x(A) − K_{x′}(A) gives
  TV(KP, KQ) ≤ D·TV(P, Q) and η_TV(K) ≤ D, every N, M (B-1's upper half, proved rather than cited).
* :data:`VERTEX` — the vertex lemma of Q_X(c): P ∈ Q_X(c) is c𝟙 + P′ with P′ ≥ 0 of mass 1 − Nc, so
  (KP)(y) = c S_y + Σ_x P′(x)K(y|x) lies between c S_y + (1 − Nc)·min_x K(y|x) and c S_y + (1 − Nc)·max_x K(y|x)
  (the PML constraints at the N vertices c𝟙 + (1 − Nc)e_x suffice).
* :data:`DIVISION` — dividing by a positive quantity: for q > 0, Γq − p ≥ 0 gives p/q ≤ Γ; for A, B > 0,
  A − B ≥ 0 gives 1/A ≤ 1/B; m > 0 and m·X ≥ 0 give X ≥ 0.
* :data:`MERGING` — merging outputs keeps η_TV and the class ([G] Lemma 3's proof, docs/claims.md G-17): with
  K′(y′|x) = Σ_{π(y) = y′} K(y|x), the ε-LDP and (ε,c)-PML constraints of the merged output are the sums of those
  of the outputs merged into it (linear combinations with multipliers 1; S_{y′} adds up the same way), its entries
  are sums of entries ≥ 0, a set B′ of merged outputs is the set π⁻¹(B′) of outputs (so η_TV(K′) ≤ η_TV(K), and
  E_γ likewise), and the merge into {A, Aᶜ} at a set A attaining η_TV(K) has K′_x(0) = K_x(A) (so equality).
* :data:`BINETTE` — Binette's inequality (O. Binette 2019, the form [G] Thm 4 and B-7 use): for distributions P′, Q′
  on a finite alphabet with m ≤ P′(y)/Q′(y) ≤ M (0 < m < 1 < M) and f convex with f(1) = 0,
  D_f(P′‖Q′) = Σ_y Q′(y) f(P′(y)/Q′(y)) ≤ (f(m)/(1 − m) + f(M)/(M − 1))·TV(P′, Q′).  Per output, r = P′(y)/Q′(y):
  for r ∈ [1, M], r = λ·1 + (1 − λ)M with λ = (M − r)/(M − 1) ∈ [0, 1], so convexity (a two-point instance, f(1) =
  0) gives f(r) ≤ (r − 1)/(M − 1)·f(M); for r ∈ [m, 1] likewise f(r) ≤ (1 − r)/(1 − m)·f(m).  Times Q′(y) ≥ 0:
  Q′ f(P′/Q′) ≤ (P′ − Q′)₊ f(M)/(M − 1) + (Q′ − P′)₊ f(m)/(1 − m) (the case certificates and the positive parts);
  an output with Q′(y) = 0 has P′(y) ≤ M·0 = 0 and contributes 0.  Summed over y (the finite-sum rules) with
  Σ(P′ − Q′)₊ = Σ(Q′ − P′)₊ = TV(P′, Q′) this is the inequality.  Its coefficient is ≥ 0 (convexity at m < 1 < M),
  so a bound TV(P′, Q′) ≤ X gives D_f ≤ coefficient·X.  For χ² (f = (x − 1)²) and H² (f = (√x − 1)²) the two
  chord inequalities are checked as statements too, so no convexity instance is taken for them.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from exactdp.algebra.certificates import Certificate
from exactdp.claim_statement import LEMMA_PREFIX, restating
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements

#: the sizes every lemma ranges over
_SIZES = "all N, M"


@dataclass(frozen=True)
class Lemma:
    """A structural lemma: its name, its statement (what its certificates establish together with the trusted
    rules on finite sums) and its certificates, each bound to its part of the statement in machine form
    (:func:`stated`)."""

    name: str
    statement: str
    certificates: tuple[Certificate, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "certificates", tuple(stated(self.name, c) for c in self.certificates))

    @property
    def uses(self) -> tuple[str, ...]:
        """The names a certificate resting on this lemma lists in its ``uses`` field."""
        return tuple(c.name for c in self.certificates)


def stated(lemma: str, cert: Certificate) -> Certificate:
    """``cert`` bound to the lemma's statement in machine form (:func:`exactdp.claim_statement.restating`, claim
    ``"lemma: <name>"``): a lemma's statement is the lemma, so its conclusions are what the certificate states (each
    symbolic statement under its conditions, a linear combination's h >= 0 under its constraints) and its domain is
    the certificate's region; the checkers still decide that the domain has a point, and the name follows the lemma."""
    d = cert.to_json()
    return cert.bound_to(restating(LEMMA_PREFIX + lemma, d, domain=tuple(d["region"])))


def _aggregation() -> Lemma:
    statements = (
        ("(eps,c)-PML form F(k, k0, S) = t(c S + (1 - Nc) k0) - k is additive over outputs: summed over a set A "
         "(or weighted by w_y >= 0) it is F(K_x(A), K_x0(A), S_A)",
         "t*(c*(s1 + s2) + (1 - u)*(l1 + l2)) - (k1 + k2)", "==",
         "(t*(c*s1 + (1 - u)*l1) - k1) + (t*(c*s2 + (1 - u)*l2) - k2)", ()),
        ("eps-LDP form t k0 - k is additive over outputs", "t*(l1 + l2) - (k1 + k2)", "==",
         "(t*l1 - k1) + (t*l2 - k2)", ()),
        ("(eps,c)-PML on A^c, rows (x', x): K_x'(A^c) = 1 - b, K_x(A^c) = 1 - a, S_(A^c) = N - S, N c = u",
         "Subs(t*(c*(N - S) + (1 - N*c)*(1 - a)) - (1 - b), N, u/c)", "==",
         "t*(u - c*S + (1 - u)*(1 - a)) - (1 - b)", ()),
        ("(eps,delta)-LDP ([A] D-6) on the set A^c, rows (x', x): K_x'(A^c) = 1 - b, K_x(A^c) = 1 - a",
         "Subs(Subs(t*kc + delta - kpc, kc, 1 - a), kpc, 1 - b)", "==", "t*(1 - a) + delta - (1 - b)", ()),
    )
    cert = SymbolicStatements(
        name="lemma: aggregation over an output set", sizes=_SIZES,
        parameters=("t", "c", "u", "N", "delta", "k1", "k2", "l1", "l2", "s1", "s2", "S", "a", "b", "kc", "kpc"),
        statements=statements)
    return Lemma("aggregation over an output set",
                 "a per-output constraint linear in the column, summed over an output set A (or with weights "
                 "w_y >= 0), is the same constraint in K_x(A), K_x'(A), S_A; on A^c in 1 - a, 1 - b, N - S",
                 (cert,))


def _set_mass() -> Lemma:
    a, ac = sympy.symbols("a ac", real=True)
    cert = LinearCombination.build(
        name="lemma: the mass of an output set is at most 1", parameters=(), variables=(a, ac), scope=_SIZES,
        constraints=[("row x sums to 1 over A and A^c: 1 - K_x(A) - K_x(A^c) >= 0 (an equality)", 1 - a - ac),
                     ("K_x(A^c) is a sum of entries >= 0", ac)],
        multipliers=[1, 1], conclusion=1 - a)
    return Lemma("the mass of an output set lies in [0, 1]",
                 "0 <= K_x(A) <= 1: a sum of entries >= 0, and 1 minus the sum over A^c", (cert,))


def _nonnegative_weight(name: str, weight: str, what: str) -> LinearCombination:
    """w·(hi − lo) ≥ 0 from hi − lo ≥ 0 and a weight w ≥ 0 (summed over an index, a weighted sum of ≤)."""
    w = sympy.Symbol(weight, real=True)
    hi, lo = sympy.symbols("hi lo", real=True)
    return LinearCombination.build(
        name=name, parameters=(w,), variables=(hi, lo), scope=_SIZES, region=(w >= 0,),
        constraints=[(what, hi - lo)], multipliers=[w], conclusion=w * hi - w * lo)


def _two_point() -> Lemma:
    pairs = SymbolicStatements(
        name="lemma: two-point bound (sums over pairs)", sizes=_SIZES, parameters=("x", "xp"),
        functions=("KA", "mu", "nu"), statements=(
            ("pair summand mu(x) nu(x') (K_x(A) - K_x'(A)); summed over pairs with sum mu = sum nu = 1: "
             "sum_x mu(x) K_x(A) - sum_x' nu(x') K_x'(A)",
             "mu(x)*nu(xp)*(KA(x) - KA(xp))", "==", "nu(xp)*(mu(x)*KA(x)) - mu(x)*(nu(xp)*KA(xp))", ()),))
    parts = SymbolicStatements(
        name="lemma: two-point bound (positive and negative parts)", sizes=_SIZES, parameters=("z", "T"),
        region=("T > 0",), statements=(
            ("z = P(x) - Q(x), T = TV(P, Q) > 0: T (mu(x) - nu(x)) <= z with mu = z_+/T, nu = (-z)_+/T",
             "T*(Max(z, 0)/T - Max(-z, 0)/T)", "<=", "z", ()),
            ("T (mu(x) - nu(x)) >= z; summed times K_x(A): (KP - KQ)(A) = T (sum mu K(A) - sum nu K(A))",
             "T*(Max(z, 0)/T - Max(-z, 0)/T)", ">=", "z", ()),
            ("mu(x) >= 0", "Max(z, 0)/T", ">=", "0", ()),
            ("nu(x) >= 0", "Max(-z, 0)/T", ">=", "0", ())))
    weight = _nonnegative_weight("lemma: two-point bound (weighted pair bound)", "w",
                                 "D - (K_x(A) - K_x'(A)) >= 0 for the pair (x, x'), weighted by w = T mu(x) nu(x') "
                                 ">= 0; summed over pairs: T D - (KP - KQ)(A) >= 0")
    return Lemma("two-point bound",
                 "if K_x(A) - K_x'(A) <= D for all rows x, x' and sets A, then TV(KP, KQ) <= D TV(P, Q) for all "
                 "P, Q, so eta_TV(K) <= D, every N, M", (pairs, parts, weight))


def _vertex() -> Lemma:
    shift = SymbolicStatements(
        name="lemma: vertex lemma of Q_X(c) (P = c + P')", sizes=_SIZES, parameters=("x", "c", "P"),
        functions=("Pp", "k"), statements=(
            ("summand of (KP)(y) with P(x) = c + P'(x); summed over x: (KP)(y) = c S_y + sum_x P'(x) K(y|x)",
             "Subs(P*k(x), P, c + Pp(x))", "==", "c*k(x) + Pp(x)*k(x)", ()),))
    weight = _nonnegative_weight("lemma: vertex lemma of Q_X(c) (weighted entry bound)", "pp",
                                 "hi - lo >= 0 for hi, lo = max_x K(y|x), K(y|x) (or K(y|x), min_x K(y|x)), "
                                 "weighted by P'(x) >= 0; summed over x with sum P' = 1 - Nc")
    return Lemma("vertex lemma of Q_X(c)",
                 "for P in Q_X(c): c S_y + (1 - Nc) min_x K(y|x) <= (KP)(y) <= c S_y + (1 - Nc) max_x K(y|x)",
                 (shift, weight))


def _division() -> Lemma:
    cert = SymbolicStatements(
        name="lemma: dividing by a positive quantity", sizes=_SIZES, parameters=("G", "p", "q", "A", "B", "e"),
        statements=(
            ("G - p/q = (G q - p)/q", "G - p/q", "==", "(G*q - p)/q", ()),
            ("1/B - 1/A = (A - B)/(A B)", "1/B - 1/A", "==", "(A - B)/(A*B)", ()),
            ("e >= 0, q > 0: e/q >= 0 (so G q - p >= 0 gives p/q <= G, and q X >= 0 gives X >= 0)", "e/q", ">=",
             "0", ("e >= 0", "q > 0")),
            ("e = A - B >= 0, A, B > 0: e/(A B) >= 0 (so 1/A <= 1/B)", "e/(A*B)", ">=", "0",
             ("e >= 0", "A > 0", "B > 0"))))
    return Lemma("dividing by a positive quantity",
                 "q > 0 and G q - p >= 0 give p/q <= G; A >= B > 0 gives 1/A <= 1/B", (cert,))


def _merging() -> Lemma:
    """Merging outputs (K′(y′|x) = Σ_{y : π(y) = y′} K(y|x)) keeps the classes and η_TV ([G] Lemma 3's proof)."""
    t, c, u = sympy.symbols("t c u", real=True)
    k1, k2, l1, l2, s1, s2 = sympy.symbols("k1 k2 l1 l2 s1 s2", real=True)
    pml = LinearCombination.build(
        name="lemma: merging outputs (PML)", parameters=(t, c, u), variables=(k1, k2, l1, l2, s1, s2), scope=_SIZES,
        constraints=[("(eps,c)-PML ([G] D-9) at an output y1 merged into y', rows (x, x0): "
                      "t*(c*S_y1 + (1 - N*c)*K(y1|x0)) - K(y1|x) >= 0", t * (c * s1 + (1 - u) * l1) - k1),
                     ("(eps,c)-PML at another output y2 merged into y', rows (x, x0)", t * (c * s2 + (1 - u) * l2) - k2)],
        multipliers=[1, 1], conclusion=t * (c * (s1 + s2) + (1 - u) * (l1 + l2)) - (k1 + k2))
    ldp = LinearCombination.build(
        name="lemma: merging outputs (LDP)", parameters=(t,), variables=(k1, k2, l1, l2), scope=_SIZES,
        constraints=[("eps-LDP at an output y1 merged into y', rows (x, x0): t*K(y1|x0) - K(y1|x) >= 0", t * l1 - k1),
                     ("eps-LDP at another output y2 merged into y', rows (x, x0)", t * l2 - k2)],
        multipliers=[1, 1], conclusion=t * (l1 + l2) - (k1 + k2))
    entries = LinearCombination.build(
        name="lemma: merging outputs (entries)", parameters=(), variables=(k1, k2), scope=_SIZES,
        constraints=[("K(y1|x) >= 0", k1), ("K(y2|x) >= 0", k2)], multipliers=[1, 1], conclusion=k1 + k2)
    sets = SymbolicStatements(
        name="lemma: merging outputs (sets)", sizes=_SIZES, parameters=("y", "g", "k0", "k0p", "KxA", "KxpA"),
        functions=("kx", "kxp", "chi"), statements=(
            ("a set B' of merged outputs is the set A = pi^-1(B') of outputs (chi(y) = 1 iff pi(y) in B'): the "
             "summand of K'_x(B') - g K'_x'(B') regrouped over the outputs y is chi(y) (K(y|x) - g K(y|x')), "
             "summed over y K_x(A) - g K_x'(A); so eta_TV(K') <= eta_TV(K) (g = 1), and E_g and (eps,delta)-LDP "
             "likewise",
             "chi(y)*kx(y) - g*(chi(y)*kxp(y))", "==", "chi(y)*(kx(y) - g*kxp(y))", ()),
            ("the merge into {A, A^c} at a set A where eta_TV(K) (eta_E_g) is attained: its output 0 has "
             "K'_x(0) = K_x(A), so K'_x(0) - g K'_x'(0) = K_x(A) - g K_x'(A) and eta(K') >= eta(K)",
             "Subs(Subs(k0 - g*k0p, k0, KxA), k0p, KxpA)", "==", "KxA - g*KxpA", ())))
    return Lemma("merging outputs keeps eta_TV and the class",
                 "merging outputs (K'(y'|x) = sum of K(y|x) over the y merged into y') keeps the eps-LDP and "
                 "(eps,c)-PML classes (each constraint, summed over the merged outputs, is the merged output's; "
                 "S_y' and the entries add up too) and never raises eta_TV (a set of merged outputs is a set of "
                 "outputs); merging into {A, A^c} at a set A where eta_TV(K) is attained keeps it, every N, M",
                 (pml, ldp, entries, sets))


#: the stated range of Binette's inequality: 0 < m < 1 < M
_BINETTE_RANGE = ("m > 0", "m < 1", "M > 1")


def _binette() -> Lemma:
    """Binette's inequality (module docstring): the two per-output cases, the positive parts, an output of mass 0,
    the coefficient's sign and its use with a TV bound, and the chord inequalities of χ² and H² checked."""
    m, M, p, q, r = sympy.symbols("m M p q r", real=True)
    fr, fm, fM, D, T, X, B = sympy.symbols("fr fm fM D T X B", real=True)
    above = LinearCombination.build(
        name="lemma: Binette's inequality (ratio in [1, M])", parameters=(M, p, q), variables=(fr, fM), scope=_SIZES,
        definitions=((r, p / q),), region=(M > 1, q > 0, p >= q, p <= M * q),
        constraints=[("f convex (hypothesis), f(1) = 0: at r = p/q = lam*1 + (1 - lam)*M, lam = (M - r)/(M - 1) in "
                      "[0, 1], f(r) <= lam*f(1) + (1 - lam)*f(M), fr = f(r), fM = f(M)", (r - 1) / (M - 1) * fM - fr)],
        multipliers=[q], conclusion=(p - q) / (M - 1) * fM - q * fr)
    below = LinearCombination.build(
        name="lemma: Binette's inequality (ratio in [m, 1])", parameters=(m, p, q), variables=(fr, fm), scope=_SIZES,
        definitions=((r, p / q),), region=(m > 0, m < 1, q > 0, p >= m * q, p <= q),
        constraints=[("f convex (hypothesis), f(1) = 0: at r = p/q = lam*m + (1 - lam)*1, lam = (1 - r)/(1 - m) in "
                      "[0, 1], f(r) <= lam*f(m) + (1 - lam)*f(1), fr = f(r), fm = f(m)", (1 - r) / (1 - m) * fm - fr)],
        multipliers=[q], conclusion=(q - p) / (1 - m) * fm - q * fr)
    parts = SymbolicStatements(
        name="lemma: Binette's inequality (positive parts)", sizes=_SIZES, parameters=("z",), statements=(
            ("z = P'(y) - Q'(y) >= 0 (ratio in [1, M]): (P' - Q')_+ <= z, so the summand bound's right side "
             "(P' - Q')_+ f(M)/(M - 1) + (Q' - P')_+ f(m)/(1 - m) is (p - q) f(M)/(M - 1)", "Max(z, 0)", "<=", "z",
             ("z >= 0",)),
            ("z >= 0: (P' - Q')_+ >= z", "Max(z, 0)", ">=", "z", ("z >= 0",)),
            ("z >= 0: (Q' - P')_+ <= 0", "Max(-z, 0)", "<=", "0", ("z >= 0",)),
            ("z <= 0 (ratio in [m, 1]): (P' - Q')_+ <= 0, so the right side is (q - p) f(m)/(1 - m)", "Max(z, 0)",
             "<=", "0", ("z <= 0",)),
            ("z <= 0: (Q' - P')_+ <= -z", "Max(-z, 0)", "<=", "-z", ("z <= 0",)),
            ("z <= 0: (Q' - P')_+ >= -z", "Max(-z, 0)", ">=", "-z", ("z <= 0",)),
            ("(P' - Q')_+ >= 0", "Max(z, 0)", ">=", "0", ()),
            ("(Q' - P')_+ >= 0", "Max(-z, 0)", ">=", "0", ()),
            ("z_+ - (-z)_+ <= z; summed (sum P' = sum Q' = 1): sum (P' - Q')_+ = sum (Q' - P')_+, which is "
             "TV(P', Q') (B-1)", "Max(z, 0) - Max(-z, 0)", "<=", "z", ()),
            ("z_+ - (-z)_+ >= z", "Max(z, 0) - Max(-z, 0)", ">=", "z", ())))
    empty = LinearCombination.build(
        name="lemma: Binette's inequality (an output of mass 0)", parameters=(M,), variables=(p, q), scope=_SIZES,
        region=(M > 1,),
        constraints=[("the ratio range at y: P'(y) <= M Q'(y)", M * q - p), ("Q'(y) = 0: -Q'(y) >= 0", -q)],
        multipliers=[1, M], conclusion=-p)
    sign = LinearCombination.build(
        name="lemma: Binette's inequality (the coefficient is >= 0)", parameters=(m, M), variables=(fm, fM),
        scope=_SIZES, region=(m > 0, m < 1, M > 1),
        constraints=[("f convex (hypothesis), f(1) = 0: at 1 = lam*m + (1 - lam)*M, lam = (M - 1)/(M - m), "
                      "0 = f(1) <= lam*f(m) + (1 - lam)*f(M)", ((M - 1) * fm + (1 - m) * fM) / (M - m))],
        multipliers=[(M - m) / ((1 - m) * (M - 1))], conclusion=fm / (1 - m) + fM / (M - 1))
    scaled = LinearCombination.build(
        name="lemma: Binette's inequality (with a TV bound)", parameters=(B,), variables=(D, T, X), scope=_SIZES,
        region=(B >= 0,),
        constraints=[("Binette: D = D_f(P', Q') <= B T, B = f(m)/(1 - m) + f(M)/(M - 1) >= 0, T = TV(P', Q')",
                      B * T - D), ("a TV bound: T <= X", X - T)],
        multipliers=[1, B], conclusion=B * X - D)
    chords = SymbolicStatements(
        name="lemma: Binette's inequality (chords of chi2 and H2)", sizes=_SIZES, parameters=("r", "m", "M", "w", "v"),
        region=_BINETTE_RANGE, statements=(
            ("chi2, f = (x - 1)^2, r in [1, M]: f(r) <= (r - 1)/(M - 1) f(M)", "(r - 1)**2", "<=",
             "(r - 1)/(M - 1)*(M - 1)**2", ("r >= 1", "r <= M")),
            ("chi2, r in [m, 1]: f(r) <= (1 - r)/(1 - m) f(m)", "(r - 1)**2", "<=", "(1 - r)/(1 - m)*(m - 1)**2",
             ("r >= m", "r <= 1")),
            ("H2, f = (sqrt(x) - 1)^2, r in [1, M]: f(r) <= (r - 1)/(M - 1) f(M)", "(sqrt(r) - 1)**2", "<=",
             "(r - 1)/(M - 1)*(sqrt(M) - 1)**2", ("r >= 1", "r <= M")),
            ("H2, r = w^2 in [m, 1] with m = v^2 (w, v the square roots): f(r) = (w - 1)^2 <= (1 - r)/(1 - m) f(m)",
             "(w - 1)**2", "<=", "(1 - w**2)/(1 - v**2)*(v - 1)**2", ("v > 0", "v < 1", "w >= v", "w <= 1"))))
    return Lemma("Binette's inequality",
                 "for distributions P', Q' on a finite alphabet with m <= P'(y)/Q'(y) <= M (0 < m < 1 < M) and f "
                 "convex with f(1) = 0: D_f(P', Q') <= (f(m)/(1 - m) + f(M)/(M - 1)) TV(P', Q') (O. Binette 2019), "
                 "the coefficient is >= 0, so TV(P', Q') <= X gives D_f(P', Q') <= coefficient*X; every alphabet size",
                 (above, below, parts, empty, sign, scaled, chords))


AGGREGATION = _aggregation()
SET_MASS = _set_mass()
TWO_POINT = _two_point()
VERTEX = _vertex()
DIVISION = _division()
MERGING = _merging()
BINETTE = _binette()

#: every structural lemma, by name
LEMMAS = {x.name: x for x in (AGGREGATION, SET_MASS, TWO_POINT, VERTEX, DIVISION, MERGING, BINETTE)}
_BY_CERTIFICATE = {c.name: c for x in LEMMAS.values() for c in x.certificates}


def binette_step(name: str, bound_label: str, bound: sympy.Expr, parameters: tuple[sympy.Symbol, ...],
                 region: tuple = (), uses: tuple[str, ...] = ()) -> LinearCombination:
    """A claim's last step through :data:`BINETTE`: D = D_f(P′‖Q′) ≤ B·T (the lemma, B its coefficient ≥ 0, T =
    TV(P′, Q′)) and T ≤ ``bound`` give D ≤ B·``bound``; the certificate names the lemma (and ``uses``, the
    certificates of the TV bound) so the outcome carries them."""
    B, D, T = sympy.symbols("B D T", real=True)
    return LinearCombination.build(
        name=name, parameters=(B, *parameters), variables=(D, T), scope=_SIZES, region=(B >= 0, *region),
        constraints=[("Binette's inequality (the lemma): D_f <= B TV, B = f(m)/(1 - m) + f(M)/(M - 1) >= 0", B * T - D),
                     (bound_label, bound - T)],
        multipliers=[1, B], conclusion=B * bound - D, uses=BINETTE.uses + tuple(uses))


def with_lemmas(certificates) -> tuple:
    """``certificates`` followed by the structural-lemma certificates their ``uses`` fields name (each once); an
    entry that is no certificate is kept as it is (the outcome's check rejects it)."""
    certificates = tuple(certificates)
    have = {getattr(c, "name", None) for c in certificates}
    extra = []
    for c in certificates:
        for n in getattr(c, "uses", ()):
            if n in _BY_CERTIFICATE and n not in have:
                have.add(n)
                extra.append(_BY_CERTIFICATE[n])
    return certificates + tuple(extra)


def lemmas_used(certificates) -> tuple[str, ...]:
    """The names of the structural lemmas whose certificates ``certificates`` name in their ``uses`` fields."""
    used = {n for c in certificates for n in getattr(c, "uses", ())}
    return tuple(x.name for x in LEMMAS.values() if used & set(x.uses))


def all_certificates() -> tuple:
    """Every lemma certificate (for export and the tests)."""
    return tuple(c for x in LEMMAS.values() for c in x.certificates)
