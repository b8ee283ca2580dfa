"""Families of symbolic size k: closed forms in k, cross-checked against rational kernels of each size."""

import sympy

from exactdp import eta_hockey_stick, eta_tv, ldp_ratio
from exactdp.mechanisms import optimized_unary_encoding, randomized_response, unary_encoding
from exactdp.numbers.sr import as_sympy
from exactdp.symbolic import randomized_response_family, unary_encoding_family

R = sympy.Rational
k, t = sympy.Symbol("k", positive=True, integer=True), sympy.Symbol("t", positive=True)


def at(expr, **values):
    subs = {s: R(values[s.name]) for s in sympy.sympify(expr).free_symbols if s.name in values}
    return sympy.piecewise_fold(sympy.sympify(expr).subs(subs))


def test_randomized_response_symbolic_k_closed_forms():
    F = randomized_response_family()
    eta = F.eta_tv()
    assert sympy.cancel(eta - (t - 1) / (t + k - 1)) == 0
    e2 = F.eta_hockey_stick(2)
    assert e2 == sympy.Piecewise(((t - 2) / (t + k - 1), t > 2), (0, True))
    assert F.ldp_ratio() == t
    for kk in (2, 3, 4, 6):
        for g in (R(1), R(3, 2), R(2), R(9, 4), R(5)):
            K = randomized_response(kk, g)
            assert as_sympy(eta_tv(K)) == at(eta, k=kk, t=g)
            assert as_sympy(eta_hockey_stick(K, 2)) == at(e2, k=kk, t=g)
            assert as_sympy(ldp_ratio(K)) == g


def test_randomized_response_family_at_fixed_k_matches_the_parametric_kernel():
    F = randomized_response_family(k=3)
    assert sympy.cancel(F.eta_tv() - as_sympy(eta_tv(randomized_response(3, t)))) == 0


def test_unary_encoding_any_k_equals_the_two_bit_closed_form():
    F = unary_encoding_family(R(1, 2), 1 / (t + 1), (t >= 1,))  # optimized unary encoding
    eta, ldp = F.eta_tv(), F.ldp_ratio()
    assert sympy.cancel(eta - (t - 1) / (2 * (t + 1))) == 0 and ldp == t
    for kk in (2, 3, 4):
        for g in (R(1), R(2), R(7, 2)):
            K = optimized_unary_encoding(kk, g)
            assert as_sympy(eta_tv(K)) == at(eta, t=g)
            assert as_sympy(ldp_ratio(K)) == g
    p, q = sympy.symbols("p q", positive=True)
    F = unary_encoding_family(p, q, (p > q, p < 1))
    assert sympy.cancel(F.eta_tv() - (p - q)) == 0
    K = unary_encoding(3, R(3, 4), R(1, 5))
    assert as_sympy(eta_tv(K)) == R(3, 4) - R(1, 5)
    assert as_sympy(ldp_ratio(K)) == at(F.ldp_ratio(), p=R(3, 4), q=R(1, 5))
    e3 = F.eta_hockey_stick(3)
    assert as_sympy(eta_hockey_stick(K, 3)) == at(e3, p=R(3, 4), q=R(1, 5))
