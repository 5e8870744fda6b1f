"""The ``compose`` command: certified privacy of T shuffled rounds composed (PLD convolution).

``shufflekit compose krr --k 10 --eps0 4 --n 100000 --rounds 1000 --delta 1e-6`` prints an
upper bound on epsilon(delta) of 1000 rounds; ``--schedule`` takes a JSON list of
heterogeneous rounds, e.g. ``'[{"name": "krr", "k": 10, "eps0": 4, "n": 100000, "rounds": 500},
{"name": "rr", "eps0": 1, "n": 1000, "rounds": 20}]'`` (MECH is then ignored); ``--lower``
adds the composed exact-pair lower bound for binary randomized response (``rr``).
"""
from __future__ import annotations

import argparse
import csv
import io
import json

from shufflekit.cli.arguments import add_mechanism_arguments, build_mechanism
from shufflekit.cli.output import emit
from shufflekit.errors import InvalidParameter

NAME = "compose"
HELP = "certified privacy of T composed shuffled rounds (upper, optional exact-pair lower)"

MECHANISM_KEYS = ("k", "m", "eps0", "p", "theta", "d", "gamma", "sigma0", "matrix", "hash_family")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(p)
    p.add_argument("--n", type=int, default=None, help="number of users per round")
    p.add_argument("--rounds", type=int, default=1, help="number of identical rounds T")
    p.add_argument("--method", default=None, help="accounting method of each round (registry name)")
    p.add_argument("--schedule", default=None,
                   help="JSON list of rounds: {name, mechanism options, n, rounds, method}")
    p.add_argument("--epsilon", type=float, nargs="+", default=None)
    p.add_argument("--delta", type=float, nargs="+", default=None)
    p.add_argument("--grid", type=float, default=None,
                   help="privacy-loss grid (rounded down to a power of two; default 2^-10)")
    p.add_argument("--tail", type=float, default=None,
                   help="profile level below which a round's curve becomes mass at infinite loss "
                        "(default 1e-20)")
    p.add_argument("--lower", action="store_true",
                   help="also print the composed exact boundary-pair lower bound (binary rr only)")
    p.add_argument("--format", default="table", choices=["json", "table", "csv"])


def _mechanism_of(spec: dict):
    from shufflekit.mechanisms import make

    name = spec.get("name")
    if name == "central-gaussian":
        if spec.get("sigma") is None:
            raise InvalidParameter("sigma", None, "a number > 0 for central-gaussian")
        return {"name": "central-gaussian", "sigma": float(spec["sigma"])}
    params = {k: spec[k] for k in MECHANISM_KEYS if k in spec}
    if "matrix" in params and isinstance(params["matrix"], str):
        params["matrix"] = [[float(x) for x in row.split(",")] for row in params["matrix"].split(";")]
    return make(name, **params)


def _schedule(text: str):
    from shufflekit.numeric.composition import Round

    try:
        items = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidParameter("schedule", text, "a JSON list of rounds", str(exc)) from None
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        raise InvalidParameter("schedule", text, "a non-empty JSON list of objects")
    out = []
    for it in items:
        if "n" not in it or "name" not in it:
            raise InvalidParameter("schedule", it, "objects with at least 'name' and 'n'")
        out.append(Round(_mechanism_of(it), int(it["n"]), int(it.get("rounds", 1)),
                         it.get("method"), it.get("adjacency")))
    return out


def build_payload(args: argparse.Namespace) -> dict:
    from shufflekit.numeric import composition as comp
    from shufflekit.numeric.dominating_pair import DEFAULT_GRID, DEFAULT_TAIL

    if args.epsilon is None and args.delta is None:
        raise InvalidParameter("epsilon/delta", None, "--epsilon E ... or --delta D ...")
    grid = DEFAULT_GRID if args.grid is None else args.grid
    tail = DEFAULT_TAIL if args.tail is None else args.tail
    if args.schedule:
        sched = _schedule(args.schedule)
        acc = comp.composed_accountant(schedule=sched, grid=grid, tail=tail)
    else:
        if args.n is None:
            raise InvalidParameter("n", None, "an integer >= 1 (--n N)")
        if args.name == "central-gaussian":
            mech = _mechanism_of({"name": "central-gaussian", "sigma": args.sigma})
        else:
            mech = build_mechanism(args)
        acc = comp.composed_accountant(mech, args.n, args.rounds, method=args.method,
                                       adjacency=args.adjacency, grid=grid, tail=tail)
    accs = [acc]
    if args.lower:
        if args.schedule or args.name != "rr" or args.eps0 is None:
            raise InvalidParameter("lower", True, "binary randomized response (rr --eps0 E) "
                                   "without --schedule", "the exact pair is known for rr only")
        accs.append(comp.exact_pair_lower(float(_eval(args.eps0)), args.n, args.rounds))
    profiles = [a.profile(epsilons=args.epsilon, deltas=args.delta) for a in accs]
    if len(profiles) == 2:          # say how far the upper bound is above the exact pair
        from shufflekit.numeric.composition import gap_note

        ups = [u.with_(note="; ".join(x for x in (u.note, gap_note(u, l)) if x))
               for u, l in zip(profiles[0].bounds, profiles[1].bounds)]
        profiles[0] = profiles[0].__class__(tuple(ups), profiles[0].method, profiles[0].kind,
                                            profiles[0].n, profiles[0].adjacency,
                                            profiles[0].mechanism)
    points = [b.point() for prof in profiles for b in prof.bounds]
    return {"mechanism": acc.mechanism if isinstance(acc.mechanism, dict) else {},
            "n": acc.n, "rounds": acc.rounds, "method": acc.method, "grid": acc.grid,
            "round_off_budget": acc.error, "points": points}


def _eval(text):
    import sympy

    return float(sympy.sympify(text))


def run(args: argparse.Namespace) -> int:
    payload = build_payload(args)
    if args.format == "json":
        emit(payload, "json")
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        cols = ("epsilon", "delta", "bound", "error", "method", "note")
        w.writerow(cols)
        for pt in payload["points"]:
            w.writerow([pt[c] for c in cols])
        emit(payload, "table", table=buf.getvalue().rstrip("\n"))
    else:
        head = (f"{payload['rounds']} rounds, n={payload['n']}, method {payload['method']}, "
                f"loss grid {payload['grid']:g}, round-off budget {payload['round_off_budget']:.2g}")
        rows = [f"{'epsilon':>14} {'delta':>14} {'bound':>6} {'error':>10}  method"]
        rows += [f"{pt['epsilon']:>14.8g} {pt['delta']:>14.6g} {pt['bound']:>6} "
                 f"{pt['error']:>10.2g}  {pt['method']}" for pt in payload["points"]]
        emit(payload, "table", table="\n".join([head] + rows))
    return 0
