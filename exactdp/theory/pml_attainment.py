r"""Certificates for every N that [G]'s extremal values under (ε,c)-PML are attained: Ξ (Thm 1 with equality,
Lemma 3) and the exact Γ_max (G-23), with the achievers of G-20 shown feasible.

The upper bounds for every N and M are :mod:`exactdp.theory.class_certificates`; this module adds the
matching kernels and the remaining upper bounds of Γ_max, each a certificate of an existing kind whose
parameters are N (a real symbol, N ≥ 2, so every integer N is covered) or u = N·c, never a fixed size.

**Ξ is attained, every N** ([G] Thm 1 with equality, Lemma 3).  With z = 1 + t(1 − u), u = Nc,

    M = t(1 − u/2)/z,   m = (1 − tu/2)/z        (G-20 with q = N/2),

the N×2 kernel with ⌊N/2⌋ rows (M, 1 − M), ⌊N/2⌋ rows (m, 1 − m) and, for odd N, one middle row with
K(0|x) = (M + m)/2 has column sums S_0 = (N/2)(M + m) for N = 2k and for N = 2k + 1 (identities in k), so
c·S_0 = (u/2)(M + m) and c·S_1 = u − c·S_0: every PML constraint K(y|x) ≤ t(c S_y + (1 − u)K(y|x₀)) is an
inequality in (t, u) alone, and :func:`middle_row_achiever` decides all of them (every pair of the values
M, m, (M + m)/2 in both columns) on t·u ≤ 2, together with 0 ≤ m ≤ M ≤ 1 and M − m = (t − 1)/(t(1 − u) + 1).
For t·u ≥ 2 the disjoint-rows witness (``disjoint_rows_witness_statements``) has η_TV = 1 = Ξ.  The kernel
has two outputs, so it also attains Ξ within M(ε,c) ∩ S_{N,2} (Lemma 3); zero columns pad it to any M.

**Γ_max exactly, every N** (G-23; Γ as in D-12: the sup over K ∈ M(ε,c), P, Q ∈ Q_X(c) and outputs y of
(KP)(y)/(KQ)(y)).  For one column y of a kernel, with p = (KP)(y), q = (KQ)(y), S = S_y, m / k its largest /
smallest entry: p ≤ cS + (1 − Nc)m and q ≥ cS + (1 − Nc)k (P = c𝟙 + P′, P′ ≥ 0 of mass 1 − Nc), the PML
constraint between the rows of m and k gives m ≤ t(cS + (1 − Nc)k), and N − 1 entries are ≤ m while one is k
(S ≤ (N − 1)m + k), or one is m and N − 1 are ≥ k (S ≥ m + (N − 1)k).  Three Farkas certificates bound q/p:

* :func:`gamma_first_bound` — multipliers 1, Γ₁, (1 − Nc)/(1 − (N−1)c), c(1 − Nc)/(1 − (N−1)c) give
  Γ₁·q − p ≥ 0 with Γ₁ = (t(1 − Nc) + c)/(1 − (N−1)c) (the registry's ``gamma_max_first``), every t;
* ``class_certificates.lemma4_ratio`` — ((1 − Nc)t + 1)·q − p ≥ 0 (Lemma 4);
* :func:`gamma_beyond_bound` — without any PML constraint, ((1 − (N−1)c)/c)·q − p ≥ 0.

and three witness kernels attain them on the three ranges of t (:func:`gamma_witnesses`), P and Q being the
vertices c𝟙 + (1 − Nc)e_x of Q_X(c) at the rows of the column's largest and smallest entry:

* t(N − 1)c < 1: N − 1 rows (a, 1 − a), one row (b, 1 − b), a = t(1 − (N−1)c)/(t(1 − Nc) + 1),
  b = (1 − t(N−1)c)/(t(1 − Nc) + 1) (both PML constraints tight), ratio Γ₁;
* 1/((N−1)c) ≤ t < 1/c: rows (m, 1 − m), (0, 1) and N − 2 rows (w, 1 − w), m = (t − 1)/(t(2 − Nc)),
  w = m(1 − tc)/(t(N − 2)c), so that c·S_0 = m/t: ratio (1 − Nc)t + 1;
* t ≥ 1/c: one row (1, 0), N − 1 rows (0, 1) (every kernel is (−log c, c)-PML), ratio (1 − (N−1)c)/c; its
  output-1 constraint 1 ≤ t(u − c) is the Farkas certificate :func:`gamma_beyond_witness_output1`.

**G-20's achievers are feasible** (:func:`g20_feasibility`): with α = cq (so c(N − q) = u − α) the entries
m = (1 − tα)/z, M = t(1 − α)/z satisfy 0 ≤ m ≤ M ≤ 1 and every PML constraint on tα ≤ 1, t(u − α) ≤ 1 —
the stated hypotheses t c q ≤ 1, t c (N − q) ≤ 1 — for every real q, and M − m = (t − 1)/z ≤ 1.
"""

