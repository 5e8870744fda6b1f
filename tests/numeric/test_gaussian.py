"""Central Gaussian mechanism / GDP profile at any precision."""

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.methods import gaussian as g


def hockey_stick_by_quadrature(eps, mu, dps=70):
    """int [p - e^eps q]_+ for p = N(mu, 1), q = N(0, 1), by mpmath quadrature (not the erfc form).

    log p/q = mu y - mu^2/2 exceeds eps exactly for y > y* = eps/mu + mu/2; there
    p - e^eps q = e^eps q(y) expm1(mu (y - y*)), and q(y* + t) = phi(y*) e^{-y* t - t^2/2}, so
    delta = e^eps phi(y*) int_0^inf e^{-y* t - t^2/2} expm1(mu t) dt: no cancellation, and the
    nodes are placed on the decay scale 1/y* of the integrand."""
    with mp.workdps(dps):
        e, m = mp.mpf(eps), mp.mpf(mu)
        ys = e / m + m / 2
        w = 1 / (abs(ys) + 1)
        f = lambda t: mp.exp(-ys * t - t * t / 2) * mp.expm1(m * t)
        pts = [0] + [k * w for k in (0.5, 1, 2, 4, 8, 16, 32, 64)] + [mp.inf]
        return mp.exp(e) * mp.npdf(ys) * mp.quad(f, pts)


@pytest.mark.parametrize(
    "eps,mu",
    [(0.0, 0.5), (0.5, 0.5), (3.0, 1.0), (1e-3, 1e-4), (40.0, 0.5), (1.0, 0.02), (0.01, 3.0)],
)
def test_closed_form_to_50_digits(eps, mu):
    ours = g.gdp_delta_mp(eps, mu, 50)
    ref = hockey_stick_by_quadrature(eps, mu, 80)
    with mp.workdps(60):
        # quadrature at 80 digits is good to far more than 50; demand 50 significant digits
        assert abs(ours - ref) <= mp.mpf(10) ** -50 * abs(ref)


def test_tiny_delta_keeps_its_digits():
    # delta(40; 0.5) is about 1e-348: below float range, exact in mpmath
    d = g.gdp_delta_mp(40.0, 0.5, 30)
    assert d < mp.mpf(10) ** -300
    ref = hockey_stick_by_quadrature(40.0, 0.5, 60)
    with mp.workdps(40):
        assert abs(d / ref - 1) < mp.mpf(10) ** -29
    # the epsilon where delta = 1e-300 round-trips
    e = g.gdp_epsilon(0.5, 1e-300)
    with mp.workdps(30):
        assert abs(g.gdp_delta_mp(e, 0.5, 30) / mp.mpf("1e-300") - 1) < 1e-12


@settings(max_examples=30, deadline=None)
@given(eps=st.floats(0, 20), mu=st.floats(1e-3, 5))
def test_float_path_within_its_error_estimate(eps, mu):
    d, err = g.gdp_delta_float_with_error(eps, mu)
    ref = float(g.gdp_delta_mp(eps, mu, 30))
    if ref < 1e-300:
        return
    # the estimate is a bound on the float error; add 4 ulps for the final exp/log
    assert abs(d - ref) <= err + 4 * 2.0**-52 * ref


def test_agrees_with_dp_accounting_pld():
    """dp_accounting PLD, connect-the-dots, value_discretization_interval 1e-4.

    Why that interval: the connect-the-dots PLD of a Gaussian is exact up to a second-order
    discretisation term, observed at ~1e-13 relative for 1e-4 (and never worse than ~5e-12 at 1e-5,
    where the float sums start to dominate), well inside the 1e-10 target while keeping the
    PLD at ~1e5 points; log_mass_truncation_bound -80 keeps the truncated mass (e^-80) negligible
    relative to delta >= 1e-8."""
    pld_mod = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    for mu in (0.2, 1.0):
        pld = pld_mod.from_gaussian_mechanism(
            standard_deviation=1 / mu,
            sensitivity=1.0,
            value_discretization_interval=1e-4,
            log_mass_truncation_bound=-80,
        )
        checked = 0
        for eps in np.linspace(0, 8, 33):
            ours = float(g.gdp_delta_mp(eps, mu, 30))
            if ours < 1e-8:
                continue
            theirs = pld.get_delta_for_epsilon(float(eps))
            assert abs(theirs - ours) <= 1e-10 * ours, (mu, eps, ours, theirs)
            checked += 1
        assert checked >= 5


