"""The shared CLI vocabulary (exactdp.cli._common): exact t from --eps/--t, display of exact values, tables."""

from __future__ import annotations

import argparse
import io
import sys

import pytest
import sympy
from flint import fmpq

from exactdp.cli import _common
from exactdp.errors import ParameterError


def _args(**kw):
    return argparse.Namespace(**{"t": None, "eps": None, **kw})


def test_read_t_exact():
    assert _common.read_t(_args(t="5/2")) == sympy.Rational(5, 2)
    assert _common.read_t(_args(eps="log(3)"), rational=True) == 3  # exp(log 3) is exactly 3
    assert _common.read_t(_args(eps="1/2")) == sympy.exp(sympy.Rational(1, 2))
    assert _common.read_t(_args()) is None


@pytest.mark.parametrize("kw, words", [({"eps": "1/2"}, "--eps: this command needs a rational"),
                                       ({"t": "1/2"}, "--t: t = e^eps must be >= 1"),
                                       ({"eps": "-1"}, "--eps: must be a real number >= 0")])
def test_read_t_refusals(kw, words):
    with pytest.raises(ParameterError, match=words.replace("^", r"\^")):
        _common.read_t(_args(**kw), rational=True)


def test_math_text():
    t, c, N = sympy.symbols("t c N", positive=True)
    assert _common.math_text(sympy.Eq(t, 1 / (4 * c))) == "4·c·t = 1"
    assert _common.math_text(t <= 1 / (4 * c)) == "t ≤ 1/(4·c)"
    assert _common.math_text(sympy.Piecewise((t, t < 2), (1, True))) == "{t if t < 2; 1 otherwise}"
    assert _common.math_text([fmpq(1, 2), fmpq(3)]) == "(1/2, 3)"
    assert _common.math_text(2 * t**2) == "2·t^2"


def test_truncated_decimal_is_cut_not_rounded():
    assert _common._truncated_decimal(fmpq(2, 3), 5) == "0.66666…"
    assert _common._truncated_decimal(fmpq(1, 8), 5) == "0.125"
    assert _common._truncated_decimal(fmpq(-7, 4), 5) == "-1.75"
    assert _common._truncated_decimal(fmpq(1, 3 * 10**9), 4) == "3.333…e-10"
    assert _common._truncated_decimal(fmpq(10**20 + 1), 4) == "1.000…e+20"


def test_abbreviate_long_rationals():
    a, b = 3**2000, 2**3172  # q = a/b is about 0.23, 1 909 digits: 12 cut digits and the digit count
    q = fmpq(a, b)
    digits = len(str(a)) + len(str(b))
    assert b < 10 * a < 10 * b  # 10^-1 <= q < 1
    mantissa = str(a * 10**12 // b)
    assert len(mantissa) == 12
    expected = f"0.{mantissa}… ({digits:,} digits; exact value in --format json)".replace(",", " ")
    assert _common.abbreviate(q) == expected
    near_one = fmpq(3**2000, 3**2000 + 7)  # 0.999…: the complement's digits are shown instead
    assert _common.abbreviate(near_one).startswith("1 - ")
    assert _common.abbreviate(near_one).split(" (")[0] == "1 - " + _common._truncated_decimal(1 - near_one, 12)
    assert _common.abbreviate(fmpq(3, 7)) == "3/7"


def test_table_fits_width_by_wrapping():
    rows = [["claim", "title"], ["a.b", "word " * 30]]
    out = _common.table(rows, wrap=(1,), width=40)
    assert max(len(line) for line in out.splitlines()) <= 40
    assert " ".join(out.split()).count("word") == 30  # nothing lost


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_only(monkeypatch):
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: nothing drawn
    with _common.progress(argparse.Namespace(no_progress=False), 3, "work") as bar:
        bar.advance()
    assert sys.stderr.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", quiet)
    with _common.progress(argparse.Namespace(no_progress=True), 3, "work") as bar:  # --no-progress
        bar.advance()
    assert quiet.getvalue() == ""
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    with _common.progress(argparse.Namespace(no_progress=False), 3, "work") as bar:
        for _ in range(3):
            bar.advance()
    drawn = tty.getvalue()
    assert "work" in drawn and "elapsed" in drawn and "ETA" in drawn and "3/3" in drawn


def test_math_text_fractions_and_powers():
    t, c = sympy.symbols("t c", positive=True)
    assert _common.math_text(1 - 1 / sympy.exp(sympy.Rational(1, 2))) == "1 - 1/exp(1/2)"
    assert [_common.math_text(e) for e in (1 / t**2, 2 / t**3, 1 / (4 * c), (t - 1) / (t + 1))] == \
        ["1/t^2", "2/t^3", "1/(4·c)", "(t - 1)/(t + 1)"]
