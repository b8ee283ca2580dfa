"""One vocabulary for the privacy level (exactdp.parameters): every public signature that asks for a privacy
level takes ``t=`` (t = e^ε) or ``eps=``; ``gamma`` is only the order of E_γ; δ, c and counts are checked by
one function each, whose messages name the argument, the rule and the value."""

import pytest
import sympy
from flint import fmpq

import exactdp
from exactdp import is_ldp
from exactdp.errors import CoercionError, ParameterError
from exactdp.mechanisms import grosse_binary_mechanism, optimal_binary_approx_ldp, randomized_response
from exactdp.measures.contraction import eta_tv
from exactdp.parameters import PMLLevel, PrivacyLevel, check_c, check_count, check_delta


def test_is_ldp_takes_t_or_eps():
    K = randomized_response(4, 3)
    assert is_ldp(K, t=3) is exactdp.Truth.TRUE and is_ldp(K, t="29/10") is exactdp.Truth.FALSE
    assert is_ldp(K, eps="log(3)") is exactdp.Truth.TRUE  # e^{log 3} = 3 exactly
    assert is_ldp(K, eps=sympy.log(3)) is exactdp.Truth.TRUE
    assert is_ldp(K, eps=1) is exactdp.Truth.FALSE  # e < 3
    assert is_ldp(K, eps="log(3)", delta=0) is is_ldp(K, 3)  # t is the second positional argument


def test_randomized_response_takes_t_or_eps():
    assert randomized_response(4, t=3).rows[0] == (fmpq(1, 2), fmpq(1, 6), fmpq(1, 6), fmpq(1, 6))
    assert randomized_response(4, eps="log(3)") == randomized_response(4, t=3)
    K = randomized_response(4, eps=1)  # entries e/(e + 3), 1/(e + 3): exact, in the certified domain
    E = sympy.E
    assert K.rows[0][0] == E / (E + 3) and K.rows[0][1] == 1 / (E + 3)
    assert sympy.simplify(sympy.sympify(eta_tv(K)) - (E - 1) / (E + 3)) == 0
    assert optimal_binary_approx_ldp(eps="log(3)", delta="1/10").rows == optimal_binary_approx_ldp(3, "1/10").rows
    assert grosse_binary_mechanism(eps="log(2)", c="1/4") == grosse_binary_mechanism(2, "1/4")


def test_privacy_level_is_the_one_type():
    assert exactdp.bounds.PrivacyLevel is PrivacyLevel and exactdp.bounds.PMLLevel is PMLLevel
    assert PrivacyLevel.of(t=3, delta="1/10") == PrivacyLevel(fmpq(3), fmpq(1, 10))
    level = PrivacyLevel.of(eps="log(3)")
    assert level.t == fmpq(3) and level.eps == sympy.log(3) and level == PrivacyLevel.of(3)
    assert PrivacyLevel.of(eps=0).t == 1 and PrivacyLevel.of(eps="1/2").t == sympy.exp(sympy.Rational(1, 2))
    with pytest.raises(ParameterError, match=r"t, eps: give exactly one of t = e\^eps and eps"):
        PrivacyLevel.of(3, eps=1)
    with pytest.raises(ParameterError, match=r"t: t = e\^eps must be >= 1, got 1/2"):
        PrivacyLevel.of("1/2")
    with pytest.raises(ParameterError, match=r"eps: must be >= 0, got -log\(2\)"):
        PrivacyLevel.of(eps="-log(2)")
    with pytest.raises(CoercionError, match=r"eps: floats"):
        PrivacyLevel.of(eps=0.5)


@pytest.mark.parametrize("call,match", [
    (lambda: check_delta("3/2"), r"delta: must lie in \[0, 1\], got 3/2"),
    (lambda: check_delta(-1, "tensor delta"), r"tensor delta: must lie in \[0, 1\], got -1"),
    (lambda: check_c("1/2", 4), r"c: must lie in \[0, 1/N\] = \[0, 1/4\], got 1/2"),
    (lambda: check_count(0), r"n: must be a positive integer, got 0"),
    (lambda: check_count(True, "N"), r"N: must be a positive integer, got True"),
    (lambda: check_count(1, "N", 2), r"N: must be an integer >= 2, got 1"),
    (lambda: PMLLevel.of("1/3", 4), r"c: must lie in \[0, 1/N\] = \[0, 1/4\], got 1/3"),
])
def test_one_check_each(call, match):
    with pytest.raises(ParameterError, match=match):
        call()


def test_checks_return_exact_values():
    assert check_delta("1/10") == fmpq(1, 10) and check_c(0, 3) == 0 and check_count(7) == 7
    assert PMLLevel.of("1/4", 4) == PMLLevel(fmpq(1, 4), 4)


def test_exactdp_QQ_is_the_domain():
    """``exactdp.QQ`` is the exact rational domain (numbers.domain.QQ), not its element type (flint fmpq)."""
    from exactdp.numbers.domain import QQ, Domain

    assert exactdp.QQ is QQ and isinstance(exactdp.QQ, Domain)
    assert exactdp.QQ.convert("3/7") == fmpq(3, 7) and exactdp.QQ.max([fmpq(1, 3), fmpq(1, 2)]) == (fmpq(1, 2), 1)
    assert not hasattr(exactdp.numbers, "QQ") or exactdp.numbers.QQ is QQ


def test_extremal_classes_take_t_or_eps():
    """The class suprema ask for a privacy level like every other signature: t = e^eps, or eps."""
    from exactdp.theory.extremal import gamma_max, sup_eta_tv

    assert sup_eta_tv(2, eps="log(3)", delta="1/10").value == sup_eta_tv(2, t=3, delta="1/10").value == fmpq(11, 20)
    assert gamma_max(2, eps="log(3)", c="1/4").value == gamma_max(2, 3, "1/4").value == fmpq(7, 3)
    with pytest.raises(ParameterError, match="t, eps: give exactly one"):
        sup_eta_tv(2, t=3, eps="log(3)")
