"""The all-N certificates of [G]'s attained values (exactdp.theory.pml_attainment): each checks TRUE and round
trips; the kernels they describe are, at exact points, (eps,c)-PML kernels with the stated eta_TV and output
ratio (computed by the library's own measures); tampered versions are refused by the engine and by recheck."""

import re
import dataclasses
import json

import pytest
from flint import fmpq

from exactdp import bounds
from exactdp.algebra.certificates import Certificate, check
from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures.contraction import eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import grosse_middle_row_mechanism
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.theory import pml_attainment as PA

REAL = PA.all_certificates()


@pytest.mark.parametrize("cert", REAL, ids=lambda c: c.name)
def test_certificates_check_true_and_round_trip(cert):
    result = check(cert)
    assert result.truth is Truth.TRUE, result.failures
    assert Certificate.from_json(json.loads(json.dumps(cert.to_json()))) == cert


def test_no_certificate_is_for_a_fixed_size():
    for cert in REAL:
        assert cert.scope.startswith("all N, M"), cert.scope
        if "N" in cert.parameters:  # only as the bound variable of a recorded substitution N = u/c, never free
            texts = [" ".join(map(str, st[1:4])) for st in cert.statements]
            assert all(", N, " in x for x in texts if re.search(r"\bN\b", x)), texts


@pytest.mark.parametrize("N", [2, 3, 4, 5, 7, 9])
def test_middle_row_achiever_attains_xi_at_exact_points(N):
    for c in (fmpq(1, N), fmpq(1, 2 * N), fmpq(1, 7 * N)):
        for t in (fmpq(1), fmpq(3, 2), 2 / (N * c) - fmpq(1, 100), 2 / (N * c)):
            if t < 1:
                continue
            K = grosse_middle_row_mechanism(N, t, c)
            assert pml_ratio(K, c) <= t
            assert eta_tv(K) == bounds.REGISTRY["xi"].at(t=t, c=c, N=N)


def _vertex(N, c, x):
    return Distribution([c + (1 - N * c if i == x else 0) for i in range(N)])


def _witness_kernel(N, t, c):
    """The Gamma_max witness of t's range (pml_attainment's module docstring), at exact values."""
    u = N * c
    if t * (N - 1) * c < 1:
        z = t * (1 - u) + 1
        a, b = t * (1 - u + c) / z, (1 - t * (u - c)) / z
        col = [a] * (N - 1) + [b]
        return Kernel([[v, 1 - v] for v in col]), N - 2, N - 1
    if t * c < 1:
        m = (t - 1) / (t * (2 - u))
        w = m * (1 - t * c) / (t * (N - 2) * c)
        col = [m, fmpq(0)] + [w] * (N - 2)
        return Kernel([[v, 1 - v] for v in col]), 0, 1
    return Kernel([[1, 0]] + [[0, 1]] * (N - 1)), 0, 1


@pytest.mark.parametrize("N", [2, 3, 4, 6])
def test_gamma_witnesses_attain_the_closed_form_at_exact_points(N):
    seen = set()
    for c in (fmpq(1, N), fmpq(1, N + 1), fmpq(1, 3 * N)):
        for t in (fmpq(1), fmpq(5, 4), 1 / ((N - 1) * c) - fmpq(1, 50), 1 / ((N - 1) * c), (1 / c + 1 / ((N - 1) * c)) / 2,
                  1 / c, 1 / c + 3):
            if t < 1:
                continue
            K, xp, xq = _witness_kernel(N, t, c)
            assert pml_ratio(K, c) <= t
            ratio = K.apply(_vertex(N, c, xp)).probs[0] / K.apply(_vertex(N, c, xq)).probs[0]
            if t * c <= 1:
                expected = bounds.REGISTRY["gamma_max_exact"].at(t=t, c=c, N=N)
                seen.add("first" if t * (N - 1) * c < 1 else "lemma4")
            else:
                expected = (1 - (N - 1) * c) / c
                seen.add("beyond")
            assert ratio == expected, (N, c, t)
    assert seen == {"first", "lemma4", "beyond"} or N == 2


# -- tampering ----------------------------------------------------------------------------------------------------

def _tamper_statement(cert, label_part, side, new):
    rows = []
    for st in cert.statements:
        if label_part in st[0]:
            st = (st[0], new, st[2], st[3], st[4]) if side == "lhs" else (st[0], st[1], st[2], new, st[4])
            label_part = "\0"  # only the first match
        rows.append(st)
    return dataclasses.replace(cert, statements=tuple(rows))


