r"""Gaussian local randomizers on the unit ball :math:`\mathbb B_2^d`.

* **Gaussian local randomizer** (Takagi-Liew 2026, Sec. 4.3): :math:`R_x = N(x, \sigma_0^2 I_d)`.
  No blanket (:math:`\gamma = 0`) and no finite local :math:`\varepsilon_0`.
* **Blanket-mixed Gaussian (BMG)** (Takagi-Liew 2026, Algorithm 1):
  :math:`R_x = \gamma\,N(0,\sigma_0^2 I_d) + (1-\gamma)\,N(x,\sigma_0^2 I_d)` and
  :math:`R_\perp = N(0, \sigma_0^2 I_d)` (the blanket).

Densities are sympy expressions in a one-dimensional coordinate :math:`y` along
the direction of the inputs; all neighbouring inputs used by the papers are
collinear with that direction (:math:`x = r e`), and every other coordinate of
:math:`Y` has the same law under every input, so it cancels from each
likelihood ratio.  The symbolic layer derives moments from these densities and
the numeric layer evaluates them: the definitions live only here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from shufflekit.mechanisms.law import ContinuousLaw
from shufflekit.mechanisms.parameters import as_param, check_law_epsilon
from shufflekit.mechanisms.protocol import ContinuousBlanket, Describable, ParamMap

y = sp.Symbol("y", real=True)


def normal_pdf(var: sp.Symbol, mean: Any, sd: Any) -> sp.Expr:
    """Density of :math:`N(\\text{mean}, \\text{sd}^2)` at ``var``."""
    return sp.exp(-((var - mean) ** 2) / (2 * sd**2)) / (sp.sqrt(2 * sp.pi) * sd)


@cache
def gaussian_cross_moment() -> tuple[sp.Symbol, sp.Symbol, sp.Symbol, sp.Symbol, sp.Expr]:
    r""":math:`\int \phi_a\phi_b/\phi_x\,dy` for :math:`\phi_\mu = N(\mu, s^2)` densities, by sympy.

    Returns the symbols ``(a, b, x, s)`` and the integral, which is
    :math:`\exp((a-x)(b-x)/s^2)`; in :math:`d` dimensions the integral factorises
    over coordinates into :math:`\exp(\langle a-x, b-x\rangle/s^2)`.
    """
    a, b, x = sp.symbols("a b x", real=True)
    sd = sp.Symbol("s", positive=True)
    integrand = sp.simplify(normal_pdf(y, a, sd) * normal_pdf(y, b, sd) / normal_pdf(y, x, sd))
    value = sp.simplify(sp.integrate(integrand, (y, -sp.oo, sp.oo)))
    return a, b, x, sd, value


@dataclass(frozen=True)
class ChuaIndex:
    r""":math:`\chi_{chua}` with the configuration (x1, x1' = 0, reference x) attaining the sup."""

    value: Any
    configuration: dict

    def __float__(self) -> float:
        return float(self.value)


@dataclass(frozen=True)
class GaussianLocal(Describable):
    """:math:`R_x = N(x, \\sigma_0^2 I_d)` for :math:`\\|x\\|_2 \\le 1`."""

    sigma0: Any
    d: Any = 1
    name: str = "gaussian-local"

    def __post_init__(self):
        object.__setattr__(self, "sigma0", as_param(self.sigma0, "sigma0", low=0, low_open=True))
        object.__setattr__(self, "d", as_param(self.d, "d", low=1, integer=True))

    gamma = sp.Integer(0)

    def density(self, r: Any, var: sp.Symbol = y) -> sp.Expr:
        """Density of the coordinate along :math:`e` for the input :math:`x = r e`."""
        return normal_pdf(var, r, self.sigma0)

    def eps0(self):
        return sp.oo

    @property
    def params(self) -> ParamMap:
        return ParamMap(sigma0=self.sigma0, d=self.d)

    def blanket(self) -> ContinuousBlanket:
        """No blanket: every output density is a Gaussian centred at the input."""
        return ContinuousBlanket(gamma=sp.Integer(0))

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> None:
        """None: without a blanket (gamma = 0) the amplification variable is undefined."""
        return None

    def chi_lo(self) -> Any:
        """0: chi_lo^2 = gamma / Var[...] and gamma = 0 (Takagi-Liew 2026, Def. 2.4)."""
        return sp.Integer(0)

    def chi_up(self) -> None:
        """None: not used for this mechanism by Takagi-Liew 2026, whose index here is :meth:`chi_chua`."""
        return None

    def variance_l0(self, x1: np.ndarray | Any, x: np.ndarray | Any) -> sp.Expr:
        r""":math:`\mathrm{Var}_{R_x}[(R_{x_1} - R_0)/R_x]` for vectors ``x1``, ``x``.

        Equals :math:`M(x_1,x_1) - 2M(x_1,0) + M(0,0)` with
        :math:`M(a,b) = E_{R_x}[R_aR_b/R_x^2] = \exp(\langle a-x,b-x\rangle/\sigma_0^2)`
        (from :func:`gaussian_cross_moment`; the mean of the ratio difference is 0).
        """
        a, b, xs, sd, moment = gaussian_cross_moment()
        x1 = [sp.nsimplify(v) for v in np.atleast_1d(x1)]
        x = [sp.nsimplify(v) for v in np.atleast_1d(x)]
        zero = [0] * len(x)

        def M(u, v):
            return sp.Mul(
                *[
                    moment.subs({a: ui, b: vi, xs: xi, sd: self.sigma0})
                    for ui, vi, xi in zip(u, v, x)
                ]
            )

        return sp.simplify(M(x1, x1) - 2 * M(x1, zero) + M(zero, zero))

    def chi_chua(self) -> ChuaIndex:
        r""":math:`\chi_{chua} = 1/\sup\sqrt{\mathrm{Var}_{R_x}[\ell_0(Y; x_1, 0, R_x)]}` over the ball.

        By rotation invariance the configuration lives in a plane: ``x = (u, 0)``,
        ``x1 = (v cos t, v sin t)``.  The sup is searched numerically (grid, then
        local refinement) and reported; the value is the exact expression at the
        maximiser when it is a corner of the search box (Takagi-Liew 2026, Prop 4.2 uses
        ``x1 = e``, ``x = -e``).
        """
        from scipy.optimize import minimize

        s2 = float(self.sigma0) ** 2

        def var(p):
            u, v, t = p
            x = np.array([u, 0.0])
            a = np.array([v * np.cos(t), v * np.sin(t)])
            return (
                np.exp((a - x) @ (a - x) / s2)
                - 2 * np.exp((a - x) @ (-x) / s2)
                + np.exp(x @ x / s2)
            )

        grid = [
            (u, v, t)
            for u in np.linspace(-1, 1, 9)
            for v in np.linspace(0, 1, 5)
            for t in np.linspace(0, np.pi, 7)
        ]
        start = max(grid, key=var)
        res = minimize(
            lambda p: -var(p), start, bounds=[(-1, 1), (0, 1), (0, np.pi)], method="L-BFGS-B"
        )
        u, v, t = (round(float(c), 6) for c in res.x)
        corner = abs(abs(u) - 1) < 1e-5 and abs(v - 1) < 1e-5 and min(abs(t), abs(t - np.pi)) < 1e-4
        if corner:
            x1 = np.array([1 if t < 1 else -1])
            x = np.array([int(round(u))])
            value = 1 / sp.sqrt(self.variance_l0(x1, x))
            config = {
                "x1": int(x1[0]),
                "x1_prime": 0,
                "reference": int(x[0]),
                "note": "collinear, opposite sides of the ball",
            }
        else:
            value = sp.Float(1 / np.sqrt(var(res.x)), 15)
            config = {"x_norm": u, "x1_norm": v, "angle": t}
        return ChuaIndex(value=value, configuration=config)


@dataclass(frozen=True)
class BlanketMixedGaussian(Describable):
    """BMG(gamma, sigma0) of Takagi-Liew 2026, Algorithm 1."""

    gamma: Any
    sigma0: Any
    d: Any = 1
    name: str = "bmg"

    def __post_init__(self):
        object.__setattr__(
            self, "gamma", as_param(self.gamma, "gamma", low=0, high=1, low_open=True)
        )
        object.__setattr__(self, "sigma0", as_param(self.sigma0, "sigma0", low=0, low_open=True))
        object.__setattr__(self, "d", as_param(self.d, "d", low=1, integer=True))

    def blanket_density(self, var: sp.Symbol = y) -> sp.Expr:
        return normal_pdf(var, 0, self.sigma0)

    def density(self, r: Any, var: sp.Symbol = y) -> sp.Expr:
        """Output density along :math:`e` for :math:`x = r e`; ``r=None`` is the null input."""
        if r is None:
            return self.blanket_density(var)
        return self.gamma * normal_pdf(var, 0, self.sigma0) + (1 - self.gamma) * normal_pdf(
            var, r, self.sigma0
        )

    def eps0(self):
        return sp.oo

    @property
    def params(self) -> ParamMap:
        return ParamMap(gamma=self.gamma, sigma0=self.sigma0, d=self.d)

    def blanket(self) -> ContinuousBlanket:
        """Blanket of mass gamma with density N(0, sigma0^2 I_d) (Takagi-Liew 2026, Algorithm 1)."""
        return ContinuousBlanket(gamma=self.gamma, density=self.blanket_density())

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> ContinuousLaw:
        """The amplification law of the zero-out pair (x, null), |x| = 1 (the worst case; see
        :meth:`chi_lo`), i.e. :meth:`amplification_law` at r = 1."""
        return self.amplification_law(check_law_epsilon(epsilon), 1)

    def chi_up(self) -> None:
        """None: Takagi-Liew 2026 analyses BMG through chi_lo only (Sec. 4.2, App. C)."""
        return None

    def variance_l0(self, r: Any) -> sp.Expr:
        r""":math:`\mathrm{Var}_{\omega}[\ell_0(Y; x, \perp, \omega)] = \int R_x^2/\omega - 1`
        for :math:`\|x\| = r`, integrated by sympy from the densities."""
        r_ = sp.Symbol("r", nonnegative=True)
        g, sd = sp.Symbol("g", positive=True), sp.Symbol("s", positive=True)
        mixed = g * normal_pdf(y, 0, sd) + (1 - g) * normal_pdf(y, r_, sd)
        second = _second_moment_over_blanket(mixed, normal_pdf(y, 0, sd))
        return sp.simplify((second - 1).subs({g: self.gamma, sd: self.sigma0, r_: r}))

    def chi_lo(self) -> Any:
        r""":math:`\chi_{lo} = \sqrt{\gamma/\sup_{\|x\|\le1}\mathrm{Var}_\omega[\ell_0]}`.

        The variance is increasing in :math:`r = \|x\|` (its derivative is checked
        to be positive), so the sup is at :math:`r = 1`.
        """
        r_ = sp.Symbol("r", positive=True)
        v = self.variance_l0(r_)
        slope = sp.simplify(sp.diff(v, r_))
        from shufflekit.mechanisms.ordering import sign

        if sign(slope) <= 0:
            raise ValueError("variance of l_0 is not increasing in |x|; cannot locate the sup")
        return sp.simplify(sp.sqrt(self.gamma / v.subs(r_, 1)))

    def amplification_law(self, epsilon: Any, r: Any = 1) -> ContinuousLaw:
        r"""Law of :math:`\ell_\varepsilon(Y)` for the zero-out pair :math:`(x, \perp)`,
        :math:`\|x\| = r`, :math:`Y` from the blanket (Takagi-Liew 2026, Appendix C):
        :math:`\ell_\varepsilon = \gamma + (1-\gamma)e^{\langle x, Y\rangle/\sigma_0^2 - r^2/(2\sigma_0^2)} - e^\varepsilon`
        and :math:`\langle x, Y\rangle/\sigma_0^2 = (r/\sigma_0) Z`.

        The exponent is read off the log density ratio, not typed in: with
        :math:`Y = \sigma_0 Z` it is affine in :math:`Z`, and its slope and
        intercept are the two coefficients below.
        """
        z = sp.Symbol("z", real=True)
        ratio = sp.simplify(normal_pdf(y, r, self.sigma0) / normal_pdf(y, 0, self.sigma0))
        log_ratio = sp.expand(sp.expand_log(sp.log(ratio), force=True).subs(y, self.sigma0 * z))
        slope = sp.simplify(log_ratio.coeff(z, 1))
        intercept = sp.simplify(log_ratio.coeff(z, 0))
        return ContinuousLaw(
            a=self.gamma - sp.exp(epsilon),
            b=1 - self.gamma,
            s=slope,
            m=intercept,
            description="l_eps(Y) for the pair (x, null), |x| = r, Y ~ N(0, sigma0^2 I_d)",
        )


@cache
def _second_moment_over_blanket(density: sp.Expr, blanket: sp.Expr) -> sp.Expr:
    r""":math:`\int density^2/blanket\,dy` (sympy; cached per symbolic template)."""
    return sp.simplify(
        sp.integrate(sp.expand(sp.simplify(density**2 / blanket)), (y, -sp.oo, sp.oo))
    )
