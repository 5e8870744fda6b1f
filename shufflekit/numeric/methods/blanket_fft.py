r"""Blanket bound on a lattice with relative error (Su-Cheng-Wang 2026, Thm 4 evaluated by Algorithm 4,
made rigorous).

The quantity is :math:`\delta_B(\varepsilon) = \tfrac1n\mathbb{E}[S_+]`, :math:`S=\sum_{i\le n}G_i`,
:math:`G_i` i.i.d. copies of the GPARV (Su-Cheng-Wang 2026, Def. 5.1 and Thm 4).  Su-Cheng-Wang 2026, Algorithm 4
rounds the atoms to a grid :math:`l\mathbb{Z}` and convolves n-fold with an FFT; its error is
absolute, so the tail that decides a small delta drowns in round-off.  Here the same lattice
idea is evaluated so that every error is *relative* to the answer:

1. **Safe rounding.**  Atom :math:`g_j` (upper end of its float enclosure) becomes
   :math:`k_j = \lceil g_j/l\rceil` (exact rational arithmetic), so :math:`S \le lK - \Delta`
   with :math:`K=\sum_i k_{J_i}` and :math:`\Delta=\sum_i d_{J_i}`, :math:`d_j = lk_j-g_j\ge0`.
   Since :math:`(a+b)_+\le a_+ + b_+`, for any shift :math:`c\ge0`

   .. math:: \mathbb{E}[S_+] \le \mathbb{E}[(lK-c)_+] + \mathbb{E}[(c-\Delta)_+],

   and the second term is bounded by Chernoff, :math:`x_+\le e^{sx-1}/s`:
   :math:`\mathbb{E}[(c-\Delta)_+]\le e^{sc-1}s^{-1}(\sum_j q_je^{-sd_j})^n` for any
   :math:`s>0`.  Taking :math:`c` near :math:`\mathbb{E}\Delta` a few standard deviations low
   makes the rounding loss of order :math:`\sqrt n\,l` instead of :math:`nl`.  The grid is
   chosen so that the heaviest atom lies on it (its :math:`d_j` is a few ulps).
2. **Exponential tilting.**  For :math:`t>0` let :math:`M=\sum_j q_je^{tlk_j}` and
   :math:`\tilde q_j = q_je^{tlk_j}/M`.  Then for any :math:`f`,
   :math:`\mathbb{E}_P[f(K)] = M^n\,\mathbb{E}_Q[f(K)e^{-tlK}]`.  With :math:`t` at the saddle
   point (:math:`\mathbb{E}_Q G = 0`), :math:`Q` puts the decisive region :math:`S\approx0` in
   its bulk, and :math:`M^n` carries the exponentially small factor exactly.
3. **Periodisation instead of truncation.**  With :math:`h(v) = (lv-c)_+e^{-tlv}\ge0` and any
   period :math:`N`, :math:`h(K)\le\sum_{m\in\mathbb{Z}}h(K+mN)`, and by Parseval on
   :math:`\mathbb{Z}_N`

   .. math::
       \mathbb{E}_Q\Big[\sum_m h(K+mN)\Big] = \frac1N\sum_{\omega=0}^{N-1}\varphi(\omega)^n\,
       \hat H(\omega),\quad \varphi(\omega)=\sum_j\tilde q_j e^{-2\pi i\omega k_j/N},\quad
       \hat H(\omega)=z^{v_0}\Big[\frac{lv_0-c}{1-z}+\frac{lz}{(1-z)^2}\Big],

   :math:`z=e^{-tl+2\pi i\omega/N}`, :math:`v_0=\lceil c/l\rceil` (a geometric series).  So no
   window or tail bound is needed for the upper bound; the window (:math:`N` covering the bulk
   of :math:`Q`, capped at the support :math:`[n\min k, n\max k]` plus the decay length of
   :math:`h`) only decides how tight it is.
4. **Certified arithmetic.**  :math:`|\varphi(\omega)|` is evaluated at every frequency in
   float64 with a proven error bound :math:`e` (roots of unity from Arb-rounded seed tables,
   products and inner products bounded by Higham, *Accuracy and Stability*, Lemma 3.5 and
   eq. (3.5): :math:`|fl(x^*y)-x^*y|\le\sqrt2\gamma_{r+2}|x|^T|y|`, valid for any summation
   order, as BLAS uses).  Frequencies where :math:`(|\hat\varphi|+e)^n` is not negligible are
   summed exactly in Arb ball arithmetic (python-flint); the others are bounded by
   :math:`|\hat H(\omega)|\le\hat H(0)` times :math:`\sum(|\hat\varphi|+e)^n`, whose float
   evaluation is padded by a relative :math:`10^{-6}` in the exponent (only ``log``/``exp``
   accurate to :math:`10^{-6}` relative are assumed).  Everything else (:math:`M^n`, the tilted
   weights, the Chernoff term) is Arb.  The float weights of the GPARV law are taken with a
   relative error :math:`\eta`, which multiplies the bound by :math:`(1+\eta)^n`.

For small n (at most :data:`DIRECT_MAX_N`) with a small support the pmf of K is instead built
by n direct convolutions: all terms are non-negative, so the float result carries a proven
*relative* error (:func:`direct_expectation`), as long as no product leaves the normal float
range (:func:`direct_is_normal`).  When one can (a weight of :math:`10^{-36}` to the power 12)
and there are few count vectors, every cell of the multinomial is summed in Arb with the exact
atoms instead (:func:`enumerated_expectation`): a value of :math:`10^{-329}` is then a proven
positive ball, never a float 0.

The grid step is chosen per evaluation (:func:`choose_grid`) for a predicted rounding loss of
about ``rel_loss``, preferring steps that put a heavy atom exactly on the lattice.

The lower end (for :func:`blanket_delta_fft`) rounds atoms *down*, uses :math:`c=0`, a period
covering the whole support, and subtracts the bound
:math:`\tfrac{2}{et}e^{-tl(n k_{\min}+N)/2}/(1-e^{-tlN/2})` on the wrapped copies
(from :math:`xe^{-x}\le\tfrac2e e^{-x/2}`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from flint import acb, arb, ctx, fmpq

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import Accountant, invert_delta, register
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.numeric.kernels.gparv_law import (
    has_gparv_laws,
    is_continuous_ldp,
    numeric_eps0,
    ratio_laws,
)
from shufflekit.numeric.kernels.positive_part import MAX_EXACT_N
from shufflekit.validation import check_delta, check_epsilon, check_n, check_real

UNIT = 2.0**-53  # float64 unit round-off
ARB_PREC = 128  # working precision of the ball arithmetic (bits)
DEFAULT_REL_LOSS = 0.05  # target relative loss of the grid (rounding) step
MAX_GRID = 1 << 24  # largest period N evaluated
COST_GRID = 1 << 20  # above this period a coarser grid (loss <= 2x target) is
# preferred when it exists (see choose_grid)
MIN_GRID = 1 << 12  # the grid is refined at least to this period (cheap) ...
MIN_GRID_LARGE_N = 1 << 17  # ... and to this one from n >= 500 (|phi|^n then decays, so
# few frequencies need Arb)
WINDOW_SD = 9.0  # period covers mean +- 9 sd of K under the tilted law
DECAY_LENGTH = 45.0  # h decays by e^-45 over the period's upper margin
MAX_EXACT_FREQUENCIES = 60_000  # most frequencies summed in Arb
FIRST_FREQUENCIES = 48  # frequencies summed in Arb before the remainder is judged
LOG_PAD = 1e-6  # relative padding of float log/exp in the tail bound
BLOCK = 2048  # block length of the blocked root-of-unity tables
DIRECT_MAX_N = 32  # up to this n, small supports are convolved directly ...
DIRECT_CELLS = 1 << 18  # ... on a grid of about this many support points
DIRECT_MAX_WORK = 3e8  # ... when n * support * atoms is at most this


# ============================================================ roots of unity
@dataclass(frozen=True)
class RootTable:
    r"""Float :math:`W(m)=e^{2\pi i m/N}` for every :math:`m\in[0,N)` as ``hi[m // B] * lo[m % B]``.

    ``hi`` and ``lo`` (length about :math:`\sqrt N`) are Arb values rounded to float64, so each
    has modulus error at most ``seed_err``; ``err`` bounds :math:`|\hat W(m)-W(m)|` of the
    product (Higham, Lemma 3.5: a complex product has relative error :math:`\le\sqrt2\gamma_2`).
    """

    N: int
    B: int
    hi: np.ndarray
    lo: np.ndarray
    err: float

    def __call__(self, m: np.ndarray) -> np.ndarray:
        q, r = np.divmod(m, self.B)
        return self.hi[q] * self.lo[r]


def _rounded_root(num: int, den: int) -> tuple[complex, float]:
    """Float e^{pi i num/den} and a bound on its modulus error."""
    w = acb(arb(fmpq(num, den))).exp_pi_i()
    re, im = w.real, w.imag
    fr, fi = float(re.mid()), float(im.mid())
    er = float(re.rad()) + abs(float(re.mid()) - fr) + UNIT * abs(fr) + 2.0**-1074
    ei = float(im.rad()) + abs(float(im.mid()) - fi) + UNIT * abs(fi) + 2.0**-1074
    return complex(fr, fi), math.hypot(er, ei) * (1 + 4 * UNIT)


@lru_cache(maxsize=64)
def root_table(N: int) -> RootTable:
    """The blocked table of N-th roots of unity (cached per N)."""
    old = ctx.prec
    ctx.prec = ARB_PREC
    try:
        B = max(1, math.isqrt(N))
        nhi = -(-N // B)
        lo, hi, err = np.empty(B, complex), np.empty(nhi, complex), 0.0
        for m in range(B):
            lo[m], e = _rounded_root(2 * m, N)
            err = max(err, e)
        for m in range(nhi):
            hi[m], e = _rounded_root(2 * m * B % (2 * N), N)
            err = max(err, e)
    finally:
        ctx.prec = old
    g2 = 2 * UNIT / (1 - 2 * UNIT)
    prod_err = (2 * err + err * err + math.sqrt(2) * g2 * (1 + err) ** 2) * (1 + 4 * UNIT)
    return RootTable(N, B, hi, lo, prod_err)


def nice_size(m: int) -> int:
    """Smallest number >= m of the form 2^a * {8, 9, ..., 15} (so tables are reused)."""
    m = max(int(m), 16)
    p = 1 << (m.bit_length() - 4)
    return p * -(-m // p)


# ============================================================ the lattice law
@dataclass(frozen=True)
class LatticeLaw:
    r"""GPARV law on :math:`l\mathbb{Z}`: integer atoms ``k`` with float weights ``q`` (the zero
    atom included) and the exact rounding gaps :math:`d_j = lk_j - g_j` (Fractions)."""

    k: tuple[int, ...]
    q: tuple[float, ...]
    d: tuple[Fraction, ...]
    l: float


def lattice_law(g: Sequence[Fraction], q: Sequence[float], l: float, *, up: bool) -> LatticeLaw:
    """Round the exact atoms ``g`` up (``up=True``) or down to the grid ``l`` (exactly)."""
    L = Fraction(l)
    ks, ds = [], []
    for gj in g:
        x = gj / L
        kj = math.ceil(x) if up else math.floor(x)
        ks.append(int(kj))
        ds.append(kj * L - gj)
    return LatticeLaw(tuple(ks), tuple(float(v) for v in q), tuple(ds), float(l))


# ============================================================ the tilt
def saddle_tilt(g: np.ndarray, q: np.ndarray) -> float:
    r"""The :math:`t\ge0` with :math:`\sum_j q_jg_je^{tg_j}=0` (float; any t > 0 is valid)."""
    gmax = float(g.max())
    if gmax <= 0 or float(np.dot(q, g)) >= 0:
        return 0.0

    def slope(t):
        return float(np.dot(q, g * np.exp(t * (g - gmax))))

    lo, hi = 0.0, 1.0 / gmax
    while slope(hi) < 0:
        lo, hi = hi, 2 * hi
        if hi > 1e12:
            return hi
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if slope(mid) < 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-10 * hi:
            break
    return 0.5 * (lo + hi)


def tilted_moments(g: np.ndarray, q: np.ndarray, t: float) -> tuple[float, float]:
    """Mean and variance of the law ``(g, q)`` tilted by e^{t g} (float, for choices only)."""
    w = q * np.exp(t * (g - g.max()))
    w = w / w.sum()
    m = float(np.dot(w, g))
    return m, float(np.dot(w, (g - m) ** 2))


# ============================================================ |phi| at every frequency
def modulus_bounds(
    law: LatticeLaw, qf: np.ndarray, qerr: np.ndarray, N: int, n: int, floor: float
) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Float :math:`y_\omega \ge n\log|\varphi(\omega)|` for :math:`\omega=0..\lfloor N/2\rfloor`
    where :math:`|\varphi(\omega)|^n` may exceed :math:`e^{floor}`.

    Returns ``(omega, y, tail)``: those frequencies, their ``y``, and a certified upper bound
    ``tail`` on :math:`\sum|\varphi(\omega)|^n` over all the others (each counted once).
    :math:`\hat\varphi` is one matrix product of root-of-unity tables
    (``T[j, s] = W(-s k_j)``, ``C[b, j] = q_j W(-bLk_j)``); a frequency is dropped when
    :math:`\sqrt{|\hat\varphi|^2(1+3u)} + e \le A` with :math:`A^n\le e^{floor}`.
    """
    tab = root_table(N)
    k = np.asarray(law.k, dtype=np.int64)
    r = len(k)
    half = N // 2
    L = min(BLOCK, half + 1)
    nb = -(-(half + 1) // L)
    if N * int(np.max(np.abs(k))) >= 2**62:
        raise CannotCertify(f"lattice atoms too large for the period N={N}")
    s = np.arange(L, dtype=np.int64)
    T = np.conj(tab((k[:, None] * s[None, :]) % N))  # r x L
    b = np.arange(nb, dtype=np.int64) * L
    C = qf[None, :] * np.conj(tab((b[:, None] * k[None, :]) % N))  # nb x r
    # proven error of the computed phi (see the module docstring, item 4)
    ew = tab.err
    g_r2 = (r + 2) * UNIT / (1 - (r + 2) * UNIT)
    eC = qf * (ew + UNIT * (1 + ew)) + qerr
    cabs = qf * (1 + ew) * (1 + UNIT)
    e = float(
        np.sum((1 + ew) * eC + ew * (qf + qerr))
        + math.sqrt(2) * g_r2 * np.sum((1 + ew) * (cabs + eC))
    )
    e *= 1.01
    # drop test: |phi| <= A with A^n <= e^floor (exponent padded by LOG_PAD)
    A = math.exp(floor / n * (1 + LOG_PAD)) * (1 - 4 * UNIT)  # (1-4u)^n covers exp's rounding
    a2_max = max(A - e, 0.0) ** 2 / (1 + 3 * UNIT) * (1 - 8 * UNIT)
    keep_w, keep_y = [], []
    dropped = 0
    per = max(1, (1 << 20) // L)
    for b0 in range(0, nb, per):
        Phi = C[b0 : b0 + per] @ T  # nb' x L
        a2 = Phi.real**2 + Phi.imag**2
        a2 = a2.ravel()
        w = (b[b0 : b0 + per, None] + s[None, :]).ravel()
        big = (a2 > a2_max) & (w <= half)
        dropped += int(np.count_nonzero(w <= half)) - int(np.count_nonzero(big))
        wb = w[big]
        up = (np.sqrt(a2[big] * (1 + 3 * UNIT)) * (1 + 2 * UNIT) + e) * (1 + 2 * UNIT)
        keep_w.append(wb)
        keep_y.append(n * np.log(up))
    tail = dropped * math.exp(floor) * (1 + LOG_PAD)
    return np.concatenate(keep_w), np.concatenate(keep_y), tail


# ============================================================ the evaluation
@dataclass(frozen=True)
class LatticeEvaluation:
    r"""One certified lattice evaluation of :math:`\mathbb{E}[S_+]/n`.

    ``value`` is an Arb ball containing the number the method computes (an upper bound on the
    blanket delta when ``upper``); the rest are diagnostics.
    """

    value: arb
    l: float
    N: int
    t: float
    c: float
    frequencies: int
    upper: bool


def _exact_atoms(atoms, margins, up: bool) -> list[Fraction]:
    return [
        Fraction(float(g)) + (Fraction(float(m)) if up else -Fraction(float(m)))
        for g, m in zip(atoms, margins)
    ]


def _hhat(omega: int, N: int, v0: int, tl: arb, lA: arb, cA: arb) -> acb:
    r""":math:`\hat H(\omega)=z^{v_0}[(lv_0-c)/(1-z)+lz/(1-z)^2]`, :math:`z=e^{-tl}e^{2\pi i\omega/N}`
    (Arb; :math:`z^{v_0}` from the exact phase :math:`\omega v_0 \bmod N`)."""
    z = (-tl).exp() * acb(arb(fmpq(2 * omega % (2 * N), N))).exp_pi_i()
    zv0 = (-tl * v0).exp() * acb(arb(fmpq(2 * (omega * v0 % N), N))).exp_pi_i()
    w = 1 - z
    return zv0 * ((lA * v0 - cA) / w + lA * z / (w * w))


def _hhat_float(omega: np.ndarray, N: int, v0: int, tl: float, l: float, c: float) -> np.ndarray:
    r"""Float :math:`\hat H` at many frequencies (only to choose the shift c)."""
    z = math.exp(-tl) * np.exp(2j * np.pi * omega / N)
    zv0 = math.exp(-tl * v0) * np.exp(2j * np.pi * ((omega * v0) % N) / N)
    w = 1 - z
    return zv0 * ((l * v0 - c) / w + l * z / (w * w))


def _phi(law_k, qt, omega: int, N: int) -> acb:
    tot = acb(0)
    for kj, qj in zip(law_k, qt):
        m = (-omega * kj) % N
        tot += qj * acb(arb(fmpq(2 * m, N))).exp_pi_i()
    return tot


def _chernoff_s(d: Sequence[Fraction], q: Sequence[float], n: int, c: float) -> tuple[float, float]:
    """(s, log of the bound) minimising e^{sc-1} s^-1 (sum_j q_j e^{-s d_j})^n over s (float)."""
    dd = np.array([float(x) for x in d])
    qq = np.array(q)
    pos = qq > 0
    dd, lq = dd[pos], np.log(qq[pos])

    def logb(s):  # log sum_j q_j e^{-s d_j} as a log-sum-exp: the terms may underflow
        x = lq - s * dd
        top = float(np.max(x))
        return s * c - 1 - math.log(s) + n * (top + math.log(float(np.sum(np.exp(x - top)))))

    a, b = math.log(1e-3 / c), math.log(1e4 / c)
    gr = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        x1, x2 = b - gr * (b - a), a + gr * (b - a)
        if logb(math.exp(x1)) < logb(math.exp(x2)):
            b = x2
        else:
            a = x1
    s = math.exp(0.5 * (a + b))
    return s, logb(s)


def chernoff_log(d: Sequence[Fraction], q: Sequence[float], n: int, c: float) -> float:
    r"""Float log of the Chernoff bound on :math:`\mathbb{E}[(c-\Delta)_+]` (-inf for c <= 0)."""
    return -math.inf if c <= 0 else _chernoff_s(d, q, n, c)[1]


def _chernoff_shift(d: Sequence[Fraction], q: Sequence[float], n: int, c: float) -> arb:
    r"""Arb upper bound on :math:`\mathbb{E}[(c-\Delta)_+]\le e^{sc-1}s^{-1}(\sum_jq_je^{-sd_j})^n`
    (any s > 0; the float minimiser is used)."""
    if c <= 0:
        return arb(0)
    s = arb(_chernoff_s(d, q, n, c)[0])
    mgf = arb(0)
    for dj, qj in zip(d, q):
        mgf += arb(qj) * (-s * arb(fmpq(dj.numerator, dj.denominator))).exp()
    return (s * arb(c) - 1).exp() / s * mgf**n


def lattice_expectation(
    law: LatticeLaw, n: int, t: float, N: int, *, shifts: Sequence[float], upper: bool, eta: float
) -> tuple[arb, float, int]:
    r"""Certified ball of :math:`\tfrac1n(M^n\mathbb{E}_Q[h_{per}(K)]+\mathbb{E}[(c-\Delta)_+])
    (1+\eta)^n` (``upper``; c is the best of ``shifts`` by a float estimate) or of
    :math:`\tfrac1n M^n(\mathbb{E}_Q[h_{per}(K)]-\text{wrap})(1-\eta)^n` with c = 0 (lower).
    Returns (ball, c, number of frequencies summed in Arb)."""
    lA, tA = arb(law.l), arb(t)
    tl = tA * lA
    tlf = t * law.l
    kk = law.k
    ex = [(tl * kj).exp() for kj in kk]
    M = sum((arb(qj) * e for qj, e in zip(law.q, ex)), arb(0))
    qt = [arb(qj) * e / M for qj, e in zip(law.q, ex)]
    qf = np.array([float(x.mid()) for x in qt])
    qerr = np.array(
        [float(x.rad()) + abs(float(x.mid()) - f) + UNIT * f for x, f in zip(qt, qf)]
    ) * (1 + 4 * UNIT)
    kf = np.array(kk, dtype=float)
    sdK = math.sqrt(max(n * float(np.dot(qf, (kf - np.dot(qf, kf)) ** 2)), 1.0))
    Mn = M**n
    logMn = float(Mn.log().mid()) if Mn > 0 else -math.inf
    base_floor = math.log(1e-12 / (6 * sdK))
    floor = base_floor - 60.0
    omegas, ys, tail_low = modulus_bounds(law, qf, qerr, N, n, floor)
    order = np.argsort(-ys, kind="stable")
    omegas, ys = omegas[order], ys[order]
    cache: dict[int, acb] = {}
    chern: dict[float, float] = {}
    # rest_after[m]: certified bound on sum |phi|^n over all but the first m frequencies
    pad = (1 + LOG_PAD) * (1 + (N + 8) * UNIT)
    terms_up = np.exp(ys * (1 - LOG_PAD))
    rest_after = tail_low + np.append(np.cumsum(terms_up[::-1])[::-1], 0.0) * pad
    m = min(len(ys), FIRST_FREQUENCIES)
    Mn_up = float_up(Mn)
    while True:
        nsel = m
        if nsel > MAX_EXACT_FREQUENCIES:
            raise CannotCertify(
                f"{nsel} frequencies are not negligible at period N={N}; "
                "the lattice law is too close to periodic for this n"
            )
        rest = float(rest_after[m])
        ws = [int(w) for w in omegas[:m]]
        for w in ws:
            if w not in cache:
                cache[w] = _phi(kk, qt, w, N) ** n
        mult = np.array([1.0 if (w == 0 or 2 * w == N) else 2.0 for w in ws])
        if upper and len(shifts) > 1:  # choose c by a float estimate of the bound
            wa = np.array(ws, dtype=np.int64)
            pn = np.array(
                [complex(float(cache[w].real.mid()), float(cache[w].imag.mid())) for w in ws]
            )
            best_c, best_log = 0.0, math.inf
            for c in shifts:
                v0 = max(math.ceil(Fraction(c) / Fraction(law.l)), 0)
                main = float(np.sum(mult * (pn * _hhat_float(wa, N, v0, tlf, law.l, c)).real)) / N
                lm = logMn + math.log(main) if main > 0 else -math.inf
                if c not in chern:
                    chern[c] = chernoff_log(law.d, law.q, n, c)
                lc = chern[c]
                tot = np.logaddexp(lm, lc)
                if tot < best_log:
                    best_c, best_log = c, tot
            c = best_c
        else:
            c = shifts[0] if upper else 0.0
        cA = arb(c)
        v0 = max(math.ceil(Fraction(c) / Fraction(law.l)), 0)
        h0 = _hhat(0, N, v0, tl, lA, cA).real
        total = arb(0)
        for w, mw in zip(ws, mult):  # (not ``m``: that is the number of frequencies)
            total += int(mw) * (cache[w] * _hhat(w, N, v0, tl, lA, cA)).real
        restH = 2 * rest * float_up(h0) * (1 + 4 * UNIT)
        main = (total + arb(0, restH)) / N
        if upper:
            val = (Mn * main + _chernoff_shift(law.d, law.q, n, c)) * (1 + arb(eta)) ** n / n
        else:
            # wrapped copies: sum_{m>=1} h(K+mN) <= (2/(e t)) e^{-tl(K+mN)/2}, K >= n kmin
            a = n * min(kk)
            wrap = (
                (2 / (arb(1).exp() * tA))
                * (-(tl * (a + N)) / 2).exp()
                / (1 - (-(tl * N) / 2).exp())
            )
            val = Mn * (main - wrap) * (1 - arb(eta)) ** n / n
        # accept when the bounded remainder is small against the value, or nothing is left;
        # else take the fewest frequencies whose remainder bound is small enough
        goal = 1e-6 * abs(float(val.mid())) * n
        hup = float_up(h0)
        if Mn_up * 2 * rest * hup / N <= goal or m == len(ys):
            return val, c, nsel
        ok = np.nonzero(Mn_up * 2 * rest_after * hup / N <= goal)[0]
        m_new = int(ok[0]) if ok.size else len(ys)
        m = min(max(m_new, 2 * m), len(ys))


def _shift_candidates(law: LatticeLaw, n: int) -> list[float]:
    d = np.array([float(x) for x in law.d])
    q = np.array(law.q)
    mean = n * float(np.dot(q, d))
    sd = math.sqrt(n * float(np.dot(q, (d - np.dot(q, d)) ** 2)))
    out = [0.0]
    for tau in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0):
        c = mean - tau * sd
        if c > 0:
            out.append(c)
    return out


def rounding_spread(g: np.ndarray, q: np.ndarray, ls: np.ndarray) -> np.ndarray:
    r"""Standard deviation of the rounding gap :math:`d_J = l\lceil g_J/l\rceil - g_J` for each
    grid step in ``ls`` (float; used only to choose l)."""
    x = g[None, :] / ls[:, None]
    d = (np.ceil(x) - x) * ls[:, None]
    m = d @ q
    return np.sqrt(np.maximum(((d - m[:, None]) ** 2) @ q, 0.0))


def choose_grid(
    g: np.ndarray, q: np.ndarray, n: int, t: float, *, rel_loss: float, max_grid: int
) -> float:
    r"""Grid step l: the coarsest one whose predicted rounding loss is at most ``rel_loss``.

    After the shift of step 1 the loss is about :math:`t(\tau+1)\sqrt n\,\mathrm{sd}(d_J)`
    (:math:`\tau\approx4`).  Candidates are :math:`|g_a|/m` for the three heaviest atoms
    :math:`a` (so that atom lies on the grid) and m up to the finest grid that fits
    ``max_grid`` (the period is the tilted bulk :math:`2\cdot9\,\mathrm{sd}(S)` plus the
    decay length of h, capped at the support); where the atoms are nearly commensurate a
    coarse grid then loses almost nothing.  Above a period of :data:`COST_GRID` a grid with up
    to twice the loss target is taken if it shortens the period fourfold.  If the period is below :data:`MIN_GRID` the step
    is divided by an integer (the finer grid contains the coarser one, so no gap grows).
    """
    nz = q > 0
    _, var = tilted_moments(g[nz], q[nz], t)
    sdS = math.sqrt(n * var)
    tt = max(t, 1e-300)
    bulk = 2 * WINDOW_SD * sdS + DECAY_LENGTH / tt
    support = n * float(g.max() - min(g.min(), 0.0)) + DECAY_LENGTH / tt
    span = min(bulk, support)
    l_min = span / (0.9 * max_grid)
    cands = []
    order = np.argsort(-np.where((g != 0) & nz, q, -1.0))[:3]
    for a in order:
        if g[a] == 0 or q[a] <= 0 or abs(g[a]) < l_min:
            continue
        m_hi = min(int(abs(g[a]) / l_min), 200_000)
        ms = np.arange(1, m_hi + 1)
        cands.append(abs(g[a]) / ms * (1 - 4 * UNIT if g[a] < 0 else 1 + 4 * UNIT))
    l0 = 2 * rel_loss / (tt * 5.0 * math.sqrt(n * max(float(q[g != 0].sum()), 1e-300)))
    cands.append(np.array([max(l0, l_min)]))
    ls = np.concatenate(cands)
    ls = ls[ls >= l_min]
    loss = np.concatenate(
        [
            tt * 5.0 * math.sqrt(n) * rounding_spread(g, q, ls[i : i + 8192])
            for i in range(0, len(ls), 8192)
        ]
    )
    ok = loss <= rel_loss
    l = float(ls[ok].max()) if ok.any() else float(ls[np.argmin(loss)])
    # cost: when that grid needs a long period, a grid with up to twice the loss target is
    # taken if it shortens the period at least fourfold
    if span / l > COST_GRID:
        ok2 = loss <= 2 * rel_loss
        if ok2.any() and float(ls[ok2].max()) >= 4 * l:
            l = float(ls[ok2].max())
    least = MIN_GRID_LARGE_N if n >= 500 else MIN_GRID
    period = span / l + 2
    if period < least:
        l /= math.ceil(least / period)
    return l


def direct_expectation(law: LatticeLaw, n: int, upper: bool, eta: float) -> arb:
    r"""Ball for :math:`\tfrac1n\mathbb{E}[(lK)_+]` (times :math:`(1\pm\eta)^n`) by n direct
    convolutions of the lattice law (small n only).

    Every entry of the pmf of K is a sum of non-negative products, so each step has relative
    error at most :math:`\gamma_{2r}` (Higham, Lemma 3.1 for non-negative sums and products)
    and the final positive-part sum of S non-negative terms at most :math:`\gamma_{S+3}`:
    the value is enclosed in :math:`[v/F, vF]`, :math:`F=(1+\gamma_{2r})^n(1+\gamma_{S+3})`.
    """
    k = np.array(law.k, dtype=np.int64)
    q = np.array(law.q)
    kmin = int(k.min())
    offs = k - kmin
    width = int(offs.max())
    p = np.ones(1)
    for _ in range(n):
        new = np.zeros(len(p) + width)
        for o, qj in zip(offs, q):
            new[o : o + len(p)] += qj * p
        p = new
    v = n * kmin + np.arange(len(p))
    pos = v > 0
    val = float(np.sum((v[pos] * law.l) * p[pos]))
    r = len(k)
    gam = lambda m: m * UNIT / (1 - m * UNIT)  # noqa: E731
    F = (1 + arb(gam(2 * r))) ** n * (1 + arb(gam(int(pos.sum()) + 3)))
    if upper:
        return arb(val) * F * (1 + arb(eta)) ** n / n
    return arb(val) / F * (1 - arb(eta)) ** n / n


ENUMERATION_MAX = 20_000  # most count vectors enumerated in Arb (small n, few atoms)


def compositions(n: int, r: int) -> int:
    r"""Number of count vectors of n users over r atoms, :math:`\binom{n+r-1}{r-1}`."""
    return math.comb(n + r - 1, r - 1) if r > 0 else 0


def direct_is_normal(q: np.ndarray, n: int, l: float) -> bool:
    r"""Whether :func:`direct_expectation` stays in the normal float range, which its relative
    error bound assumes (below :math:`2^{-1022}` a product has an absolute, not a relative,
    error, and a cell of mass :math:`10^{-460}` is simply 0).

    Every entry of the pmf after :math:`s` convolutions is a sum of products of :math:`s`
    weights, each at least :math:`q_{\min}^s`, and the positive part multiplies by
    :math:`lv \ge l` (``l = 0``: that product is not formed), so
    :math:`n\log_2 q_{\min} + \log_2 l \ge -1000` (a margin of 22 bits above the subnormals,
    for the rounding factors) keeps every operand and result normal."""
    qp = np.asarray(q, dtype=float)
    qp = qp[qp > 0]
    if qp.size == 0:
        return True
    bits = n * math.log2(float(qp.min())) + (math.log2(l) if l > 0 else 0.0)
    return bits >= -1000


def enumerated_expectation(
    ex: Sequence[Fraction], q: Sequence[float], q0: float, n: int, upper: bool, eta: float
) -> arb:
    r"""Ball for :math:`\tfrac1n\mathbb{E}[(\sum_i G_i)_+]` (times :math:`(1\pm\eta)^n`) of the
    law with the exact atoms ``ex`` (weights ``q``) and 0 (weight ``q0``), by enumerating every
    count vector :math:`N` (:math:`\binom{n+r-1}{r-1}` of them):

    .. math:: \mathbb{E}[S_+] = \sum_N \binom{n}{N}\prod_j q_j^{N_j}\Big(\sum_j N_jg_j\Big)_+ .

    The sign and value of :math:`\sum_j N_jg_j` are exact rationals, the weights Arb balls (no
    underflow: Arb exponents are unbounded), so the ball contains the exact value of the law
    with these atoms; the atoms are the upper (lower) ends of their enclosures, and the value
    is non-decreasing in every atom, so it bounds the expectation from above (below)."""
    atoms = list(ex) + ([Fraction(0)] if q0 > 0 else [])
    ws = [float(v) for v in q] + ([float(q0)] if q0 > 0 else [])
    r = len(atoms)
    powers = [[arb(1)] for _ in range(r)]
    for j in range(r):
        b = arb(ws[j])
        for _ in range(n):
            powers[j].append(powers[j][-1] * b)
    fact = [1]
    for i in range(1, n + 1):
        fact.append(fact[-1] * i)
    total = arb(0)

    def walk(j: int, left: int, counts: list, s: Fraction) -> None:
        nonlocal total
        if j == r - 1:
            tot = s + left * atoms[j]
            if tot <= 0:
                return
            cs = counts + [left]
            coef = fact[n]
            for c in cs:
                coef //= fact[c]
            term = arb(coef) * arb(fmpq(tot.numerator, tot.denominator))
            for jj, c in enumerate(cs):
                term *= powers[jj][c]
            total += term
            return
        for c in range(left + 1):
            walk(j + 1, left - c, counts + [c], s + c * atoms[j])

    walk(0, n, [], Fraction(0))
    f = (1 + arb(eta)) ** n if upper else ((1 - arb(eta)) ** n if eta < 1 else arb(0))
    return total * f / n


def lattice_and_period(
    ex: list[Fraction], q: np.ndarray, q0: float, n: int, l: float, t: float, upper: bool
) -> tuple[LatticeLaw, int]:
    r"""The lattice law on ``l`` (on ``g l`` when all atoms share the factor g) and the period
    N: the tilted bulk of K (9 sd either side),
    the spread of the rounding shift and the decay length :math:`45/(tl)` of h, capped at the
    support plus that decay length (the whole support, for the lower end)."""
    law = lattice_law(ex + [Fraction(0)], list(q) + [q0], l, up=upper)
    g = math.gcd(*law.k)
    if g > 1:  # the law lives on g*l*Z: the same rounding on the coarser grid, no loss
        law = lattice_law(ex + [Fraction(0)], list(q) + [q0], float(Fraction(l) * g), up=upper)
    if q0 <= 0:
        law = LatticeLaw(law.k[:-1], law.q[:-1], law.d[:-1], law.l)
    kk = np.array(law.k, dtype=float)
    qq = np.array(law.q)
    lt = t * l
    support = n * (int(max(law.k)) - min(int(min(law.k)), 0)) + 1
    if upper:
        _, vK = tilted_moments(kk, qq, lt)
        dd = np.array([float(x) for x in law.d]) / l
        sd_shift = math.sqrt(n * float(np.dot(qq, (dd - np.dot(qq, dd)) ** 2)))
        span = 2 * WINDOW_SD * math.sqrt(n * vK) + DECAY_LENGTH / lt + 8 * sd_shift
        need = min(span, support + DECAY_LENGTH / lt)
    else:
        need = support + DECAY_LENGTH / lt
    return law, nice_size(int(math.ceil(need)) + 1)


def lattice_delta(
    atoms: Sequence[float],
    probs: Sequence[float],
    n: int,
    *,
    zero_mass: float = 0.0,
    margins: Sequence[float] | None = None,
    l: float | None = None,
    rel_loss: float = DEFAULT_REL_LOSS,
    max_grid: int = MAX_GRID,
    upper: bool = True,
    prob_rel_err: float = 1e-12,
    zero_mass_rel_err: float | None = None,
) -> LatticeEvaluation:
    r"""Certified :math:`\tfrac1n\mathbb{E}[(\sum_iG_i)_+]` bound for the finite law
    ``atoms``/``probs`` (plus ``zero_mass`` at 0), each atom known to within ``margins``.

    ``upper=True``: an Arb ball whose every point is an upper bound on the expectation of the
    law the floats approximate (atoms rounded up, the shift and Chernoff term of step 1).
    ``upper=False``: every point is a lower bound (atoms rounded down, wrap-around subtracted);
    needs the period to cover the whole support, else the ball is [0, 0].  ``l=None`` picks the
    grid adaptively for a relative rounding loss near ``rel_loss``.

    The weights are taken with the relative error ``prob_rel_err`` and the zero mass with
    ``zero_mass_rel_err`` (its proven relative error, e.g. from
    :func:`shufflekit.numeric.kernels.gparv_law.zero_mass_of`); when that is ``None`` the zero mass is
    taken as :math:`1-\gamma` of float weights, with the absolute error ``prob_rel_err``.
    The bound is multiplied by :math:`(1\pm\eta)^n`, :math:`\eta` the largest of them.
    """
    n = check_n(n)
    g = np.asarray(atoms, dtype=float).ravel()
    q = np.asarray(probs, dtype=float).ravel()
    mg = np.zeros_like(g) if margins is None else np.abs(np.asarray(margins, dtype=float))
    if g.shape != q.shape or g.shape != mg.shape or not np.all(np.isfinite(g)):
        raise InvalidParameter("atoms", list(g)[:4], "finite floats, one per probability")
    if np.any(~np.isfinite(q)) or np.any(q < 0):
        raise InvalidParameter("probs", list(q)[:4], "finite probabilities >= 0")
    if l is not None:
        l = check_real("l", l, 0.0, math.inf, lo_open=True)
    rel_loss = check_real("rel_loss", rel_loss, 0.0, 1.0, lo_open=True)
    q0 = float(zero_mass) + float(q[(g == 0) & (mg == 0)].sum())
    keep = (q > 0) & ~((g == 0) & (mg == 0))
    g, q, mg = g[keep], q[keep], mg[keep]
    # relative error of the float weights: each is a float sum of at most a few thousand
    # products (relative 1e-12); the zero atom's weight is either known to a relative
    # zero_mass_rel_err or, as 1 - gamma of float weights, has that error absolutely
    if zero_mass_rel_err is None:
        eta = prob_rel_err * (1.0 + (1.0 / q0 if q0 > 0 else 0.0))
    else:
        eta = max(prob_rel_err, float(zero_mass_rel_err) if q0 > 0 else 0.0)
    ex = _exact_atoms(g, mg, upper)
    exf = np.array([float(x) for x in ex])
    old = ctx.prec
    ctx.prec = ARB_PREC
    try:
        if g.size == 0 or (upper and max(ex) <= 0) or (not upper and max(ex) <= 0):
            return LatticeEvaluation(arb(0), 0.0, 0, 0.0, 0.0, 0, upper)
        if min(ex) >= 0:  # S >= 0: E[S_+] = E[S] = n sum q g
            tot = sum(
                (arb(qj) * arb(fmpq(x.numerator, x.denominator)) for qj, x in zip(q, ex)), arb(0)
            )
            f = (1 + arb(eta)) ** n if upper else (1 - arb(eta)) ** n
            return LatticeEvaluation(tot * f, 0.0, 0, 0.0, 0.0, 0, upper)
        ga = np.append(exf, 0.0)
        qa = np.append(q, q0)
        if (
            n <= DIRECT_MAX_N
            and compositions(n, len(q) + (q0 > 0)) <= ENUMERATION_MAX
            and not direct_is_normal(np.append(q, q0), n, 0.0)
        ):
            # small n and few atoms, with cells below the float range: every cell in Arb
            return LatticeEvaluation(
                enumerated_expectation(ex, q, q0, n, upper, eta), 0.0, 0, 0.0, 0.0, 0, upper
            )
        if n <= DIRECT_MAX_N:
            spread = float(exf.max() - min(exf.min(), 0.0))
            ld = l if l is not None else n * spread / DIRECT_CELLS
            if n * n * spread / ld * (len(q) + 1) <= DIRECT_MAX_WORK and direct_is_normal(
                np.append(q, q0), n, ld
            ):
                law = lattice_law(ex + [Fraction(0)], list(q) + [q0], ld, up=upper)
                return LatticeEvaluation(
                    direct_expectation(law, n, upper, eta), ld, 0, 0.0, 0.0, 0, upper
                )
        t = saddle_tilt(ga, qa)
        _, var = tilted_moments(ga[qa > 0], qa[qa > 0], t)
        t = max(t, 0.5 / math.sqrt(n * max(var, 1e-300)))
        adaptive = l is None
        if adaptive:
            l = choose_grid(ga, qa, n, t, rel_loss=rel_loss, max_grid=max_grid)
        for attempt in range(4):
            for _ in range(6):
                law, N = lattice_and_period(ex, q, q0, n, l, t, upper)
                if N <= max_grid or not adaptive:
                    break
                l = choose_grid(
                    ga, qa, n, t, rel_loss=rel_loss, max_grid=int(max_grid * max_grid / N)
                )
            if N > max_grid:
                if not upper:
                    return LatticeEvaluation(arb(0), l, N, t, 0.0, 0, upper)
                raise CannotCertify(
                    f"the lattice period would be N={N} > max_grid={max_grid} "
                    f"(n={n}, l={l:g}); pass a coarser l or a larger max_grid"
                )
            shifts = _shift_candidates(law, n) if upper else [0.0]
            try:
                val, c, nf = lattice_expectation(law, n, t, N, shifts=shifts, upper=upper, eta=eta)
                break
            except CannotCertify:
                # the lattice law is nearly periodic: another (finer, incommensurate) grid
                if not adaptive or attempt == 3:
                    raise
                l *= 0.6180339887
        if not upper:
            val = arb(max(float_down(val), 0.0))
        l = law.l
        return LatticeEvaluation(val, l, N, t, c, nf, upper)
    finally:
        ctx.prec = old


# ============================================================ float-pair interface
def blanket_delta_fft(
    atoms: Sequence[float],
    probs: Sequence[float],
    n: int,
    *,
    l: float | None = None,
    zero_mass: float | None = None,
    margins: Sequence[float] | None = None,
    zero_mass_rel_err: float | None = None,
) -> tuple[float, float]:
    r"""Certified :math:`\tfrac1n\mathbb{E}[(\sum G_i)_+]` as ``(value, error)``: ``value`` is
    an upper bound and ``value - error`` a lower bound (the lower end is 0 when the whole
    support does not fit in :data:`MAX_GRID` points).  ``zero_mass_rel_err``: the proven
    relative error of ``zero_mass`` (:func:`lattice_delta`)."""
    n = check_n(n)
    if l is not None:
        l = check_real("l", l, 0.0, math.inf, lo_open=True)
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    if zero_mass is None:
        zero_mass = max(0.0, 1.0 - float(q[g != 0].sum()))
        q = np.where(g == 0, 0.0, q)
        zero_mass_rel_err = None
    up = lattice_delta(
        g,
        q,
        n,
        zero_mass=zero_mass,
        margins=margins,
        l=l,
        upper=True,
        zero_mass_rel_err=zero_mass_rel_err,
    )
    hi = float_up(up.value)
    try:
        lo_eval = lattice_delta(
            g,
            q,
            n,
            zero_mass=zero_mass,
            margins=margins,
            l=l,
            upper=False,
            zero_mass_rel_err=zero_mass_rel_err,
        )
        lo = float_down(lo_eval.value)
    except CannotCertify:
        lo = 0.0
    lo = min(max(lo, 0.0), hi)
    return hi, hi - lo


def default_grid(eps0: float) -> float:
    """The paper's discretisation interval l = (e^eps0 - 1)/1200 (Su-Cheng-Wang 2026, Sec. 7)."""
    return (math.exp(eps0) - 1) / 1200


def blanket_delta_plain_fft(
    atoms: Sequence[float], probs: Sequence[float], n: int, *, l: float, width_sd: float = 12.0
) -> float:
    r"""A plain implementation of Su-Cheng-Wang 2026, Algorithm 4 (for comparisons only).

    Rounds atoms up to :math:`l\mathbb{Z}`, convolves n-fold with one FFT on a grid of
    :math:`\pm` ``width_sd`` standard deviations around the mean and integrates the
    positive part.  No error accounting; not certified.
    """
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    k = np.ceil(g / l).astype(np.int64)
    kmin = int(k.min())
    mu = n * float(np.dot(q, k))
    sd = math.sqrt(n * float(np.dot(q, (k - np.dot(q, k)) ** 2)))
    lo = int(mu - width_sd * sd)
    hi = int(mu + width_sd * sd) + 1
    N = 1
    while N < hi - lo + 1:
        N *= 2
    p = np.zeros(N)
    np.add.at(p, (k - kmin) % N, q)
    pmf = np.fft.irfft(np.fft.rfft(p) ** n, N)
    base = (lo - n * kmin) % N
    vals = lo + np.arange(N)
    pm = np.roll(pmf, -base)
    m = vals > 0
    return float(np.sum(vals[m] * pm[m])) * l / n


# ============================================================ the registered accountant


class BlanketFFTAccountant(Accountant):
    r"""Blanket upper bound of Su-Cheng-Wang 2026, Thm 4 on a tilted lattice (this module), worst over all
    neighbouring pairs of the relation.

    ``get_delta`` is the running minimum over every epsilon evaluated so far at or below the
    requested one: valid because the true :math:`\delta(\varepsilon)` is non-increasing, and it
    makes the curve this accountant reports non-increasing whatever the grid did.
    """

    kind = Kind.UPPER
    certificate = (
        "Su-Cheng-Wang 2026 Thm 4; atoms rounded up to a lattice, exponential tilt, periodised "
        "positive part by Parseval; Arb balls for the decisive frequencies, proven "
        "float64 bound (Higham Lemma 3.5, eq. 3.5) for the rest"
    )

    def __init__(
        self,
        mech,
        n: int,
        *,
        adjacency: str = "replace-one",
        l: float | None = None,
        rel_loss: float = DEFAULT_REL_LOSS,
        max_grid: int = MAX_GRID,
        method: str = "blanket-fft",
    ):
        self.method, self.mechanism, self.n, self.adjacency = method, mech, check_n(n), adjacency
        self.l = None if l is None else check_real("l", l, 0.0, math.inf, lo_open=True)
        self.rel_loss = check_real("rel_loss", rel_loss, 0.0, 1.0, lo_open=True)
        self.max_grid = int(check_real("max_grid", max_grid, 64, 2**28))
        self.laws = tuple(ratio_laws(mech, adjacency))
        self.eps_max = numeric_eps0(mech)
        # a continuous mechanism names the pairs its laws cover
        self.pairs = getattr(mech, "pairs_note", "") or self.pairs
        self.evaluated: dict[float, tuple[float, float]] = {}

    def raw_delta(self, epsilon: float) -> tuple[float, float, list[LatticeEvaluation]]:
        """(lo, hi, evaluations) at ``epsilon`` itself, worst over the laws (no running minimum)."""
        lo = hi = 0.0
        evals = []
        for law in self.laws:
            g, q, mg = law.gparv(epsilon)
            ev = lattice_delta(
                g,
                q,
                self.n,
                zero_mass=law.zero_mass,
                margins=mg,
                l=self.l,
                rel_loss=self.rel_loss,
                max_grid=self.max_grid,
                zero_mass_rel_err=law.zero_err,
            )
            evals.append(ev)
            lo = max(lo, float_down(ev.value))
            hi = max(hi, float_up(ev.value))
        return max(lo, 0.0), min(hi, 1.0), evals

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        if epsilon >= self.eps_max:
            return self._bound("delta", epsilon, 0.0, 0.0, note="epsilon >= eps0: delta = 0")
        note = ""
        if epsilon not in self.evaluated:
            try:
                lo, hi, _ = self.raw_delta(epsilon)
            except CannotCertify as exc:
                # delta <= 1 always holds; the running minimum may still improve on it
                lo, hi, note = 0.0, 1.0, f"not certified below 1 at this epsilon: {exc}"
            self.evaluated[epsilon] = (min(lo, hi), hi)
        lo, hi = self.evaluated[epsilon]
        for e, (lo2, hi2) in self.evaluated.items():
            if e < epsilon and hi2 < hi:
                lo, hi, note = min(lo2, hi2), hi2, f"running minimum: evaluated at epsilon={e:.10g}"
        return self._bound("delta", epsilon, lo, hi, seconds=time.perf_counter() - t0, note=note)

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-3) -> Bound:
        """Certified epsilon(delta) by the shared inversion, started near a Gaussian guess."""
        delta = check_delta(delta)
        g, q, _ = self.laws[0].gparv(0.0)
        var = float(np.dot(q, g * g))
        guess = math.sqrt(2 * var * math.log(1 / delta) / self.n)
        start = min(self.eps_max, max(guess, 1e-6))
        return invert_delta(self, delta, rel_tol=rel_tol, eps_start=start)

    def profile(self, epsilons=None, deltas=None, *, progress=None):
        """As the base class, but epsilons are evaluated in increasing order first, so every
        reported point already carries the running minimum of the smaller ones."""
        for e in sorted(check_epsilon(x) for x in (epsilons or ())):
            self.get_delta(e)
        return super().profile(epsilons, deltas, progress=progress)


@register(
    "blanket-fft",
    kind=Kind.UPPER,
    supports=has_gparv_laws,
    default_for=lambda m, n: n > MAX_EXACT_N or is_continuous_ldp(m) is True,
    options=("l", "rel_loss", "max_grid"),
    summary="blanket bound of Su-Cheng-Wang 2026 (Thm 4) on a tilted lattice with relative error",
)
def _blanket_fft(mech, n, *, adjacency="replace-one", **options):
    return BlanketFFTAccountant(mech, n, adjacency=adjacency, **options)
