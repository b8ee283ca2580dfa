"""Reports and the verify/show command line: determinism, JSON fields, README block, LaTeX, exit codes."""

import json
import shutil
import subprocess

import pytest

from exactdp.cli import main
from exactdp.output import report
from exactdp.sources import CATALOGUE, Source
from exactdp.verification.claims import REGISTRY, Check, Claim, Outcome, Verdict, load_all
from exactdp.verification.engine import verify

FAST = ["findings", "grosse2026.ex2_k1", "background.d11_xi", "asoodeh2021.thm1"]


@pytest.fixture(scope="module")
def fast_results():
    return verify(FAST, seed=3, quick=True)


def test_same_seed_gives_identical_reports(fast_results):
    again = verify(FAST, seed=3, quick=True)
    for fn in (report.to_json, report.to_markdown, report.to_latex):
        assert fn(fast_results, seed=3, quick=True) == fn(again, seed=3, quick=True)


def test_cli_reports_are_byte_identical(tmp_path):
    """Two CLI runs with one seed write the same JSON report (the Markdown and LaTeX renderers' identity is
    test_same_seed_gives_identical_reports)."""
    outs = []
    for k in range(2):
        path = tmp_path / f"r{k}.json"
        rc = main(["verify", "findings", "--quick", "--seed", "5", "--no-progress", "--format", "json", "-o", str(path)])
        assert rc == 0
        outs.append(path.read_bytes())
    assert outs[0] == outs[1]
    doc = json.loads(outs[0])
    assert doc["command"] == "verify" and doc["seed"] == 5 and doc["quick"] is True
    from exactdp.verification.engine import select_claims

    assert [c["id"] for c in doc["result"]["claims"]] == [c.id for c in select_claims(["findings"])]


def test_json_fields(fast_results):
    doc = json.loads(report.to_json(fast_results, seed=3, quick=True))
    assert doc["seed"] == 3 and doc["quick"] is True
    allowed = {"proved", "verified", "refuted", "undecided", "not-checkable"}
    for rec in doc["claims"]:
        for key in ("id", "catalogue", "verdict", "expected", "instances", "evidence"):
            assert key in rec
        assert isinstance(rec["catalogue"], list) and rec["verdict"] in allowed and rec["expected"] in allowed
    fg1 = next(r for r in doc["claims"] if r["id"] == "findings.fg01_uniform_range")
    assert fg1["verdict"] == "refuted" and fg1["evidence"][0]["counterexample"]["claimed_eta_tv"] == "2"
    thm1 = next(r for r in doc["claims"] if r["id"] == "asoodeh2021.thm1")
    assert thm1["instances"] > 0 and "seconds" not in thm1


def test_numbered_statements_proved_for_their_whole_range(fast_results):
    """asoodeh2021.thm1 (label "Theorem 1", proved, all N, M) is the one numbered statement of FAST (the findings
    about Theorem 2 and Corollary 2 are not statements of the paper); a finite scope, a verified verdict or a
    proved-modulo one count as such, several claims under one label as one."""
    from types import SimpleNamespace as NS

    from exactdp.verification.engine import numbered_statements

    doc = json.loads(report.to_json(fast_results, seed=3, quick=True))
    assert doc["summary"]["numbered_statements"] == {"total": 1, "proved": 1, "proved_modulo": 0, "not_proved": []}
    assert report.numbered_line(fast_results).endswith("1 of 1 proved for their whole range, 0 more proved modulo "
                                                       "cited results")

    def res(label, verdict, scope, kind="theorem"):
        return NS(claim=NS(kind=kind, source=NS(label=label, paper=NS(key="grosse2026"))), verdict=verdict,
                  scope=scope)

    fake = [res("Theorem 1", Verdict.PROVED, "all N, M; t >= 1"), res("Lemma 4", Verdict.PROVED, "all N, M"),
            res("Lemma 4", Verdict.PROVED, "N = 2..6"), res("Theorem 4", Verdict.PROVED_MODULO, "all N, M"),
            res("Theorem 2", Verdict.VERIFIED, "instances"), res("Theorem 1 and the limits", Verdict.PROVED, ""),
            res("Theorem 3", Verdict.PROVED, "all N, M", kind="finding")]
    assert numbered_statements(fake) == {"grosse2026 Lemma 4": "not", "grosse2026 Theorem 1": "proved",
                                         "grosse2026 Theorem 2": "not", "grosse2026 Theorem 4": "proved-modulo"}


