"""The ``profile`` command: the shuffled privacy profile delta(eps) or eps(delta) of a mechanism.

A thin handler: the accountant comes from the method registry
(:func:`shufflekit.numeric.accountant.accountant`), the numbers from its ``get_delta`` /
``get_epsilon`` (through ``profile``); this module only parses and formats.  The output records
the method, the kind of bound, the adjacency, and a note for every option that does not apply.
"""

from __future__ import annotations

import argparse
import math

from shufflekit.cli.arguments import (
    MECHANISM_OPTIONS,
    add_mechanism_arguments,
    add_sampling_argument,
    add_sigma_arguments,
    build_mechanism,
    central_gaussian_sigma,
    delta_type,
    epsilon_type,
    n_type,
    real,
    unused_mechanism_options,
)
from shufflekit.cli.output import add_output_arguments, columns, curve_head, emit, labelled, table
from shufflekit.errors import InvalidParameter

NAME = "profile"
HELP = "shuffled privacy profile delta(eps) or eps(delta)"

POINT_COLUMNS = ("epsilon", "delta", "bound", "lo", "hi", "seconds", "note")


def add_arguments(pr: argparse.ArgumentParser) -> None:
    add_mechanism_arguments(
        pr, extra_names=("central-gaussian",), name_optional="left out with --population"
    )
    pr.add_argument(
        "--n",
        type=n_type,
        default=None,
        help="number of users, integer in [1, 1e9] (required unless --population)",
    )
    pr.add_argument(
        "--population",
        default=None,
        metavar="JSON|FILE",
        help="users holding different randomizers, shuffled together, instead of MECH and "
        "--n: a JSON list of groups (or a file holding one), each with 'name', 'n' and the "
        'mechanism\'s parameters, e.g. \'[{"name": "krr", "k": 10, "eps0": 4, '
        '"n": 5000}, {"name": "krr", "k": 10, "eps0": 2, "n": 5000}]\'; '
        "the bound is the worst changed user over all groups; an unknown key is an error",
    )
    pr.add_argument(
        "--method",
        default=None,
        help="accounting method (see `shufflekit list methods`); default: the "
        "registry's default for the mechanism; central-gaussian: exact or gdp",
    )
    pr.add_argument(
        "--epsilon",
        type=epsilon_type,
        nargs="+",
        default=None,
        help="epsilon values >= 0 (nats): print delta(epsilon) at each",
    )
    pr.add_argument(
        "--delta",
        type=delta_type,
        nargs="+",
        default=None,
        help="delta values in [1e-300, 1): print epsilon(delta) at each",
    )
    pr.add_argument(
        "--grid",
        type=real("grid", 0, math.inf, lo_open=True),
        default=None,
        help="lattice step l of the FFT methods, > 0 (default: chosen per epsilon so "
        "that a heavy GPARV atom lies on the lattice and the rounding loss is "
        "about 5%%)",
    )
    add_sampling_argument(pr)
    add_sigma_arguments(pr)
    add_output_arguments(pr, ("table", "json", "csv"))


def run(args: argparse.Namespace) -> int:
    if args.epsilon is None and args.delta is None:
        raise InvalidParameter(
            "epsilon/delta", None, "at least one of --epsilon E... or --delta D..."
        )
    if args.population is not None:
        payload = population_profile(args)
    elif args.name is None:
        raise InvalidParameter("name", None, "a mechanism name (MECH), or --population")
    elif args.n is None:
        raise InvalidParameter("n", None, "an integer in [1, 1e9] (--n N)")
    elif args.name == "central-gaussian":
        payload = central_gaussian(args)
    else:
        payload = registry_profile(args)
    head = {k: payload.get(k) for k in ("method", "kind", "n", "adjacency")}
    mech = payload.get("mechanism") or {}
    text = [table({"mechanism": mech if isinstance(mech, dict) else str(mech), **head})]
    if payload.get("notes"):
        text += ["notes:", *("  " + n for n in payload["notes"])]
    rows = [{k: p.get(k) for k in POINT_COLUMNS if k in p} for p in payload.get("points", [])]
    text += ["", columns(rows)]
    emit(
        payload,
        args.format,
        "\n".join(text),
        output=args.output,
        records=labelled(
            payload.get("points", []),
            curve_head(payload.get("mechanism"), payload.get("n", args.n)),
        ),
    )
    return 0


