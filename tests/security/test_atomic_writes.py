"""A failed or interrupted write never loses data: ``-o``, ``--update-readme`` and ``--certificates`` on a
full disk (a real 64 KiB tmpfs where mounting is permitted, and a simulated ENOSPC everywhere), with an
encoding error, and under SIGTERM in the middle of the write leave the previous file (folder) byte-identical
and no temporary file behind; a README keeps its CRLF line endings and the text after the table."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from exactdp import atomic_io
from exactdp.atomic_io import WriteError, replace_folder, write_atomic
from exactdp.cli import EXIT_TERMINATED, main
from exactdp.errors import InputError
from exactdp.output.report import README_BEGIN, README_END

RR = [["3/4", "1/4"], ["1/4", "3/4"]]
CLAIM = "grosse2026.thm2_tv"  # one claim with seven certificates, a few seconds


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> bytes), hidden ones included."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(folder: Path) -> list[str]:
    """Temporary files or folders of an atomic write left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and
                  (p.name.endswith(".tmp") or ".new-" in p.name or ".old-" in p.name))


@pytest.fixture
def rr(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(RR))
    return str(path)


def enospc(*args, **kw):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def one_line_error(capsys, *words):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err


# -- a small full file system ------------------------------------------------------------------------------------

@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs (skipped where mounting is not permitted); call ``fill(leave)`` to leave ``leave``
    bytes free."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        pytest.skip("mount is not available")
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {done.stderr.decode(errors='replace').strip()}")

    def fill(leave: int = 0) -> None:
        free = os.statvfs(mnt).f_bavail * os.statvfs(mnt).f_frsize
        with open(mnt / "filler", "wb") as fh:
            try:
                fh.write(b"\0" * max(free - leave, 0))
                fh.flush()
            except OSError:
                pass

    try:
        yield mnt, fill
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, timeout=30)


# -- the writer itself --------------------------------------------------------------------------------------------

def test_write_atomic_replaces_whole_and_keeps_the_mode(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    assert write_atomic(target, "new \u00e9\r\n") == target
    assert target.read_bytes() == "new \u00e9\r\n".encode()  # bytes as given: no newline translation
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_write_atomic_on_enospc_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_bytes(b"previous content\n")
    monkeypatch.setattr(atomic_io, "_write_all", enospc)
    with pytest.raises(WriteError, match="No space left on device; previous '.*out.txt' kept"):
        write_atomic(target, "new content")
    assert target.read_bytes() == b"previous content\n"
    assert leftovers(tmp_path) == []
    with pytest.raises(WriteError, match="nothing written to '.*fresh.txt'"):
        write_atomic(tmp_path / "fresh.txt", "new content")
    assert not (tmp_path / "fresh.txt").exists()


def test_write_atomic_interrupted_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_bytes(b"previous content\n")

    def interrupted(fd, data):
        os.write(fd, data[:3])
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic_io, "_write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new content")
    assert target.read_bytes() == b"previous content\n"
    assert leftovers(tmp_path) == []


def test_encoding_error_never_truncates(tmp_path):
    """The content is encoded before anything is opened: a lone surrogate leaves the file as it was."""
    from argparse import Namespace

    from exactdp.cli import _common

    target = tmp_path / "out.json"
    target.write_bytes(b'{"previous": 1}\n')
    with pytest.raises(WriteError, match="cannot encode the output .*; previous '.*out.json' kept"):
        _common.emit(Namespace(output=str(target)), "name \udc80")
    assert target.read_bytes() == b'{"previous": 1}\n'
    assert leftovers(tmp_path) == []


# -- -o ----------------------------------------------------------------------------------------------------------

def test_o_with_a_non_utf8_file_name_never_truncates(tmp_path, capsys):
    """A kernel file whose name is not UTF-8 puts a lone surrogate into the text: either the name is escaped
    (valid UTF-8 written) or the write is refused before the file is opened, the previous file kept."""
    name = os.fsdecode(b"\xff\xfe.json")
    (tmp_path / name).write_text(json.dumps(RR))
    out = tmp_path / "report.txt"
    out.write_bytes(b"previous report\n")
    rc = main(["analyze", str(tmp_path / name), "-o", str(out)])
    if rc == 2:
        one_line_error(capsys, "cannot encode the output", "previous", "kept")
        assert out.read_bytes() == b"previous report\n"
    else:
        assert rc == 0 and "eta_TV" in out.read_bytes().decode("utf-8")
    assert leftovers(tmp_path) == []


