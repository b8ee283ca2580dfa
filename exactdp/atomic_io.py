"""Loss-free writes: a file is replaced whole or not at all, and a folder of files likewise.

:func:`write_atomic` is the one way exactdp writes a file (``-o`` of every command, figures, the claims table of
docs/verdicts.md).  The content is complete (and encoded) before anything is opened; it is written to a new
temporary file in the target's own folder, flushed and ``fsync``-ed, and only then renamed over the target
with ``os.replace`` (atomic on POSIX within one file system).  A full disk, an unwritable folder, an encoding
error, Ctrl-C or a SIGTERM (the command line turns it into an exception) therefore leaves the previous file
byte-identical and no temporary file behind; the error says so (``previous FILE kept``).  The target must be
a regular file or missing (:func:`exactdp.regular_files.check_regular`): a FIFO, a device or a symbolic link
leaving its folder is refused before anything is written.  The new file keeps the previous file's
permission bits.

:func:`replace_folder` does the same for a folder (``exactdp verify --certificates DIR``): the new content
is written into a sibling temporary folder, then the old folder is renamed aside, the new one renamed in and
the old one deleted, with SIGINT and SIGTERM held back during those three steps; a failure before the swap
deletes the temporary folder and leaves the old one untouched.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from exactdp.errors import InputError
from exactdp.limits import PATH_WIDTH, quote
from exactdp.regular_files import check_regular, inside_folder


class WriteError(InputError):
    """An output could not be written (full disk, permissions, encoding); the previous file is kept."""


def _kept(path: Path, existed: bool) -> str:
    return f"previous {quote(str(path), PATH_WIDTH)} kept" if existed else f"nothing written to {quote(str(path), PATH_WIDTH)}"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeError):
        return f"cannot encode the output ({str(exc)[:160]})"
    return str(getattr(exc, "strerror", None) or exc)


def encode(text: str, path, what: str, encoding: str = "utf-8") -> bytes:
    """``text`` encoded, or a :class:`WriteError` naming ``what`` and saying the file was not touched."""
    try:
        return text.encode(encoding)
    except UnicodeError as exc:
        p = Path(path)
        raise WriteError(f"{what}: {_reason(exc)}; {_kept(p, os.path.lexists(p))}") from None


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: not every file system lets a folder be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _new_temporary(folder: Path, name: str, mode: int = 0o666) -> tuple[Path, int]:
    """A new file ``.NAME.RANDOM.tmp`` in ``folder``, created exclusively (umask applies to ``mode``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = folder / f".{name[:100]}.{secrets.token_hex(6)}.tmp"
        try:
            return tmp, os.open(tmp, flags, mode)
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def write_atomic(path, data: str | bytes, what: str = "-o", *, encoding: str = "utf-8") -> Path:
    """Replace the file ``path`` by ``data`` (text is encoded with ``encoding`` first) atomically; return
    the path written (the target of a symbolic link inside its folder).

    On any failure, including KeyboardInterrupt and the command line's SIGTERM exception, the temporary file
    is removed and the previous file is left byte-identical; an ``OSError`` or an encoding error becomes one
    :class:`WriteError` naming ``what`` and ending in ``previous FILE kept``."""
    if isinstance(data, str):
        data = encode(data, path, what, encoding)
    target = check_regular(path, what, write=True)
    try:
        previous = os.stat(target)
    except FileNotFoundError:
        previous = None
    folder = target.parent
    tmp = None
    try:
        tmp, fd = _new_temporary(folder, target.name)
        try:
            if previous is not None:
                os.fchmod(fd, stat.S_IMODE(previous.st_mode))
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise WriteError(f"{what}: cannot write {quote(str(path), PATH_WIDTH)}: {_reason(exc)}; "
                         f"{_kept(Path(path), previous is not None)}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _fsync_folder(folder)
    return target


#: the signals :func:`signals_held` defers (SIGALRM: the command line's ``--max-seconds``)
HELD_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name))


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGALRM back for the duration and deliver them on exit: a few renames that
    must happen together are not cut in half by Ctrl-C, a SIGTERM or the time limit.  A no-op off the main
    thread.

    The Python-level handlers are swapped for one that only records the signal (then restored, and each
    recorded signal raised again).  Blocking the signals with ``pthread_sigmask`` would not do: it holds
    them in the calling thread only, and a process with other threads (a process pool's manager thread, a
    progress thread) takes the signal in one of those, whose C handler still has the main thread run the
    Python handler inside the block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def record(signum, frame):
        if signum not in pending:
            pending.append(signum)

    previous = {sig: signal.signal(sig, record) for sig in HELD_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        for sig in pending:
            if previous[sig] is not signal.SIG_IGN:
                signal.raise_signal(sig)


def _carry(old: Path, new: Path, keep: Iterable[str]) -> None:
    """Put the entries ``keep`` (paths relative to ``old``) of the old folder into the new one as hard links
    (a copy where the file system has none), so they survive the swap without being moved out of the old
    folder before it."""
    for rel in keep:
        src, dst = old / rel, new / rel
        if os.path.lexists(dst):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        elif src.is_dir():
            dst.mkdir(exist_ok=True)
        else:
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)


