"""Derivations of Takagi-Liew 2026 (Takagi-Liew): printed values, independent numerics, remainder orders.

Printed values of the paper appear here only as expected values.
"""

from __future__ import annotations

import mpmath as mp
import pytest
import sympy as sp

from shufflekit.symbolic import bmg as B
from shufflekit.symbolic import central_gaussian as CG
from shufflekit.symbolic import gaussian_local as GL
from shufflekit.symbolic import privunit as PU
from shufflekit.symbolic import randomized_response as RR
from shufflekit.verify.checks import fitted_slope, remainder_order

R = sp.Rational


def coeffs(series, exps):
    return [sp.simplify(series.coefficient_in(e)) for e in exps]


# ----------------------------------------------------------------- printed values
def test_gaussian_local_series_printed_values():
    assert coeffs(GL.variance_series(4).result, [1, 2, 3, 4]) == [1, R(9, 2), R(49, 6), R(75, 8)]
    assert coeffs(GL.inverse_series(4).result, [2, 0, -2, -4]) == [1, -R(9, 2), R(145, 12), -27]
    s2 = GL.sigma2_in_chi(5).result
    assert coeffs(s2, [2, 0, -2, -4]) == [1, R(9, 2), -R(145, 12), R(651, 8)]
    assert len(s2.terms) == 5  # at least five terms, derived
    err = GL.err_in_chi(3).result
    assert coeffs(err, [2, 0, -2]) == [GL.d, R(9, 2) * GL.d, -R(145, 12) * GL.d]


def test_bmg_closed_forms_printed():
    g, s, d, c = B.gamma, B.sigma0, B.d, B.chi
    assert sp.simplify(B.chi_lo().result - g / ((1 - g) ** 2 * (sp.exp(1 / s**2) - 1))) == 0
    assert sp.simplify(B.covariance().result - (d * s**2 / (1 - g) ** 2 + g / (1 - g))) == 0
    printed = d / ((1 - g) ** 2 * sp.log(1 + g / ((1 - g) ** 2 * c**2))) + g / (1 - g)
    assert sp.simplify(B.err_in_gamma_chi().result - printed) == 0


def test_bmg_expansion_four_terms_and_three_halves():
    rel = B.err_expansion(4).extras["relative"]
    assert len(rel.terms) >= 4
    assert coeffs(rel, [0, R(-2, 3), R(-4, 3), -2]) == [
        1,
        R(3, 2),
        R(11, 12) + 1 / B.d,
        R(9, 8) - 1 / B.d,
    ]
    opt = B.optimal_expansion(4)
    assert coeffs(opt.result, [0, R(-2, 3)]) == [1, R(3, 2)]
    assert opt.extras["A_series"].coefficient_in(R(-2, 3)) == 1
    assert B.first_order_constant().result == R(3, 2)


def test_rr_printed_values():
    b = RR.basics().extras
    t = RR.t
    assert sp.simplify(b["gamma"] - (1 - t)) == 0
    assert sp.simplify(b["chi_lo2"] - (1 - t) / t**2) == 0
    assert sp.simplify(b["err"] - (1 / t**2 - 1)) == 0
    assert sp.simplify(b["chi_up2"] - b["err"]) == 0  # HCR tight for RR
    ser = RR.err_in_chi(7).result
    assert coeffs(ser, [2, 1, 0, -1, -2, -3]) == [1, 1, -R(1, 2), R(1, 8), 0, -R(1, 128)]
    assert coeffs(RR.err_in_chi(6).extras["t_series"], [-1, -2]) == [1, -R(1, 2)]


def test_privunit_constants():
    assert sp.simplify(PU.limit_constant().extras["C0"] - sp.pi / 2) == 0
    c0 = PU.constant_at_zero()
    assert sp.simplify(c0.extras["closed_form"].subs(PU.d, 2) - sp.pi**2 / 8) == 0
    assert sp.simplify(c0.result.coefficient_in(0) - sp.pi / 2) == 0
    assert sp.simplify(c0.result.coefficient_in(-1) + sp.pi / 4) == 0
    v = PU.exact_numbers(R(3, 5), R(1, 10), 5)
    assert sp.simplify(v["identity_residual"]) == 0


def test_central_gaussian_correction_leading_terms():
    der = CG.correction_factor(3).result
    e = CG.eps
    assert sp.simplify(der.coefficient(0) - sp.exp(e / 2)) == 0
    assert sp.simplify(der.coefficient(2) + (3 + e**2 / 8) * sp.exp(e / 2)) == 0
    assert CG.profile().extras["ab_identity_residual"] == 0


