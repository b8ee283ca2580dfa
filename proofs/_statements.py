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


#: [A] B-4 / A-7: the tight value of eta_TV over (eps,delta)-LDP kernels and the binary kernel attaining it
TIGHT = "(t - 1 + 2*delta)/(t + 1)"
PHI = "1 - (1 - delta)/t"


def tight_pair_bound(claim: str) -> ClaimStatement:
    """B-4's upper half: eta_TV(K) <= (e^eps - 1 + 2 delta)/(e^eps + 1) for every (eps,delta)-LDP K, as the pair
    bound a - b <= (t - 1 + 2 delta)/(t + 1)."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=LDP, variables=("a", "b"), domain=LDP_DOMAIN,
                          hypotheses=LDP_ON_A_AND_COMPLEMENT, conclusions=(f"a - b <= {TIGHT}",), reduction=PAIR)


def tight_attained(claim: str) -> ClaimStatement:
    """B-4's lower half: the binary kernel with rows ((t + delta)/(t + 1), (1 - delta)/(t + 1)) and its mirror is
    (eps,delta)-LDP ([A] D-6 on each output and its complement) and its rows differ by the tight value."""
    hi, lo = "(t + delta)/(t + 1)", "(1 - delta)/(t + 1)"
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=LDP, domain=LDP_DOMAIN, conclusions=(
        f"{hi} - {lo} == {TIGHT}",
        f"{hi} <= t*{lo} + delta", f"1 - {hi} <= t*(1 - {lo}) + delta",
        f"{lo} <= t*{hi} + delta", f"1 - {lo} <= t*(1 - {hi}) + delta"),
        reduction="the binary kernel K_0 = (hi, 1 - hi), K_1 = (lo, 1 - lo) with hi = (t + delta)/(t + 1), "
                  "lo = (1 - delta)/(t + 1)")


def phi_exceeds_tight(claim: str, with_le: bool = True) -> ClaimStatement:
    """A-7 vs B-4: phi(eps, delta) - (e^eps - 1 + 2 delta)/(e^eps + 1) = (1 - delta)(e^eps - 1)/(e^eps(e^eps + 1)),
    >= 0 (``with_le``), and > 0 for eps > 0, delta < 1."""
    gap = "(1 - delta)*(t - 1)/(t*(t + 1))"
    return ClaimStatement(claim=claim, parameters=LDP, domain=LDP_DOMAIN, conclusions=(
        f"{PHI} - {TIGHT} == {gap}",) + ((f"{TIGHT} <= {PHI}",) if with_le else ()) + (
        f"{PHI} - {TIGHT} > 0 when t > 1; delta < 1",))


def phi_n_levels(claim: str) -> ClaimStatement:
    """phi at the n-fold levels (e^{n eps}, 1 - (1 - delta)^n) is phi_n(eps, delta) = 1 - e^{-n eps}(1 - delta)^n
    (A-8, B-10)."""
    return ClaimStatement(claim=claim, sizes="all n >= 1", parameters=("t", "delta", "n"),
                          domain=(*LDP_DOMAIN, "n >= 1"),
                          conclusions=("1 - (1 - (1 - (1 - delta)**n))/t**n == 1 - (1 - delta)**n/t**n",))


#: B-10's two-fold step: what E, R, e1, e2 stand for
COMPOSITION = ("every two pairs (P_i, Q_i) with e_i = E_{t_i}(P_i||Q_i), m_i = min(P_i, t_i Q_i), r_i = (P_i - t_i Q_i)_+, "
               "E = E_{t1 t2}(P1 x P2||Q1 x Q2), R = sum over (y1, y2) of r1 P2 + m1 r2 (m1 x m2 <= t1 t2 Q1 x Q2)")


def composition(claim: str) -> tuple[ClaimStatement, ...]:
    """B-10 (composition, i = 0 term): E_{t1 t2}(P1 x P2||Q1 x Q2) <= 1 - (1 - e1)(1 - e2), and by induction on n,
    with heterogeneous levels, delta of the n-fold product <= 1 - prod (1 - delta_i)."""
    two = ClaimStatement(claim=claim, sizes="all N, M", parameters=("e1", "e2"), variables=("E", "R"),
                         domain=("e1 >= 0", "e1 <= 1", "e2 >= 0", "e2 <= 1"),
                         hypotheses=("E <= R", "R <= e1 + (1 - e1)*e2"),
                         conclusions=("E <= 1 - (1 - e1)*(1 - e2)",), reduction=COMPOSITION)
    step = ClaimStatement(claim=claim, sizes="all N, M", parameters=("pi", "d1", "e1"), variables=("E", "e"),
                          domain=("pi >= 0", "pi <= 1", "d1 >= 0", "d1 <= 1", "e1 >= 0", "e1 <= 1"),
                          hypotheses=("E <= 1 - (1 - e)*(1 - e1)", "e <= 1 - pi", "e1 <= d1"),
                          conclusions=("E <= 1 - pi*(1 - d1)",),
                          reduction="the induction step n -> n + 1: e = E_{Gamma_n} of the n-fold pair, "
                                    "pi = prod_{i <= n} (1 - delta_i) (hypothesis e <= 1 - pi), e1 = E_{t_{n+1}} of "
                                    "factor n + 1 (<= d1 = delta_{n+1}), E = E_{Gamma_{n+1}} (the two-fold bound)")
    return two, step


def bayes_risk(claim: str) -> ClaimStatement:
    """[A] Thm 2: R_B >= zeta (1 - e^eps L(zeta) - psi_n I_gamma(theta; X^n)), with the Markov, event-form, small-ball
    and strong-data-processing facts as hypotheses."""
    return ClaimStatement(
        claim=claim, sizes="all N, M", parameters=("t", "zeta", "psi", "L"), variables=("R", "G", "B", "Iz", "Ix"),
        domain=("t >= 1", "zeta > 0"),
        hypotheses=("R >= zeta*(1 - G)", "G <= t*B + Iz", "B <= L", "Iz <= psi*Ix"),
        conclusions=("R >= zeta*(1 - t*L - psi*Ix)",),
        reduction="every estimator and loss, R = the Bayes risk, G = P_{theta Z}(loss < zeta), B = (P_theta x P_Z) of "
                  "that event, L = L(zeta) the small-ball probability, Iz = I_t(theta; Z^n), Ix = I_t(theta; X^n), "
                  "psi = psi_n (delta for n = 1, phi^n beyond)")


def sample_size_crossing(claim: str) -> ClaimStatement:
    """A-10: 1 - e^{-eps} >= 4 (e^eps - 1)^2 exactly when e^eps <= (1 + sqrt 2)/2, i.e. 4 t (t - 1) <= 1 (t >= 1)."""
    return ClaimStatement(claim=claim, parameters=("t",), domain=("t >= 1",), conclusions=(
        "1 - 1/t >= 4*(t - 1)**2 when t >= 1; 4*t*(t - 1) <= 1",
        "1 - 1/t < 4*(t - 1)**2 when 4*t*(t - 1) > 1; t >= 1"),
        reduction="t = e^eps; e^eps <= (1 + sqrt(2))/2 is 4 t (t - 1) <= 1 for t >= 1")


#: B-7's E_gamma form reduced to sums over the inputs (as E_GAMMA_SUMS, with the parts of P - Q)
ZA_SUMS = ("every pair of input distributions P, Q with d = TV(P, Q) > 0 and every output set A, with "
           "p = (P - Q)_+, n = (Q - P)_+ (each of mass d), w = Min(P, Q), Bp = sum_x p(x) K_x(A), "
           "Bn = sum_x n(x) K_x(A), W = sum_x w(x) K_x(A), so that (KP)(A) - gamma (KQ)(A) = Bp - gamma Bn - "
           "(gamma - 1) W; E_gamma(KP||KQ) is the max over A (event form); the first hypothesis is the per-pair bound "
           "K_x(A) - gamma K_x'(A) <= (t - gamma)_+/(t + 1) (eps-LDP on A and its complement) weighted p(x) n(x') "
           "and summed, the second W >= 0")


def za_e_gamma_bound(claim: str) -> ClaimStatement:
    """B-7's E_gamma form: E_gamma(KP||KQ) <= (e^eps - gamma)_+/(e^eps + 1) TV(P, Q) for eps-LDP K and gamma >= 1, as
    (KP)(A) - gamma (KQ)(A) <= (t - gamma)_+/(t + 1) d for every set A (d = TV(P, Q) > 0; d = 0 is a step)."""
    za = "Max(t - gamma, 0)/(t + 1)"
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=("t", "gamma", "d"), variables=("Bp", "Bn", "W"),
                          domain=("t >= 1", "gamma >= 1", "d > 0", "d <= 1"),
                          hypotheses=(f"d*(d*{za} - Bp + gamma*Bn) >= 0", "W >= 0"),
                          conclusions=(f"Bp - gamma*Bn - (gamma - 1)*W <= {za}*d",), reduction=ZA_SUMS)


#: B-8 reduced to sums over the inputs (the law of total variance in pair form, exactdp.theory.chi2_certificates)
AZ_SUMS = ("every prior P (inputs restricted to its support) and Q << P, with g = Q/P - 1, X = chi2(Q||P) = "
           "sum_x P(x) g(x)^2, Y = chi2(KQ||KP) and Z = (1/2) sum_{x,x'} P(x) P(x') (g(x) - g(x'))^2 c_xx', "
           "c_xx' = sum_y K(y|x) K(y|x')/(KP)(y) (eta_chi2(K) is the sup of Y/X over X > 0); the first hypothesis is "
           "the law of total variance (an equality), the second c_xx' >= 4t/(t + 1)^2 for every pair of t-LDP rows "
           "(the squared Bhattacharyya coefficient of the rows is at least binary randomized response's) weighted "
           "and summed")


def az_chi2_bound(claim: str) -> ClaimStatement:
    """B-8: eta_chi2(K) <= ((e^eps - 1)/(e^eps + 1))^2 for eps-LDP K, as chi2(KQ||KP) <= ((t - 1)/(t + 1))^2 chi2(Q||P)
    for every prior P and Q << P (eta_chi2(K) is the sup of the ratio), with the law of total variance and the
    pair-coefficient bound as hypotheses."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=("t",), variables=("X", "Y", "Z"),
                          domain=("t >= 1",), hypotheses=("Y <= X - Z", "Z >= 4*t*X/(t + 1)**2"),
                          conclusions=("Y <= ((t - 1)/(t + 1))**2*X",), reduction=AZ_SUMS)


