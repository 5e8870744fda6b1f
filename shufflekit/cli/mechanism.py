"""The ``mechanism`` command: print the blanket, GPARV law, shuffle indices and eps0 of a mechanism."""
from __future__ import annotations

import argparse

from shufflekit.cli.arguments import (add_mechanism_arguments, build_mechanism, epsilon_type,
                                      unused_mechanism_options)
from shufflekit.cli.output import add_output_arguments, emit

NAME = "mechanism"
HELP = "blanket, GPARV law, shuffle indices and eps0 of a mechanism"


def add_arguments(m: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(m)
    m.add_argument("--epsilon", type=epsilon_type, default=0.0,
                   help="epsilon >= 0 (nats) at which the GPARV law is formed (default: 0)")
    add_output_arguments(m)


def run(args: argparse.Namespace) -> int:
    mech = build_mechanism(args)
    payload = mech.describe(epsilon=args.epsilon, adjacency=args.adjacency)
    notes = unused_mechanism_options(args)
    if notes:
        payload["notes"] = notes
    emit(payload, args.format, output=args.output)
    return 0
