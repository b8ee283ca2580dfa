"""Certified float routes stay certified where float64 products underflow (subnormal or 0 results).

A float product whose result is subnormal errs by up to 2^-1075 *absolutely* (it may round to 0): a relative
error analysis alone then lets an "upper bound" fall below the exact value.  Each test builds a case where the
routine's float products underflow and compares its exact rational bounds with the exact value (fmpq, no
tolerance).
"""

from __future__ import annotations

from flint import fmpq

from exactdp.measures.lattice_interval import LatticeEnclosure, hockey_stick_bounds
from exactdp.measures.privacy_loss import PairLoss, hockey_stick_product_losses


def _tail_pair() -> tuple[list[tuple[PairLoss, int]], fmpq]:
    """Two one-coordinate losses whose only pair above γ is (tiny atom, tiny atom): each tiny atom has mass 2^-580
    (about e^-402 relative to its block's largest), so the float product of the two masses (2^-1160) underflows
    to 0 in the sweep, while E_γ = 2^-1160 − 2^1000·2^-2401 > 0."""
    a = fmpq(1, 2**580)
    LA = PairLoss.of([1 - a, a], [1 - fmpq(1, 2**1200), fmpq(1, 2**1200)])
    LB = PairLoss.of([1 - a, a], [1 - fmpq(1, 2**1201), fmpq(1, 2**1201)])
    return [(LA, 1), (LB, 1)], fmpq(2) ** 1000


def test_lattice_sweep_underflowing_products_deep_cut() -> None:
    items, g = _tail_pair()
    exact = hockey_stick_product_losses(items, g)
    assert exact > 0
    lo, hi = LatticeEnclosure().bounds(items, g, cut_nats=600)
    assert lo <= exact <= hi


def test_lattice_sweep_underflowing_products_rel_width() -> None:
    items, g = _tail_pair()
    exact = hockey_stick_product_losses(items, g)
    lo, hi = hockey_stick_bounds(items, g, rel_width=fmpq(1, 2**10))
    assert lo <= exact <= hi
