"""The SMT second checker (:mod:`exactdp.smt`, ``exactdp recheck DIR --smt``): each certificate's obligations
written as SMT-LIB problems and decided by z3 and cvc5.

Hand-made valid certificates of every kind are confirmed by both solvers; tampered ones (a changed
multiplier, a flipped inequality, an emptied region, a coverage gap, a wrong LP value) are refuted, with a
model that is checked here to be a real counterexample in exact arithmetic; real exported certificates are
confirmed; the oracle reports evidence and proves nothing."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

#: z3 and cvc5 on exported certificates: in the full run, not the quick one
pytestmark = pytest.mark.slow

pytest.importorskip("z3")
pytest.importorskip("cvc5")

from exactdp.cli import main  # noqa: E402
from exactdp.smt import CONFIRMED, REFUTED, UNKNOWN, oracle, smt_check_certificate  # noqa: E402

LC = {"kind": "linear-combination", "name": "t - a >= 0", "parameters": ["t"], "region": ["t >= 1"],
      "variables": ["a", "b"], "constraints": [["a <= t b", "t*b - a"], ["b <= 1", "1 - b"]],
      "multipliers": ["1", "t"], "conclusion": "t - a", "slack": "0"}

ST = {"kind": "symbolic-statements", "name": "two statements", "parameters": ["t", "N"], "region": ["t >= 1"],
      "assumptions": [["N", "integer, positive"]], "sizes": "all N",
      "statements": [["ratio below one", "(t - 1)/(t + 1)", "<", "1", []],
                     ["Gauss", "N*(N + 1)/2 - N", "==", "N*(N - 1)/2", []],
                     ["root", "sqrt(t**2)", "==", "t", []],
                     ["max", "Max(t, 1/t)", "==", "t", []]]}

LP = {"kind": "lp-point", "name": "max x1 + x2", "parameters": [], "c": ["1", "1"], "A_ub": [["1", "2"], ["3", "1"]],
      "b_ub": ["4", "6"], "x": ["8/5", "6/5"], "y_ub": ["2/5", "1/5"], "value": "14/5"}

# max x  s.t.  x <= p, x <= 1 (x >= 0), on p >= 0: x = p (p <= 1) or x = 1 (p >= 1)
PLP = {"kind": "parametric-lp", "name": "min(p, 1)", "parameters": ["p"], "region": ["p >= 0"], "c": ["1"],
       "A_ub": [["1"], ["1"]], "b_ub": ["p", "1"], "region_conditions_": [["p <= 1"], ["p >= 1"]],
       "region_x": [["p"], ["1"]], "region_y_ub": [["1", "0"], ["0", "1"]], "region_y_eq": [[], []],
       "region_value": ["p", "1"], "tree": ["split", "p <= 1", ["region", "0"], ["region", "1"]]}


def bound(d):
    """``d`` with the name and scope text its data give, as an export writes it (with the derived name only when
    the engine refuses it, so that the SMT path answers the tampering, not the name)."""
    from exactdp.algebra.certificates import Certificate
    from exactdp.claim_statement import certificate_name
    from exactdp.errors import ParameterError

    d = {k: v for k, v in copy.deepcopy(d).items() if k != "name"}
    try:
        return Certificate.from_json(copy.deepcopy(d)).to_json()
    except ParameterError:
        return {**d, "name": certificate_name(d)}


def checked(d, timeout=20):
    return smt_check_certificate(bound(d), timeout=timeout)


def failing(r):
    bad = [o for o in r.results if o.status != CONFIRMED]
    assert bad, r.line()
    return bad


@pytest.mark.parametrize("cert", [LC, ST, LP, PLP], ids=lambda d: d["kind"])
def test_valid_certificates_are_confirmed_by_both_solvers(cert):
    r = checked(cert)
    assert r.status == CONFIRMED, r.line()
    for o in r.results:
        assert [(a.solver, a.result) for a in o.answers] == [("z3", o.expect), ("cvc5", o.expect)]
    if cert is ST:  # N is an integer: the identity is confirmed over the reals, which implies it over the integers
        assert any(o.label == "Gauss: N*(N + 1)/2 - N == N*(N - 1)/2 (integer parameters read as reals)"
                   for o in r.results)
    # the region's non-emptiness is an obligation (an lp-point has no region: ground data only)
    assert any(o.expect == "sat" for o in r.results) is (cert is not LP)


def test_a_changed_multiplier_is_refuted_with_a_real_counterexample():
    d = copy.deepcopy(LC)
    d["multipliers"][1] = "2*t"
    r = checked(d)
    assert r.status == REFUTED
    (bad,) = failing(r)
    assert bad.label.startswith("conclusion = sum") and bad.counterexample
    v = {k: Fraction(x) for k, x in bad.counterexample.items()}
    t, a, b = v["t"], v.get("a", Fraction(0)), v.get("b", Fraction(0))
    assert t >= 1 and t - a != (t * b - a) + 2 * t * (1 - b)  # the identity fails at the model


def test_a_flipped_inequality_is_refuted_with_a_model():
    d = copy.deepcopy(ST)
    d["statements"][0][2] = ">"
    r = checked(d)
    assert r.status == REFUTED
    (bad,) = failing(r)
    t = Fraction(bad.counterexample["t"])
    assert bad.label.startswith("ratio below one") and t >= 1 and not (t - 1) / (t + 1) > 1
    d = copy.deepcopy(LC)
    d["region"] = ["t <= -1"]  # the region flipped: the multiplier t is negative on it
    bad = failing(checked(d))
    assert [o.label for o in bad] == ["multiplier of b <= 1 >= 0"] and Fraction(bad[0].counterexample["t"]) <= -1


def test_an_emptied_region_is_refuted():
    d = copy.deepcopy(LC)
    d["region"] = ["t >= 1", "t <= 0"]  # every sign obligation is now vacuous: the empty region is caught
    r = checked(d)
    assert r.status == REFUTED
    (bad,) = failing(r)
    assert bad.label == "the region is not empty" and bad.expect == "sat"
    assert [a.result for a in bad.answers] == ["unsat", "unsat"] and bad.counterexample == {}
    d = copy.deepcopy(ST)
    d["statements"][0][4] = ["t < 0"]  # one statement made vacuous
    assert [o.label for o in failing(checked(d))] == ["ratio below one: its conditions have a point"]


def test_a_false_identity_in_an_integer_parameter_is_refuted():
    d = copy.deepcopy(ST)
    d["statements"][1][3] = "N*(N - 1)/2 + N*(N - 1)*(N - 2)*(N - 3)"  # equal for N = 1, 2, 3 only
    bad = failing(checked(d))
    assert [o.label.split(":")[0] for o in bad] == ["Gauss"]
    assert int(bad[0].counterexample["N"]) >= 4


def test_parametric_lp_tampering_is_refuted():
    d = copy.deepcopy(PLP)
    d["region_conditions_"][1] = ["p >= 2"]  # a gap: 1 < p < 2 lies in no region
    bad = failing(checked(d))
    assert [o.label for o in bad] == ["coverage: the 2 regions cover the domain"]
    assert 1 < Fraction(bad[0].counterexample["p"]) < 2
    d = copy.deepcopy(PLP)
    d["region_y_ub"][1] = ["0", "1/2"]  # dual infeasible and a duality gap on region 1
    labels = [o.label for o in failing(checked(d))]
    assert labels == ["region 1: c.x = b.y", "region 1: reduced cost 0 >= 0"]


def test_lp_point_with_a_wrong_value_is_refuted():
    d = copy.deepcopy(LP)
    d["value"] = "3"
    assert [o.label for o in failing(checked(d))] == ["LP certificate: value = c.x"]


def test_malformed_data_is_refuted_not_trusted():
    d = copy.deepcopy(LC)
    d["multipliers"] = ["1", "a"]  # a multiplier depending on a variable
    r = checked(d)
    assert r.status == REFUTED and "not only on the parameters" in r.reasons[0]
    d = copy.deepcopy(LC)
    d["variables"] = ["a", "b", "t"]  # a parameter that is also a variable
    assert checked(d).status == REFUTED
    d = copy.deepcopy(LC)
    d["conclusion"] = "__import__('os')"
    assert checked(d).status == REFUTED


def test_exp_log_models_are_not_counterexamples():
    """exp/log are uninterpreted in the SMT problem (with the log of a product split by the log law): unsat is
    sound, a sat model is not a counterexample."""
    d = {"kind": "symbolic-statements", "name": "log", "parameters": ["t"], "region": ["t >= 1"],
         "statements": [["log is below t - 1", "log(t)", "<=", "t - 1", []]]}  # true, but not for every function
    r = checked(d, timeout=5)
    assert r.status == UNKNOWN and all(o.status != REFUTED for o in r.results)
    assert "not a counterexample" in r.results[-1].answers[0].reason
    d["statements"] = [["exp is positive", "exp(t)", ">", "0", []],
                       ["log law", "t*log(t)/(t - 1) + log(1/t)/(t*(1 - 1/t))", "==", "log(t)", ["t > 1"]],
                       ["log of a product", "log(2*t**3)", "==", "log(2) + 3*log(t)", []]]
    assert checked(d).status == CONFIRMED


def test_oracle_is_evidence_for_a_four_parameter_question_the_prover_leaves_open():
    """The power-mean inequality (a + b + c + d)^3 <= 16(a^3 + b^3 + c^3 + d^3) on the orthant: the prover's
    decomposition in four variables is refused by its work estimate (UNKNOWN, naming max_work); the oracle
    confirms it (evidence only) and refutes the constant 15 (fails at a = b = c = d).  The squares' version,
    within the estimate, the prover decides itself, as the oracle does."""
    import sympy

    from exactdp.algebra.prover import Region, decide
    from exactdp.numbers.truth import Truth

    a, b, c, d = sympy.symbols("a b c d", real=True)
    conds = [sympy.GreaterThan(x, 0, evaluate=False) for x in (a, b, c, d)]
    region = Region.of(*conds, variables=[a, b, c, d])
    rel = sympy.LessThan((a + b + c + d) ** 3, 16 * (a**3 + b**3 + c**3 + d**3), evaluate=False)
    left_open = decide(rel, region)
    assert left_open.truth is Truth.UNKNOWN and "max_work" in left_open.reason
    ev = oracle(rel, conds)
    assert ev.status == CONFIRMED and "not a proof" in str(ev)
    assert decide(rel, region).truth is Truth.UNKNOWN  # still UNKNOWN
    wrong = sympy.LessThan((a + b + c + d) ** 3, 15 * (a**3 + b**3 + c**3 + d**3), evaluate=False)
    ev = oracle(wrong, conds)
    assert ev.status == REFUTED
    v = {k: Fraction(x) for k, x in ev.counterexample.items()}
    s = sum(v.get(k, 0) for k in "abcd")
    assert s**3 > 15 * sum(v.get(k, 0) ** 3 for k in "abcd")
    squares = sympy.LessThan((a + b + c + d) ** 2, 4 * (a**2 + b**2 + c**2 + d**2), evaluate=False)
    assert decide(squares, region).truth is Truth.TRUE and oracle(squares, conds).status == CONFIRMED
    D = decide(sympy.LessThan((a + b + c + d) ** 2, 3 * (a**2 + b**2 + c**2 + d**2), evaluate=False), region)
    assert D.truth is Truth.FALSE and sum(D.counterexample.values()) ** 2 > 3 * sum(q**2 for q in D.counterexample.values())


# -- the command line ----------------------------------------------------------------------------------------------

def write(folder, certs):
    """An export folder as ``exactdp verify --certificates`` binds it: claim test.c<i> holds certificate i
    (its scope the one its data give) in test.c<i>/check-0.json, listed with its SHA-256 in index.json."""
    import hashlib

    from exactdp.verification.export import document_bytes

    folder.mkdir()
    index = {"claims": {}, "certificates": len(certs), "sha256": {}}
    for i, cert in enumerate(certs):
        claim, rel = f"test.c{i}", f"test.c{i}/check-0.json"
        cert = bound(cert)  # the scope text derived from the data
        data = document_bytes({"claim": claim, "check": "check", "verdict": "verified", "scope": cert.get("scope", ""),
                               "rests_on": [], "certificate": cert})
        (folder / claim).mkdir()
        (folder / rel).write_bytes(data)
        index["sha256"][rel] = hashlib.sha256(data).hexdigest()
        index["claims"][claim] = {"verdict": "verified", "certificates": [rel], "checks": [
            {"name": "check", "verdict": "verified", "supporting": False, "certificates": [rel]}]}
    (folder / "index.json").write_bytes(document_bytes(index))
    return str(folder)


@pytest.mark.slow
def test_cli_recheck_smt_exit_status_and_json(tmp_path, capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    good = write(tmp_path / "good", [LC, PLP])
    assert main(["recheck", good, "--smt", "--smt-timeout", "20"]) == 0
    out = capsys.readouterr().out
    assert "SMT: 2 certificates: 2 CONFIRMED, 0 REFUTED, 0 UNKNOWN" in out
    bad = copy.deepcopy(LC)
    bad["region"] = ["t >= 1", "t <= 0"]
    folder = write(tmp_path / "bad", [LC, bad, LC])  # a certificate filed twice is decided once, listed twice
    assert main(["recheck", folder, "--smt", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    schema = json.loads((resources.files("exactdp") / "schemas" / "recheck.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(doc)
    certs = doc["result"]["smt"]["certificates"]
    assert [(c["status"], c["source"]) for c in certs] == [("CONFIRMED", "test.c0"), ("REFUTED", "test.c1"),
                                                           ("CONFIRMED", "test.c2")]
    assert certs[0]["obligations"] == certs[2]["obligations"] and certs[1]["obligations"][0]["answers"] == {
        "z3": "unsat", "cvc5": "unsat"}  # the emptied region: no point, for both solvers
    assert main(["recheck", good]) == 0 and "SMT" not in capsys.readouterr().out  # without --smt: no SMT


def test_cli_bad_timeout_and_missing_solvers_are_one_line_errors(tmp_path, capsys, monkeypatch):
    good = write(tmp_path / "good", [LC])
    assert main(["recheck", good, "--smt", "--smt-timeout", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--smt-timeout" in err and "-1" in err
    monkeypatch.setitem(__import__("sys").modules, "cvc5", None)  # import cvc5 now raises ImportError
    assert main(["recheck", good, "--smt"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cvc5" in err and 'exactdp[smt]' in err


@pytest.mark.slow
def test_real_exported_certificates_are_confirmed(tmp_path, capsys):
    folder = tmp_path / "c"
    assert main(["verify", "grosse2026.thm3", "--quick", "--no-progress", "--certificates", str(folder)]) == 0
    capsys.readouterr()  # thm3's certificates are bound to its statement: confirmed with the binding obligations
    assert main(["recheck", str(folder), "--smt", "--format", "json"]) == 0
    smt = json.loads(capsys.readouterr().out)["result"]["smt"]
    # thm3's five certificates (the PML bound in u and the regime in u, their instantiations at u = N*c, the bound
    # 1) and the five of the structural lemmas they use, each bound to its statement
    assert len(smt["certificates"]) == 10 and all(c["status"] == "CONFIRMED" for c in smt["certificates"])
    assert all(any(o["label"].startswith("statement:") for o in c["obligations"]) for c in smt["certificates"])
    kinds = {c["kind"] for c in smt["certificates"]}
    assert kinds == {"linear-combination", "symbolic-statements", "instantiation"}


# -- the encodings ------------------------------------------------------------------------------------------------

def statements(*rows, parameters=("t",), region=(), assumptions=(), sizes=""):
    return {"kind": "symbolic-statements", "name": "statements", "parameters": list(parameters),
            "region": list(region), "assumptions": [list(a) for a in assumptions], "sizes": sizes,
            "statements": [[f"s{i}", lhs, op, rhs, []] for i, (lhs, op, rhs) in enumerate(rows)]}


def cleared_only(label, region, claim):
    """The answers of z3 and cvc5 to the denominators-cleared encoding alone of ``claim`` on ``region``."""
    from exactdp.smt.obligations import Builder
    from exactdp.smt.solvers import ask

    ob = Builder().holds(label, region, claim).cleared
    assert "/" not in ob.text.split("(assert (not", 1)[1]  # the goal is polynomial
    return ob, ask(ob.text, ob.shown, 20000)


def test_the_cleared_encoding_keeps_signs_and_definedness():
    """A − B ρ 0 becomes num·(odd divisor factors) ρ 0, every divisor non-zero: 1/(t − 1) > 0 fails below 1 (a model
    there), 1/(t − 1)² > 0 holds wherever defined, and (t² − 1)/(t − 1) >= 1 on t >= 0 fails at t = 1 (undefined)."""
    import sympy

    t = sympy.Symbol("t", real=True)
    ob, answers = cleared_only("odd", [], sympy.StrictGreaterThan(1 / (t - 1), 0, evaluate=False))
    assert [a.result for a in answers] == ["sat", "sat"] and all(Fraction(a.model["t"]) < 1 for a in answers)
    ob, answers = cleared_only("even", [], sympy.StrictGreaterThan(1 / (t - 1) ** 2, 0, evaluate=False))
    assert [a.result for a in answers] == ["sat", "sat"] and all(Fraction(a.model["t"]) == 1 for a in answers)
    ob, answers = cleared_only("even", [sympy.Ne(t, 1)], sympy.StrictGreaterThan(1 / (t - 1) ** 2, 0, evaluate=False))
    assert [a.result for a in answers] == ["unsat", "unsat"]
    ob, answers = cleared_only("hole", [t >= 0], sympy.GreaterThan((t**2 - 1) / (t - 1), 1, evaluate=False))
    assert [a.result for a in answers] == ["sat", "sat"] and all(Fraction(a.model["t"]) == 1 for a in answers)


def test_quotient_identities_are_confirmed_through_the_cleared_encoding():
    """[B-6]'s KL and H² instances (background.b06): rational identities with log and sqrt in one parameter."""
    d = statements(("(t - 1)*(t*log(t)/(t - 1) + log(1/t)/(t*(1 - 1/t)))/(t + 1)", "==", "(t - 1)*log(t)/(t + 1)"),
                   ("(-1 + 1/sqrt(t))**2/(1 - 1/t) + (sqrt(t) - 1)**2/(t - 1)", "==", "2 - 4/(sqrt(t) + 1)"),
                   region=("t > 1",))
    r = checked(d)
    assert r.status == CONFIRMED, r.line()
    wrong = statements(("(-1 + 1/sqrt(t))**2/(1 - 1/t) + (sqrt(t) - 1)**2/(t - 1)", "==", "2 - 3/(sqrt(t) + 1)"),
                       region=("t > 1",))
    (bad,) = failing(checked(wrong))
    assert bad.status == REFUTED and Fraction(bad.counterexample["t"]) > 1


