r"""Exact LP certificates for the two-point formulas (B-1, B-2; [A] Thm 3 = Asoodeh–Diaz–Calmon).

Claim certified: for γ ≥ 1 and every P, Q,  E_γ(KP‖KQ) ≤ t·E_γ(P‖Q) with t = max_{x,x'} E_γ(K_x‖K_{x'}).

Since E_γ(KP‖KQ) = max_B [(KP)(B) − γ(KQ)(B)] and E_γ(P‖Q) = min{Σ_x u_x : u ≥ P − γQ, u ≥ 0}, the
inequality holds iff for every output set B the linear program

    maximise  Σ_{y∈B} Σ_x (p_x − γ q_x) K(y|x) − t Σ_x u_x
    over      p, q in the simplex, u ≥ 0, u_x ≥ p_x − γ q_x

has value ≤ 0 (P = Q gives 0).  Each LP is solved exactly over ℚ by :func:`exactdp.algebra.lp.solve`, and
its optimality certificate (primal vertex and dual solution with equal objective) is re-checked from the
problem data by :func:`exactdp.algebra.lp.check_certificate` — no trust in the solver.  2^M − 1 LPs per
kernel, so small N, M only.  Attainment of t by the point masses is checked by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.numbers.qq import ZERO, to_qq
from exactdp.numbers.truth import Truth
from exactdp.algebra.lp import LinearProgram, check_certificate, solve
from exactdp.verification.quantities import subsets

#: the exact LP solver behind the certificates (shown in the evidence)
SOLVER = "exactdp.algebra.lp (exact simplex; primal and dual certificates re-checked)"


@dataclass(frozen=True)
class LPCertificate:
    """The largest LP value over output sets B, the set and the maximizing (P, Q) (exact)."""

    value: fmpq
    B: tuple
    P: tuple
    Q: tuple
    lps: int
    certified: bool  # every LP's optimality certificate (primal + dual) re-checked from the data


def _solve(K: Kernel, g: fmpq, t: fmpq, B) -> tuple:
    N, one, zero = K.N, fmpq(1), ZERO
    A_eq = (tuple([one] * N + [zero] * (2 * N)), tuple([zero] * N + [one] * N + [zero] * N))
    A_ub = tuple(tuple([one if j == x else zero for j in range(N)] + [-g if j == x else zero for j in range(N)]
                       + [-one if j == x else zero for j in range(N)]) for x in range(N))
    mass = [sum((K[x, y] for y in B), ZERO) for x in range(N)]
    c = tuple(mass + [-g * m for m in mass] + [-t] * N)
    lp = LinearProgram(c=c, A_ub=A_ub, b_ub=(zero,) * N, A_eq=A_eq, b_eq=(one, one))
    sol = solve(lp)
    if sol.status != "optimal":
        raise ArithmeticError(f"two-point LP: status {sol.status} for output set {B}")
    ok = check_certificate(lp, sol) is Truth.TRUE
    return sol.value, tuple(sol.x[:N]), tuple(sol.x[N:2 * N]), ok


def two_point_lp_certificate(K: Kernel, gamma, t) -> LPCertificate:
    """max over B, P, Q of the E_γ-gap LP (see module docstring); ≤ 0 certifies η_γ(K) ≤ t."""
    g, t = to_qq(gamma, "gamma"), to_qq(t, "t")
    best: tuple | None = None
    count, certified = 0, True
    for B in subsets(K.M):
        if not B:
            continue
        val, P, Q, ok = _solve(K, g, t, B)
        count += 1
        certified &= ok
        if best is None or val > best[0]:
            best = (val, B, P, Q)
    assert best is not None  # K has an output: some B is non-empty
    val, B, P, Q = best
    return LPCertificate(val, B, P, Q, count, certified)
