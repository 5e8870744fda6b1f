"""Budget tests of :mod:`shufflekit.numeric.kernels.radix2_fft`: the proven round-off bounds.

Each bound is checked twice:

* against the exact error: the float result against rational (``Fraction``) or 50-digit
  mpmath references, on cases where the bound is attained as closely as the arithmetic
  allows;
* against the proven formula of the module docstring (steps 1-4), evaluated independently
  in mpmath at 60 digits.  The transform bound is a worst case over every input and every
  rounding; on actual inputs the error is 1-3 % of it (measured on random inputs of 3 to 60
  cells), so a bound shrunk tenfold would still cover every observed error.  What guards it
  against being shrunk is that it must equal the formula that was proven.
"""

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from shufflekit.numeric.kernels import radix2_fft as R
from tests.numeric.exact_convolution import exact_conv, l1_distance

U, LAM = mp.mpf(2) ** -53, mp.mpf(2) ** -1022


def formula_eta_h(t: int) -> tuple[mp.mpf, mp.mpf]:
    """(eta_t, H_t) of step 3, in mpmath (exact square roots)."""
    mu = 2 * U + mp.mpf(2) ** -99
    g2 = 2 * U / (1 - 2 * U)
    beta = U + (1 + U) * (mu + mp.sqrt(2) * g2 * (1 + mu))
    eta = (1 + beta) ** t - 1
    rho = mp.sqrt(2) * (1 + beta)
    H = 8 * LAM * mp.sqrt(2**t) * t * rho**t * (1 + 2 * beta * t)
    return eta, H


def formula_convolution(N: int, L: int, a1, a2, b1, b2) -> mp.mpf:
    """The l1 bound of step 4 for transform length N and L cells, in mpmath."""
    t = N.bit_length() - 1
    eta, H = formula_eta_h(t)
    rN, g2 = mp.sqrt(N), 2 * U / (1 - 2 * U)
    A1, A2, B1, B2 = (mp.mpf(x) for x in (a1, a2, b1, b2))
    Ea, Eb = eta * rN * A2 + H, eta * rN * B2 + H
    e_prod = min(Ea * (B1 + Eb) + A1 * Eb, Eb * (A1 + Ea) + B1 * Ea)
    e_mul = (
        mp.sqrt(2) * g2 * min((A1 + Ea) * (rN * B2 + Eb), (B1 + Eb) * (rN * A2 + Ea))
        + 4 * mp.sqrt(2) * LAM * rN
    )
    E = e_prod + e_mul
    z2 = rN * min(A1 * B2, B1 * A2) + E
    c2 = (eta * z2 + E) * rN / N + H / N + mp.sqrt(2) * rN * LAM
    return mp.sqrt(L) * c2


@pytest.mark.parametrize("t", [1, 3, 10, 23])
def test_dft_error_terms_equal_the_proven_formula(t):
    """eta_t and H_t are the formula of step 3, rounded up by at most a relative 1e-12
    (sqrt_up is 2^-80 high, float_up one ulp)."""
    with mp.workdps(60):
        eta, H = formula_eta_h(t)
        got_eta, got_H = R.dft_error_terms(t)
        for got, want in ((got_eta, eta), (got_H, H)):
            assert want <= mp.mpf(got.numerator) / got.denominator <= want * (1 + mp.mpf(1e-12))


@pytest.mark.parametrize(
    "N, L, a1, a2, b1, b2",
    [
        (2, 2, 1.0, 1.0, 1.0, 1.0),
        (64, 50, 1.0, 0.3, 0.7, 0.2),
        (1 << 16, 60000, 1.0, 0.01, 1.0, 0.004),
    ],
)
def test_convolution_bound_equals_the_proven_formula(N, L, a1, a2, b1, b2):
    """fft_convolution_error is the formula of step 4, rounded up by at most 1e-12."""
    with mp.workdps(60):
        want = formula_convolution(N, L, a1, a2, b1, b2)
        got = mp.mpf(R.fft_convolution_error(N, L, a1, a2, b1, b2))
        assert want <= got <= want * (1 + mp.mpf(1e-12))


def exact_dft(x: np.ndarray) -> list:
    """The DFT y_k = sum_j x_j e^{-2 pi i jk/N} of the exact float inputs, O(N^2) at 50 digits."""
    N = x.size
    with mp.workdps(50):
        return [
            mp.fsum(mp.mpf(float(x[j])) * mp.expjpi(-mp.mpf(2 * j * k) / N) for j in range(N))
            for k in range(N)
        ]


@pytest.mark.parametrize("t, seed", [(3, 0), (5, 1), (6, 2)])
def test_transform_error_is_within_eta_and_h(t, seed):
    """||y_hat - F_N x||_2 <= eta_t sqrt(N) ||x||_2 + H_t against a direct 50-digit DFT."""
    N = 1 << t
    x = np.random.default_rng(seed).random(N)
    yr, yi = R.radix2_dft(x, np.zeros(N))
    ref = exact_dft(x)
    eta, H = R.dft_error_terms(t)
    with mp.workdps(50):
        err = mp.sqrt(
            mp.fsum(abs(mp.mpc(float(yr[k]), float(yi[k])) - ref[k]) ** 2 for k in range(N))
        )
        x2 = mp.sqrt(mp.fsum(mp.mpf(float(v)) ** 2 for v in x))
        bound = (
            mp.mpf(eta.numerator) / eta.denominator * mp.sqrt(N) * x2
            + mp.mpf(H.numerator) / H.denominator
        )
        assert 0 < err <= bound


@pytest.mark.parametrize("n, seed", [(3, 0), (20, 1), (60, 2)])
def test_fft_convolution_error_covers_the_exact_error(n, seed):
    """The reported bound covers the exact (rational) l1 error of the computed cells; the
    error is nonzero, so the test is not vacuous (it is 1-3 % of the bound on these inputs)."""
    rng = np.random.default_rng(seed)
    a, b = rng.random(n), rng.random(n)
    c, e = R.fft_convolve(a, b)
    d = l1_distance(c, exact_conv(a, b))
    assert 0 < d <= Fraction(e)


# x * y rounds with relative error 0.99 u: the worst case of 20 000 random products
WORST_PRODUCT = (0.7907109274057564, 0.6373438689249852)


def test_direct_bound_is_attained_on_one_product():
    """One cell, one product: the bound gamma_1 x y is attained to 99 %, so it cannot be
    dropped or divided by 10."""
    x, y = WORST_PRODUCT
    c, e = R.direct_convolve(np.array([x]), np.array([y]))
    d = l1_distance(c, exact_conv([x], [y]))
    assert d <= Fraction(e)
    # 0.9 rather than the measured 0.99: slack for the rounding of the bound itself
    assert d >= Fraction(e) * Fraction(9, 10)


@pytest.mark.parametrize("n, k, seed", [(40, 5, 0), (200, 48, 1)])
def test_direct_bound_covers_the_exact_error(n, k, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.random(n), rng.random(k)
    c, e = R.direct_convolve(a, b)
    assert l1_distance(c, exact_conv(a, b)) <= Fraction(e)


def test_sum_up_covers_a_sum_that_loses_every_small_term():
    """1 + six times u sums to 1 in float64 (each addition rounds to even), the exact sum is
    1 + 6u: the pad (n + 2) u must cover 6u, and a tenth of it (0.9 u) would not."""
    x = np.array([1.0] + [2.0**-53] * 6)
    assert float(np.sum(x)) == 1.0
    exact = sum((Fraction(float(v)) for v in x), Fraction(0))
    assert Fraction(R.sum_up(x)) >= exact
