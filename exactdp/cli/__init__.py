"""The ``exactdp`` command line: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)`` (adds its parser, sets ``func``).  Every failure is
one line on stderr, never a traceback:

* bad input (an :class:`~exactdp.errors.InputError`: a bad kernel, parameter or option, an unreadable path, a
  refused size, an expression nested too deeply) — exit status 2;
* undecided (an :class:`~exactdp.errors.UndecidedError`: a comparison the certified arithmetic could not
  settle within the precision cap, or the exact prover could not decide) — exit status 3, with the line
  ``undecided: ... (raise the precision cap with --max-prec / precision_cap)``; never reported as true,
  false or bad input;
* out of memory (the ``max_memory`` cap, ``--max-memory``), out of time (``--max-seconds``) or an internal
  error (an :class:`~exactdp.errors.InternalError` or any unexpected exception) — exit status 1, with the
  reason; ``EXACTDP_DEBUG=1`` re-raises so the traceback is shown;
* stopped by Ctrl-C (exit status 130) or SIGTERM (143, turned into :class:`Terminated`): worker processes
  are stopped with the command, and an output file being written keeps its previous content
  (:mod:`exactdp.atomic_io`).

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

from exactdp.errors import ExactDPError, InputError, InternalError, UndecidedError

#: subcommand modules, in the order ``exactdp --help`` lists them (missing ones are skipped)
SUBCOMMANDS: tuple[str, ...] = ("verify", "show", "analyze", "bound", "derive", "check", "figures", "plot", "evalf",
                                 "tensor", "extremal", "recheck")

#: exit status of an undecided computation (an UndecidedError); 2 is bad input, 1 internal
EXIT_UNDECIDED = 3

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
    """``text`` on one line, cut to ``width`` characters; a control, bidi or format character left in it (a
    name quoted in the message) is shown escaped (:func:`exactdp.numbers.escape.terminal`)."""
    from exactdp.numbers.escape import terminal

    s = terminal(" ".join(str(text).split()))
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


class TimeLimitError(BaseException):
    """Raised by the ``--max-seconds`` alarm; a BaseException (like KeyboardInterrupt) so that no broad
    ``except Exception`` in a computation swallows it.  Exit status 1, an internal limit."""


class Terminated(BaseException):
    """SIGTERM, turned into an exception by the command line (like Ctrl-C's KeyboardInterrupt) so that the
    cleanups run: a file being written keeps its previous content, worker processes are stopped.  Exit
    status 143 (128 + SIGTERM)."""


#: exit status after SIGTERM (128 + 15, what the shell reports for a process killed by it)
EXIT_TERMINATED = 143


def _terminated(signum, frame):
    raise Terminated(signum)


def _catch_sigterm():
    """Install the SIGTERM handler that raises :class:`Terminated` (main thread, POSIX); return the previous
    handler (None when nothing was installed)."""
    import signal
    import threading

    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        return None  # pragma: no cover
    return signal.signal(signal.SIGTERM, _terminated)


def parse_seconds(text: str) -> float:
    """``"90"`` or ``"2.5"`` seconds (a positive time span, not an exact quantity; at most 10^7)."""
    from exactdp.limits import quote

    try:
        value = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {quote(text)}") from None
    if not 0 < value <= 1e7:
        raise argparse.ArgumentTypeError(f"must be a number of seconds in (0, 10^7], got {quote(text)}")
    return value


#: seconds between the repeats of the ``--max-seconds`` alarm after its deadline
ALARM_REPEAT = 0.25


def _stopping() -> bool:
    """Whether a :class:`TimeLimitError` is being handled or unwinding (it, or an exception raised in one
    of its cleanups): ``sys.exc_info()`` holds it in the ``except``/``finally`` blocks and ``__exit__``
    methods it runs through."""
    exc = sys.exc_info()[1]
    while exc is not None:
        if isinstance(exc, TimeLimitError):
            return True
        exc = exc.__context__
    return False


def _start_alarm(seconds: float | None) -> float | None:
    """Arm a wall-clock alarm that raises :class:`TimeLimitError` (main thread, POSIX only).

    The alarm repeats every :data:`ALARM_REPEAT` seconds after the deadline: a bare ``except:`` in a
    library can swallow one TimeLimitError (mpmath's import-time ``try: import gmpy2 … except: pass`` is
    one; a one-shot alarm landing there let ``exactdp --max-seconds 1 verify`` run to completion on a
    loaded machine), and the next repeat stops the run.  A repeat landing while a TimeLimitError unwinds
    does nothing (:func:`_stopping`), so the cleanups it runs (worker processes stopped, partial files
    removed) are not cut short by a second one."""
    import signal
    import threading

    if seconds is None:
        raw = os.environ.get("EXACTDP_MAX_SECONDS", "").strip()
        if not raw:
            return None
        try:
            seconds = parse_seconds(raw)
        except argparse.ArgumentTypeError as exc:
            raise InputError(f"$EXACTDP_MAX_SECONDS: {exc}") from None
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return None  # pragma: no cover

    def _alarm(signum, frame):
        if not _stopping():
            raise TimeLimitError(seconds)

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_REPEAT)
    return seconds


def _stop_alarm() -> None:
    import signal

    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)


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
    parser.add_argument("--max-seconds", type=parse_seconds, default=None, metavar="SECONDS",
                        dest="global_max_seconds",
                        help="stop any command after this many seconds with a one-line error (exit 1; default: "
                             "no limit, or $EXACTDP_MAX_SECONDS)")
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
    """Run the command line; returns the exit status (notes on stderr only after a success: every failure
    stays one line)."""
    from exactdp.cli import _common  # deferred: start-up

    _common.flush_notes(write=False)
    try:
        return _main(argv)
    finally:
        _common.flush_notes(write=False)  # left pending only by a failure: dropped


def _main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Called by the ``exactdp`` script (``argv`` None) it also caps the process's address space at the
    ``max_memory`` limit; called from Python with an argument list it changes no process limit unless
    ``--max-memory`` is given."""
    command = "exactdp"
    debug = os.environ.get("EXACTDP_DEBUG", "") not in ("", "0")
    # Exact results may have many digits (an n-fold privacy profile, 1/10^5000): every text this process
    # reads is bounded by exactdp.limits, so Python's 4300-digit int/str guard is lifted for its output.
    sys.set_int_max_str_digits(0)
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
        previous = _catch_sigterm()
        _start_alarm(args.global_max_seconds)
        try:
            status = int(args.func(args) or 0)
        finally:
            _stop_alarm()
            if previous is not None:
                import signal

                signal.signal(signal.SIGTERM, previous)
        from exactdp.cli import _common  # deferred: start-up

        _common.flush_notes()  # notes, after a successful run only (a failure is one line)
        return status
    except UndecidedError as exc:  # neither true, nor false, nor bad input
        sys.stderr.write(f"{command}: undecided: {one_line(exc)} (raise the precision cap with --max-prec / "
                         f"precision_cap)\n")
        return EXIT_UNDECIDED
    except InternalError as exc:  # a broken invariant: a bug
        if debug:
            raise
        sys.stderr.write(f"{command}: internal error: {type(exc).__name__}: {one_line(exc, 200)} "
                         f"(please report; run with EXACTDP_DEBUG=1 for the traceback)\n")
        return 1
    except ExactDPError as exc:  # InputError (and any other ExactDPError): bad input
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
    except Terminated:
        sys.stderr.write(f"{command}: terminated (SIGTERM); no output file was replaced by a partial one\n")
        return EXIT_TERMINATED
    except TimeLimitError as exc:
        sys.stderr.write(f"{command}: error: stopped after {exc.args[0]:g} s (--max-seconds / "
                         f"$EXACTDP_MAX_SECONDS); raise the limit or ask for a smaller computation\n")
        return 1
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
