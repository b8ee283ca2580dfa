"""The catalogue's newer mechanisms: closed forms of η_TV and the LDP ratio against brute force.

Brute force here is independent of the library's measures: η_TV as the largest K_x(A) − K_x′(A) over every
ordered row pair and every output set A, the LDP ratio as the largest K[x][y]/K[x′][y] over all triples.
"""

import itertools
import math

import pytest
import sympy
from flint import fmpq

from exactdp import certified_compare, eta_tv, is_ldp, ldp_ratio
from exactdp.errors import ParameterError
from exactdp.mechanisms import (discretized_gaussian, hadamard_response, k_subset, randomized_response, staircase,
                                symmetric_unary_encoding, truncated_geometric, unary_encoding)

Q = fmpq


def brute_eta_tv(K):
    rows = K.rows
    best = Q(0)
    for i, j in itertools.permutations(range(K.N), 2):
        for r in range(1, K.M + 1):
            for A in itertools.combinations(range(K.M), r):
                best = max(best, sum((rows[i][y] - rows[j][y] for y in A), Q(0)))
    return best


def brute_ldp(K):
    return max(K.rows[x][y] / K.rows[xp][y] for x in range(K.N) for xp in range(K.N) for y in range(K.M))


@pytest.mark.parametrize("k, g", [(2, Q(3)), (3, Q(2)), (4, Q(5, 2)), (5, Q(3)), (6, Q(7, 5))])
def test_truncated_geometric(k, g):
    K = truncated_geometric(k, g)
    a = 1 / g
    closed = 1 - (a ** (k // 2) + a ** ((k + 1) // 2)) / (1 + a)
    assert eta_tv(K) == brute_eta_tv(K) == closed
    assert ldp_ratio(K) == brute_ldp(K) == g ** (k - 1)
    # neighbouring inputs are eps-indistinguishable with e^eps = gamma
    assert max(K.rows[x][y] / K.rows[x + 1][y] for x in range(k - 1) for y in range(k)) == g


def test_truncated_geometric_k2_is_binary_randomized_response():
    assert truncated_geometric(2, 3).rows == randomized_response(2, 3).rows


@pytest.mark.parametrize("k, q", [(2, Q(1, 2)), (3, Q(1, 3)), (4, Q(2, 3)), (5, Q(9, 10))])
def test_discretized_gaussian(k, q):
    K = discretized_gaussian(k, q)
    for x in range(k):
        z = sum((q ** ((x - y) ** 2) for y in range(k)), Q(0))
        assert K.rows[x] == tuple(q ** ((x - y) ** 2) / z for y in range(k))
    assert eta_tv(K) == brute_eta_tv(K)
    assert ldp_ratio(K) == brute_ldp(K)
    # rows 0 and k-1 mirror each other; at q = 1/2, k = 2 it is randomized response at e^eps = 2
    assert K.rows[0] == tuple(reversed(K.rows[k - 1]))
    if (k, q) == (2, Q(1, 2)):
        assert K.rows == randomized_response(2, 2).rows


@pytest.mark.parametrize("k, d, g", [(3, 1, Q(3)), (3, 2, Q(2)), (4, 2, Q(5, 2)), (5, 2, Q(4)), (5, 3, Q(3, 2))])
def test_k_subset(k, d, g):
    K = k_subset(k, d, g)
    assert K.M == math.comb(k, d)
    z = math.comb(k - 1, d - 1) * g + math.comb(k - 1, d)
    assert eta_tv(K) == brute_eta_tv(K) == math.comb(k - 2, d - 1) * (g - 1) / z
    assert ldp_ratio(K) == brute_ldp(K) == g
    if d == 1:
        assert K.rows == randomized_response(k, g).rows


@pytest.mark.parametrize("k, g", [(2, Q(3)), (3, Q(2)), (5, Q(5, 2)), (7, Q(4))])
def test_hadamard_response(k, g):
    K = hadamard_response(k, g)
    assert K.M == 1 << k.bit_length()
    assert eta_tv(K) == brute_eta_tv(K) == (g - 1) / (2 * (g + 1))
    assert ldp_ratio(K) == brute_ldp(K) == g


@pytest.mark.parametrize("k, g", [(2, Q(4)), (3, Q(9, 4))])
def test_symmetric_unary_encoding_at_a_square(k, g):
    s = Q(2) if g == 4 else Q(3, 2)
    K = symmetric_unary_encoding(k, g)
    assert K == unary_encoding(k, s / (s + 1), 1 / (s + 1))
    assert eta_tv(K) == brute_eta_tv(K) == (s - 1) / (s + 1)
    assert ldp_ratio(K) == brute_ldp(K) == g


def test_rappor_at_e_eps_3_is_exact_with_sqrt3():
    """Basic RAPPOR at e^eps = 3 (not a rational square): entries in Q(sqrt 3), eta_TV = (sqrt3-1)/(sqrt3+1)."""
    K = symmetric_unary_encoding(2, 3)
    s = sympy.sqrt(3)
    assert sympy.simplify(K.rows[0][2] - s ** 2 / (s + 1) ** 2) == 0
    assert sympy.simplify(eta_tv(K) - (s - 1) / (s + 1)) == 0
    assert sympy.simplify(ldp_ratio(K) - 3) == 0
    assert is_ldp(K, t=3).value == "true"
    assert is_ldp(K, t=Q(299, 100)).value == "false"
    # brute force: every subset difference as an exact expression, the largest chosen by certified comparisons
    best = sympy.Integer(0)
    for i, j in itertools.permutations(range(K.N), 2):
        for r in range(1, K.M + 1):
            for A in itertools.combinations(range(K.M), r):
                d = sum((K.rows[i][y] - K.rows[j][y] for y in A), sympy.Integer(0))
                if certified_compare(d, ">", best).value == "true":
                    best = d
    assert sympy.simplify(best - (s - 1) / (s + 1)) == 0


@pytest.mark.parametrize("g, simplest", [(sympy.sqrt(2), 3 - 2 * sympy.sqrt(2)), (sympy.E, (sympy.E - 1) / (sympy.E + 1)),
                                         (sympy.pi, (sympy.pi - 1) / (sympy.pi + 1)),
                                         (sympy.exp(sympy.Rational(1, 2)),
                                          (sympy.exp(sympy.Rational(1, 2)) - 1) / (sympy.exp(sympy.Rational(1, 2)) + 1))])
def test_irrational_entries_give_simplified_answers(g, simplest):
    """eta_TV of binary randomized response at an irrational e^eps = g is (g-1)/(g+1) ([A] Thm 3 at gamma = 1,
    the two rows' TV distance), in its simplest form: for an algebraic g such as sqrt(2) the value lies in
    Q(sqrt(2)), whose normal form a + b*sqrt(2) (the denominator rationalised: 3 - 2*sqrt(2) equals
    (sqrt(2) - 1)/(sqrt(2) + 1)) is unique and has the fewest operations; for a transcendental g (e, pi,
    e^(1/2)) there is no such normal form and the one fraction (g - 1)/(g + 1) is the simplest (not
    -1/(1+g) + g/(1+g))."""
    K = randomized_response(2, g)
    value = eta_tv(K)
    assert value == simplest  # structurally: the simplest form, not only an equal value
    assert sympy.simplify(value - (g - 1) / (g + 1)) == 0
    assert sympy.count_ops(value) <= sympy.count_ops((g - 1) / (g + 1)) < sympy.count_ops(-1 / (1 + g) + g / (1 + g))
    assert ldp_ratio(K) == g


def test_bad_parameters_are_named():
    with pytest.raises(ParameterError, match=r"d: must lie in \[1, k-1\] = \[1, 2\], got 3"):
        k_subset(3, 3, 2)
    with pytest.raises(ParameterError, match=r"q: must lie in \(0, 1\)"):
        discretized_gaussian(3, 1)
    with pytest.raises(ParameterError, match="t: t = e\\^eps must be >= 1"):
        hadamard_response(3, Q(1, 2))
    with pytest.raises(ParameterError, match="symmetric unary encoding needs a number"):
        symmetric_unary_encoding(2, sympy.Symbol("t", positive=True))


def _staircase_tail(m, g, D, r):
    """P(Z >= m) of the staircase noise by symmetry and a finite sum (independent of the module's closed form):
    P(Z >= m) = (1 + P(Z = 0))/2 − Σ_{0 <= z < m} P(Z = z)."""
    a = (g - 1) / ((2 * r - 1) * (g - 1) + 2 * D)
    p = lambda z: a / g ** (0 if abs(z) < r else (abs(z) - r) // D + 1)  # noqa: E731
    return (1 + p(0)) / 2 - sum((p(z) for z in range(m)), Q(0))


@pytest.mark.parametrize("k", [2, 3, 4, 6, 7])
@pytest.mark.parametrize("g, D, r", [(Q(3, 2), 1, 1), (Q(2), 2, 1), (Q(2), 2, 2), (Q(5), 3, 1), (Q(5, 2), 3, 2)])
def test_staircase(k, g, D, r):
    K = staircase(k, g, D, r)
    level = lambda z: 0 if abs(z) < r else (abs(z) - r) // D + 1  # noqa: E731
    T = [_staircase_tail(m, g, D, r) for m in range(k)]
    assert K.rows[0][0] == T[0] and K.rows[0][k - 1] == T[k - 1]
    assert eta_tv(K) == brute_eta_tv(K) == 1 - T[k // 2] - T[(k + 1) // 2]
    inner = g ** level(k - 2) if k >= 3 else Q(1)
    assert ldp_ratio(K) == brute_ldp(K) == max(T[0] / T[k - 1], inner)
    # inputs at distance <= sensitivity are gamma-indistinguishable, and no better at distance exactly D
    near = [K.rows[x][y] / K.rows[x2][y] for x in range(k) for x2 in range(k) if abs(x - x2) <= D for y in range(k)]
    assert max(near) <= g
    if k > D:
        assert max(K.rows[x][y] / K.rows[x + D][y] for x in range(k - D) for y in range(k)) == g


def test_staircase_special_cases_and_errors():
    assert staircase(5, 3).rows == truncated_geometric(5, 3).rows
    assert staircase(3, 2, 2, 1).rows[0] == (Q(3, 5), Q(1, 10), Q(3, 10))
    with pytest.raises(ParameterError, match="r: must lie in"):
        staircase(4, 2, 2, 3)
    with pytest.raises(ParameterError, match="gamma: must be > 1"):
        staircase(4, 1)
    with pytest.raises(ParameterError, match="sensitivity"):
        staircase(4, 2, 0)
    t = sympy.Symbol("t", positive=True)
    Ks = staircase(3, t, 2, 1)
    assert [[v.subs(t, 2) for v in row] for row in Ks.rows] == [[sympy.Rational(v.p, v.q) for v in row]
                                                                 for row in staircase(3, 2, 2, 1).rows]
