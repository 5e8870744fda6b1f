"""The ``mechanism`` command: print the blanket, GPARV law, shuffle indices and eps0 of a mechanism."""
from __future__ import annotations

import argparse

from shufflekit.cli.arguments import add_mechanism_arguments, build_mechanism
from shufflekit.cli.output import emit

NAME = "mechanism"
HELP = "blanket, GPARV law, shuffle indices and eps0 of a mechanism"


def add_arguments(m: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(m)
    m.add_argument("--epsilon", type=str, default="0", help="epsilon of the GPARV law")
    m.add_argument("--format", default="table", choices=["json", "table"])


def run(args: argparse.Namespace) -> int:
    from shufflekit.mechanisms.describe import describe

    mech = build_mechanism(args)
    payload = describe(mech, epsilon=args.epsilon, adjacency=args.adjacency)
    emit(payload, args.format)
    return 0
