"""LaTeX output: the papers' notation, and every generated formula parses (matplotlib mathtext);
a generated document compiles with pdflatex when it is installed."""

import shutil
import subprocess

import pytest
import sympy

from exactdp.mechanisms import grosse_pml_mechanism, randomized_response
from exactdp.output.latex import bound_table, document, formulas, to_latex
from exactdp.output.latex import bound_latex, bound_statement_latex, derivation_document
from exactdp.measures.derivations import derive
from exactdp import bounds as B

mathtext = pytest.importorskip("matplotlib.mathtext")
PARSER = mathtext.MathTextParser("path")

t = sympy.Symbol("t", positive=True)
c = sympy.Symbol("c", positive=True)


def parses(tex: str) -> None:
    PARSER.parse(f"${tex}$")  # raises ValueError on a malformed formula


def test_papers_notation():
    assert to_latex((t - 1) / (t + 1)) == r"\frac{e^{\varepsilon} - 1}{e^{\varepsilon} + 1}"
    assert bound_latex(B.get("phi")) == r"1 - \left(1 - \delta\right) e^{- \varepsilon}"
    assert bound_latex(B.get("xi")) == (r"\min\left(1, \frac{e^{\varepsilon} - 1}{\left(1 - N c\right) "
                                   r"e^{\varepsilon} + 1}\right)")
    assert to_latex(t**2) == r"e^{2 \varepsilon}"
    assert to_latex(sympy.Symbol("gamma") + sympy.Symbol("delta")) in (r"\delta + \gamma", r"\gamma + \delta")
    pw = sympy.Piecewise(((t - 2) / (t + 1), t > 2), (0, True))
    assert to_latex(pw) == (r"\left\{ \frac{e^{\varepsilon} - 2}{e^{\varepsilon} + 1} \;\text{if}\; "
                            r"e^{\varepsilon} > 2,\quad 0 \;\text{otherwise} \right.")


def test_malformed_formula_is_detected_by_the_parser():
    with pytest.raises(ValueError):
        parses(r"\frac{1}{")


@pytest.mark.slow
def test_every_bound_formula_parses():
    for name in B.names():
        b = B.get(name)
        for tex in (bound_latex(b), bound_statement_latex(b), b.symbol_latex, b.quantity_latex):
            parses(tex)


def _documents():
    docs = [document(bound_table([B.get(n) for n in B.names()]), title="Bounds")]
    for K in (randomized_response(3, t), grosse_pml_mechanism(3, t, c)):
        docs.append(derivation_document(K, derive(K, ("validity", "eta_tv", "ldp_ratio", "pml_ratio"))))
    return docs


@pytest.fixture(scope="module")
def docs():
    return _documents()


def test_every_generated_formula_parses(docs):
    count = 0
    for doc in docs:
        for tex in formulas(doc):
            if r"\begin{" in tex or "&" in tex:  # cases / pmatrix / align* lines: pdflatex checks those
                continue
            parses(tex)
            count += 1
    assert count > 40


def test_derivation_document_contains_the_closed_forms(docs):
    rr, grosse = docs[1], docs[2]
    assert r"\frac{e^{\varepsilon} - 1}{e^{\varepsilon} + 2}" in rr
    assert r"\frac{e^{\varepsilon} - 1}{\left(1 - 3 c\right) e^{\varepsilon} + 1}" in grosse  # [G] Thm 1's form
    assert grosse.count(r"\begin{enumerate}") == 4
    # every step is an equation "quantity = value" with prose apart: no escaped | or || in the text
    assert r"\mathrm{TV}(K_{0}, K_{1}) = \sum_y \left(K_{0}(y) - K_{1}(y)\right)_+ = \frac{e^{\varepsilon} - 1}" in grosse
    assert r"\item Divergence of rows 0 and 1:" in grosse
    assert "K(y|x)" not in grosse and "||" not in grosse and r"\textbar" not in grosse
    # the kernel rows are simplified to the papers' normal form (K(0|0) = (1 - c) e^eps / ((1 - 3c) e^eps + 1))
    assert (r"K = \begin{pmatrix} \frac{\left(1 - c\right) e^{\varepsilon}}{\left(1 - 3 c\right) e^{\varepsilon} + 1}"
            in grosse)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_generated_documents_compile_with_pdflatex(docs, tmp_path):
    for k, doc in enumerate(docs):
        path = tmp_path / f"doc{k}.tex"
        path.write_text(doc)
        res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", path.name],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
        assert res.returncode == 0, res.stdout[-2000:]


def test_cli_derive_latex(capsys):
    from exactdp.cli import main

    assert main(["derive", "randomized_response", "k=2", "--quantity", "eta_tv,ldp_ratio", "--format", "latex"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(r"\documentclass[10pt]{article}")
    for tex in formulas(out):
        if r"\begin{" not in tex and "&" not in tex:
            parses(tex)
    assert main(["derive", "randomized_response"]) == 2
    assert "k" in capsys.readouterr().err
    assert main(["derive", "--bounds"]) == 0
    out = capsys.readouterr().out
    assert r"\begin{longtable}" in out and r"\toprule" in out


def test_cli_derive_kernel_file(tmp_path, capsys):
    from exactdp.cli import main

    f = tmp_path / "k.json"
    f.write_text('{"parameters": {"t": "positive", "c": "positive"}, "region": ["t >= 1", "c <= 1/2", "t*c <= 1"],'
                 ' "rows": [["t*(1-c)/(t*(1-2*c)+1)", "(1-t*c)/(t*(1-2*c)+1)"],'
                 ' ["(1-t*c)/(t*(1-2*c)+1)", "t*(1-c)/(t*(1-2*c)+1)"]]}')
    assert main(["derive", "--file", str(f), "--quantity", "eta_tv,pml_ratio"]) == 0
    out = capsys.readouterr().out
    assert "(t - 1)/(t·(1 - 2·c) + 1)" in out and "\n  result: t\n" in out  # derive text shows steps, then the result
    f.write_text('{"parameters": {"t": "positive"}, "rows": [["0.5", "1/2"], ["1/2", "1/2"]]}')
    assert main(["derive", "--file", str(f)]) == 2  # "0.5" is read exactly (1/2): no parameter is left
    assert "no parameters left" in capsys.readouterr().err
    f.write_text('{"parameters": {"t": "positive"}, "rows": [[0.5, "1/2"], ["1/2", "1/2"]]}')
    assert main(["derive", "--file", str(f)]) == 2  # a JSON float is refused
    assert "float" in capsys.readouterr().err
    f.write_text('{"parameters": {"t": "positive"}, "rows": [["t/(t+1)", "u"], ["1/2", "1/2"]]}')
    assert main(["derive", "--file", str(f)]) == 2
    assert "unknown parameter" in capsys.readouterr().err
