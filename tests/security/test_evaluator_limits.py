"""The certified evaluator and the privacy decisions handle magnitudes by their size (issue 14, part C).

Digits up to ``max_digits`` print correctly and above it are refused before any work; huge root indices,
huge exponents, nested exponentials and huge integers never crash or hang: each case gives its exact /
certified value, UNKNOWN, or a ResourceLimitError naming the limit.  ``is_ldp`` at eps = 10^10 is decided
from the exponent's size.  Expected values are computed independently (mpmath at higher precision, or by
hand).
"""

import mpmath
import pytest
import sympy
from flint import fmpq, fmpz

from exactdp.certified import (
    certified_compare,
    certified_sign,
    eta_hockey_stick_certified,
    evaluate_at,
    is_ldp_certified,
    phi_n,
)
from exactdp.cli import main
from exactdp.errors import CoercionError, ParameterError, UndecidedError
from exactdp.limits import ResourceLimitError, limits
from exactdp.measures.privacy import is_ldp
from exactdp.mechanisms import randomized_response
from exactdp.numbers.digits import evalf, round_significant
from exactdp.numbers.exact_zero import is_zero
from exactdp.numbers.rb import RB, current_cap, precision_cap
from exactdp.numbers.truth import Sign, Truth
from exactdp.numbers.digits import arb_fixed

R = sympy.Rational
S = sympy.S
K = randomized_response(2, 3)  # [[3/4, 1/4], [1/4, 3/4]]: LDP ratio 3
K0 = [["1", "0"], ["1/2", "1/2"]]  # a zero next to a positive entry: ratio infinite, eta_inf = 1/2


def _nested_exp(depth):
    """exp(-exp(-...exp(-1)...)), ``depth`` exponentials, built without sympy's auto-evaluation."""
    x = sympy.exp(S.NegativeOne, evaluate=False)
    for _ in range(depth - 1):
        x = sympy.exp(sympy.Mul(S.NegativeOne, x, evaluate=False), evaluate=False)
    return x


# -- 1. digits and precision ------------------------------------------------------------------------------

