"""The every-N proof of an (eps,c)-PML bound whose lifted multipliers change sign (issue 25 item 1): N = 2 by the
per-N parametric LP, N >= 3 by split trees on t >= 1, c > 0, 3c <= u <= 1 (u = N*c), each leaf a lifted basis
checked on its cell, the coverage decided by the engine; exported, re-checked, and tampered copies rejected."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

from exactdp.algebra.certificates import Certificate, check
from exactdp.numbers.reader import read_expression
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.verification.conjecture import check as check_conjecture
from exactdp.verification.conjecture import pieces as P

from tests.verification.test_conjecture_synthesis import PML_ZA_PLUS

#: the N >= 3 domain as the certificates write it
D3 = ("t >= 1", "c > 0", "u >= 3*c", "u <= 1")


@pytest.fixture(scope="module")
def proof():
    return check_conjecture(PML_ZA_PLUS, "pml")


def _leaves(result) -> list:
    return [x.bound_to(None) for x in result.certificates
            if x.kind == "linear-combination" and "u >= 3*c" in x.region and len(x.region) > len(D3)]


def _coverage(result):
    return next(x.bound_to(None) for x in result.certificates
                if x.kind == "symbolic-statements" and "u >= 3*c" in x.region)


def _both(cert: Certificate) -> tuple:
    """(engine truth, recheck status), the engine's through a JSON round trip."""
    d = cert.to_json()
    return check(Certificate.from_json(json.loads(json.dumps(d)))).truth, recheck_certificate(d).status


@pytest.mark.slow
def test_pml_za_plus_is_proved_for_every_n(proof):
    """PROVED for all N and M: N = 2 by its own parametric LP (3 regions), N >= 3 by a split tree of three leaves on
    3c <= u <= 1; every certificate checks TRUE in the engine and OK in the independent re-check."""
    assert proof.verdict == "proved"
    assert proof.scope.startswith("all N, M")
    text = "\n".join(proof.proof)
    assert "pml, N = 2: parametric LP" in text and "then every N >= 3 on the domain" in text
    leaves = _leaves(proof)
    assert len(leaves) == 3
    assert all(r[:4] == D3 for r in (x.region for x in leaves))
    statuses = [recheck_certificate(x.to_json()).status for x in proof.certificates]
    assert statuses == [OK] * len(proof.certificates)


