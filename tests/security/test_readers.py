"""Kernel files and every other text are data, never code (issue 14): injection payloads in every reader,
a static ban on eval-like calls, hypothesis fuzzing of each reader, and exact values of what the readers
accept.  A sentinel file proves that no payload ran."""

from __future__ import annotations

import ast
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from flint import fmpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp import Kernel, eta_hockey_stick, is_ldp, pml_ratio, to_qq
from exactdp.errors import ExactDPError, InvalidKernelError
from exactdp.io import kernel_from_text
from exactdp.limits import limits
from exactdp.numbers.reader import ReadError, as_expr, read_expression, read_rational
from exactdp.symbolic.derive import parametric_kernel_from_json
from exactdp.verification.conjecture.parser import parse_conjecture

ROOT = Path(__file__).resolve().parents[2]
RR = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])


def payloads(sentinel: Path) -> list[str]:
    s = str(sentinel)
    return [
        f"__import__('os').system('touch {s}') + 1/2",
        f"__import__(\"os\").system(\"touch {s}\")",
        f"open('{s}', 'w').write('x')",
        f"exec(\"open('{s}','w')\")",
        f"eval(\"open('{s}','w')\")",
        f"(lambda: open('{s}', 'w'))()",
        f"[open('{s}','w') for _ in (1,)]",
        f"().__class__.__bases__[0].__subclasses__()",
        f"Function('open')('{s}', 'w')",
        f"sympify(\"open('{s}','w')\")",
        f"Symbol('x').__class__",
        f"1; open('{s}', 'w')",
        f"1\nopen('{s}', 'w')",
        "__builtins__",
        "globals()",
        f"import os; os.system('touch {s}')",
        f"f'{{open(\"{s}\",\"w\")}}'",
        "1 if True else 2",
        "x.__class__.__mro__",
        "exp.__globals__",
        "\x00",
        "ехр(1)",  # Cyrillic look-alike of exp
    ]


@pytest.fixture
def sentinel(tmp_path):
    path = tmp_path / "sentinel"
    yield path
    assert not path.exists(), "a payload ran code"


def _refused(fn, *args, **kwargs):
    with pytest.raises(ExactDPError):
        fn(*args, **kwargs)


def test_no_payload_runs_in_any_reader(sentinel, tmp_path):
    t = sympy.Symbol("t", positive=True)
    for p in payloads(sentinel):
        _refused(read_expression, p)
        _refused(read_expression, p, symbols={"t": t}, relations=True)
        _refused(read_rational, p)
        _refused(to_qq, p)
        _refused(as_expr, p)
        _refused(Kernel, [["1/2", p], ["1/2", "1/2"]])
        _refused(kernel_from_text, json.dumps([[p, "1/2"], ["1/2", "1/2"]]))
        _refused(kernel_from_text, f'"{p}",1/2\n1/2,1/2', "csv")
        doc = {"parameters": {"t": "positive"}, "region": ["t >= 1"], "rows": [[p, "1/2"], ["1/2", "1/2"]]}
        _refused(parametric_kernel_from_json, json.dumps(doc))
        doc = {"parameters": {"t": "positive"}, "region": [p], "rows": [["t/(t+1)", "1/(t+1)"], ["1/2", "1/2"]]}
        _refused(parametric_kernel_from_json, json.dumps(doc))
        _refused(parse_conjecture, f"eta_tv <= {p}")
        _refused(parse_conjecture, f"{p} <= 1")
        _refused(eta_hockey_stick, RR, p)
        _refused(pml_ratio, RR, p)
        _refused(is_ldp, RR, eps=p)
        _refused(is_ldp, RR, t=p)
    # a parameter name is data too
    doc = {"parameters": {"__import__": "positive"}, "rows": [["1/2", "1/2"], ["1/2", "1/2"]]}
    _refused(parametric_kernel_from_json, json.dumps(doc))


def test_no_payload_runs_through_the_command_line(sentinel, tmp_path, capsys):
    from exactdp.cli import main

    rr = tmp_path / "rr.json"
    rr.write_text(json.dumps([["3/4", "1/4"], ["1/4", "3/4"]]))
    for k, p in enumerate(payloads(sentinel)):
        f = tmp_path / f"k{k}.json"
        f.write_text(json.dumps({"parameters": {"t": "positive"}, "region": ["t >= 1", p],
                                 "rows": [[p, "1/2"], ["1/2", "1/2"]]}))
        g = tmp_path / f"k{k}.csv"
        g.write_text(f'"{p}",1/2\n1/2,1/2\n')
        for argv in (["derive", "--file", str(f)], ["analyze", str(f)], ["analyze", str(g)],
                     ["analyze", str(rr), "--t", p], ["analyze", str(rr), "--c", p],
                     ["evalf", p], ["check", f"eta_tv <= {p}", "--budget", "5"],
                     ["bound", "xi", "--t", p, "--c", "1/4", "--N", "2"], ["tensor", str(f), "--n", "2"]):
            assert main(argv) == 2, argv
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)


