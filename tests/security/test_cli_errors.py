"""Every command-line error path is one line on stderr and exit 2 (bad input) or 1 (internal limit), never a
traceback, and quotes at most ~80 characters of the input (issue 14, part B)."""

import json
import subprocess
import sys

import pytest

from exactdp.cli import main, parse_memory
from exactdp.errors import ExactDPError, ParameterError

LONG = "x" * 10_000


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps([["3/4", "1/4"], ["1/4", "3/4"]]))
    return str(path)


def fails(capsys, argv, *words, code=2):
    """Run the CLI in-process; assert the status, one line on stderr, no traceback, the key words."""
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert rc == code, (rc, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and "Traceback" not in out
    assert len(err) < 800
    for w in words:
        assert w in err, (w, err)
    return err


# -- 1. the last-resort handler and the memory cap ------------------------------------------------------------------

@pytest.mark.parametrize("exc, code, words", [
    (RuntimeError("boom " + LONG), 1, ("internal error: RuntimeError: boom", "EXACTDP_DEBUG=1", "please report")),
    (MemoryError(), 1, ("out of memory", "max_memory", "--max-memory")),
    (RecursionError("maximum recursion depth exceeded"), 2, ("too deeply nested",)),
    (ParameterError("c: must be > 0"), 2, ("c: must be > 0",)),
    (ParameterError("line one\nline two"), 2, ("line one line two",)),
])
def test_last_resort_handler(capsys, monkeypatch, exc, code, words):
    import exactdp.cli.show as show

    def boom(args):
        raise exc

    monkeypatch.setattr(show, "run", boom)
    monkeypatch.delenv("EXACTDP_DEBUG", raising=False)
    err = fails(capsys, ["show", "x"], *words, code=code)
    assert LONG[:300] not in err


def test_debug_reraises(monkeypatch):
    import exactdp.cli.show as show

    monkeypatch.setattr(show, "run", lambda args: 1 / 0)
    monkeypatch.setenv("EXACTDP_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["show", "x"])


def test_max_memory_option(capsys):
    assert parse_memory("8G") == 8 << 30 and parse_memory("1536M") == 1536 << 20
    fails(capsys, ["--max-memory", "lots", "verify", "--list"], "--max-memory", "8G")
    fails(capsys, ["--max-memory", "512M", "verify", "--list"], "at least 1G")


def test_memory_cap_turns_a_huge_allocation_into_one_line(tmp_path):
    code = ("import resource, sys\n"
            "from exactdp.cli import apply_memory_cap\n"
            "cap = apply_memory_cap(2 << 30)\n"
            "assert resource.getrlimit(resource.RLIMIT_AS)[0] == cap == 2 << 30\n"
            "try:\n    bytearray(3 << 30)\nexcept MemoryError:\n    print('refused')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "refused", r.stderr


# -- 2. check ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["eta_tv <= log(-1)"], ("log(-1)", "not a real number")),
    (["eta_tv <= sqrt(-1)"], ("sqrt(-1)", "not a real number")),
    (["delta(-1) <= 1"], ("delta(eps)", "eps >= 0")),
    (["delta(10**100) <= 1"], ("delta(eps)", "max_exp_argument")),
    (["eta_tv <= 1", "--scheduler", "bogus"], ("--scheduler", "bogus")),
    (["tv(row(10), row(0)) <= 1"], ("row(10)", "fewer than 11 rows")),
    (["eta_tv_tensor(0) <= 1"], ("eta_tv_tensor(n)", "n >= 1")),
    (["eta_tv_tensor(9) <= 1"], ("eta_tv_tensor(9)",)),
    (["kl(K(P), Q) <= 1"], ("kl(K(P), Q)", "outputs", "inputs")),
    (["eta_tv <= 1", "--max-seconds", "-1"], ("--max-seconds",)),
    (["eta_tv <= 1", "--max-seconds", "soon"], ("--max-seconds",)),
    (["eta_tv <= 1", "--budget", "-1"], ("--budget", ">= 1")),
    (["eta_tv <= 1", "--budget", "10**9"], ("--budget",)),
    (["eta_tv <= 1", "--budget", "99999999999999"], ("max_work", "budget")),
    (["eta_tv <= 1", "--workers", "0"], ("--workers",)),
    (["eta_tv <= 1", "--workers", "100000"], ("--workers", "256")),
    (["eta_tv <= 1", "--max-den", "1"], ("--max-den",)),
    (["eta_tv <= 1", "--N", "-3"], ("sizes",)),
    (["eta_tv <= 1", "--M", "2..1000"], ("sizes",)),
    (["eta_tv <= 1", "--t", ""], ("t",)),
    (["eta_tv <= 1", "--class", "gdp"], ("--class",)),
    ([""], ("INEQUALITY",)),
])
def test_check_errors(capsys, argv, words):
    fails(capsys, ["check", *argv, *([] if "--budget" in argv else ["--budget", "40"])], *words)


def test_check_every_instance_undefined_is_an_error(capsys):
    from exactdp.verification.conjecture import check

    err = fails(capsys, ["check", "eta_tv <= log(eta_tv - 2)", "--budget", "40"], "every one of", "undefined",
                "log of the negative number")
    assert "NO-COUNTEREXAMPLE" not in err
    for text, word in (("tv(row(10), row(0)) <= 1", "row(10)"), ("eta_tv_tensor(0) <= 1", "eta_tv_tensor(n)"),
                       ("eta_tv <= log(eta_tv - 2)", "undefined"), ("kl(K(P), Q) <= 1", "outputs")):
        with pytest.raises(ParameterError, match=word.replace("(", r"\(").replace(")", r"\)")):
            check(text, budget=40)
    with pytest.raises(ParameterError, match="max_seconds"):
        check("eta_tv <= 1", budget=40, max_seconds=-1)


def test_check_long_input_is_quoted_short(capsys):
    err = fails(capsys, ["check", "eta_tv <= log(-1) + " + "1+" * 3000 + "1", "--budget", "40"])
    assert "1+" * 100 not in err


# -- 3. bound ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("flags, words", [
    ("--t 3 --c 1/4", ("missing parameter N",)),
    ("--t 3", ("missing parameters", "N", "c")),
    ("--t 3 --c -1 --N 2", ("c: must be > 0", "(0, 1/N]")),
    ("--t 3 --c 1/2 --N 4", ("N*c <= 1",)),
    ("--t 3 --c 1/4 --N 2.5", ("N: must be an integer",)),
    ("--t 3 --c 1/4 --N 1", ("N >= 2",)),
    ("--t 1/2 --c 1/4 --N 2", ("t >= 1",)),
    ("--eps 1 --t 3 --c 1/4 --N 2", ("not allowed with argument",)),
    ("--eps -1 --c 1/4 --N 2", ("eps: must be >= 0",)),
    ("--t 3 --c 1/4 --N 2 --delta 1/2", ("not a parameter of xi",)),
    ("--c 1/4 --N 2 --at t=3", ("--at: t has its own flag", "--t")),
    ("--t 3 --c 1/4 --at N=2", ("--at: N has its own flag", "--N")),
    ("--t 3 --at alpha=1,alpha=2", ("given twice",)),
    ("--at alpha=3,,c", ("NAME=VALUE",)),
    ("--at =3", ("NAME=VALUE",)),
])
def test_bound_values_are_validated(capsys, flags, words):
    fails(capsys, ["bound", "xi", *flags.split()], *words)