def ldp_ratio_bound(claim: str) -> ClaimStatement:
    """For eps-LDP K, every P, Q and output y: (KP)(y) <= e^eps (KQ)(y), so every ratio of KP to KQ lies in
    [e^-eps, e^eps] (with P, Q exchanged) — the range Binette's inequality needs (B-7's f form)."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=("t",), variables=("p", "q", "m", "k"),
                          domain=("t >= 1",), hypotheses=("p <= m", "q >= k", "m <= t*k"),
                          conclusions=("p <= t*q",),
                          reduction="every P, Q and output y, p = (KP)(y), q = (KQ)(y), m = max_x K(y|x), "
                                    "k = min_x K(y|x) (a mean lies between them); eps-LDP at the rows attaining m "
                                    "and k gives m <= t k")


def za_f_coefficients(claim: str) -> ClaimStatement:
    """B-7's f form: its coefficient (f(e^eps) + e^eps f(e^-eps))/(e^eps + 1) is eta_TV's (e^eps - 1)/(e^eps + 1)
    times Binette's coefficient at (e^-eps, e^eps), for every f; KL: eps (e^eps - 1)/(e^eps + 1), H^2:
    2 (sqrt(e^eps) - 1)^2/(e^eps + 1), chi^2: (e^eps - 1)^2/e^eps (t = e^eps > 1)."""
    def chain(f: str) -> str:
        return f"(t - 1)/(t + 1)*({f.format('1/t')}/(1 - 1/t) + {f.format('t')}/(t - 1))"
    kl, h2, chi2 = "({0})*log({0})", "(sqrt({0}) - 1)**2", "(({0}) - 1)**2"
    return ClaimStatement(claim=claim, parameters=("t",), domain=("t > 1",), conclusions=(
        chain("f({0})") + " == (f(t) + t*f(1/t))/(t + 1)",
        chain(kl) + " == log(t)*(t - 1)/(t + 1)",
        chain(h2) + " == 2*(sqrt(t) - 1)**2/(t + 1)",
        chain(chi2) + " == (t - 1)**2/t"),
        reduction="t = e^eps; f(x) = x log x (KL), (sqrt(x) - 1)^2 (H^2, no 1/2), (x - 1)^2 (chi^2)")


def binette_kl(g: str) -> str:
    """Binette's coefficient f(1/G)/(1 - 1/G) + f(G)/(G - 1) for f = x log x (B-6) equals log G."""
    return f"(1/{g})*log(1/{g})/(1 - 1/{g}) + {g}*log({g})/({g} - 1) == log({g})"


