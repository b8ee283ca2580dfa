"""Mechanisms from floats, sympy matrices and pandas frames: the documented entries (Kernel.from_floats)."""

import math

import numpy as np
import pytest
import sympy
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Kernel
from exactdp.distributions import Distribution
from exactdp.errors import CoercionError, InvalidKernelError, ParameterError
from exactdp.numbers.simplex_rounding import round_to_simplex


def test_a_row_of_tenths_lands_on_the_decimal_grid():
    # 0.1 + 0.2 + 0.7 is not 1 in binary: refused without a grid, exact tenths with one
    with pytest.raises(InvalidKernelError):
        Kernel.from_floats([[0.1, 0.2, 0.7]])
    K = Kernel.from_floats([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], denominator=100)
    assert K.rows == ((fmpq(1, 10), fmpq(1, 5), fmpq(7, 10)), (fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)))


def test_largest_remainder_gives_ties_to_the_first_index():
    third = fmpq(1, 3)
    assert round_to_simplex([third, third, third], 10) == [fmpq(4, 10), fmpq(3, 10), fmpq(3, 10)]
    # renormalisation is exact: (1, 1, 2) / 4 on a grid of 4 is exactly (1/4, 1/4, 1/2)
    assert round_to_simplex([fmpq(1), fmpq(1), fmpq(2)], 4) == [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)]


def test_a_softmax_kernel_with_its_reported_change():
    logits = np.array([[2.0, 1.0, 0.1, -3.0], [0.5, 0.5, 0.5, 0.5], [-1.0, 4.0, 0.0, 2.0]])
    A = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    K, change = Kernel.from_floats(A, digits=9, return_change=True)
    exact = [[fmpq(*float(v).as_integer_ratio()) for v in row] for row in A]
    worst = fmpq(0)
    for row, ex in zip(K.rows, exact):
        assert sum(row, fmpq(0)) == 1
        s = sum(ex, fmpq(0))
        for a, e in zip(row, ex):
            assert (a * 10 ** 9).q == 1  # on the grid
            assert abs(a - e / s) < fmpq(1, 10 ** 9)
            worst = max(worst, abs(a - e))
    assert change == worst and 0 < change < fmpq(2, 10 ** 9)
    assert K.rows[1] == (fmpq(1, 4),) * 4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.just(0.0), st.floats(min_value=1e-300, max_value=1e3)), min_size=1, max_size=7)
       .filter(lambda v: any(v)), st.integers(min_value=1, max_value=10 ** 12))
def test_rounding_sums_to_one_moves_less_than_a_grid_step_and_keeps_zeros(values, D):
    exact = [fmpq(*v.as_integer_ratio()) for v in values]
    out = round_to_simplex(exact, D)
    s = sum(exact, fmpq(0))
    assert sum(out, fmpq(0)) == 1
    for a, e in zip(out, exact):
        assert (a * D).q == 1 and a >= 0
        assert abs(a - e / s) < fmpq(1, D)
        assert (a == 0) == (e == 0) or (e != 0 and e / s < fmpq(1, D))  # a zero stays zero


def test_bad_float_rows_are_refused_naming_the_entry():
    with pytest.raises(ParameterError, match=r"K\[0\]\[1\]: a probability must be >= 0"):
        Kernel.from_floats([[0.5, -0.25, 0.75]], digits=3)
    with pytest.raises(CoercionError, match="finite"):
        Kernel.from_floats([[math.nan, 1.0]], digits=3)
    with pytest.raises(ParameterError, match="all entries are 0"):
        Kernel.from_floats([[0.0, 0.0]], digits=3)
    with pytest.raises(ParameterError, match=r"digits: must be an integer in \[1, 60\], got 200"):
        Kernel.from_floats([[0.5, 0.5]], digits=200)
    with pytest.raises(ParameterError, match="not both"):
        Kernel.from_floats([[0.5, 0.5]], digits=2, denominator=100)


def test_distribution_from_floats_on_a_grid():
    assert Distribution.from_floats([0.1, 0.2, 0.7], digits=1) == Distribution(["1/10", "1/5", "7/10"])


def test_a_sympy_matrix_is_a_kernel():
    h = sympy.Rational(1, 2)
    K = Kernel(sympy.Matrix([[h, h], [sympy.Rational(1, 4), sympy.Rational(3, 4)]]))
    assert K == Kernel([["1/2", "1/2"], ["1/4", "3/4"]])


def test_pandas_frames():
    pd = pytest.importorskip("pandas")
    assert Kernel(pd.DataFrame([["1/2", "1/2"], ["1/4", "3/4"]])) == Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    with pytest.raises(CoercionError, match=r"dtype=str"):
        Kernel(pd.DataFrame([[0.5, 0.5], [0.25, 0.75]]))
    K = Kernel.from_floats(pd.DataFrame([[0.1, 0.2, 0.7]]), denominator=10)
    assert K.rows == ((fmpq(1, 10), fmpq(1, 5), fmpq(7, 10)),)
