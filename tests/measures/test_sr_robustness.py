"""Every public measure of small parametric kernels over the SR domain, checked against the rational route.

Each measure of a parametric kernel (one or two parameters; declared regions t >= 1 and t <= 1; entries
t/(t+1), 1/(t+1), t, 1 - t, c, 1 - c, zeros, repeated rows) must either return a closed form whose value
at rational points of the region is *exactly* the QQ value of the substituted kernel, or raise one of the
project's errors (:mod:`exactdp.errors`: ParameterError, UndecidedError...).  Any other exception
(IndexError, sympy's PolynomialError...) fails.  Regression tests for the crashes found this way:
a region reduced to one point (randomized_response(2, t), t >= 1 by construction, declared t <= 1), an
empty region, and a column maximum (a Piecewise) inside the quotients of two-parameter ratios.
"""

from __future__ import annotations

import functools

import pytest
import sympy
from flint import fmpq

from exactdp import Kernel, errors
from exactdp import mechanisms as M
from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.measures.privacy import is_ldp, ldp_ratio, max_leakage, pml_ratio, privacy_profile
from exactdp.numbers.truth import Truth
from exactdp.symbolic.region import declare_region

Q = sympy.Rational
t, c = sympy.symbols("t c", positive=True)
W, U = t / (t + 1), 1 / (t + 1)

ROWS = {
    "sym2": [[W, U], [U, W]],
    "half": [[W, U], [Q(1, 2), Q(1, 2)]],
    "zeros3": [[W, U, 0], [0, U, W]],
    "repeat": [[W, U], [W, U], [U, W]],
    "lin": [[t, 1 - t], [Q(1, 2), Q(1, 2)]],  # valid for t <= 1 only: t >= 1 leaves the point t = 1
    "onezero": [[1, 0], [W, U]],
    "tc": [[t, 1 - t], [c, 1 - c]],
    "wc": [[W, U], [c, 1 - c]],
}
REGIONS = {"ge1": (t >= 1,), "le1": (t <= 1,)}
T_POINTS, C_POINTS = (Q(1, 3), Q(1, 2), Q(1), Q(3, 2), Q(3)), (Q(1, 5), Q(1, 2))


def _measures(N: int) -> dict:
    return {
        "ldp_ratio": ldp_ratio,
        "pml_ratio": lambda K: pml_ratio(K, Q(1, 2 * N)),
        "eta_tv": eta_tv,
        "eta_hockey_stick": lambda K: eta_hockey_stick(K, 2),
        "max_leakage": max_leakage,
        "privacy_profile": privacy_profile,
        "is_ldp": lambda K: is_ldp(K, t=2, delta=Q(1, 2)),
    }


MEASURES = tuple(_measures(2))
#: seconds each on the loaded 2-core machine: two-parameter ratios, E_2 and profiles (2-D decisions, up to
#: 8 s), and the one-parameter profile of "lin" (41 s: crossings of the pair lines in gamma and t)
SLOW = {(k, m) for k in ("tc", "wc") for m in MEASURES if m not in ("eta_tv", "max_leakage")}
SLOW.add(("lin", "privacy_profile"))
#: not run: none.  is_ldp of ((t, 1-t), (c, 1-c)) on t <= 1 did not finish in minutes (the prover's case split
#: of eta's two-parameter Piecewise: to_dnf of the negated conditions has ~3.4e5 conjunctions); the prover now
#: estimates that count first and refuses with ResourceLimitError (a project error, accepted below)
NOT_RUN: set = set()


