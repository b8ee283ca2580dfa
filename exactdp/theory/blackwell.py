r"""Blackwell domination of kernels, decided exactly: K₂ = K₁·W for a Markov kernel W, or a separating loss.

K₁ (N × M₁) *dominates* K₂ (N × M₂, the same inputs) when K₂ is a post-processing (garbling) of K₁:
K₂ = K₁W for a row-stochastic M₁ × M₂ matrix W.  Then every data-processing quantity of K₂ is at most
that of K₁ — η_{E_γ}, η_TV, and those of the n-fold products, since K₂^{⊗n} = K₁^{⊗n} W^{⊗n}.

**Decision.**  The W are the feasible points of the exact LP (variables W ≥ 0)

    Σ_r K₁(r|x) W(y|r) = K₂(y|x)  for every (x, y),      Σ_y W(y|r) = 1  for every r,

solved by the project's exact simplex (:mod:`exactdp.algebra.lp`).  Feasible: W is returned and re-checked
by exact matrix multiplication.  Infeasible: the simplex's Farkas multipliers (G for the first block, u for
the second) satisfy Σ_x K₁(r|x)G(x,y) + u_r ≥ 0 and ⟨G, K₂⟩ + Σ_r u_r < 0, hence for every Markov W

    ⟨G, K₁W⟩ = Σ_{r,y} W(y|r) (K₁ᵀG)(r,y) ≥ Σ_r min_y (K₁ᵀG)(r,y) ≥ −Σ_r u_r > ⟨G, K₂⟩.

Read as a loss G(x, y) for answering y at input x (summed over inputs), K₂ achieves a loss that no
post-processing of K₁ can reach: the decision-theoretic side of Blackwell's theorem.  The certificate is
re-checked without the LP: ``Σ_r min_y (K₁ᵀG)(r,y) > ⟨G, K₂⟩`` exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq

from exactdp.algebra.lp import LinearProgram, certificate_failures, solve
from exactdp.errors import ShapeError
from exactdp.kernels import Kernel, as_kernel
from exactdp.numbers.qq import ONE, ZERO


@dataclass(frozen=True)
class Domination:
    """Whether ``K1`` dominates ``K2`` (K2 = K1·W), with its exact certificate.

    ``post_processing`` is W when it does (an M₁ × M₂ Markov kernel); ``loss`` is the separating loss G
    (N × M₂ rationals) when it does not, and ``separation`` = (min over W of ⟨G, K1·W⟩, ⟨G, K2⟩), the first
    strictly larger.
    """

    K1: Kernel
    K2: Kernel
    dominates: bool
    post_processing: Kernel | None
    loss: tuple[tuple[fmpq, ...], ...] | None
    separation: tuple[fmpq, fmpq] | None
    lp: LinearProgram
    pivots: int

    def failures(self) -> list[str]:
        """Everything that fails to re-check exactly (empty: the answer is proved)."""
        if self.dominates:
            W = self.post_processing
            assert W is not None
            bad = [f"W row {r} sums to {sum(row, ZERO)}" for r, row in enumerate(W.rows) if sum(row, ZERO) != 1]
            bad += [f"W[{r}][{y}] = {v} < 0" for r, row in enumerate(W.rows) for y, v in enumerate(row) if v < 0]
            if not bad and (self.K1 @ W).rows != self.K2.rows:
                bad.append("K1 @ W != K2")
            return bad
        assert self.loss is not None
        reachable, achieved = separation(self.K1, self.K2, self.loss)
        if not reachable > achieved:
            return [f"loss does not separate: min_W <G, K1 W> = {reachable} <= <G, K2> = {achieved}"]
        return []

    def certified(self) -> bool:
        return not self.failures()


def separation(K1: Kernel, K2: Kernel, G) -> tuple[fmpq, fmpq]:
    """(min over Markov W of ⟨G, K1·W⟩, ⟨G, K2⟩), exactly: the minimum is Σ_r min_y (K1ᵀG)(r, y), a W that
    sends every output r of K1 to an output y of least loss."""
    low = ZERO
    for r in range(K1.M):
        low += min(sum((K1[x, r] * G[x][y] for x in range(K1.N)), ZERO) for y in range(K2.M))
    got = sum((K2[x, y] * G[x][y] for x in range(K2.N) for y in range(K2.M)), ZERO)
    return low, got


def blackwell_domination(K1, K2) -> Domination:
    r"""Decide exactly whether K2 is a post-processing K1·W of K1 (same inputs), with W or a separating loss.

    >>> from exactdp import Kernel
    >>> d = blackwell_domination(Kernel([["3/4", "1/4"], ["1/4", "3/4"]]), Kernel([["5/8", "3/8"], ["3/8", "5/8"]]))
    >>> d.dominates, d.post_processing.rows, d.certified()
    (True, ((3/4, 1/4), (1/4, 3/4)), True)
    >>> blackwell_domination(Kernel([["5/8", "3/8"], ["3/8", "5/8"]]), Kernel([["3/4", "1/4"], ["1/4", "3/4"]])).dominates
    False

    The LP has M₁·M₂ variables and N·M₂ + M₁ equality rows; its size is refused beyond ``max_work`` /
    ``max_memory`` (:func:`exactdp.algebra.lp.require_lp_size`, called by the solver).
    """
    K1, K2 = as_kernel(K1, "K1"), as_kernel(K2, "K2")
    if K1.symbolic or K2.symbolic:
        raise ShapeError("K1, K2: Blackwell domination needs rational kernels (domain QQ)")
    if K1.N != K2.N:
        raise ShapeError(f"K2: must have the inputs of K1 ({K1.N} rows), got {K2.N} rows")
    R, M, N = K1.M, K2.M, K1.N

    def var(r: int, y: int) -> int:
        return r * M + y

    A_eq, b_eq = [], []
    for x in range(N):
        for y in range(M):
            row = [ZERO] * (R * M)
            for r in range(R):
                row[var(r, y)] = K1[x, r]
            A_eq.append(row)
            b_eq.append(K2[x, y])
    for r in range(R):
        row = [ZERO] * (R * M)
        for y in range(M):
            row[var(r, y)] = ONE
        A_eq.append(row)
        b_eq.append(ONE)
    lp = LinearProgram([ZERO] * (R * M), (), (), A_eq, b_eq)
    sol = solve(lp)
    if sol.status == "optimal":
        W = Kernel.from_exact_rows([[sol.x[var(r, y)] for y in range(M)] for r in range(R)])
        out = Domination(K1, K2, True, W, None, None, lp, sol.pivots)
    else:
        if sol.status != "infeasible" or certificate_failures(lp, sol):  # pragma: no cover - a solver bug
            raise RuntimeError(f"internal error: the domination LP is {sol.status} without a valid certificate")
        G = tuple(tuple(sol.y_eq[x * M + y] for y in range(M)) for x in range(N))
        out = Domination(K1, K2, False, None, G, separation(K1, K2, G), lp, sol.pivots)
    return out
