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
     r"\varepsilon > \log{\left(\frac{1}{2} + \frac{\sqrt{2}}{2} \right)}"),
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
        for cr in res.checks:
            for step in cr.outcome.derivation:
                if not isinstance(step, DerivationStep):
                    continue
                assert step.text()[len(step.prose):] in shown  # (show prints the prose symbol by symbol)
                for expr in step.formulas():
                    assert formula_text(expr) in step.text()
                    assert_reads_back(expr, step.parameters)
                    n_steps += 1
    return n_statements, n_steps


def test_report_statements_and_steps_read_back():
    """A quick report of claims whose proofs decide symbolic statements (structured steps)."""
    from exactdp.verification.engine import verify

    results = verify(("asoodeh2021.a07_phi_vs_tight", "findings.x01_phi_vs_xi", "background.d11_xi"),
                     seed=0, quick=True)
    n_statements, n_steps = assert_report_reads_back(results)
    assert n_statements == 2 + 2 + 2
    assert n_steps >= 10


@pytest.mark.slow
def test_full_report_statements_and_steps_read_back():
    """The whole report of ``exactdp verify`` (every claim, full size)."""
    from exactdp.verification.engine import verify

    results = verify((), seed=0, quick=False)
    n_statements, n_steps = assert_report_reads_back(results)
    assert n_statements >= 150 and n_steps >= 100