def population_groups(text: str) -> list[dict]:
    """The groups of a ``--population`` text (JSON, or a file holding it), as mappings."""
    import json

    from shufflekit.cli.compose import schedule_text

    allowed = "a non-empty JSON list of objects with at least 'name' and 'n'"
    try:
        items = json.loads(schedule_text(text, "population"))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidParameter("population", text, allowed, f"not JSON: {exc}") from None
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        raise InvalidParameter("population", text, allowed)
    return items


def population_profile(args: argparse.Namespace) -> dict:
    """Profile of a population of groups holding different randomizers."""
    from shufflekit.numeric.accountant import accountant

    notes = [
        f"--{o.replace('_', '-')} does not apply with --population; ignored"
        for o in (*MECHANISM_OPTIONS, "n", "sigma", "noise_multiplier")
        if getattr(args, o, None) is not None
    ]
    if args.name is not None:
        notes.insert(0, f"MECH {args.name!r} does not apply with --population; ignored")
    if args.grid is not None:
        notes.append("--grid does not apply with --population; ignored")
    acc = accountant(
        population_groups(args.population),
        method=args.method,
        adjacency=args.adjacency,
        sampling_rate=args.sampling_rate,
    )
    payload = acc.profile(epsilons=args.epsilon, deltas=args.delta).as_dict()
    payload["n"] = acc.n
    if notes:
        payload["notes"] = notes
    return payload


def registry_profile(args: argparse.Namespace) -> dict:
    """Profile of a mechanism by a registered accounting method."""
    from shufflekit.numeric.accountant import accountant, methods

    notes = unused_mechanism_options(args)
    for opt in ("sigma", "noise_multiplier"):
        if getattr(args, opt) is not None:
            notes.append(f"--{opt.replace('_', '-')} applies to central-gaussian only; ignored")
    mech = build_mechanism(args)
    options = {}
    if args.grid is not None:
        if args.method is not None and "fft" in args.method:
            options["l"] = args.grid
        else:
            notes.append(
                f"--grid applies to the FFT methods only, not to "
                f"{args.method or 'the default method'}; ignored"
            )
    if args.method is None and not methods(mech):
        reasons = "; ".join(f"{m.name}: {m.check(mech)}" for m in methods())
        raise InvalidParameter(
            "mechanism",
            args.name,
            "a mechanism some registered method supports (see `shufflekit list methods`)",
            reasons or None,
        )
    acc = accountant(
        mech,
        args.n,
        method=args.method,
        adjacency=args.adjacency,
        sampling_rate=args.sampling_rate,
        **options,
    )
    payload = acc.profile(epsilons=args.epsilon, deltas=args.delta).as_dict()
    if notes:
        payload["notes"] = notes
    return payload


def central_gaussian(args: argparse.Namespace) -> dict:
    """Exact profile of the central Gaussian mean estimator GM(sigma) (Takagi-Liew 2026, Sec. 5)."""
    from shufflekit.numeric.methods import gaussian

    notes = [
        f"--{opt} does not apply to central-gaussian; ignored"
        for opt in MECHANISM_OPTIONS
        if getattr(args, opt, None) is not None
    ]
    if args.adjacency is not None:
        notes.append("--adjacency does not apply: GM(sigma) has one sensitivity (1/n)")
    if args.grid is not None:
        notes.append("--grid does not apply to central-gaussian; ignored")
    if args.sampling_rate is not None:
        raise InvalidParameter(
            "sampling-rate",
            args.sampling_rate,
            "none for central-gaussian",
            "subsampling applies to a shuffled finite mechanism",
        )
    sigma = central_gaussian_sigma(args.sigma, args.noise_multiplier, args.n)
    method = args.method or "exact"
    if method not in ("exact", "gdp"):
        raise InvalidParameter("method", method, "one of exact, gdp (for central-gaussian)")
    prof = gaussian.central_gaussian_profile(sigma, args.n, args.epsilon, args.delta, method=method)
    payload = prof.as_dict()
    payload["mechanism"] = {
        **(payload.get("mechanism") or {}),
        "sigma_per_user": sigma,
        "noise_multiplier": sigma * math.sqrt(args.n),
    }
    if notes:
        payload["notes"] = notes
    return payload
