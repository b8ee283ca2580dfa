"""Statements are printed from expressions (issue 23 items 2 and 5): every claim whose statement has
mathematics stores it as formulas (:attr:`~exactdp.verification.claims.Claim.formulas`, the safe reader's
text), and the terminal, LaTeX, HTML and Jupyter print them from the expressions by one printer
(:mod:`exactdp.numbers.formula_text`); the printed text reads back into the stored expression."""

import pytest
import sympy

from exactdp.numbers.formula_text import formula_latex_of, formula_mathml, formula_text, read_formula
from exactdp.numbers.reader import ReadError
from exactdp.verification.claims import load_all, statement_formulas

#: the claims whose statement has no mathematics (about the text of a paper: bibliography, wording)
NO_MATHEMATICS = {"findings.fa12_missing_statements", "findings.fg09_missing_data",
                  "findings.summary_authors",
                  "findings.x02_relaxations", "findings.x03_delta_symbol", "findings.x04_reference_title"}


def same_formula(a, b) -> bool:
    """The same formula: the same connectives and relations in the same places, each pair of expressions
    identical or with an exact difference that simplifies to 0 (sympy's automatic evaluation writes
    −(1 − δ)e^{−ε} + 1 back as (δ − 1)/e^ε + 1)."""
    if a == b:
        return True
    if type(a) is not type(b) or len(a.args) != len(b.args):
        return False
    if isinstance(a, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction)):
        return all(same_formula(x, y) for x, y in zip(a.args, b.args))
    return sympy.simplify(a - b) == 0


def assert_reads_back(expr, parameters=()) -> None:
    text = formula_text(expr)
    assert same_formula(read_formula(text, parameters=parameters), expr), (text, expr)


def test_every_claim_with_mathematics_has_formulas_and_they_read_back():
    registry = load_all()
    without = {cid for cid, c in registry.items() if not c.formulas}
    assert without == NO_MATHEMATICS
    n = 0
    for claim in registry.values():
        for expr in statement_formulas(claim):
            assert_reads_back(expr)
            assert formula_latex_of(expr) and formula_mathml(expr).startswith("<math")
            n += 1
    assert n >= len(registry) - len(NO_MATHEMATICS)


@pytest.mark.parametrize("text, shown, latex", [
    ("eps > log((1+√2)/2)", "eps > log((1 + √2)/2)",
     r"\varepsilon > \log{\left(\frac{1 + \sqrt{2}}{2} \right)}"),
    ("phi(eps, 0) < 4*eps^2 ⟺ eps > eps_star", "phi(eps, 0) < 4·eps^2 ⟺ eps > eps_star",
     r"\varphi{\left(\varepsilon,0 \right)} < 4 \varepsilon^{2} \iff \varepsilon > \varepsilon^{*}"),
    ("eps < log(2/(N*c)) ⟹ eta_tv(eps, c) <= 1", "eps < log(2/(N·c)) ⟹ eta_tv(eps, c) ≤ 1",
     r"\varepsilon < \log{\left(\frac{2}{N c} \right)} \implies "
     r"\eta_{\mathrm{TV}}{\left(\varepsilon,c \right)} \leq 1"),
    ("1/3 < x < 1/2", "1/3 < x < 1/2", r"\frac{1}{3} < x < \frac{1}{2}"),
    ("M - m = Xi(eps, c)", "M - m = Xi(eps, c)", r"M - m = \Xi{\left(\varepsilon,c \right)}"),
])
def test_formulas_print_as_stored(text, shown, latex):
    expr = read_formula(text)
    assert formula_text(expr) == shown
    assert formula_latex_of(expr) == latex
    assert read_formula(shown) == expr


def test_connectives_keep_their_order_and_parse_only_as_whole_parts():
    iff = read_formula("b > 1 ⟺ a < 1")  # sympy's Equivalent would sort its sides
    assert formula_text(iff) == "b > 1 ⟺ a < 1"
    nested = read_formula("x > 0 ⟹ (y = 1)")
    assert isinstance(nested, sympy.Implies) and isinstance(nested.args[1], sympy.Eq)
    with pytest.raises(ReadError, match="joins exactly two parts"):
        read_formula("a = b = c")
    with pytest.raises(ReadError, match="unknown name|unexpected"):
        read_formula("__import__('os') = 1")


