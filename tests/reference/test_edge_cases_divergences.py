r"""Zero masses in every f-divergence (D-2): Q(y) = 0 < P(y) gives P(y)·f′(∞) (possibly +∞), P(y) = 0 < Q(y)
gives Q(y)·f(0⁺), P(y) = Q(y) = 0 is skipped — compared with a brute-force evaluation of the definition
written out term by term below (independent of exactdp.measures), exactly and with mpmath.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
import sympy

from exactdp import chi2, f_divergence, hellinger2, hockey_stick, kl, renyi, tv
from exactdp.certified import certified_compare, evalf
from exactdp.measures.divergences import t
from exactdp.numbers.truth import Truth
from tests.certified_support import assert_encloses

R = sympy.Rational
oo = sympy.oo

# y:        0 (Q=0<P)  1 (both)  2 (P=0<Q)  3 (P=Q=0)
P_A = [R(1, 2), R(1, 2), R(0), R(0)]
Q_A = [R(0), R(1, 2), R(1, 2), R(0)]
# finite everywhere but with P = 0 < Q and P = Q = 0
P_B = [R(1, 3), R(2, 3), R(0), R(0)]
Q_B = [R(1, 6), R(1, 2), R(1, 3), R(0)]

# generator f, f(0+), f'(oo) — by hand
GENERATORS = {
    "kl": (lambda r: r * sympy.log(r), R(0), oo),
    "chi2": (lambda r: (r - 1) ** 2, R(1), oo),
    "h2": (lambda r: (sympy.sqrt(r) - 1) ** 2, R(1), R(1)),
    "tv": (lambda r: abs(r - 1) / 2, R(1, 2), R(1, 2)),
    "e2": (lambda r: sympy.Max(r - 2, 0), R(0), R(1)),
    "e_sqrt_e": (lambda r: sympy.Max(r - sympy.exp(R(1, 2)), 0), R(0), R(1)),
}


def brute_f(P, Q, name):
    f, f0, slope = GENERATORS[name]
    total = sympy.Integer(0)
    for p, q in zip(P, Q):
        if p == 0 and q == 0:
            continue
        if q == 0:
            if slope is oo:
                return oo
            total += p * slope
        elif p == 0:
            total += q * f0
        else:
            total += q * f(p / q)
    return total


def brute_renyi(P, Q, alpha):
    if alpha is oo:
        if any(q == 0 < p for p, q in zip(P, Q)):
            return oo
        return sympy.log(max(p / q for p, q in zip(P, Q) if p > 0))
    if alpha == 0:
        return -sympy.log(sum(q for p, q in zip(P, Q) if p > 0))
    if alpha > 1 and any(q == 0 < p for p, q in zip(P, Q)):
        return oo
    s = sum(p**alpha * q ** (1 - alpha) for p, q in zip(P, Q) if p > 0 and q > 0)
    return sympy.log(s) / (alpha - 1)


def _same(value, expected):
    if expected is oo or value is oo:
        assert value is oo and expected is oo, (value, expected)
        return
    assert certified_compare(value, "==", expected) is Truth.TRUE, (value, expected)
    if not sympy.sympify(expected).is_Rational:
        with mpmath.workdps(160):
            ref = mpmath.mpf(sympy.N(expected, 170))  # sympy's own evaluation: an independent route
        assert_encloses(value, lambda: ref, min_bits=90)


FUNCS = {
    "kl": kl,
    "chi2": chi2,
    "h2": hellinger2,
    "tv": tv,
    "e2": lambda P, Q: hockey_stick(P, Q, 2),
    "e_sqrt_e": lambda P, Q: hockey_stick(P, Q, sympy.exp(R(1, 2))),
}
GENS = {
    "kl": t * sympy.log(t),
    "chi2": (t - 1) ** 2,
    "h2": (sympy.sqrt(t) - 1) ** 2,
    "tv": sympy.Abs(t - 1) / 2,
}


@pytest.mark.parametrize("name", sorted(FUNCS))
@pytest.mark.parametrize("P, Q", [(P_A, Q_A), (P_B, Q_B), (Q_B, P_B), (P_A, P_A)])
def test_named_divergences_match_the_definition(name, P, Q):
    _same(FUNCS[name](P, Q), brute_f(P, Q, name))


@pytest.mark.parametrize("name", sorted(GENS))
@pytest.mark.parametrize("P, Q", [(P_A, Q_A), (P_B, Q_B), (Q_B, P_B)])
def test_generic_f_divergence_matches_the_definition(name, P, Q):
    _same(f_divergence(P, Q, GENS[name]), brute_f(P, Q, name))


@pytest.mark.parametrize("alpha", [R(0), R(1, 2), R(2), R(3, 2), oo])
@pytest.mark.parametrize("P, Q", [(P_A, Q_A), (P_B, Q_B), (Q_B, P_B)])
def test_renyi_matches_the_definition(alpha, P, Q):
    _same(renyi(P, Q, alpha), brute_renyi(P, Q, alpha))


def test_known_values_with_zero_masses():
    assert kl(P_A, Q_A) is oo and chi2(P_A, Q_A) is oo
    assert hellinger2(P_A, Q_A) == 1 and tv(P_A, Q_A) == R(1, 2)
    assert renyi(P_A, Q_A, R(1, 2)) == 2 * sympy.log(2)
    assert renyi(P_A, Q_A, 0) == sympy.log(2)
    assert renyi([1, 0], [0, 1], R(1, 2)) is oo  # disjoint supports
    assert renyi(P_B, Q_B, 1) == kl(P_B, Q_B)  # alpha = 1 is KL
    with mpmath.workdps(60):
        ref = mpmath.nstr(mpmath.log(2) / 3 + 2 * mpmath.log(mpmath.mpf(4) / 3) / 3, 20, strip_zeros=False)
    assert evalf(kl(P_B, Q_B), 20) == ref == "0.42283710848783572143"


def test_renyi_is_monotone_in_alpha_certified():
    vals = [renyi(P_B, Q_B, a) for a in (R(0), R(1, 2), R(1), R(3, 2), R(2), oo)]
    for a, b in itertools.pairwise(vals):
        assert certified_compare(a, "<=", b) is Truth.TRUE


def test_float_naive_kl_with_a_zero_mass_is_nan():
    p, q = np.array([1 / 3, 2 / 3, 0.0]), np.array([1 / 6, 1 / 2, 1 / 3])
    with np.errstate(divide="ignore", invalid="ignore"):
        naive = float(np.sum(p * np.log(p / q)))
    assert math.isnan(naive)  # 0·log 0 = 0·(−∞) = nan; the exact convention gives a finite value
    assert certified_compare(kl([R(1, 3), R(2, 3), 0], [R(1, 6), R(1, 2), R(1, 3)]), ">", 0) is Truth.TRUE
