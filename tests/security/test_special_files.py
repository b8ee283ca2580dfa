"""Readers and writers take regular files only: a FIFO (which would block the open for ever), a device
(``/dev/zero`` never ends), a socket, or a symbolic link leaving its folder is refused with one line and
exit status 2, well within 5 s; every read is bounded by ``max_file_bytes`` on the read itself, not only on
the size ``stat`` reports."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from exactdp import regular_files
from exactdp.cli import main
from exactdp.errors import InputError
from exactdp.limits import ResourceLimitError, limits
from exactdp.regular_files import check_regular, read_bytes

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")

RR = [["3/4", "1/4"], ["1/4", "3/4"]]


def within(seconds: float, argv: list[str], capsys, unblock: Path | None = None) -> tuple[int, str]:
    """Run the CLI in a thread; it must return within ``seconds`` (else the FIFO ``unblock`` is opened from
    this side so the blocked thread ends, and the test fails).  Returns (status, stderr)."""
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("rc", main(argv)), daemon=True)
    start = time.monotonic()
    t.start()
    t.join(seconds)
    blocked = t.is_alive()
    if blocked and unblock is not None:  # let the blocked open return before failing
        fd = os.open(unblock, os.O_RDWR | os.O_NONBLOCK)
        os.close(fd)
        t.join(10)
    assert not blocked, f"{argv} still running after {time.monotonic() - start:.1f} s"
    err = capsys.readouterr().err
    return box["rc"], err


def refused(capsys, argv, *words, unblock=None):
    rc, err = within(5, argv, capsys, unblock)
    assert rc == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(RR))
    return path


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


# -- the checks themselves ------------------------------------------------------------------------------------------

def test_kinds_are_named(tmp_path, fifo):
    sock_path = tmp_path / "s.json"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        with pytest.raises(InputError, match=r"FILE: '.*s.json' is a socket, not a regular file"):
            check_regular(sock_path, "FILE")
    with pytest.raises(InputError, match="is a FIFO \\(named pipe\\), not a regular file"):
        check_regular(fifo, "FILE")
    with pytest.raises(InputError, match="'/dev/null' is a character device"):
        check_regular("/dev/null", "-o", write=True)
    with pytest.raises(InputError, match="is a directory"):
        check_regular(tmp_path, "FILE")
    with pytest.raises(InputError, match="no such file"):
        check_regular(tmp_path / "missing", "FILE")
    assert check_regular(tmp_path / "missing", "-o", write=True) == tmp_path / "missing"


def test_symbolic_links(tmp_path):
    inside, outside = tmp_path / "d", tmp_path / "elsewhere"
    inside.mkdir()
    outside.mkdir()
    (inside / "real.json").write_text("[]")
    (outside / "secret").write_text("secret")
    (inside / "ok.json").symlink_to("real.json")
    (inside / "out.json").symlink_to(outside / "secret")
    (inside / "zero.json").symlink_to("/dev/zero")
    (inside / "dangling.json").symlink_to("nowhere")
    assert check_regular(inside / "ok.json", "FILE", folder=inside) == inside / "real.json"
    assert check_regular(inside / "out.json", "FILE") == outside / "secret"  # a file the user named: followed
    with pytest.raises(InputError, match="symbolic link leaving its folder"):
        check_regular(inside / "out.json", "recheck", folder=inside)
    with pytest.raises(InputError, match="symbolic link leaving its folder"):
        check_regular(inside / "out.json", "-o", write=True)  # a planted link never redirects an output
    with pytest.raises(InputError, match="character device"):
        check_regular(inside / "zero.json", "FILE")
    with pytest.raises(InputError, match="symbolic link to a missing file"):
        check_regular(inside / "dangling.json", "FILE")
    assert check_regular(inside / "dangling.json", "-o", write=True) == inside / "nowhere"


def test_the_read_itself_is_bounded(tmp_path, monkeypatch):
    """A file whose size ``fstat`` under-reports (or that grows while read) is still refused: the read stops
    one byte past the limit."""
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 100)
    with limits(max_file_bytes=100):
        assert read_bytes(path, "FILE") == b"x" * 100
    with limits(max_file_bytes=99), pytest.raises(ResourceLimitError, match="max_file_bytes"):
        read_bytes(path, "FILE")
    real_fstat = os.fstat

    class Lying:
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 0

    monkeypatch.setattr(regular_files.os, "fstat", lambda fd: Lying(real_fstat(fd)))
    reads = []
    real_read = os.read
    monkeypatch.setattr(regular_files.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with limits(max_file_bytes=10), pytest.raises(ResourceLimitError, match="about 11 bytes exceeds the limit"):
        read_bytes(path, "FILE")
    assert sum(reads) <= 11


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path, fifo, monkeypatch):
    """O_NONBLOCK: even when the check is passed (a race), opening a FIFO returns and fstat refuses it."""
    monkeypatch.setattr(regular_files, "check_regular", lambda path, what, folder=None: Path(path))
    with pytest.raises(InputError, match="is a FIFO"):
        read_bytes(fifo, "FILE")


# -- the commands ---------------------------------------------------------------------------------------------------

def test_fifo_as_kernel_file(fifo, capsys):
    refused(capsys, ["analyze", str(fifo)], "FILE:", "FIFO", unblock=fifo)
    refused(capsys, ["tensor", str(fifo), "--n", "2"], "FIFO", unblock=fifo)
    refused(capsys, ["derive", "--file", str(fifo)], "--file", "FIFO", unblock=fifo)


def test_devices_and_sockets_as_kernel_file(tmp_path, capsys):
    refused(capsys, ["analyze", "/dev/zero"], "character device")
    link = tmp_path / "k.json"
    link.symlink_to("/dev/zero")
    refused(capsys, ["analyze", str(link)], "character device")
    sock_path = tmp_path / "s.json"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        refused(capsys, ["analyze", str(sock_path)], "socket")


def test_fifo_and_device_as_output(rr, fifo, capsys):
    refused(capsys, ["analyze", str(rr), "-o", str(fifo)], "-o:", "FIFO", unblock=fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # never replaced
    refused(capsys, ["analyze", str(rr), "-o", "/dev/null"], "-o:", "character device")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_output_through_a_link_inside_the_folder(rr, tmp_path, capsys):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    assert main(["analyze", str(rr), "--format", "json", "-o", str(tmp_path / "link.json")]) == 0
    assert (tmp_path / "link.json").is_symlink()  # the link is kept, its target replaced
    assert json.loads((tmp_path / "real.json").read_text())["command"] == "analyze"
    (tmp_path / "away.json").symlink_to("/etc/hostname")
    refused(capsys, ["analyze", str(rr), "-o", str(tmp_path / "away.json")], "symbolic link leaving its folder")


def test_fifo_as_plot_output(rr, tmp_path, capsys):
    os.mkfifo(tmp_path / "fig.png")
    refused(capsys, ["plot", "profile", str(rr), "-o", str(tmp_path / "fig")], "FIFO", unblock=tmp_path / "fig.png")


def test_fifo_as_readme(tmp_path, capsys):
    os.mkfifo(tmp_path / "README.md")
    refused(capsys, ["verify", "--update-readme", str(tmp_path / "README.md")], "--update-readme", "FIFO",
            unblock=tmp_path / "README.md")
    link = tmp_path / "other.md"
    link.symlink_to("/dev/zero")
    refused(capsys, ["verify", "--update-readme", str(link)], "--update-readme", "symbolic link leaving")


def test_certificates_folder_must_be_a_real_folder(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    refused(capsys, ["verify", "grosse2026.thm2_tv", "--certificates", str(tmp_path / "link")], "--certificates",
            "not a symbolic link")
    os.mkfifo(tmp_path / "pipe")
    refused(capsys, ["verify", "grosse2026.thm2_tv", "--certificates", str(tmp_path / "pipe")], "--certificates")


@pytest.fixture
def recheck_dir(tmp_path):
    """A folder with one valid-looking certificate file (what is refused is added by each test)."""
    d = tmp_path / "certs"
    (d / "c").mkdir(parents=True)
    (d / "c" / "ok.json").write_text(json.dumps({"certificate": {"kind": "nothing"}}))
    return d


def test_recheck_refuses_a_fifo(recheck_dir, capsys):
    os.mkfifo(recheck_dir / "a.json")
    refused(capsys, ["recheck", str(recheck_dir)], "recheck:", "a.json", "FIFO", unblock=recheck_dir / "a.json")


def test_recheck_refuses_links_leaving_the_folder(recheck_dir, tmp_path, capsys):
    (recheck_dir / "a.json").symlink_to("/dev/zero")
    refused(capsys, ["recheck", str(recheck_dir)], "a.json", "symbolic link leaving its folder")
    (recheck_dir / "a.json").unlink()
    (tmp_path / "outside.json").write_text("{}")
    (recheck_dir / "a.json").symlink_to(tmp_path / "outside.json")
    refused(capsys, ["recheck", str(recheck_dir)], "symbolic link leaving its folder")
    (recheck_dir / "a.json").unlink()
    (recheck_dir / "sub").symlink_to(tmp_path)
    refused(capsys, ["recheck", str(recheck_dir)], "sub", "symbolic link leaving the folder")


def test_recheck_follows_links_inside_the_folder(recheck_dir, capsys):
    (recheck_dir / "a.json").symlink_to("c/ok.json")
    from exactdp.recheck import certificate_files

    assert [p.name for p in certificate_files(recheck_dir)] == ["a.json", "ok.json"]


def test_recheck_reads_are_bounded(recheck_dir, capsys, monkeypatch):
    monkeypatch.setenv("EXACTDP_MAX_FILE_BYTES", "20")
    refused(capsys, ["recheck", str(recheck_dir)], "max_file_bytes")


def test_the_real_command_refuses_special_files(tmp_path):
    """As a user runs it: a fresh ``exactdp`` process per case, one line and exit 2 (the 5 s budget is
    checked in-process above; here the guard only catches a hang)."""
    os.mkfifo(tmp_path / "pipe.json")
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "a.json").symlink_to("/dev/zero")
    (tmp_path / "rr.json").write_text(json.dumps(RR))
    for argv in (["analyze", str(tmp_path / "pipe.json")], ["analyze", str(tmp_path / "rr.json"), "-o",
                 str(tmp_path / "pipe.json")], ["recheck", str(certs)]):
        done = subprocess.run([sys.executable, "-m", "exactdp", *argv], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.count("\n") == 1, (argv, done.stderr)
        assert "regular file" in done.stderr or "symbolic link" in done.stderr, (argv, done.stderr)
