"""A summary of a mechanism: blanket mass, local epsilon, shuffle indices, GPARV law.

Used by ``Mechanism.describe()`` and ``shufflekit mechanism``; every number is computed from
the mechanism's definition through the common contract
(:mod:`shufflekit.mechanisms.protocol`), exact where the mechanism is exact, with its float
value alongside (``null`` with a reason when it is not a finite number, so the summary is
standard JSON).
"""

from __future__ import annotations

import math
from typing import Any

import sympy as sp

from shufflekit.mechanisms.composition import JointComposition
from shufflekit.mechanisms.finite import FiniteMechanism, ShuffleIndex
from shufflekit.mechanisms.gaussian import GaussianLocal
from shufflekit.mechanisms.parameters import check_law_epsilon
from shufflekit.mechanisms.protocol import Adjacency


def number(x: Any) -> dict:
    """``{"exact": text, "float": value}``; ``float`` is None (with a ``note``) when not finite."""
    if x is None:
        return {"exact": None, "float": None, "note": "not defined for this mechanism"}
    text = sp.sstr(x) if isinstance(x, sp.Basic) else repr(x)
    try:
        f = float(x)
    except (TypeError, ValueError):
        return {"exact": text, "float": None, "note": "symbolic"}
    if not math.isfinite(f):
        return {"exact": text, "float": None, "note": "infinite" if math.isinf(f) else "undefined"}
    return {"exact": text, "float": f}


def index(value: Any, adjacency: str = "zero-out") -> dict | None:
    """A shuffle index with the pair (and reference) attaining it when known."""
    if value is None:
        return None
    if isinstance(value, ShuffleIndex):
        out = {**number(value.value), "pair": [str(p) for p in value.pair]}
        if value.reference is not None:
            out["reference"] = str(value.reference)
        return {**out, "adjacency": adjacency}
    return {**number(value), "adjacency": adjacency}


def law_dict(law: Any) -> dict | None:
    return None if law is None else law.as_dict()


def summary(mech: Any) -> dict:
    """The cheap part of :func:`describe`: name and parameters (text of exact values)."""
    return {"name": mech.name, "params": {k: str(v) for k, v in mech.params.items()}}


def describe(mech: Any, *, epsilon: Any = 0, adjacency: str | None = None) -> dict:
    """JSON-ready description ``{"name", "params", "gamma", "eps0", "chi_lo", "chi_up", "gparv"}``.

    ``epsilon`` is where the GPARV law is formed; ``adjacency`` picks its neighbouring pairs
    (finite mechanisms; the continuous ones have the zero-out pair only).
    """
    eps = check_law_epsilon(epsilon)
    adj = str(Adjacency.parse(adjacency)) if adjacency is not None else None
    out = {
        "name": mech.name,
        "params": {k: str(v) for k, v in mech.params.items()},
        "gamma": number(mech.gamma),
        "eps0": number(mech.eps0()),
    }
    if isinstance(mech, FiniteMechanism):
        adj = adj or "replace-one"
        laws = mech.gparv_laws(eps, adj) if float(mech.gamma) > 0 else []
        out["chi_lo"] = index(mech.chi_lo("zero-out"))
        out["chi_up"] = index(mech.chi_up("zero-out"))
        if laws:
            law, pairs = laws[0] if len(laws) == 1 else worst(laws)
            out["gparv"] = {
                "epsilon": str(eps),
                "adjacency": adj,
                "pairs": [[str(a) for a in p] for p in pairs[:6]],
                "distinct_laws": len(laws),
                **law.as_dict(),
            }
        else:
            out["gparv"] = None
        return out
    if isinstance(mech, JointComposition):
        adj = adj or "replace-one"
        pair = mech.pairs(adj)[0]
        out["chi_lo"], out["chi_up"] = index(mech.chi_lo()), index(mech.chi_up())
        out["gparv"] = {
            "epsilon": str(eps),
            "adjacency": adj,
            "pairs": [[str(a) for a in pair]],
            **mech.gparv(eps, pair).as_dict(),
        }
        return out
    if adj is not None and adj != "zero-out":
        out["note"] = f"adjacency {adj} does not apply: {mech.name} is described for zero-out pairs"
    out["chi_lo"], out["chi_up"] = index(mech.chi_lo()), index(mech.chi_up())
    if isinstance(mech, GaussianLocal):
        chua = mech.chi_chua()
        out["chi_lo"]["note"] = "no blanket (gamma = 0)"
        out["chi_chua"] = {**number(chua.value), "configuration": chua.configuration}
    law = mech.gparv(eps)
    out["gparv"] = (
        None if law is None else {"epsilon": str(eps), "adjacency": "zero-out", **law.as_dict()}
    )
    return out


def worst(laws):
    """The law with the largest variance (the most spread amplification variable)."""
    return max(laws, key=lambda lp: float(lp[0].variance()))
