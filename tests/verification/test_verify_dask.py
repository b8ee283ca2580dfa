"""``exactdp verify --scheduler``: claims run on a dask.distributed cluster give the same verdicts and
byte-identical reports as the in-process run (issue 15 item 7)."""

from __future__ import annotations

import itertools
import json
import math

from flint import fmpq

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


@pytest.mark.slow
def test_tensor_search_on_the_cluster_gives_the_same_witness(cluster):
    from exactdp.kernels import Kernel
    from exactdp.mechanisms import randomized_response
    from exactdp.measures.tensor import TensorSearch
    from exactdp.verification.conjecture.runner import open_executor

    K = Kernel([["1/2", "1/3", "1/6"], ["1/6", "1/2", "1/3"]])  # two pair classes, no binomial shortcut
    factors = [(K, 12), (randomized_response(2, 3), 2)]
    client, close = open_executor(cluster.scheduler_address, 1)
    try:
        for gamma in (1, 2, "3/2"):
            # the unfiltered exact search, whose many evaluations are what the cluster spreads (the certified
            # filter answers this product with one evaluation); the filtered search gives the same value
            local = TensorSearch(factors, filtered=False).witness(gamma)
            remote = TensorSearch(factors, executor=client, filtered=False).witness(gamma)
            assert remote == local  # value, maximizing composition and evaluation count
            assert local.evaluations > 4
            assert TensorSearch(factors).witness(gamma).value == local.value
    finally:
        close()
    # the value itself, against brute force over every pair of rows of K^{⊗3} ⊗ RR(2,3)^{⊗2} (32 x 108)
    small = [(K, 3), (randomized_response(2, 3), 2)]
    mats = [[[fmpq(v) for v in row] for row in k.rows] for k, m in small for _ in range(m)]
    rows = [[math.prod(c) for c in itertools.product(*combo)] for combo in itertools.product(*mats)]
    client, close = open_executor(cluster.scheduler_address, 1)
    try:
        for gamma in (fmpq(1), fmpq(2)):
            brute = max(sum((max(a - gamma * b, fmpq(0)) for a, b in zip(p, q)), fmpq(0))
                        for p in rows for q in rows)
            assert TensorSearch(small, executor=client, exhaustive_limit=10**6).witness(gamma).value == brute
    finally:
        close()


@pytest.mark.slow
def test_cli_tensor_scheduler_json_equals_in_process(cluster, tmp_path, capsys):
    k = tmp_path / "k.json"
    k.write_text('{"rows": [["1/2", "1/3", "1/6"], ["1/6", "1/2", "1/3"]]}')
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    base = ["tensor", str(k), "--n", "8", "--t", "2", "--format", "json", "--no-progress"]
    assert main([*base, "-o", str(a)]) == 0
    assert main([*base, "-o", str(b), "--scheduler", cluster.scheduler_address]) == 0
    capsys.readouterr()
    assert a.read_bytes() == b.read_bytes()
    assert int(json.loads(b.read_text())["result"]["evaluations"]) > 1