def test_a_root_does_not_restrict_the_space_to_where_it_is_defined():
    """sqrt(t) is the r >= 0 with r² = t only where t >= 0, so "sqrt(t) >= 0 for every real t" is refuted at a
    t < 0 (undefined there), in both encodings; with t >= 0 it is confirmed."""
    (bad,) = failing(checked(statements(("sqrt(t)", ">=", "0"))))
    assert bad.status == REFUTED and Fraction(bad.counterexample["t"]) < 0
    assert {a.encoding for a in bad.answers} == {"cleared"}
    assert checked(statements(("sqrt(t)", ">=", "0"), region=("t >= 0",))).status == CONFIRMED


def test_exponent_law_and_log_exp_laws():
    """t^n·t = t^(n+1) for integer n >= 0 and every real t; log and exp laws whose premises are arithmetic."""
    d = statements(("q**n*q", "==", "q**(n + 1)"), ("q**n*q**2", "==", "q**(n + 2)"), parameters=("q", "n"),
                   assumptions=(("n", "integer,nonnegative"),), sizes="all n >= 0")
    assert checked(d).status == CONFIRMED
    d["statements"][1][3] = "q**(n + 3)"  # false (q = 2), but only under exponent laws the encoding does not state
    (bad,) = failing(checked(d))
    assert bad.status == UNKNOWN
    d = statements(("log(t + 1)", "==", "log(t) + log(1 + 1/t)"), ("exp(t + 1)", "==", "exp(t)*exp(1)"),
                   ("log(t + 2)", ">", "log(t + 1)"), region=("t > 0",))
    assert checked(d).status == CONFIRMED


