"""The ``histogram`` command: exact fixed-composition accounting of a binary-input channel.

Each CSV row starts with the columns that name the law: ``mechanism`` (``histogram``), the
output laws ``w0`` and ``w1``, ``ones_among_others`` and ``n``.
"""

from __future__ import annotations

import argparse

from shufflekit.cli.arguments import arg_type, delta_type, epsilon_type, integer, numbers
from shufflekit.cli.output import add_output_arguments, columns, emit, labelled

#: largest n of the exact histogram law (arrays of length about n per output class)
HISTOGRAM_MAX_N = 10**7

NAME = "histogram"
HELP = "exact fixed-composition accounting of a binary-input channel (Shvets 2026)"


def add_arguments(hi: argparse.ArgumentParser) -> None:
    from shufflekit.numeric.methods.histogram import REPORT_FIELDS

    hi.formatter_class = argparse.RawDescriptionHelpFormatter
    width = max(len(k) for k, _ in REPORT_FIELDS)
    hi.epilog = "output fields (JSON keys; CSV columns of the epsilons/deltas rows):\n" + "\n".join(
        f"  {k:<{width}}  {v}" for k, v in REPORT_FIELDS
    )
    hi.add_argument(
        "--w0",
        required=True,
        type=arg_type(lambda t: numbers("w0", t, 0, 1), "w0"),
        help="output law W0 of input 0: comma-separated probabilities summing to 1 (required)",
    )
    hi.add_argument(
        "--w1",
        required=True,
        type=arg_type(lambda t: numbers("w1", t, 0, 1), "w1"),
        help="output law W1 of input 1, same length as --w0 (required)",
    )
    hi.add_argument(
        "--n",
        type=integer("n", 1, HISTOGRAM_MAX_N),
        required=True,
        help=f"number of users, integer in [1, {HISTOGRAM_MAX_N}] (the exact "
        "histogram law has O(n) support; required)",
    )
    hi.add_argument(
        "--ones-among-others",
        dest="ones",
        type=integer("ones-among-others", 0, 10**12),
        default=0,
        help="how many of the other n - 1 users hold input 1 (the fixed "
        "composition), integer in [0, n - 1]; default 0",
    )
    hi.add_argument(
        "--k",
        dest="ones_deprecated",
        type=integer("k", 0, 10**12),
        default=None,
        help=argparse.SUPPRESS,
    )  # old name of --ones-among-others
    hi.add_argument("--jsd", action="store_true", help="also compute the exact JSD")
    hi.add_argument(
        "--epsilon",
        type=epsilon_type,
        nargs="+",
        default=None,
        help="epsilon values >= 0 (nats) at which to print both directed deltas",
    )
    hi.add_argument(
        "--delta",
        type=delta_type,
        nargs="+",
        default=None,
        help="delta values in [1e-300, 1) at which to print the epsilons",
    )
    add_output_arguments(hi, ("table", "json", "csv"))


def run(args: argparse.Namespace) -> int:
    from shufflekit.numeric.methods.histogram import report

    if args.ones_deprecated is not None:
        import sys

        print(
            "shufflekit histogram: note: --k is deprecated here (it is the alphabet size "
            "elsewhere); use --ones-among-others",
            file=sys.stderr,
        )
        args.ones = args.ones_deprecated
    if args.ones >= args.n:
        from shufflekit.errors import InvalidParameter

        raise InvalidParameter("ones-among-others", args.ones, f"range [0, {args.n - 1}] (n - 1)")
    payload = report(
        args.w0,
        args.w1,
        args.n,
        args.ones,
        jsd=args.jsd,
        epsilons=args.epsilon or [],
        deltas=args.delta or [],
    )
    summary = {
        "W0": payload["w0"],
        "W1": payload["w1"],
        "n": payload["n"],
        "ones among others": payload["ones_among_others"],
        "pi = ones/n": payload["pi"],
        "i_pi (fixed composition)": payload["i_pi"],
        "i_mix (i.i.d. mixture)": payload["i_mix"],
        "chi2(W1||W0)": payload["chi2"],
        "mu_n = sqrt(i_pi/n)": payload["mu_fixed_composition"],
        "mu mixture": payload["mu_mixture"],
    }
    for key in ("jsd", "jsd_times_8n", "i_pi_over_8n", "p_mass_where_q_is_zero", "lost_mass"):
        if key in payload:
            summary[key] = payload[key]
    from shufflekit.cli.output import table

    parts = [table(summary)]
    if payload.get("epsilons"):
        parts += ["", columns(payload["epsilons"])]
    if payload.get("deltas"):
        parts += ["", columns(payload["deltas"])]
    head = {
        "mechanism": "histogram",
        "w0": ",".join(f"{w:g}" for w in args.w0),
        "w1": ",".join(f"{w:g}" for w in args.w1),
        "ones_among_others": args.ones,
        "n": args.n,
    }
    emit(
        payload,
        args.format,
        "\n".join(parts),
        output=args.output,
        records=labelled((payload.get("epsilons") or []) + (payload.get("deltas") or []), head),
    )
    return 0
