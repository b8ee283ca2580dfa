r"""Exact linear programming over the rationals: a two-phase dense-tableau simplex on python-flint ``fmpq``.

Problem (always a maximization, every variable non-negative):

.. math::  \max\ c^\top x \quad\text{s.t.}\quad A_{ub}x\le b_{ub},\ \ A_{eq}x=b_{eq},\ \ x\ge 0.

Its dual is :math:`\min b_{ub}^\top y_{ub}+b_{eq}^\top y_{eq}` s.t. :math:`A_{ub}^\top y_{ub}+A_{eq}^\top
y_{eq}\ge c`, :math:`y_{ub}\ge 0` (:math:`y_{eq}` free).  :func:`solve` returns, with the status,

* ``optimal``: the optimum, an optimal vertex ``x`` and a dual solution ``y`` with equal objective —
  together an exact certificate of optimality (weak duality: every feasible x has c·x ≤ b·y);
* ``infeasible``: a Farkas certificate ``y`` (y_ub ≥ 0, Aᵀy ≥ 0, bᵀy < 0);
* ``unbounded``: a feasible ``x`` and a ray ``r`` (r ≥ 0, A_ub r ≤ 0, A_eq r = 0, c·r > 0).

:func:`certificate_failures` / :func:`check_certificate` re-check any of these from the problem data
alone, exactly (no trust in the solver).  No float is ever formed: every entry goes through
:func:`exactdp.numbers.qq.to_qq`, which refuses floats.

Algorithm: rows with a negative right-hand side are negated; slack columns form the initial basis
where possible, artificial columns elsewhere.  Phase 1 maximizes −Σ artificials; artificials left basic
at level zero are pivoted out or (when their row is zero — a redundant equality) kept at zero.  Phase 2
optimizes c.  Pricing is Dantzig's largest reduced cost; after ``DEGENERATE_LIMIT`` consecutive
degenerate pivots the phase switches for good to Bland's smallest-index rule, which cannot cycle, so the
method always terminates.  The dual values are read off the final tableau: with σᵢ = ±1 the sign used
on row i and ``w`` the simplex multipliers (minus the reduced costs of the initial identity columns),
yᵢ = σᵢ wᵢ.
"""

from __future__ import annotations

from typing import Any, Sequence

from dataclasses import dataclass

from flint import fmpq

from exactdp.errors import ShapeError
from exactdp.limits import ESTIMATE_CAP, fmt_estimate, require
from exactdp.numbers.qq import ZERO, to_qq
from exactdp.numbers.truth import Truth

_CAP = ESTIMATE_CAP  # exactdp.limits
#: bytes of one tableau cell (a pointer, and the fmpq it refers to when non-zero), for ``max_memory``
_CELL_BYTES = 16


def lp_cost(variables: int, rows: int, lps: int = 1) -> tuple[int, int]:
    """``(work, memory)`` of solving ``lps`` dense-tableau LPs with ``variables`` columns and ``rows`` rows.

    The tableau has rows × (variables + rows + 1) cells (slacks included); a pivot touches each of them
    once and a solve takes about ``variables`` pivots, so work ≈ lps·(variables + 1)·rows·(variables +
    rows + 1) (the unit of ``max_work``, one fmpq operation); memory ≈ 16 bytes a cell.
    Sizes only, in integer arithmetic.

    >>> lp_cost(32, 288, 2)[0]     # the PML LPs for N = 8, M = 5
    6101568
    """
    cells = min(rows * (variables + rows + 1), _CAP)
    return min(lps * (variables + 1) * cells, _CAP), min(cells * _CELL_BYTES, _CAP)


def require_lp_size(variables: int, rows: int, lps: int, what: str) -> None:
    """Refuse LPs whose estimated work or tableau memory exceeds ``max_work`` / ``max_memory``."""
    work, memory = lp_cost(variables, rows, lps)
    detail = f"{what}: {lps} exact LP{'s' if lps != 1 else ''} of {_short(variables)} variables x {_short(rows)} rows"
    require("max_work", work, detail)
    require("max_memory", memory, detail)


def _short(x: int) -> str:
    return fmt_estimate(x, exact_below=10**9)


#: consecutive degenerate pivots tolerated under Dantzig's rule before switching to Bland's rule
DEGENERATE_LIMIT = 25


