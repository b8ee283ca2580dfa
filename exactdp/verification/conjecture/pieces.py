r"""Every-N (ε,c)-PML proofs whose lifted multipliers change sign: N = 2 on its own, N ≥ 3 by pieces on a split tree.

Why the split.  :func:`~.synthesis._every_n` proves a − γb ≤ F for every N with the lifted bases that are dual
feasible on the whole domain t ≥ 1, c > 0, 2c ≤ u ≤ 1 (u = N·c).  A bound such as PML_ZA_PLUS (the tight N = 2
value plus 2(N − 2)ct, below Min(1, Ξ)) needs bases dual feasible on parts of the domain only, and on
2c ≤ u ≤ 1 no certificate of the shape exists at all: that domain lets N = u/c be any real number ≥ 2, and at
N = 128/57 the LP's optimum exceeds the conjectured side (docs/conjectures.md).  So the proof is split:

* **N = 2**: the per-N route (:func:`~.synthesis._try` at N = 2: the parametric LP in (t, c), its regions'
  combinations and its split tree);
* **N ≥ 3**: the domain D₃ = {t ≥ 1, c > 0, 3c ≤ u ≤ 1}, which contains every (t, c, N·c) with an integer
  N ≥ 3 and 0 < c ≤ 1/N (so it is sound for them), and on which u − 2c ≥ c > 0 has a strict sign.

On D₃, F = Min(A_1, …, A_k) and a − γb ≤ F ⇔ a − γb ≤ A_i for each i.  An argument equal to the bound V of a
whole-domain basis is already proved.  Each other argument A gets a **split tree**: its inner nodes split a cell
by a polynomial g into g ≥ 0 and −g ≥ 0 (closed, overlapping on g = 0, complementary, so the leaves cover the
cell), and each leaf L carries one **piece**: a lifted basis (a − γb ≤ V on the part of the domain where its
multipliers are ≥ 0) and a branch E of A's Max.  The leaf's check is a ``linear-combination`` with
conclusion E − (a − γb) and slack E − V on the region D₃ ∩ L: the engine decides every multiplier ≥ 0 and
E − V ≥ 0 on the leaf (one sign at a time, the prover's factor route first), so "L lies in the piece's region"
is exactly what its check decides.  The whole N ≥ 3 part is then **one** ``split-tree`` certificate
(:mod:`exactdp.algebra.certificates.split_tree`, :func:`prove_from_three`): the LP's constraints, D₃, a tree per
argument (a single leaf for an argument a whole-domain basis proves), per leaf its multipliers and branch.  Its
checkers derive each leaf's cell from the tree (complementary closed children: coverage is structural, no
statement of it), each leaf's slack from the data, and decide E ≤ A on D₃; it carries the statement "for every
(t, c, u) of D₃ and every (a, b, S) under the constraints, Min(A, …) − (a − γb) ≥ 0", bound to the data by
:func:`exactdp.claim_statement.binding` — so a leaf's cell cannot be shrunk, a leaf dropped, or a branch, a
multiplier or the statement edited without the checkers refusing it.  Hence a − γb ≤ E ≤ A on every leaf, so
on D₃.  That statement is in u, a step of the proof (claim ``step of check``); an ``instantiation`` at u = N·c
carries it to the conjecture for every integer N ≥ 3 and a ``cases`` join adds N = 2
(:func:`exactdp.verification.conjecture.synthesis._instance`, :mod:`exactdp.algebra.certificates.instantiation`).

The splitting polynomials are the pieces' own boundary factors (the numerators of their multipliers and of
E − V, without factors of strict sign on D₃), chosen at exact sample points of D₃: among the conditions of the
pieces that hold at the most points of the cell, one that fails at some point, lowest degree first (a leaf's
check decides signs with its cell's polynomials as constraints).
Every check is the engine's and is charged to the synthesis's ``max_work`` (:func:`exactdp.limits.charge`); a
piece that does not check is a piece not used, a split-tree certificate not TRUE is no proof.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy

#: the symbols of :mod:`~.synthesis` (a sympy symbol is its name and assumptions): parameters, LP variables
t, c, u = sympy.symbols("t c u", real=True)
a, b = sympy.symbols("a b", real=True)

#: the domain of the N ≥ 3 part: every integer N ≥ 3 with 0 < c ≤ 1/N gives u = N·c in it
DOMAIN_3 = (t >= 1, c > 0, u >= 3 * c, u <= 1)
#: the deepest split tree tried, and the most leaves
MAX_DEPTH = 4
MAX_LEAVES = 8
#: how many candidate pieces a cell tries before it is split
TRIES_PER_CELL = 2
#: how many of the best pieces of a cell offer their conditions as splits
SPLIT_FROM = 6
#: how many times a sample point no candidate holds at gets the basis optimal there
ADDED_BASES = 4

#: exact sample points of D₃: t denser near 1, u = N·c in sixteenths of (0, 1], c a fraction of its range (0, u/3]
_T = tuple(sympy.Rational(v) for v in ("1", "17/16", "9/8", "5/4", "3/2", "7/4", "2", "3", "4", "6", "10"))
_U = tuple(sympy.Rational(j, 16) for j in range(1, 17))
_C_OF_U = tuple(sympy.Rational(1, 2 ** k) for k in range(6))


def sample_points() -> list[dict]:
    """The exact points of D₃ on which the pieces and the splits are chosen (never a proof by themselves)."""
    return [{t: tv, u: uv, c: uv * f / 3} for tv in _T for uv in _U for f in _C_OF_U]


@dataclass(frozen=True)
class Piece:
    """A lifted basis on a part of D₃: its bound V, its multipliers (rows, then the bounds' reduced costs), the
    branch E of the argument it is compared with, and the closed conditions g ≥ 0 (beyond D₃) under which its
    multipliers and E − V are ≥ 0 — they choose the piece and the splits; the engine decides the signs."""

    value: sympy.Expr
    multipliers: tuple
    conditions: tuple
    branch: sympy.Expr


@dataclass(frozen=True)
class Leaf:
    """A leaf of a split tree: its cell (closed conditions g ≥ 0 beyond D₃), its piece and the piece's checked
    ``linear-combination`` certificate on D₃ ∩ cell."""

    cell: tuple
    piece: Piece
    certificate: object


def branches(A):
    """Rational functions E_k, one of which equals A at each point, when A's Max occur as a Max's arguments or in
    the terms and factors of sums and products (A itself when it has none), else None.  A factor of a product may
    be negative, so max_k E_k ≥ A is not claimed: the branches only choose the pieces, and E ≤ A is decided by
    the engine for every branch a leaf uses."""
    if not A.has(sympy.Max, sympy.Min):
        return [sympy.cancel(sympy.together(A))]
    if isinstance(A, sympy.Max):
        parts = [branches(x) for x in A.args]
        return None if any(p is None for p in parts) else [e for p in parts for e in p]
    if isinstance(A, (sympy.Add, sympy.Mul)):
        parts = [branches(x) for x in A.args]
        return None if any(p is None for p in parts) else [sympy.cancel(sympy.together(A.func(*k)))
                                                            for k in itertools.product(*parts)]
    if isinstance(A, sympy.Pow) and A.exp.is_Integer:
        inner = branches(A.base)
        return None if inner is None else [e ** A.exp for e in inner]
    return None


def _strict_sign(f, dom) -> int:
    """+1 (−1) when the polynomial f is > 0 (< 0) on the whole domain, decided by the engine, else 0."""
    from exactdp.algebra.certificates import decide_sign
    from exactdp.numbers.truth import Truth

    if decide_sign(f, list(dom), strict=True)[0] is Truth.TRUE:
        return 1
    if decide_sign(-f, list(dom), strict=True)[0] is Truth.TRUE:
        return -1
    return 0


def _factored(g, dom, signs: dict):
    """g ≥ 0 as a smaller condition h ≥ 0 equivalent to it on the domain: factors of even power and factors of
    strict sign on the domain (u − 2c on D₃, t, …; decided once each, ``signs``) are dropped, flipping the sign for
    a negative one.  None when g < 0 on the whole domain; 0 (0 ≥ 0) when g > 0 there."""
    g = sympy.expand(g)
    if g == 0:
        return sympy.Integer(0)
    lead, facs = sympy.factor_list(g)
    sign, kept = (1 if lead > 0 else -1), []
    for f, e in facs:
        if not f.free_symbols or e % 2 == 0:
            continue
        if f not in signs:
            signs[f] = _strict_sign(f, dom) if len(f.free_symbols) <= 2 else 0
        if signs[f]:
            sign *= signs[f]
            continue
        kept.append(f ** e)
    if not kept:
        return sympy.Integer(0) if sign > 0 else None
    return sympy.expand(sign * sympy.Mul(*kept))


def dual_conditions(multipliers, dom, signs: dict) -> list[list] | None:
    """Per sign assignment of the denominators' irreducible factors that have no strict sign on the domain (at most
    3 such factors): the closed conditions (g ≥ 0) under which every multiplier is ≥ 0.  None when too many
    factors.  Whether the closed conditions keep the denominators away from 0 is left to the leaf's check."""
    fracs = [sympy.fraction(sympy.factor(m)) for m in multipliers]
    factors = sorted({f for _, q in fracs for f, _ in sympy.factor_list(q)[1] if f.free_symbols},
                     key=sympy.default_sort_key)
    for f in factors:
        if f not in signs:
            signs[f] = _strict_sign(f, dom)
    free = [f for f in factors if not signs[f]]
    if len(free) > 3:
        return None
    out = []
    for choice in itertools.product((1, -1), repeat=len(free)):
        sigma_of = {**signs, **dict(zip(free, choice))}
        conds: list = []
        for num, den in fracs:
            lead, facs = sympy.factor_list(den)
            sigma = 1 if lead > 0 else -1
            for f, e in facs:
                if f.free_symbols and e % 2:
                    sigma *= sigma_of[f]
            g = _factored(sigma * num, dom, signs)
            if g is None:
                break
            if g != 0 and g not in conds:
                conds.append(g)
        else:
            out.append(conds)
    return out