def replaceable_folder(directory, what: str) -> Path:
    """The absolute path of ``directory`` if :func:`replace_folder` may replace it: a folder or missing, in
    an existing folder, not a symbolic link, and neither the root nor the current folder nor one holding it
    (swapping those would leave the process in a deleted folder); else one :class:`InputError`."""
    root = Path(os.path.abspath(directory))  # "." and "a/.." get a name and a parent to swap in
    shown = quote(str(directory), PATH_WIDTH)
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise InputError(f"{what}: {shown} must be a folder (created if missing), not a symbolic link or a file")
    if inside_folder(os.getcwd(), root) or root.parent == root:
        raise InputError(f"{what}: {shown} is the current folder, holds it, or is the root; the whole folder "
                         f"is replaced, so give a folder of its own (e.g. ./certificates)")
    if not root.parent.is_dir():
        raise InputError(f"{what}: the folder of {shown} does not exist")
    return root


def replace_folder(directory, files: Iterable[tuple[str, bytes]], what: str, *, keep: Iterable[str] = ()) -> Path:
    """Replace the folder ``directory`` by a new one holding ``files`` (relative path, bytes) and the
    entries ``keep`` of the old folder (relative paths, carried over as they are); return its path.

    The new folder is written beside the old one (``.NAME.new-RANDOM``), every file ``fsync``-ed; then, with
    signals held, the old folder is renamed aside, the new one renamed in, the old one deleted.  Any failure
    before the swap deletes the new folder and leaves the old one untouched (a :class:`WriteError` naming
    ``what``, ending in ``previous DIR kept``)."""
    root = replaceable_folder(directory, what)
    existed = root.exists()
    parent = root.parent
    new = parent / f".{root.name[:100]}.new-{secrets.token_hex(6)}"
    try:
        new.mkdir()
        if existed:
            os.chmod(new, stat.S_IMODE(os.stat(root).st_mode))
        for rel, data in files:
            path = new / rel
            if not inside_folder(path, new):
                raise InputError(f"{what}: the file name {quote(rel)} leaves the folder")
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
        if existed:
            _carry(root, new, keep)
        for folder, _, _ in os.walk(new):
            _fsync_folder(Path(folder))
    except BaseException as exc:
        shutil.rmtree(new, ignore_errors=True)
        if isinstance(exc, OSError):
            raise WriteError(f"{what}: cannot write {quote(str(directory), PATH_WIDTH)}: {_reason(exc)}; "
                             f"{_kept(root, existed)}") from None
        raise
    aside = parent / f".{root.name[:100]}.old-{secrets.token_hex(6)}"
    with signals_held():
        try:
            if existed:
                os.rename(root, aside)
            try:
                os.rename(new, root)
            except OSError:
                if existed:
                    os.rename(aside, root)
                raise
        except OSError as exc:
            shutil.rmtree(new, ignore_errors=True)
            raise WriteError(f"{what}: cannot replace {quote(str(directory), PATH_WIDTH)}: {_reason(exc)}; "
                             f"{_kept(root, existed)}") from None
        _fsync_folder(parent)
        if existed:
            shutil.rmtree(aside, ignore_errors=True)
    return root

