"""Closed forms of the core (issue 2): a first set; the full suite lives beside it."""

from flint import fmpq

from exactdp import eta_hockey_stick, eta_tv, ldp_ratio, pml_ratio
from exactdp.mechanisms import grosse_binary_mechanism, grosse_intro_K1, randomized_response


def test_eta_tv_k_ary_rr_closed_form():
    for k in (2, 3, 5):
        for g in (fmpq(1), fmpq(2), fmpq(7, 3), fmpq(10)):
            assert eta_tv(randomized_response(k, g)) == (g - 1) / (g + k - 1)


def test_binary_rr_hockey_stick_values():
    K = randomized_response(2, 3)
    assert eta_hockey_stick(K, 1) == fmpq(1, 2)
    assert eta_hockey_stick(K, 2) == fmpq(1, 4)
    assert eta_hockey_stick(K, 3) == 0


def test_grosse_binary_pml_ratio_is_gamma():
    assert pml_ratio(grosse_binary_mechanism(3, "1/4"), "1/4") == 3
    assert eta_tv(grosse_binary_mechanism(3, "1/4")) == fmpq(4, 5)


def test_grosse_intro_K1():
    K1 = grosse_intro_K1()
    assert str(ldp_ratio(K1)) == "oo"
    assert pml_ratio(K1, "1/4") == fmpq(4, 3)
    assert eta_tv(K1) == fmpq(1, 3)
