"""One behaviour per question across subcommands (issue 23 item 2): ``--eps``/``--t`` read the same way by
every command (``--eps 0.5`` is ε = 1/2 exactly, an irrational e^ε handled by certified comparisons),
``--delta`` alone asks for ε(δ), transcendental values carry their certified decimals, near-miss names get a
hint.  The values are checked against closed forms of randomized response K = [[3/4, 1/4], [1/4, 3/4]]:
δ(t) = 3/4 − t/4 on [1/3, 3], and δ_n(t) = Σ_k C(n,k) (p^{n−k} q^k − t p^k q^{n−k})_+ for the rows' n-fold
products (p = 3/4, q = 1/4)."""

import json
from fractions import Fraction
from math import comb

import pytest
from flint import arb, fmpq

from exactdp.cli import main
from tests.exact import assert_rounds

RR = [["3/4", "1/4"], ["1/4", "3/4"]]


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(RR))
    return str(path)


def _run(capsys, *args):
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _json(capsys, *args):
    return json.loads(_run(capsys, *args, "--format", "json"))["result"]


def test_analyze_eps_decimal_is_exact_and_irrational_t_is_certified(rr, capsys):
    doc = _json(capsys, "analyze", rr, "--eps", "0.5", "--delta", "1/10")
    h = doc["eta_hockey_stick"]
    assert h["gamma"] == "exp(1/2)" and h["value"] == "3/4 - exp(1/2)/4"  # δ(t) = 3/4 − t/4 at t = e^{1/2}
    assert_rounds(h["decimal"], lambda: fmpq(3, 4) - arb(fmpq(1, 2)).exp() / 4)
    assert_rounds(h["gamma_decimal"], lambda: arb(fmpq(1, 2)).exp())
    assert doc["is_ldp"] == {"t": "exp(1/2)", "delta": "1/10", "verdict": "false"}  # 0.3378… > 1/10
    assert _json(capsys, "analyze", rr, "--eps", "1/2", "--delta", "2/5")["is_ldp"]["verdict"] == "true"
    # the same question asked three ways gets one answer
    text = _run(capsys, "analyze", rr, "--eps", "0.5")
    assert text == _run(capsys, "analyze", rr, "--eps", "1/2") == _run(capsys, "analyze", rr, "--t", "exp(1/2)")
    assert f"= 3/4 - exp(1/2)/4 ≈ {h['decimal']}" in text
    assert f"gamma=exp(1/2) ≈ {h['gamma_decimal']}" in text


def test_analyze_delta_alone_is_epsilon_for_delta(rr, capsys):
    inv = _json(capsys, "analyze", rr, "--delta", "1/10")["epsilon_for_delta"]
    assert inv["t_star"] == "13/5" and inv["epsilon"] == "log(13/5)"  # 3/4 − t/4 = 1/10 at t = 13/5
    assert_rounds(inv["decimal"], lambda: arb(fmpq(13, 5)).log())
    text = _run(capsys, "analyze", rr, "--delta", "1/10")
    assert f"least eps with delta(e^eps) <= 1/10: eps = log(13/5) ≈ {inv['decimal']}, t* = e^eps = 13/5" in text
    # tensor at n = 1 answers the same question with the same exact value
    tinv = _json(capsys, "tensor", rr, "--n", "1", "--delta", "0.1")["epsilon_for_delta"]
    assert (tinv["t_star"], tinv["epsilon"], tinv["decimal"]) == ("13/5", "log(13/5)", inv["decimal"])


def _delta_n(n: int, t: Fraction) -> Fraction:
    """δ_n(t) of randomized response by the binomial closed form (the worst pair: all coordinates differ)."""
    p, q = Fraction(3, 4), Fraction(1, 4)
    return sum((comb(n, k) * max(Fraction(0), p ** (n - k) * q**k - t * p**k * q ** (n - k))
                for k in range(n + 1)), Fraction(0))


def test_tensor_delta_with_decimal_exponent_prints_exact_value_and_digits(rr, capsys):
    doc = _json(capsys, "tensor", rr, "--n", "10", "--delta", "1e-5")
    inv = doc["epsilon_for_delta"]
    assert inv["delta"] == "1/100000"
    t = Fraction(inv["t_star"])
    assert t == Fraction(184495357, 3125) and inv["epsilon"] == "log(184495357/3125)"
    assert _delta_n(10, t) <= Fraction(1, 10**5) < _delta_n(10, t - Fraction(1, 10**6))
    assert_rounds(inv["decimal"], lambda: arb(fmpq(t.numerator, t.denominator)).log())
    text = _run(capsys, "tensor", rr, "--n", "10", "--delta", "1e-5")
    assert f"eps = log(184495357/3125) ≈ {inv['decimal']}, t* = e^eps = 184495357/3125 (exact;" in text


def test_tensor_irrational_eps_value_has_decimal(rr, capsys):
    doc = _json(capsys, "tensor", rr, "--n", "3", "--eps", "0.5")
    assert doc["eps"] == "1/2" and doc["delta_n_at_exp_eps"] == "27/32 - 5*exp(1/2)/32"
    assert_rounds(doc["delta_n_at_exp_eps_decimal"], lambda: fmpq(27, 32) - 5 * arb(fmpq(1, 2)).exp() / 32)
    text = _run(capsys, "tensor", rr, "--n", "3", "--eps", "0.5")
    assert f"delta_n(e^(1/2)) = 27/32 - 5·exp(1/2)/32 ≈ {doc['delta_n_at_exp_eps_decimal']}" in text


