r"""Chernoff upper bound for the canonical shuffled pair (Shvets 2026, Sec. 8.2).

Canonical pair :math:`P = T_{n,0}`, :math:`Q = T_{n,1}`: :math:`L = 1 + U_n`,
:math:`U_n = \frac1n\sum_{i=1}^n Z_i`, :math:`Z_i = r(Y_i)` i.i.d. under :math:`Y_i \sim W_0`,
:math:`r = W_1/W_0 - 1` (Shvets 2026, Lemma 4.1).  With :math:`\tau = e^\varepsilon - 1`,
:math:`M(\lambda) = \mathbb{E}e^{\lambda Z}` and :math:`M'(\lambda) = \mathbb{E}[Ze^{\lambda Z}]`,

.. math::
    \delta_{Q\|P}(\varepsilon) = \mathbb{E}(U_n-\tau)_+ \le \mathbb{E}[(1+U_n)\mathbf 1\{U_n\ge\tau\}]
    \le e^{-\lambda n\tau} M(\lambda)^{n-1}\{M(\lambda)+M'(\lambda)\},\qquad \lambda \ge 0.

Since :math:`W_0(1+r) = W_1`, :math:`M + M' = \mathbb{E}_{W_1}e^{\lambda Z}`; the logarithm of the
bound is convex in :math:`\lambda`, so its minimiser is the root of the derivative
(bracketed, ``brentq``).  Everything is evaluated in **log space** (``logsumexp``).

The reverse direction is not in the paper; the same relaxation gives
:math:`\delta_{P\|Q}(\varepsilon) = \mathbb{E}_P(1-e^\varepsilon(1+U_n))_+ \le P(U_n \le -\tau')
\le \inf_{\lambda\ge0} e^{-\lambda n\tau'}M(-\lambda)^n`, :math:`\tau' = 1-e^{-\varepsilon}`.

Certification: the returned value is inflated by a relative margin
(:data:`SAFETY`) that covers the float64 round-off of the log-space evaluation
(about ``n * 1e-16`` in the exponent), so it is never below the exact bound value,
which itself is never below the true delta.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy.optimize import brentq
from scipy.special import logsumexp

from shufflekit.numeric.methods.histogram import check_channel
from shufflekit.validation import check_epsilon, check_n

Direction = Literal["Q||P", "P||Q", "both"]
SAFETY = 1e-9  # relative inflation: >> n*1e-16 for every n <= 1e6 used here


def _log_bound(
    lam: float, n: int, tau: float, r: np.ndarray, w0: np.ndarray, w1: np.ndarray
) -> float:
    """log of e^{-lam n tau} M(lam)^{n-1} E_{W1} e^{lam Z}."""
    with np.errstate(divide="ignore"):
        lw0, lw1 = np.log(w0), np.log(w1)
    log_m = logsumexp(lam * r + lw0)
    log_m1 = logsumexp(lam * r + lw1)
    return -lam * n * tau + (n - 1) * log_m + log_m1


def _dlog_bound(
    lam: float, n: int, tau: float, r: np.ndarray, w0: np.ndarray, w1: np.ndarray
) -> float:
    a0 = lam * r + np.log(w0)
    with np.errstate(divide="ignore"):
        a1 = lam * r + np.log(w1)
    p0 = np.exp(a0 - logsumexp(a0))
    p1 = np.exp(a1 - logsumexp(a1))
    return -n * tau + (n - 1) * float(p0 @ r) + float(p1 @ r)


def _log_bound_reverse(lam: float, n: int, tau2: float, r: np.ndarray, w0: np.ndarray) -> float:
    return -lam * n * tau2 + n * logsumexp(-lam * r + np.log(w0))


def _dlog_bound_reverse(lam: float, n: int, tau2: float, r: np.ndarray, w0: np.ndarray) -> float:
    a0 = -lam * r + np.log(w0)
    p0 = np.exp(a0 - logsumexp(a0))
    return -n * tau2 - n * float(p0 @ r)


def _minimise_convex(f, df) -> float:
    """Minimum over lam >= 0 of a convex f with derivative df (f(0) is finite)."""
    if df(0.0) >= 0:
        return f(0.0)
    hi = 1.0
    while df(hi) < 0:
        hi *= 2.0
        if hi > 1e8:
            return f(hi)
    lam = brentq(df, 0.0, hi, xtol=1e-14, rtol=1e-12, maxiter=200)
    return min(f(lam), f(0.0))


def _channel(
    w0: Sequence[float], w1: Sequence[float], excess: Sequence[float] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Validated ``(W0, W1, r)``, :math:`r = W_1/W_0 - 1`.

    Outputs with :math:`W_0(y) = W_1(y) = 0` carry no probability under either law and are
    dropped before the rows are checked (a mechanism's column of zeros is not a missing
    support); :math:`W_0(y) = 0 < W_1(y)` is still refused (:math:`Q \not\ll P`, the bound is
    infinite).  ``r`` is ``excess`` (on the kept outputs) when given, for callers that know the
    ratios more accurately than the float rows do (rows equal up to :math:`2^{-141}` are equal
    as floats), else :math:`(W_1 - W_0)/W_0` (the difference is exact when the entries are
    within a factor 2, unlike :math:`W_1/W_0 - 1`)."""
    keep = None
    try:
        a = np.asarray([float(x) for x in w0], dtype=float)
        b = np.asarray([float(x) for x in w1], dtype=float)
    except (TypeError, ValueError):
        a = b = None
    if a is not None and a.ndim == 1 and a.shape == b.shape:
        keep = (a != 0) | (b != 0)
        if keep.sum() >= 2 and not keep.all():
            w0, w1 = a[keep], b[keep]
        else:
            keep = None
    w0a, w1a = check_channel(w0, w1)
    if excess is None:
        return w0a, w1a, (w1a - w0a) / w0a
    r = np.asarray(excess, dtype=float).reshape(-1)
    if keep is not None and r.size == keep.size:
        r = r[keep]
    if r.size != w0a.size or not np.all(np.isfinite(r)) or np.any(r < -1):
        raise ValueError(
            f"excess={np.asarray(excess).tolist()} is not allowed; one finite "
            "ratio excess W1/W0 - 1 >= -1 per output is needed"
        )
    return w0a, w1a, r