def test_a_parameter_named_like_a_constant_stays_a_parameter():
    """A certificate's parameter E (= e^ε) is a symbol in its steps, not Euler's number."""
    from exactdp.numbers.formula_text import DerivationStep

    step = DerivationStep("identity", ("(1 - 1/E)*(E + 1)/(E - 1) - 1 - 1/E = 0",), parameters=("E",))
    (expr,) = step.formulas()
    assert expr.lhs.free_symbols == {sympy.Symbol("E")}
    assert read_formula("E - 1").free_symbols == set()  # elsewhere E is the constant e
    assert "(E - 1)" in step.text() and formula_latex_of(expr).count("E") == 4  # every E printed as E


def test_mathml_uses_the_papers_letters_and_escapes_relations():
    m = formula_mathml(read_formula("phi(eps, delta) < Gamma_max(eps, c)"))
    assert "&lt;" in m and "<mo><</mo>" not in m
    assert "φ" in m or "&#966;" in m
    assert "Γ_max" in m or "&#915;_max" in m  # a function's name as written, not lowercased


def assert_report_reads_back(results) -> tuple[int, int]:
    """Every statement formula and every structured derivation step of a verify report: the text the terminal
    shows (``exactdp show``) is made of the formulas' renderings, and each rendering read back by the safe
    reader is the stored expression.  Returns (statement formulas, step formulas) checked."""
    from exactdp.cli.show import format_result
    from exactdp.numbers.formula_text import DerivationStep

    n_statements = n_steps = 0
    for res in results:
        shown = format_result(res)
        for expr in statement_formulas(res.claim):
            assert formula_text(expr) in shown
            assert_reads_back(expr)
            n_statements += 1
        # the hypotheses and the scope: prose and formulas apart, each formula shown from its expression
        for phrase in (res.claim.hypotheses_step, res.scope_step):
            assert phrase.text() in shown
            for expr in phrase.formulas():
                assert_reads_back(expr)
                n_statements += 1
        for cr in res.checks:
            for expr in cr.outcome.scope_step.formulas():
                assert_reads_back(expr)
        for cr in res.checks:
            for step in cr.outcome.derivation:
                if not isinstance(step, DerivationStep):
                    continue
                for expr in step.formulas():
                    assert formula_text(expr) in step.text() and formula_text(expr) in shown
                    assert_reads_back(expr, step.parameters)
                    n_steps += 1
    return n_statements, n_steps


def test_report_statements_and_steps_read_back():
    """A quick report of claims whose proofs decide symbolic statements (structured steps)."""
    from exactdp.verification.engine import verify

    results = verify(("asoodeh2021.a07_phi_vs_tight", "findings.x01_phi_vs_xi", "background.d11_xi"),
                     seed=0, quick=True)
    n_statements, n_steps = assert_report_reads_back(results)
    # the statements' formulas (2 each) and the hypotheses' and scopes' formulas: "t = e^eps, eps >= 0,
    # 0 <= delta <= 1" and "all parameters" (a07); "eps > 0" and "s > 0" (x01); "eps >= 0, 0 <= c <= 1/N"
    # and "s > 0, u > 0" (d11)
    assert n_statements == 2 + 2 + 2 + 3 + (1 + 1) + (2 + 2)
    assert n_steps >= 10


@pytest.mark.slow
def test_full_report_statements_and_steps_read_back(full_verify_results):
    """The whole report of ``exactdp verify`` (every claim, full size): every formula reads back, and the
    prover's and certificates' own sub-steps are structured (what is left as text are lines written by hand
    in the proof modules: cited results, proof sketches).  Also issue 23's LaTeX line: the LaTeX report of the
    full run (``exactdp verify --format latex``) has no ASCII <=, >=, eps, delta or ^ outside verbatim and
    typewriter code.  One test for both, so that one worker runs the full verify (a session fixture is computed
    once per xdist worker, and xdist's loadgroup does not group under pytest 9)."""
    from test_latex_report import ASCII_MATHS, text_mode  # tests/output is on sys.path (no package)

    from exactdp.numbers.formula_text import DerivationStep
    from exactdp.output.latex import verify_report_latex

    tex = verify_report_latex(full_verify_results, seed=0, quick=False)
    latex_text = text_mode(tex)
    assert sorted({latex_text[max(m.start() - 40, 0):m.end() + 40] for m in ASCII_MATHS.finditer(latex_text)}) == []
    assert r"\log{\left(\frac{1 + \sqrt{2}}{2} \right)}" in tex  # the fa03 statement in the terminal's form

    n_statements, n_steps = assert_report_reads_back(full_verify_results)
    assert n_statements >= 150 and n_steps >= 2000
    steps = [s for r in full_verify_results for cr in r.checks for s in cr.outcome.derivation]
    structured = [s for s in steps if isinstance(s, DerivationStep) and s.math]
    assert len(structured) >= 0.8 * len(steps)
    machine = ("claim", "the difference", "orthant rule", "cells in the order", "re-done",
               "the region is not empty", "statement: the stated domain", "identity:", "substituted")
    text = [s.prose if isinstance(s, DerivationStep) else str(s) for s in steps
            if not (isinstance(s, DerivationStep) and s.math)]
    assert [t for t in text if t.lstrip().startswith(machine) and any(c in t for c in "<>=^*")] == []


