"""The prover counts the conjunctions of a case split before building it (exactdp.algebra.cases.dnf_terms):
the count equals sympy's to_dnf when no atom repeats and bounds it from above otherwise (to_dnf merges equal
conjunctions), and it grows as the product of the negated pieces."""

from __future__ import annotations

import itertools

import pytest
import sympy

from exactdp.algebra.cases import dnf_terms

a, b, x, y, z = sympy.symbols("a b x y z")
ATOMS = [a > 0, b > 1, x < 2, y >= 3, z <= 4]


def _terms(e) -> int:
    dnf = sympy.to_dnf(e, simplify=False)
    return len(dnf.args) if isinstance(dnf, sympy.Or) else 1


DISJOINT = [
    sympy.And(ATOMS[0], ATOMS[1]),
    sympy.Or(ATOMS[0], ATOMS[1], ATOMS[2]),
    sympy.And(sympy.Or(ATOMS[0], ATOMS[1]), sympy.Or(ATOMS[2], ATOMS[3], ATOMS[4])),
    sympy.And(ATOMS[0], sympy.Not(sympy.And(ATOMS[1], ATOMS[2])), sympy.Not(sympy.And(ATOMS[3], ATOMS[4]))),
    sympy.Not(sympy.Or(sympy.And(ATOMS[0], ATOMS[1]), sympy.And(ATOMS[2], ATOMS[3]))),
]
SHARED = [sympy.And(*(sympy.Not(sympy.And(p, q)) for p, q in pair))
          for pair in itertools.combinations(itertools.combinations(ATOMS, 2), 3)][:6]


@pytest.mark.parametrize("formula", DISJOINT, ids=range(len(DISJOINT)))
def test_count_equals_the_dnf_size_without_repeated_atoms(formula):
    assert dnf_terms(formula) == _terms(formula)


@pytest.mark.parametrize("formula", SHARED, ids=range(len(SHARED)))
def test_count_bounds_the_dnf_size_with_repeated_atoms(formula):
    assert dnf_terms(formula) == 8 and _terms(formula) <= 8


def test_the_count_grows_as_the_product_of_the_negated_pieces():
    pieces = [sympy.And(*(sympy.Symbol(f"u{i}_{j}") > j for j in range(3))) for i in range(12)]
    assert dnf_terms(sympy.And(*(sympy.Not(p) for p in pieces))) == 3**12
