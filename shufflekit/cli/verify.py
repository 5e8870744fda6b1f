"""The ``verify`` command: check every registered claim of the papers and report the results.

Exit status: 0 when every verdict equals its recorded expectation, 1 when a verdict changed,
4 when a check raised (verdict ``error``: a bug in a check, not a finding), 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys

NAME = "verify"
HELP = "check every registered claim of the papers and report"


def add_arguments(v: argparse.ArgumentParser) -> None:
    v.add_argument("--format", default="table", choices=["table", "json", "markdown", "latex"])
    v.add_argument("--only", default=None, help="glob or substring of claim ids/papers/sources")
    v.add_argument(
        "--list", action="store_true", help="list the claims grouped by paper and section"
    )
    v.add_argument(
        "--quick", action="store_true", help="trimmed grids, at most about 2 minutes (the default)"
    )
    v.add_argument(
        "--full",
        action="store_true",
        help="the papers' full grids and precision (at most about 15 minutes)",
    )
    v.add_argument("--thorough", action="store_true", help="heavier hypothesis profile")
    v.add_argument(
        "--dps",
        type=int,
        default=50,
        help="mpmath working precision of the high-precision checks, in decimal digits "
        "(default 50; a step written for more digits keeps its offset); 15 to 1000",
    )
    v.add_argument(
        "--mutate",
        action="store_true",
        help="mutation testing: corrupt each value a claim compares against (printed "
        "value, coefficient, table cell, order, inequality direction) and report "
        "whether the verdict changes; kill rate per paper; exit 1 when a mutant "
        "survives unexplained",
    )
    v.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only on a terminal)",
    )
    v.add_argument("-o", "--output", default=None, help="write the report to a file")
    v.add_argument(
        "--plugin",
        action="append",
        metavar="FILE.py",
        help="a Python file registering your own claims (repeatable)",
    )


def run(args: argparse.Namespace) -> int:
    from shufflekit.errors import InvalidParameter
    from shufflekit.verify import report
    from shufflekit.verify.claims import PAPERS, CheckContext, load_catalog, load_plugin
    from shufflekit.verify.runner import exit_status, run_claims

    registry = load_catalog()
    for path in args.plugin or []:
        load_plugin(path)
    claims = registry.select(args.only)
    if args.list:
        current = None
        for c in sorted(claims, key=lambda c: (c.paper, c.section, c.id)):
            if c.paper != current:
                current = c.paper
                print(f"\n[{c.paper}] {PAPERS.get(c.paper, c.paper)}")
            kind = "" if c.kind == "statement" else f"  [{c.kind}]"
            print(f"  {c.id:<46} {c.section:<22} expected: {c.expected}{kind}")
        print(f"\n{len(claims)} claims")
        return 0
    if not claims:
        raise ValueError(f"--only {args.only!r} matches no registered claim")
    if args.quick and args.full:
        raise ValueError("--quick and --full exclude each other")
    if not 15 <= args.dps <= 1000:
        raise InvalidParameter("dps", args.dps, "an integer in [15, 1000]")
    ctx = CheckContext(quick=not args.full, thorough=args.thorough, dps=args.dps)
    if args.mutate:
        return _mutate(claims, ctx, args)
    results = run_claims(claims, ctx, progress=not args.no_progress and sys.stderr.isatty())
    text = {
        "json": report.to_json,
        "markdown": report.to_markdown,
        "latex": report.to_latex,
        "table": report.to_table,
    }[args.format](results)
    _emit(text, args.output)
    return exit_status(results)


def _emit(text: str, output: str | None) -> None:
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        print(f"wrote {output}", file=sys.stderr)
    else:
        print(text)


def _mutate(claims, ctx, args: argparse.Namespace) -> int:
    from shufflekit.verify import report
    from shufflekit.verify.mutation import kill_rates, mutate_claims

    if args.format not in ("table", "json"):
        raise _invalid("format", args.format, "table or json with --mutate")
    records = mutate_claims(claims, ctx, progress=not args.no_progress and sys.stderr.isatty())
    rates = kill_rates(records)
    text = (
        report.mutation_json(records, rates)
        if args.format == "json"
        else report.mutation_table(records, rates)
    )
    _emit(text, args.output)
    return 1 if rates["survivors"] else 0


def _invalid(name, value, allowed):
    from shufflekit.errors import InvalidParameter

    return InvalidParameter(name, value, allowed)
