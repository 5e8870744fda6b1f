"""The ``list`` command: the names a user can pass to the other commands."""

from __future__ import annotations

import argparse

from shufflekit.cli.output import add_output_arguments, columns, emit

NAME = "list"
HELP = "list mechanisms, accounting methods, series ids, LaTeX result ids or claims"

WHAT = ("mechanisms", "methods", "series", "results", "claims")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "what",
        choices=WHAT,
        help="mechanisms (for mechanism/profile), methods (for profile --method), "
        "series (for series), results (for latex), claims (for verify --only)",
    )
    add_output_arguments(p, ("table", "json", "csv"))


def records(what: str) -> list[dict]:
    """One record per listed name."""
    if what == "mechanisms":
        from shufflekit.mechanisms import MECHANISMS

        return [
            {
                "name": s.name,
                "required": ",".join(s.required) or "-",
                "optional": ",".join(s.optional) or "-",
                "summary": s.summary,
                "source": s.source,
            }
            for s in MECHANISMS.values()
        ]
    if what == "methods":
        from shufflekit.numeric.accountant import methods

        return [
            {
                "name": m.name,
                "kind": str(m.kind),
                "adjacencies": ",".join(m.adjacencies),
                "summary": m.summary,
            }
            for m in methods()
        ]
    if what in ("series", "results"):
        from shufflekit.symbolic.results import RESULTS, SERIES_IDS, describe

        ids = SERIES_IDS if what == "series" else tuple(sorted(RESULTS))
        return [
            {"id": i, "summary": describe(i) if i in RESULTS else ""} for i in dict.fromkeys(ids)
        ]
    from shufflekit.verify.claims import load_catalog

    claims = load_catalog().select(None)
    return [
        {"id": c.id, "paper": c.paper, "section": c.section, "expected": c.expected}
        for c in sorted(claims, key=lambda c: (c.paper, c.section, c.id))
    ]


def run(args: argparse.Namespace) -> int:
    rows = records(args.what)
    emit({args.what: rows}, args.format, columns(rows), output=args.output, records=rows)
    return 0
