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



def test_header_flag_skips_a_numeric_header():
    """Outputs named 0, 1 are not told from a row by detection (a valid row (0, 1) of a 3x2 kernel);
    ``header=True`` (``--header``) skips the first row whatever it holds, ``row_labels=True`` the first column."""
    text = "x,0,1\na,3/4,1/4\nb,1/4,3/4\n"
    detected = kernel_from_text(text, "csv")
    assert detected.rows == ((0, 1), (fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4)))  # the labels "x, a, b"
    notes = []
    K = kernel_from_text(text, "csv", report=notes.append, header=True)
    assert K.rows == ((fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4)))
    assert notes == ["CSV: header row '0, 1' and row labels 'a, b' skipped"]
    assert csv_labels([["0", "1"], ["1/4", "3/4"]], header=True) == ([["1/4", "3/4"]], (), ("0", "1"))
    assert csv_labels([["7", "1/4", "3/4"], ["8", "1", "0"]], row_labels=True) == (
        [["1/4", "3/4"], ["1", "0"]], ("7", "8"), ())
    # False: never labels, so a word is an entry and meets the reader's error
    with pytest.raises(Exception, match="K\\[0\\]\\[0\\]"):
        kernel_from_text("y0,y1\n1/4,3/4\n", "csv", header=False)
    with pytest.raises(Exception, match="--header: the CSV file has no row below its header row"):
        kernel_from_text("0,1\n", "csv", header=True)


def test_header_flags_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "numbered.csv"
    path.write_text("0,1\n3/4,1/4\n1/4,3/4\n")
    # binary RR with e^eps = 3: eta_TV = 1/2; at n = 2, eta_TV = 1/2 and delta_2(2) = 7/16 (brute force: the
    # 4x4 product's E_2 of its rows (9,3,3,1)/16 and (1,3,3,9)/16 is (9-2)/16)
    assert main(["analyze", str(path), "--header", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "exactdp: note: CSV: header row '0, 1' skipped\n"
    assert json.loads(out)["result"]["eta_tv"]["value"] == "1/2"
    assert main(["tensor", str(path), "--n", "2", "--t", "2", "--header", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "exactdp: note: CSV: header row '0, 1' skipped\n"
    assert [json.loads(out)["result"][k] for k in ("eta_tv", "eta_e_t")] == ["1/2", "7/16"]
    labelled = tmp_path / "k.json"
    labelled.write_text('[["1/2", "1/2"], ["1/4", "3/4"]]')
    assert main(["analyze", str(labelled), "--header"]) == 2
    assert capsys.readouterr().err == ("exactdp analyze: error: --header: only for a CSV kernel file (a JSON kernel "
                                       "file is a list of rows, no labels)\n")

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