# -- static: nothing in the library evaluates text ----------------------------------------------------------

_BUILTINS = {"eval", "exec", "compile", "__import__"}
_BANNED = {"eval", "exec", "compile", "__import__", "parse_expr", "sympify", "S", "lambdify", "evaluate_expr"}


def _banned_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and "sympy.parsing" in node.module:
            found.append(f"{path}:{node.lineno}: imports {node.module}")
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name not in _BANNED or (name in _BUILTINS and not isinstance(f, ast.Name)):
            continue  # re.compile(...) is not the builtin compile
        strict = any(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True
                     for k in node.keywords)
        if name == "sympify" and strict and path.name == "reader.py":
            continue  # the one sanctioned use: strict sympify refuses strings
        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}(...)")
    return found


def test_no_eval_sympify_or_parse_expr_anywhere_in_the_code():
    found = []
    for folder in ("exactdp", "proofs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += _banned_calls(path)
    assert not found, "use exactdp.numbers.reader (read_expression / as_expr) instead:\n" + "\n".join(found)


def test_the_static_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import sympy\nx = sympy.sympify(input())\ny = eval('1')\nz = sympy.S('2')\n")
    bad = bad.rename(ROOT / "tests" / "security" / "_tmp_bad_module_for_test.py")
    try:
        assert len(_banned_calls(bad)) == 3
    finally:
        bad.unlink()


# -- exact values of what the readers accept ------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("1/10^3 + 0.5", Fraction(501, 1000)),
    ("2^3^2", 512), ("-2^2", -4), ("2**-3", Fraction(1, 8)), ("(1-1/3)*3/4", Fraction(1, 2)),
    ("1e-30", Fraction(1, 10**30)), (".5", Fraction(1, 2)), ("5.", 5), ("1.5E3", 1500), ("+4", 4),
    ("1 − 1/4", Fraction(3, 4)), ("2·3", 6), ("+".join(["1"] * 4000), 4000),
])
def test_rational_values_are_exact(text, value):
    assert read_rational(text) == fmpq(value.numerator, value.denominator) if isinstance(value, Fraction) \
        else read_rational(text) == value
    assert to_qq(text) == read_rational(text)


def test_big_but_allowed_numbers_are_exact():
    x = to_qq("1/10^5000")
    assert x == fmpq(1, 10**5000)
    K = Kernel([["1/10^5000", "1 - 1/10^5000"], ["1/2", "1/2"]])
    assert K.rows[0][0] * 10**5000 == 1
    with limits(max_integer_digits=20):
        with pytest.raises(ReadError, match="max_integer_digits"):
            to_qq("1/10^30")


def test_symbolic_and_transcendental_values():
    t, c = sympy.Symbol("t", positive=True), sympy.Symbol("c", positive=True)
    assert read_expression("t*(1-c)/(t*(1-2*c)+1)", symbols={"t": t, "c": c}) == t * (1 - c) / (t * (1 - 2 * c) + 1)
    assert read_expression("exp(1/2) - log(3)") == sympy.exp(sympy.Rational(1, 2)) - sympy.log(3)
    assert read_expression("sqrt(2)^2") == 2
    assert read_expression("0 < c <= 1/2", symbols={"c": c}, relations=True) == (c <= sympy.Rational(1, 2))
    assert read_expression("3^(1/100000000000000000000000)") == sympy.Pow(3, sympy.Rational(1, 10**23))


