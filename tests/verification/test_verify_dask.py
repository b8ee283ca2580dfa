"""``exactdp verify --scheduler``: claims run on a dask.distributed cluster give the same verdicts and
byte-identical reports as the in-process run (issue 15 item 7)."""

from __future__ import annotations

import json

import pytest

distributed = pytest.importorskip("distributed")

from exactdp.cli import main  # noqa: E402
from exactdp.output import report  # noqa: E402
from exactdp.verification.engine import verify  # noqa: E402

# claims with seeded random instance families and with certificates, from both papers
CLAIMS = ["asoodeh2021.a01_privacy_loss", "asoodeh2021.a07_phi_lemma", "grosse2026.lem2", "grosse2026.thm3"]  # id order


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cl:
        yield cl


@pytest.mark.slow
def test_cluster_report_is_byte_identical(cluster):
    local = verify(CLAIMS, seed=5, quick=True)
    remote = verify(CLAIMS, seed=5, quick=True, scheduler=cluster.scheduler_address)
    assert [r.claim.id for r in remote] == CLAIMS  # id order, whatever order the workers finish in
    assert [r.verdict for r in remote] == [r.verdict for r in local]
    assert [r.instances for r in remote] == [r.instances for r in local]
    assert all(r.instances > 0 for r in remote)
    assert report.to_json(remote, seed=5, quick=True) == report.to_json(local, seed=5, quick=True)
    assert report.to_markdown(remote, seed=5, quick=True) == report.to_markdown(local, seed=5, quick=True)


@pytest.mark.slow
def test_cli_scheduler_json_equals_in_process(cluster, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["verify", *CLAIMS, "--quick", "--seed", "2", "--no-progress", "--format", "json", "-o", str(a)]) == 0
    assert main(["verify", *CLAIMS, "--quick", "--seed", "2", "--no-progress", "--format", "json", "-o", str(b),
                 "--scheduler", cluster.scheduler_address]) == 0
    capsys.readouterr()
    assert a.read_bytes() == b.read_bytes()
    doc = json.loads(b.read_text())
    assert [c["id"] for c in doc["result"]["claims"]] == CLAIMS
    assert doc["seed"] == 2


@pytest.mark.slow  # the connection attempt times out after 5 s
def test_unreachable_scheduler_is_one_line_exit_2(capsys):
    assert main(["verify", "asoodeh2021.a01_privacy_loss", "--quick", "--no-progress",
                 "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--scheduler" in err and "tcp://127.0.0.1:1" in err


def test_jobs_and_scheduler_together_are_refused(capsys):
    assert main(["verify", "asoodeh2021.a01_privacy_loss", "--quick", "--no-progress", "--jobs", "2",
                 "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--jobs" in err and "--scheduler" in err
