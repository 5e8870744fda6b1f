r"""Certified composition of shuffled rounds by privacy-loss-distribution (PLD) convolution.

**Upper bound.**  Each round (any registered accountant: mechanism, n, method; its profile must
bound both orders of every neighbouring pair, as the registered finite methods do: all ordered
pairs for replace-one, both directions for zero-out) is replaced by
its certified dominating pair (:mod:`shufflekit.numeric.dominating_pair`), whose privacy loss
under :math:`P` lives on the grid :math:`k\Delta` plus an atom at :math:`+\infty`.  By Zhu,
Dong and Wang 2022 (Thm 10) the product of the dominating pairs dominates the adaptive
composition of the rounds, and its curve is

.. math::
    \delta_T(\varepsilon) = 1 - \prod_t (1 - \pi_t)
      + \mathbb{E}\Big[\Big(1 - e^{\varepsilon - (L_1 + \dots + L_T)}\Big)_+\Big],

with :math:`L_t` the finite losses of round :math:`t` (independent; a sub-probability law of
mass :math:`1 - \pi_t`) and :math:`\pi_t` the mass at :math:`+\infty`.  The law of the sum is
the convolution of the per-round pmfs (repeated squaring for identical rounds).  The
discretisation is pessimistic by construction: the dominating pair's losses lie *on* the grid
(its atoms are hull vertices), so no rounding of losses is needed.

**Round-off (proven bound).**  Each convolution is computed in float64 by zero-padded
discrete Fourier transforms of power-of-two length :math:`N = 2^t \ge L` (:math:`L` the
number of cells of :math:`a*b`, so there is no wrap-around and :math:`F_N(a*b) = F_Na\cdot
F_Nb`), with the project's own radix-2 FFT (:func:`radix2_dft`); no third-party FFT is used.
The certificate rests on these steps, each proven here or a cited theorem whose hypotheses
the code meets.

0. *Arithmetic.*  Every floating-point operation is one IEEE 754 binary64 operation in
   round-to-nearest: numpy's elementwise ``+ - *`` on float64 arrays each round once (no
   contraction across separate ufunc calls), indexing, negation and swaps are exact.  With
   :math:`u = 2^{-53}` and :math:`\lambda = 2^{-1022}`,
   :math:`\mathrm{fl}(x \circ y) = (x \circ y)(1 + \delta) + \eta`, :math:`|\delta| \le u`,
   :math:`|\eta| \le \lambda` (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd
   ed., eq. (2.8); :math:`\lambda` also covers flush-to-zero).  No overflow: a transform of
   length :math:`N \le 2^{23}` multiplies moduli by at most :math:`N`, and every input here
   has modulus at most 2.
1. *Twiddle factors* (:func:`twiddles`).  Arb returns a ball :math:`m \pm r` containing
   :math:`\cos(2\pi j/N)` (resp. :math:`\sin`) with :math:`r \le 2^{-100}` (checked); any
   conversion of :math:`m` to float64 (any rounding direction) is off by less than
   :math:`\mathrm{ulp}(m) \le 2u|m|` (:math:`m` is 0 or normal).
   By the triangle inequality per component and Minkowski's inequality over the two
   components, :math:`|\hat w - \omega| \le 2u|\omega| + \sqrt2(1 + 2u)r \le 2u + 2^{-99}
   = \mu` (``MU_TWIDDLE``), and :math:`|\hat w| \le 1 + \mu`.
2. *One stage.*  :func:`radix2_dft` computes :math:`F_N = A_t\cdots A_1P_N` (Higham Sec. 24.1):
   :math:`P_N` the bit reversal, :math:`A_k = I_{N/2^k}\otimes B_{2^k}`, each a set of
   :math:`N/2` disjoint butterflies :math:`(u, v) \mapsto (u + \omega v, u - \omega v)`.
   The code forms :math:`\hat p = (\mathrm{fl}(\mathrm{fl}(v_r\hat w_r) - \mathrm{fl}(v_i\hat w_i)),
   \mathrm{fl}(\mathrm{fl}(v_r\hat w_i) + \mathrm{fl}(v_i\hat w_r)))`, so per component the error
   is at most :math:`\gamma_2(|v_r\hat w_r| + |v_i\hat w_i|) + 4\lambda` and
   :math:`|\hat p - \hat w v| \le \sqrt2\gamma_2|\hat w||v| + 4\sqrt2\lambda` (Higham Lemma 3.5
   and its proof, plus the underflow terms); then :math:`\mathrm{fl}(u \pm \hat p)` per
   component adds at most :math:`u|u \pm \hat p| + \sqrt2\lambda`.  Collecting terms,
   :math:`|\widehat{u \pm \omega v} - (u \pm \omega v)| \le u|u \pm \omega v| + \alpha|v| + 8\lambda`,
   :math:`\alpha = (1 + u)(\mu + \sqrt2\gamma_2(1 + \mu))`.  Since
   :math:`\|(u + \omega v, u - \omega v)\|_2 = \sqrt2\|(u, v)\|_2` (:math:`|\omega| = 1`), Minkowski
   over a butterfly and Pythagoras over the disjoint butterflies give
   :math:`\hat y_k = A_k\hat y_{k-1} + e_k`,
   :math:`\|e_k\|_2 \le \sqrt2\beta\|\hat y_{k-1}\|_2 + 8\lambda\sqrt N`, :math:`\beta = u + \alpha`.
3. *All stages* (:func:`dft_error_terms`).  :math:`A_k/\sqrt2` is unitary, so
   :math:`\|A_k\|_2 = \sqrt2` and :math:`\|F_Nx\|_2 = \sqrt N\|x\|_2`.  With
   :math:`\rho = \sqrt2(1 + \beta)`, :math:`\|\hat y_k\|_2 \le \rho\|\hat y_{k-1}\|_2 + 8\lambda\sqrt N`
   and :math:`d_k = \hat y_k - A_k\cdots A_1P_Nx = A_kd_{k-1} + e_k`, so
   :math:`\|d_t\|_2 \le \sum_k 2^{(t-k)/2}\|e_k\|_2`, whence
   :math:`\|\hat y - F_Nx\|_2 \le \eta_t\sqrt N\|x\|_2 + H_t`,
   :math:`\eta_t = (1 + \beta)^t - 1`, :math:`H_t = 8\lambda\sqrt N\,t\rho^t(1 + 2\beta t)`.
   Without underflow this is Higham's Thm 24.2 (:math:`\eta_t \le t\beta/(1 - t\beta)`) for
   the radix-2 Cooley-Tukey algorithm with weights of error :math:`\le\mu`, the hypotheses
   steps 0-2 establish; the proof is spelled out here so that the underflow term is covered.
4. *Convolution* (:func:`fft_convolution_error`).  For non-negative :math:`a, b` (padded to
   :math:`N`): :math:`\|\hat f_a - F_Na\|_2 \le E_a = \eta_t\sqrt N\|a\|_2 + H_t`,
   :math:`\|F_Na\|_\infty \le \|a\|_1`, likewise for :math:`b`; the pointwise product
   :math:`\hat z` (the same complex multiplication as in step 2) satisfies
   :math:`\|\hat z - F_Na F_Nb\|_2 \le E = E_{\rm prod} + E_{\rm mul}`,

   .. math::
       E_{\rm prod} = E_a(\|b\|_1 + E_b) + \|a\|_1E_b, \quad
       E_{\rm mul} = \sqrt2\gamma_2(\|a\|_1 + E_a)(\sqrt N\|b\|_2 + E_b) + 4\sqrt2\lambda\sqrt N

   (or the same with :math:`a, b` swapped, whichever is smaller).  The inverse is
   :math:`F_N^{-1}z = \overline{F_N\bar z}/N`; the code takes the real part of
   :math:`\hat F_N\bar{\hat z}` times :math:`1/N` (exact but for underflow).  By step 3 and
   Young's inequality :math:`\|a*b\|_2 \le \|a\|_1\|b\|_2`,
   :math:`z_2 = \sqrt N\min(\|a\|_1\|b\|_2, \|a\|_2\|b\|_1) + E \ge \|\hat z\|_2` and

   .. math::
       \|\tilde c - a*b\|_2 \le \big(\eta_t z_2 + E\big)/\sqrt N + H_t/N + \sqrt{2N}\lambda.

   Taking the real part, dropping the :math:`N - L` cells where :math:`a*b` vanishes and
   clipping negative cells to 0 each move every cell towards the exact (real, non-negative)
   value; then :math:`\|\cdot\|_1 \le \sqrt L\|\cdot\|_2` over the :math:`L` kept cells.  The
   bound is evaluated in exact rational arithmetic (square roots rounded up) and rounded up
   to float64 once.  The norms entering it are upper bounds: a sum of :math:`n`
   non-negative floats computed by any tree of additions (numpy's pairwise ``sum`` is one)
   is within :math:`\gamma_{n-1}` relatively of the exact sum, since each term passes through
   at most :math:`n - 1` roundings (Higham Sec. 4.2); squares add :math:`u` and
   :math:`\lambda` each.
5. *Propagation.*  Errors of the inputs propagate as
:math:`e_{a*b} \le e_{\rm fft} + e_a + (1 + e_a)e_b + \pi_a\pi_b` (the budget counts the
cells and the infinity cell together, masses at most 1; the last term is the gap between
:math:`\pi_a + \pi_b` and the exact :math:`1 - (1-\pi_a)(1-\pi_b)`); the final
:math:`\delta_T(\varepsilon)` is a sum of masses with weights in :math:`[0, 1]`, so the
:math:`\ell_1` budget is added to it.  The reported enclosure ``[lo, hi]`` therefore contains
the exact curve of the composed dominating pair, and ``hi`` is a proven upper bound on the
composed mechanism.

**Lower bound.**  For a concrete neighbouring pair with exactly known laws (the binary
randomized-response boundary pair :math:`(T_{n,0}, T_{n,1})` of seed 001, Lemma 4.1, from
:func:`shufflekit.numeric.histogram.binary_pair`), running the same rounds on that pair gives
:math:`P^{\otimes T}, Q^{\otimes T}`, whose curve is a lower bound on the composed mechanism's.
Its losses are rounded *down* to the grid (the curve is non-decreasing in every loss, so this
can only lower it), both orders :math:`P\|Q` and :math:`Q\|P` are composed, and the larger
certified lower end is reported.
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import Accountant, PrivacyProfile, accountant, describe
from shufflekit.numeric.bound import Bound, Kind, round_up
from shufflekit.numeric.dominating_pair import (DEFAULT_GRID, DEFAULT_TAIL, UNIT, PrivacyLossPmf,
                                                check_grid, dominating_pair)
from shufflekit.validation import check_int, check_n

MAX_FFT = 1 << 23               # longest convolution accepted (128 MB per complex128 array)
MAX_ROUNDS = 10 ** 7
#: Arb working precision of the twiddle factors and the largest radius accepted for them
TWIDDLE_PREC = 128
TWIDDLE_RADIUS = 2.0 ** -100
#: proven bound on :math:`|\hat w - \omega|` for every twiddle factor (module docstring, step 1)
MU_TWIDDLE = 2 * UNIT + 2.0 ** -99
#: bound on the absolute (underflow) error of one float64 operation: :math:`2^{-1022}`, the
#: smallest normal number; it covers gradual underflow and flush-to-zero alike
UNDERFLOW = 2.0 ** -1022


def gamma(k: int) -> float:
    r""":math:`\gamma_k = ku/(1-ku)` (Higham, Lemma 3.1)."""
    return k * UNIT / (1 - k * UNIT)


# ======================================================================== the proven FFT
@functools.lru_cache(maxsize=8)
def bit_reversal(N: int) -> np.ndarray:
    """The bit-reversal permutation :math:`P_N` of ``range(N)``, ``N`` a power of two."""
    t = N.bit_length() - 1
    idx = np.arange(N, dtype=np.int64)
    rev = np.zeros(N, dtype=np.int64)
    for b in range(t):
        rev |= ((idx >> b) & 1) << (t - 1 - b)
    return rev


@functools.lru_cache(maxsize=8)
def twiddles(N: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Float64 :math:`\cos(2\pi j/N)` and :math:`\sin(2\pi j/N)` for :math:`0 \le j < N/2`.

    Each value is the midpoint of an Arb ball (``sin_cos_pi`` of the exact rational
    :math:`2j/N` at 128 bits, radius checked :math:`\le 2^{-100}`) converted to float64; the
    first octant is evaluated and the rest follows by the exact identities
    :math:`\cos(\pi/2-\theta) = \sin\theta`, :math:`\cos(\theta+\pi/2) = -\sin\theta`,
    :math:`\sin(\theta+\pi/2) = \cos\theta` (a swap or a negation moves no bit).  Step 1 of
    the module docstring turns this into :math:`|\hat w - \omega| \le` ``MU_TWIDDLE``.
    """
    from flint import arb, ctx, fmpq

    half, q = N // 2, N // 4
    m = half if N < 8 else N // 8
    c1, s1 = np.empty(m + (N >= 8)), np.empty(m + (N >= 8))
    old = ctx.prec
    ctx.prec = TWIDDLE_PREC
    try:
        for j in range(c1.size):
            s, c = arb(fmpq(2 * j, N)).sin_cos_pi()      # (sin, cos)
            if not (float(c.rad()) <= TWIDDLE_RADIUS and float(s.rad()) <= TWIDDLE_RADIUS):
                raise CannotCertify(f"twiddle factor {j}/{N} not resolved by Arb")
            c1[j], s1[j] = float(c.mid()), float(s.mid())
    finally:
        ctx.prec = old
    if N < 8:
        c1.flags.writeable = s1.flags.writeable = False
        return c1, s1
    cos, sin = np.empty(half), np.empty(half)
    cos[:m + 1], sin[:m + 1] = c1, s1
    j = np.arange(m + 1, q + 1)            # pi/4 < theta <= pi/2
    cos[j], sin[j] = s1[q - j], c1[q - j]
    j = np.arange(q + 1, half)             # pi/2 < theta < pi
    cos[j], sin[j] = -sin[j - q], cos[j - q]
    cos.flags.writeable = sin.flags.writeable = False     # shared by the cache
    return cos, sin


