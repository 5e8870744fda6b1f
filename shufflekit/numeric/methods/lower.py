r"""Exact lower bound on the shuffled privacy profile (Su-Cheng-Wang 2026, Thm 5, Sec. 5.3).

For inputs :math:`X^0 = (x^0, z, \dots, z)` and :math:`X^1 = (x^1, z, \dots, z)`
the shuffled hockey-stick divergence is exactly

.. math::
    D_{e^\varepsilon}(M_S(X^0)\,\|\,M_S(X^1)) = \frac1n\,\mathbb{E}\Big[\Big(\sum_{i=1}^n G_i\Big)_+\Big],
    \qquad G = \frac{R_{x^0}(y) - e^{\varepsilon} R_{x^1}(y)}{R_z(y)},\ y\sim R_z,

(proof: the shuffled law of :math:`X^b` has density
:math:`P[W_n = Y]\cdot\frac1n\sum_i R_{x^b}(y_i)/R_z(y_i)` w.r.t. the law of
:math:`n` draws from :math:`R_z`).  Any such pair is a pair of neighbouring
datasets, so the value is a lower bound on the mechanism's profile; the code tries
every triple :math:`(x^0, x^1, z)` with :math:`x^0\ne x^1` and :math:`R_z` covering the
support of :math:`R_{x^0}, R_{x^1}`, grouped into distinct laws, and keeps the largest.
The expectation is enclosed with the certified machinery of
:mod:`shufflekit.numeric.kernels.positive_part` (Arb); the reported value is the *lower* end of the
enclosure, so it never exceeds the true divergence.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from shufflekit.errors import CannotCertify
from shufflekit.numeric.accountant import Accountant, PrivacyProfile, register
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.gparv_law import RatioLaw, float_matrix, merge_classes
from shufflekit.numeric.methods.blanket import describe_mechanism, law_enclosure
from shufflekit.validation import check_delta, check_epsilon, check_n


@dataclass(frozen=True)
class Triple:
    law: RatioLaw  # alpha = R_x0/R_z, beta = R_x1/R_z, weight = R_z
    x0: object
    x1: object
    z: object


def theorem5_laws(mech) -> list[Triple]:
    r"""Distinct laws of G over all triples (x0 != x1, z); joint compositions are expanded.

    Output classes of a triple are merged by
    :func:`~shufflekit.numeric.kernels.gparv_law.merge_classes` (relative tolerance on every
    ratio, within the atom radius a lower bound may move G by), so that :math:`\sum_y R_z(y)\alpha(y) = \sum_y R_z(y)\beta(y) = 1` up to round-off.
    """
    if getattr(mech, "components", None):
        mech = mech.to_finite()
    P, mult = float_matrix(mech)
    inputs = list(mech.inputs)
    k = len(inputs)
    out: list[Triple] = []
    for i0 in range(k):
        for i1 in range(k):
            if i0 == i1:
                continue
            for iz in range(k):
                rz = P[iz]
                keep = rz > 0
                if np.any(P[i0, ~keep] > 0) or np.any(P[i1, ~keep] > 0):
                    continue
                t = merge_classes(
                    P[i0, keep] / rz[keep], P[i1, keep] / rz[keep], mult[keep] * rz[keep]
                )
                if any(
                    tr.law.alpha.shape == t[:, 0].shape
                    and np.allclose(
                        np.stack([tr.law.alpha, tr.law.beta, tr.law.weight], 1),
                        t,
                        rtol=1e-12,
                        atol=0,
                    )
                    for tr in out
                ):
                    continue
                out.append(
                    Triple(
                        RatioLaw(t[:, 0], t[:, 1], t[:, 2], 1.0, ((inputs[i0], inputs[i1]),)),
                        inputs[i0],
                        inputs[i1],
                        inputs[iz],
                    )
                )
    if not out:
        raise ValueError(
            "no triple (x0, x1, z) has R_z covering the outputs of x0 and x1; "
            "Theorem 5 needs such a reference input"
        )
    return out


def lower_enclosure(law: RatioLaw, epsilon: float, n: int) -> tuple[float, float]:
    r"""Enclosure ``(lo, hi)`` of the Theorem 5 value of one triple's law at ``epsilon``.

    :math:`G = \alpha - e^\varepsilon\beta` with :math:`\alpha = R_{x^0}/R_z`,
    :math:`\beta = R_{x^1}/R_z`, probabilities :math:`R_z` (no zero atom), enclosed exactly
    as the blanket value (:func:`shufflekit.numeric.methods.blanket.law_enclosure`: atoms with a
    relative radius covering the float ratios and the 12-digit class merge, probabilities
    with their float error, Arb-certified sums).  ``lo`` is a proven lower bound on the
    divergence of the pair, hence on the mechanism's profile.
    """
    return law_enclosure(law, epsilon, n)


def lower_of_law(law: RatioLaw, epsilon: float, n: int) -> tuple[float, float]:
    """(lower end, width) of :func:`lower_enclosure` (legacy shape)."""
    lo, hi = lower_enclosure(law, epsilon, n)
    return lo, hi - lo


def lower_delta(mech, epsilon: float, n: int) -> tuple[float, float, Triple]:
    """(lower bound on delta, error, the worst triple) at ``epsilon``."""
    n = check_n(n)
    epsilon = check_epsilon(epsilon)
    return best_triple(theorem5_laws(mech), epsilon, n)


def best_triple(
    triples, epsilon: float, n: int, *, skipped: list | None = None
) -> tuple[float, float, Triple]:
    """(lower bound, error, triple) maximised over ``triples``.

    A triple whose exact sums are out of reach (too many cells to enumerate) is left out of
    the maximum: the maximum over the others is still a lower bound, only a weaker one.  If
    every triple is out of reach the bound is the trivial 0.  The reasons are appended to
    ``skipped`` when a list is given.
    """
    best = None
    for tr in triples:
        try:
            v, e = lower_of_law(tr.law, epsilon, n)
        except (OverflowError, CannotCertify) as exc:
            v, e = 0.0, 0.0
            if skipped is not None:
                skipped.append(str(exc))
        if best is None or v > best[0]:
            best = (v, e, tr)
    return best


@dataclass(frozen=True)
class LowerAccountant:
    triples: tuple
    n: int
    mechanism: dict

    @classmethod
    def of(cls, mech, n: int) -> LowerAccountant:
        return cls(tuple(theorem5_laws(mech)), check_n(n), describe_mechanism(mech))

    def delta(self, epsilon: float) -> tuple[float, float, Triple]:
        return best_triple(self.triples, check_epsilon(epsilon), self.n)

    def epsilon(self, delta: float, *, rel_tol: float = 1e-8) -> float:
        """An epsilon below the true one: a Theorem 5 value still exceeds ``delta`` there.

        Every triple gives a valid lower bound, so each is inverted on its own (Brent on
        the log of its value) and the largest certified epsilon is returned.
        """
        check_delta(delta)
        best = 0.0
        for tr in self.triples:
            best = max(
                best,
                _epsilon_lower(lambda e: best_triple((tr,), e, self.n)[0], delta, rel_tol=rel_tol),
            )
        return best


def _epsilon_lower(delta_low, delta: float, *, rel_tol: float) -> float:
    """Largest epsilon found with ``delta_low(eps) > delta`` (0 if none)."""
    from scipy.optimize import brentq

    if delta_low(0.0) <= delta:
        return 0.0
    lo, hi = 0.0, 1e-3
    while delta_low(hi) > delta:
        lo, hi = hi, 2 * hi
        if hi > 64:
            return lo
    root = brentq(
        lambda e: math.log(max(delta_low(e), 1e-320)) - math.log(delta),
        lo,
        hi,
        xtol=1e-15,
        rtol=rel_tol / 4,
        maxiter=200,
    )
    for step in (1 - rel_tol / 2, 1 - rel_tol, 1 - 4 * rel_tol, 1 - 1e-6, 1 - 1e-4):
        e = root * step
        if e <= lo:
            break
        if delta_low(e) > delta:
            return e
    return lo


def lower_profile(mech, n: int, epsilons: Sequence[float]) -> PrivacyProfile:
    """Theorem 5 lower bound at each epsilon (worst triple found by search), one Bound each."""
    return Theorem5Accountant(mech, n).profile(epsilons=epsilons)


# ===================================================================== registry entry


def lower_supported(mech) -> bool | str:
    from shufflekit.numeric.kernels.gparv_law import is_continuous_ldp, is_finite_ldp

    if is_continuous_ldp(mech) is True:
        return (
            "the Theorem 5 lower bound needs exact sums over a finite output alphabet; a "
            "continuous mechanism quantized finely enough is out of their reach"
        )
    ok = is_finite_ldp(mech)
    if ok is not True:
        return ok
    try:
        theorem5_laws(mech)
    except ValueError as exc:
        return str(exc)
    return True


class Theorem5Accountant(Accountant):
    r"""Lower bound of Su-Cheng-Wang 2026, Thm 5: the exact divergence of the pairs
    :math:`(x^0, z, \dots, z)` vs :math:`(x^1, z, \dots, z)`, maximised over the triples.

    Each such pair is a replace-one neighbouring pair, so its divergence is at most the
    mechanism's worst case: ``lo`` is a proven lower bound on the true :math:`\delta(\varepsilon)`
    (and :meth:`get_epsilon` a proven lower bound on :math:`\varepsilon(\delta)`).  The pair's
    expectation is evaluated with :func:`shufflekit.numeric.methods.blanket.blanket_delta_exact`.
    """

    kind = Kind.LOWER
    certificate = (
        "Su-Cheng-Wang 2026 Thm 5 (exact divergence of named replace-one pairs); multinomial "
        "sums enclosed with Arb anchors and proven float recurrences"
    )

    def __init__(self, mech, n: int, *, adjacency: str = "replace-one"):
        from shufflekit.numeric.kernels.gparv_law import numeric_eps0

        self.method, self.mechanism, self.n, self.adjacency = "lower", mech, n, adjacency
        self._inner = LowerAccountant.of(mech, n)
        self.eps_max = numeric_eps0(mech)

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        skipped: list[str] = []
        v, err, tr = best_triple(self._inner.triples, epsilon, self.n, skipped=skipped)
        note = f"worst triple x0={tr.x0!r}, x1={tr.x1!r}, z={tr.z!r}"
        if len(skipped) == len(self._inner.triples):
            note = f"every triple is out of reach ({skipped[0]}): the trivial lower bound 0"
        elif skipped:
            note += f"; {len(skipped)} of {len(self._inner.triples)} triples out of reach"
        return self._bound(
            "delta", epsilon, v, min(v + err, 1.0), seconds=time.perf_counter() - t0, note=note
        )


@register(
    "lower",
    kind=Kind.LOWER,
    supports=lower_supported,
    adjacencies=("replace-one",),
    summary="Su-Cheng-Wang 2026 Thm 5 lower bound (exact divergence of the best (x0, x1, z) pairs)",
)
def _lower(mech, n, *, adjacency="replace-one", **options):
    """Su-Cheng-Wang 2026, Thm 5: a certified lower bound over replace-one pairs."""
    return Theorem5Accountant(mech, n, adjacency=adjacency)
