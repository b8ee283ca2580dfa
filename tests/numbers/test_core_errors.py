"""Inputs the core accepts, and every bad input refused with the project's own error naming it (issue 2)."""

from fractions import Fraction

import numpy as np
import pytest
import sympy
from flint import fmpq

from exactdp import (
    CoercionError,
    Distribution,
    ExactDPError,
    InvalidDistributionError,
    InvalidKernelError,
    Kernel,
    ParameterError,
    ShapeError,
    chi2,
    eta_hockey_stick,
    eta_hockey_stick_witness,
    eta_tv,
    eta_tv_witness,
    f_divergence,
    hellinger2,
    hockey_stick,
    is_ldp,
    kl,
    ldp_epsilon,
    ldp_ratio,
    ldp_ratio_witness,
    max_leakage,
    max_leakage_ratio,
    pml,
    pml_epsilon,
    pml_ratio,
    pml_ratio_witness,
    privacy_profile,
    to_qq,
    tv,
)
from exactdp import mechanisms as mech
from exactdp.io import kernel_from_text, read_kernel
from exactdp.numbers.qq import from_float

Q = fmpq
RR = [["3/4", "1/4"], ["1/4", "3/4"]]
FLOATS = [0.25, np.float64(0.25), float("nan"), sympy.Float(0.25), np.float32(0.5)]


# -- what is accepted ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", [Fraction(3, 7), Q(3, 7), sympy.Rational(3, 7), "3/7", " 3 / 7 ", "6/14"])
def test_exact_rationals_accepted(value):
    assert to_qq(value) == Q(3, 7)


@pytest.mark.parametrize("value,expected", [
    (2, Q(2)), (np.int64(2), Q(2)), (sympy.Integer(2), Q(2)), ("0.25", Q(1, 4)), ("-1.5e-2", Q(-3, 200)),
    ("1e-30", Q(1, 10**30)), (".5", Q(1, 2)), ("7", Q(7)),
])
def test_integers_and_decimals_accepted(value, expected):
    assert to_qq(value) == expected


def test_kernel_inputs_accepted():
    base = Kernel(RR)
    assert Kernel([[Fraction(3, 4), Fraction(1, 4)], [Q(1, 4), sympy.Rational(3, 4)]]) == base
    assert Kernel([["0.75", "0.25"], ["0.25", "0.75"]]) == base
    assert Kernel(np.array([[1, 0], [0, 1]])) == Kernel.identity(2)
    assert Kernel(np.array([[Fraction(3, 4), "1/4"], ["1/4", Q(3, 4)]], dtype=object)) == base
    assert Kernel(base) == base
    assert Distribution(np.array([0, 1])) == Distribution(["0", "1"])
    assert Distribution(np.array(["1/3", Fraction(2, 3)], dtype=object)).probs == (Q(1, 3), Q(2, 3))


# -- floats are refused, naming the entry --------------------------------------------------------

@pytest.mark.parametrize("bad", FLOATS)
def test_to_qq_refuses_floats(bad):
    with pytest.raises(CoercionError, match=r"^x: "):
        to_qq(bad, "x")


def test_float_message_says_how_to_pass_it_exactly():
    with pytest.raises(CoercionError, match=r"K\[1\]\[0\]: floats are not accepted.*'1/4'"):
        Kernel([["3/4", "1/4"], [0.25, "3/4"]])
    with pytest.raises(CoercionError, match=r"K\[0\]\[1\]: NaN"):
        Kernel([["1", float("nan")]])
    with pytest.raises(CoercionError, match=r"K\[0\]\[0\]: the expression 0\.25\d* contains a float"):
        Kernel([[sympy.Float(0.25), "3/4"]])


@pytest.mark.parametrize("bad,match", [
    ("abc", r"P\[1\]: cannot read 'abc'"), ("1/0", r"P\[1\]: denominator must be non-zero"),
    (True, r"P\[1\]: expected a number, got the bool"), (None, r"P\[1\]: expected an exact number"),
    (sympy.sqrt(2), None), ("inf", r"P\[1\]: cannot read 'inf'"), ("", r"P\[1\]: cannot read ''"),
])
def test_unreadable_entries(bad, match):
    if match is None:  # an irrational sympy number is symbolic (domain SR), and then fails the [0, 1] rule
        with pytest.raises(InvalidDistributionError, match=r"P\[1\]: entries must lie in \[0, 1\], got sqrt\(2\)"):
            Distribution(["0", bad])
        return
    with pytest.raises(CoercionError, match=match):
        Distribution(["0", bad])