def binette_h2(g: str) -> str:
    """... for f = (sqrt x - 1)^2 (squared Hellinger without the 1/2 convention) equals 2 - 4/(sqrt G + 1)."""
    return f"(1/sqrt({g}) - 1)**2/(1 - 1/{g}) + (sqrt({g}) - 1)**2/({g} - 1) == 2 - 4/(sqrt({g}) + 1)"


def binette_tv(g: str) -> str:
    """... for f = |x - 1|/2 (TV; (x - 1)/2 at G > 1, (1 - x)/2 at 1/G) equals 1."""
    return f"(1 - 1/{g})/2/(1 - 1/{g}) + ({g} - 1)/2/({g} - 1) == 1"


def binette_at(claim: str, gamma: str = "M", also: tuple[str, ...] = (), which=(binette_kl, binette_h2, binette_tv)
               ) -> tuple[ClaimStatement, ...]:
    """B-6 specialised: Binette's coefficient at Gamma_min = 1/G, Gamma_max = G for the named f (``which``)."""
    g = gamma
    return (ClaimStatement(claim=claim, parameters=(g, *also), domain=(f"{g} > 1", *(f"{n} > 0" for n in also)),
                           conclusions=tuple(w(g) for w in which),
                           reduction=f"f(x) = x log x (KL), (sqrt(x) - 1)^2 (H^2), |x - 1|/2 (TV) at 1/{g} and {g}"),)


