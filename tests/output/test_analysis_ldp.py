"""``exactdp.analysis.analyze`` decides (ε,δ)-LDP from the η_{E_γ} it has just computed ([A] Thm 1: K is
(ε,δ)-LDP iff η_{E_{e^ε}}(K) ≤ δ) instead of a second pairwise pass: the decision equals ``is_ldp``'s."""

from __future__ import annotations

import random

import sympy
from flint import fmpq

from exactdp import Kernel, is_ldp
from exactdp.analysis import analyze
from exactdp.mechanisms import randomized_response
from exactdp.numbers.truth import Truth
from exactdp.verification.instances import random_kernel


def test_randomized_response_at_its_own_level():
    K = randomized_response(2, 3)  # [[3/4, 1/4], [1/4, 3/4]]: e^ε = 3, η_{E_2} = 1/4
    assert analyze(K, t=3).is_ldp is Truth.TRUE
    a = analyze(K, t=2, delta="1/4")
    assert (a.eta_hockey_stick, a.is_ldp) == (fmpq(1, 4), Truth.TRUE)  # δ = η exactly: still LDP
    assert analyze(K, t=2, delta="1/5").is_ldp is Truth.FALSE


def test_the_level_given_as_eps():
    """``eps=`` is the same level as ``t = e^eps``; an irrational e^eps keeps η_{E_t} exact (A − B·t) and
    decides (ε,δ)-LDP with certified comparisons."""
    K = randomized_response(2, 3)
    a, b = analyze(K, eps="log(3)", delta="1/5"), analyze(K, t=3, delta="1/5")
    assert (a.t, a.eta_hockey_stick, a.is_ldp) == (b.t, b.eta_hockey_stick, b.is_ldp) == (3, 0, Truth.TRUE)
    h = analyze(K, eps="1/2")  # t = e^(1/2) < 3: E_t(row 0 || row 1) = 3/4 − t/4 exactly
    assert sympy.simplify(h.eta_hockey_stick - (sympy.Rational(3, 4) - sympy.exp(sympy.Rational(1, 2)) / 4)) == 0
    assert h.is_ldp is Truth.FALSE  # δ = 0 < 3/4 − e^(1/2)/4
    assert analyze(K, eps="1/2", delta="1/2").is_ldp is Truth.TRUE  # 3/4 − e^(1/2)/4 ≈ 0.338 ≤ 1/2


def test_equals_is_ldp_on_random_kernels():
    rng = random.Random(15)
    seen = set()
    for k in range(60):
        K = random_kernel(rng, rng.randint(2, 5), rng.randint(2, 5), 12, full_support=k % 2 == 0)
        for g in (fmpq(1), fmpq(3, 2), fmpq(4), fmpq(10**6)):  # 10^6: beyond every likelihood ratio
            eta = analyze(K, t=g, profile_limit=1).eta_hockey_stick
            for d in (fmpq(0), eta, eta / 2, (1 + eta) / 2):
                got = analyze(K, t=g, delta=d, profile_limit=1).is_ldp  # profile not needed
                assert got is is_ldp(K, t=g, delta=d)
                seen.add(got)
    assert seen == {Truth.TRUE, Truth.FALSE}


def test_kernel_with_zeros_at_large_gamma():
    K = Kernel([["1/2", "1/2", "0"], ["0", "1/2", "1/2"]])  # η_{E_γ} = 1/2 for every γ (disjoint mass)
    a = analyze(K, t=10**9, delta="1/2")
    assert (a.eta_hockey_stick, a.is_ldp) == (fmpq(1, 2), Truth.TRUE)
    assert analyze(K, t=10**9, delta="49/100").is_ldp is Truth.FALSE is is_ldp(K, t=10**9, delta="49/100")