def pieces_of(basis, problem, dom, branch_list, lifted: dict, signs: dict, reduced_costs) -> list:
    """The candidate pieces of a basis: each sign assignment of :func:`dual_conditions` with, for each branch E,
    the condition σ·num(E − V) ≥ 0 (σ the sign of E − V's denominator at a sample point of the conditions; a wrong
    σ only makes the piece fail its leaf checks).  Conditions without a sample point are left out."""
    from exactdp.theory.parametric import lift_basis

    if basis not in lifted:
        lifted[basis] = []
        try:
            _, lam, _, value = lift_basis(problem, basis)
        except (ZeroDivisionError, ValueError, ArithmeticError):  # singular with u free: not a basis there
            return []
        mults = tuple(sympy.cancel(m) for m in (*lam, *reduced_costs(problem, lam)))
        for conds in dual_conditions(mults, dom, signs) or []:
            inside = next((p for p in sample_points() if _holds(conds, p)), None)
            if inside is not None:
                lifted[basis].append((value, mults, tuple(conds), inside))
    out = []
    for value, mults, conds, inside in lifted[basis]:
        for E in branch_list:
            num, den = sympy.fraction(sympy.cancel(sympy.together(E - value)))
            d = den.xreplace(inside)
            if d == 0:
                continue
            g = _factored(num if d > 0 else -num, dom, signs)
            if g is None:
                continue
            out.append(Piece(value, mults, (*conds, *([g] if g != 0 and g not in conds else [])), E))
    return list(dict.fromkeys(out))