def test_float_numpy_arrays_refused():
    with pytest.raises(CoercionError, match=r"K: a float numpy array \(float64\)"):
        Kernel(np.array([[0.5, 0.5], [0.5, 0.5]]))
    with pytest.raises(CoercionError, match=r"P: a float numpy array"):
        Distribution(np.array([0.5, 0.5]))
    with pytest.raises(CoercionError, match=r"K\[0\]\[0\]: floats"):
        Kernel(np.array([[0.5, "1/2"]], dtype=object))


def test_from_floats_refuses_nan_and_non_floats():
    with pytest.raises(CoercionError, match=r"K\[0\]\[1\]: value must be finite"):
        Kernel.from_floats([[1.0, float("nan")]])
    with pytest.raises(CoercionError, match=r"P\[0\]: expected a float, got str"):
        Distribution.from_floats(["1/2", 0.5])
    with pytest.raises(CoercionError, match="from_float: value must be finite"):
        from_float(float("inf"))
    with pytest.raises(InvalidKernelError, match="row 0 sums to"):
        Kernel.from_floats([[0.1, 0.2, 0.7]])  # binary doubles do not sum to exactly 1


# -- kernel and distribution rules ---------------------------------------------------------------

@pytest.mark.parametrize("rows,match", [
    ([["1/2", "1/3"], ["1/2", "1/2"]], r"row 0 sums to 5/6, not 1"),
    ([["1/2", "1/2"], ["1/2", "1/2", "0"]], r"row 0 has 2, row 1 has 3"),
    ([], r"K: must have at least one row"),
    ([[]], r"row 0: must be non-empty"),
    ([["3/2", "-1/2"]], r"K\[0\]\[0\]: entries must lie in \[0, 1\], got 3/2"),
    ([["1", "0"], ["-1/2", "3/2"]], r"K\[1\]\[0\]: entries must lie in \[0, 1\], got -1/2"),
    ("abc", r"K: expected a sequence, got str"),
    ([["1", "0"], "01"], r"row 1: expected a sequence, got str"),
])
@pytest.mark.parametrize("small", [64, 0])  # fmpq checks (small kernels) or integer-form checks
def test_invalid_kernels(rows, match, small, monkeypatch):
    from exactdp import kernels

    monkeypatch.setattr(kernels, "SMALL_KERNEL", small)
    with pytest.raises(InvalidKernelError, match=match):
        Kernel(rows)


@pytest.mark.parametrize("small", [64, 0])
def test_kernel_validation_routes_agree(small, monkeypatch):
    from exactdp import kernels

    monkeypatch.setattr(kernels, "SMALL_KERNEL", small)
    K = Kernel([["1/2", "1/3", "1/6"], ["0", "1", "0"]])
    assert K.rows == ((Q(1, 2), Q(1, 3), Q(1, 6)), (Q(0), Q(1), Q(0)))
    assert (K._int_rows is None) == (small == 64)  # the integer form: lazy, or cached by validation
    with pytest.raises(InvalidKernelError, match=r"K\[1\]\[2\]: entries must lie in \[0, 1\], got -1/2"):
        Kernel([["1/2", "1/2", "0"], ["1", "1/2", "-1/2"]])
    with pytest.raises(InvalidKernelError, match=r"row 1 sums to 3/2, not 1"):
        Kernel([["1/2", "1/2", "0"], ["1", "1/2", "0"]])


@pytest.mark.parametrize("probs,match", [
    (["1/2", "1/4"], r"P sums to 3/4, not 1"), ([], r"P: must be non-empty"),
    (["2", "-1"], r"P\[0\]: entries must lie in \[0, 1\], got 2"), (5, r"P: expected a sequence"),
])
def test_invalid_distributions(probs, match):
    with pytest.raises(InvalidDistributionError, match=match):
        Distribution(probs)


def test_shape_errors():
    K = Kernel(RR)
    with pytest.raises(ShapeError, match=r"P: has 3 entries, the kernel has N = 2"):
        K.apply(["1/3", "1/3", "1/3"])
    with pytest.raises(ShapeError, match=r"K @ L: K has M = 2 outputs but L has N = 3"):
        K @ Kernel.identity(3)
    with pytest.raises(ShapeError, match=r"Q: has 3 entries but P has 2"):
        tv(["1/2", "1/2"], ["1/3", "1/3", "1/3"])
    with pytest.raises(ParameterError, match=r"n: must be a positive integer, got 0"):
        K.tensor_power(0)
    with pytest.raises(TypeError, match="tensor: expected a Kernel"):
        K.tensor(RR)


