"""The registry of quantities (:mod:`exactdp.measures.registry`, issue 22 item 4).

A toy quantity ``eta_half`` = η_TV(K)/2 (D-4) registered once, here in the test, is usable by name in
``check`` (Python API and command line), in ``analyze --format json`` (and its text and LaTeX views), in
``derive`` and in :func:`exactdp.latex`, without any other module naming it; unregistering it restores every
output byte for byte.  Values are checked against η_TV computed directly (brute force over the row pairs).
"""

from __future__ import annotations

import json
from importlib import resources
from itertools import permutations

import pytest
import sympy
from flint import arb, fmpq

import exactdp
from exactdp import Kernel, check, eta_tv, tv
from exactdp.cli import main
from exactdp.errors import ParameterError
from exactdp.measures import registry
from exactdp.measures.registry import Quantity, register_quantity, unregister_quantity
from exactdp.verification.conjecture.parser import ConjectureSyntaxError, parse_conjecture

HALF_LATEX = r"\tfrac{1}{2}\eta_{\mathrm{TV}}(K)"


def half_eta_tv(K):
    return eta_tv(K) / 2


def toy() -> Quantity:
    return Quantity("eta_half", 0, "half the Dobrushin coefficient", HALF_LATEX, "eta_TV(K)/2", "eta_half",
                    exact=half_eta_tv, symbolic=half_eta_tv)


@pytest.fixture
def eta_half():
    q = register_quantity(toy())
    yield q
    if registry.quantity("eta_half") is not None:
        unregister_quantity("eta_half")


def brute_half(rows) -> fmpq:
    """η_TV(K)/2 from the definition: half the largest TV distance between two rows."""
    K = Kernel(rows)
    return max((tv(K.row(i), K.row(j)) for i, j in permutations(range(K.N), 2)), default=fmpq(0)) / 2


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    return str(path)


def run(capsys, argv) -> str:
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


# -- check -------------------------------------------------------------------------------------------------------

def test_check_refutes_and_rechecks_the_toy_with_the_core(eta_half):
    r = check("eta_half < 1/4", "ldp", N=2, M=2, budget=40)
    ce = r.counterexample
    assert r.verdict == "refuted" and ce["member"] == "true"
    assert ce["lhs"] == str(brute_half(ce["rows"])) and ce["rhs"] == "1/4"
    assert ce["rows"] == [["3/4", "1/4"], ["1/4", "3/4"]]  # eta_TV = 1/2: the toy is 1/4, not < 1/4


def test_check_finds_no_counterexample_to_a_true_bound_and_reports_exact_closest_values(eta_half):
    r = check("eta_half <= 1/2", "ldp", N=2, M=3, budget=40)  # eta_TV <= 1 for every kernel
    assert r.verdict == "no-counterexample" and r.stats["undefined"] == 0
    c = r.closest
    assert c["lhs"] == str(brute_half(c["rows"])) and c["slack"] == str(fmpq(1, 2) - brute_half(c["rows"]))
    r = check("eta_half <= 1/2 * eta_tv", "ldp", N=3, M=2, budget=30)  # equal: slack 0 everywhere
    assert r.verdict == "no-counterexample" and r.closest["slack"] == "0"


def test_check_on_the_command_line(eta_half, capsys):
    doc = json.loads(run(capsys, ["check", "eta_half <= 1/2", "--class", "ldp", "--N", "2", "--M", "2",
                                  "--budget", "40", "--format", "json"]))
    assert doc["result"]["verdict"] == "no-counterexample"
    assert doc["result"]["closest"]["lhs"] == str(brute_half(doc["result"]["closest"]["rows"]))


def test_check_counts_an_undefined_registered_value_as_undefined():
    def two_inputs_only(K):
        if K.N != 2:
            raise registry.Undefined(f"needs two inputs, got N = {K.N}")
        return eta_tv(K)

    register_quantity(Quantity("eta_two", 0, "eta_TV of a two-input kernel", r"\eta_2(K)", "eta_2(K)", None,
                               exact=two_inputs_only))
    try:
        r = check("eta_two <= 1", "ldp", N=2, M=2, budget=20)
        assert r.verdict == "no-counterexample" and r.stats["undefined"] == 0
        assert r.closest["lhs"] == str(eta_tv(Kernel(r.closest["rows"])))
        with pytest.raises(ParameterError, match=r"every one of the \d+ instances tested is undefined "
                                                 r"\(needs two inputs, got N = 3\)"):
            check("eta_two <= 1", "ldp", N=3, M=2, budget=20)
    finally:
        unregister_quantity("eta_two")


