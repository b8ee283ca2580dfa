"""Issue 14's acceptance list, run as a user would: the real ``exactdp`` command in a fresh process under an
8 GB address-space limit (``ulimit -v``).  Each command must finish (a value) or refuse with one line on
stderr and its exit status — never a traceback, never killed, never a hang (a 60 s guard; the commands
take about a second each)."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

#: the command under test: this interpreter's exactdp (``python -m exactdp`` is the installed ``exactdp``
#: entry point), so a worktree or virtual environment tests its own code, not whichever exactdp is on PATH
EXACTDP = f"{shlex.quote(sys.executable)} -m exactdp"

SUM = "+".join(["1"] * 4000)
NESTED = "exp(-" * 50 + "1" + ")" * 50

#: (command line, expected exit status, words the last line must contain)
CASES = [
    ("derive --file {evil}", 2, ["K[0][0]"]),
    ("analyze {big_entry}", 2, ["max_text_length"]),
    ("check 'eta_tv <= log(-1)'", 2, ["not a real number"]),
    ("check 'eta_tv <= sqrt(-1)'", 2, ["not a real number"]),
    ("check 'delta(-1) <= 1'", 2, ["eps >= 0"]),
    ("check 'delta(10**100) <= 1'", 2, ["max_exp_argument"]),
    ("check 'eta_tv <= 1' --scheduler bogus", 2, ["--scheduler"]),
    (f"evalf '{SUM}'", 0, ["4000.0000000000"]),
    ("evalf pi --digits 100000", 0, ["3.14159265358979323846"]),
    ("bound xi --t 3 --c 1/4 --N 2 --digits 10000000", 2, ["max_digits"]),
    ("evalf 'exp(1'", 2, ["expected ')'"]),
    ("derive grosse_pml_mechanism N=abc", 2, ["N:"]),
    ("derive --file {plain}", 2, ["no parameters"]),
    ("tensor {rr} --n 1000000000000", 0, ["certified enclosure"]),  # past the exact search: an enclosure
    ("analyze {hugeexp}", 2, ["max_integer_digits"]),
    ("analyze {rr} --t 1e999999999", 2, ["max_integer_digits"]),
    ("evalf 1e999999999", 2, ["max_integer_digits"]),
    ("check 'eta_tv <= 1e999999999'", 2, ["max_integer_digits"]),
    ("evalf '10**10**10'", 2, ["max_integer_digits"]),
    ("check 'eta_tv <= exp(exp(exp(100)))'", 2, ["max_exp_argument"]),
    (f"evalf '{NESTED}'", 2, ["max_call_nesting"]),
    ("derive grosse_pml_mechanism N=1000", 2, ["limit"]),
    ("extremal sup --N 200 --M 50 --t 3 --c 1/1000", 2, ["max_work"]),
    ("analyze {pow5000}", 0, ["eta_TV"]),
    ("evalf '3^(1/100000000000000000000000)'", 0, ["1.00000000000000000000001098612"]),
    ("derive --file {binary}", 2, ["not a text file"]),
    ("bound xi --t 3 --c 1/4", 2, ["missing parameter N"]),
    ("bound xi --t 3 --c -1 --N 2", 2, ["c:"]),
    ("bound xi --t 3 --c 1/4 --N 2.5", 2, ["integer"]),
    ("bound xi --t 3 --at alpha=1,alpha=2 --c 1/4 --N 2", 2, ["twice"]),
    ("check 'tv(row(10), row(0)) <= 1'", 2, ["row(10)"]),
    ("check 'eta_tv_tensor(0) <= 1'", 2, ["n >= 1"]),
    ("check 'kl(K(P), Q) <= 1'", 2, ["K(P)"]),
    ("check 'eta_tv <= 1' --max-seconds -1", 2, ["--max-seconds"]),
    ("analyze {rr} --delta 2", 2, ["--delta"]),
    ("verify --update-readme {tmp}/some.csv", 2, ["--update-readme"]),
    ("tensor {k23} --n 10000", 0, ["certified enclosure"]),  # past the exact search: an enclosure
    ("tensor {asym} --n 10000", 0, ["9999 compositions ruled out by the certified filter"]),  # issue 15: ~3 s
    ("tensor {asym} --n 1000000", 2, ["max_work"]),
    ("analyze {huge_file}", 2, ["max_file_bytes"]),
    ("analyze {many_entries}", 2, ["max_entries"]),
    ("--max-seconds 1 verify", 1, ["--max-seconds"]),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("adversarial")
    docs = {
        "rr": [["3/4", "1/4"], ["1/4", "3/4"]],
        "plain": [["1/2", "1/2"], ["1/3", "2/3"]],
        "asym": [["1/2", "1/2"], ["1/3", "2/3"]],
        "k23": [["1/2", "1/3", "1/6"], ["1/3", "1/3", "1/3"]],
        "big_entry": [["1/2", "1/2"], ["1/2", "x" * 15000]],
        "hugeexp": [["1e-999999999", "1"], ["1/2", "1/2"]],
        "pow5000": [["1/10^5000", "1-1/10^5000"], ["1/2", "1/2"]],
        "evil": {"parameters": {"t": "positive"}, "region": ["t >= 1"],
                 "rows": [[f"__import__('os').system('touch {d}/sentinel') + 1/2", "1/2"], ["1/2", "1/2"]]},
    }
    paths = {"tmp": str(d)}
    for name, doc in docs.items():
        (d / f"{name}.json").write_text(json.dumps(doc))
        paths[name] = str(d / f"{name}.json")
    (d / "binary.json").write_bytes(bytes(range(256)))
    paths["binary"] = str(d / "binary.json")
    with open(d / "huge.json", "wb") as f:  # a sparse 70 MB file: the size is refused before reading
        f.truncate(70 * 2**20)
    paths["huge_file"] = str(d / "huge.json")
    row = "[" + ",".join(['"0"'] * 2999 + ['"1"']) + "]"
    (d / "many.json").write_text("[" + ",".join([row] * 1500) + "]")  # 4.5 M entries in 21 MB
    paths["many_entries"] = str(d / "many.json")
    yield paths
    assert not (d / "sentinel").exists(), "a payload in a kernel file ran code"


def _run(line: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", f"ulimit -v 8000000; exec timeout 60 {EXACTDP} {line}"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_every_listed_command_finishes_or_refuses_in_one_line(files):
    lines = [case[0].format(**{k: shlex.quote(v) for k, v in files.items()}) for case in CASES]
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(_run, lines))
    problems = []
    for (template, code, words), line, r in zip(CASES, lines, results):
        shown = template[:70]
        err_lines = r.stderr.strip().splitlines()
        if "Traceback" in r.stderr or "Traceback" in r.stdout:
            problems.append(f"{shown}: traceback")
        elif r.returncode != code:
            problems.append(f"{shown}: exit {r.returncode}, expected {code}: {r.stderr.strip()[-200:]}")
        elif code != 0 and len(err_lines) != 1:
            problems.append(f"{shown}: {len(err_lines)} lines on stderr")
        else:
            text = (r.stderr if code else r.stdout)
            problems += [f"{shown}: {w!r} not in output" for w in words if w not in text]
            if code and len(r.stderr) > 700:
                problems.append(f"{shown}: message of {len(r.stderr)} characters")
    assert not problems, "\n".join(problems)
