"""B-8 for every N, M: the certificates check TRUE, edited versions are FALSE, and the reduction they rest on (the
law of total variance in pair form, the pair-coefficient bound) holds exactly on random kernels; binary
randomized response at the uniform prior attains the bound."""

import dataclasses
import json
import random

import pytest
from flint import fmpq

from exactdp.algebra.certificates import Certificate
from exactdp.cli import main
from exactdp.measures.divergences import chi2
from exactdp.measures.privacy import ldp_ratio
from exactdp.mechanisms import binary_randomized_response
from exactdp.distributions import Distribution
from exactdp.numbers.truth import Truth
from exactdp.theory.chi2_certificates import asoodeh_zhang, contraction, pair_coefficient, summands
from exactdp.verification import instances as inst


def test_the_certificates_check():
    for cert in asoodeh_zhang():
        assert cert.check().truth is Truth.TRUE, cert.name
        assert Certificate.from_json(json.loads(json.dumps(cert.to_json()))) == cert
    assert contraction().scope == "all N, M; t >= 1"
    assert set(contraction().uses) == {summands().name, pair_coefficient().name}


def _edited(cert, i: int, **change):
    sts = list(cert.statements)
    label, lhs, op, rhs, conds = sts[i]
    sts[i] = (label, change.get("lhs", lhs), change.get("op", op), change.get("rhs", rhs), change.get("conds", conds))
    return dataclasses.replace(cert, statements=tuple(sts))


def test_a_stronger_bound_is_rejected():
    """κ = 4t/(t + 1)² is the most the pair coefficient gives: claiming BC² ≥ 2T/(T² + 1) (the unsquared value,
    above κ for T > 1) is FALSE, and a conclusion with the cube of (t − 1)/(t + 1) is not accepted either."""
    pc = pair_coefficient()
    assert _edited(pc, 6, rhs="2*T/(T**2 + 1)").check().truth is Truth.FALSE
    lc = contraction()
    stronger = dataclasses.replace(lc, conclusion="X*(t - 1)**3/(t + 1)**3 - Y")
    assert stronger.check().truth is not Truth.TRUE


def test_the_chord_needs_the_ldp_range():
    """Without ρ ≤ T the concave √ falls below its chord (ρ > T): FALSE; so the rows' t-LDP is used."""
    assert _edited(pair_coefficient(), 3, conds=("rho >= 1/T",)).check().truth is Truth.FALSE


def test_the_pair_summand_needs_nonnegative_weights():
    """Z ≥ κX term by term needs P(x), P(x′) ≥ 0 and c ≥ κ: without c ≥ κ the summand inequality is FALSE."""
    assert _edited(summands(), 5, conds=("Px >= 0", "Pxp >= 0")).check().truth is Truth.FALSE


def _reduction(rows, P, Q):
    """X = χ²(Q‖P), Y = χ²(KQ‖KP), Z = ½ Σ P(x)P(x′)(g(x) − g(x′))² c_{xx′} and the pair coefficients c_{xx′},
    exactly (P of full support)."""
    N, M = len(rows), len(rows[0])
    g = [Q[x] / P[x] - 1 for x in range(N)]
    m = [sum(P[x] * rows[x][y] for x in range(N)) for y in range(M)]
    c = {(x, z): sum(rows[x][y] * rows[z][y] / m[y] for y in range(M) if m[y] != 0)
         for x in range(N) for z in range(N)}
    X = sum(P[x] * g[x] ** 2 for x in range(N))
    Y = sum((sum(P[x] * g[x] * rows[x][y] for x in range(N))) ** 2 / m[y] for y in range(M) if m[y] != 0)
    Z = sum(P[x] * P[z] * (g[x] - g[z]) ** 2 * c[x, z] for x in range(N) for z in range(N)) / 2
    return X, Y, Z, c


@pytest.mark.parametrize("N, M", [(2, 3), (3, 2), (3, 4), (4, 3), (5, 5)])
def test_the_reduction_holds_exactly_on_random_kernels(N, M):
    """The hypotheses of the written statement on exact random instances: X − Y = Z (the law of total variance in
    pair form), every c_{xx′} ≥ 4t/(t + 1)² at t = ldp_ratio(K), hence Y ≤ ((t − 1)/(t + 1))² X; X and Y agree with
    the library's χ²."""
    rng = random.Random(f"b8-{N}-{M}")
    for _ in range(15):
        K = inst.random_kernel(rng, N, M, 9, full_support=True)
        P = inst.random_distribution(rng, N, 9, full_support=True)
        Q = inst.random_distribution(rng, N, 9)
        t = ldp_ratio(K)
        X, Y, Z, c = _reduction(K.rows, P.probs, Q.probs)
        assert (X, Y) == (chi2(Q, P), chi2(K.apply(Q), K.apply(P)))
        assert X - Y == Z
        kappa = 4 * t / (t + 1) ** 2
        assert min(c.values()) >= kappa
        assert Y <= ((t - 1) / (t + 1)) ** 2 * X


def test_binary_randomized_response_attains_the_bound():
    """At P = (1/2, 1/2) the pair coefficient of RR is exactly κ and the ratio Y/X is ((t − 1)/(t + 1))²."""
    for t in (fmpq(2), fmpq(7, 3), fmpq(11)):
        K = binary_randomized_response(t)
        P = Distribution.from_exact_probs((fmpq(1, 2), fmpq(1, 2)), False)
        Q = Distribution.from_exact_probs((fmpq(3, 4), fmpq(1, 4)), False)
        X, Y, Z, c = _reduction(K.rows, P.probs, Q.probs)
        assert c[0, 1] == 4 * t / (t + 1) ** 2
        assert Y / X == ((t - 1) / (t + 1)) ** 2


def test_check_uses_the_exact_coefficient(capsys):
    """`check` evaluates eta_chi2 / eta_kl exactly: the cube of the bound is refuted by binary RR at e^eps = 2."""
    code = main(["check", "eta_kl <= ((exp(eps)-1)/(exp(eps)+1))^3", "--class", "ldp", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)["result"]
    assert code == 1 and doc["verdict"] == "refuted"
    ce = doc["counterexample"]
    assert ce["rows"] == [["2/3", "1/3"], ["1/3", "2/3"]] and (ce["lhs"], ce["rhs"]) == ("1/9", "1/27")
    code = main(["check", "eta_chi2 <= ((exp(eps)-1)/(exp(eps)+1))^2", "--class", "ldp", "--format", "json",
                 "--budget", "60"])
    doc = json.loads(capsys.readouterr().out)["result"]
    assert code == 0 and doc["verdict"] == "no-counterexample"
