"""[A] Thm 1 and Thm 3 for every N, M: the certificates of :mod:`exactdp.theory.e_gamma_certificates` check in
the engine and in ``recheck`` (OK, nothing trusted), tampered versions are rejected by both, and the summed
quantities the combinations use are what the summand statements say on concrete kernels."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from flint import fmpq

from exactdp.algebra.certificates import Certificate, check
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification import instances as inst

ALL = {c.name: c for c in (*EG.thm1_certificates(), *EG.thm3_certificates())}


def _both(cert: Certificate):
    d = cert.to_json()
    return check(Certificate.from_json(json.loads(json.dumps(d)))).truth, recheck_certificate(d)


@pytest.mark.parametrize("name", sorted(ALL))
def test_certificate_checks_in_engine_and_recheck(name):
    truth, r = _both(ALL[name])
    assert truth is Truth.TRUE
    assert r.status == OK and not r.trusted and not r.reasons


def _tampered():
    c = EG.thm1_contraction()
    yield "coefficient of L changed", dataclasses.replace(c, multipliers=("2/(e + t - 1)", c.multipliers[1]))
    yield "multiplier sign flipped", dataclasses.replace(c, multipliers=(c.multipliers[0], "-" + c.multipliers[1]))
    yield "region widened past e = 1", dataclasses.replace(c, region=tuple(r for r in c.region if r != "e <= 1"))
    yield "conclusion strengthened", dataclasses.replace(c, conclusion="delta*e/2 - (Ap - An)")
    yield "aggregated constraint's coefficient changed", dataclasses.replace(
        c, constraints=(("L", "delta*e*(e + t - 1) + 2*t*e*An - (e + t - 1)*Ap"), c.constraints[1]))
    z = EG.thm1_no_excess()
    yield "e = 0 case: sign of a constraint flipped", dataclasses.replace(z, constraints=(("Ap >= 0", "Ap"),
                                                                                          z.constraints[1]))
    conv = EG.thm1_converse()
    yield "converse: level dropped", dataclasses.replace(conv, conclusion="b + delta - a")
    ev = EG.event_form()
    yield "event form: condition flipped", dataclasses.replace(ev, statements=tuple(
        (lab, lhs, op, rhs, tuple(x.replace(">=", "<=") for x in cond)) for lab, lhs, op, rhs, cond in ev.statements))
    sm = EG.thm1_summands()
    yield "summand: coefficient changed", dataclasses.replace(sm, statements=(
        (sm.statements[0][0], sm.statements[0][1], "==", sm.statements[0][3].replace("t*p(x)", "2*t*p(x)"), ()),))
    pm = EG.point_masses()
    yield "point masses: region widened to t >= 0", dataclasses.replace(pm, region=("t >= 0",))
    tp = EG.two_point_ldp()
    yield "two-point: constraint sign flipped", dataclasses.replace(tp, constraints=(tp.constraints[0],
                                                                                     ("D <= H", "H - D")))
    nn = EG.nonnegative_product()
    yield "product: region sign flipped", dataclasses.replace(nn, region=("p >= 0", "n <= 0"))


@pytest.mark.parametrize("what, cert", list(_tampered()), ids=[w for w, _ in _tampered()])
def test_tampered_certificate_is_rejected_by_engine_and_recheck(what, cert):
    truth, r = _both(cert)
    assert truth is not Truth.TRUE, what
    assert r.status == REJECTED, what


def _pos(v):
    return v if v > 0 else fmpq(0)


@pytest.mark.parametrize("seed", range(6))
def test_summed_quantities_on_concrete_kernels(seed):
    """The aggregation the combination relies on, on kernels of several sizes: L (double sum) equals
    delta e f + t e An - f Ap, f = e + t - 1, and (KP)(A) - t (KQ)(A) = Ap - An <= delta e for delta = eta_t(K)."""
    from exactdp.measures.contraction import eta_hockey_stick

    rng = random.Random(seed)
    N, M = 2 + seed % 3, 2 + seed % 4
    K = inst.random_kernel(rng, N, M)
    P, Q = inst.random_distribution(rng, N), inst.random_distribution(rng, N)
    t = inst.random_rational(rng, 1, 4, 6)
    delta = eta_hockey_stick(K, t)
    A = [y for y in range(M) if rng.random() < 0.5] or [0]
    k = [sum((K.rows[x][y] for y in A), fmpq(0)) for x in range(N)]
    p = [_pos(P[x] - t * Q[x]) for x in range(N)]
    n = [_pos(t * Q[x] - P[x]) for x in range(N)]
    e, f = sum(p, fmpq(0)), sum(n, fmpq(0))
    assert f == e + t - 1
    Ap, An = sum((p[x] * k[x] for x in range(N)), fmpq(0)), sum((n[x] * k[x] for x in range(N)), fmpq(0))
    L = sum((p[x] * n[y] * (delta + t * k[y] - k[x]) for x in range(N) for y in range(N)), fmpq(0))
    assert L == delta * e * f + t * e * An - f * Ap and L >= 0
    KP = sum((P[x] * k[x] for x in range(N)), fmpq(0))
    KQ = sum((Q[x] * k[x] for x in range(N)), fmpq(0))
    assert KP - t * KQ == Ap - An <= delta * e
