r"""The affine-lognormal law and its certified lattice discretisation.

:math:`L = a + b\,e^{sZ + m}`, :math:`Z \sim N(0,1)`, :math:`s > 0`, :math:`b \ne 0` of either sign
(``b < 0`` is the law of the reversed pair of Takagi-Liew 2026, App. C:
:math:`1 - e^\varepsilon R_x/R_{BG}`).

With :math:`z(x) = (\log((x-a)/b) - m)/s` and :math:`E[e^{sZ}1\{Z\le z\}] = e^{s^2/2}\Phi(z-s)`:

* :math:`b > 0`: :math:`F(x) = P(L \le x) = \Phi(z)`,
  :math:`G(x) = E[L\,1\{L\le x\}] = a\Phi(z) + b e^{m+s^2/2}\Phi(z - s)` (:math:`x > a`);
* :math:`b < 0`: :math:`F(x) = \Phi(-z)`,
  :math:`G(x) = a\Phi(-z) + b e^{m+s^2/2}\Phi(s - z)` (:math:`x < a`).

:func:`~shufflekit.numeric.kernels.ratio_lattice.discretise` (the lattice engine shared by every
continuous randomizer) builds a law on the lattice :math:`h\mathbb Z \cap [T_{lo}, T_{hi}]`:

1. mass above :math:`T_{hi}` is moved down to :math:`T_{hi}`; the moved excess
   :math:`E[(L - T_{hi})_+]` is returned (it is added to :math:`\delta` by the caller: for
   :math:`v \ge 0`, :math:`(u+v)_+ \le u_+ + v`);
2. mass below :math:`T_{lo}` is moved up to :math:`T_{lo}` (a pointwise increase: never lowers
   :math:`E[(\cdot)_+]`, so no term is needed);
3. inside each cell :math:`[x_j, x_{j+1}]` (lattice points; unit cells in the bulk
   :math:`|z| \le 4.5`, widths doubling every 64 cells in the tails) the mass
   :math:`P_j = F(x_{j+1}) - F(x_j)` is split between the endpoints keeping the cell mean (right
   share :math:`(G(x_{j+1}) - G(x_j) - x_jP_j)/(x_{j+1}-x_j)`): a mean-preserving spread, so the
   lattice law dominates the truncated law in convex order.

Every :math:`F, G` and excess is an Arb ball (python-flint); the float64 masses returned differ
from the exact lattice law by at most ``l1_error`` in :math:`\ell_1` (ball radii plus one rounding
each).  The excess is the upper end of its Arb ball.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shufflekit.numeric.kernels.ratio_lattice import (  # noqa: F401 - the engine, re-exported
    LatticeLaw,
    discretise,
    edge_indices,
    truncation_points,
)

U = 2.0**-53


@dataclass(frozen=True)
class AffineLognormal:
    r"""The law of :math:`L = a + b\,e^{sZ + m}`, :math:`Z\sim N(0,1)`."""

    a: float
    b: float
    s: float
    m: float

    @property
    def degenerate(self) -> bool:
        return self.b == 0 or self.s == 0

    def log_scale(self) -> float:
        r""":math:`\log|b| + m + s^2/2`, the log of :math:`|b|E[e^{sZ+m}]` (no overflow)."""
        return math.log(abs(self.b)) + self.m + self.s**2 / 2 if self.b else -math.inf

    def mean(self) -> float:
        if self.degenerate:
            return self.a + self.b * math.exp(self.m)
        ls = self.log_scale()
        return (
            self.a + math.copysign(math.exp(ls), self.b)
            if ls < 709
            else math.copysign(math.inf, self.b)
        )

    def variance(self) -> float:
        r""":math:`b^2 e^{2m+s^2}(e^{s^2}-1)` (``inf`` when it overflows)."""
        if self.degenerate:
            return 0.0
        lv = 2 * self.log_scale() + (
            math.log(math.expm1(self.s**2)) if self.s**2 < 700 else self.s**2
        )
        return math.exp(lv) if lv < 709 else math.inf

    @property
    def upward(self) -> float:
        """+1 when ``L`` grows with ``Z`` (``b > 0``), -1 otherwise (the heavy side's direction)."""
        return 1.0 if self.b > 0 else -1.0

    def cdf_moment_arb(self, x):
        r"""Arb balls :math:`F(x) = P(L\le x)` and :math:`G(x) = E[L\,1\{L\le x\}]` (module
        docstring), the CDF evaluations the lattice engine splits cells with."""
        from flint import arb

        a, b, s, m = self.arb_params()
        xf = float(arb(x).mid())
        inside = (xf > self.a) if self.b > 0 else (xf < self.a)
        scale = b * (m + s * s / 2).exp()
        if not inside:  # below the support (b > 0) or above it (b < 0)
            return (arb(0), arb(0)) if self.b > 0 else (arb(1), a + scale)
        z = (((arb(x) - a) / b).log() - m) / s
        if self.b > 0:
            return phi(z), a * phi(z) + scale * phi(z - s)
        return phi(-z), a * phi(-z) + scale * phi(s - z)

    def quantile_point(self, z: float) -> float:
        """The value of ``L`` at ``Z = z`` (saturating at +-inf instead of overflowing)."""
        e = self.s * z + self.m
        return self.a + self.b * math.exp(e) if e < 709 else math.copysign(math.inf, self.b)

    # ------------------------------------------------------------------ Arb pieces
    def arb_params(self):
        from flint import arb

        return arb(self.a), arb(self.b), arb(self.s), arb(self.m)

    def threshold_arb(self, t: float):
        r"""Arb balls ``(a, s, t, scale, z)`` shared by :meth:`excess_arb` and
        :meth:`shortfall_arb`: :math:`\mathrm{scale} = |b|e^{m+s^2/2} = |b|E[e^{sZ+m}]` and
        :math:`z = (\log((t-a)/b) - m)/s`, the normal point where :math:`L = t` (``None`` when
        :math:`(t-a)/b \le 0`, i.e. ``L`` stays on one side of ``t``)."""
        from flint import arb

        a, b, s, m = self.arb_params()
        t_ = arb(t)
        scale = abs(b) * (m + s * s / 2).exp()
        crosses = t > self.a if self.b > 0 else t < self.a
        z = (((t_ - a) / b).log() - m) / s if crosses else None
        return a, s, t_, scale, z

    def excess_arb(self, t: float):
        r""":math:`E[(L - t)_+]` as an Arb ball."""
        from flint import arb

        a, s, t_, scale, z = self.threshold_arb(t)
        if self.b > 0:
            if z is None:
                return a + scale - t_  # L > t always: E[L] - t
            return scale * phi(s - z) - (t_ - a) * phi(-z)
        if z is None:
            return arb(0)
        return (a - t_) * phi(z) - scale * phi(z - s)  # L > t  <=>  Z < z

    def shortfall_arb(self, t: float):
        r""":math:`E[(t - L)_+]` as an Arb ball (direct formula, no cancellation against the
        mean)."""
        from flint import arb

        a, s, t_, scale, z = self.threshold_arb(t)
        if self.b > 0:
            if z is None:
                return arb(0)
            return (t_ - a) * phi(z) - scale * phi(z - s)  # L < t  <=>  Z < z
        if z is None:
            return t_ - a + scale
        return (a - t_) * -phi(-z) + scale * phi(s - z)  # L < t  <=>  Z > z


def phi(x):
    r""":math:`\Phi(x) = \mathrm{erfc}(-x/\sqrt2)/2` for an Arb ``x``."""
    from flint import arb

    return (-x / arb(2).sqrt()).erfc() / 2