@pytest.mark.slow
def test_the_leaves_are_the_lp_bounds_below_the_branches(proof):
    """At exact sample points of each leaf's cell, the LP solved there is at most the leaf's bound V (weak duality)
    and V is at most the leaf's branch E; the cells cover all 1056 sample points of the domain."""
    from flint import fmpq

    from exactdp.algebra.lp import solve
    from exactdp.verification.conjecture import synthesis as Y

    *_, problem = Y._lp("pml", sympy.Integer(2), None)
    leaves = _leaves(proof)
    syms = {str(s): s for s in (Y.t, Y.c, Y.u, Y.a, Y.b)}
    cells = [[read_expression(r, symbols=syms, relations=True) for r in x.region[4:]] for x in leaves]
    points = P.sample_points()
    covered = [p for p in points if any(all(bool(r.xreplace(p)) for r in cell) for cell in cells)]
    assert len(points) == 1056 and covered == points
    for x, cell in zip(leaves, cells):
        E = read_expression(x.conclusion, symbols=syms).xreplace({Y.a: 0, Y.b: 0})
        V = E - read_expression(x.slack, symbols=syms)
        inside = [p for p in points if all(bool(r.xreplace(p)) for r in cell)]
        assert len(inside) >= 10
        for p in inside[::max(1, len(inside) // 20)]:
            lp = solve(problem.at({k: fmpq(int(v.p), int(v.q)) for k, v in p.items()})).value
            assert sympy.Rational(int(lp.p), int(lp.q)) <= V.xreplace(p) <= E.xreplace(p), (p, x.region)


def _tampered(proof):
    leaves, cover = _leaves(proof), _coverage(proof)
    v3 = next(x for x in leaves if "3*c*t - t*u + t - 2 >= 0" in x.region)
    v1 = next(x for x in leaves if "-2*c*t + 1 >= 0" in x.region)
    yield "a leaf moved to another leaf's cell", dataclasses.replace(v3, region=v1.region)
    lhs = cover.statements[0][1]
    assert lhs.startswith("Max(3*c*t - t*u + t - 2, ")
    dropped = "Max(" + lhs[len("Max(3*c*t - t*u + t - 2, "):]
    yield "a leaf dropped from the coverage", dataclasses.replace(
        cover, statements=((cover.statements[0][0], dropped, *cover.statements[0][2:]), *cover.statements[1:]))
    k = next(i for i, m in enumerate(v1.multipliers) if m != "0")
    yield "a multiplier changed", dataclasses.replace(
        v1, multipliers=tuple(f"2*({m})" if i == k else m for i, m in enumerate(v1.multipliers)))
    widened = [dataclasses.replace(x, region=tuple("u >= 2*c" if r == "u >= 3*c" else r for r in x.region))
               for x in leaves]
    yield "the domain widened back to u >= 2c", next(x for x in widened if "2*c*t - 1 >= 0" in x.region)


@pytest.mark.slow
def test_tampered_certificates_are_rejected_by_the_engine_and_by_recheck(proof):
    seen = []
    for what, cert in _tampered(proof):
        truth, status = _both(cert)
        assert truth is not Truth.TRUE, what
        assert status == REJECTED, what
        seen.append(what)
    assert len(seen) == 4


def test_branches_of_the_pml_za_plus_argument_are_its_two_max_cases():
    """The argument 2(u - 2c)t + Max(t - 2 + (u - c)t, 0)/(t(1 - u) + 1) has the branches 2(u - 2c)t and
    2(u - 2c)t + (t - 2 + (u - c)t)/(t(1 - u) + 1), each cancelled; at a point with t - 2 + (u - c)t < 0 the
    argument equals the first, and at one with it > 0 the second."""
    t, c, u = P.t, P.c, P.u
    A = 2 * (u - 2 * c) * t + sympy.Max(t - 2 + (u - c) * t, 0) / (t * (1 - u) + 1)
    E1, E2 = 2 * (u - 2 * c) * t, 2 * (u - 2 * c) * t + (t - 2 + (u - c) * t) / (t * (1 - u) + 1)
    got = P.branches(A)
    assert len(got) == 2 and {sympy.cancel(g - E1) for g in got} == {0, sympy.cancel(E2 - E1)}
    low = {t: sympy.Rational(9, 8), u: sympy.Rational(1, 2), c: sympy.Rational(1, 8)}  # t - 2 + (u - c)t < 0
    high = {t: sympy.Integer(3), u: sympy.Rational(1, 2), c: sympy.Rational(1, 8)}
    assert A.xreplace(low) == E1.xreplace(low) == sympy.Rational(9, 16)
    assert A.xreplace(high) == E2.xreplace(high) == sympy.Rational(3, 2) + sympy.Rational(17, 8) / sympy.Rational(5, 2)


def test_a_split_tree_covers_the_domain_and_a_dropped_leaf_does_not():
    """The coverage relation of the PML_ZA_PLUS tree (cells m >= 0 and s >= 0, m >= 0 and -s >= 0, -m >= 0 with
    m = 2 - t(1 - u + 3c), s = 1 - 2ct) is decided TRUE on 3c <= u <= 1 by the engine; without the last leaf it
    is FALSE, with an exact point of the domain where m < 0."""
    from exactdp.algebra.prover import Region, decide

    t, c, u = P.t, P.c, P.u
    m, s = sympy.expand(2 - t * (1 - u + 3 * c)), 1 - 2 * c * t
    leaves = [P.Leaf((m, s), None, None), P.Leaf((m, -s), None, None), P.Leaf((-m,), None, None)]
    region = Region.of(*P.DOMAIN_3, variables=[c, t, u])
    assert decide(P.coverage(leaves), region).truth is Truth.TRUE
    d = decide(P.coverage(leaves[:2]), region)
    assert d.truth is Truth.FALSE and m.xreplace(d.counterexample) < 0
    assert all(bool(r.xreplace(d.counterexample)) for r in P.DOMAIN_3)
