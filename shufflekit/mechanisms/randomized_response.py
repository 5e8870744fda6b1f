r"""Randomized response: binary (Warner) and k-ary.

k-RR (Su-Cheng-Wang 2026, Example 4.0): report the true value with probability
:math:`(e^{\varepsilon_0}-1)/(e^{\varepsilon_0}+k-1)`, otherwise a uniform value of
:math:`[k]`.  Hence :math:`R_x(y) = (e^{\varepsilon_0}-1)/(e^{\varepsilon_0}+k-1)\,[y=x]
+ 1/(e^{\varepsilon_0}+k-1)`; the matrix below is computed from that mixture.

Binary RR (Takagi-Liew 2026, App. A.5): :math:`Y = x` with probability :math:`p`, else
:math:`-x`; with :math:`\varepsilon_0` given, :math:`p = e^{\varepsilon_0}/(e^{\varepsilon_0}+1)`.

For a symbolic alphabet size ``k``, and for a numeric ``k`` above
:data:`ENUMERATE_UP_TO` (or with ``lumped=True``), the mechanism is lumped by its
symmetry (the symmetric group on :math:`[k]` acting on inputs and outputs together):
representative inputs ``x, x', z`` (any triple of inputs is equivalent to one of
theirs) and output classes ``{x}, {x'}, {z}, rest`` (``k-3`` outputs of equal
probability, carried as a multiplicity).  Every column's floor is
:math:`\min_x R_x(y) = 1/(e^{\varepsilon_0}+k-1)`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from shufflekit.mechanisms.finite import FiniteMechanism, Lumping
from shufflekit.mechanisms.ordering import assume_at_least
from shufflekit.mechanisms.parameters import as_param


def _krr_probability(same: bool, eps0: Any, k: Any) -> Any:
    keep = (sp.exp(eps0) - 1) / (sp.exp(eps0) + k - 1)
    uniform = k / (sp.exp(eps0) + k - 1)
    return sp.simplify(keep * (1 if same else 0) + uniform / k)


ENUMERATE_UP_TO = 16  # numeric k above this is lumped by default
SYMMETRY = "symmetric group on [k], acting on inputs and outputs together"


def k_randomized_response(k: Any, eps0: Any, *, lumped: bool | None = None) -> FiniteMechanism:
    """k-ary randomized response on ``[k]`` (``k >= 2``, ``eps0 > 0``).

    ``lumped=None`` lumps when ``k > ENUMERATE_UP_TO``; ``True`` lumps any ``k >= 4``."""
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    if isinstance(k, sp.Basic) and k.free_symbols:
        assume_at_least(k, 3)
        types = ("x", "x'", "z")
        classes = ("x", "x'", "z", "rest")
        mult = (1, 1, 1, k - 3)
        rows = [[_krr_probability(t == c, eps0, k) for c in classes] for t in types]
        return FiniteMechanism.from_matrix(
            rows,
            inputs=types,
            outputs=classes,
            multiplicity=mult,
            name="krr",
            params={"k": k, "eps0": eps0},
        )
    k = int(as_param(k, "k", low=2, integer=True))
    same = _krr_probability(True, eps0, k)
    other = _krr_probability(False, eps0, k)
    if lumped is None:
        lumped = k > ENUMERATE_UP_TO
    if lumped and k >= 4:
        reps = (0, 1, 2)
        classes = (0, 1, 2, f"3..{k - 1}")
        rows = [[same if x == y else other for y in classes] for x in reps]
        return FiniteMechanism.from_matrix(
            rows,
            inputs=reps,
            outputs=classes,
            multiplicity=(1, 1, 1, k - 3),
            name="krr",
            params={"k": k, "eps0": eps0},
            lumping=Lumping(alphabet=k, outputs=k, symmetry=SYMMETRY, floor=(other,) * 4),
        )
    rows = [[same if x == y else other for y in range(k)] for x in range(k)]
    return FiniteMechanism.from_matrix(
        rows,
        inputs=tuple(range(k)),
        outputs=tuple(range(k)),
        name="krr",
        params={"k": k, "eps0": eps0},
    )


def randomized_response(eps0: Any = None, *, p: Any = None) -> FiniteMechanism:
    """Binary randomized response on ``{-1, +1}``: keep with probability ``p``."""
    if (eps0 is None) == (p is None):
        raise ValueError("give exactly one of eps0 (in (0, inf)) or p (in [1/2, 1))")
    if p is None:
        eps0 = as_param(eps0, "eps0", low=0, low_open=True)
        p = sp.exp(eps0) / (sp.exp(eps0) + 1)
    else:
        p = as_param(p, "p", low=0.5, high=1, high_open=True)
    rows = [[p, 1 - p], [1 - p, p]]
    return FiniteMechanism.from_matrix(
        rows,
        inputs=(1, -1),
        outputs=(1, -1),
        name="rr",
        params={"p": p} if eps0 is None else {"eps0": eps0, "p": p},
    )
