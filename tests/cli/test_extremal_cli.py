"""``exactdp extremal sup --n n`` (n-sample suprema, exactdp.theory.n_sample) and ``--class``: exact values in
every format, refusals in one line with exit status 2."""

import json

import pytest

from exactdp.cli import main


def run(capsys, *argv):
    rc = main(["extremal", *argv])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_issue_command_prints_the_optimum_and_its_certificate(capsys):
    rc, out, _ = run(capsys, "sup", "--class", "approx-ldp", "--n", "2", "--N", "2", "--t", "3/2", "--delta", "1/4")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == "quantity: sup eta_TV(K^(x)2)"
    assert "value: 11/20" in lines and "phi^n (A-8): 3/4" in lines and "gap to phi^n: 1/5" in lines
    assert "       1/4      9/20      3/10         0" in lines and "certificates re-checked: yes" in lines
    assert not any(line.startswith(("LPs", "pivots")) for line in lines)


def test_more_inputs_outputs_and_e_gamma(capsys):
    """N = 3, M = 5, E_2 at n = 3: the library's exact value (closed form in tests/theory/test_n_sample.py); the extra
    row is a copy of row 1 and the extra output a zero column."""
    from exactdp.theory.n_sample import sup_eta_hockey_stick_tensor

    rc, out, _ = run(capsys, "sup", "--n", "3", "--N", "3", "--M", "5", "--t", "3", "--delta", "1/10", "--gamma", "2",
                     "--format", "json")
    r = json.loads(out)["result"]
    expected = sup_eta_hockey_stick_tensor(3, 3, t=3, delta="1/10", gamma=2)
    assert rc == 0 and r["quantity"] == "sup_eta_e_gamma_tensor" and r["value"] == str(expected.value)
    assert r["kernel"][1] == r["kernel"][2] and [row[4] for row in r["kernel"]] == ["0", "0", "0"]
    assert r["class"]["M"] == 5 and r["certified"] is True


def test_pml_two_inputs_and_markdown(capsys):
    rc, out, _ = run(capsys, "sup", "--class", "pml", "--n", "2", "--N", "2", "--t", "3", "--c", "1/4",
                     "--format", "markdown")
    assert rc == 0 and r"$\sup \eta_{\mathrm{TV}}(K^{\otimes 2})$ | $\frac{4}{5}$" in out  # RR(9): 4/5 at n = 1, 2
    assert "exact LPs solved" not in out and "gap to" not in out


def test_n1_keeps_the_lp_path(capsys):
    rc, out, _ = run(capsys, "sup", "--class", "approx-ldp", "--N", "2", "--M", "3", "--t", "3", "--delta", "1/10")
    assert rc == 0 and "value: 11/20" in out.splitlines() and "LPs: 1" in out.splitlines()


@pytest.mark.parametrize("argv,message", [
    (("sup", "--class", "pml", "--n", "2", "--N", "3", "--t", "3", "--c", "1/4"), "N: the n-sample supremum over"),
    (("sup", "--class", "ldp", "--n", "2", "--N", "2", "--t", "3", "--delta", "1/4"), "--delta: --class ldp is eps-LDP"),
    (("sup", "--class", "pml", "--N", "2", "--t", "3"), "--c: required with --class pml"),
    (("sup", "--class", "approx-ldp", "--N", "2", "--t", "3", "--c", "1/4"), "--c: only with --class pml"),
    (("gamma", "--n", "2", "--N", "2", "--t", "3", "--c", "1/4"), "--n: n-sample problems are for 'sup' only"),
    (("sup", "--n", "0", "--N", "2", "--t", "3"), "--n: must be a positive integer, got 0"),
    (("sup", "--n", "3", "--N", "2", "--M", "2", "--t", "3/2", "--delta", "1/4"),
     "M: with M = 2 outputs the n-sample supremum lies in [37/64, 703/1000]"),
])
def test_refusals_are_one_line_exit_2(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err
