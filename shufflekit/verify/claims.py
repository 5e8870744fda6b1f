r"""Claims: the checkable statements of the source papers, registered once.

A :class:`Claim` pairs a statement of a paper (in LaTeX, with its source
location) with a *check*: a function that re-derives or re-computes the
statement and returns an :class:`Outcome` (a verdict with its evidence).
Each claim also records the verdict we *expect* from our own derivations, so a
change of verdict is a regression (``shufflekit verify`` exits with status 1).

Verdicts
--------
``confirmed``      the statement holds as printed (to the stated precision).
``refuted``        it does not; the evidence gives both values and the gap.
``imprecise``      it holds only under an unstated condition, or a stated
                   rate / constant / digit is off.
``not-checkable``  a cited or qualitative result with no computable content.
``error``          the check itself raised: a bug in the check, not a finding about the
                   paper (the evidence is the last line of the traceback).  No claim may
                   expect it; ``shufflekit verify`` exits with status 4 when any check errors.

Registering a claim::

    from shufflekit.verify.claims import claim, confirmed, refuted

    @claim(id="mine.rr.gamma", paper="mine", source="Lemma 1",
           statement=r"\gamma_{RR} = 2/(e^{\varepsilon_0}+1)")
    def _(ctx):
        ...
        return confirmed("derived 2/(e^eps0+1)", derived="2/(exp(eps0)+1)")
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from shufflekit.references import PAPERS as REFERENCES

Verdict = Literal["confirmed", "refuted", "imprecise", "not-checkable", "error"]
#: the verdicts a claim may record as expected (what the statement is found to be)
EXPECTABLE: tuple[str, ...] = ("confirmed", "refuted", "imprecise", "not-checkable")
#: every verdict a run can report: the expectable ones and ``error`` (the check raised)
VERDICTS: tuple[str, ...] = EXPECTABLE + ("error",)

#: what a claim is: the paper's statement, our refinement of it, or a step of the paper's proof
KINDS: tuple[str, ...] = ("statement", "refinement", "proof-step")

#: each paper's key (the prefix of its claim ids) and how a report names it
PAPERS: dict[str, str] = {
    key: f"{ref.short[0].upper()}{ref.short[1:]}, {ref.title}" for key, ref in REFERENCES.items()
}


@dataclass(frozen=True)
class CheckContext:
    """How hard a check should work.

    ``quick`` trims parameter grids and precision so the whole registry runs in
    about two minutes; ``thorough`` asks for the heavier hypothesis profile.
    ``dps`` is the mpmath working precision (decimal digits) of the high-precision checks:
    a check written for ``nominal`` digits at the default 50 works at :meth:`digits` (the
    same offset from ``dps``), so ``--dps`` moves every mpmath evaluation of the registry.
    """

    quick: bool = False
    thorough: bool = False
    dps: int = 50

    def digits(self, nominal: int) -> int:
        """Working digits for a step written for ``nominal`` digits at the default ``dps = 50``:
        ``nominal + dps - 50``, at least 15 (float64 resolution)."""
        return max(15, nominal + self.dps - 50)

    @property
    def examples(self) -> int:
        """Number of hypothesis examples a property check should draw."""
        if self.thorough:
            return 400
        return 25 if self.quick else 80


@dataclass(frozen=True)
class Outcome:
    """The result of running one check: a verdict, a one-line summary, numbers."""

    verdict: Verdict
    evidence: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict={self.verdict!r} is not one of {', '.join(VERDICTS)}")


def confirmed(evidence: str, **values: Any) -> Outcome:
    return Outcome("confirmed", evidence, values)


def refuted(evidence: str, **values: Any) -> Outcome:
    return Outcome("refuted", evidence, values)


def imprecise(evidence: str, **values: Any) -> Outcome:
    return Outcome("imprecise", evidence, values)


def not_checkable(evidence: str, **values: Any) -> Outcome:
    return Outcome("not-checkable", evidence, values)


CheckFn = Callable[[CheckContext], Outcome]


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a paper.

    ``id``        stable dotted identifier, e.g. ``"000.thm4.1.expansion"``.
    ``paper``     key of :data:`PAPERS` (``"000"`` ... ``"003"``) or a user label.
    ``source``    location in the paper: section, equation, table cell.
    ``statement`` the statement in LaTeX (math mode content or short text).
    ``check``     function of a :class:`CheckContext` returning an :class:`Outcome`.
    ``expected``  the verdict our own derivation supports.
    ``section``   grouping label used by ``--list`` (defaults to ``source``).
    ``kind``      ``"statement"`` (a statement of the paper), ``"refinement"`` (our own sharper
                  statement; ``paper`` is the seed it refines; not counted as the paper's) or
                  ``"proof-step"`` (a load-bearing step of a proof in the paper).
    ``mutation``  why the claim has nothing the mutation harness can corrupt (empty when it
                  declares what it compares against through ``mutation.printed``).

    Every claim runs in every profile; ``CheckContext.quick`` only asks a check
    to trim its grids, never to skip.
    """

    id: str
    paper: str
    source: str
    statement: str
    check: CheckFn
    expected: Verdict = "confirmed"
    section: str = ""
    kind: str = "statement"
    mutation: str = ""

    def run(self, ctx: CheckContext | None = None) -> Result:
        ctx = ctx or CheckContext()
        start = time.perf_counter()
        try:
            outcome = self.check(ctx)
            if not isinstance(outcome, Outcome):
                raise TypeError(f"check returned {type(outcome).__name__}, not Outcome")
        except Exception as exc:  # a crashing check is reported, never hidden nor a "refuted"
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            outcome = Outcome("error", f"check raised {last}", {"error": last})
        return Result(self, outcome, time.perf_counter() - start)


