r"""Chernoff upper bound for the canonical shuffled pair (seed 001, Sec. 8.2).

Canonical pair :math:`P = T_{n,0}`, :math:`Q = T_{n,1}`: :math:`L = 1 + U_n`,
:math:`U_n = \frac1n\sum_{i=1}^n Z_i`, :math:`Z_i = r(Y_i)` i.i.d. under :math:`Y_i \sim W_0`,
:math:`r = W_1/W_0 - 1` (seed 001, Lemma 4.1).  With :math:`\tau = e^\varepsilon - 1`,
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
from typing import Literal, Sequence

import numpy as np
from scipy.optimize import brentq
from scipy.special import logsumexp

from shufflekit.numeric.histogram import check_channel
from shufflekit.validation import check_epsilon, check_n

Direction = Literal["Q||P", "P||Q", "both"]
SAFETY = 1e-9  # relative inflation: >> n*1e-16 for every n <= 1e6 used here


def _log_bound(lam: float, n: int, tau: float, r: np.ndarray, w0: np.ndarray, w1: np.ndarray) -> float:
    """log of e^{-lam n tau} M(lam)^{n-1} E_{W1} e^{lam Z}."""
    with np.errstate(divide="ignore"):
        lw0, lw1 = np.log(w0), np.log(w1)
    log_m = logsumexp(lam * r + lw0)
    log_m1 = logsumexp(lam * r + lw1)
    return -lam * n * tau + (n - 1) * log_m + log_m1


def _dlog_bound(lam: float, n: int, tau: float, r: np.ndarray, w0: np.ndarray, w1: np.ndarray) -> float:
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


def chernoff_log_delta(w0: Sequence[float], w1: Sequence[float], n: int, epsilon: float,
                       direction: Direction = "Q||P") -> float:
    """Natural log of :func:`chernoff_delta` (before the safety margin); ``-inf`` for an exact 0."""
    w0a, w1a = check_channel(w0, w1)
    n = check_n(n)
    eps = check_epsilon(epsilon)
    if direction not in ("Q||P", "P||Q", "both"):
        raise ValueError(f"direction={direction!r} is not allowed; use 'Q||P', 'P||Q' or 'both'")
    if direction == "both":
        return max(chernoff_log_delta(w0a, w1a, n, eps, "Q||P"),
                   chernoff_log_delta(w0a, w1a, n, eps, "P||Q"))
    r = w1a / w0a - 1.0
    if direction == "Q||P":
        tau = math.expm1(eps)
        if tau >= r.max():  # U_n <= max r <= tau: (U_n - tau)_+ = 0 exactly
            return -math.inf
        val = _minimise_convex(lambda lam: _log_bound(lam, n, tau, r, w0a, w1a),
                               lambda lam: _dlog_bound(lam, n, tau, r, w0a, w1a))
    else:
        tau2 = -math.expm1(-eps)
        if r.min() >= -tau2:  # U_n >= min r >= -tau': (1 - e^eps (1+U_n))_+ = 0 exactly
            return -math.inf
        val = _minimise_convex(lambda lam: _log_bound_reverse(lam, n, tau2, r, w0a),
                               lambda lam: _dlog_bound_reverse(lam, n, tau2, r, w0a))
    return min(0.0, val)


def chernoff_delta(w0: Sequence[float], w1: Sequence[float], n: int, epsilon: float,
                   direction: Direction = "Q||P") -> float:
    r"""Certified upper bound on the canonical pair's hockey-stick divergence (seed 001, Sec. 8.2).

    ``direction="Q||P"`` (default, the paper's statement) bounds :math:`\delta_{T_{n,1}\|T_{n,0}}(\varepsilon)`;
    ``"P||Q"`` the reverse ordering; ``"both"`` the two-sided curve (the larger).  Minimised
    over :math:`\lambda \ge 0`; never above 1; never below the exact value.
    """
    if direction == "both":
        return max(chernoff_delta(w0, w1, n, epsilon, "Q||P"), chernoff_delta(w0, w1, n, epsilon, "P||Q"))
    log_d = chernoff_log_delta(w0, w1, n, epsilon, direction)
    if log_d == -math.inf:
        return 0.0
    return min(1.0, math.exp(log_d) * (1.0 + SAFETY))
