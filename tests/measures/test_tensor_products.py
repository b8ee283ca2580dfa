"""Products of different kernels K₁^{⊗n₁} ⊗ K₂^{⊗n₂}: η_TV and ε for δ (issue 25 item 3) against brute force.

The brute force builds the explicit product kernel (Kronecker products of the rows) and takes the maximum over
every ordered pair of its rows: E_γ(P‖Q) = Σ (P − γQ)_+, and the least γ with E_γ ≤ δ of one pair exactly from
its breakpoints (the ratios P/Q, where the piecewise-linear E_γ changes slope).
"""

from __future__ import annotations

import itertools
import json

import pytest
from flint import fmpq

from exactdp.cli import main
from exactdp.kernels import Kernel
from exactdp.measures.profile_inversion import epsilon_tensor_power, epsilon_tensor_product
from exactdp.measures.tensor import eta_hockey_stick_tensor_product

F = fmpq
RR = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
K23 = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
ASYM = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
RR3 = Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]])


def _rows(factors):
    """The rows of K₁^{⊗n₁} ⊗ K₂^{⊗n₂} ⊗ … as lists of exact masses."""
    rows = [[F(1)]]
    for K, n in factors:
        for _ in range(n):
            rows = [[a * b for a in r for b in K[x]] for r in rows for x in range(K.N)]
    return rows


def _hockey_stick(p, q, g):
    return sum((a - g * b for a, b in zip(p, q) if a > g * b), F(0))


def _least_gamma(p, q, d):
    """The least γ ≥ 1 with E_γ(p‖q) ≤ d (None when the P-only mass exceeds d), exactly."""
    if sum((a for a, b in zip(p, q) if b == 0), F(0)) > d:
        return None
    if _hockey_stick(p, q, F(1)) <= d:
        return F(1)
    points = sorted({a / b for a, b in zip(p, q) if b and a / b > 1})
    for r in points:  # E_γ is linear between breakpoints: the root lies in the first segment ending at or below d
        if _hockey_stick(p, q, r) <= d:
            A = sum((a for a, b in zip(p, q) if b == 0 or a / b > r), F(0))  # the piece just left of r
            B = sum((b for a, b in zip(p, q) if b and a / b >= r), F(0))
            A2 = sum((a for a, b in zip(p, q) if b == 0 or a / b >= r), F(0))
            return max(F(1), (A2 - d) / B) if B else r
    return points[-1] if points else F(1)


def _brute(factors, d):
    rows = _rows(factors)
    tv = max(_hockey_stick(p, q, F(1)) for p, q in itertools.permutations(rows, 2))
    roots = [_least_gamma(p, q, d) for p, q in itertools.permutations(rows, 2)]
    return tv, (None if any(r is None for r in roots) else max(roots))


CASES = [
    [(RR, 2), (K23, 2)],
    [(ASYM, 3), (RR, 1)],
    [(K23, 1), (ASYM, 2)],
    [(RR3, 1), (K23, 2)],
    [(RR, 1), (K23, 1), (ASYM, 1)],
]


@pytest.mark.parametrize("factors", CASES)
@pytest.mark.parametrize("d", [F(1, 10), F(1, 100), F(1, 3)])
def test_eta_tv_and_epsilon_of_products_against_brute_force(factors, d):
    tv, gamma = _brute(factors, d)
    assert eta_hockey_stick_tensor_product(factors, 1) == tv
    r = epsilon_tensor_product(factors, d)
    assert r.t == gamma
    if gamma is not None:  # at γ* the product's profile is at most δ; just below it, above δ
        assert eta_hockey_stick_tensor_product(factors, gamma) <= d
        if gamma > 1:
            assert eta_hockey_stick_tensor_product(factors, gamma * (1 - F(1, 10**6))) > d


def test_one_factor_is_the_tensor_power():
    a = epsilon_tensor_product([(K23, 4)], F(1, 20))
    b = epsilon_tensor_power(K23, 4, F(1, 20))
    assert (a.t, a.composition) == (b.t, b.composition)


def _write(tmp_path, name, K):
    path = tmp_path / name
    path.write_text(json.dumps(K.as_strings()))
    return str(path)


