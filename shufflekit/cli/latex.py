"""The ``latex`` command: write derived results as LaTeX fragments or a standalone document."""

from __future__ import annotations

import argparse

from shufflekit.cli.output import columns, write
from shufflekit.errors import InvalidParameter

NAME = "latex"
HELP = "write derived results as LaTeX"


def add_arguments(lx: argparse.ArgumentParser) -> None:
    lx.add_argument("ids", nargs="*", help="result ids (see --list)")
    lx.add_argument("--list", action="store_true", help="list the result ids")
    lx.add_argument("--all", action="store_true", help="every result")
    lx.add_argument("--document", action="store_true", help="a standalone article")
    lx.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help="write the LaTeX to FILE instead of standard output",
    )


def run(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.latex_document import document, fragments
    from shufflekit.symbolic.results import RESULTS, describe

    if args.list:
        rows = [{"id": rid, "summary": describe(rid)} for rid in sorted(RESULTS)]
        write(columns(rows), args.output)
        return 0
    ids = sorted(RESULTS) if args.all else list(dict.fromkeys(args.ids))
    if not ids:
        raise InvalidParameter(
            "ids", [], "one or more result ids (see `shufflekit list results`) or --all"
        )
    unknown = [i for i in ids if i not in RESULTS]
    if unknown:
        raise InvalidParameter("ids", unknown[0], "result ids (see `shufflekit list results`)")
    write(document(ids) if args.document else fragments(ids), args.output)
    return 0