def _holds(conds, p) -> bool:
    """Whether every g ≥ 0 holds at the rational point p (exact)."""
    return all(g.xreplace(p) >= 0 for g in conds)


class _Signs:
    """Which sample points each condition g ≥ 0 holds at (exact fmpq evaluation, once per polynomial)."""

    def __init__(self, points):
        from flint import fmpq

        self.at = [tuple(fmpq(int(p[x].p), int(p[x].q)) for x in (t, c, u)) for p in points]
        self._holds: dict = {}

    def holding(self, g) -> frozenset:
        out = self._holds.get(g)
        if out is None:
            from flint import fmpq

            terms = [(fmpq(int(k.p), int(k.q)), m) for m, k in sympy.Poly(g, t, c, u).terms()]
            out = self._holds[g] = frozenset(
                i for i, (tv, cv, uv) in enumerate(self.at)
                if sum((k * tv ** m[0] * cv ** m[1] * uv ** m[2] for k, m in terms), fmpq(0)) >= 0)
        return out

    def all_of(self, conds) -> frozenset:
        out = frozenset(range(len(self.at)))
        for g in conds:
            out &= self.holding(g)
        return out


class _Tree:
    """The split tree of one argument A of the conjectured side (module docstring): built from the candidate
    pieces at the sample points, every leaf checked by the engine."""

    def __init__(self, cands, signs: _Signs, build, check_leaf):
        self.cands = cands
        self.signs = signs
        self.build = build  # (piece, cell) -> a linear-combination certificate on D₃ ∩ cell
        self.check_leaf = check_leaf  # certificate -> bool (the engine's check is TRUE)
        self.leaves: list[Leaf] = []
        self.tried: dict = {}  # (piece, cell) -> certificate or None

    def grow(self, cell: tuple, depth: int) -> bool:
        pts = self.signs.all_of(cell)
        hold = [len(pts & self.signs.all_of(pc.conditions)) for pc in self.cands]
        order = sorted(range(len(self.cands)), key=lambda k: (-hold[k], len(self.cands[k].conditions), k))
        for k in [k for k in order if hold[k] == len(pts)][:TRIES_PER_CELL]:
            piece = self.cands[k]
            key = (piece, cell)
            if key not in self.tried:
                cert = self.build(piece, cell)
                self.tried[key] = cert if self.check_leaf(cert) else None
            if self.tried[key] is not None:
                self.leaves.append(Leaf(cell, piece, self.tried[key]))
                return True
        if depth >= MAX_DEPTH or len(self.leaves) + 2 > MAX_LEAVES or not pts:
            return False
        for split in self._splits([self.cands[k] for k in order[:SPLIT_FROM]], cell, pts):
            mark = len(self.leaves)
            if self.grow((*cell, split), depth + 1) and self.grow((*cell, sympy.expand(-split)), depth + 1):
                return True
            del self.leaves[mark:]
        return False

    def _splits(self, best, cell, pts) -> list:
        """At most two splitting polynomials: conditions of the best pieces that fail at some point of the cell,
        lowest total degree first (a leaf's check is a decision in its cell's polynomials too), then the better
        piece's."""
        found = []
        for rank, piece in enumerate(best):
            for g in piece.conditions:
                if g in cell or sympy.expand(-g) in cell or not pts - self.signs.holding(g):
                    continue
                found.append((sympy.Poly(g, t, c, u).total_degree(), rank, g))
        return list(dict.fromkeys(g for _, _, g in sorted(found, key=lambda f: f[:2])))[:2]


