r"""The papers' statements in machine form, written once from docs/claims.md, in the variables of the reductions the
certificates use (:attr:`exactdp.verification.claims.Claim.written`).

Each function below returns one statement part for the claim that states it: the quantifier that reduces the
claim to finitely many real variables (``reduction``: every pair of rows x, x′ and output set A, with
a = K_x(A), b = K_{x′}(A) — η_TV(K) is the maximum of a − b, B-1), the class constraints as hypotheses, and the
conclusion as the paper states it (φ as 1 − e^{−ε}(1 − δ), Ξ's branch as (t − 1)/(t(1 − Nc) + 1), …), never the
text of a certificate.  The engine files each certificate of a proof under the first part its conclusion implies
(:func:`exactdp.verification.engine.filed_under`); the engine, ``exactdp recheck`` and ``recheck --smt`` each
decide that implication on the stated domain (a difference ≥ 0 there, an identity with the same two sides), so a
certificate that proves less than the written statement is rejected.  tests/proofs/test_statements.py checks
that no part is a copy of its certificate's relations.

Parameters: t = e^ε (t ≥ 1), δ ∈ [0, 1] for [A]; t ≥ 1, c > 0, u = Nc with 2c ≤ u ≤ 1 for [G].
"""

from __future__ import annotations

from exactdp.claim_statement import ClaimStatement

#: [A]'s parameters and their stated domain (t = e^eps, D-6)
LDP = ("t", "delta")
LDP_DOMAIN = ("t >= 1", "delta >= 0", "delta <= 1")

#: the two-point reduction of eta_TV (B-1): what a, b stand for
PAIR = ("every (eps,delta)-LDP kernel K (any N, M), every pair of rows x, x' and every output set A, with "
        "a = K_x(A), b = K_x'(A) (eta_TV(K) is the max of a - b over x, x', A, B-1)")

#: [A] D-6 on A (rows x, x') and on its complement (rows x', x), in a, b
LDP_ON_A_AND_COMPLEMENT = ("a <= t*b + delta", "1 - b <= t*(1 - a) + delta")


def phi_contraction(claim: str) -> ClaimStatement:
    """[A] A-7 (the phi-contraction lemma) as the pair bound: eta_TV(K) <= phi(eps, delta) = 1 - e^{-eps}(1 - delta)
    for (eps,delta)-LDP K, i.e. a - b <= 1 - (1 - delta)/t for every pair of rows and set."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=LDP, variables=("a", "b"), domain=LDP_DOMAIN,
                          hypotheses=LDP_ON_A_AND_COMPLEMENT, conclusions=("a - b <= 1 - (1 - delta)/t",),
                          reduction=PAIR)


#: the reduction of E_t(KP||KQ) <= delta E_t(P||Q) ([A] A-21(a)) to sums over the inputs
E_GAMMA_SUMS = ("every pair of input distributions P, Q with e = E_t(P||Q) and every output set A, with p = (P - tQ)_+, "
                "n = (tQ - P)_+ (masses e and e + t - 1), Ap = sum_x p(x) K_x(A), An = sum_x n(x) K_x(A), so that "
                "(KP)(A) - t (KQ)(A) = Ap - An; E_t(KP||KQ) is the max over A (event form); the hypothesis is "
                "[A] D-6 for every pair of rows weighted p(x) n(x') and summed")


def e_gamma_contraction(claim: str, level: str = "delta") -> tuple[ClaimStatement, ...]:
    """[A] Thm 1's (=>) direction (also [A] Thm 3's <= and B-1 at t = 1): E_t(KP||KQ) <= delta E_t(P||Q) for every
    P, Q when K satisfies D-6 at level ``level`` — as (KP)(A) - t(KQ)(A) <= delta e for every set A, e > 0 and
    e = 0 apart."""
    d = level
    positive = ClaimStatement(
        claim=claim, sizes="all N, M", parameters=("t", d, "e"), variables=("Ap", "An"),
        domain=("t >= 1", f"{d} >= 0", f"{d} <= 1", "e > 0", "e <= 1"),
        hypotheses=(f"t*e*An - (e + t - 1)*Ap + {d}*e*(e + t - 1) >= 0", "An >= 0"),
        conclusions=(f"Ap - An <= {d}*e",), reduction=E_GAMMA_SUMS + " (e > 0)")
    zero = ClaimStatement(
        claim=claim, sizes="all N, M", parameters=("t", d), variables=("Ap", "An"),
        domain=("t >= 1", f"{d} >= 0", f"{d} <= 1"), hypotheses=("Ap <= 0", "An >= 0"),
        conclusions=("Ap - An <= 0",), reduction=E_GAMMA_SUMS + " (e = 0: then p = 0, Ap = 0)")
    return positive, zero


def ldp_from_contraction(claim: str) -> ClaimStatement:
    """[A] Thm 1's (<=) direction: eta_t(K) <= delta gives [A] D-6, K_x(A) <= t K_x'(A) + delta for every pair of
    rows and set (the point masses at x, x' have E_t = 1)."""
    return ClaimStatement(
        claim=claim, sizes="all N, M", parameters=LDP, variables=("a", "b", "H", "eta"), domain=LDP_DOMAIN,
        hypotheses=("H >= a - t*b", "eta >= H", "eta <= delta"), conclusions=("a <= t*b + delta",),
        reduction="every pair of rows x, x' and output set A, a = K_x(A), b = K_x'(A), H = E_t(K_x||K_x') (event "
                  "form), eta = eta_t(K) >= H (point masses at x, x')")


def rows_bound(claim: str) -> ClaimStatement:
    """[A] Thm 3's (>=) side and B-1's: for every pair of rows and set, K_x(A) - t K_x'(A) <= E_t(K_x||K_x') <= D, the
    largest E_t over pairs of rows (the value of the two-point formula)."""
    return ClaimStatement(
        claim=claim, sizes="all N, M", parameters=("t",), variables=("a", "b", "H", "D"), domain=("t >= 1",),
        hypotheses=("H >= a - t*b", "D >= H"), conclusions=("a - t*b <= D",),
        reduction="every pair of rows x, x' and output set A, a = K_x(A), b = K_x'(A), H = E_t(K_x||K_x'), "
                  "D = max over pairs of rows of E_t(K_x||K_x') (the two-point formula)")