def test_inline_step_keeps_words_and_formulas_apart_and_reads_back():
    """A line that mixes words and formulas (the orthant rule, a point) is an inline step: its prose holds slots,
    its formulas are the reader's text, and every output prints them from the expressions."""
    from exactdp.numbers.formula_text import inline_step

    t, c = sympy.symbols("t c", positive=True)
    step = inline_step("numerator {} and denominator {}: hence {} at {}", t**2 + 1, t + 1,
                       sympy.GreaterThan((t**2 + 1) / (t + 1), 0, evaluate=False), {t: sympy.Rational(1, 3)},
                       region=sympy.And(t >= 1, c <= sympy.Rational(1, 2)), outcome="true")
    assert step.inline and step.math == ("t**2 + 1", "t + 1", "(t**2 + 1)/(t + 1) >= 0", "t = 1/3")
    assert step.prose == "numerator {0} and denominator {1}: hence {2} at {3}"
    assert str(step) == ("numerator t**2 + 1 and denominator t + 1: hence (t**2 + 1)/(t + 1) >= 0 at t = 1/3 "
                         "on (t >= 1) & (c <= 1/2) -> true")
    assert step.text() == ("numerator t^2 + 1 and denominator t + 1: hence (t^2 + 1)/(t + 1) ≥ 0 at t = 1/3 "
                           "on t ≥ 1, c ≤ 1/2 → true")
    forms = step.formulas()
    assert forms[0] == sympy.Symbol("t") ** 2 + 1 and forms[3] == sympy.Eq(sympy.Symbol("t"), sympy.Rational(1, 3))
    for expr in forms:
        assert_reads_back(expr)
    assert step.record()["inline"] is True and step.record()["math"] == list(step.math)


def test_an_item_the_reader_cannot_state_leaves_the_line_as_text():
    from exactdp.numbers.formula_text import inline_step

    t = sympy.Symbol("t")
    line = inline_step("either {} holds", sympy.Or(t > 1, t < -1))
    assert isinstance(line, str) and line == "either (t > 1) | (t < -1) holds"


def test_a_parameter_named_E_is_declared_by_the_step():
    from exactdp.numbers.formula_text import formula_step

    E = sympy.Symbol("E", positive=True)
    step = formula_step("claim", sympy.GreaterThan(E - 1, 0, evaluate=False), region=E >= 1)
    assert step.parameters == ("E",)
    assert all(f.free_symbols == {sympy.Symbol("E")} for f in step.formulas())


def test_prover_steps_are_structured_and_read_back():
    """The prover's own sub-steps (claim, the sign of the denominator, the cells, a substitution, the cancelled
    difference of an identity) are structured steps whose formulas read back into the expressions decided."""
    from exactdp.algebra.prover import Region, decide, prove_identity
    from exactdp.numbers.formula_text import DerivationStep

    t, d = sympy.symbols("t delta", positive=True)
    dec = decide((t - 1) / (t + 1) <= 1 - 1 / t, Region.of(t >= 1))
    ident = prove_identity(1 - (1 - d) / t, (t - 1 + d) / t)
    root = decide(sympy.sqrt(t) <= (t + 1) / 2, Region.of(t >= 0))
    steps = dec.steps + ident.steps + root.steps
    assert steps and all(isinstance(s, DerivationStep) for s in steps), [s for s in steps if isinstance(s, str)]
    claim = dec.steps[0]
    assert claim.prose == "claim" and same_formula(read_formula(claim.math[0]),
                                                   read_formula("1 - 1/t - (t - 1)/(t + 1) >= 0"))
    assert read_formula(claim.region[0]) == read_formula("t >= 1")
    assert any("substituted" in s.prose for s in root.steps)
    assert ident.steps[0].formulas() == (sympy.Integer(0),)
    for step in steps:
        for expr in step.formulas():
            assert_reads_back(expr, step.parameters)


