"""The ``exactdp`` command line: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)`` (adds its parser, sets ``func``).  Bad input
(any :class:`~exactdp.errors.ExactDPError`, a bad option) prints one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from exactdp.errors import ExactDPError

#: subcommand modules, in the order ``exactdp --help`` lists them (missing ones are skipped)
SUBCOMMANDS = ("verify", "show", "analyze", "bound", "derive", "check", "figures", "evalf", "tensor", "extremal")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message otherwise)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="exactdp", description="Exact verification of theorems about privacy mechanisms.")
    from exactdp import __version__

    parser.add_argument("--version", action="version", version=f"exactdp {__version__}")
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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except ExactDPError as exc:
        sys.stderr.write(f"exactdp {args.command}: error: {exc}\n")
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # an unreadable input or unwritable output path: bad usage, not a crash
        sys.stderr.write(f"exactdp {args.command}: error: {exc.strerror or exc}: {exc.filename or ''}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("exactdp: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
