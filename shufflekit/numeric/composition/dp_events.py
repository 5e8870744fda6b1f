r"""Certified privacy curves of ``dp_accounting``'s additive-noise events, in Arb.

A ``dp_accounting.dp_event`` describes a mechanism by its noise; this module gives the exact
hockey-stick curves of the pair of output laws each event stands for, under the same
conventions as ``dp_accounting``'s PLD accountant (a record moves the query by at most 1):

* ``GaussianDpEvent(z)``: :math:`N(\mu, 1)` against :math:`N(0, 1)` with :math:`\mu = 1/z`
  under ``zero-out`` (``dp_accounting``'s ``REPLACE_SPECIAL``, the same pair as
  ``ADD_OR_REMOVE_ONE``) and :math:`\mu = 2/z` under ``replace-one`` (the record's contribution
  moves from :math:`-1` to :math:`+1`);
* ``LaplaceDpEvent(b)``: :math:`\mathrm{Lap}(\mu, 1)` against :math:`\mathrm{Lap}(0, 1)`,
  :math:`\mu = 1/b` (``zero-out`` only, as in ``dp_accounting``);
* ``PoissonSampledDpEvent(q, event)`` of either: each record takes part with probability
  :math:`q`.

**The curves** (:math:`H_\alpha(P\|Q) = \int (P - \alpha Q)_+`, :math:`\delta(\varepsilon) =
H_{e^\varepsilon}`; Balle and Wang 2018, Thm 8 for the Gaussian; the Laplace one by direct
integration of the three pieces of its privacy loss):

.. math::
    H^{\rm G}_\alpha = \Phi\Big(\frac\mu2 - \frac{\log\alpha}\mu\Big)
        - \alpha\,\Phi\Big(-\frac\mu2 - \frac{\log\alpha}\mu\Big),\qquad
    H^{\rm L}_\alpha = \big(1 - \sqrt{\alpha e^{-\mu}}\big)_+ \quad (\alpha \ge 1).

Both pairs are symmetric (a reflection swaps :math:`P` and :math:`Q`), so one curve bounds
both orders.

**Poisson subsampling, zero-out** (Balle, Barthe and Gaboardi 2018; Zhu, Dong and Wang 2022,
Thm 11).  With :math:`P' = qP + (1-q)Q` the two orders of the subsampled pair are, for
:math:`\varepsilon \ge 0`,

.. math::
    H_{e^\varepsilon}(P'\|Q) = q\,H_{t}(P\|Q),\quad t = 1 + \frac{e^\varepsilon - 1}q;\qquad
    H_{e^\varepsilon}(Q\|P') = \big(1 - (1-q)e^\varepsilon\big)\,H_{s}(P\|Q),\quad
    s = \frac{q e^\varepsilon}{1 - (1-q)e^\varepsilon},

the second one 0 once :math:`(1-q)e^\varepsilon \ge 1`.  *Proof.*  With :math:`r = P/Q`
(:math:`P \ll Q`, so :math:`\mathbb{E}_Q r = 1`): :math:`\int(P' - e^\varepsilon Q)_+ =
\mathbb{E}_Q(qr + 1 - q - e^\varepsilon)_+ = q\,\mathbb{E}_Q(r - t)_+ = qH_t(P\|Q)`.  And with
:math:`c = 1 - (1-q)e^\varepsilon > 0`, :math:`a = 1/s \le 1`:
:math:`\int(Q - e^\varepsilon P')_+ = \mathbb{E}_Q(c - qe^\varepsilon r)_+ =
qe^\varepsilon\,\mathbb{E}_Q(a - r)_+`; since :math:`\mathbb{E}_Q(a - r)_+ = a - 1 +
\mathbb{E}_Q(r - a)_+ = a - 1 + H_a(P\|Q)` and, the base pair being symmetric,
:math:`H_a(P\|Q) = 1 - a + aH_{1/a}(P\|Q)` (fact (iii) of
:mod:`~shufflekit.numeric.composition.dominating_pair`), this is :math:`qe^\varepsilon a H_s =
cH_s(P\|Q)`; for :math:`c \le 0` the integrand is never positive. :math:`\square`
The two orders differ, so a subsampled event enters a
composition as two directed loss laws.

**Poisson subsampling, replace-one** (the pair ``dp_accounting`` uses):
:math:`A = qN(-1, z^2) + (1-q)N(0, z^2)` against :math:`B = qN(1, z^2) + (1-q)N(0, z^2)`
(symmetric).  :math:`A/B` decreases in :math:`x`; with :math:`u = e^{x/z^2}`,
:math:`c = e^{-1/(2z^2)}`, :math:`A/B > \alpha` iff :math:`\alpha qc\,u^2 + (\alpha - 1)(1-q)u
- qc < 0`, i.e. :math:`u < u^*` (the positive root), and
:math:`H_\alpha = A(X < x^*) - \alpha B(X < x^*)`, :math:`x^* = z^2\log u^*`.

**Arithmetic.**  Every curve is an Arb ball; the working precision doubles until the ball's
relative radius is below :data:`REL` (the two terms cancel deep in the tail).  A threshold
:math:`x^*` enters as a ball: the enclosure of :math:`A(X<x) - \alpha B(X<x)` over the ball
contains the value at the exact :math:`x^*`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from flint import arb, ctx

from shufflekit.errors import InvalidParameter
from shufflekit.numeric.accountant import Accountant
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.validation import check_epsilon, check_real

#: relative radius the curves are evaluated to (then rounded outward to floats)
REL = 1e-15
#: largest working precision tried (bits) before the ball is returned as it is
MAX_PREC = 1 << 14


def _phi(x: arb) -> arb:
    """Standard normal cdf of an Arb ball (erfc has no cancellation in the lower tail)."""
    return (-x / arb(2).sqrt()).erfc() / 2


def gaussian_hockey_stick(alpha: arb, mu: arb) -> arb:
    r""":math:`H_\alpha(N(\mu,1)\|N(0,1))` for an Arb ball :math:`\alpha > 0`."""
    la = alpha.log()
    return _phi(mu / 2 - la / mu) - alpha * _phi(-mu / 2 - la / mu)


def laplace_hockey_stick(alpha: arb, mu: arb) -> arb:
    r""":math:`H_\alpha(\mathrm{Lap}(\mu,1)\|\mathrm{Lap}(0,1)) = (1 - \sqrt{\alpha e^{-\mu}})_+`
    for :math:`\alpha \ge 1`."""
    v = 1 - (alpha * (-mu).exp()).sqrt()
    return v if v > 0 else arb(0) if v < 0 else v.union(arb(0))


def subsampled_remove(base, alpha: arb, q: arb) -> arb:
    r""":math:`H_\alpha(qP + (1-q)Q\|Q) = q\,H_{1 + (\alpha-1)/q}(P\|Q)` (module docstring)."""
    return q * base(1 + (alpha - 1) / q)


def subsampled_add(base, alpha: arb, q: arb) -> arb:
    r""":math:`H_\alpha(Q\|qP + (1-q)Q) = c\,H_{q\alpha/c}(P\|Q)`, :math:`c = 1 - (1-q)\alpha`,
    and 0 once :math:`c \le 0` (module docstring)."""
    c = 1 - (1 - q) * alpha
    if not c > 0:
        if c <= 0:
            return arb(0)
        # the ball straddles 0: the value lies between 0 and the value at the largest c
        cc = arb(c.upper())
        return arb(0).union(cc * base(q * alpha / cc)) if cc > 0 else arb(0)
    return c * base(q * alpha / c)


def replace_subsampled_gaussian(alpha: arb, z: arb, q: arb) -> arb:
    r""":math:`H_\alpha(qN(-1,z^2) + (1-q)N(0,z^2)\,\|\,qN(1,z^2) + (1-q)N(0,z^2))`
    (module docstring)."""
    c = (-1 / (2 * z * z)).exp()
    b = (alpha - 1) * (1 - q)
    u = (-b + (b * b + 4 * alpha * q * q * c * c).sqrt()) / (2 * alpha * q * c)
    x = z * z * u.log()
    A = q * _phi((x + 1) / z) + (1 - q) * _phi(x / z)
    B = q * _phi((x - 1) / z) + (1 - q) * _phi(x / z)
    return A - alpha * B


def _to_ball(x: Any) -> arb:
    if isinstance(x, arb):
        return x
    return arb(float(x))


def evaluate(fn, *args: Any) -> arb:
    r"""``fn(*balls)`` at a working precision that doubles until the result's relative radius
    is at most :data:`REL` (or :data:`MAX_PREC` bits); the arguments are exact floats."""
    prec = 128
    while True:
        with ctx.workprec(prec):
            v = fn(*[_to_ball(a) for a in args])
            if v.is_exact() or v.rad() <= REL * abs(v.mid()) or prec >= MAX_PREC:
                return v
        prec *= 2


# ============================================================================ the events
@dataclass(frozen=True)
class NoiseEvent:
    r"""One additive-noise event in the module's conventions: ``kind`` ``gaussian`` (``scale``
    the noise multiplier :math:`z`) or ``laplace`` (``scale`` the Laplace parameter
    :math:`b`), taken by each record with probability ``q`` (1: no subsampling)."""

    kind: str
    scale: float
    q: float = 1.0

    def describe(self) -> dict:
        name = {"gaussian": "GaussianDpEvent", "laplace": "LaplaceDpEvent"}[self.kind]
        out = {"name": name, "noise_multiplier": self.scale}
        if self.q != 1.0:
            out = {"name": "PoissonSampledDpEvent", "sampling_probability": self.q, "event": out}
        return out


def noise_event(event: Any) -> NoiseEvent | None:
    """The :class:`NoiseEvent` of a ``dp_accounting`` Gaussian, Laplace or Poisson-sampled
    Gaussian/Laplace event; ``None`` for another object.  A zero noise multiplier is a
    non-private event (``scale = 0``); a sampling probability of 0 is no event (``q = 0``)."""
    from dp_accounting import dp_event as de

    q = 1.0
    inner = event
    if isinstance(event, de.PoissonSampledDpEvent):
        q = check_real("sampling_probability", event.sampling_probability, 0.0, 1.0)
        inner = event.event
        if not isinstance(inner, (de.GaussianDpEvent, de.LaplaceDpEvent)):
            raise InvalidParameter(
                "PoissonSampledDpEvent.event",
                type(inner).__name__,
                "a GaussianDpEvent or a LaplaceDpEvent",
                "the subsampled curve is known for these",
            )
    if isinstance(inner, de.GaussianDpEvent):
        z = check_real("noise_multiplier", inner.noise_multiplier, 0.0, 1e12)
        return NoiseEvent("gaussian", z, q)
    if isinstance(inner, de.LaplaceDpEvent):
        b = check_real("noise_multiplier", inner.noise_multiplier, 0.0, 1e12)
        return NoiseEvent("laplace", b, q)
    return None


class NoiseCurveAccountant(Accountant):
    r"""The exact curve of one direction of a :class:`NoiseEvent`'s pair (module docstring), as
    an accountant (``kind`` exact, Arb): ``direction`` ``forward`` is the order
    :math:`P'\|Q` (for zero-out: the record present against absent), ``reverse`` the other.
    ``n`` is 1: the event is the whole mechanism."""

    kind = Kind.EXACT

    def __init__(self, event: NoiseEvent, adjacency: str, direction: str = "forward"):
        if event.kind == "laplace" and adjacency != "zero-out":
            raise InvalidParameter(
                "adjacency",
                adjacency,
                "zero-out for a LaplaceDpEvent (REPLACE_SPECIAL or ADD_OR_REMOVE_ONE in "
                "dp_accounting)",
                "dp_accounting defines the Laplace event for these relations only",
            )
        if not event.scale > 0 or not event.q > 0:
            raise InvalidParameter("event", event, "a noise scale > 0 and a sampling rate > 0")
        self.event, self.adjacency, self.direction = event, adjacency, direction
        self.method = f"{event.kind}-event"
        self.n = 1
        self.mechanism = event.describe()
        self.options = {"direction": direction}  # with the rest, names the curve (cache key)
        self.certificate = (
            "exact curve of the event's pair (Balle-Wang 2018 Thm 8; Laplace by direct "
            "integration; Poisson subsampling: Zhu-Dong-Wang 2022 Thm 11), Arb"
        )
        replace = adjacency == "replace-one"
        #: the shift over the noise scale is mu = factor / scale, formed in Arb (the float
        #: quotient would stand for a slightly different mechanism)
        self._factor = 2.0 if replace else 1.0
        self._replace_sampled = replace and event.q < 1.0
        self.eps_max = self._eps_max()

    def _eps_max(self) -> float:
        q, ev = self.event.q, self.event
        if ev.kind == "gaussian":
            if q < 1.0 and not self._replace_sampled and self.direction == "reverse":
                return -math.log1p(-q) * (1 + 1e-12)  # the add order is 0 beyond -log(1-q)
            return math.inf
        mu = self._factor / ev.scale * (1 + 1e-12)  # an upper bound on the exact quotient
        if q == 1.0:
            return mu * (1 + 1e-12)
        if self.direction == "reverse":
            return -math.log1p(-q) * (1 + 1e-12)
        return math.log1p(q * math.expm1(mu)) * (1 + 1e-12)

    def _base(self, mu: arb):
        if self.event.kind == "gaussian":
            return lambda a: gaussian_hockey_stick(a, mu)
        return lambda a: laplace_hockey_stick(a, mu)

    def curve(self, epsilon: float) -> arb:
        """Arb ball of the curve at ``epsilon``."""
        q, ev = self.event.q, self.event
        if self._replace_sampled:
            return evaluate(
                lambda e, z, qq: replace_subsampled_gaussian(e.exp(), z, qq), epsilon, ev.scale, q
            )

        def f(e: arb, scale: arb, qq: arb) -> arb:
            base = self._base(self._factor / scale)
            a = e.exp()
            if q == 1.0:
                return base(a)
            if self.direction == "forward":
                return subsampled_remove(base, a, qq)
            return subsampled_add(base, a, qq)

        return evaluate(f, epsilon, ev.scale, q)

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        e = check_epsilon(epsilon)
        if e >= self.eps_max:
            return self._bound("delta", e, 0.0, 0.0, note="beyond the largest privacy loss")
        return Bound.from_arb(
            "delta",
            e,
            self.curve(e),
            kind=self.kind,
            method=self.method,
            adjacency=self.adjacency,
            pairs=self.pairs,
            certificate=self.certificate,
            seconds=time.perf_counter() - t0,
        )

    @property
    def symmetric(self) -> bool:
        """Whether the two orders of the pair have the same curve (no zero-out subsampling)."""
        return self.event.q == 1.0 or self._replace_sampled
