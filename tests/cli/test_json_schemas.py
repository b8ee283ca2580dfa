"""Every ``--format json`` output validates against its JSON Schema in ``exactdp/schemas/`` (issue 16 item 6).

Each command runs in-process (``exactdp.cli.main``) with ``--format json``; the document must validate against
``exactdp/schemas/<command>.json`` (draft 2020-12) and carry the common envelope, and a few exact values are
checked against known closed forms so a schema that accepts anything cannot pass unnoticed.  The kernel file
schema accepts the README's and the tests' kernel files and rejects JSON floats.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from exactdp.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("analyze", "tensor", "extremal", "bound", "derive", "evalf", "show", "verify", "check", "recheck")


def schema(name: str) -> dict:
    return json.loads((resources.files("exactdp") / "schemas" / f"{name}.json").read_text(encoding="utf-8"))


def validate(doc, name: str) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(doc)


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    return str(path)


def run_json(capsys, argv, command):
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc in (0, 1), out
    doc = json.loads(out)
    validate(doc, command)
    assert doc["command"] == command and doc["schema"] == f"exactdp/schemas/{command}.json"
    return doc["result"]


def test_every_schema_is_a_valid_draft_2020_12_schema_and_shipped():
    for name in (*COMMANDS, "kernel"):
        jsonschema.Draft202012Validator.check_schema(schema(name))
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "schemas/*.json" in data["exactdp"]


def test_analyze(capsys, rr):
    r = run_json(capsys, ["analyze", rr, "--t", "2", "--c", "1/4", "--format", "json"], "analyze")
    assert (r["eta_tv"]["value"], r["eta_hockey_stick"]["value"], r["pml"]["ratio"]) == ("1/2", "1/4", "2")
    assert r["is_ldp"] == {"t": "2", "delta": "0", "verdict": "false"}  # binary RR at e^eps0 = 3 is not log(2)-LDP


def test_tensor(capsys, rr):
    r = run_json(capsys, ["tensor", rr, "--n", "3", "--t", "2", "--format", "json"], "tensor")
    # binary RR with e^eps0 = 3: eta_TV(K^3) = 11/16 (claims.md section 7), delta_3(2) = 17/32
    assert (r["eta_tv"], r["eta_e_t"], r["phi_n"], r["eta_tv_le_phi_n"]) == ("11/16", "17/32", "485/512", True)
    assert r["eta_tv_maximizer"] == [{"x": 0, "x_prime": 1, "count": 3}]
    r = run_json(capsys, ["tensor", rr, "--n", "2", "--eps", "1/2", "--format", "json"], "tensor")
    assert r["delta_n_at_exp_eps"] == "9/16 - exp(1/2)/16" and "t" not in r
    r = run_json(capsys, ["tensor", rr, "--n", "2", "--delta", "1/4", "--format", "json"], "tensor")
    # eps for delta: delta_2(t) = (9 - t)/16 on 1 <= t <= 9 (binary RR, e^eps0 = 3) equals 1/4 at t* = 5
    assert r["epsilon_for_delta"] == {"delta": "1/4", "t_star": "5", "epsilon": "log(5)", "decimal": "1.60943791243",
                                      "evaluations": 2,
                                      "maximizer": [{"x": 0, "x_prime": 1, "count": 2}]} and "t" not in r


def test_extremal(capsys):
    r = run_json(capsys, ["extremal", "sup", "--N", "3", "--t", "5/2", "--c", "1/4", "--format", "json"], "extremal")
    assert (r["value"], r["xi"], r["certified"]) == ("12/13", "12/13", True)  # [G] Thm 1 at N=3, t=5/2, c=1/4
    r = run_json(capsys, ["extremal", "gamma", "--N", "2", "--t", "3", "--c", "1/4", "--format", "json"], "extremal")
    assert (r["value"], r["lemma4"]) == ("7/3", "5/2")  # exact Gamma_max vs Lemma 4 (README table)
    r = run_json(capsys, ["extremal", "sup", "--class", "approx-ldp", "--n", "2", "--N", "2", "--t", "3/2", "--delta",
                          "1/4", "--format", "json"], "extremal")  # issue 25's n-sample data point
    assert (r["quantity"], r["n"], r["value"], r["phi_n"], r["gap_to_phi_n"], r["lps"]) == \
        ("sup_eta_tv_tensor", 2, "11/20", "3/4", "1/5", 0)
    assert r["envelope"] == [["0", "1"], ["2/3", "1/2"], ["3/2", "1/4"], ["inf", "1/4"]]
    assert r["dominating_pair"] == [["1/4", "9/20", "3/10", "0"], ["0", "3/10", "9/20", "1/4"]]


def test_bound(capsys):
    r = run_json(capsys, ["bound", "xi", "--t", "3", "--c", "1/4", "--N", "2", "--format", "json"], "bound")
    assert r["value"] == "4/5" and r["bound"]["direction"] == "definition"
    r = run_json(capsys, ["bound", "--list", "--format", "json"], "bound")
    assert {"xi", "phi"} <= {b["name"] for b in r["bounds"]}
    r = run_json(capsys, ["bound", "grosse_thm1", "--compare", "phi", "--N", "4", "--delta", "0", "--format", "json"],
                 "bound")
    assert "4·c·t = 1" in r["comparison"]["crossings_text"]
    assert (r["comparison"]["le"]["truth"], r["comparison"]["ge"]["truth"]) == ("false", "false")


def test_derive_and_evalf(capsys):
    r = run_json(capsys, ["derive", "randomized_response", "k=2", "--quantity", "eta_tv", "--format", "json"],
                 "derive")
    assert r["derivations"][0]["result"] == "(t - 1)/(t + 1)"
    r = run_json(capsys, ["evalf", "exp(1/2)", "--digits", "12", "--format", "json"], "evalf")
    assert r["value"] == "1.64872127070"


def test_show_verify_list_and_check(capsys):
    r = run_json(capsys, ["show", "findings.x01_phi_vs_xi", "--quick", "--format", "json"], "show")
    assert r["id"] == "findings.x01_phi_vs_xi" and r["verdict"] == "proved"
    r = run_json(capsys, ["verify", "--list", "--format", "json"], "verify")
    assert any(c["id"] == "grosse2026.thm1" for c in r["claims"])
    r = run_json(capsys, ["verify", "findings.x01_phi_vs_xi", "--quick", "--no-progress", "--format", "json"],
                 "verify")
    assert [c["verdict"] for c in r["claims"]] == ["proved"]
    r = run_json(capsys, ["check", "eta_tv < (exp(eps)-1)/(exp(eps)+1)", "--N", "2", "--M", "2", "--budget", "40",
                          "--format", "json"], "check")
    assert r["verdict"] == "refuted" and r["counterexample"]["rows"] == [["2/3", "1/3"], ["1/3", "2/3"]]


def test_check_documents_have_a_fixed_shape(capsys):
    """The refuted, proved and proved-modulo documents of check: every field listed, no other field."""
    r = run_json(capsys, ["check", "eta_tv <= (exp(eps)-1)/(exp(eps)*(1-c)+1)", "--class", "pml", "--N", "2",
                          "--M", "2", "--budget", "50", "--format", "json"], "check")
    ce = r["counterexample"]  # (2/3, 1/3; 1/3, 2/3) at t = 4/3, c = 1/2: eta_TV = 1/3 > 1/5
    assert (ce["lhs"], ce["rhs"], ce["slack"], ce["params"]["t"], ce["member"]) == ("1/3", "1/5", "-2/15", "4/3", "true")
    assert r["proof"] == [] and r["closest"] is None
    r = run_json(capsys, ["check", "eta_hs(exp(eps)) <= delta", "--class", "approx-ldp", "--N", "2", "--budget", "100",
                          "--format", "json"], "check")
    assert r["verdict"] == "proved" and r["rests_on"] == []  # [A] Thm 1's certificates, all N, M
    assert r["closest"]["slack"] == "0" and any("0 >= 0" in line for line in r["proof"])  # JSON keeps engine lines
    v = jsonschema.Draft202012Validator(schema("check"))
    doc = {"command": "check", "version": "0", "schema": "exactdp/schemas/check.json", "result": dict(r, extra=1)}
    assert not v.is_valid(doc)  # a field the schema does not list is an error
    bad = dict(r, closest=dict(r["closest"], member="yes"))  # a membership is a three-valued truth
    assert not v.is_valid(dict(doc, result=bad))


def test_show_evidence_has_a_fixed_shape(capsys):
    r = run_json(capsys, ["show", "grosse2026.thm2_tv", "--quick", "--format", "json"], "show")
    assert r["verdict"] == "proved" and r["matches_expected"] is True and r["evidence"]
    assert all(ev["verdict"] in ("proved", "verified") for ev in r["evidence"])
    v = jsonschema.Draft202012Validator(schema("show"))
    doc = {"command": "show", "version": "0", "schema": "exactdp/schemas/show.json", "result": r}
    assert v.is_valid(doc)
    ev = dict(r["evidence"][0], surprise="x")
    assert not v.is_valid(dict(doc, result=dict(r, evidence=[ev])))
    assert not v.is_valid(dict(doc, result=dict(r, verdict="probably")))


def test_recheck(capsys, tmp_path):
    assert main(["verify", "grosse2026.thm3", "--quick", "--no-progress", "--certificates", str(tmp_path / "c")]) == 0
    capsys.readouterr()  # thm3: its certificates are bound to its statement, so each is OK
    r = run_json(capsys, ["recheck", str(tmp_path / "c"), "--format", "json"], "recheck")
    assert r["certificates"] and all(c["status"] == "OK" for c in r["certificates"])
    assert r["summary"].startswith(f"{len(r['certificates'])} certificates: {len(r['certificates'])} OK")


@pytest.mark.parametrize("doc, ok", [
    ([["3/4", "1/4"], ["1/4", "3/4"]], True),
    ({"name": "zeros", "rows": [["1/2", "1/2", "0"], ["0", "1/3", "2/3"]]}, True),
    ({"parameters": {"t": "positive"}, "region": ["t >= 1"], "rows": [["t/(t+1)", "1/(t+1)"]]}, True),
    ([["1", 0], [0, 1]], True),
    ([["1/2", 0.5], ["1", "0"]], False),  # JSON floats are refused
    ({"rows": 3}, False),
    ([], False),
])
def test_kernel_file_schema(doc, ok):
    v = jsonschema.Draft202012Validator(schema("kernel"))
    assert v.is_valid(doc) is ok


def test_tensor_product_of_several_files(capsys, rr, tmp_path):
    k23 = tmp_path / "k23.json"
    k23.write_text('[["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]]')
    r = run_json(capsys, ["tensor", f"{rr}:2", f"{k23}:1", "--delta", "1/10", "--format", "json"], "tensor")
    assert r["n"] == 3 and [f["outputs"] for f in r["factors"]] == [2, 3]
    assert all("factor" in m for m in r["epsilon_for_delta"]["maximizer"])


def test_tensor_product_at_t(capsys, rr, tmp_path):
    k3 = tmp_path / "krr3.json"
    k3.write_text('[["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]')
    r = run_json(capsys, ["tensor", f"{rr}:2", f"{k3}:1", "--t", "3/2", "--format", "json"], "tensor")
    # RR(3/4)^2 x 3-RR(1/2): one class each; ratios above 3/2: 18, 9, 9/2, 2 with P - 3/2 Q = (33 + 15 + 12 + 6)/128
    assert r["at_t"]["t"] == "3/2" and r["at_t"]["delta"] == "33/64"
    assert [m["factor"] for m in r["at_t"]["maximizer"]] == [0, 1]
