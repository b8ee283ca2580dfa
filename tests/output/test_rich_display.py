"""Rich display in Jupyter (issue 16 item 3) and ``exactdp.latex``: every ``_repr_*_`` of the public objects
returns the object's actual content (exact substrings: the matrix, the fractions, the verdict, the scope),
formulas in e^ε where the object is written in t = e^ε."""

import re

import pytest
import sympy

import exactdp
from exactdp import Truth, privacy_profile, sup_eta_tv
from exactdp import bounds as B
from exactdp.mechanisms import grosse_pml_mechanism, randomized_response
from exactdp.numbers.display import normal_form, to_latex
from exactdp.output import presenters
from exactdp.output.display import statement_latex_lines

t, c = sympy.symbols("t c", positive=True)


def test_kernel_displays_its_entries():
    K = randomized_response(3, 3)  # e^eps = 3: 3/5 on the diagonal, 1/5 off it
    assert K._repr_latex_() == (r"$$ K = \begin{pmatrix} \frac{3}{5} & \frac{1}{5} & \frac{1}{5} \\ \frac{1}{5} & "
                                r"\frac{3}{5} & \frac{1}{5} \\ \frac{1}{5} & \frac{1}{5} & \frac{3}{5} \end{pmatrix} $$")
    html = K._repr_html_()
    assert "<table>" in html and "<td>3/5</td>" in html and html.count("<td>1/5</td>") == 6 and "RR_3" in html
    assert K._repr_markdown_().startswith("**RR_3** (3×3, QQ)") and r"\frac{3}{5}" in K._repr_markdown_()


def test_parametric_kernel_in_the_papers_form_and_in_e_eps():
    G = grosse_pml_mechanism(3, t, c)
    tex = G._repr_latex_()
    # K(0|0) = t(1 - c)/(t(1 - 3c) + 1), printed with t = e^eps
    assert (r"\frac{\left(1 - c\right) e^{\varepsilon}}{\left(1 - 3 c\right) e^{\varepsilon} + 1}" in tex)
    assert re.search(r"(?<![A-Za-z\\])t(?![A-Za-z])", tex) is None  # no bare t: every t is e^eps
    assert r"$t = e^{\varepsilon}$" in G._repr_html_()
    assert exactdp.latex(G) == tex.strip("$ ")
    # the declared region of the parameters (t >= 1, c <= 1/3, 2ct <= 1) is part of the statement
    region = r"e^{\varepsilon} \geq 1, c \leq \frac{1}{3}, 2 c e^{\varepsilon} \leq 1"
    assert tex.endswith(rf"\quad \text{{on }} {region} $$") and region in G._repr_html_()
    # each entry stays on one line
    assert G._repr_html_().count('<td><span style="white-space:nowrap">$') == 6


def test_truth_is_shown_in_one_vocabulary():
    assert Truth.TRUE._repr_markdown_() == "**✓ TRUE**"
    assert Truth.FALSE._repr_html_().endswith(">✗ FALSE</span>")
    assert Truth.UNKNOWN._repr_latex_() == r"$\mathsf{UNKNOWN}$"
    assert exactdp.latex(Truth.TRUE) == r"\mathsf{TRUE}"


def test_bound_shows_its_statement_domain_and_source():
    b = B.get("xi")
    stmt = r"\Xi(\varepsilon,c) = \min\left(1, \frac{e^{\varepsilon} - 1}{\left(1 - N c\right) e^{\varepsilon} + 1}\right)"
    assert b._repr_latex_() == f"$$ {stmt}, \\quad t = e^{{\\varepsilon}} $$"
    assert stmt in b._repr_html_() and "grosse2026" in b._repr_html_() and "G-24" in b._repr_html_()
    assert b._repr_markdown_().startswith("**`xi`**")
    assert exactdp.latex(b) == stmt


