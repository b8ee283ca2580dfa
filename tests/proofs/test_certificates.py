"""Certificates as data (issue 12): every kind checks TRUE on the real certificates and refuses tampered ones; JSON
round trips; a proved outcome cannot be built from a failing certificate; the certified class bounds hold on random
exact kernels (brute force), and the aggregated constraints they start from hold on those kernels too."""

import dataclasses
import itertools
import json
import random

import pytest
import sympy
from flint import fmpq

from exactdp.algebra.certificates import KINDS, Certificate, check
from exactdp.algebra.certificates.cache import CheckMemo
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.algebra.certificates.lp_point import LPPoint
from exactdp.algebra.certificates.statements import SymbolicStatements
from exactdp.algebra.lp import LinearProgram, solve
from exactdp.errors import ParameterError
from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.measures.privacy import pml_ratio
from exactdp.numbers.truth import Truth
from exactdp.theory import class_certificates as CC
from exactdp.verification import instances as inst
from exactdp.verification.claims import Check, Outcome, Verdict, claim_verdict, proved

REAL = CC.all_certificates()


def _lp_point() -> LPPoint:
    lp = LinearProgram(c=(1, 1), A_ub=((1, 2), (3, 1)), b_ub=(4, 6))
    return LPPoint.of(lp, solve(lp), name="small LP", point=(("t", "2"),))


@pytest.mark.parametrize("cert", REAL + (_lp_point(),), ids=lambda c: c.name)
def test_real_certificates_check_true_and_round_trip(cert):
    result = check(cert)
    assert result.truth is Truth.TRUE, result.failures
    assert result.steps and not result.failures
    d = json.loads(json.dumps(cert.to_json()))
    assert d["kind"] == cert.kind and Certificate.from_json(d) == cert
    assert type(Certificate.from_json(d)) is KINDS[cert.kind]


def test_the_lp_point_certificate_states_the_optimum():
    cert = _lp_point()
    assert cert.value == "14/5" and check(cert).truth is Truth.TRUE


# -- tampered certificates -------------------------------------------------------------------------------------

def _rejected(cert) -> bool:
    return check(cert).truth is not Truth.TRUE


def test_perturbed_multiplier_is_false():
    cert = CC.pml_tv()
    bad = dataclasses.replace(cert, multipliers=(cert.multipliers[0], "2/(1 + t*(1 - u))"))
    r = check(bad)
    assert r.truth is Truth.FALSE and "does not give the conclusion" in r.failures[0]


def test_flipped_multiplier_sign_is_false():
    cert = CC.ldp_tv()
    # both multipliers negated and the conclusion negated: the identity holds, the signs do not
    bad = dataclasses.replace(cert, multipliers=("-1/(t + 1)", "-1/(t + 1)"),
                              conclusion="-((t - 1 + 2*delta)/(t + 1) - (a - b))")
    r = check(bad)
    assert r.truth is Truth.FALSE and any("negative" in f for f in r.failures)


def test_widened_region_is_refused():
    # u may now exceed 1 (N c > 1): 1 + t(1 - u) changes sign, the multipliers are not >= 0
    cert = CC.pml_tv()
    bad = dataclasses.replace(cert, region=("t >= 1", "c > 0", "u >= 2*c", "u <= 3"))
    assert _rejected(bad)
    # delta > 1 is harmless for the LDP multipliers (they do not depend on delta): still valid
    assert check(dataclasses.replace(CC.ldp_tv(), region=("t >= 1", "delta >= 0"))).truth is Truth.TRUE
    # t >= -1/2 lets t + 1 vanish... no: t + 1 > 0 still; t >= -2 does not
    assert _rejected(dataclasses.replace(CC.ldp_tv(), region=("t >= -2",)))


def test_broken_identity_is_false():
    cert = CC.lemma4_ratio()
    bad = dataclasses.replace(cert, conclusion="(1 - u)*t*q + 2*q - p")  # a stronger, unproved conclusion
    assert check(bad).truth is Truth.FALSE
    bad = dataclasses.replace(CC.zero_entries(), constraints=CC.zero_entries().constraints[:2],
                              multipliers=CC.zero_entries().multipliers[:2])
    assert check(bad).truth is Truth.FALSE


