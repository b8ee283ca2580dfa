"""The class certificates written in u = N*c (v = N - l) carried to the papers' statements in N by their
``instantiation`` (:func:`exactdp.verification.engine.instantiating`): on [G] Thm 1's ``pml_tv``, the chain checks
in the engine, ``recheck`` and ``recheck --smt``, and every tampering is refused; and [G] G-20's achievers, stated in
N, c, q and carried from their certificates in alpha = c q, u = N c by instantiations that substitute a variable
with its hypotheses (alpha -> c*q)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from exactdp.algebra.certificates import Certificate, check
from exactdp.algebra.certificates.instantiation import citation_failures
from exactdp.claim_statement import restates
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, _with_uses_met, recheck_certificate
from exactdp.theory import class_certificates as CC
from exactdp.theory.structural_lemmas import with_lemmas
from exactdp.verification.claims import REGISTRY, load_all, proved
from exactdp.verification.engine import filed_under, instantiating

CLAIM = "grosse2026.thm1"
#: [G] Thm 1's upper bound as docs/claims.md states it, in N (not a restatement in u)
STATED = "a - b <= (t - 1)/(t*(1 - N*c) + 1)"


def _claim():
    load_all()
    return REGISTRY[CLAIM]


def _chain(source=None):
    """(pml_tv filed as a step of Thm 1, its instantiation at u = N*c carrying Thm 1's part in N)."""
    claim = _claim()
    out = instantiating(source or CC.pml_tv(), claim.written, claim.id)
    assert out is not None
    return out


def _both(cert: Certificate, claim: str = CLAIM) -> tuple:
    """(engine truth through a JSON round trip, recheck status)."""
    d = json.loads(json.dumps(cert.to_json()))
    return check(Certificate.from_json(d)).truth, recheck_certificate(d, claim=claim).status


def _proof_rechecks(certs, claim: str = CLAIM) -> list:
    return [r.status for r in _with_uses_met([recheck_certificate(c.to_json(), claim=claim)
                                              for c in with_lemmas(tuple(certs))])]


def test_thm1_pair_bound_is_stated_in_n_and_carried_by_the_instantiation():
    """The written part is the paper's bound in N; the instantiation at u = N*c of pml_tv (a step in u) carries
    it: TRUE in the engine, OK in recheck (the step too), the citation met; the step is pml_tv's statement on its
    own region 2c <= u <= 1."""
    step, inst = _chain()
    assert inst.statement.conclusions == (STATED,) and inst.statement.parameters == ("t", "c", "N")
    assert inst.statement.domain == ("t >= 1", "c > 0", "N >= 2", "N*c <= 1")
    assert step.statement.claim == "step of " + CLAIM and "u >= 2*c" in step.statement.domain
    assert inst.substitution == (("u", "N*c"),) and inst.source == step.name
    for x in (step, inst):
        assert _both(x) == (Truth.TRUE, OK), x.name
    assert citation_failures([step, inst]) == []
    assert set(_proof_rechecks([step, inst])) == {OK}
    r = recheck_certificate(inst.to_json(), claim=CLAIM)
    assert any("u >= 2*c at u = N*c" in s for s in r.steps), r.steps
    # the written part is not a copy: the source's conclusion (in u) unchanged would be
    assert not restates(inst.statement, inst.to_json())
    assert restates(dataclasses.replace(inst.statement, conclusions=step.statement.conclusions), inst.to_json())


def test_the_engine_files_pml_tv_as_a_step_and_adds_its_instance():
    """filed_under on a proof with pml_tv: pml_tv becomes a step, and the instantiation that carries the claim's
    part in N is in the outcome (checked again when the outcome is rebuilt)."""
    claim = _claim()
    o = filed_under(claim, proved("upper bound", (CC.pml_tv(), CC.trivial_tv()), CC.ALL_N_M, derivation=("x",)))
    kinds = {c.kind: c for c in o.certificates}
    inst = kinds["instantiation"]
    assert inst.statement.conclusions == (STATED,)
    src = next(c for c in o.certificates if c.name == inst.source)
    assert src.statement.claim == "step of " + CLAIM and src.parameters == ("t", "c", "u")


def test_a_region_that_misses_some_n_is_rejected():
    """pml_tv with its region cut to u <= 1/2 (then N*c = 1 is not covered): as the step it was (u <= 1 stated)
    REJECTED; re-stated on the cut region it is consistent, but its instance at u = N*c is FALSE (N*c <= 1/2 does
    not hold on N*c <= 1) and REJECTED, and the engine finds no instance that carries the claim."""
    step, inst = _chain()
    cut = dataclasses.replace(step, region=("t >= 1", "c > 0", "u >= 2*c", "u <= 1/2"))
    assert _both(cut)[0] is not Truth.TRUE and _both(cut)[1] == REJECTED
    restated = dataclasses.replace(CC.pml_tv(), region=cut.region)
    assert instantiating(restated, _claim().written, CLAIM) is None
    step2 = restated.states("step of " + CLAIM)
    assert _both(step2) == (Truth.TRUE, OK)
    inst2 = dataclasses.replace(inst, source=step2.name, source_statement=step2.statement)
    truth, status = _both(inst2)
    assert truth is not Truth.TRUE and status == REJECTED


def test_a_tampered_substitution_or_target_is_rejected():
    """u -> (N - 1)*c (2c <= (N - 1)c fails at N = 2, and the conclusion is not the stated one), u -> (N**2*c - 2*N*c)/(N - 2)
    (a rational image: a substitution of a parameter must be a polynomial), the target's
    conclusion strengthened to Xi/2, the target's domain widened to N >= 1: not TRUE in the engine, REJECTED by
    recheck."""
    _, inst = _chain()
    st = inst.statement
    cases = {
        "substitution (N - 1)*c": dataclasses.replace(inst, substitution=(("u", "(N - 1)*c"),)),
        # a rational image, N*c except at its pole N = 2 (in the domain): a substitution must be a polynomial
        "substitution (N**2*c - 2*N*c)/(N - 2)": dataclasses.replace(
            inst, substitution=(("u", "(N**2*c - 2*N*c)/(N - 2)"),)),
        "conclusion Xi/2": inst.bound_to(dataclasses.replace(
            st, conclusions=("a - b <= (t - 1)/(2*(t*(1 - N*c) + 1))",))),
        "domain N >= 1": dataclasses.replace(inst, region=("t >= 1", "c > 0", "N >= 1", "N*c <= 1")).bound_to(
            dataclasses.replace(st, domain=("t >= 1", "c > 0", "N >= 1", "N*c <= 1"))),
    }
    for what, x in cases.items():
        truth, status = _both(x)
        assert truth is not Truth.TRUE and status == REJECTED, what


def test_an_instance_citing_a_missing_certificate_is_refused():
    """The source's name pointing at no certificate of the proof, or the step left out: the proof checks (the
    engine's citation check and recheck's) refuse it, though the instance alone is consistent data."""
    step, inst = _chain()
    renamed = dataclasses.replace(inst, source="(eps,c)-PML Dobrushin bound, edited")
    assert _both(renamed) == (Truth.TRUE, OK)
    assert citation_failures([step, renamed]) and REJECTED in _proof_rechecks([step, renamed])
    assert citation_failures([inst]) and REJECTED in _proof_rechecks([inst])


def test_recheck_smt_confirms_the_instance_and_refutes_a_wrong_substitution():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    _, inst = _chain()
    assert smt_check_certificate(inst.to_json(), claim=CLAIM).status == CONFIRMED
    bad = dataclasses.replace(inst, substitution=(("u", "(N - 1)*c"),))
    assert smt_check_certificate(bad.to_json(), claim=CLAIM).status == REFUTED


@pytest.mark.parametrize("claim_id, source", [("grosse2026.lem4", "lemma4_ratio"),
                                               ("grosse2026.lem1", "zero_entries")])
def test_lemma4_and_lemma1_are_carried_in_n(claim_id, source):
    """[G] Lemma 4 (u -> N*c) and Lemma 1 (v -> N - l): the instance carries the part stated in N (and l)."""
    load_all()
    claim = REGISTRY[claim_id]
    step, inst = instantiating(getattr(CC, source)(), claim.written, claim.id)
    assert "u" not in inst.statement.parameters and "v" not in inst.statement.parameters
    assert check(inst).truth is Truth.TRUE and citation_failures([step, inst]) == []
    assert recheck_certificate(inst.to_json(), claim=claim_id).status == OK


@pytest.fixture(scope="module")
def lem4_export(tmp_path_factory):
    """[G] Lemma 4's export: lemma4_ratio in u (a step) and its instantiation at u = N*c, with the lemmas."""
    from exactdp.verification.engine import verify
    from exactdp.verification.export import write_certificates

    root = tmp_path_factory.mktemp("lem4")
    write_certificates(verify(("grosse2026.lem4",), seed=0, quick=True), root)
    return root


def _edited_export(src, tmp_path, edit) -> tuple:
    """A copy of the export with ``edit(root, index, rels)`` applied and index.json re-signed (so only the
    citation can catch it); returns (root, the instantiation's file)."""
    import hashlib
    import shutil

    root = tmp_path / "edited"
    shutil.copytree(src, root)
    index = json.loads((root / "index.json").read_text())
    entry = index["claims"]["grosse2026.lem4"]
    kinds = {rel: json.loads((root / rel).read_text())["certificate"]["kind"] for rel in entry["certificates"]}
    (inst,) = [rel for rel, k in kinds.items() if k == "instantiation"]
    edit(root, index, entry, inst)
    index["sha256"] = {rel: hashlib.sha256((root / rel).read_bytes()).hexdigest() for rel in entry["certificates"]}
    (root / "index.json").write_text(json.dumps(index))
    return root, inst


def _drop_source(root, index, entry, inst):
    source = json.loads((root / inst).read_text())["certificate"]["source"]
    (rel,) = [r for r in entry["certificates"] if r != inst
              and json.loads((root / r).read_text())["certificate"]["name"] == source]
    (root / rel).unlink()
    for x in [entry, *entry["checks"]]:
        if rel in x["certificates"]:
            x["certificates"].remove(rel)


def _edit_copied_statement(root, index, entry, inst):
    """The instance's copy of its source's statement with one domain condition written twice: the chain alone
    still holds, but the copy is not the statement the source carries."""
    doc = json.loads((root / inst).read_text())
    doc["certificate"]["source_statement"]["domain"].append(doc["certificate"]["source_statement"]["domain"][0])
    (root / inst).write_text(json.dumps(doc))


EDITS = [(_drop_source, "not among the claim's certificates"), (_edit_copied_statement, "not the one it carries")]


@pytest.mark.parametrize("edit, why", EDITS)
def test_recheck_checks_the_citations_of_an_export(lem4_export, tmp_path, edit, why):
    """The instantiation's source left out of the folder, or its copied statement edited (index re-signed): recheck
    REJECTS the instance, while the genuine export is all OK."""
    from exactdp.recheck import recheck_directory

    if edit is _drop_source:  # the genuine export, once
        assert {r.status for r in recheck_directory(lem4_export)} == {OK}
    root, inst = _edited_export(lem4_export, tmp_path, edit)
    bad = [r for r in recheck_directory(root) if r.status != OK]
    assert [r.kind for r in bad] == ["instantiation"] and bad[0].status == REJECTED
    assert any(why in x for x in bad[0].reasons), bad[0].reasons


@pytest.mark.slow
@pytest.mark.parametrize("edit, why", EDITS)
def test_recheck_smt_checks_the_citations_of_an_export(lem4_export, tmp_path, edit, why):
    """As recheck: recheck --smt REFUTES the instance (the same structural check, exactdp.recheck.unmet_citations,
    no solver needed for it), while the genuine export is all CONFIRMED."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_directory

    if edit is _drop_source:  # the genuine export, once
        assert {c.status for c in smt_check_directory(lem4_export, timeout=20)} == {CONFIRMED}
    root, inst = _edited_export(lem4_export, tmp_path, edit)
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status != CONFIRMED]
    assert [c.kind for c in bad] == ["instantiation"] and bad[0].status == REFUTED
    assert any(why in x for x in bad[0].reasons), bad[0].reasons


@pytest.fixture(scope="module")
def xi_chain():
    """[G] Thm 1's Xi regimes part (written in N, with "when" conditions) and the (step, instantiation) the engine
    files for it: the certificate in u = N*c, its conditions substituted."""
    claim = _claim()
    (part,) = [p for p in claim.written if p.conclusions[0].endswith("< 1 when t*N*c < 2")]
    return instantiating(CC.xi_statements(), (part,), CLAIM)


def test_xi_regimes_is_carried_in_n_with_its_conditions(xi_chain):
    """The written part "Xi's branch < 1 when t*N*c < 2, >= 1 when t*N*c >= 2" (in N) is carried by the
    instantiation at u = N*c of the step in u, whose conditions t >= 1; u > 0; u <= 1; t*u < 2 become
    t*N*c < 2 (a stated condition) and N*c > 0, N*c <= 1 (decided on the stated domain): TRUE / OK, citation met."""
    step, inst = xi_chain
    assert inst.statement.conclusions == ("(t - 1)/(t*(1 - N*c) + 1) < 1 when t*N*c < 2",
                                          "(t - 1)/(t*(1 - N*c) + 1) >= 1 when t*N*c >= 2")
    assert "t*u < 2" in step.statement.conclusions[1] and inst.substitution == (("u", "N*c"),)
    for x in (step, inst):
        assert _both(x) == (Truth.TRUE, OK), x.name
    assert citation_failures([step, inst]) == [] and set(_proof_rechecks([step, inst])) == {OK}
    r = recheck_certificate(inst.to_json(), claim=CLAIM)
    assert any("derived condition N*c*t < 2 is a stated condition" in s for s in r.steps), r.steps


def test_an_edited_condition_of_the_xi_chain_is_rejected(xi_chain):
    """A stated condition widened (t*N*c < 3: the branch is not < 1 at t*N*c = 5/2), a condition dropped (the
    branch < 1 everywhere), a conclusion's sense flipped under its condition: not TRUE in the engine, REJECTED by
    recheck.  The source's copied condition edited to t*u < 3 (a weaker source would still carry the part): the
    instance alone is consistent, but its copy is not the step's statement, so the proof checks refuse it."""
    step, inst = xi_chain
    st = inst.statement
    b = "(t - 1)/(t*(1 - N*c) + 1)"
    for concl in [(f"{b} < 1 when t*N*c < 3", st.conclusions[1]), (f"{b} < 1", st.conclusions[1]),
                  (st.conclusions[0], f"{b} < 1 when t*N*c >= 2")]:
        truth, status = _both(inst.bound_to(dataclasses.replace(st, conclusions=concl)))
        assert truth is not Truth.TRUE and status == REJECTED, concl
    src = inst.source_statement
    edited = dataclasses.replace(src, conclusions=tuple(x.replace("t*u < 2", "t*u < 3") for x in src.conclusions))
    assert edited != src
    copy = dataclasses.replace(inst, source_statement=edited)
    assert _both(copy) == (Truth.TRUE, OK)
    assert citation_failures([step, copy]) and REJECTED in _proof_rechecks([step, copy])


def test_the_disjoint_rows_witness_is_carried_in_n():
    """[G] Thm 2's witness part "1 <= t*(N*c/2 + (1 - N*c)*0) when t*N*c >= 2" (in N): carried by the instance at
    u = N*c of the witness statements in u (whose column-sum equation is left out of the instance); the condition
    widened to t*N*c >= 1 (then 1 <= t*N*c/2 fails at t*N*c = 1) or dropped is REJECTED and not TRUE."""
    load_all()
    claim = REGISTRY["grosse2026.thm2_tv"]
    step, inst = instantiating(CC.disjoint_rows_witness_statements(), claim.written, claim.id)
    assert inst.statement.conclusions == ("1 <= t*(N*c/2 + (1 - N*c)*0) when t*N*c >= 2",)
    assert any(" == " in x for x in step.statement.conclusions)
    for x in (step, inst):
        d = json.loads(json.dumps(x.to_json()))
        assert check(Certificate.from_json(d)).truth is Truth.TRUE
        assert recheck_certificate(d, claim="grosse2026.thm2_tv").status == OK
    assert citation_failures([step, inst]) == []
    for concl in ("1 <= t*(N*c/2 + (1 - N*c)*0) when t*N*c >= 1", "1 <= t*(N*c/2 + (1 - N*c)*0)"):
        d = json.loads(json.dumps(inst.bound_to(dataclasses.replace(inst.statement, conclusions=(concl,))).to_json()))
        assert check(Certificate.from_json(d)).truth is not Truth.TRUE, concl
        assert recheck_certificate(d, claim="grosse2026.thm2_tv").status == REJECTED, concl


def test_the_middle_row_achiever_is_carried_in_n_with_its_identity():
    """[G] Thm 1's middle-row achiever in N: the identity M - m = Xi's branch and m >= 0, M <= 1 when t*N*c <= 2,
    carried by the instance at u = N*c of the achiever's statements in u (an equation of the source gives the
    stated one when their differences agree up to sign, exactly).  Edited: the identity's right side halved, the
    condition widened to t*N*c <= 3 (m < 0 there): not TRUE, REJECTED.  The source's copied identity edited: the
    stated identity M - m = Xi's branch still holds exactly (it cancels to 0 as written, as do the achiever's other
    identities), so the instance alone stays consistent, but its copy is not the step's statement and the proof
    checks refuse it."""
    from exactdp.theory import pml_attainment

    claim = _claim()
    step, inst = instantiating(pml_attainment.middle_row_achiever(), claim.written[3:], CLAIM)
    z = "(t*(1 - N*c) + 1)"
    assert inst.statement.conclusions[0] == f"t*(1 - N*c/2)/{z} - (1 - t*N*c/2)/{z} == (t - 1)/{z}"
    for x in (step, inst):
        assert _both(x) == (Truth.TRUE, OK), x.name
    assert citation_failures([step, inst]) == [] and set(_proof_rechecks([step, inst])) == {OK}
    st = inst.statement
    for concl in [(st.conclusions[0].replace("== (t - 1)/", "== (t - 1)/2/"), *st.conclusions[1:]),
                  (st.conclusions[0], st.conclusions[1].replace("t*N*c <= 2", "t*N*c <= 3"), st.conclusions[2])]:
        truth, status = _both(inst.bound_to(dataclasses.replace(st, conclusions=concl)))
        assert truth is not Truth.TRUE and status == REJECTED, concl
    src = inst.source_statement
    edited = dataclasses.replace(src, conclusions=tuple(
        x.replace("== (t - 1)/", "== (t + 1)/") if " == (t - 1)/" in x else x for x in src.conclusions))
    assert edited != src
    copy = dataclasses.replace(inst, source_statement=edited)
    assert citation_failures([step, copy]) and REJECTED in _proof_rechecks([step, copy])


# -- [G] G-20: a variable substituted (alpha -> c*q) with its hypotheses --------------------------------------

G20 = "grosse2026.g20_achieving"
Z = "(1 + t*(1 - N*c))"
#: the three parts as docs/claims.md G-20 states them (m >= 0, M <= 1, M - m = Xi's branch), in N, c, q
G20_STATED = (f"(1 - t*c*q)/{Z} >= 0", f"t*(1 - c*q)/{Z} <= 1", f"t*(1 - c*q)/{Z} - (1 - t*c*q)/{Z} == "
                                                              f"(t - 1)/(t*(1 - N*c) + 1)")


@pytest.fixture(scope="module")
def g20_chains():
    """[(step in alpha, u; its instance in N, c, q)] for m >= 0, M <= 1 and M - m: G-20's proof filed by the
    engine (:func:`filed_under`, which adds the instantiations as for every claim)."""
    load_all()
    from exactdp.verification.claims import CheckContext
    from exactdp_proofs.grosse2026._achieving_mechanisms import check_proof

    o = filed_under(REGISTRY[G20], check_proof(CheckContext(0, True)))
    by_name = {c.name: c for c in o.certificates}
    return [(by_name[c.source], c) for c in o.certificates if c.kind == "instantiation"]


def test_g20_the_engine_finds_the_variable_substitution_and_writes_the_definitions_out():
    """The automatic path (:func:`instantiating`, the declared table SUBSTITUTIONS) on m >= 0's certificate (in
    alpha, u, with its definitions of m, M, z): the step's statement is written without m, M, z — the conclusion
    (1 - t*alpha)/(t*(1 - u) + 1) >= 0, the hypothesis 1 - t*alpha >= 0 —, and its instance at u = N*c,
    alpha = c*q carries the part in N, c, q, TRUE / OK.  The certificate as the engine first filed it (its
    statement naming m) would not be citable: its conclusion m >= 0 at the substitution is not the part's."""
    from exactdp.theory import pml_attainment

    load_all()
    written = REGISTRY[G20].written
    cert = pml_attainment.g20_feasibility()[0]
    step, inst = instantiating(cert, written, G20)
    assert inst.substitution == (("u", "N*c"), ("alpha", "c*q")) and inst.variables == ("q",)
    assert inst.statement == written[0] and inst.source == step.name
    assert step.statement.conclusions == ("(-alpha*t + 1)/(t*(1 - u) + 1) >= 0",)
    assert step.statement.hypotheses == ("-alpha*t + 1 >= 0",)
    assert step.statement.variables == ("alpha",) and step.statement.parameters == ("t", "u")
    for x in (step, inst):
        assert _both(x, G20) == (Truth.TRUE, OK), x.name
    assert citation_failures([step, inst]) == []
    raw = cert.states("step of " + G20)
    assert raw.statement.conclusions == ("m >= 0",)
    _rejected(dataclasses.replace(inst, source=raw.name, source_statement=raw.statement))
    # M <= 1 (the second part; the first is tried and refused: its conclusion is not M's) and the identity, whose
    # alpha is a parameter: carried by the same table
    step2, inst2 = instantiating(pml_attainment.g20_feasibility()[1], written, G20)
    assert inst2.statement == written[1] and step2.statement.hypotheses == ("-t*(-alpha + u) + 1 >= 0",)
    _, inst3 = instantiating(pml_attainment.g20_feasibility()[-1], written, G20)
    assert inst3.statement == written[2] and inst3.variables == ()


def test_g20_the_engine_refuses_a_wrong_variable_substitution():
    """The automatic path finds nothing (None: the certificate is then filed as a step and the part stays
    uncarried) with alpha -> c*(q + 1) in the table on the inequality m >= 0 (its substituted hypothesis
    t*c*(q + 1) <= 1 is not the stated one), with the part's hypothesis t*c*q <= 1 not stated (dropped, or
    replaced by t*c*q <= 2), or with a non-polynomial image alpha -> c/q; the genuine table on the same parts
    carries it (so each refusal is the edit's)."""
    from exactdp.theory import pml_attainment

    load_all()
    part = REGISTRY[G20].written[0]
    cert = pml_attainment.g20_feasibility()[0]
    table = (("u", "N*c", False), ("alpha", "c*q", True))
    assert instantiating(cert, (part,), G20, table) is not None
    assert instantiating(cert, (part,), G20, (("u", "N*c", False), ("alpha", "c*(q + 1)", True))) is None
    assert instantiating(cert, (part,), G20, (("u", "N*c", False), ("alpha", "c/q", True))) is None
    for hyps in ((), ("t*c*q <= 2",)):
        assert instantiating(cert, (dataclasses.replace(part, hypotheses=hyps),), G20, table) is None, hyps
    # a table that does not replace the variable (alpha a parameter only) tries no part in q
    assert instantiating(cert, (part,), G20, (("u", "N*c", False), ("alpha", "c*q", False))) is None


def test_g20_parts_are_stated_in_n_c_q_and_carried(g20_chains):
    """Each written part is in N, c, q (q a variable with its hypothesis for the inequalities), the claim's written
    statement, and carried by the instance at u = N*c, alpha = c*q of a step in alpha, u: TRUE in the engine, OK in
    recheck (the step too), citations met; the part is not a copy of the source's conclusion."""
    written = REGISTRY[G20].written
    assert tuple(inst.statement for _, inst in g20_chains) == written
    for (step, inst), stated in zip(g20_chains, G20_STATED):
        assert inst.statement.conclusions == (stated,) and not {"u", "alpha"} & set(inst.statement.parameters)
        assert inst.substitution == (("u", "N*c"), ("alpha", "c*q")) and inst.source == step.name
        assert step.statement.claim == "step of " + G20 and step.statement.parameters[:2] == ("t", "u")
        for x in (step, inst):
            assert _both(x, G20) == (Truth.TRUE, OK), x.name
        assert not restates(inst.statement, inst.to_json())
    assert [p.variables for p in written] == [("q",), ("q",), ()]
    assert [p.hypotheses for p in written[:2]] == [("t*c*q <= 1",), ("t*c*(N - q) <= 1",)]
    certs = [x for pair in g20_chains for x in pair]
    assert citation_failures(certs) == [] and set(_proof_rechecks(certs, G20)) == {OK}
    r = recheck_certificate(g20_chains[0][1].to_json(), claim=G20)
    assert any("u <= 1 at u = N*c" in s for s in r.steps), r.steps
    assert any("derived hypotheses is a hypothesis" in s for s in r.steps), r.steps


def _rejected(cert) -> None:
    truth, status = _both(cert, G20)
    assert truth is not Truth.TRUE and status == REJECTED, cert.statement


def test_g20_tampered_substitution_hypothesis_or_conclusion_is_rejected(g20_chains):
    """alpha -> c*(q + 1) (the substituted hypothesis is then t*c*(q + 1) <= 1, not the stated one), the stated
    hypothesis edited to t*c*q <= 2 (m < 0 at t*c*q = 2), the conclusion strengthened to m >= 1/2, the identity's
    right side edited: not TRUE in the engine, REJECTED by recheck.  M - m does not depend on alpha, so the
    identity's instance at alpha -> c*(q + 1) is the same statement (it stays TRUE)."""
    (_, m_inst), (_, big_m_inst), (_, identity) = g20_chains
    shifted = (("u", "N*c"), ("alpha", "c*(q + 1)"))
    for inst in (m_inst, big_m_inst):
        _rejected(dataclasses.replace(inst, substitution=shifted))
    assert _both(dataclasses.replace(identity, substitution=shifted), G20) == (Truth.TRUE, OK)
    st = m_inst.statement
    _rejected(m_inst.bound_to(dataclasses.replace(st, hypotheses=("t*c*q <= 2",))))
    _rejected(m_inst.bound_to(dataclasses.replace(st, conclusions=(f"(1 - t*c*q)/{Z} >= 1/2",))))
    _rejected(big_m_inst.bound_to(dataclasses.replace(big_m_inst.statement,
                                                      conclusions=(f"t*(1 - c*q)/{Z} <= 1/2",))))
    st = identity.statement
    _rejected(identity.bound_to(dataclasses.replace(st, conclusions=(st.conclusions[0].replace("== (t - 1)/",
                                                                                               "== (t + 1)/"),))))


def test_g20_a_variable_is_substituted_by_a_polynomial_in_the_certificate_names(g20_chains):
    """alpha -> c/q (a pole at q = 0), alpha -> c*r (r is not a name of the certificate), or a parameter
    substituted by a variable (u -> q): REJECTED and not TRUE, whatever the statement."""
    _, inst = g20_chains[0]
    for sigma in ((("u", "N*c"), ("alpha", "c/q")), (("u", "N*c"), ("alpha", "c*r")),
                  (("u", "q"), ("alpha", "c*q"))):
        _rejected(dataclasses.replace(inst, substitution=sigma))


def test_g20_definitions_are_compared_not_trusted(g20_chains):
    """The step's certificate with its definition of z edited to t(1 - u) + 2 is still a valid combination (it
    proves (1 - t alpha)/(t(1 - u) + 2) >= 0) but not the step's statement: REJECTED, not TRUE, and so is the
    proof made of it and the instance."""
    step, inst = g20_chains[0]
    defs = tuple((n, "t*(1 - u) + 2" if n == "z" else v) for n, v in step.definitions)
    edited = dataclasses.replace(step, definitions=defs)
    assert check(edited.bound_to(None)).truth is Truth.TRUE
    _rejected(edited)
    assert REJECTED in _proof_rechecks([edited, inst], G20)


def test_g20_missing_or_edited_source_is_refused(g20_chains):
    """The instance without its step, or citing a renamed source, or with its copy of the source's hypothesis
    edited to t*alpha <= 2: the proof checks (the engine's citation check and recheck's) refuse it."""
    step, inst = g20_chains[0]
    assert citation_failures([inst]) and REJECTED in _proof_rechecks([inst], G20)
    renamed = dataclasses.replace(inst, source="m >= 0, edited")
    assert citation_failures([step, renamed]) and REJECTED in _proof_rechecks([step, renamed], G20)
    src = inst.source_statement
    copy = dataclasses.replace(inst, source_statement=dataclasses.replace(src, hypotheses=("t*alpha <= 2",)))
    assert citation_failures([step, copy]) and REJECTED in _proof_rechecks([step, copy], G20)


def test_g20_recheck_smt_confirms_the_instances_and_refutes_a_shifted_alpha(g20_chains):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    for _, inst in g20_chains:
        assert smt_check_certificate(inst.to_json(), claim=G20).status == CONFIRMED
    bad = dataclasses.replace(g20_chains[0][1], substitution=(("u", "N*c"), ("alpha", "c*(q + 1)")))
    assert smt_check_certificate(bad.to_json(), claim=G20).status == REFUTED


@pytest.fixture(scope="module")
def g20_export(tmp_path_factory):
    """G-20's export (``exactdp verify --certificates``): the steps in alpha, u, their instantiations, the rest."""
    from exactdp.verification.engine import verify
    from exactdp.verification.export import write_certificates

    root = tmp_path_factory.mktemp("g20")
    write_certificates(verify((G20,), seed=0, quick=True), root)
    return root


def _g20_kinds(root) -> list:
    index = json.loads((root / "index.json").read_text())
    return [json.loads((root / rel).read_text())["certificate"] for rel in index["claims"][G20]["certificates"]]


def test_g20_export_rechecks_ok_with_its_three_instantiations(g20_export):
    """Every certificate of G-20's exported proof is OK in recheck (the citations per claim included); the three
    written parts are carried by the instantiations, whose sources are steps in the folder."""
    from exactdp.recheck import recheck_directory

    certs = _g20_kinds(g20_export)
    insts = [c for c in certs if c["kind"] == "instantiation"]
    assert sorted(c["statement"]["conclusions"][0] for c in insts) == sorted(G20_STATED)
    names = {c["name"]: c["statement"]["claim"] for c in certs}
    assert all(names[c["source"]] == "step of " + G20 for c in insts)
    assert {r.status for r in recheck_directory(g20_export)} == {OK}


@pytest.mark.slow
def test_g20_export_is_confirmed_by_recheck_smt(g20_export):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, smt_check_directory

    assert {c.status for c in smt_check_directory(g20_export, timeout=20)} == {CONFIRMED}
