"""A certificate proves the statement it is filed under, or nothing: tampered exports and certificates are
rejected by the engine (:func:`exactdp.algebra.certificates.check`, :meth:`Certificate.from_json`,
:func:`exactdp.verification.export.audit`) and by the independent ``exactdp recheck``.

Kinds: a file deleted (also from the index), a hash mismatch, a renamed certificate, an edited scope, a
certificate moved into another claim's folder, an emptied region, a symbol that is both parameter and variable,
an integer assumption on a real parameter, and five statements that are false only off the grids a re-check
might sample (at N = 9, on an irrational line, at one off-grid point of three parameters, at a negative value,
under an integer assumption) — each is rejected by both (the engine FALSE, recheck REJECTED naming the point);
two more, false only at one point of four parameters or only under a square root, are refuted by the engine with
the exact failing point, by recheck and by z3 and cvc5."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil

import pytest
import sympy

from exactdp.algebra.certificates import Certificate, check
from exactdp.algebra.certificates.statements import SymbolicStatements
from exactdp.errors import ParameterError
from exactdp.numbers.truth import Truth
from exactdp.claim_statement import NOT_BOUND
from exactdp.recheck import OK, REJECTED, UNDECIDED, recheck_certificate, recheck_directory
from exactdp.theory import class_certificates as CC

Q = sympy.Rational

CLAIMS = ("grosse2026.thm4", "grosse2026.cor1", "asoodeh2021.a19_mutual_information", "grosse2026.thm3")


@pytest.fixture(scope="module")
def results():
    from exactdp.verification.engine import verify

    return verify(CLAIMS, seed=0, quick=True)


@pytest.fixture()
def export(results, tmp_path):
    from exactdp.verification.export import write_certificates

    write_certificates(results, tmp_path)
    return tmp_path


def _index(root):
    return json.loads((root / "index.json").read_text())


def _write_index(root, index):
    (root / "index.json").write_text(json.dumps(index, indent=1))


def _rehash(root, rel):
    index = _index(root)
    index["sha256"][rel] = hashlib.sha256((root / rel).read_bytes()).hexdigest()
    _write_index(root, index)


def _engine(results, root) -> list[str]:
    from exactdp.verification.export import audit

    return audit(results, root)


def _recheck(root) -> dict:
    """status -> [(name, reasons)] of ``exactdp recheck``, and the CLI's exit code."""
    from exactdp.cli import main

    report = root.parent / f"{root.name}-recheck.json"
    code = main(["recheck", str(root), "--format", "json", "-o", str(report)])  # one re-check, read from its report
    out: dict = {}
    for r in json.loads(report.read_text())["result"]["certificates"]:
        out.setdefault(r["status"], []).append((r["name"], r["reasons"] or r["trusted"]))
    return out, code


def _proving_check(root):
    """(claim, the certificate files of one of its proving checks)."""
    for cid, entry in _index(root)["claims"].items():
        for c in entry["checks"]:
            if c["verdict"] in ("proved", "proved-modulo") and c["certificates"]:
                return cid, c["certificates"]
    raise AssertionError("no proving check with a certificate")


def _only_certificate(root):
    """(claim, rel) of a certificate of a proving check."""
    cid, rels = _proving_check(root)
    return cid, rels[0]


def _passes(statuses, code) -> bool:
    """Every certificate OK (each carries the statement of the claim it is filed under), and the command exits 0."""
    return set(statuses) == {OK} and code == 0


def test_the_genuine_export_passes_both(results, export):
    assert _engine(results, export) == []
    statuses, code = _recheck(export)
    assert _passes(statuses, code), statuses
    assert {"-a + b + (t - 1)/(t*(1 - u) + 1) >= 0", "-a + b + 1 >= 0"} <= {name for name, _ in statuses[OK]}
    assert any(name.startswith("lemma: two-point bound: ") for name, _ in statuses[OK])  # a lemma states itself
    index = _index(export)
    assert set(index["sha256"]) == {rel for e in index["claims"].values() for rel in e["certificates"]}