def test_multiplier_depending_on_a_variable_is_false():
    bad = dataclasses.replace(CC.ldp_tv(), multipliers=("a/(t + 1)", "1/(t + 1)"))
    r = check(bad)
    assert r.truth is Truth.FALSE and "not only on the parameters" in r.failures[0]


def test_false_statement_is_false_with_counterexample():
    cert = CC.xi_statements()
    label, lhs, op, rhs, conds = cert.statements[1]  # (t-1)/(t(1-u)+1) < 1 when t u < 2
    bad = dataclasses.replace(cert, statements=((label, lhs, op, rhs, ("t >= 1", "u > 0", "u <= 1", "t*u < 3")),))
    r = check(bad)
    assert r.truth is Truth.FALSE
    ce = bad.counterexample()
    t, u = sympy.Rational(ce["t"]), sympy.Rational(ce["u"])
    assert 2 <= t * u < 3 and (t - 1) / (t * (1 - u) + 1) >= 1


def test_broken_identity_statement_is_not_true():
    cert = CC.ldp_statements()
    label, lhs, op, rhs, conds = cert.statements[1]  # a - b = tight
    bad = dataclasses.replace(cert, statements=((label, lhs, op, rhs + " + delta/1000", conds),))
    assert _rejected(bad)


def test_tampered_lp_point_is_false():
    cert = _lp_point()
    assert check(dataclasses.replace(cert, value="3")).truth is Truth.FALSE
    assert check(dataclasses.replace(cert, x=("1", "2"))).truth is Truth.FALSE  # infeasible
    assert check(dataclasses.replace(cert, y_ub=("0", "0"))).truth is Truth.FALSE  # dual infeasible
    assert check(dataclasses.replace(cert, c=("1",))).truth is Truth.FALSE  # inconsistent shapes


def test_text_in_a_certificate_is_data():
    bad = dataclasses.replace(CC.ldp_tv(), multipliers=("__import__('os').system('true')", "1/(t + 1)"))
    r = check(bad)
    assert r.truth is Truth.FALSE and "unreadable" in r.failures[0]
    with pytest.raises(ParameterError, match="unknown kind"):
        Certificate.from_json({"kind": "exec", "name": "x"})
    d = CC.ldp_tv().to_json()
    with pytest.raises(ParameterError, match="unexpected field"):
        Certificate.from_json({**d, "run": "rm -rf /"})
    with pytest.raises(ParameterError, match="must be a string"):
        Certificate.from_json({**d, "slack": 0.5})
    with pytest.raises(ParameterError, match="missing field"):
        Certificate.from_json({k: v for k, v in d.items() if k != "conclusion"})


def test_floats_never_enter_a_certificate():
    with pytest.raises(ValueError, match="float"):
        LinearCombination.build(name="x", parameters=(), variables=(CC.a,), constraints=[("a", CC.a)],
                                multipliers=[0.5], conclusion=CC.a / 2)


# -- the one place that issues "proved" --------------------------------------------------------------------------

def test_a_proved_outcome_needs_checked_certificates_and_a_scope():
    good = CC.ldp_tv()
    bad = dataclasses.replace(good, multipliers=("1/(t + 1)", "1/(t + 2)"))
    with pytest.raises(ValueError, match="does not check"):
        Outcome(Verdict.PROVED, "x", derivation=("d",), certificates=(bad,), scope="all N, M")
    with pytest.raises(ValueError, match="does not check"):
        proved("x", (good, bad), "all N, M")
    with pytest.raises(ValueError, match="at least one certificate"):
        Outcome(Verdict.PROVED, "x", derivation=("d",), scope="all N, M")
    with pytest.raises(ValueError, match="scope"):
        Outcome(Verdict.PROVED, "x", derivation=("d",), certificates=(good,))
    with pytest.raises(ValueError, match="Certificate objects"):
        Outcome(Verdict.PROVED, "x", derivation=("d",), certificates=("trust me",), scope="all")
    with pytest.raises(ValueError, match="rests_on"):
        Outcome(Verdict.PROVED_MODULO, "x", derivation=("d",), certificates=(good,), scope="all")
    with pytest.raises(ValueError, match="proved-modulo"):
        Outcome(Verdict.VERIFIED, "x", instances=1, rests_on=("B-3",))
    o = proved("x", (good,), "all N, M")
    assert o.verdict is Verdict.PROVED and o.derivation and o.certificates[0] == good
    assert {c.name for c in o.certificates[1:]} == set(good.uses)  # its structural lemmas, carried with it
    m = proved("x", (good,), "all N, M", rests_on=("background.b03_eta_f_le_eta_tv",))
    assert m.verdict is Verdict.PROVED_MODULO and m.rests_on == ("background.b03_eta_f_le_eta_tv",)


