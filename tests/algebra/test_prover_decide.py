"""The exact decision procedure for rational-function inequalities (one and two parameters)."""

import pytest
import sympy

from exactdp import Truth, UndecidedError
from exactdp.algebra.prover import Region, decide, prove_identity

t = sympy.Symbol("t", positive=True)
c = sympy.Symbol("c", positive=True)
d = sympy.Symbol("delta", nonnegative=True)
x, y, z = sympy.symbols("x y z", real=True)


def test_one_parameter_true_with_crossing_at_t_equal_1():
    D = decide((t - 1) / (t + 1) <= 1 - 1 / t, Region.of(t >= 1))
    assert D.truth is Truth.TRUE
    assert D.crossings == [{t: 1}]
    assert D.steps  # the derivation is kept


def test_one_parameter_strict_fails_exactly_at_the_crossing():
    D = decide((t - 1) / (t + 1) < 1 - 1 / t, Region.of(t >= 1))
    assert D.truth is Truth.FALSE
    assert D.counterexample == {t: 1}


def test_counterexample_is_a_rational_point_that_violates_the_claim():
    D = decide((t - 1) / (t + 1) <= sympy.Rational(1, 2), Region.of(t >= 1))
    assert D.truth is Truth.FALSE
    v = D.counterexample[t]
    assert v.is_Rational and (v - 1) / (v + 1) > sympy.Rational(1, 2)
    assert D.crossings == [{t: 3}]


def test_irrational_crossing_reported_exactly_F_A3():
    """F-A3: phi(eps,0) = 1 - 1/t equals 4(t-1)^2 at t = (1+sqrt 2)/2 (eps = 0.18823...)."""
    region = Region.of(t >= 1)
    assert decide(1 - 1 / t <= 4 * (t - 1) ** 2, region).truth is Truth.FALSE
    D = decide(1 - 1 / t >= 4 * (t - 1) ** 2, region)
    assert D.truth is Truth.FALSE
    values = [p[t] for p in D.crossings]
    assert sympy.Rational(1, 2) + sympy.sqrt(2) / 2 in values and 1 in values
    eps = sympy.log(sympy.Rational(1, 2) + sympy.sqrt(2) / 2)
    assert str(sympy.N(eps, 5)) == "0.18823"


def test_two_parameters_tight_ldp_value_below_phi():
    """A-7: (t-1+2 delta)/(t+1) <= 1-(1-delta)/t on t >= 1, 0 <= delta <= 1 (and not conversely)."""
    region = Region.of(t >= 1, d <= 1)
    assert decide((t - 1 + 2 * d) / (t + 1) <= 1 - (1 - d) / t, region).truth is Truth.TRUE
    D = decide((t - 1 + 2 * d) / (t + 1) >= 1 - (1 - d) / t, region)
    assert D.truth is Truth.FALSE
    ce = D.counterexample
    lhs = ((t - 1 + 2 * d) / (t + 1)).subs(ce)
    rhs = (1 - (1 - d) / t).subs(ce)
    assert lhs < rhs


def test_two_parameters_with_min_and_constraint():
    """Xi(eps,c) <= phi(eps,0) iff N c t <= 1 (N = 3): true on that region, false beyond."""
    xi = sympy.Min((t - 1) / (t * (1 - 3 * c) + 1), 1)
    base = (t >= 1, c <= sympy.Rational(1, 3))
    assert decide(xi <= 1 - 1 / t, Region.of(*base, 3 * c * t <= 1)).truth is Truth.TRUE
    D = decide(xi <= 1 - 1 / t, Region.of(*base))
    assert D.truth is Truth.FALSE
    ce = D.counterexample
    assert 3 * ce[c] * ce[t] > 1
    assert sympy.Eq(t, 1 / (3 * c)) in D.crossings


def test_two_parameters_irrational_critical_value():
    """x^2 + y^2 >= 2xy everywhere; x^2 - 2 y <= 0 fails; crossing structure with sqrt."""
    assert decide(x**2 + y**2 >= 2 * x * y, Region.of(x >= -3, x <= 3, y >= -3, y <= 3)).truth is Truth.TRUE
    D = decide(y**2 >= 2, Region.of(x >= 0, x**2 + y**2 <= 4, y >= 0))
    assert D.truth is Truth.FALSE