def _points(name: str, conds: tuple) -> list:
    """Up to three rational parameter points inside the region (declared conditions, valid kernel)."""
    rows = ROWS[name]
    syms = sorted(set().union(*(sympy.sympify(e).free_symbols for r in rows for e in r)), key=str)
    grid = [{}]
    for s in syms:
        grid = [{**p, s: v} for p in grid for v in (C_POINTS if s == c else T_POINTS)]
    out = []
    for p in grid:
        if all(bool(cd.subs(p)) for cd in conds):
            try:
                out.append((p, Kernel([[sympy.sympify(e).subs(p) for e in r] for r in rows])))
            except errors.InvalidKernelError:
                continue
    return out[:: max(1, len(out) // 3)][:3]


@functools.lru_cache(maxsize=None)
def _value(name: str, region: str, measure: str):
    K = declare_region(Kernel(ROWS[name]), *REGIONS[region])
    try:
        return _measures(K.N)[measure](K)
    except errors.ExactDPError as exc:  # a project error is an allowed answer (the test's contract)
        return exc


def _expr(v):
    return Q(int(v.p), int(v.q)) if isinstance(v, fmpq) else sympy.sympify(v)


def _at(value, point):
    v = sympy.piecewise_fold(_expr(value).subs(point))
    assert not v.free_symbols and not v.has(sympy.Piecewise), f"closed form {value} undecided at {point}: {v}"
    return v


def _equal(a, b) -> bool:
    a, b = _expr(a), _expr(b)
    return a == b or (sympy.oo not in (a, b) and sympy.simplify(a - b) == 0)


CASES = [pytest.param(k, r, m, marks=[pytest.mark.slow] if (k, m) in SLOW else [])
         for k in ROWS for r in REGIONS for m in MEASURES if (k, m) not in NOT_RUN]


@pytest.mark.parametrize(("name", "region", "measure"), CASES)
def test_measure_is_the_rational_value_at_points_or_a_project_error(name, region, measure):
    value = _value(name, region, measure)
    if isinstance(value, errors.ExactDPError):
        return
    points = _points(name, REGIONS[region])
    assert points, f"{name} on {region}: no rational point to check"
    f = _measures(len(ROWS[name]))[measure]
    for point, Kp in points:
        exact = f(Kp)
        if measure == "privacy_profile":
            for g in (Q(1), Q(2), Q(3)):
                assert _equal(_at(value(g), point), exact(g)), f"{name}/{region} delta({g}) at {point}"
        elif measure == "is_ldp":
            if value is Truth.TRUE:  # proved on the whole region: true at each point
                assert exact is Truth.TRUE, f"{name}/{region}: TRUE on the region, {exact} at {point}"
        else:
            assert _equal(_at(value, point), exact), f"{name}/{region} {measure} at {point}: {value} vs {exact}"


def test_a_region_reduced_to_one_point():
    """randomized_response(2, t) carries t >= 1; declaring t <= 1 leaves t = 1, where eta_TV = 0 and the
    LDP ratio is 1 (the cell decomposition had no open cell there: IndexError)."""
    K = declare_region(M.randomized_response(2, t), t <= 1)
    assert _expr(eta_tv(K)).subs(t, 1) == 0
    assert _expr(ldp_ratio(K)).subs(t, 1) == 1


def test_an_empty_region_is_refused():
    K = declare_region(Kernel(ROWS["sym2"]), t >= 2, t <= 1)
    with pytest.raises(errors.ParameterError, match="region.*empty"):
        eta_tv(K)


def test_the_one_parameter_closed_forms_on_both_sides():
    """Issue 13: the same rows declared t >= 1 / t <= 1 give (t-1)/(t+1) and (1-t)/(t+1)."""
    assert sympy.cancel(_expr(_value("sym2", "ge1", "eta_tv")) - (t - 1) / (t + 1)) == 0
    assert sympy.cancel(_expr(_value("sym2", "le1", "eta_tv")) - (1 - t) / (t + 1)) == 0


def test_two_parameter_ldp_ratio_with_a_column_maximum_in_the_quotients():
    """K = ((t, 1-t), (c, 1-c)): the column extremes are Piecewise (max/min of t and c); the ratio was a
    sympy PolynomialError.  Now a closed form: oo where exactly one of t, c is 1, 1 where t = c, and
    max(t/c, (1-c)/(1-t)) for c < t < 1 (symmetrically for t < c)."""
    value = ldp_ratio(Kernel(ROWS["tc"]))
    assert _at(value, {t: Q(1, 2), c: Q(1, 5)}) == Q(5, 2)
    assert _at(value, {t: Q(1, 5), c: Q(1, 2)}) == Q(5, 2)
    assert _at(value, {t: Q(9, 10), c: Q(1, 2)}) == 5
    assert _at(value, {t: 1, c: Q(1, 2)}) == sympy.oo
    assert _at(value, {t: Q(1, 3), c: Q(1, 3)}) == 1
    assert _at(value, {t: 1, c: 1}) == 1  # rows (1, 0) twice: the all-zero column is no 0/0 infinity


def test_exploding_case_split_is_refused_before_the_work():
    """is_ldp of ((t, 1-t), (c, 1-c)) on t <= 1: the case split of eta's two-parameter Piecewise would have
    ~3.4e5 conjunctions (it ran for minutes); the prover counts them first and names the limit."""
    from exactdp.limits import ResourceLimitError

    K = declare_region(Kernel([[t, 1 - t], [c, 1 - c]]), t <= 1)
    with pytest.raises(ResourceLimitError, match=r"prover: case split .* max_work"):
        is_ldp(K, t=2, delta=Q(1, 2))