def cover_argument(gamma, A, bases, problem, variables, constraints, uses, sizes, reduced_costs):
    """(leaves, the used branches) of a split tree proving a − γb ≤ A on D₃ leaf by leaf, or why not (str).
    E ≤ A and the leaves' cells are checked again by the caller's ``split-tree`` certificate."""
    from exactdp.algebra.certificates import check
    from exactdp.numbers.truth import Truth

    branch_list = branches(A)
    if branch_list is None:
        return "a Max or Min below its top level that is not a sum's or a positive multiple's term"
    points = sample_points()
    # a branch above A at a sample point would fail the final E <= A: left out at once (exact evaluation)
    branch_list = [E for E in branch_list if E == A or all(bool(E.xreplace(p) <= A.xreplace(p)) for p in points)]
    lifted: dict = {}
    signs: dict = {}
    bases = list(bases)

    def build(piece, cell):  # the split-tree certificate's own leaf combination, so its final check reuses this one
        one = split_tree(gamma, (A,), (("leaf", "0"),), [piece], problem, variables, constraints, uses, sizes)
        return one.leaf_combination(0, [sympy.GreaterThan(g, 0, evaluate=False) for g in cell])

    def check_leaf(cert) -> bool:
        return check(cert).truth is Truth.TRUE

    at = _Signs(points)
    for _ in range(ADDED_BASES + 1):
        # one piece per (bound, branch, conditions): bases with the same bound differ only in their multipliers
        cands = list({(p.value, p.branch, p.conditions): p for basis in reversed(bases)
                      for p in pieces_of(basis, problem, DOMAIN_3, branch_list, lifted, signs, reduced_costs)}.values())[::-1]
        covered = frozenset().union(*[at.all_of(pc.conditions) for pc in cands])
        missed = next((p for i, p in enumerate(points) if i not in covered), None)
        if missed is None:
            break
        extra = basis_at_point(problem, missed)
        if extra is None or extra in bases:
            return f"no lifted basis gives a bound <= it at {point_text(missed)}"
        bases.append(extra)
    else:
        return f"the candidate pieces miss sample points after {ADDED_BASES} added bases"
    tree = _Tree(cands, at, build, check_leaf)
    if not tree.grow((), 0):
        return (f"no split tree of depth <= {MAX_DEPTH} with <= {MAX_LEAVES} leaves whose pieces all check "
                f"({len(cands)} candidate pieces from {len(bases)} bases)")
    return tree.leaves


