"""Every estimation claim (checks in proofs/asoodeh2021/{_minimax,a11_mean_estimation,_bayes,_testing_mi}.py,
proofs/grosse2026/ex3_minimax.py, proofs/findings/_estimation_findings.py) runs in quick mode and reaches
the verdict it expects; REFUTED ones carry an exact counterexample."""

from __future__ import annotations

import importlib

import pytest

from exactdp.verification.claims import REGISTRY, CheckContext, Verdict, claim_verdict, load_all

MODULES = ("exactdp_proofs.asoodeh2021._minimax", "exactdp_proofs.asoodeh2021.a11_mean_estimation",
           "exactdp_proofs.asoodeh2021._bayes", "exactdp_proofs.asoodeh2021._testing_mi",
           "exactdp_proofs.grosse2026.ex3_minimax", "exactdp_proofs.findings._estimation_findings",
           "exactdp_proofs.asoodeh2021.a09_minimax_framework")  # its check is declared with the claim
for m in MODULES:
    importlib.import_module(m)
load_all()  # the claims themselves are declared one module per claim id

IDS = sorted(cid for cid, c in REGISTRY.items()
             if any(ch.run.__module__ in MODULES for ch in c.checks))  # a proof check may come first
EXPECTED_IDS = {
    "asoodeh2021.a09_minimax_framework", "asoodeh2021.a10_le_cam", "asoodeh2021.a10_small_eps_strengthening",
    "asoodeh2021.a11_mean_estimation", "asoodeh2021.a12_fano", "asoodeh2021.a13_packing",
    "asoodeh2021.thm2_bayes", "asoodeh2021.a15_xu_raginsky", "asoodeh2021.a16_bernoulli_example",
    "asoodeh2021.a17_fig1", "asoodeh2021.a18_testing", "asoodeh2021.a19_mutual_information",
    "grosse2026.ex3_minimax", "findings.fa03_small_eps_direction", "findings.fa04_mean_rates",
    "findings.fa05_bound3_reading", "findings.fa08_delta_range", "findings.fa09_interaction",
    "findings.fa10_missing_eps", "findings.fa11_packing_cube", "findings.fa12_missing_statements",
}


def test_all_estimation_claims_are_registered():
    assert set(IDS) == EXPECTED_IDS


@pytest.mark.parametrize("cid", IDS)
def test_claim_reaches_expected_verdict(cid):
    claim = REGISTRY[cid]
    outcomes = [ch.run(CheckContext(seed=0, quick=True)) for ch in claim.checks]
    assert claim_verdict(claim.checks, outcomes) is claim.expected, [o.summary + " " + o.reason for o in outcomes]
    for o in outcomes:
        if o.verdict is Verdict.REFUTED:
            assert o.counterexample
    if claim.id not in ("asoodeh2021.a13_packing", "asoodeh2021.a09_minimax_framework"):
        assert claim.reconstructed  # every [A] §IV–VII formula and [G] Ex. 3's chain is a reconstruction


def test_checks_are_deterministic():
    a = REGISTRY["asoodeh2021.a10_le_cam"].checks[1].run(CheckContext(seed=3, quick=True))  # the TV route
    b = REGISTRY["asoodeh2021.a10_le_cam"].checks[1].run(CheckContext(seed=3, quick=True))
    assert a == b
