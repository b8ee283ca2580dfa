"""Regular files only: the check every reader and writer makes before it opens a path, and the bounded read.

A FIFO blocks the process that opens it until a writer appears, a device such as ``/dev/zero`` never ends,
and a socket cannot be read as a file; so a path is looked at with ``os.stat`` / ``os.lstat`` (which never
block) before anything opens it, and every kind but a regular file is refused with one line naming the
option, the rule and the path (:class:`~exactdp.errors.InputError`, exit status 2 on the command line).

* :func:`check_regular` — the rule for a path the user named: a regular file (a symbolic link is followed,
  and its target must be a regular file); with ``folder`` (a file found inside a folder the user named, such
  as a certificate under ``exactdp recheck DIR``) a symbolic link must also stay inside that folder.  A
  writer passes ``write=True``: a missing file is then fine, and a symbolic link must stay in its own
  folder, so that a planted link never redirects an output onto a file elsewhere.
* :func:`read_bytes` / :func:`read_text` — the check, then ``os.open`` with ``O_NONBLOCK`` (a FIFO swapped
  in after the check still does not block), ``fstat`` of the open descriptor (it must still be a regular
  file), its size against a limit of :mod:`exactdp.limits`, and a read that stops one byte past the limit,
  so a file that grows while it is read (or lies about its size) is still refused, never read whole.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from exactdp.errors import InputError
from exactdp.limits import PATH_WIDTH, limit, quote, require

#: what each kind of file is called in a refusal
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def kind_of(mode: int) -> str:
    """The name of the file kind of an ``st_mode`` (``"a FIFO (named pipe)"``, ``"a regular file"``...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def inside_folder(path, folder) -> bool:
    """Whether ``path`` resolves (symbolic links followed) to ``folder`` or a file below it."""
    real, home = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, home]) == home


def _look(look, path, what: str, shown: str, missing: str | None):
    """``look(path)`` (``os.stat`` or ``os.lstat``); a missing file is None when ``missing`` is None, else
    the error ``missing``."""
    try:
        return look(path)
    except FileNotFoundError:
        if missing is None:
            return None
        raise InputError(f"{what}: {missing}") from None
    except OSError as exc:
        raise InputError(f"{what}: cannot look at {shown}: {exc.strerror or exc}") from None


def check_regular(path, what: str, *, folder=None, write: bool = False) -> Path:
    """The path to open for ``path`` (the target of a symbolic link), after refusing anything that is not a
    regular file (:class:`~exactdp.errors.InputError` naming ``what``).

    ``folder``: a symbolic link must resolve inside this folder.  ``write``: the path may be missing (it is
    then returned as given) and a symbolic link must resolve inside the path's own folder.  Nothing is
    opened: ``os.lstat`` and ``os.stat`` never block."""
    p = Path(path)
    shown = quote(str(path), PATH_WIDTH)
    link = _look(os.lstat, p, what, shown, None if write else f"no such file: {shown}")
    if link is None:
        return p
    target, mode = p, link.st_mode
    if stat.S_ISLNK(mode):
        real = os.path.realpath(p)
        home = folder if folder is not None else (p.parent if write else None)
        if home is not None and not inside_folder(real, home):
            raise InputError(f"{what}: {shown} is a symbolic link leaving its folder (to {quote(real, PATH_WIDTH)}); "
                             f"only regular files inside the folder are read or written")
        target = Path(real)
        info = _look(os.stat, real, what, shown, None if write else f"{shown} is a symbolic link to a missing file")
        if info is None:
            return target
        mode = info.st_mode
    if not stat.S_ISREG(mode):
        raise InputError(f"{what}: {shown} is {kind_of(mode)}, not a regular file")
    return target


def read_bytes(path, what: str, *, folder=None, limit_name: str = "max_file_bytes") -> bytes:
    """The bytes of the regular file ``path`` (:func:`check_regular`), at most ``limit(limit_name)`` of them.

    Opened with ``O_NONBLOCK`` and checked again on the open descriptor, its size is refused against the
    limit before the read, and the read itself stops one byte past the limit."""
    target = check_regular(path, what, folder=folder)
    shown = quote(str(path), PATH_WIDTH)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"{what}: cannot open {shown}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped between the check and the open
            raise InputError(f"{what}: {shown} is {kind_of(info.st_mode)}, not a regular file")
        require(limit_name, info.st_size, f"{what} {shown}")
        cap = limit(limit_name) + 1
        chunks, size = [], 0
        while size < cap:
            chunk = os.read(fd, min(cap - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"{what}: cannot read {shown}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    require(limit_name, size, f"{what} {shown}")
    return b"".join(chunks)


def read_text(path, what: str, *, folder=None, limit_name: str = "max_file_bytes") -> str:
    """:func:`read_bytes` decoded as UTF-8, line endings kept as they are in the file (a byte-order mark
    stays as ``"\\ufeff"``, so writing the text back gives the same bytes); not UTF-8 is one line."""
    raw = read_bytes(path, what, folder=folder, limit_name=limit_name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what}: not a text file (not UTF-8): {quote(str(path), PATH_WIDTH)}") from None