def test_limits_of_continuous_terms_are_their_values():
    d = statements(("Limit((t - 1)/(t*(1 - N*c) + 1), c, 0)", "==", "(t - 1)/(t + 1)"),
                   ("Limit(sqrt(c + t)*log(t + c), c, 0)", "==", "sqrt(t)*log(t)"),
                   parameters=("t", "c", "N"), region=("t > 0",))
    assert checked(d).status == CONFIRMED
    d["statements"][0][3] = "(t - 1)/(t + 2)"
    (bad,) = failing(checked(d))
    assert bad.status == REFUTED
    d = statements(("Limit(sin(c)/c, c, 0)", "==", "1"), parameters=("c",))
    r = checked(d)
    assert r.status == UNKNOWN and "not known to be continuous" in r.reasons[0]


# -- the tampered certificates of test_tamper ---------------------------------------------------------------------

def tampered() -> dict:
    """The certificate-level tamperings of tests/proofs/test_tamper.py, as JSON."""
    import dataclasses

    from exactdp.theory import class_certificates as CC
    from tests.proofs.test_tamper import OFF_GRID, _statements

    ldp = CC.ldp_tv()
    clash = dataclasses.replace(CC.trivial_tv(), parameters=("a", "b"), region=("a - b <= 1/2",),
                                conclusion="1/2 - (a - b)", constraints=(("a - b <= 1/2", "1/2 - a + b"),),
                                multipliers=("1",))
    subs = _statements("Xi1 at c = 1/N", ("t", "c", "N"), [("Subs((t - 1)/(t*(1 - N*c) + 1), c, 1/N)", "==", "t + 1")])
    out = {f"false {k}": c.to_json() for k, c in OFF_GRID.items()}
    out.update({"emptied region": dataclasses.replace(ldp, region=ldp.region + ("t <= 0",)).to_json(),
                "parameter and variable": clash.to_json(),
                "textual tautology": _statements("phi^n at n = 1", ("t", "delta"),
                                                 [("1 - (1 - delta)/t", "==", "1 - (1 - delta)/t")]).to_json(),
                "wrong substitution": subs.to_json()})
    for key, d in out.items():  # the edited data of a to_json that derived the scope before the edit
        out[key] = json.loads(json.dumps(d))
    return out


