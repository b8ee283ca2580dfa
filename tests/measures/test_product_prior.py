"""PML of K₁ ⊗ K₂ over product priors: the class, the exact level from the definition, the product theorem and
the floor class's failure to compose (exact values, a brute force over a grid of product priors)."""

from __future__ import annotations

import itertools
import random

import pytest
from flint import fmpq

from exactdp import Kernel
from exactdp.distributions import Distribution
from exactdp.errors import ParameterError
from exactdp.measures.privacy import pml, pml_ratio, pml_ratio_witness
from exactdp.measures.product_prior import ProductPrior, pml_ratio_product_priors
from exactdp.mechanisms import randomized_response
from exactdp.numbers.truth import Truth
from exactdp.theory.product_pml_certificates import bounded_product, product_pml_certificates, product_statements
from tests.exact import q


def _random_kernel(rng, N, M):
    rows = []
    for _ in range(N):
        w = [rng.randint(0, 5) for _ in range(M)]
        w[rng.randrange(M)] += 1
        rows.append([fmpq(v, sum(w)) for v in w])
    return Kernel([[str(v) for v in r] for r in rows])


def test_the_class_is_validated_with_named_arguments():
    with pytest.raises(ParameterError, match=r"floors\[1\] must lie in \(0, 1/N\] = \(0, 1/3\], got 1/2"):
        ProductPrior((2, 3), ("1/4", "1/2"))
    with pytest.raises(ParameterError, match=r"floors\[0\] must lie in \(0, 1/N\]"):
        ProductPrior((2,), ("0",))
    with pytest.raises(ParameterError, match="sizes and floors must be non-empty and of one length"):
        ProductPrior((2, 2), ("1/4",))
    with pytest.raises(ParameterError, match=r"sizes\[0\] must be an integer >= 1"):
        ProductPrior((0, 2), ("1/4", "1/4"))


def test_membership_is_exact():
    pp = ProductPrior((2, 2), ("1/4", "1/3"))
    assert pp.floor == q("1/12")
    joint = pp.joint([Distribution(["1/4", "3/4"]), Distribution(["1/3", "2/3"])])
    assert joint.probs == tuple(q(x) for x in ("1/12", "1/6", "1/4", "1/2")) and pp.contains(joint)
    assert not pp.contains(["1/16", "1/16", "1/16", "13/16"])  # a marginal 1/8 below the floor 1/4
    assert not pp.contains(["1/8", "1/8", "1/8", "5/8"])       # correlated: not a product
    with pytest.raises(ParameterError, match="factor 1 is not in Q"):
        pp.joint([Distribution(["1/4", "3/4"]), Distribution(["1/4", "3/4"])])


def test_randomized_response_twice():
    """Binary RR at e^ε = 3, c = 1/4: each factor's level is 2 (vertex (1/4, 3/4), [G] D-9), the product class's
    level is 4, the floor class Q(1/16)'s is 36/7 at the correlated prior (1/16, 1/16, 1/16, 13/16)."""
    K = randomized_response(2, 3)
    r = pml_ratio_product_priors([K, K], ProductPrior((2, 2), ("1/4", "1/4")))
    assert r.factor_ratios == (2, 2) and r.ratio == 4
    assert pml(K.tensor(K), ProductPrior((2, 2), ("1/4", "1/4")).joint(r.prior), r.output).ratio == 4
    level, y, prior = pml_ratio_witness(K.tensor(K), q("1/16"))
    assert level == q("36/7") and prior.probs == tuple(q(x) for x in ("1/16", "1/16", "1/16", "13/16"))
    assert pml(K.tensor(K), prior, y).ratio == q("36/7")


def test_product_level_is_the_product_of_levels_and_a_grid_cannot_beat_it():
    """On random kernels (zero entries included) the exact level over the product class equals
    pml_ratio(K₁, c₁)·pml_ratio(K₂, c₂); D-8 at every grid point of the product class (a rational grid that
    contains the vertices) is ≤ it, and the grid's maximum equals it (the vertices are on the grid)."""
    rng = random.Random(25)
    for _ in range(8):
        K1 = _random_kernel(rng, rng.randint(2, 3), rng.randint(2, 3))
        K2 = _random_kernel(rng, 2, rng.randint(2, 3))
        c1, c2 = fmpq(1, 2 * K1.N), fmpq(1, 4)
        pp = ProductPrior((K1.N, K2.N), (c1, c2))
        r = pml_ratio_product_priors([K1, K2], pp)
        assert r.ratio == pml_ratio(K1, c1) * pml_ratio(K2, c2)
        K = K1.tensor(K2)
        grid_best = fmpq(0)
        for P1, P2 in itertools.product(_grid(K1.N, c1, 4), _grid(K2.N, c2, 4)):
            P = pp.joint([P1, P2])
            out = K.apply(P).probs
            for y in range(K.M):
                if out[y] != 0:
                    grid_best = max(grid_best, pml(K, P, y).ratio)
        assert grid_best == r.ratio


def _grid(N, c, steps):
    """The points of Q(c) on the grid c + (1 − Nc)·k/steps (k a composition of ``steps`` into N parts)."""
    rest = 1 - N * c
    for ks in itertools.product(range(steps + 1), repeat=N - 1):
        if sum(ks) <= steps:
            parts = (*ks, steps - sum(ks))
            yield Distribution.from_exact_probs([c + rest * fmpq(k, steps) for k in parts])


def test_the_floor_class_exceeds_the_product_on_random_pairs():
    """Product priors are in Q(c₁c₂), so its level is ≥ t₁t₂; on random full-support pairs it is > (exact)."""
    rng = random.Random(3)
    above = 0
    for _ in range(20):
        K1 = _random_kernel(rng, 2, 2)
        K2 = _random_kernel(rng, 2, 3)
        t = pml_ratio(K1, q("1/4")) * pml_ratio(K2, q("1/4"))
        floor = pml_ratio(K1.tensor(K2), q("1/16"))
        assert floor >= t
        above += floor > t
    assert above >= 15


def test_certificates_check_and_edits_fail():
    assert all(c.check().truth is Truth.TRUE for c in product_pml_certificates())
    import dataclasses

    bp = bounded_product()
    assert dataclasses.replace(bp, conclusion="v1*v2 - u1*u2 - 1").check().truth is Truth.FALSE
    st = product_statements()
    sts = list(st.statements)
    label, lhs, op, rhs, conds = sts[1]
    sts[1] = (label, lhs, op, "(h1/m1)*(h2/m2) + 1", conds)
    assert dataclasses.replace(st, statements=tuple(sts)).check().truth is Truth.FALSE


def test_refusals():
    K = randomized_response(2, 3)
    with pytest.raises(ParameterError, match=r"kernels with \[2\] inputs for a prior class on \[2, 2\] inputs"):
        pml_ratio_product_priors([K], ProductPrior((2, 2), ("1/4", "1/4")))