def basis_at_point(problem, point):
    """An optimal basis of the LP at a rational point of (t, c, u) (exact), or None."""
    from flint import fmpq

    from exactdp.algebra.lp import solve
    from exactdp.theory.parametric import basis_at

    lp = problem.at({x: fmpq(int(point[x].p), int(point[x].q)) for x in (t, c, u)})
    sol = solve(lp)
    if sol.value is None:
        return None
    return basis_at(problem, lp, sol)


def point_text(point) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point.items())


def tree_of(leaves, first: int = 0, depth: int = 0):
    """The split tree whose leaves are ``leaves`` (in :meth:`_Tree.grow`'s order: a split's g ≥ 0 side first), as
    nested ("split", "g >= 0", yes, no) / ("leaf", "k") nodes, k counted from ``first``."""
    from exactdp.algebra.certificates import relation_text

    if len(leaves) == 1 and len(leaves[0].cell) == depth:
        return ("leaf", str(first))
    g = leaves[0].cell[depth]
    yes = [lf for lf in leaves if lf.cell[depth] == g]
    return ("split", relation_text(sympy.GreaterThan(g, 0, evaluate=False)), tree_of(yes, first, depth + 1),
            tree_of(leaves[len(yes):], first + len(yes), depth + 1))


def split_tree(gamma, args, trees, leaf_pieces, problem, variables, constraints, uses, sizes, domain=DOMAIN_3):
    """The ``split-tree`` certificate of a − γb ≤ Min(args) on ``domain`` (D₃ by default): the LP's constraints, one
    tree per argument, per leaf (numbered as in the trees) its piece's multipliers and branch."""
    from exactdp.algebra.certificates import assumptions_of, expr_text, relation_text
    from exactdp.algebra.certificates.split_tree import SplitTreeCertificate

    params = tuple(problem.parameters)
    return SplitTreeCertificate(
        parameters=tuple(map(str, params)), assumptions=assumptions_of(params),
        region=tuple(relation_text(r) for r in domain), sizes=sizes, variables=tuple(map(str, variables)),
        constraints=tuple((lab, expr_text(g)) for lab, g in constraints), objective=expr_text(a - gamma * b),
        arguments=tuple(expr_text(x) for x in args), trees=tuple(trees),
        leaf_multipliers=tuple(tuple(expr_text(m) for m in pc.multipliers) for pc in leaf_pieces),
        leaf_branches=tuple(expr_text(pc.branch) for pc in leaf_pieces), uses=tuple(uses))


