"""The exact / certified value domain of conjecture checking: exactness, certified signs, undefined values."""

import pytest
import sympy
from flint import arb, fmpq
from hypothesis import given
from hypothesis import strategies as st

from exactdp.distributions import Distribution
from exactdp.mechanisms import randomized_response
from exactdp.testing import exact_kernels
from exactdp.verification.conjecture import parse_conjecture
from exactdp.numbers import loglin as V
from exactdp.verification.conjecture.classes import make_instances, member
from exactdp.verification.conjecture.quantities import Instance, evaluate_side
from exactdp.verification.conjecture.search import evaluate


def test_exp_of_integer_log_combination_is_exact():
    eps = V.log_of(fmpq(3))
    assert V.exp(V.mul(fmpq(-2), eps)) == fmpq(1, 9)
    assert isinstance(V.exp(V.mul(fmpq(1, 2), eps)), arb)


def test_pure_log_combinations_are_decided_exactly():
    # log 4 - 2 log 2 = 0 exactly, log 3 - log 2 > 0
    z = V.sub(V.log_of(fmpq(4)), V.mul(fmpq(2), V.log_of(fmpq(2))))
    assert V.sign(z) == 0
    assert V.sign(V.sub(V.log_of(fmpq(3)), V.log_of(fmpq(2)))) == 1


def test_exact_roots_and_certified_balls():
    assert V.power(fmpq(9, 4), fmpq(1, 2)) == fmpq(3, 2)
    s, v = V.certified_sign(lambda: V.sub(V.power(fmpq(2), fmpq(1, 2)), fmpq(141421, 100000)))
    assert s == 1 and isinstance(v, arb)


def test_undefined_values():
    with pytest.raises(V.Undefined):
        V.add(V.Inf(1), V.Inf(-1))
    with pytest.raises(V.Undefined):
        V.mul(fmpq(0), V.Inf(1))
    with pytest.raises(V.Undefined):
        V.inv(fmpq(0))
    assert V.log(fmpq(0)) == V.Inf(-1)


def _rr_instance(P=None, Q=None, n=None):
    return Instance("ldp", randomized_response(2, 3), fmpq(3), fmpq(0), None, n, P, Q)


def test_quantities_at_binary_randomized_response():
    inst = _rr_instance(Distribution(["1/2", "1/2"]), Distribution(["1/4", "3/4"]), n=2)
    val = lambda t: evaluate_side(parse_conjecture(t + " <= 1").lhs, inst)
    assert val("eta_tv") == fmpq(1, 2)
    assert val("(exp(eps)-1)/(exp(eps)+1)") == fmpq(1, 2)
    assert val("eta_tv_tensor(n)") == fmpq(1, 2)          # F-A1: eta_TV(RR x RR) = 1/2 at e^eps = 3
    assert val("delta(log(2))") == fmpq(1, 4)
    assert val("tv(K(P), K(Q))") == fmpq(1, 8)
    assert val("chi2(P, Q)") == fmpq(1, 3)
    kl = val("kl(P, Q)")                                     # (1/2)log 2 + (1/2)log(2/3), exactly
    assert isinstance(kl, V.LogLin) and kl.to_sympy().equals(sympy.log(2) / 2 + sympy.log(sympy.Rational(2, 3)) / 2)
    h = val("hellinger2(P, Q)")                              # 2 - 2(sqrt(1/8) + sqrt(3/8))
    with __import__("flint").ctx.workprec(100):
        assert V.to_arb(h).overlaps(2 - 2 * (arb(1) / 8).sqrt() - 2 * (arb(3) / 8).sqrt())
    assert val("ldp_eps") == V.log_of(fmpq(3))


def test_strict_inequality_fails_at_a_tight_point_and_non_strict_holds():
    inst = _rr_instance()
    assert evaluate(parse_conjecture("eta_tv < (exp(eps)-1)/(exp(eps)+1)"), inst).status == "violation"
    assert evaluate(parse_conjecture("eta_tv <= (exp(eps)-1)/(exp(eps)+1)"), inst).status == "ok"