def test_certificate_steps_are_marked_with_the_certificate_and_keep_their_fields():
    from exactdp.numbers.formula_text import DerivationStep, marked

    step = marked("cert", DerivationStep("claim", ("t >= 1",), outcome="true"))
    assert step.label == "cert" and step.math == ("t >= 1",) and str(step) == "[cert] claim: t >= 1 -> true"
    line = marked("cert", "a text line")
    assert isinstance(line, DerivationStep) and str(line) == "[cert] a text line" and line.prose == "a text line"
    assert marked("outer", step).label == "outer" and str(marked("outer", step)).startswith("[outer] [cert] claim")


def test_latex_html_and_jupyter_print_an_inline_step_from_its_expressions():
    from exactdp.numbers.formula_text import inline_step
    from exactdp.output.display import derivation_html
    from exactdp.output.html import step_html
    from exactdp.output.latex import derivation_lines_latex

    eps, delta = sympy.symbols("eps delta", positive=True)
    step = inline_step("    hence {} for every level", sympy.LessThan(delta, sympy.exp(eps) - 1, evaluate=False),
                       region=sympy.And(eps <= 2, delta <= 1), outcome="true")
    tex = derivation_lines_latex([step])
    assert (r"\item[] \hspace*{1.5em}hence $\delta \leq e^{\varepsilon} - 1$ for every level on "
            r"$\delta \leq 1, \varepsilon \leq 2$ $\to$ true") in tex
    assert "<=" not in tex and "eps" not in tex.replace("varepsilon", "")
    html = step_html(step)
    assert html.count("<math") == 3 and "&lt;=" not in html and "hence" in html
    assert derivation_html([step]).count(r"\varepsilon") >= 2


def test_text_and_latex_print_a_call_of_a_sum_alike():
    """One form on the terminal and in LaTeX: a sum argument over its common denominator (the fa03 statement
    prints log((1+√2)/2) in both, not log(1/2 + √2/2) in LaTeX)."""
    from exactdp.verification.claims import load_all

    fa03 = load_all()["findings.fa03_small_eps_direction"]
    shown = [(formula_text(f), formula_latex_of(f)) for f in statement_formulas(fa03)]
    assert any("log((1 + √2)/2)" in text and r"\log{\left(\frac{1 + \sqrt{2}}{2} \right)}" in tex
               for text, tex in shown), shown
    for text_form, latex_form in [("log(1/2 + y/3)", r"\log{\left(\frac{2 y + 3}{6} \right)}"),
                                  ("phi(eps/2 + 1/2, 0)", r"\varphi{\left(\frac{\varepsilon + 1}{2},0 \right)}")]:
        assert formula_latex_of(read_formula(text_form)) == latex_form
    n = 0
    for claim in load_all().values():  # every call of a sum with a rational content: a fraction in both
        for expr in statement_formulas(claim):
            for call in expr.atoms(sympy.Function):
                for arg in call.args:
                    content = arg.as_content_primitive()[0] if arg.is_Add else sympy.S.One
                    if content.is_Rational and content.q != 1:
                        assert rf"}}{{{content.q}}}" in formula_latex_of(call) and f")/{content.q}" in formula_text(call)
                        n += 1
    assert n >= 1


def test_written_step_keeps_the_marked_formulas_apart_and_they_read_back():
    """A hand-written proof line (:func:`~exactdp.numbers.formula_text.written_step`): the formulas between
    backticks are stored as the reader's text in slots of the prose, printed from their expressions."""
    from exactdp.numbers.formula_text import written_step

    s = written_step("column sums `N/2`; every PML constraint holds iff `t*N*c >= 2`")
    assert s.inline and s.prose == "column sums {0}; every PML constraint holds iff {1}"
    assert s.math == ("N/2", "t*N*c >= 2")
    N, c, t = sympy.symbols("N c t")
    assert s.formulas() == (N / 2, sympy.GreaterThan(t * N * c, 2, evaluate=False))
    assert s.text() == "column sums N/2; every PML constraint holds iff N·c·t ≥ 2"
    for f in s.formulas():
        assert_reads_back(f)
    assert written_step("Gamma_min: exchange P and Q").math == ()  # no marks: prose only


