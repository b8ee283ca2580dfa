"""Certified divergences as balls of one pass (issue 15 item 6): every ball contains the exact sympy value
(exactdp.kl / hellinger2 / renyi), 40 printed digits agree, infinite and zero cases are exact."""

import random

import pytest
import sympy
from flint import fmpq

from exactdp import hellinger2, kl, renyi
from exactdp.certified.divergences import SIEVE_LIMIT, hellinger2_certified, kl_certified, renyi_certified
from exactdp.numbers.digits import evalf
from exactdp.numbers.rb import RB


def _dist(rng, n, den, zeros=0):
    w = [rng.randint(1, den) for _ in range(n)]
    for i in rng.sample(range(n), zeros):
        w[i] = 0
    s = sum(w)
    return [fmpq(v, s) for v in w]


def _cases():
    rng = random.Random(615)
    out = []
    for n, den in ((2, 9), (5, 1000), (64, 1000), (40, 10**25)):  # the last beyond the sieve and int64
        out.append((_dist(rng, n, den), _dist(rng, n, den)))
    P = _dist(rng, 30, 50, zeros=4)
    out.append((P, [p * fmpq(9, 10) + fmpq(1, 300) for p in P]))  # zeros in P only, Q full
    big = [fmpq(SIEVE_LIMIT + 1, 2 * SIEVE_LIMIT + 3), fmpq(SIEVE_LIMIT + 2, 2 * SIEVE_LIMIT + 3)]
    out.append((big, [fmpq(1, 3), fmpq(2, 3)]))
    return out


def _contains(rb, exact, prec=200):
    assert rb.ball(prec).overlaps(RB(exact).ball(prec))
    assert rb.ball(prec).rad() < 2 ** (-prec // 2)


@pytest.mark.parametrize("P, Q", _cases())
def test_balls_contain_the_exact_values(P, Q):
    _contains(kl_certified(P, Q), kl(P, Q))
    _contains(hellinger2_certified(P, Q), hellinger2(P, Q))
    for alpha in (fmpq(2), fmpq(3), fmpq(1, 2), fmpq(3, 2), fmpq(7, 3)):
        _contains(renyi_certified(P, Q, alpha), renyi(P, Q, alpha))
    assert evalf(kl_certified(P, Q), 40) == evalf(kl(P, Q), 40)
    assert evalf(hellinger2_certified(P, Q), 40) == evalf(hellinger2(P, Q), 40)


def test_infinite_zero_and_special_orders():
    P, Q = ["1/2", "1/2", "0"], ["1", "0", "0"]
    assert kl_certified(P, Q) is sympy.oo and renyi_certified(P, Q, 2) is sympy.oo
    assert evalf(hellinger2_certified(P, Q), 20) == evalf(hellinger2(P, Q), 20)
    R = ["1/3", "1/3", "1/3"]
    for f in (kl_certified, hellinger2_certified):
        assert f(R, R).rational() == 0  # an exact zero, never an undecided sign
    assert renyi_certified(R, R, fmpq(1, 2)).rational() == 0
    S = ["1/6", "1/2", "1/3"]
    for alpha in (0, 1, sympy.oo):
        assert evalf(renyi_certified(R, S, alpha), 30) == evalf(renyi(R, S, alpha), 30)


def test_nearly_equal_distributions_keep_their_digits():
    """P and Q differ by 10^-20: H² ≈ 10^-40 comes from a cancelling subtraction; the evaluator is asked for
    more bits until the 25 printed digits are certified, and they equal the exact expression's."""
    e = fmpq(1, 10**20)
    P = [fmpq(1, 4) + e, fmpq(1, 4) - e, fmpq(1, 2)]
    Q = [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)]
    assert evalf(hellinger2_certified(P, Q), 25) == evalf(hellinger2(P, Q), 25)
    assert evalf(kl_certified(P, Q), 25) == evalf(kl(P, Q), 25)


def test_floats_and_shapes_are_refused():
    from exactdp.errors import CoercionError, ShapeError

    with pytest.raises(CoercionError):
        kl_certified([0.5, 0.5], ["1/2", "1/2"])
    with pytest.raises(ShapeError):
        hellinger2_certified(["1"], ["1/2", "1/2"])
