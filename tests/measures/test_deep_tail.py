"""The deep-tail routine of the composition search (exactdp/measures/deep_tail.py): E_γ below the float range.

Containment of the exact type-class value in every composition's bounds (small n, adversarial kernels), the
filtered search against the unfiltered exhaustive one where the routine is the one chosen, and the acceptance
case of issue 24: δ_n((3/2)ⁿ) of the asymmetric 2×2 at n = 10⁴, about 3.4·10⁻⁵¹⁶, answered.
"""

from __future__ import annotations

import random

import pytest
from flint import arb, ctx, fmpq

from exactdp.kernels import Kernel
from exactdp.measures import composition_filter as cf
from exactdp.measures import deep_tail as dt
from exactdp.measures.privacy_loss import hockey_stick_product_losses
from exactdp.measures.tensor_search import TensorSearch, all_compositions, classify, normalize_factors

F = fmpq
ASYM = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])


def _structure(K, n):
    classes, groups, totals, _ = classify(normalize_factors([(K, n)]))
    return [c.loss for c in classes], groups, totals


KERNELS = [
    ASYM,
    Kernel([["1/2", "1/2"], ["0", "1"]]),  # a zero entry: P-only mass in one class, one ratio class in the other
    Kernel([["2/3", "1/3"], ["1/5", "4/5"]]),
    Kernel([["999999/1000000", "1/1000000"], ["1/3", "2/3"]]),  # an entry near 1
    Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/8", "5/8"]]),  # three outputs, two ratio classes (2, 2/5)
]


@pytest.mark.parametrize("K", KERNELS)
@pytest.mark.parametrize("n", [1, 4, 13, 30])
def test_every_composition_bound_contains_the_exact_value(K, n):
    losses, groups, totals = _structure(K, n)
    if dt._structure(losses, groups, totals) is None:
        pytest.skip("not a two-ratio structure")
    ratios = sorted({r for loss in losses for r, _ in loss.classes})
    gammas = {F(1), F(3, 2) ** n, ratios[-1] ** n * F(9, 10), ratios[-1] ** n, ratios[-1] ** max(n - 1, 1) * ratios[0]}
    for g in sorted(x for x in gammas if x >= 1):
        rows = dt.DEEP_TAIL.enclose(losses, groups, totals, g)
        assert [c for c, _, _ in rows] == list(all_compositions(groups, totals, len(losses)))
        values = [hockey_stick_product_losses(list(zip(losses, c)), g) for c, _, _ in rows]
        for (c, lo, hi), v in zip(rows, values):
            assert lo <= v <= hi, (c, g, float(lo), float(v), float(hi))
        best = max(values)
        kept = [v for (_, lo, hi), v in zip(rows, values) if hi >= max(lo for _, lo, _ in rows)]
        assert best in kept  # the maximum is never discarded


def test_a_ball_is_tight_where_floats_underflow():
    # the homogeneous composition at γ = (3/2)^n, n = 3000: E_γ ≈ 10^-155 (relative width ≤ 2^-64 asked)
    losses, _, _ = _structure(ASYM, 1)
    A = next(loss for loss in losses if loss.classes[0][0] == 2)
    n = 3000
    g = F(3, 2) ** n
    lo, hi = dt.composition_bounds(A, n, A, 0, g)
    exact = hockey_stick_product_losses([(A, n)], g)
    assert lo <= exact <= hi and hi - lo <= exact / 2**64
    assert F(1, 10**160) < exact < F(1, 10**150)


@pytest.mark.parametrize("seed", range(6))
def test_balls_against_exact_on_random_mixed_compositions(seed):
    rng = random.Random(seed)
    while True:
        p = [F(rng.randint(1, 9), 1) for _ in range(2)]
        q = [F(rng.randint(1, 9), 1) for _ in range(2)]
        p, q = [x / sum(p) for x in p], [x / sum(q) for x in q]
        if p != q:
            break
    losses, groups, totals = _structure(Kernel([p, q]), 1)
    A, B = losses[groups[0][0]], losses[groups[0][1]]
    k, m = rng.randint(0, 60), rng.randint(0, 60)
    top = max(A.classes[0][0], B.classes[0][0])
    for g in (F(1), top ** max(k + m - 1, 1), F(rng.randint(1, 50), 7) ** rng.randint(1, 20)):
        if g < 1:
            continue
        v = hockey_stick_product_losses([(A, k), (B, m)], g)
        lo, hi = dt.composition_bounds(A, k, B, m, g)
        assert lo <= v <= hi
        assert v == 0 and hi == 0 or hi - lo <= v / 2**60


def test_the_routine_is_chosen_only_below_the_float_range():
    n = 1000
    losses, groups, totals = _structure(ASYM, n)
    assert not dt.applies_at(losses, groups, totals, F(3, 2))  # E_γ ≈ 1: the float filter
    assert not dt.applies_at(losses, groups, totals, F(3) ** n)  # above every ratio: E_γ = 0, point enclosures
    assert dt.applies_at(losses, groups, totals, F(19, 10) ** n)  # E_γ ≈ 10^-300
    assert cf.plan(losses, groups, totals, F(19, 10) ** n).routine is dt.DEEP_TAIL
    assert cf.plan(losses, groups, totals).routine is cf.TWO_RATIO  # without γ: never the deep tail


def test_filtered_search_equals_the_exhaustive_one_in_the_deep_tail():
    n = 700
    g = F(19, 10) ** n
    a = TensorSearch([(ASYM, n)], filtered=True).witness(g)
    assert a.discarded >= n - 2  # the routine narrowed the search to one or two compositions
    b = TensorSearch([(ASYM, n)], filtered=False, exhaustive_limit=10**6).witness(g)
    assert (a.value, a.counts) == (b.value, b.counts)
    with ctx.workprec(64):
        assert -156 < float((arb(a.value).log() / arb(10).log()).mid()) < -155  # E_γ ≈ 2.3·10^-156 at (699, 1)


@pytest.mark.slow
def test_cli_tensor_asymmetric_delta_below_the_float_range(tmp_path, capsys):
    # issue 24: `exactdp tensor k.json --n 10000 --t 3/2` answers δ_n((3/2)^n) ≈ 3.4·10^-516 exactly
    import json

    from exactdp.cli import main
    from exactdp.limits import limits
    from exactdp.numbers.reader import as_expr

    k = tmp_path / "k.json"
    k.write_text('[["1/2", "1/2"], ["1/4", "3/4"]]')
    assert main(["tensor", str(k), "--n", "10000", "--t", "3/2", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    with limits(max_text_length=10**5, max_integer_digits=10**5):
        v = fmpq(int(as_expr(r["delta_n_at_t_n"]).p), int(as_expr(r["delta_n_at_t_n"]).q))
    assert F(342, 10**518) < v < F(343, 10**518)
    # the homogeneous composition's binomial tail, independently by arb: the same number
    n, t = 10_000, None
    with ctx.workprec(256):
        lg, l2, l23 = arb(F(3, 2)).log() * n, arb(2).log(), arb(F(2, 3)).log()
        t = next(a for a in range(n + 1) if a * l2 + (n - a) * l23 > lg)
        s = arb(0)
        for a in range(t, n + 1):
            s += arb.bin_uiui(n, a) * (1 - (arb(F(3, 2)) ** n) / (arb(2) ** a * arb(F(2, 3)) ** (n - a)))
        s /= arb(2) ** n
        assert s.overlaps(arb(v))