@pytest.mark.parametrize("text, words", [
    ("1e-999999999", ("max_integer_digits", "EXACTDP_MAX_INTEGER_DIGITS")),
    ("10**10**10", ("max_integer_digits",)),
    ("sqrt(2)**(10**10)", ("max_integer_digits",)),
    ("exp(exp(exp(100)))", ("max_exp_argument",)),
    ("exp(10**6*log(2)) * exp(10**6*log(3))", ("too large",)),
    ("exp(-" * 50 + "1" + ")" * 50, ("max_call_nesting",)),
    ("(" * 150 + "1" + ")" * 150, ("max_nesting",)),
    ("-" * 150 + "1", ("max_nesting",)),
    ("1+" * 20_000 + "1", ("max_text_length",)),
    ("log(-1)", ("not a real number",)), ("sqrt(-1)", ("not a real number",)), ("1/0", ("division by zero",)),
    ("(-8)^(1/3)", ("not a real number",)), ("0^-1", ("undefined",)),
    ("exp(1", ("expected ')'",)), ("2 3", ("unexpected",)), ("0x10", ("unexpected",)), ("1j", ("unexpected",)),
    ("", ("empty",)),
])
def test_refusals_name_the_rule(text, words):
    with pytest.raises(ReadError) as info:
        read_expression(text)
    msg = str(info.value)
    for w in words:
        assert w in msg, (w, msg)
    assert len(msg) < 400 and "\n" not in msg


def test_error_messages_quote_at_most_80_characters_of_input():
    long = "1+" * 3000 + "1)"
    with pytest.raises(ReadError) as info:
        read_expression(long)
    assert long[:200] not in str(info.value) and "characters" in str(info.value)


def test_limits_are_raisable():
    text = "exp(-" * 12 + "1" + ")" * 12
    with pytest.raises(ReadError, match="max_call_nesting"):
        read_expression(text)
    with limits(max_call_nesting=12):
        assert read_expression(text).is_positive


# -- fuzzing: every reader returns a value of the right type or raises the project's error -------------------

_ALPHABET = st.sampled_from(list("0123456789.eE+-*/^()<>=, \t") + ["**", "<=", ">=", "exp", "log", "sqrt", "t",
                                                                    "c", "pi", "E", "x", "eta_tv", "eps", "tv",
                                                                    "P", "Q", "K", "row", "delta", "_", "'", "\""])
_TEXT = st.one_of(st.lists(_ALPHABET, max_size=40).map("".join), st.text(max_size=60))
_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(_TEXT)
def test_fuzz_expression_reader(text):
    t = sympy.Symbol("t", positive=True)
    try:
        v = read_expression(text, symbols={"t": t}, relations=True)
    except ExactDPError:
        return
    assert isinstance(v, sympy.Basic) and not v.has(sympy.Float, sympy.zoo, sympy.nan, sympy.I)


@_FUZZ
@given(_TEXT)
def test_fuzz_rational_reader(text):
    try:
        v = to_qq(text)
    except ExactDPError:
        return
    assert isinstance(v, fmpq)


@_FUZZ
@given(_TEXT)
def test_fuzz_conjecture_reader(text):
    try:
        c = parse_conjecture(text)
    except ExactDPError:
        return
    assert c.relation in ("<", "<=", ">", ">=")


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.fractions(max_denominator=9).map(str)
                     | _TEXT | st.floats(allow_nan=True),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["rows", "parameters", "region", "name", "t"]), inner, max_size=4),
                     max_leaves=20)


@_FUZZ
@given(_JSON)
def test_fuzz_kernel_files(doc):
    text = json.dumps(doc)
    for reader in (kernel_from_text, parametric_kernel_from_json):
        try:
            K = reader(text)
        except ExactDPError:
            continue
        assert K.N >= 1 and all(len(r) == K.M for r in K.rows)


@pytest.mark.parametrize("assumption", ["true", '{"positive": 1}', '[[1]]', '["positive", 2]'])
def test_a_parameter_assumption_that_is_not_text_is_refused(assumption):
    """Found by the fuzz above: {"parameters": {"rows": true}} raised a TypeError from the assumption list."""
    text = '{"parameters": {"p": %s}, "rows": [["p", "1-p"]]}' % assumption
    with pytest.raises(InvalidKernelError, match=r"parameters\.p: the assumption must be a string or a list"):
        parametric_kernel_from_json(text)


def _rationals():
    return st.fractions(min_value=-50, max_value=50, max_denominator=20)


def _combine(x):
    (a, va), op, (b, vb) = x
    if op == "/" and vb == 0:
        return f"({a})*({b})", va * vb
    value = {"+": va + vb, "-": va - vb, "*": va * vb, "/": va / vb if vb else None}[op]
    return f"({a}){op}({b})", value


_TREES = st.recursive(_rationals().map(lambda f: (str(f) if f.denominator == 1 or f >= 0 else f"({f})", f)),
                      lambda inner: st.tuples(inner, st.sampled_from("+-*/"), inner).map(_combine), max_leaves=12)



@settings(max_examples=200, deadline=None)
@given(_TREES)
def test_fuzz_arithmetic_is_exact(tree):
    text, value = tree
    assert read_rational(text) == fmpq(value.numerator, value.denominator)
