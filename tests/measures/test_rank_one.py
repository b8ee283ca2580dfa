"""Products of rank-one losses (exactdp/measures/rank_one.py): the exponent-sum route against the type classes of
product_loss and against brute force over the explicit product kernel; the pair classes that the search merges.

Item 1 of issue 25 item 3 (symmetry reduction) is the search's classification by privacy-loss distribution
(tensor_search.classify): two ordered row pairs are one class exactly when their PairLoss is equal — which holds for
a pair and an output permutation of it, and for a pair and its reverse when the loss is its own reverse — so the
tests here check which classes are merged and that no pair with a merely similar loss is.
"""

from __future__ import annotations

import json

import pytest
from flint import fmpq

from exactdp.cli import main
from exactdp.kernels import Kernel
from exactdp.measures.privacy_loss import PairLoss, product_loss
from exactdp.measures.profile_inversion import epsilon_tensor_product
from exactdp.measures.rank_one import rank_one, rank_one_cost, rank_one_piece, rank_one_plans, rank_one_product
from exactdp.measures.tensor import eta_hockey_stick_tensor_product
from exactdp.measures.tensor_search import classify
from exactdp.mechanisms import optimized_unary_encoding, randomized_response
import itertools

from tests.measures.test_tensor_products import _brute, _hockey_stick, _rows, _write

F = fmpq
RR = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
RR3 = Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]])
K23 = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
OUE = optimized_unary_encoding(2, 3)  # 2 inputs, 4 outputs: ratios 3, 1, 1/3
# rows 0 and 1 swap outputs 0 and 1 (one class), row 2 is not a permutation of either
SYM = Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]])
L_RR5 = PairLoss.of([F(5, 6), F(1, 6)], [F(1, 6), F(5, 6)])  # ratios 5, 1/5: ρ = 25
K5 = randomized_response(3, 5)  # 3-RR with e^eps = 5: ratios 5, 1, 1/5 (ρ = 5, commensurable with L_RR5)
L_K5 = PairLoss.of(K5[0], K5[1])
RR2 = randomized_response(2, 2)
ASYM = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])  # ratios 2, 2/3 and, reversed, 3/2, 1/2: ρ = 3 (RR's 9 = 3²)

L_RR = PairLoss.of(RR[0], RR[1])
L_RR3 = PairLoss.of(RR3[0], RR3[1])
L_OUE = PairLoss.of(OUE[0], OUE[1])
L_K23 = PairLoss.of(K23[0], K23[1])
L_FOUR = PairLoss.of([F(4, 10), F(2, 10), F(1, 10), F(3, 10)], [F(1, 20), F(1, 20), F(1, 10), F(3, 5)])  # 8, 4, 1, 1/2
L_PONLY = PairLoss.of([F(2, 5), F(1, 5), F(1, 5), F(1, 5)], [F(1, 5), F(2, 5), F(2, 5), F(0)])  # 2, 1/2 and P-only 1/5


def test_rank_one_structures():
    assert rank_one(L_RR) == (F(9), (1, 0), F(1, 3))
    assert rank_one(L_RR3) == (F(2), (2, 1, 0), F(1, 2))
    assert rank_one(L_OUE) == (F(3), (2, 1, 0), F(1, 3))
    assert rank_one(L_FOUR) == (F(2), (4, 3, 1, 0), F(1, 2))
    assert rank_one(L_K23) is None  # ratios 2, 4/3, 1/3: quotients 6 and 4 are not powers of one rational
    assert rank_one(PairLoss.of([F(1)], [F(1)])) is None
    for loss in (L_RR, L_RR3, L_OUE, L_FOUR):  # r_l = r_min·ρ^{m_l}, exactly
        rho, exps, r_min = rank_one(loss)
        assert [r for r, _ in loss.classes] == [r_min * rho ** m for m in exps]


