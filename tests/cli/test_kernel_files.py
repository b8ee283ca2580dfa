"""Kernel files as researchers write them (issue 23 item 1): a CSV with a header row and row labels, and a
parametric JSON file evaluated with --at in analyze, plot and tensor."""

import json

import pytest
from flint import fmpq

from exactdp.analysis import load_kernel
from exactdp.cli import main
from exactdp.errors import ParameterError
from exactdp.io import csv_labels, kernel_from_text

PARAMETRIC = {"name": "rr_t", "parameters": {"t": "positive"}, "region": ["t >= 1"],
              "rows": [["t/(t+1)", "1/(t+1)"], ["1/(t+1)", "t/(t+1)"]]}


def test_csv_header_and_labels_are_detected_and_reported():
    notes = []
    K = kernel_from_text("input,y=0,y=1\na,1/4,3/4\nb,1/2,1/2\n", "csv", report=notes.append)
    assert K.rows == ((fmpq(1, 4), fmpq(3, 4)), (fmpq(1, 2), fmpq(1, 2)))
    assert notes == ["CSV: header row 'y=0, y=1' and row labels 'a, b' skipped"]
    # header only, labels only, neither
    assert csv_labels([["y0", "y1"], ["1/4", "3/4"]]) == ([["1/4", "3/4"]], (), ("y0", "y1"))
    assert csv_labels([["a", "1/4", "3/4"], ["b", "1", "0"]]) == ([["1/4", "3/4"], ["1", "0"]], ("a", "b"), ())
    assert csv_labels([["1/4", "3/4"], ["1", "0"]]) == ([["1/4", "3/4"], ["1", "0"]], (), ())
    notes.clear()
    kernel_from_text("1/4,3/4\n1,0\n", "csv", report=notes.append)
    assert notes == []


def test_csv_bad_cell_past_the_labels_is_still_an_error():
    with pytest.raises(Exception, match=r"K\[1\]\[0\]"):
        kernel_from_text("x,y0,y1\na,1/4,3/4\nb,oops,1/2\n", "csv")


def test_analyze_reads_a_labelled_csv(tmp_path, capsys):
    path = tmp_path / "survey.csv"
    path.write_text("answer,yes,no\nyes,3/4,1/4\nno,1/4,3/4\n")
    assert main(["analyze", str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["result"]["eta_tv"]["value"] == "1/2"
    assert err == "exactdp: note: CSV: header row 'yes, no' and row labels 'yes, no' skipped\n"


@pytest.fixture
def parametric(tmp_path):
    path = tmp_path / "rr_t.json"
    path.write_text(json.dumps(PARAMETRIC))
    return path


def test_load_kernel_at_values(parametric):
    K = load_kernel(parametric, at=["t=3"])
    assert K.rows == ((fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4))) and K.name == "rr_t(t=3)"
    assert load_kernel(parametric, at=["t=0.5e1"]).rows[0] == (fmpq(5, 6), fmpq(1, 6))
    for at, message in [(None, "give each a value with --at"), (["t=1/2"], "outside the file's region t >= 1"),
                        (["u=2"], "'u' is not a parameter"), (["t=2", "t=3"], "given twice"),
                        (["t"], "expected NAME=VALUE")]:
        with pytest.raises(ParameterError, match=message):
            load_kernel(parametric, at=at)


def test_parametric_file_in_analyze_tensor_and_plot(parametric, tmp_path, capsys):
    assert main(["analyze", str(parametric), "--at", "t=3", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    assert doc["eta_tv"]["value"] == "1/2" and doc["ldp"]["ratio"] == "3"
    assert main(["tensor", str(parametric), "--at", "t=3", "--n", "2", "--t", "2", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"7/16"' in out  # δ_2(2) of RR at e^ε = 3: 7/16
    pytest.importorskip("matplotlib")
    svg = tmp_path / "p.svg"
    assert main(["plot", "profile", str(parametric), "--at", "t=3", "-o", str(svg)]) == 0
    assert svg.stat().st_size > 0
    capsys.readouterr()
    assert main(["analyze", str(parametric)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--at NAME=VALUE" in err


def test_at_on_a_plain_file_is_refused(tmp_path, capsys):
    path = tmp_path / "k.json"
    path.write_text('[["1/2", "1/2"], ["1/4", "3/4"]]')
    assert main(["analyze", str(path), "--at", "t=2"]) == 2
    assert "declares no parameters" in capsys.readouterr().err
