"""The radix-2 FFT, its Arb twiddles, its proven error bounds and the certified convolution."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shufflekit.numeric.kernels.radix2_fft as R
from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition import fixed as composition
from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf
from shufflekit.numeric.kernels.radix2_fft import (
    DIRECT_MAX,
    MU_TWIDDLE,
    UNDERFLOW,
    convolve,
    dft_error_terms,
    direct_convolve,
    fft_convolution_error,
    fft_convolve,
    radix2_dft,
    twiddles,
)
from shufflekit.numeric.methods import bmg_blanket
from tests.numeric.exact_convolution import exact_conv, l1_distance, masses, pmf_error


# ----------------------------------------------------------------- convolution vs exact rationals
@settings(max_examples=25, deadline=None)
@given(
    st.lists(masses, min_size=1, max_size=40),
    st.lists(masses, min_size=1, max_size=40),
    st.booleans(),
)
def test_convolution_bound_holds_against_exact_rationals(xa, xb, same):
    """The certified l1 budget of one convolution covers the exact (rational) error, for the
    FFT and for the direct sum alike."""
    a = np.asarray(xa) / max(sum(xa), 1e-300)
    b = a if same else np.asarray(xb) / max(sum(xb), 1e-300)
    exact = exact_conv(a, b)
    for method in (fft_convolve, direct_convolve):
        c, e = method(a, b)
        assert c.size == a.size + b.size - 1 and np.all(c >= 0)
        assert l1_distance(c, exact) <= Fraction(e)
        # and the bound is useful: far below any delta one would report
        assert e < 1e-12


@settings(max_examples=10, deadline=None)
@given(la=st.integers(1, DIRECT_MAX), lb=st.integers(1, 300), seed=st.integers(0, 10**6))
def test_direct_sum_bound_holds_and_is_the_tighter_one(la, lb, seed):
    """convolve sums a short kernel directly; its bound covers the exact error and is below
    the FFT's bound for the same inputs (no sqrt(L) or log2 N factor)."""
    rng = np.random.default_rng(seed)
    a = rng.random(la) ** 6
    b = rng.random(lb) ** 6
    c, e = convolve(a, b)
    assert l1_distance(c, exact_conv(a, b)) <= Fraction(e)
    assert e == direct_convolve(a, b)[1] < fft_convolve(a, b)[1]


@settings(max_examples=8, deadline=None)
@given(la=st.integers(49, 130), lb=st.integers(49, 130), seed=st.integers(0, 10**6))
def test_convolution_bound_holds_for_spread_magnitudes(la, lb, seed):
    """Longer laws with magnitudes spread as in a law's tails (and masses that do not sum
    to 1): the bound still covers the exact error and is within 1e-9 relative of
    ||a||_1 ||b||_1, i.e. not vacuous (the proven bound is a few hundred u times that)."""
    rng = np.random.default_rng(seed)
    a = rng.random(la) ** 8
    b = rng.random(lb) ** 8
    got, bound = convolve(a, b)
    assert l1_distance(got, exact_conv(a, b)) <= Fraction(bound)
    assert bound < 1e-9 * float(np.sum(a) * np.sum(b))


def test_loss_law_convolution_bound_holds_against_exact_rationals():
    """The composition layer's budget (FFT bound plus propagation) covers the exact error of
    a loss law composed three times, with every convolution going through this module."""
    rng = np.random.default_rng(7)
    a = rng.random(37) ** 4
    a /= a.sum()
    p = PrivacyLossPmf(1 / 8, 0, a, 0.0, 0.0, Kind.UPPER)
    c = composition.self_compose(p, 3)
    ref = exact_conv(exact_conv(a, a), a)
    assert pmf_error(c, ref) <= Fraction(c.error)


