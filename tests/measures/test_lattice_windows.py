"""Windows of compositions (issue 24; exactdp.measures.lattice_interval.window_bounds,
exactdp.measures.blackwell_join.window_majorant).

The certified window bound against the exact values at n = 14 (every window of several sizes, a dozen γ, four pairs):
it lies above E_γ of every composition of its window and above the exact E_γ(A^{⊗k0} ⊗ B^{⊗m} ⊗ D′_j), within the
sweep's width of the latter."""

from __future__ import annotations

import pytest
from flint import fmpq

import exactdp.measures.lattice_interval as li
from exactdp.measures.blackwell_join import window_majorant
from exactdp.measures.lattice_interval import LatticeEnclosure, window_bounds
from exactdp.measures.privacy_loss import PairLoss, product_loss

F = fmpq
PAIRS = [(("1/2", "1/3", "1/6"), ("1/4", "1/4", "1/2")), (("5/9", "1/3", "1/9"), ("3/8", "1/2", "1/8")),
         (("5/9", "1/3", "1/9"), ("1/3", "11/20", "7/60")), (("1/2", "1/3", "1/6"), ("1/3", "29/60", "11/60"))]


def _losses(rows):
    p, q = ([F(x) for x in row] for row in rows)
    return PairLoss.of(p, q), PairLoss.of(q, p)


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize("tilt", [None, F(1, 4)])
def test_window_bound_against_exact_values(pair, tilt):
    A, B = _losses(PAIRS[pair])
    n = 14
    E = {k: product_loss([(A, k), (B, n - k)]) for k in range(n + 1)}
    gammas = [F(1, 2), F(1), F(9, 8), F(3, 2), F(2), F(3), F(5), F(8), F(16), F(40), F(200), F(2) ** 12]
    enc = LatticeEnclosure()
    for j, points in ((1, 4), (2, 6), (4, 6), (4, 200), (8, 10)):
        D = window_majorant(A, B, j, points)
        assert len(D.classes) <= points
        for k0 in range(1, n - j):
            m = n - k0 - j
            his = window_bounds(enc, A, B, k0, m, D, gammas, cut_nats=li.CUT_NATS, tilt=tilt)
            RD = product_loss([(A, k0), (B, m), (D, 1)])
            for g, hi in zip(gammas, his):
                top = max(E[k0 + i].hockey_stick(g) for i in range(j + 1))
                exact = RD.hockey_stick(g)
                assert top <= exact <= hi
                assert hi - exact <= F(1, 10**8)  # the sweep's width at n = 14: every atom kept
