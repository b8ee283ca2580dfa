"""``--format markdown|latex|html`` of every command (issue 16 item 5) and formulas in engine lines shown as
mathematics (``exactdp.cli._common.math_line``).  Values are the closed forms of the binary randomized
response K = (3/4, 1/4; 1/4, 3/4): η_TV = 1/2, η_{E_2} = 1/4, e^{ε_LDP} = 3, and of K^{⊗3} by brute force."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
import sympy

from exactdp.cli import _common, main


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    return str(path)


def out_of(capsys, argv, rc=0):
    assert main(argv) == rc
    return capsys.readouterr().out


class _Tags(HTMLParser):
    """Collects tags and fails on a closing tag that does not match the open one (well-formed fragment)."""

    def __init__(self):
        super().__init__()
        self.stack, self.seen = [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        self.seen.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, f"</{tag}> closes {self.stack}"


def tags(html: str) -> list[str]:
    p = _Tags()
    p.feed(html)
    assert p.stack == [], f"unclosed {p.stack}"
    return p.seen


def test_analyze_markdown_latex_html(capsys, rr):
    argv = ["analyze", rr, "--t", "2", "--c", "1/4"]
    md = out_of(capsys, argv + ["--format", "markdown"])
    assert "| $\\eta_{\\mathrm{TV}}(K)$ (Dobrushin) | $\\frac{1}{2}$ |" in md
    assert "| $\\eta_{E_\\gamma}(K)$ at $\\gamma = 2$ | $\\frac{1}{4}$ |" in md
    assert "| $e^\\varepsilon$ of $\\varepsilon$-LDP | $3$ |" in md
    assert "| $\\varepsilon$ of $\\varepsilon$-LDP | $\\log{\\left(3 \\right)}$ |" in md
    # a decision is text, not a symbol
    assert "| $(\\varepsilon,\\delta)$-LDP at $e^\\varepsilon = 2$, $\\delta = 0$ | false |" in md
    # the profile delta(gamma) = max(1 - gamma, 3/4 - gamma/4, 0) of RR with e^eps = 3
    assert "| $\\delta(\\gamma)$ for $\\gamma \\in [1/3, 3]$ | $\\frac{3}{4} - \\frac{\\gamma}{4}$ |" in md
    assert "$$\\begin{pmatrix}\\frac{3}{4} & \\frac{1}{4} \\\\ \\frac{1}{4} & \\frac{3}{4}\\end{pmatrix}$$" in md
    tex = out_of(capsys, argv + ["--format", "latex"])
    assert "\\begin{tabular}{@{}p{0.42\\linewidth}p{0.54\\linewidth}@{}}" in tex and "& $\\frac{1}{2}$ \\\\" in tex and "\\documentclass" not in tex
    html = out_of(capsys, argv + ["--format", "html"])
    assert "<mfrac><mn>1</mn><mn>2</mn></mfrac>" in html and "math" in tags(html)
    assert "tex-fallback" not in html  # every label's maths converted to MathML


def _tv_product(n: int) -> Fraction:
    """η_TV(K^{⊗n}) of the binary RR by brute force: TV of the rows for the inputs 0…0 and 1…1."""
    k = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    best = Fraction(0)
    for x in itertools.product((0, 1), repeat=n):
        for xp in itertools.product((0, 1), repeat=n):
            tv = Fraction(0)
            for y in itertools.product((0, 1), repeat=n):
                a = b = Fraction(1)
                for i in range(n):
                    a *= k[x[i]][y[i]]
                    b *= k[xp[i]][y[i]]
                tv += max(a - b, 0)
            best = max(best, tv)
    return best


def test_tensor_markdown_matches_brute_force(capsys, rr):
    md = out_of(capsys, ["tensor", rr, "--n", "3", "--t", "2", "--format", "markdown"])
    v = _tv_product(3)
    assert v == Fraction(11, 16)
    assert f"| $\\eta_{{\\mathrm{{TV}}}}(K^{{\\otimes n}})$ | $\\frac{{{v.numerator}}}{{{v.denominator}}}$ |" in md
    assert "| $\\eta_{\\mathrm{TV}}(K^{\\otimes n}) \\le \\varphi^n$ | true |" in md
    # phi^n(t, delta) = 1 - t^-n (1 - delta)^n at t = 2, delta = eta_{E_2}(K) = 1/4: 1 - 27/512
    assert "| $\\varphi^n(t, \\delta)$ at $t = 2$, $\\delta = 1/4$ | $\\frac{485}{512}$ |" in md


def test_extremal_evalf_bound_html_and_latex(capsys):
    md = out_of(capsys, ["extremal", "sup", "--N", "2", "--t", "2", "--c", "1/4", "--format", "markdown"])
    # [G] Thm 1: Xi = (t - 1)/(t(1 - Nc) + 1) = 1/(2·1/2 + 1) = 1/2 at t = 2, N = 2, c = 1/4
    assert "| $\\sup \\eta_{\\mathrm{TV}}$ | $\\frac{1}{2}$ |" in md
    assert "| $\\Xi(\\varepsilon, c)$ ([G] Thm 1) | $\\frac{1}{2}$ |" in md
    tex = out_of(capsys, ["evalf", "exp(1/2)", "--digits", "10", "--format", "latex"])
    assert "expression & $e^{\\frac{1}{2}}$ \\\\" in tex and "10 significant digits & 1.648721271 \\\\" in tex
    html = out_of(capsys, ["bound", "xi", "--t", "2", "--c", "1/4", "--N", "2", "--format", "html"])
    assert "<td>value at t = 2, c = 1/4, N = 2</td><td><math" in html
    assert "<mfrac><mn>1</mn><mn>2</mn></mfrac>" in html
    tags(html)


def test_check_markdown_counterexample(capsys):
    md = out_of(capsys, ["check", "eta_tv <= (exp(eps)-1)/(exp(eps)*(1-c)+1)", "--class", "pml", "--N", "2",
                         "--M", "2", "--budget", "50", "--format", "markdown"], rc=1)
    # the binary kernel (2/3, 1/3; 1/3, 2/3) at t = 4/3, c = 1/2: eta_TV = 1/3 > (1/3)/(2/3 + 1) = 1/5
    assert "| verdict | REFUTED |" in md
    assert "| lhs | $\\frac{1}{3}$ |" in md and "| rhs | $\\frac{1}{5}$ |" in md
    assert "| slack (must be >= 0) | $- \\frac{2}{15}$ |" in md


def test_derive_markdown_and_text_steps(capsys):
    md = out_of(capsys, ["derive", "binary_randomized_response", "--quantity", "eta_tv", "--format", "markdown"])
    assert "| result | $\\frac{e^{\\varepsilon} - 1}{e^{\\varepsilon} + 1}$ |" in md
    assert "\\frac{1}{e^{\\varepsilon} + 1}" in md  # the kernel entry 1/(t + 1), not 1 + 1/t
    text = out_of(capsys, ["derive", "binary_randomized_response", "--quantity", "eta_tv"])
    # the step's value printed from its expression; its LaTeX label is for the documents (no LaTeX-to-text pass)
    assert "  step 1: divergence of rows 0 and 1: (t - 1)/(t + 1)\n" in text
    assert text.rstrip().endswith("result: (t - 1)/(t + 1)")


def test_show_html_is_the_report_of_one_claim(capsys):
    html = out_of(capsys, ["show", "grosse2026.thm2_tv", "--quick", "--format", "html"])
    assert html.startswith("<!DOCTYPE html>") and "grosse2026.thm2_tv" in html and "<math" in html


def test_math_text_parenthesises_a_sum_under_one():
    t, c = sympy.symbols("t c")
    assert _common.math_text(1 / (t + 1)) == "1/(t + 1)"  # was printed "1/t + 1"
    assert _common.math_text(1 / (2 * c)) == "1/(2·c)"
    assert _common.math_text(t**-2) == "1/t^2"


def test_math_line_prints_formulas_and_keeps_prose():
    assert _common.math_line("claim: 0 >= 0 on (t >= 1) & (c <= 1/2)") == "claim: 0 ≥ 0 on (t ≥ 1) and (c ≤ 1/2)"
    assert (_common.math_line("the conjecture reads eta_tv <= Min(1, (t - 1)/(t*(-N*c + 1) + 1))")
            == "the conjecture reads eta_tv ≤ Min(1, (t - 1)/(t·(-N·c + 1) + 1))")
    # prose, hyphenated words, quoted names and unknown functions stay; a chain keeps its order
    assert _common.math_line("certificates linear-combination '(eps,c)-PML bound' (all N, M; 0 < c <= 1/N)") == \
        "certificates linear-combination '(eps,c)-PML bound' (all N, M; 0 < c ≤ 1/N)"
    assert _common.math_line("eta_{E_{e^eps}}(K) <= delta") == "eta_{E_{e^eps}}(K) ≤ delta"
    # nothing is decided, evaluated or reordered by printing: the screen states the stored formula
    assert _common.math_line("then Min(1, 2*c) <= Min(1, 2*c): checked") == "then Min(1, 2·c) ≤ Min(1, 2·c): checked"
    assert _common.math_line("phi: log(E)*(1 - 1/E) == 0 -> true") == "phi: log(E)·(1 - 1/E) = 0 -> true"
    assert _common.math_line("-delta + delta <= 0") == "-delta + delta ≤ 0"  # not "0 ≤ 0"
    # juxtaposition and prose around a formula keep their meaning ([A] Thm 1's derivation, step 3)
    step = "(t - 1)(1 - e)/(e + t - 1) An = delta e - (Ap - An); e = 0: the difference is -An <= 0"
    assert _common.math_line(step) == step.replace("<=", "≤")
    assert _common.math_line("hence -a + b >= 0") == "hence -a + b ≥ 0"
    assert _common.math_line("t**2*x != 1") == "t^2·x ≠ 1"


def test_check_text_prints_proof_formulas_as_math(capsys):
    text = out_of(capsys, ["check", "eta_hs(exp(eps)) <= delta", "--class", "approx-ldp", "--N", "2",
                           "--budget", "100", "--no-progress"])
    assert "          claim: 0 ≥ 0 on (t ≥ 1) and (delta ≤ 1)" in text
    proof = text.split("proof", 1)[1].split("searched")[0]
    assert ">= " not in re.sub(r"'[^']*'", "", proof)  # quoted certificate names are data, printed as they are


def test_verify_list_fits_100_columns(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    out = out_of(capsys, ["verify", "--list"])
    assert max(len(line) for line in out.splitlines()) <= 100
    head = out.splitlines()[0].split()
    assert head == ["claim", "expected", "title"]  # source and items dropped at 100 columns
    monkeypatch.setenv("COLUMNS", "240")
    assert out_of(capsys, ["verify", "--list"]).splitlines()[0].split()[:3] == ["claim", "items", "source"]


def test_latex_snippets_compile_without_overfull_boxes(capsys, rr, tmp_path):
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    parts = [out_of(capsys, ["analyze", rr, "--t", "2", "--c", "1/4", "--format", "latex"]),
             out_of(capsys, ["check", "eta_hs(exp(eps)) <= delta", "--class", "approx-ldp", "--N", "2",
                             "--budget", "100", "--format", "latex"]),
             out_of(capsys, ["extremal", "gamma", "--N", "2", "--t", "2", "--c", "1/4", "--format", "latex"]),
             # values of hundreds of digits, shown abbreviated: the value column wraps
             out_of(capsys, ["tensor", rr, "--n", "300", "--t", "3/2", "--format", "latex"])]
    tex = tmp_path / "s.tex"
    tex.write_text("\\documentclass{article}\\usepackage{amsmath,booktabs}\\usepackage[utf8]{inputenc}\n"
                   "\\begin{document}\n" + "\n".join(parts) + "\\end{document}\n", encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120, check=False)
    log = (tmp_path / "s.log").read_text(errors="replace")
    assert run.returncode == 0, log[-2000:]
    assert "Overfull" not in log and "Missing character" not in log


def test_show_text_prints_derivation_formulas_as_math(capsys):
    text = out_of(capsys, ["show", "findings.x01_phi_vs_xi", "--quick"])
    assert "    step 2:   where E = exp(eps) and E ≥ 1" in text
    # a decided statement: its label symbol by symbol, its formula printed from the expression
    assert "1 + e^-eps ≤ 2: s/(s + 1) ≥ 0 → true" in text


def test_a_large_kernel_is_not_printed_as_a_matrix(capsys, tmp_path):
    path = tmp_path / "id13.json"
    n = 13  # 169 entries > MAX_MATRIX_ENTRIES
    path.write_text(str([["1" if i == j else "0" for j in range(n)] for i in range(n)]).replace("'", '"'))
    md = out_of(capsys, ["analyze", str(path), "--format", "markdown"])
    assert "pmatrix" not in md and "| $K$ | 13 x 13 matrix (entries in --format json) |" in md
    assert "| $\\eta_{\\mathrm{TV}}(K)$ (Dobrushin) | $1$ |" in md  # the identity: disjoint rows


def test_html_writes_t_as_e_to_the_eps(capsys, tmp_path):
    path = tmp_path / "rr_t.json"
    path.write_text('{"parameters": {"t": "positive"}, "region": ["t >= 1"], '
                    '"rows": [["t/(t+1)", "1/(t+1)"], ["1/(t+1)", "t/(t+1)"]]}')
    html = out_of(capsys, ["derive", "--file", str(path), "--quantity", "eta_tv", "--format", "html"])
    e_eps = "<msup><mi>&ExponentialE;</mi><mi>&#949;</mi></msup>"
    # eta_TV = (e^eps - 1)/(e^eps + 1)
    assert (f"<td>result</td><td><math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mrow><mfrac><mrow>{e_eps}"
            f"<mo>-</mo><mn>1</mn></mrow><mrow>{e_eps}<mo>+</mo><mn>1</mn></mrow></mfrac></mrow></math></td>") in html
    tags(html)


def test_derive_bounds_in_each_format(capsys):
    md = out_of(capsys, ["derive", "--bounds", "--format", "markdown"])
    assert md.startswith("| name | statement | source | items |") and "`xi`" in md
    assert "<td>xi</td>" in out_of(capsys, ["derive", "--bounds", "--format", "html"])
    assert main(["derive", "--bounds", "--format", "json"]) == 2
    assert "bound --list --format json" in capsys.readouterr().err


def test_bound_markdown_gives_the_value_at_the_point(capsys):
    md = out_of(capsys, ["bound", "xi", "--t", "2", "--c", "1/4", "--N", "2", "--format", "markdown"])
    # Xi = min(1, (t - 1)/((1 - Nc)t + 1)) = 1/(1/2 * 2 + 1) = 1/2
    assert md.startswith("| name | statement | source | items |")
    assert "Value at t = 2, c = 1/4, N = 2: $\\frac{1}{2}$ (≈ 0.500000000000000, correctly rounded, certified)." in md


def test_verify_report_to_a_file_prints_only_the_summary(tmp_path, capsys):
    """``verify --format latex -o FILE``: the report goes to the file, the terminal gets the summary lines and
    where the report is — not the claims table."""
    from exactdp.cli import main

    out = tmp_path / "r.tex"
    assert main(["verify", "grosse2026.lem2", "--quick", "--no-progress", "--format", "latex", "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 claims: 1 proved, 0 proved-modulo")
    assert lines[-1] == f"latex report written to {out}" and len(lines) == 3
    assert "grosse2026.lem2" in out.read_text() and "\\documentclass" in out.read_text()