@pytest.mark.slow
def test_the_tampered_certificates_of_test_tamper_are_refuted():
    certs = tampered()
    assert len(certs) == 9
    for what, d in certs.items():
        r = smt_check_certificate(d, timeout=20)
        assert r.status == REFUTED, (what, r.line())
    r = smt_check_certificate(certs["false at N = 9"], timeout=20)
    assert [o.counterexample for o in r.results if o.status == REFUTED] == [{"N": "9"}]
    r = smt_check_certificate(certs["false at one off-grid point of three parameters"], timeout=20)
    assert [o.counterexample for o in r.results if o.status == REFUTED] == [{"x": "1/5", "y": "1/5", "z": "1/5"}]


def test_integer_n_obligations_are_decided_over_the_integers():
    """(N − 1)(N − 2)(N − 3) >= 0 holds for every integer N >= 1 but not for N = 5/2: its real relaxation is sat
    (no counterexample), the QF_NIRA problem unsat for both solvers; with a factor (5 − N) it fails for every N > 5."""
    from exactdp.smt.obligations import obligations

    d = statements(("(N - 1)*(N - 2)*(N - 3)", ">=", "0"), parameters=("N",), region=("N >= 1",),
                   assumptions=(("N", "integer,positive"),), sizes="all N")
    r = checked(d)
    assert r.status == CONFIRMED
    assert [a.encoding for a in r.results[-1].answers] == ["cleared", "cleared"]  # not the relaxation
    assert obligations(bound(d))[-1].text.startswith("(set-logic QF_NIRA)")
    d["statements"][0][1] = "(N - 1)*(N - 2)*(N - 3)*(5 - N)"
    (bad,) = failing(checked(d))
    assert bad.status == REFUTED and int(bad.counterexample["N"]) > 5