def test_o_on_simulated_full_disk_keeps_the_previous_report(rr, tmp_path, monkeypatch, capsys):
    out = tmp_path / "report.json"
    out.write_bytes(b'{"good": "report"}\n')
    monkeypatch.setattr(atomic_io, "_write_all", enospc)
    assert main(["analyze", rr, "--format", "json", "-o", str(out)]) == 2
    one_line_error(capsys, "-o: cannot write", "No space left on device", "previous", "kept")
    assert out.read_bytes() == b'{"good": "report"}\n'
    assert leftovers(tmp_path) == []


def test_o_on_a_full_tmpfs_keeps_the_previous_report(rr, full_disk, capsys):
    mnt, fill = full_disk
    out = mnt / "report.json"
    out.write_bytes(b'{"good": "report"}\n')
    fill(0)
    assert main(["analyze", rr, "--format", "json", "-o", str(out)]) == 2
    one_line_error(capsys, "No space left on device", "previous", "kept")
    assert out.read_bytes() == b'{"good": "report"}\n'
    assert leftovers(mnt) == []
    (mnt / "filler").unlink()  # with room, the same command replaces it
    assert main(["analyze", rr, "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["command"] == "analyze"


def test_figures_are_written_atomically(tmp_path, monkeypatch):
    """A figure is rendered in memory and written through the atomic writer: a full disk keeps the old one."""
    pytest.importorskip("matplotlib")
    from exactdp.output import figstyle

    plt = figstyle.pyplot()
    fig = plt.figure()
    old = tmp_path / "fig.png"
    old.write_bytes(b"previous png")
    monkeypatch.setattr(atomic_io, "_write_all", enospc)
    with pytest.raises(WriteError, match="previous .* kept"):
        figstyle.save(fig, tmp_path / "fig", ("png",))
    monkeypatch.undo()
    assert old.read_bytes() == b"previous png"
    assert figstyle.save(fig, tmp_path / "fig", ("png",)) == [old]
    assert old.read_bytes().startswith(b"\x89PNG")
    plt.close(fig)
    assert leftovers(tmp_path) == []


# -- a subprocess stopped by SIGTERM in the middle of a write ---------------------------------------------------------

#: run the CLI with the atomic writer slowed down: it writes half the bytes, says so, then waits
SLOW_WRITER = textwrap.dedent("""
    import os, sys, time
    from exactdp import atomic_io

    def slow(fd, data):
        os.write(fd, data[: len(data) // 2])
        print("WRITING", flush=True)
        time.sleep(120)

    atomic_io._write_all = slow
    {setup}
    from exactdp.cli import main
    raise SystemExit(main(sys.argv[1:]))
""")

#: a verify run replaced by one claim's results (the README's table needs the full run; one claim is fast)
ONE_CLAIM = textwrap.dedent(f"""
    import exactdp.verification.engine as engine
    _verify = engine.verify
    engine.verify = lambda selectors=(), **kw: _verify(["{CLAIM}"], **{{**kw, "jobs": 1}})
""")


def sigterm_mid_write(argv: list[str], setup: str = "", cwd=None) -> subprocess.CompletedProcess:
    """Start the CLI under :data:`SLOW_WRITER`, send SIGTERM once half of a file is written, return the result."""
    code = SLOW_WRITER.format(setup=setup)
    proc = subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd)
    try:
        deadline = time.monotonic() + 240
        for line in proc.stdout:
            if line.strip() == "WRITING" or time.monotonic() > deadline:
                break
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_sigterm_mid_write_of_o_keeps_the_previous_file(rr, tmp_path):
    out = tmp_path / "report.json"
    out.write_bytes(b'{"good": "report"}\n')
    done = sigterm_mid_write(["analyze", rr, "--format", "json", "-o", str(out)])
    assert done.returncode == EXIT_TERMINATED, done.stderr
    assert done.stderr.strip().splitlines() == ["exactdp analyze: terminated (SIGTERM); no output file was "
                                                "replaced by a partial one"]
    assert out.read_bytes() == b'{"good": "report"}\n'
    assert leftovers(tmp_path) == []


# -- --update-readme ------------------------------------------------------------------------------------------------

HAND_WRITTEN = "## Notes\r\n\r\nHand-written text after the table \u2014 kept.\r\n"


def crlf_readme(path: Path) -> bytes:
    raw = (f"# Title\r\n\r\nIntro.\r\n\r\n{README_BEGIN}\r\nold table\r\n{README_END}\r\n\r\n"
           f"{HAND_WRITTEN}").encode("utf-8")
    path.write_bytes(raw)
    return raw


@pytest.fixture(scope="module")
def one_claim():
    from exactdp.verification.engine import verify

    return verify([CLAIM], seed=0, quick=True, jobs=1)


@pytest.fixture
def fake_full_run(monkeypatch, one_claim):
    """``exactdp verify`` returns the one claim's results at once (the README needs the full run)."""
    import exactdp.verification.engine as engine

    monkeypatch.setattr(engine, "verify", lambda *a, **kw: one_claim)


def test_update_readme_without_a_file_rewrites_the_claims_table_file(tmp_path, fake_full_run, monkeypatch, capsys):
    """``--update-readme`` alone rewrites docs/verdicts.md (the table's home) from the repository's root."""
    from exactdp.output.report import CLAIMS_TABLE_FILE

    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    table = tmp_path / CLAIMS_TABLE_FILE
    table.write_text(f"# Verdicts\n\n{README_BEGIN}\nold table\n{README_END}\n\nafter\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# README\n", encoding="utf-8")
    assert main(["verify", "--quick", "--no-progress", "--update-readme"]) == 0
    text = table.read_text(encoding="utf-8")
    assert f"| `{CLAIM}` |" in text and "old table" not in text and text.endswith(f"{README_END}\n\nafter\n")
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "# README\n"

def test_update_readme_keeps_crlf_and_the_text_after_the_table(tmp_path, fake_full_run, capsys):
    readme = tmp_path / "README.md"
    crlf_readme(readme)
    assert main(["verify", "--quick", "--no-progress", "--update-readme", str(readme)]) == 0
    raw = readme.read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > 10  # every line ends in CRLF
    text = raw.decode("utf-8")
    assert text.startswith("# Title\r\n\r\nIntro.\r\n\r\n" + README_BEGIN + "\r\nGenerated by `exactdp verify")
    assert text.endswith(README_END + "\r\n\r\n" + HAND_WRITTEN)
    assert f"| `{CLAIM}` |" in text and "\r\n| Claim | Items |" in text and "old table" not in text
    assert leftovers(tmp_path) == []
    bom = tmp_path / "bom.md"  # a byte-order mark is kept too
    bom.write_bytes(b"\xef\xbb\xbf" + f"{README_BEGIN}\n{README_END}\nafter\n".encode())
    assert main(["verify", "--quick", "--no-progress", "--update-readme", str(bom)]) == 0
    assert bom.read_bytes().startswith(b"\xef\xbb\xbf" + README_BEGIN.encode() + b"\nGenerated by")
    assert bom.read_bytes().endswith(f"{README_END}\nafter\n".encode()) and b"\r" not in bom.read_bytes()


def test_update_readme_on_simulated_full_disk_keeps_the_readme(tmp_path, fake_full_run, monkeypatch, capsys):
    readme = tmp_path / "README.md"
    raw = crlf_readme(readme)
    monkeypatch.setattr(atomic_io, "_write_all", enospc)
    assert main(["verify", "--quick", "--no-progress", "--update-readme", str(readme)]) == 2
    one_line_error(capsys, "--update-readme: cannot write", "No space left on device", "previous", "kept")
    assert readme.read_bytes() == raw
    assert leftovers(tmp_path) == []


def test_update_readme_on_a_full_tmpfs_keeps_the_readme(full_disk, fake_full_run, capsys):
    mnt, fill = full_disk
    readme = mnt / "README.md"
    raw = crlf_readme(readme)
    fill(0)
    assert main(["verify", "--quick", "--no-progress", "--update-readme", str(readme)]) == 2
    one_line_error(capsys, "No space left on device", "kept")
    assert readme.read_bytes() == raw
    assert leftovers(mnt) == []


@pytest.mark.slow  # a subprocess running one claim
def test_sigterm_mid_write_of_update_readme_keeps_the_readme(tmp_path):
    readme = tmp_path / "README.md"
    raw = crlf_readme(readme)
    done = sigterm_mid_write(["verify", "--quick", "--no-progress", "--update-readme", str(readme)], ONE_CLAIM)
    assert done.returncode == EXIT_TERMINATED, done.stderr
    assert "terminated (SIGTERM)" in done.stderr and "Traceback" not in done.stderr
    assert readme.read_bytes() == raw
    assert leftovers(tmp_path) == []


# -- --certificates DIR ------------------------------------------------------------------------------------------

@pytest.fixture
def old_export(tmp_path, one_claim):
    """A previous export (of the one claim) in ``tmp_path/certs``, plus a user's own note in the folder."""
    from exactdp.verification.export import write_certificates

    certs = tmp_path / "certs"
    write_certificates(one_claim, certs)
    (certs / "NOTES.txt").write_text("my notes\n")
    return certs


def test_reexport_drops_listed_files_and_keeps_the_others(old_export, one_claim):
    from exactdp.verification.export import write_certificates

    listed = json.loads((old_export / "index.json").read_text())["claims"][CLAIM]["certificates"]
    assert len(listed) == 12  # 7 of the claim (pml_tv, the Xi regimes, the witness in u, their instances at u = N*c)
    # and the 5 structural-lemma certificates they use
    written = write_certificates([], old_export)  # a re-export without the claim: its certificates go
    assert written == [old_export / "index.json"]
    assert sorted(snapshot(old_export)) == ["NOTES.txt", "index.json"]
    assert (old_export / "NOTES.txt").read_text() == "my notes\n"
    write_certificates(one_claim, old_export)
    assert sorted(snapshot(old_export)) == sorted(["NOTES.txt", "index.json", *listed])
    assert leftovers(old_export.parent) == []


def test_certificates_on_simulated_full_disk_keep_the_previous_export(old_export, tmp_path, fake_full_run,
                                                                      monkeypatch, capsys):
    before = snapshot(old_export)
    calls = []

    def second_file_fails(fd, data):
        calls.append(1)
        if len(calls) == 2:
            enospc()
        os.write(fd, data)

    monkeypatch.setattr(atomic_io, "_write_all", second_file_fails)
    assert main(["verify", CLAIM, "--quick", "--no-progress", "--certificates", str(old_export)]) == 2
    one_line_error(capsys, "--certificates: cannot write", "No space left on device", "previous", "kept")
    assert snapshot(old_export) == before
    assert leftovers(tmp_path) == []


def test_certificates_on_a_full_tmpfs_keep_the_previous_export(full_disk, one_claim, fake_full_run, capsys):
    from exactdp.verification.export import write_certificates

    mnt, fill = full_disk
    certs = mnt / "certs"
    write_certificates(one_claim, certs)
    before = snapshot(certs)
    fill(2048)  # room for a file or two of the new export, not for all of it
    assert main(["verify", CLAIM, "--quick", "--no-progress", "--certificates", str(certs)]) == 2
    one_line_error(capsys, "No space left on device", "kept")
    assert snapshot(certs) == before
    assert leftovers(mnt) == []


@pytest.mark.slow  # a subprocess running one claim
def test_sigterm_mid_export_keeps_the_previous_export(old_export, tmp_path):
    before = snapshot(old_export)
    done = sigterm_mid_write(["verify", CLAIM, "--quick", "--no-progress", "--jobs", "1",
                              "--certificates", str(old_export)])
    assert done.returncode == EXIT_TERMINATED, done.stderr
    assert snapshot(old_export) == before
    assert leftovers(tmp_path) == []


def test_the_current_folder_is_never_swapped(tmp_path, monkeypatch, one_claim):
    """Replacing "." (or a folder holding it) would leave the process in a deleted folder: refused, untouched."""
    from exactdp.verification.export import write_certificates

    (tmp_path / "mine.txt").write_text("mine")
    monkeypatch.chdir(tmp_path)
    for directory in (".", str(tmp_path), str(tmp_path.parent), "sub/.."):
        with pytest.raises(InputError, match="is the current folder, holds it, or is the root"):
            write_certificates(one_claim, directory)
    assert snapshot(tmp_path) == {"mine.txt": b"mine"}
    write_certificates(one_claim, "certs")  # a folder of its own is fine
    assert json.loads((tmp_path / "certs" / "index.json").read_text())["certificates"] == 12  # 7 of the claim and 5 structural lemmas


def test_replace_folder_holds_signals_during_the_swap(tmp_path, monkeypatch):
    """A SIGTERM arriving while the old folder is renamed aside is delivered after the swap, never between:
    both renames happen, the old folder is removed, then the signal's handler runs."""
    root = tmp_path / "d"
    root.mkdir()
    (root / "a").write_bytes(b"old")
    real_rename = os.rename
    seen = []

    class Stop(Exception):
        pass

    def rename(src, dst):
        seen.append(Path(dst).name)
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGTERM)  # between the two renames
        return real_rename(src, dst)

    def stop(signum, frame):
        raise Stop(list(seen))

    monkeypatch.setattr(atomic_io.os, "rename", rename)
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stop) as info:
            replace_folder(root, [("a", b"new"), (f"sub/{uuid.uuid4().hex}", b"x")], "DIR")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert len(seen) == 2 and info.value.args[0] == seen  # delivered after the second rename
    assert (root / "a").read_bytes() == b"new"
    assert leftovers(tmp_path) == []
