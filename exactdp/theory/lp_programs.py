r"""The exact LPs over a privacy class of N×M kernels, shared by the rational and the parametric solvers.

The class polytope ((ε,c)-PML, [G] Def. 2, D-9; (ε,δ)-LDP, [A] D-6) is written once, as affine
constraints in the free entries of K (the last output column eliminated, K(M−1|x) = 1 − Σ_{y<M−1} K(y|x)):

* :class:`Entries` — the variables and the affine expressions of the entries (optionally one shared row
  block for inputs 2 … N−1, ``reduce_rows``);
* :func:`class_rows` — the rows ``coeffs·v ≤ rhs`` of the class, t, c, δ rational or sympy symbols;
* :func:`gamma_program` — the Charnes–Cooper LP of Γ_max / Γ_min ([G] Lemma 4, D-12);
* :func:`require_size` — the size guard, from N and M alone, before any row is built.

:mod:`exactdp.theory.extremal` solves these LPs over ℚ, :mod:`exactdp.theory.parametric` with symbolic
parameters (the module docstring of :mod:`exactdp.theory.extremal` derives them).
"""

from __future__ import annotations

import itertools

from exactdp.algebra.lp import require_lp_size
from exactdp.errors import ParameterError
from exactdp.numbers.qq import ONE, ZERO


def integer_size(v, name: str, low: int = 2) -> int:
    """``v`` as a size: an int (not a bool) ≥ ``low``, else :class:`~exactdp.errors.ParameterError`."""
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise ParameterError(f"{name}: must be an integer >= {low}, got {v!r}")
    return v


# -- the class polytope as affine constraints in the free entries ----------------------------------------

class Entries:
    """Affine expressions of K(y|x) in the free variables v; column M−1 is 1 − Σ_{y<M−1} K(y|x).

    Each row block b has its own variables; ``mult[b]`` inputs share block b (``reduce_rows``).
    An affine expression is ``(coeffs: dict var -> fmpq, const: fmpq)``.
    """

    def __init__(self, N: int, M: int, reduce_rows: bool):
        self.N, self.M = N, M
        if reduce_rows and N > 3:
            self.block_of = [min(x, 2) for x in range(N)]
            self.mult = [1, 1, N - 2]
        else:
            self.block_of = list(range(N))
            self.mult = [1] * N
        self.nblocks = len(self.mult)
        self.nvars = self.nblocks * (M - 1)

    def var(self, b: int, y: int) -> int:
        return b * (self.M - 1) + y

    def entry_block(self, b: int, y: int):
        if y < self.M - 1:
            return {self.var(b, y): ONE}, ZERO
        return {self.var(b, k): -ONE for k in range(self.M - 1)}, ONE

    def column_sum(self, y: int):
        coeffs: dict = {}
        const = ZERO
        for b, m in enumerate(self.mult):
            co, k = self.entry_block(b, y)
            for v, a in co.items():
                coeffs[v] = coeffs.get(v, ZERO) + m * a
            const += m * k
        return coeffs, const

    def block_pairs(self):
        """Ordered pairs of blocks standing for pairs of distinct inputs."""
        for b, b0 in itertools.product(range(self.nblocks), repeat=2):
            if b != b0 or self.mult[b] >= 2:
                yield b, b0


def affine_sum(*terms):
    """Σ scale·(coeffs, const) over ``terms = [(scale, (coeffs, const)), ...]``."""
    coeffs, const = {}, ZERO
    for s, (co, k) in terms:
        for v, a in co.items():
            coeffs[v] = coeffs.get(v, ZERO) + s * a
        const += s * k
    return coeffs, const


def lp_size(N: int, M: int, c, reduce_rows: bool = False) -> tuple[int, int]:
    """(variables, rows) of the class LP that :class:`Entries` and :func:`class_rows` would build, from
    the sizes alone (nothing of size N is allocated; 2^M − 2 output subsets for LDP, capped)."""
    blocks = 3 if reduce_rows and N > 3 else N
    distinct = blocks * (blocks - 1)  # ordered pairs of distinct blocks
    if c is not None:
        pairs = distinct + (1 if blocks < N else 0)  # the shared block stands for >= 2 inputs
        return blocks * (M - 1), blocks + M * pairs
    subsets = (1 << M) - 2 if M <= 1000 else 1 << 1000
    return blocks * (M - 1), blocks + subsets * distinct


def require_size(N: int, M: int, c, lps: int, *, reduce_rows: bool = False, extra_vars: int = 0,
                  extra_rows: int = 0) -> None:
    """Refuse before any constraint is built when the exact LPs are too large."""
    cls = "(eps,c)-PML" if c is not None else "(eps,delta)-LDP"
    variables, rows = lp_size(N, M, c, reduce_rows)
    require_lp_size(variables + extra_vars, rows + extra_rows, lps, f"extremal: N = {N}, M = {M} over {cls}")


def class_rows(E: Entries, t, c, delta):
    """Rows (coeffs, rhs) of ``coeffs·v ≤ rhs`` describing the class (row masses included)."""
    rows = []

    def le0(expr):  # expr ≤ 0
        co, k = expr
        rows.append(({v: a for v, a in co.items() if a != 0}, -k))

    for b in range(E.nblocks):  # Σ_{y<M−1} K(y|x) ≤ 1, i.e. K(M−1|x) ≥ 0
        rows.append(({E.var(b, y): ONE for y in range(E.M - 1)}, ONE))
    if c is not None:
        rest = 1 - E.N * c
        for y in range(E.M):
            S = E.column_sum(y)
            for b, b0 in E.block_pairs():
                le0(affine_sum((ONE, E.entry_block(b, y)), (-t * c, S), (-t * rest, E.entry_block(b0, y))))
    else:
        for k in range(1, E.M):
            for A in itertools.combinations(range(E.M), k):
                for b, b0 in E.block_pairs():
                    if b == b0:
                        continue  # K(A|x) ≤ t K(A|x) + δ holds for t ≥ 1
                    le0(affine_sum(*[(ONE, E.entry_block(b, y)) for y in A],
                             *[(-t, E.entry_block(b0, y)) for y in A], (-ONE, ({}, delta))))
    return rows


def dense(rows, n):
    A = [[ZERO] * n for _ in rows]
    for i, (co, _) in enumerate(rows):
        for v, a in co.items():
            A[i][v] = a
    return A, [rhs for _, rhs in rows]


def gamma_program(E: Entries, t, c, sense: int):
    """The Charnes–Cooper LP data ``(objective, A_ub, b_ub, A_eq, b_eq)`` of Γ_max (sense +1) / Γ_min (−1),
    variables (u, τ); t and c rational or sympy symbols (the parametric LP of :mod:`exactdp.theory.parametric`)."""
    n = E.nvars + 1  # u, then tau
    tau = E.nvars
    rows = []
    for co, rhs in class_rows(E, t, c, ZERO):  # coeffs·v ≤ rhs  →  coeffs·u − rhs·τ ≤ 0
        r = [ZERO] * n
        for v, a in co.items():
            r[v] = a
        r[tau] = -rhs
        rows.append(r)
    rest = 1 - E.N * c
    S0 = E.column_sum(0)

    def out0(x):  # (K∘P_x)(0) with P_x = c𝟙 + (1−Nc)e_x, homogenized (no constant: y = 0 < M−1)
        co, _ = affine_sum((c, S0), (rest, E.entry_block(x, 0)))
        return [co.get(j, ZERO) for j in range(E.nvars)] + [ZERO]

    num, den = out0(0), out0(1)
    return [sense * a for a in num], rows, [ZERO] * len(rows), [den], [ONE]