def test_privacy_profile_shows_every_piece():
    P = privacy_profile(randomized_response(3, 3))  # delta(gamma) = (3 - gamma)/5 on [1, 3], 0 beyond
    tex = P._repr_latex_()
    assert r"\begin{cases}" in tex and r"\frac{3}{5} - \frac{\gamma}{5} & \text{if } \gamma \leq 3" in tex
    assert r"0 & \text{otherwise}" in tex
    html = P._repr_html_()
    nowrap = '<td><span style="white-space:nowrap">'
    assert f"{nowrap}[1, 3]</span></td>" in html and f"{nowrap}[3, ∞)</span></td>" in html
    assert html.count("<tr>") == 5
    # every formula of the table is kept on one line (no wrapping over two lines)
    assert html.count(nowrap + "$") == 4 and rf"{nowrap}$\frac{{3}}{{5}} - \frac{{\gamma}}{{5}}$</span>" in html


def test_extremal_result_value_kernel_and_recheck():
    res = sup_eta_tv(3, 2, t=3)  # sup eta_TV over 3x2 e^eps = 3 LDP kernels = (t-1)/(t+1) = 1/2
    tex = res._repr_latex_()
    assert r"\sup_{K} \eta_{\mathrm{TV}}(K) = \frac{1}{2}" in tex and r"e^{\varepsilon} = 3" in tex
    assert r"K^\star = \begin{pmatrix} \frac{3}{4} & \frac{1}{4}" in tex
    html = res._repr_html_()
    assert "all certificates re-checked ✓" in html
    assert "<details><summary>1 linear program(s)" in html and "LinearProgram(" in html.split("<details>", 1)[1]
    assert "re-checked ✓" in res._repr_markdown_()


def test_risk_bound_shows_value_and_formula():
    from exactdp.theory import estimation as E

    rb = E.mean_estimation_tv_route(100, 3, 0, 4)
    assert rb._repr_latex_() == rf"$$ \text{{{rb.spec.title}}} = {to_latex(rb.value)} $$"
    assert rb.spec.latex in rb._repr_markdown_() and "reconstructed" in rb._repr_html_()


@pytest.fixture(scope="module")
def thm1():
    from exactdp.verification.engine import verify

    return verify(["grosse2026.thm1"], seed=0, quick=True)[0]


def _unclosed_tags(html: str) -> list:
    """The tags of ``html`` left open or closed out of order (an HTML parser's view; [] when well nested)."""
    from html.parser import HTMLParser

    stack: list = []
    bad: list = []

    class Nesting(HTMLParser):
        def handle_starttag(self, tag, attrs):
            stack.append(tag)

        def handle_endtag(self, tag):
            if stack and stack[-1] == tag:
                stack.pop()
            else:
                bad.append(tag)

    Nesting().feed(html)
    return bad + stack


def test_the_nesting_check_can_fail():
    assert _unclosed_tags("<div><b>x</div>") == ["div", "div", "b"]


def _nowrap(tex):
    return f'<span style="white-space:nowrap">${tex}$</span>'


