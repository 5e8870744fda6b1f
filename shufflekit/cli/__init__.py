"""Command line: ``shufflekit list | verify | mechanism | latex | series | profile | histogram |
design | compose | sweep | check-expansion``.

Each command is a module with ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args)``: it
parses, calls the library, and formats (:mod:`shufflekit.cli.output`).

Exit status: 0 success; 1 ``verify`` found a regression, or an internal error (a bug: one line,
no traceback unless SHUFFLEKIT_DEBUG=1); 2 bad input (one line on stderr naming
the parameter, its value and the allowed range); 3 valid input whose bound cannot be certified;
4 a ``sweep`` finished with failed points; 130 interrupted (Ctrl-C: one line, no traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from shufflekit import __version__
from shufflekit.cli import (
    check_expansion,
    compose,
    design,
    histogram,
    latex,
    listing,
    mechanism,
    profile,
    series,
    sweep,
    verify,
)
from shufflekit.cli.output import check_output
from shufflekit.cli.progress import busy
from shufflekit.errors import CannotCertify

EXIT_BAD_INPUT = 2
EXIT_CANNOT_CERTIFY = 3
EXIT_INTERNAL = 1
EXIT_FAILED_POINTS = sweep.EXIT_FAILED_POINTS
EXIT_INTERRUPTED = 130

COMMANDS = (
    listing,
    verify,
    mechanism,
    latex,
    series,
    profile,
    histogram,
    design,
    compose,
    sweep,
    check_expansion,
)

EPILOG = (
    "exit status: 0 ok, 1 verify found a regression (or an internal error), 2 bad input, "
    "3 cannot certify (valid input, no certified bound), 4 a sweep finished with failed "
    "points, 130 interrupted"
)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit with status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        if message.endswith("expected one argument"):
            message += " (write a value that starts with '-' as --option=VALUE)"
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


class DefaultsFormatter(argparse.HelpFormatter):
    """Help text that ends with the default of every option that has one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            action.option_strings
            and "default" not in text
            and action.default not in (None, False, argparse.SUPPRESS)
        ):
            text += " (default: %(default)s)"
        return text


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="shufflekit",
        description="Derive, evaluate and verify privacy amplification by shuffling.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"shufflekit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(
            command.NAME,
            help=command.HELP,
            description=command.HELP,
            epilog=EPILOG,
            formatter_class=DefaultsFormatter,
        )
        command.add_arguments(p)
        flags = frozenset(f for a in p._actions for f in a.option_strings)
        p.set_defaults(func=command.run, option_flags=flags)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every outcome is an exit status and at most one line on stderr."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C anywhere: one line, no traceback
        print("shufflekit: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a parse error (one line)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        check_output(getattr(args, "output", None))
        with busy(args.command, enabled=args.command != "verify"):
            return int(args.func(args) or 0)
    except CannotCertify as exc:
        print(f"shufflekit {args.command}: cannot certify: {exc}", file=sys.stderr)
        return EXIT_CANNOT_CERTIFY
    except ValueError as exc:
        flag = "--" + str(getattr(exc, "name", "")).replace("_", "-")
        where = f"argument {flag}: " if flag in getattr(args, "option_flags", ()) else ""
        print(f"shufflekit {args.command}: error: {where}{exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        print(f"shufflekit {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - a bug: one line, no traceback (SHUFFLEKIT_DEBUG=1 shows it)
        if os.environ.get("SHUFFLEKIT_DEBUG"):
            raise
        print(
            f"shufflekit {args.command}: internal error ({type(exc).__name__}): "
            f"{' '.join(str(exc).split())[:300]}; please report it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
