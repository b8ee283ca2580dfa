"""``exactdp evalf``: guaranteed digits from the command line; bad input is one line and exit 2."""

from __future__ import annotations

import mpmath
import pytest

from exactdp.cli import main


@pytest.mark.parametrize(
    "expr, digits, expected",
    [
        ("exp(0.5)", 25, "1.648721270700128146848651"),
        ("exp(5000)", 10, "2.967628384e+2171"),
        ("log(6) - log(2) - log(3)", 30, "0"),
        ("1e-300 * 3", 3, "3.00e-300"),
        ("2^(1/3)", 20, None),
    ],
)
def test_evalf_prints_certified_digits(capsys, expr, digits, expected):
    assert main(["evalf", expr, "--digits", str(digits)]) == 0
    out = capsys.readouterr().out.strip()
    if expected is None:
        with mpmath.workdps(60):
            expected = mpmath.nstr(mpmath.cbrt(2), digits, strip_zeros=False)
    assert out == expected


@pytest.mark.parametrize(
    "argv, message",
    [
        (["evalf", "__import__('os')"], "unexpected character"),
        (["evalf", "x + 1"], "unknown name 'x'"),
        (
            ["evalf", "exp(1/2) - 1.64872127070012814684865078781416357165377610071", "--max-prec", "64"],
            "not certified",
        ),
    ],
)
def test_evalf_bad_or_undecided_input(capsys, argv, message):
    assert main(argv) == (3 if message == "not certified" else 2)  # undecided: exit 3, bad input: exit 2 (issue 13)
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
