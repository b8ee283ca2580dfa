"""Proof infrastructure (issue 12, items 4 and 6): no circular "proved" in ``exactdp check``, certificates
exported and re-checked by the independent code path of :mod:`exactdp.recheck`, tampered certificates
rejected by BOTH the engine (:func:`exactdp.algebra.certificates.check`) and ``recheck``."""

from __future__ import annotations

import dataclasses
import json

import pytest

from exactdp.algebra.certificates import Certificate, check
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, UNDECIDED, recheck_certificate
from exactdp.theory import class_certificates as CC
from exactdp.verification.conjecture import check as check_conjecture

THM1 = "eta_tv <= Min((exp(eps)-1)/(exp(eps)*(1-N*c)+1), 1)"


# -- exactdp check: no circular proof ------------------------------------------------------------------------------

def test_thm1_is_proved_from_certificates_not_by_assuming_it():
    r = check_conjecture(THM1, "pml", budget=40)
    assert r.verdict == "proved" and r.rests_on == []
    names = r.to_dict()["certificates"]
    assert "-a + b + (t - 1)/(t*(1 - u) + 1) >= 0" in names and "-a + b + 1 >= 0" in names  # derived: what each proves
    assert all(check(c).truth is Truth.TRUE for c in r.certificates)
    text = "\n".join(r.proof)
    assert "linear-combination '-a + b + (t - 1)/(t*(1 - u) + 1) >= 0'" in text
    assert "= Xi(eps,c) ([G] Thm 1" not in text  # the old proof assumed the theorem it proved
    assert r.scope.startswith("all N, M")  # decided with N a real symbol >= 2, not per sampled size


def test_a_bound_true_only_for_the_sampled_sizes_is_proved_only_for_them():
    """(4 - N) c >= 0 holds for N <= 4 only: the symbolic-N decision fails, the per-N ones give N = 2..4."""
    r = check_conjecture(THM1.replace(", 1)", ", 1) + (4 - N)*c"), "pml", N=(2, 4), budget=20)
    assert r.verdict == "proved" and r.scope.startswith("N = 2..4, all M")
    assert not any("every real N" in s for s in r.proof)


