"""``exactdp verify --jobs``: the default is the CPUs this process may use, the claims that share a proof
module's caches run in one worker, and a run with fewer groups than jobs uses no more processes (issue 15
item 7).  Reports not depending on the number of jobs: tests/proofs/test_verify_quick.py."""

from __future__ import annotations

import os

import pytest

from exactdp.cli import main
from exactdp.cli.verify import MAX_JOBS
from exactdp.verification import engine
from exactdp.verification.engine import claim_groups, default_jobs, select_claims


def test_default_jobs_is_the_usable_cpus(monkeypatch):
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        monkeypatch.setattr(os, "process_cpu_count", lambda: 6)
    else:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5}, raising=False)
    assert default_jobs(MAX_JOBS) == 6
    assert default_jobs(4) == 4  # capped


def test_default_jobs_falls_back_to_cpu_count(monkeypatch):
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # unknown: one process
    assert default_jobs(MAX_JOBS) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert default_jobs(MAX_JOBS) == 3


def test_claims_sharing_a_proof_module_are_one_group():
    claims = select_claims(())
    groups = claim_groups(claims)
    ids = [[c.id for c in g] for g in groups]
    assert sorted(i for g in ids for i in g) == [c.id for c in claims]  # a partition
    assert [g[0] for g in ids] == sorted(g[0] for g in ids)  # in id order of their first claims
    of = {i: k for k, g in enumerate(ids) for i in g}
    # lem3's check calls thm1's equality_outcome (thm1's lru-cached parametric-LP certificates, ~24 s);
    # lem4_gamma_max_closed_form takes its LPs from the same helper module (proofs/grosse2026/_parametric.py)
    assert of["grosse2026.lem3"] == of["grosse2026.thm1"] == of["grosse2026.lem4_gamma_max_closed_form"]
    assert of["grosse2026.thm2"] == of["grosse2026.thm2_tv"]  # thm2_tv's checks are defined in thm2's module
    assert of["grosse2026.lem3"] != of["background.b10_composition"]  # the two longest claims stay apart
    # library modules (exactdp.*, used by every claim) do not group: most claims run alone
    assert len(ids) >= len(claims) // 2 and max(map(len, ids)) < len(claims) // 4


def test_cli_default_passes_the_cpus_and_one_group_stays_in_process(monkeypatch, capsys):
    seen = {}
    real = engine.verify

    def spy(*args, **kw):
        seen["jobs"] = kw["jobs"]
        return real(*args, **kw)

    monkeypatch.setattr(engine, "verify", spy)
    monkeypatch.setattr(engine, "default_jobs", lambda cap: 5)
    monkeypatch.setattr(engine, "run_claims_parallel", lambda *a, **k: pytest.fail("one group needs no pool"))
    assert main(["verify", "grosse2026.lem3", "grosse2026.thm1", "--quick", "--no-progress"]) == 0
    assert seen["jobs"] == 5
    assert "grosse2026.thm1" in capsys.readouterr().out
    assert main(["verify", "grosse2026.thm2_tv", "--quick", "--no-progress", "--jobs", "1"]) == 0
    assert seen["jobs"] == 1


def test_expected_proofs_are_submitted_first():
    from exactdp.verification.claims import Verdict
    from exactdp.verification.engine import submission_order

    groups = submission_order(claim_groups(select_claims(())))
    proofs = [any(c.expected in (Verdict.PROVED, Verdict.PROVED_MODULO) for c in g) for g in groups]
    k = proofs.index(False)
    assert all(proofs[:k]) and not any(proofs[k:])  # every group with a proof, then the others
    assert [g[0].id for g in groups[:k]] == sorted(g[0].id for g in groups[:k])  # id order within each part
    assert [g[0].id for g in groups[k:]] == sorted(g[0].id for g in groups[k:])
    assert any("grosse2026.lem3" in [c.id for c in g] for g in groups[:k])
