"""Independent cross-check: Google's ``dp_accounting`` PLD accountant brackets the exact δ_n(ε) (issue 7).

For k-ary randomized response the n-fold privacy profile δ_n(e^ε) is what a privacy-loss-distribution
accountant approximates: with ``pessimistic_estimate=True`` it returns an upper bound, with ``False`` a
lower bound.  The exact value (exactdp, type classes) must lie in between.  The accountant is a float
oracle: its outputs enter only through ``exactdp.from_float`` (their exact binary values), and e^ε —
irrational — is bracketed by two rationals from a certified arb ball, δ_n being non-increasing in γ.

Skipped when ``dp_accounting`` is not installed (``pip install dp-accounting``).
"""

import pytest
from flint import arb, fmpq

from exactdp import Kernel, delta_tensor_power, from_float

pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")


def _exact(x: arb) -> fmpq:
    man, exp = x.man_exp()
    return fmpq(int(man)) * fmpq(2) ** int(exp) if exp >= 0 else fmpq(int(man), 2 ** int(-exp))


def _exp_bracket(eps: float) -> tuple[fmpq, fmpq]:
    """Rationals lo ≤ e^eps ≤ hi (eps read as its exact binary value)."""
    ball = arb(from_float(eps)).exp()
    mid, rad = _exact(ball.mid()), _exact(ball.rad())
    return mid - rad, mid + rad


def _rr_kernel(k: int, p: fmpq) -> Kernel:
    """dp_accounting's randomized response: keep the input w.p. 1−p, else a uniform bucket."""
    hi, lo = 1 - p + p / k, p / k
    return Kernel([[hi if y == x else lo for y in range(k)] for x in range(k)])


# noise parameters that are exact doubles, so the accountant and exactdp see the same mechanism
CASES = [(2, 0.5), (3, 0.75), (4, 0.5)]
EPSILONS = [0.1, 0.5, 1.0, 2.0]


#: the quick run brackets k = 2 (and k = 2, 3 in the exact-expression test below); k = 3, 4 repeat the same check
#: on larger alphabets in the full run
@pytest.mark.parametrize("k,p", [CASES[0]] + [pytest.param(*case, marks=pytest.mark.slow) for case in CASES[1:]])
def test_exact_delta_inside_pld_bracket(k, p):
    K = _rr_kernel(k, from_float(p))
    upper_pld = pld.from_randomized_response(p, k, pessimistic_estimate=True)
    lower_pld = pld.from_randomized_response(p, k, pessimistic_estimate=False)
    brackets = {eps: _exp_bracket(eps) for eps in EPSILONS}
    checked = 0
    for n in range(1, 21):
        up, low = upper_pld.self_compose(n), lower_pld.self_compose(n)
        for eps, (g_lo, g_hi) in brackets.items():
            pess = from_float(up.get_delta_for_epsilon(eps))
            opt = from_float(low.get_delta_for_epsilon(eps))
            d_hi = delta_tensor_power(K, n, g_lo)  # ≥ δ_n(e^eps)
            d_lo = delta_tensor_power(K, n, g_hi)  # ≤ δ_n(e^eps)
            assert d_lo <= d_hi
            assert opt <= d_lo, (k, p, n, eps, float(opt), float(d_lo))
            assert d_hi <= pess, (k, p, n, eps, float(d_hi), float(pess))
            checked += 1
    assert checked == 20 * len(EPSILONS)


@pytest.mark.parametrize("k,p", CASES[:2])
def test_exact_expression_inside_pld_bracket(k, p):
    """The same check with the exact δ_n(e^ε) = A − B e^ε (ε = the double's exact value), compared with
    the accountant's floats by certified arithmetic."""
    from exactdp import delta_tensor_power_eps
    from exactdp.numbers.rb import RB
    from exactdp.numbers.truth import Sign

    K = _rr_kernel(k, from_float(p))
    upper_pld = pld.from_randomized_response(p, k, pessimistic_estimate=True)
    lower_pld = pld.from_randomized_response(p, k, pessimistic_estimate=False)
    for n in (1, 5, 20):
        up, low = upper_pld.self_compose(n), lower_pld.self_compose(n)
        for eps in EPSILONS:
            exact = RB(delta_tensor_power_eps(K, n, from_float(eps)))
            assert exact.compare_rational(from_float(up.get_delta_for_epsilon(eps))) in (Sign.NEGATIVE, Sign.ZERO)
            assert exact.compare_rational(from_float(low.get_delta_for_epsilon(eps))) in (Sign.POSITIVE, Sign.ZERO)


def test_bracket_is_informative():
    """The comparison is not vacuous: for binary RR (p = 1/2, e^ε0 = 3) at n = 10, ε = 1 the bracket
    is narrow (width < 10^-3) around an exact δ well inside (0, 1)."""
    K = _rr_kernel(2, fmpq(1, 2))
    _, g_hi = _exp_bracket(1.0)
    exact = delta_tensor_power(K, 10, g_hi)
    assert fmpq(1, 10) < exact < fmpq(9, 10)
    pess = from_float(pld.from_randomized_response(0.5, 2, pessimistic_estimate=True)
                      .self_compose(10).get_delta_for_epsilon(1.0))
    opt = from_float(pld.from_randomized_response(0.5, 2, pessimistic_estimate=False)
                     .self_compose(10).get_delta_for_epsilon(1.0))
    assert pess - opt < fmpq(1, 1000)