@pytest.mark.slow
def test_the_written_encoding_alone_still_decides():
    """The fallback (quotients as written) is asked only when the cleared encoding gives no conclusive answer:
    with the cleared problems removed, the valid certificates are confirmed and a changed multiplier refuted."""
    from exactdp.smt import decide_obligation
    from exactdp.smt.obligations import obligations

    def strip(ob):
        ob.cleared = None
        for o in [ob.relaxed, *ob.parts]:
            if o is not None:
                strip(o)

    def written_only(d):
        obs = obligations(bound(d))
        for ob in obs:
            strip(ob)
        return [r for ob in obs for r in decide_obligation(ob, 20)]

    for d in (LC, ST, PLP):
        results = written_only(d)
        assert all(r.status == CONFIRMED for r in results), d["kind"]
        assert {a.encoding for r in results for a in r.answers} <= {"direct", "direct (N real)"}
    d = copy.deepcopy(LC)
    d["multipliers"][1] = "2*t"
    assert [r.status for r in written_only(d)].count(REFUTED) == 1


# -- the statement a certificate is filed under, and the index (issue 21 item 5) -----------------------------------

@pytest.mark.slow
def test_a_tampered_binding_is_refuted_by_the_smt_path():
    """The binding tamperings of test_tamper (renamed statement, stronger conclusion, region shrunk below the stated
    domain, empty domain, a parameter also a variable, a hypothesis dropped): each REFUTED; the genuine one
    CONFIRMED with its statement obligations."""
    from tests.proofs.test_tamper import _binding_tamperings, _thm3_bound

    good = smt_check_certificate(_thm3_bound().to_json(), timeout=20, claim="grosse2026.thm3")
    # the region's conditions are the stated domain's and the conclusion is the certificate's: one obligation left,
    # the domain has a point
    assert good.status == CONFIRMED and [r.label for r in good.results if r.label.startswith("statement:")] == [
        "statement: the stated domain is not empty"], good.line()
    for what, (d, _) in _binding_tamperings().items():
        r = smt_check_certificate(d, timeout=20, claim="grosse2026.thm3")
        assert r.status == REFUTED, (what, r.line())


