"""The n-fold product claims (A-8, A-10, B-9, B-10, F-A1, F-A7) run in quick mode with their expected verdicts."""

import pytest

import exactdp_proofs.asoodeh2021.a08_tensorization
import exactdp_proofs.asoodeh2021.a10_effective_sample_size_exact
import exactdp_proofs.background.b09_dobrushin_tensorization
import exactdp_proofs.background.b10_composition
import exactdp_proofs.findings.fa01_phi_power
import exactdp_proofs.findings.fa07_vacuity  # noqa: F401
from exactdp.verification.claims import REGISTRY, CheckContext, Verdict, claim_verdict

IDS = ["asoodeh2021.a08_tensorization", "asoodeh2021.a10_effective_sample_size_exact",
       "background.b09_dobrushin_tensorization", "background.b10_composition",
       "findings.fa01_phi_power", "findings.fa07_vacuity"]


def _run(cid):
    claim = REGISTRY[cid]
    return claim, [check.run(CheckContext(seed=0, quick=True)) for check in claim.checks]


@pytest.mark.parametrize("cid", IDS)
def test_claim_reaches_expected_verdict(cid):
    claim, outcomes = _run(cid)
    assert claim_verdict(claim.checks, outcomes) is claim.expected
    assert all(o.verdict is not Verdict.UNDECIDED for o in outcomes)


def test_fa1_counterexample_is_the_n2_witness():
    _, outcomes = _run("findings.fa01_phi_power")
    refuted = [o for o in outcomes if o.verdict is Verdict.REFUTED]
    assert len(refuted) == 1
    cx = refuted[0].counterexample
    assert (cx["eta_tv(RR (x) RR)"], cx["power reading phi(eps,0)^2"], cx["label reading phi^2(eps,0)"]) == (
        "1/2", "4/9", "8/9")
    table = refuted[0].details["docs/claims.md §7 table"]
    assert [table[n]["eta_tv"] for n in ("1", "2", "3", "5")] == ["1/2", "1/2", "11/16", "203/256"]


def test_fa7_proof_uses_exact_series_bound():
    _, outcomes = _run("findings.fa07_vacuity")
    assert outcomes[0].verdict is Verdict.PROVED
    assert outcomes[0].details["sum_(k<=8) 4^k/k!"] == "16831/315"  # > 50


def test_checks_are_deterministic():
    a = _run("asoodeh2021.a08_tensorization")[1]
    b = _run("asoodeh2021.a08_tensorization")[1]
    assert [o.details for o in a] == [o.details for o in b]
