r"""Central Gaussian mechanism and Gaussian differential privacy (GDP), at any precision.

Two Gaussians :math:`N(\Delta, s^2)` and :math:`N(0, s^2)` have the hockey-stick profile
(Balle and Wang 2018, Thm 8; Takagi-Liew 2026, App. A.1, eq. (analytic-gauss-delta))

.. math::
    \delta(\varepsilon; \mu) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
      - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big),
    \qquad \mu = \Delta / s,

which is also the :math:`(\varepsilon,\delta)` curve of :math:`\mu`-GDP (Dong, Roth, Su 2022,
Cor. 2.13).  The central Gaussian mean estimator :math:`\mathsf{GM}(\sigma)` of Takagi-Liew 2026
(eq. (gm-def)) has zero-out sensitivity :math:`\Delta = 1/n` and noise
:math:`s = \sigma/\sqrt n`, hence :math:`\mu = 1/(\sigma\sqrt n)`.

Precision.  The two terms nearly cancel when :math:`\varepsilon/\mu` is large (their ratio is
about :math:`1 - \mu^2/\varepsilon`), so the mpmath path works at the requested digits plus the
digits lost to that cancellation (measured, then the evaluation is repeated if needed); mpmath
numbers have an unbounded exponent, so :math:`\delta = 10^{-300}` (or :math:`10^{-10^5}`) keeps all
its digits.  The float path works in log space with ``log_ndtr`` and ``expm1`` and reports an
estimate of its relative error (:func:`gdp_delta_float_with_error`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import mpmath as mp
from flint import arb, ctx
from scipy.special import log_ndtr

from shufflekit.errors import CannotCertify
from shufflekit.numeric.accountant import (
    Accountant,
    PrivacyProfile,
    accountant,
    register,
)
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.validation import check_delta, check_epsilon, check_n


# ----------------------------------------------------------------------------- validation
def check_sigma(sigma: Any, name: str = "sigma") -> float:
    try:
        s = float(sigma)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={sigma!r} is not a number") from None
    if math.isnan(s) or s <= 0 or math.isinf(s):
        raise ValueError(f"{name}={sigma!r} is not allowed; allowed range (0, inf)")
    return s


def check_mu(mu: Any) -> float:
    return check_sigma(mu, "mu")


def mu_of(sigma: Any, n: Any) -> float:
    r""":math:`\mu = \Delta/s = (1/n)/(\sigma/\sqrt n) = 1/(\sigma\sqrt n)` for :math:`\mathsf{GM}(\sigma)`."""
    return 1.0 / (check_sigma(sigma) * math.sqrt(check_n(n)))


# ----------------------------------------------------------------------------- mpmath path
def _terms(eps: mp.mpf, mu: mp.mpf) -> tuple[mp.mpf, mp.mpf]:
    r""":math:`(\Phi(-\varepsilon/\mu + \mu/2),\ e^\varepsilon\Phi(-\varepsilon/\mu - \mu/2))` via erfc."""
    x1 = -eps / mu + mu / 2
    x2 = -eps / mu - mu / 2
    t1 = mp.erfc(-x1 / mp.sqrt(2)) / 2
    t2 = mp.exp(eps) * mp.erfc(-x2 / mp.sqrt(2)) / 2
    return t1, t2


def gdp_delta_mp(epsilon: Any, mu: Any, dps: int = 50) -> mp.mpf:
    r""":math:`\delta(\varepsilon;\mu)` correct to ``dps`` significant digits (mpmath)."""
    check_epsilon(epsilon)
    check_mu(mu)
    extra = 15
    for _ in range(6):
        with mp.workdps(dps + extra):
            e, m = mp.mpf(epsilon), mp.mpf(mu)
            t1, t2 = _terms(e, m)
            d = t1 - t2
            if d <= 0:  # cannot happen mathematically (t1 > t2); precision was too low
                extra *= 2
                continue
            lost = float(mp.log10(t1 / d))
            if lost + 5 < extra:
                return +d
            extra = int(lost) + 20
    raise CannotCertify(f"could not evaluate delta(eps={epsilon}, mu={mu}) to {dps} digits")


def gdp_log_delta_mp(epsilon: Any, mu: Any, dps: int = 50) -> mp.mpf:
    r""":math:`\log\delta(\varepsilon;\mu)` (mpmath)."""
    with mp.workdps(dps):
        return mp.log(gdp_delta_mp(epsilon, mu, dps))


# ----------------------------------------------------------------------------- float path
def gdp_log_delta_float(epsilon: float, mu: float) -> float:
    r""":math:`\log\delta` in float64:
    :math:`\log\delta = \ell_1 + \log(-\mathrm{expm1}(\ell_2 - \ell_1))` with
    :math:`\ell_1 = \log\Phi(-\varepsilon/\mu+\mu/2)`, :math:`\ell_2 = \varepsilon + \log\Phi(-\varepsilon/\mu-\mu/2)`.
    The difference :math:`\ell_2 - \ell_1` carries an absolute error of about
    :math:`u(1 + (\varepsilon/\mu)^2)`, so the relative error of :math:`\delta` is about
    :math:`u(1+(\varepsilon/\mu)^2)/|\ell_2-\ell_1|`: use the mpmath path when that matters."""
    e, m = check_epsilon(epsilon), check_mu(mu)
    l1 = float(log_ndtr(-e / m + m / 2))
    l2 = e + float(log_ndtr(-e / m - m / 2))
    diff = l2 - l1
    if diff >= 0:
        return -math.inf
    return l1 + math.log(-math.expm1(diff))


def gdp_delta_float(epsilon: float, mu: float) -> float:
    r""":math:`\delta(\varepsilon;\mu)` in float64 (underflows to 0 below about 1e-308)."""
    return math.exp(gdp_log_delta_float(epsilon, mu))


def gdp_delta_float_with_error(epsilon: float, mu: float) -> tuple[float, float]:
    r"""``(delta, abs_error_estimate)`` in float64; falls back to mpmath when delta underflows.

    The error estimate is :math:`\delta\,u\,(16 + 8(|\ell_1| + |\ell_2 - \varepsilon| + \varepsilon))/|\ell_2-\ell_1|` (see
    :func:`gdp_log_delta_float`), :math:`u = 2^{-53}`."""
    e, m = check_epsilon(epsilon), check_mu(mu)
    l1 = float(log_ndtr(-e / m + m / 2))
    ln2 = float(log_ndtr(-e / m - m / 2))
    l2 = e + ln2
    diff = l2 - l1
    d = math.exp(l1 + math.log(-math.expm1(diff))) if diff < 0 else 0.0
    if d == 0.0 or not math.isfinite(d):
        return float(gdp_delta_mp(e, m, 30)), 0.0
    u = 2.0**-53
    # each log_ndtr carries a few ulps of its magnitude; the difference inherits their sum
    return d, d * u * (16 + 8 * (abs(l1) + abs(ln2) + e)) / abs(diff)


def gdp_delta(epsilon: Any, mu: Any, dps: int | None = None) -> Any:
    r"""GDP curve :math:`\delta_{GDP}(\varepsilon;\mu)` (Dong-Roth-Su Cor. 2.13): float when
    ``dps`` is None, else an mpmath number with ``dps`` digits."""
    if dps is None:
        return gdp_delta_float(epsilon, mu)
    return gdp_delta_mp(epsilon, mu, dps)


# ----------------------------------------------------------------------------- conversions
def _log_delta_30(e: float, m: float) -> float:
    return float(gdp_log_delta_mp(e, m, 30))


def gdp_epsilon(mu: Any, delta: Any) -> float:
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon;\mu) \le \delta` (relative 1e-13)."""
    from scipy.optimize import brentq

    m = check_mu(mu)
    target = math.log(check_delta(delta))
    if _log_delta_30(0.0, m) <= target:
        return 0.0
    hi = max(m, 1e-6)
    while _log_delta_30(hi, m) > target:
        hi *= 2
        if hi > 1e8:
            raise CannotCertify(f"delta={delta} is not reached for mu={mu}")
    lo = hi / 2 if _log_delta_30(hi / 2, m) > target else 0.0
    return brentq(lambda e: _log_delta_30(e, m) - target, lo, hi, xtol=1e-300, rtol=1e-14)


