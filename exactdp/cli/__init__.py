"""The ``exactdp`` command line: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)`` (adds its parser, sets ``func``).  Every failure is
one line on stderr, never a traceback:

* bad input (any :class:`~exactdp.errors.ExactDPError`, a bad option, an unreadable path, an expression
  nested too deeply) — exit status 2;
* out of memory (the ``max_memory`` cap, ``--max-memory``) or an internal error — exit status 1, with the
  reason; ``EXACTDP_DEBUG=1`` re-raises so the traceback is shown.

The process running the ``exactdp`` command caps its address space (``RLIMIT_AS``) at the limit
``max_memory`` (default: half the machine's memory; ``--max-memory 8G`` or ``$EXACTDP_MAX_MEMORY``), so no
input can take the machine down: an allocation beyond the cap fails as a one-line "out of memory" error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from exactdp.errors import ExactDPError

#: subcommand modules, in the order ``exactdp --help`` lists them (missing ones are skipped)
SUBCOMMANDS = ("verify", "show", "analyze", "bound", "derive", "check", "figures", "evalf", "tensor", "extremal")

#: longest error message printed (a safety net: messages quote at most ~80 characters of input)
MAX_MESSAGE = 600

#: the address-space cap never goes below this (Python + numpy/OpenBLAS + sympy reserve ~1-2 GB of
#: virtual memory at start-up without using it); an explicit --max-memory below it is refused
MIN_MEMORY = 1 << 30

_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message otherwise)
        sys.stderr.write(f"{self.prog}: error: {one_line(message)}\n")
        raise SystemExit(2)


def one_line(text, width: int = MAX_MESSAGE) -> str:
    """``text`` on one line, cut to ``width`` characters."""
    s = " ".join(str(text).split())
    return s if len(s) <= width else s[:width] + f"... ({len(s)} characters)"


def parse_memory(text: str) -> int:
    """``"8G"`` → 8·2³⁰ bytes; plain integers are bytes; suffixes K, M, G, T (binary; ``B``/``iB`` allowed), at least 1G.

    >>> parse_memory("2G"), parse_memory("8GiB"), parse_memory("2_000_000_000")
    (2147483648, 8589934592, 2000000000)"""
    from exactdp.limits import quote

    m = re.fullmatch(r"\s*([0-9][0-9_]{0,30})\s*([KMGTkmgt]?)(?:i?[Bb])?\s*", str(text))
    if not m:
        raise argparse.ArgumentTypeError(f"expected bytes as an integer with an optional suffix K, M, G or T "
                                         f"(e.g. 8G, 512M), got {quote(text)}")
    value = int(m.group(1).replace("_", "")) * _SUFFIX[m.group(2).upper()]
    if value < MIN_MEMORY:
        raise argparse.ArgumentTypeError(f"must be at least 1G (Python and its libraries need about that much "
                                         f"address space to start), got {quote(text)}")
    return value


def apply_memory_cap(max_memory: int | None = None) -> int | None:
    """Lower this process's address-space limit (``RLIMIT_AS``, inherited by worker processes) to
    ``max_memory`` (default: the limit ``max_memory``); a lower limit already in force is kept.
    Returns the soft limit now in force (None where ``resource`` is unavailable)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    from exactdp.limits import limit

    cap = max(int(max_memory if max_memory is not None else limit("max_memory")), MIN_MEMORY)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft == resource.RLIM_INFINITY or cap < soft or max_memory is not None:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        except (ValueError, OSError):  # pragma: no cover - a platform that refuses: keep the current limit
            return soft
        return cap
    return soft


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exactdp", description="Exact verification of theorems about privacy mechanisms.")
    from exactdp import __version__

    parser.add_argument("--version", action="version", version=f"exactdp {__version__}")
    parser.add_argument("--max-memory", type=parse_memory, default=None, metavar="BYTES",
                        help="cap the memory this command may allocate, e.g. 8G or 512M (default: half the "
                             "machine's memory, or $EXACTDP_MAX_MEMORY); beyond it the command stops with "
                             "'out of memory'")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"exactdp.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"exactdp.cli.{name}":
                continue
            raise
        module.register(sub)
    return parser


def _memory_text() -> str:
    from exactdp.limits import limit

    try:
        return f"{limit('max_memory') / 2**30:.3g} GiB"
    except ExactDPError:  # a malformed $EXACTDP_MAX_MEMORY
        return "?"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Called by the ``exactdp`` script (``argv`` None) it also caps the process's address space at the
    ``max_memory`` limit; called from Python with an argument list it changes no process limit unless
    ``--max-memory`` is given."""
    command = "exactdp"
    debug = os.environ.get("EXACTDP_DEBUG", "") not in ("", "0")
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # a bad option (one line already printed), --help or --version
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        if args.max_memory is not None:
            os.environ["EXACTDP_MAX_MEMORY"] = str(args.max_memory)  # limit("max_memory") and worker processes
        if argv is None or args.max_memory is not None:
            apply_memory_cap(args.max_memory)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        command = f"exactdp {args.command}"
        return int(args.func(args) or 0)
    except ExactDPError as exc:
        sys.stderr.write(f"{command}: error: {one_line(exc)}\n")
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # an unreadable input or unwritable output path: bad usage, not a crash
        from exactdp.limits import quote

        where = f": {quote(exc.filename)}" if exc.filename else ""
        sys.stderr.write(f"{command}: error: {one_line(exc.strerror or exc)}{where}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("exactdp: interrupted\n")
        return 130
    except MemoryError:
        if debug:
            raise
        sys.stderr.write(f"{command}: error: out of memory: the computation needs more than the memory cap "
                         f"(limit max_memory = {_memory_text()}); raise it with --max-memory or "
                         f"$EXACTDP_MAX_MEMORY, or ask for a smaller computation\n")
        return 1
    except RecursionError:
        if debug:
            raise
        sys.stderr.write(f"{command}: error: expression too deeply nested (Python's recursion limit); "
                         f"simplify the input\n")
        return 2
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, never a traceback
        if debug:
            raise
        sys.stderr.write(f"{command}: internal error: {type(exc).__name__}: {one_line(exc, 200)} "
                         f"(please report; run with EXACTDP_DEBUG=1 for the traceback)\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
