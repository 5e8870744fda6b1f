"""The FFT blanket bound as it was before the relative-error rewrite (comparison only).

Kept so that ``bench_fft.py`` can run the previous method side by side with the current one
(``shufflekit.numeric.methods.blanket_fft``) on the same tasks.  Its error is absolute: atoms rounded
up to ``l Z`` on a Bernstein window, one numpy FFT, and a round-off budget from a normwise FFT
error bound propagated through the n-th power.  Not used by the package.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from shufflekit.errors import CannotCertify
from shufflekit.numeric.kernels.gparv_law import UNIT
from shufflekit.validation import check_n

LOG_TAIL = 60.0  # tails dropped only below e^-60 (Bernstein)
MAX_FFT_GRID = 1 << 25


# ============================================================ FFT method
def previous_fft_error(N: int, n: int, l: float, top: int, p_norm2: float) -> float:
    r"""Bound on :math:`\sum_{v=1}^{top} v\,l\,|\hat f_v - f_v|` for the n-fold pmf by FFT.

    Higham (Accuracy and Stability, Thm 24.2): the computed DFT satisfies
    :math:`\|\hat y - y\|_2 \le \eta\|y\|_2`, :math:`\eta = \log_2 N\,(\mu + \gamma_4(\sqrt2+\mu))`,
    with :math:`\|y\|_2 = \sqrt N\|p\|_2`.  Raising to the n-th power multiplies each
    coefficient error by at most :math:`nG`, :math:`G = (1+\max|\Delta|)^{n}`, and adds a
    relative :math:`(n\pi+10)u`; the inverse DFT divides 2-norms by :math:`\sqrt N` and adds
    :math:`\eta` times the result's norm (at most 1).  Cauchy-Schwarz over the positive
    cells then gives the bound.
    """
    lg = math.log2(max(N, 2))
    eta = lg * (UNIT + 4 * UNIT / (1 - 4 * UNIT) * (math.sqrt(2) + UNIT)) * 1.01
    d_max = eta * math.sqrt(N) * p_norm2  # any single coefficient error
    grow = math.exp(min(n * math.log1p(d_max), 700.0))
    err2 = n * grow * eta * p_norm2 + (n * math.pi + 10) * UNIT * grow + eta * grow
    s2 = math.sqrt(top * (top + 1) * (2 * top + 1) / 6.0) if top > 0 else 0.0
    return l * s2 * err2


def default_grid(eps0: float) -> float:
    """The paper's discretisation interval l = (e^eps0 - 1)/1200 (Su-Cheng-Wang 2026, Sec. 7)."""
    return (math.exp(eps0) - 1) / 1200


def previous_blanket_delta_fft(
    atoms: Sequence[float],
    probs: Sequence[float],
    n: int,
    *,
    l: float,
    zero_mass: float | None = None,
    margins: Sequence[float] | None = None,
) -> tuple[float, float]:
    r"""Certified FFT evaluation of :math:`\tfrac1n\mathbb{E}[(\sum G_i)_+]` on the grid ``l``
    (Su-Cheng-Wang 2026, Algorithm 4 with safe rounding and an error budget).

    Returns ``(value, error)``: ``value`` upper-bounds the exact expectation and
    ``value - error`` lower-bounds it (the error covers discretisation, wrap-around,
    truncation and FFT round-off).
    """
    n = check_n(n)
    l = float(l)
    if not (l > 0 and math.isfinite(l)):
        raise ValueError(f"l={l!r} is not allowed; allowed range (0, inf)")
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    mg = np.zeros_like(g) if margins is None else np.asarray(margins, dtype=float)
    keep = (g != 0) & (q > 0)
    if zero_mass is None:
        q0 = max(0.0, 1.0 - float(q[keep].sum()))
    else:
        q0 = float(zero_mass) + float(q[(g == 0) & (q > 0)].sum())
    mz = mg[(g == 0) & (q > 0)]
    zshift = float(mz.max()) if mz.size else 0.0  # see blanket_delta_exact
    g, q, mg = g[keep], q[keep], mg[keep]
    if g.size == 0 or (g + mg).max() <= 0:
        return zshift, 2 * zshift
    k = np.ceil((g + mg) / l * (1 + 4 * UNIT) + 4 * UNIT).astype(np.int64)  # rounded UP
    k_all = np.append(k, 0)
    q_all = np.append(q, q0)
    q_all = q_all / q_all.sum()
    kmin, kmax = int(k_all.min()), int(k_all.max())
    mu = n * float(np.dot(q_all, k_all))
    var = n * float(np.dot(q_all, (k_all - np.dot(q_all, k_all)) ** 2))
    rng = kmax - kmin
    L = LOG_TAIL
    t = L * rng / 3 + math.sqrt((L * rng / 3) ** 2 + 2 * L * var)  # Bernstein, range rng
    eL = math.exp(-L)
    top = int(math.floor(mu + t))
    if top <= 0:  # the whole positive part is in the dropped tail
        bound = n * kmax * l * eL
        return bound / n + zshift, bound / n + 2 * zshift
    lo = int(math.ceil(mu - t))
    lo = min(lo, 0)
    lo = max(lo, n * kmin)
    span = top - lo + 1
    N = 1
    while N < span:
        N *= 2
    if N > MAX_FFT_GRID:
        raise CannotCertify(
            f"the FFT grid would need {N} points (n={n}, l={l:g}); "
            "use a coarser l or the exact method"
        )
    p = np.zeros(N)
    np.add.at(p, (k_all - kmin) % N, q_all)
    phi = np.fft.rfft(p)
    pmf = np.fft.irfft(phi**n, N)
    # index i holds values v = i + n*kmin (mod N); pick v in [lo, lo + N)
    base = (lo - n * kmin) % N
    vals = lo + np.arange(N)
    pm = np.roll(pmf, -base)
    posmask = vals > 0
    pos_part = float(np.sum(vals[posmask] * pm[posmask])) * l
    ppos = float(np.sum(pm[posmask]))
    fft_err = previous_fft_error(N, n, l, max(top, int(vals[-1]), 0), float(np.sqrt(np.sum(p * p))))
    above = n * max(kmax, 0) * l * eL  # E[S 1{S > window top}]
    upper = pos_part + fft_err + above + 1e-13 * abs(pos_part)
    # lower side: aliasing added <= 2e^-L mass; discretisation <= l * n * P(S_bar > 0)
    p_pos_up = min(1.0, ppos + fft_err / l + 2 * eL)
    disc = l * n * p_pos_up + float(np.dot(q, mg)) * n
    lower = pos_part - fft_err - 2 * eL * max(lo + N, 0) * l - disc - 1e-13 * abs(pos_part)
    return upper / n + zshift, (upper - max(lower, 0.0)) / n + 2 * zshift


def previous_default_grid(eps0: float) -> float:
    """The grid the previous method used by default: l = (e^eps0 - 1)/1200."""
    return (math.exp(eps0) - 1) / 1200