from __future__ import annotations

import itertools

import sympy

from exactdp import bounds
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.theory import structural_lemmas as SL
from exactdp.theory.class_certificates import ALL_N_M, XI_FIRST, c, k, m, p, q, t, u

S = sympy.Symbol("S", real=True)
alpha = sympy.Symbol("alpha", real=True)  # c*q in G-20
K_, M_, m_ = sympy.symbols("k M m", real=True)  # the parity families' half size and column values
kx, k0, hi, lo, cS = sympy.symbols("kx k0 hi lo cS", real=True)

#: G-23's branches and the bound of every kernel in u = N*c
GAMMA_FIRST = (t * (1 - u) + c) / (1 - u + c)
GAMMA_BEYOND = (1 - u + c) / c
_BASE = (t >= 1, c > 0, u >= 2 * c, u <= 1)
_SCOPE_U = ALL_N_M + "; t >= 1, 0 < c <= 1/N (u = N*c)"

_LE = sympy.LessThan
_GE = sympy.GreaterThan


def extreme_pair() -> LinearCombination:
    """The PML constraint between a column's largest and smallest entry implies it for every pair of entries:
    kx ≤ hi, k0 ≥ lo and hi ≤ t(cS + (1 − Nc)lo) give kx ≤ t(cS + (1 − Nc)k0) (multipliers 1, t(1 − Nc), 1)."""
    return LinearCombination.build(
        name="PML at the extreme pair of a column", parameters=(t, c, u), variables=(kx, k0, hi, lo, S),
        definitions=((cS, c * S),),
        constraints=[("kx = K(y|x) <= hi = max_x K(y|x)", hi - kx), ("k0 = K(y|x0) >= lo = min_x K(y|x)", k0 - lo),
                     ("PML between the rows of hi and lo: hi <= t (c S_y + (1 - Nc) lo)", t * (cS + (1 - u) * lo) - hi)],
        multipliers=[1, t * (1 - u), 1], conclusion=t * (cS + (1 - u) * k0) - kx,
        region=(t >= 1, u <= 1), scope=ALL_N_M + "; t >= 1, c <= 1/N (u = N*c)")


def _fact(label: str, relation, region) -> list:
    """``[statement]`` for a relation in the parameters; ``[]`` for one between two numbers that holds by
    arithmetic (a witness entry that is the literal 0 or 1: "0 >= 0" is a textual tautology and proves
    nothing); a ValueError for one between numbers that fails."""
    if relation.lhs.free_symbols or relation.rhs.free_symbols:
        return [statement(label, relation, region)]
    if relation.func(relation.lhs, relation.rhs) is not sympy.true:
        raise ValueError(f"{label}: {relation} is false")
    return []


def _column(tag: str, values, cS_value, region, one_minus_u=1 - u) -> list:
    """Statements: values[0] is the largest and values[1] the smallest entry of a column, and the PML constraint
    holds between them (then for every pair, :func:`extreme_pair`)."""
    top, bottom = values[0], values[1]
    out = [r for i, v in enumerate(values[2:], 2)
           for r in _fact(f"{tag}: entry {i} <= the largest", _LE(v, top, evaluate=False), region)]
    out += [r for i, v in enumerate(values[2:], 2)
            for r in _fact(f"{tag}: entry {i} >= the smallest", _GE(v, bottom, evaluate=False), region)]
    out += _fact(f"{tag}: smallest <= largest", _LE(bottom, top, evaluate=False), region)
    out.append(statement(f"{tag}: PML, largest <= t (c S + (1 - Nc) smallest)",
                         _LE(top, t * (cS_value + one_minus_u * bottom), evaluate=False), region))
    return out