def test_denominator_changing_sign_is_undecided_not_guessed():
    D = decide(1 / (t - 2) >= 0, Region.of(t >= 1))
    assert D.truth is Truth.UNKNOWN
    assert "denominator" in D.reason


def test_three_and_four_parameters_are_decided_logs_are_not():
    assert decide(x + y + z >= 0, Region.of(x >= 0, y >= 0, z >= 0)).truth is Truth.TRUE
    D = decide(x + y + z >= 1, Region.of(x >= 0, y >= 0, z >= 0))
    assert D.truth is Truth.FALSE and sum(D.counterexample.values()) < 1
    w = sympy.Symbol("w", real=True)
    assert decide(x + y + z + w >= 0, Region.of(x >= 0, y >= 0, z >= 0, w >= 0)).truth is Truth.TRUE
    D = decide(x + y + z + w >= 1, Region.of(x >= 0, y >= 0, z >= 0, w >= 0))
    assert D.truth is Truth.FALSE and min(D.counterexample.values()) >= 0 and sum(D.counterexample.values()) < 1
    D = decide(sympy.log(t) <= t - 1, Region.of(t >= 1))
    assert D.truth is Truth.UNKNOWN and "rational" in D.reason
    with pytest.raises(UndecidedError):
        bool(D.truth)


def test_identities():
    assert prove_identity((t**2 - 1) / (t - 1), t + 1).truth is Truth.TRUE
    assert prove_identity(sympy.log(t**2), 2 * sympy.log(t)).truth is Truth.TRUE
    wrong = prove_identity(t, t + 1)  # a false rational identity: FALSE with a point where the sides differ
    assert wrong.truth is Truth.FALSE and wrong.counterexample == {t: 2}
    n = sympy.Symbol("n", integer=True, positive=True)
    wrong = prove_identity((n + 1) / (n - 1), (n + 1) ** 2 / (n**2 - 1) + 1 / n**2)
    assert wrong.truth is Truth.FALSE and wrong.counterexample == {n: 2}  # n = 2: n - 1 and n^2 - 1 are not 0
    assert prove_identity(sympy.log(t), 2 * sympy.log(t)).truth is Truth.UNKNOWN  # not rational: not decided


def test_equality_statement_refuted_with_a_point():
    D = decide(sympy.Eq(t**2, t), Region.of(t >= 2))
    assert D.truth is Truth.FALSE
    v = D.counterexample[t]
    assert v >= 2 and v**2 != v
    assert decide(sympy.Eq(t**2, t), Region.of(t >= 0)).truth is Truth.UNKNOWN  # equal at t = 0, 1 only


def test_irrational_critical_values_with_non_strict_constraints():
    """Both projection orders meet sqrt-type critical values: decided when one order is rational, and
    otherwise by lifting over the algebraic abscissae (exact arithmetic in Q(sqrt 2)...)."""
    region = Region.of(x >= 0, y >= 0, 2 - x**2 - y >= 0)
    assert decide(y + 1 >= 0, region).truth is Truth.TRUE  # the y-first projection has rational critical values
    r2 = Region.of(x >= 0, y >= 0, 2 - x**2 - y**2 >= 0, y**2 + x - 3 <= 0)
    D = decide(x * y + 1 >= 0, r2)  # true, but both orders have irrational critical values
    assert D.truth is Truth.TRUE
    assert decide(x * y - 1 >= 0, r2).truth is Truth.FALSE


def test_symbol_assumptions_hold_for_parameters_added_later():
    """A positive parameter introduced by a later condition keeps c > 0 (no counterexample with c < 0)."""
    region = Region.of(t >= 1).with_conditions(c <= sympy.Rational(1, 5))
    assert region.bounds(c).lo == 0 and region.bounds(c).lo_open
    assert decide(c * t - c + 1 > 0, region).truth is Truth.TRUE