def gdp_mu(epsilon: Any, delta: Any) -> float:
    r"""The :math:`\mu` with :math:`\delta(\varepsilon;\mu) = \delta` (increasing in :math:`\mu`)."""
    from scipy.optimize import brentq

    e = check_epsilon(epsilon)
    target = math.log(check_delta(delta))
    g = lambda lm: _log_delta_30(e, math.exp(lm)) - target
    lo, hi = -1.0, 1.0
    while g(lo) > 0:
        lo -= 2
        if lo < -700:
            raise CannotCertify(f"no mu reaches delta={delta} at eps={epsilon}")
    while g(hi) < 0:
        hi += 2
        if hi > 50:
            raise CannotCertify(f"no mu reaches delta={delta} at eps={epsilon}")
    return math.exp(brentq(g, lo, hi, xtol=1e-15, rtol=1e-14))


# ----------------------------------------------------------------------------- central GM
def central_gaussian_delta(epsilon: Any, sigma: Any, n: Any, dps: int | None = None) -> Any:
    r""":math:`\delta_{\mathsf{GM}(\sigma)}(\varepsilon)` with :math:`\mu = 1/(\sigma\sqrt n)` (Takagi-Liew 2026, eq. (delta-ab))."""
    if dps is None:
        return gdp_delta(epsilon, mu_of(sigma, n))
    mu_of(sigma, n)  # validation
    with mp.workdps(dps + 20):
        mu = 1 / (mp.mpf(sigma) * mp.sqrt(mp.mpf(n)))  # exact inputs, mu at full precision
    return gdp_delta_mp(epsilon, mu, dps)


