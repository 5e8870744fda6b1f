"""BMG design (Takagi-Liew 2026, Sec. 4.2) and correspondence data."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.design import bmg_design as b


@settings(max_examples=30, deadline=None)
@given(gamma=st.floats(0.01, 0.99), sigma0=st.floats(0.3, 50))
def test_chi_lo_matches_printed_closed_form(gamma, sigma0):
    # Takagi-Liew 2026, Sec. 4.2: chi_lo^2 = gamma/(1-gamma)^2 / (e^{1/sigma0^2} - 1)
    printed = math.sqrt(gamma / (1 - gamma) ** 2 / math.expm1(1 / sigma0**2))
    # ours comes from the lognormal variance at 30 digits; 1e-12 covers the float inputs
    assert b.chi_lo(gamma, sigma0) == pytest.approx(printed, rel=1e-12)


def test_chi_lo_supremum_is_at_the_sphere():
    vals = [b.ell0_variance(0.9, 3.0, r) for r in (0.2, 0.4, 0.6, 0.8, 1.0)]
    assert all(x < y for x, y in zip(vals, vals[1:]))


@settings(max_examples=30, deadline=None)
@given(gamma=st.floats(0.01, 0.99), sigma0=st.floats(0.3, 50), d=st.integers(1, 100))
def test_err1_matches_printed_closed_form(gamma, sigma0, d):
    # Takagi-Liew 2026, App. A.6, eq. (gauss-mix-mse-exact): d sigma0^2/A^2 + gamma/A, A = 1 - gamma
    a = 1 - gamma
    assert b.err1(gamma, sigma0, d) == pytest.approx(d * sigma0**2 / a**2 + gamma / a, rel=1e-13)


@pytest.mark.parametrize("chi", [30.0, 300.0, 3000.0, 30000.0])
def test_optimal_gamma_close_to_expansion_choice(chi):
    des = b.optimal_gamma_for_chi(chi)
    assert b.chi_lo(des.gamma, des.sigma0) == pytest.approx(chi, rel=1e-10)
    # the numerical optimum is never worse than the expansion's choice A = chi^(-2/3)
    assert des.err1_over_dchi2 <= des.expansion_err1_over_dchi2 * (1 + 1e-12)
    # Err_1/(d chi^2) - 1 ~ (3/2) chi^(-2/3) (Thm 4.1): the ratio tends to 1 with error O(chi^(-2/3))
    ratio = (des.err1_over_dchi2 - 1) / (1.5 * chi ** (-2 / 3))
    assert abs(ratio - 1) < 3 * chi ** (-2 / 3)
    a_ratio = (1 - des.gamma) / chi ** (-2 / 3)
    assert abs(a_ratio - 1) < 3 * chi ** (-2 / 3)


def test_index_design_for_rmse_hits_target():
    des = b.design_by_index_for_rmse(1000, 3.16, d=1)
    assert b.rmse(des.gamma, des.sigma0, 1000, 1) == pytest.approx(3.16, rel=1e-9)


def test_min_sigma0_is_tight_and_certified():
    n, eps, delta, g = 200, 0.01, 1e-4, 0.9
    s0 = b.min_sigma0(g, n, eps, delta, resolution=30, rel_tol=1e-4)
    assert b.certified_delta(g, s0, n, eps, 30) <= delta
    assert b.certified_delta(g, s0 * (1 - 3e-4), n, eps, 30) > delta


@pytest.mark.slow
def test_design_for_privacy_small_n():
    des = b.design_for_privacy(200, 0.02, 1e-4, resolution=40, search_resolution=20, gamma_tol=5e-3)
    assert des.certified_delta <= 1e-4
    # no design beats the central Gaussian by more than what the HCR bound allows (asymptotically
    # Err >= d chi_up^2 >= ...): the BMG RMSE stays above the GM RMSE in this high-privacy point
    assert des.rmse > des.gm_rmse
    # and neighbouring gammas are not better by more than the search tolerance
    for dg in (-0.02, 0.02):
        g = des.gamma + dg
        s0 = b.min_sigma0(g, 200, 0.02, 1e-4, resolution=40)
        assert b.rmse(g, s0, 200) >= des.rmse * (1 - 1e-3)


def test_gm_template_ratio_tends_to_one():
    r = [float(b.gm_template_ratio(n, 1.0, 5.0, 30)) for n in (1e4, 1e8, 1e16, 1e32)]
    assert all(x < y for x, y in zip(r, r[1:])) and r[-1] < 1
    assert 1 - r[-1] < 0.5 * (1 - r[0])


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2, 1.3])
def test_bad_gamma(bad):
    with pytest.raises(ValueError, match="gamma"):
        b.err1(bad, 1.0)


def test_bad_sigma0_and_n():
    with pytest.raises(ValueError, match="sigma0"):
        b.chi_lo(0.5, 0.0)
    with pytest.raises(ValueError, match="n="):
        b.rmse(0.5, 1.0, 0)
    with pytest.raises(ValueError, match="delta"):
        b.design_for_privacy(100, 0.1, 1.0)


@pytest.mark.slow
def test_numeric_optimum_matches_symbolic_expansion_of_optimal_A():
    """1 - gamma* from the numerical minimiser against the symbolic optimal A(chi) series
    (symbolic layer, stationarity solved order by order, truncated after chi^(-8/3))."""
    import sympy as sp

    bmg = pytest.importorskip("shufflekit.symbolic.bmg")
    series = bmg.optimal_expansion(3).extras["A_series"].expr().removeO()
    for chi in (30, 100, 1000):
        for d in (1, 5):
            num = 1 - b.optimal_gamma_for_chi(chi, d).gamma
            sym = float(series.subs({bmg.x: sp.Rational(1, chi), bmg.d: d}))
            # truncation O(chi^(-10/3)) relative to A ~ chi^(-2/3): chi^(-8/3) times a modest
            # constant; plus ~1e-6 because a flat minimum fixes its argmin only to ~sqrt(u)
            assert abs(num - sym) / num < 20 * chi ** (-8 / 3) + 1e-6, (chi, d, num, sym)


def test_certified_epsilon_is_the_inverse_of_certified_delta():
    e = b.certified_epsilon(0.95, 4.6, 10**4, 1e-6, rel_tol=1e-6)
    assert b.certified_delta(0.95, 4.6, 10**4, e) <= 1e-6
    # rel_tol 1e-6 of the bisection: a point 1e-5 below is no longer certified
    assert b.certified_delta(0.95, 4.6, 10**4, e * (1 - 1e-5)) > 1e-6


def test_certified_delta_is_the_max_over_both_orders():
    # the design search ranks with the (x, bot) order only; the certified value is the max of both
    fwd = b.certified_delta(0.9, 3.0, 1000, 0.003, orders=("(x, bot)",))
    rev = b.certified_delta(0.9, 3.0, 1000, 0.003, orders=("(bot, x)",))
    assert b.certified_delta(0.9, 3.0, 1000, 0.003) == max(fwd, rev)
    assert fwd != rev


@pytest.mark.slow
def test_design_for_privacy_at_n_1e9():
    des = b.design_for_privacy(10**9, 1e-5, 1e-6)
    assert des.certified_delta <= 1e-6
    assert 0 < des.gamma < 1 and des.sigma0 > 0
