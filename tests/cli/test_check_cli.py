"""`exactdp check` on the command line (issue 9): verdicts, JSON, exit codes, the kernel file round trip."""

import json

import pytest

from exactdp.cli import main


def run(capsys, *argv):
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_refutation_prints_a_kernel_that_analyze_accepts(capsys, tmp_path):
    code, out, _ = run(capsys, "eta_tv <= (exp(eps)-1)/(exp(eps)*(1-c)+1)", "--class", "pml", "--budget", "40",
                       "--format", "json")
    assert code == 1
    doc = json.loads(out)["result"]
    assert doc["verdict"] == "refuted" and doc["classes"] == ["pml"]
    ce = doc["counterexample"]
    assert ce["rows"] == [["2/3", "1/3"], ["1/3", "2/3"]]
    assert ce["params"] == {"eps": "log(4/3)", "t": "4/3", "c": "1/2"}
    assert (ce["lhs"], ce["rhs"], ce["slack"]) == ("1/3", "1/5", "-2/15")
    path = tmp_path / "ce.json"
    path.write_text(ce["kernel_json"])
    assert main(["analyze", str(path), "--c", ce["params"]["c"], "--format", "json"]) == 0
    a = json.loads(capsys.readouterr().out)["result"]
    assert a["eta_tv"]["value"] == "1/3" and a["pml"]["ratio"] == "4/3"


def test_no_counterexample_text_report(capsys):
    code, out, _ = run(capsys, "eta_tv <= eps", "--N", "2", "--M", "2..3", "--budget", "60")
    assert code == 0
    assert "verdict:    NO-COUNTEREXAMPLE" in out
    assert "not a proof" in out and "closest approach" in out
    assert "ldp 2x2:" in out and "ldp 2x3:" in out and "PROVED" not in out


@pytest.mark.parametrize("argv, message", [
    (["eta_tv <= foo"], "unknown name 'foo'"),
    (["eta_tv <= c", "--class", "ldp"], "c is not defined for class ldp"),
    (["eta_tv <= 1", "--N", "9"], "sizes must satisfy"),
    (["eta_tv <= 1", "--budget", "0"], "budget"),
    (["eta_tv <= 1", "--workers", "0"], "--workers"),
    (["eta_tv"], "no relation"),
    (["eta_tv <= 1", "--t", "3..2"], "1 <= lo <= hi"),
    (["eta_tv <= 1", "--t", "0.5"], "1 <= lo <= hi"),
    (["eta_tv <= 1", "--max-den", "1"], "--max-den"),
    (["eta_tv <= 1", "--max-seconds", "-1"], "--max-seconds"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and err.startswith("exactdp check: error:")


def test_unknown_class_is_rejected_by_argparse(capsys):
    assert main(["check", "eta_tv <= 1", "--class", "gdp"]) == 2  # main returns argparse's status (issue 14)
    assert capsys.readouterr().err.count("\n") == 1


def test_time_cap_is_reported(capsys):
    code, out, _ = run(capsys, "tv(K(P),K(Q)) <= eta_tv*tv(P,Q)", "--budget", "400", "--max-seconds", "0")
    assert code == 0
    assert "time cap" in out and "may differ" in out


def test_t_is_e_to_the_eps_in_the_language_and_the_output(capsys):
    """``t`` names e^eps in a conjecture and in the printed parameters (gamma only orders E_gamma): tanh(eps/2)
    written in t is proved as before ([A] B-4's certificate), and half of it is refuted by binary randomized
    response at t = 2, where eta_TV = 1/3 against (2 - 1)/(2 + 1)/2 = 1/6."""
    code, out, _ = run(capsys, "eta_tv <= (t-1)/(t+1)", "--class", "ldp", "--N", "2", "--M", "2", "--budget", "20")
    assert code == 0 and "verdict:    PROVED" in out
    code, out, _ = run(capsys, "eta_tv <= (t-1)/(t+1)/2", "--class", "ldp", "--budget", "30", "--format", "json")
    ce = json.loads(out)["result"]["counterexample"]
    assert code == 1 and ce["rows"] == [["2/3", "1/3"], ["1/3", "2/3"]]
    assert ce["params"] == {"eps": "log(2)", "t": "2", "delta": "0"} and (ce["lhs"], ce["rhs"]) == ("1/3", "1/6")