def test_check_json_has_rests_on(capsys):
    from exactdp.cli import main

    assert main(["check", THM1, "--class", "pml", "--budget", "20", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["verdict"] == "proved" and doc["rests_on"] == []
    assert "-a + b + (t - 1)/(t*(1 - u) + 1) >= 0" in doc["certificates"]
    assert main(["check", "eta_hs(exp(eps)) <= delta", "--class", "approx-ldp", "--budget", "20",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["verdict"] == "proved" and doc["rests_on"] == [] and doc["scope"].startswith("all N, M")
    assert "An - Ap + delta*e >= 0" in doc["certificates"]  # [A] Thm 1: the E_gamma contraction


def test_wrong_constant_is_refuted_with_a_counterexample():
    r = check_conjecture(THM1.replace(", 1)", ", 1)*999/1000"), "pml")
    assert r.verdict == "refuted" and r.proof == [] and r.rests_on == []
    from exactdp.numbers.reader import read_rational

    assert read_rational(r.counterexample["slack"]) < 0 and r.counterexample["member"] == "true"


def test_a_step_resting_on_an_unproved_claim_is_never_a_bare_proof(monkeypatch):
    """Without a checking certificate for [A] Thm 1 (eta_{E_{e^eps}} <= delta) the conjecture is only proved
    modulo that claim: a tampered combination (multiplier 2/f) is re-checked on the call and fails."""
    from exactdp.theory import e_gamma_certificates as EG
    from exactdp.verification.claims import Verdict
    from exactdp.verification.conjecture import prove

    good = EG.thm1_contraction()
    broken = dataclasses.replace(good, multipliers=(good.multipliers[0].replace("1/", "2/"), good.multipliers[1]))
    assert broken.multipliers != good.multipliers
    monkeypatch.setattr(prove, "_contraction_certificates", lambda: (EG.event_form(), broken))
    r = check_conjecture("eta_hs(exp(eps)) <= delta", "approx-ldp", budget=20)
    assert r.verdict == "proved-modulo" and r.rests_on == ["asoodeh2021.thm1"]
    assert "verdict:    PROVED MODULO asoodeh2021.thm1" in str(r)
    assert any("registered verdict: proved" in s and "did not check" in s for s in r.proof)
    o = r.as_outcome()
    assert o.verdict is Verdict.PROVED_MODULO and o.rests_on == ("asoodeh2021.thm1",)


def test_a_failing_class_certificate_demotes_the_proof(monkeypatch):
    """The class certificate is checked on every call: a broken one leaves only 'proved modulo' the claim."""
    from exactdp.verification.conjecture import prove

    broken = dataclasses.replace(CC.pml_tv(), multipliers=("1/(1 + t*(1 - u))", "2/(1 + t*(1 - u))"))
    monkeypatch.setattr(prove, "_class_certificates", lambda cls: (broken, CC.trivial_tv()))
    r = check_conjecture(THM1, "pml", budget=20)
    assert r.verdict == "proved-modulo" and r.rests_on == ["grosse2026.thm1"]
    assert any("did not check" in s for s in r.proof)


# -- tampered certificates: rejected by the engine and by recheck -------------------------------------------------

def _both(cert: Certificate) -> tuple:
    """(engine truth, recheck status) of a certificate, the engine's through a JSON round trip too."""
    d = cert.to_json()
    back = Certificate.from_json(json.loads(json.dumps(d)))
    return check(back).truth, recheck_certificate(d).status


@pytest.mark.parametrize("cert", [CC.ldp_tv(), CC.pml_tv(), CC.trivial_tv()], ids=lambda c: c.name)
def test_genuine_certificates_pass_both(cert):
    truth, status = _both(cert)
    assert truth is Truth.TRUE and status == OK


def test_ldp_certificate_is_rechecked_fully_in_one_parameter_lines():
    r = recheck_certificate(CC.ldp_tv().to_json())
    assert r.status == OK and not r.reasons
    assert any("cancels to 0" in s for s in r.steps)


def _tampered():
    ldp, pml = CC.ldp_tv(), CC.pml_tv()
    yield "multiplier perturbed", dataclasses.replace(ldp, multipliers=("1/(t + 1)", "1/(t + 2)"))
    yield "multiplier perturbed (PML)", dataclasses.replace(pml, multipliers=("1/(1 + t*(1 - u))", "1/(2 + t*(1 - u))"))
    # the multiplier 1/(1 + t(1 - u)) changes sign once u > 1 + 1/t: u <= 2 lets it
    yield "region widened", dataclasses.replace(pml, region=tuple(r.replace("u <= 1", "u <= 2") for r in pml.region))
    l4 = CC.lemma4_ratio()  # multipliers 1 - u: u <= 2 lets them go negative
    yield "region widened (Lemma 4)", dataclasses.replace(l4, region=tuple(r.replace("u <= 1", "u <= 2")
                                                                          for r in l4.region))
    yield "sign flipped (conclusion)", dataclasses.replace(ldp, conclusion="(a - b) - (t - 1 + 2*delta)/(t + 1)")
    yield "sign flipped (multiplier)", dataclasses.replace(ldp, multipliers=("-1/(t + 1)", "1/(t + 1)"))
    st = CC.ldp_statements()
    flipped = tuple((lab, lhs, {"<=": ">", ">=": "<", "<": ">=", ">": "<="}.get(op, op), rhs, cond)
                    for lab, lhs, op, rhs, cond in st.statements)
    if flipped != st.statements:
        yield "sign flipped (statement)", dataclasses.replace(st, statements=flipped)


@pytest.mark.parametrize("what, cert", list(_tampered()), ids=[w for w, _ in _tampered()])
def test_tampered_certificate_is_rejected_by_both(what, cert):
    truth, status = _both(cert)
    assert truth is not Truth.TRUE, what
    assert status == REJECTED, what


def test_lp_point_sign_flip_rejected_by_both():
    from exactdp.algebra.certificates.lp_point import LPPoint
    from exactdp.algebra.lp import LinearProgram, solve
    from flint import fmpq

    one, zero = fmpq(1), fmpq(0)
    # max x0 + 2 x1  s.t.  x0 + x1 <= 1, x1 <= 1/2:  optimum 3/2 at (1/2, 1/2), duals (1, 1)
    lp = LinearProgram(c=(one, fmpq(2)), A_ub=((one, one), (zero, one)), b_ub=(one, fmpq(1, 2)))
    cert = LPPoint.of(lp, solve(lp), name="small LP")
    assert _both(cert) == (Truth.TRUE, OK)
    flipped = dataclasses.replace(cert, y_ub=tuple(str(-fmpq(v) if fmpq(v) != 0 else v) for v in (
        fmpq(int(a.split("/")[0]), int(a.split("/")[1]) if "/" in a else 1) for a in cert.y_ub)))
    truth, status = _both(flipped)
    assert truth is not Truth.TRUE and status == REJECTED
    perturbed = dataclasses.replace(cert, value="8/5")
    truth, status = _both(perturbed)
    assert truth is not Truth.TRUE and status == REJECTED


def test_recheck_refuses_code_and_unknown_names():
    d = CC.ldp_tv().to_json()
    d["multipliers"] = ["__import__('os').system('true')", "1/(t + 1)"]
    r = recheck_certificate(d)
    assert r.status == REJECTED and "unreadable" in r.reasons[0]
    assert recheck_certificate({"kind": "no-such-kind"}).status == REJECTED


# -- export, recheck of a run, and the reports' scope and rests_on ---------------------------------------------------

#: [G] Cor 1's one cited step (proofs/_cited_steps.py)
KL_CONVEX = ("the convexity of x log x on x > 0 (T. M. Cover, J. A. Thomas, Elements of Information Theory, 2nd ed., "
             "2006, Sec. 2.6: convex since its second derivative 1/x is positive)")
FEW = ("grosse2026.thm4", "grosse2026.cor1", "asoodeh2021.a19_mutual_information", "background.d11_xi",
       "findings.fg01_uniform_range", "background.b06_binette_instances")


@pytest.fixture(scope="module")
def few_results():
    from exactdp.verification.engine import verify

    return verify(FEW, seed=0, quick=True)


def test_report_has_scope_and_rests_on_chain(few_results):
    from exactdp.output import report

    md = report.to_markdown(few_results, seed=0, quick=True)
    assert "| Claim | Items | Statement | Verdict | Scope | Expected | Instances | Evidence |" in md
    rows = {line.split("|")[1].strip(" `"): line for line in md.splitlines() if line.startswith("| `")}
    thm4 = [c.strip() for c in rows["grosse2026.thm4"].split("|")]
    assert thm4[4] == "**proved (reconstructed statement)**"  # Binette's inequality is a structural lemma now
    assert thm4[5] == "all N, M; t >= 1, 0 < c < 1/N"
    cor1 = [c.strip() for c in rows["grosse2026.cor1"].split("|")]
    assert cor1[4] == "**proved-modulo (reconstructed statement)**; rests on: " + KL_CONVEX
    assert "(verified)" not in cor1[4]  # it rests on the literature, not on a claim we only sampled
    assert [c.strip() for c in rows["background.b06_binette_instances"].split("|")][5] == "instances"
    assert [c.strip() for c in rows["findings.fg01_uniform_range"].split("|")][5] == "—"
    doc = json.loads(report.to_json(few_results, seed=0, quick=True))
    rec = {c["id"]: c for c in doc["claims"]}
    assert rec["grosse2026.cor1"]["rests_on"] == [{"name": KL_CONVEX, "verdict": None}]  # the literature
    assert "-p + q*(t*(1 - u) + 1) >= 0" in rec["grosse2026.thm4"]["certificates"]  # [G] Lemma 4's ratio bound


def test_export_then_recheck(few_results, tmp_path):
    from exactdp.recheck import recheck_directory
    from exactdp.verification.export import write_certificates

    files = write_certificates(few_results, tmp_path)
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["certificates"] == len(files) - 1 == sum(len(r.certificates) for r in few_results)
    assert index["claims"]["grosse2026.thm4"]["rests_on"] == []
    assert index["claims"]["grosse2026.cor1"]["rests_on"] == [KL_CONVEX]
    assert index["claims"]["findings.fg01_uniform_range"]["counterexamples"]
    doc = json.loads((tmp_path / index["claims"]["grosse2026.thm4"]["certificates"][0]).read_text())
    assert doc["claim"] == "grosse2026.thm4" and doc["certificate"]["kind"] == "linear-combination"
    results = recheck_directory(tmp_path)
    assert len(results) == index["certificates"]
    stale = tmp_path / "grosse2026.thm4" / "proof-0.json"
    assert stale.is_file()
    write_certificates([r for r in few_results if r.claim.id != "grosse2026.thm4"], tmp_path)  # a re-export
    assert not stale.exists()  # no stale certificate left for recheck
    files = write_certificates(few_results, tmp_path)
    assert all(r.status == OK for r in results), [r.line() for r in results if r.status != OK]
    # a tampered file is rejected, and the command exits 1
    path = tmp_path / index["claims"]["grosse2026.thm4"]["certificates"][0]
    doc["certificate"]["multipliers"] = ["2*" + m for m in doc["certificate"]["multipliers"]]
    path.write_text(json.dumps(doc))
    from exactdp.cli import main

    assert main(["recheck", str(tmp_path)]) == 1


@pytest.mark.slow
def test_every_certificate_of_a_quick_run_is_rechecked(tmp_path, quick_verify_results):
    """The certificates of `exactdp verify --quick` (the session's quick run, written as `--certificates DIR` writes
    them) then `exactdp recheck DIR`: every certificate OK (three parameters and irrational projection points
    decided exactly, none left UNDECIDED)."""
    from exactdp.recheck import recheck_directory
    from exactdp.verification.export import write_certificates

    write_certificates(quick_verify_results, tmp_path)
    results = recheck_directory(tmp_path)
    assert len(results) >= 40
    assert [r.line() for r in results if r.status != OK] == []
    index = json.loads((tmp_path / "index.json").read_text())
    from exactdp.claim_statement import ClaimStatement, restates

    copied, carrying = [], {}
    for cid, e in index["claims"].items():  # each certificate of a proof carries its claim's statement (written from
        if e["verdict"] in ("proved", "proved-modulo"):  # the paper), a step's of its proof or a lemma's
            for rel in e["certificates"]:
                cert = json.loads((tmp_path / rel).read_text())["certificate"]
                st = cert["statement"]
                assert not st["unbound"] and st["claim"] in (cid, f"step of {cid}") or st["claim"].startswith(
                    "lemma: "), (rel, st)
                if st["claim"] == cid:
                    carrying[cid] = carrying.get(cid, 0) + 1
                    if restates(ClaimStatement.from_json(st), cert):
                        copied.append(rel)
    proved_ids = [cid for cid, e in index["claims"].items() if e["verdict"] in ("proved", "proved-modulo")]
    assert len(proved_ids) >= 41 and [cid for cid in proved_ids if not carrying.get(cid)] == []
    assert copied == []  # no claim's statement is the text of its own certificate's relations
    graph = {cid: e["rests_on"] for cid, e in index["claims"].items()}
    for cid, deps in graph.items():  # no proof rests, through other claims, on itself
        seen, todo = set(), list(deps)
        while todo:
            d = todo.pop()
            assert d != cid, f"{cid} rests on itself"
            if d in graph and d not in seen:
                seen.add(d)
                todo += graph[d]


def test_certificates_option_refuses_a_file(tmp_path, capsys):
    from exactdp.cli import main

    f = tmp_path / "x.json"
    f.write_text("{}")
    assert main(["verify", "background.d11_xi", "--certificates", str(f)]) == 2
    assert "--certificates" in capsys.readouterr().err


def test_two_parameter_conditions_are_decided_exactly_not_on_a_grid():
    """(u - 7/10)(u - 71/100) + (t - 13/10)^2 >= 0 fails only near t = 13/10, u in (7/10, 71/100): no grid line
    meets it, the cylindrical decomposition (sympy projection + root isolation) does; the true variant is OK."""
    from exactdp.algebra.certificates.statements import SymbolicStatements

    def cert(shift):
        return SymbolicStatements(name="two-parameter", parameters=("t", "u"), region=("t >= 1", "u >= 0", "u <= 1"),
                                  statements=(("s", f"(u - 7/10)*(u - 71/100) + (t - 13/10)**2 + {shift}", ">=", "0",
                                               ()),))
    bad, good = cert("0"), cert("1/40000")
    assert check(bad).truth is Truth.FALSE and check(good).truth is Truth.TRUE
    r = recheck_certificate(bad.to_json())
    assert r.status == REJECTED and "fails at" in r.reasons[0]
    r = recheck_certificate(good.to_json())
    assert r.status == OK and any("cylindrical decomposition in (t, u)" in s for s in r.steps)


# -- a parametric LP ([G] Thm 1 with equality at N = 2): coverage gaps rejected by both ----------------------------

@pytest.fixture(scope="module")
def thm1_n2():
    import sympy

    from exactdp.theory.parametric import sup_eta_tv

    t, c = sympy.symbols("t c", positive=True)
    r = sup_eta_tv(2, t=t, c=c)
    (first, where), (rest, _) = r.value.args  # Xi(eps, c) at N = 2, with equality
    assert sympy.cancel(first - (t - 1) / (t * (1 - 2 * c) + 1)) == 0 and rest == 1 and where == (c * t <= 1)
    (cert,) = r.certificates
    return cert


def test_parametric_lp_certificate_passes_both(thm1_n2):
    assert _both(thm1_n2) == (Truth.TRUE, OK)


def _tampered_trees(cert):
    split, cond, left, right = cert.tree
    yield "coverage gap (open cell)", dataclasses.replace(cert, tree=(split, cond, left, ("open",)))
    yield "coverage gap (a non-empty cell called empty)", dataclasses.replace(cert, tree=(split, cond, left, ("empty",)))
    yield "region widened (its condition dropped)", dataclasses.replace(
        cert, region_conditions_=((),) + tuple(cert.region_conditions_[1:]), tree=(split, cond, ("region", "0"), right))


def test_parametric_lp_tampering_is_rejected_by_both(thm1_n2):
    for what, cert in _tampered_trees(thm1_n2):
        truth, status = _both(cert)
        assert truth is not Truth.TRUE, what
        assert status == REJECTED, what


def test_recheck_estimates_its_work_first():
    """Root isolation is refused above max_work before it starts: the certificate is then not re-checked
    further (UNDECIDED, saying so), never passed as OK and never rejected for it."""
    from exactdp.limits import limits

    with limits(max_work=10):
        r = recheck_certificate(CC.ldp_tv().to_json())
    assert r.status == UNDECIDED and "max_work" in r.trusted[0]


def test_no_proof_rests_on_itself(few_results):
    """The "rests on" relation is acyclic (cor1 -> thm4 -> b06, b01), and a cycle would be found."""
    from types import SimpleNamespace

    from exactdp.output.report import circular_chains

    assert circular_chains(few_results) == []
    fake = [SimpleNamespace(claim=SimpleNamespace(id=a), rests_on=(b,)) for a, b in (("x", "y"), ("y", "z"), ("z", "x"))]
    assert circular_chains(fake) == [["x", "y", "z", "x"]]


def test_malformed_files_are_rejected_in_one_line(tmp_path):
    """A file nested beyond the JSON reader, a split tree deeper than max_nesting, a wrong shape: REJECTED."""
    from exactdp.recheck import recheck_directory

    (tmp_path / "deep.json").write_text("[" * 100000 + "]" * 100000)
    lp = {"kind": "parametric-lp", "name": "parametric LP optimum on 1 regions", "parameters": ["t"], "region": ["t >= 1"], "scope": "t >= 1", "c": ["1"],
          "A_ub": [["1"]], "b_ub": ["1"], "region_conditions_": [[]], "region_x": [["1"]], "region_y_ub": [["1"]],
          "region_y_eq": [[]], "region_value": ["1"], "tree": ["region", "0"]}
    assert recheck_certificate(lp).status == OK  # max x s.t. x <= 1: optimum 1 at x = 1, y = 1
    tree = ["region", "0"]
    for _ in range(200):
        tree = ["split", "t >= 2", tree, ["empty"]]
    (tmp_path / "tree.json").write_text(json.dumps({**lp, "tree": tree}))
    (tmp_path / "shape.json").write_text(json.dumps({**lp, "A_ub": "1"}))
    results = {r.source: r for r in recheck_directory(tmp_path)}
    assert all(r.status == REJECTED for r in results.values()), results
    assert "max_nesting" in results["tree.json"].reasons[0]


def test_a_bound_free_of_n_is_proved_for_every_n():
    """The (eps,delta)-LDP certificate and a right side without N: one decision, scope all N, M."""
    r = check_conjecture("eta_tv <= 1-(1-delta)*exp(-eps)", "approx-ldp", budget=20)
    assert r.verdict == "proved" and r.scope.startswith("all N, M")
    names = r.to_dict()["certificates"]
    assert names[:2] == ["(2*delta + t - 1)/(t + 1) <= 1 - (1 - delta)/t", "-a + b + (2*delta + t - 1)/(t + 1) >= 0"]
    # the structural lemmas the class certificate uses, checked with it, each named by its lemma
    assert [n.split(":")[1] for n in names[2:]] == [" aggregation over an output set"] + [" two-point bound"] * 3


def test_show_prints_scope_and_what_a_claim_rests_on(capsys):
    from exactdp.cli import main

    assert main(["show", "grosse2026.cor1", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "  scope:      all N, M; t ≥ 1, 0 < c < 1/N\n" in out  # the scope typeset by the terminal printer
    assert "  rests on:   the convexity of x log x" in out


def test_recheck_settles_a_sign_in_three_parameters_from_its_factors():
    """recheck's factor route (three or more parameters): t(u - 2c)(1 - 2ct)/(1 - ct) >= 0 on t >= 1, c > 0,
    3c <= u <= 1, 2ct <= 1 follows from the signs of t, u - 2c, 1 - 2ct (>= 0) and 1 - ct (> 0), each decided on
    the region; with 2ct <= 1 left out, 1 - 2ct has no sign and the route declines (e is -2/3 at t = 2, c = 1/3,
    u = 1, a point of that region)."""
    import sympy

    from exactdp.recheck import Recheck, _by_factors

    t, c, u = sympy.symbols("t c u", real=True)
    e = t * (u - 2 * c) * (1 - 2 * c * t) / (1 - c * t)
    region = [t >= 1, c > 0, u >= 3 * c, u <= 1]
    r = Recheck("x", "linear-combination")
    assert _by_factors(e, region + [1 - 2 * c * t >= 0], r, "e >= 0")
    assert r.status == OK and r.steps[-1] == "e >= 0: from the signs of its 4 irreducible factors"
    assert not _by_factors(e, region, Recheck("x", "linear-combination"), "e >= 0")
    assert e.xreplace({t: 2, c: sympy.Rational(1, 3), u: 1}) == sympy.Rational(-2, 3)


def test_a_question_is_decided_once_and_its_answer_replayed_exactly(monkeypatch):
    """recheck.decide remembers each question's answer (steps, reasons, parts not re-checked): a second re-check of
    a certificate decides nothing again and gives the same report; a false claim is REJECTED again with the same
    failing point; under other limits, or on a report already REJECTED, the question is decided again."""
    import sympy

    from exactdp import recheck as R
    from exactdp.limits import limits
    from exactdp.numbers.memo import Memo

    monkeypatch.setattr(R, "_DECISIONS", Memo())
    calls = []
    real = R._decide
    monkeypatch.setattr(R, "_decide", lambda *a, **k: calls.append(a[3]) or real(*a, **k))
    d = CC.pml_tv().to_json()
    first = recheck_certificate(d)
    assert first.status == OK and calls
    n = len(calls)
    again = recheck_certificate(d)
    assert again.to_dict() == first.to_dict() and len(calls) == n
    t = sympy.Symbol("t", real=True)
    reports = [R.Recheck("x", "k") for _ in range(2)]
    for r in reports:
        R.decide(t - 2 >= 0, [t >= 1], r, "t >= 2")
    assert [r.status for r in reports] == [REJECTED] * 2 and reports[0].reasons == reports[1].reasons == [
        "t >= 2: t - 2 >= 0 fails at t = 1"]
    assert len(calls) == n + 1
    R.decide(t - 2 >= 0, [t >= 1], reports[0], "t >= 2")  # already REJECTED: decided directly
    assert len(calls) == n + 2 and reports[0].reasons == ["t >= 2: t - 2 >= 0 fails at t = 1"] * 2
    with limits(max_work=10):
        low = recheck_certificate(d)
    assert low.status == UNDECIDED and len(calls) > n + 2
