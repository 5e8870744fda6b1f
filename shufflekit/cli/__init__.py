"""Command line: ``shufflekit verify | mechanism | latex | series | profile | histogram | design |
compose | sweep | check-expansion``.

Bad input prints one clean line on stderr and exits with status 2; a bound that cannot be
certified exits with status 3.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from shufflekit import __version__
from shufflekit.cli import (check_expansion, compose, design, histogram, latex, mechanism, profile,
                            series, sweep, verify)
from shufflekit.errors import CannotCertify

EXIT_BAD_INPUT = 2
EXIT_CANNOT_CERTIFY = 3

COMMANDS = (verify, mechanism, latex, series, profile, histogram, design, compose, sweep,
            check_expansion)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shufflekit",
        description="Derive, evaluate and verify privacy amplification by shuffling.")
    parser.add_argument("--version", action="version", version=f"shufflekit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(command.NAME, help=command.HELP)
        command.add_arguments(p)
        p.set_defaults(func=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CannotCertify as exc:
        print(f"shufflekit {args.command}: cannot certify: {exc}", file=sys.stderr)
        return EXIT_CANNOT_CERTIFY
    except ValueError as exc:
        print(f"shufflekit {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        return 0
