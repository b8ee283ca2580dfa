"""``exactdp analyze FILE [--c C] [--t T] [--format json]`` end to end, in a subprocess (issue 2, Command line)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "exactdp", "analyze", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)


@pytest.fixture
def files(tmp_path):
    rr = tmp_path / "rr.json"
    rr.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    obj = tmp_path / "obj.json"
    obj.write_text('{"name": "zeros", "rows": [["1/2", "1/2", "0"], ["0", "1/3", "2/3"]]}')
    csv = tmp_path / "k.csv"
    csv.write_text("1/2,1/2,0\n0,0.25,0.75\n1,0,0\n")
    return rr, obj, csv


def test_json_list_of_rows_exact_strings(files):
    rr, _, _ = files
    res = run(rr, "--t", "2", "--c", "1/4", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)["result"]
    assert out["eta_tv"]["value"] == "1/2"
    assert out["eta_hockey_stick"] == {"gamma": "2", "value": "1/4", "decimal": "0.250000000000", "pair": [0, 1]}
    assert out["ldp"]["decimal"] == "1.09861228867"  # log 3, certified digits
    assert out["pml"]["decimal"] == "0.693147180560"  # log 2
    assert out["is_ldp"]["verdict"] == "false"
    assert out["ldp"]["ratio"] == "3" and out["ldp"]["epsilon"] == "log(3)"
    assert out["pml"]["ratio"] == "2" and out["pml"]["worst_prior"] == ["1/4", "3/4"]
    assert out["max_leakage"]["ratio"] == "3/2"
    assert out["privacy_profile"]["breakpoints"] == ["1/3", "3"]
    assert out["privacy_profile"]["least_gamma_for_delta_0"] == "3"


def test_json_object_with_rows_and_infinite_ldp(files):
    _, obj, _ = files
    res = run(obj, "--format", "json", "--c", "1/2", "--t", "3/2")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)["result"]
    assert out["name"] == "zeros"
    assert out["ldp"] == {"ratio": "inf", "epsilon": "inf", "decimal": "inf", "output": 0, "inputs": [0, 1]}
    assert out["eta_tv"]["value"] == "2/3"
    assert out["eta_hockey_stick"]["value"] == "2/3"
    assert out["privacy_profile"]["least_gamma_for_delta_0"] == "inf"
    assert out["pml"]["ratio"] == "2"


def test_csv_and_text_report(files):
    _, _, csv = files
    res = run(csv, "--c", "1/3")
    assert res.returncode == 0, res.stderr
    assert "eta_TV (Dobrushin)          = 1" in res.stdout
    assert "(eps,c)-PML at c=1/3: e^eps = 3" in res.stdout
    assert "LDP: e^eps = inf" in res.stdout
    assert "maximal leakage = log(9/4) ≈ 0.810930216216 nats" in res.stdout


BAD = [
    ('[["1/2", 0.5], ["1", "0"]]', (), r"K\[0\]\[1\]: floats are not accepted"),
    ('[["1/2", "1/3"], ["1", "0"]]', (), r"row 0 sums to 5/6, not 1"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--c", "3/4"), r"c: must lie in \(0, 1/N\]"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--c", "0"), r"c: must lie in \(0, 1/N\]"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--t", "x"), r"--t: unknown name 'x'"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--delta", "2", "--t", "2"), r"--delta: must lie in \[0, 1\], got '2'"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--delta", "0.1.2"), r"--delta: unexpected '\.2' at position 3 in '0\.1\.2'"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--eps", "eps"), r"--eps: unknown name 'eps'"),
    ('[["1/2", "1/2"], ["1", "0"]]', ("--eps", "Log(2)"), r"did you mean `log`\?"),
    ('{"rows": 3}', (), r"expected a list of rows"),
    ("not json", (), r"not valid JSON"),
]


def _check_one_line(code, out, err, match):
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith("exactdp analyze: error: ")
    assert re.search(match, lines[0]), lines[0]


@pytest.mark.parametrize("content,args,match", [BAD[0], BAD[2]])
def test_bad_input_one_line_exit_2_subprocess(tmp_path, content, args, match):
    f = tmp_path / "bad.json"
    f.write_text(content)
    res = run(f, *args)
    _check_one_line(res.returncode, res.stdout, res.stderr, match)


@pytest.mark.parametrize("content,args,match", BAD)
def test_bad_input_one_line_exit_2(tmp_path, capsys, content, args, match):
    """The same contract in-process (cheaper): exactdp.cli.main returns 2 and writes one line."""
    from exactdp.cli import main

    f = tmp_path / "bad.json"
    f.write_text(content)
    code = main(["analyze", str(f), *args])
    cap = capsys.readouterr()
    _check_one_line(code, cap.out, cap.err, match)


def test_missing_file_and_missing_argument(tmp_path):
    res = run(tmp_path / "nope.json")
    assert res.returncode == 2 and "FILE: no such file" in res.stderr and len(res.stderr.splitlines()) == 1
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "exactdp", "analyze"], capture_output=True, text=True, env=env,
                         check=False)
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1


def test_unwritable_output_and_bad_bound_values_are_one_line_exit_2(capsys):
    """OS errors (an output folder that cannot be created) and bad bound values: one line, exit 2, nothing else."""
    from exactdp.cli import main

    assert main(["figures", "--out", "/proc/exactdp-cannot-create"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "/proc/exactdp-cannot-create" in err
    assert main(["bound", "phi", "--eps", "0.5.5"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "0.5.5" in err