# -- every public entry point ---------------------------------------------------------------------

DIV_FUNCS = [tv, chi2, kl, hellinger2, lambda P, R: hockey_stick(P, R, 2),
             lambda P, R: f_divergence(P, R, sympy.Symbol("t", positive=True) ** 2 - 1)]


@pytest.mark.parametrize("f", DIV_FUNCS)
def test_divergences_refuse_floats(f):
    with pytest.raises(CoercionError, match=r"P\[0\]: floats"):
        f([0.5, "1/2"], ["1/2", "1/2"])
    with pytest.raises(CoercionError, match=r"Q\[1\]: floats"):
        f(["1/2", "1/2"], ["1/2", 0.5])


def test_gamma_rules():
    P, R = ["1/2", "1/2"], ["1/4", "3/4"]
    with pytest.raises(CoercionError, match=r"gamma: floats.*'3/2'"):
        hockey_stick(P, R, 1.5)
    with pytest.raises(ParameterError, match=r"gamma: must be >= 0, got -1"):
        hockey_stick(P, R, -1)
    with pytest.raises(CoercionError, match=r"gamma: floats"):
        eta_hockey_stick(Kernel(RR), 2.0)
    with pytest.raises(CoercionError, match=r"gamma: NaN"):
        eta_hockey_stick(Kernel(RR), float("nan"))
    with pytest.raises(ParameterError, match=r"gamma: must be >= 0, got -1/2"):
        eta_hockey_stick(Kernel(RR), "-1/2")
    with pytest.raises(ParameterError, match=r"f: must satisfy f\(1\) = 0, got f\(1\) = 1"):
        f_divergence(P, R, sympy.Symbol("t") ** 2)


@pytest.mark.parametrize("f", [eta_tv, ldp_ratio, max_leakage, privacy_profile, eta_tv_witness, ldp_epsilon,
                               ldp_ratio_witness, max_leakage_ratio, lambda K: eta_hockey_stick(K, 2),
                               lambda K: eta_hockey_stick_witness(K, 2), lambda K: is_ldp(K, t=2),
                               lambda K: pml_ratio(K, "1/4"), lambda K: pml_ratio_witness(K, "1/4"),
                               lambda K: pml_epsilon(K, "1/4"), lambda K: pml(K, ["1/2", "1/2"], 0)])
def test_kernel_functions_refuse_floats(f):
    with pytest.raises(CoercionError, match=r"K\[1\]\[1\]: floats.*'3/4'"):
        f([["3/4", "1/4"], ["1/4", 0.75]])
    with pytest.raises(InvalidKernelError, match=r"row 1 sums to 5/4, not 1"):
        f([["3/4", "1/4"], ["1/2", "3/4"]])


def test_is_ldp_rules():
    K = Kernel(RR)
    with pytest.raises(ParameterError, match=r"delta: must lie in \[0, 1\], got 3/2"):
        is_ldp(K, t=3, delta="3/2")
    with pytest.raises(ParameterError, match=r"delta: must lie in \[0, 1\], got -1"):
        is_ldp(K, t=3, delta=-1)
    with pytest.raises(CoercionError, match=r"delta: floats"):
        is_ldp(K, t=3, delta=0.1)
    with pytest.raises(ParameterError, match=r"t: t = e\^eps must be >= 1.*got 1/2"):
        is_ldp(K, t="1/2")
    with pytest.raises(ParameterError, match="exactly one of t = e\\^eps and eps"):
        is_ldp(K)
    with pytest.raises(ParameterError, match="exactly one of t = e\\^eps and eps"):
        is_ldp(K, t=2, eps=1)
    with pytest.raises(CoercionError, match=r"t: floats"):
        is_ldp(K, t=3.0)
    with pytest.raises(TypeError, match="gamma"):  # gamma names only the order of E_gamma
        is_ldp(K, gamma=3)
    with pytest.raises(ParameterError, match=r"eps: must be >= 0"):
        is_ldp(K, eps=-1)


def test_pml_rules():
    K = Kernel(RR)
    for c, shown in (("0", "0"), ("3/4", "3/4"), ("-1/8", "-1/8")):
        with pytest.raises(ParameterError, match=rf"c: must lie in \(0, 1/N\] = \(0, 1/2\], got {shown}"):
            pml_ratio(K, c)
    with pytest.raises(CoercionError, match=r"c: floats"):
        pml_ratio(K, 0.25)
    with pytest.raises(ParameterError, match=r"y: must be an output index in \[0, 1\], got 2"):
        pml(K, ["1/2", "1/2"], 2)
    with pytest.raises(ParameterError, match=r"y: output 1 has probability 0"):
        pml(Kernel([["1", "0"], ["1", "0"]]), ["1/2", "1/2"], 1)
    with pytest.raises(ShapeError, match=r"P: has 1 entries"):
        pml(K, ["1"], 0)
    with pytest.raises(CoercionError, match=r"P\[1\]: floats"):
        pml(K, ["1/2", 0.5], 0)
    with pytest.raises(CoercionError, match=r"P\[0\]: floats"):
        K.apply([0.5, "1/2"])


