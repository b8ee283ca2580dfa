"""exactdp.numbers.float_interval: every enclosure contains the exact fmpq value (random, adversarial data)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import ParameterError
from exactdp.numbers import float_interval as fi
from tests.exact import q


def _contains(v: fi.IntervalVector, exact) -> None:
    for i, x in enumerate(exact):
        lo, hi = fi.to_fmpq_bounds(v, i)
        assert lo <= x <= hi, (i, lo, x, hi)


def _rationals(rng: random.Random, m: int, bits: int = 60, signed: bool = False):
    out = []
    for _ in range(m):
        x = fmpq(rng.randrange(0, 2**bits), rng.randrange(1, 2**bits))
        out.append(-x if signed and rng.random() < 0.5 else x)
    return out


def test_from_fmpq_is_tight_and_exact_on_dyadics():
    v = fi.from_fmpq([q("1/3"), q("1/2"), q("0"), q("-5/7")])
    _contains(v, [q("1/3"), q("1/2"), q("0"), q("-5/7")])
    lo, hi = fi.to_fmpq_bounds(v, 1)
    assert lo == hi == q("1/2")
    lo, hi = fi.to_fmpq_bounds(v, 0)
    assert lo < q("1/3") < hi and (hi - lo) * 2 ** 53 < 1  # one float step around 1/3 (scale 2^1)


def test_from_fmpq_refuses_floats():
    with pytest.raises(ParameterError, match="float"):
        fi.from_fmpq([0.5])


def test_tiny_and_huge_values_use_the_exponent():
    tiny = fmpq(1, 3 * 2**40000)
    v = fi.from_fmpq([tiny])
    assert v.exp < -39990
    _contains(v, [tiny])
    lo, hi = fi.to_fmpq_bounds(v)
    assert 0 < lo and (hi - lo) / tiny < fmpq(1, 2**51)
    sq = fi.mul(v, v)
    _contains(sq, [tiny * tiny])
    huge = fmpq(7 * 2**5000, 3)
    _contains(fi.mul(fi.from_fmpq([huge]), v), [huge * tiny])


@pytest.mark.parametrize("seed", range(5))
def test_arithmetic_encloses_exact_values(seed):
    rng = random.Random(seed)
    xs, ys = _rationals(rng, 40, signed=True), _rationals(rng, 40, signed=True)
    a, b = fi.from_fmpq(xs), fi.from_fmpq(ys)
    _contains(fi.add(a, b), [x + y for x, y in zip(xs, ys)])
    _contains(fi.sub(a, b), [x - y for x, y in zip(xs, ys)])
    _contains(fi.mul(a, b), [x * y for x, y in zip(xs, ys)])
    ps, pq = _rationals(rng, 40), [y + 1 for y in _rationals(rng, 40)]
    _contains(fi.div(fi.from_fmpq(ps), fi.from_fmpq(pq)), [x / y for x, y in zip(ps, pq)])
    _contains(fi.scale(a, q("7/3")), [x * q("7/3") for x in xs])


def test_underflow_stays_rigorous():
    # products far below the least subnormal of the vector's scale: lo = 0, hi > 0, still enclosing
    xs = [fmpq(1), fmpq(1, 2**600), fmpq(3, 2**1070)]
    a = fi.from_fmpq(xs)
    sq = fi.mul(a, a)
    _contains(sq, [x * x for x in xs])
    assert sq.lo[2] == 0 and sq.hi[2] > 0
    s = fi.sum_nonneg(sq)
    _contains(s, [sum(x * x for x in xs)])


def test_mixed_exponents_add():
    big, small = fi.from_fmpq([q("3/7")]), fi.from_fmpq([fmpq(5, 2**3000)])
    _contains(fi.add(big, small), [q("3/7") + fmpq(5, 2**3000)])
    _contains(fi.add(small, small), [fmpq(10, 2**3000)])


@pytest.mark.parametrize("m", [1, 2, 17, 1000, pytest.param(20_000, marks=pytest.mark.slow)])  # 20 000: the 1000 case, longer
def test_long_sums_and_prefix_sums(m):
    rng = random.Random(m)
    xs = [fmpq(rng.randrange(1, 2**50), rng.randrange(1, 2**50)) for _ in range(m)]
    v = fi.from_fmpq(xs)
    exact = sum(xs, fmpq(0))
    _contains(fi.sum_nonneg(v), [exact])
    lo, hi = fi.to_fmpq_bounds(fi.sum_nonneg(v))
    assert (hi - lo) / exact < fmpq(4 * m + 8, 2**53)  # the a-priori bound is tight enough to be useful
    c = fi.cumsum_nonneg(v)
    prefix, acc = [], fmpq(0)
    for x in xs:
        acc += x
        prefix.append(acc)
    idx = sorted({0, m // 3, m // 2, m - 1})
    for i in idx:
        lo, hi = fi.to_fmpq_bounds(c, i)
        assert lo <= prefix[i] <= hi


def test_adversarial_sum_cancellation_free_but_ill_scaled():
    # one large term and many tiny ones: the tiny ones are lost in fl, the bound must still cover them
    xs = [fmpq(1)] + [fmpq(1, 2**60)] * 5000
    _contains(fi.sum_nonneg(fi.from_fmpq(xs)), [fmpq(1) + fmpq(5000, 2**60)])


def test_sums_refuse_negative_entries():
    with pytest.raises(ParameterError, match=">= 0"):
        fi.sum_nonneg(fi.from_fmpq([q("-1/2")]))


def test_binomial_recursion_encloses_exact_pmf():
    # the filter's use: pmf of Bin(k, p) built by k steps of (1 - p, p) convolution, compared with exact
    p = q("1/3")
    P, Qm = fi.from_fmpq([p]), fi.from_fmpq([1 - p])
    v = fi.exact_floats([1.0])
    exact = [fmpq(1)]
    for _ in range(300):
        z = fi.exact_floats([0.0])
        left = fi.IntervalVector(np.concatenate([v.lo, z.lo]), np.concatenate([v.hi, z.hi]), v.exp)
        right = fi.IntervalVector(np.concatenate([z.lo, v.lo]), np.concatenate([z.hi, v.hi]), v.exp)
        v = fi.add(fi.mul(left, Qm), fi.mul(right, P))
        exact = [a * (1 - p) + b * p for a, b in zip(exact + [fmpq(0)], [fmpq(0)] + exact)]
    _contains(v, exact)
    lo, hi = fi.to_fmpq_bounds(v, 100)
    assert (hi - lo) / exact[100] < fmpq(1, 10**12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-2**70, 2**70), st.integers(1, 2**70), st.integers(-1500, 1500)),
                min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(-2**70, 2**70), st.integers(1, 2**70), st.integers(-1500, 1500)),
                min_size=1, max_size=8))
def test_hypothesis_enclosures(xs, ys):
    m = min(len(xs), len(ys))
    X = [fmpq(a, b) * fmpq(2) ** e for a, b, e in xs[:m]]
    Y = [fmpq(a, b) * fmpq(2) ** e for a, b, e in ys[:m]]
    a, b = fi.from_fmpq(X), fi.from_fmpq(Y)
    _contains(a, X)
    _contains(fi.mul(a, b), [x * y for x, y in zip(X, Y)])
    _contains(fi.add(a, b), [x + y for x, y in zip(X, Y)])
    _contains(fi.sub(a, b), [x - y for x, y in zip(X, Y)])
    absx = [abs(x) for x in X]
    _contains(fi.sum_nonneg(fi.from_fmpq(absx)), [sum(absx, fmpq(0))])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_exact_floats_refuses_nan_and_infinities(bad):
    from exactdp.errors import CoercionError

    with pytest.raises(CoercionError, match=r"values: .*finite.* index 1"):
        fi.exact_floats([1.0, bad])


def test_an_overflowed_bound_is_a_clear_error_not_overflowerror():
    big = fi.exact_floats([2.0 ** 1023])
    with np.errstate(over="ignore"):
        s = fi.add(big, big)  # 2^1024 overflows float64: the upper end is +inf
    assert s.hi[0] == np.inf
    with pytest.raises(ParameterError, match=r"to_fmpq_bounds: entry 0 .*overflowed"):
        fi.to_fmpq_bounds(s)
    lo, hi = fi.to_fmpq_bounds(fi.add(fi.exact_floats([2.0 ** 1000]), fi.exact_floats([2.0 ** 1000])))
    assert lo <= fmpq(2) ** 1001 <= hi
