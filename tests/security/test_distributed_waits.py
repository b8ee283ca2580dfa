"""Distributed runs never wait silently: a listener at ``--scheduler`` that is not a Dask scheduler is refused
within the handshake wait with one line (dask's own handshake would wait for ever), and a cluster that loses
every worker mid-run says so and gives up after ``scheduler_wait`` seconds."""

import socket
import threading

import pytest

from exactdp.cli import main
from exactdp.errors import InputError
from exactdp.limits import limits

distributed = pytest.importorskip("distributed")

RR = '[["3/4", "1/4"], ["1/4", "3/4"]]'


@pytest.fixture
def silent_listener():
    """A plain TCP socket on 127.0.0.1 that accepts connections and never writes a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for conn in accepted:
        conn.close()


def test_probe_refuses_a_silent_listener(silent_listener):
    from exactdp.verification.conjecture.runner import open_executor

    with limits(scheduler_wait=1), pytest.raises(InputError, match="not a Dask scheduler.*sent nothing"):
        open_executor(silent_listener, 1)


@pytest.mark.parametrize("argv", [
    ["check", "eta_tv <= 1", "--budget", "40"],
    ["verify", "grosse2026.thm2"],
    ["tensor", "{rr}", "--n", "2"],
])
def test_commands_fail_with_one_line(tmp_path, capsys, monkeypatch, silent_listener, argv):
    monkeypatch.setenv("EXACTDP_SCHEDULER_WAIT", "1")
    rr = tmp_path / "rr.json"
    rr.write_text(RR)
    argv = [a.replace("{rr}", str(rr)) for a in argv]
    assert main([*argv, "--scheduler", silent_listener]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Dask scheduler" in err and silent_listener in err, err


def test_lost_workers_end_the_wait():
    from exactdp.verification.conjecture.runner import as_completed

    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        gate = distributed.Event("never-set", client=client)
        future = client.submit(gate.wait, pure=False)  # blocks until its worker goes away
        worker = next(iter(cluster.workers.values()))
        client.sync(worker.close)
        with limits(scheduler_wait=1), pytest.raises(InputError, match="every worker left.*scheduler_wait"):
            list(as_completed(client, [future]))
        future.cancel()
