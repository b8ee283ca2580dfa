"""exact_at's rational route (bounds._rational_at: a registry expression compiled once to fmpq arithmetic)
against the substitution it replaces, at random rational points of every registry entry; the points it cannot
take (a symbol left free, an irrational value, a power beyond the size limit) keep the substitution's answer."""

from __future__ import annotations

import random

import pytest
import sympy
from flint import fmpq

from exactdp import bounds as B
from exactdp.limits import limits
from exactdp.numbers.reader import ReadError, substitute


def _substituted(expr, values):
    syms = {s.name: s for s in expr.free_symbols}
    out = substitute(expr, {syms[k]: B._sym_value(v, k) for k, v in values.items() if k in syms}, scale=10)
    return fmpq(int(out.p), int(out.q)) if out.is_Rational else out


def test_rational_route_equals_the_substitution_on_every_entry():
    rng = random.Random(24)
    taken = 0
    for name in B.names():
        b = B.get(name)
        for _ in range(12):
            values = {p.name: rng.choice([1, 2, 3, 5]) if p.is_integer else
                      rng.choice([fmpq(rng.randint(0, 20), rng.randint(1, 20)), rng.randint(0, 4),
                                  sympy.Rational(rng.randint(1, 9), rng.randint(1, 9))]) for p in b.parameters}
            try:
                expected = _substituted(b.expr, values)
            except (ReadError, ZeroDivisionError, ValueError, TypeError):
                continue
            fast = B._rational_at(b.expr, values)
            if fast is not None:
                taken += 1
                assert isinstance(fast, fmpq) and fast == expected, (name, values)
            assert B.exact_at(b.expr, values) == expected
    assert taken > 100  # the route is taken on the rational entries (xi, phi, gamma_max_lemma4, ...)


def test_points_off_the_route_keep_the_substitution():
    xi = B.get("xi").expr
    assert B._rational_at(xi, {"t": 3, "c": fmpq(1, 4)}) is None  # N left free
    assert B._rational_at(xi, {"t": sympy.sqrt(2), "c": fmpq(1, 4), "N": 2}) is None
    assert B.exact_at(xi, {"t": 3, "c": fmpq(1, 4), "N": 2}) == fmpq(4, 5)
    phi_n = B.get("phi_n").expr
    with limits(max_integer_digits=10):  # (1/2)^400 is beyond 10 x 10 digits: refused, as by the substitution
        assert B._rational_at(phi_n, {"t": 2, "delta": fmpq(1, 2), "n": 400}) is None
        with pytest.raises(ReadError):
            B.exact_at(phi_n, {"t": 2, "delta": fmpq(1, 2), "n": 400})
    assert B.exact_at(phi_n, {"t": 2, "delta": fmpq(1, 2), "n": 3}) == 1 - fmpq(1, 64)