def hellinger_conventions(claim: str) -> tuple[ClaimStatement, ...]:
    """fg06: with f(x) = (sqrt x - 1)^2 the Binette coefficient at (1/M, M) is 2 - 4/(sqrt M + 1); with the 1/2
    convention f(x) = (sqrt x - 1)^2/2 it is half that."""
    return (ClaimStatement(claim=claim, parameters=("M",), domain=("M > 1",), conclusions=(
        "(1/sqrt(M) - 1)**2/(1 - 1/M) + (sqrt(M) - 1)**2/(M - 1) - (2 - 4/(sqrt(M) + 1)) == 0",)),
        ClaimStatement(claim=claim, parameters=("M",), domain=("M > 1",), conclusions=(
            "(1/sqrt(M) - 1)**2/(2*(1 - 1/M)) + (sqrt(M) - 1)**2/(2*(M - 1)) - (1 - 2/(sqrt(M) + 1)) == 0",)))


def phi_over_xi(claim: str) -> ClaimStatement:
    """x01: phi(eps, 0)/Xi(eps, 0) = 1 + e^{-eps}, with phi(eps, 0) = 1 - 1/E and Xi(eps, 0) = (E - 1)/(E + 1),
    E = e^eps > 1."""
    return ClaimStatement(claim=claim, parameters=("E",), domain=("E > 1",), conclusions=(
        "(1 - 1/E)/((E - 1)/(E + 1)) - (1 + 1/E) == 0",), reduction="E = e^eps")


# -- [G] -------------------------------------------------------------------------------------------------------

#: [G]'s parameters (u = N c) and the stated domain: t = e^eps >= 1, c > 0, 2c <= u = Nc <= 1
G_DOMAIN = ("t >= 1", "c > 0", "u >= 2*c", "u <= 1")
BRANCH = "(t - 1)/(t*(1 - u) + 1)"
#: the same in N, as the papers state it (N >= 2 inputs, 0 < c <= 1/N): the parts in N are carried by the
#: certificates in u through their instantiation at u = N*c (:func:`exactdp.verification.engine.instantiating`)
G_N = ("t", "c", "N")
G_N_DOMAIN = ("t >= 1", "c > 0", "N >= 2", "N*c <= 1")
BRANCH_N = "(t - 1)/(t*(1 - N*c) + 1)"

