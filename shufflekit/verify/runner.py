"""Run registered claims (with a progress bar) and summarise the verdicts."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable

from tqdm import tqdm

from shufflekit.verify.claims import REGISTRY, VERDICTS, CheckContext, Claim, Result, load_catalog


def run_claims(
    claims: Iterable[Claim], ctx: CheckContext | None = None, *, progress: bool = True
) -> list[Result]:
    """Run each claim's check; a check that raises is reported, never hidden.  The progress
    bar is drawn when ``progress`` is true and standard error is a terminal."""
    claims = list(claims)
    ctx = ctx or CheckContext()
    results = []
    bar = tqdm(
        claims,
        desc="verifying",
        unit="claim",
        file=sys.stderr,
        disable=not (progress and getattr(sys.stderr, "isatty", lambda: False)()),
        leave=False,
    )
    for c in bar:
        bar.set_postfix_str(c.id[-40:])
        results.append(c.run(ctx))
    return results


EXIT_OK, EXIT_VERDICT_CHANGED, EXIT_CHECK_ERROR = 0, 1, 4


def summarise(results: list[Result]) -> dict:
    """Counts per verdict, the claims whose verdict changed, and those whose check raised."""
    counts = Counter(r.outcome.verdict for r in results)
    regressions = [r.claim.id for r in results if r.regression]
    errors = [r.claim.id for r in results if r.errored]
    return {
        "total": len(results),
        **{v: counts.get(v, 0) for v in VERDICTS},
        "kinds": dict(Counter(r.claim.kind for r in results)),
        "regressions": regressions,
        "errors": errors,
        "seconds": round(sum(r.seconds for r in results), 3),
        "ok": not regressions and not errors,
    }


def exit_status(results: list[Result]) -> int:
    """4 when any check raised, else 1 when any verdict differs from its expectation, else 0."""
    s = summarise(results)
    if s["errors"]:
        return EXIT_CHECK_ERROR
    return EXIT_VERDICT_CHANGED if s["regressions"] else EXIT_OK


def run(
    pattern: str | None = None,
    *,
    quick: bool = True,
    thorough: bool = False,
    dps: int = 50,
    progress: bool = False,
) -> list[Result]:
    """Run the registered claims matching ``pattern`` (the catalog plus your own)."""
    load_catalog()
    return run_claims(
        REGISTRY.select(pattern),
        CheckContext(quick=quick, thorough=thorough, dps=dps),
        progress=progress,
    )
