"""The binomial fast path of the n-fold products (issue 15 item 3): one loss with at most two ratio classes
(binary randomized response, any pair on two outputs) summed by binary splitting, exactly equal to the
type-class engine (product_loss) and to brute force over all outcome sequences.  No timing asserts here
(speed lives in benchmarks/bench_tensor.py)."""

import itertools
import math
import random

import pytest
from flint import fmpq

import exactdp.measures.privacy_loss as pl
import exactdp.measures.tensor as tensor
import exactdp.measures.tensor_search as tensor_search
from exactdp import Kernel, eta_hockey_stick
from exactdp.limits import ResourceLimitError
from exactdp.measures.privacy_loss import (
    PairLoss,
    binomial_hockey_stick,
    binomial_loss,
    binomial_sum,
    hockey_stick_product_losses,
    product_loss,
)
from exactdp.measures.tensor import (
    delta_tensor_power,
    eta_tv_tensor_power,
    hockey_stick_product,
    tensor_search_cost,
)
from exactdp.mechanisms import randomized_response

Q = fmpq
RR = ([Q(3, 4), Q(1, 4)], [Q(1, 4), Q(3, 4)])
ASYM = ([Q(1, 2), Q(1, 2)], [Q(1, 3), Q(2, 3)])
BIG = ([Q(2**63 - 25, 2**63), Q(25, 2**63)], [Q(3**40 - 5**20, 3**40), Q(5**20, 3**40)])  # beyond int64
PAIRS = [
    RR,
    ASYM,
    (ASYM[1], ASYM[0]),
    ([Q(1, 2), Q(1, 2)], [Q(1, 4), Q(3, 4)]),
    BIG,
    ([Q(1, 2), Q(1, 4), Q(1, 4)], [Q(1, 2), Q(1, 2), Q(0)]),  # two classes and a P-only output
    ([Q(1, 2), Q(1, 2)], [Q(1), Q(0)]),  # one class and a P-only output
    ([Q(1, 3), Q(1, 3), Q(1, 3)], [Q(1, 6), Q(1, 6), Q(2, 3)]),  # three outputs, two ratio classes
    ([Q(1, 2), Q(1, 2), Q(0)], [Q(1, 4), Q(1, 4), Q(1, 2)]),  # one class, q-only mass
    ([Q(1), Q(0)], [Q(0), Q(1)]),  # disjoint supports
]


def _brute(p, q, n, g):
    """Σ over all outcome sequences of (P − γQ)_+ of the explicit product distributions."""
    total = Q(0)
    for seq in itertools.product(range(len(p)), repeat=n):
        P, QQ = Q(1), Q(1)
        for y in seq:
            P *= p[y]
            QQ *= q[y]
        if P > g * QQ:
            total += P - g * QQ
    return total


