r"""Certified blanket bound for shuffled mechanisms with a continuous amplification variable.

For a local randomizer with blanket mass :math:`\gamma` and blanket :math:`R_{BG}`, the shuffled
mechanism is :math:`(\varepsilon, \delta)`-DP with (seed 000, App. C; Balle et al. Lemma 5.3)

.. math::
    \delta(\varepsilon) \le \frac{1}{n\gamma}\,
    E\Big[\Big(\sum_{i=1}^{M_0} \ell_\varepsilon(Y_i)\Big)_+\Big],
    \qquad M_0 \sim \mathrm{Bin}(n, \gamma),\ Y_i \sim R_{BG}\ \text{i.i.d.}

Writing :math:`X_j = B_j L_j` with :math:`B_j \sim \mathrm{Bern}(\gamma)` and
:math:`L_j \sim \ell_\varepsilon(Y)`, the sum is :math:`S = X_1 + \dots + X_n`.  This module
computes a certified upper bound on :math:`E[S_+]/(n\gamma)` when the law of :math:`L` is
*affine-lognormal*, :math:`L = a + b\,e^{sZ + m}`, :math:`Z \sim N(0, 1)` (the BMG of seed 000
and any mechanism whose :math:`\ell_\varepsilon` has that one-dimensional law).

Every approximation is on the safe side:

* **Truncation.**  :math:`L = \min(L, T) + (L - T)_+` and :math:`(u + v)_+ \le u_+ + v` for
  :math:`v \ge 0`, so :math:`E[S_+] \le E[S^T_+] + n\gamma E[(L-T)_+]`; the last term is
  evaluated in closed form with mpmath and added.
* **Discretisation (convex order).**  Inside each lattice cell :math:`[kh, (k+1)h]` the mass of
  :math:`\min(L, T)` is split between the two endpoints keeping the cell's conditional mean.
  The lattice law :math:`L'` is a mean-preserving spread of :math:`L`, i.e.
  :math:`L \le_{cx} L'`; convex order is kept by independent sums and by the Bernoulli
  thinning, and :math:`u \mapsto u_+` is convex, so :math:`E[S_+] \le E[S'_+]`.  (Rounding every
  atom *up*, i.e. first-order stochastic dominance, is also available as
  ``split="up"``; it is certified too but its bias is first order in :math:`h` and needs a
  far finer lattice for the same accuracy.)
* **Wrap-around.**  The FFT computes the law of :math:`S'` folded modulo :math:`Nh`.  Folded
  mass is non-negative, so the positive part read off the window is never too small.  The
  part of :math:`E[S'\,1\{S' > W\}]` above the window is bounded with the exact moment
  generating function of :math:`S'` (Chernoff):
  :math:`E[S 1\{S > W\}] \le (W + 1/\lambda) e^{-\lambda W} E[e^{\lambda S}]`, minimised over
  :math:`\lambda > 0`, and added.
* **Round-off.**  An a-priori estimate of the floating point error of FFT, power and inverse FFT
  (normwise FFT error :math:`c\,u\log_2 N` with a generous :math:`c`, amplified :math:`n` times by the
  power; in the 2-norm, turned into a bound on :math:`\sum_k s_k q_k` by Cauchy-Schwarz) is added.
  When the float64 estimate is not small compared with the value the transform is redone in
  ``long double``.  Float errors in the lattice masses are bounded as a Wasserstein-1 shift
  (``pmf_roundoff``), which moves :math:`\delta` by at most that amount (:math:`u\mapsto u_+` is
  1-Lipschitz).

The worst neighbouring pair.  For BMG, :math:`\ell_\varepsilon` for the pair :math:`(x,\perp)`
with :math:`\|x\| = r` is :math:`a + b\,e^{sZ - s^2/2}` with :math:`s = r/\sigma_0`: the
lognormal factor has mean one and grows in convex order with :math:`s` (for :math:`s_2 > s_1`,
:math:`e^{s_2 Z - s_2^2/2}` has the law of :math:`e^{s_1 Z_1 - s_1^2/2}` times an independent
mean-one factor, a martingale step).  Hence the bound is non-decreasing in :math:`r` and the
worst input is on the sphere.  :func:`worst_radius` checks both conditions on the mechanism's
own symbolic law (and falls back to a numerical scan when they fail).

For the Gaussian local randomizer (:math:`\gamma = 0`) there is no blanket and no certified
bound here: :func:`gaussian_local_asymptotic_profile` returns the template
:math:`f_{n,\varepsilon}(\chi_{chua})` of seed 000, Sec. 4.3, labelled ``asymptotic``.  It rests
on Conjecture 3.2 of Chua et al. (2024), which is open; it is never a certificate.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

import mpmath as mp
import numpy as np
import scipy.fft as sfft
from scipy.special import ndtr

from shufflekit.numeric.profile import (CannotCertify, PrivacyProfile, ProfilePoint, check_delta,
                                        check_epsilon, check_n)

U64 = float(np.finfo(np.float64).eps) / 2
ULD = float(np.finfo(np.longdouble).eps) / 2
MAX_FFT = 1 << 23
MAX_LATTICE = 1 << 18


# ----------------------------------------------------------------------------- the 1-D law
@dataclass(frozen=True)
class AffineLognormal:
    r"""The law of :math:`L = a + b\,e^{sZ + m}`, :math:`Z\sim N(0,1)`, :math:`b \ge 0`, :math:`s \ge 0`."""

    a: float
    b: float
    s: float
    m: float

    @staticmethod
    def from_law(law: Any) -> "AffineLognormal":
        """From a :class:`~shufflekit.mechanisms.law.ContinuousLaw` (sympy numbers)."""
        vals = [float(law.a), float(law.b), float(law.s), float(law.m)]
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"the law {law} has non-finite parameters")
        return AffineLognormal(*vals)

    @property
    def degenerate(self) -> bool:
        return self.b == 0 or self.s == 0

    def mean(self) -> float:
        return self.a + self.b * math.exp(self.m + self.s ** 2 / 2)

    def variance(self) -> float:
        return self.b ** 2 * math.exp(2 * self.m + self.s ** 2) * math.expm1(self.s ** 2)

    def z_of(self, x: np.ndarray) -> np.ndarray:
        """:math:`z` with :math:`a + b e^{sz+m} = x` (``-inf`` at or below ``a``)."""
        x = np.asarray(x, dtype=float)
        out = np.full(x.shape, -np.inf)
        ok = x > self.a
        out[ok] = (np.log((x[ok] - self.a) / self.b) - self.m) / self.s
        return out

    def excess(self, t: float, dps: int = 30) -> float:
        r""":math:`E[(L - t)_+]`, rounded up (mpmath at ``dps`` digits, no cancellation issue)."""
        if self.degenerate:
            return max(self.a + self.b * math.exp(self.m) - t, 0.0)
        with mp.workdps(dps):
            a, b, s, m, t_ = (mp.mpf(v) for v in (self.a, self.b, self.s, self.m, t))
            if t_ <= a:
                return float(max(self.mean() - t, 0.0))
            z = (mp.log((t_ - a) / b) - m) / s
            # E[(b e^{sZ+m} - (t-a)) 1{Z > z}]
            val = b * mp.exp(m + s ** 2 / 2) * mp.ncdf(-(z - s)) - (t_ - a) * mp.ncdf(-z)
            val = max(val, mp.mpf(0))
            return float(val * (1 + mp.mpf(2) ** -40))

    def upper_point(self, tail: float) -> float:
        """A point ``t`` with ``E[(L - t)_+] <= tail`` (stepping the normal quantile ``z`` by 1;
        for extreme tails it stops early and the caller adds the larger excess)."""
        z = 4.0
        while True:
            expo = self.s * z + self.m
            t = self.a + self.b * math.exp(min(expo, 700.0))
            if expo >= 700.0 or z > 60 or self.excess(t) <= tail:
                return t
            z += 1.0


def _phi_diff(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    r""":math:`\Phi(hi) - \Phi(lo)` accurate in both tails."""
    right = lo > 0
    out = np.empty_like(lo)
    out[right] = ndtr(-lo[right]) - ndtr(-hi[right])
    out[~right] = ndtr(hi[~right]) - ndtr(lo[~right])
    return np.maximum(out, 0.0)


@dataclass(frozen=True)
class LatticeLaw:
    """A law on the lattice ``h * (k0 + arange(len(p)))`` plus its safe-side error terms."""

    h: float
    k0: int
    p: np.ndarray
    excess: float          # E[(L - T)_+] removed by truncation (to be added back)
    wasserstein: float     # bound on the W1 distance caused by float round-off of the masses
    capped: bool = False   # the lattice hit MAX_LATTICE (truncation earlier than asked)

    @property
    def k1(self) -> int:
        return self.k0 + len(self.p) - 1


def discretise(law: AffineLognormal, h: float, tail: float, split: str = "convex") -> LatticeLaw:
    r"""Lattice law :math:`L'` with :math:`\min(L,T) \le_{cx} L'` (``split="convex"``) or
    :math:`\min(L,T) \le_{st} L'` (``split="up"``), :math:`E[(L-T)_+] \le` ``tail``."""
    if split not in ("convex", "up"):
        raise ValueError(f"split={split!r} is not allowed; allowed 'convex' or 'up'")
    if law.degenerate:
        v = law.a + law.b * math.exp(law.m)
        k = math.ceil(v / h)
        if split == "convex" and k * h != v:
            k0 = math.floor(v / h)
            w = (v - k0 * h) / h
            return LatticeLaw(h, k0, np.array([1 - w, w]), 0.0, h * 4 * U64)
        return LatticeLaw(h, k, np.array([1.0]), 0.0, 0.0)
    t = law.upper_point(tail)
    k0 = math.floor(law.a / h)
    # a heavy lognormal tail may ask for more points than is sensible: truncate earlier (the
    # larger excess E[(L - T)_+] is added, so the bound stays valid, only looser)
    k1 = min(math.ceil(t / h), k0 + MAX_LATTICE)
    capped = k1 == k0 + MAX_LATTICE
    t = k1 * h
    excess = law.excess(t)
    edges = h * np.arange(k0, k1 + 1, dtype=float)
    z = law.z_of(edges)
    mass = _phi_diff(z[:-1], z[1:])
    p = np.zeros(k1 - k0 + 1)
    if split == "up":
        p[1:] += mass
    else:
        # E[(L - x_k) 1{cell}] = (a - x_k) P_k + b e^{m + s^2/2} (Phi(z_{k+1} - s) - Phi(z_k - s))
        partial = (law.a - edges[:-1]) * mass + law.b * math.exp(law.m + law.s ** 2 / 2) * _phi_diff(
            z[:-1] - law.s, z[1:] - law.s)
        w = np.clip(partial / h, 0.0, mass)
        p[:-1] += mass - w
        p[1:] += w
    p[-1] += float(ndtr(-z[-1]))
    total = p.sum()
    # cdf values at K edges each off by a few ulps plus the cancellation in ``partial`` (relative
    # size (T - a)/h per cell): each moves mass by at most one cell, i.e. a W1 shift of h per unit
    nk = len(p)
    w1 = h * (16 * U64 * nk + 16 * U64 * (t - law.a) / h) + (t - law.a) * abs(total - 1.0)
    p = p / total
    return LatticeLaw(h, k0, p, excess, w1, capped)


# ----------------------------------------------------------------------------- accountant
@dataclass(frozen=True)
class BlanketResult:
    """A certified upper bound ``delta`` with its error budget (all in delta units)."""

    delta: float
    error: float
    parts: dict = field(default_factory=dict)


def _logsumexp(x: np.ndarray) -> float:
    mx = float(np.max(x))
    return mx + math.log(float(np.sum(np.exp(x - mx))))


def _log_mgf(lat: LatticeLaw, gamma: float, lam: float) -> float:
    r""":math:`\log E[e^{\lambda X}]` for :math:`X = B L'`."""
    vals = lat.h * (lat.k0 + np.arange(len(lat.p)))
    pos = lat.p > 0
    terms = np.log(lat.p[pos]) + math.log(gamma) + lam * vals[pos]
    if gamma < 1:
        terms = np.append(terms, math.log1p(-gamma))
    return _logsumexp(terms)


def _upper_tail_mean(lat: LatticeLaw, gamma: float, n: int, w: float) -> float:
    r"""Chernoff bound on :math:`E[S 1\{S > W\}]`, :math:`W \ge 0`."""
    from scipy.optimize import minimize_scalar

    def g(loglam):
        lam = math.exp(loglam)
        return math.log(w + 1 / lam) - lam * w + n * _log_mgf(lat, gamma, lam)

    res = minimize_scalar(g, bounds=(-12.0, 12.0), method="bounded", options={"xatol": 1e-6})
    val = min(g(res.x), g(-12.0), g(12.0))
    return math.exp(val) * (1 + 1e-12) if val < 700 else math.inf


def _tail_prob(lat: LatticeLaw, gamma: float, n: int, w: float, upper: bool) -> float:
    r"""Chernoff bound on :math:`P(S > w)` (``upper``) or :math:`P(S < w)`."""
    from scipy.optimize import minimize_scalar

    sign = 1.0 if upper else -1.0

    def g(loglam):
        lam = math.exp(loglam)
        return -lam * sign * w + n * _log_mgf(lat, gamma, sign * lam)

    res = minimize_scalar(g, bounds=(-12.0, 12.0), method="bounded", options={"xatol": 1e-6})
    return min(1.0, math.exp(min(g(res.x), 0.0)))


def blanket_delta(law: AffineLognormal, gamma: float, n: int, *, resolution: float = 100.0,
                  window_sds: float = 12.0, tail: float | None = None, split: str = "convex",
                  max_fft: int = MAX_FFT, precision: str = "auto") -> BlanketResult:
    r"""Certified upper bound on :math:`\frac{1}{n\gamma}E[(\sum_{i\le M_0} L_i)_+]` (seed 000, App. C).

    ``law``         the law of :math:`L = \ell_\varepsilon(Y)`, :math:`Y` from the blanket;
    ``gamma``       blanket mass in (0, 1];
    ``resolution``  lattice step :math:`h = \mathrm{sd}(L)/\text{resolution}`;
    ``window_sds``  half-width of the FFT window in standard deviations of the sum;
    ``tail``        allowed truncation excess :math:`E[(L-T)_+]` (default: adaptive);
    ``precision``   ``"float64"``, ``"longdouble"`` or ``"auto"``.
    """
    n = check_n(n)
    gamma = float(gamma)
    if not (0 < gamma <= 1) or math.isnan(gamma):
        raise ValueError(f"gamma={gamma!r} is not allowed; allowed range (0, 1]")
    if resolution <= 0:
        raise ValueError(f"resolution={resolution!r} is not allowed; allowed range (0, inf)")
    if law.degenerate or law.variance() == 0:
        v = law.a + law.b * math.exp(law.m)
        return BlanketResult(max(v, 0.0), 0.0, {"degenerate": True})
    sd = math.sqrt(law.variance())
    h = sd / resolution
    tail_used = tail if tail is not None else 1e-14
    for _attempt in range(16):
        res = _blanket_once(law, gamma, n, h, tail_used, window_sds, split, max_fft, precision)
        if isinstance(res, int):          # lattice too fine for max_fft: coarsen at once
            h *= 1.05 * res / max_fft
            continue
        if (tail is None and res.delta < 1.0 and res.parts["truncation"] > 1e-5 * res.delta
                and res.delta * 1e-7 < tail_used and not res.parts.get("lattice_capped")):
            tail_used = max(res.delta * 1e-7, 1e-300)
            continue
        return res
    raise CannotCertify(f"could not fit the FFT for n={n} within max_fft={max_fft}")


def _blanket_once(law, gamma, n, h, tail, window_sds, split, max_fft, precision):
    lat = discretise(law, h, tail, split)
    vals_k = np.arange(lat.k0, lat.k1 + 1)
    px = gamma * lat.p
    mean_x = float(np.dot(px, vals_k)) * h
    var_x = float(np.dot(px, (vals_k * h) ** 2)) - mean_x ** 2
    var_x = max(var_x, 0.0)
    smin, smax = n * min(lat.k0, 0), n * max(lat.k1, 0)
    if smax <= 0:
        return BlanketResult(lat.excess, lat.excess, {"truncation": lat.excess, "window": 0.0,
                                                       "roundoff": 0.0, "aliasing": 0.0, "h": h})
    mean_s, sd_s = n * mean_x, math.sqrt(n * var_x)
    k_hi = min(smax, math.ceil((mean_s + window_sds * sd_s) / h) + 1)
    k_lo = max(smin, math.floor((mean_s - window_sds * sd_s) / h) - 1)
    k_hi = max(k_hi, 1)
    k_lo = min(k_lo, 0)
    # the whole support when it fits: no window tail and no wrap-around at all
    # (small n: the sum is far from Gaussian and Chernoff tails are loose for heavy tails)
    window = k_hi - k_lo + 1
    full = smax - smin + 1
    if full <= 2 * window or (n <= 16 and full <= max_fft // 8):
        k_lo, k_hi = smin, smax
    elif smax - k_lo + 1 <= 2 * window:
        k_hi = smax
    size = sfft.next_fast_len(k_hi - k_lo + 1, real=True)
    if size > max_fft:
        return size
    w = k_hi * h
    above = 0.0
    if k_hi < smax:
        above = _upper_tail_mean(lat, gamma, n, w)
    alias = 0.0
    if k_lo > smin:
        alias += w * _tail_prob(lat, gamma, n, k_lo * h, upper=False)
    if k_hi < smax:
        alias += w * _tail_prob(lat, gamma, n, w, upper=True)
    pos = np.arange(1, k_hi + 1)
    s_norm = h * math.sqrt(float(np.sum(pos.astype(float) ** 2)))

    def run(dtype, unit):
        buf = np.zeros(size, dtype=dtype)
        idx = np.mod(vals_k, size)
        np.add.at(buf, idx, px.astype(dtype))
        buf[0] += dtype(1.0) - dtype(gamma)
        spec = sfft.rfft(buf)
        spec = spec ** n
        q = sfft.irfft(spec, size)
        body = float(np.dot(pos.astype(dtype) * dtype(h), q[1:k_hi + 1]))
        lg = math.log2(size)
        err2 = unit * (n * (2 * lg + 4) * float(np.sqrt(np.sum(px.astype(float) ** 2) + (1 - gamma) ** 2))
                       + (2 * lg + 2) * float(np.sqrt(np.sum(q.astype(float) ** 2))))
        return body, s_norm * err2

    body, rnd = (0.0, math.inf)
    if precision in ("auto", "float64"):
        body, rnd = run(np.float64, U64)
        used = "float64"
    if precision == "longdouble" or (precision == "auto" and rnd > 1e-6 * max(body, 0.0)
                                        and rnd > 1e-15 * n * gamma):
        body, rnd = run(np.longdouble, ULD)
        used = "longdouble"
    ng = n * gamma
    total = max(body, 0.0) + above + rnd
    # a hockey-stick divergence never exceeds 1, so min(., 1) is still a certified bound
    delta = min(total / ng + lat.excess + lat.wasserstein, 1.0)
    error = (above + rnd + alias) / ng + lat.excess + lat.wasserstein
    parts = {"fft_sum": body / ng, "window": above / ng, "roundoff": rnd / ng, "aliasing": alias / ng,
             "truncation": lat.excess, "pmf_roundoff": lat.wasserstein, "h": h, "fft_size": size,
             "lattice_points": len(lat.p), "precision": used, "lattice_capped": lat.capped}
    return BlanketResult(float(delta), float(min(error, delta)), parts)


# ----------------------------------------------------------------------------- BMG interface
def _mechanism_gamma(mech: Any) -> float:
    g = float(mech.gamma)
    if not 0 < g <= 1:
        raise ValueError(f"gamma={g!r} is not allowed for the blanket bound; allowed range (0, 1] "
                         "(the Gaussian local randomizer has no blanket: use "
                         "gaussian_local_asymptotic_profile)")
    return g


@lru_cache(maxsize=64)
def worst_radius(mech: Any) -> tuple[float, str]:
    r"""Radius :math:`r = \|x\|` of the worst input for the pair :math:`(x, \perp)`, with the reason.

    Checks on the mechanism's symbolic law that the lognormal factor has mean one
    (:math:`m = -s^2/2`) and that :math:`s` increases with :math:`r`; then the law grows in convex
    order with :math:`r` and the worst case is :math:`r = 1`.  Otherwise scans :math:`r`.
    """
    import sympy as sp

    r = sp.Symbol("r", positive=True)
    law = mech.amplification_law(sp.Integer(0), r=r)
    mean_one = sp.simplify(law.m + law.s ** 2 / 2) == 0
    increasing = sp.simplify(sp.diff(law.s, r)).is_positive
    if mean_one and increasing and sp.simplify(law.b).is_nonnegative is not False:
        return 1.0, "convex order: mean-one lognormal factor with slope increasing in r"
    return float("nan"), "no convex-order argument; scan r numerically"


def bmg_delta(mech: Any, n: int, epsilon: float, *, radius: float | None = None,
              **kw: Any) -> BlanketResult:
    r"""Certified upper bound on :math:`\delta(\varepsilon)` of the shuffled BMG (seed 000, App. C)."""
    n = check_n(n)
    epsilon = check_epsilon(epsilon)
    gamma = _mechanism_gamma(mech)
    if radius is None:
        radius, _why = worst_radius(mech)
        if math.isnan(radius):
            grid = np.linspace(0.05, 1.0, 20)
            vals = [blanket_delta(_law_float(mech, epsilon, r), gamma, n, **kw) for r in grid]
            return max(vals, key=lambda v: v.delta)
    return blanket_delta(_law_float(mech, epsilon, radius), gamma, n, **kw)


@lru_cache(maxsize=64)
def _law_functions(mech: Any):
    """Float functions of (eps, r) for the parameters of the mechanism's symbolic law."""
    import sympy as sp

    rs = sp.Symbol("r", positive=True)
    es = sp.Symbol("e", nonnegative=True)
    law = mech.amplification_law(es, r=rs)
    return tuple(sp.lambdify((es, rs), expr, modules="mpmath") for expr in (law.a, law.b, law.s, law.m))


