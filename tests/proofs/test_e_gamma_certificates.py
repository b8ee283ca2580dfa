"""[A] Thm 1 and Thm 3 for every N, M and composition (B-10) for every n: the certificates of
:mod:`exactdp.theory.e_gamma_certificates` and :mod:`exactdp.theory.composition_certificates` check in the engine
and in ``recheck`` (OK, nothing trusted), tampered versions are rejected by both, and the summed quantities the
combinations use are what the summand statements say on concrete kernels and distributions."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from flint import fmpq

from exactdp.algebra.certificates import Certificate, check
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.theory import bayes_certificates as BC
from exactdp.theory import composition_certificates as CC
from exactdp.theory import e_gamma_certificates as EG
from exactdp.verification import instances as inst

ALL = {c.name: c for c in (*EG.thm1_certificates(), *EG.thm3_certificates(), *CC.composition_certificates(),
                           EG.e_gamma_below_tv(), *BC.thm2_certificates())}


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
    pl = EG.pairwise_level()
    yield "pairwise level: delta doubled", dataclasses.replace(pl, conclusion="delta/2 - H")
    st = CC.induction_step()
    yield "induction: multiplier of the hypothesis changed", dataclasses.replace(
        st, multipliers=(st.multipliers[0], "1", st.multipliers[2]))
    yield "induction: conclusion with pi^2", dataclasses.replace(st, conclusion="1 - pi**2*(1 - d1) - E")
    yield "induction: region e1 <= 2", dataclasses.replace(st, region=tuple(r.replace("e1 <= 1", "e1 <= 2")
                                                                            for r in st.region))
    tf = CC.two_fold()
    yield "two-fold: mass 1 - (1 - e1)(1 - e2) dropped to e1 e2", dataclasses.replace(tf, conclusion="e1*e2 - E")
    pd = CC.product_domination()
    yield "domination: region m1 <= 0", dataclasses.replace(pd, region=("m1 <= 0", "w2 >= 0"))
    sp = CC.split_summands()
    yield "split: excess bound without r >= 0", dataclasses.replace(sp, statements=tuple(
        (lab, lhs, op, rhs, tuple(x for x in cond if x != "r >= 0")) for lab, lhs, op, rhs, cond in sp.statements))
    yield "split: mass of r' changed", dataclasses.replace(sp, statements=sp.statements[:-1] + (
        sp.statements[-1][:3] + ("1 - (1 - e1)*(1 - e2)/2", ()),))
    bc = BC.thm2_combination()
    yield "Bayes: multiplier zeta of the event form changed to 1", dataclasses.replace(
        bc, multipliers=(bc.multipliers[0], "1", *bc.multipliers[2:]))
    yield "Bayes: conclusion without the factor t", dataclasses.replace(bc, conclusion="R - zeta*(1 - L - psi*Ix)")
    sd = BC.sdpi_step()
    yield "SDPI: region Ix <= 0", dataclasses.replace(sd, region=("Ix <= 0",))
    mk = BC.markov_summands()
    yield "Markov: condition l >= zeta dropped", dataclasses.replace(mk, statements=tuple(
        (lab, lhs, op, rhs, tuple(x for x in cond if x != "l >= zeta")) for lab, lhs, op, rhs, cond in mk.statements))
    bt = EG.e_gamma_below_tv()
    yield "E_gamma <= TV: t >= 1 flipped", dataclasses.replace(bt, statements=tuple(
        (lab, lhs, op, rhs, tuple(x.replace("t >= 1", "t <= 1") for x in cond)) for lab, lhs, op, rhs, cond in bt.statements))
    rn = CC.rest_nonnegative()
    yield "r' >= 0: region P2 <= 0", dataclasses.replace(rn, region=("m1 >= 0", "P2 <= 0"))
    from exactdp_proofs.asoodeh2021._phi_chain import phi_n_identity

    ph = phi_n_identity()
    yield "phi^n identity: exponent n + 1", dataclasses.replace(ph, statements=(
        ph.statements[0][:3] + ("1 - (1 - delta)**(n + 1)/t**n", ()),))
    inv = CC.induction_invariants()
    yield "invariants: Gamma >= 1 from g >= 0", dataclasses.replace(inv, statements=tuple(
        (lab, lhs, op, rhs, tuple(x.replace("g >= 1", "g >= 0") for x in cond)) for lab, lhs, op, rhs, cond in inv.statements))


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


def _product(p1, p2):
    return [a * b for a in p1 for b in p2]


def _e(P, Q, t):
    return sum((_pos(p - t * q) for p, q in zip(P, Q)), fmpq(0))


@pytest.mark.parametrize("seed", range(8))
def test_two_fold_lemma_and_induction_on_concrete_distributions(seed):
    """The split of the two-fold lemma on random distributions: r' = P1 P2 - m1 m2 >= 0 has mass
    1 - (1 - e1)(1 - e2) and bounds E_{t1 t2}; three factors (heterogeneous levels) satisfy C(3)."""
    rng = random.Random(seed)
    pairs = []
    for i in range(3):
        M = 2 + (seed + i) % 3
        pairs.append((inst.random_distribution(rng, M).probs, inst.random_distribution(rng, M).probs,
                      inst.random_rational(rng, 1, 3, 5)))
    (P1, Q1, t1), (P2, Q2, t2), (P3, Q3, t3) = pairs
    m1 = [min(p, t1 * q) for p, q in zip(P1, Q1)]
    m2 = [min(p, t2 * q) for p, q in zip(P2, Q2)]
    rest = [a - b for a, b in zip(_product(P1, P2), _product(m1, m2))]
    e1, e2 = _e(P1, Q1, t1), _e(P2, Q2, t2)
    assert min(rest) >= 0 and sum(rest, fmpq(0)) == 1 - (1 - e1) * (1 - e2)
    two = _e(_product(P1, P2), _product(Q1, Q2), t1 * t2)
    assert two <= 1 - (1 - e1) * (1 - e2)
    three = _e(_product(_product(P1, P2), P3), _product(_product(Q1, Q2), Q3), t1 * t2 * t3)
    assert three <= 1 - (1 - e1) * (1 - e2) * (1 - _e(P3, Q3, t3))


def test_no_new_statement_is_a_textual_tautology():
    from exactdp.verification.claims import CheckContext, load_all
    from exactdp_proofs.asoodeh2021._phi_chain import phi_n_identity

    claim = load_all()["background.phi_n_identity"]
    own = [c for ch in claim.checks for c in ch.run(CheckContext(quick=True)).certificates]
    for cert in (*ALL.values(), phi_n_identity(), *own):
        for label, lhs, _op, rhs, _cond in getattr(cert, "statements", ()):
            assert lhs.replace(" ", "") != rhs.replace(" ", ""), (cert.name, label)


@pytest.mark.parametrize("cid", ["asoodeh2021.thm1", "asoodeh2021.thm3_two_point", "background.b10_composition",
                                 "asoodeh2021.a08_tensorization", "background.b01_dobrushin",
                                 "asoodeh2021.thm2_bayes"])
def test_proofs_are_bare_proofs_for_every_size(cid):
    """Proved (not modulo anything) with a scope for every size; a08 rests on no claim at all."""
    from exactdp.verification.claims import CheckContext, Verdict, load_all

    claim = load_all()[cid]
    proof = next(c for c in claim.checks if c.name == "proof")
    o = proof.run(CheckContext(quick=True))
    assert o.verdict is Verdict.PROVED and o.rests_on == ()
    assert any(w in o.scope for w in ("all N", "all n", "every n"))
    assert claim.expected is Verdict.PROVED
