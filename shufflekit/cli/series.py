"""The ``series`` command: print a derived asymptotic expansion as text, LaTeX or JSON."""

from __future__ import annotations

import argparse

from shufflekit.cli.arguments import integer
from shufflekit.cli.output import add_output_arguments, emit, write

NAME = "series"
HELP = "print a derived asymptotic expansion"


def add_arguments(se: argparse.ArgumentParser) -> None:
    se.add_argument(
        "id", help="series id, e.g. gaussian-local.sigma2-in-chi (see `shufflekit list series`)"
    )
    se.add_argument(
        "--order",
        type=integer("order", 1, 40),
        default=None,
        help="number of terms, integer in [1, 40] (default: the series' own)",
    )
    add_output_arguments(se, ("text", "json", "latex"))


def run(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.results import series_payload

    payload, der = series_payload(args.id, args.order)
    if args.format == "json":
        emit(payload, "json", output=args.output)
    elif args.format == "latex":
        write(f"{der.lhs} = {der.result.latex()}", args.output)
    else:
        write(
            f"{payload['id']}: {payload['lhs_text']} as {payload['expansion_in']}\n"
            f"  = {der.result.text()}",
            args.output,
        )
    return 0
