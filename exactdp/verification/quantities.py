r"""Independent (brute-force) routes to the core quantities, used to cross-check them in proofs.

Each function computes a quantity of the exact core a *second* way, straight from its definition, so a
claim such as "E_γ(P‖Q) = max_A [P(A) − γQ(A)]" (D-2) or "the closed form of C(K, Q_X(c)) equals the
minimum over the vertices of Q_X(c)" (D-9) is checked by two implementations that share no code.
Exponential in the alphabet size: small instances only.
"""

from __future__ import annotations

import itertools

import sympy
from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures.divergences import hockey_stick
from exactdp.numbers.qq import ONE, ZERO
from exactdp.verification.instances import prior_vertices


def subsets(n: int):
    """Every subset of {0, ..., n−1} as a tuple (2^n of them)."""
    for r in range(n + 1):
        yield from itertools.combinations(range(n), r)


def hockey_stick_by_subsets(P, Q, gamma) -> fmpq:
    """max_A [P(A) − γ Q(A)] over all 2^M subsets A (D-2: E_γ as a supremum over events)."""
    return max(sum((P[y] - gamma * Q[y] for y in A), ZERO) for A in subsets(len(P)))


def is_ldp_by_subsets(K: Kernel, gamma, delta) -> bool:
    """K(A|x) ≤ γ K(A|x') + δ for every event A and inputs x, x' (D-6, [A] §I-C), by enumeration."""
    for A in subsets(K.M):
        mass = [sum((K[x, y] for y in A), ZERO) for x in range(K.N)]
        if max(mass) > gamma * min(mass) + delta:
            # the max over x and min over x' is the worst pair for this A
            return False
    return True


def ldp_ratio_by_pairs(K: Kernel):
    """max over y, x, x' of K(y|x)/K(y|x') with a/0 = ∞ for a > 0 and 0/0 skipped (D-5), by enumeration."""
    best = ONE
    for y in range(K.M):
        for x in range(K.N):
            for x2 in range(K.N):
                a, b = K[x, y], K[x2, y]
                if a == 0:
                    continue
                if b == 0:
                    return sympy.oo
                best = max(best, a / b)
    return best


def pml_ratio_by_vertices(K: Kernel, c) -> fmpq:
    """sup over P in Q_X(c), y of max_{x ∈ supp P} K(y|x)/(K∘P)(y), over the vertices of Q_X(c) (D-9).

    (K∘P)(y) is linear in P, so its minimum over the polytope Q_X(c) is at a vertex c𝟙 + (1−Nc)e_x.
    """
    best = None
    for P in prior_vertices(K.N, c):
        out = K.apply(P)
        for y in range(K.M):
            if out[y] == 0:
                continue
            top = max(K[x, y] for x in P.support)
            r = top / out[y]
            best = r if best is None or r > best else best
    assert best is not None  # some output has positive probability under any prior
    return best


def pml_by_bayes(K: Kernel, P: Distribution, y: int) -> fmpq:
    """max_{x ∈ supp P} P_{X|Y=y}(x)/P_X(x) = exp D_∞(P_{X|Y=y} ‖ P_X) ([G] Prop. 1, second form)."""
    out = K.apply(P)[y]
    return max((P[x] * K[x, y] / out) / P[x] for x in P.support)


def gain_leakage_ratio(K: Kernel, P: Distribution, y: int, G) -> fmpq:
    """The PML gain ratio for one non-negative gain matrix G[x][w] ([G] Def. 1, D-8):

    sup_{P_W|Y} E[g(X,W)|Y=y] / max_w E[g(X,w)] = max_w Σ_x P(x|y) G[x][w] / max_w Σ_x P(x) G[x][w].
    """
    out = K.apply(P)[y]
    W = len(G[0])
    post = [P[x] * K[x, y] / out for x in range(K.N)]
    num = max(sum((post[x] * G[x][w] for x in range(K.N)), ZERO) for w in range(W))
    den = max(sum((P[x] * G[x][w] for x in range(K.N)), ZERO) for w in range(W))
    return num / den


def privacy_loss_tail(p, q, gamma) -> fmpq:
    """P_{Y~p}[ log p(Y)/q(Y) > log γ ] = Σ_{y : p(y) > γ q(y)} p(y) (the informal loss of [A] §I-C, A-1)."""
    return sum((p[y] for y in range(len(p)) if p[y] > gamma * q[y]), ZERO)


def joint_product(joint) -> tuple[list, list]:
    """For a joint matrix J[a][b], the flattened joint and the flattened product of its marginals."""
    A, B = len(joint), len(joint[0])
    pa = [sum(joint[a], ZERO) for a in range(A)]
    pb = [sum((joint[a][b] for a in range(A)), ZERO) for b in range(B)]
    flat = [joint[a][b] for a in range(A) for b in range(B)]
    prod = [pa[a] * pb[b] for a in range(A) for b in range(B)]
    return flat, prod


def e_gamma_information(joint, gamma) -> fmpq:
    """I_γ(θ;X) = E_γ(P_{θX} ‖ P_θ ⊗ P_X) for a joint matrix J[θ][x] (D-14, [RECON])."""
    flat, prod = joint_product(joint)
    return hockey_stick(Distribution.from_exact_probs(tuple(flat), False), Distribution.from_exact_probs(tuple(prod), False), gamma)


def push_joint(joint, K: Kernel) -> list[list]:
    """The joint of (θ, Z) when Z ~ K(·|X) and J[θ][x] is the joint of (θ, X)."""
    return [[sum((row[x] * K[x, z] for x in range(K.N)), ZERO) for z in range(K.M)] for row in joint]


def lemma2_pair(N: int, c, x: int, x2: int) -> tuple[Distribution, Distribution]:
    """P, Q in Q_X(c) with P − Q = s (e_x − e_{x'}), s = 2(1/N − c) the largest step (G-14, c < 1/N)."""
    u = fmpq(1, N)
    s = 2 * (u - c)
    P = [u + (s / 2 if k == x else -s / 2 if k == x2 else ZERO) for k in range(N)]
    Q = [u + (s / 2 if k == x2 else -s / 2 if k == x else ZERO) for k in range(N)]
    return Distribution.from_exact_probs(tuple(P), False), Distribution.from_exact_probs(tuple(Q), False)


def merge_outputs(K: Kernel, A) -> Kernel:
    """The binary kernel (K(A|x), K(Aᶜ|x)) — post-processing by the indicator of A."""
    rows = []
    for x in range(K.N):
        a = sum((K[x, y] for y in A), ZERO)
        rows.append((a, 1 - a))
    return Kernel.from_exact_rows(rows, False)
