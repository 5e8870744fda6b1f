"""The ``design`` command: optimise a mechanism's parameters for a target (epsilon, delta)."""

from __future__ import annotations

import argparse

from shufflekit.cli.arguments import MAX_D, delta_type, integer, real
from shufflekit.cli.output import add_output_arguments, emit, table

NAME = "design"
HELP = "optimise a mechanism's parameters for a target (epsilon, delta)"


def add_arguments(de: argparse.ArgumentParser) -> None:
    de.add_argument("name", choices=["bmg"], help="mechanism to design (bmg)")
    de.add_argument(
        "--n",
        type=integer("n", 2, 10**9),
        required=True,
        help="number of users, integer in [2, 1e9] (required)",
    )
    de.add_argument(
        "--epsilon",
        type=real("epsilon", 0, 50, lo_open=True),
        required=True,
        help="target epsilon in (0, 50] (nats; required)",
    )
    de.add_argument(
        "--delta", type=delta_type, required=True, help="target delta in [1e-300, 1) (required)"
    )
    de.add_argument(
        "--d",
        type=integer("d", 1, MAX_D),
        default=1,
        help=f"dimension, integer in [1, {MAX_D}] (default: 1)",
    )
    de.add_argument(
        "--method",
        default="certified",
        choices=["certified", "index"],
        help="certified (default): least RMSE whose certified blanket bound meets "
        "(eps, delta); index: Takagi-Liew 2026 Sec. 4.2 design at the chi_lo with "
        "f_{n,eps}(chi_lo) = delta (not certified)",
    )
    add_output_arguments(de)


def run(args: argparse.Namespace) -> int:
    from shufflekit.numeric.design import bmg_design

    if args.method == "index":
        design = bmg_design.design_by_index(args.n, args.epsilon, args.delta, d=args.d)
    else:
        design = bmg_design.design_for_privacy(args.n, args.epsilon, args.delta, d=args.d)
    payload = design.as_dict()
    summary = {
        "target": {
            "n": design.n,
            "epsilon": design.epsilon,
            "delta": design.delta,
            "d": design.d,
            "method": args.method,
        },
        "bmg": {
            "gamma": design.gamma,
            "sigma0": design.sigma0,
            "rmse": design.rmse,
            "certified delta": design.certified_delta,
            "chi_lo": payload.get("bmg", {}).get("chi_lo"),
        },
        "central gaussian": {"sigma": design.gm_sigma, "rmse": design.gm_rmse},
        "rmse ratio bmg/gm": design.rmse / design.gm_rmse,
    }
    emit(payload, args.format, table(summary), output=args.output)
    return 0
