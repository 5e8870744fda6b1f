"""The ``latex`` command: write derived results as LaTeX fragments or a standalone document."""
from __future__ import annotations

import argparse
import sys

NAME = "latex"
HELP = "write derived results as LaTeX"


def add_arguments(lx: argparse.ArgumentParser) -> None:
    lx.add_argument("ids", nargs="*", help="result ids (see --list)")
    lx.add_argument("--list", action="store_true", help="list the result ids")
    lx.add_argument("--all", action="store_true", help="every result")
    lx.add_argument("--document", action="store_true", help="a standalone article")
    lx.add_argument("-o", "--output", default=None, help="output file (default: stdout)")


def run(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.latex_document import document, fragments
    from shufflekit.symbolic.results import RESULTS, describe

    if args.list:
        for rid in sorted(RESULTS):
            print(f"{rid:<34} {describe(rid)}")
        return 0
    ids = sorted(RESULTS) if args.all else list(args.ids)
    if not ids:
        raise ValueError("give result ids (see --list) or --all")
    unknown = [i for i in ids if i not in RESULTS]
    if unknown:
        raise ValueError(f"unknown result id(s) {', '.join(unknown)}; see shufflekit latex --list")
    text = document(ids) if args.document else fragments(ids)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
