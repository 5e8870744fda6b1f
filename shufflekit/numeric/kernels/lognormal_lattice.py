r"""The affine-lognormal law and its certified lattice discretisation.

:math:`L = a + b\,e^{sZ + m}`, :math:`Z \sim N(0,1)`, :math:`s > 0`, :math:`b \ne 0` of either sign
(``b < 0`` is the law of the reversed pair of Takagi-Liew 2026, App. C: :math:`1 - e^\varepsilon R_x/R_{BG}`).

With :math:`z(x) = (\log((x-a)/b) - m)/s` and :math:`E[e^{sZ}1\{Z\le z\}] = e^{s^2/2}\Phi(z-s)`:

* :math:`b > 0`: :math:`F(x) = P(L \le x) = \Phi(z)`,
  :math:`G(x) = E[L\,1\{L\le x\}] = a\Phi(z) + b e^{m+s^2/2}\Phi(z - s)` (:math:`x > a`);
* :math:`b < 0`: :math:`F(x) = \Phi(-z)`, :math:`G(x) = a\Phi(-z) + b e^{m+s^2/2}\Phi(s - z)` (:math:`x < a`).

:func:`discretise` builds a law on the lattice :math:`h\mathbb Z \cap [T_{lo}, T_{hi}]`:

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

import numpy as np

from shufflekit.numeric.kernels.directed_rounding import float_up

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
        r""":math:`E[(t - L)_+]` as an Arb ball (direct formula, no cancellation against the mean)."""
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


@dataclass(frozen=True)
class LatticeLaw:
    """A law on ``h * (k0 + arange(len(p)))`` with its certified error terms."""

    h: float
    k0: int
    p: np.ndarray
    excess: float  # E[(L - T_hi)_+], upper end of its Arb ball (added to the bound)
    l1_error: float  # ||p - exact lattice law||_1
    shortfall: float  # E[(T_lo - L)_+] (accuracy only: the lower clamp is on the safe side)

    @property
    def k1(self) -> int:
        return self.k0 + len(self.p) - 1


def truncation_points(law: AffineLognormal, budget: float, h: float) -> tuple[float, float]:
    r"""Lattice points :math:`T_{lo} < T_{hi}` with :math:`E[(L-T_{hi})_+] \le` ``budget`` and
    :math:`E[(T_{lo}-L)_+] \le` ``budget`` (float search on the normal quantile; the excess that is
    finally used is recomputed in Arb)."""

    def excess_f(t: float) -> float:
        return float_up(law.excess_arb(t))

    def shortfall_f(t: float) -> float:
        return float_up(law.shortfall_arb(t))

    hi_z = 1.0 if law.b > 0 else -1.0
    z = 0.0
    t_hi = law.quantile_point(hi_z * z)
    while z < 40 and (not math.isfinite(t_hi) or excess_f(t_hi) > budget):
        z += 0.5
        t_hi = law.quantile_point(hi_z * z)
        if not math.isfinite(t_hi):
            z -= 0.5
            t_hi = law.quantile_point(hi_z * z)
            break
    z = 0.0
    t_lo = law.quantile_point(-hi_z * z)
    while z < 40 and shortfall_f(t_lo) > budget:
        z += 0.5
        t_lo = law.quantile_point(-hi_z * z)
        if not math.isfinite(t_lo):
            z -= 0.5
            t_lo = law.quantile_point(-hi_z * z)
            break
    return math.floor(t_lo / h) * h, math.ceil(t_hi / h) * h


def discretise(law: AffineLognormal, h: float, t_lo: float, t_hi: float) -> LatticeLaw:
    r"""The certified lattice law of :math:`L` on :math:`h\mathbb Z\cap[T_{lo},T_{hi}]` (see the
    module docstring); ``t_lo`` and ``t_hi`` are rounded outward to the lattice."""
    import flint

    old = flint.ctx.prec
    flint.ctx.prec = 106  # masses near F = 1 keep ~1e-32 absolute accuracy
    try:
        return _discretise(law, h, t_lo, t_hi)
    finally:
        flint.ctx.prec = old


def edge_indices(k0: int, k1: int, ka: int, kb: int, run: int = 64) -> list[int]:
    """Cell edges (lattice indices) from ``k0`` to ``k1``: every index in the bulk ``[ka, kb]``,
    then cells whose width doubles every ``run`` cells towards either end."""
    ka, kb = max(k0, min(ka, k1)), min(k1, max(kb, k0))
    edges = list(range(ka, kb + 1))
    step, count, k = 1, 0, kb
    while k < k1:
        k = min(k + step, k1)
        edges.append(k)
        count += 1
        if count % run == 0:
            step *= 2
    step, count, k, left = 1, 0, ka, []
    while k > k0:
        k = max(k - step, k0)
        left.append(k)
        count += 1
        if count % run == 0:
            step *= 2
    return left[::-1] + edges


def _discretise(law: AffineLognormal, h: float, t_lo: float, t_hi: float) -> LatticeLaw:
    from flint import arb

    k0 = math.floor(t_lo / h)
    k1 = max(math.ceil(t_hi / h), k0 + 1)
    if law.degenerate:
        v = law.mean()
        kv = math.floor(v / h)
        w = (v - kv * h) / h
        return LatticeLaw(h, kv, np.array([1 - w, w]), 0.0, 4 * U, 0.0)
    a, b, s, m = law.arb_params()
    scale = b * (m + s * s / 2).exp()
    ha = arb(h)
    root = -1 / arb(2).sqrt()
    phi = lambda x: (x * root).erfc() / 2  # noqa: E731 - Phi(x) = erfc(-x/sqrt2)/2
    # unit cells where the law has its bulk (|z| <= 4.5), wider cells (still ending on lattice
    # points, so the split is still a mean-preserving spread onto the lattice) in the tails
    za, zb = law.quantile_point(-4.5), law.quantile_point(4.5)
    xa, xb = min(za, zb), max(za, zb)
    ka = math.floor(xa / h) if math.isfinite(xa) else k0
    kb = math.ceil(xb / h) if math.isfinite(xb) else k1
    edges = edge_indices(k0, k1, ka, kb)
    f_edges, g_edges = [], []
    for k in edges:
        x = float(k * h)
        inside = (x > law.a) if law.b > 0 else (x < law.a)
        if not inside:
            # below the support (b > 0) or above it (b < 0)
            if law.b > 0:
                f_edges.append(arb(0)), g_edges.append(arb(0))
            else:
                f_edges.append(arb(1)), g_edges.append(a + scale)
            continue
        z = (((ha * k - a) / b).log() - m) / s
        if law.b > 0:
            f_edges.append(phi(z)), g_edges.append(a * phi(z) + scale * phi(z - s))
        else:
            f_edges.append(phi(-z)), g_edges.append(a * phi(-z) + scale * phi(s - z))
    size = k1 - k0 + 1
    pa = {k: arb(0) for k in edges}
    pa[edges[0]] += f_edges[0]  # below T_lo: moved up to T_lo
    for j in range(len(edges) - 1):
        kl, kr = edges[j], edges[j + 1]
        width = ha * (kr - kl)
        mass = f_edges[j + 1] - f_edges[j]
        first = g_edges[j + 1] - g_edges[j] - ha * kl * mass
        right = first / width
        pa[kl] += mass - right
        pa[kr] += right
    pa[edges[-1]] += 1 - f_edges[-1]  # above T_hi: moved down to T_hi
    p = np.zeros(size)
    rad = 0.0
    for k, v in pa.items():
        p[k - k0] = float(v.mid())
        rad += float(v.rad())
    l1 = rad + U * float(np.sum(np.abs(p)))
    p = np.maximum(p, 0.0)  # exact masses are >= 0: clipping moves closer
    exc = law.excess_arb(k1 * h)
    short = law.shortfall_arb(k0 * h)
    return LatticeLaw(
        h, k0, p, max(float_up(exc), 0.0), l1 * (1 + 1e-10), max(float_up(short), 0.0)
    )