def middle_row_achiever() -> SymbolicStatements:
    """[G] Thm 1 with equality, t·Nc ≤ 2: G-20 at q = N/2 (module docstring) is an (ε,c)-PML kernel with
    η_TV = M − m = (t − 1)/(t(1 − Nc) + 1), for N = 2k and N = 2k + 1 alike."""
    z = 1 + t * (1 - u)
    M, mm = t * (1 - u / 2) / z, (1 - t * u / 2) / z
    h = (M + mm) / 2
    cS0 = u / 2 * (M + mm)
    reg = (t >= 1, u > 0, u <= 1, t * u <= 2)
    rows = [statement("N = 2k: k rows at M, k at m: S_0 = (N/2)(M + m)",
                      sympy.Eq(K_ * M_ + K_ * m_, (2 * K_) / 2 * (M_ + m_), evaluate=False)),
            statement("N = 2k + 1: k rows at M, k at m, one at (M + m)/2: S_0 = (N/2)(M + m)",
                      sympy.Eq(K_ * M_ + K_ * m_ + (M_ + m_) / 2, (2 * K_ + 1) / sympy.Integer(2) * (M_ + m_),
                               evaluate=False)),
            statement("m >= 0", _GE(mm, 0, evaluate=False), reg),
            statement("M <= 1", _LE(M, 1, evaluate=False), reg),
            statement("eta_TV = M - m = (t - 1)/(t(1 - Nc) + 1)", sympy.Eq(M - mm, XI_FIRST, evaluate=False)),
            statement("t Nc <= 2: (t - 1)/(t(1 - Nc) + 1) <= 1, so it is Xi", _LE(XI_FIRST, 1, evaluate=False), reg),
            statement("output 0 is tight: M = t (c S_0 + (1 - Nc) m)",
                      sympy.Eq(M, t * (cS0 + (1 - u) * mm), evaluate=False)),
            statement("output 1 is tight: 1 - m = t (c S_1 + (1 - Nc)(1 - M))",
                      sympy.Eq(1 - mm, t * (u - cS0 + (1 - u) * (1 - M)), evaluate=False))]
    rows += _column("output 0 (entries M, m, (M + m)/2)", (M, mm, h), cS0, reg)
    rows += _column("output 1 (entries 1 - m, 1 - M, 1 - (M + m)/2)", (1 - mm, 1 - M, 1 - h), u - cS0, reg)
    return SymbolicStatements(
        name="[G] Thm 1 middle-row achiever", parameters=("t", "u", "k", "M", "m"), region=(),
        scope=ALL_N_M + "; N = 2k and N = 2k + 1, an N x 2 kernel padded with zero columns; t >= 1, "
                        "0 < c <= 1/N, t Nc <= 2 (u = N*c)", statements=tuple(rows))


#: the first two constraints of the Γ_max bounds are the vertex lemma of Q_X(c); the ratio follows by dividing
_P_Q_LEMMAS = SL.VERTEX.uses + SL.DIVISION.uses


def gamma_first_bound() -> LinearCombination:
    """(t(1 − Nc) + c)·q − (1 − (N−1)c)·p ≥ 0 for every column of every K ∈ M(ε,c) and P, Q ∈ Q_X(c), every
    t ≥ 1: Γ_max ≤ Γ₁ (module docstring; the multipliers scaled by 1 − (N−1)c > 0, each in two parameters)."""
    d = 1 - u + c  # 1 - (N - 1) c
    return LinearCombination.build(
        name="[G] Gamma_max first-branch bound", parameters=(t, c, u), variables=(p, q, S, m, k),
        constraints=[("P in Q_X(c): p = (KP)(y) <= c S_y + (1 - Nc) m", c * S + (1 - u) * m - p),
                     ("Q in Q_X(c): q = (KQ)(y) >= c S_y + (1 - Nc) k", q - c * S - (1 - u) * k),
                     ("the same, again", q - c * S - (1 - u) * k),
                     ("PML (D-9), x = argmax, x0 = argmin of column y: m <= t (c S_y + (1 - Nc) k)",
                      t * (c * S + (1 - u) * k) - m),
                     ("N - 1 entries of column y are <= m, one is k: S_y <= (N - 1) m + k, N - 1 = u/c - 1",
                      (u / c - 1) * m + k - S)],
        multipliers=[d, t * (1 - u), c, 1 - u, c * (1 - u)], conclusion=(t * (1 - u) + c) * q - d * p,
        region=_BASE, scope=_SCOPE_U,
        uses=_P_Q_LEMMAS)


