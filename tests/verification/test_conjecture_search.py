"""Acceptance of `exactdp.check` (issue 9): wrong variants refuted with valid counterexamples, true theorems
of both papers give no counterexample, realistic wrong conjectures refuted; reports are exact."""

import json

import pytest
from flint import fmpq

from exactdp import Distribution, Kernel, eta_hockey_stick, eta_tv, is_ldp, kl, pml_ratio
from exactdp.io import kernel_from_text
from exactdp.numbers.truth import Truth
from exactdp.verification.conjecture import check, parse_conjecture
from exactdp.numbers import loglin as V


def q(s: str) -> fmpq:
    return fmpq(*map(int, s.split("/"))) if "/" in s else fmpq(int(s))


def kernel_of(ce) -> Kernel:
    K = kernel_from_text(ce["kernel_json"])  # the printed kernel file reads back
    assert K.as_strings() == ce["rows"]
    return K


def assert_member(ce):
    K, p = kernel_of(ce), ce["params"]
    g = q(p["t"])
    if ce["class"] == "ldp":
        assert is_ldp(K, t=g) is Truth.TRUE
    elif ce["class"] == "approx-ldp":
        assert is_ldp(K, t=g, delta=q(p["delta"])) is Truth.TRUE
    else:
        assert pml_ratio(K, q(p["c"])) <= g


def refuted(text, cls, **kw):
    """Run the search, assert a refutation whose kernel is in the class, return the counterexample."""
    r = check(text, cls, **{"budget": 80, **kw})
    assert r.verdict == "refuted", r.stats
    assert_member(r.counterexample)
    return r.counterexample


# -- wrong variants of the soundness suite: each refuted, the counterexample re-verified here ------------------

def test_constant_changed_ldp():
    ce = refuted("eta_tv <= (exp(eps)-1)/(exp(eps)+2)", "ldp")
    g = q(ce["params"]["t"])
    assert eta_tv(kernel_of(ce)) > (g - 1) / (g + 2)


def test_sign_flipped_approx_ldp():
    ce = refuted("eta_tv <= 1-(1+delta)*exp(-eps)", "approx-ldp")
    g, d = q(ce["params"]["t"]), q(ce["params"]["delta"])
    assert eta_tv(kernel_of(ce)) > 1 - (1 + d) / g


def test_one_minus_Nc_replaced_by_one_minus_c_pml():
    ce = refuted("eta_tv <= (exp(eps)-1)/(exp(eps)*(1-c)+1)", "pml", N="2..4")
    g, c = q(ce["params"]["t"]), q(ce["params"]["c"])
    assert eta_tv(kernel_of(ce)) > (g - 1) / (g * (1 - c) + 1)
    assert ce["slack"] == str(((g - 1) / (g * (1 - c) + 1)) - eta_tv(kernel_of(ce)))


def test_exponent_n_replaced_by_n_minus_1():
    ce = refuted("eta_tv_tensor(n) <= 1-exp(-n*eps)*(1-delta)**(n-1)", "approx-ldp")
    K, n = kernel_of(ce), int(ce["params"]["n"])
    g, d = q(ce["params"]["t"]), q(ce["params"]["delta"])
    lhs = eta_tv(K.tensor_power(n)) if n > 1 else eta_tv(K)
    assert lhs > 1 - (1 - d) ** (n - 1) / g ** n


def test_strict_at_a_tight_point():
    r = check("eta_tv < (exp(eps)-1)/(exp(eps)+1)", "ldp", N=2, M=2, budget=40)
    ce = r.counterexample
    assert r.verdict == "refuted" and r.strict
    g = q(ce["params"]["t"])
    assert eta_tv(kernel_of(ce)) == (g - 1) / (g + 1)      # equality: the strict version fails
    assert ce["slack"] == "0"
    r2 = check("eta_hs(exp(eps)) < delta", "approx-ldp", N=2, M=2, budget=40)
    ce2 = r2.counterexample
    assert r2.verdict == "refuted"
    assert eta_hockey_stick(kernel_of(ce2), q(ce2["params"]["t"])) == q(ce2["params"]["delta"])


# -- true theorems of both papers: no counterexample, never "proved" without a proof ------------------------------

TRUE_THEOREMS = [
    ("eta_tv <= (exp(eps)-1)/(exp(eps)+1)", "ldp"),                                   # B-4, [G] eq. (13)
    ("eta_tv <= (exp(eps)-1+2*delta)/(exp(eps)+1)", "approx-ldp"),                    # B-4, tight
    ("eta_tv <= 1-(1-delta)*exp(-eps)", "approx-ldp"),                                # [A] φ-lemma
    ("eta_hs(exp(eps)) <= delta", "approx-ldp"),                                      # [A] Thm 1
    ("eta_tv_tensor(n) <= 1-exp(-n*eps)*(1-delta)**n", "approx-ldp"),                 # [A] φⁿ
    ("eta_tv <= Min((exp(eps)-1)/(exp(eps)*(1-N*c)+1), 1)", "pml"),                   # [G] Thm 1 (G-15)
    ("kl(K(P),K(Q)) <= Min((exp(eps)-1)/(exp(eps)*(1-N*c)+1),1)*log((1-N*c)*exp(eps)+1)*tv(P,Q)", "pml"),  # G Cor 1
    ("kl(K(P),K(Q)) <= Min(4, exp(2*eps))*(exp(eps)-1)**2*tv(P,Q)**2", "ldp"),        # Duchi et al. (B-5)
    ("eta_tv <= eps", "ldp"),  # the example: TRUE for pure LDP, since eta_tv <= tanh(eps/2) <= eps/2
]