@pytest.mark.parametrize("line", ["a `(n*eps, 1 - delta)` pair", "`P(x) = Q(x) = 1/2`", "`K_x(A) <= E_t(K_x, K_xp)`",
                                  "an odd `number of marks"])
def test_written_step_refuses_a_formula_the_reader_cannot_read_where_it_is_written(line):
    from exactdp.numbers.formula_text import written_step

    with pytest.raises(ReadError):
        written_step(line)


def test_hand_written_proof_lines_are_structured():
    """The proof modules' own lines of a claim (grosse2026.thm2: a witness, a bound, a cited inequality) are
    structured steps whose formulas read back, none is left as text with ASCII mathematics."""
    from exactdp.numbers.formula_text import DerivationStep
    from exactdp.output.ascii_math import segments
    from exactdp.verification.engine import verify

    (result,) = verify(("grosse2026.thm2",), seed=0, quick=True)
    steps = [s for cr in result.checks for s in cr.outcome.derivation]
    text = [str(s) for s in steps if not (isinstance(s, DerivationStep) and s.math)]
    assert [t for t in text if any(f for f, _ in segments(t))] == []
    written = [s for s in steps if isinstance(s, DerivationStep) and "disjoint rows give" in s.prose]
    assert len(written) == 1 and written[0].math == ("K_x(A) - K_xp(A) = 1", "t*N*c < 2")
    for f in written[0].formulas():
        assert_reads_back(f)


def test_every_claims_hypotheses_are_prose_and_formulas_that_read_back():
    """Issue 23: a claim's hypotheses are stored with prose and mathematics apart (each formula between
    backticks in the proof module, read once by the safe reader at registration); the plain text is the
    written text without the backticks, and every formula the terminal prints reads back."""
    registry = load_all()
    n = 0
    for claim in registry.values():
        step = claim.hypotheses_step
        assert claim.hypotheses_text == claim.hypotheses.replace("`", "")
        for expr in step.formulas():
            assert_reads_back(expr)
            assert formula_text(expr) in step.text()
            n += 1
    assert n >= 150
    thm3 = registry["grosse2026.thm3"].hypotheses_step
    assert thm3.text() == "N ≥ 2, 0 < c ≤ 1/N, 0 ≤ eps < log(2/(N·c))"
    assert [formula_latex_of(f) for f in thm3.formulas()][-1] == (
        r"0 \leq \varepsilon < \log{\left(\frac{2}{N c} \right)}")


def test_a_hypothesis_the_reader_cannot_read_fails_where_it_is_written():
    from exactdp.sources import GROSSE2026, Source
    from exactdp.verification.claims import REGISTRY, Claim, Verdict, register

    bad = Claim("tests.bad_hypotheses", (), Source(GROSSE2026, "Theorem 1"), "t", "x",
                "`0 < c <= 1/N` and `eps >>= 0`", (), Verdict.NOT_CHECKABLE)
    with pytest.raises(ReadError, match=r"tests.bad_hypotheses hypotheses"):
        register(bad)
    REGISTRY.pop("tests.bad_hypotheses", None)


@pytest.mark.parametrize("text, prose, math", [
    ("all N, M; t >= 1, 0 < c <= 1/N (u = N*c)", "all {0}, {1}; {2}, {3} ({4})",
     ("N", "M", "t >= 1", "0 < c <= 1/N", "u = N*c")),
    ("every pair of inputs; all n >= 1", "every pair of inputs; all {0}", ("n >= 1",)),
    ("≤: all N, M; =: all N", "≤: all {0}, {1}; =: all {2}", ("N", "M", "N")),
    ("the point t = 2, c = 1/4", "the point {0}, {1}", ("t = 2", "c = 1/4")),
    ("all kernels; all parameters", "all kernels; all parameters", ()),
    # words stay prose even where they would read as symbols; a one-letter name is never a word
    ("all parameters (substituted x = y + 1, new variables >= 0)",
     "all parameters (substituted {0}, new variables >= 0)", ("x = y + 1",)),
    ("all N, M; real q, t*c*q <= 1", "all {0}, {1}; real {2}, {3}", ("N", "M", "q", "t*c*q <= 1")),
    ("t c q <= 1", "t c q <= 1", ()),
])
def test_scope_texts_split_into_prose_and_formulas(text, prose, math):
    from exactdp.numbers.formula_text import scope_step

    step = scope_step(text)
    assert (step.prose, step.math) == (prose, math)
    assert str(step) == text  # the plain text is the scope as the engine states it
    for expr in step.formulas():
        assert_reads_back(expr)