PML_PAIR = ("every (eps,c)-PML kernel K (any N, M), every pair of rows x, x' and output set A, with a = K_x(A), "
            "b = K_x'(A), S = sum_x K_x(A); the PML constraints ([G] D-9) summed over A and over A^c are the "
            "hypotheses; eta_TV(K) is the max of a - b (B-1)")


def pml_pair_bound(claim: str) -> ClaimStatement:
    """[G] Thm 3's bound for every (eps,c)-PML kernel: eta_TV(K) <= (e^eps - 1)/(e^eps(1 - Nc) + 1), in N."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N, variables=("a", "b", "S"),
                          domain=G_N_DOMAIN, hypotheses=("a <= t*(c*S + (1 - N*c)*b)",
                                                         "1 - b <= t*(N*c - c*S + (1 - N*c)*(1 - a))"),
                          conclusions=(f"a - b <= {BRANCH_N}",), reduction=PML_PAIR)


def tv_at_most_one(claim: str) -> ClaimStatement:
    """eta_TV <= 1: a row's mass of a set is in [0, 1]."""
    return ClaimStatement(claim=claim, sizes="all N, M", variables=("a", "b"), hypotheses=("a <= 1", "b >= 0"),
                          conclusions=("a - b <= 1",),
                          reduction="every kernel, pair of rows x, x' and set A, a = K_x(A), b = K_x'(A)")


def xi_regimes(claim: str) -> ClaimStatement:
    """[G] Thm 2 / Thm 3 (G-18, G-19): Xi's first branch is < 1 exactly when e^eps N c < 2, so Xi = 1 beyond; in N
    (its certificate, in u = N c, is carried here by an instantiation whose conditions are substituted too)."""
    return ClaimStatement(claim=claim, parameters=G_N, domain=G_N_DOMAIN, conclusions=(
        f"{BRANCH_N} < 1 when t*N*c < 2", f"{BRANCH_N} >= 1 when t*N*c >= 2"), reduction="u = N c")


def middle_row_achiever(claim: str) -> ClaimStatement:
    """[G] Thm 1's equality in the contraction regime: the middle-row achiever (q = N/2) has rows M = t(1 - Nc/2)/z and
    m = (1 - t Nc/2)/z, z = t(1 - Nc) + 1, with M - m = (t - 1)/(t(1 - Nc) + 1), m >= 0 and M <= 1 when t Nc <= 2; in N
    (its certificate, in u = N c, is carried here by an instantiation, its identity and conditions substituted)."""
    z = "(t*(1 - N*c) + 1)"
    M, m = f"t*(1 - N*c/2)/{z}", f"(1 - t*N*c/2)/{z}"
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=(*G_N, "k", "M", "m"), domain=G_N_DOMAIN,
                          conclusions=(f"{M} - {m} == {BRANCH_N}", f"{m} >= 0 when t*N*c <= 2",
                                       f"{M} <= 1 when t*N*c <= 2"),
                          reduction="the kernel with N/2 rows at M, N/2 at m (q = N/2)")


GAMMA = ("every P, Q in Q_X(c) and output y, p = (KP)(y), q = (KQ)(y), S = S_y = sum_x K(y|x), m = max_x K(y|x), "
         "k = min_x K(y|x) (Gamma_max is the max of p/q)")
_Q_X_N = ("p <= c*S + (1 - N*c)*m", "q >= c*S + (1 - N*c)*k")