@dataclass(frozen=True)
class LinearProgram:
    """max c·x s.t. A_ub x ≤ b_ub, A_eq x = b_eq, x ≥ 0, with exact rational data (validated once)."""

    c: Sequence[Any]  # any sequences in; tuples of fmpq after validation
    A_ub: Sequence[Any] = ()
    b_ub: Sequence[Any] = ()
    A_eq: Sequence[Any] = ()
    b_eq: Sequence[Any] = ()
    names: tuple[Any, ...] = ()  # optional variable names, for reports

    def __post_init__(self) -> None:
        n = len(self.c)
        object.__setattr__(self, "c", tuple(to_qq(v, f"c[{j}]") for j, v in enumerate(self.c)))
        for A, b, tag in (("A_ub", "b_ub", "ub"), ("A_eq", "b_eq", "eq")):
            rows, rhs = getattr(self, A), getattr(self, b)
            if len(rows) != len(rhs):
                raise ShapeError(f"{b}: has {len(rhs)} entries but {A} has {len(rows)} rows")
            exact = []
            for i, row in enumerate(rows):
                if len(row) != n:
                    raise ShapeError(f"{A}: row {i} has {len(row)} entries, c has {n}")
                exact.append(tuple(to_qq(v, f"{A}[{i}][{j}]") for j, v in enumerate(row)))
            object.__setattr__(self, A, tuple(exact))
            object.__setattr__(self, b, tuple(to_qq(v, f"{b}[{i}]") for i, v in enumerate(rhs)))
        if self.names and len(self.names) != n:
            raise ShapeError(f"names: has {len(self.names)} entries, c has {n}")

    @property
    def n(self) -> int:
        return len(self.c)

    @property
    def shape(self) -> tuple[int, int, int]:
        """(variables, inequality rows, equality rows)."""
        return len(self.c), len(self.A_ub), len(self.A_eq)


@dataclass(frozen=True)
class LPSolution:
    """The outcome of :func:`solve`; every number is an exact ``fmpq``."""

    status: str  # "optimal" | "infeasible" | "unbounded"
    value: fmpq | None = None  # optimum (optimal only)
    x: tuple[Any, ...] = ()  # optimal vertex (optimal) or a feasible point (unbounded)
    y_ub: tuple[Any, ...] = ()  # dual multipliers of the ≤ rows (optimal) or Farkas multipliers (infeasible)
    y_eq: tuple[Any, ...] = ()
    ray: tuple[Any, ...] = ()  # unbounded direction
    pivots: int = 0


def _dot(u: Any, v: Any) -> fmpq:
    s = ZERO
    for a, b in zip(u, v):
        if a != 0 and b != 0:
            s += a * b
    return s


def dual_objective(lp: LinearProgram, sol: LPSolution) -> fmpq:
    """b_ub·y_ub + b_eq·y_eq."""
    return _dot(lp.b_ub, sol.y_ub) + _dot(lp.b_eq, sol.y_eq)


def _AT_y(lp: LinearProgram, y_ub: Any, y_eq: Any) -> list[Any]:
    out = [ZERO] * lp.n
    for rows, ys in ((lp.A_ub, y_ub), (lp.A_eq, y_eq)):
        for row, yi in zip(rows, ys):
            if yi == 0:
                continue
            for j, a in enumerate(row):
                if a != 0:
                    out[j] += a * yi
    return out


