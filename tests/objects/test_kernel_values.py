"""Kernels and distributions are values (issue 13, item 1): immutable; equality and hash include the rows, the
domain (QQ/SR) and the declared region, not the name; changes are constructors."""

import copy
import pickle
import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
import sympy
from flint import fmpq

from exactdp import Distribution, Kernel, eta_tv
from exactdp.errors import InvalidKernelError
from exactdp.kernels import as_kernel
from exactdp.symbolic import declare_region
from exactdp.symbolic.region import declared_conditions, kernel_region

t = sympy.Symbol("t", positive=True)


def _param():
    # t ↦ [[1/(1+t), t/(1+t)], [t/(1+t), 1/(1+t)]]: eta_TV = |t − 1|/(t + 1), its sign depends on the region
    return Kernel([[1 / (1 + t), t / (1 + t)], [t / (1 + t), 1 / (1 + t)]])


RR = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])


# -- immutability ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("attr", ["name", "_rows", "_symbolic", "_region", "_int_rows", "_hash", "anything"])
def test_setattr_raises_on_a_kernel(attr):
    K = Kernel([["1/2", "1/2"]], name="half")
    with pytest.raises(AttributeError):
        setattr(K, attr, None)
    with pytest.raises(FrozenInstanceError):
        setattr(K, attr, None)
    assert K.name == "half" and K.rows == ((fmpq(1, 2), fmpq(1, 2)),)


def test_delattr_raises():
    with pytest.raises(AttributeError):
        del RR.name
    with pytest.raises(AttributeError):
        del Distribution(["1/2", "1/2"])._p


@pytest.mark.parametrize("attr", ["_p", "_symbolic", "_hash", "probs"])
def test_setattr_raises_on_a_distribution(attr):
    P = Distribution(["1/3", "2/3"])
    with pytest.raises(FrozenInstanceError):
        setattr(P, attr, None)
    assert P.probs == (fmpq(1, 3), fmpq(2, 3))


def test_lazy_caches_still_fill():
    K = Kernel([[fmpq(1, 2), fmpq(1, 2)], [fmpq(1, 3), fmpq(2, 3)]])
    assert K._int_rows is None
    R = K.int_rows()
    assert K.int_rows() is R and K._int_rows is R
    h = hash(K)
    assert hash(K) == h == K._hash


# -- the name is a label --------------------------------------------------------------------------------------------

def test_with_name_is_the_same_value():
    L = RR.with_name("RR_2")
    assert L.name == "RR_2" and RR.name is None
    assert L == RR and hash(L) == hash(RR) and L.rows is RR.rows


def test_catalogue_name_is_set_by_construction():
    from exactdp.mechanisms import grosse_intro_K2

    K = grosse_intro_K2()
    assert K.name == "Grosse-intro-K2" and K == Kernel.identity(4)


def test_kernel_copy_constructor_keeps_the_value():
    K = declare_region(_param(), t >= 1)
    L = Kernel(K, name="copy")
    assert L == K and L.region == K.region and L.name == "copy"


# -- domain and region are part of the value ------------------------------------------------------------------------

def test_region_distinct_kernels_are_unequal_with_different_hashes():
    K = _param()
    A, B = declare_region(K, t >= 1), declare_region(K, t <= 1)
    assert A != B and hash(A) != hash(B)
    assert A != K and B != K
    assert A.rows == B.rows == K.rows
    assert declared_conditions(A) == (t >= 1,)
    assert A.region == (t >= 1,) and B.region == (t <= 1,) and K.region == ()


def test_declare_region_leaves_the_kernel_unchanged_and_accumulates():
    K = _param()
    A = declare_region(K, t >= 1)
    assert K.region == ()
    AB = declare_region(A, t <= 3)
    assert AB.region == (t >= 1, t <= 3)
    assert AB == declare_region(declare_region(K, t <= 3), t >= 1)  # the region is a set of conditions
    assert hash(AB) == hash(declare_region(declare_region(K, t <= 3), t >= 1))


def test_declare_region_refuses_non_conditions():
    with pytest.raises(TypeError, match="expected sympy inequalities"):
        declare_region(_param(), "t >= 1")


def test_same_region_same_value():
    K = _param()
    assert declare_region(K, t >= 1) == declare_region(K, t >= 1)
    assert hash(declare_region(K, t >= 1)) == hash(declare_region(K, t >= 1))


def test_caches_keyed_by_kernels_do_not_mix_regions():
    K = _param()
    A, B = declare_region(K, t >= 1), declare_region(K, t <= 1)
    cache = {A: "ge", B: "le"}
    assert len(cache) == 2 and cache[declare_region(K, t >= 1)] == "ge" and cache[declare_region(K, t <= 1)] == "le"
    assert kernel_region(A) != kernel_region(B)
    ea, eb = eta_tv(A), eta_tv(B)
    assert sympy.simplify(ea - (t - 1) / (t + 1)) == 0
    assert sympy.simplify(eb - (1 - t) / (t + 1)) == 0
    assert sympy.simplify(eta_tv(A) - ea) == 0 and sympy.simplify(eta_tv(B) - eb) == 0  # again, through caches


