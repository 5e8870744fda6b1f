r"""Certified accountant of the multi-message protocols (``multi-blanket``).

Evaluates the pair-count reduction of :mod:`shufflekit.mechanisms.multi_message`: every term
:math:`D(\varepsilon) = \frac1{M+1}E[(\sum_{i\le M+1}G_i)_+]` with the three-atom law
:math:`G\in\{1/q, -e^\varepsilon/q', 0\}` (or its reverse) is enclosed by the certified lattice
evaluation of :func:`shufflekit.numeric.methods.blanket_fft.lattice_delta` (the atoms as
floats with Arb margins, the probabilities correctly rounded from the exact ones, the zero mass
with its relative error); the terms are weighted (weights in Arb, rounded up), summed per
direction, maximised over directions and minimised over the protocol's alternative
decompositions.  ``get_delta`` reports the running minimum over the epsilons evaluated at or
below the requested one (valid: the true profile is non-increasing), since a weak-triangle term
:math:`e^{\varepsilon/2}D(\varepsilon/2)` need not be.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb, ctx

from shufflekit.numeric.accountant import Accountant, invert_delta, register
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.numeric.kernels.ratio_lattice import arb_function
from shufflekit.numeric.methods.blanket_fft import lattice_delta
from shufflekit.validation import check_delta, check_epsilon

U = 2.0**-53


@lru_cache(maxsize=256)
def _compiled(expr: Any):
    e = sp.sympify(expr)
    names = tuple(s.name for s in sorted(e.free_symbols, key=lambda s: s.name))
    return arb_function(e, [sp.Symbol(nm, positive=True) for nm in names]), names


def _arb(expr: Any, **subs: Any):
    """``expr`` (sympy, free symbols given by name in ``subs``) as an Arb ball."""
    f, names = _compiled(expr)
    return f(*[subs[nm] for nm in names])


def term_delta(q: Any, qp: Any, slots: int, epsilon: float, order: str) -> tuple[float, float]:
    r"""``(lo, hi)``: ``hi`` a certified upper bound on :math:`\frac1{M+1}E[(\sum G_i)_+]`
    (the upper lattice evaluation of :func:`~shufflekit.numeric.methods.blanket_fft.lattice_delta`;
    ``lo`` is the lower end of that ball, a lower end of the bound, not of the truth)."""
    with ctx.workprec(128):
        qa, qpa = _arb(q), _arb(qp)
        E = arb(epsilon).exp()
        if order == "forward":
            atoms = [1 / qa, -E / qpa]
        else:
            atoms = [-E / qa, 1 / qpa]
        zero = 1 - qa - qpa
        g = [float(a.mid()) for a in atoms]
        margins = [float(a.rad()) + 2 * U * abs(float(a.mid())) for a in atoms]
        probs = [float(qa.mid()), float(qpa.mid())]
        z = max(float(zero.mid()), 0.0)
        z_err = (float(zero.rad()) / z + U) * (1 + 1e-9) if z > 0 else None
    ev = lattice_delta(
        g, probs, int(slots) + 1, zero_mass=z, margins=margins, zero_mass_rel_err=z_err
    )
    return max(float_down(ev.value), 0.0), min(float_up(ev.value), 1.0)


def protocol_delta(mech: Any, n: int, epsilon: float) -> tuple[float, float, str]:
    """``(lo, hi, note)``: the protocol's certified bound at ``epsilon`` (module docstring);
    ``lo`` is the largest lower end of the chosen alternative's terms (the bound, not the truth)."""
    best_hi, best_lo, best_note = math.inf, 0.0, ""
    cache: dict = {}
    for alt in mech.decompositions(n):
        worst_hi, worst_lo, worst_note = 0.0, 0.0, ""
        for direction in alt:
            hi_sum, lo_sum = 0.0, 0.0
            for t in direction.terms:
                eps_t = float_up(arb(epsilon) * _arb(t.scale)) if t.scale != 1 else epsilon
                key = (t.q, t.qp, int(t.slots), eps_t, t.order)
                if key not in cache:
                    cache[key] = term_delta(t.q, t.qp, int(t.slots), eps_t, t.order)
                lo, hi = cache[key]
                with ctx.workprec(128):
                    w = _arb(t.weight, E=arb(epsilon).exp())
                hi_sum += float_up(w * hi) * (1 + 4 * U)
                lo_sum += float_down(w * lo) * (1 - 4 * U)
            if hi_sum > worst_hi:
                worst_hi, worst_lo, worst_note = hi_sum, lo_sum, direction.label
        if worst_hi < best_hi:
            best_hi, best_lo, best_note = worst_hi, worst_lo, worst_note
    return min(best_lo, 1.0), min(best_hi, 1.0), best_note


