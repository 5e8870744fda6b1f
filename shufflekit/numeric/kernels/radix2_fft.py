r"""Radix-2 FFT with Arb twiddle factors, and linear convolution with a proven round-off bound.

This is the project's one discrete Fourier transform: every certified convolution (the
composition of loss laws, :mod:`shufflekit.numeric.composition.fixed`; the sums of the BMG blanket
accountant, :mod:`shufflekit.numeric.methods.bmg_blanket`) goes through :func:`fft_convolve` or
:func:`convolve` (which sums short kernels directly, :func:`direct_convolve`).  The
transform is written out here, not taken from a third-party FFT, so that the error analysis
below is about the code that runs.

**Convolution.**  For non-negative float64 vectors :math:`a, b` the linear convolution
:math:`a*b` (:math:`L` cells) is computed by zero-padded discrete Fourier transforms of
power-of-two length :math:`N = 2^t \ge L` (so there is no wrap-around and
:math:`F_N(a*b) = F_Na\cdot F_Nb`) with :func:`radix2_dft`.  The certificate rests on these
steps, each proven here or a cited theorem whose hypotheses the code meets.

0. *Arithmetic.*  Every floating-point operation is one IEEE 754 binary64 operation in
   round-to-nearest: numpy's elementwise ``+ - *`` on float64 arrays each round once (no
   contraction across separate ufunc calls), indexing, negation and swaps are exact.  With
   :math:`u = 2^{-53}` and :math:`\lambda = 2^{-1022}`,
   :math:`\mathrm{fl}(x \circ y) = (x \circ y)(1 + \delta) + \eta`, :math:`|\delta| \le u`,
   :math:`|\eta| \le \lambda` (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd
   ed., eq. (2.8); :math:`\lambda` also covers flush-to-zero).  No overflow: a transform of
   length :math:`N \le 2^{23}` multiplies moduli by at most :math:`N`, and the inputs are
   checked to have :math:`\|x\|_1 \le 2^{100}` (``MAX_MASS``), so no intermediate exceeds
   :math:`2^{250}`.
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
4. *Convolution* (:func:`fft_convolution_error`, :func:`convolve`).  For non-negative
   :math:`a, b` (padded to :math:`N`): :math:`\|\hat f_a - F_Na\|_2 \le E_a = \eta_t\sqrt
   N\|a\|_2 + H_t`, :math:`\|F_Na\|_\infty \le \|a\|_1`, likewise for :math:`b`; the pointwise
   product :math:`\hat z` (the same complex multiplication as in step 2) satisfies
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
   bound is evaluated in exact rational arithmetic (square roots rounded up, :func:`sqrt_up`)
   and rounded up to float64 once (:func:`float_up`).  The norms entering it are upper bounds
   (:func:`sum_up`, :func:`norm2_up`): a sum of :math:`n` non-negative floats computed by any
   tree of additions (numpy's pairwise ``sum`` is one) is within :math:`\gamma_{n-1}`
   relatively of the exact sum, since each term passes through at most :math:`n - 1`
   roundings (Higham Sec. 4.2); squares add :math:`u` and :math:`\lambda` each.

*Short kernels* (:func:`direct_convolve`, used by :func:`convolve` when the shorter input
has at most ``DIRECT_MAX`` cells) are summed directly (``numpy.convolve``: each cell is a dot
product of :math:`k \le K = \min(\mathrm{len}\,a, \mathrm{len}\,b)` products, in any order,
possibly with fused multiply-adds).  Every product passes through at most :math:`K` roundings
on its way to the result, so :math:`|\hat c_j - c_j| \le \gamma_K\sum_i a_ib_{j-i} + 4K\lambda`
(Higham Sec. 3.1 and eq. (3.5); the :math:`2K - 1` underflow terms, each at most
:math:`\lambda` and amplified by at most :math:`1 + \gamma_K \le 2`), hence
:math:`\|\hat c - a*b\|_1 \le \gamma_K\|a\|_1\|b\|_1 + 4KL\lambda`.  For short kernels this is
far smaller than the transform's bound (no :math:`\sqrt L` and no :math:`\log_2 N` factor).

The bound is reported in the :math:`\ell_1` norm because laws are propagated in
:math:`\ell_1`: by Young's inequality :math:`\|x*y\|_1 \le \|x\|_1\|y\|_1`, convolving with a
law of mass at most 1 does not increase an :math:`\ell_1` error, and the convolution of
computed laws :math:`\hat a, \hat b` with errors :math:`e_a, e_b` is within
:math:`e_{\rm fft} + e_a\|b\|_1 + (\|a\|_1 + e_a)e_b` of the exact :math:`a*b` (the callers
add these propagation terms).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.bound import round_up

#: unit round-off of float64 (round to nearest)
UNIT = 2.0**-53
#: bound on the absolute (underflow) error of one float64 operation: :math:`2^{-1022}`, the
#: smallest normal number; it covers gradual underflow and flush-to-zero alike
UNDERFLOW = 2.0**-1022
#: longest transform accepted (128 MB per complex128 array)
MAX_FFT = 1 << 23
#: :func:`convolve` sums directly when the shorter input has at most this many cells
DIRECT_MAX = 48
#: largest l1 norm of a convolution input (no overflow anywhere, module docstring step 0)
MAX_MASS = 2.0**100
#: Arb working precision of the twiddle factors and the largest radius accepted for them
TWIDDLE_PREC = 128
TWIDDLE_RADIUS = 2.0**-100
#: proven bound on :math:`|\hat w - \omega|` for every twiddle factor (module docstring, step 1)
MU_TWIDDLE = 2 * UNIT + 2.0**-99


def gamma(k: int) -> float:
    r""":math:`\gamma_k = ku/(1-ku)` (Higham, Lemma 3.1)."""
    return k * UNIT / (1 - k * UNIT)


# ======================================================================== the transform
@functools.lru_cache(maxsize=8)
def bit_reversal(N: int) -> np.ndarray:
    """The bit-reversal permutation :math:`P_N` of ``range(N)``, ``N`` a power of two."""
    t = N.bit_length() - 1
    idx = np.arange(N, dtype=np.int64)
    rev = np.zeros(N, dtype=np.int64)
    for b in range(t):
        rev |= ((idx >> b) & 1) << (t - 1 - b)
    rev.flags.writeable = False  # shared by the cache
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
            s, c = arb(fmpq(2 * j, N)).sin_cos_pi()  # (sin, cos)
            if not (float(c.rad()) <= TWIDDLE_RADIUS and float(s.rad()) <= TWIDDLE_RADIUS):
                raise CannotCertify(f"twiddle factor {j}/{N} not resolved by Arb")
            c1[j], s1[j] = float(c.mid()), float(s.mid())
    finally:
        ctx.prec = old
    if N < 8:
        c1.flags.writeable = s1.flags.writeable = False
        return c1, s1
    cos, sin = np.empty(half), np.empty(half)
    cos[: m + 1], sin[: m + 1] = c1, s1
    j = np.arange(m + 1, q + 1)  # pi/4 < theta <= pi/2
    cos[j], sin[j] = s1[q - j], c1[q - j]
    j = np.arange(q + 1, half)  # pi/2 < theta < pi
    cos[j], sin[j] = -sin[j - q], cos[j - q]
    cos.flags.writeable = sin.flags.writeable = False  # shared by the cache
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
    if N < 1 or N & (N - 1) or im.size != N:
        raise InvalidParameter("len(x)", (re.size, im.size), "equal lengths, a power of two")
    perm = bit_reversal(N)
    xr, xi = re[perm], im[perm]  # P_N x (exact)
    cos, sin = twiddles(N)
    yr, yi = np.empty(N), np.empty(N)
    h = 1
    while h < N:
        r = N // (2 * h)
        wr, wi = cos[::r], -sin[::r]  # omega_L^j = cos - i sin, j < h (exact)
        Xr, Xi = xr.reshape(r, 2, h), xi.reshape(r, 2, h)
        ur, ui, vr, vi = Xr[:, 0], Xi[:, 0], Xr[:, 1], Xi[:, 1]
        pr = vr * wr - vi * wi  # fl(fl(vr wr) - fl(vi wi))
        pi = vr * wi + vi * wr
        Yr, Yi = yr.reshape(r, 2, h), yi.reshape(r, 2, h)
        np.add(ur, pr, out=Yr[:, 0])
        np.subtract(ur, pr, out=Yr[:, 1])
        np.add(ui, pi, out=Yi[:, 0])
        np.subtract(ui, pi, out=Yi[:, 1])
        xr, yr, xi, yi = yr, xr, yi, xi
        h *= 2
    return xr, xi


# ======================================================================== the error bounds
def sqrt_up(x: Fraction) -> Fraction:
    """A rational upper bound on :math:`\\sqrt x` (relative excess below :math:`2^{-80}`)."""
    if x <= 0:
        return Fraction(0)
    k = 80 + max(0, (x.denominator.bit_length() - x.numerator.bit_length()) // 2 + 1)
    s = math.isqrt(math.ceil(x * 4**k))  # s**2 <= ceil(x 4^k) < (s+1)**2
    return Fraction(s + 1, 2**k)


def float_up(x: Fraction) -> float:
    """The smallest float64 :math:`\\ge x` (for :math:`x \\ge 0`)."""
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def sum_up(x: np.ndarray) -> float:
    """An upper bound on the sum of non-negative ``x`` (summation error <= (n-1) u sum, step 4)."""
    s = float(np.sum(x))
    return round_up(s * (1 + (x.size + 2) * UNIT))


def norm2_up(x: np.ndarray) -> float:
    """An upper bound on the 2-norm of ``x``: squares (each with relative error u and an
    underflow error at most ``UNDERFLOW``) summed in some order, then a rounded sqrt."""
    s = float(np.sum(x * x))
    s = s * (1 + (x.size + 4) * UNIT) + x.size * UNDERFLOW * 2
    return round_up(math.sqrt(s) * (1 + 2 * UNIT))


@functools.lru_cache(maxsize=32)
def dft_error_terms(t: int) -> tuple[Fraction, Fraction]:
    r""":math:`(\eta_t, H_t)` of step 3 of the module docstring: the radix-2 DFT of length
    :math:`N = 2^t` satisfies :math:`\|\hat y - F_N x\|_2 \le \eta_t\sqrt N\|x\|_2 + H_t`."""
    u, lam = Fraction(UNIT), Fraction(UNDERFLOW)
    mu, r2 = Fraction(MU_TWIDDLE), sqrt_up(Fraction(2))
    g2 = 2 * u / (1 - 2 * u)
    beta = u + (1 + u) * (mu + r2 * g2 * (1 + mu))
    eta = (1 + beta) ** t - 1
    rho = r2 * (1 + beta)
    H = 8 * lam * sqrt_up(Fraction(2**t)) * t * rho**t * (1 + 2 * beta * t)
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
    u, lam = Fraction(UNIT), Fraction(UNDERFLOW)
    r2, rN = sqrt_up(Fraction(2)), sqrt_up(Fraction(N))
    g2 = 2 * u / (1 - 2 * u)
    A1, A2, B1, B2 = Fraction(a1), Fraction(a2), Fraction(b1), Fraction(b2)
    Ea, Eb = eta * rN * A2 + H, eta * rN * B2 + H
    e_prod = min(Ea * (B1 + Eb) + A1 * Eb, Eb * (A1 + Ea) + B1 * Ea)
    e_mul = (
        r2 * g2 * min((A1 + Ea) * (rN * B2 + Eb), (B1 + Eb) * (rN * A2 + Ea)) + 4 * r2 * lam * rN
    )
    E = e_prod + e_mul
    z2 = rN * min(A1 * B2, B1 * A2) + E
    c2 = (eta * z2 + E) * rN / N + H / N + r2 * rN * lam
    return float_up(sqrt_up(Fraction(L)) * c2)


# ======================================================================== the convolution
def transform_length(L: int) -> int:
    """The power-of-two transform length :math:`N \\ge \\max(L, 2)` used for ``L`` cells."""
    return 1 << max(1, (L - 1).bit_length())


def _checked(name: str, x: np.ndarray) -> np.ndarray:
    x = np.ascontiguousarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise InvalidParameter(name, x.shape, "a non-empty 1-d array")
    if not (np.all(x >= 0) and np.all(np.isfinite(x))):
        raise InvalidParameter(
            name, "an array with negative or non-finite entries", "finite non-negative entries"
        )
    return x


def _padded(x: np.ndarray, N: int) -> np.ndarray:
    out = np.zeros(N)
    out[: x.size] = x
    return out


def _inputs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool, float, float]:
    same = b is a
    a = _checked("a", a)
    b = a if same else _checked("b", b)
    a1 = sum_up(a)
    b1 = a1 if same else sum_up(b)
    if not (a1 <= MAX_MASS and b1 <= MAX_MASS):
        raise InvalidParameter("a, b", (a1, b1), f"l1 norms at most {MAX_MASS:g} (no overflow)")
    return a, b, same, a1, b1


def fft_convolve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    r"""``(c, e)``: the linear convolution :math:`c \approx a*b` of non-negative float64
    vectors (:math:`L` = ``len(a) + len(b) - 1`` cells, negative round-off clipped to 0) by the
    radix-2 FFT, and a proven bound :math:`e \ge \|c - a*b\|_1` (steps 0-4 of the module
    docstring).

    Passing the same array object twice reuses its transform (one forward DFT fewer).
    Raises :class:`~shufflekit.errors.CannotCertify` when the transform would exceed
    ``MAX_FFT`` cells."""
    a, b, same, a1, b1 = _inputs(a, b)
    L = a.size + b.size - 1
    N = transform_length(L)
    if N > MAX_FFT:
        raise CannotCertify(f"a convolution of {L} cells needs an FFT of length {N} > {MAX_FFT}")
    a2 = norm2_up(a)
    b2 = a2 if same else norm2_up(b)
    zero = np.zeros(N)
    fa_r, fa_i = radix2_dft(_padded(a, N), zero)
    if same:
        fb_r, fb_i = fa_r, fa_i
    else:
        fb_r, fb_i = radix2_dft(_padded(b, N), zero)
    zr = fa_r * fb_r - fa_i * fb_i  # pointwise complex product, real operations
    zi = fa_r * fb_i + fa_i * fb_r
    yr, _ = radix2_dft(zr, -zi)  # F conj(z); Re conj(F conj z) = Re F conj z
    c = yr[:L] * (1.0 / N)  # a power of two: exact up to underflow
    np.maximum(c, 0.0, out=c)
    return c, fft_convolution_error(N, L, a1, a2, b1, b2)


def direct_convolution_error(K: int, L: int, a1: float, b1: float) -> float:
    r""":math:`\gamma_K a_1 b_1 + 4KL\lambda`, rounded up: the :math:`\ell_1` error bound of
    the direct sum of :math:`L` cells with at most :math:`K` products each (module docstring)."""
    u, lam = Fraction(UNIT), Fraction(UNDERFLOW)
    gK = K * u / (1 - K * u)
    return float_up(gK * Fraction(a1) * Fraction(b1) + 4 * K * L * lam)


def direct_convolve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    r"""``(c, e)``: the linear convolution of non-negative float64 vectors summed directly,
    and a proven bound :math:`e \ge \|c - a*b\|_1` (module docstring, short kernels).  The
    cost is ``len(a) * len(b)``: meant for a short kernel."""
    a, b, _same, a1, b1 = _inputs(a, b)
    c = np.convolve(a, b)
    np.maximum(c, 0.0, out=c)
    return c, direct_convolution_error(min(a.size, b.size), c.size, a1, b1)


def convolve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    r"""``(c, e)``: :func:`direct_convolve` when the shorter input has at most ``DIRECT_MAX``
    cells, else :func:`fft_convolve`; :math:`e \ge \|c - a*b\|_1` is proven either way."""
    if min(np.size(a), np.size(b)) <= DIRECT_MAX:
        return direct_convolve(a, b)
    return fft_convolve(a, b)