def test_pair_classes_merge_exactly_the_equal_losses():
    counts = {name: len(classify([(K, 3)])[0]) for name, K in
              [("RR", RR), ("RR3", RR3), ("K23", K23), ("SYM", SYM), ("RR4", randomized_response(4, 3))]}
    # RR: (0,1) equals its reverse; k-RR: all ordered pairs one class; K23: (0,1) and (1,0) differ
    assert counts["RR"] == 1 and counts["RR3"] == 1 and counts["RR4"] == 1 and counts["K23"] == 2
    # SYM: (0,1) ~ (1,0) by swapping outputs 0 and 1; (0,2) ~ (1,2) likewise; the Blackwell pruning may drop more
    losses = {(x, xp): PairLoss.of(SYM[x], SYM[xp]) for x in range(3) for xp in range(3) if x != xp}
    assert losses[0, 1] == losses[1, 0] and losses[0, 2] == losses[1, 2] and losses[2, 0] == losses[2, 1]
    assert len(set(losses.values())) == 3
    assert counts["SYM"] <= 3


def test_a_tampered_symmetry_is_not_merged():
    """Two pairs with the same ratios but other masses: a 'symmetry' that is not an output permutation.  Their losses
    differ, the search keeps both, and merging them would change the product's value."""
    a = PairLoss.of([F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)])  # ratios 2, 1, 1/2
    b = PairLoss.of([F(1, 3), F(1, 3), F(1, 3)], [F(1, 6), F(1, 3), F(1, 2)])  # ratios 2, 1, 2/3: not a permutation
    c = PairLoss.of([F(2, 5), F(2, 5), F(1, 5)], [F(1, 5), F(2, 5), F(2, 5)])  # ratios 2, 1, 1/2, other masses
    assert [r for r, _ in a.classes] == [r for r, _ in c.classes] and a != c and a != b
    K = Kernel([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["2/5", "2/5", "1/5"], ["1/5", "2/5", "2/5"]])
    classes = classify([(K, 2)])[0]
    assert len({cl.loss for cl in classes}) == len(classes)
    g = F(3, 2)
    assert product_loss([(a, 4)]).hockey_stick(g) != product_loss([(c, 4)]).hockey_stick(g)


PAIRS = [(L_RR, L_RR3), (L_RR3, L_OUE), (L_RR, L_FOUR), (L_RR3, L_FOUR), (L_PONLY, L_RR3), (L_OUE, L_FOUR),
         (L_RR, L_PONLY)]
GAMMAS = [F(0), F(1), F(3, 2), F(2), F(3), F(4), F(9, 2), F(8), F(27), F(64), F(1000)]


@pytest.mark.parametrize("pair", PAIRS, ids=range(len(PAIRS)))
def test_piece_equals_the_type_classes(pair):
    A, B = pair
    for k1 in range(0, 7):
        for k2 in range(0, 7):
            items = [(A, k1), (B, k2)]
            found = rank_one_product(items)
            if k1 == 0 or k2 == 0:
                assert found is None
                continue
            assert found is not None
            loss = product_loss(items)
            (rho1, e1, r1), (rho2, e2, r2) = rank_one(A), rank_one(B)
            low = r1 ** k1 * r2 ** k2  # the least and the greatest product ratio: ties at both ends
            assert found.c == low
            high = low * rho1 ** (k1 * max(e1)) * rho2 ** (k2 * max(e2))
            step = found.groups[-1].base
            for g in GAMMAS + [low, high, low * step, high / step]:  # ties also at 2, 3, 4, 8, 27, 64
                a, b = rank_one_piece(found, g)
                assert a - g * b == loss.hockey_stick(g), (k1, k2, g)
                assert (a, b) == loss.linear_piece(lambda P, Q, g=g: P * loss.DQ * g.q > Q * loss.DP * g.p) or g == 0


L_RR2 = PairLoss.of([F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)])  # RR with e^eps = 2: ratios 2, 1/2
L_ASYM = PairLoss.of([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)])  # ratios 2, 2/3: quotient 3, as RR's (3, 1/3)


