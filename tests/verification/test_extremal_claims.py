"""The extremal proof modules (issue 6): every check runs (quick mode) and reaches the expected verdict,
with evidence; outcomes are deterministic given the seed."""

import importlib

import pytest

from exactdp.verification.claims import REGISTRY, CheckContext, Verdict, claim_verdict

MODULES = (
    "exactdp_proofs.grosse2026.thm1", "exactdp_proofs.grosse2026.thm3",
    "exactdp_proofs.grosse2026.lem3", "exactdp_proofs.grosse2026.lem1",
    "exactdp_proofs.grosse2026.g20_achieving", "exactdp_proofs.findings.fg03_odd_n",
    "exactdp_proofs.grosse2026.lem4", "exactdp_proofs.findings.fg02_lemma4_loose",
    "exactdp_proofs.background.b04_tight_ldp",
)
CLAIM_IDS = (
    "grosse2026.thm1", "grosse2026.thm3", "grosse2026.lem3", "grosse2026.lem1", "grosse2026.g20_achieving",
    "findings.fg03_odd_n", "grosse2026.lem4", "findings.fg02_lemma4_loose", "background.b04_tight_ldp",
)

for _m in MODULES:
    importlib.import_module(_m)


@pytest.mark.parametrize("claim_id", CLAIM_IDS)
def test_claim_reaches_expected_verdict(claim_id):
    claim = REGISTRY[claim_id]
    outcomes = [check.run(CheckContext(seed=0, quick=True)) for check in claim.checks]
    for o in outcomes:
        assert o.verdict in (Verdict.PROVED, Verdict.VERIFIED), (claim_id, o.summary, o.counterexample, o.reason)
        assert o.instances > 0 or o.derivation
    assert claim_verdict(claim.checks, outcomes) is claim.expected


def test_thm1_table_details_list_all_twenty_rows():
    o = REGISTRY["grosse2026.thm1"].checks[0].run(CheckContext(quick=True))
    assert o.instances == 20 and len(o.details["rows"]) == 20
    assert any("t=5/2 c=1/4: 12/13" in r for r in o.details["rows"])


def test_lemma4_gap_table_matches_catalogue():
    check = next(c for c in REGISTRY["grosse2026.lem4"].checks if c.name == "closed_form")
    table = check.run(CheckContext(quick=True)).details["table"]
    assert "N=2 t=3 c=1/4: Gamma_max = 7/3, Lemma 4 = 5/2, gap 1/6" in table
    assert "N=4 t=3 c=1/8: Gamma_max = 5/2, Lemma 4 = 5/2, gap 0" in table


def test_random_checks_are_deterministic():
    check = next(c for c in REGISTRY["grosse2026.lem3"].checks if c.name == "merging")
    a, b = check.run(CheckContext(seed=3, quick=True)), check.run(CheckContext(seed=3, quick=True))
    assert a == b
