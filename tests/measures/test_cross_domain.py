"""Every public measure over the three number domains on the same kernels (issue 13 item 8).

For each catalogue family (a constructor of ``exactdp.mechanisms`` called with sympy symbols) and each
measure:

(a) symbolic: the measure of the parametric kernel is a closed form in the parameters;
(b) rational: the same constructor called with rational parameters (the fmpq code path) gives a value
    that must be *exactly* the closed form substituted at that point (fmpq equality when both are
    rational, else an exact certified decision that must be TRUE);
(c) balls: the same constructor called with an irrational parameter (t = exp(1/2)) gives an exact
    expression whose certified ball must overlap the ball of the closed form at that point, and whose
    equality with it must be decided TRUE by ``certified_compare`` (UNKNOWN fails).

Closed forms are computed once per family (module-scoped cache) so the file stays fast.
"""

from __future__ import annotations

import functools

import pytest
import sympy
from flint import fmpq

import exactdp
from exactdp import (
    RB,
    Truth,
    certified_compare,
    chi2,
    eta_hockey_stick,
    eta_tv,
    hellinger2,
    hockey_stick,
    kl,
    ldp_ratio,
    max_leakage_ratio,
    pml_ratio,
    privacy_profile,
    tv,
)
from exactdp import mechanisms as mech
from exactdp.numbers.infinity import INF

#: every measure on every domain: in the full run, not the quick one
pytestmark = pytest.mark.slow

t, c, d = sympy.symbols("t c d", positive=True)
Q = sympy.Rational
E_HALF = sympy.exp(Q(1, 2))  # an irrational t = e^{1/2} ≈ 1.6487
PREC = 128

# name -> (constructor of the parameter dict, symbolic point, rational points, irrational point)
FAMILIES = {
    "RR2": (lambda p: mech.randomized_response(2, p[t]), {t: t},
            [{t: Q(1)}, {t: Q(3, 2)}, {t: Q(2)}, {t: Q(5)}], {t: E_HALF}),
    "RR3": (lambda p: mech.randomized_response(3, p[t]), {t: t},
            [{t: Q(1)}, {t: Q(3, 2)}, {t: Q(4)}], {t: E_HALF}),
    "OUE2": (lambda p: mech.optimized_unary_encoding(2, p[t]), {t: t},
             [{t: Q(1)}, {t: Q(2)}, {t: Q(7, 3)}], {t: E_HALF}),
    "GrosseEx1": (lambda p: mech.grosse_binary_mechanism(p[t], p[c]), {t: t, c: c},
                  [{t: Q(3, 2), c: Q(1, 3)}, {t: Q(2), c: Q(1, 4)}, {t: Q(3), c: Q(1, 5)}],
                  {t: E_HALF, c: Q(1, 4)}),
    "GrossePML3": (lambda p: mech.grosse_pml_mechanism(3, p[t], p[c]), {t: t, c: c},
                   [{t: Q(2), c: Q(1, 5)}, {t: Q(3, 2), c: Q(1, 4)}, {t: Q(3), c: Q(1, 7)}],
                   {t: E_HALF, c: Q(1, 4)}),
    "OptBin": (lambda p: mech.optimal_binary_approx_ldp(p[t], p[d]), {t: t, d: d},
               [{t: Q(2), d: Q(1, 10)}, {t: Q(3), d: Q(0)}, {t: Q(3, 2), d: Q(1, 2)}],
               {t: E_HALF, d: Q(1, 10)}),
}

HS_GAMMAS = (Q(3, 2), Q(2))
PROFILE_GAMMAS = (Q(1), Q(5, 4), Q(2), Q(3))


def _pml_c(K, point):
    """The PML level: the family's own c (symbolic in (a)) when it has one, else 1/(N+1)."""
    return point[c] if c in point else Q(1, len(K.rows) + 1)


_profile = functools.lru_cache(maxsize=None)(privacy_profile)  # kernels are hashable values


def _rows(K, i, j):
    return K.rows[i], K.rows[j]


