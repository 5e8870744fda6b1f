"""The ``design`` command: optimise a mechanism's parameters for a target (epsilon, delta)."""
from __future__ import annotations

import argparse

from shufflekit.cli.output import emit

NAME = "design"
HELP = "optimise a mechanism's parameters"


def add_arguments(de: argparse.ArgumentParser) -> None:
    de.add_argument("name", choices=["bmg"])
    de.add_argument("--n", type=int, required=True)
    de.add_argument("--epsilon", type=float, required=True)
    de.add_argument("--delta", type=float, required=True)
    de.add_argument("--d", type=int, default=1)
    de.add_argument("--method", default="certified", choices=["certified", "index"],
                    help="certified: least RMSE whose certified blanket bound meets (eps, delta); "
                         "index: the Sec. 4.2 design at the chi_lo with f_{n,eps}(chi_lo) = delta")
    de.add_argument("--format", default="table", choices=["json", "table"])


def run(args: argparse.Namespace) -> int:
    from shufflekit.numeric import bmg_design

    if getattr(args, "method", "certified") == "index":
        design = bmg_design.design_by_index(args.n, args.epsilon, args.delta, d=args.d)
    else:
        design = bmg_design.design_for_privacy(args.n, args.epsilon, args.delta, d=args.d)
    payload = design.as_dict()
    table = "\n".join([
        f"BMG design for n={design.n}, epsilon={design.epsilon:g}, delta={design.delta:g}, d={design.d}",
        f"  BMG: gamma={design.gamma:.6f}  sigma0={design.sigma0:.6f}  RMSE={design.rmse:.6g}  "
        f"(certified delta {design.certified_delta:.4g}, chi_lo {payload['bmg']['chi_lo']:.6g})",
        f"  central Gaussian: sigma={design.gm_sigma:.6g}  RMSE={design.gm_rmse:.6g}",
        f"  RMSE ratio BMG/GM: {design.rmse / design.gm_rmse:.6f}"])
    emit(payload, args.format, table)
    return 0
