"""The ``series`` command: print a derived asymptotic expansion as text, LaTeX or JSON."""
from __future__ import annotations

import argparse

from shufflekit.cli.output import emit

NAME = "series"
HELP = "print a derived asymptotic expansion"


def add_arguments(se: argparse.ArgumentParser) -> None:
    se.add_argument("id", help="series id, e.g. gaussian-local.sigma2-in-chi")
    se.add_argument("--order", type=int, default=4, help="number of terms")
    se.add_argument("--format", default="text", choices=["json", "latex", "text"])


def run(args: argparse.Namespace) -> int:
    from shufflekit.symbolic.results import series_payload

    payload, der = series_payload(args.id, args.order)
    if args.format == "json":
        emit(payload, "json")
    elif args.format == "latex":
        print(f"{der.lhs} = {der.result.latex()}")
    else:
        print(f"{payload['id']}: {payload['lhs_text']} as {payload['expansion_in']}")
        print(f"  = {der.result.text()}")
    return 0