def gamma_beyond_bound() -> LinearCombination:
    """(1 − (N−1)c)·q − c·p ≥ 0 for every kernel (no PML constraint): Γ_max ≤ (1 − (N−1)c)/c."""
    return LinearCombination.build(
        name="[G] Gamma_max bound of every kernel", parameters=(c, u), variables=(p, q, S, m, k),
        constraints=[("P in Q_X(c): p = (KP)(y) <= c S_y + (1 - Nc) m", c * S + (1 - u) * m - p),
                     ("Q in Q_X(c): q = (KQ)(y) >= c S_y + (1 - Nc) k", q - c * S - (1 - u) * k),
                     ("one entry of column y is m, N - 1 are >= k: S_y >= m + (N - 1) k, N - 1 = u/c - 1",
                      S - m - (u / c - 1) * k),
                     ("k = min_x K(y|x) >= 0", k)],
        multipliers=[c, 1 - u + c, c * (1 - u), 1 - u], conclusion=(1 - u + c) * q - c * p,
        region=(c > 0, u >= 2 * c, u <= 1), scope=ALL_N_M + "; 0 < c <= 1/N (u = N*c; every kernel)",
        uses=_P_Q_LEMMAS)


def _witness(name: str, rows_text: str, col0, sizes, region, ratio_value, extra=(), output1_pml=True,
             facts=True) -> SymbolicStatements:
    """Statements for an N×2 witness whose column 0 takes the values ``col0`` (largest first, smallest second) on
    ``sizes`` rows each (sizes in u, c): entries in [0, 1], the PML constraint of both columns, and the ratio of
    (KP)(0) to (KQ)(0) at the vertices c𝟙 + (1 − Nc)e_x of the largest and the smallest entry."""
    cS0 = sympy.cancel(c * sum(n * v for n, v in zip(sizes, col0)))
    num, den = cS0 + (1 - u) * col0[0], cS0 + (1 - u) * col0[1]
    # (KP)(0) and (KQ)(0) kept as written, c·Σ sizes·values + (1 − Nc)·extreme, for the checkers to simplify (the
    # simplified quotient can be the branch's value as text: a tautology that proves nothing)
    cS_raw = sympy.Mul(c, sympy.Add(*[sympy.Mul(n, v, evaluate=False) for n, v in zip(sizes, col0)],
                                    evaluate=False), evaluate=False)
    num_raw = sympy.Add(cS_raw, sympy.Mul(1 - u, col0[0], evaluate=False), evaluate=False)
    den_raw = sympy.Add(cS_raw, sympy.Mul(1 - u, col0[1], evaluate=False), evaluate=False)
    quotient = sympy.Mul(num_raw, sympy.Pow(den_raw, -1, evaluate=False), evaluate=False)
    rows = [statement("(KP)(0)/(KQ)(0) is the branch's value", sympy.Eq(quotient, ratio_value, evaluate=False))]
    if facts:
        rows += [*_fact("the smallest entry >= 0", _GE(col0[1], 0, evaluate=False), region),
                 *_fact("the largest entry <= 1", _LE(col0[0], 1, evaluate=False), region), *extra]
        rows += _column("output 0", col0, cS0, region)
        rows += _column("output 1", (1 - col0[1], 1 - col0[0], *(1 - v for v in col0[2:])), u - cS0, region)[
            :None if output1_pml else -1]
        rows.append(statement("(KQ)(0) > 0", sympy.StrictGreaterThan(den, 0, evaluate=False), region))
    return SymbolicStatements(name=name, parameters=("t", "c", "u"), region=(),
                              scope=_SCOPE_U + f"; {rows_text}", statements=tuple(rows))


