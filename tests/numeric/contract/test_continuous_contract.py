r"""The contract for the continuous accountants registered here (central Gaussian ``exact`` and
``gdp``), against an independent quadrature of the definition.

:math:`\delta(\varepsilon) = \int (p - e^\varepsilon q)_+`, :math:`p = N(1/n, s^2)`, :math:`q = N(0, s^2)`,
:math:`s = \sigma/\sqrt n`: the integrand is positive exactly for
:math:`x > \varepsilon s^2 n + 1/(2n)`, and the integral is taken numerically by
``scipy.integrate.quad`` (no closed form involved).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from shufflekit.numeric.accountant import accountant, methods
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.methods.gaussian import CentralGaussian

CONTINUOUS = [m.name for m in methods(CentralGaussian(1.0))]


def quadrature_delta(sigma: float, n: int, eps: float) -> tuple[float, float]:
    s, shift = sigma / math.sqrt(n), 1.0 / n
    x0 = eps * s * s / shift + shift / 2
    f = lambda x: stats.norm.pdf(x, shift, s) - math.exp(eps) * stats.norm.pdf(x, 0, s)  # noqa: E731
    val, err = integrate.quad(f, x0, x0 + 40 * s, epsabs=1e-14, epsrel=1e-11, limit=200)
    return val, err


def test_both_central_gaussian_methods_registered():
    assert set(CONTINUOUS) == {"exact", "gdp"}


@pytest.mark.parametrize("method", CONTINUOUS)
@settings(max_examples=25, deadline=None)
@given(sigma=st.floats(0.05, 3.0), n=st.integers(1, 12), eps=st.floats(0.0, 4.0))
def test_central_gaussian_against_quadrature(method, sigma, n, eps):
    acc = accountant(CentralGaussian(sigma), n, method=method)
    b = acc.get_delta(eps)
    assert b.kind is Kind.EXACT and 0 <= b.lo <= b.hi <= 1
    q, qerr = quadrature_delta(sigma, n, eps)
    # quad's own error estimate, times 10 for safety, plus 1e-12 of the value: the quadrature
    # is a float64 computation of an integrand that cancels, the enclosure is not
    tol = 10 * qerr + 1e-12 * abs(q) + 1e-15
    assert b.lo - tol <= q <= b.hi + tol
    assert b.hi - b.lo <= 1e-12 * b.hi + 1e-300  # the enclosure is tight


@pytest.mark.parametrize("method", CONTINUOUS)
def test_central_gaussian_monotone_and_inverse(method):
    acc = accountant(CentralGaussian(0.5), 10, method=method)
    ds = [acc.get_delta(e) for e in (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)]
    assert all(a.lo >= b.hi for a, b in zip(ds, ds[1:]))
    for d in (1e-3, 1e-30, 1e-300):
        e = acc.get_epsilon(d)
        # the inversion brackets the epsilon where the curve crosses d
        assert acc.get_delta(e.hi).lo <= d * (1 + 1e-12)
        assert e.lo == 0 or acc.get_delta(e.lo).hi >= d * (1 - 1e-12)
