"""The ``compose`` command: certified privacy of T shuffled rounds composed (PLD convolution).

``shufflekit compose krr --k 10 --eps0 4 --n 100000 --rounds 1000 --delta 1e-6`` prints an
upper bound on epsilon(delta) of 1000 rounds; ``--schedule`` takes a JSON list of
heterogeneous rounds, e.g. ``'[{"name": "krr", "k": 10, "eps0": 4, "n": 100000, "rounds": 500},
{"name": "rr", "eps0": 1, "n": 1000, "rounds": 20}]'`` (MECH is then ignored); ``--lower``
adds the composed exact-pair lower bound for binary randomized response (``rr``).

A thin handler: the accountant comes from :mod:`shufflekit.numeric.composition`; the points have
the shape of ``profile``'s (:meth:`~shufflekit.numeric.bound.Bound.point`).
"""
from __future__ import annotations

import argparse
import json

from shufflekit.cli import arguments as a
from shufflekit.cli.arguments import (MECHANISM_OPTIONS, add_mechanism_arguments,
                                      add_sigma_arguments, arg_type, build_mechanism,
                                      central_gaussian_sigma, delta_type, epsilon_type, exact,
                                      integer, matrix, n_type, real, unused_mechanism_options)
from shufflekit.cli.output import add_output_arguments, columns, emit, table
from shufflekit.errors import InvalidParameter

NAME = "compose"
HELP = "certified privacy of T composed shuffled rounds (upper, optional exact-pair lower)"

POINT_COLUMNS = ("epsilon", "delta", "bound", "error", "lo", "hi", "method", "seconds", "note")
#: keys of one round of --schedule besides the mechanism options
ROUND_KEYS = ("name", "n", "rounds", "method", "adjacency", "sigma", "noise_multiplier")
SCHEDULE_OPTIONS = (*MECHANISM_OPTIONS, "hash_family")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from shufflekit.numeric.composition import MAX_ROUNDS

    add_mechanism_arguments(p, extra_names=("central-gaussian",
                                            "any name when --schedule is given (ignored)"))
    p.add_argument("--n", type=n_type, default=None,
                   help="number of users per round, integer >= 1 (required unless --schedule)")
    p.add_argument("--rounds", type=integer("rounds", 1, MAX_ROUNDS), default=1,
                   help=f"number T of identical rounds, integer in [1, {MAX_ROUNDS:.0e}]")
    p.add_argument("--method", default=None,
                   help="accounting method of each round (see `shufflekit list methods`); "
                        "default: the registry's default for the mechanism; central-gaussian: "
                        "exact")
    p.add_argument("--schedule", default=None, metavar="JSON",
                   help="heterogeneous rounds instead of MECH: a JSON list of objects, each with "
                        "'name', 'n', optional 'rounds' (default 1), 'method', 'adjacency', the "
                        "mechanism options (k, eps0, ...) and, for central-gaussian, 'sigma' or "
                        "'noise_multiplier'")
    p.add_argument("--epsilon", type=epsilon_type, nargs="+", default=None,
                   help="epsilon values >= 0 (nats): print delta(epsilon) at each")
    p.add_argument("--delta", type=delta_type, nargs="+", default=None,
                   help="delta values in (0, 1): print epsilon(delta) at each")
    p.add_argument("--grid", type=real("grid", 0, 1, lo_open=True), default=None,
                   help="privacy-loss grid in (0, 1] (nats), rounded down to a power of two "
                        "(default: 2^-10)")
    p.add_argument("--tail", type=real("tail", 0, 1, lo_open=True, hi_open=True), default=None,
                   help="profile level in (0, 1) below which a round's curve becomes mass at "
                        "infinite loss (default: 1e-20)")
    p.add_argument("--lower", action="store_true",
                   help="also print the composed exact boundary-pair lower bound (binary rr only)")
    add_sigma_arguments(p)
    add_output_arguments(p, ("table", "json", "csv"))


def check_key(key: str, value):
    """One value of a --schedule round, checked with the type of the option of the same name."""
    from shufflekit.numeric.composition import MAX_ROUNDS

    types = {"n": n_type, "rounds": integer("rounds", 1, MAX_ROUNDS),
             "k": integer("k", 2, a.MAX_K), "m": integer("m", 1, 4),
             "eps0": exact("eps0", 0, a.MAX_EPS0, lo_open=True),
             "p": exact("p", 0, 1, lo_open=True, hi_open=True), "theta": exact("theta", -1, 1),
             "d": integer("d", 1, a.MAX_D), "gamma": exact("gamma", 0, 1, lo_open=True),
             "sigma0": exact("sigma0", 0, None, lo_open=True),
             "matrix": arg_type(matrix, "matrix"),
             "sigma": real("sigma", a.SIGMA_MIN, a.SIGMA_MAX),
             "noise_multiplier": real("noise_multiplier", a.SIGMA_MIN, 1e12)}
    if key not in types:
        if not isinstance(value, str):
            raise InvalidParameter(f"schedule {key}", value, "a string")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidParameter(f"schedule {key}", value, "a number (or, for matrix, a string)")
    try:
        return types[key](str(value) if not isinstance(value, float) else repr(value))
    except argparse.ArgumentTypeError as exc:
        raise InvalidParameter(f"schedule {key}", value, str(exc).split("; allowed ", 1)[-1]
                               ) from None