def _gammas(loss, n, rng):
    """γ below 1, at 1, above, huge, and at breakpoints r_hi^j r_lo^(n-j) (exact ties)."""
    gs = [Q(0), Q(1, 3), Q(1), Q(2), Q(7, 5), Q(3) ** n, Q(10**30)]
    if len(loss.classes) == 2:
        (rh, _), (rl, _) = loss.classes
        gs += [rh ** j * rl ** (n - j) for j in {0, n // 3, n // 2, n}]
    elif loss.classes:
        gs.append(loss.classes[0][0] ** n)
    gs.append(Q(rng.randint(1, 50), rng.randint(1, 50)))
    return gs


def test_binomial_sum_matches_the_definition():
    for n in (0, 1, 2, 5, 13, 40):
        for x, y in ((3, 1), (1, 3), (0, 5), (5, 0), (0, 0), (2**70 + 1, 3**50), (7, 7)):
            for a, b in ((0, n + 1), (0, n // 2), (n // 2, n + 1), (1, n), (n // 3, 2 * n // 3 + 1), (3, 2),
                         (-4, n + 9)):
                ref = sum(math.comb(n, j) * x**j * y ** (n - j) for j in range(max(a, 0), min(b, n + 1)))
                assert binomial_sum(n, x, y, a, b) == ref, (n, x, y, a, b)


def test_binomial_sum_long_ranges_use_the_splitting():
    n = 1000
    for a, b in ((0, 400), (300, 700), (600, n + 1), (0, 700)):
        assert binomial_sum(n, 3, 1, a, b) == sum(math.comb(n, j) * 3**j for j in range(a, b))


def test_threshold_is_exact_at_breakpoints_and_with_bad_guesses(monkeypatch):
    rh, rl = Q(3), Q(1, 3)
    for n in (1, 2, 7, 50):
        for g in [Q(1, 2), Q(1), Q(2), Q(3) ** n * 2, Q(1, 3) ** n, Q(1, 3) ** n / 2] + \
                [rh**j * rl ** (n - j) for j in range(n + 1)]:
            ref = next((j for j in range(n + 1) if rh**j * rl ** (n - j) > g), n + 1)
            assert pl._first_above(rh, rl, n, g) == ref
            for bad in (None, -5, 0, ref - 3, ref + 1, n + 7, 10**9):
                monkeypatch.setattr(pl, "_log_guess", lambda *a, bad=bad: bad)
                assert pl._first_above(rh, rl, n, g) == ref
            monkeypatch.undo()


@pytest.mark.parametrize("pair", PAIRS)
def test_binomial_equals_brute_force(pair):
    p, q = pair
    loss = PairLoss.of(p, q)
    rng = random.Random(str(pair))
    top = 12 if len(p) == 2 else 7
    for n in sorted({1, 2, 3, 5, top}):
        for g in _gammas(loss, n, rng):
            assert binomial_hockey_stick(loss, n, g) == _brute(p, q, n, g), (n, g)


@pytest.mark.parametrize("pair", PAIRS)
def test_binomial_equals_type_classes(pair):
    loss = PairLoss.of(*pair)
    rng = random.Random(repr(pair))
    for n in (1, 4, 17, 100, 300):
        for g in _gammas(loss, n, rng):
            assert binomial_hockey_stick(loss, n, g) == product_loss([(loss, n)]).hockey_stick(g), (n, g)


def test_random_two_output_pairs_equal_type_classes():
    rng = random.Random("issue-15-binomial")
    for _ in range(60):
        d1, d2 = rng.choice([4, 7, 12, 2**64 + 13, 10**25]), rng.choice([3, 9, 2**62 + 1])
        a, b = rng.randint(0, d1), rng.randint(0, d2)
        p, q = [Q(a, d1), Q(d1 - a, d1)], [Q(b, d2), Q(d2 - b, d2)]
        loss = PairLoss.of(p, q)
        n = rng.randint(1, 120)
        for g in _gammas(loss, n, rng):
            assert binomial_hockey_stick(loss, n, g) == product_loss([(loss, n)]).hockey_stick(g)


def test_dispatch_only_for_one_loss_with_two_classes():
    L, A = PairLoss.of(*RR), PairLoss.of(*ASYM)
    three = PairLoss.of([Q(1, 2), Q(1, 3), Q(1, 6)], [Q(1, 3), Q(1, 3), Q(1, 3)])
    assert binomial_loss([(L, 3), (L, 4)]) == (L, 7)  # equal losses merge
    assert binomial_loss([(L, 3), (A, 0)]) == (L, 3)
    assert binomial_loss([(L, 3), (A, 1)]) is None
    assert binomial_loss([(three, 3)]) is None
    with pytest.raises(ValueError):
        binomial_hockey_stick(three, 3, Q(1))
    for g in (Q(0), Q(1, 2), Q(1), Q(5, 2)):
        assert hockey_stick_product_losses([(L, 3), (L, 4)], g) == product_loss([(L, 7)]).hockey_stick(g)
        assert hockey_stick_product_losses([(L, 3), (A, 2)], g) == product_loss([(L, 3), (A, 2)]).hockey_stick(g)
        assert hockey_stick_product_losses([(L, 0)], g) == max(1 - g, Q(0))


def _old_search(monkeypatch):
    """Route every evaluation of the tensor search through the type classes (the path before issue 15)."""
    monkeypatch.setattr(tensor_search, "_hockey_stick", lambda items, g: product_loss(items).hockey_stick(g))


def test_tensor_power_equals_the_type_class_search(monkeypatch):
    kernels = [randomized_response(2, 3), randomized_response(2, Q(5, 2)), Kernel([["1/2", "1/2"], ["1/3", "2/3"]]),
               Kernel([["1/2", "1/2"], ["1/4", "3/4"]]), Kernel([["2/9", "7/9"], ["1/2", "1/2"]]),
               Kernel([[str(Q(2**63 - 25, 2**63)), str(Q(25, 2**63))], ["1/3", "2/3"]])]
    cases = [(K, n, g) for K in kernels for n in (1, 2, 9, 60) for g in (Q(1), Q(2), Q(4, 3))]
    cases += [(randomized_response(2, 3), 300, g) for g in (Q(1), Q(2), Q(3) ** 160, Q(3) ** 20)]
    fast = [delta_tensor_power(K, n, g) for K, n, g in cases]
    _old_search(monkeypatch)
    assert fast == [delta_tensor_power(K, n, g) for K, n, g in cases]


@pytest.mark.parametrize("rows", [[["3/4", "1/4"], ["1/4", "3/4"]], [["1/2", "1/2"], ["1/3", "2/3"]]])
def test_tensor_power_equals_the_explicit_product(rows):
    K = Kernel(rows)
    for n in (1, 2, 3, 4):
        Kn = K.tensor_power(n)
        for g in (Q(1), Q(2), Q(9), Q(3, 2)):
            assert delta_tensor_power(K, n, g) == eta_hockey_stick(Kn, g)
        assert eta_tv_tensor_power(K, n) == eta_hockey_stick(Kn, 1)


def test_public_product_uses_the_fast_path_and_agrees():
    for n in (1, 5, 12):
        for g in (0, "1/2", 1, 3, "9/2"):
            assert hockey_stick_product([(RR[0], RR[1], n)], g) == _brute(*RR, n, Q(g))
            assert hockey_stick_product([(ASYM[0], ASYM[1], n)], g) == _brute(*ASYM, n, Q(g))


def test_large_n_is_accepted_and_huge_n_refused_before_work():
    K = randomized_response(2, 3)
    cost = tensor_search_cost([(K, 10**5)], 2)
    assert cost.work <= 10**9 and cost.memory < 10**8 and cost.terms == 10**5 + 1
    assert tensor_search_cost([(K, 10**12)]).work > 10**9
    with pytest.raises(ResourceLimitError, match="max_work"):
        eta_tv_tensor_power(K, 10**12)
    with pytest.raises(ResourceLimitError, match="max_work"):
        hockey_stick_product([(RR[0], RR[1], 10**12)], 1)
    # kernels with several loss classes keep the type-class estimate (their interior compositions) unless the
    # certified composition filter runs (two classes of two ratios: the filter plus two exact evaluations)
    asym = [(Kernel([["1/2", "1/2"], ["1/3", "2/3"]]), 10_000)]
    assert tensor_search_cost(asym, filtered=False).work > 10**9 >= tensor_search_cost(asym).work


def test_moderate_n_fast_path_matches_the_symmetry_of_rr():
    # δ_n(1) of binary RR is the TV of two binomials; at n odd it is Σ_{j>n/2} C(n,j)(3^j − 3^(n−j)) / 4^n
    n = 2001
    K = randomized_response(2, 3)
    ref = Q(sum(math.comb(n, j) * (3**j - 3 ** (n - j)) for j in range(n // 2 + 1, n + 1)), 4**n)
    assert eta_tv_tensor_power(K, n) == ref


def test_irrational_eps_binomial_piece_equals_the_type_classes(monkeypatch):
    import sympy

    from exactdp.measures.tensor import delta_tensor_power_eps

    kernels = [randomized_response(2, 3), Kernel([["1/2", "1/2"], ["1/3", "2/3"]]),
               Kernel([["1/2", "1/2"], ["0", "1"]])]
    epss = ["1/2", sympy.log(3) / 2, sympy.sqrt(2), sympy.Integer(0), sympy.log(3), "7"]
    cases = [(K, n, e) for K in kernels for n in (1, 2, 7, 40) for e in epss]
    fast = [delta_tensor_power_eps(K, n, e) for K, n, e in cases]
    for module in (tensor, tensor_search):  # the type-class route everywhere
        monkeypatch.setattr(module, "binomial_loss", lambda items: None)
    slow = [delta_tensor_power_eps(K, n, e) for K, n, e in cases]
    assert fast == slow


def test_binomial_linear_piece_matches_rational_gamma():
    loss = PairLoss.of(*ASYM)
    for n in (1, 6, 33):
        for g in _gammas(loss, n, random.Random(n)):
            A, B = pl.binomial_linear_piece(loss, n, lambda r, g=g: g < r)
            assert A - g * B == binomial_hockey_stick(loss, n, g)


def test_large_n_irrational_eps_is_accepted():
    import sympy

    from exactdp.measures.tensor import delta_tensor_power_eps

    n = 20_000  # e^eps = e^(11n/20), just above the mean privacy loss (n/2) log 3: delta_n well inside (0, 1)
    v = delta_tensor_power_eps(randomized_response(2, 3), n, sympy.Rational(11 * n, 20))
    assert v.free_symbols == set() and 0 < v.evalf(30) < 1
