"""Cost guards, second round: every size of a hostile input is estimated before work (the registry's
integer parameters, the Rényi order, sympy's simplify, the conjecture search's budget × size, the degree of
kernel entries, plot titles and ranges), nothing of an unbounded size reaches GMP, and bad input is one line
with exit 2 instead of an internal error.  Every guard refuses before work, so each case is fast."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy

from exactdp import bounds, evalf, kl, renyi
from exactdp.cli import main
from exactdp.errors import InputError, ParameterError
from exactdp.io import kernel_from_text
from exactdp.limits import ResourceLimitError, limits
from exactdp.numbers.exact_zero import is_zero
from exactdp.numbers.reader import ReadError, read_expression, substitute
from exactdp.numbers.truth import Truth
from exactdp.verification.claims import load_claims
from exactdp.verification.conjecture.api import check

RR = [["3/4", "1/4"], ["1/4", "3/4"]]


def _one_line(capsys, *needles):
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


def _file(tmp_path, doc, name="K.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


# -- integers of the registry: n = 10^18 ----------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["bound", "phi_n", "--n", "10^18", "--t", "2", "--delta", "1/10"],
    ["bound", "composition_delta", "--n", "10^18", "--delta", "1/10"],
    ["bound", "xu_raginsky_private", "--n", "10^18", "--t", "2", "--delta", "1/10", "--at", "I=1,L=1/2,zeta=1"],
])
def test_bound_cli_refuses_huge_powers(capsys, argv):
    assert main(argv) == 2
    _one_line(capsys, "max_integer_digits", "EXACTDP_MAX_INTEGER_DIGITS", argv[1])


def test_exact_value_of_a_huge_power_is_refused_before_it_is_built():
    with pytest.raises(ReadError, match="max_integer_digits"):
        bounds.get("phi_n").evaluate(n=10**18, t=2, delta="1/10")
    with pytest.raises(ReadError, match="max_integer_digits"):
        bounds.get("composition_delta").evaluate(n=10**18, delta="1/10")
    with pytest.raises(ReadError, match="max_integer_digits"):  # sqrt(2)^(10^18) would be 2^(5*10^17)
        bounds.get("phi_n").evaluate(n=10**18, t=sympy.sqrt(2), delta=0)


def test_evalf_of_a_huge_power_uses_the_evaluation_form():
    # 1 - (9/20)^(10^18): certified balls of -expm1(n (log1p(-delta) - eps)), no exact value built
    assert bounds.get("phi_n").evalf(8, n=10**18, t=2, delta="1/10") == "1.0000000"
    # 1 - (1 - 10^-20)^(10^18) = 1 - e^(-1/100 + ...) = 0.00995016...
    assert bounds.get("composition_delta").evalf(6, n=10**18, delta="1/10^20") == "0.00995017"


def test_powers_of_exponentials_stay_symbolic():
    # t = e^(10^18): 1/t is exp(-10^18), an exact expression of a few characters (nothing of its size is built)
    value = bounds.get("phi").evaluate(eps=10**18, delta=0)
    assert value == 1 - sympy.exp(-(10**18))
    assert bounds.get("phi").evalf(6, eps=10**18, delta=0) == "1.00000"
    assert bounds.get("phi_n").evaluate(n=10**18, eps=1, delta=0) == 1 - sympy.exp(-(10**18))


def test_small_powers_are_still_exact():
    assert bounds.get("composition_delta").evaluate(n=3, delta="1/2") == sympy.Rational(7, 8)
    assert bounds.get("composition_delta").evalf(5, n=3, delta="1/2") == "0.87500"
    n = sympy.Symbol("n")
    with limits(max_integer_digits=50):
        assert substitute(sympy.Integer(2) ** n, {n: sympy.Integer(100)}) == 2**100
        with pytest.raises(ReadError, match="max_integer_digits = 50"):
            substitute(sympy.Integer(2) ** n, {n: sympy.Integer(200)})


# -- the Rényi order, kl of tiny masses --------------------------------------------------------------------

def test_renyi_order_is_estimated():
    with pytest.raises(ResourceLimitError, match="max_integer_digits.*EXACTDP_MAX_INTEGER_DIGITS"):
        renyi(["1/2", "1/2"], ["1/4", "3/4"], 10**9)
    assert renyi(["1/2", "1/2"], ["1/4", "3/4"], 2) == sympy.log(sympy.Rational(4, 3))
    assert renyi(["1/2", "1/2"], ["1/4", "3/4"], 1000) is not None  # a 10^3-bit sum: under the limit


def test_kl_of_a_5000_digit_mass_prints():
    tiny = Fraction(1, 10**5000)
    value = kl([tiny, 1 - tiny], ["1/2", "1/2"])
    text = str(value)  # Python's 4300-digit int/str guard is lifted by exactdp
    assert len(text) > 5000 and "5" + "0" * 4999 in text  # log(5*10^4999) appears whole
    assert evalf(value, 10) == "0.6931471806"  # log 2 minus a 10^-4996-sized entropy


# -- sympy.simplify in the exact zero test -----------------------------------------------------------------

def test_simplify_is_not_tried_on_huge_rationals():
    expr = sympy.sin(1) ** 2 + sympy.cos(1) ** 2 - 1 - sympy.Rational(1, 10**1000)
    truth, reason = is_zero(expr)
    assert truth is Truth.UNKNOWN, reason
    assert is_zero(sympy.sin(1) ** 2 + sympy.cos(1) ** 2 - 1)[0] is Truth.TRUE  # small: still an identity


def test_evalf_of_the_simplify_bomb_is_undecided_not_endless(capsys):
    assert main(["evalf", "sqrt(sin(1)^2+cos(1)^2-1-10^-1000)"]) == 3  # UNKNOWN, said as such
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "undecided" in err, err


# -- the conjecture search: budget x size, huge coefficients in exp --------------------------------------

def test_check_budget_times_size_is_estimated():
    with pytest.raises(ResourceLimitError, match="5 x 5.*max_work"):
        check("eta_tv <= 1", N=5, M=5, budget=100_000)


def test_check_cli_budget_refused(capsys):
    assert main(["check", "eta_tv <= 1", "--N", "5", "--M", "5", "--budget", "100000"]) == 2
    _one_line(capsys, "max_work", "budget = 100000")


@pytest.mark.parametrize("text", ["exp(10^12*eta_tv) <= 2", "2^(10^12*eta_tv) <= 2", "exp(eta_tv*exp(30)) <= 2"])
def test_check_refuses_huge_numbers_in_symbolic_exponents(capsys, text):
    assert main(["check", text]) == 2
    _one_line(capsys, "max_exp_argument")


def test_reader_symbolic_exponent_guard():
    x = sympy.Symbol("x")
    with pytest.raises(ReadError, match="max_exp_argument"):
        read_expression("exp(10^7*x)", symbols={"x": x})
    assert read_expression("exp(10^5*x)", symbols={"x": x}) == sympy.exp(100000 * x)


def _limit_memory():  # the acceptance's `ulimit -v 8000000` (kB)
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (8_000_000 * 1024, 8_000_000 * 1024))


@pytest.mark.parametrize("argv,limit", [
    (["check", "exp(10^12*eta_tv) <= 2"], "max_exp_argument"),  # aborted the interpreter in GMP (exit 134)
    (["bound", "phi_n", "--n", "10^18", "--t", "2", "--delta", "1/10"], "max_integer_digits"),
    (["check", "eta_tv <= 1", "--N", "5", "--M", "5", "--budget", "100000"], "max_work"),
    (["verify", "--claims", "venv", "--list"], "exactdp.claims"),
])
def test_cli_cases_exit_2_with_one_line_in_a_subprocess(argv, limit):
    proc = subprocess.run([sys.executable, "-m", "exactdp", *argv], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and limit in proc.stderr, proc.stderr


# -- degrees of kernel entries ----------------------------------------------------------------------------

def test_kernel_entry_degree_is_refused(tmp_path, capsys):
    doc = {"parameters": {"t": "positive"},
           "rows": [["t^10000/(t^10000+1)", "1/(t^10000+1)"], ["1/2", "1/2"]]}
    assert main(["derive", "--file", _file(tmp_path, doc)]) == 2
    _one_line(capsys, "max_degree", "EXACTDP_MAX_DEGREE")


def test_degree_estimate():
    t = sympy.Symbol("t")
    with pytest.raises(ReadError, match="max_degree"):
        read_expression("t^60*t^60", symbols={"t": t})
    with pytest.raises(ReadError, match="max_degree"):
        read_expression("(t+1)^101", symbols={"t": t})
    assert read_expression("t^50/(t^50+1)", symbols={"t": t}) == t**50 / (t**50 + 1)
    with limits(max_degree=200):
        assert read_expression("(t+1)^150", symbols={"t": t}) == (t + 1) ** 150


# -- plots -----------------------------------------------------------------------------------------------

def test_plot_title_length_refused(tmp_path, capsys):
    assert main(["plot", "profile", _file(tmp_path, RR), "--title", "a" * 100_000, "-o", str(tmp_path / "p.png")]) == 2
    _one_line(capsys, "max_title_length")
    assert not (tmp_path / "p.png").exists()


def test_plot_title_with_bad_mathtext_is_plain_text(tmp_path, capsys):
    """A --title that is not valid mathtext used to end as an internal error; titles are text (every $ is
    escaped), so the plot is written."""
    assert main(["plot", "profile", _file(tmp_path, RR), "--title", r"$\foo$", "-o", str(tmp_path / "p.svg")]) == 0
    assert "internal error" not in capsys.readouterr().err
    assert (tmp_path / "p.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


@pytest.mark.parametrize("argv,limit", [
    (["--to", "10^100", "--points", "100"], "max_exp_argument"),
    (["--vs", "t", "--to", "10^100", "--points", "10000"], "max_work"),
])
def test_plot_bound_range_and_points(tmp_path, capsys, argv, limit):
    assert main(["plot", "bound", "phi", "--delta", "0", *argv, "-o", str(tmp_path / "p.png")]) == 2
    _one_line(capsys, limit)


# -- bad input that was an internal error -------------------------------------------------------------------

def test_csv_field_over_the_csv_limit(tmp_path, capsys):
    path = _file(tmp_path, "a" * 140_000 + ",1\n1,1\n", "big.csv")
    assert main(["analyze", path]) == 2
    _one_line(capsys, "CSV", "max_text_length")
    with pytest.raises(InputError, match="CSV"):
        kernel_from_text("a" * 140_000 + ",1", "csv")


@pytest.mark.parametrize("name", ["../../etc", "venv", "os", "exactdp", "exactdp_proofs..x"])
def test_claims_only_from_registered_packages(capsys, name):
    assert main(["verify", "--claims", name, "--list"]) == 2
    _one_line(capsys, "claims")
    with pytest.raises(ParameterError, match="claims"):
        load_claims((name,))
    assert "venv.__main__" not in sys.modules


def test_registered_claim_subpackage_still_loads():
    registry = load_claims(("exactdp_proofs.findings",))
    assert any(k.startswith("findings.") for k in registry)


# -- recheck: sizes before parsing ------------------------------------------------------------------------

def _named(d):
    """``d`` with the name its data give (a certificate's name is derived, so a crafted one must carry it)."""
    from exactdp.claim_statement import certificate_name

    return {**d, "name": certificate_name(d)}


def _statement(lhs, rhs):
    return _named({"kind": "symbolic-statements", "scope": "all parameters", "parameters": ["x", "a", "b", "c", "d"],
                   "region": [], "statements": [["s", lhs, "==", rhs, []]]})


@pytest.mark.parametrize("lhs,rhs", [("(x+1)^10000", "(x+2)^10000"), ("(a+b+c+d+1)^200", "0")])
def test_recheck_refuses_high_degrees_before_expanding(lhs, rhs):
    from exactdp.recheck import REJECTED, recheck_certificate

    r = recheck_certificate(_statement(lhs, rhs))
    assert r.status == REJECTED and "max_degree" in r.line(), r.line()


def test_recheck_counts_lp_entries_before_reading_them():
    from exactdp.recheck import REJECTED, recheck_certificate

    bad = "not a number ("  # reading any entry would reject the certificate as unreadable
    lp = _named({"kind": "lp-point", "scope": "all parameters", "c": [bad] * 20, "A_ub": [[bad] * 20] * 20,
                 "b_ub": [bad] * 20, "x": [bad] * 20, "y_ub": [bad] * 20, "value": "0"})
    with limits(max_entries=100):
        r = recheck_certificate(lp)
    assert r.status != REJECTED and "max_entries" in r.line(), r.line()
    r = recheck_certificate(lp)
    assert r.status == REJECTED and "unreadable" in r.line()


# -- tensor at an irrational t ------------------------------------------------------------------------------

def test_tensor_irrational_t_prints_delta_n(tmp_path, capsys):
    path = _file(tmp_path, RR)
    assert main(["tensor", path, "--n", "3", "--t", "exp(1)", "--format", "json"]) == 0
    by_t = json.loads(capsys.readouterr().out)["result"]
    assert main(["tensor", path, "--n", "3", "--eps", "1", "--format", "json"]) == 0
    by_eps = json.loads(capsys.readouterr().out)["result"]
    assert by_t["delta_n_at_exp_eps"] == by_eps["delta_n_at_exp_eps"] == "27/32 - 5*E/32"


def test_recheck_never_hands_a_large_difference_to_simplify():
    """sympy's simplify has no bound: a certificate whose identity is a large non-rational difference is
    UNDECIDED naming max_simplify_ops, instead of a run of minutes; a small one is still simplified."""
    import sympy

    from exactdp.recheck import Recheck, _identity

    x, y = sympy.Symbol("x"), sympy.Symbol("y")  # no assumptions: sqrt((x+k) y) is kept as it is
    big = sympy.Add(*[sympy.sqrt((x + k) * y) - sympy.sqrt(x + k) * sympy.sqrt(y) for k in range(1, 80)])
    r = Recheck("bomb", "symbolic-statements")
    _identity(big, r, "identity")
    assert r.status != "OK" and any("max_simplify_ops" in t for t in r.trusted)
    small = Recheck("small", "symbolic-statements")
    _identity(sympy.sqrt(x * y) - sympy.sqrt(x) * sympy.sqrt(y), small, "identity", positive=(x, y))
    assert small.status == "OK"
