r"""GPARV laws of the common frequency oracles, derived symbolically (Su-Cheng-Wang 2026, Table 1).

For a mechanism built by :func:`shufflekit.mechanisms.make` with a *symbolic*
:math:`\varepsilon_0` the finite-mechanism layer computes the maximal blanket
:math:`c(y) = \min_x R_x(y)` and the law of
:math:`G = (R_x(y) - e^{\varepsilon}R_{x'}(y))/c(y)` (w.p. :math:`c(y)`; 0 w.p.
:math:`1-\gamma`) exactly (Su-Cheng-Wang 2026, Def. 5.1).  Here the parameters are written as

.. math::
    w = e^{\varepsilon_0/2} = 1 + s\ (s>0),\qquad v = e^{\varepsilon},

so that every atom and probability is a rational function of :math:`(w, v)` and
equalities are decided by ``cancel``.  :func:`gparv_law` returns the merged law as a
:class:`~shufflekit.symbolic.derivation.Derivation` whose result is a tuple of
``(atom, probability)`` pairs; :func:`compare_laws` reports, atom by atom, the
difference to another law (e.g. a printed table row).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbols import eps0
from shufflekit.symbols import epsilon as eps

s = sp.Symbol("s", positive=True)  # e^{eps0/2} - 1
w = sp.Symbol("w", positive=True)  # e^{eps0/2}
v = sp.Symbol("v", positive=True)  # e^{eps}

SOURCE = "Su-Cheng-Wang 2026, Def. 5.1 and Table 1"


def to_wv(expr) -> sp.Expr:
    r"""Rewrite an expression of :math:`\varepsilon_0, \varepsilon` (or of ``s``) in :math:`w, v`."""
    e = sp.sympify(expr)
    e = e.subs(s, w - 1)
    e = e.subs(eps0, 2 * sp.log(w)).subs(eps, sp.log(v))
    e = sp.expand_log(sp.expand_power_exp(sp.expand(e.rewrite(sp.exp))), force=True)
    e = sp.powsimp(sp.simplify(e), force=True)
    return sp.factor(sp.cancel(e))


def _merge(pairs) -> tuple:
    merged: list[list] = []
    for a, p in pairs:
        for slot in merged:
            if sp.cancel(slot[0] - a) == 0:
                slot[1] = sp.factor(sp.cancel(slot[1] + p))
                break
        else:
            merged.append([a, p])
    return tuple((a, p) for a, p in merged if sp.cancel(p) != 0)


@cache
def gparv_law(name: str, k=None, **params) -> Derivation:
    r"""Exact GPARV law of ``make(name, k=k, eps0=2 log(1+s), **params)`` in :math:`(w, v)`.

    ``k`` may be an integer, or (for ``"krr"``) a positive integer symbol.  All
    neighbouring pairs must give the same law (true for the symmetric mechanisms of
    Table 1); otherwise the distinct laws are in ``extras["laws"]`` and the result is
    the first.
    """
    mech = make(name, k=k, eps0=2 * sp.log(1 + s), **params)
    laws = mech.gparv_laws(eps)
    converted = []
    for law, pairs in laws:
        conv = _merge((to_wv(a), to_wv(p)) for a, p in zip(law.atoms, law.probabilities))
        converted.append((conv, tuple(pairs)))
    gamma = to_wv(mech.blanket().gamma)
    steps = (("blanket mass gamma", gamma),)
    return Derivation(
        id=f"gparv.{name}" + (f".k{k}" if k is not None else ""),
        title=f"GPARV law of {name}" + (f" (k={k})" if k is not None else ""),
        result=converted[0][0],
        variables=(w, v),
        assumptions=("w = exp(eps0/2) > 1", "v = exp(eps) >= 1"),
        source=SOURCE,
        steps=steps,
        lhs=r"G_\varepsilon",
        extras={"laws": converted, "gamma": gamma, "n_laws": len(converted)},
    )


def compare_laws(derived: tuple, printed: tuple) -> dict:
    r"""Atom-by-atom difference ``derived - printed`` (atoms matched by ``cancel``).

    Returns ``{"equal": bool, "differences": [(atom, derived_p, printed_p, diff)]}``;
    atoms present in only one law count with probability 0 in the other.
    """
    atoms: list = []
    for a, _ in list(derived) + list(printed):
        if not any(sp.cancel(a - b) == 0 for b in atoms):
            atoms.append(a)
    diffs = []
    for a in atoms:
        pd = sum((p for b, p in derived if sp.cancel(a - b) == 0), sp.Integer(0))
        pp = sum((p for b, p in printed if sp.cancel(a - b) == 0), sp.Integer(0))
        d = sp.factor(sp.cancel(pd - pp))
        if d != 0:
            diffs.append((a, sp.factor(pd), sp.factor(pp), d))
    return {"equal": not diffs, "differences": diffs}


def total_variation(derived: tuple, printed: tuple, values: dict) -> float:
    """Total variation between two laws at numeric ``values`` of (w, v)."""
    res = compare_laws(derived, printed)
    return 0.5 * sum(abs(float(d.subs(values))) for _, _, _, d in res["differences"])