def radix2_dft(re: np.ndarray, im: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The DFT :math:`y_k = \sum_j x_j e^{-2\pi i jk/N}` of ``re + i im`` (length :math:`N = 2^t`)
    by the iterative radix-2 Cooley-Tukey algorithm :math:`F_N = A_t \cdots A_1 P_N`
    (Higham, Sec. 24.1; Van Loan 1992, Sec. 1.3), real and imaginary parts as separate
    float64 arrays so that every operation is one IEEE 754 operation.

    Stage :math:`k` (``h`` :math:`= 2^{k-1}`, :math:`L = 2h`, :math:`r = N/L`) is
    :math:`A_k = I_r \otimes B_L`, :math:`B_L = \begin{bmatrix} I_h & \Omega_h \\ I_h & -\Omega_h
    \end{bmatrix}`, :math:`\Omega_h = \mathrm{diag}(\omega_L^j)_{j<h}`,
    :math:`\omega_L = e^{-2\pi i/L}`: in every block of length :math:`L`, with halves
    :math:`u, v`, :math:`p_j = \hat\omega_L^j v_j` (four products, one subtraction, one
    addition), then :math:`(u + p, u - p)`.
    """
    N = re.size
    perm = bit_reversal(N)
    xr, xi = re[perm], im[perm]                       # P_N x (exact)
    cos, sin = twiddles(N)
    yr, yi = np.empty(N), np.empty(N)
    h = 1
    while h < N:
        r = N // (2 * h)
        wr, wi = cos[::r], -sin[::r]                  # omega_L^j = cos - i sin, j < h (exact)
        Xr, Xi = xr.reshape(r, 2, h), xi.reshape(r, 2, h)
        ur, ui, vr, vi = Xr[:, 0], Xi[:, 0], Xr[:, 1], Xi[:, 1]
        pr = vr * wr - vi * wi                        # fl(fl(vr wr) - fl(vi wi))
        pi = vr * wi + vi * wr
        Yr, Yi = yr.reshape(r, 2, h), yi.reshape(r, 2, h)
        np.add(ur, pr, out=Yr[:, 0])
        np.subtract(ur, pr, out=Yr[:, 1])
        np.add(ui, pi, out=Yi[:, 0])
        np.subtract(ui, pi, out=Yi[:, 1])
        xr, yr, xi, yi = yr, xr, yi, xi
        h *= 2
    return xr, xi


def _q(x: float) -> Fraction:
    return Fraction(x)


def sqrt_up(x: Fraction) -> Fraction:
    """A rational upper bound on :math:`\\sqrt x` (relative excess below :math:`2^{-80}`)."""
    if x <= 0:
        return Fraction(0)
    k = 80 + max(0, (x.denominator.bit_length() - x.numerator.bit_length()) // 2 + 1)
    s = math.isqrt(math.ceil(x * 4 ** k))        # s**2 <= ceil(x 4^k) < (s+1)**2
    return Fraction(s + 1, 2 ** k)


def float_up(x: Fraction) -> float:
    """The smallest float64 :math:`\\ge x` (for :math:`x \\ge 0`)."""
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


@functools.lru_cache(maxsize=32)
def dft_error_terms(t: int) -> tuple[Fraction, Fraction]:
    r""":math:`(\eta_t, H_t)` of step 3 of the module docstring: the radix-2 DFT of length
    :math:`N = 2^t` satisfies :math:`\|\hat y - F_N x\|_2 \le \eta_t\sqrt N\|x\|_2 + H_t`."""
    u, lam = _q(UNIT), _q(UNDERFLOW)
    mu, r2 = _q(MU_TWIDDLE), sqrt_up(Fraction(2))
    g2 = 2 * u / (1 - 2 * u)
    beta = u + (1 + u) * (mu + r2 * g2 * (1 + mu))
    eta = (1 + beta) ** t - 1
    rho = r2 * (1 + beta)
    H = 8 * lam * sqrt_up(Fraction(2 ** t)) * t * rho ** t * (1 + 2 * beta * t)
    # rounded up to floats (exactly representable rationals) to keep later arithmetic small
    return Fraction(float_up(eta)), Fraction(float_up(H))


def fft_convolution_error(N: int, L: int, a1: float, a2: float, b1: float, b2: float) -> float:
    r"""Bound on :math:`\|\tilde c - a*b\|_1` over ``L`` cells for the FFT convolution of
    non-negative vectors with norms :math:`\|a\|_1 \le a_1, \|a\|_2 \le a_2` (and the same for
    ``b``) at transform length ``N`` (step 4 of the module docstring), in exact rational
    arithmetic rounded up once at the end."""
    t = N.bit_length() - 1
    if N != 1 << t or N > MAX_FFT or L > N:
        raise InvalidParameter("N", N, f"a power of two >= L={L} and <= {MAX_FFT}")
    eta, H = dft_error_terms(t)
    u, lam = _q(UNIT), _q(UNDERFLOW)
    r2, rN = sqrt_up(Fraction(2)), sqrt_up(Fraction(N))
    g2 = 2 * u / (1 - 2 * u)
    A1, A2, B1, B2 = _q(a1), _q(a2), _q(b1), _q(b2)
    Ea, Eb = eta * rN * A2 + H, eta * rN * B2 + H
    e_prod = min(Ea * (B1 + Eb) + A1 * Eb, Eb * (A1 + Ea) + B1 * Ea)
    e_mul = (r2 * g2 * min((A1 + Ea) * (rN * B2 + Eb), (B1 + Eb) * (rN * A2 + Ea))
             + 4 * r2 * lam * rN)
    E = e_prod + e_mul
    z2 = rN * min(A1 * B2, B1 * A2) + E
    c2 = (eta * z2 + E) * rN / N + H / N + r2 * rN * lam
    return float_up(sqrt_up(Fraction(L)) * c2)


def convolve(a: PrivacyLossPmf, b: PrivacyLossPmf) -> PrivacyLossPmf:
    """The loss law of the composition of two independent rounds, with its round-off budget."""
    if a.grid != b.grid:
        raise InvalidParameter("grid", (a.grid, b.grid), "the same loss grid for every round")
    L = a.probs.size + b.probs.size - 1
    N = 1 << max(1, (L - 1).bit_length())
    if N > MAX_FFT:
        raise CannotCertify(f"the composed loss law needs {L} cells (FFT length {N} > {MAX_FFT}); "
                            "use a coarser grid or fewer rounds")
    zero = np.zeros(N)
    fa_r, fa_i = radix2_dft(_padded(a.probs, N), zero)
    if b is a:
        fb_r, fb_i = fa_r, fa_i
    else:
        fb_r, fb_i = radix2_dft(_padded(b.probs, N), zero)
    zr = fa_r * fb_r - fa_i * fb_i                  # pointwise complex product, real operations
    zi = fa_r * fb_i + fa_i * fb_r
    yr, _ = radix2_dft(zr, -zi)                     # F conj(z); Re conj(F conj z) = Re F conj z
    c = yr[:L] * (1.0 / N)                          # a power of two: exact up to underflow
    np.maximum(c, 0.0, out=c)
    a1, b1 = _sum_up(a.probs), _sum_up(b.probs)
    a2, b2 = _norm2_up(a.probs), _norm2_up(b.probs)
    e_fft = fft_convolution_error(N, L, a1, a2, b1, b2)
    kind = _join_kind(a.kind, b.kind)
    pa, pb = a.infinity_mass, b.infinity_mass
    if kind is Kind.UPPER:       # 1 - (1-pa)(1-pb) <= pa + pb; the gap pa*pb is budgeted below
        inf_mass = min(1.0, round_up((pa + pb) * (1 + 2 * UNIT)))
    else:                        # a lower law needs a value below the exact one
        inf_mass = max(0.0, (pa + pb - pa * pb) * (1 - 8 * UNIT))
    # l1 budget over the finite cells and the infinity cell together (module docstring)
    err = round_up((e_fft + a.error * max(b1, 1.0) + (max(a1, 1.0) + a.error) * b.error
                    + pa * pb + 8 * UNIT * (inf_mass + pa + pb)) * (1 + 8 * UNIT))
    cert = a.certificate if a.certificate == b.certificate else f"{a.certificate}; {b.certificate}"
    return trim(PrivacyLossPmf(a.grid, a.offset + b.offset, c, inf_mass, err, kind,
                               a.rounds + b.rounds, cert))


def trim(pmf: PrivacyLossPmf, cut: float | None = None) -> PrivacyLossPmf:
    r"""Drop the negligible tails of a loss law, in the safe direction for its kind.

    A tail is cut when its computed mass is at most ``cut`` (default: the law's round-off
    budget, so the computed curve moves by at most that much).  ``upper``: the lower tail is
    merged into the first kept cell (losses only increase) and the upper tail is moved to
    :math:`+\infty`.  Merging cells of both the computed and the exact law does not increase
    their :math:`\ell_1` distance (the budget counts the infinity cell too), so the budget is
    unchanged.
    ``lower``: both tails are deleted (losing mass only lowers the curve).  Either way the
    curve :math:`\mathbb{E}[(1 - e^{\varepsilon - L})_+] + P(L = \infty)` moves only in the
    safe direction, because it is non-decreasing in every loss and in every mass.
    """
    cut = pmf.error if cut is None else float(cut)
    f = pmf.probs
    if cut <= 0 or f.size < 64:
        return pmf
    head = np.cumsum(f)
    tail = np.cumsum(f[::-1])
    lo = int(np.searchsorted(head, cut, side="right"))            # cells [0, lo) have mass <= cut
    hi = f.size - int(np.searchsorted(tail, cut, side="right"))   # cells [hi, size) likewise
    if lo >= hi or (lo == 0 and hi == f.size):
        return pmf
    kept = f[lo:hi].copy()
    inf_mass, err = pmf.infinity_mass, pmf.error
    if pmf.kind is Kind.UPPER:
        kept[0] += float(np.sum(f[:lo]))
        err = round_up(err + (lo + 4) * UNIT * kept[0])
        if hi < f.size:
            moved = float(np.sum(f[hi:]))
            new_inf = min(1.0, inf_mass + moved)
            # summation round-off of the moved mass is charged to the budget
            err = round_up(err + (f.size - hi + 4) * UNIT * (moved + new_inf))
            inf_mass = new_inf
    return PrivacyLossPmf(pmf.grid, pmf.offset + lo, kept, inf_mass, err, pmf.kind,
                          pmf.rounds, pmf.certificate)


def _join_kind(a: Kind, b: Kind) -> Kind:
    if a != b:
        raise InvalidParameter("kind", (str(a), str(b)), "rounds of one kind (upper or lower)")
    return a


def _sum_up(x: np.ndarray) -> float:
    """An upper bound on the sum of non-negative ``x`` (summation error <= n u sum)."""
    s = float(np.sum(x))
    return round_up(s * (1 + (x.size + 2) * UNIT))


def _norm2_up(x: np.ndarray) -> float:
    """An upper bound on the 2-norm of ``x``: squares (each with relative error u and an
    underflow error at most ``UNDERFLOW``) summed in some order, then a rounded sqrt."""
    s = float(np.sum(x * x))
    s = s * (1 + (x.size + 4) * UNIT) + x.size * UNDERFLOW * 2
    return round_up(math.sqrt(s) * (1 + 2 * UNIT))


def _padded(x: np.ndarray, N: int) -> np.ndarray:
    out = np.zeros(N)
    out[:x.size] = x
    return out


def self_compose(pmf: PrivacyLossPmf, rounds: int) -> PrivacyLossPmf:
    """``rounds``-fold composition of one loss law by repeated squaring."""
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    result, power = None, pmf
    while True:
        if rounds & 1:
            result = power if result is None else convolve(result, power)
        rounds >>= 1
        if not rounds:
            return result
        power = convolve(power, power)


def compose_pmfs(pmfs: Sequence[tuple[PrivacyLossPmf, int]]) -> PrivacyLossPmf:
    """Composition of heterogeneous rounds: ``[(loss law, repetitions), ...]``."""
    parts = [self_compose(p, r) for p, r in pmfs]
    parts.sort(key=lambda p: p.probs.size)
    out = parts[0]
    for p in parts[1:]:
        out = convolve(out, p)
    return out


# ======================================================================== the exact pair
def pair_loss_pmf(p: np.ndarray, q: np.ndarray, grid: float, *, rel_err: float = 1e-12,
                  certificate: str = "") -> PrivacyLossPmf:
    r"""Loss law of :math:`\log(P/Q)` under :math:`P` for explicit laws, losses rounded **down** to
    the grid (a lower bound on the pair's curve); ``rel_err`` is the relative error of the
    masses (the histogram accountant's laws are exact to about 1e-13)."""
    grid = check_grid(grid)
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    pos = p > 0
    inf_mass = float(np.sum(p[pos & (q == 0)])) * (1 - rel_err)
    fin = pos & (q > 0)
    loss = np.log(p[fin]) - np.log(q[fin])
    # log of masses with relative error rel_err: loss error <= 2 rel_err + a few ulps
    k = np.floor((loss - 4 * rel_err - 1e-15 * (1 + np.abs(loss))) / grid).astype(np.int64)
    off = int(k.min())
    dense = np.zeros(int(k.max()) - off + 1)
    np.add.at(dense, k - off, p[fin])
    err = rel_err * float(np.sum(p[fin])) * 1.01 + (p.size + 4) * UNIT
    return PrivacyLossPmf(grid, off, dense, max(0.0, inf_mass), err, Kind.LOWER, 1, certificate)


def binary_rr_boundary_pmfs(eps0: float, n: int, grid: float = DEFAULT_GRID
                            ) -> tuple[PrivacyLossPmf, PrivacyLossPmf]:
    r"""Both directed loss laws of the binary randomized-response boundary pair
    :math:`(T_{n,0}, T_{n,1})` (seed 001, Lemma 4.1 / Sec. 8.1), keep probability
    :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`."""
    from shufflekit.numeric.histogram import binary_pair
    from shufflekit.validation import check_epsilon

    e0 = check_epsilon(eps0)
    keep = math.exp(e0) / (1 + math.exp(e0))
    pair = binary_pair(1 - keep, keep, check_n(n))
    cert = f"exact laws of the binary RR boundary pair (seed 001, Lemma 4.1), n={n}"
    return (pair_loss_pmf(pair.p, pair.q, grid, certificate=cert),
            pair_loss_pmf(pair.q, pair.p, grid, certificate=cert))


# ======================================================================== accountants
class ComposedAccountant(Accountant):
    r"""Bounds on :math:`\delta(\varepsilon)` of T composed rounds from composed loss laws.

    ``kind`` upper: one composed dominating law (its curve, with the round-off budget on top).
    ``kind`` lower: the composed laws of both orders of an exact pair (the larger lower end).
    :meth:`get_epsilon` is the shared inversion routine of the accountant contract.
    """

    def __init__(self, pmfs: Sequence[PrivacyLossPmf], *, kind: Kind, method: str, n: int,
                 mechanism: Any, rounds: int, adjacency: str = "replace-one",
                 certificate: str = "", pairs: str = "all", build_seconds: float = 0.0):
        self.pmfs = tuple(pmfs)
        self.kind, self.method, self.n, self.mechanism = Kind(kind), method, n, mechanism
        self.rounds, self.adjacency, self.pairs = rounds, adjacency, pairs
        self.certificate = certificate
        self.build_seconds = build_seconds
        zero_tail = all(p.infinity_mass == 0 for p in self.pmfs)
        self.eps_max = max(p.max_loss for p in self.pmfs) if zero_tail else math.inf
        self.eps_max = max(self.eps_max, 0.0)
        self.grid = self.pmfs[0].grid
        self.error = max(p.error for p in self.pmfs)

    @property
    def note(self) -> str:
        return (f"{self.rounds} rounds composed on a loss grid of {self.grid:g}; "
                f"round-off budget {self.error:.2g}")

    def get_delta(self, epsilon: float) -> Bound:
        from shufflekit.validation import check_epsilon

        t0 = time.perf_counter()
        e = check_epsilon(epsilon)
        vals = [p.delta(e) for p in self.pmfs]
        lo = max(v[1] for v in vals)
        hi = max(v[2] for v in vals)
        return self._bound("delta", e, lo, hi, seconds=time.perf_counter() - t0, note=self.note)

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-9) -> Bound:
        """The shared inversion (:func:`~shufflekit.numeric.accountant.invert_delta`), annotated."""
        b = super().get_epsilon(delta, rel_tol=rel_tol)
        return b.with_(note="; ".join(x for x in (b.note, self.note) if x))


@dataclass(frozen=True)
class Round:
    """One kind of round in a schedule: ``rounds`` repetitions of a shuffled mechanism."""

    mechanism: Any
    n: int
    rounds: int = 1
    method: str | None = None
    adjacency: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def round_accountant(r: Round) -> Accountant:
    """The accountant of one round: the registry, or the central Gaussian adapter below."""
    if is_central_gaussian(r.mechanism):
        from shufflekit.numeric.accountant import methods

        mech = r.mechanism
        try:
            registered = any(m.name == (r.method or "exact") for m in methods(mech))
        except Exception:  # noqa: BLE001 - a registry check on a plain description
            registered = False
        if not registered:
            return CentralGaussianAdapter(float(_get(mech, "sigma")), r.n)
    return accountant(r.mechanism, r.n, method=r.method, adjacency=r.adjacency, **dict(r.options))


def composed_accountant(mechanism: Any = None, n: int | None = None, rounds: int = 1, *,
                        method: str | None = None, adjacency: str | None = None,
                        schedule: Sequence[Round] | None = None, grid: float = DEFAULT_GRID,
                        tail: float = DEFAULT_TAIL, **options: Any) -> ComposedAccountant:
    r"""Upper accountant of the composition: ``rounds`` rounds of ``mechanism`` (``n`` users,
    ``method``), or the heterogeneous ``schedule`` of :class:`Round` s."""
    t0 = time.perf_counter()
    sched = _schedule(mechanism, n, rounds, method, adjacency, schedule, options)
    grid = check_grid(grid)
    parts, names, total = [], [], 0
    for r in sched:
        acc = round_accountant(r)
        dp = dominating_pair(acc, grid=grid, tail=tail)
        parts.append((dp.pmf, r.rounds))
        names.append(acc.method)
        total += r.rounds
    pmf = compose_pmfs(parts)
    first = sched[0]
    mech = describe(first.mechanism) if len(sched) == 1 else {
        "schedule": [{**describe(r.mechanism), "n": r.n, "rounds": r.rounds} for r in sched]}
    method_name = names[0] if len(set(names)) == 1 else "+".join(dict.fromkeys(names))
    cert = ("dominating pairs (connect-the-dots hull, Arb) composed by a radix-2 FFT with Arb "
            "twiddles and a proven round-off bound (Higham Thm 24.2 with underflow; "
            "Zhu-Dong-Wang 2022, Thm 10)")
    return ComposedAccountant([pmf], kind=Kind.UPPER, method=method_name, n=first.n,
                              mechanism=mech, rounds=total,
                              adjacency=first.adjacency or acc.adjacency, certificate=cert,
                              build_seconds=time.perf_counter() - t0)


#: grid of the exact-pair lower bound: rounding losses down costs up to one step per round
#: (a bias of at most T * grid in epsilon), so it is finer than the upper grid, and finer
#: still for many rounds (:func:`lower_grid`)
LOWER_GRID = 2.0 ** -14


def lower_grid(rounds: int) -> float:
    """The default lower-bound grid: ``LOWER_GRID``, or finer so that T * grid <= 0.01."""
    return min(LOWER_GRID, 2.0 ** math.floor(math.log2(0.01 / max(int(rounds), 1))))


def pair_lower(p: np.ndarray, q: np.ndarray, rounds: int, *, n: int, mechanism: Any = None,
               pairs: str = "one explicit neighbouring pair", grid: float | None = None,
               certificate: str = "explicit laws of one neighbouring pair"
               ) -> ComposedAccountant:
    r"""Lower accountant: ``rounds`` rounds on one neighbouring pair with explicit laws ``p, q``
    (e.g. a histogram pair of :mod:`shufflekit.numeric.histogram`, or a post-processing of
    one, which can only lower the curve); both orders composed, the larger lower end kept."""
    t0 = time.perf_counter()
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    grid = lower_grid(rounds) if grid is None else grid
    a = pair_loss_pmf(p, q, grid, certificate=certificate)
    b = pair_loss_pmf(q, p, grid, certificate=certificate)
    return ComposedAccountant([self_compose(a, rounds), self_compose(b, rounds)], kind=Kind.LOWER,
                              method="exact-pair", n=check_n(n), mechanism=mechanism or {},
                              rounds=rounds, certificate=certificate + "; losses rounded down, "
                              "FFT round-off bounded", pairs=pairs,
                              build_seconds=time.perf_counter() - t0)


def exact_pair_lower(eps0: float, n: int, rounds: int, *, grid: float | None = None
                     ) -> ComposedAccountant:
    """Lower accountant: ``rounds`` rounds of binary RR on its boundary pair (seed 001).

    Each round's losses are rounded down to ``grid`` (default :func:`lower_grid`), so the
    result can sit below the exact composition by at most ``rounds * grid`` in epsilon
    (at most 0.01 by default; about 6e-3 for T = 100)."""
    t0 = time.perf_counter()
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    grid = lower_grid(rounds) if grid is None else grid
    a, b = binary_rr_boundary_pmfs(eps0, n, grid)
    pmfs = [self_compose(a, rounds), self_compose(b, rounds)]
    return ComposedAccountant(pmfs, kind=Kind.LOWER, method="exact-pair", n=check_n(n),
                              mechanism={"name": "rr", "eps0": float(eps0)}, rounds=rounds,
                              certificate=a.certificate + "; losses rounded down, FFT round-off "
                              "bounded", pairs="binary RR boundary pair (T_{n,0}, T_{n,1})",
                              build_seconds=time.perf_counter() - t0)


def gap_note(upper: Bound, lower: Bound) -> str:
    """How far a composed upper bound is above the matching lower bound (same target)."""
    if upper.quantity != lower.quantity or upper.at != lower.at:
        raise InvalidParameter("lower", lower.at, f"a bound at the same target as {upper.at}")
    u, l = upper.value, lower.value
    rel = f" (+{100 * (u / l - 1):.3g}%)" if l > 0 else ""
    return f"exact-pair lower bound {l:.6g}; upper is {u - l:.3g} above{rel}"


def compose(mechanism: Any = None, n: int | None = None, rounds: int = 1, *,
            method: str | None = None, adjacency: str | None = None,
            schedule: Sequence[Round] | None = None, epsilons: Sequence[float] | None = None,
            deltas: Sequence[float] | None = None, grid: float = DEFAULT_GRID,
            tail: float = DEFAULT_TAIL, **options: Any) -> PrivacyProfile:
    r"""Certified upper bounds on :math:`\delta(\varepsilon)` / :math:`\varepsilon(\delta)` of
    ``rounds`` composed shuffled rounds (or of a heterogeneous ``schedule``).

    Example: ``compose(make("krr", k=10, eps0=4), 100_000, 1000, deltas=[1e-6])``.
    Returns a :class:`~shufflekit.numeric.accountant.PrivacyProfile` of :class:`Bound` s.
    """
    if not epsilons and not deltas:
        raise InvalidParameter("epsilons/deltas", None, "at least one epsilon or delta")
    acc = composed_accountant(mechanism, n, rounds, method=method, adjacency=adjacency,
                              schedule=schedule, grid=grid, tail=tail, **options)
    return acc.profile(epsilons=epsilons, deltas=deltas)


def _schedule(mechanism, n, rounds, method, adjacency, schedule, options) -> list[Round]:
    if schedule:
        out = [r if isinstance(r, Round) else Round(**r) for r in schedule]
    else:
        if mechanism is None or n is None:
            raise InvalidParameter("mechanism/n", (mechanism, n), "a mechanism and n, or a schedule")
        out = [Round(mechanism, n, rounds, method, adjacency, dict(options))]
    for r in out:
        check_n(r.n)
        check_int("rounds", r.rounds, 1, MAX_ROUNDS)
    return out


# ============================================== central Gaussian (adapter over gaussian.py)
def is_central_gaussian(mech: Any) -> bool:
    return _get(mech, "name") == "central-gaussian"


def _get(mech: Any, key: str) -> Any:
    if isinstance(mech, Mapping):
        return mech.get(key)
    return getattr(mech, key, None)


class CentralGaussianAdapter(Accountant):
    r"""The central Gaussian :math:`\mathsf{GM}(\sigma)` for ``n`` users,
    :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^{\varepsilon}\Phi(-\varepsilon/\mu - \mu/2)`,
    :math:`\mu = 1/(\sigma\sqrt n)` (Balle-Wang 2018, Thm 8), evaluated by
    :func:`shufflekit.numeric.gaussian.gdp_delta_mp` to 30 significant digits; the enclosure is
    that value widened by a relative :math:`10^{-25}`."""

    kind = Kind.EXACT
    certificate = "Balle-Wang 2018 Thm 8, mpmath at 30 digits"
    pairs = "all"

    def __init__(self, sigma: float, n: int):
        from shufflekit.numeric.gaussian import mu_of

        self.sigma, self.n = float(sigma), check_n(n)
        self.mu = mu_of(sigma, n)
        self.method, self.adjacency = "exact", "n/a"
        self.mechanism = {"name": "central-gaussian", "sigma": self.sigma}

    def get_delta(self, epsilon: float) -> Bound:
        from shufflekit.numeric.gaussian import gdp_delta_mp
        from shufflekit.validation import check_epsilon

        e = check_epsilon(epsilon)
        v = float(gdp_delta_mp(e, self.mu, 30))
        return self._bound("delta", e, max(0.0, v * (1 - 1e-25) - 1e-300),
                           min(1.0, round_up(v * (1 + 1e-25) + 1e-300)))
