"""The LaTeX documents compile cleanly: ``exactdp verify``'s report (--quick) and the README's ``derive --latex``
and ``derive --bounds`` examples give 0 overfull boxes, 0 missing characters and 0 undefined control sequences
(pdflatex's log), and page 1 of the verify report shows the summary table first."""

import re
import shutil
import subprocess

import pytest

from exactdp.output.latex import latex_text, verify_report_latex

PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed")
PROBLEMS = ("Overfull \\hbox", "Overfull \\vbox", "Missing character", "Undefined control sequence",
            "not set up for use with LaTeX")


def compile_tex(tex: str, tmp_path, name: str = "doc"):
    """pdflatex twice (contents and references), then the problems found in the log."""
    (tmp_path / f"{name}.tex").write_text(tex, encoding="utf-8")
    for _ in range(2):
        res = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300, check=False)
        assert res.returncode == 0, res.stdout[-3000:]
    log = (tmp_path / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    return [line for line in log.splitlines() if any(p in line for p in PROBLEMS)]


def test_text_mode_keeps_bars_and_maths():
    assert latex_text("K(y|x)") == r"K(y\textbar{}x)"
    assert latex_text("E_gamma(P||Q) <= 1") == r"E\_\allowbreak{}gamma(P$\|$Q) $\le$ 1"
    assert latex_text("§7 ε ∈ (0, 1]") == r"\S{}7 $\varepsilon$ $\in$ (0, 1{]}"  # never an optional argument
    assert latex_text("η→ x") == r"$\eta\to$ x"


@pytest.fixture(scope="module")
def quick_results(quick_verify_results):
    return quick_verify_results


@pytest.mark.slow
def test_verify_report_opens_with_summary_and_contents(quick_results):
    tex = verify_report_latex(quick_results, seed=0, quick=True)
    body = tex.split(r"\begin{document}", 1)[1]
    assert body.index(r"\section*{Summary}") < body.index(r"\begin{longtable}") < body.index(r"\tableofcontents")
    assert body.index(r"\tableofcontents") < body.index(r"\section[")
    assert body.count(r"\section[") == len(quick_results)
    assert r"\usepackage[T1]{fontenc}" in tex and r"\usepackage[utf8]{inputenc}" in tex
    assert all(ord(ch) < 128 for ch in tex)
    assert r"\texttt{grosse2026.\allowbreak{}thm1}" in body  # ids break at '.' and '_', never overflow


#: ASCII maths that must not be left in the report's text: <=, >=, the words eps and delta, and ^
ASCII_MATHS = re.compile(r"<=|>=|\^|(?<![A-Za-z\\])(?:eps|delta)(?![A-Za-z])")


def text_mode(tex: str) -> str:
    """The report's text outside verbatim code and outside formulas, identifiers (texttt, labels, links and
    the table of contents' plain ids) removed: where ASCII maths would be typeset as text."""
    from exactdp.output.latex import brace_depths

    body = tex.split(r"\begin{document}", 1)[1]
    body = re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", " ", body, flags=re.S)
    body = re.sub(r"\\begin\{align\*\}.*?\\end\{align\*\}", " ", body, flags=re.S)
    for macro in (r"\fitdisplay{", r"\fitmath{", r"\texttt{", r"\label{"):
        while (k := body.find(macro)) >= 0:
            start = k + len(macro) - 1
            end = next(i for i, d in brace_depths(body[start:]) if d == 0) + start + 1
            body = body[:k] + " " + body[end:]
    body = re.sub(r"\\(?:section|hyperref)\[[^\]]*\]", " ", body)
    body = re.sub(r"(?<!\\)\$(.+?)(?<!\\)\$", " ", body, flags=re.S)
    return body.replace(r"\^{}", "^")


@pytest.mark.slow
def test_verify_report_has_no_ascii_maths_outside_verbatim(quick_results):
    tex = verify_report_latex(quick_results, seed=0, quick=True)
    text = text_mode(tex)
    assert len(text) > 20000  # the prose is there, only its formulas were taken out
    left = sorted({text[max(m.start() - 40, 0):m.end() + 40] for m in ASCII_MATHS.finditer(text)})
    assert left == []
    assert r"$\varphi(\varepsilon,0) n \geq 4(e^{\varepsilon} - 1)^{2} n \iff" in tex  # a title, typeset


def test_the_text_mode_check_can_fail():
    doc = r"\begin{document}" + r"\texttt{a\_eps} $x^2 \leq \delta$ \fitdisplay{e^{\varepsilon}} eps"
    assert ASCII_MATHS.findall(text_mode(doc)) == ["eps"]
    assert ASCII_MATHS.findall(text_mode(r"\begin{document}e\^{}x")) == ["^"]


@pytest.mark.slow
@needs_pdflatex
def test_verify_report_compiles_without_overfull_boxes(quick_results, tmp_path):
    problems = compile_tex(verify_report_latex(quick_results, seed=0, quick=True), tmp_path, "report")
    assert problems == []
    if shutil.which("pdftotext"):
        page1 = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "report.pdf", "-"], cwd=tmp_path,
                               capture_output=True, text=True, check=True).stdout
        assert "Summary" in page1 and "claim (catalogue items)" in page1 and "verdict" in page1
        assert page1.index("Summary") < page1.index("asoodeh2021.a01")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "50", "-f", "1", "-l", "1", "-png", "report.pdf", "page"], cwd=tmp_path,
                       check=True, capture_output=True)
        png = next(tmp_path.glob("page*.png"))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


