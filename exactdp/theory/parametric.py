r"""Multi-parametric exact linear programming: an LP whose data are polynomials in parameters p
(t = e^ε, c, δ, γ) solved on a whole parameter domain D at once.

Problem, for every p ∈ D:  max c(p)·x  s.t.  A_ub(p) x ≤ b_ub(p),  A_eq(p) x = b_eq(p),  x ≥ 0.

**Method** (the standard critical-region algorithm of multi-parametric LP, made exact):

1. pick a rational point p₀ in the part of D not yet covered, solve the LP there exactly
   (:func:`exactdp.algebra.lp.solve`) and read an optimal basis B off its primal/dual pair: n constraints
   among the rows and the bounds −x_j ≤ 0 (every equality, every row and bound carrying a non-zero dual
   multiplier, completed by tight constraints to full rank);
2. **lift** the basic solution: x(p) = G_B(p)⁻¹ h_B(p) and the multipliers w(p) = G_B(p)⁻ᵀ c(p), rational
   functions of p (fraction-free solve over ℚ[p], sympy ``DomainMatrix.solve_den``);
3. the basis stays optimal where x(p) is feasible and w(p) ≥ 0 (its **sign conditions**); they are
   factored and every irreducible factor's sign is decided on the current cell with the exact prover
   (:mod:`exactdp.algebra.certificates.parametric_lp`).  A factor whose sign varies on the cell splits it:
   the basis' region is the side containing p₀, the other side {σf < 0} becomes a new cell;
4. repeat on the new cells.  The cells form a binary tree of complementary splits (f ≥ 0 | f < 0), so the
   regions cover D by construction; the tree is part of the certificate and re-checked (every leaf is a
   certified region or decided empty), and the coverage is decided a second time by the Boolean decision
   :func:`exactdp.algebra.boolean.covers` of Or(regions) on D.  A cell the budget (``max_regions``) or the
   prover leaves uncertified stays an ``open`` leaf: the certificate then does not check (a named gap).

The result is a closed form — a ``Piecewise`` over the regions — with, per region, the lifted primal
point, the dual certificate and the region's defining inequalities, packaged as a ``parametric-lp``
certificate whose check shares nothing with this solver but the prover.

:func:`sup_eta_tv`, :func:`sup_eta_hockey_stick` and :func:`gamma_max` build the LPs of
:mod:`exactdp.theory.extremal` with sympy symbols in place of t, c, δ, γ (the one construction of the
class polytope) and solve them here; ``extremal.sup_eta_tv`` dispatches to this module when given symbols.
"""

from __future__ import annotations

from typing import Any

import itertools
from dataclasses import dataclass, field

import sympy
from flint import fmpq, fmpq_mat
from sympy.polys.matrices import DomainMatrix

from exactdp.errors import ParameterError, UndecidedError
from exactdp.limits import require
from exactdp.numbers.qq import ZERO, to_qq
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Truth
from exactdp.algebra.lp import LinearProgram, require_lp_size, solve
from exactdp.algebra.regions import Region
from exactdp.theory.lp_programs import (Entries, affine_sum, class_rows, dense, gamma_program, integer_size,
                                        require_size)
from exactdp.algebra.certificates.parametric_lp import (
    ParametricLPCertificate,
    Field,
    SignTable,
    check_parametric_lp,
    condition_text,
    negate,
    optimality_conditions,
)

#: regions explored before giving up (each costs one exact LP and a few prover calls)
MAX_REGIONS = 40


@dataclass(frozen=True)
class ParametricLP:
    """max c·x s.t. A_ub x ≤ b_ub, A_eq x = b_eq, x ≥ 0 with entries sympy polynomials in ``parameters``,
    on the domain given by ``domain`` (sympy relations in the parameters)."""

    parameters: tuple
    c: tuple
    A_ub: tuple
    b_ub: tuple
    A_eq: tuple = ()
    b_eq: tuple = ()
    domain: tuple = ()
    offset: object = sympy.Integer(0)  # the quantity is c·x + offset

    @property
    def n(self) -> int:
        return len(self.c)

    def at(self, point: dict) -> LinearProgram:
        """The LP at a rational point (exact ``fmpq`` data)."""
        sub = {p: sympy.Rational(int(v.p), int(v.q)) for p, v in point.items()}

        def q(e):
            v = sympy.Rational(as_expr(e).xreplace(sub)) if not isinstance(e, fmpq) else e
            return to_qq(v) if not isinstance(v, fmpq) else v

        return LinearProgram([q(e) for e in self.c], [[q(e) for e in r] for r in self.A_ub],
                             [q(e) for e in self.b_ub], [[q(e) for e in r] for r in self.A_eq],
                             [q(e) for e in self.b_eq])

    def constraint_rows(self):
        """All constraints G x ≤/= h: inequality rows, equality rows, then the bounds −x_j ≤ 0."""
        rows = [(tuple(r), b, "ub") for r, b in zip(self.A_ub, self.b_ub)]
        rows += [(tuple(r), b, "eq") for r, b in zip(self.A_eq, self.b_eq)]
        for j in range(self.n):
            rows.append((tuple(sympy.Integer(-1 if k == j else 0) for k in range(self.n)), sympy.Integer(0), "bound"))
        return rows


