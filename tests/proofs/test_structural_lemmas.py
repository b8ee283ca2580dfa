"""The structural lemmas are checked objects, not prose (issue 21 item 2): each lemma is a certificate that the
engine, ``exactdp recheck`` and the SMT export decide; a certificate that rests on one names it in ``uses`` and is
rejected without it; abbreviations are ``definitions`` that both checkers substitute; no certificate carries a
free-text ``lemmas`` field."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

from exactdp.algebra.certificates import Certificate, check
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.errors import ParameterError
from exactdp.numbers.reader import read_expression
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate, recheck_directory
from exactdp.theory import class_certificates as CC
from exactdp.theory import pml_attainment as PA
from exactdp.theory import structural_lemmas as SL
from exactdp.verification.claims import Outcome, Verdict, proved


@pytest.mark.parametrize("cert", SL.all_certificates(), ids=lambda c: c.name)
def test_every_lemma_certificate_is_decided_by_both_checkers(cert):
    assert check(cert).truth is Truth.TRUE
    r = recheck_certificate(cert.to_json())
    assert r.status == OK, r.reasons + r.trusted


def test_the_lemmas_are_those_of_the_issue():
    assert set(SL.LEMMAS) == {"aggregation over an output set", "the mass of an output set lies in [0, 1]",
                              "two-point bound", "vertex lemma of Q_X(c)", "dividing by a positive quantity",
                              "merging outputs keeps eta_TV and the class", "Binette's inequality"}
    assert len({c.name for c in SL.all_certificates()}) == len(SL.all_certificates())  # one name per certificate


def test_a_false_lemma_statement_is_rejected_by_both():
    """The aggregation lemma with the (ε,c)-PML form's Aᶜ instance written with S instead of N − S fails."""
    agg = SL.AGGREGATION.certificates[0]
    label, lhs, op, rhs, conds = agg.statements[2]
    bad = dataclasses.replace(agg, statements=agg.statements[:2] + (
        (label, lhs.replace("(N - S)", "S"), op, rhs, conds),) + agg.statements[3:])
    assert check(bad).truth is not Truth.TRUE
    assert recheck_certificate(bad.to_json()).status == REJECTED


def test_no_certificate_has_a_lemmas_field():
    assert "lemmas" not in {f.name for f in dataclasses.fields(LinearCombination)}
    d = CC.pml_tv().to_json()
    d["lemmas"] = ["trust me"]
    with pytest.raises(ParameterError, match="lemmas"):
        Certificate.from_json(d)
    r = recheck_certificate(d)
    assert r.status == REJECTED and "lemmas" in r.reasons[0]


def test_the_class_bounds_name_their_lemmas():
    assert set(CC.pml_tv().uses) == set(SL.AGGREGATION.uses + SL.TWO_POINT.uses)
    assert set(CC.ldp_tv().uses) == set(SL.AGGREGATION.uses + SL.TWO_POINT.uses)
    assert set(CC.trivial_tv().uses) == set(SL.SET_MASS.uses + SL.TWO_POINT.uses)
    assert set(CC.lemma4_ratio().uses) == set(SL.VERTEX.uses + SL.DIVISION.uses)
    assert set(PA.gamma_first_bound().uses) == set(SL.VERTEX.uses + SL.DIVISION.uses)


def test_a_proved_outcome_carries_the_lemmas_its_certificates_use():
    o = proved("eta_TV <= Xi", (CC.pml_tv(),), "all N, M")
    names = [c.name for c in o.certificates]
    assert names[0] == CC.pml_tv().name
    assert set(names[1:]) == set(SL.AGGREGATION.uses + SL.TWO_POINT.uses) and len(names) == len(set(names))
    # built directly, the outcome adds them too
    o2 = Outcome(Verdict.PROVED, "x", derivation=("d",), certificates=(CC.trivial_tv(),), scope="all N, M")
    assert {c.name for c in o2.certificates} == {CC.trivial_tv().name, *SL.SET_MASS.uses, *SL.TWO_POINT.uses}