def test_two_two_ratio_losses_only_on_independent_progressions():
    assert rank_one_product([(L_RR, 3), (L_ASYM, 3)]) is None  # one progression (quotient 3): O(n) type classes already
    assert rank_one_product([(L_RR, 3), (L_PONLY, 3)]) is not None  # quotients 9 and 4: independent
    found = rank_one_product([(L_RR, 5), (L_RR2, 6)])
    assert found is not None and len(found.groups) == 2
    loss = product_loss([(L_RR, 5), (L_RR2, 6)])
    for g in GAMMAS:
        a, b = rank_one_piece(found, g)
        assert a - g * b == loss.hockey_stick(g)


def test_rank_two_is_left_to_the_other_routes():
    assert rank_one_product([(L_RR, 3), (L_K23, 3)]) is None  # K23's pair is rank two
    assert rank_one_product([(L_RR, 3), (L_RR3, 2), (L_K23, 1)]) is None  # one rank-two loss among three
    assert rank_one_product([(L_RR3, 3), (L_RR3, 2)]) is None  # one loss (merged): the trinomial route


PRODUCTS = [[(RR, 2), (RR3, 2)], [(RR3, 1), (OUE, 2)], [(RR, 3), (OUE, 1)], [(RR3, 2), (randomized_response(4, 3), 1)],
            [(RR, 3), (randomized_response(2, 2), 3)]]


@pytest.mark.parametrize("factors", PRODUCTS, ids=range(len(PRODUCTS)))
@pytest.mark.parametrize("d", [F(1, 10), F(1, 100)])
def test_products_against_brute_force(factors, d):
    tv, gamma = _brute(factors, d)
    assert eta_hockey_stick_tensor_product(factors, 1) == tv
    assert eta_hockey_stick_tensor_product(factors, 1, filtered=False) == tv
    r = epsilon_tensor_product(factors, d)
    assert r.t == gamma


@pytest.mark.parametrize("n1,n2", [(1, 6), (6, 1), (4, 5), (6, 6)])
def test_search_equals_the_type_classes_up_to_six(n1, n2):
    for g in (F(1), F(3), F(5, 2), F(40)):
        want = product_loss([(L_RR, n1), (L_RR3, n2)]).hockey_stick(g)  # one class each: the only composition
        assert eta_hockey_stick_tensor_product([(RR, n1), (RR3, n2)], g) == want