@pytest.mark.parametrize("args, message", [
    (["analyze", "{rr}", "--eps", "Log(2)"], "--eps: unknown name 'Log' (did you mean `log`?)"),
    (["analyze", "{rr}", "--delta", "2"], "--delta: must lie in [0, 1], got '2'"),
    (["tensor", "{rr}", "--n", "2", "--delta", "1/0"], "--delta: division by zero is undefined"),
    (["evalf", "Exp(1)"], "EXPR: unknown name 'Exp' (did you mean `exp`?)"),
    (["evalf", "(1"], "EXPR: expected ')' at position 2, got the end in '(1'"),
    (["check", "eta_TV <= 1"], "unknown name 'eta_TV' at position 0 (did you mean `eta_tv`?)"),
    (["check", "eta_tv <= (1"], "expected ')' at position 2"),
])
def test_bad_input_is_one_line_exit_2(rr, capsys, args, message):
    assert main([a.format(rr=rr) for a in args]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and message in lines[0], captured.err


def test_evalf_and_check_share_the_readers_function_set(capsys):
    """Min/Max/Abs/tanh are read by evalf as by check and kernel files; a Max with an irrational argument stays
    unevaluated (no float comparison) and is decided by certified balls."""
    from exactdp.numbers.reader import read_expression

    value = read_expression("Max(1, exp(1/2), 3/2)")
    assert value.func.__name__ == "Max" and len(value.args) == 3
    assert str(read_expression("Max(1, 2, 3/2) + Abs(-1/3)")) == "7/3"  # rationals: an exact comparison
    digits = _run(capsys, "evalf", "Max(1, exp(1/2), 3/2) - tanh(0)", "--digits", "20").strip()
    assert_rounds(digits, lambda: arb(fmpq(1, 2)).exp())


def test_bound_reads_eps_and_t_like_every_command(capsys):
    """bound read --eps/--t as rationals only ('log(2)' was refused): now the reader's expressions, so the
    Dobrushin bound (t − 1)/(t + 1) is 1/3 at --eps 'log(2)' as at --t 2, and exact at --eps 0.5."""
    assert _json(capsys, "bound", "ldp_dobrushin", "--eps", "log(2)")["value"] == "1/3"
    assert _json(capsys, "bound", "ldp_dobrushin", "--t", "2")["value"] == "1/3"
    doc = _json(capsys, "bound", "ldp_dobrushin", "--eps", "0.5")
    assert doc["at"] == {"eps": "1/2"} and doc["value"] == "(-1 + exp(1/2))/(1 + exp(1/2))"
    assert_rounds(doc["decimal"], lambda: (arb(fmpq(1, 2)).exp() - 1) / (arb(fmpq(1, 2)).exp() + 1))


def test_check_tanh_bound_runs_and_prints_parameters_with_decimals(capsys):
    """The known bound eta_tv <= tanh(eps/2) can be typed and is proved (tanh(eps/2) = (t - 1)/(t + 1) by a checked
    identity, then B-4's certificate); a transcendental parameter of the closest approach prints with its
    certified decimal."""
    import re

    assert main(["check", "eta_tv <= tanh(eps/2)", "--class", "ldp", "--N", "2", "--M", "2", "--budget", "20"]) == 0
    out = capsys.readouterr().out
    assert "verdict:    PROVED" in out
    m = re.search(r"closest approach \(ldp, 2x2, eps=log\(([0-9/]+)\) ≈ ([0-9.]+), t=([0-9/]+)", out)
    assert m and m.group(1) == m.group(3)
    p, _, q = m.group(1).partition("/")
    assert_rounds(m.group(2), lambda: arb(fmpq(int(p), int(q or 1))).log())


def test_conjecture_elementary_functions_are_exact_at_zero_and_infinity():
    from exactdp.numbers.loglin import Inf, elementary

    assert elementary("tanh", Inf(1)) == 1 and elementary("tanh", Inf(-1)) == -1
    assert elementary("cosh", fmpq(0)) == 1 and elementary("sin", fmpq(0)) == 0
    assert_rounds("0.462117157260", lambda: elementary("tanh", fmpq(1, 2)))


def test_analyze_documents_typeset_the_irrational_t_and_epsilon_for_delta(rr, capsys):
    md = _run(capsys, "analyze", rr, "--eps", "0.5", "--format", "markdown")
    assert r"| $\eta_{E_\gamma}(K)$ at $\gamma = e^{\frac{1}{2}}$ | $\frac{3}{4} - \frac{e^{\frac{1}{2}}}{4}$ |" in md
    md = _run(capsys, "analyze", rr, "--delta", "1/10", "--format", "markdown")
    assert r"| least $\varepsilon$ with $\delta(e^\varepsilon) \le 1/10$ | $\log{\left(\frac{13}{5} \right)}$ |" in md
    assert "| its certified decimal (12 digits) | 0.955511445027 |" in md