def calibrate_sigma(epsilon: Any, delta: Any, n: Any) -> float:
    r"""Smallest :math:`\sigma` with :math:`\mathsf{GM}(\sigma)` :math:`(\varepsilon,\delta)`-DP for ``n`` users."""
    n = check_n(n)
    return 1.0 / (gdp_mu(epsilon, delta) * math.sqrt(n))


def epsilon_for_sigma(sigma: Any, delta: Any, n: Any) -> float:
    r""":math:`\varepsilon` of :math:`\mathsf{GM}(\sigma)` at ``delta`` for ``n`` users."""
    return gdp_epsilon(mu_of(sigma, n), delta)


def rmse(sigma: Any, n: Any) -> float:
    r"""Per-coordinate RMSE :math:`\sqrt{E\|\mathsf{GM}-\bar x\|^2/d} = \sigma/\sqrt n` (Takagi-Liew 2026, eq. (gm-mse)):
    the noise :math:`(\sigma/\sqrt n) Z` has per-coordinate variance :math:`\sigma^2/n`."""
    return check_sigma(sigma) / math.sqrt(check_n(n))


def central_gaussian_profile(
    sigma: Any,
    n: Any,
    epsilons: Sequence[float] | None = None,
    deltas: Sequence[float] | None = None,
    *,
    method: str = "exact",
) -> PrivacyProfile:
    r"""Exact profile of :math:`\mathsf{GM}(\sigma)` from the registered accountant ``method``
    (``exact`` or ``gdp``): one Arb-enclosed :class:`~shufflekit.numeric.bound.Bound` per target,
    with the mechanism's :math:`\mu = 1/(\sigma\sqrt n)`, sensitivity and noise s.d. recorded."""
    n = check_n(n)
    sigma = check_sigma(sigma)
    prof = accountant(CentralGaussian(sigma), n, method=method).profile(
        epsilons=epsilons, deltas=deltas
    )
    return replace(
        prof,
        mechanism={
            "name": "central-gaussian",
            "sigma": sigma,
            "mu": mu_of(sigma, n),
            "sensitivity": f"1/{n}",
            "noise_sd": sigma / math.sqrt(n),
        },
    )


# ============================================================================ registry entries


@dataclass(frozen=True)
class CentralGaussian:
    r"""The central Gaussian mean estimator :math:`\mathsf{GM}(\sigma)` of Takagi-Liew 2026 (eq. (gm-def)):
    zero-out sensitivity :math:`1/n`, noise :math:`\sigma/\sqrt n`."""

    sigma: float
    name: str = "central-gaussian"

    def __post_init__(self):
        object.__setattr__(self, "sigma", check_sigma(self.sigma))

    def describe(self) -> dict:
        return {"name": self.name, "sigma": self.sigma}


