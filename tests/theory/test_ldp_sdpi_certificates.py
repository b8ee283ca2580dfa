"""B-7's E_γ form for every N, M: the certificates check TRUE, edited ones do not, and the bound they prove holds
(with equality where the docstring says) on exact instances."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from flint import fmpq

from exactdp import Kernel
from exactdp.distributions import Distribution
from exactdp.measures.divergences import hockey_stick, tv
from exactdp.mechanisms import binary_randomized_response
from exactdp.numbers.truth import Truth
from exactdp.theory import ldp_sdpi_certificates as Z


def test_every_certificate_checks():
    assert all(c.check().truth is Truth.TRUE for c in Z.e_gamma_form_certificates())


def test_a_smaller_coefficient_is_rejected():
    """(t − γ)/(t + 2) instead of (t − γ)/(t + 1): binary RR with point masses attains (t − γ)/(t + 1)."""
    c = Z.pair_bound_below_t()
    stronger = c.conclusion.replace("(t + 1)", "(t + 2)")
    assert stronger != c.conclusion
    assert dataclasses.replace(c, conclusion=stronger).check().truth is Truth.FALSE


def test_the_complement_constraint_is_needed():
    """Without ε-LDP on the complement of A the multipliers do not give the conclusion: the identity fails."""
    c = Z.pair_bound_below_t()
    cut = dataclasses.replace(c, constraints=c.constraints[:1], multipliers=c.multipliers[:1])
    assert cut.check().truth is Truth.FALSE


def test_the_beyond_case_needs_s_nonnegative():
    c = Z.pair_bound_beyond_t()
    assert dataclasses.replace(c, region=("t >= 1",)).check().truth is not Truth.TRUE


def _random_ldp_kernel(rng, N, M, t):
    while True:
        rows = []
        for _ in range(N):
            w = [rng.randint(4, 8) for _ in range(M)]  # entry ratios <= 2.8 < t
            rows.append([Fraction(v, sum(w)) for v in w])
        if all(r[y] <= t * s[y] for r in rows for s in rows for y in range(M)):
            return Kernel([[str(v) for v in r] for r in rows])


def test_the_proved_bound_on_exact_instances_and_its_tightness():
    """E_γ(KP‖KQ) ≤ (t − γ)₊/(t + 1)·TV(P, Q) exactly on random t-LDP kernels (N up to 4, t in [3, 5], γ in [1, 6]: both sides of t),
    and equality for binary RR with point masses at γ ≤ t."""
    rng = random.Random(7)
    for _ in range(60):
        t = Fraction(rng.randint(30, 50), 10)
        K = _random_ldp_kernel(rng, rng.randint(2, 4), rng.randint(2, 4), t)
        gamma = Fraction(rng.randint(10, 60), 10)
        P = Distribution([str(Fraction(v, 10)) for v in _split(rng, K.N)])
        Q = Distribution([str(Fraction(v, 10)) for v in _split(rng, K.N)])
        C = max(t - gamma, 0) / (t + 1)
        lhs = hockey_stick(K.apply(P), K.apply(Q), fmpq(gamma.numerator, gamma.denominator))
        assert lhs <= fmpq(C.numerator, C.denominator) * tv(P, Q)
    K = binary_randomized_response(fmpq(3))
    P, Q = Distribution.point(2, 0), Distribution.point(2, 1)
    for gamma in (fmpq(1), fmpq(2), fmpq(5, 2)):
        assert hockey_stick(K.apply(P), K.apply(Q), gamma) == (3 - gamma) / 4


def _split(rng, N):
    cuts = sorted(rng.randint(0, 10) for _ in range(N - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, 10])]


def test_the_f_form_certificates_check():
    assert all(c.check().truth is Truth.TRUE for c in Z.f_form_certificates())


def test_the_ratio_bound_needs_ldp_and_is_tight():
    """p ≤ t q fails without the ε-LDP constraint (identity broken) and with t replaced by a smaller level;
    binary RR at level t attains (KP)(0)/(KQ)(0) = t with point masses."""
    c = Z.ratio_bound()
    cut = dataclasses.replace(c, constraints=c.constraints[:2], multipliers=c.multipliers[:2])
    assert cut.check().truth is Truth.FALSE
    weaker = dataclasses.replace(c, conclusion=c.conclusion.replace("q*t", "q*(t + 1)/2"))
    assert weaker.conclusion != c.conclusion and weaker.check().truth is not Truth.TRUE
    K = binary_randomized_response(fmpq(3))
    KP, KQ = K.apply(Distribution.point(2, 0)), K.apply(Distribution.point(2, 1))
    assert KP[0] / KQ[0] == 3 and KQ[1] / KP[1] == 3


def test_a_wrong_coefficient_identity_is_rejected():
    """χ²'s coefficient (t − 1)²/t; (t − 1)²/(t + 1) in its place is not an identity."""
    c = Z.f_form_coefficients()
    rows = tuple((lab, lhs, op, rhs.replace("(t - 1)**2/t", "(t - 1)**2/(t + 1)"), conds)
                 for lab, lhs, op, rhs, conds in c.statements)
    assert rows != c.statements
    assert dataclasses.replace(c, statements=rows).check().truth is not Truth.TRUE


def test_the_f_form_coefficients_on_exact_instances():
    """The certified closed forms against the divergences of binary RR with point masses (where Binette and the
    TV bound are both tight): χ² exactly, (t − 1)²/t at t = 3 is 4/3; and the brute-force maximum of
    χ²(KP‖KQ)/TV(P, Q) over a grid of input pairs stays below it on random t-LDP kernels."""
    from exactdp.measures.divergences import chi2

    K = binary_randomized_response(fmpq(3))
    P, Q = Distribution.point(2, 0), Distribution.point(2, 1)
    assert chi2(K.apply(P), K.apply(Q)) == fmpq(4, 3)
    rng = random.Random(11)
    for _ in range(20):
        t = Fraction(rng.randint(30, 50), 10)
        K = _random_ldp_kernel(rng, rng.randint(2, 3), rng.randint(2, 3), t)
        P = Distribution([str(Fraction(v, 10)) for v in _split(rng, K.N)])
        Q = Distribution([str(Fraction(v, 10)) for v in _split(rng, K.N)])
        bound = (t - 1) ** 2 / t
        assert chi2(K.apply(P), K.apply(Q)) <= fmpq(bound.numerator, bound.denominator) * tv(P, Q)
