r"""Mutation testing of the claim registry: would a verdict change if the paper were wrong?

A check *declares* what it compares against -- a printed value, coefficient or table cell,
the order of a remainder, the direction of an inequality, an input of the statement -- by
passing it through :func:`printed` (the shared check kinds of :mod:`shufflekit.verify.checks`
do this for their ``printed`` / ``claimed`` arguments).  Outside a mutation run
:func:`printed` returns its argument unchanged.

:func:`mutate_claim` runs a claim once to record its declared sites, then once per site with
that one value corrupted (:func:`corrupt`); a mutant is *killed* when the verdict differs from
the unmutated verdict.  A claim is killed when each of its mutants is; a claim with no declared
site survives unless it is ``not-checkable`` or carries a ``mutation`` note saying why nothing
it compares against can be corrupted.

Corruptions (chosen so that a check which really compares must notice):

* a printed decimal string (``"1.566"``, ``"20.0%"``, ``"8.96e-3"``): the last digit moves by
  3 units (more than the one-unit rounding slack of ``printed_digits``);
* an exact number (int, Rational) ``v``: ``11 v / 10`` (``1/10`` for zero); a float: ``1.1 v``;
* a symbolic expression ``e``: ``11 e / 10`` (``e + 1/10`` when ``e`` is zero);
* a remainder order ``p`` (with ``direction``): one unit stronger than claimed;
* a boolean (the direction of an inequality, "holds for all"): its negation;
* a tuple / list: its first non-zero entry corrupted; a callable row ``k -> tuple``: its value
  corrupted.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

__all__ = [
    "Site",
    "MutationRun",
    "Mutant",
    "ClaimMutation",
    "printed",
    "corrupt",
    "mutation_run",
    "stronger_order",
    "swap_entries",
    "tighter_upper",
    "mutate_claim",
    "mutate_claims",
    "kill_rates",
]


@dataclass
class Site:
    """One declared value: its position in the check, a label and the value (as text)."""

    index: int
    name: str
    value: str


@dataclass
class MutationRun:
    """State of one run: the sites seen so far and the index of the site to corrupt."""

    target: int | None = None
    sites: list[Site] = field(default_factory=list)
    corrupted: tuple[str, str, str] | None = None  # (name, original, corrupted)


_RUN: contextvars.ContextVar[MutationRun | None] = contextvars.ContextVar(
    "mutation_run", default=None
)


class mutation_run:
    """Context manager activating a :class:`MutationRun` (``target=None``: record only)."""

    def __init__(self, target: int | None = None):
        self.state = MutationRun(target)
        self._token = None

    def __enter__(self) -> MutationRun:
        self._token = _RUN.set(self.state)
        return self.state

    def __exit__(self, *exc) -> None:
        _RUN.reset(self._token)


def _short(value: Any) -> str:
    text = (
        value
        if isinstance(value, str)
        else (sp.sstr(value) if isinstance(value, sp.Basic) else repr(value))
    )
    return text if len(text) <= 60 else text[:57] + "..."


def printed(value: Any, name: str = "", *, mutant: Callable[[Any], Any] | None = None) -> Any:
    """Declare ``value`` as something the claim compares against; return it (corrupted when
    this site is the target of the active mutation run).  ``mutant`` overrides :func:`corrupt`."""
    run = _RUN.get()
    if run is None:
        return value
    index = len(run.sites)
    run.sites.append(Site(index, name or "value", _short(value)))
    if run.target != index:
        return value
    new = mutant(value) if mutant is not None else corrupt(value)
    run.corrupted = (name or "value", _short(value), _short(new))
    return new


_DECIMAL = re.compile(
    r"^(?P<head>[-+]?[0-9]*\.?[0-9]*?)(?P<last>[0-9])(?P<tail>(?:e[-+]?[0-9]+)?%?)$", re.IGNORECASE
)


def _corrupt_decimal(text: str) -> str:
    s = text.strip()
    m = _DECIMAL.match(s)
    if not m:
        return s + "1"
    d = int(m.group("last"))
    new = d + 3 if d <= 6 else d - 3
    return f"{m.group('head')}{new}{m.group('tail')}"


def corrupt(value: Any) -> Any:
    """The default corruption of a declared value (see the module docstring)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return _corrupt_decimal(value)
    if isinstance(value, int):
        return sp.Rational(11 * value, 10) if value else sp.Rational(1, 10)
    if isinstance(value, float):
        return value * 1.1 if value else 0.1
    if isinstance(value, sp.Basic):
        value = sp.sympify(value)
        return sp.Rational(11, 10) * value if value != 0 else sp.Rational(1, 10)
    if isinstance(value, (tuple, list)):
        items = list(value)
        for i, item in enumerate(items):
            if not _is_zero(item):
                items[i] = corrupt(item)
                break
        return type(value)(items)
    if callable(value):
        return lambda *a, **k: corrupt(value(*a, **k))
    raise TypeError(f"cannot corrupt a {type(value).__name__}")