def test_bound_empty_assignment_is_one_line(capsys):
    fails(capsys, ["bound", "xi", "--at", ""], "--at", "empty")


def test_bound_api_is_validated_in_one_place():
    from exactdp import bounds

    xi = bounds.get("xi")
    for values, word in (({"t": 3, "c": "1/4"}, "missing parameter N"), ({"t": 3, "c": -1, "N": 2}, "c: must be > 0"),
                         ({"t": 3, "c": "1/4", "N": "5/2"}, "integer"), ({"eps": 1, "t": 3, "c": "1/4", "N": 2}, "twice")):
        with pytest.raises(ParameterError, match=word):
            xi.evaluate(**values)
        with pytest.raises(ParameterError, match=word):
            xi.evalf(10, **values)
    with pytest.raises(ParameterError, match="delta: must be >= 0"):
        bounds.get("phi").evaluate(t=2, delta=-1)
    assert str(xi.evaluate(t=3, c="1/4", N=2)) == "4/5"
    assert xi.evaluate(partial=True, t=3).free_symbols == {bounds.N, bounds.c}


def test_bound_other_errors(capsys):
    fails(capsys, ["bound", "xi", "--t", "3", "--c", "1/4", "--N", "2", "--digits", "0"], "--digits")
    fails(capsys, ["bound", "phi", "--compare", "ldp_dobrushin_tight", "--c", "1"], "not a parameter")
    err = fails(capsys, ["bound", LONG], "unknown bound")
    assert "x" * 100 not in err
    fails(capsys, ["bound"], "NAME")


# -- 4. analyze -------------------------------------------------------------------------------------------------------