def test_supporting_instance_checks_do_not_demote_a_proof_but_can_refute():
    p = proved("x", (CC.trivial_tv(),), "all kernels")
    v = Outcome(Verdict.VERIFIED, "instances", instances=3)
    r = Outcome(Verdict.REFUTED, "bad", counterexample={"x": "1"})
    run = lambda ctx: None  # noqa: E731 - never called
    proof, support, plain = Check("p", run), Check("s", run, supporting=True), Check("v", run)
    assert claim_verdict((proof, support), (p, v)) is Verdict.PROVED
    assert claim_verdict((proof, plain), (p, v)) is Verdict.VERIFIED
    assert claim_verdict((proof, support), (p, r)) is Verdict.REFUTED
    assert claim_verdict((support,), (v,)) is Verdict.VERIFIED
    m = proved("x", (CC.trivial_tv(),), "all", rests_on=("DPI",))
    assert claim_verdict((proof, proof), (p, m)) is Verdict.PROVED_MODULO


# -- the aggregation lemma and brute force on random kernels ---------------------------------------------------------

@pytest.mark.parametrize("N, M, A", [(2, 2, (0,)), (3, 4, (0, 2)), (4, 3, (1,)), (5, 5, (0, 1, 4))])
def test_aggregation_of_the_pml_constraints_is_an_identity(N, M, A):
    assert CC.aggregation_identity(N, M, A) == 0
    assert CC.aggregation_identity(N, M, A, x=N - 1, x1=0) == 0


@pytest.mark.parametrize("N", [2, 3, 5])
def test_two_point_step_is_an_identity(N):
    assert CC.two_point_identity(N) == 0


def _constraint_values(cert, values: dict) -> list:
    """The certificate's constraints g_i (polynomials) at exact values of its parameters and variables."""
    return [g(values) for g in _polynomials(cert)]


_POLYS: dict = {}


def _polynomials(cert):
    """Each constraint g_i as an exact evaluator over fmpq (parsed once per certificate)."""
    if cert not in _POLYS:
        syms = cert.symbols(cert.variables)
        names = list(syms)
        evaluators = []
        for lab, text in cert.constraints:
            poly = sympy.Poly(cert.read(text, syms, lab), *[syms[n] for n in names])
            terms = [(m, fmpq(int(sympy.fraction(co)[0]), int(sympy.fraction(co)[1]))) for m, co in poly.terms()]

            def g(values, terms=terms):
                total = fmpq(0)
                for monom, co in terms:
                    term = co
                    for n, e in zip(names, monom):
                        if e:
                            term *= fmpq(values[n]) ** e
                    total += term
                return total
            evaluators.append(g)
        _POLYS[cert] = evaluators
    return _POLYS[cert]


def _subsets(M):
    return [A for k in range(1, M) for A in itertools.combinations(range(M), k)]


def test_ldp_bound_and_its_constraints_hold_on_random_kernels():
    rng = random.Random(12)
    cert = CC.ldp_tv()
    for k in range(40):
        N, M = 2 + k % 3, 2 + k % 3
        K = inst.random_kernel(rng, N, M, 8)
        t = inst.random_rational(rng, 1, 4, 6)
        d = eta_hockey_stick(K, t)  # the least delta: K is (log t, d)-LDP
        assert eta_tv(K) <= (t - 1 + 2 * d) / (t + 1) <= 1 - (1 - d) / t
        for x, x1 in itertools.permutations(range(N), 2):
            for A in _subsets(M):
                a, b = sum(K[x, y] for y in A), sum(K[x1, y] for y in A)
                assert all(g >= 0 for g in _constraint_values(cert, {"t": t, "delta": d, "a": a, "b": b}))


