r"""Linear convolution of float64 vectors with a proven bound on its round-off.

The transform is the textbook radix-2 decimation-in-time Cooley-Tukey FFT, written out here so
that the error analysis below is about the code that runs.  For :math:`N = 2^t` and twiddle
factors :math:`\hat\omega` with :math:`|\hat\omega_k - \omega_k| \le \mu`, Higham (*Accuracy and
Stability of Numerical Algorithms*, 2nd ed., Thm 24.2) proves

.. math::
    \frac{\|\widehat{F_N x} - F_N x\|_2}{\|F_N x\|_2} \le \rho := \frac{t\eta}{1 - t\eta},\qquad
    \eta = \mu + \gamma_4(\sqrt2 + \mu),\quad \gamma_k = \frac{ku}{1-ku}.

The twiddles are Arb values :math:`e^{-2\pi i j/N}` rounded to float64, so :math:`\mu` is read off
their radii plus one rounding.  For real :math:`a, b` zero-padded to length :math:`N` (no
wrap-around) and :math:`c = a * b = F^{-1}(Fa \odot Fb)`, with :math:`\|F x\|_2 = \sqrt N\|x\|_2`,
:math:`\|F x\|_\infty \le \|x\|_1` and a complex product exact up to :math:`\sqrt2\gamma_2`
relative error,

.. math::
    D := \|\hat P - Fa\odot Fb\|_2 \le (1 + \sqrt2\gamma_2)\,T + \sqrt2\gamma_2\sqrt N m,\quad
    T = \sqrt N\big[\rho(\|a\|_2\|b\|_1 + \|a\|_1\|b\|_2) + \rho^2\sqrt N\|a\|_2\|b\|_2\big],

:math:`m = \min(\|a\|_2\|b\|_1, \|a\|_1\|b\|_2)`, and the inverse transform (conjugate, forward
transform, conjugate, divide by :math:`N = 2^t`, exact) adds :math:`\rho\|\hat P\|_2/\sqrt N`:

.. math::
    \|\hat c - c\|_2 \le \big(D + \rho(\sqrt N m + D)\big)/\sqrt N.

Taking the real part and clipping negative entries (when the exact result is known to be
non-negative) only moves entries towards the exact values.  The bound is returned in the
:math:`\ell_1` norm over the support (:math:`\le \sqrt{\text{length}}\,\ell_2`) because laws are
propagated in :math:`\ell_1` (convolution with a probability vector does not increase it).
Short kernels are convolved directly, with the classical bound
:math:`|\widehat{\sum} - \sum| \le \gamma_K \sum |a_i||b_{k-i}|`, i.e. an :math:`\ell_1` error at
most :math:`\gamma_K\|a\|_1\|b\|_1`.  Norms are computed in float64 and inflated by
:math:`1 + 4Lu` (summation error of :math:`L` terms); the final bound by :math:`1 + 10^{-10}`.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

#: unit round-off of float64
U = 2.0 ** -53
#: below this kernel length the direct sum is used
DIRECT_MAX = 48


def gamma_k(k: float) -> float:
    r""":math:`\gamma_k = ku/(1-ku)` (Higham, Lemma 3.1)."""
    return k * U / (1.0 - k * U)


_TABLE: dict[str, object] = {"n": 0, "w": None, "mu": 0.0}


def twiddles(n: int) -> tuple[np.ndarray, float]:
    r"""Float64 :math:`e^{-2\pi i j/n}`, :math:`j < n/2`, and :math:`\mu \ge \max_j|\hat\omega_j - \omega_j|`.

    One Arb table for the largest ``n`` asked so far; smaller powers of two take every k-th entry."""
    if _TABLE["n"] < n:
        import flint

        old = flint.ctx.prec
        flint.ctx.prec = 96
        try:
            half = n // 2
            re = np.empty(half)
            im = np.empty(half)
            rad = 0.0
            for j in range(half):
                s, c = flint.arb.sin_cos_pi_fmpq(flint.fmpq(2 * j, n))
                re[j] = float(c.mid())
                im[j] = -float(s.mid())
                rad = max(rad, float(c.rad()), float(s.rad()))
        finally:
            flint.ctx.prec = old
        # each component: |float(mid) - mid| <= u |mid| <= u, plus the ball radius
        mu = math.sqrt(2.0) * (U + rad) * (1 + 1e-10)
        _TABLE.update(n=n, w=re + 1j * im, mu=mu)
    stride = _TABLE["n"] // n
    return _TABLE["w"][::stride][: n // 2], float(_TABLE["mu"])


@lru_cache(maxsize=32)
def bit_reversal(n: int) -> np.ndarray:
    """The bit-reversal permutation of ``range(n)``, ``n`` a power of two."""
    t = n.bit_length() - 1
    idx = np.arange(n)
    rev = np.zeros(n, dtype=np.int64)
    for b in range(t):
        rev |= ((idx >> b) & 1) << (t - 1 - b)
    return rev


def fft_radix2(x: np.ndarray) -> np.ndarray:
    """Unnormalised DFT :math:`y_k = \\sum_j x_j e^{-2\\pi i jk/N}` by radix-2 DIT Cooley-Tukey."""
    n = len(x)
    w, _mu = twiddles(n)
    y = np.asarray(x, dtype=complex)[bit_reversal(n)]
    half = 1
    while half < n:
        ws = w[:: n // (2 * half)][:half]
        y = y.reshape(-1, 2 * half)
        top = y[:, :half]
        bot = y[:, half:] * ws
        y = np.concatenate([top + bot, top - bot], axis=1)
        half *= 2
    return y.reshape(-1)


def fft_relative_error(n: int) -> float:
    r""":math:`\rho = t\eta/(1 - t\eta)` of Higham Thm 24.2 for :math:`N = n = 2^t`."""
    t = n.bit_length() - 1
    _w, mu = twiddles(n)
    eta = mu + gamma_k(4) * (math.sqrt(2.0) + mu)
    return t * eta / (1.0 - t * eta) * (1 + 1e-10)


def _norms(a: np.ndarray) -> tuple[float, float]:
    infl = 1.0 + 4.0 * len(a) * U
    return float(np.sum(np.abs(a))) * infl, math.sqrt(float(np.dot(a, a)) * infl) * infl


def convolve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    r"""``(c, e)``: float64 :math:`c \approx a * b` (full linear convolution) and a proven bound
    :math:`e \ge \|c - a * b\|_1` (see the module docstring)."""
    a = np.ascontiguousarray(a, dtype=float)
    b = np.ascontiguousarray(b, dtype=float)
    length = len(a) + len(b) - 1
    a1, a2 = _norms(a)
    b1, b2 = _norms(b)
    if min(len(a), len(b)) <= DIRECT_MAX:
        c = np.convolve(a, b)
        return c, gamma_k(min(len(a), len(b))) * a1 * b1 * (1 + 1e-10)
    n = 1 << (length - 1).bit_length()
    pa = np.zeros(n)
    pa[: len(a)] = a
    fa = fft_radix2(pa)
    if b is a or (len(a) == len(b) and np.array_equal(a, b)):
        prod = fa * fa
    else:
        pb = np.zeros(n)
        pb[: len(b)] = b
        prod = fa * fft_radix2(pb)
    c = np.conj(fft_radix2(np.conj(prod))).real / n
    rho = fft_relative_error(n)
    sq = math.sqrt(n)
    m = min(a2 * b1, a1 * b2)
    t_ = sq * (rho * (a2 * b1 + a1 * b2) + rho * rho * sq * a2 * b2)
    g2 = math.sqrt(2.0) * gamma_k(2)
    d = (1 + g2) * t_ + g2 * sq * m
    l2 = (d + rho * (sq * m + d)) / sq
    # subnormal results: division by n may lose bits below 2^-1022; at most 2^-1074 each
    l2 += math.sqrt(n) * 2.0 ** -1074 * n
    return c[:length], math.sqrt(length) * l2 * (1 + 1e-10)