# name -> measure(K, point) returning one exact value
MEASURES = {
    "eta_tv": lambda K, p: eta_tv(K),
    **{f"eta_hockey_stick[{g}]": (lambda g: lambda K, p: eta_hockey_stick(K, g))(g) for g in HS_GAMMAS},
    "ldp_ratio": lambda K, p: ldp_ratio(K),
    "pml_ratio": lambda K, p: pml_ratio(K, _pml_c(K, p)),
    "max_leakage_ratio": lambda K, p: max_leakage_ratio(K),
    **{f"privacy_profile({g})": (lambda g: lambda K, p: _profile(K)(g))(g) for g in PROFILE_GAMMAS},
    "tv": lambda K, p: tv(*_rows(K, 0, -1)),
    "hockey_stick[2]": lambda K, p: hockey_stick(*_rows(K, 0, -1), 2),
    "hockey_stick[1/2]": lambda K, p: hockey_stick(*_rows(K, -1, 0), Q(1, 2)),
    "kl": lambda K, p: kl(*_rows(K, 0, -1)),
    "hellinger2": lambda K, p: hellinger2(*_rows(K, 0, -1)),
    "chi2": lambda K, p: chi2(*_rows(K, -1, 0)),
}

# The symbolic privacy profile (closed form in gamma) of a family with two parameters besides gamma
# takes minutes (three symbols), so it is only checked on the families below; every other pair is run.
NOT_APPLICABLE: set[tuple[str, str]] = {
    (f, m) for f in ("GrossePML3", "OptBin") for m in MEASURES if m.startswith("privacy_profile")
}

CASES = [(f, m) for f in FAMILIES for m in MEASURES if (f, m) not in NOT_APPLICABLE]


@functools.lru_cache(maxsize=None)
def _kernel(family: str, which: str, index: int = 0):
    build, sym, rational, irrational = FAMILIES[family]
    point = {"sym": sym, "rat": rational[index] if which == "rat" else None, "irr": irrational}[which]
    return build(point), point


@functools.lru_cache(maxsize=None)
def _closed_form(family: str, measure: str):
    K, point = _kernel(family, "sym")
    assert K.symbolic, f"{family}: the parametric constructor did not give a parametric kernel"
    return MEASURES[measure](K, point)


def _expr(value) -> sympy.Expr:
    if isinstance(value, fmpq):
        return Q(int(value.p), int(value.q))
    if isinstance(value, int):
        return sympy.Integer(value)
    if value is INF:  # +∞ of a rational kernel (exactdp/numbers/infinity.py): sympy's oo on request
        return sympy.sympify(value)
    assert isinstance(value, sympy.Basic), f"unexpected value type {type(value).__name__}: {value!r}"
    return value


def _at(closed, point) -> sympy.Expr:
    """The closed form at a numeric point (sympy evaluates the Piecewise conditions there)."""
    value = sympy.piecewise_fold(_expr(closed).subs(point))
    assert not value.free_symbols, f"closed form {closed} still has symbols at {point}: {value}"
    assert not value.has(sympy.Piecewise), f"closed form {closed} undecided at {point}: {value}"
    return value


def _exactly_equal(a, b) -> None:
    a_expr, b_expr = _expr(a), _expr(b)
    if a_expr.is_Rational and b_expr.is_Rational:
        assert a_expr == b_expr, f"{a_expr} != {b_expr}"
        return
    verdict = certified_compare(a_expr, "==", b_expr)
    assert verdict is Truth.TRUE, f"{a_expr} == {b_expr}: {verdict}"


@pytest.mark.parametrize(("family", "measure"), CASES)
def test_rational_points_match_closed_form(family, measure):
    closed = _closed_form(family, measure)
    for index in range(len(FAMILIES[family][2])):
        K, point = _kernel(family, "rat", index)
        assert not K.symbolic, f"{family} at {point}: expected an exact rational kernel"
        value = MEASURES[measure](K, point)
        if measure not in ("kl", "hellinger2"):  # the others are rational on a rational kernel
            assert _expr(value).is_Rational, f"{measure} of a rational kernel is not rational: {value!r}"
        _exactly_equal(_at(closed, point), value)


IRRATIONAL_CASES = CASES  # the privacy profile too: the same lines and hull in the ball domain RB