@dataclass(frozen=True)
class LiftedRegion:
    """One critical region: its conditions (beyond the domain), the lifted primal point x(p), the lifted
    multipliers y_ub(p), y_eq(p), the optimal value there, the basis and the sample point it came from."""

    conditions: tuple  # sympy relations
    x: tuple
    y_ub: tuple
    y_eq: tuple
    value: sympy.Expr
    basis: tuple
    sample: dict


@dataclass(frozen=True)
class ParametricSolution:
    """The closed form of a parametric LP on its domain, with the regions and the checked certificate."""

    problem: ParametricLP
    regions: tuple
    tree: object
    certificate: ParametricLPCertificate
    check_truth: Truth = Truth.UNKNOWN
    check_steps: tuple = ()
    check_failures: tuple = ()
    log: tuple = field(default=(), compare=False)

    @property
    def value(self) -> sympy.Expr:
        """The optimum as a ``Piecewise`` over the regions (plus the problem's offset); regions with the same
        value are merged (their conditions or-ed); the last piece is ``True`` only when the certificate checked
        (then the regions cover the domain), else it keeps its conditions (undefined outside the regions)."""
        groups: dict = {}
        for r in self.regions:
            v = sympy.cancel(r.value + self.problem.offset)
            groups.setdefault(v, []).append(sympy.And(*r.conditions))
        pieces = [(v, sympy.Or(*conds)) for v, conds in groups.items()]
        if not pieces:
            raise UndecidedError("parametric LP: no region was certified (" + "; ".join(self.log) + ")")
        if not self.certified():
            return sympy.Piecewise(*pieces)
        if len(pieces) == 1:
            return pieces[0][0]
        return sympy.Piecewise(*pieces[:-1], (pieces[-1][0], True))

    def certified(self) -> bool:
        return self.check_truth is Truth.TRUE


# -- the algorithm -------------------------------------------------------------------------------------

def _sym(v) -> sympy.Rational:
    return sympy.Rational(int(v.p), int(v.q))


def basis_at(problem: ParametricLP, lp: LinearProgram, sol) -> tuple[int, ...]:
    """An optimal basis of the solved LP at a point: equalities and constraints with non-zero multipliers,
    completed with tight constraints to n linearly independent ones (exact rank over ℚ)."""
    n = lp.n
    G = [list(r) for r in lp.A_ub] + [list(r) for r in lp.A_eq] + \
        [[fmpq(-1) if k == j else ZERO for k in range(n)] for j in range(n)]
    h = list(lp.b_ub) + list(lp.b_eq) + [ZERO] * n
    aty = [ZERO] * n
    for rows, ys in ((lp.A_ub, sol.y_ub), (lp.A_eq, sol.y_eq)):
        for r, y in zip(rows, ys):
            for j, a in enumerate(r):
                aty[j] += a * y
    reduced = [aty[j] - lp.c[j] for j in range(n)]  # multiplier of the bound −x_j ≤ 0
    m_ub, m_eq = len(lp.A_ub), len(lp.A_eq)
    forced = [i for i in range(m_ub) if sol.y_ub[i] != 0] + list(range(m_ub, m_ub + m_eq)) + \
             [m_ub + m_eq + j for j in range(n) if reduced[j] != 0]
    tight = [i for i in range(len(G)) if i not in forced and
             sum((a * x for a, x in zip(G[i], sol.x)), ZERO) == h[i]]
    # prefer bounds (x_j = 0 stays 0 identically) over rows in the completion
    tight.sort(key=lambda i: (i < m_ub + m_eq, i))
    chosen: list[int] = []
    for i in forced + tight:
        trial = chosen + [i]
        if fmpq_mat([G[k] for k in trial]).rank() == len(trial):
            chosen = trial
        if len(chosen) == n:
            break
    if len(chosen) != n:  # pragma: no cover - an optimal vertex always has n independent tight constraints
        raise RuntimeError("internal error: no optimal basis at the sample point")
    return tuple(sorted(chosen))