def _tidy(e):
    """e with every part free of Max and Min cancelled (N·c written u leaves terms such as c·t·(2·u/c − 4))."""
    if not e.has(sympy.Max, sympy.Min):
        return sympy.cancel(sympy.together(e))
    return e.func(*[_tidy(x) for x in e.args]) if e.args else e


def prove_from_three(gamma, Fu, whole, bases, problem, variables, constraints, uses, reduced_costs):
    """(certificates, steps) of a − γb ≤ Fu on D₃ (every N ≥ 3), or why not (str); the caller proves N = 2.

    One ``split-tree`` certificate carries the whole of it (:mod:`exactdp.algebra.certificates.split_tree`): a
    tree per argument A of Fu = Min(A, …) — a single leaf for an argument equal to the value of a lifted basis
    dual feasible on the whole domain (``whole``: (value, its ``linear-combination``)), else the split tree of
    :func:`cover_argument` —, filed as a step of the conjecture's proof (claim ``step of check``) with the
    statement "for every (t, c, u)
    of D₃ and every (a, b, S) under the constraints, Min(A, …) − (a − γb) ≥ 0", which every checker derives
    from the data (:func:`exactdp.claim_statement.binding`).  ``bases`` are the per-N LPs' optimal bases,
    ``constraints`` the LP's (label, g ≥ 0), ``reduced_costs(problem, λ)`` the bounds' multipliers."""
    from exactdp.algebra.certificates import check, relation_text
    from exactdp.claim_statement import restating, step_of
    from exactdp.numbers.reader import read_expression
    from exactdp.numbers.truth import Truth
    from exactdp.verification.export import CHECK_CLAIM  # deferred: start-up

    sizes = "all N, M"
    g_text = "a - b" if gamma == 1 else f"a - {gamma}*b"
    steps: list = []
    args = sorted((_tidy(A) for A in (Fu.args if isinstance(Fu, sympy.Min) else (Fu,))), key=sympy.default_sort_key)
    trees, leaf_pieces = [], []
    syms = {str(x): x for x in (t, c, u)}
    for A in args:
        done = next(((v, x) for v, x in whole if sympy.cancel(sympy.together(A - v)) == 0), None)
        if done is not None:  # one leaf on the whole of D₃: the basis's multipliers, the argument as its branch
            mults = tuple(read_expression(m, symbols=syms) for m in done[1].multipliers)
            trees.append(("leaf", str(len(leaf_pieces))))
            leaf_pieces.append(Piece(done[0], mults, (), A))
            steps.append(f"N >= 3: {g_text} <= {A}: one leaf, the lifted basis of {done[1].name!r} (dual feasible on "
                         f"the whole domain)")
            continue
        leaves = cover_argument(gamma, A, bases, problem, variables, constraints, uses, sizes, reduced_costs)
        if isinstance(leaves, str):
            return f"N >= 3, the argument {A}: {leaves}"
        trees.append(tree_of(leaves, len(leaf_pieces)))
        for k, lf in enumerate(leaves):
            where = " and ".join(f"{g} >= 0" for g in lf.cell) or "the whole domain"
            steps.append(f"N >= 3, {g_text} <= {A}: leaf {len(leaf_pieces)} ({where}): lifted bound {lf.piece.value} "
                         f"<= branch {lf.piece.branch}; multipliers ({', '.join(lf.certificate.multipliers)}); its "
                         f"combination checked: TRUE")
            leaf_pieces.append(lf.piece)
    cert = split_tree(gamma, args, trees, leaf_pieces, problem, variables, constraints, uses, sizes)
    cert = cert.bound_to(restating(step_of(CHECK_CLAIM), cert.to_json(), tuple(relation_text(r) for r in DOMAIN_3)))
    res = check(cert)
    if res.truth is not Truth.TRUE:
        return f"the split-tree certificate: {res.truth} ({'; '.join(res.failures[:2])})"
    steps.append(f"N >= 3: the split trees cover {', '.join(map(str, DOMAIN_3))} (complementary closed cells), every "
                 f"leaf's combination and every branch <= its argument are decided: certificate {cert.kind} "
                 f"{cert.name!r} checked: TRUE")
    steps.append(f"N >= 3: hence {g_text} <= {sympy.Min(*args, evaluate=False)}")
    return (cert,), steps