@pytest.fixture(scope="module")
def thm3_export(tmp_path_factory):
    from exactdp.verification.engine import verify
    from exactdp.verification.export import write_certificates

    root = tmp_path_factory.mktemp("thm3")
    write_certificates(verify(("grosse2026.thm3",), seed=0, quick=True), root)
    return root


@pytest.mark.slow
def test_the_smt_path_reads_the_index(thm3_export, tmp_path, monkeypatch):
    """recheck --smt fails a listed file that is missing or changed, a file the index does not list and a file
    filed under another claim, as recheck does (one reading of index.json, exactdp.recheck.filed_certificates).
    Each tampered copy differs from the genuine export in one or two files: a certificate identical to one already
    decided (same document, same claim) reuses that decision, so the solvers run on the changed files only."""
    import copy as copying
    import hashlib
    import shutil

    import exactdp.smt as smt
    from exactdp.smt import smt_check_directory

    decided: dict = {}
    solve = smt.smt_check_certificate

    def remembered(cert, label, timeout, cache=None, claim=None):
        key = json.dumps([cert, label, claim], sort_keys=True, default=str)
        if key not in decided:
            decided[key] = solve(cert, label, timeout, cache=cache, claim=claim)
        return copying.deepcopy(decided[key])

    monkeypatch.setattr(smt, "smt_check_certificate", remembered)

    def copy(name):
        root = tmp_path / name
        shutil.copytree(thm3_export, root)
        index = json.loads((root / "index.json").read_text())
        return root, index, index["claims"]["grosse2026.thm3"]["certificates"]

    root, _, rels = copy("genuine")
    assert [c.status for c in smt_check_directory(root, timeout=20)] == [CONFIRMED] * 10
    root, _, rels = copy("missing")
    (root / rels[0]).unlink()
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status == REFUTED]
    # the missing file (the PML bound in u) and the instantiation that rests on it (the per-claim citation check)
    assert len(bad) == 2 and "the file is missing" in bad[0].reasons[0]
    assert bad[1].kind == "instantiation" and "not among the claim's certificates" in bad[1].reasons[-1]
    root, _, rels = copy("changed")
    doc = json.loads((root / rels[1]).read_text())
    doc["certificate"]["statement"]["conclusions"] = ["a - b <= 1/2"]
    (root / rels[1]).write_text(json.dumps(doc))
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status == REFUTED]
    assert len(bad) == 1 and "SHA-256" in bad[0].reasons[0]
    root, _, rels = copy("unlisted")
    shutil.copy(root / rels[0], root / "grosse2026.thm3" / "extra-0.json")
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status == REFUTED]
    assert len(bad) == 1 and "does not list" in bad[0].reasons[0]
    root, index, rels = copy("misfiled")  # its file names another claim, the index re-signed
    doc = json.loads((root / rels[0]).read_text())
    doc["claim"] = "grosse2026.thm4"
    (root / rels[0]).write_text(json.dumps(doc))
    index["sha256"][rels[0]] = hashlib.sha256((root / rels[0]).read_bytes()).hexdigest()
    (root / "index.json").write_text(json.dumps(index))
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status == REFUTED]
    assert len(bad) == 2 and "filed under grosse2026.thm3" in bad[0].reasons[0]  # and the instance resting on it
    assert bad[1].kind == "instantiation" and "not among the claim's certificates" in bad[1].reasons[-1]
    root, index, rels = copy("steps only")  # the claim's own certificates re-filed as steps, the index re-signed
    for rel in rels:
        doc = json.loads((root / rel).read_text())
        if doc["certificate"]["statement"]["claim"] == "grosse2026.thm3":
            doc["certificate"]["statement"]["claim"] = "step of grosse2026.thm3"
            (root / rel).write_text(json.dumps(doc))
            index["sha256"][rel] = hashlib.sha256((root / rel).read_bytes()).hexdigest()
    (root / "index.json").write_text(json.dumps(index))
    bad = [c for c in smt_check_directory(root, timeout=20) if c.status == REFUTED]
    assert len(bad) == 1 and "carries the claim's statement" in bad[0].reasons[0]
