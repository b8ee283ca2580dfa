"""A refusal of δ_n(γ) for a kernel of several pair classes says what the certified filter did (issue 24): that the
simplex filter ran and stopped at its budget (naming max_work), or that it was refused before the box search.

The box search's own stop is what these tests look at, so the corner filter that goes before it
(exactdp.measures.corner_filter.corner_candidates), the face split that follows it (exactdp.measures.face_split) and
the range enclosure after a stop (exactdp.measures.tensor_enclosure._by_ranges) are left out here (the fixture below); with them the stopped queries are answered
(test_the_face_split_answers_what_the_box_search_left_open, tests/measures/test_face_split.py and
tests/measures/test_corner_filter.py)."""

from __future__ import annotations

import pytest
from flint import fmpq

from exactdp.limits import ResourceLimitError, limits
from exactdp.measures import simplex_filter as sf
from exactdp.measures import tensor_enclosure
from exactdp.measures.tensor import delta_tensor_power
from exactdp.numbers.qq import to_qq

from tests.measures.test_simplex_filter import SEEDED


@pytest.fixture(autouse=True)
def _box_search_alone(request, monkeypatch):
    """Every test here but the last sees the box search alone, the last the box search and the face split (module
    docstring); the memo is cleared around it."""
    monkeypatch.setattr(sf, "corner_candidates", lambda *a, **kw: None)
    monkeypatch.setattr(tensor_enclosure, "_by_ranges", lambda *a: None)
    if "face_split_answers" not in request.node.name:
        monkeypatch.setattr(sf, "face_split", lambda losses, n, gamma, **kw: None)
    sf._RECENT.clear()
    yield
    sf._RECENT.clear()


def test_a_refusal_after_the_filter_ran_says_so_and_names_the_budget(monkeypatch):
    # seed 1002 at n = 60 with max_work lowered until the filter stops with boxes open: the refusal names the simplex
    # filter, its budget and max_work (not "no certified filter applies"); the search ran once (its outcome memoised)
    calls = []
    original = sf._search

    def counted(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(sf, "_search", counted)
    sf._RECENT.clear()
    try:
        with limits(max_work=3 * 10**7):
            with pytest.raises(ResourceLimitError) as info:
                delta_tensor_power(SEEDED[2], 60, fmpq(3) ** 30, enclosure=True)
    finally:
        sf._RECENT.clear()
    text = str(info.value)
    assert "the certified filter ran and stopped: the simplex filter over 4 pair classes at n = 60" in text
    assert "max_work" in text and "no certified filter applies" not in text
    assert len(calls) == 1


def test_a_filter_over_its_estimate_is_refused_before_the_search(monkeypatch):
    # with max_work below the filter's own up-front estimate the query is refused naming max_work and the certified
    # filter, and the box search never starts (counted)
    calls = []
    monkeypatch.setattr(sf, "_search", lambda *args: calls.append(1))
    sf._RECENT.clear()
    try:
        with limits(max_work=10**6):
            with pytest.raises(ResourceLimitError) as info:
                delta_tensor_power(SEEDED[2], 1000, fmpq(3) ** 430, enclosure=True)
    finally:
        sf._RECENT.clear()
    assert "max_work" in str(info.value) and "certified filter" in str(info.value)
    assert calls == []


@pytest.mark.parametrize("K", SEEDED)
def test_a_search_out_of_budget_reports_a_bracket_that_holds_the_maximum(K):
    # the box search stopped at budgets from almost nothing to almost enough: what it reports as certified by then,
    # lower <= max_c E_gamma(c) <= upper, holds the exhaustive maximum (every composition evaluated exactly), and the
    # brackets tighten as the budget grows (the lower end from a composition, the upper end below 1 once boxes are bounded)
    from exactdp.measures.lattice_interval import LatticeEnclosure

    from tests.measures.test_simplex_filter import _exhaustive

    n, g = 12, fmpq(3) ** 10
    S = _exhaustive(K, n)
    classes, _, _, _ = S.classified
    losses = [c.loss for c in classes]
    exact = S.witness(g).value
    enc = LatticeEnclosure()
    sf._search(enc, losses, 4, n, g)  # the work the whole search takes
    full = enc.work
    stopped = []
    for budget in sorted({max(1, full * k // 16) for k in range(1, 16)}):
        try:
            sf._search(LatticeEnclosure(budget=budget), losses, 4, n, g)
        except sf._Stopped as e:
            assert e.lower <= exact <= e.upper
            stopped.append((e.lower, e.upper))
    assert len(stopped) >= 3
    assert any(0 < lo and hi < 1 for lo, hi in stopped)


def test_a_refusal_states_the_certified_bracket():
    # the refusal of seed 1002 at n = 60 (budget lowered) names the bracket the filter had certified, and the value the
    # filter gives at the default budget lies inside it
    sf._RECENT.clear()
    try:
        with limits(max_work=3 * 10**7):
            with pytest.raises(ResourceLimitError) as info:
                delta_tensor_power(SEEDED[2], 60, fmpq(3) ** 30, enclosure=True)
        answer = delta_tensor_power(SEEDED[2], 60, fmpq(3) ** 30, enclosure=True)
    finally:
        sf._RECENT.clear()
    text = str(info.value)
    head, tail = text.split("certified by then: ")
    lo, hi = tail.split(" <= delta_n(gamma) <= ")
    hi = hi.split(";")[0].split(" ")[0]
    lower, upper = to_qq(lo), to_qq(hi)  # the printed decimals, read exactly
    assert lower <= answer.lower and answer.upper <= upper and upper < 1



def test_a_stopped_filter_answers_when_its_bracket_is_as_wide_as_asked():
    # seed 1002 at n = 60 with max_work lowered: refused at the default width (1e-6), the refusal says the relative width
    # of what was certified; asked for that width, the same call answers with the bracket — a certified enclosure that
    # holds the value the filter gives at the default budget — and a width a little below it is still refused
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    g = fmpq(3) ** 30
    sf._RECENT.clear()
    try:
        with limits(max_work=3 * 10**7):
            with pytest.raises(ResourceLimitError) as info:
                delta_tensor_power_enclosure(SEEDED[2], 60, g)
            width = str(info.value).split("(relative width ")[1].split(":")[0]
            asked = to_qq(width)
            got = delta_tensor_power_enclosure(SEEDED[2], 60, g, rel_width=asked)
            with pytest.raises(ResourceLimitError):
                delta_tensor_power_enclosure(SEEDED[2], 60, g, rel_width=asked * fmpq(9, 10))
        answer = delta_tensor_power_enclosure(SEEDED[2], 60, g)
    finally:
        sf._RECENT.clear()
    assert not got.exact and 0 < got.lower < got.upper < 1
    assert got.upper - got.lower <= asked * got.lower
    assert got.lower <= answer.lower and answer.upper <= got.upper


def test_the_face_split_answers_what_the_box_search_left_open():
    # the query of the first test, at the budget at which the box search stops: the face split answers it, with the
    # value and maximiser the box search finds at the default budget
    g = fmpq(3) ** 30
    with limits(max_work=3 * 10**7):
        stopped_then_split = delta_tensor_power(SEEDED[2], 60, g, enclosure=True)
    sf._RECENT.clear()
    default = delta_tensor_power(SEEDED[2], 60, g, enclosure=True)
    assert stopped_then_split.exact and default.exact
    assert stopped_then_split.lower == default.lower
