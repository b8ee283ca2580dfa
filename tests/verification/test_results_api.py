"""exactdp.verify(...) from Python: the engine's results as one object indexed by claim id."""

import pytest

import exactdp
from exactdp.verification.engine import verify as engine_verify

IDS = ("grosse2026.def3_eta_tv_eps_c", "background.d13_phi")


@pytest.fixture(scope="module")
def result():
    return exactdp.verify(*IDS, quick=True)


def test_verify_is_public_and_returns_the_engine_verdicts(result):
    assert isinstance(result, exactdp.VerifyResult)
    assert len(result) == 2 and result.ids == tuple(sorted(IDS))
    engine = {r.claim.id: r.verdict.value for r in engine_verify(IDS, quick=True)}
    assert result.verdicts() == engine == {"grosse2026.def3_eta_tv_eps_c": "proved", "background.d13_phi": "verified"}


def test_indexing_counts_and_rows(result):
    assert result["background.d13_phi"] is result[0]
    assert result[1].claim.id == "grosse2026.def3_eta_tv_eps_c"
    assert result.counts["proved"] == 1 and result.counts["verified"] == 1 and sum(result.counts.values()) == 2
    assert result.mismatches == ()
    row = result.rows()[1]
    assert row["id"] == "grosse2026.def3_eta_tv_eps_c" and row["verdict"] == row["expected"] == "proved"
    assert row["matches"] is True and row["instances"] == result[1].instances > 0
    assert repr(result) == "VerifyResult(2 claims: 1 proved, 1 verified; 0 differ from expected)"
    with pytest.raises(KeyError, match="no claim 'nope' in this run"):
        result["nope"]


def test_to_frame(result):
    pytest.importorskip("pandas")
    frame = result.to_frame()
    assert list(frame.index) == list(result.ids)
    assert frame.loc["grosse2026.def3_eta_tv_eps_c", "verdict"] == "proved"


@pytest.mark.parametrize("kwargs, message", [({"seed": 0.5}, r"seed: must be an integer >= 0, got 0.5"),
                                             ({"jobs": 0}, r"jobs: must be an integer >= 1, got 0")])
def test_bad_arguments_are_refused_before_any_work(kwargs, message):
    with pytest.raises(exactdp.ParameterError, match=message):
        exactdp.verify("background.d13_phi", **kwargs)
    with pytest.raises(exactdp.ParameterError, match="selectors: each must be"):
        exactdp.verify(3)