# ----------------------------------------------------------------- independent numerics
def test_bmg_chi_lo_by_quadrature():
    with mp.workdps(30):
        g, s = mp.mpf(7) / 10, mp.mpf(13) / 10  # exact decimals at 30 digits
        ell = lambda yv: (
            (g * mp.npdf(yv, 0, s) + (1 - g) * mp.npdf(yv, 1, s)) / mp.npdf(yv, 0, s) - 1
        )
        m1 = mp.quad(lambda yv: ell(yv) * mp.npdf(yv, 0, s), [-mp.inf, 0, mp.inf])
        m2 = mp.quad(lambda yv: ell(yv) ** 2 * mp.npdf(yv, 0, s), [-mp.inf, 0, mp.inf])
        quad_chi2 = g / (m2 - m1**2)
        sym = mp.mpf(sp.N(B.chi_lo().result.subs({B.gamma: R(7, 10), B.sigma0: R(13, 10)}), 30))
        # Gauss-Legendre/tanh-sinh quadrature of a smooth Gaussian integrand at 30 digits: 1e-20 is safe
        assert abs(quad_chi2 - sym) <= mp.mpf("1e-20") * abs(sym)


def test_gaussian_local_V_by_quadrature():
    with mp.workdps(30):
        s = mp.mpf(2)
        ell = lambda yv: (mp.npdf(yv, 1, s) - mp.npdf(yv, 0, s)) / mp.npdf(yv, -1, s)
        m1 = mp.quad(lambda yv: ell(yv) * mp.npdf(yv, -1, s), [-mp.inf, -1, mp.inf])
        m2 = mp.quad(lambda yv: ell(yv) ** 2 * mp.npdf(yv, -1, s), [-mp.inf, -1, mp.inf])
        sym = mp.mpf(sp.N(GL.variance().result.subs(GL.sigma0, 2), 30))
        assert abs(m1) < mp.mpf("1e-25")  # E[l_0] = 0 up to quadrature error
        assert abs((m2 - m1**2) - sym) <= mp.mpf("1e-20") * sym


def test_bmg_err_by_quadrature():
    d = 3
    with mp.workdps(30):
        g, s = mp.mpf(3) / 5, mp.mpf(4) / 5
        A = 1 - g
        dens = lambda yv: g * mp.npdf(yv, 0, s) + A * mp.npdf(yv, 1, s)
        along = mp.quad(lambda yv: (yv / A - 1) ** 2 * dens(yv), [-mp.inf, 0, 1, mp.inf])
        orth = mp.quad(lambda yv: (yv / A) ** 2 * mp.npdf(yv, 0, s), [-mp.inf, 0, mp.inf])
        total = along + (d - 1) * orth  # worst case ||x|| = 1
        sym = mp.mpf(
            sp.N(B.covariance().result.subs({B.gamma: R(3, 5), B.sigma0: R(4, 5), B.d: 3}), 30)
        )
        assert abs(total - sym) <= mp.mpf("1e-20") * sym


# ----------------------------------------------------------------- remainder orders
def _sigma2_exact(c):
    c = mp.mpf(c)
    a = mp.findroot(lambda a: mp.exp(4 * a) - 2 * mp.exp(2 * a) + mp.exp(a) - 1 / c**2, 1 / c**2)
    return 1 / a


@pytest.mark.parametrize("n_terms,slope", [(3, -4), (4, -6), (5, -8)])
def test_gaussian_local_reversion_remainder(n_terms, slope):
    ser = GL.sigma2_in_chi(6).result.truncate(n_terms)
    f = sp.lambdify(GL.chi, ser.expr_in(), "mpmath")
    with mp.workdps(80):
        grid = [mp.mpf(32) * 2**k for k in range(6)]
        out = remainder_order(lambda c: _sigma2_exact(c) - f(c), grid, slope, tol=0.1)
    assert out.verdict == "confirmed", out.evidence


