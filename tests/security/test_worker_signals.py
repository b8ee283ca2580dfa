"""SIGTERM or Ctrl-C to a command stops its worker processes too: the command line turns SIGTERM into an
exception, and the process pool of ``--workers`` / ``--jobs`` is stopped (not drained) when the run ends by
an exception, so no worker outlives the command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exactdp.cli import EXIT_TERMINATED

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.add(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


#: two commands that run minutes in two worker processes: the conjecture search and the full verification
COMMANDS = {"check": ["check", "eta_tv <= 1", "--workers", "2", "--budget", "50000", "--no-progress"],
            "verify": ["verify", "--jobs", "2", "--no-progress"]}


@pytest.mark.slow  # starts a command in a fresh process
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, EXIT_TERMINATED), (signal.SIGINT, 130)])
def test_signal_to_the_parent_stops_every_worker(command, sig, status):
    proc = subprocess.Popen([sys.executable, "-m", "exactdp", *COMMANDS[command]], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            workers = children(proc.pid)
        assert len(workers) == 2, "the worker processes did not start"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    time.sleep(0.5)
    assert not [pid for pid in workers if alive(pid)]