@pytest.mark.parametrize("text, cls", TRUE_THEOREMS)
def test_true_theorems_give_no_counterexample(text, cls):
    budget = 120 if "kl" in text or "tensor" in text else 200
    r = check(text, cls, budget=budget, seed=1)
    assert r.verdict in ("no-counterexample", "proved", "proved-modulo"), r.counterexample
    assert r.counterexample is None
    if r.verdict in ("proved", "proved-modulo"):  # only with the symbolic layer, and then with its derivation
        assert r.proof and "exactdp.algebra.prover" in r.proof[0]
        return
    assert r.proof == []
    assert r.stats["kernels"] > 0 and r.stats["undecided"] == 0
    assert sum(r.stats["kernels_per_class_and_size"].values()) == r.stats["kernels"] * len(r.classes)
    assert r.stats["kernels"] == budget
    assert "not a proof" in r.notes[0]
    # the closest approach is exact and certified non-negative
    assert r.closest is not None and r.closest["slack_enclosure"] != "?"
    assert r.closest["check"]["sign"] in (0, 1) and not r.closest["slack_enclosure"].startswith("[-")


# -- realistic wrong conjectures from the field ---------------------------------------------------------------------------

def test_ldp_bound_for_pml_kernels_is_refuted():
    ce = refuted("eta_tv <= (exp(eps)-1)/(exp(eps)+1)", "pml")
    g = q(ce["params"]["t"])
    assert eta_tv(kernel_of(ce)) > (g - 1) / (g + 1)


def test_kl_contracts_by_eta_tv_squared_is_refuted():
    ce = refuted("kl(K(P),K(Q)) <= eta_tv**2*kl(P,Q)", "ldp")
    K = kernel_of(ce)
    P, Q = Distribution(ce["P"]), Distribution(ce["Q"])
    slack = eta_tv(K) ** 2 * kl(P, Q) - kl(K.apply(P), K.apply(Q))   # exact sympy, then certified
    import sympy
    assert sympy.N(slack, 50) < 0 and "+/-" in ce["slack_enclosure"] and ce["slack_enclosure"].startswith("[-")


def test_eta_tv_le_eps_refuted_beyond_pure_ldp():
    for cls in ("approx-ldp", "pml"):
        r = check("eta_tv <= eps", cls, budget=80)
        assert r.verdict == "refuted"
        assert_member(r.counterexample)


def test_phi_power_reading_is_refuted():
    # F-A1: phi^n(eps, delta) is not phi(eps, delta)**n
    r = check("eta_tv_tensor(n) <= (1-(1-delta)*exp(-eps))**n", "approx-ldp", budget=80)
    ce = r.counterexample
    assert r.verdict == "refuted" and int(ce["params"]["n"]) >= 2
    K, n = kernel_of(ce), int(ce["params"]["n"])
    g, d = q(ce["params"]["t"]), q(ce["params"]["delta"])
    assert eta_tv(K.tensor_power(n)) > (1 - (1 - d) / g) ** n


def test_squared_coefficient_for_tv_is_refuted():
    r = check("tv(K(P),K(Q)) <= ((exp(eps)-1)/(exp(eps)+1))**2*tv(P,Q)", "ldp", budget=80)
    assert r.verdict == "refuted"
    assert_member(r.counterexample)


def test_pml_implies_ldp_is_refuted_with_an_infinite_level():
    r = check("ldp_eps <= eps", "pml", M=2, budget=200)
    assert r.verdict == "refuted"
    assert_member(r.counterexample)


def test_eta_tv_le_eps_over_one_plus_eps_refuted_near_eps_one():
    ce = refuted("eta_tv <= eps/(1+eps)", "ldp")
    assert ce["slack_enclosure"].startswith("[-")


# -- reports -------------------------------------------------------------------------------------------------------------

def test_counterexample_is_shrunk_and_json_ready():
    r = check("kl(K(P),K(Q)) <= eta_tv**2*kl(P,Q)", "ldp", budget=80)
    doc = json.loads(json.dumps(r.to_dict()))
    ce = doc["counterexample"]
    assert max(q(v).q for row in ce["rows"] for v in row) <= 12
    assert ce["member"] == "true" and ce["class"] == "ldp"
    text = str(r)
    assert "REFUTED" in text and "exactdp analyze" in text