def test_analyze_delta_alone_asks_for_epsilon_and_bad_input_fails(capsys, rr, tmp_path):
    """--delta alone asks for the least eps with delta(e^eps) <= DELTA (log(13/5) for RR at e^eps = 3); a delta
    outside [0, 1] is one line and exit 2."""
    assert main(["analyze", rr, "--delta", "1/10"]) == 0
    assert "log(13/5)" in capsys.readouterr().out
    fails(capsys, ["analyze", rr, "--delta", "2"], "--delta")
    fails(capsys, ["analyze", str(tmp_path / "missing.json")], "missing.json")
    fails(capsys, ["analyze", str(tmp_path)], "directory")


# -- 5. verify --update-readme ------------------------------------------------------------------------------------------

def test_update_readme_is_refused_before_the_run(capsys, monkeypatch, tmp_path):
    import exactdp.verification.engine as engine

    monkeypatch.setattr(engine, "verify", lambda *a, **k: pytest.fail("the verification ran"))
    csv = tmp_path / "some.csv"
    csv.write_text("a,b\n")
    fails(capsys, ["verify", "--update-readme", str(csv)], "not a Markdown file")
    assert csv.read_text() == "a,b\n"
    md = tmp_path / "plain.md"
    md.write_text("# x\n")
    fails(capsys, ["verify", "--update-readme", str(md)], "markers")
    assert md.read_text() == "# x\n"
    fails(capsys, ["verify", "--update-readme", str(tmp_path / "nope.md")], "no such file")
    fails(capsys, ["verify", "grosse2026.thm1", "--update-readme"], "full run")
    fails(capsys, ["verify", "--format", "json", "-o", str(tmp_path)], "directory")
    fails(capsys, ["verify", "--format", "markdown", "-o", str(tmp_path / "no" / "x.md")], "does not exist")
    fails(capsys, ["verify", "--json", "x.json"], "unrecognized arguments: --json")  # no old spellings
    fails(capsys, ["verify", "--jobs", "0"], "--jobs")
    fails(capsys, ["verify", "--jobs", "100000"], "--jobs")
    err = fails(capsys, ["verify", LONG], "CLAIM_ID")
    assert "x" * 100 not in err


# -- 6. figures -----------------------------------------------------------------------------------------------------------

def test_figures_without_matplotlib_names_the_extra(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    fails(capsys, ["figures", "--out", str(tmp_path / "figs")], "matplotlib", 'pip install "exactdp[figures]"')
    assert not (tmp_path / "figs").exists()


def test_figures_out_is_a_file(capsys, rr):
    pytest.importorskip("matplotlib")
    fails(capsys, ["figures", "--out", rr], "not a directory")


# -- 7. derive -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["grosse_pml_mechanism", "N=abc"], ("N: must be a positive integer, got 'abc'",)),
    (["grosse_pml_mechanism", "N=0"], ("N: must be a positive integer",)),
    (["grosse_pml_mechanism", "N=-3"], ("N: must be a positive integer",)),
    (["grosse_pml_mechanism", "N=" + "9" * 5000], ("N: must be a positive integer",)),
    (["grosse_pml_mechanism", "zz=1"], ("not a parameter of grosse_pml_mechanism",)),
    (["grosse_pml_mechanism", "N=3", "N=4"], ("given twice",)),
    (["grosse_pml_mechanism", "N3"], ("NAME=VALUE",)),
    (["no_such_mechanism"], ("unknown mechanism",)),
    ([], ("MECHANISM",)),
    (["--file", "/nonexistent/k.json"], ("--file",)),
])
def test_derive_errors(capsys, argv, words):
    err = fails(capsys, ["derive", *argv], *words)
    assert "9" * 100 not in err


# -- 8. hostile option values across every subcommand ----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["nosuchcommand"],
    ["show", "no.such.claim"],
    ["show", ""],
    ["show", "grosse2026.thm1", "--seed", "abc"],
    ["verify", "no.such_claim"],
    ["verify", "--seed", "1.5"],
    ["analyze", ""],
    ["evalf", ""],
    ["evalf", "pi", "--digits", "-1"],
    ["tensor", "RR", "--n", "0"],
    ["tensor", "RR", "--n", "-1"],
    ["extremal", "sup", "--N", "-1"],
    ["bound", "nosuch"],
    ["bound", "xi", "--compare", "nosuch"],
    ["check", "eta_tv <= foo"],
    ["figures"],
])
def test_hostile_values_are_one_line_exit_2(capsys, argv, rr):
    fails(capsys, [rr if a == "RR" else a for a in argv])


def test_errors_never_raise_for_unreadable_paths(capsys, tmp_path):
    fails(capsys, ["tensor", str(tmp_path), "--n", "2"])
    fails(capsys, ["derive", "--file", str(tmp_path)], "--file")


def test_exactdp_error_is_the_base():
    assert issubclass(ParameterError, ExactDPError)