def test_privacy_profile_rules():
    prof = privacy_profile(Kernel(RR))
    with pytest.raises(CoercionError, match=r"gamma: floats"):
        prof(1.5)
    with pytest.raises(ParameterError, match=r"gamma: must be >= 0, got -1"):
        prof(-1)
    with pytest.raises(ParameterError, match=r"delta: must lie in \[0, 1\], got 2"):
        prof.gamma_for(2)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: mech.randomized_response(1, 2), ParameterError, r"k: must be an integer >= 2, got 1"),
    (lambda: mech.randomized_response(2, 0.5), CoercionError, r"t: floats"),
    (lambda: mech.randomized_response(2, eps=0.5), CoercionError, r"eps: floats"),
    (lambda: mech.randomized_response(2, "1/2"), ParameterError, r"t: t = e\^eps must be >= 1.*got 1/2"),
    (lambda: mech.randomized_response(2, eps="-1/2"), ParameterError, r"eps: must be >= 0, got -1/2"),
    (lambda: mech.randomized_response(2, 3, eps=1), ParameterError, r"t, eps: give exactly one"),
    (lambda: mech.binary_randomized_response(2.0), CoercionError, r"t: floats"),
    (lambda: mech.symmetric_unary_encoding(3, sympy.Symbol("t", positive=True)), ParameterError,
     r"t: symmetric unary encoding needs a number"),
    (lambda: mech.optimized_unary_encoding(3, 0.5), CoercionError, r"t: floats"),
    (lambda: mech.optimal_binary_approx_ldp(2, "3/2"), ParameterError, r"delta: must lie in \[0, 1\], got 3/2"),
    (lambda: mech.optimal_binary_approx_ldp(2, 0.1), CoercionError, r"delta: floats"),
    (lambda: mech.grosse_binary_mechanism(2, "3/4"), ParameterError, r"c: must lie in \(0, 1/N\].*got 3/4"),
    (lambda: mech.grosse_binary_mechanism(5, "1/4"), ParameterError, r"t: must lie in \[1, 1/c\].*got 5"),
    (lambda: mech.grosse_binary_mechanism(2, 0.25), CoercionError, r"c: floats"),
    (lambda: mech.grosse_pml_mechanism(4, 2, "1/2"), ParameterError, r"c: must lie in \(0, 1/N\].*got 1/2"),
    (lambda: mech.grosse_pml_mechanism(1, 2, "1/2"), ParameterError, r"N: must be an integer >= 2, got 1"),
    (lambda: mech.grosse_example2_K1(3), ParameterError, r"N: must be even.*got 3"),
    (lambda: mech.unary_encoding(2, "3/2", "1/2"), ParameterError, r"p: must lie in \[0, 1\], got 3/2"),
])
def test_mechanism_constructors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# -- files ------------------------------------------------------------------------------------------

def test_read_kernel_errors(tmp_path):
    f = tmp_path / "k.json"
    f.write_text('[["1/2", 0.5], ["1", "0"]]')
    with pytest.raises(CoercionError, match=r"K\[0\]\[1\]: floats.*'1/2'"):
        read_kernel(f)
    f.write_text('{"row": []}')
    with pytest.raises(InvalidKernelError, match="'rows' field"):
        read_kernel(f)
    f.write_text('[["1/2", "1/2"]')
    with pytest.raises(InvalidKernelError, match="not valid JSON"):
        read_kernel(f)
    with pytest.raises(ExactDPError, match="FILE: no such file"):
        read_kernel(tmp_path / "missing.json")
    g = tmp_path / "k.csv"
    g.write_text("1/2,1/3\n1,0\n")
    with pytest.raises(InvalidKernelError, match=r"row 0 sums to 5/6, not 1"):
        read_kernel(g)
    assert kernel_from_text("1/2, 0.5\n1, 0\n", "csv") == Kernel([["1/2", "1/2"], ["1", "0"]])
    with pytest.raises(ExactDPError, match="unknown format 'xml'"):
        kernel_from_text("", "xml")