README_DERIVE = (["derive", "grosse_pml_mechanism", "N=3", "--format", "latex"],
                 ["derive", "randomized_response", "k=3", "--format", "latex"],
                 ["derive", "--bounds"])


@pytest.mark.slow
@needs_pdflatex
@pytest.mark.parametrize("argv", README_DERIVE, ids=lambda a: "-".join(a[:3]))
def test_derive_documents_compile_cleanly(argv, tmp_path, capsys):
    from exactdp.cli import main

    assert main(argv) == 0
    tex = capsys.readouterr().out
    assert compile_tex(tex, tmp_path) == []
    if shutil.which("pdftotext") and "--bounds" in argv:  # the table starts on page 1 (no empty first page)
        page1 = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "doc.pdf", "-"], cwd=tmp_path,
                               capture_output=True, text=True, check=True).stdout
        assert "asoodeh_zhang_chi2" in page1 and "phi" in page1.split("items", 1)[1]


def _long_sum():
    import sympy

    t, c = sympy.symbols("t c", positive=True)
    return sum(sympy.Rational(k + 1, k + 2) * t**k * c ** (k % 3) for k in range(14))


def test_long_sums_are_broken_over_lines():
    import sympy

    from exactdp.output.latex import LINE_UNITS, _width, equation_latex

    tex = equation_latex(r"\eta_{\mathrm{TV}}(K)", _long_sum())
    assert tex.startswith("\\begin{align*}\n\\eta_{\\mathrm{TV}}(K) &= \\frac{12 c^{2} e^{11 \\varepsilon}}{13}")
    lines = tex.split("\n")[1].split(r" \\ ")
    assert len(lines) == 2 and all(_width(ln) <= LINE_UNITS + 2 for ln in lines)
    assert lines[1].startswith(r"&\quad + \frac{5 c e^{4 \varepsilon}}{6}")
    t = sympy.Symbol("t", positive=True)
    assert equation_latex("x", (t - 1) / (t + 1)) == r"\fitdisplay{x = \frac{e^{\varepsilon} - 1}{e^{\varepsilon} + 1}}"


@needs_pdflatex
def test_broken_and_scaled_equations_compile_without_overfull_boxes(tmp_path):
    import sympy

    from exactdp.output.latex import document, equation_latex

    t, c = sympy.symbols("t c", positive=True)
    huge = (_long_sum() + 1) / (_long_sum() - 1)  # one fraction too wide for a line: scaled, never overfull
    body = [r"\begin{enumerate}", r"\item A long sum:", equation_latex(r"\eta_{\mathrm{TV}}(K)", _long_sum()),
            r"\item A long conjunction:", equation_latex("", sympy.And(*[t * k >= c for k in range(1, 12)])),
            r"\item A wide fraction:", equation_latex("y", huge), r"\end{enumerate}"]
    assert compile_tex(document(*body, title="equations"), tmp_path) == []


def test_statement_with_cases_is_displayed_maths():
    from exactdp.output.latex import latex_statement

    cases = r"\Gamma=\begin{cases}a,&t<1\\(1-c)t,&t\ge1\end{cases}"  # "\\(" is a new row, not \( maths
    assert latex_statement(cases) == r"\fitdisplay{" + cases + "}"
    assert latex_statement(r"if $t \ge 1$ then") == r"if $t \ge 1$ then\par"
    assert latex_statement(r"a & b").startswith("{\\footnotesize\n\\begin{verbatim}")  # & outside an environment


def test_decided_derivation_lines_become_displayed_maths():
    from exactdp.output.latex import derivation_lines_latex

    tex = derivation_lines_latex([
        "tight <= phi: (2*delta + t - 1)/(t + 1) <= 1 - (1 - delta)/t on (t >= 1) & (delta <= 1) -> true",
        "    claim: 1 - (2*delta + t - 1)/(t + 1) - (1 - delta)/t >= 0",
        "gap: 1 - (1 - delta)/t == (t - 1 + delta)/t -> true",
        "hence eta_TV(K) <= phi(eps, delta), for every N, M",
        "import os: __import__('os') <= 1 -> true",  # not a formula of the reader's grammar: stays text
    ])
    assert (r"tight $\leq \varphi$: true" + "\n" + r"\fitdisplay{\frac{2 \delta + e^{\varepsilon} - 1}{e^{\varepsilon} + 1} "
            r"\leq 1 - \left(1 - \delta\right) e^{- \varepsilon} \quad \text{on } e^{\varepsilon} \geq 1 \wedge "
            r"\delta \leq 1}") in tex
    assert r"gap: true" + "\n" + r"\fitdisplay{1 - \left(1 - \delta\right) e^{- \varepsilon} = " in tex
    # prover steps and prose: their formulas typeset in a list (an indented step one level deeper), no verbatim
    assert (r"\item[] \hspace*{1.5em}claim: $1 - (2\cdot\delta + t - 1)/(t + 1) - (1 - \delta)/t \geq 0$" + "\n"
            r"\end{itemize}") in tex
    assert r"\item[] hence $\eta_{\mathrm{TV}}(K) \leq \varphi(\varepsilon, \delta)$, for every $N, M$" in tex
    # text that is not a formula of the grammar is escaped text: no command comes from it
    assert r"\item[] import os: \_\allowbreak{}\_\allowbreak{}import\_\allowbreak{}\_\allowbreak{}('os') $\leq 1 \to$ true" in tex
    assert "verbatim" not in tex