# ----------------------------------------------------------------------- the DFT against Arb
def arb_dft_error(x: np.ndarray) -> float:
    """Upper bound (Arb, 256 bits) on ||radix2_dft(x) - F x||_2 for real float64 ``x``."""
    from flint import acb, arb, ctx

    yr, yi = radix2_dft(x, np.zeros(x.size))
    old = ctx.prec
    ctx.prec = 256
    try:
        exact = acb.dft([acb(float(v)) for v in x])
        sq = sum(
            ((acb(float(r), float(i)) - e).abs_upper() ** 2 for r, i, e in zip(yr, yi, exact)),
            arb(0),
        )
        return float(sq.sqrt().upper()) * (1 + 1e-15)  # 1e-15: the float conversion of the end
    finally:
        ctx.prec = old


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 9).flatmap(lambda t: st.lists(st.floats(-1, 1), min_size=2**t, max_size=2**t))
)
def test_radix2_dft_error_is_within_the_stage_bound(xs):
    """Step 3 of the module docstring: ||y^ - F x||_2 <= eta_t sqrt(N) ||x||_2 + H_t, with
    F x computed by Arb's DFT at 256 bits (its enclosure error is far below a float ulp)."""
    x = np.asarray(xs, dtype=float)
    t = x.size.bit_length() - 1
    eta, H = dft_error_terms(t)
    norm = math.sqrt(math.fsum(v * v for v in x)) * (1 + 1e-15)  # fsum: correctly rounded
    assert arb_dft_error(x) <= float(eta) * math.sqrt(x.size) * norm * (1 + 1e-15) + float(H)


def test_radix2_dft_agrees_with_an_independent_fft():
    """Sanity of the algorithm itself (not of the bound): numpy's FFT agrees to 1e-13."""
    rng = np.random.default_rng(1)
    for N in (1, 2, 4, 8, 1024):
        x = rng.random(N) + 1j * rng.random(N)
        yr, yi = radix2_dft(x.real.copy(), x.imag.copy())
        # 1e-13 relative: both transforms are accurate to a few ulps times log2 N
        assert np.max(np.abs(yr + 1j * yi - np.fft.fft(x))) <= 1e-13 * np.abs(x).sum()