def _lift(problem: ParametricLP, basis, ring, field: Field):
    """x(p), y_ub(p), y_eq(p) of a basis as elements of ℚ(p) (fraction-free solve over ℚ[p]: G_B x = h_B,
    G_Bᵀ w = c, w spread onto the rows of the basis)."""
    rows = problem.constraint_rows()
    n = problem.n
    GB = [[ring.from_sympy(as_expr(e)) for e in rows[i][0]] for i in basis]
    hB = [[ring.from_sympy(as_expr(rows[i][1]))] for i in basis]
    M = DomainMatrix(GB, (n, n), ring)
    xnum, den = M.solve_den(DomainMatrix(hB, (n, 1), ring))
    cB = [[ring.from_sympy(as_expr(e))] for e in problem.c]
    wnum, wden = M.transpose().solve_den(DomainMatrix(cB, (n, 1), ring))
    K = field.K.field
    x = tuple(K.new(K.ring(xnum[j, 0].element), K.ring(den)) for j in range(n))
    w = tuple(K.new(K.ring(wnum[k, 0].element), K.ring(wden)) for k in range(n))
    m_ub, m_eq = len(problem.A_ub), len(problem.A_eq)
    y_ub = [K.zero] * m_ub
    y_eq = [K.zero] * m_eq
    for k, i in enumerate(basis):
        if i < m_ub:
            y_ub[i] = w[k]
        elif i < m_ub + m_eq:
            y_eq[i - m_ub] = w[k]
    return x, tuple(y_ub), tuple(y_eq)


def lift_basis(problem: ParametricLP, basis: tuple) -> tuple[tuple, tuple, tuple, sympy.Expr]:
    """(x(p), y_ub(p), y_eq(p), value(p)) of a basis of ``problem`` (indices into
    :meth:`ParametricLP.constraint_rows`) as sympy rational functions of the parameters — the lifting step of
    :func:`solve_parametric`, for a basis found on another problem with the same rows (e.g. at a fixed N, then
    lifted with N·c a parameter).  Nothing is claimed about where the basis is feasible or optimal."""
    F = Field(problem.parameters)
    x, y_ub, y_eq = (tuple(F.K.to_sympy(a) for a in v)
                     for v in _lift(problem, basis, sympy.QQ[tuple(problem.parameters)], F))
    return x, y_ub, y_eq, sympy.cancel(sum((ci * xi for ci, xi in zip(problem.c, x)), sympy.Integer(0)))


def _domain_region(problem: ParametricLP, extra=()) -> Region:
    return Region.of(*problem.domain, *extra, variables=problem.parameters)


def _samples_in(problem: ParametricLP, conditions):
    """Rational points strictly inside the cell given by ``conditions`` (relations) and the domain, from
    rational grids of growing resolution (a different denominator per axis, so that no two parameters
    coincide at a sample); the generator ends when none is found (the cell may be empty or thin)."""
    params = problem.parameters
    strict_rel = [(sympy.cancel(g), s) for g, s in
                  (_strict(r) for r in itertools.chain(problem.domain, conditions) if r is not sympy.true)]

    def inside(pt):
        sub = {p: _sym(v) for p, v in zip(params, pt)}
        for g, s in strict_rel:
            v = g.xreplace(sub)
            if not (v > 0 or (not s and v >= 0)):
                return False
        return True

    bounds = _domain_region(problem).box
    for den in (7, 13, 29, 61, 127):
        axes = []
        for i, b in enumerate(bounds):
            d = den + 4 * i
            lo = b.lo if b.lo is not None else fmpq(-4)
            hi = b.hi if b.hi is not None else lo + 12
            axes.append([lo + (hi - lo) * fmpq(k, d) for k in range(1, d)])
        for pt in itertools.product(*axes):
            if inside(pt):
                yield dict(zip(params, pt))


