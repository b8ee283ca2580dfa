"""The bounded memo of pure answers (exactdp.numbers.memo) and the reader's use of it: a text read once is given
again only under the same symbols, functions, constants and limits, and a refusal is never remembered."""

from __future__ import annotations

import pytest
import sympy

from exactdp.limits import LIMITS, limits
from exactdp.numbers import reader
from exactdp.numbers.memo import Memo, limits_in_force
from exactdp.numbers.reader import ReadError, read_expression


def test_a_memo_gives_back_what_it_was_given_and_stays_bounded():
    memo: Memo[int] = Memo(size=2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert (memo.get("a"), memo.get("b"), memo.get("c"), len(memo)) == (1, 2, None, 2)
    memo.put("c", 3)  # full: emptied first, then the new entry
    assert (memo.get("a"), memo.get("c"), len(memo)) == (None, 3, 1)


def test_the_limits_in_force_are_part_of_a_key():
    before = limits_in_force()
    assert len(before) == len(LIMITS)
    with limits(max_degree=7):
        inside = limits_in_force()
    assert inside != before and 7 in inside and limits_in_force() == before


@pytest.fixture
def fresh(monkeypatch):
    memo: Memo = Memo()
    monkeypatch.setattr(reader, "_READ_MEMO", memo)
    return memo


def test_a_text_is_read_once_per_symbol_table(fresh):
    t = sympy.Symbol("t", positive=True)
    first = read_expression("(t - 1)/(t + 1)", symbols={"t": t})
    again = read_expression("(t - 1)/(t + 1)", name="other label", symbols={"t": t})
    assert first is again and first == (t - 1) / (t + 1) and len(fresh) == 1
    real = sympy.Symbol("t", real=True)  # another symbol of the same name: another reading, another value
    other = read_expression("(t - 1)/(t + 1)", symbols={"t": real})
    assert other == (real - 1) / (real + 1) and other != first and len(fresh) == 2
    assert read_expression("t < 1", symbols={"t": t}, relations=True) == sympy.StrictLessThan(t, 1)


def test_a_reading_under_larger_limits_is_not_given_under_smaller_ones(fresh):
    t = sympy.Symbol("t")
    assert read_expression("t**5", symbols={"t": t}) == t**5
    with limits(max_degree=3):
        with pytest.raises(ReadError, match="max_degree = 3"):
            read_expression("t**5", symbols={"t": t})


def test_a_refusal_is_raised_again_under_its_own_name(fresh):
    for name in ("first", "second"):
        with pytest.raises(ReadError, match=f"^{name}: "):
            read_expression("x +", name=name, symbols={"x": sympy.Symbol("x")})
    assert len(fresh) == 0