@pytest.mark.slow
def test_same_seed_same_result_and_seed_matters_only_for_the_random_part():
    t = "kl(K(P),K(Q)) <= eps*(exp(eps)-1)/(exp(eps)+1)*tv(P,Q)"
    a, b = check(t, "ldp", budget=160, seed=5), check(t, "ldp", budget=160, seed=5)
    strip = lambda r: {k: v for k, v in r.to_dict()["stats"].items() if k != "seconds"}
    assert strip(a) == strip(b) and a.closest == b.closest


def test_bad_arguments():
    from exactdp.errors import ExactDPError

    with pytest.raises(ExactDPError, match="budget"):
        check("eta_tv <= 1", budget=0)
    with pytest.raises(ExactDPError, match="sizes"):
        check("eta_tv <= 1", N="1..3")
    with pytest.raises(ExactDPError, match="range like"):
        check("eta_tv <= 1", N="two")


def test_undecided_is_reported_never_counted(monkeypatch):
    # force every ball comparison to stay undecided: nothing may be reported as a violation
    monkeypatch.setattr(V, "PRECISIONS", (2,))
    monkeypatch.setattr("exactdp.verification.conjecture.search._exactly_zero", lambda conj, inst: False)
    r = check("kl(K(P),K(Q)) <= 2*kl(P,Q) + 1/1000000", "ldp", N=2, M=2, budget=40)
    assert r.verdict == "no-counterexample"
    assert r.stats["undecided"] > 0 and any("UNKNOWN" in n for n in r.notes)
    parse_conjecture("eta_tv <= 1")  # the parser is unaffected


def test_gamma_range_restricts_eps():
    # eps/(1+eps) >= tanh(eps/2) holds near eps = 1 (gamma in [5/2, 3]) and fails beyond eps ~ 1.26
    near_one = check("eta_tv <= eps/(1+eps)", "ldp", t="5/2..3", budget=120)
    assert near_one.verdict == "no-counterexample"
    lo, hi = q("5/2"), q("3")
    assert lo <= q(near_one.closest["params"]["t"]) <= hi
    assert near_one.stats["t_range"] == "5/2..3"
    ce = refuted("eta_tv <= eps/3", "ldp", t=("5/2", 3))
    assert lo <= q(ce["params"]["t"]) <= hi
    ce2 = refuted("eta_hs(exp(eps)) < delta", "approx-ldp", t="2..2")
    assert ce2["params"]["t"] == "2"
    from exactdp.errors import ExactDPError

    with pytest.raises(ExactDPError, match="1 <= lo <= hi"):
        check("eta_tv <= 1", t="1/2..2")
    # the same range given in eps (each e^eps rational), and an eps range whose ends are not log-rational
    by_eps = check("eta_tv <= eps/(1+eps)", "ldp", eps="log(5/2)..log(3)", budget=120)
    assert by_eps.stats["t_range"] == "5/2..3" and by_eps.closest == near_one.closest
    with pytest.raises(ExactDPError, match="eps: e.eps must be rational"):
        check("eta_tv <= 1", eps="1/2..1")
    with pytest.raises(ExactDPError, match="at most one"):
        check("eta_tv <= 1", t="2..3", eps="log(2)..log(3)")


def test_closest_approach_is_ranked_by_relative_slack():
    """Ranking only (never a decision): slack / (|small| + |large|), so both sides scaled by 1/1000 rank as the
    unscaled pair, and a relatively tighter pair with larger absolute slack ranks first."""
    from flint import fmpq

    from exactdp.verification.conjecture.search import relative_slack

    assert relative_slack(fmpq(1, 10), [fmpq(4, 10), fmpq(5, 10)]) == fmpq(1, 9)
    assert relative_slack(fmpq(1, 10000), [fmpq(4, 10000), fmpq(5, 10000)]) == fmpq(1, 9)
    assert relative_slack(fmpq(1, 100), [fmpq(1, 100), fmpq(2, 100)]) > relative_slack(fmpq(1, 10),
                                                                                       [fmpq(9), fmpq(91, 10)])
    assert relative_slack(fmpq(0), [fmpq(0), fmpq(0)]) == 0


def test_pml_input_pairs_include_the_centre_against_the_optimal_vertices():
    import random

    from flint import fmpq

    from exactdp import Kernel
    from exactdp.verification.conjecture.classes import input_pairs

    K = Kernel([["4/5", "1/5"], ["4/5", "1/5"], ["0", "1"]])
    c = fmpq(1, 6)
    pairs = input_pairs(K, {"c": c}, random.Random(0))
    probs = [(tuple(P.probs), tuple(Q.probs)) for P, Q in pairs]
    third = tuple(fmpq(1, 3) for _ in range(3))
    assert (third, (fmpq(1, 6), fmpq(1, 6), fmpq(2, 3))) in probs  # the vertex of the row with the zero
    assert all(min(P + Q) >= c for P, Q in probs) and len(probs) == 5
    assert len(input_pairs(K, {}, random.Random(0))) == 3  # no c: the pairs of the other classes, unchanged