@pytest.mark.parametrize("N", [2, 4, 8, 16, 64, 4096])
def test_twiddles_are_within_mu_of_arb(N):
    """Step 1: every float twiddle is within MU_TWIDDLE of the exact root of unity."""
    from flint import arb, ctx, fmpq

    cos, sin = twiddles(N)
    assert cos.size == sin.size == max(N // 2, 1)
    assert not cos.flags.writeable and not sin.flags.writeable  # shared by the cache
    worst = 0.0
    old = ctx.prec
    ctx.prec = 200
    try:
        for j in range(cos.size):
            s, c = arb(fmpq(2 * j, N)).sin_cos_pi()
            err = ((arb(float(cos[j])) - c) ** 2 + (arb(float(sin[j])) - s) ** 2).sqrt()
            assert err < MU_TWIDDLE
            worst = max(worst, float(err.upper()))
    finally:
        ctx.prec = old
    if N >= 64:
        # the proven mu is not vacuous: rounding to nearest costs up to u = MU/2 per component,
        # and among >= 32 twiddles some component error exceeds u/4 = MU/8
        assert worst >= MU_TWIDDLE / 8


# ------------------------------------------------------------------------------- mutations
def float32_twiddles(N):
    c, s = twiddles(N)
    return c.astype(np.float32).astype(float), s.astype(np.float32).astype(float)


def test_a_perturbed_fft_is_caught(monkeypatch):
    """Mutation: twiddles rounded to float32 (error ~1e-8, far above the proven mu) make the
    computed convolution leave the certified budget, both for the raw convolution and for a
    loss law composed by the composition layer; the exact-rational check catches it."""
    monkeypatch.setattr(R, "twiddles", float32_twiddles)
    rng = np.random.default_rng(3)
    a = rng.random(40)
    a /= a.sum()
    b = rng.random(40)
    b /= b.sum()
    c, e = fft_convolve(a, b)
    assert l1_distance(c, exact_conv(a, b)) > Fraction(e)
    pa = PrivacyLossPmf(1 / 8, 0, a, 0.0, 0.0, Kind.UPPER)
    pb = PrivacyLossPmf(1 / 8, 0, b, 0.0, 0.0, Kind.UPPER)
    law = composition.convolve(pa, pb)
    assert pmf_error(law, exact_conv(a, b)) > Fraction(law.error)


def test_a_perturbed_direct_sum_is_caught(monkeypatch):
    """Mutation: the direct sum rounded to float32 leaves its certified budget."""
    real = np.convolve
    monkeypatch.setattr(np, "convolve", lambda x, y: real(x, y).astype(np.float32).astype(float))
    rng = np.random.default_rng(4)
    a, b = rng.random(20), rng.random(60)
    c, e = direct_convolve(a / a.sum(), b / b.sum())
    assert l1_distance(c, exact_conv(a / a.sum(), b / b.sum())) > Fraction(e)


def test_a_smaller_mu_breaks_the_arb_dft_check(monkeypatch):
    """Mutation of the bound rather than the transform: with float32 twiddles and eta_t, H_t
    computed from the (now wrong) proven mu, the Arb DFT comparison fails."""
    monkeypatch.setattr(R, "twiddles", float32_twiddles)
    x = np.random.default_rng(5).random(256)
    eta, H = dft_error_terms(8)
    norm = math.sqrt(math.fsum(v * v for v in x)) * (1 + 1e-15)
    assert arb_dft_error(x) > float(eta) * math.sqrt(x.size) * norm + float(H)


def test_both_accountants_use_this_convolution(monkeypatch):
    """One source of truth: composition and the BMG blanket accountant call this module's
    convolution (counted), and no third-party FFT is on either path."""
    calls = []

    def counted(real):
        def wrapped(a, b):
            calls.append((real.__name__, a.size, b.size))
            return real(a, b)

        return wrapped

    def forbidden(*args, **kwargs):
        raise AssertionError("numpy.fft called")

    for name in ("fft", "ifft", "rfft", "irfft"):
        monkeypatch.setattr(np.fft, name, forbidden)
    monkeypatch.setattr(R, "fft_convolve", counted(R.fft_convolve))
    monkeypatch.setattr(R, "direct_convolve", counted(R.direct_convolve))
    p = PrivacyLossPmf(1 / 8, 0, np.full(100, 0.01), 0.0, 0.0, Kind.UPPER)
    assert composition.self_compose(p, 5).probs.size == 496
    n_comp = len(calls)
    assert n_comp == 3  # 5 = 101b: two squarings and one product
    assert {c[0] for c in calls} == {"fft_convolve"}  # composition always transforms
    law = bmg_blanket.AffineLognormal(0.9 - math.exp(0.3), 0.1, 1 / 3, -1 / 18)
    res = bmg_blanket.blanket_delta(law, 0.9, 1000)
    assert len(calls) > n_comp and 0 <= res.delta <= 1


# --------------------------------------------------------------------- the budget formula
def spec_convolution_error(N, L, a1, a2, b1, b2) -> Fraction:
    """Step 4 of the module docstring, re-derived independently in exact arithmetic
    (square roots bounded above by Fractions with 2^-100 excess)."""

    def sqrt_hi(q):
        k = 100 + max(0, -q.numerator.bit_length() + q.denominator.bit_length())
        return Fraction(math.isqrt(math.ceil(q * 4**k)) + 1, 2**k)

    u, lam = Fraction(2) ** -53, Fraction(UNDERFLOW)
    t = N.bit_length() - 1
    # step 1: ulp(m) <= 2u|m| per component, Arb radius <= 2^-100: mu = 2u + 2^-99
    mu = 2 * u + Fraction(2) ** -99
    r2, rN = sqrt_hi(Fraction(2)), sqrt_hi(Fraction(N))
    g2 = 2 * u / (1 - 2 * u)
    beta = u + (1 + u) * (mu + r2 * g2 * (1 + mu))
    eta = (1 + beta) ** t - 1
    H = 8 * lam * rN * t * (r2 * (1 + beta)) ** t * (1 + 2 * beta * t)
    A1, A2, B1, B2 = map(Fraction, (a1, a2, b1, b2))
    Ea, Eb = eta * rN * A2 + H, eta * rN * B2 + H
    E = (
        min(Ea * (B1 + Eb) + A1 * Eb, Eb * (A1 + Ea) + B1 * Ea)
        + r2 * g2 * min((A1 + Ea) * (rN * B2 + Eb), (B1 + Eb) * (rN * A2 + Ea))
        + 4 * r2 * lam * rN
    )
    z2 = rN * min(A1 * B2, B1 * A2) + E
    return sqrt_hi(Fraction(L)) * ((eta * z2 + E) / rN + H / N + r2 * rN * lam)


@pytest.mark.parametrize(
    "N,L,a1,a2,b1,b2",
    [
        (2, 2, 1.0, 1.0, 1.0, 1.0),
        (1 << 10, 1000, 1.0, 0.1, 1.0, 0.1),
        (1 << 15, 30000, 1.0, 0.02, 0.5, 0.3),
        (1 << 23, 8_000_000, 1.0, 1e-3, 1.0, 1e-3),
        (1 << 6, 40, 1e-300, 1e-300, 1e-290, 1e-295),
    ],
)  # tiny laws: the underflow terms dominate
def test_budget_is_the_documented_formula(N, L, a1, a2, b1, b2):
    """Pins the code to the proof: a mutation of the budget (halving it, dropping a term,
    a smaller mu) moves it by far more than the 1e-12 relative allowed here, which only
    absorbs the final rounding up and the rounding of (eta, H) to floats; 2^-70 below: both
    sides bound the square roots from above, at different precisions (2^-80, 2^-100)."""
    spec = spec_convolution_error(N, L, a1, a2, b1, b2)
    got = Fraction(fft_convolution_error(N, L, a1, a2, b1, b2))
    assert spec * (1 - Fraction(1, 2**70)) <= got <= spec * (1 + Fraction(1, 10**12))


def test_norm_bounds_are_upper_bounds():
    """sum_up / norm2_up bound the exact (rational) norms from above, subnormals included."""
    x = np.array([0.3, 1e-310, 2.0**-1074, 0.7, 1e-200, 0.0])
    exact1 = sum(Fraction(float(v)) for v in x)
    exact2sq = sum(Fraction(float(v)) ** 2 for v in x)
    assert Fraction(R.sum_up(x)) >= exact1
    assert Fraction(R.norm2_up(x)) ** 2 >= exact2sq
    # and tight: within 1e-14 relative (a few dozen u)
    assert R.sum_up(x) <= float(exact1) * (1 + 1e-14)


# ------------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(InvalidParameter, match="a"):
        convolve(np.array([0.5, -0.1]), np.array([1.0]))
    with pytest.raises(InvalidParameter):
        convolve(np.array([np.nan]), np.array([1.0]))
    with pytest.raises(InvalidParameter):
        convolve(np.array([]), np.array([1.0]))
    with pytest.raises(InvalidParameter):
        convolve(np.array([2.0**200]), np.array([1.0]))  # would risk overflow
    with pytest.raises(InvalidParameter):
        radix2_dft(np.zeros(6), np.zeros(6))  # not a power of two
    with pytest.raises(InvalidParameter):
        fft_convolution_error(1 << 10, 2000, 1.0, 1.0, 1.0, 1.0)  # wrap-around
    with pytest.raises(CannotCertify):
        convolve(np.zeros(R.MAX_FFT // 2 + 1), np.zeros(R.MAX_FFT // 2 + 1))
