"""The claim registry: every checkable statement of the papers, cross-checked."""
from shufflekit.verify.claims import (REGISTRY, CheckContext, Claim, Outcome, Result, claim,
                                      confirmed, imprecise, load_catalog, load_plugin, not_checkable,
                                      refuted)
from shufflekit.verify.runner import run

__all__ = ["REGISTRY", "CheckContext", "Claim", "Outcome", "Result", "claim", "confirmed",
           "imprecise", "load_catalog", "load_plugin", "not_checkable", "refuted", "run"]