def test_gm_uses_zero_out_sensitivity_and_sigma_over_sqrt_n():
    sigma, n, eps = 3.0, 400, 0.05
    mu = 1 / (sigma * math.sqrt(n))
    assert g.mu_of(sigma, n) == pytest.approx(mu, rel=1e-15)
    # Takagi-Liew 2026 eq. (delta-ab): bar Phi(a - b) - e^eps bar Phi(a + b), a = eps sigma sqrt n, b = 1/(2 sigma sqrt n)
    with mp.workdps(40):
        a = mp.mpf(eps) * sigma * mp.sqrt(n)
        b = 1 / (2 * sigma * mp.sqrt(n))
        ref = mp.ncdf(-(a - b)) - mp.exp(eps) * mp.ncdf(-(a + b))
        assert abs(g.central_gaussian_delta(eps, sigma, n, dps=40) / ref - 1) < 1e-35


@settings(max_examples=20, deadline=None)
@given(eps=st.floats(1e-3, 5), logd=st.floats(-30, -1.5), n=st.integers(1, 10**6))
def test_calibration_round_trips(eps, logd, n):
    delta = 10**logd
    sigma = g.calibrate_sigma(eps, delta, n)
    # brentq to rtol 1e-14 on mu; delta is smooth in sigma so 1e-9 relative is ample
    assert float(g.central_gaussian_delta(eps, sigma, n, dps=30)) == pytest.approx(delta, rel=1e-9)
    assert g.epsilon_for_sigma(sigma, delta, n) == pytest.approx(eps, rel=1e-9)
    mu = g.gdp_mu(eps, delta)
    assert g.gdp_epsilon(mu, delta) == pytest.approx(eps, rel=1e-9)
    assert g.rmse(sigma, n) == pytest.approx(sigma / math.sqrt(n), rel=1e-15)


def test_profile_object():
    prof = g.central_gaussian_profile(100, 1000, epsilons=[1e-3, 2e-3], deltas=[1e-5])
    assert prof.kind == "exact" and prof.method == "exact" and prof.adjacency == "n/a"
    d = prof.as_dict()
    assert set(d) == {"mechanism", "n", "method", "kind", "adjacency", "points"}
    assert {"epsilon", "delta", "bound", "error", "lo", "hi", "seconds"} <= set(d["points"][0])
    assert prof.bounds[0].delta > prof.bounds[1].delta
    assert prof.bounds[2].quantity == "epsilon" and prof.bounds[2].delta == 1e-5
    # the Arb enclosures contain the float path's values (whose own error is far below 1e-12)
    for b in prof.bounds[:2]:
        assert b.lo <= float(g.central_gaussian_delta(b.epsilon, 100, 1000, dps=30)) <= b.hi
    # epsilon(1e-5): the bisection bracket (width <= 1e-9 relative) holds the brentq root
    e = g.epsilon_for_sigma(100, 1e-5, 1000)
    assert prof.bounds[2].lo <= e * (1 + 1e-12) and e * (1 - 1e-12) <= prof.bounds[2].hi


@pytest.mark.parametrize("sigma", [0, -1, float("nan"), float("inf")])
def test_bad_sigma(sigma):
    with pytest.raises(ValueError, match="sigma"):
        g.central_gaussian_delta(0.1, sigma, 10)
    with pytest.raises(ValueError, match="sigma"):
        g.epsilon_for_sigma(sigma, 1e-5, 10)


@pytest.mark.parametrize("delta", [0, 1, -0.5, 1.5])
def test_bad_delta(delta):
    with pytest.raises(ValueError, match="delta"):
        g.calibrate_sigma(0.1, delta, 10)
    with pytest.raises(ValueError, match="delta"):
        g.gdp_epsilon(0.5, delta)


@pytest.mark.parametrize("n", [0, -2, 1.5])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n="):
        g.calibrate_sigma(0.1, 1e-5, n)


def test_bad_mu_and_epsilon():
    with pytest.raises(ValueError, match="mu"):
        g.gdp_delta(0.1, 0.0)
    with pytest.raises(ValueError, match="epsilon"):
        g.gdp_delta(-1.0, 0.5)
