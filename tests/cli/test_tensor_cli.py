"""``exactdp tensor``: exact values of K^{⊗n} from the command line."""

import json

from exactdp.cli import main
from tests.exact import assert_rounds


def _kernel(tmp_path, rows):
    path = tmp_path / "K.json"
    path.write_text(json.dumps(rows))
    return str(path)


def test_tensor_json_values(tmp_path, capsys):
    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "3", "--t", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)["result"]
    # binary RR at e^eps0 = 3, n = 3, t = 2: delta = eta_E_2(K) = 1/4, phi^3(2, 1/4) = 1 - (1/8)(3/4)^3
    assert (out["eta_tv"], out["eta_e_t"], out["delta"], out["phi_n"]) == ("11/16", "17/32", "1/4", "485/512")
    assert out["t"] == "2" and out["eta_tv_le_phi_n"] is True
    assert out["eta_tv_maximizer"] == [{"x": 0, "x_prime": 1, "count": 3}]
    assert out["delta_n_at_t_n"] == "19/64" and out["composition_bound"] == "37/64"  # 1 - (3/4)^3


def test_tensor_text_and_mixed_maximizer(tmp_path, capsys):
    path = _kernel(tmp_path, [["2/9", "7/9"], ["1/2", "1/2"]])
    assert main(["tensor", path, "--n", "3"]) == 0
    text = capsys.readouterr().out
    assert "eta_TV(K^(x n)) = 5/12" in text
    assert "1 x (0,1)" in text and "2 x (1,0)" in text


def test_tensor_large_n_is_rounded_in_text(tmp_path, capsys):
    from fractions import Fraction

    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "1000", "--t", "2", "--format", "json"]) == 0
    exact = Fraction(json.loads(capsys.readouterr().out)["result"]["eta_tv"])
    gap = 1 - exact  # about 1.7e-64: the text shows 12 cut (not rounded) digits of it
    e = len(str(gap.denominator)) - len(str(gap.numerator))
    e = e if gap * 10**e >= 1 else e + 1
    mantissa = str(int(gap * 10 ** (e + 11)))
    assert main(["tensor", path, "--n", "1000", "--t", "2"]) == 0
    digits = len(str(exact.numerator)) + len(str(exact.denominator))
    line = (f"eta_TV(K^(x n)) = 1 - {mantissa[0]}.{mantissa[1:]}…e-{e:02d} ({digits:,} digits; exact value in "
            f"--format json)").replace(",", " ")
    assert line in capsys.readouterr().out


def test_tensor_bad_input_exits_2(tmp_path, capsys):
    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "0"]) == 2
    assert "n: must be a positive integer" in capsys.readouterr().err
    assert main(["tensor", path, "--n", "2", "--t", "0.5"]) == 2
    assert "--t: t = e^eps must be >= 1" in capsys.readouterr().err
    assert main(["tensor", path, "--n", "2", "--gamma", "2"]) == 2  # gamma never means e^eps: no such flag
    assert "unrecognized arguments: --gamma" in capsys.readouterr().err


def test_tensor_eps_prints_exact_expression(tmp_path, capsys):
    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "2", "--eps", "1/2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["delta_n_at_exp_eps"] == "9/16 - exp(1/2)/16"