def certificate_failures(lp: LinearProgram, sol: LPSolution) -> list[str]:
    """Every way the certificate in ``sol`` fails to prove its status for ``lp`` (empty list = valid).

    optimal: x ≥ 0, A_ub x ≤ b_ub, A_eq x = b_eq; y_ub ≥ 0, Aᵀy ≥ c; c·x = b·y = value.
    infeasible: y_ub ≥ 0, Aᵀy ≥ 0, b·y < 0.  unbounded: x feasible, r ≥ 0, A_ub r ≤ 0, A_eq r = 0, c·r > 0.
    """
    bad: list[str] = []

    def primal(x: Any, what: Any) -> None:
        if len(x) != lp.n:
            bad.append(f"{what}: has {len(x)} entries, expected {lp.n}")
            return
        bad.extend(f"{what}[{j}] = {v} < 0" for j, v in enumerate(x) if v < 0)
        for i, (row, b) in enumerate(zip(lp.A_ub, lp.b_ub)):
            if _dot(row, x) > b:
                bad.append(f"{what}: inequality row {i} violated ({_dot(row, x)} > {b})")
        for i, (row, b) in enumerate(zip(lp.A_eq, lp.b_eq)):
            if _dot(row, x) != b:
                bad.append(f"{what}: equality row {i} violated ({_dot(row, x)} != {b})")

    def multipliers() -> Any:
        if len(sol.y_ub) != len(lp.A_ub) or len(sol.y_eq) != len(lp.A_eq):
            bad.append("y: wrong number of multipliers")
            return None
        bad.extend(f"y_ub[{i}] = {v} < 0" for i, v in enumerate(sol.y_ub) if v < 0)
        return _AT_y(lp, sol.y_ub, sol.y_eq)

    if sol.status == "optimal":
        primal(sol.x, "x")
        aty = multipliers()
        if aty is not None:
            bad.extend(f"dual row {j}: (A^T y)_j = {v} < c_j = {cj}" for j, (v, cj) in enumerate(zip(aty, lp.c))
                       if v < cj)
            if not bad:
                px, dy = _dot(lp.c, sol.x), dual_objective(lp, sol)
                if px != dy:
                    bad.append(f"objectives differ: c.x = {px}, b.y = {dy}")
                if px != sol.value:
                    bad.append(f"value {sol.value} != c.x = {px}")
    elif sol.status == "infeasible":
        aty = multipliers()
        if aty is not None:
            bad.extend(f"Farkas: (A^T y)_{j} = {v} < 0" for j, v in enumerate(aty) if v < 0)
            if dual_objective(lp, sol) >= 0:
                bad.append(f"Farkas: b.y = {dual_objective(lp, sol)} is not < 0")
    elif sol.status == "unbounded":
        primal(sol.x, "x")
        r = sol.ray
        if len(r) != lp.n:
            bad.append("ray: wrong length")
        else:
            bad.extend(f"ray[{j}] = {v} < 0" for j, v in enumerate(r) if v < 0)
            bad.extend(f"ray: inequality row {i} gives {_dot(row, r)} > 0" for i, row in enumerate(lp.A_ub)
                       if _dot(row, r) > 0)
            bad.extend(f"ray: equality row {i} gives {_dot(row, r)} != 0" for i, row in enumerate(lp.A_eq)
                       if _dot(row, r) != 0)
            if _dot(lp.c, r) <= 0:
                bad.append(f"ray: c.r = {_dot(lp.c, r)} is not > 0")
    else:
        bad.append(f"unknown status {sol.status!r}")
    return bad


def check_certificate(lp: LinearProgram, sol: LPSolution) -> Truth:
    """Truth.TRUE iff the certificate proves the reported status exactly (see :func:`certificate_failures`)."""
    return Truth.of(not certificate_failures(lp, sol))


# -- the simplex ---------------------------------------------------------------------------------------

class _Tableau:
    """Dense tableau T (m rows × (ncols + 1), rhs last), basis, and a reduced-cost row d (max form)."""

    def __init__(self, rows: Any, basis: Any, ncols: Any) -> None:
        self.T = rows
        self.basis = basis
        self.ncols = ncols
        self.pivots = 0
        self.cost: list[Any] = []  # the phase's cost row (set by the solver before set_objective)

    def set_objective(self, cost: Any) -> None:
        """d_j = cost_j − Σ_i cost_{basis_i} T_ij and z = Σ_i cost_{basis_i} rhs_i."""
        d = list(cost) + [ZERO]
        for i, b in enumerate(self.basis):
            cb = cost[b]
            if cb != 0:
                row = self.T[i]
                for j, v in enumerate(row):
                    if v != 0:
                        d[j] -= cb * v
        self.d = d  # d[-1] = −z

    def pivot(self, r: Any, j: Any) -> None:
        T = self.T
        pr = T[r]
        inv = 1 / pr[j]
        pr = [v * inv if v != 0 else v for v in pr]
        T[r] = pr
        nz = [k for k, v in enumerate(pr) if v != 0]
        for i, row in enumerate(T):
            if i == r:
                continue
            f = row[j]
            if f != 0:
                for k in nz:
                    row[k] -= f * pr[k]
        f = self.d[j]
        if f != 0:
            d = self.d
            for k in nz:
                d[k] -= f * pr[k]
        self.basis[r] = j
        self.pivots += 1

    def run(self, allowed: Any) -> Any:
        """Maximize; ``allowed[j]`` says whether column j may enter.  Returns "optimal" or ("unbounded", j)."""
        bland = False
        degenerate = 0
        T, d = self.T, self.d
        while True:
            d = self.d
            if bland:
                j = next((k for k in range(self.ncols) if allowed[k] and d[k] > 0), None)
            else:
                j, best = None, ZERO
                for k in range(self.ncols):
                    if allowed[k] and d[k] > best:
                        j, best = k, d[k]
            if j is None:
                return "optimal"
            r, ratio = None, None
            for i, row in enumerate(T):
                a = row[j]
                if a > 0:
                    q = row[-1] / a
                    if r is None or q < ratio or (q == ratio and self.basis[i] < self.basis[r]):
                        r, ratio = i, q
            if r is None:
                return ("unbounded", j)
            if ratio == 0:
                degenerate += 1
                if degenerate > DEGENERATE_LIMIT:
                    bland = True
            else:
                degenerate = 0
            self.pivot(r, j)