def test_a_deleted_file_fails(results, export):
    cid, rel = _only_certificate(export)
    (export / rel).unlink()
    assert any(rel in f and "missing" in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any(name == rel and "missing" in why[0] for name, why in statuses[REJECTED])


def test_a_checks_certificates_deleted_also_from_the_index_fail(results, export):
    """As when the only certificate of grosse2026.thm3 is deleted and unlisted: the proof is incomplete."""
    cid, rels = _proving_check(export)
    index = _index(export)
    entry = index["claims"][cid]
    for rel in rels:
        (export / rel).unlink()
        entry["certificates"].remove(rel)
        del index["sha256"][rel]
    for c in entry["checks"]:
        c["certificates"] = [r for r in c["certificates"] if r not in rels]
    _write_index(export, index)
    assert any(cid in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any(name == cid and "no certificate" in why[0] for name, why in statuses[REJECTED])


def test_a_changed_file_fails_its_hash(results, export):
    cid, rel = _only_certificate(export)
    doc = json.loads((export / rel).read_text())
    doc["certificate"]["name"] = "[A] Thm 1 for all N, M"  # a renamed certificate
    (export / rel).write_text(json.dumps(doc, indent=1))
    assert any(rel in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any(name == rel and "SHA-256" in why[0] for name, why in statuses[REJECTED])
    _rehash(export, rel)  # the index re-signed too: the engine still finds the file is not the one it derives
    assert any(rel in f and "not the certificate the engine derives" in f for f in _engine(results, export))
    with pytest.raises(ParameterError, match="is not the one derived"):
        Certificate.from_json(doc["certificate"])
    statuses, code = _recheck(export)  # and recheck alone: the name is derived from the data
    assert code == 1 and any("the name '[A] Thm 1 for all N, M' is not the one its data give" in why[0]
                             for _, why in statuses[REJECTED]), statuses


def test_an_edited_scope_is_rejected_even_when_rehashed(results, export):
    cid, rel = _only_certificate(export)
    doc = json.loads((export / rel).read_text())
    doc["certificate"]["scope"] = "all N, M; every t"
    (export / rel).write_text(json.dumps(doc, indent=1))
    _rehash(export, rel)
    with pytest.raises(ParameterError, match="scope text"):
        Certificate.from_json(doc["certificate"])
    statuses, code = _recheck(export)
    assert code == 1 and any("scope text" in why[0] for _, why in statuses[REJECTED])


def test_a_certificate_moved_into_another_claims_folder_is_rejected(results, export):
    cid, rel = _only_certificate(export)
    other = next(c for c in CLAIMS if c != cid)
    moved = f"{other}/{rel.split('/', 1)[1]}"
    (export / other).mkdir(exist_ok=True)
    shutil.move(export / rel, export / moved)
    index = _index(export)
    index["claims"][cid]["certificates"].remove(rel)
    index["claims"][other]["certificates"].append(moved)
    index["sha256"][moved] = index["sha256"].pop(rel)
    _write_index(export, index)
    assert any(moved in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any(name == moved and f"filed under {other}" in why[0] for name, why in statuses[REJECTED])
    doc = json.loads((export / moved).read_text())  # the file's claim edited to match its new folder
    doc["claim"] = other
    (export / moved).write_text(json.dumps(doc, indent=1))
    _rehash(export, moved)
    assert any(moved in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any("other certificate files" in why[0] for _, why in statuses[REJECTED])


def test_an_unlisted_file_is_rejected(export):
    src = next(p for p in export.rglob("*.json") if p.name != "index.json")
    shutil.copy(src, src.with_name("extra-0.json"))
    statuses, code = _recheck(export)
    assert code == 1 and any("does not list" in why[0] for _, why in statuses[REJECTED])


# -- tampered certificates: the engine's check and recheck ------------------------------------------------------

def _both(cert: Certificate, edit=None) -> tuple:
    """(engine truth, recheck status) of a certificate through its JSON form (``edit`` changes the dict)."""
    d = json.loads(json.dumps(cert.to_json()))
    if edit:
        edit(d)
    try:
        truth = check(Certificate.from_json(d)).truth
    except ParameterError:
        truth = Truth.FALSE
    return truth, recheck_certificate(d).status


def test_an_emptied_region_is_rejected_by_both():
    ldp = CC.ldp_tv()
    empty = dataclasses.replace(ldp, region=ldp.region + ("t <= 0",))
    truth, status = _both(empty)
    assert truth is Truth.FALSE and status == REJECTED
    assert "the region is empty" in check(empty).failures[-1]


def test_a_symbol_both_parameter_and_variable_is_rejected_by_both():
    """eta_TV <= 1/2 'proved' by declaring a (a variable) also a parameter on a region that bounds it."""
    bad = CC.trivial_tv()
    bad = dataclasses.replace(bad, parameters=("a", "b"), region=("a - b <= 1/2",), conclusion="1/2 - (a - b)",
                              constraints=(("a - b <= 1/2", "1/2 - a + b"),), multipliers=("1",))
    truth, status = _both(bad)
    assert truth is Truth.FALSE and status == REJECTED


def _statements(name, parameters, statements, region=(), assumptions=(), sizes=""):
    return SymbolicStatements(name=name, parameters=parameters, region=region, assumptions=assumptions, sizes=sizes,
                              statements=tuple((f"s{i}", lhs, op, rhs, ()) for i, (lhs, op, rhs) in enumerate(statements)))


#: statements that are false only where a sampling re-check would not look
OFF_GRID = {
    "at N = 9": _statements("N <= 8", ("N",), [("(N - 9)**2", ">", "0")], ("N >= 1",),
                            (("N", "integer,positive"),), "all N"),
    "on an irrational line": _statements("irrational line", ("x", "y"),
                                         [("(x**2 - 2)**2 + (y**2 - 2)**2", ">", "0")]),
    "at one off-grid point of three parameters": _statements(
        "three parameters", ("x", "y", "z"), [("(x - 1/5)**2 + (y - 1/5)**2 + (z - 1/5)**2", ">", "0")]),
    "at a negative value": _statements("negative value", ("x", "y", "z"), [("(x + 1)**2 + y**2 + z**2", ">", "0")]),
    "under an integer assumption on a real parameter": _statements(
        "integer c", ("c",), [("c*(c - 1)", ">=", "0")], (), (("c", "integer"),)),
}


@pytest.mark.parametrize("where", list(OFF_GRID))
def test_statements_false_off_the_grids_are_not_accepted(where):
    """recheck decides them exactly (a cylindrical decomposition sampled at every cell, N at integers,
    algebraic sample points on the irrational line) and names the failing point."""
    truth, status = _both(OFF_GRID[where])
    assert truth is Truth.FALSE, where
    r = recheck_certificate(OFF_GRID[where].to_json())
    assert status == REJECTED, (where, r.trusted)
    if where in FAILING_POINT:
        assert FAILING_POINT[where] in r.reasons[0], r.reasons


#: the failing point each off-grid statement's rejection names
FAILING_POINT = {"at N = 9": "fails at N = 9", "on an irrational line": "x = root of x**2 - 2",
                 "at one off-grid point of three parameters": "fails at x = 1/5, y = 1/5, z = 1/5",
                 "at a negative value": "fails at x = -1, y = 0, z = 0"}


#: false only at one point of four parameters, or only because a root is taken: the engine's prover refutes them with
#: the exact failing point (a cylindrical decomposition in four variables whose projections have rational roots; the
#: root eliminated as a new variable r >= 0 with r^2 = x^2 + 1), recheck decides them exactly (four variables; the
#: root a new variable) and z3 and cvc5 refute them
BEYOND_THREE = {
    "at one point of four parameters": (_statements(
        "four parameters", ("w", "x", "y", "z"),
        [("(w - 1/7)**2 + (x - 2/9)**2 + (y - 1/5)**2 + (z - 1/5)**2", ">", "0")]),
        "fails at w = 1/7, x = 2/9, y = 1/5, z = 1/5"),
    "under a root, far out": (_statements("a root", ("x",), [("sqrt(x**2 + 1)", ">", "x + 1/1000000")]),
                              "x = 999999999999/2000000"),
}


@pytest.mark.parametrize("where", list(BEYOND_THREE))
def test_statements_false_beyond_three_parameters_or_under_a_root_are_rejected_by_all_three(where):
    cert, point = BEYOND_THREE[where]
    truth, status = _both(cert)
    assert truth is Truth.FALSE and status == REJECTED
    assert point in recheck_certificate(cert.to_json()).reasons[0]
    syms = cert.symbols()
    ce = {k: cert.read(v, syms, k) for k, v in cert.counterexample().items()}  # the engine's, read back exactly
    if where == "at one point of four parameters":
        assert ce == {"w": Q(1, 7), "x": Q(2, 9), "y": Q(1, 5), "z": Q(1, 5)}
    else:
        assert set(ce) == {"x"} and ce["x"].is_Rational and ce["x"] >= Q(999999999999, 2000000)
    _, lhs, op, rhs, _ = cert.statements[0]
    original = sympy.StrictGreaterThan(cert.read(lhs, syms, "lhs"), cert.read(rhs, syms, "rhs"))
    assert op == ">" and original.subs({syms[k]: v for k, v in ce.items()}) is sympy.false  # fails there, exactly
    smt = pytest.importorskip("exactdp.smt")
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    assert smt.smt_check_certificate(cert.to_json(), timeout=20).status == smt.REFUTED


def test_an_integer_assumption_must_be_a_size():
    cert = OFF_GRID["under an integer assumption on a real parameter"]
    assert check(cert).truth is Truth.FALSE and "not among the sizes" in check(cert).failures[0]
    r = recheck_certificate(cert.to_json())
    assert r.status == REJECTED and "not among the sizes" in r.reasons[0]


def test_integer_n_is_decided_for_every_n_by_relaxing_it_to_real():
    """A statement in integer N true for every real N >= 2 is OK for every N, with no grid of N."""
    cert = _statements("Nc <= 1", ("N", "c"), [("N*c", "<=", "1")], ("N >= 2", "c <= 1/N"),
                       (("N", "integer,positive"), ("c", "positive")), "all N")
    assert check(cert).truth is Truth.TRUE
    r = recheck_certificate(cert.to_json())
    assert r.status == OK and any("so for every integer one" in s for s in r.steps)


# -- no textual tautologies: substitutions and limits are recorded and re-done -----------------------------------

def test_a_textual_tautology_is_rejected_by_both():
    taut = _statements("phi^n at n = 1", ("t", "delta"), [("1 - (1 - delta)/t", "==", "1 - (1 - delta)/t")])
    truth, status = _both(taut)
    assert truth is Truth.FALSE and status == REJECTED
    assert "textual tautology" in check(taut).failures[0]


def test_recorded_substitutions_and_limits_are_re_done_by_both():
    good = _statements("Xi1 at c = 0 and as c -> 0", ("t", "c", "N"), [
        ("Subs((t - 1)/(t*(1 - N*c) + 1), c, 0)", "==", "(t - 1)/(t + 1)"),
        ("Limit((t - 1)/(t*(1 - N*c) + 1), c, 0)", "==", "(t - 1)/(t + 1)"),
        ("Subs(Subs(1 - (1 - delta)/t, delta, 1 - (1 - delta)**n), t, t**n)", "==", "1 - (1 - delta)**n/t**n")])
    good = dataclasses.replace(good, parameters=("N", "c", "delta", "n", "t"))
    assert _both(good) == (Truth.TRUE, OK)
    r = recheck_certificate(good.to_json())
    assert sum("re-done" in s for s in r.steps) == 3  # the nested Subs is one substitution of two variables
    wrong = dataclasses.replace(good, statements=(("s0", "Subs((t - 1)/(t*(1 - N*c) + 1), c, 1/N)", "==", "t + 1",
                                                   ()),))
    truth, status = _both(wrong)
    assert truth is Truth.FALSE and status == REJECTED  # at c = 1/N it is t - 1


def test_exported_statements_are_no_textual_tautologies(tmp_path):
    """The claims whose steps were substitutions, limits or kernel computations done before export."""
    from exactdp.verification.engine import verify
    from exactdp.verification.export import write_certificates

    ids = ("grosse2026.xi_limits", "background.phi_n_identity", "grosse2026.example_xi_identities",
           "grosse2026.g19_limits")
    results = verify(ids, seed=0, quick=True)
    assert all(r.verdict.value in ("proved", "verified") for r in results)
    write_certificates(results, tmp_path)
    rows = [st for p in tmp_path.rglob("*.json") if p.name != "index.json"
            for st in json.loads(p.read_text())["certificate"].get("statements", [])]
    assert len(rows) >= 10
    assert [st for st in rows if st[1].replace(" ", "") == st[3].replace(" ", "")] == []
    assert any(st[1].startswith("Subs(") for st in rows)
    statuses, code = _recheck(tmp_path)
    assert _passes(statuses, code), statuses  # three parameters decided exactly, not on slices


# -- a certificate proves the statement it is filed under, or nothing (its statement in machine form) ------------

def _claim(claim_id: str):
    from exactdp.verification.engine import select_claims

    return select_claims([claim_id])[0]


def _thm3_bound():
    """[G] Thm 3's Farkas certificate bound to grosse2026.thm3's bound in u = N*c (its written part is in N, carried
    by this certificate's instantiation at u = N*c: tests/verification/test_class_instantiation.py)."""
    from exactdp.claim_statement import ClaimStatement

    return CC.pml_tv().bound_to(ClaimStatement(
        claim="grosse2026.thm3", sizes="all N, M", parameters=("t", "c", "u"), variables=("a", "b", "S"),
        domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "t*u < 2"),
        hypotheses=("a <= t*(c*S + (1 - u)*b)", "1 - b <= t*(u - c*S + (1 - u)*(1 - a))"),
        conclusions=("a - b <= (t - 1)/(t*(1 - u) + 1)",)))


def _restated(cert, **changes):
    return cert.bound_to(dataclasses.replace(cert.statement, **changes))


#: each kind of tampering with the binding, as (the tampered certificate's JSON, what the rejections say)
def _binding_tamperings() -> dict:
    from exactdp.claim_statement import certificate_name

    good = _thm3_bound()
    renamed = json.loads(json.dumps(good.to_json()))
    renamed["statement"]["claim"] = "asoodeh2021.thm1"  # the statement renamed to another claim's
    renamed["name"] = certificate_name(renamed)
    out = {
        "renamed statement": (renamed, "it is filed under grosse2026.thm3"),
        # (t-1)/(t+1) <= (t-1)/(t(1-u)+1): the certificate does not give the smaller bound
        "stronger conclusion": (_restated(good, conclusions=("a - b <= (t - 1)/(t + 1)",)).to_json(),
                                "to the certificate's conclusion is >= 0 on the stated domain"),
        # the certificate's region no longer contains the stated domain's points with 1 <= t < 2
        "region shrunk": (dataclasses.replace(good, region=good.region + ("t >= 2",)).to_json(),
                          "region condition t >= 2 on the stated domain"),
        "empty domain": (_restated(good, domain=good.statement.domain + ("t <= 1/2",)).to_json(),
                         "the stated domain is empty"),
        "parameter also a variable": (_restated(good, parameters=("t", "c", "u", "a")).to_json(),
                                      "both as parameters and as variables"),
        "hypothesis dropped": (_restated(good, hypotheses=good.statement.hypotheses[:1]).to_json(),
                               "is not a hypothesis of the statement"),
        # a true certificate of a weaker bound (a - b <= ... + 1/2, the same combination with slack 1/2) filed under
        # the written statement: its conclusion does not imply the statement
        "weaker certificate": (dataclasses.replace(good, conclusion=f"{good.conclusion} + 1/2", slack="1/2").to_json(),
                               "to the certificate's conclusion is >= 0 on the stated domain"),
    }
    return {k: (json.loads(json.dumps(d)), why) for k, (d, why) in out.items()}


def test_the_bound_certificate_proves_its_statement_in_both():
    good = _thm3_bound()
    assert good.name == "-a + b + (t - 1)/(t*(1 - u) + 1) >= 0"  # what its data prove: filing does not rename it
    result = check(Certificate.from_json(json.loads(json.dumps(good.to_json()))))
    assert result.truth is Truth.TRUE, result.failures
    steps = " ".join(map(str, result.steps))
    assert "statement: region condition t >= 1 on the stated domain: a condition of the stated domain" in steps
    assert "statement: the stated domain is not empty" in steps
    r = recheck_certificate(good.to_json(), claim="grosse2026.thm3")
    assert r.status == OK and not r.trusted, (r.reasons, r.trusted)
    assert any(s.startswith("statement: the stated domain is not empty") for s in r.steps)


@pytest.mark.parametrize("what", list(_binding_tamperings()))
def test_a_tampered_binding_is_rejected_by_the_engine_and_recheck(what):
    from exactdp.verification.claims import proved
    from exactdp.verification.engine import filed_under

    d, why = _binding_tamperings()[what]
    try:
        cert = Certificate.from_json(d)
    except ParameterError:
        cert = None
    if cert is not None:
        with pytest.raises(ValueError):  # the one place that issues "proved", filed under grosse2026.thm3
            filed_under(_claim("grosse2026.thm3"), proved("thm3", [cert], "all N, M"))
    r = recheck_certificate(d, claim="grosse2026.thm3")
    assert r.status == REJECTED and why in r.reasons[0], r.reasons


def test_a_statement_not_in_machine_form_is_undecided_never_ok():
    from exactdp.claim_statement import ClaimStatement

    cert = CC.pml_tv().bound_to(ClaimStatement.not_bound("grosse2026.thm3", "not written yet"))
    result = check(cert)
    assert result.truth is Truth.TRUE and f"{NOT_BOUND}: not written yet" in result.steps
    r = recheck_certificate(cert.to_json(), claim="grosse2026.thm3")
    assert r.status == UNDECIDED and r.trusted == [f"{NOT_BOUND}: not written yet"]


def test_a_certificate_moved_with_its_statement_is_rejected_even_when_refiled(results, export):
    """Moved into another claim's folder, its file's claim and the index edited and re-signed: the statement it
    carries is still grosse2026.thm3's.  (A structural lemma's certificate states the lemma, true wherever it is
    filed; the engine's audit still finds it is not the file it derives.)"""
    rel = next(r for r in _index(export)["claims"]["grosse2026.thm3"]["certificates"]  # not a lemma's: that states
               if json.loads((export / r).read_text())["certificate"]["statement"]["claim"] == "grosse2026.thm3")
    other = "grosse2026.thm4"
    moved = f"{other}/{rel.split('/', 1)[1]}"
    shutil.move(export / rel, export / moved)
    doc = json.loads((export / moved).read_text())
    doc["claim"] = other
    (export / moved).write_text(json.dumps(doc, indent=1))
    index = _index(export)
    index["claims"]["grosse2026.thm3"]["certificates"].remove(rel)
    for entry in (index["claims"]["grosse2026.thm3"], index["claims"][other]):
        for c in entry["checks"]:
            c["certificates"] = [x for x in c["certificates"] if x != rel]
    index["claims"][other]["certificates"].append(moved)
    index["claims"][other]["checks"].append({"name": doc["check"], "verdict": doc["verdict"], "supporting": False,
                                             "certificates": [moved]})
    del index["sha256"][rel]
    _write_index(export, index)
    _rehash(export, moved)
    assert any(moved in f for f in _engine(results, export))
    # thm4 carries a certificate of the same name (the same Farkas certificate, bound to its own statement)
    rs = [r for r in recheck_directory(export) if r.source == other and r.name == doc["certificate"]["name"]]
    assert sorted(r.status for r in rs) == [OK, REJECTED], [(r.status, r.reasons) for r in rs]
    assert any("statement is that of claim 'grosse2026.thm3'" in r.reasons[0] for r in rs if r.status == REJECTED)


def test_a_claim_whose_certificates_are_all_steps_is_rejected(results, export):
    """The certificates of grosse2026.thm3 re-filed as steps of its proof (their statements' claim changed, the index
    re-signed): each still binds, but none carries the claim's statement, so the proof does not reach it."""
    index = _index(export)
    for rel in index["claims"]["grosse2026.thm3"]["certificates"]:
        doc = json.loads((export / rel).read_text())
        st = doc["certificate"]["statement"]
        if st["claim"] == "grosse2026.thm3":
            st["claim"] = "step of grosse2026.thm3"
            (export / rel).write_text(json.dumps(doc, indent=1))
            _rehash(export, rel)
    assert any("grosse2026.thm3" in f for f in _engine(results, export))
    statuses, code = _recheck(export)
    assert code == 1 and any(name == "grosse2026.thm3" and "carries the claim's statement" in why[0]
                             for name, why in statuses.get(REJECTED, [])), statuses