def test_pml_bounds_and_their_constraints_hold_on_random_kernels():
    rng = random.Random(7)
    cert, l4 = CC.pml_tv(), CC.lemma4_ratio()
    for k in range(40):
        N, M = 2 + k % 4, 2 + k % 3
        K = inst.random_kernel(rng, N, M, 8)
        c = inst.random_rational(rng, fmpq(1, 10 * N), fmpq(1, N), 10)
        t = pml_ratio(K, c)  # the least level: K is in M(log t, c)
        xi = min((t - 1) / (t * (1 - N * c) + 1), fmpq(1))
        assert eta_tv(K) <= xi
        for x, x1 in itertools.permutations(range(N), 2):
            for A in _subsets(M):
                a, b = sum(K[x, y] for y in A), sum(K[x1, y] for y in A)
                S = sum(K[i, y] for i in range(N) for y in A)
                vals = {"t": t, "c": c, "u": N * c, "a": a, "b": b, "S": S}
                assert all(g >= 0 for g in _constraint_values(cert, vals))
        P, Q = inst.random_prior_in_Q(rng, N, c), inst.random_prior_in_Q(rng, N, c)
        KP, KQ = K.apply(P), K.apply(Q)
        for y in range(M):
            col = K.column(y)
            assert KP.probs[y] <= ((1 - N * c) * t + 1) * KQ.probs[y]
            vals = {"t": t, "c": c, "u": N * c, "p": KP.probs[y], "q": KQ.probs[y], "S": sum(col), "m": max(col),
                    "k": min(col)}
            assert all(g >= 0 for g in _constraint_values(l4, vals))


def test_zero_entries_bound_holds_on_random_kernels_with_zeros():
    rng = random.Random(3)
    for k in range(60):
        N, M = 2 + k % 4, 2 + k % 3
        K = inst.random_kernel_with_zeros(rng, N, M, 8)
        c = inst.random_rational(rng, fmpq(1, 10 * N), fmpq(1, N), 10)
        t = pml_ratio(K, c)
        for y in range(M):
            col = K.column(y)
            z = sum(1 for v in col if v == 0)
            if 0 < z < N:
                assert t * c * (N - z) >= 1  # the certificate with l = z


def test_zero_column_witness_has_the_threshold_level():
    from exactdp.mechanisms import zero_column_witness

    for N in range(2, 7):
        for z in range(1, N):
            for c in (fmpq(1, N), fmpq(1, 3 * N), fmpq(1, 50)):
                assert pml_ratio(zero_column_witness(N, z), c) == 1 / ((N - z) * c)


def test_statement_certificates_refer_to_the_registry():
    # the Xi statement reads the registry's formula, so a changed registry entry would break the certificate
    from exactdp import bounds

    text = " ".join(s[1] for s in CC.xi_statements().statements)
    assert "Min" in text and str(bounds.REGISTRY["xi"].expr).count("N") == 1
    assert isinstance(CC.ldp_statements(), SymbolicStatements)


# -- the certificates behind the proved claims, re-checked from their JSON ---------------------------------------

OWN_PROVED = ("asoodeh2021.a07_phi_lemma", "background.b04_tight_ldp", "grosse2026.thm2", "grosse2026.thm3",
              "grosse2026.lem1", "grosse2026.lem2", "grosse2026.lem4")


@pytest.mark.parametrize("claim_id", OWN_PROVED)
def test_proved_claims_carry_certificates_that_recheck_from_json(claim_id, monkeypatch):
    from exactdp.algebra import certificates
    from exactdp.verification.claims import CheckContext, load_all

    claim = load_all()[claim_id]
    assert claim.expected in (Verdict.PROVED, Verdict.PROVED_MODULO)
    proofs = [c for c in claim.checks if not c.supporting]
    outcomes = [c.run(CheckContext(quick=True)) for c in proofs]
    certs = [cert for o in outcomes for cert in o.certificates]
    assert certs and all(o.scope.startswith(CC.ALL_N_M) or o.scope == "all parameters" for o in outcomes)
    monkeypatch.setattr(certificates, "_CACHE", CheckMemo())  # no cached answer: each is checked again from its data
    for cert in certs:
        back = Certificate.from_json(json.loads(json.dumps(cert.to_json())))
        assert check(back).truth is Truth.TRUE, (claim_id, cert.name)