def test_cli_product_of_two_files(tmp_path, capsys):
    rr, k23 = _write(tmp_path, "rr.json", RR), _write(tmp_path, "k23.json", K23)
    assert main(["tensor", f"{rr}:2", f"{k23}:2", "--delta", "1/10", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    tv, gamma = _brute([(RR, 2), (K23, 2)], F(1, 10))
    assert r["n"] == 4 and [f["n"] for f in r["factors"]] == [2, 2]
    assert r["eta_tv"] == str(tv) and r["epsilon_for_delta"]["t_star"] == str(gamma)
    assert {m["factor"] for m in r["eta_tv_maximizer"]} <= {0, 1}
    assert main(["tensor", f"{rr}:2", f"{k23}:2", "--delta", "1/10", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert f"t* = e^eps = {gamma}" in text and "of kernel 2" in text


@pytest.mark.parametrize("argv, message", [
    (["{rr}:2", "{k23}"], "every one is written FILE:N"),
    (["{rr}:2", "{k23}:2", "--n", "3"], "--n: not with FILE:N"),
    (["{rr}:2", "{k23}:0"], "N must be a positive integer"),
    (["{rr}:2", "{k23}:2", "--t", "2", "--delta", "1/10"], "not both"),
    (["{rr}"], "--n: required with one FILE"),
])
def test_cli_product_argument_errors(tmp_path, capsys, argv, message):
    paths = {"rr": _write(tmp_path, "rr.json", RR), "k23": _write(tmp_path, "k23.json", K23)}
    assert main(["tensor", *[a.format(**paths) for a in argv], "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_product_over_the_cost_guard_names_the_limit(tmp_path, capsys):
    """rr:500 k23:500 is answered now (test_cli_product_of_500_and_500_answers_epsilon_for_delta); 20000 each is
    over the certified filter's own estimate: refused up front, naming the limit, the filter and the product."""
    rr, k23 = _write(tmp_path, "rr.json", RR), _write(tmp_path, "k23.json", K23)
    assert main(["tensor", f"{rr}:20000", f"{k23}:20000", "--delta", "1e-6", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "max_work" in err and "certified filter" in err and "n = 20000, 20000" in err


@pytest.mark.parametrize("seed", range(5))
def test_filtered_product_search_is_the_exact_search(seed):
    """Products of different kernels (one factor with two pair classes, the others with one) go through the
    certified filter with fixed factors (issue 24 item 1): value and maximizing composition are the unfiltered
    exact search's, at 1, a random γ and a tie γ (a product ratio of a corner composition)."""
    import random

    from exactdp.measures.tensor_search import TensorSearch
    from tests.exact import random_distribution

    rng = random.Random(7 + seed)
    t = rng.randint(2, 5)
    rr = Kernel([[fmpq(t, t + 1), fmpq(1, t + 1)], [fmpq(1, t + 1), fmpq(t, t + 1)]])
    K = Kernel([random_distribution(rng, 3), random_distribution(rng, 3)])
    n1, n2 = rng.randint(2, 8), rng.randint(3, 12)
    gammas = [fmpq(1), fmpq(rng.randint(2, 60), rng.randint(1, 4)), fmpq(t) ** 2 * max(
        (r for r, _ in TensorSearch([(K, 1)]).classes[0].loss.classes), default=fmpq(1))]
    for g in gammas:
        if g < 1:
            continue
        a = TensorSearch([(rr, n1), (K, n2)], filtered=True).witness(g)
        b = TensorSearch([(rr, n1), (K, n2)], filtered=False).witness(g)
        assert (a.value, a.counts) == (b.value, b.counts)


@pytest.mark.parametrize("n1, n2, delta", [(6, 8, fmpq(1, 100)), (10, 14, fmpq(1, 10**4))])
def test_epsilon_enclosure_contains_the_exact_t_star(monkeypatch, n1, n2, delta):
    """Where a maximizing composition's root is out of the exact route's reach (forced here at small n), ε for δ
    is a certified enclosure (t_lower, t]: it contains the exact t* of the exact inversion, and ε's relative width
    is ≤ 10⁻⁶."""
    import math

    from exactdp.measures import profile_inversion

    rr = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
    exact = epsilon_tensor_product([(rr, n1), (K, n2)], delta)
    monkeypatch.setattr(profile_inversion, "_root_fits", lambda *a: False)
    monkeypatch.setattr(profile_inversion, "_exact_fits", lambda *a: False)
    r = epsilon_tensor_product([(rr, n1), (K, n2)], delta)
    assert exact.exact and not r.exact
    assert r.t_lower < exact.t <= r.t
    lo, hi = math.log(float(r.t_lower)), math.log(float(r.t))
    assert 0 < hi - lo <= 2e-6 * lo


@pytest.mark.slow
def test_cli_product_of_500_and_500_answers_epsilon_for_delta(capsys):
    """Issue 24 item 1 / issue 25 item 3 acceptance: ``exactdp tensor rr.json:500 k23.json:500 --delta 1e-6``
    answers exactly: t* is an exact rational (the maximizing composition, RR^{⊗500} ⊗ (q, p)^{⊗500}, by the
    streamed rows of measures/binomial_trinomial.py), δ_n(t*) ≤ δ for that composition and above δ just left of
    t* (the root of a convex piecewise-linear E_γ: its piece at t* meets δ there); η_TV a certified enclosure."""
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        a, b = pathlib.Path(d, "rr.json"), pathlib.Path(d, "k23.json")
        a.write_text('[["3/4","1/4"],["1/4","3/4"]]')
        b.write_text('[["1/2","1/3","1/6"],["1/4","1/4","1/2"]]')
        assert main(["tensor", f"{a}:500", f"{b}:500", "--delta", "1e-6", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)["result"]
    inv = doc["epsilon_for_delta"]
    d, t = fmpq(inv["delta"]), fmpq(inv["t_star"])
    assert "t_lower" not in inv and d == fmpq(1, 10**6)
    assert 555.7910 < float(inv["decimal"]) < 555.7911  # inside the former enclosure (555.790972, 555.791043]
    assert [(m["x"], m["x_prime"], m["count"]) for m in inv["maximizer"]] == [(0, 1, 500), (1, 0, 500)]
    from exactdp.measures.binomial_trinomial import binomial_trinomial_piece
    from exactdp.measures.privacy_loss import PairLoss

    rr = PairLoss.of([fmpq(3, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(3, 4)])
    qp = PairLoss.of([fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)], [fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)])
    A, B = binomial_trinomial_piece(rr, 500, qp, 500, t)  # the piece just right of t*: E_{t*} = A − t*B = δ
    assert A - t * B == d and B > 0
    assert doc["eta_tv"] is None and fmpq(doc["eta_tv_enclosure"]["lower"]) > fmpq(999999999, 10**9)
