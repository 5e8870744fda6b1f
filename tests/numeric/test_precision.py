"""mpmath evaluation with guard digits; Gaussian tails and the central Gaussian profile in log space."""

from __future__ import annotations

import mpmath as mp
import pytest
import scipy.special as sc
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.kernels import precision as P
from shufflekit.symbolic import central_gaussian as CG


@settings(max_examples=40, deadline=None)
@given(st.floats(min_value=-35, max_value=8))
def test_log_ndtr_matches_scipy(x):
    # scipy's log_ndtr is accurate to a few ulps in double precision: 1e-13 relative
    ours = float(P.log_ndtr(x, dps=30))
    ref = float(sc.log_ndtr(x))
    assert abs(ours - ref) <= 1e-13 * max(1.0, abs(ref))


def test_log_ndtr_far_tail_matches_asymptotic():
    with mp.workdps(40):
        x = mp.mpf(-1000)
        # log Phi(x) = -x^2/2 - log(-x) - log sqrt(2 pi) + log(1 - 1/x^2 + 3/x^4 ...)
        asym = (
            -(x**2) / 2 - mp.log(-x) - mp.log(mp.sqrt(2 * mp.pi)) + mp.log(1 - 1 / x**2 + 3 / x**4)
        )
        assert abs(P.log_ndtr(x, dps=30) - asym) < mp.mpf("1e-12")  # next term 15/x^6 = 1.5e-17


def _profile_by_quadrature(eps, sigma, n, dps):
    """Independent: integrate [p - e^eps q]_+ over the half-line y > y* where it is positive,
    written as p(y) * (1 - e^{eps - L(y)}) with the log likelihood ratio L (no cancellation),
    in the variable u = (y - y*) * (y*/s^2) (the integrand decays like e^{-u})."""
    with mp.workdps(dps + 20):
        eps, sigma, n = mp.mpf(eps), mp.mpf(sigma), mp.mpf(n)
        s, delta = sigma / mp.sqrt(n), 1 / n
        ystar = eps * s**2 / delta + delta / 2
        scale = s**2 / max(ystar, s)
        L = lambda yv: (delta * yv - delta**2 / 2) / s**2
        f = lambda u: (
            mp.npdf(ystar + u * scale, delta, s) * (-mp.expm1(eps - L(ystar + u * scale))) * scale
        )
        pts = [0] + [mp.mpf(2) ** k for k in range(-4, 8)] + [mp.inf]
        return mp.quad(f, pts)


def _profile_direct(eps, sigma, n, dps):
    """Reference by the erfc formula at three times the digits (a different code path)."""
    with mp.workdps(3 * dps + 20):
        eps, sigma, n = mp.mpf(eps), mp.mpf(sigma), mp.mpf(n)
        a, b = eps * sigma * mp.sqrt(n), 1 / (2 * sigma * mp.sqrt(n))
        sf = lambda t: mp.erfc(t / mp.sqrt(2)) / 2
        return sf(a - b) - mp.exp(eps) * sf(a + b)


@pytest.mark.parametrize("eps,sigma,n", [(1, 1, 1), (5, 2, 10), (37, 1, 1)])
def test_gaussian_profile_against_quadrature(eps, sigma, n):
    dps = 25
    ours = P.gaussian_profile(eps, sigma, n, dps=dps)
    direct = _profile_direct(eps, sigma, n, dps)
    quad = _profile_by_quadrature(eps, sigma, n, dps)
    with mp.workdps(dps + 10):
        # the direct formula at 3x the digits is exact to far more than dps digits
        assert abs(ours - direct) <= abs(direct) * mp.mpf(10) ** (-dps)
        # tanh-sinh quadrature of the far tail reaches only ~1e-10 relative here (observed), so the
        # independent quadrature check uses 1e-8; the digits themselves are pinned by the direct formula
        assert abs(ours - quad) <= abs(quad) * mp.mpf("1e-8")


def test_profile_near_1e_minus_300():
    ours = P.gaussian_profile(37.3, 1, 1, dps=30)
    assert mp.mpf("1e-305") < ours < mp.mpf("1e-295")
    ref = _profile_direct(37.3, 1, 1, 30)
    with mp.workdps(40):
        assert abs(ours - ref) <= abs(ref) * mp.mpf("1e-30")
    quad = _profile_by_quadrature(37.3, 1, 1, 30)
    with mp.workdps(40):
        assert abs(ours - quad) <= abs(quad) * mp.mpf("1e-8")  # see the tolerance note above


def test_evaluate_derivation_matches_log_space():
    der = CG.profile()
    v = P.evaluate(der, {CG.eps: 20, CG.sigma: 1, CG.n: 1}, dps=30)
    g = P.gaussian_profile(20, 1, 1, dps=30)
    with mp.workdps(35):
        assert abs(v - g) <= abs(g) * mp.mpf("1e-28")


def test_evaluate_catastrophic_cancellation():
    x = sp.Symbol("x", positive=True)
    expr = sp.exp(x) - 1 - x
    v = P.evaluate(expr, {x: sp.Rational(1, 10**20)}, dps=30)
    with mp.workdps(60):
        ref = mp.expm1(mp.mpf(10) ** -20) - mp.mpf(10) ** -20
        assert abs(v - ref) <= abs(ref) * mp.mpf("1e-29")


def test_evaluate_series_result():
    from shufflekit.symbolic import gaussian_local as GL

    der = GL.sigma2_in_chi(4)
    v = P.evaluate(der, {GL.x: sp.Rational(1, 10)}, dps=20)
    with mp.workdps(30):
        ref = mp.mpf(100) + mp.mpf(9) / 2 - mp.mpf(145) / 1200 + mp.mpf(651) / 80000
        assert abs(v - ref) < mp.mpf("1e-18")


@pytest.mark.parametrize("bad", [0, -3, 10**6])
def test_bad_dps(bad):
    with pytest.raises(ValueError, match="dps="):
        P.log_ndtr(0.5, dps=bad)


def test_bad_profile_parameters():
    with pytest.raises(ValueError, match="sigma="):
        P.gaussian_profile(1, 0, 10)
    with pytest.raises(ValueError, match="epsilon="):
        P.gaussian_profile(-1, 1, 10)


def test_evaluate_free_symbols_raise():
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="free symbols"):
        P.evaluate(x + 1, {}, dps=10)