TAMPERED = {
    "first-branch multiplier": lambda: dataclasses.replace(
        PA.gamma_first_bound(), multipliers=PA.gamma_first_bound().multipliers[:1] + ("t",)
        + PA.gamma_first_bound().multipliers[2:]),
    "first-branch value raised": lambda: dataclasses.replace(
        PA.gamma_first_bound(), conclusion="(t*(1 - u) + c)*q - (1 - u + c)*p - q/100"),
    "every-kernel bound lowered": lambda: dataclasses.replace(
        PA.gamma_beyond_bound(), conclusion="(1 - u)*q - c*p"),
    "beyond witness's output 1 without N >= 2": lambda: dataclasses.replace(
        PA.gamma_beyond_witness_output1(), multipliers=("1", "0")),
    "first witness b >= 0 with a wrong multiplier": lambda: dataclasses.replace(
        PA.gamma_first_witness_facts()[0], multipliers=("1/(t*(1 - u) + 2)",)),
    "first witness a <= 1 without N >= 2": lambda: dataclasses.replace(
        PA.gamma_first_witness_facts()[1], multipliers=("1/(t*(1 - u) + 1)", "0")),
    "G-20 without t c (N - q) <= 1": lambda: dataclasses.replace(PA.g20_feasibility()[1], multipliers=("0",)),
    "G-20 with a wrong M - m": lambda: _tamper_statement(PA.g20_feasibility()[-1], "M - m", "rhs", "(t - 1)/(t*(1 - u) + 2)"),
    "extreme pair without t": lambda: dataclasses.replace(PA.extreme_pair(), multipliers=("1", "1 - u", "1")),
    "achiever eta": lambda: _tamper_statement(PA.middle_row_achiever(), "eta_TV = M - m", "rhs", "(t - 1)/(t*(1 - u) + 2)"),
    "achiever beyond its regime": lambda: dataclasses.replace(
        PA.middle_row_achiever(), statements=tuple(
            (s[0], s[1], s[2], s[3], tuple(x.replace("t*u <= 2", "t*u <= 3") for x in s[4]))
            for s in PA.middle_row_achiever().statements)),
    "odd family sum": lambda: _tamper_statement(PA.middle_row_achiever(), "N = 2k + 1", "rhs", "(2*k + 1)/2*(M + m) + M/2"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_certificates_are_refused_by_the_engine(name):
    assert check(TAMPERED[name]()).truth is not Truth.TRUE


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_certificates_are_rejected_by_recheck(name):
    assert recheck_certificate(TAMPERED[name]().to_json()).status == REJECTED


@pytest.mark.parametrize("cert", [PA.extreme_pair(), PA.gamma_first_bound(), PA.gamma_beyond_bound(),
                                  PA.gamma_registry_statements(), PA.gamma_witnesses()[0], PA.gamma_witnesses()[2],
                                  *PA.gamma_first_witness_facts(), PA.gamma_beyond_witness_output1(),
                                  *PA.g20_feasibility()],
                         ids=lambda c: c.name)
def test_two_parameter_certificates_recheck_ok(cert):
    assert recheck_certificate(cert.to_json()).status == OK


@pytest.mark.slow
def test_middle_row_achiever_rechecks_ok():
    assert recheck_certificate(PA.middle_row_achiever().to_json()).status == OK


def _without_condition(cert, text):
    return dataclasses.replace(cert, statements=tuple(
        (s[0], s[1], s[2], s[3], tuple(x for x in s[4] if x != text)) for s in cert.statements))


WITNESS_TAMPERED = {
    "first witness ratio": lambda: _tamper_statement(PA.gamma_witnesses()[0], "branch's value", "rhs",
                                                     "(t*(1 - u) + c)/(1 - u + c) + c"),
    "second witness beyond its range": lambda: _without_condition(PA.gamma_witnesses()[1], "c*t < 1"),
    "third witness below its range": lambda: _without_condition(PA.gamma_witnesses()[2], "c*t >= 1"),
}


@pytest.mark.parametrize("name", sorted(WITNESS_TAMPERED))
def test_tampered_witnesses_are_refused_by_the_engine(name):
    assert check(WITNESS_TAMPERED[name]()).truth is not Truth.TRUE


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WITNESS_TAMPERED))
def test_tampered_witnesses_are_rejected_by_recheck(name):
    assert recheck_certificate(WITNESS_TAMPERED[name]().to_json()).status == REJECTED
