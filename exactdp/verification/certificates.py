r"""Exact LP certificates for the two-point formulas (B-1, B-2; [A] Thm 3 = Asoodeh–Diaz–Calmon).

Claim certified: for γ ≥ 1 and every P, Q,  E_γ(KP‖KQ) ≤ t·E_γ(P‖Q) with t = max_{x,x'} E_γ(K_x‖K_{x'}).

Since E_γ(KP‖KQ) = max_B [(KP)(B) − γ(KQ)(B)] and E_γ(P‖Q) = min{Σ_x u_x : u ≥ P − γQ, u ≥ 0}, the
inequality holds iff for every output set B the linear program

    maximise  Σ_{y∈B} Σ_x (p_x − γ q_x) K(y|x) − t Σ_x u_x
    over      p, q in the simplex, u ≥ 0, u_x ≥ p_x − γ q_x

has value ≤ 0 (P = Q gives 0).  Each LP is solved exactly over ℚ by sympy's simplex
(``sympy.solvers.simplex.lpmax``); 2^M − 1 LPs per kernel, so small N, M only.  Attainment of t by the
point masses at the maximizing pair is checked separately by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from flint import fmpq
from sympy.solvers.simplex import lpmax

from exactdp.kernels import Kernel
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.verification.quantities import subsets


@dataclass(frozen=True)
class LPCertificate:
    """The largest LP value over output sets B, the set and the maximizing (P, Q) (exact)."""

    value: fmpq
    B: tuple
    P: tuple
    Q: tuple
    lps: int


def two_point_lp_certificate(K: Kernel, gamma, t) -> LPCertificate:
    """max over B, P, Q of E-γ-gap LP (see module docstring); ≤ 0 certifies η_γ(K) ≤ t."""
    g, t = qq_to_sympy(to_qq(gamma, "gamma")), qq_to_sympy(to_qq(t, "t"))
    N = K.N
    p = sympy.symbols(f"p0:{N}")
    q = sympy.symbols(f"q0:{N}")
    u = sympy.symbols(f"u0:{N}")
    cons = [sum(p) <= 1, sum(p) >= 1, sum(q) <= 1, sum(q) >= 1]
    cons += [u[x] >= p[x] - g * q[x] for x in range(N)]
    cons += [v >= 0 for v in (*p, *q, *u)]
    Ks = [[qq_to_sympy(K[x, y]) for y in range(K.M)] for x in range(N)]
    best = None
    count = 0
    for B in subsets(K.M):
        if not B:
            continue
        obj = sum((p[x] - g * q[x]) * Ks[x][y] for y in B for x in range(N)) - t * sum(u)
        val, sol = lpmax(obj, cons)
        count += 1
        if best is None or val > best[0]:
            best = (val, B, tuple(sol.get(v, 0) for v in p), tuple(sol.get(v, 0) for v in q))
    val, B, P, Q = best
    return LPCertificate(to_qq(val), B, tuple(to_qq(sympy.Rational(v)) for v in P),
                         tuple(to_qq(sympy.Rational(v)) for v in Q), count)
