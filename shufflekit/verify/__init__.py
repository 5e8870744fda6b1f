"""The claim registry: every checkable statement of the papers, cross-checked.

A check declares what it compares against with :func:`printed` (the mutation harness,
``shufflekit verify --mutate``, corrupts those values and expects the verdict to change).
"""

from shufflekit.verify.claims import (
    REGISTRY,
    CheckContext,
    Claim,
    Outcome,
    Result,
    claim,
    confirmed,
    imprecise,
    load_catalog,
    load_plugin,
    not_checkable,
    refuted,
)
from shufflekit.verify.mutation import printed
from shufflekit.verify.runner import run

__all__ = [
    "REGISTRY",
    "CheckContext",
    "Claim",
    "Outcome",
    "Result",
    "claim",
    "confirmed",
    "imprecise",
    "load_catalog",
    "load_plugin",
    "not_checkable",
    "printed",
    "refuted",
    "run",
]
