"""The one text printer (:func:`exactdp.numbers.display.to_text`) prints what the safe reader reads back into
the same expression (issue 23 item 3: the terminal must not state another formula than the one computed)."""

import pytest
import sympy

from exactdp import bounds
from exactdp.mechanisms import randomized_response
from exactdp.measures.contraction import eta_tv
from exactdp.numbers.display import to_text
from exactdp.numbers.reader import read_expression


def read_back(text: str, like):
    """``text`` read by the safe reader with the symbols of ``like`` (by name) and relations allowed."""
    from exactdp.numbers.reader import MATH_FUNCTIONS

    symbols = {s.name: s for s in like.free_symbols}
    undefined = {f.func.__name__: (f.func, None) for f in like.atoms(sympy.core.function.AppliedUndef)}
    return read_expression(text, name="printed", symbols=symbols, functions={**MATH_FUNCTIONS, **undefined},
                           relations=True)


def same(a, b) -> bool:
    """The same expression: identical, or sympy's automatic evaluation wrote it another way
    (−(1 − δ)/t is stored as such and read back as (δ − 1)/t): the exact difference simplifies to 0."""
    return a == b or sympy.simplify(a - b) == 0


def assert_round_trip(expr) -> None:
    text = to_text(expr)
    if isinstance(expr, sympy.Equality):  # printed as "lhs = rhs" cleared of denominators
        lhs, rhs = (read_back(side, expr) for side in text.split(" = "))
        diff = expr.lhs - expr.rhs  # a rational equation is printed cleared of denominators
        cleared = sympy.fraction(sympy.together(diff))[0] if diff.is_rational_function() else diff
        assert same(lhs - rhs, cleared), text
        return
    if isinstance(expr, sympy.And):  # conditions joined by "and"
        parts = [read_back(part, expr) for part in text.split(" and ")]
        assert sympy.And(*parts) == expr, text
        return
    back = read_back(text, expr)
    assert back == expr if isinstance(expr, sympy.core.relational.Relational) else same(back, expr), (text, expr)


t, c, N, eps, delta = sympy.symbols("t c N eps delta", positive=True)
SAMPLES = [
    (t - 1) / (t + 1), 1 / (4 * c), 2 * t**2, t * (1 - N * c) + 1, 1 - sympy.exp(-eps) - 4 * eps**2,
    2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1), sympy.log(2 / (N * c)), sympy.sqrt(t + 1), 1 / sympy.sqrt(t),
    sympy.Min(1, (t - 1) / (t * (1 - N * c) + 1)), sympy.Max(delta, 1 - 1 / t), sympy.Abs(t - 2),
    sympy.tanh(eps / 2), sympy.Rational(-3, 7), t**sympy.Rational(3, 2), (1 - delta) ** N / t**N,
    sympy.Le(t, 1 / (4 * c)), sympy.Eq(t, 1 / (4 * c)), sympy.And(t >= 1, c <= sympy.Rational(1, 2)),
]


@pytest.mark.parametrize("expr", SAMPLES, ids=[str(e) for e in SAMPLES])
def test_printed_text_reads_back_to_the_expression(expr):
    assert_round_trip(expr)


def test_every_bound_of_the_registry_round_trips():
    """Every closed form of the bounds registry (the formulas the terminal prints most) round-trips, except
    Piecewise cases, which print as ``{a if cond; b otherwise}`` for the eye."""
    exprs = [bounds.get(n).expr for n in bounds.names() if not bounds.get(n).expr.has(sympy.Piecewise)]
    assert len(exprs) >= 20
    for e in exprs:
        assert_round_trip(e)


@pytest.mark.parametrize("gamma, shown", [
    (sympy.sqrt(2), "3 - 2·√2"),  # (√2 − 1)/(√2 + 1) rationalised: the simplest form
    (sympy.E, "(-1 + E)/(1 + E)"),
    (sympy.pi, "(-1 + pi)/(1 + pi)"),
    (sympy.exp(sympy.Rational(1, 2)), "(-1 + exp(1/2))/(1 + exp(1/2))"),
])
def test_eta_tv_of_randomized_response_at_irrational_gamma(gamma, shown):
    value = eta_tv(randomized_response(2, gamma))
    assert sympy.simplify(value - (gamma - 1) / (gamma + 1)) == 0  # the closed form (γ − 1)/(γ + 1)
    assert to_text(value) == shown
    assert read_expression(shown) == value


def test_fa03_threshold_prints_as_the_log_of_the_quotient():
    """log((1+√2)/2) = 0.188…, not log(1+√2)/2 = 0.441… (the regex LaTeX path printed the latter)."""
    value = sympy.log((1 + sympy.sqrt(2)) / 2)
    assert to_text(value) == "log((1 + √2)/2)"
    assert read_expression(to_text(value)) == value == read_expression("log((1+√2)/2)")


def test_fa03_statement_prints_the_quotient(capsys):
    """fa03's threshold is log((1 + √2)/2) on the terminal, as in the paper (its statement is printed from the
    claim's formulas; tests/output/test_formula_text.py checks every claim's formulas round-trip)."""
    from exactdp.cli import main

    assert main(["show", "findings.fa03_small_eps_direction", "--quick"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("  statement:"))
    assert line.endswith(";  phi(eps, 0) < 4·(exp(eps) - 1)^2 ⟺ eps > log((1 + √2)/2)")
    assert "1 - 1/exp(eps_star) = 4·eps_star^2" in line


@pytest.mark.parametrize("argv", [["binary_randomized_response"], ["randomized_response", "k=3"]])
def test_derivation_steps_print_what_they_store(capsys, argv):
    """Every step of ``exactdp derive`` (its value in sympy's text, ``expr``, and as printed, ``expr_text``):
    the printed text read back by the safe reader is the stored expression (cases excepted: they print as
    ``{a if cond; b otherwise}`` for the eye)."""
    import json
    import re

    from exactdp.cli import main
    from exactdp.numbers.reader import MATH_FUNCTIONS

    assert main(["derive", *argv, "--format", "json"]) == 0
    steps = [s for d in json.loads(capsys.readouterr().out)["result"]["derivations"] for s in d["steps"]
             if s["expr"] is not None and not s["expr_text"].startswith("{")]
    assert len(steps) >= 5
    for s in steps:
        names = {n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_]\w*", s["expr"]) if n not in MATH_FUNCTIONS}
        stored = read_expression(s["expr"], name="stored", symbols=names, relations=True)
        printed = read_expression(s["expr_text"], name="printed", symbols=names, relations=True)
        assert printed == stored or sympy.simplify(printed - stored) == 0, (s["expr"], s["expr_text"])