def _strict(rel):
    """``rel`` as (g, strict) with g ⋈ 0, for sampling interior points: every condition strict."""
    if isinstance(rel, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        return rel.lhs - rel.rhs, True
    if isinstance(rel, (sympy.StrictLessThan, sympy.LessThan)):
        return rel.rhs - rel.lhs, True
    raise ParameterError(f"domain: only inequalities define a parameter domain, got {rel}")


def solve_parametric(problem: ParametricLP, *, max_regions: int = MAX_REGIONS, name: str = "parametric LP",
                     scope: str = "") -> ParametricSolution:
    """The optimum of ``problem`` on its whole domain, region by region, with a checked certificate.

    Raises :class:`~exactdp.errors.UndecidedError` subclasses never: a cell that cannot be certified is
    reported in the certificate's failures (the check is then not TRUE)."""
    require_lp_size(problem.n, len(problem.A_ub) + len(problem.A_eq), max_regions,
                    f"parametric LP: up to {max_regions} regions")
    ring = sympy.QQ[tuple(problem.parameters)]
    F = Field(problem.parameters)
    data = (tuple(tuple(F(a) for a in r) for r in problem.A_ub), tuple(F(a) for a in problem.b_ub),
            tuple(tuple(F(a) for a in r) for r in problem.A_eq), tuple(F(a) for a in problem.b_eq),
            tuple(F(a) for a in problem.c))
    regions: list[LiftedRegion] = []
    log: list[str] = []

    def explore(cell: tuple, depth: int):
        """Certify the cell (conditions beyond the domain) and return its tree."""
        if len(regions) >= max_regions:
            return ["open", [condition_text(r) for r in cell]]
        table = SignTable(_domain_region(problem, cell), F)
        if table.empty() is Truth.TRUE:
            return ["empty"]
        found = None
        candidates = itertools.chain(itertools.islice(_samples_in(problem, cell), 4),
                                     [table.rational_point()])
        for point in candidates:
            if point is None:
                continue
            lp = problem.at(point)
            sol = solve(lp)
            if sol.status != "optimal":
                log.append(f"the LP at {point} is {sol.status}")
                continue
            basis = basis_at(problem, lp, sol)
            x, y_ub, y_eq = _lift(problem, basis, ring, F)
            _, signs = optimality_conditions(*data, x, y_ub, y_eq, F)
            splits = table.splits_for([(e, False) for _, e in signs], {p: _sym(v) for p, v in point.items()})
            if splits is not None:
                found = (point, basis, x, y_ub, y_eq, splits)
                break
            log.append(f"basis {basis} at {point}: a sign condition cannot be settled on the cell")
        if found is None:
            return ["open", [condition_text(r) for r in cell]]
        point, basis, x, y_ub, y_eq, splits = found
        # the region is cell ∩ splits; the complements are new cells
        x, y_ub, y_eq = (tuple(F.K.to_sympy(a) for a in v) for v in (x, y_ub, y_eq))
        value = sympy.cancel(sum((ci * xi for ci, xi in zip(problem.c, x)), sympy.Integer(0)))
        regions.append(LiftedRegion(tuple(cell) + tuple(splits), x, y_ub, y_eq, value, basis, point))
        log.append(f"region {len(regions) - 1}: sample {({str(k): str(v) for k, v in point.items()})}, "
                   f"{len(splits)} split(s), value {value}")
        leaf: list = ["region", len(regions) - 1]
        # build the tree from the last split upwards: node(split_k) = [split, s_k, deeper, other_k]
        prefix = list(cell)
        subtrees = []
        for s in splits:
            subtrees.append((s, explore(tuple(prefix) + (negate(s),), depth + 1)))
            prefix.append(s)
        tree = leaf
        for s, other in reversed(subtrees):
            tree = ["split", condition_text(s), tree, other]
        return tree

    tree = explore((), 0)
    regions_t = tuple(regions)
    cert = ParametricLPCertificate.build(problem, regions_t, tree, name=name, scope=scope)
    result = check_parametric_lp(cert)
    return ParametricSolution(problem, regions_t, tree, cert, result.truth, result.steps, result.failures,
                              tuple(log))


# -- the extremal LPs of exactdp.theory.extremal with symbolic parameters --------------------------------

@dataclass(frozen=True)
class ParametricExtremal:
    """A supremum over a class as a closed form on the parameter domain: ``value`` (a ``Piecewise``, or a
    ``Max`` of them when several LPs compete), one :class:`ParametricSolution` per LP, and per region the
    lifted optimal kernel (:meth:`kernels`)."""

    quantity: str
    value: sympy.Expr
    solutions: tuple
    params: dict
    entries: Any = field(default=None, compare=False)  # the Entries layout of the variables

    @property
    def certificates(self) -> tuple:
        return tuple(s.certificate for s in self.solutions)

    def certified(self) -> bool:
        """Every LP's certificate checked TRUE (optimality in every region and coverage of the domain)."""
        return all(s.certified() for s in self.solutions)

    def failures(self) -> list[str]:
        return [f for s in self.solutions for f in s.check_failures]

    def kernels(self, lp: int = 0) -> list[tuple]:
        """``[(conditions, rows)]``: per region of LP ``lp``, the lifted optimal kernel as rows of sympy
        rational functions (K(M−1|x) = 1 − Σ_{y<M−1} K(y|x); for Γ the Charnes–Cooper u/τ)."""
        E = self.entries
        out = []
        for r in self.solutions[lp].regions:
            v = list(r.x)
            if len(v) > E.nvars:  # Charnes–Cooper: K = u/τ
                v = [sympy.cancel(a / v[E.nvars]) for a in v[:E.nvars]]
            rows = []
            for xin in range(E.N):
                b = E.block_of[xin]
                head = [v[E.var(b, y)] for y in range(E.M - 1)]
                rows.append(tuple(head) + (sympy.cancel(1 - sum(head, sympy.Integer(0))),))
            out.append((r.conditions, tuple(rows)))
        return out


def _require_symbolic(N: int, M: int) -> None:
    """The kernel's N·M entries become rational functions of the parameters: refuse above
    ``max_symbolic_entries`` before any LP is built."""
    require("max_symbolic_entries", N * M, f"parametric LP over {N} x {M} kernels")


def _scope(N: int, M: int, domain) -> str:
    return f"N = {N}, M = {M}; " + ", ".join(condition_text(r) for r in domain)


def _is_symbol(v) -> bool:
    return isinstance(v, sympy.Symbol)


def _argument(v, name: str, lo, hi, lo_open: bool = False):
    """A symbol (→ a parameter with its domain conditions) or an exact number checked against [lo, hi]."""
    if _is_symbol(v):
        conds = [(sympy.Gt if lo_open else sympy.Ge)(v, _to_sympy(lo), evaluate=False)] if lo is not None else []
        if hi is not None:
            conds.append(sympy.Le(v, _to_sympy(hi), evaluate=False))
        return v, conds
    if isinstance(v, sympy.Basic) and v.free_symbols:
        raise ParameterError(f"{name}: a parameter must be a plain sympy Symbol or an exact number, got {v}")
    q = to_qq(v, name)
    if (lo is not None and (q < lo or (lo_open and q == lo))) or (hi is not None and q > hi):
        raise ParameterError(f"{name}: must lie in {'(' if lo_open else '['}{lo}, {hi if hi is not None else 'oo'}], "
                             f"got {q}")
    return q, []


def _to_sympy(e):
    return sympy.Rational(int(e.p), int(e.q)) if isinstance(e, fmpq) else sympy.expand(e)


def _problem(params, domain, cvec, A_ub, b_ub, A_eq=(), b_eq=(), offset=ZERO) -> ParametricLP:
    if not params:
        raise ParameterError("parametric LP: no parameter is a sympy Symbol (use the exact path for numbers)")
    conv = lambda v: tuple(_to_sympy(a) for a in v)  # noqa: E731
    return ParametricLP(tuple(params), conv(cvec), tuple(conv(r) for r in A_ub), conv(b_ub),
                        tuple(conv(r) for r in A_eq), conv(b_eq), tuple(domain), _to_sympy(offset))


def sup_eta_hockey_stick(N: int, M: int = 2, *, gamma=1, t, c=None, delta=0,
                         max_regions: int = MAX_REGIONS) -> ParametricExtremal:
    r"""sup η_{E_γ}(K) over the (ε,c)-PML or (ε,δ)-LDP class as a closed form in the symbolic parameters among
    t (domain t ≥ 1), c (0 < c ≤ 1/N), δ (0 ≤ δ ≤ 1), γ (γ ≥ 1): the LPs of
    :func:`exactdp.theory.extremal.sup_eta_hockey_stick` solved parametrically (module docstring).

    >>> t, d = sympy.symbols("t delta", positive=True)
    >>> r = sup_eta_tv(2, t=t, delta=d)          # B-4: (t − 1 + 2δ)/(t + 1) on t ≥ 1, 0 ≤ δ ≤ 1
    >>> r.value, r.certified()
    ((2*delta + t - 1)/(t + 1), True)
    >>> sup_eta_hockey_stick(2, gamma=2, t=t).value   # B-7: (t − γ)/(t + 1) where t ≥ γ
    Piecewise(((t - 2)/(t + 1), (t >= 2) & (t > 1)), (0, True))
    """
    N, M = integer_size(N, "N"), integer_size(M, "M")
    _require_symbolic(N, M)
    t, dom_t = _argument(t, "t", fmpq(1), None)
    g, dom_g = _argument(gamma, "gamma", fmpq(1), None)
    if c is not None:
        c, dom_c = _argument(c, "c", ZERO, fmpq(1, N), lo_open=True)
        if delta != 0:
            raise ParameterError(f"delta: the (eps,c)-PML class has no delta; got c = {c} and delta = {delta}")
        d, dom_d = ZERO, []
    else:
        d, dom_d = _argument(delta, "delta", ZERO, fmpq(1))
        dom_c = []
    params = [v for v in (t, c, d, g) if _is_symbol(v)]
    domain = dom_t + dom_c + dom_d + dom_g
    ks = range(1, M // 2 + 1) if (not _is_symbol(g) and g == 1) else range(1, M)
    require_size(N, M, c, len(ks) * max_regions)
    E = Entries(N, M, False)
    A_ub, b_ub = dense(class_rows(E, t, c, d), E.nvars)
    sols = []
    for k in ks:
        obj = affine_sum(*[(fmpq(1), E.entry_block(0, y)) for y in range(k)],
                         *[(-g, E.entry_block(1, y)) for y in range(k)])
        cvec = [obj[0].get(j, ZERO) for j in range(E.nvars)]
        quantity = "eta_TV" if (not _is_symbol(g) and g == 1) else "eta_E_gamma"
        cls = "(eps,c)-PML" if c is not None else "(eps,delta)-LDP"
        sols.append(solve_parametric(_problem(params, domain, cvec, A_ub, b_ub, offset=obj[1]),
                                     max_regions=max_regions, name=f"sup {quantity} over {N}x{M} {cls} kernels"
                                     + (f", A = {{0..{k - 1}}}" if len(ks) > 1 else ""),
                                     scope=_scope(N, M, domain)))
    value = sols[0].value if len(sols) == 1 else sympy.Max(*[s.value for s in sols])
    return ParametricExtremal("eta", value, tuple(sols), {"N": N, "M": M, "t": t, "c": c, "delta": d, "gamma": g},
                              E)


def sup_eta_tv(N: int, M: int = 2, *, t, c=None, delta=0, max_regions: int = MAX_REGIONS) -> ParametricExtremal:
    r"""η_TV(ε,c) ([G] Thm 1, Def. 3) or the (ε,δ)-LDP supremum ([A], B-4) as a closed form in the symbolic
    parameters: :func:`sup_eta_hockey_stick` with γ = 1."""
    return sup_eta_hockey_stick(N, M, gamma=1, t=t, c=c, delta=delta, max_regions=max_regions)


def gamma_max(N: int, t, c, *, M: int = 2, max_regions: int = MAX_REGIONS) -> ParametricExtremal:
    r"""Γ_max(ε,c) ([G] Lemma 4, D-12; G-23) as a closed form in the symbolic t (t ≥ 1) and/or c (0 < c ≤ 1/N):
    the Charnes–Cooper LP of :func:`exactdp.theory.extremal.gamma_max` solved parametrically."""
    N, M = integer_size(N, "N"), integer_size(M, "M")
    _require_symbolic(N, M)
    t, dom_t = _argument(t, "t", fmpq(1), None)
    c, dom_c = _argument(c, "c", ZERO, fmpq(1, N), lo_open=True)
    require_size(N, M, c, max_regions, extra_vars=1, extra_rows=1)
    E = Entries(N, M, False)
    params = [v for v in (t, c) if _is_symbol(v)]
    sol = solve_parametric(_problem(params, dom_t + dom_c, *gamma_program(E, t, c, +1)), max_regions=max_regions,
                           name=f"Gamma_max over {N}x{M} (eps,c)-PML kernels (Charnes-Cooper LP)",
                           scope=_scope(N, M, dom_t + dom_c))
    return ParametricExtremal("gamma_max", sol.value, (sol,), {"N": N, "M": M, "t": t, "c": c}, E)
