"""Identities with hyperbolic functions: both checkers (the engine's prover and `recheck`) rewrite them in
exponentials, an exact rewriting, so tanh(log(t)/2) = (t − 1)/(t + 1) is TRUE and a false one is not."""

import sympy

from exactdp import Truth
from exactdp.algebra.prover import exponential_form, prove_identity
from exactdp.recheck import OK, REJECTED, Recheck, _identity

t = sympy.Symbol("t", positive=True)


def test_exponential_form_of_tanh_half_log():
    assert exponential_form(sympy.tanh(sympy.log(t) / 2)) == (t - 1) / (t + 1)
    assert exponential_form(sympy.cosh(sympy.log(t))) == (t**2 + 1) / (2 * t)


def test_prover_decides_hyperbolic_identities():
    assert prove_identity(sympy.tanh(sympy.log(t) / 2), (t - 1) / (t + 1)).truth is Truth.TRUE
    assert prove_identity(sympy.tanh(sympy.log(t) / 2), (t - 1) / (t + 2)).truth is not Truth.TRUE


def test_recheck_decides_hyperbolic_identities():
    good = Recheck("good", "symbolic-statements")
    _identity(sympy.tanh(sympy.log(t) / 2) - (t - 1) / (t + 1), good, "tanh", [t >= 1], positive=(t,))
    assert good.status == OK and any("exponentials" in s for s in good.steps)
    bad = Recheck("bad", "symbolic-statements")
    _identity(sympy.tanh(sympy.log(t) / 2) - (t - 1) / (t + 2), bad, "tanh", [t >= 1], positive=(t,))
    assert bad.status == REJECTED