def gamma_max_bound(claim: str) -> ClaimStatement:
    """[G] Lemma 4: Gamma_max(eps, c) <= (1 - Nc) e^eps + 1, as p <= ((1 - Nc) t + 1) q, in N."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N, variables=("p", "q", "S", "m", "k"),
                          domain=G_N_DOMAIN, hypotheses=(*_Q_X_N, "m <= t*(c*S + (1 - N*c)*k)", "k >= 0"),
                          conclusions=("p <= (t*(1 - N*c) + 1)*q",), reduction=GAMMA)


def gamma_max_closed(claim: str) -> tuple[ClaimStatement, ...]:
    """[G] Lemma 4's exact Gamma_max: <= (t(1 - Nc) + c)/(1 - (N - 1)c) (with S_y <= (N - 1) m + k), and
    <= (1 - (N - 1)c)/c = (1 - Nc)/c + 1 (with S_y >= m + (N - 1) k), the value at t = 1/c."""
    first = ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N,
                           variables=("p", "q", "S", "m", "k"), domain=G_N_DOMAIN,
                           hypotheses=(*_Q_X_N, "m <= t*(c*S + (1 - N*c)*k)", "S <= (N - 1)*m + k"),
                           conclusions=("p*(1 - N*c + c) <= (t*(1 - N*c) + c)*q",), reduction=GAMMA)
    top = ClaimStatement(claim=claim, sizes="all N, M", parameters=("c", "N"), variables=("p", "q", "S", "m", "k"),
                         domain=G_N_DOMAIN[1:], hypotheses=(*_Q_X_N, "S >= m + (N - 1)*k", "k >= 0"),
                         conclusions=("c*p <= (1 - N*c + c)*q",), reduction=GAMMA)
    return first, top


def post_processing(claim: str) -> tuple[ClaimStatement, ...]:
    """[G] appendix: post-processing keeps (eps,c)-PML (and eps-LDP): each output's constraint, weighted by
    w = L(z|y) >= 0 and summed over y (the aggregation lemma), is the constraint of K_L at z."""
    red = ("every output y with weight w = L(z|y) >= 0, k = K(y|x), k0 = K(y|x0), S = S_y; summed over y "
           "(aggregation lemma) this is the constraint of K_L at z")
    pml = ClaimStatement(claim=claim, sizes="all N, M", parameters=(*G_N, "w"), variables=("k", "k0", "S"),
                         domain=(*G_N_DOMAIN, "w >= 0"),
                         hypotheses=("k <= t*(c*S + (1 - N*c)*k0)",),
                         conclusions=("w*k <= t*(c*w*S + (1 - N*c)*w*k0)",), reduction=red)
    ldp = ClaimStatement(claim=claim, sizes="all N, M", parameters=("t", "w"), variables=("k", "k0"),
                         domain=("t >= 1", "w >= 0"), hypotheses=("k <= t*k0",), conclusions=("w*k <= t*w*k0",),
                         reduction=red)
    return pml, ldp


def zeros_per_column(claim: str) -> ClaimStatement:
    """[G] Lemma 1 (contrapositive): a column with l or more zeros and a positive maximum m forces
    t c (N - l) >= 1, i.e. eps >= -log((N - l) c)."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=("t", "c", "N", "l"), variables=("m", "S", "w"),
                          domain=("t >= 1", "c > 0", "N >= 2", "l >= 1", "l <= N - 1"),
                          hypotheses=("m <= t*c*S", "S <= w*m", "(N - l - w)*m >= 0"),
                          conclusions=("m <= t*c*(N - l)*m",),
                          reduction="every column y with z >= l zeros, m = max_x K(y|x) >= 0, S = S_y, w = N - z "
                                    "(PML at a zero entry: m <= t c S_y)")