def test_markdown_is_the_readme_block(fast_results):
    md = report.to_markdown(fast_results, seed=3, quick=True)
    assert "| `findings.fg01_uniform_range` |" in md and "refuted" in md
    readme = "# x\n\nintro\n"
    once = report.update_readme(readme, md)
    assert report.README_BEGIN in once and report.README_END in once
    assert report.update_readme(once, md) == once  # idempotent: replaces, never appends twice
    assert report.update_readme(once, "new table") .count(report.README_BEGIN) == 1


def test_claims_table_lives_in_one_file():
    """The generated table sits in report.CLAIMS_TABLE_FILE (docs/verdicts.md, linked from the README), once."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = root.joinpath(report.CLAIMS_TABLE_FILE).read_text(encoding="utf-8")
    assert text.count(report.README_BEGIN) == 1 and text.count(report.README_END) == 1
    assert "| `grosse2026.thm1` |" in text
    readme = root.joinpath("README.md").read_text(encoding="utf-8")
    assert report.README_BEGIN not in readme and f"]({report.CLAIMS_TABLE_FILE})" in readme


def test_latex_document_structure(fast_results):
    tex = report.to_latex(fast_results, seed=3, quick=True)
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert all(ord(ch) < 128 for ch in tex), "non-ASCII characters must be mapped to LaTeX"
    assert tex.count(r"\begin{itemize}") == tex.count(r"\end{itemize}")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(quick_verify_results, tmp_path):
    results = quick_verify_results
    (tmp_path / "r.tex").write_text(report.to_latex(results, seed=0, quick=True), encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_latex_text_escapes():
    from exactdp.output.latex import latex_text

    assert latex_text("a_b & 50% ε≤δ") == r"a\_\allowbreak{}b \& 50\% $\varepsilon\le\delta$"


def test_unknown_claim_is_bad_usage(capsys):
    assert main(["verify", "no.such_claim"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no.such_claim" in err[0]
    assert main(["show", "no.such_claim"]) == 2


def test_list_and_show(capsys):
    assert main(["verify", "--list"]) == 0
    out = capsys.readouterr().out
    assert "grosse2026.thm2" in out and "reconstructed statement" in out
    assert main(["show", "findings.fa06_probabilistic_ldp", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "counterexample" in out and "3/5" in out and "refuted" in out


def test_exit_status_one_when_a_verdict_differs(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the table fits the terminal: a narrow one would wrap the verdict cell
    load_all()
    bad = Claim(id="findings.zz_test_mismatch", catalogue=("T-1",), source=Source(CATALOGUE, "test"),
                title="expected verified but refuted", statement="1 = 2", hypotheses="",
                checks=(Check("c", lambda ctx: Outcome(Verdict.REFUTED, "no", counterexample={"x": "1"})),),
                expected=Verdict.VERIFIED)
    REGISTRY[bad.id] = bad
    try:
        assert main(["verify", bad.id, "--no-progress"]) == 1
        out = capsys.readouterr().out
        assert "expected verified" in out and "1 differ from expected" in out
    finally:
        del REGISTRY[bad.id]


def test_a_raising_check_is_undecided_not_passing():
    from exactdp.verification.claims import CheckContext
    from exactdp.verification.engine import run_claim

    def boom(ctx):
        raise RuntimeError("broken check")

    c = Claim(id="findings.zz_boom", catalogue=("T-2",), source=Source(CATALOGUE, "test"), title="t",
              statement="x", hypotheses="", checks=(Check("boom", boom),), expected=Verdict.VERIFIED)
    r = run_claim(c, CheckContext())
    assert r.verdict is Verdict.UNDECIDED and not r.matches and "broken check" in r.outcomes[0].reason


def test_jobs_do_not_change_the_report():
    sel = ["findings", "background.d11_xi"]
    one = report.to_json(verify(sel, seed=2, quick=True), seed=2, quick=True)
    two = report.to_json(verify(sel, seed=2, quick=True, jobs=2), seed=2, quick=True)
    assert one == two
