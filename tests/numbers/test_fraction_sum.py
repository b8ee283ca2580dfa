"""Exact sums of many fractions on a product tree (exactdp/numbers/fraction_sum.py) against plain fmpq sums:
lengths that are not powers of two, denominators from 1 bit to beyond the flint switch, repeated
denominators, several columns at once."""

import random

import numpy as np
import pytest
from flint import fmpq

from exactdp.numbers.fraction_sum import FLINT_BITS, fraction_sum, product_tree, tree_sum

ZERO = fmpq(0)


def plain(nums, dens):
    return sum((fmpq(a, b) for a, b in zip(nums, dens)), ZERO)


@pytest.mark.parametrize("N", [1, 2, 3, 5, 8, 31, 100])
@pytest.mark.parametrize("bits", [1, 20, 62, FLINT_BITS + 7])
def test_tree_sum_equals_the_plain_sum(N, bits):
    rng = random.Random(N * 1000 + bits)
    dens = [rng.randrange(1, 2**bits) + 1 for _ in range(N)]
    nums = [rng.randrange(0, 2**bits) for _ in range(N)]
    levels = product_tree(np.array(dens, dtype=object))
    T, P = tree_sum(levels, np.array(nums, dtype=object))
    assert fmpq(T, P) == plain(nums, dens)
    prod = 1
    for d in dens:
        prod *= d
    assert int(P) == prod  # unreduced: the product of the denominators


def test_columns_at_once_and_repeated_denominators():
    rng = random.Random(3)
    dens = [rng.choice([6, 10, 2**61 - 1, 3**30]) for _ in range(37)]
    A = np.array([[rng.randrange(0, 2**40) for _ in range(5)] for _ in range(37)], dtype=np.int64)
    T, P = tree_sum(product_tree(np.array(dens, dtype=np.int64)), A)
    assert [fmpq(t, P) for t in T] == [plain(A[:, y].tolist(), dens) for y in range(5)]


def test_zero_numerators():
    T, P = tree_sum(product_tree(np.array([3, 5, 7], dtype=np.int64)), np.zeros(3, dtype=np.int64))
    assert T == 0 and P == 105


@pytest.mark.parametrize("N", [1, 2, 3, 7, 64, 301])
@pytest.mark.parametrize("bits", [1, 10, 20, 30, 31, 32, 40, 62])
def test_int64_levels_equal_the_plain_sum(N, bits):
    """int64 numerators and denominators: the lowest levels in int64 while their products provably fit (every
    boundary of the check: 2^31.5 for the denominators, numerators up to the denominators and up to 2^62),
    then Python integers; one column and three at once, and the exact product of the denominators."""
    rng = random.Random(N * 100 + bits)
    dens = [rng.randrange(2 ** (bits - 1), 2**bits) if bits > 1 else 1 for _ in range(N)]
    nums = [rng.randrange(0, d + 1) for d in dens]
    big = [rng.randrange(0, 2**62) for _ in range(N)]
    levels = product_tree(np.array(dens, dtype=np.int64))
    for n in (nums, big):
        T, P = tree_sum(levels, np.array(n, dtype=np.int64))
        assert type(T) is not np.int64 and fmpq(T, P) == plain(n, dens)
    A = np.array([nums, big, [d // 2 for d in dens]], dtype=np.int64).T
    T, P = tree_sum(levels, A)
    assert [fmpq(t, P) for t in T] == [plain(A[:, y].tolist(), dens) for y in range(3)]
    prod = 1
    for d in dens:
        prod *= d
    assert int(P) == prod and all(level.dtype in (np.int64, object) for level in levels)


@pytest.mark.parametrize("N", [1, 2, 3, 7, 64, 301, 512])
@pytest.mark.parametrize("bits", [1, 10, 31, 32, 40, 62, FLINT_BITS + 7])
def test_one_sum_equals_the_plain_sum_and_the_tree(N, bits):
    """fraction_sum (one vector, no level kept) equals the plain fmpq sum and tree_sum over product_tree, with the
    same unreduced (T, P): int64 inputs up to 62 bits (int64 levels, then Python integers, then fmpz), object
    inputs beyond, zero numerators among them."""
    rng = random.Random(N * 7 + bits)
    dens = [rng.randrange(2 ** (bits - 1), 2**bits) if bits > 1 else 1 for _ in range(N)]
    nums = [0 if rng.random() < 0.2 else rng.randrange(0, d + 1) for d in dens]
    dtype = np.int64 if bits < 63 else object
    T, P = fraction_sum(np.array(nums, dtype=dtype), np.array(dens, dtype=dtype))
    assert fmpq(T, P) == plain(nums, dens)
    prod = 1
    for d in dens:
        prod *= d
    assert int(P) == prod
    T2, P2 = tree_sum(product_tree(np.array(dens, dtype=dtype)), np.array(nums, dtype=dtype))
    assert (int(T), int(P)) == (int(T2), int(P2))