def test_gaussian_local_V_and_inverse_remainders():
    V = sp.lambdify(GL.a, GL.variance().result.subs(GL.sigma0, 1 / sp.sqrt(GL.a)), "mpmath")
    Vs = sp.lambdify(GL.a, GL.variance_series(4).result.expr(), "mpmath")
    inv = sp.lambdify(GL.sigma0, GL.inverse_series(4).result.expr_in(), "mpmath")
    with mp.workdps(60):
        grid_a = [mp.mpf(2) ** -k for k in range(4, 10)]
        assert remainder_order(lambda a: V(a) - Vs(a), grid_a, 5, tol=0.1).verdict == "confirmed"
        grid_s = [mp.mpf(8) * 2**k for k in range(6)]
        out = remainder_order(lambda s: 1 / V(1 / s**2) - inv(s), grid_s, -6, tol=0.1)
        assert out.verdict == "confirmed", out.evidence


def test_bmg_err_expansion_remainder():
    dv = 2
    err = sp.lambdify((B.gamma, B.chi), B.err_in_gamma_chi().result.subs(B.d, dv), "mpmath")
    ser = B.err_expansion(4).result.subs({B.d: dv})
    f = sp.lambdify(B.chi, ser.expr_in(), "mpmath")
    with mp.workdps(80):
        grid = [mp.mpf(100) * 8**k for k in range(6)]
        rem = lambda c: err(1 - c ** (-mp.mpf(2) / 3), c) - f(c)
        # 4 terms: d chi^2, chi^(4/3), chi^(2/3), chi^0; next is chi^(-2/3)
        out = remainder_order(rem, grid, -2 / 3, tol=0.05)
    assert out.verdict == "confirmed", out.evidence


def test_bmg_optimal_expansion_remainder():
    dv = 1
    expr = B.err_in_gamma_chi().result.subs(B.d, dv)
    err = sp.lambdify((B.gamma, B.chi), expr, "mpmath")
    derr = sp.lambdify((B.gamma, B.chi), sp.diff(expr, B.gamma), "mpmath")
    ser = B.optimal_expansion(3).result.subs({B.d: dv})
    f = sp.lambdify(B.chi, ser.expr_in(), "mpmath")
    a_ser = sp.lambdify(
        B.chi, B.optimal_expansion(3).extras["A_series"].subs({B.d: dv}).expr_in(), "mpmath"
    )
    with mp.workdps(60):

        def optimum(c):
            A = mp.findroot(lambda AA: derr(1 - AA, c), a_ser(c))  # stationary point of Err in A
            return err(1 - A, c) / (dv * c**2)

        grid = [mp.mpf(1000) * 8**k for k in range(5)]
        # three terms 1, chi^(-2/3), chi^(-4/3): the remainder is O(chi^-2)
        out = remainder_order(lambda c: optimum(c) - f(c), grid, -2, tol=0.1)
    assert out.verdict == "confirmed", out.evidence


def test_rr_remainder():
    closed = sp.lambdify(RR.chi, RR.err_closed_form().result, "mpmath")
    ser = sp.lambdify(RR.chi, RR.err_in_chi(6).result.expr_in(), "mpmath")
    with mp.workdps(50):
        grid = [mp.mpf(10) * 2**k for k in range(7)]
        assert (
            remainder_order(lambda c: closed(c) - ser(c), grid, -5, tol=0.05).verdict == "confirmed"
        )


def test_privunit_constant_remainder():
    c0 = sp.lambdify(PU.d, PU.constant_at_zero().extras["closed_form"], "mpmath")
    ser = sp.lambdify(PU.d, PU.constant_at_zero().result.expr_in(), "mpmath")
    with mp.workdps(50):
        grid = [mp.mpf(50) * 2**k for k in range(6)]
        assert remainder_order(lambda d: c0(d) - ser(d), grid, -4, tol=0.1).verdict == "confirmed"


def test_central_gaussian_correction_remainder():
    from shufflekit.numeric.kernels import precision as P

    der = CG.correction_factor(3).result
    eps = R(1, 5)
    f = sp.lambdify(CG.w, der.subs({CG.eps: eps}).expr(), "mpmath")
    with mp.workdps(50):
        e = mp.mpf(1) / 5

        def rem(a):
            n = (a / e) ** 2
            return P.gaussian_profile(e, 1, n, dps=40) / P.template(n, e, 1, dps=40) - f(1 / a)

        grid = [mp.mpf(10) * 2 ** (k / 2) for k in range(7)]
        out = remainder_order(rem, grid, -6, tol=0.15)
    assert out.verdict == "confirmed", out.evidence


def test_fitted_slope_sanity():
    assert abs(fitted_slope([1, 2, 4, 8], [1, 0.25, 0.0625, 1 / 64]) + 2) < 1e-12
