"""Binette's inequality as a structural lemma (issue 21 item 3): its certificates are decided by the engine,
``exactdp recheck`` and the SMT export; a wrong coefficient or a missing convexity hypothesis is rejected; the
summand inequality and the summed inequality hold exactly at random rational instances for chi^2."""

from __future__ import annotations

import dataclasses
import random

import pytest
import sympy
from flint import fmpq

from exactdp.algebra.certificates import check
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.theory import structural_lemmas as SL

ABOVE, BELOW, PARTS, EMPTY, SIGN, SCALED, CHORDS = SL.BINETTE.certificates


def _rejected_by_both(cert):
    assert check(cert).truth is not Truth.TRUE
    assert recheck_certificate(cert.to_json()).status == REJECTED


def test_the_lemma_has_the_two_cases_the_parts_the_sign_and_the_chords():
    assert SL.LEMMAS["Binette's inequality"] is SL.BINETTE
    assert [check(c).truth for c in SL.BINETTE.certificates] == [Truth.TRUE] * 7
    assert all(recheck_certificate(c.to_json()).status == OK for c in SL.BINETTE.certificates)
    assert ABOVE.conclusion == "fM*(p - q)/(M - 1) - fr*q" and BELOW.conclusion == "fm*(-p + q)/(1 - m) - fr*q"
    assert "f convex (hypothesis)" in ABOVE.constraints[0][0] and "f convex (hypothesis)" in BELOW.constraints[0][0]


@pytest.mark.parametrize("cert, old, new", [
    (ABOVE, "/(M - 1)", "/M"),  # f(M)/(M - 1) replaced by f(M)/M
    (BELOW, "/(1 - m)", "/(2 - m)"),
    (SIGN, "fM/(M - 1)", "fM/M"),
])
def test_a_wrong_coefficient_is_rejected(cert, old, new):
    assert old in cert.conclusion
    _rejected_by_both(dataclasses.replace(cert, conclusion=cert.conclusion.replace(old, new)))


@pytest.mark.parametrize("cert", [ABOVE, BELOW, SIGN], ids=lambda c: c.name)
def test_a_missing_convexity_hypothesis_is_rejected(cert):
    _rejected_by_both(dataclasses.replace(cert, constraints=(), multipliers=()))
    # nor may the convexity instance be replaced by a weaker fact (f(r) <= f(M), no chord)
    weak = dataclasses.replace(cert, constraints=(("f(r) <= f(M)", "fM - fr" if cert is ABOVE else "fm - fr"),))
    if cert is not SIGN:
        _rejected_by_both(weak)


def test_a_false_chord_is_rejected():
    """chi^2's chord on [1, M] with f(M)/M: (r - 1)^2 <= (r - 1)(M - 1)^2/M fails near r = M."""
    label, lhs, op, rhs, conds = CHORDS.statements[0]
    bad = dataclasses.replace(CHORDS, statements=((label, lhs, op, rhs.replace("/(M - 1)", "/M"), conds),)
                              + CHORDS.statements[1:])
    _rejected_by_both(bad)


def test_smt_confirms_the_lemma_and_refutes_the_wrong_coefficient():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    for cert in (ABOVE, BELOW, SIGN, SCALED):
        assert smt_check_certificate(cert.to_json(), timeout=20).status == CONFIRMED, cert.name
    bad = dataclasses.replace(ABOVE, conclusion=ABOVE.conclusion.replace("/(M - 1)", "/M"))
    assert smt_check_certificate(bad.to_json(), timeout=20).status == REFUTED


def _chi2(x):
    return (x - 1) ** 2


def _rational(rng, lo, hi, den=50):
    return lo + (hi - lo) * fmpq(rng.randint(1, den - 1), den)