def ldp_tv_eq13(claim: str) -> ClaimStatement:
    """[G] eq. (13) (related work): eta_TV(K) <= (e^eps - 1)/(e^eps + 1) for eps-LDP K (delta = 0)."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=LDP, variables=("a", "b"),
                          domain=("t >= 1", "delta >= 0", "delta <= 0"), hypotheses=LDP_ON_A_AND_COMPLEMENT,
                          conclusions=("a - b <= (t - 1)/(t + 1)",), reduction=PAIR + "; eps-LDP is delta = 0")


def ordering_gamma(claim: str) -> ClaimStatement:
    """[G] G-23 vs Lemma 4: (t(1 - Nc) + c)/(1 - (N - 1)c) <= (1 - Nc) t + 1 below the branch point t = 1/((N - 1)c),
    strictly when Nc < 1."""
    cond = "t >= 1; N >= 2; N*c <= 1; c*t <= 1; c*t*(N - 1) < 1"
    g1, g2 = "(c + t*(1 - N*c))/(1 - (N - 1)*c)", "t*(1 - N*c) + 1"
    return ClaimStatement(claim=claim, parameters=("N", "c", "t"), domain=("t >= 1", "c > 0", "N >= 2", "N*c <= 1"),
                          conclusions=(f"{g1} <= {g2} when {cond}", f"{g1} < {g2} when {cond}; N*c < 1"))


def xi_examples(claim: str) -> ClaimStatement:
    """[G] Example 2 / the introduction: Xi(log(15/(1 + 7Nc)), c) = 7/8 for every N >= 2 and 0 < c <= 1/N, and
    Xi(-log(3c), c) = (1 - 3c)/(1 - c) at N = 4 (the introduction's 4 x 4 kernel, 0 < c <= 1/4)."""
    def xi(N, t):
        return f"(({t}) - 1)/(({t})*(1 - {N}*c) + 1)"
    return ClaimStatement(claim=claim, parameters=("N", "c", "t"), domain=("c > 0", "N >= 2", "N*c <= 1", "t > 0"),
                          conclusions=(
        f"{xi('N', '15/(1 + 7*N*c)')} == 7/8", f"{xi(4, '1/(3*c)')} == (1 - 3*c)/(1 - c)"),
        reduction="t = e^eps at the example's eps")


def achiever_identities(claim: str) -> ClaimStatement:
    """[G] G-20: M = t(1 - c q)/(1 + t(1 - Nc)), m = (1 - t c q)/(1 + t(1 - Nc)) have M - m = (t - 1)/(t(1 - Nc) + 1)
    and both PML ratios equal t, with S = q M + (N - q) m."""
    z = "(t*(1 - N*c) + 1)"
    M, m = f"(t*(1 - c*q)/{z})", f"((1 - t*c*q)/{z})"
    S = f"(q*{M} + (N - q)*{m})"
    return ClaimStatement(claim=claim, parameters=("N", "c", "q", "t"), domain=("t >= 1", "c > 0", "N >= 2",
                                                                                 "N*c <= 1", "q > 0", "q < N"),
                          conclusions=(f"{M} - {m} == (t - 1)/{z}", f"{M}/(c*{S} + (1 - N*c)*{m}) == t",
                                       f"(1 - {m})/(c*(N - {S}) + (1 - N*c)*(1 - {M})) == t"),
                          reduction="the two-level kernel of G-20: q rows at M, N - q at m")


def pml_disjoint_rows(claim: str) -> ClaimStatement:
    """[G] Thm 2 (G-19): for e^eps N c >= 2 the kernel with N/2 rows (1, 0) and N/2 rows (0, 1) (eta_TV = 1) is
    (eps,c)-PML: an entry 1 against an entry 0 of its column (S_y = N/2) meets 1 <= t (c S_y + (1 - Nc) 0)."""
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N, domain=G_N_DOMAIN,
                          conclusions=("1 <= t*(N*c/2 + (1 - N*c)*0) when t*N*c >= 2",),
                          reduction="the kernel with disjoint rows, N/2 of each (c S_y = N c/2)")


def xi_threshold_and_limits(claim: str) -> tuple[ClaimStatement, ...]:
    """[G] G-19 / D-11: Xi's branch is 1 at e^eps = 2/(Nc), <= 1 below it and > 1 above (N real >= 2)."""
    branch = "(t - 1)/(t*(1 - N*c) + 1)"
    cond = "t >= 1; N >= 2; N*c <= 1"
    at = ClaimStatement(claim=claim, parameters=("N", "c", "t"), domain=("c > 0", "N >= 2", "N*c < 1", "t >= 1"),
                        conclusions=("(2/(N*c) - 1)/((2/(N*c))*(1 - N*c) + 1) == 1",))
    sides = ClaimStatement(claim=claim, parameters=("N", "c", "t"), domain=("c > 0", "N >= 2", "N*c <= 1", "t >= 1"),
                           conclusions=(f"{branch} <= 1 when {cond}; N*c*t <= 2", f"{branch} > 1 when {cond}; N*c*t > 2"))
    return at, sides


def xi_sign_identity(claim: str) -> ClaimStatement:
    """D-11: Xi's branch minus 1 is (gamma N c - 2)/(gamma(1 - Nc) + 1), so the branch is < 1 exactly below 2/(Nc)."""
    return ClaimStatement(claim=claim, parameters=("N", "c", "gamma"), domain=("gamma >= 1", "c > 0", "N >= 2",
                                                                               "N*c <= 1"), conclusions=(
        "(gamma - 1)/(gamma*(1 - N*c) + 1) - 1 - (gamma*N*c - 2)/(gamma*(1 - N*c) + 1) == 0",))