def _law_float(mech: Any, epsilon: float, r: float) -> AffineLognormal:
    r"""Float parameters of :math:`\ell_\varepsilon` read off the mechanism's symbolic law
    (evaluated with mpmath at 30 digits, so that :math:`\gamma - e^\varepsilon` keeps its digits)."""
    with mp.workdps(30):
        vals = [float(f(mp.mpf(epsilon), mp.mpf(r))) for f in _law_functions(mech)]
    return AffineLognormal(*vals)


def epsilon_for_bound(bound: Any, delta: float, *, rel_tol: float = 1e-6) -> float:
    r"""Smallest :math:`\varepsilon` (to ``rel_tol``, on the safe side) with ``bound(eps) <= delta``
    for a non-increasing certified bound.

    Brackets by factors of 4, then Brent's method on :math:`\log \text{bound}(\varepsilon) - \log\delta`
    (smooth), then steps up until the bound is met: the returned value always satisfies it."""
    from scipy.optimize import brentq

    delta = check_delta(delta)
    if bound(0.0) <= delta:
        return 0.0
    log_target = math.log(delta)
    f = lambda e: math.log(max(bound(e), 1e-320)) - log_target
    hi = 1e-4
    while f(hi) > 0:
        hi *= 4
        if hi > 50:
            raise CannotCertify(f"delta={delta:g} is not reached for any epsilon <= 50")
    lo = hi / 4
    while lo > 1e-12 and f(lo) <= 0:
        hi, lo = lo, lo / 4
    root = brentq(f, lo, hi, xtol=1e-300, rtol=rel_tol / 4)
    step = max(root * rel_tol / 4, 1e-300)
    while f(root) > 0:
        root += step
    return root