def test_chi2_summand_instances_match_the_certificates():
    """At random rationals p, q > 0 with m <= p/q <= M: q f(p/q) <= (p - q)_+ f(M)/(M - 1) + (q - p)_+ f(m)/(1 - m)
    for f = (x - 1)^2, and the case certificate's conclusion at the instance is the slack of exactly that."""
    rng = random.Random(21)
    syms = {n: sympy.Symbol(n, real=True) for n in ("M", "m", "p", "q", "fr", "fM", "fm")}
    from exactdp.numbers.reader import read_expression

    h_above = read_expression(ABOVE.conclusion, name="h", symbols=syms)
    h_below = read_expression(BELOW.conclusion, name="h", symbols=syms)
    for _ in range(200):
        m, M = _rational(rng, fmpq(0), fmpq(1)), 1 + _rational(rng, fmpq(0), fmpq(5))
        q = _rational(rng, fmpq(0), fmpq(1))
        r = _rational(rng, m, M)
        p = r * q
        lhs = q * _chi2(r)
        rhs = max(p - q, fmpq(0)) * _chi2(M) / (M - 1) + max(q - p, fmpq(0)) * _chi2(m) / (1 - m)
        assert lhs <= rhs
        h, fx = (h_above, "fM") if r >= 1 else (h_below, "fm")
        val = h.subs({syms["M"]: sympy.Rational(str(M)), syms["m"]: sympy.Rational(str(m)),
                      syms["p"]: sympy.Rational(str(p)), syms["q"]: sympy.Rational(str(q)),
                      syms["fr"]: sympy.Rational(str(_chi2(r))),
                      syms[fx]: sympy.Rational(str(_chi2(M if r >= 1 else m)))})
        assert val == sympy.Rational(str(rhs - lhs))


def test_chi2_binette_on_random_distributions_is_the_summed_summands():
    """Summed over outputs: chi^2(P'||Q') <= (f(m)/(1 - m) + f(M)/(M - 1)) TV(P', Q') with m, M the extreme ratios,
    exactly; and equality for two-output pairs (both ratios at the ends of the range)."""
    rng = random.Random(3)
    for k in range(100):
        n = 2 + k % 4
        P = [fmpq(rng.randint(1, 30)) for _ in range(n)]
        Q = [fmpq(rng.randint(1, 30)) for _ in range(n)]
        P, Q = [x / sum(P) for x in P], [x / sum(Q) for x in Q]
        ratios = [a / b for a, b in zip(P, Q)]
        m, M = min(ratios), max(ratios)
        if not (m < 1 < M):
            continue
        lhs = sum((b * _chi2(a / b) for a, b in zip(P, Q)), fmpq(0))
        tvd = sum((max(a - b, fmpq(0)) for a, b in zip(P, Q)), fmpq(0))
        bound = (_chi2(m) / (1 - m) + _chi2(M) / (M - 1)) * tvd
        assert lhs <= bound
        if n == 2:
            assert lhs == bound


def test_thm4_and_its_corollaries_carry_the_lemma_and_cite_only_what_no_certificate_checks():
    """[G] Thm 4 and Cor 2 are proved (no cited result), each carrying the lemma's certificates and its step
    certificate; Cor 1 (KL) rests on the convexity of x log x alone."""
    from exactdp.verification.claims import Verdict
    from exactdp.verification.engine import verify

    res = {r.claim.id: r for r in verify(("grosse2026.thm4", "grosse2026.cor1", "grosse2026.cor2"), seed=0,
                                         quick=True)}
    for cid in res:
        certs = {c.name: c for c in res[cid].certificates}
        assert set(SL.BINETTE.uses) <= set(certs)
        step = certs["B*Xi*delta - D >= 0"]  # D_f <= B TV(KP, KQ) <= B Xi delta, through the lemma
        assert step.statement.claim == "step of " + cid and set(SL.BINETTE.uses) <= set(step.uses)
    assert res["grosse2026.thm4"].verdict is Verdict.PROVED and res["grosse2026.cor2"].verdict is Verdict.PROVED
    assert res["grosse2026.cor1"].verdict is Verdict.PROVED_MODULO
    (cited,) = res["grosse2026.cor1"].checks[0].outcome.rests_on
    assert cited.startswith("the convexity of x log x")
