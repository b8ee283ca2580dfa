"""The project's exact +∞ (exactdp/numbers/infinity.py): prints, compares and converts like sympy's oo, without
importing sympy until the user asks for a sympy object."""

import math
import pickle
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy
from flint import fmpq, fmpz

from exactdp import Kernel, ldp_ratio, ldp_epsilon
from exactdp.numbers.infinity import INF, Infinity, is_infinite
from exactdp.numbers.qq import qq_str
from exactdp.numbers.digits import evalf
from exactdp.numbers.sr import as_sympy


def test_one_instance_that_prints_as_sympy_prints_oo():
    assert Infinity() is INF and pickle.loads(pickle.dumps(INF)) is INF
    assert (str(INF), repr(INF)) == (str(sympy.oo), repr(sympy.oo)) == ("oo", "oo")
    assert qq_str(INF) == qq_str(sympy.oo) == "inf" and evalf(INF, 12) == evalf(sympy.oo, 12) == "inf"
    assert float(INF) == math.inf and hash(INF) == hash(math.inf)


@pytest.mark.parametrize("x", [0, 10**400, fmpq(7, 3), fmpz(-5), Fraction(1, 3), 1e308, -math.inf,
                               sympy.Rational(5, 2), sympy.sqrt(2), sympy.log(3)])
def test_greater_than_every_finite_real(x):
    assert INF > x and INF >= x and not INF < x and not INF <= x and INF != x
    assert x < INF and x <= INF and not x > INF and not x >= INF


def test_equal_to_the_other_forms_of_plus_infinity():
    assert INF == INF and INF == sympy.oo and sympy.oo == INF and INF == math.inf and math.inf == INF
    assert INF >= sympy.oo and INF <= sympy.oo and not INF > sympy.oo and not INF < sympy.oo
    assert INF != -sympy.oo and INF != "oo" and INF is not sympy.oo
    assert is_infinite(INF) and is_infinite(sympy.oo) and not is_infinite(math.inf) and not is_infinite(fmpq(1))


def test_unordered_against_what_is_not_a_real_number():
    with pytest.raises(TypeError):
        INF < "a"  # noqa: B015
    with pytest.raises(TypeError):
        INF > 1j  # noqa: B015


def test_sympy_on_request():
    assert sympy.sympify(INF) is sympy.oo and as_sympy(INF) is sympy.oo
    assert sympy.log(INF) is sympy.oo and sympy.exp(-sympy.sympify(INF)) == 0
    assert INF + 1 is sympy.oo and 2 * INF is sympy.oo and 1 / INF == 0 and (INF - INF) is sympy.nan
    assert -INF is -sympy.oo and max(fmpq(3), INF) is INF


def test_the_ldp_ratio_of_a_rational_kernel_with_zeros():
    """A column mixing 0 and > 0: the ratio is INF (a rational kernel), its log sympy's oo; a kernel with an
    irrational entry stays in sympy (its RB values are sympy expressions)."""
    K = Kernel([["1/2", "1/2"], ["0", "1"]])
    assert ldp_ratio(K) is INF and ldp_epsilon(K) is sympy.oo
    assert ldp_ratio(Kernel([[sympy.sqrt(2) / 2, 1 - sympy.sqrt(2) / 2], [1, 0]])) is sympy.oo


def test_made_without_sympy():
    code = ("import sys\nfrom exactdp import Kernel, ldp_ratio\nr = ldp_ratio(Kernel([['1/2', '1/2'], ['0', '1']]))\n"
            "print(r, r > 10**100, float(r), 'sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["oo", "True", "inf", "False"]