def test_exact_ties_with_roots_are_decided_not_left_unknown():
    P, Q = Distribution(["1/3", "2/3"]), Distribution(["1/5", "4/5"])
    inst = Instance("ldp", randomized_response(2, 1), fmpq(1), fmpq(0), None, None, P, Q)
    # the constant kernel: H^2(KP, KQ) = 0 exactly
    assert evaluate(parse_conjecture("hellinger2(K(P), K(Q)) <= 0"), inst).status == "ok"
    # the identity: H^2(KP, KQ) = H^2(P, Q), two different sums of irrational roots, equal exactly
    ident = Instance("pml", __import__("exactdp").Kernel.identity(2), fmpq(2), None, fmpq(1, 2), None, P, Q)
    assert evaluate(parse_conjecture("hellinger2(K(P), K(Q)) < hellinger2(P, Q)"), ident).status == "violation"
    assert evaluate(parse_conjecture("hellinger2(K(P), K(Q)) <= hellinger2(P, Q)"), ident).status == "ok"


def test_infinite_quantities():
    K = Instance("pml", __import__("exactdp").Kernel.identity(2), fmpq(2), None, fmpq(1, 2))
    assert evaluate(parse_conjecture("ldp_eps <= eps"), K).status == "violation"    # oo > log 2
    assert evaluate(parse_conjecture("ldp_eps <= oo"), K).status == "ok"            # oo <= oo
    assert evaluate(parse_conjecture("ldp_eps < oo"), K).status == "violation"


def test_rows_hockey_stick_leakage_and_pml_quantities():
    K = randomized_response(3, 2)            # rows (2,1,1)/4, ...: e^LDP = 2
    inst = Instance("pml", K, fmpq(2), None, fmpq(1, 3))
    val = lambda t: evaluate_side(parse_conjecture(t + " <= 1").lhs, inst)
    assert val("tv(row(0), row(1))") == fmpq(1, 4)
    assert val("hs(row(0), row(1), 3/2)") == fmpq(1, 8)        # (1/2 - 3/8)_+ + 0 + 0
    assert val("hs(row(0), row(1), 2)") == 0
    assert val("eta_hs(3/2)") == fmpq(1, 8) and val("delta(log(3/2))") == fmpq(1, 8)
    assert val("max_leakage") == V.log_of(fmpq(3, 2))          # sum of column maxima 3 * 1/2
    assert val("pml_eps(1/3)") == V.log_of(fmpq(3, 2))         # max / (S_y / 3) = (1/2)/(1/3)
    assert val("pml_eps(c)") == val("pml_eps(1/3)")
    with pytest.raises(V.Undefined):
        val("tv(row(5), row(0))")                               # no such row: the instance is skipped
    with pytest.raises(V.Undefined):
        val("pml_eps(1)")                                       # c outside (0, 1/N]


def test_result_as_outcome():
    from exactdp.verification.claims import Verdict
    from exactdp.verification.conjecture import check

    r = check("eta_tv <= (exp(eps)-1)/(exp(eps)+2)", "ldp", budget=40)
    o = r.as_outcome()
    assert o.verdict is Verdict.REFUTED and o.counterexample["rows"] == r.counterexample["rows"]
    r2 = check("tv(K(P),K(Q)) <= eta_tv*tv(P,Q)", "ldp", budget=40)
    assert r2.as_outcome().verdict in (Verdict.VERIFIED, Verdict.PROVED)




@given(exact_kernels(max_size=3).filter(lambda K: K.N >= 2 and K.M >= 2), st.integers(0, 10**6))
def test_instances_are_class_members_and_tight_theorems_hold(K, seed):
    """Every sampled instance lies in its class (exact membership), [A] Thm 1 and the phi-lemma hold at
    each, and TV = E_1 (two routes) makes the strict comparison a certified violation, the weak one hold."""
    import random

    thm = parse_conjecture("eta_hs(exp(eps)) <= delta")
    phi = parse_conjecture("eta_tv <= 1-(1-delta)*exp(-eps)")
    self_strict = parse_conjecture("tv(K(P), K(Q)) < hs(K(P), K(Q), 1)")
    self_weak = parse_conjecture("tv(K(P), K(Q)) <= hs(K(P), K(Q), 1)")
    rng = random.Random(seed)
    for cls in ("ldp", "approx-ldp", "pml"):
        for inst in make_instances(cls, K, rng, uses_inputs=True, uses_n=False):
            assert member(inst).decided and bool(member(inst))
            if cls != "pml":
                assert evaluate(thm, inst).status == "ok"
                assert evaluate(phi, inst).status == "ok"
            assert evaluate(self_strict, inst).status == "violation"
            assert evaluate(self_weak, inst).status == "ok"
