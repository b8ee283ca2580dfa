"""``exactdp tensor FILE --n N --profile [--eps-grid A:B:K]``: the certified privacy profile from the command line
(issue 24 item 2), checked against the binomial closed form of binary randomized response."""

import json
from fractions import Fraction
from math import comb

import pytest

from exactdp.cli import main
from exactdp.cli.tensor_profile import directed

jsonschema = pytest.importorskip("jsonschema")


def _rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text('[["3/4", "1/4"], ["1/4", "3/4"]]')
    return str(path)


def delta_rr(n: int, gamma: Fraction) -> Fraction:
    """δ_n(γ) of binary RR with e^ε₀ = 3 over all input sequences (the homogeneous pair is the worst one):
    Σ_k C(n, k)·(a^k b^{n−k} − γ·b^k a^{n−k})_+, a = 3/4, b = 1/4."""
    a, b = Fraction(3, 4), Fraction(1, 4)
    return sum((comb(n, k) * max(a**k * b ** (n - k) - gamma * b**k * a ** (n - k), 0) for k in range(n + 1)),
               Fraction(0))


def test_profile_json_points_are_the_closed_form_and_validate(tmp_path, capsys):
    from importlib import resources

    assert main(["tensor", _rr(tmp_path), "--n", "6", "--profile", "--eps-grid", "0:log(9):3", "--format",
                 "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = json.loads((resources.files("exactdp") / "schemas" / "tensor.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    r = doc["result"]
    assert r["n"] == 6 and [p["eps"] for p in r["profile"]["points"]] == ["0", "log(9)/2", "log(9)"]
    for p, g in zip(r["profile"]["points"], (1, 3, 9)):  # e^eps rational: every point exact
        assert p["exact"] is True and p["gamma_lower"] == p["gamma_upper"] == str(g)
        assert Fraction(p["lower"]) == Fraction(p["upper"]) == delta_rr(6, Fraction(g))
    assert r["profile"]["points"][0]["lower"] == "203/256"
    # the envelope between the grid points holds the true value at gamma = 2 and 5 (inside the two pieces)
    for piece, g in zip(r["profile"]["pieces"], (2, 5)):
        d = delta_rr(6, Fraction(g))
        assert Fraction(piece["lower"]) <= d <= Fraction(piece["a"]) - Fraction(piece["b"]) * g
        assert Fraction(piece["b"]) >= 0


def test_profile_irrational_grid_brackets_the_value(tmp_path, capsys):
    assert main(["tensor", _rr(tmp_path), "--n", "6", "--profile", "--eps-grid", "1:2:2", "--format", "json"]) == 0
    points = json.loads(capsys.readouterr().out)["result"]["profile"]["points"]
    for p in points:  # e^1, e^2 bracketed by rationals; delta_n non-increasing, so the ends bound the exact value
        lo_g, hi_g = Fraction(p["gamma_lower"]), Fraction(p["gamma_upper"])
        assert p["exact"] is False and lo_g < hi_g and hi_g - lo_g < Fraction(1, 10**30)
        assert Fraction(p["lower"]) <= delta_rr(6, hi_g) <= delta_rr(6, lo_g) <= Fraction(p["upper"])


def test_profile_text_default_grid(tmp_path, capsys):
    assert main(["tensor", _rr(tmp_path), "--n", "8", "--profile"]) == 0
    text = capsys.readouterr().out
    # default grid: eps = log(3^m), m = j*8//8 = 0..8; delta_8(3^8) = 0 (no outcome has a larger ratio)
    assert "9 grid points" in text and "eps = log(6561) ≈ 8.78890: delta_n = 0 (exact)" in text
    assert f"eps = 0: delta_n = {delta_rr(8, Fraction(1))} (exact)" in text


@pytest.mark.parametrize("argv, message", [
    (["--eps-grid", "0:1:3"], "--eps-grid: only with --profile"),
    (["--profile", "--eps-grid", "0:1"], "--eps-grid: expected A:B:K"),
    (["--profile", "--eps-grid", "1:0:3"], "--eps-grid: A must be less than B"),
    (["--profile", "--eps-grid", "0:-1:3"], "--eps-grid: eps must be exact real numbers >= 0"),
    (["--profile", "--eps-grid", "0:1:1"], "--eps-grid: K must be"),
    (["--profile", "--t", "2"], "--profile: not with --t"),
])
def test_profile_bad_input_is_one_line_exit_2(tmp_path, capsys, argv, message):
    assert main(["tensor", _rr(tmp_path), "--n", "4", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_directed_decimals_bound_in_their_direction():
    from flint import fmpq

    assert (directed(fmpq(1, 3), False), directed(fmpq(1, 3), True)) == ("3.333333e-1", "3.333334e-1")
    assert directed(fmpq(999999999, 10**9), True) == "1.000000e0"
    assert directed(fmpq(1, 8), True) == directed(fmpq(1, 8), False) == "1.250000e-1"
    for q in (fmpq(2, 3), fmpq(10**600 + 1, 10**1125), fmpq(123456789, 7)):  # 1e-525 and large: exact comparison
        lo, hi = (_parse(s) for s in (directed(q, False), directed(q, True)))
        assert lo <= Fraction(int(q.p), int(q.q)) <= hi and hi - lo <= Fraction(int(q.p), int(q.q)) / 10**5


def _parse(text: str) -> Fraction:
    mant, exp = text.split("e")
    e = int(exp)
    return Fraction(mant) * (Fraction(10) ** e)