def _is_zero(item: Any) -> bool:
    try:
        return sp.sympify(item) == 0
    except (sp.SympifyError, TypeError):
        return False


def stronger_order(direction: str) -> Callable[[float], float]:
    """Corruption of a claimed remainder order: one unit faster decay than claimed
    (``direction`` ``"inf"`` for x -> oo, i.e. slope - 1; ``"zero"`` for x -> 0, slope + 1)."""
    return (lambda p: p - 1) if direction == "inf" else (lambda p: p + 1)


# ---------------------------------------------------------------- the harness
@dataclass(frozen=True)
class Mutant:
    """One corrupted site of one claim and the verdict it produced."""

    site: Site
    corrupted: str
    verdict: str
    evidence: str

    killed: bool


@dataclass(frozen=True)
class ClaimMutation:
    """The mutation record of one claim.

    ``status``: ``killed`` (every mutant changed the verdict), ``survived`` (some mutant did not,
    or the claim declares nothing to corrupt), ``not-checkable`` (the claim is not checkable, or
    its ``mutation`` note explains why nothing it compares against can be corrupted).
    """

    claim_id: str
    paper: str
    kind: str
    baseline: str
    sites: int
    mutants: tuple[Mutant, ...]
    status: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.claim_id,
            "paper": self.paper,
            "kind": self.kind,
            "baseline": self.baseline,
            "sites": self.sites,
            "status": self.status,
            "reason": self.reason,
            "mutants": [
                {
                    "site": m.site.name,
                    "original": m.site.value,
                    "corrupted": m.corrupted,
                    "verdict": m.verdict,
                    "killed": m.killed,
                }
                for m in self.mutants
            ],
        }


