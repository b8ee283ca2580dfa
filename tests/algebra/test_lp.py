"""The exact simplex (exactdp.algebra.lp): optima against textbook values and brute-force vertex enumeration,
certificates re-checked exactly, anti-cycling on Beale's example, infeasible/unbounded certificates."""

import itertools
import random
from fractions import Fraction

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import given
from hypothesis import strategies as st

from exactdp.errors import CoercionError, ShapeError
from exactdp.numbers.truth import Truth
from exactdp.algebra.lp import LinearProgram, LPSolution, certificate_failures, check_certificate, solve


def _solved(lp):
    sol = solve(lp)
    assert certificate_failures(lp, sol) == []
    assert check_certificate(lp, sol) is Truth.TRUE
    return sol


def test_textbook_optimum_and_duals():
    # max 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: optimum 11 at (3, 1), duals (2, 0, 1)
    lp = LinearProgram([3, 2], [[1, 1], [1, 3], [1, 0]], [4, 6, 3])
    sol = _solved(lp)
    assert sol.status == "optimal"
    assert sol.value == 11 and sol.x == (fmpq(3), fmpq(1))
    assert sol.y_ub == (fmpq(2), fmpq(0), fmpq(1))


def test_equalities_and_negative_rhs_need_phase_one():
    # max x1 + x2, x1 − x2 = 1, x1 ≥ 2, x1 + x2 ≤ 5 → (3, 2), value 5
    lp = LinearProgram([1, 1], [[-1, 0], [1, 1]], [-2, 5], [[1, -1]], [1])
    sol = _solved(lp)
    assert sol.value == 5 and sol.x == (fmpq(3), fmpq(2))


def test_rational_data_exact():
    lp = LinearProgram(["1/3", "1/7"], [["2/5", "1/9"]], ["1/11"])
    sol = _solved(lp)
    # best ratio c/a: x1 gives (1/3)/(2/5) = 5/6, x2 gives (1/7)/(1/9) = 9/7 → x2 = 9/11, value 9/77
    assert sol.value == fmpq(9, 77)


def test_beale_cycling_example_terminates():
    """Beale (1955): cycles under Dantzig's rule with naive ties; optimum 1/20 at x4 = 1/25, x6 = 1."""
    lp = LinearProgram(["3/4", -150, "1/50", -6],
                       [["1/4", -60, "-1/25", 9], ["1/2", -90, "-1/50", 3], [0, 0, 1, 0]], [0, 0, 1])
    sol = _solved(lp)
    assert sol.value == fmpq(1, 20)
    assert sol.x == (fmpq(1, 25), fmpq(0), fmpq(1), fmpq(0))


def test_redundant_equalities():
    lp = LinearProgram([1, 2], A_eq=[[1, 1], [2, 2]], b_eq=[1, 2])
    sol = _solved(lp)
    assert sol.value == 2 and sol.x == (fmpq(0), fmpq(1))


def test_infeasible_farkas_certificate():
    lp = LinearProgram([1], [[1]], [1], [[1]], [2])
    sol = _solved(lp)
    assert sol.status == "infeasible"


def test_unbounded_ray_certificate():
    lp = LinearProgram([1, 0], [[-1, 1]], [1])
    sol = _solved(lp)
    assert sol.status == "unbounded" and sol.ray[0] > 0


def test_tampered_certificates_are_rejected():
    lp = LinearProgram([3, 2], [[1, 1], [1, 3], [1, 0]], [4, 6, 3])
    sol = solve(lp)
    worse = LPSolution("optimal", value=fmpq(10), x=(fmpq(2), fmpq(2)), y_ub=sol.y_ub, y_eq=())
    assert check_certificate(lp, worse) is Truth.FALSE
    infeasible_x = LPSolution("optimal", value=fmpq(12), x=(fmpq(4), fmpq(0)), y_ub=sol.y_ub, y_eq=())
    assert any("violated" in f for f in certificate_failures(lp, infeasible_x))
    bad_dual = LPSolution("optimal", value=sol.value, x=sol.x, y_ub=(fmpq(1), fmpq(0), fmpq(1)), y_eq=())
    assert any("dual row" in f for f in certificate_failures(lp, bad_dual))


def test_floats_refused_and_shapes_checked():
    with pytest.raises(CoercionError, match="float"):
        LinearProgram([0.5, 1], [[1, 1]], [1])
    with pytest.raises(CoercionError, match="float"):
        LinearProgram([1, 1], [[1, 1]], [0.1])
    with pytest.raises(ShapeError, match="A_ub"):
        LinearProgram([1, 1], [[1, 1, 1]], [1])
    with pytest.raises(ShapeError, match="b_ub"):
        LinearProgram([1, 1], [[1, 1]], [1, 2])
    assert LinearProgram([Fraction(1, 2)], [[1]], [1]).c == (fmpq(1, 2),)


def _brute_force(lp):
    """max c·x over the vertices of {A_ub x ≤ b, x ≥ 0} (bounded, no equalities), by exact linear solves."""
    n = lp.n
    rows = [list(r) for r in lp.A_ub] + [[fmpq(1) if j == k else fmpq(0) for j in range(n)] for k in range(n)]
    rhs = list(lp.b_ub) + [fmpq(0)] * n
    sense = [1] * len(lp.A_ub) + [-1] * n  # x ≥ 0 written as −x ≤ 0 below
    best = None
    for S in itertools.combinations(range(len(rows)), n):
        A = fmpq_mat([[rows[i][j] for j in range(n)] for i in S])
        if A.rank() < n:
            continue
        x = A.solve(fmpq_mat([[rhs[i]] for i in S]))
        x = [x[j, 0] for j in range(n)]
        ok = all(sum((a * v for a, v in zip(r, x)), fmpq(0)) <= b if s > 0 else
                 sum((a * v for a, v in zip(r, x)), fmpq(0)) >= b for r, b, s in zip(rows, rhs, sense))
        if ok:
            val = sum((a * v for a, v in zip(lp.c, x)), fmpq(0))
            best = val if best is None or val > best else best
    return best


@pytest.mark.parametrize("seed", range(40))
def test_random_bounded_lps_match_vertex_enumeration(seed):
    rng = random.Random(seed)
    n, m = rng.randint(2, 3), rng.randint(2, 5)
    A = [[fmpq(rng.randint(-3, 6), rng.randint(1, 4)) for _ in range(n)] for _ in range(m)]
    b = [fmpq(rng.randint(0, 8), rng.randint(1, 3)) for _ in range(m)]
    A += [[fmpq(1)] * n]  # a box keeps it bounded
    b += [fmpq(rng.randint(1, 9), rng.randint(1, 3))]
    c = [fmpq(rng.randint(-5, 5), rng.randint(1, 3)) for _ in range(n)]
    lp = LinearProgram(c, A, b)
    sol = _solved(lp)
    assert sol.status == "optimal"
    assert sol.value == _brute_force(lp)


@given(st.lists(st.integers(-4, 4), min_size=6, max_size=6), st.lists(st.integers(-3, 3), min_size=2, max_size=2),
       st.lists(st.integers(-3, 5), min_size=2, max_size=2))
def test_every_solution_carries_a_valid_certificate(a, b_eq, c):
    """Whatever the status (optimal, infeasible, unbounded), the returned certificate proves it."""
    lp = LinearProgram(c, [a[0:2], a[2:4]], [b_eq[0], b_eq[1]], [a[4:6]], [b_eq[0]])
    sol = solve(lp)
    assert certificate_failures(lp, sol) == []
