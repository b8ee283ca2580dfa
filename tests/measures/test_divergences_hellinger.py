"""H²(P, Q) = Σ (√P − √Q)² (F-G6, no ½) written once over the number domains (hellinger2_in, issue 13 item 1):
exact values against a term-by-term brute force at rational inputs, fmpq where the value is rational,
certified balls at irrational inputs, and the closed form of a parametric kernel."""

from __future__ import annotations

import itertools

import pytest
import sympy
from flint import arb, ctx, fmpq

from exactdp import RB as Ball
from exactdp import Truth, certified_compare, hellinger2
from exactdp import mechanisms as mech
from exactdp.errors import CoercionError, ShapeError
from exactdp.measures.divergences import hellinger2_in
from exactdp.numbers.domain import QQ, RB
from exactdp.numbers.sr import as_sympy

Q = sympy.Rational
t = sympy.Symbol("t", positive=True)


def _brute(P, Q_):
    """Σ (√p − √q)², term by term (not expanded, no domain): the definition."""
    return sympy.Add(*[(sympy.sqrt(Q(p)) - sympy.sqrt(Q(q))) ** 2 for p, q in zip(P, Q_)])


def _dists(k):
    """Every distribution on k points with masses in {0, 1/4, …, 1}."""
    for w in itertools.product(range(5), repeat=k):
        if sum(w) == 4:
            yield [fmpq(x, 4) for x in w]


@pytest.mark.parametrize("k", [2, 3])
def test_rational_inputs_equal_the_brute_force_exactly(k):
    for P, Q_ in itertools.product(list(_dists(k)), repeat=2):
        value = hellinger2(P, Q_)
        assert sympy.expand(as_sympy(value) - _brute(P, Q_)) == 0, (P, Q_, value)  # square roots of rationals
        assert hellinger2_in(QQ, P, Q_) == value
        if P == Q_:
            assert value == 0 and isinstance(value, fmpq)


def test_paper_and_hand_values():
    assert hellinger2(["1", "0"], ["0", "1"]) == 2  # disjoint supports: the maximum 2 (no ½)
    assert as_sympy(hellinger2(["1/2", "1/2"], ["1", "0"])) == 2 - sympy.sqrt(2)
    # 2 − 2(√(1/24) + √(7/12)) = 2 − √6/6 − √21/3
    assert as_sympy(hellinger2(["1/8", "7/8"], ["1/3", "2/3"])) == 2 - sympy.sqrt(6) / 6 - sympy.sqrt(21) / 3
    # every √(pq) rational: Bhattacharyya 2/9 + 2/9 + 4/9 = 8/9, H² = 2 − 16/9 — an fmpq, not a sympy number
    value = hellinger2(["1/9", "4/9", "4/9"], ["4/9", "1/9", "4/9"])
    assert value == fmpq(2, 9) and isinstance(value, fmpq)


def test_irrational_inputs_certified_balls_contain_the_brute_force():
    s = sympy.sqrt(2) / 2
    cases = [
        ([s, 1 - s], [Q(1, 2), Q(1, 2)]),
        ([sympy.exp(Q(1, 2)) / (sympy.exp(Q(1, 2)) + 1), 1 / (sympy.exp(Q(1, 2)) + 1)], [Q(1, 3), Q(2, 3)]),
    ]
    for P, Q_ in cases:
        value = hellinger2(P, Q_)
        assert hellinger2_in(RB("H2"), P, Q_) == value
        old = ctx.prec
        try:  # the brute force: arb arithmetic at 256 bits on enclosures of the entries, not on the value
            ctx.prec = 256
            balls = [[Ball(x).ball(256) for x in row] for row in (P, Q_)]
            brute = sum(((a.sqrt() - b.sqrt()) ** 2 for a, b in zip(*balls)), arb(0))
        finally:
            ctx.prec = old
        enclosure = Ball(value).ball(128)
        assert enclosure.rad() < arb(2) ** -100 and brute.rad() < arb(2) ** -200
        assert enclosure.contains(brute)
        assert certified_compare(value, "==", _brute_expr(P, Q_)) is Truth.TRUE


def _brute_expr(P, Q_):
    return sympy.Add(*[(sympy.sqrt(p) - sympy.sqrt(q)) ** 2 for p, q in zip(P, Q_)])


def test_parametric_rows_give_the_closed_form():
    K = mech.randomized_response(2, t)
    value = hellinger2(K.row(0), K.row(1))
    assert sympy.simplify(value - 2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1)) == 0
    assert value.subs(t, 4) == Q(2, 5)  # 2(2 − 1)²/5
    assert hellinger2(mech.randomized_response(2, 4).row(0), mech.randomized_response(2, 4).row(1)) == fmpq(2, 5)


def test_bad_input_is_refused():
    with pytest.raises(CoercionError):
        hellinger2([0.5, 0.5], ["1/2", "1/2"])
    with pytest.raises(ShapeError):
        hellinger2(["1/2", "1/2"], ["1"])


def test_the_three_domains_agree_where_they_overlap():
    from exactdp.algebra.prover import Region
    from exactdp.symbolic.closedforms import sr_domain

    rows = ([t / (t + 1), 1 / (t + 1)], [1 / (t + 1), t / (t + 1)])
    closed = hellinger2_in(sr_domain(Region.of(t >= 1)), *rows)
    assert sympy.simplify(closed - 2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1)) == 0
    at_9 = hellinger2_in(QQ, *[[fmpq(9, 10), fmpq(1, 10)], [fmpq(1, 10), fmpq(9, 10)]])
    assert at_9 == fmpq(4, 5) == closed.subs(t, 9)  # 2(3 − 1)²/10
    e = sympy.exp(Q(1, 2))
    at_e = hellinger2_in(RB("H2"), *[[r.subs(t, e) for r in row] for row in rows])
    assert certified_compare(at_e, "==", closed.subs(t, e)) is Truth.TRUE


def test_rational_value_is_the_expanded_form_without_an_expansion_pass():
    """Over QQ the value is returned as built (no ``sympy.expand``): it must be the expanded form itself, the same
    sympy tree (srepr), on random pairs with small and large denominators and zero masses."""
    import random

    from exactdp.verification.instances import random_distribution

    rng = random.Random(24)
    for k in range(120):
        m, den = rng.randint(2, 6), rng.choice([4, 12, 30, 1000, 10**6])
        P = random_distribution(rng, m, den, full_support=k % 2 == 0)
        Q_ = random_distribution(rng, m, den, full_support=k % 3 == 0)
        value = as_sympy(hellinger2(P, Q_))
        assert sympy.srepr(value) == sympy.srepr(sympy.expand(value))
        assert sympy.expand(value - _brute(P.probs, Q_.probs)) == 0