def test_check_uses_the_ball_evaluator_at_an_irrational_argument_and_the_exact_one_to_recheck():
    calls = []

    def exact(K, x):  # x eta_TV(K) at an exact sympy x
        calls.append("exact")
        return x * sympy.Rational(str(eta_tv(K)))

    def ball(K, x):  # the same at an arb x: a certified ball
        calls.append("ball")
        v = eta_tv(K)
        return x * arb(v.p) / v.q

    register_quantity(Quantity("eta_times", 1, "x times eta_TV", r"#1 \, \eta_{\mathrm{TV}}(K)", "#1 eta_TV(K)",
                               None, exact, ball))
    try:
        r = check("eta_times(sqrt(2)) < sqrt(2)/2", "ldp", N=2, M=2, budget=40)
    finally:
        unregister_quantity("eta_times")
    ce = r.counterexample  # eta_TV = 1/2: sqrt(2)/2 < sqrt(2)/2 fails, the slack 0 decided exactly
    assert r.verdict == "refuted" and ce["rows"] == [["3/4", "1/4"], ["1/4", "3/4"]]
    assert (ce["lhs"], ce["slack"]) == ("sqrt(2)/2", "0")
    assert "ball" in calls and "exact" in calls  # the search in balls, the re-check exact


# -- analyze -----------------------------------------------------------------------------------------------------

