"""The ``check-expansion`` command: check your own asymptotic expansion, term by term.

Exit status 0 when every check confirms the claim, 1 when a term is refuted or undecided,
2 on bad input.
"""
from __future__ import annotations

import argparse

from shufflekit.cli.output import emit

NAME = "check-expansion"
HELP = "check a claimed asymptotic expansion (symbolic, fitted order, certified bound)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("claimed", help="the claimed sum of terms, e.g. 'chi**2 + 9/2 - 145/12*chi**-2'")
    p.add_argument("--var", default="x", help="the variable of the expansion (default x)")
    p.add_argument("--at", default="oo", choices=["oo", "0"], help="expansion as var -> oo or var -> 0+")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--function", help="f as an expression in --var")
    src.add_argument("--inverse-of", dest="inverse_of",
                     help="reversion: g(u) with var = g(u); the claim is about --quantity as a function of var")
    p.add_argument("--of", help="the variable u of --inverse-of")
    p.add_argument("--quantity", help="q(u), the quantity expanded in a reversion (default u)")
    p.add_argument("--order", help="exponent p of the claimed O(var^p) (default: next derived exponent)")
    p.add_argument("--dps", type=int, default=50, help="decimal digits of every numeric evaluation (default 50)")
    p.add_argument("--grid", nargs=2, type=float, metavar=("LO", "HI"),
                   help="range of the geometric grid for the fitted slopes")
    p.add_argument("--points", type=int, default=8, help="grid points (default 8)")
    p.add_argument("--certify-range", nargs=2, metavar=("X0", "X1"),
                   help="finite range of the certified remainder bound (default: first decade of the grid)")
    p.add_argument("--no-certify", action="store_true", help="skip the certified remainder bound")
    p.add_argument("--budget", type=int, default=10000, help="box budget of each certified extremum (default 10000)")
    p.add_argument("--format", default="text", choices=["text", "json", "latex"])


def run(args: argparse.Namespace) -> int:
    from shufflekit.verify.expansion import check_expansion

    report = check_expansion(args.function, args.claimed, args.var, at=args.at, order=args.order,
                             inverse_of=args.inverse_of, of=args.of, quantity=args.quantity, dps=args.dps,
                             grid=tuple(args.grid) if args.grid else None, points=args.points,
                             certify_range=tuple(args.certify_range) if args.certify_range else None,
                             certify=not args.no_certify, budget=args.budget)
    if args.format == "json":
        emit(report.as_dict(), "json")
    elif args.format == "latex":
        print(report.latex())
    else:
        print(report.table())
    return 0 if report.verdict == "confirmed" else 1