def chernoff_log_delta(
    w0: Sequence[float],
    w1: Sequence[float],
    n: int,
    epsilon: float,
    direction: Direction = "Q||P",
    excess: Sequence[float] | None = None,
) -> float:
    """Natural log of :func:`chernoff_delta` (before the safety margin); ``-inf`` for an exact 0."""
    w0a, w1a, r = _channel(w0, w1, excess)
    n = check_n(n)
    eps = check_epsilon(epsilon)
    if direction not in ("Q||P", "P||Q", "both"):
        raise ValueError(f"direction={direction!r} is not allowed; use 'Q||P', 'P||Q' or 'both'")
    if direction == "both":
        return max(
            chernoff_log_delta(w0a, w1a, n, eps, "Q||P", r),
            chernoff_log_delta(w0a, w1a, n, eps, "P||Q", r),
        )
    # the exact-zero tests leave a relative 2^-50 for the rounding of r and of tau: within it
    # the minimisation runs (and answers a positive number)
    if direction == "Q||P":
        tau = math.expm1(eps)
        if r.max() <= 0 or r.max() < tau * (1 - 2.0**-50):
            return -math.inf  # U_n <= max r <= tau: (U_n - tau)_+ = 0 exactly
        val = _minimise_convex(
            lambda lam: _log_bound(lam, n, tau, r, w0a, w1a),
            lambda lam: _dlog_bound(lam, n, tau, r, w0a, w1a),
        )
    else:
        tau2 = -math.expm1(-eps)
        if r.min() >= 0 or -r.min() < tau2 * (1 - 2.0**-50):
            return -math.inf  # U_n >= min r >= -tau': (1 - e^eps (1+U_n))_+ = 0 exactly
        val = _minimise_convex(
            lambda lam: _log_bound_reverse(lam, n, tau2, r, w0a),
            lambda lam: _dlog_bound_reverse(lam, n, tau2, r, w0a),
        )
    return min(0.0, val)


def chernoff_delta(
    w0: Sequence[float],
    w1: Sequence[float],
    n: int,
    epsilon: float,
    direction: Direction = "Q||P",
    excess: Sequence[float] | None = None,
) -> float:
    r"""Certified upper bound on the canonical pair's hockey-stick divergence (Shvets 2026, Sec. 8.2).

    ``direction="Q||P"`` (default, the paper's statement) bounds :math:`\delta_{T_{n,1}\|T_{n,0}}(\varepsilon)`;
    ``"P||Q"`` the reverse ordering; ``"both"`` the two-sided curve (the larger).  Minimised
    over :math:`\lambda \ge 0`; never above 1; never below the exact value.  ``excess``: the
    ratio excess :math:`r = W_1/W_0 - 1` per output, when known more accurately than from the
    float rows (see :func:`_channel`).
    """
    if direction == "both":
        return max(
            chernoff_delta(w0, w1, n, epsilon, "Q||P", excess),
            chernoff_delta(w0, w1, n, epsilon, "P||Q", excess),
        )
    log_d = chernoff_log_delta(w0, w1, n, epsilon, direction, excess)
    if log_d == -math.inf:
        return 0.0
    return min(1.0, math.exp(log_d) * (1.0 + SAFETY))
