"""A refusal of δ_n(γ) for a kernel of several pair classes says what the certified filter did (issue 24): that the
simplex filter ran and stopped at its budget (naming max_work), or that it was refused before the box search."""

from __future__ import annotations

import pytest
from flint import fmpq

from exactdp.limits import ResourceLimitError, limits
from exactdp.measures import simplex_filter as sf
from exactdp.measures.tensor import delta_tensor_power

from tests.measures.test_simplex_filter import SEEDED


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