def is_multi_message(mech: Any) -> bool | str:
    """True for a multi-message protocol with a pair-count decomposition."""
    if hasattr(mech, "decompositions") and hasattr(mech, "slot_blanket"):
        return True
    return "multi-blanket applies to the multi-message protocols (balls-into-bins, ...)"


class MultiBlanketAccountant(Accountant):
    r"""Upper bound on the shuffled divergence of a multi-message protocol over every
    neighbouring pair (the pair-count reduction of :mod:`shufflekit.mechanisms.multi_message`)."""

    kind = Kind.UPPER
    certificate = (
        "pair-count reduction (post-processing, joint convexity, weak triangle inequality) to "
        "Su-Cheng-Wang 2026 Thm 5 laws; each term a certified lattice evaluation (Arb)"
    )
    pairs = "all: every neighbouring pair of inputs (the reduction is the same for each)"

    def __init__(self, mech: Any, n: int, *, adjacency: str = "replace-one"):
        self.method, self.mechanism, self.n, self.adjacency = "multi-blanket", mech, n, adjacency
        e0 = mech.eps0()
        self.eps_max = math.inf if e0 == sp.oo else float_up(_arb(e0))
        self.evaluated: dict[float, tuple[float, float, str]] = {}

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        if epsilon >= self.eps_max:
            return self._bound("delta", epsilon, 0.0, 0.0, note="epsilon >= eps0: delta = 0")
        if epsilon not in self.evaluated:
            self.evaluated[epsilon] = protocol_delta(self.mechanism, self.n, epsilon)
        lo, hi, note = self.evaluated[epsilon]
        for e, (lo2, hi2, note2) in self.evaluated.items():
            if e < epsilon and hi2 < hi:
                lo, hi = min(lo2, hi2), hi2
                note = f"running minimum: evaluated at epsilon={e:.10g} ({note2})"
        return self._bound(
            "delta", epsilon, min(lo, hi), hi, seconds=time.perf_counter() - t0, note=note
        )

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-4) -> Bound:
        """Certified epsilon(delta) by the shared inversion (started at a Gaussian guess)."""
        delta = check_delta(delta)
        t = self.mechanism.decompositions(self.n)[0][0].terms[0]
        q = float(_arb(t.q).mid())
        m = float(t.slots) + 1
        guess = math.sqrt(2 * math.log(1 / delta) / max(q * m, 1e-300))
        start = min(max(guess, 1e-6), self.eps_max / 2 if math.isfinite(self.eps_max) else guess)
        return invert_delta(self, delta, rel_tol=rel_tol, eps_start=start)


@register(
    "multi-blanket",
    kind=Kind.UPPER,
    supports=is_multi_message,
    adjacencies=("replace-one",),
    default_for=lambda m, n: is_multi_message(m) is True,
    summary="pair-count blanket bound of the multi-message protocols (Thm 5 laws, certified)",
)
def _multi_blanket(mech, n, *, adjacency="replace-one", **options):
    return MultiBlanketAccountant(mech, n, adjacency=adjacency)