def gamma_witnesses() -> tuple[SymbolicStatements, ...]:
    """The three witness kernels of Γ_max (module docstring), one per range of t, each with its ratio."""
    z = t * (1 - u) + 1
    a, b = t * (1 - u + c) / z, (1 - t * (u - c)) / z
    reg1 = _BASE + (t * (u - c) < 1,)
    first = _witness("[G] Gamma_max witness, t (N-1) c < 1", "N - 1 rows (a, 1 - a), one row (b, 1 - b); its "
                     "three-parameter facts are the certificates '[G] Gamma_max witness, t (N-1) c < 1: ...'",
                     (a, b), (u / c - 1, 1), reg1, GAMMA_FIRST, facts=False)
    mm = (t - 1) / (t * (2 - u))  # <= 1 and <= (t - 1)/z: the output-1 constraint holds
    w = mm * (1 - t * c) / (t * (u - 2 * c))
    reg2 = _BASE + (t * (u - c) >= 1, t * c < 1)
    second = _witness("[G] Gamma_max witness, 1/((N-1)c) <= t < 1/c",
                      "rows (m, 1 - m), (0, 1) and N - 2 rows (w, 1 - w)", (mm, sympy.Integer(0), w),
                      (1, 1, u / c - 2), reg2, (1 - u) * t + 1,
                      extra=(statement("N > 2 here (N - 2 rows at w)", sympy.StrictGreaterThan(u, 2 * c, evaluate=False),
                                       reg2),))
    third = _witness("[G] Gamma_max witness, t >= 1/c", "one row (1, 0), N - 1 rows (0, 1); its output-1 PML "
                     "constraint is the certificate '[G] Gamma_max witness, t >= 1/c: output 1'",
                     (sympy.Integer(1), sympy.Integer(0)), (1, u / c - 1), _BASE + (t * c >= 1,), GAMMA_BEYOND,
                     output1_pml=False)
    return first, second, third


def gamma_first_witness_facts() -> tuple[LinearCombination, ...]:
    """The t(N−1)c < 1 witness's inequalities (entries in [0, 1], both PML constraints, (KQ)(0) > 0) as Farkas
    certificates whose multipliers depend on (t, u) only, c entering through the range's conditions
    1 − t(u − c) ≥ 0 and u − 2c ≥ 0.  The entries a, b, z = t(1 − u) + 1 and c·S_0 = (N − 1)c·a + c·b are
    definitions that the checkers substitute."""
    z, a, b, cS0 = sympy.symbols("z a b cS0", real=True)
    defs = ((z, t * (1 - u) + 1), (a, t * (1 - u + c) / z), (b, (1 - t * (u - c)) / z), (cS0, (u - c) * a + c * b))
    g_range = ("the witness's range: 1 - t (N - 1) c = 1 - t (u - c) >= 0", 1 - t * (u - c))
    g_n = ("N >= 2: u - 2 c >= 0", u - 2 * c)
    name = "[G] Gamma_max witness, t (N-1) c < 1: "
    facts: tuple = (("b >= 0", b, [g_range], [1 / z], 0),
             ("a <= 1", 1 - a, [g_range, g_n], [1 / z, t / z], 0),
             ("b <= a", a - b, [], [], (t - 1) / z),
             ("output 0, PML between a and b (tight)", t * (cS0 + (1 - u) * b) - a, [], [], 0),
             ("output 1, PML between 1 - b and 1 - a (tight)", t * (u - cS0 + (1 - u) * (1 - a)) - (1 - b), [], [], 0),
             ("(KQ)(0) - c/(t(1 - Nc) + 1) >= 0, so (KQ)(0) > 0", cS0 + (1 - u) * b - c / z, [], [], (1 - u) / z))
    return tuple(LinearCombination.build(
        name=name + label, parameters=(t, u), variables=(c,), constraints=g, multipliers=lam, conclusion=h, slack=sl,
        region=(t >= 1, u <= 1), scope=_SCOPE_U + "; t (N - 1) c < 1", definitions=defs)
        for label, h, g, lam, sl in facts)


def gamma_beyond_witness_output1() -> LinearCombination:
    """The t ≥ 1/c witness's output 1: entries 0 (row x_1) and 1 (the other N − 1 rows), so c S_1 = c(N − 1) =
    u − c, and its PML constraint between the largest and the smallest entry, 1 ≤ t(c S_1 + (1 − Nc)·0), follows
    from t c ≥ 1 and u ≥ 2c (a Farkas certificate whose multipliers depend on t alone; the entries and c S_1 are
    definitions that the checkers substitute)."""
    hi_, lo_, cS1 = sympy.symbols("hi lo cS1", real=True)
    return LinearCombination.build(
        name="[G] Gamma_max witness, t >= 1/c: output 1", parameters=(t,), variables=(c, u),
        definitions=((hi_, 1), (lo_, 0), (cS1, c * (u / c - 1))),
        constraints=[("the witness's range: t c - 1 >= 0", t * c - 1), ("N >= 2: u - 2 c >= 0", u - 2 * c)],
        multipliers=[1, t], conclusion=t * (cS1 + (1 - u) * lo_) - hi_, region=(t >= 1,),
        scope=ALL_N_M + "; t >= 1/c, 0 < c <= 1/N (u = N*c)")


