"""The number domains (exactdp.numbers.domain): QQ, RB and SR give the same answers where they overlap,
three-valued comparisons never guess, and the one E_γ sum agrees with a brute force in each domain."""

from __future__ import annotations

import itertools
from math import isqrt

import pytest
import sympy
from flint import fmpq

from exactdp.errors import CoercionError, ParameterError, UndecidedError
from exactdp.measures.contraction import eta_in
from exactdp.measures.divergences import hockey_stick_in
from exactdp.numbers.domain import QQ, RB, SR, unify
from exactdp.numbers.rb import precision_cap
from exactdp.numbers.truth import Sign, Truth
from exactdp.symbolic.closedforms import sr_domain
from exactdp.algebra.prover import Region

t = sympy.Symbol("t", positive=True)
Q = sympy.Rational


def test_qq_signs_max_and_positive_part():
    assert QQ.convert("3/7") == fmpq(3, 7) and QQ.zero == 0 and QQ.one == 1
    assert [QQ.sign(fmpq(x)) for x in (-2, 0, 5)] == [Sign.NEGATIVE, Sign.ZERO, Sign.POSITIVE]
    assert QQ.positive_part(fmpq(-1, 3)) == 0 and QQ.positive_part(fmpq(2, 3)) == fmpq(2, 3)
    assert QQ.max([fmpq(1, 3), fmpq(1, 2), fmpq(1, 2), fmpq(0)]) == (fmpq(1, 2), 1)  # first maximizer
    assert QQ.compare(fmpq(1, 3), "<", fmpq(1, 2)) is Truth.TRUE
    assert QQ.compare(fmpq(1, 2), "!=", fmpq(2, 4)) is Truth.FALSE


@pytest.mark.parametrize("bad", [0.25, sympy.Float(0.25)])
def test_floats_are_refused_in_every_domain(bad):
    for D in (QQ, RB(), sr_domain(Region.of(t >= 1))):
        with pytest.raises(CoercionError):
            D.convert(bad, "x")


def test_rb_certifies_signs_and_refuses_to_guess():
    D = RB("test")
    e = sympy.exp(Q(1, 2))
    assert D.sign(e - Q(1648, 1000)) is Sign.POSITIVE and D.sign(e - Q(1649, 1000)) is Sign.NEGATIVE
    assert D.sign(sympy.log(6) - sympy.log(2) - sympy.log(3)) is Sign.ZERO  # an exact tie
    assert D.positive_part(Q(3, 4) - e / 4) == Q(3, 4) - e / 4 and D.positive_part(Q(1, 4) - 3 * e / 4) == 0
    assert D.max([1 - e / 2, Q(1, 10), e - 1]) == (e - 1, 2)
    r = Q(isqrt(2 * 4**100), 2**100)  # within 2^-100 of sqrt(2): 64-bit balls cannot separate them
    close = sympy.sqrt(2) - r
    with precision_cap(64):
        assert D.sign(close) is None
        assert D.compare(sympy.sqrt(2), ">", r) is Truth.UNKNOWN
        with pytest.raises(UndecidedError, match="test: the sign of"):
            D.positive_part(close)
    assert D.sign(close) is Sign.POSITIVE  # decided at the default cap
    with pytest.raises(ParameterError, match="free symbols"):
        D.convert(t)


def test_sr_decides_on_its_region():
    D = sr_domain(Region.of(t >= 1))
    assert isinstance(D, SR) and D.zero == 0 and D.convert(fmpq(1, 2)) == Q(1, 2)
    assert D.sign(t + 1) is Sign.POSITIVE and D.sign(1 - t - 1) is Sign.NEGATIVE
    assert D.sign(t - 2) is None and D.compare(t, ">=", 1) is Truth.TRUE and D.compare(t, ">", 1) is Truth.UNKNOWN
    assert D.compare(t, "<", 1) is Truth.FALSE and D.compare(t + 1, "==", 1) is Truth.FALSE
    assert D.compare(t - 2, "<=", 0) is Truth.UNKNOWN  # true on [1, 2] only: not on the whole region
    assert D.compare(t * (t + 1), "==", t**2 + t) is Truth.TRUE
    assert D.positive_part(t - 1) == t - 1 and D.positive_part(1 - t) == 0
    assert D.positive_part(t - 2) == sympy.Piecewise((t - 2, t > 2), (0, True))
    assert D.max([t, t**2, 1])[0] == t**2
    narrower = sr_domain(Region.of(t >= 3))
    assert narrower.sign(t - 2) is Sign.POSITIVE