def test_tensor_long_irrational_value_is_abbreviated(tmp_path, capsys):
    import sympy

    from exactdp.numbers.digits import evalf
    from exactdp.numbers.reader import read_expression

    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "1000", "--eps", "1/2", "--format", "json"]) == 0
    exact_text = json.loads(capsys.readouterr().out)["result"]["delta_n_at_exp_eps"]
    exact = read_expression(exact_text, name="test")  # A - B*exp(1/2) with integers of ~1000 digits
    assert exact.has(sympy.exp(sympy.Rational(1, 2))) and len(exact_text) > 2000
    assert main(["tensor", path, "--n", "1000", "--eps", "1/2"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("delta_n(e^(1/2))"))
    gap = evalf(sympy.expand(1 - exact), 12)  # 1 - delta_n(e^(1/2)), about 2e-64
    assert line.strip() == (f"delta_n(e^(1/2)) = 1 - ≈ {gap} (correctly rounded; exact form of "
                            f"{len(exact_text):,} characters in --format json)".replace(",", " "))


def _epsilon_json(capsys, path, n, delta):
    from exactdp.cli import main

    assert main(["tensor", path, "--n", str(n), "--delta", delta, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)["result"]["epsilon_for_delta"]


def test_tensor_delta_alone_gives_exact_epsilon_against_explicit_power(tmp_path, capsys):
    """``--delta D`` alone: t* is the least t with delta_n(t) <= D, checked on the explicit K^(x n)
    (all 2^n x 2^n input pairs): E_t* <= D there and E_t > D just below t*."""
    from flint import fmpq

    from exactdp import Kernel
    from exactdp.measures.contraction import eta_hockey_stick

    rows = [["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]]
    path = _kernel(tmp_path, rows)
    inv = _epsilon_json(capsys, path, 4, "1/10")
    t = fmpq(*map(int, inv["t_star"].split("/")))
    assert inv["epsilon"] == f"log({inv['t_star']})" and inv["delta"] == "1/10"
    big = Kernel(rows).tensor_power(4)
    assert eta_hockey_stick(big, t) <= fmpq(1, 10) < eta_hockey_stick(big, t - fmpq(1, 10**6))
    assert sum(m["count"] for m in inv["maximizer"]) == 4
    assert main(["tensor", path, "--n", "4", "--delta", "1/10"]) == 0
    text = capsys.readouterr().out
    assert (f"least eps with delta_n(e^eps) <= 1/10: eps = log({t}) ≈ {inv['decimal']}, t* = e^eps = {t} (exact;"
            in text)
    from flint import arb

    assert_rounds(inv["decimal"], lambda: arb(t).log())
    assert len(inv["decimal"].replace(".", "").lstrip("0")) == 12


def test_tensor_delta_alone_below_the_p_only_floor(tmp_path, capsys):
    # column 3 has mass only under row 1: delta_3 >= 1 - (1/2)^3 = 7/8 for every eps, so no finite eps reaches 1/10
    path = _kernel(tmp_path, [["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"]])
    inv = _epsilon_json(capsys, path, 3, "1/10")
    assert (inv["t_star"], inv["epsilon"]) == (None, "inf")
    assert inv["maximizer"] == [{"x": 1, "x_prime": 0, "count": 3}]
    assert _epsilon_json(capsys, path, 3, "7/8")["t_star"] == "1"  # the floor itself is reached at eps = 0


def test_tensor_delta_alone_bad_input_exits_2(tmp_path, capsys):
    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "2", "--delta", "2"]) == 2
    err = capsys.readouterr().err
    assert "--delta: must lie in [0, 1], got '2'" in err and len(err.strip().splitlines()) == 1
    assert main(["tensor", path, "--n", "2", "--delta", "1/4", "--eps", "1/2"]) == 2
    assert "--delta: with --eps, e^eps must be rational" in capsys.readouterr().err


def test_tensor_reports_the_compositions_the_filter_ruled_out(tmp_path, capsys):
    # asymmetric 2x2 at n = 200: 201 compositions, the certified filter leaves one exact evaluation and rules out
    # 199 (the last is the reverse of the evaluated one at gamma = 1); the unfiltered search evaluates them all
    import pytest

    jsonschema = pytest.importorskip("jsonschema")
    from importlib import resources

    path = _kernel(tmp_path, [["1/2", "1/2"], ["1/4", "3/4"]])
    assert main(["tensor", path, "--n", "200"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head == ("K: 2x2, n = 200: 2 pair classes, 1 exact evaluations, 199 compositions ruled out by the "
                    "certified filter")
    assert main(["tensor", path, "--n", "200", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = json.loads((resources.files("exactdp") / "schemas" / "tensor.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert (doc["result"]["evaluations"], doc["result"]["discarded"]) == (1, 199)
    rr = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])  # one pair class: the filter does not run
    assert main(["tensor", rr, "--n", "5", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["discarded"] == 0


def test_tensor_3x3_at_n_1000_answers_epsilon_with_eta_tv_enclosed(tmp_path, capsys):
    # issue 24: a 3×3 kernel at n = 1000 (every ordered row pair); the exact η_TV search is over max_work, so η_TV is
    # a certified enclosure (η_TV ≥ the homogeneous composition's exact value, ≤ 1) and ε for δ = 10^-6 is exact
    path = _kernel(tmp_path, [["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/2", "1/6"]])
    assert main(["tensor", path, "--n", "1000", "--delta", "1e-6", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    from fractions import Fraction

    assert r["eta_tv"] is None
    lo, hi = Fraction(r["eta_tv_enclosure"]["lower"]), Fraction(r["eta_tv_enclosure"]["upper"])
    assert 1 - Fraction(1, 10**12) < lo <= hi <= 1 and hi - lo <= lo / 10**6
    inv = r["epsilon_for_delta"]
    from exactdp.kernels import Kernel
    from exactdp.measures.tensor import TensorSearch

    # the exact t* of the maximizing homogeneous composition: E_{t*} = 10^-6 exactly there, below it above
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"], ["1/3", "1/2", "1/6"]])
    S = TensorSearch([(K, 1000)])
    t_star = Fraction(inv["t_star"])
    from flint import fmpq

    counts = [0] * len(S.classes)
    (m,) = inv["maximizer"]
    index = next(i for i, c in enumerate(S.classes) if (c.x, c.x_prime) == (m["x"], m["x_prime"]))
    counts[index] = 1000
    assert S.hockey_stick(tuple(counts), fmpq(t_star.numerator, t_star.denominator)) == fmpq(1, 10**6)
    assert 420 < float(inv["decimal"][:12]) < 430


def test_tensor_delta_alone_names_a_long_t_star_instead_of_printing_it(tmp_path, capsys):
    """``--delta D`` alone where t* has 75 digits (binary RR at n = 100, δ = 10⁻⁶): the text line says
    eps = log t* with its decimal and shows t* abbreviated, once; the exact t* is in --format json, and
    eps's decimal is log of that exact t*."""
    from flint import arb, fmpq

    path = _kernel(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]])
    inv = _epsilon_json(capsys, path, 100, "1/1000000")
    assert len(inv["epsilon"]) > 60 and inv["epsilon"] == f"log({inv['t_star']})"
    t = fmpq(*map(int, inv["t_star"].split("/"))) if "/" in inv["t_star"] else fmpq(int(inv["t_star"]))
    assert_rounds(inv["decimal"], lambda: arb(t).log())
    assert main(["tensor", path, "--n", "100", "--delta", "1/1000000"]) == 0
    line = next(s for s in capsys.readouterr().out.splitlines() if "least eps" in s)
    assert f"eps = log t* ≈ {inv['decimal']}, t* = e^eps = " in line and "(75 digits; exact value in --format json)" in line
    assert inv["t_star"][:20] not in line and len(line) < 250



def test_tensor_delta_alone_answers_epsilon_where_eta_tv_is_refused(tmp_path, capsys):
    # seed 1 of the random 2×4 pairs at n = 100: E_1 is flat over the compositions, so the filter leaves the middle
    # ones (mixed products of two four-class losses, over max_work as type classes) and η_TV is refused, exactly and
    # as an enclosure; that failed the whole command (exit 2) although ε for δ has its own route.  With --delta alone
    # η_TV is now reported as not computed, with the limit, and ε is answered exactly
    import jsonschema
    from importlib import resources

    path = _kernel(tmp_path, [["1/4", "1/6", "5/12", "1/6"], ["8/31", "8/31", "8/31", "7/31"]])
    assert main(["tensor", path, "--n", "100", "--delta", "1e-6", "--format", "json", "--no-progress"]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = json.loads((resources.files("exactdp") / "schemas" / "tensor.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    r = doc["result"]
    assert r["eta_tv"] is None and "max_work" in r["eta_tv_refused"] and "eta_tv_enclosure" not in r
    assert r["epsilon_for_delta"]["decimal"].startswith("23.5930641121")
    assert r["epsilon_for_delta"]["maximizer"] == [{"x": 0, "x_prime": 1, "count": 100}]
    assert main(["tensor", path, "--n", "100", "--delta", "1e-6", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "eta_TV(K^(x n)) not computed: " in text and "eta_TV maximizer" not in text
    # with --t the command compares η_TV with φⁿ, so it still refuses (one line, exit 2)
    assert main(["tensor", path, "--n", "100", "--t", "2", "--no-progress"]) == 2


def test_tensor_an_exact_enclosure_of_eta_tv_names_no_maximizer(tmp_path, capsys):
    # a 2×5 pair at n = 100: the exact η_TV search is over the limits and the enclosure is a point (exact, 598 digits);
    # it has no maximizer, which the text called "none (identical rows)"
    path = _kernel(tmp_path, [["7/29", "7/29", "1/29", "5/29", "9/29"], ["8/34", "7/34", "5/34", "8/34", "6/34"]])
    assert main(["tensor", path, "--n", "100", "--delta", "1e-6", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "eta_TV(K^(x n)) = 0.989517306407" in text and "identical rows" not in text
    assert "eps = log t* ≈ 45.1762833780" in text
