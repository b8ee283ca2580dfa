"""Inverting the exact n-fold privacy profile (issue 15 item 2): ε for δ by Newton steps on the convex
piecewise-linear profile, δ at an irrational e^ε by bracketing — against the whole exact profile
(``privacy_profile_tensor_power``: every composition enumerated, a scan over its pieces) and, at n ≤ 3,
the explicit tensor power with the two-point formula."""

import pytest
import sympy
from flint import fmpq

from exactdp import Kernel, ParameterError, delta_tensor_power, delta_tensor_power_eps, eta_hockey_stick
from exactdp.limits import limits
from exactdp.measures.profile_inversion import delta_tensor_power_eps_search, epsilon_tensor_power
from exactdp.measures.tensor import TensorSearch, privacy_profile_tensor_power
from exactdp.mechanisms import randomized_response
from exactdp.numbers.rb import RB
from exactdp.numbers.truth import Sign

KERNELS = {
    "asym2x2": Kernel([["1/2", "1/2"], ["1/4", "3/4"]]),
    "2x3": Kernel([["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]]),
    "rr2": randomized_response(2, 3),
    "rr3": randomized_response(3, 2),
    "zeros": Kernel([["1/2", "1/2", "0"], ["0", "1/3", "2/3"]]),  # P-only mass: a floor above 0
    "3x2": Kernel([["1/3", "2/3"], ["3/5", "2/5"], ["1/7", "6/7"]]),
}
DELTAS = [fmpq(0), fmpq(1, 1000), fmpq(1, 100), fmpq(1, 10), fmpq(1, 4), fmpq(1, 2), fmpq(9, 10), fmpq(1)]


def _scan_gamma(profile, d):
    """The least γ ≥ 1 with δ_n(γ) ≤ d by the profile's own scan over its pieces (None: no finite γ)."""
    g = profile.gamma_for(d)
    return None if g == sympy.oo else max(fmpq(1), g)


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_epsilon_for_delta_equals_the_scan_of_the_whole_profile(name, n):
    K = KERNELS[name]
    profile = privacy_profile_tensor_power(K, n)
    # δ values on a grid and exactly at every breakpoint's profile value (ties with a piece's end)
    deltas = DELTAS + [profile(b) for b in profile.breakpoints if b >= 1]
    for d in deltas:
        r = epsilon_tensor_power(K, n, d)
        want = _scan_gamma(profile, d)
        assert r.t == want, (name, n, d, r.t, want)
        if want is None:
            assert r.epsilon is sympy.oo
            continue
        assert delta_tensor_power(K, n, r.t) <= d
        if r.t > 1:  # least: just below γ* the profile is above δ
            assert delta_tensor_power(K, n, r.t * fmpq(10**6 - 1, 10**6)) > d
            assert r.epsilon == sympy.log(sympy.Rational(int(r.t.p), int(r.t.q)))
        assert r.evaluations <= 12


def test_epsilon_against_the_explicit_tensor_power():
    K = KERNELS["2x3"]
    Kn = K.tensor_power(3)
    for d in (fmpq(1, 10), fmpq(1, 3), fmpq(1, 2)):  # all below eta_TV = 9/16
        r = epsilon_tensor_power(K, 3, d)
        assert eta_hockey_stick(Kn, r.t) == d  # strictly decreasing there: the exact root
        A, B = r.piece
        assert A - r.t * B == d


def test_epsilon_trivial_cases():
    K = KERNELS["rr2"]
    assert epsilon_tensor_power(K, 4, 1).t == 1  # δ = 1: every ε
    assert epsilon_tensor_power(Kernel([["1/2", "1/2"], ["1/2", "1/2"]]), 3, 0).t == 1  # identical rows
    r = epsilon_tensor_power(K, 3, 0)  # δ = 0: pure ε = n log 3
    assert r.t == 27 and r.epsilon == sympy.log(27)
    z = epsilon_tensor_power(KERNELS["zeros"], 2, fmpq(1, 2))  # floor 1 - (1/2)^2 = 3/4 > 1/2: no finite ε
    assert z.t is None and z.epsilon is sympy.oo
    with pytest.raises(ParameterError, match="delta"):
        epsilon_tensor_power(K, 3, fmpq(3, 2))
    with pytest.raises(ParameterError, match="delta"):
        epsilon_tensor_power(K, 3, "-1/10")


def test_epsilon_for_delta_at_n_1000_takes_a_few_evaluations():
    """Asymmetric 2×2 at n = 200: the answer is a root of its own piece, found in a handful of searches."""
    K = KERNELS["asym2x2"]
    r = epsilon_tensor_power(K, 200, fmpq(1, 1000))
    assert r.evaluations <= 8
    A, B = r.piece
    assert A - r.t * B == fmpq(1, 1000)
    assert delta_tensor_power(K, 200, r.t) == fmpq(1, 1000)


def _piece_of_profile(profile, ball):
    """The profile's piece containing the irrational γ of ``ball`` (certified comparisons)."""
    k = sum(1 for b in profile.breakpoints if ball.compare_rational(b) is Sign.POSITIVE)
    return profile.pieces[k]


@pytest.mark.parametrize("name", ["asym2x2", "2x3", "3x2", "zeros", "rr3"])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_delta_at_irrational_eps_equals_the_profile_piece(name, n):
    K = KERNELS[name]
    profile = privacy_profile_tensor_power(K, n)
    for eps in (sympy.Rational(1, 7), sympy.Rational(1, 2), sympy.log(3) / 2, sympy.Integer(2), sympy.log(5)):
        gamma = sympy.exp(eps)
        if gamma.is_Rational:
            continue
        A, B, steps = delta_tensor_power_eps_search(K, n, gamma)
        assert (A, B) == _piece_of_profile(profile, RB(gamma)), (name, n, eps)
        assert steps <= 10
        expr = delta_tensor_power_eps(K, n, eps)
        assert sympy.simplify(expr - (sympy.Rational(int(A.p), int(A.q)) - sympy.Rational(int(B.p), int(B.q)) * gamma)) == 0


def test_delta_at_eps_on_a_breakpoint_side():
    """e^ε = 3^(1/2)·… just beside a breakpoint: the bracket straddles it and the crossing decides."""
    K = KERNELS["asym2x2"]
    profile = privacy_profile_tensor_power(K, 3)
    for b in profile.breakpoints:
        if b <= 1:
            continue
        for eps in (sympy.log(sympy.Rational(int(b.p), int(b.q))) + sympy.Rational(1, 10**12),
                    sympy.log(sympy.Rational(int(b.p), int(b.q))) - sympy.Rational(1, 10**12)):
            gamma = sympy.exp(eps)
            A, B, _ = delta_tensor_power_eps_search(K, 3, gamma)
            assert (A, B) == _piece_of_profile(profile, RB(gamma))


def test_search_reuses_type_classes_across_gamma():
    """TensorSearch keeps each composition's γ-independent type classes: a second γ forms no new power."""
    K = KERNELS["2x3"]
    s = TensorSearch([(K, 6)])
    w1 = s.witness(2)
    kept = dict(s._losses)
    w2 = s.witness(fmpq(5, 2))
    assert s._losses.keys() == kept.keys() and all(s._losses[c] is kept[c] for c in kept)
    assert w1.value == delta_tensor_power(K, 6, 2) and w2.value == delta_tensor_power(K, 6, fmpq(5, 2))


def test_binomial_root_equals_the_type_class_root():
    """binomial_gamma_for (bisection on the tails) = ProductLoss.gamma_for (every line), incl. P-only mass."""
    from exactdp.measures.privacy_loss import PairLoss, binomial_gamma_for, product_loss

    pairs = [(["3/4", "1/4"], ["1/4", "3/4"]), (["1/2", "1/2"], ["1/4", "3/4"]), (["2/7", "5/7"], ["9/10", "1/10"]),
             (["1/2", "1/4", "1/4"], ["0", "1/3", "2/3"]), (["1/3", "2/3", "0"], ["1/3", "1/3", "1/3"])]
    for p, q in pairs:
        loss = PairLoss.of([fmpq(x) if "/" not in x else fmpq(*map(int, x.split("/"))) for x in p],
                           [fmpq(x) if "/" not in x else fmpq(*map(int, x.split("/"))) for x in q])
        for n in (1, 2, 5, 17, 30):
            full = product_loss([(loss, n)])
            for d in DELTAS + [full.hockey_stick(fmpq(2)), full.hockey_stick(fmpq(7, 3))]:
                assert binomial_gamma_for(loss, n, d) == full.gamma_for(d), (p, q, n, d)


@pytest.mark.parametrize("name", ["asym2x2", "2x3"])
def test_epsilon_through_the_filter_equals_the_exact_inversion(name, monkeypatch):
    """The filtered decision (forced: the exact search 'does not fit') gives the same exact γ*, piece and
    maximizer value as the exact inversion and the scan of the whole profile."""
    from exactdp.measures import profile_inversion

    K = KERNELS[name]
    cases = [(5, d) for d in DELTAS[1:-1]] + [(40, fmpq(1, 1000)), (40, fmpq(1, 10**6))]
    want = {(n, d): epsilon_tensor_power(K, n, d) for n, d in cases}
    monkeypatch.setattr(profile_inversion, "_exact_fits", lambda search, g: False)
    decisions = []
    original = profile_inversion._filtered_decision
    monkeypatch.setattr(profile_inversion, "_filtered_decision", lambda *a: decisions.append(a) or original(*a))
    for n, d in cases:
        r = epsilon_tensor_power(K, n, d)
        assert r.t == want[n, d].t, (name, n, d)
        if n == 5:
            assert r.t == _scan_gamma(privacy_profile_tensor_power(K, n), d)
        A, B = r.piece
        assert A - r.t * B == d or r.t == 1
    assert len(decisions) >= len(cases)


@pytest.mark.slow
def test_epsilon_for_delta_1e_6_at_n_1000_of_a_2x3_pair():
    """Issue 24: ε for δ = 10⁻⁶ of the 2×3 pair (1/2, 1/3, 1/6)/(1/4, 1/4, 1/2) at n = 1000 (refused before):
    γ* exact, the maximizing composition's E_γ* is δ exactly and exceeds δ just below γ*, and δ lies in the
    certified enclosure of δ_n(γ*)."""
    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
    d = fmpq(1, 10**6)
    r = epsilon_tensor_power(K, 1000, d)
    assert 424.08 < float(r.epsilon.evalf()) < 424.09 and r.evaluations <= 6
    search = TensorSearch([(K, 1000)])
    counts = tuple(next((c for _, x, xp, c in r.composition if (x, xp) == (cl.x, cl.x_prime)), 0)
                   for cl in search.classes)
    assert search.hockey_stick(counts, r.t) == d
    assert search.hockey_stick(counts, r.t * fmpq(10**9 - 1, 10**9)) > d
    assert d in delta_tensor_power(K, 1000, r.t, enclosure=True)


#: seed 3 of benchmarks/bench_tensor.py --random-pairs: near-symmetric, its ε maximizers sit next to a corner
SEED3 = Kernel([["5/9", "1/3", "1/9"], ["3/8", "1/2", "1/8"]])


def _counts(search: TensorSearch, composition) -> tuple[int, ...]:
    """The class counts of a result's ``composition`` ((factor, x, x', count), ...) in ``search``'s classes."""
    return tuple(next((c for _, x, xp, c in composition if (x, xp) == (cl.x, cl.x_prime)), 0)
                 for cl in search.classes)


_SLOW = pytest.mark.slow


@pytest.mark.parametrize("n, work, d", [(60, 12 * 10**6, fmpq(1, 10**12)), (60, 3 * 10**6, fmpq(1, 10)),
                                        pytest.param(200, 10**8, fmpq(1, 10**4), marks=_SLOW),
                                        pytest.param(200, 10**8, fmpq(1, 2), marks=_SLOW),
                                        pytest.param(120, 3 * 10**7, fmpq(1, 10**12), marks=_SLOW)])
def test_epsilon_through_the_filter_stays_exact_next_to_a_corner(n, work, d):
    """Under a ``max_work`` that sends the inversion through the certified filter (the exact search over it), the
    seed-3 pair's maximizers next to a corner ((57, 3) at n = 60, (197, 3) and (199, 1) at n = 200) get exact roots
    (measures/near_corner: their type classes are over that ``max_work``), and where a mixed composition comes first
    (n = 60 at δ = 1/10, n = 120: its root over the guard, bracketed by enclosures) the exact inversion takes over
    again once a composition with an exact root is certified above δ: γ* equals the exact inversion's at the default
    limits, and E_γ* of the returned composition is δ (enclosures before)."""
    want = epsilon_tensor_power(SEED3, n, d)
    with limits(max_work=work):
        r = epsilon_tensor_power(SEED3, n, d)
    assert r.exact and r.t == want.t
    search = TensorSearch([(SEED3, n)])
    assert search.hockey_stick(_counts(search, r.composition), r.t) == d


def test_epsilon_brackets_a_root_that_the_filter_cannot_decide_exactly():
    """n = 120, δ = 1/10, ``max_work`` = 3·10⁷: the exact root of (116, 4) is found, but at it a mixed candidate as
    close to δ cannot be evaluated within the guard; the inversion then brackets that root by enclosures (the route
    without exact roots) instead of refusing: t* of the default limits lies in (t_lower, t]."""
    d = fmpq(1, 10)
    want = epsilon_tensor_power(SEED3, 120, d)
    with limits(max_work=3 * 10**7):
        r = epsilon_tensor_power(SEED3, 120, d)
    assert not r.exact and r.t_lower < want.t <= r.t


@pytest.mark.slow
def test_epsilon_for_delta_1e_12_at_n_1000_of_a_near_symmetric_pair(monkeypatch):
    """Issue 24 (ε for any δ ≥ 10⁻¹² exactly): the seed-3 pair at n = 1000, δ = 10⁻¹², whose maximizer is (999, 1) —
    an enclosure before.  γ* exact, E_γ*((999, 1)) = δ exactly and > δ just below γ*; and γ* lies in the bracket
    (t_lower, t] of the route without the near-corner evaluation (the composition's type classes over the guard)."""
    from exactdp.measures import profile_inversion, tensor_search

    d = fmpq(1, 10**12)
    r = epsilon_tensor_power(SEED3, 1000, d)
    assert r.exact
    search = TensorSearch([(SEED3, 1000)])
    counts = _counts(search, r.composition)
    assert sorted(counts) == [1, 999]
    assert search.hockey_stick(counts, r.t) == d < search.hockey_stick(counts, r.t * fmpq(10**9 - 1, 10**9))
    for module in (tensor_search, profile_inversion):
        monkeypatch.setattr(module, "corner_route", lambda items: None)
    old = epsilon_tensor_power(SEED3, 1000, d)
    assert not old.exact and old.t_lower < r.t <= old.t


def test_root_from_a_start_equals_the_root_from_zero():
    """TensorSearch.gamma_for with a start (the inversion's steered trial point) returns the exact root found from
    0 — a start left of the root shortens the Newton iteration, one at or right of it is ignored — and the steered
    start of the inversion lies left of the root."""
    from exactdp.measures import profile_inversion

    K = Kernel([["1/2", "1/3", "1/6"], ["1/4", "1/4", "1/2"]])
    search = TensorSearch([(K, 60)])
    homogeneous = (60, 0)
    for d in (fmpq(1, 10**3), fmpq(1, 10**6), fmpq(1, 10**9)):
        root = search.gamma_for(homogeneous, d)
        assert search.hockey_stick(homogeneous, root) <= d < search.hockey_stick(homogeneous, root * fmpq(999, 1000))
        for start in (fmpq(1), root / 2, root * fmpq(999, 1000), root, 2 * root):
            assert search.gamma_for(homogeneous, d, start) == root, (d, start)
        steered = profile_inversion._steer(search, homogeneous, fmpq(1), d)
        assert 1 <= steered < root and search.hockey_stick(homogeneous, steered) > d