def test_pi_to_the_max_digits_is_printed_correctly():
    text = evalf(sympy.pi, 100_000)
    assert len(text) == 100_001 and text[1] == "."
    digits = text.replace(".", "")
    with mpmath.workdps(100_030):
        n = int(mpmath.nint(mpmath.pi * mpmath.mpf(10) ** 99_999))  # pi rounded to 100000 digits
    assert digits[:50] == fmpz(n // 10**99_950).str()
    assert digits[-12:] == f"{n % 10**12:012d}"


def test_digits_above_the_limit_are_refused_up_front():
    for call in (lambda: evalf(sympy.pi, 10**7), lambda: evalf(R(1, 3), 10**7),
                 lambda: round_significant(R(1, 3), 10**9), lambda: RB(sympy.log(3)).evalf(10**8)):
        with pytest.raises(ResourceLimitError, match="max_digits"):
            call()
    with limits(max_digits=100), pytest.raises(ResourceLimitError, match="max_digits"):
        evalf(sympy.pi, 101)
    with pytest.raises(ResourceLimitError, match="max_digits"):
        arb_fixed(sympy.pi, 10**9)


def test_bound_command_refuses_huge_digits(capsys):
    assert main(["bound", "xi", "--t", "3", "--c", "1/4", "--N", "2", "--digits", "10000000"]) == 2
    assert "max_digits" in capsys.readouterr().err


def test_precision_above_max_prec_is_refused():
    with pytest.raises(ResourceLimitError, match="max_prec"):
        current_cap(2 * 10**6)
    with pytest.raises(ResourceLimitError, match="max_prec"):
        with precision_cap(2 * 10**6):
            pass
    with pytest.raises(ResourceLimitError, match="max_prec"):
        evalf(sympy.log(3), 10, max_prec=10**7)
    with limits(max_digits=10**6), pytest.raises(ResourceLimitError, match="max_prec"):
        evalf(sympy.pi, 500_000)  # the working precision alone would be 2^21 bits
    assert current_cap(10**6) == 10**6


def test_many_transcendental_operations_at_many_digits_are_refused():
    x = sympy.Add(*[sympy.exp(R(1, k)) for k in range(2, 2000)])
    with pytest.raises(ResourceLimitError, match="max_work"):
        evalf(x, 100_000)
    with mpmath.workdps(40):
        expected = mpmath.nstr(mpmath.fsum(mpmath.exp(mpmath.mpf(1) / k) for k in range(2, 2000)), 10)
    assert evalf(x, 10) == expected  # few digits are cheap


# -- 2. huge root indices -------------------------------------------------------------------------------------

def test_root_with_a_huge_index():
    # 3^(10^-23) = 1 + 10^-23 log 3 + ... (mpmath at 60 digits: 1.00000000000000000000001098612)
    assert evalf(sympy.Pow(3, R(1, 10**23)), 30) == "1.00000000000000000000001098612"
    assert certified_compare(sympy.Pow(3, R(1, 10**23)), ">", 1) is Truth.TRUE
    assert certified_compare(sympy.Pow(3, R(7, 10**30 + 1)), "<", sympy.Pow(3, R(8, 10**30 + 1))) is Truth.TRUE


def test_is_ldp_just_below_log3_is_false():
    eps = sympy.log(3) * (1 - R(1, 10**40))  # e^eps = 3^(1 - 10^-40) < 3, the kernel's ratio
    assert is_ldp(K, eps=eps) is Truth.FALSE
    # eta = 3/4 - gamma/4 = (3 - 3^(1 - 10^-40))/4, about 8.24e-41
    assert is_ldp(K, eps=eps, delta=R(1, 10**40)) is Truth.TRUE
    assert is_ldp(K, eps=eps, delta=R(1, 10**41)) is Truth.FALSE
    assert is_ldp(K, eps=sympy.log(3) * (1 + R(1, 10**40))) is Truth.TRUE


# -- 3. decisions from magnitudes ---------------------------------------------------------------------------

def test_is_ldp_at_huge_eps_is_decided_from_the_exponent_size():
    assert is_ldp(K, eps=10**10) is Truth.TRUE
    assert is_ldp(K, eps=10**100) is Truth.TRUE
    assert is_ldp(K, eps=sympy.exp(100)) is Truth.TRUE  # eps itself is huge; e^eps is never formed
    assert is_ldp(K, t=sympy.exp(10**10)) is Truth.TRUE
    assert is_ldp(K, t=fmpq(10) ** 100_000) is Truth.TRUE
    assert is_ldp(K, eps=3) is Truth.TRUE and is_ldp(K, eps=1) is Truth.FALSE  # e^3 > 3 > e^1
    # an infinite ratio: for every gamma beyond the finite ratios eta = max_{x != x'} K_x(supp K_x'^c) = 1/2
    assert is_ldp(K0, eps=10**10) is Truth.FALSE
    assert is_ldp(K0, eps=10**10, delta=R(1, 2)) is Truth.TRUE
    assert is_ldp(K0, t=fmpq(10) ** 1000, delta=R(1, 3)) is Truth.FALSE
    assert is_ldp_certified(K0, sympy.exp(10**10), R(1, 2)) is Truth.TRUE
    assert eta_hockey_stick_certified(K0, sympy.exp(10**10)) == (fmpq(1, 2), 1, 0)
    assert eta_hockey_stick_certified(K, sympy.exp(10**10))[0] == 0


def test_eps_must_be_a_number():
    with pytest.raises(ParameterError, match="eps: must be an exact number, got the symbol e"):
        is_ldp(K, eps=sympy.Symbol("e"))
    t = sympy.Symbol("t", positive=True)
    Kt = randomized_response(2, t)
    with pytest.raises(ParameterError, match="eps: must be an exact number"):
        is_ldp(Kt, eps=sympy.Symbol("e") + 1)
    assert is_ldp(Kt, eps=sympy.log(t)) is Truth.TRUE  # the kernel's own parameter is fine
    with pytest.raises(ParameterError, match="eps: must be >= 0"):
        is_ldp(K, eps=-sympy.exp(100))


# -- 5. huge magnitudes in the ball evaluator ----------------------------------------------------------------

def test_exp_arguments_beyond_the_limit_are_refused():
    with pytest.raises(ResourceLimitError, match="max_exp_argument"):
        evalf(sympy.exp(sympy.exp(100)))
    with pytest.raises(ResourceLimitError, match="max_exp_argument"):
        certified_compare(2, "<", sympy.exp(sympy.exp(sympy.exp(100))))
    with pytest.raises(ResourceLimitError, match="max_exp_argument"):
        evalf(sympy.Pow(2, 10**30, evaluate=False))  # 2^(10^30): its log is the exp argument
    with pytest.raises(ResourceLimitError, match="max_exp_argument"):
        evalf(sympy.Pow(2, R(10**30, 7), evaluate=False))
    with limits(max_exp_argument=10**50):
        # e^(e^100) = 10^(e^100 / ln 10): mantissa and exponent from mpmath at 80 digits
        assert evalf(sympy.exp(sympy.exp(100)), 10) == "2.766361816e+11674344414002886632798167381008836736851880"
        with pytest.raises(ResourceLimitError, match="max_exp_argument"):
            evalf(sympy.exp(sympy.exp(sympy.exp(100))))


def test_fifty_nested_exponentials():
    x = _nested_exp(50)
    with mpmath.workdps(60):
        v = mpmath.exp(-1)
        for _ in range(49):
            v = mpmath.exp(-v)
        expected = mpmath.nstr(v, 30, strip_zeros=False)
    assert evalf(x, 30) == expected == "0.567143290409964417294494991043"
    # x_{n+1} = e^{-x_n} from x_1 = e^{-1} alternates around omega = W(1): even iterates lie above it
    assert certified_compare(x, ">", _nested_exp(51)) is Truth.TRUE
    assert certified_compare(x, ">", "0.5671432904097838") is Truth.TRUE  # omega = 0.56714329040978387...


def test_huge_integers_and_powers():
    assert evalf(sympy.Pow(10, 10**6, evaluate=False)) == "1.00000000000000000000000000000e+1000000"
    assert evalf(sympy.Integer(10) ** (10**6) + sympy.sqrt(2), 5) == "1.0000e+1000000"
    # sqrt(10^100000 + 1) - 10^50000 = 1/(sqrt(10^100000 + 1) + 10^50000), about 5e-50001
    big = sympy.Integer(10) ** 100_000 + 1
    x = sympy.Add(sympy.Pow(big, S.Half, evaluate=False), -sympy.Integer(10) ** 50_000, evaluate=False)
    with pytest.raises(UndecidedError):
        evalf(x, 10)  # not within the default cap of 8192 bits
    assert evalf(x, 10, max_prec=2**19) == "5.000000000e-50001"
    assert "RB(<an expression" in repr(RB(x))


def test_exact_layer_on_huge_inputs():
    # log(2^(10^6)) - 10^6 log 2 = 0 exactly, with a million-bit integer
    zero = sympy.log(sympy.Integer(2) ** 10**6, evaluate=False) - 10**6 * sympy.log(2)
    assert certified_sign(zero).sign is Sign.ZERO
    near = sympy.log(sympy.Integer(2) ** 10**6 + 1, evaluate=False) - 10**6 * sympy.log(2)
    assert certified_sign(near).sign is None or certified_sign(near).sign is Sign.POSITIVE
    # (1 + sqrt 2)^(2*10^5) - (3 + 2 sqrt 2)^(10^5) is 0 but too large to expand: undecided, not a hang
    r2 = sympy.sqrt(2)
    huge = sympy.Pow(1 + r2, 200_000, evaluate=False) - sympy.Pow(3 + 2 * r2, 100_000, evaluate=False)
    res = certified_sign(huge)
    assert res.sign is None and "too large" in res.reason
    small = sympy.Pow(1 + r2, 20, evaluate=False) - sympy.Pow(3 + 2 * r2, 10, evaluate=False)
    assert certified_sign(small).sign is Sign.ZERO


# -- 6. no huge exact objects, no sympified text --------------------------------------------------------------

def test_no_text_is_sympified():
    with pytest.raises(CoercionError):
        is_zero("__import__('os').getcwd()")
    with pytest.raises(CoercionError):
        evaluate_at("__import__('os').getcwd()")
    assert is_zero("0")[0] is Truth.TRUE


def test_stable_evaluators_with_huge_rationals():
    v = phi_n(eps=R(1, 2), delta=R(1, 10**5000), n=3)
    assert v.exact is not None  # built: 3 * 5001 digits is below the exact-power size
    assert phi_n(eps=R(1, 2), delta=R(1, 10**5000), n=10).exact is None  # too large: balls only
    assert v.evalf(5) == "0.77687"  # 1 - e^{-3/2}(1 - 10^-5000)^3


def test_deep_expressions_are_refused_not_crashed():
    assert evalf(_nested_exp(149), 10) == "0.5671432904"
    with pytest.raises(ResourceLimitError, match="max_nesting"):
        evalf(_nested_exp(1000), 10)
    with pytest.raises(ResourceLimitError, match="max_nesting"):
        certified_sign(sympy.Add(_nested_exp(400), -_nested_exp(399), evaluate=False))


def test_xi_regime_at_huge_eps_is_decided_from_its_size():
    from exactdp.certified import xi, xi_regime

    assert xi_regime(eps=10**10, c=R(1, 4), N=2) is Truth.TRUE
    assert xi_regime(eps=sympy.log(4), c=R(1, 4), N=2) is Truth.TRUE  # the tie e^eps N c = 2, exactly
    assert xi_regime(eps=sympy.log(4) - R(1, 10**30), c=R(1, 4), N=2) is Truth.FALSE
    assert xi(eps=10**10, c=R(1, 4), N=2).exact == 1


def test_parametric_kernel_with_an_irrational_gamma_is_a_parameter_error():
    t = sympy.Symbol("t", positive=True)
    Kt = randomized_response(2, t)
    for kw in (dict(eps=10**10), dict(t=sympy.sqrt(2)), dict(eps=R(1, 2))):
        with pytest.raises(ParameterError, match="irrational"):
            is_ldp(Kt, **kw)
    assert is_ldp(Kt, t=10**100) is Truth.FALSE  # fails for t > 10^100
    assert is_ldp(Kt, t=t) is Truth.TRUE


def test_sinh_cosh_share_the_exp_limit():
    with pytest.raises(ResourceLimitError, match="max_exp_argument"):
        evalf(sympy.cosh(sympy.Integer(10) ** 100))
    assert evalf(sympy.cosh(1000), 5) == "9.8504e+433"  # e^1000 / 2 (+ e^-1000 / 2)


def test_irrational_constant_kernels_at_huge_eps():
    Ke = randomized_response(2, sympy.exp(R(1, 2)))  # ratio e^{1/2}
    assert is_ldp(Ke, eps=10**10) is Truth.TRUE
    assert is_ldp_certified(Ke, sympy.exp(10**10), 0) is Truth.TRUE
    r2 = sympy.sqrt(2) / 2
    K2 = [[r2, 1 - r2, 0], [R(1, 3), R(1, 3), R(1, 3)]]  # eta_inf = K_1(2) = 1/3
    assert is_ldp(K2, eps=10**10) is Truth.FALSE
    assert is_ldp(K2, eps=10**10, delta=R(1, 3)) is Truth.TRUE
    assert is_ldp(K2, t=10**100, delta=R(1, 4)) is Truth.FALSE