def test_a_certificate_resting_on_an_absent_certificate_is_not_proved():
    lone = dataclasses.replace(CC.pml_tv(), uses=("a lemma nobody wrote",))
    assert check(lone).truth is Truth.TRUE  # the combination itself is fine ...
    with pytest.raises(ValueError, match="a lemma nobody wrote"):  # ... but the proof is incomplete
        proved("x", (lone,), "all N, M")


def test_definitions_are_substituted_by_both_checkers():
    """The t ≥ 1/c witness's output 1 has entries hi = 1, lo = 0: with hi = 2 its PML constraint fails."""
    cert = PA.gamma_beyond_witness_output1()
    assert dict(cert.definitions) == {"hi": "1", "lo": "0", "cS1": "c*(-1 + u/c)"}
    assert check(cert).truth is Truth.TRUE and recheck_certificate(cert.to_json()).status == OK
    bad = dataclasses.replace(cert, definitions=(("hi", "2"),) + cert.definitions[1:])
    assert check(bad).truth is Truth.FALSE
    r = recheck_certificate(bad.to_json())
    assert r.status == REJECTED and "conclusion" in r.reasons[0]


def test_smt_substitutes_the_definitions_too():
    """The SMT export confirms the genuine witness fact and refutes the one with hi = 2, with a model."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    cert = PA.gamma_beyond_witness_output1()
    assert smt_check_certificate(cert.to_json(), timeout=20).status == CONFIRMED
    bad = dataclasses.replace(cert, definitions=(("hi", "2"),) + cert.definitions[1:])
    r = smt_check_certificate(bad.to_json(), timeout=20)
    assert r.status == REFUTED
    assert any(o.label.startswith("conclusion = sum") and o.counterexample for o in r.results if o.status == REFUTED)


def test_a_definition_may_not_rename_a_variable_or_parameter():
    cert = PA.gamma_beyond_witness_output1()
    for name in ("c", "t"):
        bad = dataclasses.replace(cert, definitions=cert.definitions + ((name, "0"),))
        assert check(bad).truth is Truth.FALSE
        assert recheck_certificate(bad.to_json()).status == REJECTED


def test_a_witness_fact_is_the_substituted_identity():
    """G-20's 'm >= 0': the certificate keeps m = (1 − tα)/z and z = 1 + t(1 − u) as definitions, and the
    substituted conclusion is the closed form (1 − tα)/(1 + t(1 − u))."""
    cert = PA.g20_feasibility()[0]
    syms = {n: sympy.Symbol(n, real=True) for n in ("t", "u", "alpha", "z", "M", "m", "cS0")}
    t, u, alpha = syms["t"], syms["u"], syms["alpha"]
    subs: dict = {}
    for n, txt in cert.definitions:
        subs[syms[n]] = read_expression(txt, name=n, symbols=syms).xreplace(subs)
    h = read_expression(cert.conclusion, name="conclusion", symbols=syms).xreplace(subs)
    assert sympy.cancel(h - (1 - t * alpha) / (1 + t * (1 - u))) == 0


@pytest.fixture(scope="module")
def post_processing():
    from exactdp.verification.engine import verify

    return verify(("grosse2026.appendix_post_processing",), seed=0, quick=True)


def test_recheck_rejects_a_certificate_whose_lemma_was_removed(post_processing, tmp_path):
    from exactdp.verification.export import write_certificates

    write_certificates(post_processing, tmp_path)
    assert {r.status for r in recheck_directory(tmp_path)} == {OK}
    index = json.loads((tmp_path / "index.json").read_text())
    (cid, entry), = index["claims"].items()
    lemma = SL.AGGREGATION.uses[0]
    rel = next(r for r in entry["certificates"]
               if json.loads((tmp_path / r).read_text())["certificate"]["name"] == lemma)
    (tmp_path / rel).unlink()  # removed consistently: from the folder, the claim, its check and the hashes
    entry["certificates"].remove(rel)
    for c in entry["checks"]:
        if rel in c["certificates"]:
            c["certificates"].remove(rel)
    del index["sha256"][rel]
    (tmp_path / "index.json").write_text(json.dumps(index, indent=1))
    rejected = [r for r in recheck_directory(tmp_path) if r.status == REJECTED]
    # the (eps,c)-PML and the eps-LDP post-processing steps, one output, named by what they prove
    assert {r.name for r in rejected} == {"-k*w + t*(S*c*w + k0*w*(1 - u)) >= 0", "-k*w + k0*t*w >= 0"}
    # the reason quotes the lemma certificate's name (cut to 60 characters)
    assert all(lemma[:50] in r.reasons[0] and "not among the claim's certificates" in r.reasons[0] for r in rejected)


# -- merging outputs keeps eta_TV and the class ([G] Lemma 3's proof) -----------------------------------------------

def test_the_merged_pml_constraint_is_the_sum_of_the_merged_outputs_constraints_on_a_kernel():
    """Brute force on an exact 3 x 3 (eps,c)-PML kernel: outputs 1 and 2 merged, the merged column's PML slack
    t(c S + (1 - Nc) K(y'|x0)) - K(y'|x) is the sum of the two columns' slacks (the certificate's multipliers 1, 1),
    for every pair of rows; eta_TV of the merge into {A, A^c} at the maximizing A is eta_TV of the kernel."""
    from flint import fmpq

    from exactdp.kernels import Kernel
    from exactdp.measures.contraction import eta_tv
    from exactdp.measures.privacy import pml_ratio
    from exactdp.theory.extremal import merge_to_binary

    q = fmpq
    rows = [[q(1, 2), q(1, 4), q(1, 4)], [q(1, 4), q(1, 2), q(1, 4)], [q(1, 6), q(1, 3), q(1, 2)]]
    K = Kernel.from_exact_rows(rows)
    c = q(1, 6)
    t = pml_ratio(K, c)
    N = 3

    def slack(col, x, x0):
        S = sum(r[col] for r in rows)
        return t * (c * S + (1 - N * c) * rows[x0][col]) - rows[x][col]

    merged = [[r[0], r[1] + r[2]] for r in rows]

    def merged_slack(x, x0):
        S = sum(r[1] for r in merged)
        return t * (c * S + (1 - N * c) * merged[x0][1]) - merged[x][1]

    for x in range(N):
        for x0 in range(N):
            assert merged_slack(x, x0) == slack(1, x, x0) + slack(2, x, x0)
            assert slack(1, x, x0) >= 0 and slack(2, x, x0) >= 0
    assert pml_ratio(Kernel.from_exact_rows(merged), c) <= t
    B, A = merge_to_binary(K)
    assert eta_tv(B) == eta_tv(K) == q(1, 3)


def test_a_tampered_merging_certificate_is_rejected_by_both():
    """The merged PML constraint claimed from one output's constraint twice (multiplier 2 on y1, 0 on y2): the
    identity fails."""
    pml = SL.MERGING.certificates[0]
    bad = dataclasses.replace(pml, multipliers=("2", "0"))
    assert check(bad).truth is Truth.FALSE
    assert recheck_certificate(bad.to_json()).status == REJECTED


def test_lemma_3_is_proved_from_the_merging_lemma_for_every_n_m():
    from exactdp.verification.engine import verify

    (r,) = verify(("grosse2026.lem3",), seed=0, quick=True)
    merging = next(c for c in r.checks if c.check.name == "merging_lemma")
    assert r.verdict is Verdict.PROVED and merging.outcome.verdict is Verdict.PROVED
    assert merging.outcome.scope == "all N, M" and not merging.outcome.rests_on
    assert {c.name for c in merging.outcome.certificates} == set(SL.MERGING.uses)
    for c in merging.outcome.certificates:
        assert recheck_certificate(json.loads(json.dumps(c.to_json())), claim="grosse2026.lem3").status == OK