@pytest.mark.parametrize(("family", "measure"), IRRATIONAL_CASES)
def test_irrational_point_ball_contains_closed_form(family, measure):
    closed = _closed_form(family, measure)
    K, point = _kernel(family, "irr")
    value = MEASURES[measure](K, point)
    at = _at(closed, point)
    ball_value, ball_closed = RB(_expr(value)).ball(PREC), RB(at).ball(PREC)
    assert ball_value.is_finite() and ball_closed.is_finite()
    assert ball_value.overlaps(ball_closed), f"{measure}: ball {ball_value} misses closed form {ball_closed}"
    verdict = certified_compare(_expr(value), "==", at)
    assert verdict is Truth.TRUE, f"{family}/{measure}: {value} == {at} at {point}: {verdict}"


def test_domains_can_disagree():
    """The comparison is not vacuous: a wrong closed form is refused in both the rational and ball domain."""
    closed = _closed_form("RR3", "eta_tv") + t / 10**30
    K, point = _kernel("RR3", "rat", 1)
    with pytest.raises(AssertionError):
        _exactly_equal(_at(closed, point), eta_tv(K))
    K, point = _kernel("RR3", "irr")
    assert certified_compare(eta_tv(K), "==", _at(closed, point)) is Truth.FALSE
    assert exactdp.eta_tv(K) != 0


# -- the one column-ratio maximum and the one eta loop over SR (issue 13 item 1) ---------------------------

def test_column_ratio_in_is_one_implementation_over_the_three_domains():
    """e^{LDP} and e^{C(K,Q_X(c))} of RR_3 through column_ratio_in: the SR closed form with its witness,
    the QQ value at t = 3 (the fmpq route, not the int64 one) and the RB value at t = e^{1/2}."""
    from exactdp.measures.input_domain import input_domain
    from exactdp.measures.privacy import ldp_ratio_in, pml_domain, pml_ratio_in
    from exactdp.numbers.domain import QQ

    K = mech.randomized_response(3, t)
    assert ldp_ratio_in(input_domain("ldp", kernel=K), K) == (t, 0, 0, 1)
    D, C = pml_domain(K, c)
    value, y, _, _ = pml_ratio_in(D, K, C)
    assert sympy.cancel(value - t / (c * t - c + 1)) == 0 and y == 0
    assert ldp_ratio_in(QQ, mech.randomized_response(3, 3)) == (3, 0, 0, 1)
    assert pml_ratio_in(QQ, mech.randomized_response(3, 3), fmpq(1, 4))[0] == fmpq(2)  # 3/(3/4 + 3/4)
    Kb = mech.randomized_response(3, E_HALF)
    assert certified_compare(ldp_ratio_in(input_domain("ldp", kernel=Kb), Kb)[0], "==", E_HALF) is Truth.TRUE


def test_ldp_ratio_is_infinite_at_an_interior_zero_of_a_column():
    """Column 0 is ((t-1)^2, 1/2) on 0 < t <= 2: its minimum vanishes at t = 1 only, column 1's at the closed
    end t = 2, so e^{LDP} is oo exactly there (exact points of the one-parameter cell route), finite
    elsewhere, with its formula changing at the irrational crossings 1 ± sqrt(2)/2."""
    from exactdp.symbolic import declare_region

    K = declare_region(exactdp.Kernel([[(t - 1) ** 2, 1 - (t - 1) ** 2], [Q(1, 2), Q(1, 2)]]), t <= 2)
    value = ldp_ratio(K)
    assert isinstance(value, sympy.Piecewise)
    assert value.args[0] == (sympy.oo, sympy.Or(sympy.Eq(t, 1), sympy.Eq(t, 2)))
    assert value.args[1][1] == (t <= 1 - sympy.sqrt(2) / 2)
    for point in (Q(1, 4), Q(1, 2), Q(1), Q(3, 2), Q(7, 4), Q(2)):
        assert _at(value, {t: point}) == _expr(ldp_ratio(K.subs({t: point}))), point


def test_eta_witness_is_none_where_the_maximizing_pair_changes():
    """eta_in over SR: a single maximizing pair is returned when it holds on the whole region, None when the
    pair changes with the parameter (a 3x3 cyclic kernel at gamma = 2)."""
    from exactdp.measures.contraction import eta_hockey_stick_witness
    from exactdp.symbolic import declare_region

    K = declare_region(exactdp.Kernel([[t, 1 - t, 0], [1 - t, 0, t], [0, t, 1 - t]]), t <= 1)
    value, x, x2 = eta_hockey_stick_witness(K, 2)
    assert (x, x2) == (None, None)
    assert value == sympy.Piecewise((1 - t, t <= Q(1, 2)), (t, True))
    assert eta_hockey_stick_witness(mech.randomized_response(3, t), 1)[1:] == (0, 1)