def test_unify_chooses_qq_rb_or_none():
    assert unify([fmpq(1), fmpq(1, 2)]) is QQ
    assert isinstance(unify([fmpq(1), sympy.exp(1)]), RB)
    assert unify([fmpq(1), t]) is None


def test_fast_paths_are_per_domain_class_and_fall_back_to_the_generic_algorithm():
    class Toy(type(QQ)):
        name = "Toy"

    D = Toy()
    assert Toy.routes == {} and "eta_hockey_stick" in type(QQ).routes  # each class its own table
    calls = []

    @Toy.fast_path("twice")
    def twice(dom, x):
        calls.append(dom)
        return None if x < 0 else 2 * x  # does not apply to negative x

    def generic(dom, x):
        return x + x

    assert D.run("twice", generic, 5) == 10 and calls == [D]
    assert D.run("twice", generic, -3) == -6 and len(calls) == 2  # the route declined: the generic body ran
    assert D.run("other", generic, 4) == 8  # no route for this measure
    with pytest.raises(ValueError, match="already registered"):
        Toy.fast_path("twice")(twice)


def test_qq_routes_agree_with_the_generic_bodies_on_kernels_with_ties():
    """Each measure's QQ route (integer form, float filter) against its generic body over QQ (fmpq loops)."""
    import random

    from exactdp.kernels import Kernel
    from exactdp.measures.contraction import eta_in
    from exactdp.measures.privacy import ldp_ratio_in, max_leakage_in, pml_ratio_in

    rng = random.Random(28)
    for trial in range(12):
        n, m = rng.randint(2, 9), rng.randint(2, 9)
        rows = []
        for _ in range(n):  # few distinct rows and entries: equal ratios and pairs (ties)
            d = rng.choice([4, 6, 12, 10**12 + 39])
            cuts = sorted(rng.choice([0, d // 4, d // 2, d // 3, d]) for _ in range(m - 1))
            rows.append([fmpq(b - a, d) for a, b in zip([0, *cuts], [*cuts, d])])
        K = Kernel(rows)
        for name, generic, args in (("ldp_ratio", ldp_ratio_in, ()), ("max_leakage_ratio", max_leakage_in, ()),
                                    ("pml_ratio", pml_ratio_in, (fmpq(1, 2 * n),)),
                                    ("eta_hockey_stick", eta_in, (fmpq(3, 2),)), ("eta_hockey_stick", eta_in, (fmpq(1),))):
            fast = type(QQ).routes[name](QQ, K, *args)
            slow = generic(QQ, K, *args)
            if fast is None:
                continue
            if name == "max_leakage_ratio":
                assert fast == slow, (trial, name)
            elif name == "eta_hockey_stick":
                assert fast[0] == slow[0], (trial, name, args)  # pairs: both first maximizers, tested elsewhere
            else:
                assert fast[:2] == slow[:2] or fast[0] == slow[0] == 1, (trial, name)


def _brute_hockey_stick(p, q, g):
    """sup over all subsets A of p(A) − γ q(A) (the variational form of E_γ)."""
    best = sympy.Integer(0)
    for r in range(len(p) + 1):
        for A in itertools.combinations(range(len(p)), r):
            best = max(best, sum((p[i] - g * q[i] for i in A), 0))
    return best


@pytest.mark.parametrize("g", [Q(1), Q(3, 2), Q(1, 3), Q(5)])
def test_the_one_hockey_stick_sum_in_three_domains(g):
    """QQ value = brute force; the same vectors as RB and as SR (constants, on any region) agree exactly."""
    p, q = [Q(1, 2), Q(1, 3), Q(1, 6)], [Q(1, 5), Q(1, 5), Q(3, 5)]
    expected = _brute_hockey_stick(p, q, g)
    qq = hockey_stick_in(QQ, [fmpq(x.p, x.q) for x in p], [fmpq(x.p, x.q) for x in q], fmpq(g.p, g.q))
    assert qq == fmpq(expected.p, expected.q)
    assert RB().result(hockey_stick_in(RB(), p, q, g)) == qq
    D = sr_domain(Region.of(t >= 1))
    assert D.result(hockey_stick_in(D, p, q, g)) == qq


def test_sr_hockey_stick_at_rational_points_is_the_qq_value():
    """E_t(RR) as a closed form on t ≥ 1, substituted at rational t, equals the QQ sum there."""
    p, q = [t / (t + 1), 1 / (t + 1)], [1 / (t + 1), t / (t + 1)]
    D = sr_domain(Region.of(t >= 1))
    closed = D.result(hockey_stick_in(D, p, q, 2))
    for x in (Q(1), Q(3, 2), Q(2), Q(7, 2), Q(10)):
        pv = [fmpq(e.subs(t, x).p, e.subs(t, x).q) for e in p]
        qv = [fmpq(e.subs(t, x).p, e.subs(t, x).q) for e in q]
        value = sympy.piecewise_fold(closed.subs(t, x)) if isinstance(closed, sympy.Basic) else closed
        assert QQ.convert(value) == hockey_stick_in(QQ, pv, qv, fmpq(2))


def _random_kernels(seed: int, count: int):
    """Small exact kernels with zeros (so +∞ ratios and empty positive parts occur)."""
    import random

    from exactdp import Kernel

    rng = random.Random(seed)
    for _ in range(count):
        N, M = rng.randint(2, 4), rng.randint(2, 5)
        rows = []
        for _ in range(N):
            w = [rng.randint(0, 6) for _ in range(M)]
            w[rng.randrange(M)] += 1
            rows.append([fmpq(x, sum(w)) for x in w])
        yield Kernel(rows)


@pytest.mark.parametrize("g", [Q(1), Q(3, 2), Q(1, 3), Q(4)])
def test_the_one_eta_in_qq_is_the_integer_fast_path(g):
    """η over the QQ domain (every pair's E_γ sum, certified max) = the vectorized integer route."""
    from exactdp import eta_hockey_stick

    for K in _random_kernels(13, 6):
        value, i, j = eta_in(QQ, K, fmpq(g.p, g.q))
        assert value == eta_hockey_stick(K, g)
        assert hockey_stick_in(QQ, K.rows[i], K.rows[j], fmpq(g.p, g.q)) == value


def test_eta_in_rb_and_sr_agree_with_the_public_routes():
    from exactdp import eta_tv
    from exactdp.mechanisms import randomized_response
    from exactdp.numbers.rb import certified_compare

    e = sympy.exp(Q(1, 2))
    K = randomized_response(3, e)  # irrational constant entries: the ball domain
    value, _, _ = eta_in(RB("eta"), K, 1)
    assert certified_compare(value, "==", (e - 1) / (e + 2)) is Truth.TRUE
    Ks = randomized_response(3, t)
    value, i, j = eta_in(sr_domain(Region.of(t >= 1)), Ks, 1)
    assert sympy.cancel(value - (t - 1) / (t + 2)) == 0 and (i, j) == (0, 1)
    assert eta_tv(randomized_response(3, 4)) == eta_in(QQ, randomized_response(3, 4), fmpq(1))[0] == fmpq(1, 2)


def test_chi2_once_in_three_domains():
    """χ² = Σ (p − q)²/q: QQ against Fractions, zero masses (0 and +∞), RB and SR against the same values."""
    from fractions import Fraction as F

    from exactdp import chi2
    from exactdp.measures.divergences import chi2_in
    from exactdp.numbers.rb import certified_compare

    p, q = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 5), F(1, 5), F(3, 5)]
    assert chi2(p, q) == fmpq(sum((a - b) ** 2 / b for a, b in zip(p, q)).numerator,
                              sum((a - b) ** 2 / b for a, b in zip(p, q)).denominator)
    assert chi2(["1/2", "1/2", "0"], ["1/2", "1/2", "0"]) == 0  # 0·f(0/0) = 0
    assert chi2(["1/2", "1/2", "0"], ["1", "0", "0"]) is sympy.oo
    e = sympy.exp(Q(1, 2))
    value = chi2([e / (e + 1), 1 / (e + 1)], [1 / (e + 1), e / (e + 1)])
    assert certified_compare(value, "==", (e - 1) ** 2 / e) is Truth.TRUE
    D = sr_domain(Region.of(t >= 1))
    closed = D.result(chi2_in(D, [t / (t + 1), 1 / (t + 1)], [1 / (t + 1), t / (t + 1)]))
    assert sympy.cancel(closed - (t - 1) ** 2 / t) == 0
    for x in (Q(1), Q(2), Q(9, 4)):
        assert chi2([x / (x + 1), 1 / (x + 1)], [1 / (x + 1), x / (x + 1)]) == QQ.convert(closed.subs(t, x))
    assert chi2_in(D, [t / (t + 1), 1 / (t + 1)], [0, 1]) is sympy.oo


def test_column_ratio_once_qq_equals_the_fast_paths_and_rb_the_closed_forms():
    """e^{LDP} and e^{C(K,Q_X(c))} as the one column-ratio maximum: QQ = the integer routes (zeros give
    +∞), RB = the closed forms at t = e^{1/2} (certified equality)."""
    from exactdp import Kernel, ldp_ratio, pml_ratio
    from exactdp.mechanisms import grosse_binary_mechanism, randomized_response
    from exactdp.measures.privacy import column_ratio_in
    from exactdp.numbers.rb import certified_compare

    for K in _random_kernels(7, 8):
        N = K.N
        assert column_ratio_in(QQ, K, lambda col, lo: lo)[0] == ldp_ratio(K)
        c = fmpq(1, 2 * N)
        pml = column_ratio_in(QQ, K, lambda col, lo: c * sum(col, fmpq(0)) + (1 - N * c) * lo)[0]
        assert pml == pml_ratio(K, c)
    e = sympy.exp(Q(1, 2))
    assert certified_compare(ldp_ratio(randomized_response(3, e)), "==", e) is Truth.TRUE
    assert certified_compare(pml_ratio(randomized_response(3, e), "1/4"), "==", 4 * e / (e + 3)) is Truth.TRUE
    assert certified_compare(pml_ratio(grosse_binary_mechanism(e, "1/4"), "1/4"), "==", e) is Truth.TRUE
    assert ldp_ratio(Kernel([[sympy.sqrt(2) / 2, 1 - sympy.sqrt(2) / 2], [1, 0]])) is sympy.oo


def test_max_leakage_once_in_three_domains():
    """Σ_y max_x K(y|x): QQ = the integer route; SR closed form of RR_3 = 3t/(t+2) equals the QQ value at
    rational t; RB at t = e^{1/2} equals it (certified)."""
    from exactdp import max_leakage_ratio
    from exactdp.mechanisms import randomized_response
    from exactdp.measures.privacy import max_leakage_in
    from exactdp.numbers.rb import certified_compare

    for K in _random_kernels(3, 6):
        assert max_leakage_in(QQ, K) == max_leakage_ratio(K)
    closed = max_leakage_ratio(randomized_response(3, t))
    assert sympy.cancel(closed - 3 * t / (t + 2)) == 0
    for x in (Q(1), Q(5, 2), Q(7)):
        assert max_leakage_ratio(randomized_response(3, x)) == QQ.convert(closed.subs(t, x))
    e = sympy.exp(Q(1, 2))
    assert certified_compare(max_leakage_ratio(randomized_response(3, e)), "==", 3 * e / (e + 2)) is Truth.TRUE


def test_eta_of_a_rational_kernel_with_a_symbolic_gamma_is_the_sr_closed_form():
    """A rational kernel with γ a parameter goes to the SR domain (it used to reach the ball route and fail);
    the closed form equals the QQ value at rational γ, and is_ldp over all γ > 0 is refuted exactly."""
    from exactdp import eta_hockey_stick, is_ldp
    from exactdp.mechanisms import randomized_response

    g = sympy.Symbol("g", positive=True)
    K = randomized_response(2, 3)
    closed = eta_hockey_stick(K, g)
    for x in (Q(1, 5), Q(1, 3), Q(1), Q(2), Q(3), Q(4)):
        assert QQ.convert(sympy.piecewise_fold(closed.subs(g, x))) == eta_hockey_stick(K, x)
    assert is_ldp(K, g, "1/2") is Truth.FALSE  # small γ violate it
    assert is_ldp(K, 3, 0) is Truth.TRUE


def test_kl_once_zero_masses_decided_by_the_domain():
    """KL = Σ p log(p/q): QQ zero masses (0 and +∞); an entry that is 0 but not written as 0 (an irrational
    expression) is recognised by the RB domain; the SR closed form of RR_2 at rational t is the QQ value."""
    from exactdp import kl
    from exactdp.measures.divergences import kl_in
    from exactdp.numbers.rb import certified_compare

    assert kl(["1", "0"], ["1/2", "1/2"]) == sympy.log(2) and kl(["1/2", "1/2"], ["1", "0"]) is sympy.oo
    zero = sympy.log(6) - sympy.log(2) - sympy.log(3)  # = 0, not written as 0
    assert zero != 0
    assert kl_in(RB(), [Q(1, 2), Q(1, 2)], [1 + zero, zero]) is sympy.oo
    D = sr_domain(Region.of(t >= 1))
    closed = kl_in(D, [t / (t + 1), 1 / (t + 1)], [1 / (t + 1), t / (t + 1)])
    for x in (Q(2), Q(7, 3)):
        value = kl([x / (x + 1), 1 / (x + 1)], [1 / (x + 1), x / (x + 1)])
        assert certified_compare(closed.subs(t, x), "==", value) is Truth.TRUE
        assert certified_compare(value, "==", (x - 1) / (x + 1) * sympy.log(x)) is Truth.TRUE
