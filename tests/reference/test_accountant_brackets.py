"""Independent cross-check of the benchmarks' accountant columns (issue 24 item 5): ``benchmarks/_accountants.py``
runs dp_accounting's PLD at 1e-3 and 1e-4 (pessimistic and optimistic) and the PRV accountant on one workload, and
the exact δ_n(e^ε) and ε_n(δ) of binary randomized response lie inside every bracket.

The accountants are float oracles: their bounds enter only through ``exactdp.from_float`` (their exact binary
values) and certified arb balls; e^ε — irrational — is bracketed by two rationals, δ_n being non-increasing in γ.

Skipped when ``dp_accounting`` or ``prv_accountant`` is not installed (``pip install -e ".[bench]"``).
"""

import math

import pytest
from flint import arb, fmpq

from exactdp import delta_tensor_power, from_float
from exactdp.measures.profile_inversion import epsilon_tensor_power
from exactdp.mechanisms import randomized_response
from exactdp.numbers.rb import arb_to_fmpq

pytest.importorskip("dp_accounting")
pytest.importorskip("prv_accountant")

from benchmarks._accountants import (  # noqa: E402  (after the skips)
    accountants,
    epsilon_enclosure,
    pld_brackets,
    summary,
    verdict,
)

RR = (("3/4", "1/4"), ("1/4", "3/4"))  # randomized_response(2, 3): e^eps0 = 3
N = 5
EPSILONS = [f * N * math.log(3) for f in (0.1, 0.5, 0.8)]  # δ_5(e^ε) > 0 below 5·log 3
DELTA = fmpq(1, 10**3)


def _exp_bracket(eps: float) -> tuple[fmpq, fmpq]:
    """Rationals lo ≤ e^eps ≤ hi (eps read as its exact binary value)."""
    ball = arb(from_float(eps)).exp()
    return arb_to_fmpq(ball.lower()), arb_to_fmpq(ball.upper())


@pytest.fixture(scope="module")
def brackets():
    return accountants([[(RR, N)]], EPSILONS, [float(DELTA)])


def test_every_accountant_setting_answers(brackets):
    assert [b.name for b in brackets] == ["PLD 1e-3", "PLD 1e-4", "PRV"]
    for b in brackets:
        assert b.missing is None and b.na is None and b.points > 0, (b.name, b.na)
        assert len(b.deltas) == len(EPSILONS) and len(b.epsilons) == 1
        assert all(isinstance(x, tuple) and x[0] <= x[1] for x in b.deltas + b.epsilons), b


def test_exact_delta_inside_every_bracket(brackets):
    K = randomized_response(2, 3)
    for i, eps in enumerate(EPSILONS):
        g_lo, g_hi = _exp_bracket(eps)
        d_hi, d_lo = delta_tensor_power(K, N, g_lo), delta_tensor_power(K, N, g_hi)  # d_lo ≤ δ_5(e^eps) ≤ d_hi
        assert 0 < d_lo <= d_hi
        for b in brackets:
            lo, hi = b.deltas[i]
            assert from_float(lo) <= d_hi and d_lo <= from_float(hi), (b.name, eps, lo, float(d_lo), hi)
            assert b.delta_inside(i, d_lo, d_hi) is True


def test_exact_epsilon_inside_every_bracket(brackets):
    inv = epsilon_tensor_power(randomized_response(2, 3), N, DELTA)
    assert inv.exact
    for b in brackets:
        (e_lo, e_hi), = b.epsilons
        assert arb(from_float(e_lo)).exp() < arb(inv.t) < arb(from_float(e_hi)).exp(), (b.name, e_lo, float(inv.t))
        assert b.epsilon_inside(*epsilon_enclosure(inv)) is True


def test_verdict_reads_inside_and_outside(brackets):
    K = randomized_response(2, 3)
    inv = epsilon_tensor_power(K, N, DELTA)
    exact = [(delta_tensor_power(K, N, hi), delta_tensor_power(K, N, lo)) for lo, hi in map(_exp_bracket, EPSILONS)]
    for b in brackets:
        assert verdict(b, exact, [epsilon_enclosure(inv)]) == "inside"
        doubled = [(2 * lo, 2 * hi) for lo, hi in exact]  # twice δ: above every bracket
        assert verdict(b, doubled, [epsilon_enclosure(inv)]) == "OUTSIDE (3 of 4: d1 d2 d3)", b.name
        assert verdict(b, [None] + exact[1:], [None]) == "inside (2 of 4 compared; n/a: exactdp refused)"


def test_pld_below_its_truncation_floor_is_not_a_bracket():
    """Above 5·log 3 the exact δ_5 is 0, and both PLD estimates return their tail-truncation mass 10⁻¹⁵: no lower
    bound, so the query is n/a with the reason, not a bracket [10⁻¹⁵, 10⁻¹⁵] that misses 0."""
    b = pld_brackets([[(RR, N)]], [6.0], [], interval=1e-3)
    assert isinstance(b.deltas[0], str) and b.deltas[0].startswith("delta <= 2e-15")
    assert verdict(b, [(fmpq(0), fmpq(0))]) == f"n/a ({b.deltas[0]})"
    assert b.delta_text(0) == f"n/a ({b.deltas[0]})"


def test_summary_line_states_each_reason_once():
    b = pld_brackets([[(RR, N)]], [6.0], [], interval=1e-3)
    line = summary(b, 0.01, [(fmpq(0), fmpq(0))], [], bracket="delta")
    assert line.count("truncation floor") == 1 and line.endswith(f"n/a ({b.deltas[0]})") and "PLD 1e-3" in line
    refused = summary(b, 0.01, [None], [], bracket="delta")  # exactdp refused: the accountant's own reason still shown
    assert refused.count("truncation floor") == 1 and refused.endswith("n/a (exactdp refused)")
    assert " - exactdp" in refused  # no ratio against a refusal's time