@dataclass(frozen=True)
class Result:
    claim: Claim
    outcome: Outcome
    seconds: float

    @property
    def errored(self) -> bool:
        """True when the check raised (verdict ``error``)."""
        return self.outcome.verdict == "error"

    @property
    def regression(self) -> bool:
        """True when a computed verdict differs from the recorded expectation (an ``error``
        is counted separately, see :attr:`errored`)."""
        return not self.errored and self.outcome.verdict != self.claim.expected

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.claim.id,
            "paper": self.claim.paper,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "kind": self.claim.kind,
            "verdict": self.outcome.verdict,
            "expected": self.claim.expected,
            "evidence": self.outcome.evidence,
            "values": {k: _jsonable(v) for k, v in self.outcome.values.items()},
            "seconds": round(self.seconds, 4),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


class Registry:
    """An ordered collection of claims with unique ids."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}

    def add(self, c: Claim) -> Claim:
        if c.id in self._claims:
            raise ValueError(f"claim id {c.id!r} is registered twice")
        if c.kind not in KINDS:
            raise ValueError(f"kind={c.kind!r} is not one of {', '.join(KINDS)}")
        if c.expected not in EXPECTABLE:
            raise ValueError(f"expected={c.expected!r} is not one of {', '.join(EXPECTABLE)}")
        self._claims[c.id] = c
        return c

    def __iter__(self):
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def __contains__(self, claim_id: str) -> bool:
        return claim_id in self._claims

    def get(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise ValueError(f"unknown claim id {claim_id!r}") from None

    def select(self, pattern: str | None = None) -> list[Claim]:
        """Claims whose id, paper or source matches a glob ``pattern``."""
        import fnmatch

        claims = list(self)
        if not pattern:
            return claims
        pat = pattern if any(ch in pattern for ch in "*?[") else f"*{pattern}*"
        return [
            c
            for c in claims
            if fnmatch.fnmatch(c.id, pat)
            or fnmatch.fnmatch(c.paper, pat)
            or fnmatch.fnmatch(c.source, pat)
        ]


REGISTRY = Registry()


def claim(
    *,
    id: str,
    paper: str,
    source: str,
    statement: str,
    expected: Verdict = "confirmed",
    section: str = "",
    kind: str = "statement",
    mutation: str = "",
    registry: Registry | None = None,
) -> Callable[[CheckFn], CheckFn]:
    """Decorator registering ``check`` as the check of a new :class:`Claim`."""

    def decorate(check: CheckFn) -> CheckFn:
        (registry if registry is not None else REGISTRY).add(
            Claim(
                id=id,
                paper=paper,
                source=source,
                statement=statement,
                check=check,
                expected=expected,
                section=section or source,
                kind=kind,
                mutation=mutation,
            )
        )
        return check

    return decorate


def load_catalog() -> Registry:
    """Import every module of :mod:`shufflekit.verify.catalog` and its subpackages
    (recursively, in name order), which registers their claims."""
    import importlib
    import pkgutil

    from shufflekit.verify import catalog

    for info in sorted(
        pkgutil.walk_packages(catalog.__path__, prefix=f"{catalog.__name__}."), key=lambda m: m.name
    ):
        importlib.import_module(info.name)
    return REGISTRY


def load_plugin(path: str) -> None:
    """Import a user's Python file that registers claims with :func:`claim`."""
    import importlib.util
    import pathlib
    import traceback

    from shufflekit.errors import InvalidParameter

    file = pathlib.Path(path)
    if not file.is_file():
        raise InvalidParameter("plugin", path, "a readable Python file", "no such file")
    spec = importlib.util.spec_from_file_location(f"shufflekit_plugin_{file.stem}", file)
    if spec is None or spec.loader is None:
        raise InvalidParameter("plugin", path, "a Python file (*.py)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the user's file: report it as bad input, one line
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        raise InvalidParameter("plugin", path, "a Python file that imports cleanly", last) from None