def bmg_epsilon(mech: Any, n: int, delta: float, *, rel_tol: float = 1e-6, **kw: Any) -> float:
    r"""Smallest certified :math:`\varepsilon` with :math:`\delta_{\text{bound}}(\varepsilon) \le \delta`
    for the shuffled BMG (see :func:`epsilon_for_bound`)."""
    n = check_n(n)
    delta = check_delta(delta)
    return epsilon_for_bound(lambda e: bmg_delta(mech, n, e, **kw).delta, delta, rel_tol=rel_tol)


def bmg_profile(mech: Any, n: int, epsilons: Sequence[float] | None = None,
                deltas: Sequence[float] | None = None, **kw: Any) -> PrivacyProfile:
    """Certified profile points (``bound="upper"``) at ``epsilons`` and/or ``deltas``."""
    n = check_n(n)
    _mechanism_gamma(mech)
    pts = []
    for e in epsilons or []:
        t0 = time.perf_counter()
        res = bmg_delta(mech, n, e, **kw)
        pts.append(ProfilePoint(check_epsilon(e), res.delta, "upper", res.error, time.perf_counter() - t0))
    for d in deltas or []:
        t0 = time.perf_counter()
        e = bmg_epsilon(mech, n, d, **kw)
        res = bmg_delta(mech, n, e, **kw)
        pts.append(ProfilePoint(e, res.delta, "upper", res.error, time.perf_counter() - t0))
    return PrivacyProfile(method="blanket-fft", bound="upper", points=tuple(pts), n=n,
                          mechanism={"name": "bmg", **{k: str(v) for k, v in mech.params().items()}})


