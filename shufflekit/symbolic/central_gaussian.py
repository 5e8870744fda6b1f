r"""The central Gaussian mechanism :math:`\mathsf{GM}(\sigma)` and the template :math:`f_{n,\varepsilon}`.

* Privacy profile (Takagi-Liew 2026, eq. (analytic-gauss-delta), App. A.1): for outputs
  :math:`P = N(\Delta, s^2)` and :math:`Q = N(0, s^2)` the hockey-stick divergence
  :math:`\int [p - e^\varepsilon q]_+` is the integral over the half-line where the
  (affine) log likelihood ratio exceeds :math:`\varepsilon`; with
  :math:`s = \sigma/\sqrt n`, :math:`\Delta = 1/n`:
  :math:`\delta = \bar\Phi(a-b) - e^\varepsilon\bar\Phi(a+b)`,
  :math:`a = \varepsilon\sigma\sqrt n`, :math:`b = 1/(2\sigma\sqrt n)`.
* Template (Takagi-Liew 2026, Lemma 2.6): :math:`f_{n,\varepsilon}(\chi) =
  e^{-\chi^2\varepsilon^2 n/2}/(\sqrt{2\pi}\chi^3\varepsilon^2 n^{3/2})`.
* Exact correction factor: with the Mills ratio :math:`M = \bar\Phi/\phi`,
  :math:`\delta/f = e^{ab - b^2/2}\,a^2\,[M(a-b) - M(a+b)]/(2b)`; with
  :math:`ab = \varepsilon/2` fixed this is a series in :math:`1/a` whose leading
  term is :math:`e^{\varepsilon/2}` (Lemma A.1 keeps only that term, and
  :math:`e^{\varepsilon/2}\to 1`).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from shufflekit.mechanisms.gaussian import normal_pdf, y
from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.series import Series
from shufflekit.symbols import chi, n, sigma
from shufflekit.symbols import epsilon as eps

eta = sp.Symbol("eta", positive=True)
a = sp.Symbol("a", positive=True)
b = sp.Symbol("b", positive=True)
w = sp.Symbol("w", positive=True)  # w = 1/a
_t = sp.Symbol("t", positive=True)

SOURCE = "Takagi-Liew 2026, Lemma 2.6 and App. A.1 (Lemma A.1)"


@cache
def _standard_sf() -> sp.Expr:
    u = sp.Symbol("u", real=True)
    return sp.integrate(normal_pdf(u, 0, 1), (u, _x, sp.oo)).rewrite(sp.erfc)


_x = sp.Symbol("x", real=True)


def gaussian_sf(x: sp.Expr) -> sp.Expr:
    r""":math:`\bar\Phi(x) = \tfrac12\operatorname{erfc}(x/\sqrt2)`, obtained (once) by integrating the density."""
    return _standard_sf().subs(_x, x)


def normal_tail(threshold: sp.Expr, mean: sp.Expr, sd: sp.Expr) -> sp.Expr:
    r""":math:`\int_{\text{threshold}}^\infty \phi_{\text{mean},\text{sd}}(y)\,dy` by the substitution
    :math:`u = (y-\text{mean})/\text{sd}` (the density becomes the standard one, checked below)."""
    u = sp.Symbol("u", real=True)
    jac = sp.simplify(normal_pdf(mean + sd * u, mean, sd) * sd - normal_pdf(u, 0, 1))
    if jac != 0:
        raise ValueError("change of variables failed")
    return gaussian_sf((threshold - mean) / sd)


def template(n_: sp.Expr = n, eps_: sp.Expr = eps, chi_: sp.Expr = chi) -> sp.Expr:
    r"""The template :math:`f_{n,\varepsilon}(\chi)` of Lemma 2.6 (a definition of the paper)."""
    return sp.exp(-(chi_**2) * eps_**2 * n_ / 2) / (
        sp.sqrt(2 * sp.pi) * chi_**3 * eps_**2 * n_ ** sp.Rational(3, 2)
    )


@cache
def profile() -> Derivation:
    r"""Derive :math:`\delta_{\mathsf{GM}(\sigma)}(\varepsilon)` from the two Gaussian output laws."""
    s = sp.Symbol("s", positive=True)
    delta_ = sp.Symbol("Delta", positive=True)
    p = normal_pdf(y, delta_, s)
    q = normal_pdf(y, 0, s)
    log_ratio = sp.expand(sp.expand_log(sp.log(p / q), force=True))
    poly = sp.Poly(log_ratio, y)
    slope, intercept = poly.coeff_monomial(y), poly.coeff_monomial(1)
    threshold = sp.simplify((eps - intercept) / slope)  # log ratio > eps  <=>  y > threshold
    delta_expr = normal_tail(threshold, delta_, s) - sp.exp(eps) * normal_tail(threshold, 0, s)
    delta_expr = delta_expr.replace(sp.erfc, lambda arg: sp.erfc(sp.factor(sp.expand(arg))))
    at_mean = delta_expr.subs({s: sigma / sp.sqrt(n), delta_: 1 / n})
    at_mean = at_mean.replace(sp.erfc, lambda arg: sp.erfc(sp.factor(sp.expand(arg))))
    # the same in the (a, b) parametrisation, as Phi-bar functions
    ab_form = gaussian_sf(a - b) - sp.exp(eps) * gaussian_sf(a + b)
    ab_sub = ab_form.subs({a: eps * sigma * sp.sqrt(n), b: 1 / (2 * sigma * sp.sqrt(n))})
    ab_sub = ab_sub.replace(sp.erfc, lambda arg: sp.erfc(sp.factor(sp.expand(arg))))
    check = sp.expand(ab_sub - at_mean)
    return Derivation(
        id="central-gaussian.profile",
        title="privacy profile of the central Gaussian mechanism GM(sigma) from the likelihood ratio",
        result=at_mean,
        variables=(eps, sigma, n),
        assumptions=(
            "zero-out neighbours: sensitivity 1/n",
            "noise sd sigma/sqrt(n)",
            "epsilon > 0",
        ),
        source="Takagi-Liew 2026, eq. (analytic-gauss-delta) and (delta-ab), App. A.1",
        steps=(
            ("log likelihood ratio of N(Delta, s^2) to N(0, s^2)", log_ratio),
            ("privacy loss exceeds epsilon beyond y*", threshold),
            ("hockey-stick integral over y > y*", delta_expr),
            (
                "difference to Phi-bar(a-b) - e^eps Phi-bar(a+b), a = eps sigma sqrt(n), b = 1/(2 sigma sqrt(n))",
                check,
            ),
        ),
        lhs=r"\delta_{\mathsf{GM}(\sigma)}(\varepsilon)",
        extras={"ab_form": ab_form, "ab_identity_residual": check},
    )


@cache
def mills_series(terms: int = 6) -> Series:
    r"""Mills ratio :math:`M(t) = \bar\Phi(t)/\phi(t)` as :math:`t\to\infty`, a series in :math:`1/t`.

    From sympy's expansion of :math:`\operatorname{erfc}` at infinity (eq. (mills)).
    """
    v = sp.Symbol("v", positive=True)
    # the tail is erfc(t/sqrt 2)/2; multiply by 1/phi(t) = sqrt(2 pi) e^{t^2/2} (erfc avoids a PoleError)
    # (sympy expands erfc(u) e^{u^2} at infinity; so expand in u = t/sqrt 2 and map back)
    u = sp.Symbol("u", positive=True)
    mills = gaussian_sf(_t) * sp.sqrt(2 * sp.pi) * sp.exp(_t**2 / 2)
    mills_u = sp.powsimp(sp.expand(mills.subs(_t, sp.sqrt(2) * u)))
    ser = sp.series(mills_u, u, sp.oo, 2 * terms + 1).removeO()
    expr = sp.expand(ser.subs(u, 1 / (sp.sqrt(2) * v)))
    return Series.from_expr(expr, v, 2 * terms + 1, at_infinity=_t)


@cache
def correction_factor(terms: int = 4) -> Derivation:
    r""":math:`\delta_{\mathsf{GM}}/f_{n,\varepsilon}(\sigma)` as a series in :math:`w = 1/a`, :math:`\varepsilon` fixed.

    Exact identity first (from :math:`\phi(a\pm b) = \phi(a)e^{\mp ab - b^2/2}`):
    :math:`\delta/f = e^{ab-b^2/2}a^2[M(a-b)-M(a+b)]/(2b)`; then :math:`b = \varepsilon w/2`
    and :math:`1/(a\mp b) = w/(1\mp\varepsilon w^2/2)` are substituted into the Mills series.
    """
    prof = profile()
    f_ab = sp.exp(-(a**2) / 2) / sp.sqrt(2 * sp.pi) * 2 * b / a**2  # f in the (a, b) variables
    f_check = sp.simplify(
        f_ab.subs({a: eps * sigma * sp.sqrt(n), b: 1 / (2 * sigma * sp.sqrt(n))})
        - template(n, eps, sigma)
    )
    phi_shift = sp.simplify(normal_pdf(a - b, 0, 1) / normal_pdf(a, 0, 1))
    M = mills_series(terms + 3)  # series in v = 1/t
    n_inner = 2 * terms + 6
    inv_minus = Series.make({1: 1}, w) * Series.make({0: 1, 2: -eps / 2}, w).inverse(n_inner)
    inv_plus = Series.make({1: 1}, w) * Series.make({0: 1, 2: eps / 2}, w).inverse(n_inner)
    diff = M.compose(inv_minus) - M.compose(inv_plus)  # M(a-b) - M(a+b)
    gauss = Series.from_expr(sp.exp(-(eps**2) * w**2 / 8), w, 2 * terms + 2)
    factor = (diff * gauss).shift(-3) * (sp.exp(eps / 2) / eps)
    factor = Series.make(factor.terms, w, factor.order).map_coefficients(
        lambda c: sp.factor(sp.expand(c))
    )
    factor = factor.truncate(terms)
    return Derivation(
        id="central-gaussian.asymptotics",
        title="correction factor delta_GM / f_{n,eps}(sigma) to higher orders, in w = 1/(eps sigma sqrt(n))",
        result=factor,
        variables=(eps, w),
        assumptions=("a = eps sigma sqrt(n) -> oo with eps fixed", "b = eps/(2a)", "w = 1/a"),
        source=SOURCE,
        steps=(
            ("f in the (a, b) variables minus the template (zero)", f_check),
            ("phi(a-b)/phi(a)", phi_shift),
            ("Mills ratio M(t) = Phi-bar(t)/phi(t), t -> oo", M),
            ("M(a-b) - M(a+b) in w", diff.truncate(terms)),
            ("profile check residual", prof.extras["ab_identity_residual"]),
        ),
        lhs=r"\frac{\delta_{\mathsf{GM}(\sigma)}(\varepsilon)}{f_{n,\varepsilon}(\sigma)}",
        notes="Leading term exp(eps/2) -> 1 as eps -> 0 recovers Lemma A.1; the first correction is O(1/(eps^2 sigma^2 n)).",
    )


@cache
def template_ratio() -> Derivation:
    r""":math:`f_{n,\varepsilon}(\chi+\eta)/f_{n,\varepsilon}(\chi)` (eq. (ratio-f)) and the monotonicity in :math:`\chi`."""
    ratio = sp.simplify(template(n, eps, chi + eta) / template(n, eps, chi))
    printed = (chi / (chi + eta)) ** 3 * sp.exp(-((chi + eta) ** 2 - chi**2) / 2 * eps**2 * n)
    dlog = sp.simplify(sp.diff(sp.log(template(n, eps, chi)), chi))
    return Derivation(
        id="central-gaussian.template-ratio",
        title="ratio f(chi+eta)/f(chi) of the template and d/dchi log f",
        result=ratio,
        variables=(chi, eta, eps, n),
        assumptions=("chi, eta, eps, n > 0",),
        source="Takagi-Liew 2026, eq. (ratio-f), Lemma 2.6",
        steps=(
            ("d/dchi log f_{n,eps}(chi) (negative: f decreases in chi)", dlog),
            ("ratio minus the printed form (zero)", sp.simplify(ratio - printed)),
        ),
        lhs=r"\frac{f_{n,\varepsilon}(\chi+\eta)}{f_{n,\varepsilon}(\chi)}",
        extras={"dlog": dlog},
    )


@cache
def mse() -> Derivation:
    r""":math:`E\|\mathsf{GM}(\sigma)(x)-\bar x\|^2 = d\sigma^2/n` from the noise density (eq. (gm-mse))."""
    d = sp.Symbol("d", positive=True, integer=True)
    per_coord = sp.integrate(y**2 * normal_pdf(y, 0, sigma / sp.sqrt(n)), (y, -sp.oo, sp.oo))
    return Derivation(
        id="central-gaussian.mse",
        title="mean squared error of GM(sigma)",
        result=sp.simplify(d * per_coord),
        variables=(d, sigma, n),
        source="Takagi-Liew 2026, eq. (gm-mse)",
        steps=(("second moment of one noise coordinate", per_coord),),
        lhs=r"\mathbb E\|\mathsf{GM}(\sigma)(x_{1:n})-\bar x\|_2^2",
    )