def whole_domain_tree(gamma, Fu, whole, problem, variables, constraints, uses, domain):
    """(the checked ``split-tree`` certificate of a − γb ≤ Fu on the whole every-N ``domain`` t ≥ 1, c > 0,
    2c ≤ u ≤ 1, a step of the conjecture's proof, and its steps), or why not (str).

    One leaf per argument A of Fu = Min(A, …): the lifted basis of ``whole`` ((value V, its checked
    ``linear-combination``), dual feasible on the whole domain) whose V is A after cancellation, else the first whose
    leaf (branch E of A, slack E − V ≥ 0 on the domain) checks.  So a − γb ≤ Fu is carried by one certificate in
    (t, c, u), which :func:`exactdp.verification.conjecture.synthesis._instances` then instantiates at u = N·c."""
    from exactdp.algebra.certificates import check, relation_text
    from exactdp.claim_statement import restating, step_of
    from exactdp.numbers.reader import read_expression
    from exactdp.numbers.truth import Truth
    from exactdp.verification.export import CHECK_CLAIM  # deferred: start-up

    sizes = "all N, M"
    g_text = "a - b" if gamma == 1 else f"a - {gamma}*b"
    args = sorted((_tidy(A) for A in (Fu.args if isinstance(Fu, sympy.Min) else (Fu,))), key=sympy.default_sort_key)
    syms = {str(x): x for x in (t, c, u)}
    leaf_pieces, steps = [], []
    for A in args:
        cands = [(v, x, A) for v, x in whole if sympy.cancel(sympy.together(A - v)) == 0]
        cands += [(v, x, E) for E in (branches(A) or []) for v, x in whole]
        for v, x, E in cands:
            piece = Piece(v, tuple(read_expression(m, symbols=syms) for m in x.multipliers), (), E)
            one = split_tree(gamma, (A,), (("leaf", "0"),), [piece], problem, variables, constraints, uses, sizes,
                             domain)
            leaf = one.leaf_combination(0, [])
            if leaf is not None and check(leaf).truth is Truth.TRUE:
                leaf_pieces.append(piece)
                steps.append(f"every N: {g_text} <= {A}: one leaf, the lifted basis of {x.name!r} (bound {v}, "
                             f"branch {E})")
                break
        else:
            return f"no lifted basis dual feasible on the whole domain bounds the argument {A} by itself"
    trees = tuple(("leaf", str(k)) for k in range(len(args)))
    cert = split_tree(gamma, args, trees, leaf_pieces, problem, variables, constraints, uses, sizes, domain)
    cert = cert.bound_to(restating(step_of(CHECK_CLAIM), cert.to_json(), tuple(relation_text(r) for r in domain)))
    res = check(cert)
    if res.truth is not Truth.TRUE:
        return f"the split-tree certificate: {res.truth} ({'; '.join(res.failures[:2])})"
    steps.append(f"every N: {g_text} <= {sympy.Min(*args, evaluate=False) if len(args) > 1 else args[0]} on "
                 f"{', '.join(map(str, domain))}: certificate {cert.kind} {cert.name!r} checked: TRUE")
    return cert, steps