# ----------------------------------------------------------------------------- asymptotics
def template_log(n: Any, epsilon: Any, chi: Any, dps: int = 50) -> mp.mpf:
    r""":math:`\log f_{n,\varepsilon}(\chi)` with
    :math:`f_{n,\varepsilon}(\chi) = e^{-\chi^2\varepsilon^2 n/2} / (\sqrt{2\pi}\chi^3\varepsilon^2 n^{3/2})`
    (seed 000, Lemma 2.1), in mpmath at ``dps`` digits."""
    with mp.workdps(dps):
        n_, e_, c_ = mp.mpf(n), mp.mpf(epsilon), mp.mpf(chi)
        if e_ <= 0:
            return mp.inf
        return (-(c_ * e_) ** 2 * n_ / 2 - mp.log(mp.sqrt(2 * mp.pi)) - 3 * mp.log(c_)
                - 2 * mp.log(e_) - mp.mpf(3) / 2 * mp.log(n_))


def template(n: Any, epsilon: Any, chi: Any, dps: int = 50) -> mp.mpf:
    r""":math:`f_{n,\varepsilon}(\chi)` (seed 000, Lemma 2.1)."""
    with mp.workdps(dps):
        return mp.exp(template_log(n, epsilon, chi, dps))


def template_epsilon(n: int, delta: float, chi: float) -> float:
    r""":math:`\varepsilon` with :math:`f_{n,\varepsilon}(\chi) = \delta` (decreasing branch)."""
    from scipy.optimize import brentq

    target = math.log(check_delta(delta))
    # f is decreasing in eps on eps > 0; bracket on a log scale
    g = lambda le: float(template_log(n, math.exp(le), chi, 30)) - target
    lo, hi = -60.0, 5.0
    if g(lo) < 0:
        return math.exp(lo)
    return math.exp(brentq(g, lo, hi, xtol=1e-14))


