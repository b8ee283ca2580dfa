"""The conjecture language: safe parsing, exact decimals, clear errors (issue 9)."""

import pytest
import sympy

from exactdp.errors import ExactDPError
from exactdp.verification.conjecture import ConjectureSyntaxError, parse_conjecture
from exactdp.verification.conjecture.classes import classes_for


def test_parses_relation_quantities_and_parameters():
    c = parse_conjecture("kl(K∘P, K∘Q) ≤ eta_tv^2 * kl(P, Q)")
    assert c.relation == "<=" and not c.strict
    assert c.quantities == {"kl", "eta_tv"}
    assert c.parameters == set() and c.uses_inputs
    assert str(c) == "kl(K(P), K(Q)) <= eta_tv**2*kl(P, Q)"


def test_delta_call_is_the_profile_and_bare_delta_the_parameter():
    c = parse_conjecture("delta(eps) < delta")
    assert c.quantities == {"delta_K"} and c.parameters == {"eps", "delta"} and c.strict


def test_decimals_are_read_exactly():
    c = parse_conjecture("eta_tv <= 0.1 + 1e-3")
    assert c.rhs == sympy.Rational(101, 1000)


def test_slack_orientation():
    c = parse_conjecture("eta_tv >= eps")
    assert c.slack_expr() == c.lhs - c.rhs


@pytest.mark.parametrize("text, match", [
    ("eta_tv <= foo", "unknown name 'foo'"),
    ("__import__('os').system('true') <= 1", "unexpected character \"'\" at position 11"),
    ("__import__(os) <= 1", "unknown name '__import__' at position 0"),
    ("eta_TV <= 1", "did you mean `eta_tv`"),
    ("eta_tv", "no relation"),
    ("eta_tv <= eps <= 1", "exactly one"),
    ("eta_tv == eps", "not supported"),
    ("eta_tv.real <= 1", "unexpected character '.' at position 6"),
    ("P <= 1", "P is a distribution"),
    ("tv(P) <= 1", "tv takes 2 argument"),
    ("tv(P, 1) <= 1", "divergence arguments"),
    ("eta_hs <= 1", "must be called"),
    ("eta_tv <= (1", "cannot read"),
    ("eta_tv <= (1", r"expected '\)' at position 2, got the end in '\(1'"),
    ("eta_tv <= 'x'", "unexpected"),
    ("<= 1", "non-empty"),
    ("eta_tv <= 9**9**9**9", "too large"),
    ("eta_tv <= exp(10**6*log(2))", "too large"),
    ("eta_tv <= 1/0", "undefined"),
])
def test_malformed_input_is_a_clear_exactdp_error(text, match):
    with pytest.raises(ConjectureSyntaxError, match=match):
        parse_conjecture(text)
    assert issubclass(ConjectureSyntaxError, ExactDPError)


def test_class_parameters():
    assert classes_for("all", {"c"}) == ("pml",)
    assert classes_for("all", {"delta"}) == ("ldp", "approx-ldp")
    assert classes_for("all", set()) == ("ldp", "approx-ldp", "pml")
    with pytest.raises(ExactDPError, match="c is not defined for class ldp"):
        classes_for("ldp", {"c"})
    with pytest.raises(ExactDPError, match="delta is not defined for class pml"):
        classes_for("pml", {"delta"})
    with pytest.raises(ExactDPError, match="--class"):
        classes_for("gdp", set())


def test_the_function_set_is_the_readers():
    """check reads with the same functions as evalf and kernel files (tanh was missing: issue 23)."""
    c = parse_conjecture("eta_tv <= tanh(eps/2) + 0*sinh(1) + 0*Abs(eps)")
    eps = sympy.Symbol("eps", nonnegative=True)
    assert c.rhs == sympy.tanh(eps / 2)
