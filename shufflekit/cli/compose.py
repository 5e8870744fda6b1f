"""The ``compose`` command: certified privacy of T shuffled rounds composed (PLD convolution).

``shufflekit compose krr --k 10 --eps0 4 --n 100000 --rounds 1000 --delta 1e-6`` prints an
upper bound on epsilon(delta) of 1000 rounds; ``--schedule`` takes a JSON list of
heterogeneous rounds (or a file holding one), e.g. ``'[{"name": "krr", "k": 10, "eps0": 4,
"n": 100000, "rounds": 500}, {"name": "rr", "eps0": 1, "n": 1000, "rounds": 20}]'`` (MECH is
then left out), all of one adjacency; ``--lower`` adds the composed exact-pair lower bound for
binary randomized response (``rr``).

A thin handler: the accountant comes from :mod:`shufflekit.numeric.composition.fixed`, which also
checks every round (:func:`~shufflekit.numeric.composition.fixed.round_of`); the points have the
shape of ``profile``'s (:meth:`~shufflekit.numeric.bound.Bound.point`).
"""

from __future__ import annotations

import argparse
import json
import math
import os

from shufflekit.cli.arguments import (
    MECHANISM_OPTIONS,
    add_mechanism_arguments,
    add_sampling_argument,
    add_sigma_arguments,
    build_mechanism,
    central_gaussian_sigma,
    delta_type,
    domain_type,
    epsilon_type,
    n_type,
    unused_mechanism_options,
)
from shufflekit.cli.output import add_output_arguments, columns, curve_head, emit, labelled, table
from shufflekit.errors import InvalidParameter
from shufflekit.validation import MAX_ROUNDS, MIN_GRID

NAME = "compose"
HELP = "certified privacy of T composed shuffled rounds (upper, optional exact-pair lower)"

POINT_COLUMNS = ("epsilon", "delta", "bound", "error", "lo", "hi", "method", "seconds", "note")
#: largest --schedule file read (a schedule is a short list of rounds)
MAX_SCHEDULE_BYTES = 1 << 20


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(
        p, extra_names=("central-gaussian",), name_optional="left out with --schedule"
    )
    p.add_argument(
        "--n",
        type=n_type,
        default=None,
        help="number of users per round, integer in [1, 1e9] (required unless --schedule)",
    )
    p.add_argument(
        "--rounds",
        type=domain_type("rounds"),
        default=1,
        help=f"number T of identical rounds, integer in [1, {MAX_ROUNDS:.0e}]",
    )
    p.add_argument(
        "--method",
        default=None,
        help="accounting method of each round (see `shufflekit list methods`); "
        "default: the registry's default for the mechanism; central-gaussian: "
        "exact",
    )
    p.add_argument(
        "--schedule",
        default=None,
        metavar="JSON|FILE",
        help="heterogeneous rounds instead of MECH: a JSON list of objects (or a file "
        "holding one), each with 'name', 'n', optional 'rounds' (default 1), "
        "'method', 'adjacency', 'sampling_rate', the mechanism's options (k, eps0, ...) "
        "and, for "
        "central-gaussian, 'sigma' or 'noise_multiplier' (not both); every "
        "round of one adjacency; an unknown key is an error",
    )
    p.add_argument(
        "--epsilon",
        type=epsilon_type,
        nargs="+",
        default=None,
        help="epsilon values >= 0 (nats): print delta(epsilon) at each",
    )
    p.add_argument(
        "--delta",
        type=delta_type,
        nargs="+",
        default=None,
        help="delta values in [1e-300, 1): print epsilon(delta) at each",
    )
    p.add_argument(
        "--grid",
        type=domain_type("grid"),
        default=None,
        help=f"privacy-loss grid in [2^{math.log2(MIN_GRID):.0f} = "
        f"{MIN_GRID:.3g}, 1] (nats), rounded down to a power of two (default: "
        "2^-10); the smallest grid keeps one round's loss law within one FFT",
    )
    p.add_argument(
        "--tail",
        type=domain_type("tail"),
        default=None,
        help="profile level in (0, 1) below which a round's curve becomes mass at "
        "infinite loss (default: 1e-20)",
    )
    p.add_argument(
        "--lower",
        action="store_true",
        help="also print the composed exact boundary-pair lower bound (binary rr only)",
    )
    add_sampling_argument(p)
    add_sigma_arguments(p)
    add_output_arguments(p, ("table", "json", "csv"))