def achiever_feasibility(claim: str) -> tuple[ClaimStatement, ...]:
    """[G] G-20's achievers as docs/claims.md states them, in N, c and a real q (z = 1 + t(1 - Nc)):
    m = (1 - t c q)/z >= 0 when t c q <= 1, M = t(1 - c q)/z <= 1 when t c (N - q) <= 1, and M - m = (t - 1)/z,
    Xi's branch.  Carried by the instantiations at u = N c, alpha = c q of the certificates in alpha = c q, u = N c
    (:func:`exactdp.theory.pml_attainment.g20_feasibility`), which the engine files as steps with their definitions
    of m, M, z written out (:func:`exactdp.verification.engine.instantiating`, :data:`exactdp.theory.
    class_certificates.SUBSTITUTIONS`)."""
    z = "(1 + t*(1 - N*c))"
    m, M = f"(1 - t*c*q)/{z}", f"t*(1 - c*q)/{z}"
    red = "the two-level kernel of G-20: q rows (q real) at M, the other N - q at m"
    return (ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N, variables=("q",), domain=G_N_DOMAIN,
                           hypotheses=("t*c*q <= 1",), conclusions=(f"{m} >= 0",), reduction=red),
            ClaimStatement(claim=claim, sizes="all N, M", parameters=G_N, variables=("q",), domain=G_N_DOMAIN,
                           hypotheses=("t*c*(N - q) <= 1",), conclusions=(f"{M} <= 1",), reduction=red),
            ClaimStatement(claim=claim, sizes="all N, M", parameters=(*G_N, "q"), domain=G_N_DOMAIN,
                           conclusions=(f"{M} - {m} == {BRANCH_N}",), reduction=red))


def restricted_pair(claim: str) -> ClaimStatement:
    """[G] Lemma 2: for 0 < c < 1/N the pair P, Q = U +- (s/2)(e_x - e_x'), s = 1/N - c, lies in Q_X(c) (every entry
    in [c, 1]) with TV(P, Q) = s > 0, so the restricted sup reaches every pair's TV(K_x, K_x')."""
    cond = "c > 0; w > c; w <= 1/2"
    return ClaimStatement(claim=claim, sizes="all N, M", parameters=("N", "w", "c"),
                          domain=("c > 0", "w > c", "w <= 1/2"), conclusions=(
                              f"w - (w - c)/2 >= c when {cond}", f"w + (w - c)/2 <= 1 when {cond}",
                              f"w - c > 0 when {cond}"),
                          reduction="w = 1/N (N >= 2), s = w - c; the entries of P, Q are w and w +- s/2")


def product_prior_level(claim: str) -> ClaimStatement:
    """F-G11: the PML level of K1 (x) K2 over product priors P1 (x) P2 (P_i in Q(c_i)) is at most t1 t2: the leakage
    of an output (y1, y2) is the product r1 r2 of the factors' leakages (the output probability and the largest entry
    factor), and 0 <= r_i <= t_i, the factor's level (attained at the factors' worst outputs and priors)."""
    return ClaimStatement(
        claim=claim, sizes="all N, M", parameters=("v1", "v2"), variables=("u1", "u2"),
        domain=("v1 >= 1", "v2 >= 1"),
        hypotheses=("u1 >= 0", "u1 <= v1", "u2 <= v2", "v2*(v1 - u1) >= 0", "u1*(v2 - u2) >= 0"),
        conclusions=("u1*u2 <= v1*v2",),
        reduction="every output (y1, y2) and product prior P1 (x) P2, P_i in Q(c_i): u_i = r_i = max_x K_i(y_i|x)/"
                  "(K_i o P_i)(y_i) the factor's leakage, v_i = t_i its (eps, c_i)-PML level (so 0 <= u_i <= v_i, and "
                  "the products of the bounds by v2 >= 0 and u1 >= 0 are stated too); u1 u2 is the leakage of "
                  "(y1, y2) under P1 (x) P2")