def test_claim_result_and_outcome(thm1):
    html = thm1._repr_html_()
    statement = r",\quad ".join(statement_latex_lines(thm1.claim))  # printed from the claim's formulas
    assert statement == (r"\eta_{\mathrm{TV}}{\left(\varepsilon,c \right)} = \min\left(1, "
                         r"\frac{e^{\varepsilon} - 1}{\left(1 - N c\right) e^{\varepsilon} + 1}\right)")
    # the statement typeset, verdict and scope with their formulas, hypotheses, evidence folded
    assert "<code>grosse2026.thm1</code>" in html and f"$${statement}$$" in html
    # the scope and the hypotheses: prose as text, each formula typeset from its expression (issue 23)
    assert f"<b>PROVED</b>, scope: ≤: all {_nowrap('N')}, {_nowrap('M')}; =: all {_nowrap('N')}" in html
    assert "Dobrushin coefficient of " + _nowrap(r"(\varepsilon,c)") + "-PML" in html
    assert ("<i>hypotheses</i>: " + _nowrap(r"N \geq 2") + ", " + _nowrap(r"0 &lt; c \leq \frac{1}{N}") + ", "
            + _nowrap(r"\varepsilon \geq 0")) in html
    assert f"{thm1.instances} instances" in html and "<details><summary>evidence of 4 check(s)" in html
    assert html.index("<details>") > html.index(statement)
    assert _unclosed_tags(html) == []
    # every derivation line of the evidence is in the folded part, its formulas typeset
    proof = next(cr.outcome for cr in thm1.checks if cr.outcome.derivation)
    assert html.count("<li>") >= len(proof.derivation) and "&lt;=" not in html.split("<details>", 1)[1]
    tex = thm1._repr_latex_()
    assert tex == (r"$$\begin{gathered}\texttt{grosse2026.thm1}\text{: }\textbf{PROVED}\text{ (scope: }"
                   r"\text{≤: all }N\text{, }M\text{; =: all }N\text{)} \\ " + statement + r"\end{gathered}$$")
    o = thm1.outcomes[0]
    assert o._repr_markdown_() == f"**VERIFIED**: {o.summary}"
    assert o._repr_html_().startswith("<div><b>VERIFIED</b>: ")
    assert exactdp.latex(o) == r"\textbf{VERIFIED}"


def test_check_result_counterexample():
    res = exactdp.check("kl(K(P),K(Q)) <= eta_tv**2*kl(P,Q)", "ldp", N=2, M=2, budget=50)
    assert res.verdict == "refuted"
    typeset = r"\mathrm{kl}(K(P),K(Q)) \leq \eta_{\mathrm{tv}}^{2}\cdot\mathrm{kl}(P,Q)"
    assert res._repr_html_().startswith(f"<div><div><b>REFUTED</b>: {_nowrap(typeset)} <small>(typed: "
                                        "<code>kl(K(P),K(Q)) &lt;= eta_tv**2*kl(P,Q)</code>)</small>")
    assert res._repr_latex_() == rf"$\textbf{{REFUTED}}\text{{: }}{typeset}$"
    md = res._repr_markdown_()
    assert md.startswith(f"**REFUTED**: ${typeset}$") and f"`rows = {res.counterexample['rows']}`" in md
    assert "enclosure" not in md  # the markdown shows the counterexample itself, the HTML everything


def test_latex_of_closed_forms_and_refusal():
    assert exactdp.latex((t - 1) / (t + 2)) == r"\frac{e^{\varepsilon} - 1}{e^{\varepsilon} + 2}"
    assert exactdp.latex(sympy.Rational(3, 4)) == r"\frac{3}{4}"
    assert normal_form(-(t - 1) / (3 * c * t - t - 1)) == (t - 1) / (t * (1 - 3 * c) + 1)
    with pytest.raises(exactdp.ParameterError, match="latex: no LaTeX form for a dict"):
        exactdp.latex({})


def test_presenters_are_registered_by_type_and_found_through_the_bases():
    import importlib

    for name in presenters.REGISTRY:  # every key names a real class
        module, _, cls = name.rpartition(".")
        assert isinstance(getattr(importlib.import_module(module), cls), type), name
    K = randomized_response(2, 3)
    assert presenters.present(K, "latex") == K._repr_latex_()

    class Named(type(K)):  # a subclass is shown by its base's presenter
        pass

    assert presenters.presenter_for(Named(K.rows)) is presenters.REGISTRY["exactdp.kernels.Kernel"]
    assert presenters.present(object(), "html") is None
    with pytest.raises(ValueError, match="format must be one of latex, html, markdown"):
        presenters.present(K, "pdf")


def test_the_bottom_layer_holds_no_presenter():
    """numbers/ renders no upper-layer result: its display module is the formula printer only."""
    from exactdp.numbers import display

    assert not [n for n in vars(display) if "_repr_" in n or n.startswith(("claim_", "outcome_", "extremal_"))]