def solve(lp: LinearProgram) -> LPSolution:
    """Solve ``lp`` exactly (two-phase simplex); see the module docstring for the certificates returned.

    The tableau's size is checked first (:func:`require_lp_size`: ``max_work``, ``max_memory``).
    """
    n = lp.n
    require_lp_size(n, len(lp.A_ub) + len(lp.A_eq), 1, "solve")
    rows_in = [(row, b, "ub") for row, b in zip(lp.A_ub, lp.b_ub)] + \
              [(row, b, "eq") for row, b in zip(lp.A_eq, lp.b_eq)]
    m = len(rows_in)
    n_ub = len(lp.A_ub)
    # columns: x (n) | slacks (n_ub) | artificials (one per row needing one)
    sigma = [(-1 if b < 0 else 1) for _, b, _ in rows_in]
    need_art = [kind == "eq" or s < 0 for (_, _, kind), s in zip(rows_in, sigma)]
    art_col, k = {}, n + n_ub
    for i in range(m):
        if need_art[i]:
            art_col[i] = k
            k += 1
    ncols = k
    T, basis, init_col = [], [], []
    for i, (row, b, kind) in enumerate(rows_in):
        s = sigma[i]
        t = [(v if s > 0 else -v) for v in row] + [ZERO] * (ncols - n) + [b if s > 0 else -b]
        if kind == "ub":
            t[n + i] = fmpq(s)
        if need_art[i]:
            t[art_col[i]] = fmpq(1)
            basis.append(art_col[i])
        else:
            basis.append(n + i)
        init_col.append(basis[-1])
        T.append(t)
    tab = _Tableau(T, basis, ncols)
    is_art = [False] * ncols
    for c in art_col.values():
        is_art[c] = True

    def multipliers() -> list[Any]:
        # w_i = cost(init_col_i) − d(init_col_i); y_i = σ_i w_i.  Phase costs of init columns are 0 in
        # phase 2 and −1 for artificials in phase 1 (handled by the caller through `cost`).
        return [sigma[i] * (tab.cost[init_col[i]] - tab.d[init_col[i]]) for i in range(m)]

    if art_col:
        cost1 = [ZERO] * ncols
        for c in art_col.values():
            cost1[c] = fmpq(-1)
        tab.cost = cost1
        tab.set_objective(cost1)
        tab.run([True] * ncols)
        if tab.d[-1] != 0:  # optimum of −Σ art is −(−z)... value z = −d[-1] < 0: infeasible
            y = multipliers()
            return LPSolution("infeasible", y_ub=tuple(y[:n_ub]), y_eq=tuple(y[n_ub:]), pivots=tab.pivots)
        # drive remaining (zero-level) artificials out of the basis where their row allows it
        for i in range(m):
            if is_art[tab.basis[i]]:
                j = next((k for k in range(n + n_ub) if tab.T[i][k] != 0), None)
                if j is not None:
                    tab.pivot(i, j)
    cost2 = list(lp.c) + [ZERO] * (ncols - n)
    tab.cost = cost2
    tab.set_objective(cost2)
    allowed = [not is_art[j] for j in range(ncols)]
    status = tab.run(allowed)
    x = [ZERO] * ncols
    for i, b in enumerate(tab.basis):
        x[b] = tab.T[i][-1]
    if status != "optimal":
        j = status[1]
        ray = [ZERO] * ncols
        ray[j] = fmpq(1)
        for i, b in enumerate(tab.basis):
            ray[b] = -tab.T[i][j]
        return LPSolution("unbounded", x=tuple(x[:n]), ray=tuple(ray[:n]), pivots=tab.pivots)
    y = multipliers()
    value = _dot(lp.c, x[:n])
    return LPSolution("optimal", value=value, x=tuple(x[:n]), y_ub=tuple(y[:n_ub]), y_eq=tuple(y[n_ub:]),
                      pivots=tab.pivots)