def test_analyze_json_text_and_latex_report_the_toy(eta_half, capsys, rr):
    jsonschema = pytest.importorskip("jsonschema")
    doc = json.loads(run(capsys, ["analyze", rr, "--format", "json"]))
    schema = json.loads((resources.files("exactdp") / "schemas" / "analyze.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["result"]["eta_half"] == {"value": "1/4", "decimal": "0.250000000000"}
    assert doc["result"]["eta_half"]["value"] == str(brute_half([["3/4", "1/4"], ["1/4", "3/4"]]))
    bad = dict(doc, result=dict(doc["result"], eta_half={"value": "1/4"}))  # a registered key has a fixed shape
    assert not jsonschema.Draft202012Validator(schema).is_valid(bad)
    text = run(capsys, ["analyze", rr])
    assert "eta_TV(K)/2                 = 1/4" in text.splitlines()
    tex = run(capsys, ["analyze", rr, "--format", "latex"])
    assert f"${HALF_LATEX}$ & $\\frac{{1}}{{4}}$ \\\\" in tex.splitlines()


def test_analyze_notes_a_registered_quantity_without_a_value(capsys, rr):
    def never(K):
        raise registry.Undefined("no value anywhere")

    register_quantity(Quantity("nothing", 0, "undefined everywhere", r"\bot", "bot", "nothing", exact=never))
    try:
        doc = json.loads(run(capsys, ["analyze", rr, "--format", "json"]))
    finally:
        unregister_quantity("nothing")
    assert "nothing" not in doc["result"]
    assert doc["result"]["notes"] == ["nothing: no value for this kernel (no value anywhere)"]


# -- latex and derive --------------------------------------------------------------------------------------------

def test_latex_prints_the_registered_symbol(eta_half):
    c = parse_conjecture("eta_half <= eta_tv/2")
    assert exactdp.latex(c.lhs) == HALF_LATEX
    assert exactdp.latex(sympy.Le(c.lhs, c.rhs)) == HALF_LATEX + r" \leq \frac{\eta_{\mathrm{TV}}(K)}{2}"
    hs = parse_conjecture("eta_hs(exp(eps)) <= delta(eps)")  # built-ins with arguments: the same registry
    assert exactdp.latex(hs.lhs) == r"\eta_{E_{e^{\varepsilon}}}(K)"
    assert exactdp.latex(hs.rhs) == r"{\delta_K(\varepsilon)}"


def test_derive_gives_the_closed_form_of_the_toy(eta_half, capsys):
    from exactdp.measures.derivations import derive
    from exactdp.mechanisms import randomized_response

    t = sympy.Symbol("t", positive=True)
    (d,) = derive(randomized_response(3, t), ("eta_half",))
    assert sympy.simplify(d.result - (t - 1) / (2 * (t + 2))) == 0  # eta_TV of 3-ary RR is (t-1)/(t+2)
    doc = json.loads(run(capsys, ["derive", "randomized_response", "k=2", "--quantity", "eta_half",
                                  "--format", "json"]))
    (r,) = doc["result"]["derivations"]
    assert r["quantity"].startswith("eta_TV(K)/2") and sympy.simplify(
        sympy.sympify(r["result"], locals={"t": t}) - (t - 1) / (2 * (t + 1))) == 0


# -- unregistering restores the old state ------------------------------------------------------------------------

def test_unregistering_restores_every_output(capsys, rr):
    before_names = [q.name for q in registry.quantities()]
    before_json = run(capsys, ["analyze", rr, "--format", "json"])
    before_text = run(capsys, ["analyze", rr])
    before_latex = exactdp.latex(sympy.Symbol("eta_half"))
    register_quantity(toy())
    assert run(capsys, ["analyze", rr, "--format", "json"]) != before_json
    assert [q.name for q in registry.quantities()] == before_names + ["eta_half"]
    unregister_quantity("eta_half")
    assert [q.name for q in registry.quantities()] == before_names
    assert run(capsys, ["analyze", rr, "--format", "json"]) == before_json
    assert run(capsys, ["analyze", rr]) == before_text
    assert exactdp.latex(sympy.Symbol("eta_half")) == before_latex == r"\eta_{half}"
    with pytest.raises(ConjectureSyntaxError, match="unknown name 'eta_half' at position 0"):
        parse_conjecture("eta_half <= 1/2")


# -- the registration rules and the built-ins ---------------------------------------------------------------------

@pytest.mark.parametrize("q, message", [
    (Quantity("eta_tv", 0, "again", "x", "x"), "'eta_tv' is already registered"),
    (Quantity("eps", 0, "a parameter", "x", "x"), "'eps' is reserved"),
    (Quantity("log", 1, "a function", "x", "x"), "'log' is reserved"),
    (Quantity("2x", 0, "not a name", "x", "x"), "must be a letter then letters, digits or _"),
    (Quantity("big", 5, "too many arguments", "x", "x"), "arity: must be an integer in 0..4, got 5"),
    (Quantity("div", 1, "one argument", "x", "x", distributions=2), "distributions: 0, or 2 with arity >= 2"),
])
def test_bad_registrations_are_refused_naming_the_rule(q, message):
    with pytest.raises(ParameterError, match=message.replace("(", r"\(").replace(".", r"\.")):
        register_quantity(q)
    with pytest.raises(ParameterError, match="'nope' is not registered"):
        unregister_quantity("nope")


def test_the_chi2_and_kl_coefficients_live_in_the_registry():
    K = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])  # binary symmetric channel p = 1/4: eta_chi2 = (1 - 2p)^2
    for name in ("eta_chi2", "eta_kl"):
        q = registry.quantity(name)
        assert q.arity == 0 and q.exact(K) == sympy.Rational(1, 4)
        with pytest.raises(registry.Undefined, match="two-input kernels only, got N = 3"):
            q.exact(Kernel([["1/2", "1/2"], ["1/3", "2/3"], ["1", "0"]]))
    assert registry.quantity("eta_hs").exact(K, sympy.Integer(2)) == fmpq(1, 4)  # (3/4 - 2/4)_+ = 1/4
    assert registry.kernel_constants() == ("eta_tv", "ldp_eps", "max_leakage", "eta_chi2", "eta_kl")
    assert registry.divergences() == ("tv", "kl", "hellinger2", "chi2", "hs")


def test_rational_argument_is_exact_never_a_numerical_guess():
    """1 + e^{-50} is not the rational 1 (sympy's nsimplify would say it is): no exact value there."""
    import sympy
    from flint import fmpq

    from exactdp.measures.registry import Undefined, rational_argument

    assert rational_argument(sympy.Rational(3, 7), "gamma") == fmpq(3, 7)
    assert rational_argument(sympy.sqrt(4), "gamma") == fmpq(2)
    for e in (1 + sympy.exp(-50), sympy.Rational(1, 3) + sympy.exp(-40), sympy.exp(-100), sympy.sqrt(2)):
        with pytest.raises(Undefined, match="not rational"):
            rational_argument(e, "gamma")