def gdp_delta_arb(epsilon: float, mu: Any, *, rel: float = 1e-15):
    r"""Arb ball containing :math:`\Phi(-\varepsilon/\mu+\mu/2) - e^\varepsilon\Phi(-\varepsilon/\mu-\mu/2)`.

    ``mu`` may be a float or an Arb ball.  The working precision doubles until the ball's
    relative radius is below ``rel`` (the two terms cancel when :math:`\varepsilon/\mu` is large;
    Arb's erfc has no underflow, so :math:`\delta = 10^{-300}` keeps its digits)."""
    prec = 128
    while True:
        ctx.prec = prec
        e, m = arb(epsilon), arb(mu) if not isinstance(mu, arb) else mu
        s2 = arb(2).sqrt()
        t1 = ((e / m - m / 2) / s2).erfc() / 2
        t2 = e.exp() * ((e / m + m / 2) / s2).erfc() / 2
        d = t1 - t2
        if d > 0 and d.rad() <= rel * d.mid().abs_lower():
            return d
        if prec > 1 << 14:
            return d
        prec *= 2


def central_gaussian_supported(mech) -> bool | str:
    if getattr(mech, "name", None) == "central-gaussian" and hasattr(mech, "sigma"):
        return True
    return "this method needs the central Gaussian mechanism (CentralGaussian(sigma))"


class CentralGaussianAccountant(Accountant):
    r"""Exact profile of :math:`\mathsf{GM}(\sigma)` for ``n`` users (Balle and Wang 2018, Thm 8;
    Takagi-Liew 2026, App. A.1): :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu+\mu/2) -
    e^\varepsilon\Phi(-\varepsilon/\mu-\mu/2)`, :math:`\mu = 1/(\sigma\sqrt n)`, evaluated as an Arb
    ball (``exact``).  ``gdp`` reports the same curve read as :math:`\mu`-GDP (Dong, Roth, Su
    2022, Cor. 2.13), which :math:`\mathsf{GM}(\sigma)` is exactly."""

    kind = Kind.EXACT
    adjacency = "n/a"

    def __init__(self, mech, n: int, *, method: str):
        self.mechanism, self.n, self.method = mech, n, method
        with ctx.workprec(256):  # the caller's precision is left as it was
            self._mu = 1 / (arb(mech.sigma) * arb(n).sqrt())
        self.certificate = (
            "Balle-Wang 2018 Thm 8 (sensitivity 1/n, noise sigma/sqrt(n)); Arb"
            if method == "exact"
            else "Dong-Roth-Su 2022 Cor. 2.13 (mu-GDP); Arb"
        )

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        return Bound.from_arb(
            "delta",
            epsilon,
            gdp_delta_arb(epsilon, self._mu),
            kind=self.kind,
            method=self.method,
            adjacency=self.adjacency,
            pairs=self.pairs,
            certificate=self.certificate,
            seconds=time.perf_counter() - t0,
        )


@register(
    "exact",
    kind=Kind.EXACT,
    supports=central_gaussian_supported,
    adjacencies=("n/a",),
    default_for=lambda m, n: getattr(m, "name", None) == "central-gaussian",
    summary="exact central Gaussian profile (Balle-Wang Thm 8), Arb",
)
def _central_exact(mech, n, *, adjacency="n/a", **options):
    """Central Gaussian, exact curve in Arb."""
    return CentralGaussianAccountant(mech, n, method="exact")


@register(
    "gdp",
    kind=Kind.EXACT,
    supports=central_gaussian_supported,
    adjacencies=("n/a",),
    summary="mu-GDP curve of the central Gaussian (Dong-Roth-Su Cor. 2.13), Arb",
)
def _central_gdp(mech, n, *, adjacency="n/a", **options):
    """Central Gaussian as mu-GDP, mu = 1/(sigma sqrt(n)), in Arb."""
    return CentralGaussianAccountant(mech, n, method="gdp")