def chi_chua(sigma0: Any, dps: int = 40) -> mp.mpf:
    r""":math:`\chi_{chua} = 1/\sqrt{\mathrm{Var}_{Y\sim R_{-e}}[\ell_0(Y; e, 0, R_{-e})]}` for the
    Gaussian local randomizer (seed 000, Prop. 4.3), by quadrature of its definition."""
    with mp.workdps(dps):
        s = mp.mpf(sigma0)
        if s <= 0:
            raise ValueError(f"sigma0={sigma0!r} is not allowed; allowed range (0, inf)")
        pdf = lambda y, mu: mp.npdf(y, mu, s)

        def ell(y):
            return (pdf(y, 1) - pdf(y, 0)) / pdf(y, -1)

        m1 = mp.quad(lambda y: ell(y) * pdf(y, -1), [-mp.inf, -1, mp.inf])
        m2 = mp.quad(lambda y: ell(y) ** 2 * pdf(y, -1), [-mp.inf, -1, 2 * s, mp.inf])
        return 1 / mp.sqrt(m2 - m1 ** 2)


def gaussian_local_asymptotic_profile(mech: Any, n: int, epsilons: Sequence[float] | None = None,
                                      deltas: Sequence[float] | None = None) -> PrivacyProfile:
    r"""Asymptotic profile :math:`f_{n,\varepsilon}(\chi_{chua})` of the shuffled Gaussian local
    randomizer (seed 000, Sec. 4.3).  **Not a certificate**: it rests on the open Conjecture 3.2
    of Chua et al. (2024) and drops a :math:`(1 + o(1))` factor; ``bound="asymptotic"``."""
    n = check_n(n)
    chi = float(chi_chua(mech.sigma0))
    pts = []
    for e in epsilons or []:
        t0 = time.perf_counter()
        e = check_epsilon(e)
        pts.append(ProfilePoint(e, float(template(n, e, chi)) if e > 0 else 1.0, "asymptotic", 0.0,
                                time.perf_counter() - t0))
    for d in deltas or []:
        t0 = time.perf_counter()
        e = template_epsilon(n, d, chi)
        pts.append(ProfilePoint(e, float(template(n, e, chi)), "asymptotic", 0.0, time.perf_counter() - t0))
    return PrivacyProfile(method="asymptotic-chi-chua (conjectural: Chua et al. Conj. 3.2)",
                          bound="asymptotic", points=tuple(pts), n=n,
                          mechanism={"name": "gaussian-local", "sigma0": str(mech.sigma0),
                                     "chi_chua": chi,
                                     "warning": "asymptotic template resting on an open conjecture; "
                                                "not a certified bound"})