def gamma_registry_statements() -> SymbolicStatements:
    """The registry's G-23 branches (in N) at N = u/c are this module's Γ₁ and Lemma 4's (1 − Nc)t + 1."""
    own = {bounds.t: t, bounds.c: c}
    # the substitution N = u/c is recorded (Subs) for the checkers to carry out, not done here: done, the
    # registry's Lemma 4 branch is the text (1 - u) t + 1 on both sides
    first = sympy.Subs(bounds.gamma_max_first.subs(own), bounds.N, u / c)
    l4 = sympy.Subs(bounds.gamma_max_l4.subs(own), bounds.N, u / c)
    return SymbolicStatements(name="[G] G-23 branches in u = N*c", parameters=("t", "c", "u", "N"), region=(),
                              scope=_SCOPE_U, statements=(
        statement("registry gamma_max_first at N = u/c", sympy.Eq(first, GAMMA_FIRST, evaluate=False)),
        statement("registry gamma_max_l4 at N = u/c", sympy.Eq(l4, (1 - u) * t + 1, evaluate=False)),
        statement("at t = 1/c Lemma 4's value is the bound of every kernel",
                  sympy.Eq(sympy.Subs((1 - u) * t + 1, t, 1 / c), GAMMA_BEYOND, evaluate=False))))


def g20_feasibility() -> tuple:
    """G-20 for real q on t c q ≤ 1, t c (N − q) ≤ 1, in α = cq and u = Nc (so c(N − q) = u − α): entries in
    [0, 1], both PML constraints (tight), M − m = Ξ's first branch ≤ 1 — Farkas certificates with multipliers in
    (t, u), α entering through the hypotheses 1 − tα ≥ 0 and 1 − t(u − α) ≥ 0 (module docstring)."""
    z, M, mm, cS0 = sympy.symbols("z M m cS0", real=True)
    defs = ((z, 1 + t * (1 - u)), (M, t * (1 - alpha) / z), (mm, (1 - t * alpha) / z),
            (cS0, alpha * M + (u - alpha) * mm))  # c S_0 = c (q M + (N - q) m)
    g_q = ("hypothesis t c q <= 1: 1 - t alpha >= 0", 1 - t * alpha)
    g_nq = ("hypothesis t c (N - q) <= 1: 1 - t (u - alpha) >= 0", 1 - t * (u - alpha))
    facts: tuple = (("m = (1 - t c q)/z >= 0", mm, [g_q], [1 / z], 0),
             ("M = t (1 - c q)/z <= 1", 1 - M, [g_nq], [1 / z], 0),
             ("m <= M", M - mm, [], [], (t - 1) / z),
             ("M - m = (t - 1)/(t(1 - Nc) + 1) <= 1 (then it is Xi)", 1 - (M - mm), [g_q, g_nq], [1 / z, 1 / z], 0),
             ("output 0, PML between M and m (tight)", t * (cS0 + (1 - u) * mm) - M, [], [], 0),
             ("output 1, PML between 1 - m and 1 - M (tight)", t * (u - cS0 + (1 - u) * (1 - M)) - (1 - mm), [], [], 0))
    lcs = tuple(LinearCombination.build(
        name="[G] G-20 achievers: " + label, parameters=(t, u), variables=(alpha,), constraints=g, multipliers=lam,
        conclusion=h, slack=sl, region=(t >= 1, u <= 1),
        scope=ALL_N_M + "; real q, t >= 1, t*c*q <= 1, t*c*(N - q) <= 1 (alpha = c*q, u = N*c)",
        definitions=defs) for label, h, g, lam, sl in facts)
    zv = 1 + t * (1 - u)
    identity = SymbolicStatements(
        name="[G] G-20 achievers: M - m is Xi's first branch", parameters=("t", "u", "alpha"), region=(),
        scope=ALL_N_M + "; real q (alpha = c q, u = N c)",
        statements=(statement("M - m = (t - 1)/(t(1 - Nc) + 1)",
                              sympy.Eq(t * (1 - alpha) / zv - (1 - t * alpha) / zv, XI_FIRST, evaluate=False)),))
    return (*lcs, identity)


def all_certificates() -> tuple:
    """Every certificate of this module (for export and the tests)."""
    return (extreme_pair(), middle_row_achiever(), gamma_first_bound(), gamma_beyond_bound(), *gamma_witnesses(),
            *gamma_first_witness_facts(), gamma_beyond_witness_output1(), gamma_registry_statements(),
            *g20_feasibility())