def test_derivation_is_recorded_around_the_one_measure():
    """derive records each output's ratio and the maximum reported by column_ratio_in; its result is the
    measure's value (oo for a column whose minimum is identically 0, where the steps stop)."""
    from exactdp.measures.derivations import derive
    from exactdp.symbolic import declare_region

    (d,) = derive(mech.randomized_response(3, t), ("ldp_ratio",))
    assert [s.text for s in d.steps] == [f"output {y}: largest entry of the column over its denominator"
                                         for y in range(3)] + ["maximum over outputs"]
    assert d.result == t == ldp_ratio(mech.randomized_response(3, t))
    K = declare_region(exactdp.Kernel([[t, 1 - t, 0], [1 - t, 0, t], [0, t, 1 - t]]), t <= 1)
    (d,) = derive(K, ("ldp_ratio",))
    assert d.result is sympy.oo
    K = declare_region(exactdp.Kernel([[t, 1 - t], [1 - t, t]]), t <= 1)  # one parameter: steps in cell form
    (d,) = derive(K, ("eta_tv",))
    cells = sympy.Piecewise((1 - 2 * t, t <= Q(1, 2)), (2 * t - 1, True))
    assert [s.expr for s in d.steps] == [cells, cells] and d.result == cells == eta_tv(K)


def test_privacy_profile_over_balls_is_the_rational_algorithm():
    """RR_2 at t = e^{1/2}: the profile's breakpoints are the likelihood ratios 1/t and t, its pieces the lines
    1 - gamma*0, t/(1+t) - gamma/(1+t), 0 — exactly (certified equalities), as for a rational t."""
    K = mech.randomized_response(2, E_HALF)
    prof = privacy_profile(K)
    assert len(prof.breakpoints) == 2
    for got, want in zip(prof.breakpoints, (1 / E_HALF, E_HALF)):
        assert certified_compare(got, "==", want) is Truth.TRUE
    assert certified_compare(prof(2), "==", 0) is Truth.TRUE
    assert certified_compare(prof(1), "==", (E_HALF - 1) / (E_HALF + 1)) is Truth.TRUE
    assert certified_compare(prof.gamma_for(0), "==", E_HALF) is Truth.TRUE
    assert certified_compare(prof.epsilon_for(0), "==", Q(1, 2)) is Truth.TRUE
    rational = privacy_profile(mech.randomized_response(2, 3))  # the same shape at t = 3
    assert rational.breakpoints == (fmpq(1, 3), fmpq(3)) and len(rational.pieces) == len(prof.pieces)


def test_privacy_profile_over_balls_decides_exact_ties_and_raises_when_undecided():
    """Rows equal only after denesting (sqrt(2) + sqrt(3) = sqrt(5 + 2 sqrt 6)) give the profile of identical rows,
    (1 - gamma)_+, through the exact tie-break; likelihood ratios 2e^{-300} apart under a 128-bit cap are not
    ordered: UndecidedError, never a guess; the default cap orders them."""
    from exactdp.errors import UndecidedError
    from exactdp.numbers.rb import precision_cap

    p, q = (sympy.sqrt(2) + sympy.sqrt(3)) / 4, sympy.sqrt(5 + 2 * sympy.sqrt(6)) / 4
    prof = privacy_profile(exactdp.Kernel([[p, 1 - p], [q, 1 - q]]))
    assert prof.breakpoints == (1,) and prof(Q(1, 2)) == Q(1, 2) and prof(2) == 0
    x = sympy.exp(-sympy.Integer(300))
    K = exactdp.Kernel([[Q(1, 2) + x, Q(1, 2) - x], [Q(1, 2), Q(1, 2)]])
    with precision_cap(128), pytest.raises(UndecidedError, match="cannot decide"):
        privacy_profile(K)
    prof = privacy_profile(K)  # TV = e^{-300}: the profile at gamma = 1
    assert certified_compare(prof(1), "==", x) is Truth.TRUE
