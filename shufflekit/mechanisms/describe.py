"""A summary of a mechanism: blanket mass, local epsilon, shuffle indices, GPARV law.

Used by ``shufflekit mechanism``; every number is computed from the mechanism's
definition (exact where the mechanism is exact), with float values alongside.
"""
from __future__ import annotations

from typing import Any

import sympy as sp

from shufflekit.mechanisms.composition import JointComposition
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.mechanisms.gaussian import BlanketMixedGaussian, GaussianLocal
from shufflekit.mechanisms.privunit import PrivUnit


def _num(x: Any) -> dict:
    """Exact string and float value of a quantity."""
    if isinstance(x, sp.Basic):
        try:
            f = float(x)
        except (TypeError, ValueError):
            f = None
        return {"exact": sp.sstr(x), "float": f}
    return {"exact": repr(x), "float": float(x)}


def describe(mech: Any, *, epsilon: Any = 0, adjacency: str | None = None) -> dict:
    """JSON-able description ``{"name", "params", "gamma", "eps0", "chi_lo", "chi_up", "gparv"}``."""
    eps = sp.nsimplify(epsilon, rational=True) if not isinstance(epsilon, sp.Basic) else epsilon
    if isinstance(mech, FiniteMechanism):
        adjacency = adjacency or "replace-one"
        laws = mech.gparv_laws(eps, adjacency)
        law, pairs = laws[0] if len(laws) == 1 else _worst(laws)
        lo, up = mech.chi_lo("zero-out"), mech.chi_up("zero-out")
        return {"name": mech.name, "params": {k: str(v) for k, v in mech.params.items()},
                "gamma": _num(mech.blanket().gamma), "eps0": _num(mech.eps0()),
                "chi_lo": {**_num(lo.value), "pair": [str(p) for p in lo.pair], "adjacency": "zero-out"},
                "chi_up": {**_num(up.value), "pair": [str(p) for p in up.pair],
                           "reference": str(up.reference), "adjacency": "zero-out"},
                "gparv": {"epsilon": str(eps), "adjacency": adjacency,
                          "pairs": [[str(a) for a in p] for p in pairs[:6]],
                          "distinct_laws": len(laws), **law.as_dict()}}
    if isinstance(mech, JointComposition):
        adjacency = adjacency or "replace-one"
        pair = mech.pairs(adjacency)[0]
        law = mech.gparv(eps, pair)
        return {"name": mech.name, "params": {"components": [c.name for c in mech.components]},
                "gamma": _num(mech.gamma), "eps0": _num(mech.eps0()),
                "chi_lo": {**_num(mech.chi_lo()), "adjacency": "zero-out"},
                "chi_up": {**_num(mech.chi_up()), "adjacency": "zero-out"},
                "gparv": {"epsilon": str(eps), "adjacency": adjacency,
                          "pairs": [[str(a) for a in pair]], **law.as_dict()}}
    if isinstance(mech, PrivUnit):
        return {"name": mech.name, "params": {k: str(v) for k, v in mech.params().items()},
                "gamma": _num(mech.gamma), "eps0": _num(mech.eps0()),
                "chi_lo": {**_num(mech.chi_lo()), "adjacency": "zero-out"},
                "chi_up": {**_num(mech.chi_up()), "adjacency": "zero-out"},
                "gparv": {"epsilon": str(eps), "adjacency": "zero-out",
                          **mech.gparv(eps).as_dict()}}
    if isinstance(mech, BlanketMixedGaussian):
        return {"name": mech.name, "params": {k: str(v) for k, v in mech.params().items()},
                "gamma": _num(mech.gamma), "eps0": {"exact": "oo", "float": None},
                "chi_lo": {**_num(mech.chi_lo()), "adjacency": "zero-out"},
                "chi_up": None,
                "gparv": {"epsilon": str(eps), "adjacency": "zero-out",
                          "law": mech.amplification_law(eps).as_dict()}}
    if isinstance(mech, GaussianLocal):
        chua = mech.chi_chua()
        return {"name": mech.name, "params": {k: str(v) for k, v in mech.params().items()},
                "gamma": _num(0), "eps0": {"exact": "oo", "float": None},
                "chi_lo": {"exact": "0", "float": 0.0, "note": "no blanket (gamma = 0)"},
                "chi_up": None,
                "chi_chua": {**_num(chua.value), "configuration": chua.configuration},
                "gparv": None}
    raise ValueError(f"cannot describe {mech!r}")


def _worst(laws):
    """The law with the largest variance (the most spread amplification variable)."""
    return max(laws, key=lambda lp: float(lp[0].variance()))