def _spread(n: int, k: int) -> list[int]:
    """``k`` site indices spread evenly over ``range(n)`` (all of them when ``n <= k``)."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def mutate_claim(claim, ctx, *, max_mutants: int = 8) -> ClaimMutation:
    """Run ``claim`` unmutated (recording its declared sites), then once per site (at most
    ``max_mutants``, spread evenly) with that site corrupted; see :class:`ClaimMutation`."""
    with mutation_run() as base:
        result = claim.run(ctx)
    baseline = result.outcome.verdict
    sites = list(base.sites)
    if claim.expected == "not-checkable" or baseline == "not-checkable":
        return ClaimMutation(
            claim.id,
            claim.paper,
            claim.kind,
            baseline,
            len(sites),
            (),
            "not-checkable",
            result.outcome.evidence,
        )
    if baseline == "error":
        return ClaimMutation(
            claim.id,
            claim.paper,
            claim.kind,
            baseline,
            len(sites),
            (),
            "survived",
            "the unmutated check raised: " + result.outcome.evidence,
        )
    mutants = []
    for index in _spread(len(sites), max_mutants):
        with mutation_run(index) as run:
            out = claim.run(ctx).outcome
        corrupted = run.corrupted[2] if run.corrupted else "(site not reached)"
        mutants.append(
            Mutant(
                sites[index],
                corrupted,
                out.verdict,
                out.evidence,
                killed=out.verdict not in (baseline, "error"),
            )
        )
    survivors = [m for m in mutants if not m.killed]
    if mutants and not survivors:
        return ClaimMutation(
            claim.id, claim.paper, claim.kind, baseline, len(sites), tuple(mutants), "killed", ""
        )
    if claim.mutation:
        return ClaimMutation(
            claim.id,
            claim.paper,
            claim.kind,
            baseline,
            len(sites),
            tuple(mutants),
            "not-checkable",
            claim.mutation,
        )
    if not mutants:
        reason = "declares nothing it compares against (no mutation.printed site)"
    else:
        reason = "; ".join(
            f"{m.site.name} {m.site.value} -> {m.corrupted} left the verdict {m.verdict}"
            for m in survivors
        )
    return ClaimMutation(
        claim.id, claim.paper, claim.kind, baseline, len(sites), tuple(mutants), "survived", reason
    )


def mutate_claims(
    claims, ctx, *, progress: bool = False, max_mutants: int = 8
) -> list[ClaimMutation]:
    """:func:`mutate_claim` for each claim (with a progress bar when asked and standard error
    is a terminal)."""
    import sys

    from tqdm import tqdm

    claims = list(claims)
    on_terminal = getattr(sys.stderr, "isatty", lambda: False)()
    bar = tqdm(
        claims,
        desc="mutating",
        unit="claim",
        file=sys.stderr,
        disable=not (progress and on_terminal),
        leave=False,
    )
    return [mutate_claim(c, ctx, max_mutants=max_mutants) for c in bar]


def kill_rates(records: list[ClaimMutation]) -> dict[str, Any]:
    """Kill rate per paper and overall over the checkable claims (killed / (killed + survived)),
    with the surviving claims and the explained (not-checkable) ones."""
    papers: dict[str, dict[str, Any]] = {}
    for r in records:
        p = papers.setdefault(
            r.paper,
            {
                "claims": 0,
                "checkable": 0,
                "killed": 0,
                "not_checkable": 0,
                "mutants": 0,
                "mutants_killed": 0,
            },
        )
        p["claims"] += 1
        p["mutants"] += len(r.mutants)
        p["mutants_killed"] += sum(m.killed for m in r.mutants)
        if r.status == "not-checkable":
            p["not_checkable"] += 1
        else:
            p["checkable"] += 1
            p["killed"] += r.status == "killed"
    for p in papers.values():
        p["kill_rate"] = round(p["killed"] / p["checkable"], 4) if p["checkable"] else None
    checkable = sum(p["checkable"] for p in papers.values())
    killed = sum(p["killed"] for p in papers.values())
    return {
        "papers": dict(sorted(papers.items())),
        "overall": {
            "checkable": checkable,
            "killed": killed,
            "kill_rate": round(killed / checkable, 4) if checkable else None,
        },
        "survivors": [
            {"id": r.claim_id, "reason": r.reason} for r in records if r.status == "survived"
        ],
        "explained": [
            {"id": r.claim_id, "reason": r.reason} for r in records if r.status == "not-checkable"
        ],
    }


def swap_entries(row: Callable[..., tuple]) -> Callable[..., tuple]:
    """Corruption of a printed table row ``k -> (p_1, ..., p_m)``: its first two unequal entries
    swapped (a probability printed against the wrong atom)."""

    def swapped(*args, **kwargs):
        items = list(row(*args, **kwargs))
        for j in range(1, len(items)):
            if sp.simplify(sp.sympify(items[j]) - sp.sympify(items[0])) != 0:
                items[0], items[j] = items[j], items[0]
                break
        return tuple(items)

    return swapped


def tighter_upper(bound: Any) -> Any:
    """Corruption of a printed upper bound: 9/10 of it (a false, sharper bound when the printed
    one is attained or nearly so)."""
    return sp.Rational(9, 10) * bound if isinstance(bound, sp.Basic) else 0.9 * bound