def schedule_text(text: str, option: str = "schedule") -> str:
    """The JSON of ``--schedule`` (or ``--population``): the text itself, or the contents of
    the file it names."""
    if text.lstrip().startswith(("[", "{")) or not text.strip():
        return text
    allowed = "a JSON list, or a readable file holding one"
    if not os.path.isfile(text):
        raise InvalidParameter(option, text, allowed, "not JSON, and no such file")
    if os.path.getsize(text) > MAX_SCHEDULE_BYTES:
        raise InvalidParameter(
            option, text, allowed, f"a file larger than {MAX_SCHEDULE_BYTES} bytes"
        )
    try:
        with open(text, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidParameter(option, text, allowed, str(exc)) from None


def schedule_rounds(text: str):
    """The checked :class:`~shufflekit.numeric.composition.fixed.Round` s of a --schedule text."""
    from shufflekit.numeric.composition.fixed import round_of

    allowed = "a non-empty JSON list of objects with at least 'name' and 'n'"
    try:
        items = json.loads(schedule_text(text))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidParameter("schedule", text, allowed, f"not JSON: {exc}") from None
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        raise InvalidParameter("schedule", text, allowed)
    return [round_of(it) for it in items]


def notes_of(args: argparse.Namespace) -> list[str]:
    """A note for every given option the composition does not use."""
    if args.schedule is not None:
        given = [
            o
            for o in (
                *MECHANISM_OPTIONS,
                "n",
                "sigma",
                "noise_multiplier",
                "method",
                "adjacency",
                "sampling_rate",
            )
            if getattr(args, o, None) is not None
        ]
        notes = [f"--{o.replace('_', '-')} does not apply with --schedule; ignored" for o in given]
        if args.name is not None:
            notes.insert(0, f"MECH {args.name!r} does not apply with --schedule; ignored")
        if args.rounds != 1:
            notes.append(
                "--rounds does not apply with --schedule (give 'rounds' per entry); ignored"
            )
        return notes
    if args.name == "central-gaussian":
        notes = [
            f"--{o} does not apply to central-gaussian; ignored"
            for o in MECHANISM_OPTIONS
            if getattr(args, o, None) is not None
        ]
        if args.adjacency is not None:
            notes.append("--adjacency does not apply: GM(sigma) has one sensitivity (1/n)")
        return notes
    notes = unused_mechanism_options(args)
    for opt in ("sigma", "noise_multiplier"):
        if getattr(args, opt) is not None:
            notes.append(f"--{opt.replace('_', '-')} applies to central-gaussian only; ignored")
    return notes


def check_request(args: argparse.Namespace) -> None:
    """Everything that can be checked without computing: a target, a mechanism or a schedule
    (not both), --n, and what --lower needs."""
    if args.epsilon is None and args.delta is None:
        raise InvalidParameter(
            "epsilon/delta", None, "at least one of --epsilon E... or --delta D..."
        )
    if args.schedule is None:
        if args.name is None:
            raise InvalidParameter("name", None, "a mechanism name (MECH), or --schedule")
        if args.n is None:
            raise InvalidParameter("n", None, "an integer in [1, 1e9] (--n N)")
    if args.lower and (
        args.schedule is not None
        or args.name != "rr"
        or args.eps0 is None
        or args.sampling_rate is not None
    ):
        raise InvalidParameter(
            "lower",
            True,
            "binary randomized response (rr --eps0 E) without --schedule or --sampling-rate",
            "the exact pair is known for rr only",
        )


def build_payload(args: argparse.Namespace) -> dict:
    from shufflekit.numeric.composition import fixed as comp
    from shufflekit.numeric.composition.dominating_pair import DEFAULT_GRID, DEFAULT_TAIL

    check_request(args)
    grid = DEFAULT_GRID if args.grid is None else args.grid
    tail = DEFAULT_TAIL if args.tail is None else args.tail
    notes = notes_of(args)
    if args.schedule is not None:
        acc = comp.composed_accountant(
            schedule=schedule_rounds(args.schedule), grid=grid, tail=tail
        )
    else:
        if args.name == "central-gaussian":
            mech = {
                "name": "central-gaussian",
                "sigma": central_gaussian_sigma(args.sigma, args.noise_multiplier, args.n),
            }
        else:
            mech = build_mechanism(args)
        adjacency = None if args.name == "central-gaussian" else args.adjacency  # noted
        acc = comp.composed_accountant(
            mech,
            args.n,
            args.rounds,
            method=args.method,
            adjacency=adjacency,
            grid=grid,
            tail=tail,
            sampling_rate=args.sampling_rate,
        )
    accs = [acc]
    if args.lower:
        accs.append(comp.exact_pair_lower(exact_float(args.eps0), args.n, args.rounds))
    profiles = [a.profile(epsilons=args.epsilon, deltas=args.delta) for a in accs]
    if len(profiles) == 2:  # say how far the upper bound is above the exact pair
        ups = [
            u.with_(note="; ".join(x for x in (u.note, comp.gap_note(u, lo)) if x))
            for u, lo in zip(profiles[0].bounds, profiles[1].bounds)
        ]
        profiles[0] = profiles[0].__class__(
            tuple(ups),
            profiles[0].method,
            profiles[0].kind,
            profiles[0].n,
            profiles[0].adjacency,
            profiles[0].mechanism,
        )
    payload = profiles[0].as_dict()
    payload.update(
        rounds=acc.rounds,
        grid=acc.grid,
        round_off_budget=acc.error,
        points=[b.point() for prof in profiles for b in prof.bounds],
    )
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
    if head["n"] is None:
        head["n"] = "per round (see the schedule)"
    head["loss grid"] = payload["grid"]
    head["round-off budget"] = payload["round_off_budget"]
    text = [table({"mechanism": payload["mechanism"], **head})]
    if payload.get("notes"):
        text += ["notes:", *("  " + n for n in payload["notes"])]
    rows = [{k: p.get(k) for k in POINT_COLUMNS} for p in payload["points"]]
    text += ["", columns(rows)]
    head = curve_head(payload["mechanism"], payload.get("n"), rounds=payload.get("rounds"))
    emit(
        payload,
        args.format,
        "\n".join(text),
        output=args.output,
        records=labelled(payload["points"], head),
    )
    return 0