def schedule_rounds(text: str):
    """The :class:`~shufflekit.numeric.composition.Round` s of a --schedule JSON text."""
    from shufflekit.mechanisms import make
    from shufflekit.numeric.composition import Round

    allowed = "a non-empty JSON list of objects with at least 'name' and 'n'"
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidParameter("schedule", text, allowed, f"not JSON: {exc}") from None
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        raise InvalidParameter("schedule", text, allowed)
    out = []
    for it in items:
        unknown = set(it) - set(ROUND_KEYS) - set(SCHEDULE_OPTIONS)
        if "n" not in it or "name" not in it or unknown:
            raise InvalidParameter("schedule", json.dumps(it), allowed + " and the keys "
                                   + ", ".join((*ROUND_KEYS, *SCHEDULE_OPTIONS)),
                                   f"unknown key {sorted(unknown)[0]!r}" if unknown else None)
        v = {k: check_key(k, x) for k, x in it.items()}
        if v["name"] == "central-gaussian":
            mech = {"name": "central-gaussian",
                    "sigma": central_gaussian_sigma(v.get("sigma"), v.get("noise_multiplier"),
                                                    v["n"])}
        else:
            mech = make(v["name"], **{k: v[k] for k in SCHEDULE_OPTIONS if k in v})
        out.append(Round(mech, v["n"], v.get("rounds", 1), v.get("method"), v.get("adjacency")))
    return out


def notes_of(args: argparse.Namespace) -> list[str]:
    """A note for every given option the composition does not use."""
    if args.schedule:
        given = [o for o in (*MECHANISM_OPTIONS, "n", "sigma", "noise_multiplier", "method",
                             "adjacency") if getattr(args, o, None) is not None]
        notes = [f"--{o.replace('_', '-')} does not apply with --schedule; ignored" for o in given]
        if args.rounds != 1:
            notes.append("--rounds does not apply with --schedule (give 'rounds' per entry); "
                         "ignored")
        return notes
    if args.name == "central-gaussian":
        notes = [f"--{o} does not apply to central-gaussian; ignored" for o in MECHANISM_OPTIONS
                 if getattr(args, o, None) is not None]
        if args.adjacency is not None:
            notes.append("--adjacency does not apply: GM(sigma) has one sensitivity (1/n)")
        return notes
    notes = unused_mechanism_options(args)
    for opt in ("sigma", "noise_multiplier"):
        if getattr(args, opt) is not None:
            notes.append(f"--{opt.replace('_', '-')} applies to central-gaussian only; ignored")
    return notes


def build_payload(args: argparse.Namespace) -> dict:
    from shufflekit.numeric import composition as comp
    from shufflekit.numeric.dominating_pair import DEFAULT_GRID, DEFAULT_TAIL

    if args.epsilon is None and args.delta is None:
        raise InvalidParameter("epsilon/delta", None, "at least one of --epsilon E... or "
                               "--delta D...")
    grid = DEFAULT_GRID if args.grid is None else args.grid
    tail = DEFAULT_TAIL if args.tail is None else args.tail
    notes = notes_of(args)
    if args.schedule:
        acc = comp.composed_accountant(schedule=schedule_rounds(args.schedule), grid=grid,
                                       tail=tail)
    else:
        if args.n is None:
            raise InvalidParameter("n", None, "an integer >= 1 (--n N)")
        if args.name == "central-gaussian":
            mech = {"name": "central-gaussian",
                    "sigma": central_gaussian_sigma(args.sigma, args.noise_multiplier, args.n)}
        else:
            mech = build_mechanism(args)
        acc = comp.composed_accountant(mech, args.n, args.rounds, method=args.method,
                                       adjacency=args.adjacency, grid=grid, tail=tail)
    accs = [acc]
    if args.lower:
        if args.schedule or args.name != "rr" or args.eps0 is None:
            raise InvalidParameter("lower", True, "binary randomized response (rr --eps0 E) "
                                   "without --schedule", "the exact pair is known for rr only")
        accs.append(comp.exact_pair_lower(exact_float(args.eps0), args.n, args.rounds))
    profiles = [a.profile(epsilons=args.epsilon, deltas=args.delta) for a in accs]
    if len(profiles) == 2:          # say how far the upper bound is above the exact pair
        ups = [u.with_(note="; ".join(x for x in (u.note, comp.gap_note(u, lo)) if x))
               for u, lo in zip(profiles[0].bounds, profiles[1].bounds)]
        profiles[0] = profiles[0].__class__(tuple(ups), profiles[0].method, profiles[0].kind,
                                            profiles[0].n, profiles[0].adjacency,
                                            profiles[0].mechanism)
    payload = profiles[0].as_dict()
    payload.update(rounds=acc.rounds, grid=acc.grid, round_off_budget=acc.error,
                   points=[b.point() for prof in profiles for b in prof.bounds])
    if not isinstance(payload.get("mechanism"), dict):
        payload["mechanism"] = {"name": str(payload.get("mechanism"))}
    if notes:
        payload["notes"] = notes
    return payload


def exact_float(text: str) -> float:
    """The float value of an exact option text such as ``1/2`` or ``log(3)``."""
    import sympy

    return float(sympy.sympify(text))


def run(args: argparse.Namespace) -> int:
    payload = build_payload(args)
    head = {k: payload.get(k) for k in ("method", "kind", "n", "adjacency", "rounds")}
    head["loss grid"] = payload["grid"]
    head["round-off budget"] = payload["round_off_budget"]
    text = [table({"mechanism": payload["mechanism"], **head})]
    if payload.get("notes"):
        text += ["notes:", *("  " + n for n in payload["notes"])]
    rows = [{k: p.get(k) for k in POINT_COLUMNS} for p in payload["points"]]
    text += ["", columns(rows)]
    emit(payload, args.format, "\n".join(text), output=args.output, records=payload["points"])
    return 0
