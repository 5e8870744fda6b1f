"""Run registered claims (with a progress bar) and summarise the verdicts."""
from __future__ import annotations

import sys
from collections import Counter
from typing import Iterable

from tqdm import tqdm

from shufflekit.verify.claims import REGISTRY, VERDICTS, CheckContext, Claim, Result, load_catalog


def run_claims(claims: Iterable[Claim], ctx: CheckContext | None = None, *,
               progress: bool = True) -> list[Result]:
    """Run each claim's check; a check that raises is reported, never hidden."""
    claims = list(claims)
    ctx = ctx or CheckContext()
    results = []
    bar = tqdm(claims, desc="verifying", unit="claim", file=sys.stderr,
               disable=not progress, leave=False)
    for c in bar:
        bar.set_postfix_str(c.id[-40:])
        results.append(c.run(ctx))
    return results


def summarise(results: list[Result]) -> dict:
    counts = Counter(r.outcome.verdict for r in results)
    regressions = [r.claim.id for r in results if r.regression]
    return {
        "total": len(results),
        **{v: counts.get(v, 0) for v in VERDICTS},
        "regressions": regressions,
        "seconds": round(sum(r.seconds for r in results), 3),
        "ok": not regressions,
    }


def run(pattern: str | None = None, *, quick: bool = True, thorough: bool = False,
        dps: int = 50, progress: bool = False) -> list[Result]:
    """Run the registered claims matching ``pattern`` (the catalog plus your own)."""
    load_catalog()
    return run_claims(REGISTRY.select(pattern), CheckContext(quick=quick, thorough=thorough, dps=dps),
                      progress=progress)
