"""Independent cross-check: the PRV accountant (Gopi, Lee, Wutschitz 2021) on a discrete pair, as the benchmarks
build it (``benchmarks/_accountants.py``: the privacy loss log(P(y)/Q(y)) under P as a step-cdf privacy random
variable), brackets the exact δ_n(ε) and ε_n(δ) of binary randomized response.

The accountant is a float oracle: its bounds enter only through ``exactdp.from_float`` (their exact binary values)
and certified arb balls; e^ε — irrational — is bracketed by two rationals, δ_n being non-increasing in γ.

Skipped when ``prv_accountant`` is not installed (``pip install -e ".[bench]"``).
"""

import math

import pytest
from flint import arb, fmpq

from exactdp import delta_tensor_power, from_float
from exactdp.measures.profile_inversion import epsilon_tensor_power
from exactdp.mechanisms import randomized_response
from exactdp.numbers.rb import arb_to_fmpq

pytest.importorskip("prv_accountant")

from benchmarks._accountants import pair_loss, prv_brackets  # noqa: E402  (after the skip)

RR = (("3/4", "1/4"), ("1/4", "3/4"))  # randomized_response(2, 3): e^eps0 = 3


def _exp_bracket(eps: float) -> tuple[fmpq, fmpq]:
    """Rationals lo ≤ e^eps ≤ hi (eps read as its exact binary value)."""
    ball = arb(from_float(eps)).exp()
    return arb_to_fmpq(ball.lower()), arb_to_fmpq(ball.upper())


@pytest.mark.parametrize("n", [1, 5, 20])
def test_exact_delta_and_epsilon_inside_prv_brackets(n):
    K = randomized_response(2, 3)
    epsilons = [f * n * math.log(3) for f in (0.1, 0.5, 0.8)]  # δ_n(e^ε) > 0 below n·log 3
    delta = fmpq(1, 10**6)
    b = prv_brackets([[(RR, n)]], epsilons, [float(delta)])
    assert b.na is None and len(b.deltas) == 3 and b.points > 0
    for eps, (lo, hi) in zip(epsilons, b.deltas):
        g_lo, g_hi = _exp_bracket(eps)
        d_hi, d_lo = delta_tensor_power(K, n, g_lo), delta_tensor_power(K, n, g_hi)  # d_lo ≤ δ_n(e^eps) ≤ d_hi
        assert 0 < d_lo <= d_hi
        assert from_float(lo) <= d_hi and d_lo <= from_float(hi), (n, eps, lo, float(d_lo), hi)
    t_star = epsilon_tensor_power(K, n, delta).t  # exact rational e^ε of the least ε with δ_n(e^ε) ≤ 10⁻⁶
    (e_lo, e_hi), = b.epsilons
    assert arb(from_float(e_lo)).exp() < arb(t_star) < arb(from_float(e_hi)).exp(), (n, e_lo, float(t_star), e_hi)


def test_pair_loss_merges_equal_ratios_and_keeps_the_mass_at_infinity():
    losses, masses, at_inf = pair_loss(("1/2", "1/4", "1/4"), ("1/4", "1/8", "5/8"))
    assert list(losses) == [math.log(2) - math.log(5), math.log(2)] and list(masses) == [0.25, 0.75] and at_inf == 0
    losses, masses, at_inf = pair_loss(("1/2", "1/4", "1/4", "0"), ("0", "1/2", "1/2", "1/3"))
    assert list(losses) == [-math.log(2)] and list(masses) == [1.0] and at_inf == 0.5


def test_mass_at_infinity_is_not_answered():
    """The package's domain misses the finite part's lower tail there: δ_5 = 1 − 2⁻⁵ exactly, and its bracket
    would be [0.9965, 0.9971]; the helper answers n/a instead of a wrong bracket."""
    b = prv_brackets([[((("1/2", "1/4", "1/4"), ("0", "1/2", "1/2")), 5)]], [0.5], [1e-6])
    assert b.deltas == [] and b.epsilons == [] and b.na.startswith("mass at +inf")
    assert b.delta_text(0).startswith("n/a (mass at +inf") and b.delta_inside(0, 0.96875, 0.96875) is None
