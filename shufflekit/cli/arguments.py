"""Shared argument helpers for the command line: number lists and the mechanism options."""
from __future__ import annotations

import argparse


def floats(text: str) -> list[float]:
    try:
        return [float(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ValueError(f"could not read a comma-separated list of numbers from {text!r}") from None


def add_mechanism_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="rr, krr, blh, rappor, oue, hr, joint-krr, privunit, gaussian-local, "
                               "bmg, central-gaussian (profile only), finite")
    p.add_argument("--k", type=int, help="alphabet size")
    p.add_argument("--m", type=int, help="number of jointly composed components (joint-krr)")
    p.add_argument("--eps0", type=str, help="local epsilon")
    p.add_argument("--p", type=str, help="keep probability (rr) / cap probability (privunit)")
    p.add_argument("--theta", type=str, help="PrivUnit cap threshold in [-1, 1]")
    p.add_argument("--d", type=int, help="dimension")
    p.add_argument("--gamma", type=str, help="blanket mass in (0, 1] (bmg)")
    p.add_argument("--sigma0", type=str, help="Gaussian scale (gaussian-local, bmg)")
    p.add_argument("--sigma", type=str, help="central Gaussian noise multiplier (central-gaussian)")
    p.add_argument("--matrix", type=str,
                   help="finite mechanism rows separated by ';', entries by ',' (e.g. '0.7,0.3;0.2,0.8')")
    p.add_argument("--hash-family", default="all", choices=["all", "nonconstant"], help="BLH hash family")
    p.add_argument("--adjacency", default=None, choices=["zero-out", "replace-one"])


def build_mechanism(args: argparse.Namespace):
    from shufflekit.mechanisms import make

    matrix = None
    if args.matrix:
        matrix = [floats(row) for row in args.matrix.split(";")]
    return make(args.name, k=args.k, m=getattr(args, "m", None), eps0=args.eps0, p=args.p,
                theta=args.theta, d=args.d, gamma=args.gamma, sigma0=args.sigma0, matrix=matrix,
                hash_family=args.hash_family if args.name == "blh" else None)