def test_domain_is_part_of_the_value():
    half = sympy.Rational(1, 2)
    Q = Kernel.from_exact_rows([[fmpq(1, 2), fmpq(1, 2)]])
    S = Kernel.from_exact_rows([[half, half]], True)
    assert Q.domain == "QQ" and S.domain == "SR"
    assert Q != S
    P = Distribution.from_exact_probs([fmpq(1, 2), fmpq(1, 2)])
    PS = Distribution.from_exact_probs([half, half], True)
    assert P != PS


def test_rational_kernels_equal_by_rows():
    assert Kernel([["3/4", "1/4"], ["1/4", "3/4"]]) == Kernel([[fmpq(3, 4), fmpq(1, 4)], ["0.25", "0.75"]])
    assert hash(Kernel([["3/4", "1/4"], ["1/4", "3/4"]])) == hash(RR)
    assert RR != Kernel([["1/4", "3/4"], ["3/4", "1/4"]]) and RR != [[fmpq(3, 4), fmpq(1, 4)]]
    assert Distribution(["1/2", "1/2"]) == Distribution.uniform(2)
    assert hash(Distribution(["1/2", "1/2"])) == hash(Distribution.uniform(2))


# -- constructors ---------------------------------------------------------------------------------------------------

def test_from_exact_rows_is_the_same_value_as_the_validating_constructor():
    rows = [[fmpq(1, 3), fmpq(2, 3)], [fmpq(1), fmpq(0)]]
    K = Kernel.from_exact_rows(rows, name="K")
    assert K == Kernel(rows) and K.name == "K" and K.domain == "QQ" and K.region == ()
    assert K.int_rows().A.tolist() == Kernel(rows).int_rows().A.tolist()


def test_from_exact_rows_accepts_an_integer_form():
    from exactdp.numbers.linalg import IntRows

    rows = [[fmpq(1, 3), fmpq(2, 3)], [fmpq(1), fmpq(0)]]
    R = IntRows.from_fmpq_rows(rows)
    K = Kernel.from_exact_rows(rows, int_rows=R)
    assert K.int_rows() is R


def test_as_kernel_names_the_argument_in_errors():
    with pytest.raises(InvalidKernelError, match=r"^L: must have at least one row"):
        as_kernel([], name="L")
    with pytest.raises(InvalidKernelError, match=r"^W: rows must all have the same length"):
        as_kernel([["1"], ["1/2", "1/2"]], name="W")
    with pytest.raises(InvalidKernelError, match=r"W\[0\]\[0\]: entries must lie in \[0, 1\]"):
        as_kernel([["2", "-1"]], name="W")
    with pytest.raises(InvalidKernelError, match=r"^K: must have at least one row"):
        as_kernel([])
    assert as_kernel(RR, name="L") is RR  # a kernel is returned as is (its label untouched)
    assert as_kernel([["1/2", "1/2"]], name="L") == Kernel([["1/2", "1/2"]])


def test_pickle_and_copy_keep_the_value():
    K = declare_region(_param(), t >= 1).with_name("P")
    for L in (pickle.loads(pickle.dumps(K)), copy.copy(K), copy.deepcopy(K)):
        assert L == K and L.name == "P" and L.region == K.region
    Q = pickle.loads(pickle.dumps(RR))
    assert Q == RR and Q.int_rows().A.tolist() == RR.int_rows().A.tolist()
    P = Distribution(["1/3", "2/3"])
    assert pickle.loads(pickle.dumps(P)) == P and copy.deepcopy(P) is P


def test_existing_behaviour():
    L = Kernel([["1", "0"], ["1/2", "1/2"]])
    assert (RR @ L).rows == ((fmpq(7, 8), fmpq(1, 8)), (fmpq(5, 8), fmpq(3, 8)))
    assert RR.apply(["1/3", "2/3"]).probs == (fmpq(5, 12), fmpq(7, 12))
    assert RR.tensor(L).N == 4 and RR.row(0) == Distribution(["3/4", "1/4"])
    assert eta_tv(RR) == fmpq(1, 2)
    assert Kernel.identity(3).name == "I_3"


def test_no_private_constructor_or_field_write_outside_the_objects():
    """Outside kernels.py / distributions.py, kernels are built through public constructors only."""
    root = Path(__file__).resolve().parents[2]
    bad = []
    for path in list((root / "exactdp").rglob("*.py")) + list((root / "proofs").rglob("*.py")):
        if path.name in ("kernels.py", "distributions.py") and path.parent.name == "exactdp":
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\._trusted\(|\bK\._\w+\s*=(?!=)|\.name\s*=\s*(?!=)", text):
            line = text[:m.start()].count("\n") + 1
            src = text.splitlines()[line - 1]
            if "self.name" in src or "self.text" in src:  # other classes' own fields
                continue
            bad.append(f"{path.relative_to(root)}:{line}: {src.strip()}")
    assert not bad, "use Kernel.from_exact_rows / Distribution.from_exact_probs / with_name:\n" + "\n".join(bad)