def test_cli_rr_times_3rr_at_n_10000(tmp_path, capsys):
    rr, k3 = _write(tmp_path, "rr.json", RR), _write(tmp_path, "krr3.json", RR3)
    assert main(["tensor", f"{rr}:5000", f"{k3}:5000", "--delta", "1e-6", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    t = F(r["epsilon_for_delta"]["t_star"])
    items = [(L_RR, 5000), (L_RR3, 5000)]
    a, b = rank_one_piece(rank_one_product(items), t)  # the homogeneous composition is the maximizer (one class)
    assert a - t * b <= F(1, 10**6)
    left = t * (1 - F(1, 10**12))
    a, b = rank_one_piece(rank_one_product(items), left)
    assert a - left * b > F(1, 10**6)


def test_cli_rr_times_k23_at_n_10000_is_refused_up_front(tmp_path, capsys):
    rr, k23 = _write(tmp_path, "rr.json", RR), _write(tmp_path, "k23.json", K23)
    assert main(["tensor", f"{rr}:5000", f"{k23}:5000", "--delta", "1e-6", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "max_work" in err and "EXACTDP_MAX_WORK" in err


@pytest.mark.parametrize("factors,t", [([(RR, 2), (RR3, 1)], F(3, 2)), ([(RR, 1), (K23, 2)], F(2)),
                                       ([(RR3, 1), (OUE, 1)], F(3)), ([(RR, 1), (RR3, 1), (OUE, 1)], F(3)),
                                       ([(RR, 1), (RR3, 1), (K5, 1)], F(5)), ([(ASYM, 1), (RR, 1), (RR3, 1)], F(2))])
def test_cli_product_at_t_against_brute_force(tmp_path, capsys, factors, t):
    files = [f"{_write(tmp_path, f'k{i}.json', K)}:{n}" for i, (K, n) in enumerate(factors)]
    assert main(["tensor", *files, "--t", str(t), "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]["at_t"]
    rows = _rows(factors)
    want = max(_hockey_stick(p, q, t) for p, q in itertools.permutations(rows, 2))
    assert r["t"] == str(t) and F(r["delta"]) == want
    # the maximizer's input sequences realize the value
    x, xp = [], []
    for j, (K, n) in enumerate(factors):
        used = [(m["x"], m["x_prime"], m["count"]) for m in r["maximizer"] if m["factor"] == j]
        for a, b, c in used:
            x += [(j, a)] * c
            xp += [(j, b)] * c
        rest = n - sum(c for *_, c in used)
        x += [(j, 0)] * rest
        xp += [(j, 0)] * rest

    def row(seq):
        out = [F(1)]
        for j, a in seq:
            out = [u * v for u in out for v in factors[j][0][a]]
        return out

    assert _hockey_stick(row(x), row(xp), t) == want


def test_cli_product_at_t_refusals(tmp_path, capsys):
    rr, k23 = _write(tmp_path, "rr.json", RR), _write(tmp_path, "k23.json", K23)
    assert main(["tensor", f"{rr}:2", f"{k23}:2", "--t", "3/2", "--delta", "1/10", "--no-progress"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["tensor", f"{rr}:2", f"{k23}:2", "--eps", "1/2", "--no-progress"]) == 2
    assert "rational" in capsys.readouterr().err
    assert main(["tensor", f"{rr}:5000", f"{k23}:5000", "--t", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "max_work" in err and "--t 2" in err


# -- three or more losses: commensurable progressions merged into one block, incommensurable ones looked up --------


TRIPLES = [
    ((L_RR, L_RR3, L_OUE), 2),  # RR (ρ = 9) and OUE (ρ = 3) one block on 3, 3-RR (ρ = 2) the other
    ((L_RR, L_RR3, L_RR5), 3),  # 9, 2, 25: three incommensurable groups
    ((L_OUE, L_FOUR, L_K5), 3),  # 3, 2, 5
    ((L_RR2, L_RR3, L_FOUR), 1),  # 4, 2, 2: one block on 2
    ((L_PONLY, L_RR, L_RR3), 2),  # a P-only mass; 4 and 2 one block, 9 the other
    ((L_RR5, L_K5, L_OUE), 2),  # 25 and 5 one block (equal epsilons), 3 the other
]


def _ratios(loss):
    """The distinct product ratios of a ProductLoss (ties of γ with a class)."""
    return sorted({F(P * loss.DQ, Q * loss.DP) for P, Q in zip(loss.P, loss.Q) if Q})


@pytest.mark.parametrize("triple,groups", TRIPLES, ids=range(len(TRIPLES)))
def test_three_losses_equal_the_type_classes(triple, groups):
    for ks in itertools.product(range(0, 4), repeat=3):
        items = list(zip(triple, ks))
        found, plans = rank_one_product(items), rank_one_plans(items)
        if sum(1 for k in ks if k) < 2:
            assert found is None and plans is None
            continue
        assert found is not None and found in plans
        assert rank_one_cost(found)[3] == min(rank_one_cost(p)[3] for p in plans)
        if all(ks):
            assert len(plans[0].groups) == groups  # the plan with every commensurable class merged
        loss = product_loss(items)
        ratios = _ratios(loss)
        ties = ratios[:2] + ratios[len(ratios) // 2:len(ratios) // 2 + 2] + ratios[-2:]
        for plan in plans:  # every plan (merged or kept apart) is exact
            for g in GAMMAS + ties + [t * F(1001, 1000) for t in ties[:2]]:
                a, b = rank_one_piece(plan, g)
                assert a - g * b == loss.hockey_stick(g), (ks, g)
                if g:
                    assert (a, b) == loss.linear_piece(lambda P, Q, g=g: P * loss.DQ * g.q > Q * loss.DP * g.p), (ks, g)


def test_four_losses_in_three_groups():
    quad = (L_RR, L_RR3, L_RR5, L_OUE)  # 9 and 3 one block, 2, 25
    for ks in [(1, 1, 1, 1), (2, 1, 2, 1), (1, 2, 1, 3), (3, 0, 2, 2)]:
        items = list(zip(quad, ks))
        plans = rank_one_plans(items)
        assert plans is not None and len(plans) == 2 and len(plans[0].groups) == (3 if ks[1] else 2)
        assert len(plans[1].groups) == len(plans[0].groups) + 1  # RR and OUE kept apart
        loss = product_loss(items)
        ratios = _ratios(loss)
        for plan in plans:
            for g in GAMMAS + ratios[::7]:
                a, b = rank_one_piece(plan, g)
                assert a - g * b == loss.hockey_stick(g), (ks, g)


def test_one_block_of_commensurable_losses():
    """RR (ρ = 9) ⊗ OUE (ρ = 3): merged, one block on σ = 3 with exponents 2·m and m; kept apart, blocks on 9 and 3 —
    and apart is the cheaper plan for two members alone (one loop over the smaller block instead of a polynomial
    product); with three members, merged is (no two-dimensional loop)."""
    merged, apart = rank_one_plans([(L_RR, 2), (L_OUE, 3)])
    (group,) = merged.groups
    assert group.base == 3 and {(k, a) for _, k, a in group.members} == {(2, 2), (3, 1)}
    assert group.span == 2 * 2 * 1 + 3 * 1 * 2
    assert merged.c == apart.c == F(1, 3) ** 2 * F(1, 3) ** 3
    assert sorted((g.base, g.span) for g in apart.groups) == [(3, 6), (9, 2)]
    assert rank_one_product([(L_RR, 2000), (L_OUE, 2000)]) == rank_one_plans([(L_RR, 2000), (L_OUE, 2000)])[1]
    three = [(L_RR, 2000), (L_OUE, 2000), (L_RR2, 5)]  # 9, 3 and 4 (L_RR2 alone)
    assert len(rank_one_product(three).groups) == 2
    same = [(L_RR2, 2000), (L_RR3, 2000), (L_FOUR, 2000)]  # 4, 2, 2: one block on 2
    assert len(rank_one_product(same).groups) == 1


PRODUCTS3 = [[(RR, 2), (RR3, 1), (OUE, 1)], [(RR, 1), (RR3, 1), (K5, 1)], [(ASYM, 2), (RR3, 1), (K5, 1)],
             [(ASYM, 2), (RR, 1), (RR2, 1)], [(RR, 1), (RR, 1), (RR3, 2)], [(RR2, 2), (RR3, 1), (K5, 1)]]


@pytest.mark.parametrize("factors", PRODUCTS3, ids=range(len(PRODUCTS3)))
@pytest.mark.parametrize("d", [F(1, 10), F(1, 1000)])
def test_three_kernels_against_brute_force(factors, d):
    """Every pair of input sequences of the explicit product (ASYM has two pair classes: the search's compositions
    are products of three or four losses)."""
    tv, gamma = _brute(factors, d)
    assert eta_hockey_stick_tensor_product(factors, 1) == tv
    assert eta_hockey_stick_tensor_product(factors, 1, filtered=False) == tv
    r = epsilon_tensor_product(factors, d)
    assert r.t == gamma
    rows = _rows(factors)
    for g in (F(3, 2), F(5), gamma):
        want = max(_hockey_stick(p, q, g) for p, q in itertools.permutations(rows, 2))
        assert eta_hockey_stick_tensor_product(factors, g) == want


def test_cli_three_kernel_files(tmp_path, capsys):
    factors = [(RR, 2), (RR3, 1), (K5, 1)]
    files = [f"{_write(tmp_path, f'k{i}.json', K)}:{n}" for i, (K, n) in enumerate(factors)]
    tv, gamma = _brute(factors, F(1, 100))
    assert main(["tensor", *files, "--delta", "1/100", "--format", "json", "--no-progress"]) == 0
    r = json.loads(capsys.readouterr().out)["result"]
    assert [f["n"] for f in r["factors"]] == [2, 1, 1] and r["eta_tv"] == str(tv)
    assert r["epsilon_for_delta"]["t_star"] == str(gamma)
    assert main(["tensor", *files, "--delta", "1/100", "--no-progress"]) == 0
    assert f"t* = e^eps = {gamma}" in capsys.readouterr().out


def test_cli_three_rank_one_kernels_at_n_9000(tmp_path, capsys):
    """RR ⊗ 3-RR ⊗ OUE at 3000 coordinates each (RR and OUE one block on 3): t* exactly, checked by the pieces."""
    oue = optimized_unary_encoding(3, 3)
    files = [f"{_write(tmp_path, f'k{i}.json', K)}:3000" for i, K in enumerate([RR, RR3, oue])]
    assert main(["tensor", *files, "--delta", "1e-6", "--format", "json", "--no-progress"]) == 0
    t = F(json.loads(capsys.readouterr().out)["result"]["epsilon_for_delta"]["t_star"])
    items = [(L_RR, 3000), (L_RR3, 3000), (PairLoss.of(oue[0], oue[1]), 3000)]
    found = rank_one_product(items)
    assert found is not None and len(found.groups) == 2
    a, b = rank_one_piece(found, t)
    assert a - t * b <= F(1, 10**6)
    left = t * (1 - F(1, 10**12))
    a, b = rank_one_piece(found, left)
    assert a - left * b > F(1, 10**6)


@pytest.mark.parametrize("extra", [["--delta", "1e-6"], ["--t", "3"]])
def test_cli_three_incommensurable_groups_over_the_limits_are_refused_up_front(tmp_path, capsys, monkeypatch, extra):
    """Three groups (ρ = 9, 2, 5) at 3000 each: the lookup over 3001 bands of at most 2586 runs is estimated over
    max_work and refused before any block is built, naming the limit — and before the η_TV enclosure (one pair class per kernel:
    the inversion would evaluate that one composition exactly)."""
    import exactdp.cli.tensor as cli_tensor
    import exactdp.measures.rank_one as rank_one_module

    def never(*_):
        raise AssertionError("ran before the refusal")

    monkeypatch.setattr(cli_tensor, "_tv_enclosure", never)
    monkeypatch.setattr(rank_one_module, "_block", never)
    files = [f"{_write(tmp_path, f'k{i}.json', K)}:3000" for i, K in enumerate([RR, RR3, K5])]
    assert main(["tensor", *files, *extra, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "max_work" in err and "EXACTDP_MAX_WORK" in err
    # it names what it counts: 3001 bands (RR) of at most ⌊6000·log 2/log 5⌋ + 2 = 2586 runs (5-RR inner, 3-RR last)
    assert "7760586 lookups (a band's weights times a tail of the last block)" in err and "type classes" not in err


def _exact_thresholds(x, slope, n, top):
    """⌊x − i·slope⌋ + 1 clipped to [0, top] for exact rationals x, slope."""
    return [min(max(int((x - i * slope).floor()) + 1, 0), top) for i in range(n)]


@pytest.mark.parametrize("x,slope,n,top", [(F(7), F(1, 3), 40, 9), (F(23, 2), F(3, 7), 60, 12), (F(5), F(7, 3), 12, 30),
                                           (F(-2), F(1, 5), 8, 4), (F(10**6, 3), F(1, 3), 30, 10**7)])
def test_band_thresholds_ask_the_exact_route_only_at_ties(x, slope, n, top):
    """The machine-integer thresholds against the exact floors: a ball of a non-dyadic rational straddles every
    integer that x − i·slope hits exactly, so those i — and only those — go to the exact route (x is dyadic: its
    ball is exact, and i = 0 is decided by the integers)."""
    from flint import arb, ctx

    from exactdp.measures.rank_one import _band_thresholds

    want = _exact_thresholds(x, slope, n, top)
    asked = []

    def exact(i):
        asked.append(i)
        return want[i]

    with ctx.workprec(256):
        got = _band_thresholds(arb(x), arb(slope), n, top, exact)
    assert got.tolist() == want
    assert asked == [i for i in range(1, n) if (x - i * slope).q == 1]  # x itself is an exact (dyadic) ball


def test_band_thresholds_of_logarithms():
    """Irrational thresholds x = log(γ/c)/log 5, slope log 2/log 5: equal to the floors of 512-bit balls (none of them
    within 2^-400 of an integer here), the exact route never asked."""
    from flint import arb, ctx

    from exactdp.measures.rank_one import _band_thresholds

    def never(i):
        raise AssertionError(i)

    for gamma in (F(3, 2), F(10**40, 7), 3 * F(2) ** 300):  # (2^300 would tie at i = 300: x − 300·slope = 17)
        with ctx.workprec(512):
            l5 = arb(5).log()
            x, slope = arb(gamma).log() / l5 + 17, arb(2).log() / l5
            want = [min(max(int((x - i * slope).floor().unique_fmpz()) + 1, 0), 600) for i in range(700)]
        with ctx.workprec(256):
            x, slope = arb(gamma).log() / arb(5).log() + 17, arb(2).log() / arb(5).log()
            assert _band_thresholds(x, slope, 700, 600, never).tolist() == want


@pytest.mark.parametrize("triple", [t for t, _ in TRIPLES], ids=range(len(TRIPLES)))
def test_every_order_of_the_groups_is_exact(triple):
    """The lookup in any order of the groups (which is looked up, which is the innermost loop: the pruning of the outer
    levels and the runs of the band all differ) equals the type classes, at ties and between them."""
    from exactdp.measures.rank_one import RankOneProduct

    for ks in [(2, 3, 1), (3, 1, 2), (1, 2, 3)]:
        items = list(zip(triple, ks))
        loss = product_loss(items)
        ratios = _ratios(loss)
        for plan in rank_one_plans(items):
            for order in itertools.permutations(plan.groups):
                prod = RankOneProduct(order, plan.c, plan.p_inf)
                for g in GAMMAS[1:] + ratios[::3] + [t * F(1001, 1000) for t in ratios[1::5]]:
                    a, b = rank_one_piece(prod, g)
                    assert a - g * b == loss.hockey_stick(g), (ks, order, g)


def test_lookups_bound_the_runs():
    """rank_one_lookups is an upper bound of the runs of equal threshold along the innermost group at any x — here the
    two-group products of RR, 3-RR and 5-RR in both orders — and the chosen order is the one of least estimate."""
    from flint import arb, ctx

    from exactdp.measures.rank_one import RankOneProduct, _band_thresholds, rank_one_lookups

    for a, b in itertools.permutations([L_RR, L_RR3, L_K5], 2):
        found = rank_one_product([(a, 40), (b, 60)])
        assert rank_one_cost(found)[3] == min(rank_one_cost(RankOneProduct(o, found.c, found.p_inf))[3]
                                              for o in itertools.permutations(found.groups))
        for inner, last in itertools.permutations(found.groups):
            _, bound = rank_one_lookups([inner, last])
            most = 0
            with ctx.workprec(256):
                slope = arb(inner.base).log() / arb(last.base).log()
                for x in range(-5, last.span + int(float(slope.mid()) * inner.span) + 5, 7):
                    x = arb(x) + arb(1) / 3
                    js = _band_thresholds(x, slope, inner.span + 1, last.span + 1, lambda i: 1 / 0)
                    most = max(most, len(set(js.tolist()) - {0, last.span + 1}))  # the band: 0 < j < top
            assert 2 <= most <= bound <= most + 3, (inner.base, last.base)
