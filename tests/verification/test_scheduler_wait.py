"""``--scheduler`` on a cluster without workers: a bounded wait (limit ``scheduler_wait``), then one line
naming the address and how to wait longer, exit 2 — never a hang (issue 15 item 7)."""

from __future__ import annotations

import time

import pytest

distributed = pytest.importorskip("distributed")

from exactdp.cli import main  # noqa: E402
from exactdp.errors import InputError  # noqa: E402
from exactdp.limits import LIMITS, limits  # noqa: E402
from exactdp.verification.conjecture.runner import open_executor  # noqa: E402
from exactdp.verification.engine import verify  # noqa: E402


@pytest.fixture(scope="module")
def empty_cluster():
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None, silence_logs=50) as cl:
        yield cl


def test_default_wait_is_a_minute():
    assert LIMITS["scheduler_wait"].default == 60 and LIMITS["scheduler_wait"].unit == "seconds"


def test_no_worker_is_an_input_error_after_the_wait(empty_cluster):
    addr = empty_cluster.scheduler_address
    t0 = time.perf_counter()
    with limits(scheduler_wait=1), pytest.raises(InputError) as err:
        verify(["asoodeh2021.a01_privacy_loss"], quick=True, scheduler=addr)
    assert time.perf_counter() - t0 < 10  # 1 s of waiting plus connecting, not for ever
    msg = str(err.value)
    assert "\n" not in msg and addr in msg and "within 1 s" in msg
    assert "$EXACTDP_SCHEDULER_WAIT" in msg and "limits(scheduler_wait=...)" in msg


def test_a_client_without_workers_is_refused_too(empty_cluster):
    with distributed.Client(empty_cluster) as client, limits(scheduler_wait=1), pytest.raises(InputError) as err:
        open_executor(client, 1)
    assert "no worker joined" in str(err.value) and empty_cluster.scheduler_address in str(err.value)


def test_cli_prints_one_line_and_exits_2(empty_cluster, capsys, monkeypatch):
    monkeypatch.setenv("EXACTDP_SCHEDULER_WAIT", "1")
    assert main(["verify", "asoodeh2021.a01_privacy_loss", "--quick", "--no-progress",
                 "--scheduler", empty_cluster.scheduler_address]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--scheduler" in err and empty_cluster.scheduler_address in err
    assert "EXACTDP_SCHEDULER_WAIT" in err
