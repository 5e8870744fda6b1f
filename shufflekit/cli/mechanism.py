"""The ``mechanism`` command: print the blanket, GPARV law, shuffle indices and eps0 of a mechanism.

Numeric parameters are printed as numbers (``params``: an integer where the parameter is one,
else the nearest float; the GPARV law's ``epsilon`` likewise); their exact values, as sympy
text, are in ``params_exact`` and ``epsilon_exact``.
"""

from __future__ import annotations

import argparse
from typing import Any

from shufflekit.cli.arguments import (
    add_mechanism_arguments,
    build_mechanism,
    epsilon_type,
    unused_mechanism_options,
)
from shufflekit.cli.output import add_output_arguments, emit

NAME = "mechanism"
HELP = "blanket, GPARV law, shuffle indices and eps0 of a mechanism"


def add_arguments(m: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(m)
    m.add_argument(
        "--epsilon",
        type=epsilon_type,
        default=0.0,
        help="epsilon >= 0 (nats) at which the GPARV law is formed (default: 0)",
    )
    add_output_arguments(m)


def run(args: argparse.Namespace) -> int:
    mech = build_mechanism(args)
    payload = numbers_for_json(mech.describe(epsilon=args.epsilon, adjacency=args.adjacency))
    notes = unused_mechanism_options(args)
    if notes:
        payload["notes"] = notes
    emit(payload, args.format, output=args.output)
    return 0


def as_number(value: Any) -> Any:
    """``value`` (a sympy number or its text) as an int if it is an integer, else a float; a
    value that is not a finite real number is returned as text."""
    import sympy as sp

    try:
        x = sp.sympify(value)
    except (sp.SympifyError, TypeError, ValueError):
        return str(value)
    if x.is_Integer:
        return int(x)
    if x.is_number and x.is_real and x.is_finite:
        return float(x)
    return str(value)


def numbers_for_json(payload: dict) -> dict:
    """The description with ``params`` and the GPARV ``epsilon`` as numbers (exact text kept
    beside them as ``params_exact`` / ``epsilon_exact``)."""
    out = dict(payload)
    params = out.get("params") or {}
    out["params"] = {k: as_number(v) for k, v in params.items()}
    out["params_exact"] = {k: str(v) for k, v in params.items()}
    law = out.get("gparv")
    if isinstance(law, dict) and "epsilon" in law:
        law = dict(law)
        law["epsilon_exact"] = str(law["epsilon"])
        law["epsilon"] = as_number(law["epsilon"])
        out["gparv"] = law
    return out
